//===- XorSwizzle.h - XOR swizzles of workgroup buffers ---------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The swizzle search behind -layout-xor-swizzle, callable without the pass
// (as NVGPU exposes optimizeSharedMemoryReadsAndWrites): for a workgroup
// buffer indexed through one layout descriptor, the XOR swizzle (or row
// padding) that the bank-conflict proof shows removes its conflicts, put on
// the descriptor as `layout.transform` stages. The stages of the two swizzle
// families are exported for code that lays out a buffer itself.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_XORSWIZZLE_H
#define LAYOUT_TRANSFORMS_XORSWIZZLE_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include <vector>

namespace mlir {
namespace layout {

/// A workgroup buffer and its accesses (getSharedAccess), in program order,
/// and those of the hardware units (getHardwareSharedAccesses: wgmma
/// reads, TMA writes), whose buffers keep their descriptors.
struct WorkgroupBufferAccesses {
  Value memref;
  llvm::SmallVector<SharedAccess> accesses;
  llvm::SmallVector<HardwareSharedAccess, 0> hardware;

  /// An op that accesses the buffer (the chip is its gpu.module's).
  Operation *firstOp() const {
    return accesses.empty() ? hardware.front().op : accesses.front().op;
  }
};

/// Every workgroup buffer accessed under `root`, in the order of its first
/// access.
llvm::SmallVector<WorkgroupBufferAccesses>
collectWorkgroupBuffers(Operation *root);

/// Searches the layout of `buffer` on `chip` and rewrites the IR: the
/// first XOR swizzle of the search proved conflict-free for every wave,
/// block and iteration (or, where the proof does not apply, conflict-free
/// in the first wave), else row padding of a packed 2-D workgroup
/// attribution where that reaches zero, else the best swizzle found. Every
/// access must index the 1-D buffer with layout.offset of one descriptor.
/// Emits one remark at the buffer saying what it did and why.
void swizzleWorkgroupBuffer(const Chip &chip,
                            const WorkgroupBufferAccesses &buffer);

/// The stages that put `col -> ((col / v) xor ((row / p) mod (c / v))) * v
/// + col mod v` on top of a descriptor of top lengths [lead..., r, c]: the
/// leading dimensions (pipeline stages) pass through.
std::vector<Stage> swizzleStages(llvm::ArrayRef<int64_t> lead, int64_t r,
                                 int64_t c, int64_t v, int64_t p);

/// One CuTe `Swizzle<B, M, S>` of a linear offset u:
/// `u xor ((u >> S) & ((2^B - 1) << M))`.
struct LinearSwizzle {
  int64_t bits = 0, base = 0, shift = 0;
};

/// The stages that put the swizzles `terms`, one after the other, on the
/// row-major offset `u = row * c + col` of a descriptor of top lengths
/// [lead..., r, c], so that the xor may take row bits into column blocks
/// across rows shorter than the banks (a 64-byte row pair as one 128-byte
/// line); the leading dimensions pass through.
std::vector<Stage> linearSwizzleStages(llvm::ArrayRef<int64_t> lead, int64_t r,
                                       int64_t c,
                                       llvm::ArrayRef<LinearSwizzle> terms);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_XORSWIZZLE_H
