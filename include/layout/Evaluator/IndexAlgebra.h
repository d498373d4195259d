//===- IndexAlgebra.h - The index algebra of the formulas -------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The formulas of every coordinate transform (TransformFormulas.h) and of
// whole descriptors (DescriptorFormulas.h) are written once, generic over an
// *index algebra*; this header says what one is and gives the evaluator's,
// with the parameters and the small formulas (suffix products, digits) they
// share. The evaluator instantiates them with `Int64Algebra` (constant
// folding, the folders, the tests' oracle); the affine lowering instantiates
// them with an algebra whose values are AffineExprs over SSA operands, so the
// IR it emits is computed by the very code that defines the semantics.
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
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_INDEXALGEBRA_H
#define LAYOUT_EVALUATOR_INDEXALGEBRA_H

#include "layout/Evaluator/Transform.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cassert>
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

/// Static parameters in checked int64 arithmetic: std::nullopt once a step
/// overflows (Descriptor::naive's least space, an error there). Only the
/// parameter operations are defined: formulas over parameters alone
/// (formulas::leastElementSpace) take it.
struct CheckedInt64Params {
  using Param = std::optional<int64_t>;
  using Value = std::optional<int64_t>;
  Param param(int64_t raw) {
    assert(!isDynamic(raw) && "a run-time value has no int64 value");
    return raw;
  }
  Param paramMul(Param x, Param y) {
    return x && y ? checkedMul(*x, *y) : std::nullopt;
  }
  Param paramAdd(Param x, Param y) {
    return x && y ? checkedAdd(*x, *y) : std::nullopt;
  }
  Param paramSub(Param x, Param y) {
    return x && y ? llvm::checkedSub(*x, *y) : std::nullopt;
  }
  Value valueOf(Param p) { return p; }
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

} // namespace formulas
} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_INDEXALGEBRA_H
