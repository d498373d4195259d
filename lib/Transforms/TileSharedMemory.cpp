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
#include "layout/Transforms/TargetChip.h"

#include "llvm/Support/MathExtras.h"

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
    // Vectors are at most assume-alignment bytes wide: a power of two.
    int64_t alignment = assumeAlignment;
    if (alignment < 1 || !llvm::isPowerOf2_64(alignment)) {
      getOperation()->emitError()
          << "-layout-tile-shared-memory: assume-alignment must be a power "
             "of two (bytes), got "
          << alignment;
      return signalPassFailure();
    }
    CooperativeTileOptions options;
    options.assumeAlignment = assumeAlignment;
    options.remarks = remarks;
    options.rotateProducts = rotateProducts;
    options.copiesAhead = copiesAhead;
    bool failedAny = false;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      // The chip of the kernel's gpu.module target or the option; with
      // neither, contractions get a diagnostic.
      options.chip.reset();
      if (!chip.empty() || !targetChips(func).empty()) {
        FailureOr<Chip> target =
            resolveChip(func, chip, "-layout-tile-shared-memory");
        if (failed(target)) {
          failedAny = true;
          return;
        }
        options.chip = std::move(*target);
      }
      if (failed(distributeCooperativeTiles(func, options)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
