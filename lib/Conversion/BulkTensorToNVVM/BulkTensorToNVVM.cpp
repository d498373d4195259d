//===- BulkTensorToNVVM.cpp - TMA copies and mbarriers to NVVM ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-bulk-tensor-to-nvvm (Passes.td): layout.bulk_tensor_load becomes
// cp.async.bulk.tensor with its TMA swizzle derived from the destination's
// layout descriptor (matchTmaBox, WarpgroupMma.h), reading a tensor map that
// the kernel receives as a new parameter and whose encoding it exports
// (docs/tensor-maps.md, the contract with the launchers); the mbarrier ops
// become their NVVM forms.
//
//===----------------------------------------------------------------------===//

#include "BulkTensorToNVVM.h"

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"
#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Runtime/TensorMapSpec.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTBULKTENSORTONVVM
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;
namespace rt = mlir::layout::runtime;

namespace {

/// CUtensorMapL2promotion: CU_TENSOR_MAP_L2_PROMOTION_L2_256B (cuda.h), as
/// CUTLASS's TMA copies ask.
constexpr int64_t kL2Promotion256B = 3;
/// The suspend-time hint of each mbarrier.try_wait, in nanoseconds (PTX
/// ISA 9.7.13.15.16; CUTLASS's ClusterBarrier::wait uses the same).
constexpr int32_t kTryWaitTicks = 0x989680;

/// CUtensorMapDataType (cuda.h) of `type`, or std::nullopt.
std::optional<unsigned> tensorMapDataType(Type type) {
  if (type.isF16())
    return rt::kTensorMapFloat16;
  if (type.isBF16())
    return rt::kTensorMapBFloat16;
  if (type.isF32())
    return rt::kTensorMapFloat32;
  if (type.isF64())
    return rt::kTensorMapFloat64;
  if (type.isInteger(32))
    return rt::kTensorMapInt32;
  if (type.isInteger(64))
    return rt::kTensorMapInt64;
  if (type.getIntOrFloatBitWidth() == 8)
    return rt::kTensorMapUInt8; // int8 and the FP8 types move unchanged.
  return std::nullopt;
}

/// Whether two specs ask for the same map.
bool sameMap(const rt::TensorMapSpec &x, const rt::TensorMapSpec &y) {
  return rt::encodeTensorMapSpecs({x}) == rt::encodeTensorMapSpecs({y});
}

/// The shared-window address of element `index` of workgroup buffer
/// `buffer` (elements of `bytes` bytes), as an LLVM pointer in address
/// space 3.
Value sharedAddress(OpBuilder &b, Location loc, Value buffer, Value index,
                    int64_t bytes) {
  Value at = workgroupByteAddress(b, loc, buffer, index, bytes);
  Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), at);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), i64);
}

Value i32Value(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

Value i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
}

/// The lowering of one kernel's TMA copies and mbarriers.
class KernelLowering {
public:
  explicit KernelLowering(gpu::GPUFuncOp func) : func(func) {}

  LogicalResult run();

private:
  /// The map parameter for `op`'s source, box and mode (added once).
  FailureOr<Value> mapFor(BulkTensorLoadOp op, SharedSwizzle mode);
  LogicalResult lower(BulkTensorLoadOp op);
  /// Exports the maps' words as the global `<kernel>_tensor_maps`.
  LogicalResult exportMaps();

  gpu::GPUFuncOp func;
  /// The maps the kernel takes, in parameter order, and their parameters.
  std::vector<rt::TensorMapSpec> maps;
  SmallVector<Value> params;
};

FailureOr<Value> KernelLowering::mapFor(BulkTensorLoadOp op,
                                        SharedSwizzle mode) {
  auto arg = dyn_cast<BlockArgument>(op.getSource());
  unsigned inputs = func.getFunctionType().getNumInputs();
  if (!arg || arg.getOwner() != &func.getBody().front() ||
      arg.getArgNumber() >= inputs)
    return op.emitOpError()
           << "source must be a memref argument of the kernel (the launcher "
              "encodes its tensor map from the memref it passes)";
  auto type = cast<MemRefType>(op.getSource().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return op.emitOpError() << "source's last dimension must have unit "
                               "stride (a tensor map's innermost), got "
                            << type;
  std::optional<int64_t> dataType = tensorMapDataType(type.getElementType());
  if (!dataType)
    return op.emitOpError()
           << "no tensor-map data type for " << type.getElementType();
  rt::TensorMapSpec spec;
  spec.argument = arg.getArgNumber();
  spec.rank = type.getRank();
  spec.dataType = *dataType;
  spec.elementBytes = type.getElementTypeBitWidth() / 8;
  spec.swizzle = sharedSwizzleMode(mode).tmaSwizzle;
  spec.oobFill = 0; // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: zeros
  spec.l2Promotion = kL2Promotion256B;
  ArrayRef<int64_t> box = op.getBox();
  for (int64_t j = 0, r = box.size(); j < r; ++j)
    spec.box[j] = uint32_t(box[r - 1 - j]);
  if (op.isIm2col()) {
    // The map's fields innermost first: corners W, H, D; strides C, W, H,
    // D, N (the op's are outermost first, spatial dimensions only).
    spec.im2col = true;
    ArrayRef<int64_t> lower = *op.getLowerCorner(),
                      upper = *op.getUpperCorner(),
                      strides = *op.getTraversalStrides();
    int64_t spatial = lower.size();
    spec.traversal[0] = spec.traversal[spatial + 1] = 1;
    for (int64_t j = 0; j < spatial; ++j) {
      spec.lowerCorner[j] = int32_t(lower[spatial - 1 - j]);
      spec.upperCorner[j] = int32_t(upper[spatial - 1 - j]);
      spec.traversal[j + 1] = uint32_t(strides[spatial - 1 - j]);
    }
  }
  for (auto [m, param] : llvm::zip_equal(maps, params))
    if (sameMap(m, spec))
      return param;
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  unsigned at = inputs;
  NamedAttribute align(LLVM::LLVMDialect::getAlignAttrName(),
                       b.getI64IntegerAttr(rt::kTensorMapAlignment));
  if (failed(func.insertArgument(at, LLVM::LLVMPointerType::get(ctx),
                                 b.getDictionaryAttr({align}), op.getLoc())))
    return op.emitOpError() << "cannot add its tensor-map parameter";
  maps.push_back(spec);
  params.push_back(func.getArgument(at));
  return params.back();
}

LogicalResult KernelLowering::lower(BulkTensorLoadOp op) {
  llvm::Expected<Descriptor> d = traceDescriptor(op.getDesc());
  if (!d)
    return op.emitOpError() << "its descriptor cannot be traced to a static "
                               "chain (the TMA swizzle is fixed when the "
                               "launcher encodes the map): "
                            << llvm::toString(d.takeError());
  auto dest = cast<MemRefType>(op.getDest().getType());
  int64_t eb = dest.getElementTypeBitWidth() / 8;
  llvm::Expected<SharedSwizzle> mode =
      matchTmaBox(*d, op.getDestDims(), op.getBox(), eb);
  if (!mode)
    return op.emitOpError() << "its box cannot be written by TMA where the "
                               "descriptor says: "
                            << llvm::toString(mode.takeError());
  const SharedSwizzleMode &m = sharedSwizzleMode(*mode);
  int64_t need = std::max<int64_t>(128, m.alignment);
  int64_t have = knownBaseAlignment(op.getDest());
  if (have % need)
    return op.emitOpError()
           << "dest must start at a multiple of " << need
           << " bytes (TMA's 128, and the " << m.name
           << " swizzle's pattern), but its base is known aligned only to "
           << have << " (give the workgroup attribution llvm.align = " << need
           << ")";
  FailureOr<Value> map = mapFor(op, *mode);
  if (failed(map))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value offset = OffsetOp::create(b, loc, op.getDesc(), op.getOrigin());
  // The CTA's own shared window is part of the cluster's (address space 7),
  // which cp.async.bulk.tensor's classic form (PTX 8.0) writes.
  Value dst = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
      sharedAddress(b, loc, op.getDest(), offset, eb));
  Value bar = sharedAddress(b, loc, op.getBarriers(), op.getBarrier(), 8);
  // Coordinates innermost first, as the tensor map's dimensions.
  SmallVector<Value> coords;
  for (Value i : llvm::reverse(op.getIndices()))
    coords.push_back(i32Value(b, loc, i));
  // im2col's filter offsets: 16-bit, innermost first (PTX ISA,
  // cp.async.bulk.tensor's im2colOffsets).
  SmallVector<Value> offsets;
  for (Value i : llvm::reverse(op.getOffsets()))
    offsets.push_back(
        arith::TruncIOp::create(b, loc, b.getI16Type(), i32Value(b, loc, i)));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, *map, coords, bar, offsets, Value(), Value(),
      op.isIm2col() ? NVVM::TMALoadMode::IM2COL : NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), Value());
  op.erase();
  return success();
}

LogicalResult KernelLowering::exportMaps() {
  func->setAttr(kTensorMapParamsAttr,
                Builder(func.getContext()).getI64IntegerAttr(maps.size()));
  SmallVector<int64_t> words;
  for (uint64_t w : rt::encodeTensorMapSpecs(maps))
    words.push_back(int64_t(w));
  auto module = func->getParentOfType<gpu::GPUModuleOp>();
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  std::string name = rt::tensorMapsGlobalName(func.getName().str());
  if (SymbolTable::lookupSymbolIn(module, name))
    return func.emitOpError() << "cannot export its tensor maps: the module "
                                 "already has a symbol '"
                              << name << "'";
  auto tensor = RankedTensorType::get({int64_t(words.size())}, mb.getI64Type());
  LLVM::GlobalOp::create(
      mb, func.getLoc(),
      LLVM::LLVMArrayType::get(mb.getI64Type(), words.size()),
      /*isConstant=*/true, LLVM::Linkage::External, name,
      DenseElementsAttr::get(tensor, ArrayRef<int64_t>(words)),
      /*alignment=*/8, /*addrSpace=*/4);
  return success();
}

LogicalResult KernelLowering::run() {
  SmallVector<BulkTensorLoadOp> copies;
  func.walk([&](BulkTensorLoadOp op) { copies.push_back(op); });
  if (!copies.empty()) {
    auto top =
        func->getParentOfType<gpu::GPUModuleOp>()->getParentOfType<ModuleOp>();
    WalkResult launched = WalkResult::advance();
    if (top)
      launched = top.walk([&](gpu::LaunchFuncOp launch) {
        return launch.getKernelName() == func.getName()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
    if (launched.wasInterrupted())
      return copies.front().emitOpError()
             << "cannot add the kernel's tensor-map parameters: '"
             << func.getName()
             << "' is launched by a gpu.launch_func of this module; TMA "
                "kernels are launched through the tensor-map ABI "
                "(docs/tensor-maps.md)";
  }
  for (BulkTensorLoadOp op : copies)
    if (failed(lower(op)))
      return failure();
  WalkResult r = func.walk([&](Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto init = dyn_cast<MbarrierInitOp>(op)) {
      NVVM::MBarrierInitOp::create(
          b, loc, sharedAddress(b, loc, init.getBarriers(), init.getIndex(), 8),
          i32Constant(b, loc, init.getArrivals()), Value());
    } else if (auto arrive = dyn_cast<MbarrierArriveExpectTxOp>(op)) {
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(),
          sharedAddress(b, loc, arrive.getBarriers(), arrive.getIndex(), 8),
          i32Constant(b, loc, arrive.getBytes()), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, Value());
    } else if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
      NVVM::MBarrierTryWaitParityOp::create(
          b, loc, sharedAddress(b, loc, wait.getBarriers(), wait.getIndex(), 8),
          i32Value(b, loc, wait.getParity()),
          i32Constant(b, loc, kTryWaitTicks));
    } else {
      return WalkResult::advance();
    }
    op->erase();
    return WalkResult::skip();
  });
  if (r.wasInterrupted())
    return failure();
  return maps.empty() ? success() : exportMaps();
}

struct LayoutBulkTensorToNVVMPass
    : layout::impl::LayoutBulkTensorToNVVMBase<LayoutBulkTensorToNVVMPass> {
  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> funcs;
    getOperation()->walk([&](gpu::GPUFuncOp f) { funcs.push_back(f); });
    for (gpu::GPUFuncOp f : funcs)
      if (failed(KernelLowering(f).run()))
        return signalPassFailure();
  }
};

} // namespace
