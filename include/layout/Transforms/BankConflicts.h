//===- BankConflicts.h - Bank conflicts proved over a kernel ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The bank model behind -layout-analyze-bank-conflicts and
// -layout-xor-swizzle. For one workgroup-memory access it finds the worst
// conflict degree over every wave of the block, every block and every loop
// iteration, or says why it cannot:
//
// * Every thread of the block is evaluated (so every wave), with its thread
//   ids; constants come from each op's own folder.
// * What differs between blocks and iterations is a *symbol*: a block id, a
//   loop's iteration number, a run-time extent (memref.dim), a scalar kernel
//   argument. Addresses are evaluated as affine forms c + sum_i k_i t_i in
//   them. A division, remainder, mask or xor by a constant that a
//   coefficient does not divide splits the symbol by residue (j = r + m t,
//   each r evaluated), so the form stays exact; a compare or select on a
//   symbolic value enumerates a loop's iterations when their number is known
//   and otherwise stops the proof with the reason. A product of two
//   symbolic values enumerates a side whose symbols are all bounded; else
//   each product t_i * t_j becomes a symbol of its own, free of t_i and
//   t_j: the proof covers a superset of the values, an upper bound
//   (ConflictProof::exact false unless the bound is one way).
// * The bank of `c + k t` repeats when k t moves by numBanks * bankBytes
//   bytes, so t is enumerated over one period: the count of every other t is
//   among them. Lanes whose forms differ only in t are counted as distinct
//   words (an upper bound, exact where all lanes of a phase share the form).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_BANKCONFLICTS_H
#define LAYOUT_TRANSFORMS_BANKCONFLICTS_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Target/BankModel.h"
#include "layout/Target/Chip.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// A descriptor traced once per analysis, shared by every lane: the
/// descriptor, or why it cannot be traced.
struct TracedDescriptor {
  std::optional<Descriptor> descriptor;
  std::string why;
};
using DescriptorCache = llvm::DenseMap<Value, TracedDescriptor>;

/// What proofs of the same accesses share: the traced descriptors and, per
/// access, every lane's evaluation of the values that no overridden
/// descriptor feeds (the swizzle search proves each access once per
/// candidate layout; only layout.offset is evaluated again). Valid while
/// the IR it saw is unchanged.
struct ProofSession {
  DescriptorCache descriptors;
  /// Whether each access's threads are kept for its next proof (the swizzle
  /// search proves an access once per candidate layout); off where each
  /// access is proved once (-layout-analyze-bank-conflicts), so that at
  /// most one case's threads are in memory.
  bool keepThreads = true;
  /// The thread evaluations the proofs of this session may still take
  /// (negative: unbounded). A proof that would need more gives up and says
  /// so (ConflictProof::why).
  int64_t evaluationBudget = -1;
  /// The budget it started with, for the proofs' explanations.
  int64_t initialBudget = -1;
  struct AccessMemo;
  llvm::DenseMap<Operation *, std::shared_ptr<AccessMemo>> accesses;
  /// simulateConflicts' threads (cleared for each simulated point).
  struct Simulation;
  std::shared_ptr<Simulation> simulation;
  /// proveHardwareConflicts' proofs, shared by the copies of an op.
  struct HardwareMemo;
  std::shared_ptr<HardwareMemo> hardware;
};

/// What the analysis proved about one access.
struct ConflictProof {
  /// Whether `worst` holds for every wave, block and iteration.
  bool proved = false;
  /// Why not, when not proved.
  std::string why;
  /// The worst wave's count over everything enumerated.
  ConflictCount worst;
  /// False where `worst` is an upper bound (lanes whose addresses move
  /// differently with a block or iteration were counted as distinct words).
  bool exact = true;
  /// The waves of the block.
  unsigned waves = 0;
  /// What differs between blocks and iterations and was covered: "block id
  /// x", "the iteration of the loop at file:3:5", ...
  llvm::SmallVector<std::string> symbols;
  /// The phase rule of the access.
  std::string phases;
};

/// Proves the worst conflict count of `access` on `chip` over every wave
/// of its kernel's block (known_block_size), every block and every
/// iteration. `overrides` evaluate layout.offset of a descriptor value with
/// another descriptor (how the swizzle search tries a layout without
/// rewriting the IR).
ConflictProof proveConflicts(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    llvm::ArrayRef<std::pair<Value, const Descriptor *>> overrides = {});

/// A lower bound of proveConflicts' count, cheap: the worst first wave of
/// block 0 in the first iteration with arguments 0 and run-time extents of
/// 1024, 1025, 1031 and 8191 (points every proof covers), every lane
/// evaluated with concrete values. The swizzle search
/// proves only layouts whose bound beats the best proved so far.
std::optional<ConflictCount>
sampleConflicts(const Chip &chip, const SharedAccess &access,
                ProofSession &session,
                llvm::ArrayRef<std::pair<Value, const Descriptor *>> overrides,
                std::string &why);

/// The first wave of `access` at the first point sampleConflicts takes
/// (block 0, the first iteration, arguments 0, run-time extents of 1024):
/// each lane's byte address (std::nullopt where it does not access), the
/// value each of `probes` takes in each lane (std::nullopt where not
/// concrete; -layout-show access=kernel probes the layout.offset that
/// indexes the access, to say which element each lane touches), and the
/// bank model's count of the wave.
struct SampledWave {
  llvm::SmallVector<std::optional<int64_t>> bytes;
  llvm::SmallVector<llvm::SmallVector<std::optional<int64_t>>> probes;
  ConflictCount count;
};

/// Evaluates SampledWave for `access` on `chip` with the address
/// interpreter of the proofs, or std::nullopt with `why`.
std::optional<SampledWave> sampleFirstWave(const Chip &chip,
                                           const SharedAccess &access,
                                           llvm::ArrayRef<Value> probes,
                                           ProofSession &session,
                                           std::string &why);

/// "proved for all 8 waves, all blocks and all iterations" or "not proved:
/// <why>".
std::string describeProof(const ConflictProof &proof);

/// A workgroup-memory access that a hardware unit makes from a descriptor
/// rather than threads from addresses (SharedWavefronts.h): an operand read
/// of layout.warpgroup_mma or the box write of layout.bulk_tensor_load.
struct HardwareSharedAccess {
  enum class Unit : uint8_t { WgmmaA, WgmmaB, Tma };
  Operation *op;
  Unit unit;
  /// The buffer and the descriptor the op indexes it through.
  Value memref, desc;
  /// wgmma: the top dimensions of M or N and of K, and the tile's M or N
  /// extent (64 for A, N for B); the tile is mnExtent x 16.
  int64_t mnDim = 0, kDim = 0, mnExtent = 0;
  /// TMA: the descriptor dimension of each box dimension, and the box.
  llvm::SmallVector<int64_t, 4> destDims, box;

  bool isWrite() const { return unit == Unit::Tma; }
  /// "wgmma reads of A", "wgmma reads of B", "TMA box writes".
  std::string describe() const;
};

/// The hardware accesses of `op`: A's and B's reads of a
/// layout.warpgroup_mma, the write of a layout.bulk_tensor_load; none for
/// any other op.
llvm::SmallVector<HardwareSharedAccess, 2>
getHardwareSharedAccesses(Operation *op);

/// What the bank model proved about one hardware access.
struct HardwareAccessProof {
  /// The worst tile origin's count, its wavefronts summed (phases: the
  /// wavefronts; proved false, with why, where the hardware cannot make
  /// the access as the descriptor says).
  ConflictProof proof;
  /// The tile origins counted, and the wavefronts of each.
  int64_t origins = 0, wavefronts = 0;
  /// The hardware swizzle mode the descriptor matches ("128B"), empty if
  /// none.
  std::string mode;
  /// Why the lowering refuses the access (no hardware mode, a base not
  /// aligned to the mode's pattern); empty where it lowers it.
  std::string refused;
  /// The wavefront model counted (SharedWavefronts.h), in words.
  std::string model;
};

/// Proves the bank conflicts of `access` on `chip` under the wavefront
/// model of SharedWavefronts.h: its addresses are its descriptor's at every
/// tile origin that matchWgmmaOperand / matchTmaBox prove (every multiple
/// of the tile: each pipeline stage, K step and warpgroup tile the op may
/// take, the op's promise), which the hardware reads or writes where the
/// descriptor matches one of its modes from an aligned base; each origin's
/// wavefronts are counted by countConflicts. Where the descriptor matches
/// no mode, the count is what the descriptor's core matrices (box chunks)
/// would cost, not proved, and `refused` says why.
HardwareAccessProof proveHardwareConflicts(const Chip &chip,
                                           const HardwareSharedAccess &access,
                                           ProofSession &session);

/// "wgmma reads of A in the 128B swizzle mode, 16 wavefronts per
/// instruction (one wavefront per core matrix, 8 rows of 16 bytes)".
std::string describeHardwareAccess(const HardwareSharedAccess &access,
                                   const HardwareAccessProof &proof);

/// "proved for all 12 origins of its 64 x 16 tile ..., all blocks and all
/// iterations" or "not proved: <why>".
std::string describeHardwareProof(const HardwareSharedAccess &access,
                                  const HardwareAccessProof &proof);

/// The run-time values brute force gives a kernel's symbols.
struct SimulationPoint {
  /// Dynamic extents (memref.dim).
  int64_t extent = 0;
  /// The strides and offset of the k-th memref whose strided metadata the
  /// access reads: extent + strideDelta + k * memrefStep.
  int64_t strideDelta = 0;
  int64_t memrefStep = 0;
  /// Blocks in each dimension of the grid (gpu.grid_dim).
  int64_t gridSize = 1 << 16;
};

/// Brute force, for tests: the conflict count of each of `accesses` (of one
/// kernel) for the block ids `blockId`, in the iterations `iterations` of
/// the scf.for loops around them (loop op -> iteration number from 0; a
/// missing loop takes its first) and with run-time values `point`: the
/// worst wave of the block, every lane evaluated with concrete values.
/// std::nullopt with `why[i]` where access i cannot be evaluated. The
/// accesses share each thread's evaluation: what their index computations
/// have in common is evaluated once per point. `session` keeps the traced
/// descriptors and the threads' value maps between calls.
llvm::SmallVector<std::optional<ConflictCount>>
simulateConflicts(const Chip &chip, llvm::ArrayRef<SharedAccess> accesses,
                  ProofSession &session, llvm::ArrayRef<int64_t> blockId,
                  const llvm::DenseMap<Operation *, int64_t> &iterations,
                  const SimulationPoint &point,
                  llvm::MutableArrayRef<std::string> why);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_BANKCONFLICTS_H
