//===- WorkgroupMemory.cpp - Workgroup-memory accesses of kernels ---------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/WorkgroupMemory.h"

#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;

bool mlir::layout::isWorkgroupMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(space))
    return intSpace.getInt() == 3;
  return false;
}

std::optional<SharedAccess> mlir::layout::getSharedAccess(Operation *op) {
  auto make = [&](Value memref, ValueRange indices, Type accessType,
                  bool isWrite) -> std::optional<SharedAccess> {
    SharedAccessKind kind =
        isWrite ? SharedAccessKind::Write : SharedAccessKind::Read;
    auto type = cast<MemRefType>(memref.getType());
    if (!isWorkgroupMemory(type))
      return std::nullopt;
    unsigned bits;
    if (auto vt = dyn_cast<VectorType>(accessType))
      bits = vt.getNumElements() * vt.getElementTypeBitWidth();
    else
      bits = accessType.getIntOrFloatBitWidth();
    return SharedAccess{op, memref, SmallVector<Value>(indices),
                        std::max(1u, bits / 8), kind};
  };
  return llvm::TypeSwitch<Operation *, std::optional<SharedAccess>>(op)
      .Case([&](memref::LoadOp load) {
        return make(load.getMemRef(), load.getIndices(), load.getType(), false);
      })
      .Case([&](memref::StoreOp store) {
        return make(store.getMemRef(), store.getIndices(),
                    store.getValueToStore().getType(), true);
      })
      .Case([&](vector::LoadOp load) {
        return make(load.getBase(), load.getIndices(), load.getType(), false);
      })
      .Case([&](vector::StoreOp store) {
        return make(store.getBase(), store.getIndices(),
                    store.getValueToStore().getType(), true);
      })
      .Case([&](nvgpu::LdMatrixOp load) -> std::optional<SharedAccess> {
        // PTX ldmatrix .m8n8 .b16: each lane's address starts one 16-byte
        // row of an 8x8 matrix; only the first 8 * numTiles lanes'
        // addresses are read.
        std::optional<SharedAccess> access =
            make(load.getSrcMemref(), load.getIndices(),
                 load.getSrcMemref().getType().getElementType(), false);
        if (access) {
          access->accessBytes = 16;
          access->kind = SharedAccessKind::LdMatrix;
          access->activeLanes = 8 * load.getNumTiles();
        }
        return access;
      })
      .Case([&](nvgpu::DeviceAsyncCopyOp copy) {
        // PTX cp.async: each lane writes its dstElements to shared memory
        // (the zero-filled ones included).
        auto type = cast<MemRefType>(copy.getDst().getType());
        return make(copy.getDst(), copy.getDstIndices(),
                    VectorType::get({copy.getDstElements().getSExtValue()},
                                    type.getElementType()),
                    true);
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::string mlir::layout::blockSizeProblem(ArrayRef<int32_t> known) {
  int64_t threads = 1;
  for (int32_t n : known) {
    if (n < 1)
      return llvm::formatv("known_block_size entries must be at least 1, "
                           "got {0}",
                           n)
          .str();
    // Each factor is at least 1, so the running product stays below
    // kMaxBlockThreads * 2^31 and cannot overflow.
    threads *= n;
    if (threads > kMaxBlockThreads)
      return llvm::formatv("known_block_size asks for more than {0} threads "
                           "per block (the most any supported chip allows)",
                           kMaxBlockThreads)
          .str();
  }
  return "";
}

std::optional<SmallVector<int64_t, 3>>
mlir::layout::knownBlockSize(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  if (!func)
    return std::nullopt;
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || !blockSizeProblem(*known).empty())
    return std::nullopt;
  SmallVector<int64_t, 3> size(known->begin(), known->end());
  size.resize(3, 1);
  return size;
}

std::string mlir::layout::describeBuffer(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())) {
      auto workgroup = func.getWorkgroupAttributions();
      auto *it = llvm::find(workgroup, arg);
      if (it != workgroup.end())
        return llvm::formatv("workgroup buffer {0} of @{1}",
                             it - workgroup.begin(), func.getName())
            .str();
      return llvm::formatv("argument {0} of @{1}", arg.getArgNumber(),
                           func.getName())
          .str();
    }
    return "a block argument";
  }
  Operation *def = memref.getDefiningOp();
  if (auto global = dyn_cast<memref::GetGlobalOp>(def))
    return "@" + global.getName().str();
  if (isa<memref::ViewOp, memref::SubViewOp, memref::ReinterpretCastOp,
          memref::CastOp>(def))
    return "a view of " + describeBuffer(def->getOperand(0));
  return "the result of '" + def->getName().getStringRef().str() + "'";
}

WorkgroupLayout mlir::layout::layoutWorkgroupBuffers(gpu::GPUFuncOp func) {
  WorkgroupLayout layout;
  for (auto [i, a] : llvm::enumerate(func.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(a.getType());
    // A buffer may ask for more (llvm.align: wgmma's swizzled buffers
    // follow their pattern's 256 to 1024 bytes).
    int64_t align =
        std::max(kWorkgroupBufferAlignment, askedAttributionAlignment(func, i));
    int64_t bits = type.getElementTypeBitWidth();
    if ((!type.hasStaticShape() || !type.getLayout().isIdentity() ||
         bits % 8 != 0) &&
        !layout.unplaceable)
      layout.unplaceable = a.getArgNumber();
    layout.bytes = llvm::alignTo(layout.bytes, align);
    layout.offsets.push_back(layout.bytes);
    if (type.hasStaticShape())
      layout.bytes += llvm::divideCeil(type.getNumElements() * bits, 8);
  }
  return layout;
}
