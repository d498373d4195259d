//===- FragmentProgram.h - Loops whose tiles live in fragments --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A fragment program (issue 40; docs/attention-plan.md, stages 3-7) is an
// scf.for over tiles that holds several contractions (attention's
// S = Q K^T and O += P V): every tile value of the loop lives in the
// registers of one matrix instruction's accumulator layout, and the loop
// never leaves them:
//
//  - a contraction multiplies staged operands (cooperative layout.loads,
//    through workgroup buffers as in the GEMM) or a value of the program
//    (an accumulator after elementwise ops and arith.truncf) re-viewed as
//    the next instruction's operand fragment where the register layouts
//    agree per lane (FragmentConversion.h decides), accumulating onto any
//    value: a splat constant, an iter_arg, a computed tile;
//  - vector.multi_reduction along the rows of such a tile folds each lane's
//    registers of a row, then the lanes that share the row by a butterfly
//    of gpu.shuffle xor (FragmentReduction.h decides the registers and the
//    masks): the row vector (a "slice") is held by every lane of the row;
//  - a slice broadcast back over a tile (vector.shape_cast to R x 1, then
//    vector.broadcast) reads each register's row value: no data movement;
//  - the tiles and slices the loop carries are per-lane iter_args, stored
//    after the loop by the lanes that hold them.
//
// The waves split the rows only (each wave holds whole rows, so that row
// statistics and re-views stay within it). Recognition and planning are
// FragmentProgram.cpp (everything decided and checked before any IR is
// created), emission FragmentEmit.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H

#include "ContractionPlan.h"

#include "layout/Evaluator/FragmentReduction.h"

#include <deque>

namespace mlir {
namespace layout {
namespace tiles {

/// Where a value of a fragment program lives in each lane.
enum class FragmentKind : uint8_t {
  /// Not a tile: scalars (indices, loop bounds), cloned as they are.
  Scalar,
  /// A splat constant or a broadcast scalar: materialized at its use in
  /// the user's shape.
  Splat,
  /// A BM x cols tile in the instruction's C layout: per lane, the wave
  /// tile's rm x (cols / n) C fragments, row-major.
  Matrix,
  /// A vector of BM rows (or BM x 1): per lane, one vector of the rows it
  /// holds in the C layout (FragmentReduction's groups, in their order).
  Slice,
  /// A cooperative layout.load staged through a workgroup buffer, read as
  /// an operand of a contraction.
  Staged,
};

/// One vector.contract of the program.
struct FragmentSite {
  vector::ContractionOp contract;
  /// The distribution (instruction, wave grid, tiles) as the GEMM's Plan
  /// gives it, for the fragment reads (FragmentContext).
  Plan plan;
  /// Positions of m, k in A's tile and of k, n in B's.
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
  /// A's and B's staged leaves (indices into FragmentProgram::leaves), or
  /// -1 where the operand is a value of the program.
  int a = -1, b = -1;
  /// For a computed A: the lane-independent re-view of the producer's C
  /// fragments (tile, element) that gives A fragment (tile, element),
  /// [tile * aElements + element].
  SmallVector<FragmentRegister> aSources;
};

/// A planned fragment program.
struct FragmentProgram {
  scf::ForOp loop;
  const MatrixInstruction *inst = nullptr;
  /// The block tile's rows, the waves (all along the rows) and each wave's
  /// rows.
  int64_t bm = 0, waves = 1, tm = 0;
  Type elementType;
  /// The staged loads (stable addresses: FragmentContext points at them).
  std::deque<Leaf> leaves;
  std::vector<StagingMapping> staging;
  std::vector<FragmentSite> sites;
  /// The kind of every value the emission meets: the loop's block
  /// arguments and ops, and the ops after the loop that use its results.
  DenseMap<Value, FragmentKind> kinds;
  /// The ops after the loop, in order (their stores last in each chain),
  /// that the emission compiles and erases.
  SmallVector<Operation *> after;
  /// How a row slice is held: the C layout's row groups over the wave tile
  /// (the same rows for every tile width; `rows.groups` for `rowsCols`).
  FragmentReduction rows;
  /// The row-reduction plans by tile width (columns).
  std::map<int64_t, FragmentReduction> reductions;
  /// Whether choices are remarked as diagnostics.
  bool remarks = false;

  /// The reduction plan of a Matrix tile `cols` wide (planned).
  const FragmentReduction &reductionOf(int64_t cols) const {
    return reductions.at(cols);
  }
};

/// Whether `loop` is compiled as a fragment program (it holds more than one
/// vector.contract): the GEMM path (Contraction.h) leaves it alone.
bool isFragmentProgramLoop(scf::ForOp loop);

/// Recognizes and plans the fragment program of `loop` on
/// `options.chip`, with a diagnostic at the op that does not fit.
FailureOr<FragmentProgram>
planFragmentProgram(scf::ForOp loop, gpu::GPUFuncOp func,
                    ArrayRef<int64_t> block, BlockUniformity &uniform,
                    const CooperativeTileOptions &options);

/// Emits `program` (FragmentEmit.cpp): the per-lane loop, the stores after
/// it, remarks; erases the tile program's ops.
LogicalResult emitFragmentProgram(FragmentProgram &program, gpu::GPUFuncOp func,
                                  ArrayRef<int64_t> block);

/// Compiles every fragment program loop of `func` (a kernel with a known
/// block size).
LogicalResult distributeFragmentPrograms(gpu::GPUFuncOp func,
                                         ArrayRef<int64_t> block,
                                         BlockUniformity &uniform,
                                         const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H
