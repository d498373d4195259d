//===- WarpgroupMmaToNVVM.cpp - layout.warpgroup_mma to wgmma -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-warpgroup-mma-to-nvvm (Passes.td): each layout.warpgroup_mma
// becomes nvvm.wgmma.mma_async, its matrix descriptors derived from the
// operands' layout descriptors by matchWgmmaOperand (WarpgroupMma.h, the
// one home of the hardware's layouts and encodings).
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"
#include "layout/Evaluator/WarpgroupMma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTWARPGROUPMMATONVVM
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// One operand's matrix descriptor as an i64, or a diagnostic at `op`.
FailureOr<Value> operandDescriptor(OpBuilder &b, WarpgroupMmaOp op,
                                   StringRef name, Value buffer, Value desc,
                                   ValueRange origin, ArrayRef<int64_t> dims,
                                   bool isA, int64_t mnExtent,
                                   WgmmaOperandLayout &layout) {
  Location loc = op.getLoc();
  llvm::Expected<Descriptor> d = traceDescriptor(desc);
  if (!d)
    return op.emitOpError() << name
                            << "'s descriptor cannot be traced to a static "
                               "chain (wgmma's matrix descriptor is fixed at "
                               "compile time): "
                            << llvm::toString(d.takeError());
  auto type = cast<MemRefType>(buffer.getType());
  int64_t eb = type.getElementTypeBitWidth() / 8;
  int64_t mnDim = isA ? dims[0] : dims[1], kDim = isA ? dims[1] : dims[0];
  llvm::Expected<WgmmaOperandLayout> matched =
      matchWgmmaOperand(*d, mnDim, kDim, mnExtent, eb);
  if (!matched)
    return op.emitOpError() << name << " cannot be read by wgmma: "
                            << llvm::toString(matched.takeError());
  layout = *matched;
  if (layout.major != OperandMajor::K && eb != 2)
    return op.emitOpError()
           << name << " cannot be read by wgmma: its " << type.getElementType()
           << " tile is " << (isA ? "M" : "N")
           << "-major, and wgmma reads 8-bit operands K-major only (PTX ISA "
              "9.7.15.5.1: the transposed layouts are for f16 and bf16); "
              "stage the tile with K contiguous";
  int64_t need = sharedSwizzleMode(layout.swizzle).alignment;
  int64_t have = knownBaseAlignment(buffer);
  if (have % need)
    return op.emitOpError()
           << name << "'s buffer must start at a multiple of " << need
           << " bytes for the " << sharedSwizzleMode(layout.swizzle).name
           << " swizzle (its pattern follows the address), but its base is "
              "known aligned only to "
           << have << " (give the workgroup attribution llvm.align = " << need
           << ")";
  Value bytes = workgroupByteAddress(
      b, loc, buffer, OffsetOp::create(b, loc, desc, origin), eb);
  Type i64 = b.getI64Type();
  Value address = arith::IndexCastUIOp::create(b, loc, i64, bytes);
  auto c64 = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(int64_t(v)));
  };
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, c64(4)), c64(0x3FFF));
  return arith::OrIOp::create(b, loc, start,
                              c64(layout.descriptor().encodeWithoutStart()))
      .getResult();
}

LogicalResult lower(WarpgroupMmaOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t n = op.getShape()[1];
  WgmmaOperandLayout la, lb;
  FailureOr<Value> da =
      operandDescriptor(b, op, "a", op.getA(), op.getADesc(), op.getAOrigin(),
                        op.getADims(), /*isA=*/true, 64, la);
  if (failed(da))
    return failure();
  FailureOr<Value> db =
      operandDescriptor(b, op, "b", op.getB(), op.getBDesc(), op.getBOrigin(),
                        op.getBDims(), /*isA=*/false, n, lb);
  if (failed(db))
    return failure();
  // The accumulator as the struct of N / 2 f32 the NVVM op takes and gives.
  MLIRContext *ctx = op.getContext();
  Type f32 = b.getF32Type();
  auto structType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n / 2, f32));
  Value acc = LLVM::UndefOp::create(b, loc, structType);
  for (int64_t i = 0; i < n / 2; ++i)
    acc = LLVM::InsertValueOp::create(
        b, loc, acc, vector::ExtractOp::create(b, loc, op.getAcc(), i), i);
  Type et = cast<MemRefType>(op.getA().getType()).getElementType();
  NVVM::WGMMATypes in = et.isBF16()                 ? NVVM::WGMMATypes::bf16
                        : isa<Float8E4M3FNType>(et) ? NVVM::WGMMATypes::e4m3
                        : isa<Float8E5M2Type>(et)   ? NVVM::WGMMATypes::e5m2
                                                    : NVVM::WGMMATypes::f16;
  // PTX "wgmma.mma_async": A is row-major (K-major) and B column-major
  // (K-major) unless transposed (imm-trans-a / -b, the MN-major forms).
  auto layoutOf = [](const WgmmaOperandLayout &l, bool isA) {
    bool kMajor = l.major == OperandMajor::K;
    return (isA == kMajor) ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  };
  Value d = NVVM::WgmmaMmaAsyncOp::create(
      b, loc, structType, acc, *da, *db,
      NVVM::MMAShapeAttr::get(ctx, 64, n, op.getShape()[2]), in, in,
      NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, layoutOf(la, true), layoutOf(lb, false),
      /*satfinite=*/NVVM::MMAIntOverflowAttr());
  SmallVector<Value> elements;
  for (int64_t i = 0; i < n / 2; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  Value result = vector::FromElementsOp::create(
      b, loc, cast<VectorType>(op.getResult().getType()), elements);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

struct LayoutWarpgroupMmaToNVVMPass
    : layout::impl::LayoutWarpgroupMmaToNVVMBase<LayoutWarpgroupMmaToNVVMPass> {
  void runOnOperation() override {
    SmallVector<WarpgroupMmaOp> ops;
    getOperation()->walk([&](WarpgroupMmaOp op) { ops.push_back(op); });
    for (WarpgroupMmaOp op : ops)
      if (failed(lower(op)))
        return signalPassFailure();
  }
};

} // namespace
