//===- TransformFormulas.h - Each transform's formulas ----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The formulas of each coordinate transform, written once over an index
// algebra (IndexAlgebra.h): its upper lengths, CuTe's swizzle, CK Tile's
// calculate_lower_index and calculate_upper_index, and which upper
// coordinates are valid. DescriptorFormulas.h composes them into whole
// descriptors.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_TRANSFORMFORMULAS_H
#define LAYOUT_EVALUATOR_TRANSFORMFORMULAS_H

#include "layout/Evaluator/IndexAlgebra.h"
#include "layout/Evaluator/Transform.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <limits>
#include <optional>

namespace mlir {
namespace layout {
namespace formulas {

/// The upper lengths of `t` (verified: no overflow) in `A`'s parameters:
/// the one home of these formulas (Transform::getUpperLengths is this with
/// static parameters; the tile pass computes a run-time view's extents with
/// it, vector-length inference what they are multiples of).
template <typename A>
llvm::SmallVector<Param<A>, 4> upperLengths(const Transform &t, A &a) {
  using Ops = detail::ParamOps<A>;
  llvm::ArrayRef<int64_t> lengths = t.getLengths();
  auto p = [&](unsigned i) { return param(a, t.getParam(i)); };
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::Offset:
  case TransformKind::Modulo:
  case TransformKind::Swizzle:
    return {param(a, lengths[0])};
  case TransformKind::Pad:
    return {Ops::add(a, Ops::add(a, p(0), param(a, lengths[0])), p(1))};
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
    return {Ops::add(a, param(a, lengths[0]), p(0))};
  case TransformKind::Embed:
  case TransformKind::Unmerge:
  case TransformKind::Replicate:
  case TransformKind::Xor:
  case TransformKind::Rotate:
    return params(a, lengths);
  case TransformKind::Merge: {
    Param<A> product = param(a, 1);
    for (int64_t l : lengths)
      product = Ops::mul(a, product, param(a, l));
    return {product};
  }
  case TransformKind::Freeze:
    return {};
  case TransformKind::Slice:
    return {Ops::sub(a, p(1), p(0))};
  case TransformKind::Sunder: {
    llvm::SmallVector<Param<A>, 4> result = params(a, lengths);
    result.push_back(param(a, lengths.size()));
    return result;
  }
  }
  llvm_unreachable("unknown transform kind");
}
/// CuTe's swizzle `u xor ((u >> S) & (((1 << B) - 1) << M))`, a negative S
/// shifting left. The masked field is written with floor division and
/// remainder by powers of two (exact in two's complement; the verifier keeps
/// |S| + B + M below 62), so only the xor is not affine.
template <typename A>
typename A::Value swizzle(A &a, typename A::Value u, int64_t bits, int64_t base,
                          int64_t shift) {
  if (bits == 0)
    return u;
  typename A::Value field;
  if (base + shift >= 0) {
    // Bits [M + S, M + S + B) of u move to [M, M + B) (for S < 0 too, as
    // long as M + S >= 0).
    field = a.mul(a.floorMod(a.floorDiv(u, int64_t(1) << (base + shift)),
                             int64_t(1) << bits),
                  int64_t(1) << base);
  } else {
    // u << |S| has zeros below |S| > M: only bits [0, M + B - |S|) of u
    // land in the field, shifted up by |S|.
    int64_t width = base + bits + shift;
    if (width <= 0)
      return u;
    field = a.mul(a.floorMod(u, int64_t(1) << width), int64_t(1) << -shift);
  }
  return a.bitXor(u, field);
}

/// CK Tile's calculate_lower_index: the lower coordinate of `t` at upper
/// coordinate `u` (the values at invalid coordinates are the formulas'
/// natural values: a pad's `u - left`, a sunder's last piece for a switch out
/// of range).
template <typename A>
void lowerIndex(const Transform &t, A &a, llvm::ArrayRef<typename A::Value> u,
                llvm::SmallVectorImpl<typename A::Value> &l) {
  llvm::ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::RightPad:
    l.push_back(u[0]);
    return;
  case TransformKind::Pad:
  case TransformKind::LeftPad:
    l.push_back(a.sub(u[0], value(a, param(a, t.getParam(0)))));
    return;
  case TransformKind::Embed:
    l.push_back(dot<A>(a, u, params(a, t.getCoefficients())));
    return;
  case TransformKind::Merge:
    digits(a, u[0], lengths, l);
    return;
  case TransformKind::Unmerge:
    l.push_back(dot<A>(a, u, suffixProducts(a, lengths)));
    return;
  case TransformKind::Replicate:
    return;
  case TransformKind::Freeze:
    l.push_back(value(a, param(a, t.getParam(0))));
    return;
  case TransformKind::Offset:
  case TransformKind::Slice:
    l.push_back(a.add(u[0], value(a, param(a, t.getParam(0)))));
    return;
  case TransformKind::Modulo:
    l.push_back(a.floorMod(u[0], param(a, t.getParam(0))));
    return;
  case TransformKind::Xor:
    l.push_back(u[0]);
    l.push_back(a.bitXor(u[1], a.floorMod(u[0], lengths[1])));
    return;
  case TransformKind::Rotate:
    l.push_back(u[0]);
    l.push_back(a.floorMod(a.add(u[1], u[0]), lengths[1]));
    return;
  case TransformKind::Swizzle:
    l.push_back(swizzle(a, u[0], t.getParam(0), t.getParam(1), t.getParam(2)));
    return;
  case TransformKind::Sunder: {
    // l = u_s + prefix_s, selected by the switch s (the last coordinate).
    size_t k = lengths.size();
    llvm::SmallVector<int64_t, 4> prefix = prefixSums(lengths);
    typename A::Value r = a.add(u[k - 1], a.constant(prefix[k - 1]));
    for (size_t j = k - 1; j-- > 0;)
      r = a.select(a.equals(u[k], j), a.add(u[j], a.constant(prefix[j])), r);
    l.push_back(r);
    return;
  }
  }
  llvm_unreachable("unknown transform kind");
}

/// Whether upper coordinate `u` of `t` is valid (only the kinds that can be
/// invalid, TransformKindInfo::canBeInvalid, have a formula: the pads and
/// sunder).
template <typename A>
typename A::Bool validity(const Transform &t, A &a,
                          llvm::ArrayRef<typename A::Value> u) {
  if (!t.canBeInvalid())
    return a.truth(true);
  switch (t.getKind()) {
  case TransformKind::Pad:
    // left <= u < left + L as one unsigned compare of u - left with L.
    return a.inRange(a.sub(u[0], value(a, param(a, t.getParam(0)))),
                     param(a, t.getLengths()[0]));
  case TransformKind::LeftPad:
    return a.atLeast(u[0], param(a, t.getParam(0)));
  case TransformKind::RightPad:
    return a.lessThan(u[0], param(a, t.getLengths()[0]));
  case TransformKind::Sunder: {
    llvm::ArrayRef<int64_t> pieces = t.getLengths();
    typename A::Bool valid = a.truth(false);
    for (size_t j = 0; j < pieces.size(); ++j) {
      typename A::Bool here =
          a.both(a.equals(u[pieces.size()], j), a.inRange(u[j], pieces[j]));
      valid = j == 0 ? here : a.either(valid, here);
    }
    return valid;
  }
  case TransformKind::PassThrough:
  case TransformKind::Embed:
  case TransformKind::Merge:
  case TransformKind::Unmerge:
  case TransformKind::Replicate:
  case TransformKind::Freeze:
  case TransformKind::Offset:
  case TransformKind::Slice:
  case TransformKind::Modulo:
  case TransformKind::Xor:
  case TransformKind::Rotate:
  case TransformKind::Swizzle:
    break;
  }
  llvm_unreachable("a kind that cannot be invalid: answered above");
}

/// How the inverse of an injective embed finds its upper coordinate.
///
/// Nested coefficients (in increasing order each exceeds the span of the
/// smaller ones) give the digits in closed form, from the largest
/// coefficient down (`order`). Other injective embeds (`[3, 2]` with
/// coefficients `[2, 3]`) have no such form: one dim, `solved` (the longest),
/// is solved for each combination of the others (`searched`), a bounded
/// mixed-radix search unrolled into compares and selects, so that the
/// evaluator and the affine lowering compute it with the same formula.
struct EmbedInversePlan {
  bool nested = true;
  /// Nested: the dims longer than 1, by decreasing coefficient.
  llvm::SmallVector<unsigned, 4> order;
  /// Not nested: the dim solved for, the dims enumerated, and the number of
  /// their combinations.
  unsigned solved = 0;
  llvm::SmallVector<unsigned, 4> searched;
  int64_t candidates = 1;
};

/// The most combinations the search of a non-nested embed's inverse
/// enumerates (Transform::checkInvertible refuses more).
inline constexpr int64_t kMaxEmbedSearchCandidates = 256;

/// The plan of `embed<lengths, coefficients>`'s inverse (verified
/// parameters; exact only for injective embeds).
inline EmbedInversePlan planEmbedInverse(llvm::ArrayRef<int64_t> lengths,
                                         llvm::ArrayRef<int64_t> coefficients) {
  EmbedInversePlan plan;
  llvm::SmallVector<unsigned, 4> used;
  for (unsigned i = 0; i < lengths.size(); ++i)
    if (lengths[i] > 1)
      used.push_back(i);
  llvm::stable_sort(used, [&](unsigned x, unsigned y) {
    return coefficients[x] < coefficients[y];
  });
  int64_t span = 1;
  for (unsigned i : used) {
    if (coefficients[i] < span)
      plan.nested = false;
    span += (lengths[i] - 1) * coefficients[i];
  }
  if (plan.nested) {
    plan.order.assign(used.rbegin(), used.rend());
    return plan;
  }
  // The longest dim with a non-zero coefficient (an injective embed has no
  // zero coefficient on a dim longer than 1; without one, nothing is solved).
  std::optional<unsigned> solved;
  for (unsigned i : used)
    if (coefficients[i] > 0 && (!solved || lengths[i] > lengths[*solved]))
      solved = i;
  if (!solved) {
    plan.candidates = 0;
    return plan;
  }
  plan.solved = *solved;
  for (unsigned i : used)
    if (i != plan.solved) {
      plan.searched.push_back(i);
      plan.candidates = checkedMul(plan.candidates, lengths[i])
                            .value_or(std::numeric_limits<int64_t>::max());
    }
  return plan;
}

/// CK Tile's calculate_upper_index: an upper coordinate of `t` that maps to
/// `l`, for an invertible `t` (Transform::checkInvertible). Exact only where
/// `l` has a preimage; callers that need to know confirm with `lowerIndex`.
/// Sunder's inverse picks the coordinate whose unselected pieces are 0.
template <typename A>
void upperIndex(const Transform &t, A &a, llvm::ArrayRef<typename A::Value> l,
                llvm::SmallVectorImpl<typename A::Value> &u) {
  // An involution (TransformKindInfo::isInvolution) is its own inverse.
  if (t.isInvolution()) {
    lowerIndex(t, a, l, u);
    return;
  }
  llvm::ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::RightPad:
  case TransformKind::Modulo:
    u.push_back(l[0]);
    return;
  case TransformKind::Pad:
  case TransformKind::LeftPad:
    u.push_back(a.add(l[0], value(a, param(a, t.getParam(0)))));
    return;
  case TransformKind::Embed: {
    assert(!t.isDynamic() && "checkInvertible refuses run-time embeds");
    llvm::ArrayRef<int64_t> coefficients = t.getCoefficients();
    EmbedInversePlan plan = planEmbedInverse(lengths, coefficients);
    size_t first = u.size();
    for (size_t i = 0; i < lengths.size(); ++i)
      u.push_back(a.constant(0));
    if (plan.nested) {
      // Digits from the largest coefficient down.
      typename A::Value rest = l[0];
      for (unsigned i : plan.order) {
        // (Nested coefficients of dims longer than 1 are positive.)
        u[first + i] = a.floorDiv(rest, coefficients[i]);
        rest = a.floorMod(rest, coefficients[i]);
      }
      return;
    }
    // The search: for each combination r of the searched dims (row-major),
    // v = l - sum r_i c_i must be a multiple of c_solved with quotient in
    // range; the injective embed has at most one such r. (Injective embeds
    // have no zero coefficient on a dim longer than 1.)
    unsigned k = plan.solved;
    assert(plan.candidates <= kMaxEmbedSearchCandidates &&
           "Transform::checkInvertible refuses larger searches");
    if (plan.candidates > kMaxEmbedSearchCandidates)
      return; // (release builds: zeros, which upper() then rejects)
    llvm::SmallVector<int64_t, 4> r(plan.searched.size(), 0);
    for (int64_t n = 0; n < plan.candidates; ++n) {
      typename A::Value v = l[0];
      for (auto [j, dim] : llvm::enumerate(plan.searched))
        v = a.sub(v, a.constant(r[j] * coefficients[dim]));
      typename A::Value q = a.floorDiv(v, coefficients[k]);
      typename A::Bool hit = a.both(a.equals(a.floorMod(v, coefficients[k]), 0),
                                    a.inRange(q, lengths[k]));
      u[first + k] = a.select(hit, q, u[first + k]);
      for (auto [j, dim] : llvm::enumerate(plan.searched))
        u[first + dim] = a.select(hit, a.constant(r[j]), u[first + dim]);
      for (size_t j = r.size(); j-- > 0;) {
        if (++r[j] < lengths[plan.searched[j]])
          break;
        r[j] = 0;
      }
    }
    return;
  }
  case TransformKind::Merge:
    u.push_back(dot<A>(a, l, suffixProducts(a, lengths)));
    return;
  case TransformKind::Unmerge:
    digits(a, l[0], lengths, u);
    return;
  case TransformKind::Replicate:
    for (size_t i = 0; i < lengths.size(); ++i)
      u.push_back(a.constant(0));
    return;
  case TransformKind::Freeze:
    return;
  case TransformKind::Offset:
  case TransformKind::Slice:
    u.push_back(a.sub(l[0], value(a, param(a, t.getParam(0)))));
    return;
  case TransformKind::Rotate:
    u.push_back(l[0]);
    u.push_back(a.floorMod(a.sub(l[1], l[0]), lengths[1]));
    return;
  case TransformKind::Xor:
  case TransformKind::Swizzle:
    // Involutions (a swizzle's source and target bits are disjoint).
    llvm_unreachable("an involution: inverted by lowerIndex above");
  case TransformKind::Sunder: {
    size_t k = lengths.size();
    llvm::SmallVector<int64_t, 4> prefix = prefixSums(lengths);
    typename A::Value s = a.constant(0);
    for (size_t j = 1; j < k; ++j)
      s = a.select(a.atLeast(l[0], prefix[j]), a.constant(j), s);
    for (size_t j = 0; j < k; ++j)
      u.push_back(a.select(a.equals(s, j), a.sub(l[0], a.constant(prefix[j])),
                           a.constant(0)));
    u.push_back(s);
    return;
  }
  }
  llvm_unreachable("unknown transform kind");
}

} // namespace formulas
} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_TRANSFORMFORMULAS_H
