//===- VectorLength.h - Guaranteed vector lengths of descriptors -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// How wide a vector access through a descriptor can be: CK Tile's
// GuaranteedLastDimensionVectorLength / VectorStride, computed for every
// dimension of every level of the chain from the base up, one rule per
// transform kind (each rule is CK's
// calculate_upper_dimension_safe_vector_length_strides, restated).
//
// A run {length L, stride S} of a dimension promises: for every coordinate
// whose index along that dimension is a multiple of L, the L coordinates
// that follow along it (index + 0, ..., index + L - 1) have offsets
// offset + i * S and all the same validity, whatever the other indices.
// L divides the dimension's length, so a vector never straddles its end.
// A dimension nothing is known about has {1, 0}.
//
// Whether such a vector starts on an aligned address is a second question:
// offsetDivisor answers it by evaluating the descriptor's offset formula
// in an algebra of divisors (each value "a multiple of d"), the last top
// index a multiple of the vector width.
//
// Run-time values (Transform.h's slots) count through what they are known
// to be multiples of (`KnownMultiples`, e.g. from layout.assume_multiple or
// a `layout.multiple_of` argument): a run-time length that is a multiple
// of 8 keeps runs of 8, a run-time stride of unknown value gives no run
// along its dim, and a run-time divisor keeps only what divides it.
//
// Test oracle: unittests/Evaluator/VectorLengthTest.cpp checks both against
// brute force over the descriptor's coordinates for every kind, and for
// run-time descriptors over instances at values that keep the facts.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_VECTORLENGTH_H
#define LAYOUT_EVALUATOR_VECTORLENGTH_H

#include "layout/Evaluator/Descriptor.h"

#include <string>

namespace mlir {
namespace layout {

/// A run of consecutive indices of one dimension that move the offset by a
/// constant stride and keep the validity (see the file comment).
struct VectorRun {
  int64_t length = 1;
  int64_t stride = 0;
  bool operator==(const VectorRun &o) const {
    return length == o.length && stride == o.stride;
  }
};

/// What the run-time value of slot n is known to be a multiple of (>= 1);
/// without one, nothing is known (1).
using KnownMultiples = llvm::function_ref<int64_t(int64_t slot)>;

/// The runs of `t`'s upper dims given the runs and lengths of its lower
/// dims (in the order of the transform's dims). The rule of each kind is in
/// VectorLength.cpp; a kind without a rule that keeps runs (xor, rotate,
/// sunder across their mixed dims) gives {1, 0}.
void upperRuns(const Transform &t, llvm::ArrayRef<VectorRun> lower,
               llvm::ArrayRef<int64_t> lowerLengths,
               llvm::SmallVectorImpl<VectorRun> &upper,
               KnownMultiples known = {});

/// The runs of every top dimension of `d`.
llvm::SmallVector<VectorRun> topRuns(const Descriptor &d,
                                     KnownMultiples known = {});

/// The guaranteed vector length and stride of `d`'s last top dimension.
VectorRun lastDimRun(const Descriptor &d, KnownMultiples known = {});

/// Divisors of indices: `lowerDivisors` maps what the upper indices of `t`
/// are multiples of (0: always 0) to what its lower indices are. Both run
/// the transforms' own formulas (TransformFormulas.h) in an index algebra of
/// divisors, so no rule is written twice.
void lowerDivisors(const Transform &t, llvm::ArrayRef<int64_t> upper,
                   llvm::SmallVectorImpl<int64_t> &lower,
                   KnownMultiples known = {});

/// A number that divides the offset of every coordinate of `d` whose last
/// top index is a multiple of `lastMultiple` (the others any): 0 when that
/// offset is always 0. With lastMultiple = the vector width, it says
/// whether every vector along the last dimension starts aligned.
int64_t offsetDivisor(const Descriptor &d, int64_t lastMultiple,
                      KnownMultiples known = {});

/// Why the last dimension's run is 1 (or not stride 1): the innermost
/// transform that shortens it, for remarks ("stage 2, #layout.pad<...>:
/// the pads 3 and 0 are not multiples of 8"). Empty when the run is the
/// whole last dimension.
std::string explainLastDimRun(const Descriptor &d, KnownMultiples known = {});

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_VECTORLENGTH_H
