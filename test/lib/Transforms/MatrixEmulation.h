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
// layout.warpgroup_mma (wgmma) runs once per warpgroup of 128 lanes: its A
// and B are read from the workgroup buffers through their layout
// descriptors (what the op says it multiplies), C and D through the
// table's register layout; the lowering to NVVM proves separately that the
// hardware's matrix descriptors read what the layout descriptors say.
//
// nvgpu.ldmatrix, the warp-collective load of mma.sync fragments, is
// emulated from the PTX ISA's description of ldmatrix, *not* from the
// table's LdMatrixLoad: a kernel that loads fragments with it and
// multiplies them with nvgpu.mma.sync checks the two against each other.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H
#define LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H

#include "layout/Evaluator/MatrixInstructions.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace nvgpu {
class LdMatrixOp;
} // namespace nvgpu

namespace layout {
namespace test {

/// f32 `x` with its mantissa cut to `bits` explicit bits by `rounding`,
/// computed on the bits (NaN and infinities unchanged): what an instruction
/// of inputPrecision(kind) makes of an f32 register, and (NearestAway, 10
/// bits) what cvt.rna.tf32.f32 gives.
Value roundMantissa(OpBuilder &b, Location loc, Value x, int64_t bits,
                    MatrixInputPrecision::Rounding rounding);

/// Gives every call of a matrix instruction's LLVM intrinsic in `top` (the
/// table's op.llvmIntrinsic: the FP8 mma.sync) a vector of C's f32
/// elements as its result instead of the LLVM struct, each
/// llvm.extractvalue of it becoming a vector.extract, so that the
/// emulation can keep the result per lane in host memory (a memref cannot
/// hold structs). Fails with a diagnostic where a result is used otherwise.
LogicalResult vectorizeMatrixIntrinsicResults(ModuleOp top);

/// Whether `op` is a wave-level matrix instruction.
bool isMatrixInstruction(Operation *op);
/// Whether `op` runs once per wave, not per thread, because its lanes
/// exchange data: a matrix instruction, nvgpu.ldmatrix or gpu.shuffle.
bool isWaveCollective(Operation *op);
/// The lanes of the wave that runs wave-collective `op` (32 for
/// nvgpu.ldmatrix, the width of gpu.shuffle), or std::nullopt after a
/// diagnostic at `op` (an op the emulation does not cover).
std::optional<int64_t> waveSizeOf(Operation *op);

/// The table entry `op` issues, or nullptr after a diagnostic at `op` (an
/// instruction the table does not have, or operands of another size).
const MatrixInstruction *matrixInstructionOf(Operation *op);

/// Gives one lane's value of operand `operand` (0: A, 1: B, 2: C) of the
/// emulated op; the lane is a number computed at run time (the emulations
/// loop over the lanes, so that their code does not grow with the wave).
/// A block-uniform operand must be materialized before the first call
/// (calls come from inside the emulations' loops).
using LaneOperandAt =
    function_ref<Value(OpBuilder &, unsigned operand, Value lane)>;
/// Receives one lane's result.
using LaneResultAt = function_ref<void(OpBuilder &, Value lane, Value)>;

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
                              LaneOperandAt laneOperand,
                              LaneResultAt laneResult);

/// Emits one warpgroup's layout.warpgroup_mma `op` (an instruction `inst`
/// of family Wgmma; layout.warpgroup_mma_reg_a: its register-A form, A
/// gathered from the lanes like C) on the host with loops over the lanes and
/// elements:
/// A's element (m, k) is the buffer's element at layout.offset of its
/// descriptor at the origin moved by (m, k) along `a_dims` (lane 0's
/// origin; every lane passes the same), B's likewise; C is gathered from
/// and D scattered to the lanes through the table's register layout.
void emulateWarpgroupMma(OpBuilder &b, Location loc, Operation *op,
                         const MatrixInstruction &inst, MatrixTiles tiles,
                         LaneOperandAt laneOperand, LaneResultAt laneResult);

/// Emits one warp's nvgpu.ldmatrix `op` on the host with the semantics of
/// PTX ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16: matrix j's row
/// r is the 8 consecutive elements (along the memref's last index) at the
/// indices lane 8j + r gives; lane l gets register j = (M_j[l/4][2(l%4)],
/// M_j[l/4][2(l%4)+1]), or with .trans (M_j[2(l%4)][l/4],
/// M_j[2(l%4)+1][l/4]). `laneOperand` gives operand 0 (the memref) and 1...
/// (the indices) of a lane; lanes 8 numTiles and up are not asked.
void emulateLdMatrix(OpBuilder &b, Location loc, nvgpu::LdMatrixOp op,
                     LaneOperandAt laneOperand, LaneResultAt laneResult);

/// The lanes of one emulated gpu.shuffle (its constant width), or
/// std::nullopt after a diagnostic at `op` (ShuffleEmulation.cpp).
std::optional<int64_t> shuffleWidth(gpu::ShuffleOp op);
/// Receives one lane's two results of a shuffle.
using ShuffleResultAt =
    function_ref<void(OpBuilder &, Value lane, Value result, Value valid)>;
/// Emits one group of `width` lanes' gpu.shuffle `op` on the host: a loop
/// over the lanes, each reading operand 0 (the value) of its source lane
/// through `operandAt` (operand 1 is the offset).
void emulateShuffle(OpBuilder &b, Location loc, gpu::ShuffleOp op,
                    int64_t width, LaneOperandAt operandAt,
                    ShuffleResultAt resultAt);

} // namespace test
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TEST_LIB_TRANSFORMS_MATRIXEMULATION_H
