//===- Contraction.h - Tile contractions onto matrix instructions -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A tile program's matrix multiply: an scf.for over K tiles whose body
// loads an A and a B tile cooperatively and accumulates their
// `vector.contract` (matmul maps, f16 / bf16 inputs, an f32 accumulator
// carried in iter_args, starting from a splat constant), followed by an
// epilogue of elementwise ops, splat constants and broadcasts of scalars
// and a cooperative `layout.store` of the C tile.
//
// Distribution. The block tile BM x BN is divided over the block's waves
// (warps) into wave tiles TM x TN (attribute `layout.wave_tile` on the
// contraction, else the most square grid that divides); each wave tile is
// RM x RN instructions of the target's matrix instruction (attribute
// `layout.matrix_instruction = array<i64: M, N, K>`, else the largest of
// the chip's instructions that divides). Each lane's accumulators are
// RM * RN fragments in the instruction's register layout
// (MatrixInstructions.h), carried through the loop. Per K tile: A and B go
// through workgroup buffers (packed descriptors over the loads' tiles,
// written with the coalesced copies of the other tile programs), a barrier,
// then each lane reads its A and B fragments (vector reads where the
// register layout holds consecutive elements of a buffer row) and issues
// amdgpu.mfma / amdgpu.wmma / nvgpu.mma.sync. After the loop each lane
// evaluates the epilogue on its fragments and stores its elements, masked
// at the edges.
//
// Rooms: Contraction.cpp recognizes, ContractionPlan.h decides (instruction,
// waves, buffer order, asynchronous copies, stages), ContractionPipeline.h
// emits the K loop and ContractionFragments.h each lane's fragments; the
// buffers are Staging.h's.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTION_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTION_H

#include "ThreadMapping.h"

#include "layout/Transforms/CooperativeTiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace layout {
namespace tiles {

/// The positions of m and k in a matmul contraction's A tile and of k and n
/// in its B tile (maps (m, k) or (k, m), (k, n) or (n, k), (m, n);
/// iterators parallel, parallel, reduction), or failure.
LogicalResult matchMatmulDims(vector::ContractionOp contract, int64_t &aM,
                              int64_t &aK, int64_t &bK, int64_t &bN);

/// Distributes every tile contraction of `func` (a kernel with a known
/// block size) onto `options.chip`'s matrix instructions. A contraction
/// that does not fit the form above, a chip or element type without an
/// instruction, and a block tile the waves cannot divide get a diagnostic.
LogicalResult distributeContractions(gpu::GPUFuncOp func,
                                     ArrayRef<int64_t> block,
                                     BlockUniformity &uniform,
                                     const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTION_H
