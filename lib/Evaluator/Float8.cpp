//===- Float8.cpp - Exact conversions of 8-bit floats ---------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Decoding is the formula of Float8.h on the fields. Encoding rounds in a
// format with the encoding's precision and least exponent but no largest
// one (so that subnormals and the carry into the next binade come out of the
// same division), and only then compares with the largest finite value: a
// value rounds past it exactly when it is at least maxFinite + half an ulp,
// with the tie going to the even neighbour (448 + 16 = 464 stays 448 in
// E4M3FN, whose next step, 480, would be S.1111.111, the NaN; 61440 goes up
// to 65536 in E5M2, whose 57344 has an odd mantissa).
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Float8.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir::layout;

static constexpr Float8Encoding kEncodings[] = {
    Float8Encoding::E4M3FN, Float8Encoding::E5M2, Float8Encoding::E4M3FNUZ,
    Float8Encoding::E5M2FNUZ};

llvm::ArrayRef<Float8Encoding> mlir::layout::allFloat8Encodings() {
  return kEncodings;
}

/// The format of `encoding` with the derived fields filled in.
static Float8Format makeFormat(Float8Encoding encoding, llvm::StringRef name,
                               int exponentBits, int mantissaBits, int bias,
                               bool hasInfinity, bool hasNegativeZero,
                               uint8_t maxFiniteCode, uint8_t canonicalNaN) {
  Float8Format f{encoding,
                 name,
                 exponentBits,
                 mantissaBits,
                 bias,
                 hasInfinity,
                 hasNegativeZero,
                 /*maxFinite=*/0,
                 maxFiniteCode,
                 /*minSubnormal=*/std::ldexp(1.0, 1 - bias - mantissaBits),
                 canonicalNaN};
  f.maxFinite = decodeFloat8(encoding, maxFiniteCode);
  return f;
}

const Float8Format &mlir::layout::float8Format(Float8Encoding encoding) {
  // Largest finite codes: E4M3FN S.1111.110 (S.1111.111 is NaN), E5M2
  // S.11110.11 (exponent 31 is infinity / NaN), FNUZ S.1111.111 and
  // S.11111.11 (only 0x80 is special).
  static const Float8Format formats[] = {
      makeFormat(Float8Encoding::E4M3FN, "f8E4M3FN", 4, 3, 7, false, true, 0x7E,
                 0x7F),
      makeFormat(Float8Encoding::E5M2, "f8E5M2", 5, 2, 15, true, true, 0x7B,
                 0x7E),
      makeFormat(Float8Encoding::E4M3FNUZ, "f8E4M3FNUZ", 4, 3, 8, false, false,
                 0x7F, 0x80),
      makeFormat(Float8Encoding::E5M2FNUZ, "f8E5M2FNUZ", 5, 2, 16, false, false,
                 0x7F, 0x80),
  };
  return formats[static_cast<unsigned>(encoding)];
}

/// The fields of `encoding`: (exponent bits, mantissa bits, bias). Decoding
/// needs them before the format table exists (makeFormat decodes the largest
/// finite code).
static void fields(Float8Encoding encoding, int &e, int &m, int &bias) {
  switch (encoding) {
  case Float8Encoding::E4M3FN:
    e = 4, m = 3, bias = 7;
    return;
  case Float8Encoding::E5M2:
    e = 5, m = 2, bias = 15;
    return;
  case Float8Encoding::E4M3FNUZ:
    e = 4, m = 3, bias = 8;
    return;
  case Float8Encoding::E5M2FNUZ:
    e = 5, m = 2, bias = 16;
    return;
  }
  llvm_unreachable("unknown 8-bit float encoding");
}

bool mlir::layout::isFloat8NaN(Float8Encoding encoding, uint8_t code) {
  switch (encoding) {
  case Float8Encoding::E4M3FN:
    return (code & 0x7F) == 0x7F;
  case Float8Encoding::E5M2:
    return (code & 0x7C) == 0x7C && (code & 0x03) != 0;
  case Float8Encoding::E4M3FNUZ:
  case Float8Encoding::E5M2FNUZ:
    return code == 0x80;
  }
  llvm_unreachable("unknown 8-bit float encoding");
}

double mlir::layout::decodeFloat8(Float8Encoding encoding, uint8_t code) {
  if (isFloat8NaN(encoding, code))
    return std::numeric_limits<double>::quiet_NaN();
  int e, m, bias;
  fields(encoding, e, m, bias);
  bool negative = (code & 0x80) != 0;
  int exponent = (code >> m) & ((1 << e) - 1);
  int mantissa = code & ((1 << m) - 1);
  double magnitude;
  if (encoding == Float8Encoding::E5M2 && exponent == 31)
    magnitude = std::numeric_limits<double>::infinity();
  else if (exponent == 0) // subnormal: 0.m * 2^(1 - bias)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - bias - m);
  else // normal: 1.m * 2^(exponent - bias)
    magnitude = std::ldexp(static_cast<double>((1 << m) + mantissa),
                           exponent - bias - m);
  return negative ? -magnitude : magnitude;
}

/// The code of a value `magnitude` that the encoding represents exactly
/// (0 < magnitude <= maxFinite), without the sign.
static uint8_t encodeExact(const Float8Format &f, double magnitude) {
  int m = f.mantissaBits;
  int binade;
  std::frexp(magnitude,
             &binade); // magnitude = frac * 2^binade, frac in [.5, 1)
  int exponent = binade - 1 + f.bias;
  if (exponent <= 0) // subnormal: magnitude = mantissa * 2^(1 - bias - m)
    return static_cast<uint8_t>(std::ldexp(magnitude, f.bias - 1 + m));
  double significand =
      std::ldexp(magnitude, m - (binade - 1)); // in [2^m, 2^(m+1))
  int mantissa = static_cast<int>(significand) - (1 << m);
  assert(significand == static_cast<int>(significand) && "not representable");
  return static_cast<uint8_t>((exponent << m) | mantissa);
}

/// The code of an overflowing value with sign bit `sign`.
static uint8_t overflowCode(const Float8Format &f, uint8_t sign,
                            Float8Overflow overflow) {
  if (overflow == Float8Overflow::SatFinite)
    return sign | f.maxFiniteCode;
  if (f.hasInfinity)
    return sign | 0x7C;
  // No infinity: NaN (the FNUZ NaN has no sign).
  return f.hasNegativeZero ? (sign | f.canonicalNaN) : f.canonicalNaN;
}

uint8_t mlir::layout::encodeFloat8(Float8Encoding encoding, double value,
                                   Float8Overflow overflow) {
  const Float8Format &f = float8Format(encoding);
  if (std::isnan(value))
    return f.canonicalNaN;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude))
    return overflowCode(f, sign, overflow);
  uint8_t zero = f.hasNegativeZero ? sign : 0;
  if (magnitude == 0)
    return zero;
  // The quantum of magnitude's binade, never below the subnormals' one.
  int binade;
  std::frexp(magnitude, &binade);
  int exponent = std::max(binade - 1, 1 - f.bias);
  double quantum = std::ldexp(1.0, exponent - f.mantissaBits);
  double steps = magnitude / quantum; // exact: a power-of-two scaling
  double floor = std::floor(steps);
  double rest = steps - floor;
  bool odd = std::fmod(floor, 2.0) != 0;
  double rounded = floor + ((rest > 0.5 || (rest == 0.5 && odd)) ? 1 : 0);
  double result = rounded * quantum;
  if (result > f.maxFinite)
    return overflowCode(f, sign, overflow);
  if (result == 0)
    return zero;
  return sign | encodeExact(f, result);
}
