//===- Float8Truncation.h - arith.truncf to 8-bit floats --------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// What `arith.truncf` to an 8-bit float means in this project and where it
// compiles (issue 42, "output FP8 with saturation").
//
// `arith.truncf` keeps MLIR's semantics: round to nearest even, and a value
// past the largest finite one becomes infinity (E5M2) or NaN (the others,
// which have no infinity), as LLVM's APFloat converts. A GEMM that stores
// FP8 the way cuBLASLt and torch._scaled_mm do saturates instead: it says
// so by clamping first, with the NaN-propagating min and max,
//
//   %lo = arith.maximumf %x, %neg_max : vector<...xf32>   // -448.0 splat
//   %hi = arith.minimumf %lo, %max : vector<...xf32>      //  448.0 splat
//   %y  = arith.truncf %hi : vector<...xf32> to vector<...xf8E4M3FN>
//
// (either nesting, the constants on either side; +-maxFinite of the result
// type exactly). Infinities clamp to +-maxFinite and NaN stays NaN, which is
// PTX's `cvt.rn.satfinite` (PTX ISA, "cvt": ".satfinite ... if the absolute
// value of input (ignoring sign) is greater than MAX_NORM of the specified
// destination format, then the result is sign-preserved MAX_NORM"). MLIR
// 22's ArithToAMDGPU `saturate-fp8-truncf` is not used: it lets infinities
// through, which the FNUZ encodings turn into NaN.
//
// Where it compiles: a chip converts f32 to the 8-bit floats its matrix
// instructions multiply (the table of MatrixInstructions.h): gfx940-942
// the FNUZ pair (CDNA3 ISA, V_CVT_PK_FP8_F32 / V_CVT_PK_BF8_F32), gfx950
// the OCP pair (CDNA4 ISA, the same opcodes), sm_89 and later the OCP pair
// with `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (PTX ISA 7.8), which only
// saturates: on NVIDIA chips the truncation must be the clamped one.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_FLOAT8TRUNCATION_H
#define LAYOUT_TRANSFORMS_FLOAT8TRUNCATION_H

#include "layout/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace layout {

/// Whether `op` truncates to an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ,
/// f8E5M2FNUZ), scalar or vector.
bool truncatesToFloat8(arith::TruncFOp op);

/// The value a saturating truncation clamps: `x` where `op`'s input is
/// minimumf(maximumf(x, -M), M) or maximumf(minimumf(x, M), -M), M the
/// largest finite value of `op`'s 8-bit float result type (splat or scalar
/// constants, on either side); a null Value otherwise.
Value saturatedTruncationSource(arith::TruncFOp op);

/// Checks that `chip` converts as `op` (a truncation to an 8-bit float)
/// asks: an f32 input, an encoding the chip converts to, and on NVIDIA
/// chips the clamp of a saturating truncation. Emits a diagnostic at `op`
/// and fails otherwise.
LogicalResult checkFloat8Truncation(arith::TruncFOp op, const Chip &chip);

/// Replaces `op` (a truncation to an 8-bit float, scalar or vector) with
/// the codes `encode` makes, as i8, of the elements of `input` (a value of
/// `op`'s input shape: the input, or the value a clamp clamps), passed in
/// row-major order; the bytes become the result type by bitcast. The one
/// place that takes a truncation apart element by element (the NVVM
/// lowering and the CPU emulation differ only in `encode`).
void replaceFloat8Truncation(arith::TruncFOp op, Value input,
                             llvm::function_ref<SmallVector<Value>(
                                 OpBuilder &, Location, ArrayRef<Value>)>
                                 encode);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_FLOAT8TRUNCATION_H
