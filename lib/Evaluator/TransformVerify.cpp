//===- TransformVerify.cpp - Parameter checks of the transforms -----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Transform::verify: each kind's parameter checks, with messages that name
// the parameter and the reason.
//
//===----------------------------------------------------------------------===//

#include "TransformChecks.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::checks;
using llvm::Error;

/// embed's checks (Transform::verify).
static Error verifyEmbed(llvm::ArrayRef<int64_t> lengths,
                         llvm::ArrayRef<int64_t> coefficients) {
  if (Error e = checkLengthList("upper_lengths", lengths))
    return e;
  if (coefficients.size() != lengths.size())
    return makeError(llvm::formatv(
        "'coefficients' has {0} entries but 'upper_lengths' has {1}",
        coefficients.size(), lengths.size()));
  for (auto [i, c] : llvm::enumerate(coefficients))
    if (c < 0 && !isDynamic(c))
      return makeError(llvm::formatv(
          "'coefficients' entry {0} must be non-negative, got {1}", i, c));
  if (!embedSpan(lengths, coefficients))
    return overflowError("lower span 1 + sum (U_i - 1) * c_i");
  return Error::success();
}

/// slice's checks (Transform::verify).
static Error verifySlice(int64_t length, int64_t begin, int64_t end) {
  if (Error e = checkPositive("length", length))
    return e;
  if (Error e = checkNonNegative("begin", begin))
    return e;
  if (bothStatic(begin, end) && begin > end)
    return makeError(llvm::formatv(
        "'begin' ({0}) must not be greater than 'end' ({1})", begin, end));
  if (bothStatic(begin, end) && begin == end)
    return makeError(llvm::formatv(
        "'begin' and 'end' are both {0}: the slice would be empty", begin));
  if (bothStatic(end, length) && end > length)
    return makeError(llvm::formatv(
        "'end' ({0}) must not exceed the length ({1})", end, length));
  return Error::success();
}

/// xor's and rotate's checks (Transform::verify).
static Error verifyPairLengths(TransformKind kind,
                               llvm::ArrayRef<int64_t> lengths) {
  if (lengths.size() != 2)
    return makeError(
        llvm::formatv("'lengths' must have exactly 2 entries [L0, L1], got {0}",
                      lengths.size()));
  if (Error e = checkLengthList("lengths", lengths))
    return e;
  if (kind == TransformKind::Xor && !llvm::isPowerOf2_64(lengths[1]))
    return makeError(llvm::formatv(
        "L1 ({0}) must be a power of two, otherwise u1 xor (u0 mod L1) "
        "leaves [0, L1) and the transform is not a bijection",
        lengths[1]));
  if (!checkedMul(lengths[0], lengths[1]))
    return overflowError("L0 * L1");
  return Error::success();
}

/// swizzle's checks (Transform::verify).
static Error verifySwizzle(int64_t bits, int64_t base, int64_t shift,
                           int64_t length) {
  if (Error e = checkNonNegative("B", bits))
    return e;
  if (Error e = checkNonNegative("M", base))
    return e;
  if (Error e = checkPositive("L", length))
    return e;
  // Each term below 62 first, so that neither |S| nor the sum overflows.
  if (bits >= 62 || base >= 62 || shift <= -62 || shift >= 62)
    return makeError(llvm::formatv(
        "B + M + |S| must be below 62, got B = {0}, M = {1}, S = {2}", bits,
        base, shift));
  int64_t absShift = shift < 0 ? -shift : shift;
  if (absShift < bits)
    return makeError(llvm::formatv(
        "|S| ({0}) must be at least B ({1}): the source and target bits "
        "overlap and the swizzle is not a bijection",
        shift, bits));
  if (bits + base + absShift >= 62)
    return makeError(llvm::formatv("B + M + |S| ({0}) must be below 62",
                                   bits + base + absShift));
  int64_t block = int64_t(1) << (bits + base);
  if (length % block != 0)
    return makeError(llvm::formatv(
        "the swizzled bits exceed L: L ({0}) must be a multiple of "
        "2^(B + M) = {1}",
        length, block));
  return Error::success();
}

Error Transform::verify() const {
  if (isDynamic() && !getKindInfo().runTime)
    return makeError("takes no run-time ('?') argument: its formula depends "
                     "on the values");
  switch (kind) {
  case TransformKind::PassThrough:
    return checkPositive("length", lengths[0]);
  case TransformKind::Pad: {
    if (Error e = checkPositive("length", lengths[0]))
      return e;
    if (Error e = checkNonNegative("left", params[0]))
      return e;
    if (Error e = checkNonNegative("right", params[1]))
      return e;
    if (!checkedSum({params[0], lengths[0], params[1]}))
      return overflowError("upper length left + length + right");
    return Error::success();
  }
  case TransformKind::LeftPad:
  case TransformKind::RightPad: {
    if (Error e = checkPositive("length", lengths[0]))
      return e;
    llvm::StringRef name = kind == TransformKind::LeftPad ? "left" : "right";
    if (Error e = checkNonNegative(name, params[0]))
      return e;
    if (!checkedSum({lengths[0], params[0]}))
      return overflowError(
          llvm::formatv("upper length length + {0}", name).str());
    return Error::success();
  }
  case TransformKind::Embed:
    return verifyEmbed(lengths, coefficients);
  case TransformKind::Merge:
  case TransformKind::Unmerge: {
    llvm::StringRef name =
        kind == TransformKind::Merge ? "lower_lengths" : "upper_lengths";
    if (Error e = checkLengthList(name, lengths))
      return e;
    if (!checkedProduct(lengths))
      return overflowError(llvm::formatv("product of '{0}'", name).str());
    return Error::success();
  }
  case TransformKind::Replicate:
    if (Error e = checkLengthList("upper_lengths", lengths))
      return e;
    if (!checkedProduct(lengths))
      return overflowError("product of 'upper_lengths'");
    return Error::success();
  case TransformKind::Freeze:
    return checkNonNegative("value", params[0]);
  case TransformKind::Offset: {
    if (Error e = checkPositive("upper_length", lengths[0]))
      return e;
    if (Error e = checkNonNegative("offset", params[0]))
      return e;
    if (!checkedSum({lengths[0], params[0]}))
      return overflowError("upper_length + offset");
    return Error::success();
  }
  case TransformKind::Slice:
    return verifySlice(lengths[0], params[0], params[1]);
  case TransformKind::Modulo:
    if (Error e = checkPositive("modulus", params[0]))
      return e;
    return checkPositive("upper_length", lengths[0]);
  case TransformKind::Xor:
  case TransformKind::Rotate:
    return verifyPairLengths(kind, lengths);
  case TransformKind::Swizzle:
    return verifySwizzle(params[0], params[1], params[2], lengths[0]);
  case TransformKind::Sunder:
    if (Error e = checkLengthList("pieces", lengths))
      return e;
    if (!checkedSum(lengths))
      return overflowError("sum of 'pieces'");
    return Error::success();
  }
  llvm_unreachable("unknown transform kind");
}
