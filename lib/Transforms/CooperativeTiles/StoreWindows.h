//===- StoreWindows.h - Stores aligned only at run time ---------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The window room of the store distributor (Distribute.cpp): the second,
// run-time version of a cooperative copy whose store rows may be
// unaligned, planned (planStoreWindow) and emitted (emitWindowStore).
//
// Rows aligned only at run time. When a view's strides or offset are
// dynamic, its vectors are aligned only if they are multiples of the
// vector width; a load that is not reads its tile element by element with
// consecutive lanes on consecutive elements (unguarded in whole tiles).
// A store whose rows may be unaligned gets a second version of the whole
// copy, chosen at run time: its own staging buffers, written element by
// element, and output windows aligned to 32-byte sectors. For each row of
// the store tile the threads walk positions p in [0, T + S) (T the row's
// length, S the elements of a sector, T rounded up to S), and position p
// stores element p - m of the row, m = (the row's first element's offset)
// mod S, when that is inside the row; each wave takes whole rows, a wave
// of positions at a time. Every warp store then covers whole sectors (as
// transpose_skew_f32 in examples/transpose.mlir does by hand), instead of
// straddling one more sector per 128 bytes. Which element a lane stores
// depends only on m, never on whether the base is aligned, so the result
// is the same for any m.
//
// Neighbour-owned windows. Windows of a block's own tile leave the sectors
// at both ends of its rows written in part by each of two blocks. As
// transpose_skew_f32 does by hand, a block may instead write positions
// [0, T) of its windows, the elements [y0 - m, y0 + T - m) of each row
// (y0 the tile's first), taking the head of its row from the tile before
// (whose block leaves it out) and, in the last tile, the tail [T, T + m)
// too. That is the same result only when every tile along the rows is
// stored by some block and the block can compute the neighbour's
// elements: the store runs once per block, its tile index along its rows
// is a block id (`owner`) and its others do not depend on it, every leaf
// is staged, indexed along those rows by the same block id with tiles as
// long, and nothing else in the expression tells blocks apart
// (windowOwner). Phase 1 then also stages the S rows before each leaf's
// tile (none before the first), and phase 2 tests at run time that the
// grid has every tile along the rows (grid size * T >= the extent), else
// each block stores its own tile. The second version doubles the staging
// buffers: it is left out where that would pass the smallest static
// workgroup memory of the targets (or of `chip`), for stores of more than
// two dimensions and for elements narrower than 4 bytes (see planStoreWindow);
// the neighbour rows are left out first.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STOREWINDOWS_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STOREWINDOWS_H

#include "TileExpression.h"

#include "layout/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>
#include <vector>

namespace mlir {
namespace layout {
namespace tiles {

/// The run-time version of a copy whose store rows may be unaligned (see
/// the file comment): the store's memref, whose strides decide, and the
/// leaves' second buffers.
struct StoreWindow {
  Value memref;
  /// The elements of a 32-byte sector.
  int64_t sector = 0;
  /// The threads of one wave in a window store: the target's, else the
  /// narrowest of all targets.
  int64_t lanes = 0;
  /// Copies of the staged leaves with their own buffers (by leaf index).
  std::vector<Leaf> leaves;
  /// Neighbour-owned windows (see the file comment): the block id that is
  /// the store's tile index along its rows, when the copy may take them.
  /// Each staged buffer then holds `sector` more rows before its tile.
  std::optional<gpu::Dimension> owner;
};

/// Whether the copy of `tree` (stored through `dst`, whose vector
/// phase stores `storeWidth`-vectors, by `threads` threads of `func`) gets
/// the run-time version for unaligned store rows, and its window (none
/// when not: the rows are always aligned, the store does not suit windows,
/// or the second buffers would pass the static workgroup memory of `chip`,
/// or of every target without one).
std::optional<StoreWindow> planStoreWindow(gpu::GPUFuncOp func,
                                           const TileTree &tree,
                                           const GlobalSide &dst,
                                           int64_t storeWidth, int64_t threads,
                                           const std::optional<Chip> &chip);

/// Phase 2 of `tree`'s store element by element, in the sector-aligned
/// windows of `window`, at `b`: `tid` is the thread's linear id and `grid`
/// the grid size along `window.owner` (null without neighbour-owned
/// windows). Staged leaves are read from `window.leaves`' buffers.
LogicalResult emitWindowStore(OpBuilder &b, TileTree &tree,
                              const GlobalSide &dst, const StoreWindow &window,
                              Value tid, Value grid, int64_t threads);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STOREWINDOWS_H
