//===- BankConflicts.h - A static model of shared-memory banks --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The bank model behind -layout-analyze-bank-conflicts and
// -layout-xor-swizzle: per target, the banks of workgroup memory and which
// lanes of a wave/warp are served together; per access, the byte address of
// every lane of the first wave, found by evaluating the index computation
// (thread ids, constants, arith/affine ops, layout.offset through the
// evaluator) with each lane's thread id.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_BANKCONFLICTS_H
#define LAYOUT_TRANSFORMS_BANKCONFLICTS_H

#include "layout/Evaluator/Descriptor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// The workgroup-memory banks of one target.
struct BankModel {
  llvm::StringRef chip;
  /// Number of banks and the width of each, in bytes.
  unsigned numBanks;
  unsigned bankBytes;
  /// Lanes of a wave (AMD) or warp (NVIDIA).
  unsigned waveSize;
  /// Where the numbers come from.
  llvm::StringRef source;

  /// Lanes served in one phase for accesses of `accessBytes` per lane: one
  /// phase moves numBanks * bankBytes bytes (so 128 bytes on 32 banks: a
  /// whole warp for 4-byte accesses, quarter warps of 8 lanes for 16-byte
  /// ones, 8 phases of 8 lanes for a wave64's ds_read_b128).
  unsigned lanesPerPhase(unsigned accessBytes) const;
};

/// The model of `chip` (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...), or
/// std::nullopt for a chip the model does not know.
std::optional<BankModel> getBankModel(llvm::StringRef chip);

/// The outcome of one access (all lanes of one wave).
struct ConflictCount {
  /// Phases the access needs, and the cycles it takes (one per phase when
  /// there is no conflict).
  unsigned phases = 0;
  unsigned cycles = 0;
  /// The worst number of distinct words in one bank within a phase.
  unsigned maxWays = 0;
  /// cycles - phases: the extra cycles the conflicts cost.
  unsigned extra() const { return cycles - phases; }
};

/// Counts the conflicts of one access: `laneBytes[i]` is lane i's byte
/// address, each lane touching `accessBytes` bytes. Lanes that read the same
/// word are served together (broadcast); distinct words in one bank within a
/// phase serialize.
ConflictCount countConflicts(const BankModel &model,
                             llvm::ArrayRef<int64_t> laneBytes,
                             unsigned accessBytes);

/// A workgroup-memory access of a kernel: its memref, indices and width.
struct SharedAccess {
  Operation *op;
  Value memref;
  llvm::SmallVector<Value> indices;
  unsigned accessBytes;
  bool isWrite;
  /// The lanes of a wave that access memory, the first ones: 0 for all of
  /// them; 8 * numTiles for nvgpu.ldmatrix, which reads the row addresses
  /// of lanes 0-7 (.x1) or 0-15 (.x2) only and ignores the others'.
  unsigned activeLanes = 0;
};

/// The access `op` makes to workgroup memory (memref.load/store,
/// vector.load/store on a memref in #gpu.address_space<workgroup> or
/// address space 3), or std::nullopt. nvgpu.ldmatrix is a 16-byte read per
/// lane at the lane's address (a row of an 8x8 matrix of 16-bit elements),
/// served in phases of 8 lanes like any 16-byte access on NVIDIA: each
/// phase reads one matrix's 8 rows.
std::optional<SharedAccess> getSharedAccess(Operation *op);

/// Evaluates index computations for given thread ids: constants, arith and
/// affine ops, gpu.thread_id / block_id (0) / block_dim / lane_id, the first
/// iteration of enclosing scf.for loops, and layout.offset / layout.valid of
/// traceable descriptors (through the evaluator).
class IndexInterpreter {
public:
  IndexInterpreter(llvm::ArrayRef<int64_t> blockSize,
                   llvm::ArrayRef<int64_t> threadId, int64_t dynamicExtent = 0)
      : blockSize(blockSize.begin(), blockSize.end()),
        threadId(threadId.begin(), threadId.end()),
        dynamicExtent(dynamicExtent) {}

  /// The value of `v`, or std::nullopt (then `why` says which op stopped
  /// the evaluation).
  std::optional<int64_t> eval(Value v);
  /// Evaluates layout.offset / layout.valid of `desc` with `d` instead of
  /// its traced chain (how the swizzle search tries a candidate layout
  /// without rewriting the IR).
  void overrideDescriptor(Value desc, const Descriptor *d) {
    overrides[desc] = d;
  }
  std::string why;

private:
  std::optional<int64_t> evalArith(Operation *op);
  std::optional<int64_t> evalOther(Operation *op);
  /// Records the first reason the evaluation stopped.
  std::optional<int64_t> fail(const llvm::Twine &msg);

  llvm::SmallVector<int64_t, 3> blockSize;
  llvm::SmallVector<int64_t, 3> threadId;
  /// The value of memref.dim of a dynamic extent (a sample: addresses that
  /// depend on run-time extents are evaluated at several).
  int64_t dynamicExtent;
  llvm::DenseMap<Value, int64_t> cache;
  llvm::DenseMap<Value, const Descriptor *> overrides;
};

/// Sample values of dynamic extents (memref.dim): the model evaluates an
/// access at each and keeps the worst.
constexpr int64_t kDynamicExtentSamples[] = {1024, 1025, 1031, 8191};

/// The byte address of `access` for every lane of the first wave of a block
/// of `blockSize` (threads linearized x fastest) that accesses memory (the
/// first `access.activeLanes`, when set), with dynamic extents at
/// `dynamicExtent`, or std::nullopt with `why`.
std::optional<llvm::SmallVector<int64_t>> laneAddresses(
    const SharedAccess &access, llvm::ArrayRef<int64_t> blockSize,
    unsigned waveSize, int64_t dynamicExtent, std::string &why,
    llvm::ArrayRef<std::pair<Value, const Descriptor *>> overrides = {});

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

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_BANKCONFLICTS_H
