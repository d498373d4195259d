//===- Float8.h - Exact conversions of 8-bit floats -------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The four 8-bit floating-point encodings the FP8 matrix instructions take
// (issue 42), decoded exactly and encoded with round-to-nearest-even: what
// the CPU emulation of FP8 GEMMs and their tests compute with. Each encoding
// is MLIR 22's type of the same name:
//
//   encoding  bits    bias  largest finite  infinity    NaN
//   E4M3FN    S.4.3   7     448             none        S.1111.111
//   E5M2      S.5.2   15    57344           S.11111.00  S.11111.{01,10,11}
//   E4M3FNUZ  S.4.3   8     240             none        0x80 only
//   E5M2FNUZ  S.5.2   16    57344           none        0x80 only
//
// E4M3FN and E5M2 are the OCP 8-bit floats (OCP "8-bit Floating Point
// Specification (OFP8)", the .e4m3 / .e5m2 of PTX and the fp8 / bf8 of
// CDNA4); the FNUZ pair ("finite, no negative zero") is CDNA3's fp8 / bf8
// (AMD's ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4", table of
// 8-bit types; LLVM's APFloat semantics of the same names). Every other code
// is a finite number: exponent field 0 is subnormal (no implicit one), the
// FNUZ encodings have one zero, 0x00, and use 0x80 for their only NaN.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_FLOAT8_H
#define LAYOUT_EVALUATOR_FLOAT8_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace layout {

/// The 8-bit float encodings (named as MLIR 22's f8 types, without "f8").
enum class Float8Encoding : uint8_t { E4M3FN, E5M2, E4M3FNUZ, E5M2FNUZ };

/// The four encodings, in the enum's order.
llvm::ArrayRef<Float8Encoding> allFloat8Encodings();

/// The facts of one encoding.
struct Float8Format {
  Float8Encoding encoding;
  /// MLIR 22's type name: "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ".
  llvm::StringRef typeName;
  int exponentBits;
  int mantissaBits;
  /// The exponent bias: a normal code's value is
  /// 1.m * 2^(exponent field - bias), a subnormal's 0.m * 2^(1 - bias).
  int bias;
  /// Only E5M2 has infinities (S.11111.00).
  bool hasInfinity;
  /// False for the FNUZ encodings: 0x80 is their NaN, not -0.
  bool hasNegativeZero;
  /// The largest finite magnitude (448, 57344, 240, 57344) and its code.
  double maxFinite;
  uint8_t maxFiniteCode;
  /// The smallest positive subnormal: 2^(1 - bias - mantissaBits).
  double minSubnormal;
  /// The NaN an encoding produces (E4M3FN 0x7F, E5M2 0x7E, FNUZ 0x80).
  uint8_t canonicalNaN;
};

/// The facts of `encoding`.
const Float8Format &float8Format(Float8Encoding encoding);

/// Whether `code` is a NaN of `encoding`.
bool isFloat8NaN(Float8Encoding encoding, uint8_t code);

/// The exact value of `code` (every finite code is a double, and a float):
/// NaN for the NaN codes, +-infinity for E5M2's infinities, -0.0 for the
/// OCP encodings' 0x80.
double decodeFloat8(Float8Encoding encoding, uint8_t code);

/// What an encoding does with a value beyond its largest finite one.
enum class Float8Overflow : uint8_t {
  /// Clamp to +-maxFinite, infinities too; NaN stays NaN (PTX
  /// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`: "if the absolute value of input
  /// (ignoring sign) is greater than MAX_NORM of the specified destination
  /// format, then the result is sign-preserved MAX_NORM").
  SatFinite,
  /// IEEE-style rounding with the encoding's rules: a value that rounds past
  /// maxFinite (and an infinity) becomes +-infinity in E5M2 and NaN in the
  /// others, which have no infinity (LLVM APFloat's conversions).
  NonSaturating,
};

/// `value` rounded to the nearest code of `encoding`, ties to even, with
/// subnormals; `overflow` says what happens past the largest finite value.
/// NaN gives canonicalNaN. A value that rounds to zero keeps its sign where
/// the encoding has -0 (the FNUZ encodings give 0x00).
uint8_t encodeFloat8(Float8Encoding encoding, double value,
                     Float8Overflow overflow);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_FLOAT8_H
