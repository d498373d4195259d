//===- Formulas.h - Transform formulas over an index algebra ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The formulas of every coordinate transform and of whole descriptors,
// written once, generic over an *index algebra*. The evaluator instantiates
// them with `Int64Algebra` (constant folding, the folders, the tests' oracle);
// the affine lowering instantiates them with an algebra whose values are
// AffineExprs over SSA operands, so the IR it emits is computed by the very
// code that defines the semantics.
//
// An index algebra `A` provides two types and these operations:
//
//   typename A::Value, typename A::Bool
//   Value constant(int64_t)
//   Value add(Value, Value), sub(Value, Value)      // wrapping
//   Value mul(Value, int64_t)                       // wrapping
//   Value floorDiv(Value, int64_t d), floorMod(Value, int64_t d)   // d > 0
//   Value bitXor(Value, Value)
//   Value select(Bool, Value, Value)
//   Bool truth(bool)
//   Bool inRange(Value v, int64_t n)                // 0 <= v < n
//   Bool atLeast(Value v, int64_t c), lessThan(Value v, int64_t c)
//   Bool equals(Value v, int64_t c)
//   Bool both(Bool, Bool), either(Bool, Bool)
//
// Every formula only divides by positive constants and only shifts through
// floorDiv/floorMod by powers of two below 2^62, so no instance can trap.
//
// Run-time arguments. The sizes, strides and offsets a formula reads from a
// transform or a base (its *parameters*) may be run-time values
// (Transform.h's slots). An algebra that can compute with them declares a
// `Param` type and
//
//   Param param(int64_t raw)          // a static value or a slot's value
//   Param paramMul(Param, Param), paramAdd(Param, Param),
//         paramSub(Param, Param)
//   Value valueOf(Param)
//   Value mul(Value, Param), floorDiv(Value, Param), floorMod(Value, Param)
//   Bool inRange(Value, Param), atLeast(Value, Param), lessThan(Value, Param)
//
// (the affine lowering's algebra: a slot is the map's symbol). The other
// algebras compute with static parameters only (`Param` is int64_t and the
// operations above are the constant ones); a descriptor with run-time
// values is instantiated (Descriptor::instantiate) before they see it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_FORMULAS_H
#define LAYOUT_EVALUATOR_FORMULAS_H

#include "layout/Evaluator/Descriptor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <limits>
#include <optional>
#include <type_traits>

namespace mlir {
namespace layout {

/// The algebra of int64 values: the evaluator's instance.
struct Int64Algebra {
  using Value = int64_t;
  using Bool = bool;
  Value constant(int64_t c) { return c; }
  Value add(Value a, Value b) { return wrappingAdd(a, b); }
  Value sub(Value a, Value b) { return wrappingSub(a, b); }
  Value mul(Value a, int64_t c) { return wrappingMul(a, c); }
  Value floorDiv(Value a, int64_t d) { return layout::floorDiv(a, d); }
  Value floorMod(Value a, int64_t d) { return layout::floorMod(a, d); }
  /// ceil(a / d) (Partition.h's tile counts).
  Value ceilDiv(Value a, int64_t d) {
    return wrappingSub(0, layout::floorDiv(wrappingSub(0, a), d));
  }
  Value bitXor(Value a, Value b) { return a ^ b; }
  Value select(Bool c, Value a, Value b) { return c ? a : b; }
  Bool truth(bool b) { return b; }
  Bool inRange(Value v, int64_t n) { return v >= 0 && v < n; }
  Bool atLeast(Value v, int64_t c) { return v >= c; }
  Bool lessThan(Value v, int64_t c) { return v < c; }
  Bool equals(Value v, int64_t c) { return v == c; }
  Bool both(Bool a, Bool b) { return a && b; }
  Bool either(Bool a, Bool b) { return a || b; }
};

namespace formulas {

//===----------------------------------------------------------------------===//
// Parameters: static, or run-time values where the algebra has them
//===----------------------------------------------------------------------===//

namespace detail {
template <typename A, typename = void> struct ParamOps {
  // Static parameters: the algebra's constant operations.
  using Param = int64_t;
  using Value = typename A::Value;
  static Param param(A &, int64_t raw) {
    assert(!isDynamic(raw) &&
           "a run-time value: instantiate the descriptor first");
    return raw;
  }
  static Param mul(A &, Param x, Param y) { return wrappingMul(x, y); }
  static Param add(A &, Param x, Param y) { return wrappingAdd(x, y); }
  static Param sub(A &, Param x, Param y) { return wrappingSub(x, y); }
  static Value value(A &a, Param p) { return a.constant(p); }
};
template <typename A> struct ParamOps<A, std::void_t<typename A::Param>> {
  using Param = typename A::Param;
  using Value = typename A::Value;
  static Param param(A &a, int64_t raw) { return a.param(raw); }
  static Param mul(A &a, Param x, Param y) { return a.paramMul(x, y); }
  static Param add(A &a, Param x, Param y) { return a.paramAdd(x, y); }
  static Param sub(A &a, Param x, Param y) { return a.paramSub(x, y); }
  static Value value(A &a, Param p) { return a.valueOf(p); }
};
} // namespace detail

/// The type of a parameter in algebra `A`.
template <typename A> using Param = typename detail::ParamOps<A>::Param;

/// A parameter (a static value or a run-time slot) in `A`.
template <typename A> Param<A> param(A &a, int64_t raw) {
  return detail::ParamOps<A>::param(a, raw);
}
/// Each of `raw` as a parameter.
template <typename A>
llvm::SmallVector<Param<A>, 4> params(A &a, llvm::ArrayRef<int64_t> raw) {
  llvm::SmallVector<Param<A>, 4> out;
  for (int64_t r : raw)
    out.push_back(param(a, r));
  return out;
}
/// A parameter as a value.
template <typename A> typename A::Value value(A &a, Param<A> p) {
  return detail::ParamOps<A>::value(a, p);
}

/// prod_{j>i} lengths[j] for each i, in `A`'s parameters.
template <typename A>
llvm::SmallVector<Param<A>, 4> suffixProducts(A &a,
                                              llvm::ArrayRef<int64_t> lengths) {
  llvm::SmallVector<Param<A>, 4> p(lengths.size(), param(a, 1));
  for (size_t i = lengths.size(); i-- > 1;)
    p[i - 1] = detail::ParamOps<A>::mul(a, p[i], param(a, lengths[i]));
  return p;
}

/// prod_{j>i} lengths[j] for each i (verified transforms: no overflow).
inline llvm::SmallVector<int64_t, 4>
suffixProducts(llvm::ArrayRef<int64_t> lengths) {
  Int64Algebra a;
  return suffixProducts(a, lengths);
}

/// sum_{j<i} pieces[j] for each i.
inline llvm::SmallVector<int64_t, 4>
prefixSums(llvm::ArrayRef<int64_t> pieces) {
  llvm::SmallVector<int64_t, 4> p(pieces.size(), 0);
  for (size_t i = 1; i < pieces.size(); ++i)
    p[i] = p[i - 1] + pieces[i - 1];
  return p;
}

/// sum_i x[i] * c[i].
template <typename A>
typename A::Value dot(A &a, llvm::ArrayRef<typename A::Value> x,
                      llvm::ArrayRef<Param<A>> c) {
  typename A::Value sum = a.constant(0);
  for (auto [xi, ci] : llvm::zip_equal(x, c))
    sum = a.add(sum, a.mul(xi, ci));
  return sum;
}

/// Mixed-radix digits of `x` over `lengths` (row-major); the most
/// significant digit is not reduced.
template <typename A>
void digits(A &a, typename A::Value x, llvm::ArrayRef<int64_t> lengths,
            llvm::SmallVectorImpl<typename A::Value> &out) {
  llvm::SmallVector<Param<A>, 4> p = suffixProducts(a, lengths);
  for (size_t i = 0; i < lengths.size(); ++i)
    out.push_back(i == 0
                      ? a.floorDiv(x, p[0])
                      : a.floorMod(a.floorDiv(x, p[i]), param(a, lengths[i])));
}

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

/// The element space size of `d` (the number of elements its buffer must
/// hold; the transforms do not change it) in `A`'s parameters. A static size
/// (static lengths and strides, a naive base's `space`, an aligned base) is
/// Descriptor::getElementSpaceSize(); with run-time lengths or strides it is
/// the least space, `offset + 1 + sum (len_i - 1) * stride_i`, which for a
/// packed base (row-major strides) is `prod len_i`.
template <typename A> Param<A> elementSpaceSize(const Descriptor &d, A &a) {
  using Ops = detail::ParamOps<A>;
  if (!isDynamic(d.getElementSpaceSize()))
    return param(a, d.getElementSpaceSize());
  assert(!d.hasExplicitSpace() && d.getBaseKind() != BaseKind::Aligned &&
         "only a base without `space` has a run-time element space");
  llvm::SmallVector<Param<A>, 4> strides = baseStrides(d, a);
  Param<A> space = param(a, d.getBaseOffset() + 1);
  for (auto [len, stride] : llvm::zip_equal(d.getBaseLengths(), strides))
    space = Ops::add(
        a, space, Ops::mul(a, Ops::sub(a, param(a, len), param(a, 1)), stride));
  return space;
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

#endif // LAYOUT_EVALUATOR_FORMULAS_H
