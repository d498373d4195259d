//===- Reduction.h - Reductions of cooperative tiles ------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// vector.multi_reduction of cooperative tile values, rewritten into a
// cooperative store of the source into a workgroup buffer, a per-thread
// reduction step and a cooperative load of the result (Reduction.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_REDUCTION_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_REDUCTION_H

#include "ThreadMapping.h"

#include "layout/Transforms/CooperativeTiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {
namespace tiles {

/// Rewrites every vector.multi_reduction of a cooperative tile value in
/// `func` (block size `block`), with a diagnostic at a reduction that
/// cannot be (a scalar result, elements that are not whole bytes); each
/// remarked (AccessChoice) with `options.remarks` or the remark engine.
LogicalResult lowerTileReductions(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                                  BlockUniformity &uniform,
                                  const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_REDUCTION_H
