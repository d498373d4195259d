//===- TransformChecks.h - Checked arithmetic of the verifiers -*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Evaluator: the overflow-checked sums and products and the
// parameter checks that Transform.cpp and TransformVerify.cpp share.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_EVALUATOR_TRANSFORMCHECKS_H
#define LAYOUT_LIB_EVALUATOR_TRANSFORMCHECKS_H

#include "layout/Evaluator/Transform.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace layout {
namespace checks {

using llvm::ArrayRef;
using llvm::Error;

inline Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// `init` combined with every value by `step` (checkedAdd, checkedMul), or
/// std::nullopt on overflow.
/// Folds the static values (run-time values are checked when known).
inline std::optional<int64_t>
checkedFold(ArrayRef<int64_t> values, int64_t init,
            std::optional<int64_t> (*step)(int64_t, int64_t)) {
  int64_t acc = init;
  for (int64_t v : values) {
    if (isDynamic(v))
      continue;
    std::optional<int64_t> next = step(acc, v);
    if (!next)
      return std::nullopt;
    acc = *next;
  }
  return acc;
}

/// Product of `values`, or std::nullopt on overflow.
inline std::optional<int64_t> checkedProduct(ArrayRef<int64_t> values) {
  return checkedFold(values, 1, checkedMul);
}

/// Sum of `values`, or std::nullopt on overflow.
inline std::optional<int64_t> checkedSum(ArrayRef<int64_t> values) {
  return checkedFold(values, 0, checkedAdd);
}

/// 1 + sum (U_i - 1) * c_i: the lower length an embed spans.
inline std::optional<int64_t> embedSpan(ArrayRef<int64_t> upperLengths,
                                        ArrayRef<int64_t> coefficients) {
  int64_t span = 1;
  for (auto [u, c] : llvm::zip_equal(upperLengths, coefficients)) {
    if (isDynamic(u) || isDynamic(c))
      continue;
    std::optional<int64_t> term = checkedMul(u - 1, c);
    if (!term)
      return std::nullopt;
    std::optional<int64_t> next = checkedAdd(span, *term);
    if (!next)
      return std::nullopt;
    span = *next;
  }
  return span;
}

inline Error checkPositive(llvm::StringRef name, int64_t value) {
  if (value <= 0 && !isDynamic(value))
    return makeError(
        llvm::formatv("'{0}' must be positive, got {1}", name, value));
  return Error::success();
}
inline Error checkNonNegative(llvm::StringRef name, int64_t value) {
  if (value < 0 && !isDynamic(value))
    return makeError(
        llvm::formatv("'{0}' must be non-negative, got {1}", name, value));
  return Error::success();
}
/// Checks a non-empty list of positive lengths.
inline Error checkLengthList(llvm::StringRef name, ArrayRef<int64_t> values) {
  if (values.empty())
    return makeError(llvm::formatv("'{0}' must not be empty", name));
  for (auto [i, v] : llvm::enumerate(values))
    if (v <= 0 && !isDynamic(v))
      return makeError(llvm::formatv(
          "'{0}' entry {1} must be positive, got {2}", name, i, v));
  return Error::success();
}
/// Whether both values are static (a check comparing them applies).
inline bool bothStatic(int64_t a, int64_t b) {
  return !isDynamic(a) && !isDynamic(b);
}
inline Error overflowError(llvm::StringRef what) {
  return makeError(llvm::formatv("{0} overflows int64", what));
}

} // namespace checks
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_EVALUATOR_TRANSFORMCHECKS_H
