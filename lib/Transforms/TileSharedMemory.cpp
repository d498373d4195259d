//===- TileSharedMemory.cpp - The -layout-tile-shared-memory pass ---------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Runs distributeCooperativeTiles (CooperativeTiles/) on every kernel.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/CooperativeTiles.h"
#include "layout/Transforms/Passes.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTTILESHAREDMEMORY
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

struct LayoutTileSharedMemoryPass final
    : layout::impl::LayoutTileSharedMemoryBase<LayoutTileSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    CooperativeTileOptions options;
    options.assumeAlignment = assumeAlignment;
    options.chip = chip;
    bool failedAny = false;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (failed(distributeCooperativeTiles(func, options)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
