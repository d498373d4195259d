//===- WorkgroupMemory.h - Workgroup-memory accesses of kernels -*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The facts about a kernel's workgroup memory (LDS, shared memory) that the
// tile pass, the bank-conflict analysis, the swizzle and the test passes all
// ask: which ops access it and how wide, which buffer an access goes to,
// and the kernel's block size.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_WORKGROUPMEMORY_H
#define LAYOUT_TRANSFORMS_WORKGROUPMEMORY_H

#include "layout/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// Whether `type` is in workgroup memory (#gpu.address_space<workgroup>, or
/// address space 3, which both AMDGPU and NVPTX use for it).
bool isWorkgroupMemory(MemRefType type);

/// A workgroup-memory access of a kernel: its memref, indices and width.
struct SharedAccess {
  Operation *op;
  Value memref;
  llvm::SmallVector<Value> indices;
  unsigned accessBytes;
  SharedAccessKind kind;
  /// The lanes of a wave that access memory, the first ones: 0 for all of
  /// them; 8 * numTiles for nvgpu.ldmatrix, which reads the row addresses
  /// of lanes 0-7 (.x1) or 0-15 (.x2) only and ignores the others'.
  unsigned activeLanes = 0;
  bool isWrite() const { return kind == SharedAccessKind::Write; }
};

/// The access `op` makes to workgroup memory (memref.load/store,
/// vector.load/store, nvgpu.ldmatrix, nvgpu.device_async_copy on a memref in
/// #gpu.address_space<workgroup> or address space 3), or std::nullopt.
std::optional<SharedAccess> getSharedAccess(Operation *op);

/// "workgroup buffer 0 of @kernel", "@global", ...: names the buffer an
/// access goes to, for remarks.
std::string describeBuffer(Value memref);

/// The most threads a block may have on every supported chip (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability":
/// 1024 threads per block; AMDGPU: a workgroup of at most 1024 work-items,
/// HIP Programming Guide).
constexpr int64_t kMaxBlockThreads = 1024;

/// Why `known` (a gpu.func known_block_size) cannot be a block size: an
/// entry below 1, or more than kMaxBlockThreads threads in all; empty when
/// it can.
std::string blockSizeProblem(llvm::ArrayRef<int32_t> known);

/// The block size of the kernel around `op` (gpu.func known_block_size, 1
/// for dimensions it leaves out), or std::nullopt where it has none or one
/// that blockSizeProblem rejects.
std::optional<llvm::SmallVector<int64_t, 3>> knownBlockSize(Operation *op);

/// On a gpu.func kernel: its launcher passes dynamic shared memory, so the
/// tile pass's default pipeline may use all the workgroup memory a block
/// can have (NVIDIA: up to 227 KiB on sm_90 instead of 48 KiB static).
constexpr llvm::StringLiteral kDynamicSharedMemoryAttr =
    "layout.dynamic_shared_memory";
/// Set by -layout-dynamic-shared-memory on the kernels it moved: the bytes
/// of dynamic shared memory their launcher passes.
constexpr llvm::StringLiteral kDynamicSharedMemoryBytesAttr =
    "layout.dynamic_shared_memory_bytes";

/// Where a kernel's workgroup buffers lie in one block of workgroup memory,
/// as -layout-dynamic-shared-memory places them: in order, each at a
/// multiple of kWorkgroupBufferAlignment bytes, or of its `llvm.align`
/// where that is more.
struct WorkgroupLayout {
  llvm::SmallVector<int64_t> offsets;
  /// The bytes from the first buffer's start to the last one's end.
  int64_t bytes = 0;
  /// The first attribution that is not a static, identity-layout memref of
  /// whole bytes (counted by its bits, rounded up, but not placeable).
  std::optional<unsigned> unplaceable;
};

/// Every buffer starts on a multiple of this many bytes: a whole row of 32
/// four-byte banks, so that a buffer's bank pattern is the one the bank
/// model and the swizzle search saw, and every vector access stays aligned.
constexpr int64_t kWorkgroupBufferAlignment = 128;

/// The layout of `func`'s workgroup attributions.
WorkgroupLayout layoutWorkgroupBuffers(gpu::GPUFuncOp func);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_WORKGROUPMEMORY_H
