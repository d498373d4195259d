//===- DescriptorFormulas.h - Formulas of whole descriptors -----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The formulas of whole descriptors, written once over an index algebra
// (IndexAlgebra.h) from each transform's (TransformFormulas.h): top lengths,
// base strides and element space; every level of a coordinate (CK Tile's
// tensor_coordinate), its offset and validity, and the inverse; and
// incremental coordinates (CK Tile's update_lower_index).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_DESCRIPTORFORMULAS_H
#define LAYOUT_EVALUATOR_DESCRIPTORFORMULAS_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/IndexAlgebra.h"
#include "layout/Evaluator/TransformFormulas.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>

namespace mlir {
namespace layout {
namespace formulas {

//===----------------------------------------------------------------------===//
// Lengths, strides and element space
//===----------------------------------------------------------------------===//

/// The top lengths of `d` in `A`'s parameters (its base lengths carried
/// through every stage by upperLengths).
template <typename A>
llvm::SmallVector<Param<A>, 4> topLengths(const Descriptor &d, A &a) {
  llvm::SmallVector<Param<A>, 4> lengths = params(a, d.getBaseLengths());
  for (const Stage &stage : d.getStages()) {
    size_t rank = 0;
    for (const StageEntry &e : stage)
      rank += e.upperDims.size();
    llvm::SmallVector<Param<A>, 4> next(rank, param(a, 0));
    for (const StageEntry &e : stage)
      for (auto [dim, l] :
           llvm::zip_equal(e.upperDims, upperLengths(e.transform, a)))
        next[dim] = l;
    lengths = std::move(next);
  }
  return lengths;
}

/// The strides of a descriptor's base (a packed base with run-time lengths
/// has the suffix products of its lengths).
template <typename A>
llvm::SmallVector<Param<A>, 4> baseStrides(const Descriptor &d, A &a) {
  if (d.hasRunTimeRowMajorBase())
    return suffixProducts(a, d.getBaseLengths());
  return params(a, d.getBaseStrides());
}

/// The least element space of a strided base, `offset + 1 + sum (len_i - 1)
/// * stride_i` (the one home of this formula: Descriptor::naive computes it
/// in checked int64 arithmetic, CheckedInt64Params, and elementSpaceSize
/// with run-time lengths or strides).
template <typename A>
Param<A> leastElementSpace(A &a, Param<A> offset,
                           llvm::ArrayRef<Param<A>> lengths,
                           llvm::ArrayRef<Param<A>> strides) {
  using Ops = detail::ParamOps<A>;
  Param<A> space = Ops::add(a, offset, param(a, 1));
  for (auto [len, stride] : llvm::zip_equal(lengths, strides))
    space =
        Ops::add(a, space, Ops::mul(a, Ops::sub(a, len, param(a, 1)), stride));
  return space;
}

/// The element space size of `d` (the number of elements its buffer must
/// hold; the transforms do not change it) in `A`'s parameters. A static size
/// (static lengths and strides, a naive base's `space`, an aligned base) is
/// Descriptor::getElementSpaceSize(); with run-time lengths or strides it is
/// the least space (leastElementSpace), which for a packed base (row-major
/// strides) is `prod len_i`.
template <typename A> Param<A> elementSpaceSize(const Descriptor &d, A &a) {
  if (!isDynamic(d.getElementSpaceSize()))
    return param(a, d.getElementSpaceSize());
  assert(!d.hasExplicitSpace() && d.getBaseKind() != BaseKind::Aligned &&
         "only a base without `space` has a run-time element space");
  return leastElementSpace(a, param(a, d.getBaseOffset()),
                           params(a, d.getBaseLengths()), baseStrides(d, a));
}

//===----------------------------------------------------------------------===//
// Descriptors: all levels of a coordinate (CK Tile's tensor_coordinate),
// offset and validity
//===----------------------------------------------------------------------===//

/// A coordinate with all of a descriptor's hidden indices: levels[0] is the
/// base coordinate, levels[k] the top coordinate of stage k (levels.back()
/// is the top). Evaluating a descriptor computes them from the top down;
/// an incremental coordinate keeps them, and moving it updates every level
/// without recomputing the merges.
template <typename V>
using Levels = llvm::SmallVector<llvm::SmallVector<V, 4>, 4>;

/// Every level of the coordinate whose top is `top`.
template <typename A>
Levels<typename A::Value>
makeCoordinate(const Descriptor &d, A &a,
               llvm::ArrayRef<typename A::Value> top) {
  using V = typename A::Value;
  llvm::ArrayRef<Stage> stages = d.getStages();
  Levels<V> levels(stages.size() + 1);
  levels.back().assign(top.begin(), top.end());
  llvm::SmallVector<V, 4> up, lo;
  for (size_t k = stages.size(); k-- > 0;) {
    size_t inputRank = 0;
    for (const StageEntry &e : stages[k])
      inputRank += e.lowerDims.size();
    levels[k].assign(inputRank, a.constant(0));
    for (const StageEntry &e : stages[k]) {
      up.clear();
      for (int64_t dim : e.upperDims)
        up.push_back(levels[k + 1][dim]);
      lo.clear();
      lowerIndex(e.transform, a, up, lo);
      for (auto [dim, v] : llvm::zip_equal(e.lowerDims, lo))
        levels[k][dim] = v;
    }
  }
  return levels;
}

/// The conjunction of every entry's validity at the coordinate `levels`
/// (stages from the top down).
template <typename A>
typename A::Bool validity(const Descriptor &d, A &a,
                          const Levels<typename A::Value> &levels) {
  llvm::ArrayRef<Stage> stages = d.getStages();
  typename A::Bool valid = a.truth(true);
  llvm::SmallVector<typename A::Value, 4> up;
  for (size_t k = stages.size(); k-- > 0;)
    for (const StageEntry &e : stages[k]) {
      if (!e.transform.canBeInvalid())
        continue;
      up.clear();
      for (int64_t dim : e.upperDims)
        up.push_back(levels[k + 1][dim]);
      valid = a.both(valid, validity(e.transform, a, up));
    }
  return valid;
}

/// The offset of a coordinate's levels (its base coordinate times the base
/// strides) and, when asked, its validity.
template <typename A>
typename A::Value coordinateOffset(const Descriptor &d, A &a,
                                   const Levels<typename A::Value> &levels,
                                   typename A::Bool *valid = nullptr) {
  if (valid)
    *valid = validity(d, a, levels);
  return a.add(dot<A>(a, llvm::ArrayRef<typename A::Value>(levels[0]),
                      baseStrides(d, a)),
               value(a, param(a, d.getBaseOffset())));
}

/// The offset of top coordinate `top` (and its validity, when asked).
template <typename A>
typename A::Value offset(const Descriptor &d, A &a,
                         llvm::ArrayRef<typename A::Value> top,
                         typename A::Bool *valid = nullptr) {
  return coordinateOffset(d, a, makeCoordinate(d, a, top), valid);
}

/// The inverse of an invertible descriptor (Descriptor::checkInvertible):
/// the top coordinate whose offset is `off`, exact where one exists.
/// `onStage(coordinate, lengths)` sees the base coordinate and each stage's
/// result with its lengths and may stop the walk by returning false (then
/// the result is empty).
template <typename A, typename OnStage>
llvm::SmallVector<typename A::Value, 8> topCoordinate(const Descriptor &d, A &a,
                                                      typename A::Value off,
                                                      OnStage onStage) {
  using V = typename A::Value;
  llvm::SmallVector<V, 8> cur, next;
  llvm::SmallVector<int64_t, 8> curLengths(d.getBaseLengths().begin(),
                                           d.getBaseLengths().end()),
      nextLengths;
  V buffer[1] = {a.sub(off, value(a, param(a, d.getBaseOffset())))};
  if (d.hasRunTimeRowMajorBase())
    // Row-major strides nest whatever the lengths: the digits.
    digits(a, buffer[0], d.getBaseLengths(), cur);
  else
    upperIndex(Transform::embed(d.getBaseLengths(), d.getBaseStrides()), a,
               llvm::ArrayRef<V>(buffer), cur);
  if (!onStage(llvm::ArrayRef<V>(cur), llvm::ArrayRef<int64_t>(curLengths)))
    return {};
  llvm::SmallVector<V, 4> lo, up;
  for (const Stage &stage : d.getStages()) {
    size_t outputRank = 0;
    for (const StageEntry &e : stage)
      outputRank += e.upperDims.size();
    next.assign(outputRank, a.constant(0));
    nextLengths.assign(outputRank, 0);
    for (const StageEntry &e : stage) {
      lo.clear();
      for (int64_t dim : e.lowerDims)
        lo.push_back(cur[dim]);
      up.clear();
      upperIndex(e.transform, a, lo, up);
      llvm::SmallVector<int64_t> upLengths = e.transform.getUpperLengths();
      for (auto [dim, v, len] : llvm::zip_equal(e.upperDims, up, upLengths)) {
        next[dim] = v;
        nextLengths[dim] = len;
      }
    }
    std::swap(cur, next);
    std::swap(curLengths, nextLengths);
    if (!onStage(llvm::ArrayRef<V>(cur), llvm::ArrayRef<int64_t>(curLengths)))
      return {};
  }
  return cur;
}

//===----------------------------------------------------------------------===//
// Incremental coordinates (CK Tile's update_lower_index)
//===----------------------------------------------------------------------===//

/// CK Tile's update_lower_index: the lower index of `t` after its upper
/// index moved from `oldUp` to `newUp`, from the old lower index.
///
/// * pass_through, the pads, offset, slice, embed, unmerge (affine maps):
///   the old lower index plus the map's linear part of the step;
/// * merge: the step's mixed-radix digits added digit by digit from the
///   least significant, with one carry each (the digits of a step are in
///   [0, len) except the most significant, which takes the sign and is
///   never reduced, as in CK) - with a constant step, compares and selects
///   only;
/// * freeze and replicate: nothing moves;
/// * modulo, xor, rotate, swizzle, sunder: recomputed from the new upper
///   index. (CK updates modulo by wrapping once; that is wrong for steps of
///   a modulus or more, so this project recomputes it.)
///
/// For coordinates made by makeCoordinate the result equals recomputing
/// from the new upper index, for any step.
template <typename A>
void updateLowerIndex(const Transform &t, A &a,
                      llvm::ArrayRef<typename A::Value> oldUp,
                      llvm::ArrayRef<typename A::Value> newUp,
                      llvm::ArrayRef<typename A::Value> oldLo,
                      llvm::SmallVectorImpl<typename A::Value> &newLo) {
  using V = typename A::Value;
  llvm::SmallVector<V, 4> diff;
  for (auto [o, n] : llvm::zip_equal(oldUp, newUp))
    diff.push_back(a.sub(n, o));
  llvm::ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::Pad:
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
  case TransformKind::Offset:
  case TransformKind::Slice:
    newLo.push_back(a.add(oldLo[0], diff[0]));
    return;
  case TransformKind::Embed:
    newLo.push_back(
        a.add(oldLo[0], dot<A>(a, diff, params(a, t.getCoefficients()))));
    return;
  case TransformKind::Unmerge:
    newLo.push_back(
        a.add(oldLo[0], dot<A>(a, diff, suffixProducts(a, lengths))));
    return;
  case TransformKind::Merge: {
    llvm::SmallVector<V, 4> step;
    digits(a, diff[0], lengths, step);
    size_t n = lengths.size();
    newLo.assign(n, a.constant(0));
    V carry = a.constant(0);
    for (size_t i = n; i-- > 1;) {
      V sum = a.add(a.add(oldLo[i], step[i]), carry);
      Param<A> length = param(a, lengths[i]);
      auto wraps = a.atLeast(sum, length);
      newLo[i] = a.select(wraps, a.sub(sum, value(a, length)), sum);
      carry = a.select(wraps, a.constant(1), a.constant(0));
    }
    newLo[0] = a.add(a.add(oldLo[0], step[0]), carry);
    return;
  }
  case TransformKind::Freeze:
  case TransformKind::Replicate:
    newLo.append(oldLo.begin(), oldLo.end());
    return;
  case TransformKind::Modulo:
  case TransformKind::Xor:
  case TransformKind::Rotate:
  case TransformKind::Swizzle:
  case TransformKind::Sunder:
    lowerIndex(t, a, newUp, newLo);
    return;
  }
  llvm_unreachable("unknown transform kind");
}

/// Moves a coordinate by `step` (one entry per top dim): the top moves by
/// the step and every stage updates its lower index (updateLowerIndex).
template <typename A>
void moveCoordinate(const Descriptor &d, A &a,
                    Levels<typename A::Value> &levels,
                    llvm::ArrayRef<typename A::Value> step) {
  using V = typename A::Value;
  llvm::ArrayRef<Stage> stages = d.getStages();
  llvm::SmallVector<V, 4> newTop;
  for (auto [t, s] : llvm::zip_equal(levels.back(), step))
    newTop.push_back(a.add(t, s));
  llvm::SmallVector<V, 4> oldUpper(levels.back().begin(), levels.back().end());
  levels.back() = newTop;
  llvm::SmallVector<V, 4> ou, nu, ol, nl;
  for (size_t k = stages.size(); k-- > 0;) {
    llvm::SmallVector<V, 4> oldLevel(levels[k].begin(), levels[k].end());
    for (const StageEntry &e : stages[k]) {
      ou.clear();
      nu.clear();
      ol.clear();
      nl.clear();
      for (int64_t dim : e.upperDims) {
        ou.push_back(oldUpper[dim]);
        nu.push_back(levels[k + 1][dim]);
      }
      for (int64_t dim : e.lowerDims)
        ol.push_back(oldLevel[dim]);
      updateLowerIndex(e.transform, a, ou, nu, ol, nl);
      for (auto [dim, v] : llvm::zip_equal(e.lowerDims, nl))
        levels[k][dim] = v;
    }
    oldUpper = std::move(oldLevel);
  }
}

} // namespace formulas
} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_DESCRIPTORFORMULAS_H
