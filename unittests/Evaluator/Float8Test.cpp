//===- Float8Test.cpp - Tests of the 8-bit float conversions --------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The reference is LLVM's APFloat with the fltSemantics of the same names
// (APFloat::Float8E4M3FN(), Float8E5M2(), Float8E4M3FNUZ(),
// Float8E5M2FNUZ()), an implementation independent of Float8.cpp: every
// code is decoded by both, and encoding is compared on every representable
// value, every midpoint between neighbours (the ties), the floats next to
// them, the edges of the range and a sample of arbitrary floats. The edges
// (largest finite values, smallest subnormals, saturation) are also checked
// against numbers written out here.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Float8.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

using namespace mlir::layout;
using llvm::APFloat;

namespace {

const llvm::fltSemantics &semantics(Float8Encoding encoding) {
  switch (encoding) {
  case Float8Encoding::E4M3FN:
    return APFloat::Float8E4M3FN();
  case Float8Encoding::E5M2:
    return APFloat::Float8E5M2();
  case Float8Encoding::E4M3FNUZ:
    return APFloat::Float8E4M3FNUZ();
  case Float8Encoding::E5M2FNUZ:
    return APFloat::Float8E5M2FNUZ();
  }
  return APFloat::Float8E4M3FN();
}

std::string name(Float8Encoding encoding) {
  return float8Format(encoding).typeName.str();
}

/// APFloat's value of `code` as a double.
double referenceDecode(Float8Encoding encoding, uint8_t code) {
  APFloat v(semantics(encoding), llvm::APInt(8, code));
  bool lost = false;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  EXPECT_FALSE(lost);
  return v.convertToDouble();
}

/// APFloat's code of float `x`, rounded to nearest even; `overflowed` says
/// whether the conversion overflowed (or `x` was infinite).
uint8_t referenceEncode(Float8Encoding encoding, float x, bool &overflowed) {
  APFloat v(x);
  bool lost = false;
  APFloat::opStatus status =
      v.convert(semantics(encoding), APFloat::rmNearestTiesToEven, &lost);
  overflowed = (status & APFloat::opOverflow) != 0 || std::isinf(x);
  return static_cast<uint8_t>(v.bitcastToAPInt().getZExtValue());
}

/// Whether two doubles are the same value, -0 and +0 apart, NaNs alike.
bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

/// Whether two codes of `encoding` are the same, any NaN matching any NaN.
bool sameCode(Float8Encoding encoding, uint8_t a, uint8_t b) {
  if (isFloat8NaN(encoding, a) || isFloat8NaN(encoding, b))
    return isFloat8NaN(encoding, a) && isFloat8NaN(encoding, b);
  return a == b;
}

std::string hex(unsigned v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

TEST(Float8Test, DecodeEveryCodeAsAPFloat) {
  for (Float8Encoding encoding : allFloat8Encodings()) {
    int mismatches = 0, nans = 0, infinities = 0;
    std::ostringstream first;
    for (unsigned code = 0; code < 256; ++code) {
      double got = decodeFloat8(encoding, code);
      double want = referenceDecode(encoding, code);
      EXPECT_EQ(isFloat8NaN(encoding, code), std::isnan(want))
          << name(encoding) << " " << hex(code);
      nans += std::isnan(got);
      infinities += std::isinf(got);
      if (sameValue(got, want))
        continue;
      if (mismatches++ < 4)
        first << "\n  " << hex(code) << ": decoded " << got << ", APFloat "
              << want;
    }
    EXPECT_EQ(mismatches, 0)
        << name(encoding) << ": " << mismatches
        << " of 256 codes differ from APFloat; first:" << first.str();
    // NaNs: S.1111.111 (E4M3FN), S.11111.{01,10,11} (E5M2), 0x80 (FNUZ);
    // infinities only in E5M2.
    bool e5m2 = encoding == Float8Encoding::E5M2;
    EXPECT_EQ(nans, encoding == Float8Encoding::E4M3FN ? 2
                    : e5m2                             ? 6
                                                       : 1)
        << name(encoding);
    EXPECT_EQ(infinities, e5m2 ? 2 : 0) << name(encoding);
  }
}

TEST(Float8Test, FormatFacts) {
  struct Expected {
    Float8Encoding encoding;
    const char *typeName;
    double maxFinite, minSubnormal;
    bool hasInfinity, hasNegativeZero;
  };
  const Expected expected[] = {
      {Float8Encoding::E4M3FN, "f8E4M3FN", 448, std::ldexp(1.0, -9), false,
       true},
      {Float8Encoding::E5M2, "f8E5M2", 57344, std::ldexp(1.0, -16), true, true},
      {Float8Encoding::E4M3FNUZ, "f8E4M3FNUZ", 240, std::ldexp(1.0, -10), false,
       false},
      {Float8Encoding::E5M2FNUZ, "f8E5M2FNUZ", 57344, std::ldexp(1.0, -17),
       false, false},
  };
  for (const Expected &e : expected) {
    const Float8Format &f = float8Format(e.encoding);
    EXPECT_EQ(f.typeName, e.typeName);
    EXPECT_EQ(f.maxFinite, e.maxFinite) << e.typeName;
    EXPECT_EQ(decodeFloat8(e.encoding, f.maxFiniteCode), e.maxFinite);
    EXPECT_EQ(decodeFloat8(e.encoding, 0x80 | f.maxFiniteCode), -e.maxFinite);
    EXPECT_EQ(f.minSubnormal, e.minSubnormal) << e.typeName;
    EXPECT_EQ(decodeFloat8(e.encoding, 0x01), e.minSubnormal) << e.typeName;
    EXPECT_EQ(f.hasInfinity, e.hasInfinity) << e.typeName;
    EXPECT_EQ(f.hasNegativeZero, e.hasNegativeZero) << e.typeName;
    EXPECT_TRUE(isFloat8NaN(e.encoding, f.canonicalNaN)) << e.typeName;
    // APFloat agrees on the extremes.
    const llvm::fltSemantics &sem = semantics(e.encoding);
    EXPECT_EQ(
        referenceDecode(
            e.encoding,
            static_cast<uint8_t>(
                APFloat::getLargest(sem).bitcastToAPInt().getZExtValue())),
        e.maxFinite);
    EXPECT_EQ(
        referenceDecode(
            e.encoding,
            static_cast<uint8_t>(
                APFloat::getSmallest(sem).bitcastToAPInt().getZExtValue())),
        e.minSubnormal);
  }
  // The FNUZ encodings' 0x80 is NaN, not -0; the OCP ones' is -0.
  EXPECT_TRUE(std::isnan(decodeFloat8(Float8Encoding::E4M3FNUZ, 0x80)));
  EXPECT_TRUE(std::isnan(decodeFloat8(Float8Encoding::E5M2FNUZ, 0x80)));
  EXPECT_TRUE(sameValue(decodeFloat8(Float8Encoding::E4M3FN, 0x80), -0.0));
  EXPECT_TRUE(sameValue(decodeFloat8(Float8Encoding::E5M2, 0x80), -0.0));
  EXPECT_EQ(decodeFloat8(Float8Encoding::E5M2, 0x7C),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(decodeFloat8(Float8Encoding::E5M2, 0xFC),
            -std::numeric_limits<double>::infinity());
  EXPECT_EQ(decodeFloat8(Float8Encoding::E4M3FN, 0x38), 1.0);   // 0.0111.000
  EXPECT_EQ(decodeFloat8(Float8Encoding::E4M3FNUZ, 0x40), 1.0); // 0.1000.000
  EXPECT_EQ(decodeFloat8(Float8Encoding::E5M2, 0x3C), 1.0);     // 0.01111.00
  EXPECT_EQ(decodeFloat8(Float8Encoding::E5M2FNUZ, 0x40), 1.0); // 0.10000.00
}

/// The floats encoding is compared on: every finite value of `encoding`,
/// the midpoints of neighbours (ties) and the floats next to each, the
/// overflow threshold, tiny values around half the smallest subnormal,
/// infinities, NaN, and `samples` arbitrary floats (half of them within the
/// encoding's range).
std::vector<float> encodeInputs(Float8Encoding encoding, int samples) {
  std::vector<double> values;
  for (unsigned code = 0; code < 128; ++code) {
    double v = decodeFloat8(encoding, code);
    if (std::isfinite(v))
      values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  const Float8Format &f = float8Format(encoding);
  // Half an ulp of the top binade above the largest value: the tie.
  double topUlp = f.maxFinite - decodeFloat8(encoding, f.maxFiniteCode - 1);
  std::vector<double> points = values;
  for (size_t i = 0; i + 1 < values.size(); ++i)
    points.push_back((values[i] + values[i + 1]) / 2);
  points.push_back(f.maxFinite + topUlp / 2);
  points.push_back(f.maxFinite + topUlp);
  points.push_back(f.minSubnormal / 2);
  points.push_back(f.minSubnormal / 4);
  points.push_back(1e30);
  std::vector<float> inputs;
  for (double p : points) {
    float x = static_cast<float>(p);
    for (float y : {x, std::nextafter(x, 0.0f),
                    std::nextafter(x, std::numeric_limits<float>::max())}) {
      inputs.push_back(y);
      inputs.push_back(-y);
    }
  }
  float inf = std::numeric_limits<float>::infinity();
  inputs.insert(inputs.end(), {inf, -inf, std::nanf(""), -0.0f});
  std::mt19937 rng(42);
  std::uniform_int_distribution<uint32_t> bits;
  std::uniform_real_distribution<double> scale(std::log2(f.minSubnormal) - 2,
                                               std::log2(f.maxFinite) + 2);
  for (int i = 0; i < samples; ++i) {
    uint32_t b = bits(rng);
    float x;
    std::memcpy(&x, &b, sizeof(x));
    inputs.push_back(x);
    inputs.push_back(
        static_cast<float>((b & 1 ? -1 : 1) * std::exp2(scale(rng))));
  }
  return inputs;
}

TEST(Float8Test, EncodeAsAPFloat) {
  for (Float8Encoding encoding : allFloat8Encodings()) {
    const Float8Format &f = float8Format(encoding);
    int mismatches = 0;
    std::ostringstream first;
    std::vector<float> inputs = encodeInputs(encoding, 50000);
    for (float x : inputs) {
      bool overflowed = false;
      uint8_t want = referenceEncode(encoding, x, overflowed);
      // SatFinite: what APFloat gives, but +-maxFinite where it overflowed.
      uint8_t wantSat =
          overflowed ? static_cast<uint8_t>((std::signbit(x) ? 0x80 : 0) |
                                            f.maxFiniteCode)
                     : want;
      uint8_t got = encodeFloat8(encoding, x, Float8Overflow::NonSaturating);
      uint8_t gotSat = encodeFloat8(encoding, x, Float8Overflow::SatFinite);
      if (sameCode(encoding, got, want) && sameCode(encoding, gotSat, wantSat))
        continue;
      if (mismatches++ < 4)
        first << "\n  " << x << ": " << hex(got) << " / " << hex(gotSat)
              << " (saturating), APFloat " << hex(want) << " / "
              << hex(wantSat);
    }
    EXPECT_EQ(mismatches, 0)
        << name(encoding) << ": " << mismatches << " of " << inputs.size()
        << " floats encode differently from APFloat; first:" << first.str();
  }
}

TEST(Float8Test, EdgesWrittenOut) {
  using E = Float8Encoding;
  auto nonSat = [](E e, double x) {
    return encodeFloat8(e, x, Float8Overflow::NonSaturating);
  };
  auto sat = [](E e, double x) {
    return encodeFloat8(e, x, Float8Overflow::SatFinite);
  };
  // E4M3FN: 448 = 1.75 * 2^8 (0x7E); the tie with 480 (464) goes to the even
  // 448; above it the value overflows: NaN, or 448 with satfinite.
  EXPECT_EQ(nonSat(E::E4M3FN, 448), 0x7E);
  EXPECT_EQ(nonSat(E::E4M3FN, 464), 0x7E);
  EXPECT_EQ(nonSat(E::E4M3FN, 464.5), 0x7F);
  EXPECT_EQ(nonSat(E::E4M3FN, -1e6), 0xFF);
  EXPECT_EQ(sat(E::E4M3FN, 464.5), 0x7E);
  EXPECT_EQ(sat(E::E4M3FN, -1e6), 0xFE);
  EXPECT_EQ(sat(E::E4M3FN, INFINITY), 0x7E);
  EXPECT_EQ(sat(E::E4M3FN, -INFINITY), 0xFE);
  EXPECT_TRUE(isFloat8NaN(E::E4M3FN, sat(E::E4M3FN, NAN)));
  // E5M2: 57344 = 1.75 * 2^15 (0x7B); the tie with 65536 (61440) goes to
  // the even 65536: infinity.
  EXPECT_EQ(nonSat(E::E5M2, 61439), 0x7B);
  EXPECT_EQ(nonSat(E::E5M2, 61440), 0x7C);
  EXPECT_EQ(nonSat(E::E5M2, -INFINITY), 0xFC);
  EXPECT_EQ(sat(E::E5M2, 61440), 0x7B);
  EXPECT_EQ(sat(E::E5M2, -INFINITY), 0xFB);
  // E4M3FNUZ: 240 = 1.875 * 2^7 (0x7F); the tie with 256 (248) goes up:
  // NaN (0x80, no sign).
  EXPECT_EQ(nonSat(E::E4M3FNUZ, 247.9), 0x7F);
  EXPECT_EQ(nonSat(E::E4M3FNUZ, 248), 0x80);
  EXPECT_EQ(nonSat(E::E4M3FNUZ, -248), 0x80);
  EXPECT_EQ(sat(E::E4M3FNUZ, -248), 0xFF);
  EXPECT_EQ(sat(E::E4M3FNUZ, INFINITY), 0x7F);
  // E5M2FNUZ: 57344 (0x7F), NaN above.
  EXPECT_EQ(nonSat(E::E5M2FNUZ, 61440), 0x80);
  EXPECT_EQ(sat(E::E5M2FNUZ, 61440), 0x7F);
  // Smallest subnormals and ties at the bottom: half of 2^-9 ties to the
  // even 0; just above it rounds up; 1.5 quanta tie to the even 2 quanta.
  EXPECT_EQ(nonSat(E::E4M3FN, std::ldexp(1.0, -9)), 0x01);
  EXPECT_EQ(nonSat(E::E4M3FN, std::ldexp(1.0, -10)), 0x00);
  EXPECT_EQ(nonSat(E::E4M3FN, -std::ldexp(1.0, -10)), 0x80); // -0
  EXPECT_EQ(nonSat(E::E4M3FN, std::ldexp(1.0, -10) * 1.001), 0x01);
  EXPECT_EQ(nonSat(E::E4M3FN, 3 * std::ldexp(1.0, -10)), 0x02);
  EXPECT_EQ(nonSat(E::E5M2, std::ldexp(1.0, -16)), 0x01);
  EXPECT_EQ(nonSat(E::E5M2, std::ldexp(1.0, -17)), 0x00);
  EXPECT_EQ(nonSat(E::E4M3FNUZ, std::ldexp(1.0, -10)), 0x01);
  EXPECT_EQ(nonSat(E::E4M3FNUZ, -std::ldexp(1.0, -11)), 0x00); // no -0
  EXPECT_EQ(nonSat(E::E4M3FNUZ, -0.0), 0x00);
  EXPECT_EQ(nonSat(E::E5M2FNUZ, std::ldexp(1.0, -17)), 0x01);
  EXPECT_EQ(nonSat(E::E5M2FNUZ, -std::ldexp(1.0, -18)), 0x00);
  // Ties between normals: 1.0625 between 1.0 (0x38, even) and 1.125; 1.1875
  // between 1.125 (odd) and 1.25 (0x3A, even).
  EXPECT_EQ(nonSat(E::E4M3FN, 1.0625), 0x38);
  EXPECT_EQ(nonSat(E::E4M3FN, 1.1875), 0x3A);
  EXPECT_EQ(nonSat(E::E5M2, 1.125), 0x3C); // 1.0 (even) vs 1.25
  EXPECT_EQ(nonSat(E::E5M2, 1.375), 0x3E); // 1.25 (odd) vs 1.5 (even)
  // The carry out of a binade: 15.5 rounds to 16 in E4M3FN (0.1011.000).
  EXPECT_EQ(nonSat(E::E4M3FN, 15.5), 0x58);
}

} // namespace
