//===- MatrixLayouts.h - Register layouts of the table --------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Evaluator: the operand register layouts of each family of
// matrix instructions (MatrixLayouts.cpp, each next to its citation), which
// the table (MatrixInstructionTable.cpp) puts into its entries, and the
// generation bits of MatrixInstruction::generations.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_EVALUATOR_MATRIXLAYOUTS_H
#define LAYOUT_LIB_EVALUATOR_MATRIXLAYOUTS_H

#include "layout/Evaluator/MatrixInstructions.h"

#include <cstdint>

namespace mlir {
namespace layout {
namespace matrix_layouts {

/// The bit of `generation` in MatrixInstruction::generations.
inline unsigned generationBit(ChipGeneration generation) {
  return 1u << static_cast<unsigned>(generation);
}

/// MFMA A or B, wave64, for a d x d output and `kPerLane` elements per lane.
Descriptor mfmaAB(MatrixOperand operand, int64_t d, int64_t kPerLane);
/// MFMA C/D (d x d, f32), wave64.
Descriptor mfmaC(int64_t d);
/// gfx11 WMMA A or B (16 x 16), wave32, the half-waves replicated.
Descriptor wmmaAB(MatrixOperand operand);
/// gfx11 WMMA C/D (16 x 16, f32), wave32.
Descriptor wmmaC();
/// mma.sync m16n8k16 A (16 x 16), B (16 x 8) and C/D (16 x 8, f32).
Descriptor mmaSyncA();
Descriptor mmaSyncB();
Descriptor mmaSyncC();
/// mma.sync m16n8k8 .tf32 A (16 x 8) and B (8 x 8); C/D is mmaSyncC.
Descriptor mmaSyncTf32A();
Descriptor mmaSyncTf32B();
/// mma.sync m16n8k32 .e4m3 / .e5m2 A (16 x 32) and B (32 x 8); C/D is
/// mmaSyncC.
Descriptor mmaSyncFp8A();
Descriptor mmaSyncFp8B();
/// wgmma .m64nNk16 and FP8 .m64nNk32 D (64 x N, f32), a warpgroup of 128
/// lanes.
Descriptor wgmmaC(int64_t n);
/// wgmma .m64nNk16 A held in registers (64 x 16, f16 / bf16), a warpgroup of
/// 128 lanes, 8 elements per lane.
Descriptor wgmmaRegisterA();
/// How nvgpu.ldmatrix loads the mma.sync m16n8k16 fragments: A (.x4), B
/// (.x2) from its N x K tile, B (.x2.trans) from its K x N tile.
LdMatrixLoad mmaSyncLdMatrixA();
LdMatrixLoad mmaSyncLdMatrixB();
LdMatrixLoad mmaSyncLdMatrixBTrans();

} // namespace matrix_layouts
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_EVALUATOR_MATRIXLAYOUTS_H
