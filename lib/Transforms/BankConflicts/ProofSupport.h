//===- ProofSupport.h - What the proof and brute force share ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The pieces of the bank-conflict proof (Proof.cpp) that brute force and the
// cheap sample (Simulation.cpp) reuse: an access's geometry, the memo of its
// threads' values kept between proofs, and the limits.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_PROOFSUPPORT_H
#define LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_PROOFSUPPORT_H

#include "AddressInterpreter.h"

#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace mlir {
namespace layout {
namespace bank {

inline constexpr llvm::StringLiteral kUnknownBlockSize =
    "the kernel's block size is unknown (set known_block_size on the "
    "gpu.func)";

/// The run-time extents sampleConflicts tries (odd and even, a prime).
inline constexpr int64_t kSampleExtents[] = {1024, 1025, 1031, 8191};

/// The most thread evaluations (cases, i.e. residue combinations, times
/// the block's threads) and the most lane evaluations of the counter a
/// proof may take; the threads' values of each case are kept for the next
/// proof of the access (another layout) up to kMaxKeptThreads.
inline constexpr int64_t kMaxThreadEvaluations = int64_t(1) << 19;
inline constexpr int64_t kMaxCountedLanes = int64_t(1) << 22;
inline constexpr int64_t kMaxKeptThreads = int64_t(1) << 16;

/// What every evaluation of an access needs: its kernel's block size and
/// its buffer's static strides, offset and element bytes.
struct AccessGeometry {
  SmallVector<int64_t, 3> block;
  SmallVector<int64_t> strides;
  int64_t offset = 0, elementBytes = 1;
};

/// The geometry of `access`, or why it has none.
std::string accessGeometry(const SharedAccess &access, AccessGeometry &g);

/// The values fed by layout.offset / layout.valid of an overridden
/// descriptor: what a proof with other overrides must evaluate again.
DenseSet<Value>
overriddenValues(ArrayRef<std::pair<Value, const Descriptor *>> overrides);

} // namespace bank

/// One access's evaluations kept between proofs (ProofSession).
struct ProofSession::AccessMemo {
  SmallVector<bank::SymbolInfo> symbols;
  DenseMap<std::pair<const void *, int64_t>, unsigned> symbolIds;
  /// Per case, per thread (case * threads + thread), for `symbols`' splits.
  std::vector<DenseMap<Value, bank::Sym>> lanes;
  /// sampleConflicts' threads, per sampled extent.
  std::vector<std::vector<DenseMap<Value, bank::Sym>>> sample;
};

struct ProofSession::Simulation {
  /// Per thread, its values at the point simulated last.
  std::vector<DenseMap<Value, bank::Sym>> threads;
};

} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_PROOFSUPPORT_H
