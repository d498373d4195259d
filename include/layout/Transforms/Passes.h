//===- Passes.h - Transformation passes of layout-opt -----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_PASSES_H
#define LAYOUT_TRANSFORMS_PASSES_H

#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace layout {

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
/// multiple of kWorkgroupBufferAlignment bytes.
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

#define GEN_PASS_DECL
#include "layout/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Transforms/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_PASSES_H
