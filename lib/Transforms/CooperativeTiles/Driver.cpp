//===- Driver.cpp - The cooperative tile distribution of one kernel -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// distributeCooperativeTiles (CooperativeTiles.h), the entry point of
// -layout-tile-shared-memory: the block-size checks, then the rooms in
// order: fragment programs (FragmentProgram.h), contractions
// (Contraction.h), reductions (Reduction.h), and the
// cooperative stores that remain (Distribute.h).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "Distribute.h"
#include "FragmentProgram.h"
#include "Reduction.h"

#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/CooperativeTiles.h"
#include "layout/Transforms/Float8Truncation.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

LogicalResult mlir::layout::distributeCooperativeTiles(
    gpu::GPUFuncOp func, const CooperativeTileOptions &options) {
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!func.isKernel())
    return success();
  if (!known) {
    // Tiles are distributed over the block's threads: without a block size
    // a cooperative access would reach LLVM translation unlowered.
    BlockUniformity uniform;
    Operation *tile = nullptr;
    func.walk([&](Operation *op) {
      if (!uniform.isCooperative(op))
        return WalkResult::advance();
      tile = op;
      return WalkResult::interrupt();
    });
    if (!tile)
      return success();
    InFlightDiagnostic diag =
        tile->emitOpError()
        << "is a cooperative tile access (its indices are the same in every "
           "thread), but its kernel has no known_block_size: set "
           "known_block_size = array<i32: x, y, z> on @"
        << func.getName() << " to distribute the tile over its threads";
    diag.attachNote(func.getLoc()) << "the kernel";
    return diag;
  }
  if (std::string problem = blockSizeProblem(*known); !problem.empty())
    return func.emitOpError() << problem;
  SmallVector<int64_t, 3> block(known->begin(), known->end());
  // Truncations to 8-bit floats (an FP8 epilogue) the chip must convert
  // (Float8Truncation.h): checked before they are cloned per fragment.
  if (options.chip) {
    WalkResult checked = func.walk([&](arith::TruncFOp op) {
      if (truncatesToFloat8(op) &&
          failed(checkFloat8Truncation(op, *options.chip)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return failure();
  }
  BlockUniformity uniform;
  // Fragment programs first, then the contractions: they consume their
  // loads and stores. Then reductions become cooperative stores and loads
  // of workgroup buffers. Last the cooperative stores, with every load they
  // consume.
  if (failed(distributeFragmentPrograms(func, block, uniform, options)) ||
      failed(distributeContractions(func, block, uniform, options)) ||
      failed(lowerTileReductions(func, block, uniform, options)))
    return failure();
  return tiles::distributeTileStores(func, block, uniform, options);
}
