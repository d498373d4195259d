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

#include "layout/Conversion/InlinePtx.h"
#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"
#include "layout/Evaluator/WarpgroupMma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTWARPGROUPMMATONVVM
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Whether `acc` is a zero vector (the first K step of a product that
/// starts from zero): wgmma then runs with scale-d 0 and the registers are
/// not initialized.
bool isZeroAccumulator(Value acc) {
  return matchPattern(acc, m_PosZeroFloat());
}

/// One operand's matrix descriptor as an i64, or a diagnostic at `op`.
FailureOr<Value> operandDescriptor(OpBuilder &b, Operation *op, StringRef name,
                                   Value buffer, Value desc, ValueRange origin,
                                   ArrayRef<int64_t> dims, bool isA,
                                   int64_t mnExtent,
                                   WgmmaOperandLayout &layout) {
  Location loc = op->getLoc();
  llvm::Expected<Descriptor> d = traceDescriptor(desc);
  if (!d)
    return op->emitOpError() << name
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
    return op->emitOpError() << name << " cannot be read by wgmma: "
                             << llvm::toString(matched.takeError());
  layout = *matched;
  if (layout.major != OperandMajor::K && eb != 2)
    return op->emitOpError()
           << name << " cannot be read by wgmma: its " << type.getElementType()
           << " tile is " << (isA ? "M" : "N")
           << "-major, and wgmma reads 8-bit operands K-major only (PTX ISA "
              "9.7.15.5.1: the transposed layouts are for f16 and bf16); "
              "stage the tile with K contiguous";
  int64_t need = sharedSwizzleMode(layout.swizzle).alignment;
  int64_t have = knownBaseAlignment(buffer);
  if (have % need)
    return op->emitOpError()
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
  // The accumulator as the struct of N / 2 f32 the NVVM op takes and gives;
  // a zero accumulator is not loaded: scale-d 0 (D = A * B).
  MLIRContext *ctx = op.getContext();
  Type f32 = b.getF32Type();
  auto structType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n / 2, f32));
  Value acc = LLVM::UndefOp::create(b, loc, structType);
  bool zero = isZeroAccumulator(op.getAcc());
  for (int64_t i = 0; i < n / 2 && !zero; ++i)
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
      NVVM::WGMMATypes::f32,
      zero ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutOf(la, true),
      layoutOf(lb, false),
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

/// `op`'s register-A wgmma as inline PTX (MLIR 22's nvvm.wgmma.mma_async
/// takes A only as a descriptor, llvm/llvm-project#133733): PTX ISA
/// 9.7.15.5.2 "wgmma.mma_async ... d, a, b-desc, scale-d, imm-scale-a,
/// imm-scale-b, imm-trans-b" with d the N / 2 f32 accumulators (read and
/// written: "=f" outputs tied to the inputs), a four .b32 registers of
/// .f16x2 / .bf16x2, scale-d a predicate set to accumulate.
LogicalResult lower(WarpgroupMmaRegAOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t n = op.getShape()[1];
  WgmmaOperandLayout lb;
  FailureOr<Value> db =
      operandDescriptor(b, op, "b", op.getB(), op.getBDesc(), op.getBOrigin(),
                        op.getBDims(), /*isA=*/false, n, lb);
  if (failed(db))
    return failure();
  Type i32 = b.getI32Type();
  SmallVector<Value> operands;
  bool zero = isZeroAccumulator(op.getAcc());
  Value undef = LLVM::UndefOp::create(b, loc, b.getF32Type());
  for (int64_t i = 0; i < n / 2; ++i)
    operands.push_back(
        zero ? undef : vector::ExtractOp::create(b, loc, op.getAcc(), i));
  Value packed =
      vector::BitCastOp::create(b, loc, VectorType::get({4}, i32), op.getA());
  for (int64_t i = 0; i < 4; ++i)
    operands.push_back(vector::ExtractOp::create(b, loc, packed, i));
  operands.push_back(*db);
  // scale-d as a register (setp wants one): 1, D = A * B + D; 0 for a
  // zero accumulator, D = A * B.
  operands.push_back(
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(zero ? 0 : 1))
          .getResult());
  Type et = cast<VectorType>(op.getA().getType()).getElementType();
  StringRef in = et.isBF16() ? "bf16" : "f16";
  std::string d, constraints;
  for (int64_t i = 0; i < n / 2; ++i) {
    d += llvm::formatv("{0}${1}", i ? ", " : "", i).str();
    constraints += "=f,";
  }
  for (int64_t i = 0; i < n / 2; ++i)
    constraints += llvm::formatv("{0},", i).str();
  constraints += "r,r,r,r,l,r";
  int64_t a0 = n; // after the outputs and their tied inputs
  std::string text = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, ${9}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{0}k16.f32.{1}.{1} {{{2}}, "
      "{{${3}, ${4}, ${5}, ${6}}, ${7}, p, 1, 1, {8};\n}",
      n, in, d, a0, a0 + 1, a0 + 2, a0 + 3, a0 + 4,
      lb.major == OperandMajor::K ? 0 : 1, a0 + 5);
  MLIRContext *ctx = op.getContext();
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(n / 2, b.getF32Type()));
  auto asmOp = createInlinePtx(b, loc, structType, operands, text, constraints,
                               /*sideEffects=*/true);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < n / 2; ++i)
    elements.push_back(
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  Value result = vector::FromElementsOp::create(
      b, loc, cast<VectorType>(op.getResult().getType()), elements);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

struct LayoutWarpgroupMmaToNVVMPass
    : layout::impl::LayoutWarpgroupMmaToNVVMBase<LayoutWarpgroupMmaToNVVMPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<WarpgroupMmaOp, WarpgroupMmaRegAOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult lowered =
          TypeSwitch<Operation *, LogicalResult>(op)
              .Case([](WarpgroupMmaOp op) { return lower(op); })
              .Case([](WarpgroupMmaRegAOp op) { return lower(op); });
      if (failed(lowered))
        return signalPassFailure();
    }
  }
};

} // namespace
