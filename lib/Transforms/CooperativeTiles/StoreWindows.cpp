//===- StoreWindows.cpp - Stores whose rows are aligned only at run time --===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The windows of StoreWindows.h. Planning decides whether a copy gets the
// run-time version at all, whether its windows may be neighbour-owned and
// how the threads walk the positions of the rows (WindowWalk); emission
// (WindowStore) then only reads those decisions.
//
//===----------------------------------------------------------------------===//

#include "StoreWindows.h"
#include "Staging.h"

#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// Whether `v` is the same in blocks that differ only in block id `d`:
/// made by pure ops from constants, kernel arguments and the other block
/// ids.
bool independentOfBlockId(Value v, gpu::Dimension d, gpu::GPUFuncOp func,
                          unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &func.getBody().front();
  Operation *op = v.getDefiningOp();
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return id.getDimension() != d;
  if (op->getNumRegions() || !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value o) {
    return independentOfBlockId(o, d, func, depth + 1);
  });
}

/// The dimension of the block id that `v` is, if it is one.
std::optional<gpu::Dimension> blockIdDimension(Value v) {
  if (auto id = v.getDefiningOp<gpu::BlockIdOp>())
    return id.getDimension();
  return std::nullopt;
}

/// Whether each block may write its rows' windows across its tile's start
/// (taking the neighbour's head): the block id that indexes the store's
/// rows, when the tree computes the same element whichever block does.
std::optional<gpu::Dimension> windowOwner(gpu::GPUFuncOp func,
                                          const TileTree &tree,
                                          const GlobalSide &dst, int64_t sector,
                                          int64_t lanes, int64_t threads) {
  int64_t c = dst.contiguous;
  int64_t length = dst.tile[c];
  // Once per block, with whole sectors per row and a wave per row.
  if (tree.store->getParentOp() != func ||
      !gpu::GPUFuncOp(func).getBody().hasOneBlock() || length % sector ||
      threads % lanes || !tree.leafOf.empty())
    return std::nullopt;
  std::optional<gpu::Dimension> d = blockIdDimension(dst.indices[c]);
  if (!d)
    return std::nullopt;
  auto independent = [&](Value v) { return independentOfBlockId(v, *d, func); };
  for (auto [k, index] : llvm::enumerate(dst.indices))
    if (int64_t(k) != c && !independent(index))
      return std::nullopt;
  // Every leaf is staged and indexed by the same block id along the
  // store's rows, with tiles as long: the neighbour's elements are the
  // leaves' rows just before the tile.
  DenseSet<Value> inTree;
  for (const Leaf &leaf : tree.leaves) {
    int64_t along = leaf.perm[c];
    if (!leaf.staged || along < 0 || leaf.side.tile[along] != length ||
        leaf.load->getParentOp() != func ||
        blockIdDimension(leaf.side.indices[along]) != d)
      return std::nullopt;
    for (auto [k, index] : llvm::enumerate(leaf.side.indices))
      if (int64_t(k) != along && !independent(index))
        return std::nullopt;
    inTree.insert(LoadOp(leaf.load).getResult());
  }
  // Operands from outside the expression (scalars) must not tell blocks
  // apart either.
  for (Operation *op : tree.ops)
    for (Value r : op->getResults())
      inTree.insert(r);
  for (Operation *op : tree.ops)
    for (Value o : op->getOperands())
      if (!inTree.contains(o) && !independent(o))
        return std::nullopt;
  return d;
}

/// Which positions of a row a window store covers.
enum class WindowPart {
  /// The block's own tile: positions [m, m + T) of [0, T + S).
  Own,
  /// Neighbour-owned: positions [0, T), starting m elements before the
  /// tile (except in the first tile).
  Neighbour,
  /// The last tile's tail, positions [T, T + m).
  Tail,
};

/// How the threads walk the positions of a window store's rows.
struct WindowWalk {
  /// Positions along each row: the row rounded up to whole sectors, and
  /// one sector more for the shift.
  int64_t positions;
  /// Waves of `lanes` threads, each taking whole rows (0: the threads are
  /// no whole number of waves, and are dealt the positions of every row in
  /// turn).
  int64_t groups;
  /// The rows (the store tile without its contiguous dimension) and their
  /// shape.
  int64_t rows;
  SmallVector<int64_t> rowShape;
};

WindowWalk planWindowWalk(const GlobalSide &dst, const StoreWindow &window,
                          int64_t threads) {
  int64_t c = dst.contiguous;
  WindowWalk walk;
  walk.positions = llvm::alignTo(dst.tile[c], window.sector) + window.sector;
  // A wave of the target (or the narrowest of all targets) per row: the
  // rows' shifts differ, so two rows in one wave could share banks.
  walk.groups = threads % window.lanes ? 0 : threads / window.lanes;
  for (int64_t k = 0, e = dst.tile.size(); k < e; ++k)
    if (k != c)
      walk.rowShape.push_back(dst.tile[k]);
  walk.rows = ShapedType::getNumElements(walk.rowShape);
  return walk;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// Emits one window store by its window and walk.
class WindowStore {
public:
  WindowStore(TileTree &tree, const GlobalSide &dst, const StoreWindow &window,
              Value tid, Value grid, int64_t threads)
      : tree(tree), dst(dst), window(window),
        walk(planWindowWalk(dst, window, threads)), tid(tid), grid(grid),
        threads(threads), loc(tree.store.getLoc()), c(dst.contiguous),
        length(dst.tile[c]), sector(window.sector),
        halo(window.owner ? sector : 0) {}

  LogicalResult emit(OpBuilder &b);

private:
  /// Traces the store's and the direct leaves' accesses at `b`, and their
  /// whole-tile tests (`insides`).
  LogicalResult traceAccesses(OpBuilder &b);
  /// Position origin[c] of the row at `origin` (its other coordinates):
  /// element origin[c] - m of the row, m the row's first element's offset
  /// mod `sector`, where `part` covers it.
  void position(OpBuilder &lb, ArrayRef<Value> origin, bool inside,
                WindowPart part) const;
  /// Whether `part` covers position `p` of a row whose shift is `shift`.
  Value covers(OpBuilder &lb, Value p, Value shift, WindowPart part) const;
  /// Positions [first, first + count) of the row at `origin`, a wave of
  /// them at a time.
  void walkRow(OpBuilder &bb, ArrayRef<Value> origin, bool inside,
               int64_t first, int64_t count, WindowPart part) const;
  /// Every row, whole rows per wave: its own tile's windows, or with
  /// `neighbour` the neighbour-owned ones.
  void eachRow(OpBuilder &ib, bool inside, bool neighbour) const;

  TileTree &tree;
  const GlobalSide &dst;
  const StoreWindow &window;
  const WindowWalk walk;
  Value tid, grid;
  int64_t threads;
  Location loc;
  int64_t c, length, sector;
  /// Staged buffers with rows before the tile are read that much further.
  int64_t halo;
  std::optional<GlobalAccess> out;
  std::vector<std::optional<GlobalAccess>> direct;
  SmallVector<Value> insides;
  /// Neighbour-owned windows: whether the tile is not the first along the
  /// rows, and whether it is the last.
  Value notFirst, last;
  /// The thread's lane in its wave and its wave.
  Value lane, group;
};

LogicalResult WindowStore::traceAccesses(OpBuilder &b) {
  std::string why;
  FailureOr<GlobalAccess> access = GlobalAccess::create(b, dst, 1, why);
  if (failed(access))
    return tree.store.emitOpError() << "cannot be distributed: " << why;
  out = std::move(*access);
  insides.push_back(out->tileInside(b));
  direct.resize(tree.leaves.size());
  for (auto [i, leaf] : llvm::enumerate(tree.leaves)) {
    if (leaf.staged)
      continue;
    FailureOr<GlobalAccess> in = GlobalAccess::create(b, leaf.side, 1, why);
    if (failed(in))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    direct[i] = std::move(*in);
    insides.push_back(direct[i]->tileInside(b));
  }
  return success();
}

Value WindowStore::covers(OpBuilder &lb, Value p, Value shift,
                          WindowPart part) const {
  auto cmp = [&](arith::CmpIPredicate pred, Value x, Value y) -> Value {
    return arith::CmpIOp::create(lb, loc, pred, x, y);
  };
  Value end =
      arith::AddIOp::create(lb, loc, shift, indexConstant(lb, loc, length));
  Value afterShift = cmp(arith::CmpIPredicate::uge, p, shift);
  Value inRow;
  switch (part) {
  case WindowPart::Own:
    inRow = arith::AndIOp::create(lb, loc, afterShift,
                                  cmp(arith::CmpIPredicate::ult, p, end));
    break;
  case WindowPart::Neighbour:
    inRow = arith::OrIOp::create(lb, loc, afterShift, notFirst);
    if (length % window.lanes)
      inRow = arith::AndIOp::create(
          lb, loc, inRow,
          cmp(arith::CmpIPredicate::ult, p, indexConstant(lb, loc, length)));
    break;
  case WindowPart::Tail:
    inRow = cmp(arith::CmpIPredicate::ult, p, end);
    break;
  }
  return inRow;
}

void WindowStore::position(OpBuilder &lb, ArrayRef<Value> origin, bool inside,
                           WindowPart part) const {
  SmallVector<Value> rowStart(origin);
  rowStart[c] = indexConstant(lb, loc, 0);
  Value shift =
      arith::RemUIOp::create(lb, loc, out->elementOffset(lb, rowStart),
                             indexConstant(lb, loc, sector));
  Value p = origin[c];
  Value inRow = covers(lb, p, shift, part);
  scf::IfOp::create(lb, loc, inRow, [&](OpBuilder &tb, Location) {
    SmallVector<Value> coord(origin);
    coord[c] = arith::SubIOp::create(tb, loc, p, shift);
    SmallVector<Value> bufferCoord =
        halo ? shifted(tb, loc, coord, c, halo) : coord;
    auto leafValue = [&](unsigned i) -> Value {
      const Leaf &leaf = tree.leaves[i];
      if (leaf.staged)
        return readStagedVector(tb, loc, window.leaves[i], bufferCoord, 1);
      return direct[i]->load(tb, leaf.fromStore(tb, loc, coord), inside);
    };
    Value fragment =
        evaluateFragment(tb, loc, tree, tree.store.getValue(), 1, leafValue);
    out->store(tb, fragment, coord, inside);
    scf::YieldOp::create(tb, loc);
  });
}

void WindowStore::walkRow(OpBuilder &bb, ArrayRef<Value> origin, bool inside,
                          int64_t first, int64_t count, WindowPart part) const {
  int64_t lanes = window.lanes;
  forEachIteration(
      bb, loc, llvm::divideCeil(count, lanes), [&](OpBuilder &qb, Value q) {
        SmallVector<Value> at(origin);
        at[c] = arith::AddIOp::create(
            qb, loc, lane,
            arith::MulIOp::create(qb, loc, q, indexConstant(qb, loc, lanes)));
        if (first)
          at[c] = arith::AddIOp::create(qb, loc, at[c],
                                        indexConstant(qb, loc, first));
        position(qb, at, inside, part);
      });
}

void WindowStore::eachRow(OpBuilder &ib, bool inside, bool neighbour) const {
  int64_t rank = dst.tile.size();
  int64_t groups = walk.groups, rows = walk.rows;
  forEachIteration(
      ib, loc, llvm::divideCeil(rows, groups), [&](OpBuilder &rb, Value k) {
        Value row = arith::AddIOp::create(
            rb, loc, group,
            arith::MulIOp::create(rb, loc, k, indexConstant(rb, loc, groups)));
        auto body = [&](OpBuilder &bb) {
          // The row's coordinates along the other dimensions (the last
          // fastest).
          SmallVector<Value> origin(rank);
          Value rest = row;
          for (int64_t k = rank - 1; k >= 0; --k) {
            if (k == c)
              continue;
            Value n = indexConstant(bb, loc, dst.tile[k]);
            origin[k] = arith::RemUIOp::create(bb, loc, rest, n);
            rest = arith::DivUIOp::create(bb, loc, rest, n);
          }
          if (!neighbour) {
            walkRow(bb, origin, inside, 0, walk.positions, WindowPart::Own);
            return;
          }
          walkRow(bb, origin, inside, 0, length, WindowPart::Neighbour);
          scf::IfOp::create(bb, loc, last, [&](OpBuilder &tb, Location) {
            walkRow(tb, origin, inside, length, sector, WindowPart::Tail);
            scf::YieldOp::create(tb, loc);
          });
        };
        if (rows % groups == 0) {
          body(rb);
          return;
        }
        Value active = arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::ult,
                                             row, indexConstant(rb, loc, rows));
        scf::IfOp::create(rb, loc, active, [&](OpBuilder &tb, Location) {
          body(tb);
          scf::YieldOp::create(tb, loc);
        });
      });
}

LogicalResult WindowStore::emit(OpBuilder &b) {
  if (failed(traceAccesses(b)))
    return failure();
  if (window.owner) {
    notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                     dst.indices[c], indexConstant(b, loc, 0));
    Value end = arith::AddIOp::create(b, loc, out->origin(c),
                                      indexConstant(b, loc, length));
    last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, end,
                                 out->extent(c));
  }
  if (!walk.groups) {
    // Threads dealt the positions of every row in turn.
    SmallVector<int64_t> extents(dst.tile);
    extents[c] = walk.positions;
    Mapping m = Mapping::unitWidths(extents, fastestFirst(dst.tile.size(), c));
    ifInside(b, loc, allOf(b, loc, insides), [&](OpBuilder &ib, bool inside) {
      forEachBlock(ib, loc, m, tid, threads,
                   [&](OpBuilder &lb, ArrayRef<Value> origin) {
                     position(lb, origin, inside, WindowPart::Own);
                   });
    });
    return success();
  }
  // Each group of `lanes` consecutive threads (a wave) takes whole rows,
  // `lanes` positions at a time: one store instruction never spans two
  // rows, and no position is divided out of a linear index.
  lane =
      arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, window.lanes));
  group =
      arith::DivUIOp::create(b, loc, tid, indexConstant(b, loc, window.lanes));
  ifInside(b, loc, allOf(b, loc, insides), [&](OpBuilder &ib, bool inside) {
    if (!window.owner) {
      eachRow(ib, inside, /*neighbour=*/false);
      return;
    }
    // Neighbour-owned windows where the grid has every tile of the rows
    // (each block then writes what the one before it leaves out), else
    // each block its own tile.
    Value covered = arith::CmpIOp::create(
        ib, loc, arith::CmpIPredicate::ule, out->extent(c),
        arith::MulIOp::create(ib, loc, grid, indexConstant(ib, loc, length)));
    auto ifOp = scf::IfOp::create(ib, loc, covered, /*withElseRegion=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    OpBuilder eb = ifOp.getElseBodyBuilder();
    eachRow(tb, inside, /*neighbour=*/true);
    eachRow(eb, inside, /*neighbour=*/false);
  });
  return success();
}

} // namespace

std::optional<StoreWindow>
tiles::planStoreWindow(gpu::GPUFuncOp func, const TileTree &tree,
                       const GlobalSide &dst, int64_t storeWidth,
                       int64_t threads, const std::optional<Chip> &chip) {
  int64_t bytes = elementBytes(dst.elementType);
  int64_t sector = 32 / bytes;
  // Matrices of 4-byte or wider elements only: the shifts of a batched
  // store depend on the residues of every stride and block id, and those
  // of narrower elements take more residues (16 or 32 per sector), more
  // cases than the bank-conflict proof enumerates (their window buffers
  // would stay unproved).
  if (!dst.unitStride || !vectorizable(dst.elementType) || bytes < 4 ||
      storeWidth < 2 || sector < 2 || dst.tile.size() != 2 ||
      dst.tile[dst.contiguous] < sector)
    return std::nullopt;
  std::string why;
  FailureOr<TracedView> traced = traceTileView(dst.op, dst.partition, why);
  if (failed(traced) || traced->desc ||
      !hasRunTimeAlignment(traced->source, dst.contiguous, storeWidth))
    return std::nullopt;
  // Phase 1 decides at each staged load: the store's memref must be
  // defined there.
  DominanceInfo dominance(func);
  for (const Leaf &leaf : tree.leaves)
    if (leaf.staged && !dominance.properlyDominates(traced->source, leaf.load))
      return std::nullopt;
  StoreWindow window;
  window.memref = traced->source;
  window.sector = sector;
  window.lanes = chip ? chip->waveSize : smallestWaveSize();
  window.leaves = tree.leaves;
  window.owner = windowOwner(func, tree, dst, sector, window.lanes, threads);
  int64_t budget = chip ? chip->maxStaticBytes : smallestStaticWorkgroupBytes();
  int64_t before = layoutWorkgroupBuffers(func).bytes;
  // With neighbour-owned windows if they fit, else without.
  for (bool halo : {true, false}) {
    if (halo && !window.owner)
      continue;
    int64_t staged = 0;
    for (auto [leaf, copy] : llvm::zip_equal(tree.leaves, window.leaves)) {
      if (!leaf.staged)
        continue;
      copy.halo = halo ? sector : 0;
      copy.haloDim = halo ? leaf.perm[dst.contiguous] : -1;
      // Its buffer, which the second, padded one shares.
      staged += versionedStagingBytes(leaf, copy) + kWorkgroupBufferAlignment;
    }
    if (before + staged <= budget) {
      if (!halo)
        window.owner.reset();
      return window;
    }
  }
  return std::nullopt;
}

LogicalResult tiles::emitWindowStore(OpBuilder &b, TileTree &tree,
                                     const GlobalSide &dst,
                                     const StoreWindow &window, Value tid,
                                     Value grid, int64_t threads) {
  return WindowStore(tree, dst, window, tid, grid, threads).emit(b);
}
