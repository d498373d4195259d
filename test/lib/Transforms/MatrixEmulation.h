//===- MatrixEmulation.h - Matrix instructions on the CPU ---------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The wave-level matrix instructions (amdgpu.mfma, amdgpu.wmma,
// nvgpu.mma.sync) as host code, lane by lane: which element of A, B and C
// each lane's registers hold comes from the instruction's register layouts
// in include/layout/Evaluator/MatrixInstructions.h, the one home of those
// layouts. A test kernel that puts an element in the wrong lane computes a
// wrong product.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H
#define LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H

#include "layout/Evaluator/MatrixInstructions.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace layout {
namespace test {

/// Whether `op` is a wave-level matrix instruction (its lanes exchange
/// data, so it runs once per wave, not per thread).
bool isMatrixInstruction(Operation *op);

/// The table entry `op` issues, or nullptr after a diagnostic at `op` (an
/// instruction the table does not have, or operands of another size).
const MatrixInstruction *matrixInstructionOf(Operation *op);

/// Gives one lane's value of operand `operand` (0: A, 1: B, 2: C) of the
/// emulated op.
using LaneOperand =
    function_ref<Value(OpBuilder &, unsigned operand, int64_t lane)>;
/// Receives one lane's result.
using LaneResult = function_ref<void(OpBuilder &, int64_t lane, Value)>;

/// Host f32 tiles for A, B and C of one instruction, reused by every
/// emulation of it (each overwrites them).
struct MatrixTiles {
  Value a, b, c;
};
/// Allocates the tiles of `inst` at `b`'s insertion point (a function's
/// entry, so that emulations in loops do not grow the stack).
MatrixTiles allocateMatrixTiles(OpBuilder &b, Location loc,
                                const MatrixInstruction &inst);

/// Emits one wave's `op` (an instruction `inst`) on the host: gathers A, B
/// and C from the lanes into the f32 `tiles` through the register layouts,
/// computes D = A * B + C in f32, and scatters D to the lanes. Elements a
/// layout replicates (gfx11 WMMA's half-waves) must agree; a disagreeing
/// element reads as NaN.
void emulateMatrixInstruction(OpBuilder &b, Location loc, Operation *op,
                              const MatrixInstruction &inst, MatrixTiles tiles,
                              LaneOperand laneOperand, LaneResult laneResult);

} // namespace test
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H
