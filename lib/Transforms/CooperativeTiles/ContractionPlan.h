//===- ContractionPlan.h - A matched, planned tile contraction --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Internal to the contraction distribution (Contraction.h): what
// Contraction.cpp recognizes and plans, and what ContractionCodegen.cpp
// emits from it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H

#include "TileExpression.h"

#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Transforms/CooperativeTiles.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace layout {
namespace tiles {

/// A tile contraction and what surrounds it (Contraction.h).
struct ContractionTree {
  vector::ContractionOp contract;
  scf::ForOp loop;
  /// The accumulator's position among the loop's iter_args.
  unsigned accIndex = 0;
  /// The accumulator's initial splat value.
  Attribute init;
  /// A (lhs) and B (rhs), each a staged leaf; their tiles' dimensions in
  /// the contraction: aM / aK are the positions of m and k in A's tile,
  /// bK / bN those of k and n in B's.
  Leaf a, b;
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
  /// The epilogue: the loop result through elementwise ops to the store.
  /// Its leaf 0 is the loop result; leaf i > 0 is operands[i - 1].
  TileTree epilogue;
  /// Tiles the epilogue broadcasts across C: a bias row (a layout.load of
  /// a tile of N elements, or 1 x N, broadcast over the rows of C) or a
  /// bias column (M x 1, broadcast over the columns).
  struct Broadcast {
    vector::BroadcastOp op;
    LoadOp load;
    /// The C dimension the loaded tile runs along (0: rows, 1: columns).
    int64_t along;
  };
  SmallVector<Broadcast> broadcasts;
};

/// The distribution of one contraction.
struct Plan {
  const MatrixInstruction *inst = nullptr;
  int64_t bm = 0, bn = 0, bk = 0;
  /// The wave grid and the wave tile.
  int64_t wavesM = 1, wavesN = 1, tm = 0, tn = 0;
  /// Instructions per wave tile and per K tile.
  int64_t rm = 0, rn = 0, ks = 0;
  /// The LDS stages of the K loop's pipeline (`layout.pipeline_stages`;
  /// 0: chosen by the pass, ContractionCodegen.cpp).
  int64_t stages = 0;
  Type elementType;
};

/// Emits the distributed loop and epilogue of `tree` by `plan`, and erases
/// the tile program's ops.
LogicalResult emitContraction(ContractionTree &tree, const Plan &plan,
                              gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                              const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H
