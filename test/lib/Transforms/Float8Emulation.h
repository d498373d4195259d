//===- Float8Emulation.h - Truncations to 8-bit floats on the CPU -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// arith.truncf to an 8-bit float as host code, for the CPU runs of FP8
// kernels (-layout-test-gpu-to-loops): LLVM IR has no 8-bit float type, so
// neither the CPU pipeline nor MLIR 22's arith-to-llvm lowers it. The
// emulation computes arith.truncf's semantics (round to nearest even; past
// the largest finite value infinity or NaN, as LLVM's APFloat converts)
// from Float8.h's encodeFloat8 (Float8Overflow::NonSaturating), the one
// home of the encodings: a saturating truncation (Float8Truncation.h) is
// the clamp before it, which the emulation runs as written.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_LIB_TRANSFORMS_FLOAT8EMULATION_H
#define LAYOUT_TEST_LIB_TRANSFORMS_FLOAT8EMULATION_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace layout {
namespace test {

/// Replaces every arith.truncf to an 8-bit float in `top` by integer and
/// table code that computes the same bytes.
LogicalResult emulateFloat8Truncations(ModuleOp top);

} // namespace test
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TEST_LIB_TRANSFORMS_FLOAT8EMULATION_H
