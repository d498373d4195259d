//===- RandomChains.h - Random valid descriptors for testing ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Builds random valid descriptors (every base kind, every transform kind,
// up to a given depth) for the property tests of the evaluator's rewrites
// and for the differential test of the lowering, which runs the generated
// chains on the CPU and compares each coordinate with the evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TESTING_RANDOMCHAINS_H
#define LAYOUT_TESTING_RANDOMCHAINS_H

#include "layout/Evaluator/Descriptor.h"

#include <random>

namespace mlir {
namespace layout {
namespace chains {

struct RandomChainOptions {
  /// Stages on top of the base: uniform in [0, maxDepth].
  unsigned maxDepth = 6;
  /// Bound on the number of top coordinates (the product of the top
  /// lengths), so that every coordinate can be enumerated.
  int64_t maxElements = 256;
};

/// A random valid descriptor. Deterministic for a given generator state.
Descriptor randomDescriptor(std::mt19937_64 &rng,
                            const RandomChainOptions &options = {});

/// Calls `fn` on every in-bounds top coordinate of `d`, in row-major order.
void forEachCoordinate(const Descriptor &d,
                       llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn);

/// The number of in-bounds top coordinates of `d`.
int64_t numCoordinates(const Descriptor &d);

/// `d` with each length, stride and argument that may be a run-time value
/// made one with probability `percent`%: the n-th chosen value becomes
/// dynamicSlot(n) and `values[n]` keeps it, so that
/// `result.instantiate(values)` is `d` again.
Descriptor dynamize(const Descriptor &d, std::mt19937_64 &rng, unsigned percent,
                    llvm::SmallVectorImpl<int64_t> &values);

} // namespace chains
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TESTING_RANDOMCHAINS_H
