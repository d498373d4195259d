//===- ContractionPipeline.h - Tile contractions: the K loop ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The emission of a planned tile contraction (ContractionPlan.h): the K
// loop rebuilt as a software pipeline that carries each lane's fragments
// (register prefetch through one LDS stage, or the plan's stages filled by
// asynchronous copies, versioned on the operands' run-time alignment),
// then the epilogue (ContractionFragments.h). Emission reads the plan and
// decides nothing.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPIPELINE_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPIPELINE_H

#include "ContractionPlan.h"

namespace mlir {
namespace layout {
namespace tiles {

/// Emits the distributed loop and epilogue of `tree` by `plan` over the
/// `block` threads of `func`, and erases the tile program's ops.
LogicalResult emitContraction(ContractionTree &tree, const Plan &plan,
                              gpu::GPUFuncOp func, ArrayRef<int64_t> block);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPIPELINE_H
