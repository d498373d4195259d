//===- Transform.cpp - Coordinate transforms of the layout dialect --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Transform.h"
#include "layout/Evaluator/TransformFormulas.h"

#include "TransformChecks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace mlir::layout;
using namespace mlir::layout::checks;
using llvm::ArrayRef;
using llvm::Error;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Arithmetic helpers
//===----------------------------------------------------------------------===//

int64_t mlir::layout::wrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t mlir::layout::wrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t mlir::layout::wrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
int64_t mlir::layout::floorDiv(int64_t a, int64_t b) {
  // INT64_MIN / -1 cannot happen: b > 0.
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0))
    --q;
  return q;
}
int64_t mlir::layout::floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return r < 0 ? r + b : r;
}
std::optional<int64_t> mlir::layout::checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}
std::optional<int64_t> mlir::layout::checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

std::string mlir::layout::formatIntList(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

std::string mlir::layout::formatSizeList(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(values, os, [&](int64_t v) {
    if (isDynamic(v))
      os << "?";
    else
      os << v;
  });
  os << "]";
  return s;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Transform Transform::make(TransformKind kind, ArrayRef<TransformArg> args) {
  Transform t(kind);
  const TransformKindInfo::Args &slots = kindInfo(kind).args;
  assert(args.size() == slots.size && "wrong number of arguments");
  for (auto [slot, arg] : llvm::zip_equal(slots, args)) {
    switch (slot) {
    case TransformKindInfo::Length:
      t.lengths = {arg.getScalar()};
      break;
    case TransformKindInfo::Lengths:
      t.lengths.assign(arg.getList().begin(), arg.getList().end());
      break;
    case TransformKindInfo::Coefficients:
      t.coefficients.assign(arg.getList().begin(), arg.getList().end());
      break;
    case TransformKindInfo::Param0:
    case TransformKindInfo::Param1:
    case TransformKindInfo::Param2:
      t.params[slot - TransformKindInfo::Param0] = arg.getScalar();
      break;
    }
  }
  return t;
}

TransformArg Transform::getArg(unsigned i) const {
  TransformKindInfo::Arg slot = getKindInfo().args[i];
  switch (slot) {
  case TransformKindInfo::Length:
    return lengths[0];
  case TransformKindInfo::Lengths:
    return ArrayRef<int64_t>(lengths);
  case TransformKindInfo::Coefficients:
    return ArrayRef<int64_t>(coefficients);
  case TransformKindInfo::Param0:
  case TransformKindInfo::Param1:
  case TransformKindInfo::Param2:
    return params[slot - TransformKindInfo::Param0];
  }
  llvm_unreachable("unknown argument slot");
}

// The named constructors: the arguments of each kind are in
// TransformKinds.def.
Transform Transform::passThrough(int64_t length) {
  return make(TransformKind::PassThrough, {length});
}
Transform Transform::pad(int64_t length, int64_t left, int64_t right) {
  return make(TransformKind::Pad, {length, left, right});
}
Transform Transform::leftPad(int64_t length, int64_t left) {
  return make(TransformKind::LeftPad, {length, left});
}
Transform Transform::rightPad(int64_t length, int64_t right) {
  return make(TransformKind::RightPad, {length, right});
}
Transform Transform::embed(ArrayRef<int64_t> upperLengths,
                           ArrayRef<int64_t> coefficients) {
  return make(TransformKind::Embed, {upperLengths, coefficients});
}
Transform Transform::merge(ArrayRef<int64_t> lowerLengths) {
  return make(TransformKind::Merge, {lowerLengths});
}
Transform Transform::unmerge(ArrayRef<int64_t> upperLengths) {
  return make(TransformKind::Unmerge, {upperLengths});
}
Transform Transform::replicate(ArrayRef<int64_t> upperLengths) {
  return make(TransformKind::Replicate, {upperLengths});
}
Transform Transform::freeze(int64_t value) {
  return make(TransformKind::Freeze, {value});
}
Transform Transform::offset(int64_t upperLength, int64_t offset) {
  return make(TransformKind::Offset, {upperLength, offset});
}
Transform Transform::slice(int64_t length, int64_t begin, int64_t end) {
  return make(TransformKind::Slice, {length, begin, end});
}
Transform Transform::modulo(int64_t modulus, int64_t upperLength) {
  return make(TransformKind::Modulo, {modulus, upperLength});
}
Transform Transform::xorTransform(ArrayRef<int64_t> lengths) {
  return make(TransformKind::Xor, {lengths});
}
Transform Transform::rotate(ArrayRef<int64_t> lengths) {
  return make(TransformKind::Rotate, {lengths});
}
Transform Transform::swizzle(int64_t bits, int64_t base, int64_t shift,
                             int64_t length) {
  return make(TransformKind::Swizzle, {bits, base, shift, length});
}
Transform Transform::sunder(ArrayRef<int64_t> pieces) {
  return make(TransformKind::Sunder, {pieces});
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Checks that `value` (the parameter `name`) is positive.

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

bool Transform::isDynamic() const {
  return anyDynamic(lengths) || anyDynamic(coefficients) || anyDynamic(params);
}

void Transform::mapDynamic(llvm::function_ref<int64_t(int64_t)> fn) {
  // In argument order (TransformKindInfo::args), as the IR lists operands.
  auto update = [&](int64_t &v) {
    if (mlir::layout::isDynamic(v))
      v = fn(v);
  };
  for (TransformKindInfo::Arg slot : getKindInfo().args) {
    switch (slot) {
    case TransformKindInfo::Length:
      update(lengths[0]);
      break;
    case TransformKindInfo::Lengths:
      llvm::for_each(lengths, update);
      break;
    case TransformKindInfo::Coefficients:
      llvm::for_each(coefficients, update);
      break;
    case TransformKindInfo::Param0:
    case TransformKindInfo::Param1:
    case TransformKindInfo::Param2:
      update(params[slot - TransformKindInfo::Param0]);
      break;
    }
  }
}

/// `f(values)`, or `?` when a value is a run-time one.
static int64_t staticOr(ArrayRef<int64_t> values,
                        llvm::function_ref<int64_t()> f) {
  return anyDynamic(values) ? kDynamic : f();
}

namespace {
/// Parameters that are static values or `?` (a result involving a run-time
/// value is `?`: the result type's, not a slot).
struct StaticOrDynamic {
  using Value = int64_t;
  using Param = int64_t;
  Param param(int64_t raw) {
    return mlir::layout::isDynamic(raw) ? kDynamic : raw;
  }
  Param paramMul(Param x, Param y) {
    return staticOr({x, y}, [&] { return wrappingMul(x, y); });
  }
  Param paramAdd(Param x, Param y) {
    return staticOr({x, y}, [&] { return wrappingAdd(x, y); });
  }
  Param paramSub(Param x, Param y) {
    return staticOr({x, y}, [&] { return wrappingSub(x, y); });
  }
  Value valueOf(Param p) { return p; }
};
} // namespace

SmallVector<int64_t> Transform::getUpperLengths() const {
  // The formulas' home is formulas::upperLengths; verified transforms do
  // not overflow.
  StaticOrDynamic a;
  return SmallVector<int64_t>(formulas::upperLengths(*this, a));
}

Error Transform::checkLowerLengths(ArrayRef<int64_t> lowerLengths) const {
  // A check with a run-time value on either side holds until run time
  // (the lowering guards nothing: a run-time value that breaks it is the
  // caller's error, as an out-of-bounds memref index is).
  auto expectEqual = [&](int64_t expected, int64_t actual,
                         llvm::StringRef what) -> Error {
    if (expected == actual || !bothStatic(expected, actual))
      return Error::success();
    return makeError(llvm::formatv(
        "lower length must equal {0} ({1}), but the consumed dimension has "
        "length {2}",
        what, expected, actual));
  };
  switch (kind) {
  case TransformKind::PassThrough:
  case TransformKind::Pad:
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
  case TransformKind::Slice:
  case TransformKind::Swizzle:
    return expectEqual(lengths[0], lowerLengths[0], "the transform's length");
  case TransformKind::Unmerge:
    return expectEqual(
        staticOr(lengths, [&] { return *checkedProduct(lengths); }),
        lowerLengths[0], "the product of the upper lengths");
  case TransformKind::Sunder:
    return expectEqual(*checkedSum(lengths), lowerLengths[0],
                       "the sum of the pieces");
  case TransformKind::Merge:
  case TransformKind::Xor:
  case TransformKind::Rotate:
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip_equal(lengths, lowerLengths)))
      if (bothStatic(std::get<0>(pair), std::get<1>(pair)) &&
          std::get<0>(pair) != std::get<1>(pair))
        return makeError(llvm::formatv(
            "lower length {0} must equal {1}, but the consumed dimension has "
            "length {2}",
            i, std::get<0>(pair), std::get<1>(pair)));
    return Error::success();
  case TransformKind::Embed: {
    if (anyDynamic(lengths) || anyDynamic(coefficients) ||
        mlir::layout::isDynamic(lowerLengths[0]))
      return Error::success();
    int64_t span = *embedSpan(lengths, coefficients);
    if (span > lowerLengths[0])
      return makeError(llvm::formatv(
          "spans 1 + sum (U_i - 1) * c_i = {0} elements, more than the "
          "consumed dimension's length {1}",
          span, lowerLengths[0]));
    return Error::success();
  }
  case TransformKind::Offset:
    if (anyDynamic({lengths[0], params[0], lowerLengths[0]}))
      return Error::success();
    if (lengths[0] + params[0] > lowerLengths[0])
      return makeError(llvm::formatv(
          "upper_length + offset = {0} exceeds the consumed dimension's "
          "length {1}",
          lengths[0] + params[0], lowerLengths[0]));
    return Error::success();
  case TransformKind::Modulo:
    if (bothStatic(params[0], lowerLengths[0]) && params[0] > lowerLengths[0])
      return makeError(llvm::formatv(
          "modulus {0} exceeds the consumed dimension's length {1}", params[0],
          lowerLengths[0]));
    return Error::success();
  case TransformKind::Freeze:
    if (bothStatic(params[0], lowerLengths[0]) && params[0] >= lowerLengths[0])
      return makeError(llvm::formatv(
          "value {0} is outside the consumed dimension's range [0, {1})",
          params[0], lowerLengths[0]));
    return Error::success();
  case TransformKind::Replicate:
    return Error::success();
  }
  llvm_unreachable("unknown transform kind");
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

bool Transform::calculateLowerIndex(
    ArrayRef<int64_t> upper, llvm::MutableArrayRef<int64_t> lower) const {
  Int64Algebra a;
  SmallVector<int64_t, 4> l;
  formulas::lowerIndex(*this, a, upper, l);
  llvm::copy(l, lower.begin());
  return formulas::validity(*this, a, upper);
}

/// An embed is injective when its coefficients nest (the closed-form
/// inverse of formulas::planEmbedInverse); otherwise its coordinates are
/// enumerated, up to kMaxEmbedEnumeration of them, and a collision is named.
static constexpr int64_t kMaxEmbedEnumeration = 1 << 16;

static Error checkEmbedInjective(const Transform &t) {
  llvm::ArrayRef<int64_t> lengths = t.getLengths();
  formulas::EmbedInversePlan plan =
      formulas::planEmbedInverse(lengths, t.getCoefficients());
  if (plan.nested)
    return Error::success();
  std::optional<int64_t> count = 1;
  for (int64_t l : lengths)
    if (count)
      count = checkedMul(*count, l);
  if (!count || *count > kMaxEmbedEnumeration)
    return makeError(llvm::formatv(
        "is not nested (no coefficient order in which each exceeds the span "
        "of the smaller ones), and it has more than {0} coordinates, the most "
        "that are enumerated to check that it is injective",
        kMaxEmbedEnumeration));
  // Every upper coordinate (the row-major digits of its index) through the
  // embed's own formula; the first coordinate seen for each lower value.
  Int64Algebra a;
  auto coordinateOf = [&](int64_t index) {
    llvm::SmallVector<int64_t, 4> c;
    formulas::digits(a, index, lengths, c);
    return c;
  };
  llvm::DenseMap<int64_t, int64_t> seen;
  int64_t value = 0;
  for (int64_t index = 0; index < *count; ++index) {
    t.calculateLowerIndex(coordinateOf(index), value);
    auto [it, inserted] = seen.try_emplace(value, index);
    if (!inserted)
      return makeError(llvm::formatv(
          "is not injective: upper coordinates {0} and {1} both map to {2}",
          formatIntList(coordinateOf(it->second)),
          formatIntList(coordinateOf(index)), value));
  }
  if (plan.candidates > formulas::kMaxEmbedSearchCandidates)
    return makeError(llvm::formatv(
        "is injective but not nested; its inverse would search {0} "
        "combinations of the other dimensions, more than the {1} it unrolls",
        plan.candidates, formulas::kMaxEmbedSearchCandidates));
  return Error::success();
}

Error Transform::checkInvertible() const {
  // Whether replicate, modulo and embed are injective (and their inverse)
  // depends on their values; the other kinds are injective at any value.
  auto runTime = [] {
    return makeError("has run-time arguments, and whether it is injective "
                     "(and its inverse) depends on their values");
  };
  switch (kind) {
  case TransformKind::Replicate:
    if (isDynamic())
      return runTime();
    if (llvm::all_of(lengths, [](int64_t l) { return l == 1; }))
      return Error::success();
    return makeError("is not injective: every upper coordinate maps to the "
                     "same (empty) lower coordinate");
  case TransformKind::Modulo:
    if (isDynamic())
      return runTime();
    if (params[0] >= lengths[0])
      return Error::success();
    return makeError(llvm::formatv(
        "is not injective: the modulus {0} is smaller than the upper length "
        "{1}, so u and u + {0} collide",
        params[0], lengths[0]));
  case TransformKind::Embed:
    if (isDynamic())
      return runTime();
    return checkEmbedInjective(*this);
  case TransformKind::PassThrough:
  case TransformKind::Pad:
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
  case TransformKind::Merge:
  case TransformKind::Unmerge:
  case TransformKind::Freeze:
  case TransformKind::Offset:
  case TransformKind::Slice:
  case TransformKind::Xor:
  case TransformKind::Rotate:
  case TransformKind::Swizzle:
  case TransformKind::Sunder:
    return Error::success();
  }
  llvm_unreachable("unknown transform kind");
}

void Transform::calculateUpperIndex(
    ArrayRef<int64_t> lower, llvm::MutableArrayRef<int64_t> upper) const {
  Int64Algebra a;
  SmallVector<int64_t, 4> u;
  formulas::upperIndex(*this, a, lower, u);
  llvm::copy(u, upper.begin());
}

bool Transform::isIdentity() const {
  switch (kind) {
  case TransformKind::PassThrough:
    return true;
  case TransformKind::Pad:
    return params[0] == 0 && params[1] == 0;
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
  case TransformKind::Offset:
    return params[0] == 0;
  case TransformKind::Slice:
    return params[0] == 0;
  case TransformKind::Modulo:
    return !isDynamic() && params[0] >= lengths[0];
  case TransformKind::Xor:
  case TransformKind::Rotate:
    return lengths[1] == 1;
  case TransformKind::Swizzle:
    return params[0] == 0;
  case TransformKind::Embed:
    return lengths.size() == 1 && (coefficients[0] == 1 || lengths[0] == 1);
  case TransformKind::Merge:
  case TransformKind::Unmerge:
    return lengths.size() == 1;
  case TransformKind::Replicate:
  case TransformKind::Freeze:
  case TransformKind::Sunder:
    return false;
  }
  llvm_unreachable("unknown transform kind");
}

bool Transform::keepsZero() const {
  switch (getKindInfo().keepsZero) {
  case TransformKindInfo::Never:
    return false;
  case TransformKindInfo::Always:
    return true;
  case TransformKindInfo::IfParam0IsZero:
    return params[0] == 0;
  }
  llvm_unreachable("unknown zero rule");
}

std::string Transform::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "#layout." << stringifyTransformKind(kind) << "<";
  for (unsigned i = 0, e = getNumArgs(); i < e; ++i) {
    TransformArg arg = getArg(i);
    os << (i ? ", " : "");
    if (arg.isListArg())
      os << formatSizeList(arg.getList());
    else if (mlir::layout::isDynamic(arg.getScalar()))
      os << "?";
    else
      os << arg.getScalar();
  }
  os << ">";
  return s;
}
