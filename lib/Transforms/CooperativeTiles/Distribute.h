//===- Distribute.h - Cooperative stores, staged through LDS ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The store distributor: every cooperative store of a kernel and the tile
// expression it stores, dealt over the block's threads (Distribute.cpp
// says how; its run-time windows are StoreWindows.h, its buffers
// Staging.h).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_DISTRIBUTE_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_DISTRIBUTE_H

#include "ThreadMapping.h"

#include "layout/Transforms/CooperativeTiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {
namespace tiles {

/// Collects the tile expressions of `func`'s cooperative stores
/// (collectTileTrees), distributes each over the `block` threads and
/// erases the tile program's ops. A diagnostic names the op that cannot
/// be distributed.
LogicalResult distributeTileStores(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                                   BlockUniformity &uniform,
                                   const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_DISTRIBUTE_H
