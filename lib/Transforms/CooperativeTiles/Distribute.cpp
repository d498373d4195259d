//===- Distribute.cpp - Cooperative tiles, staged through LDS -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Inside a kernel whose block size is known, a `layout.load` / `layout.store`
// whose tile indices are the same in every thread of the block moves the
// tile cooperatively: the tile is a block-level value, and each thread moves
// its part of it (ThreadMapping.h). A cooperative store's tile is an
// expression of cooperative loads (TileExpression.h); the store's mapping
// drives the expression.
//
// Staging. A leaf whose fastest dimension (through the permutation of the
// transposes above it) is not the store's goes through a workgroup buffer
// whose layout is a `layout.packed` descriptor over its tile (unit
// dimensions dropped): coalesced global reads write it at the load (phase
// 1), `gpu.barrier` at the store, then each thread reads a register block
// of `storeWidth` vectors of `blockRows` elements along the buffer's rows
// and transposes it in registers into `blockRows` fragments of
// `storeWidth` elements along the store's rows (phase 2).
// -layout-xor-swizzle then picks the buffer's layout. Other leaves load
// their fragments straight into registers.
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
// two dimensions and for elements narrower than 4 bytes (see planWindow);
// the neighbour rows are left out first.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "Reduction.h"
#include "TileExpression.h"

#include "layout/Target/Chip.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/CooperativeTiles.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// How a store and its leaves are distributed.
struct StorePlan {
  GlobalSide dst;
  /// The store dimension along the staged buffers' rows (-1: nothing
  /// staged).
  int64_t stagedDim = -1;
  /// The widest vector that every direct leaf allows.
  int64_t directWidth = 1;
  /// The widest LDS vector the staged leaves' element types allow.
  int64_t bufferWidth = 16;
  /// The store's thread mapping: `storeWidth` elements along its
  /// contiguous dimension, `blockRows` along `stagedDim`.
  Mapping mapping;
  int64_t storeWidth = 0;
  int64_t blockRows = 1;

  bool anyStaged() const { return stagedDim >= 0; }
  /// Whether staged leaves are read as register blocks to transpose.
  bool registerBlocks() const {
    return anyStaged() && stagedDim != dst.contiguous;
  }
};

/// The run-time version of a copy whose store rows may be unaligned (see
/// the file comment): the store's memref, whose strides decide, and the
/// leaves' second buffers.
struct StoreWindow {
  Value memref;
  /// The elements of a 32-byte sector.
  int64_t sector = 0;
  /// Copies of the staged leaves with their own buffers (by leaf index).
  std::vector<Leaf> leaves;
  /// Neighbour-owned windows (see the file comment): the block id that is
  /// the store's tile index along its rows, when the copy may take them.
  /// Each staged buffer then holds `sector` more rows before its tile.
  std::optional<gpu::Dimension> owner;
};

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

LogicalResult divisionError(Operation *op, ArrayRef<int64_t> tile,
                            int64_t threads) {
  InFlightDiagnostic d = op->emitOpError();
  d << "cooperative tile of ";
  llvm::interleave(tile, d, "x");
  d << " elements: a block of " << threads
    << " threads does not divide it into equal parts";
  return failure();
}

class Distributor {
public:
  Distributor(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
              const CooperativeTileOptions &options)
      : func(func), block(block), threads(block[0] * block[1] * block[2]),
        options(options) {}

  LogicalResult lower(TileTree &tree);

private:
  /// Whether `leaf` is staged, and what it allows of the store's plan (a
  /// diagnostic when its view cannot be traced; a remark when its buffer
  /// rows run along neither the store's rows nor the first staged leaf's,
  /// so that it is read element by element).
  LogicalResult planLeaf(Leaf &leaf, StorePlan &plan);
  /// The store's widths: the widest vectors along its rows (and register
  /// blocks along the staged dimension) that give every thread the same
  /// number of blocks, else the widest that divide the tile (a partial last
  /// iteration).
  LogicalResult chooseStoreMapping(StorePlan &plan);
  /// Whether the copy gets the run-time version for unaligned store rows,
  /// and its window (null when not).
  std::optional<StoreWindow> planWindow(const TileTree &tree,
                                        const StorePlan &plan) const;
  /// Phase 2, at the store: each thread evaluates its fragments and stores
  /// them (under the run-time test of `window`, when there is one).
  LogicalResult emitStore(TileTree &tree, const StorePlan &plan,
                          const std::optional<StoreWindow> &window);
  /// Phase 2 with vectors along the store's rows.
  LogicalResult emitVectorStore(OpBuilder &b, TileTree &tree,
                                const StorePlan &plan, Value tid);
  /// Phase 2 element by element, in sector-aligned windows.
  LogicalResult emitWindowStore(OpBuilder &b, TileTree &tree,
                                const StorePlan &plan,
                                const StoreWindow &window, Value tid,
                                Value grid);
  /// The chip the `chip` option names, if any (else the code must suit
  /// every target).
  std::optional<Chip> optionChip() const;
  /// The threads of one wave in a window store: the target's, else the
  /// narrowest of all targets.
  int64_t windowLanes() const;
  /// Whether each block may write its rows' windows across its tile's start
  /// (taking the neighbour's head): the block id that indexes the store's
  /// rows, when the tree computes the same element whichever block does.
  std::optional<gpu::Dimension> windowOwner(const TileTree &tree,
                                            const StorePlan &plan,
                                            int64_t sector) const;
  /// A `width`-vector of a staged leaf's buffer at store coordinate
  /// `storeCoord`, along the buffer's rows.
  Value readBuffer(OpBuilder &b, Location loc, const Leaf &leaf,
                   ArrayRef<Value> storeCoord, int64_t width) const;

  gpu::GPUFuncOp func;
  ArrayRef<int64_t> block;
  int64_t threads;
  const CooperativeTileOptions &options;
};

LogicalResult Distributor::lower(TileTree &tree) {
  StorePlan plan;
  plan.dst = GlobalSide::of(tree.store);
  std::string why;
  if (failed(plan.dst.analyze(options.assumeAlignment, why)))
    return tree.store.emitOpError() << "cannot be distributed: " << why;
  plan.directWidth = plan.dst.maxWidth;
  for (Leaf &leaf : tree.leaves)
    if (failed(planLeaf(leaf, plan)))
      return failure();
  if (failed(chooseStoreMapping(plan)))
    return divisionError(tree.store, plan.dst.tile, threads);
  std::optional<StoreWindow> window = planWindow(tree, plan);
  for (auto [i, leaf] : llvm::enumerate(tree.leaves)) {
    if (!leaf.staged)
      continue;
    StagingVersion version;
    if (window) {
      version.storeMemref = window->memref;
      version.storeContiguous = plan.dst.contiguous;
      version.storeWidth = plan.storeWidth;
      version.windowLeaf = &window->leaves[i];
    }
    if (failed(stageLeaf(func, leaf, block, version)))
      return failure();
  }
  return emitStore(tree, plan, window);
}

std::optional<StoreWindow>
Distributor::planWindow(const TileTree &tree, const StorePlan &plan) const {
  const GlobalSide &dst = plan.dst;
  int64_t bytes = elementBytes(dst.elementType);
  int64_t sector = 32 / bytes;
  // Matrices of 4-byte or wider elements only: the shifts of a batched
  // store depend on the residues of every stride and block id, and those
  // of narrower elements take more residues (16 or 32 per sector), more
  // cases than the bank-conflict proof enumerates (their window buffers
  // would stay unproved).
  if (!dst.unitStride || !vectorizable(dst.elementType) || bytes < 4 ||
      plan.storeWidth < 2 || sector < 2 || dst.tile.size() != 2 ||
      dst.tile[dst.contiguous] < sector)
    return std::nullopt;
  std::string why;
  FailureOr<TracedView> traced = traceTileView(dst.op, dst.partition, why);
  if (failed(traced) || traced->desc ||
      !hasRunTimeAlignment(traced->source, dst.contiguous, plan.storeWidth))
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
  window.leaves = tree.leaves;
  window.owner = windowOwner(tree, plan, sector);
  std::optional<Chip> chip = optionChip();
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

std::optional<gpu::Dimension> Distributor::windowOwner(const TileTree &tree,
                                                       const StorePlan &plan,
                                                       int64_t sector) const {
  const GlobalSide &dst = plan.dst;
  int64_t c = dst.contiguous;
  int64_t length = dst.tile[c];
  // Once per block, with whole sectors per row and a wave per row.
  if (tree.store->getParentOp() != func ||
      !gpu::GPUFuncOp(func).getBody().hasOneBlock() || length % sector ||
      threads % windowLanes() || !tree.leafOf.empty())
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

std::optional<Chip> Distributor::optionChip() const {
  llvm::Expected<Chip> chip = parseChip(options.chip);
  if (!chip) {
    llvm::consumeError(chip.takeError());
    return std::nullopt;
  }
  return *chip;
}

int64_t Distributor::windowLanes() const {
  std::optional<Chip> chip = optionChip();
  return chip ? chip->waveSize : smallestWaveSize();
}

LogicalResult Distributor::planLeaf(Leaf &leaf, StorePlan &plan) {
  GlobalSide &side = leaf.side;
  const GlobalSide &dst = plan.dst;
  std::string why;
  if (failed(side.analyze(options.assumeAlignment, why)))
    return leaf.load.emitOpError() << "cannot be distributed: " << why;
  int64_t rank = dst.tile.size();
  for (int64_t k = 0; k < rank; ++k)
    if (leaf.perm[k] >= 0 && side.tile[leaf.perm[k]] != 1)
      leaf.bufDims.push_back(leaf.perm[k]);
  llvm::sort(leaf.bufDims);
  // Staging pays when both sides have rows to coalesce along (broadcast
  // loads are small: read directly).
  int64_t along = leaf.perm[dst.contiguous];
  bool differ = along != side.contiguous;
  bool repeats = llvm::any_of(llvm::seq<int64_t>(0, rank), [&](int64_t k) {
    return leaf.perm[k] < 0 && dst.tile[k] != 1;
  });
  leaf.staged = differ && !repeats && !leaf.bufDims.empty() &&
                side.tile[side.contiguous] > 1 && dst.tile[dst.contiguous] > 1;
  if (!leaf.staged) {
    if (along < 0) {
      // The same element along the store's rows: one element, repeated.
      leaf.splat = true;
    } else if (differ) {
      // The load follows the store's rows, element by element.
      side.contiguous = leaf.perm[dst.contiguous];
      side.unitStride = false;
    } else {
      plan.directWidth = std::min(plan.directWidth, side.maxWidth);
    }
    return success();
  }
  leaf.rowDim = llvm::find(leaf.perm, leaf.bufDims.back()) - leaf.perm.begin();
  // The first staged leaf picks the register blocks; a staged leaf whose
  // buffer rows run along another store dimension is read element by
  // element (readStaged).
  if (!plan.anyStaged())
    plan.stagedDim = leaf.rowDim;
  else if (leaf.rowDim != plan.stagedDim && leaf.rowDim != dst.contiguous)
    leaf.load.emitRemark()
        << "its staged buffer is read element by element: its rows run "
           "along store dimension "
        << leaf.rowDim << ", another staged load's along " << plan.stagedDim;
  plan.bufferWidth =
      std::min(plan.bufferWidth, widestVector(side.elementType, 16));
  return success();
}

LogicalResult Distributor::chooseStoreMapping(StorePlan &plan) {
  const GlobalSide &dst = plan.dst;
  int64_t rank = dst.tile.size();
  plan.mapping = Mapping::unitWidths(
      dst.tile, fastestFirst(rank, dst.contiguous, plan.stagedDim));
  Mapping &m = plan.mapping;
  // Widths that give every thread the same number of blocks first; else
  // the widest that divide the tile, with a partial last iteration.
  for (bool uneven : {false, true})
    for (int64_t width = plan.directWidth; width >= 1; width /= 2) {
      m.width[dst.contiguous] = width;
      // A register block of at most 64 elements.
      int64_t maxRows = plan.registerBlocks()
                            ? std::min<int64_t>(plan.bufferWidth, 64 / width)
                            : 1;
      for (int64_t rows = maxRows; rows >= 1; rows /= 2) {
        if (plan.registerBlocks())
          m.width[plan.stagedDim] = rows;
        if (uneven ? m.divides() : m.fits(threads)) {
          plan.storeWidth = width;
          plan.blockRows = rows;
          return success();
        }
      }
    }
  return failure();
}

Value Distributor::readBuffer(OpBuilder &b, Location loc, const Leaf &leaf,
                              ArrayRef<Value> storeCoord, int64_t width) const {
  Value offset = OffsetOp::create(
      b, loc, leaf.desc, leaf.bufCoord(leaf.fromStore(b, loc, storeCoord)));
  Type elementType = leaf.side.elementType;
  return vector::LoadOp::create(
      b, loc, VectorType::get({width}, elementType), leaf.buffer, offset,
      /*nontemporal=*/false,
      workgroupAccessAlignment(width * elementBytes(elementType)));
}

LogicalResult Distributor::emitVectorStore(OpBuilder &b, TileTree &tree,
                                           const StorePlan &plan, Value tid) {
  StoreOp store = tree.store;
  Location loc = store.getLoc();
  std::string why;
  FailureOr<GlobalAccess> out =
      GlobalAccess::create(b, plan.dst, plan.storeWidth, why);
  if (failed(out))
    return store.emitOpError() << "cannot be distributed: " << why;
  for (Leaf &leaf : tree.leaves) {
    if (leaf.staged)
      continue;
    FailureOr<GlobalAccess> in = GlobalAccess::create(
        b, leaf.side, leaf.splat ? 1 : plan.storeWidth, why);
    if (failed(in))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    leaf.direct = std::move(*in);
  }
  SmallVector<Value> insides{out->tileInside(b)};
  for (Leaf &leaf : tree.leaves)
    if (!leaf.staged)
      insides.push_back(leaf.direct->tileInside(b));
  int64_t width = plan.storeWidth;
  int64_t contiguous = plan.dst.contiguous;
  auto body = [&](OpBuilder &lb, ArrayRef<Value> origin, bool inside) {
    // Staged leaves read as register blocks: `width` vectors of
    // `blockRows` elements along the buffer's rows.
    SmallVector<SmallVector<Value>> bufferRows(tree.leaves.size());
    if (plan.registerBlocks())
      for (auto [i, leaf] : llvm::enumerate(tree.leaves))
        if (leaf.staged && leaf.rowDim == plan.stagedDim)
          for (int64_t s = 0; s < width; ++s)
            bufferRows[i].push_back(readBuffer(
                lb, loc, leaf, shifted(lb, loc, origin, contiguous, s),
                plan.blockRows));
    int64_t rows = plan.registerBlocks() ? plan.blockRows : 1;
    for (int64_t row = 0; row < rows; ++row) {
      SmallVector<Value> coord =
          row ? shifted(lb, loc, origin, plan.stagedDim, row)
              : SmallVector<Value>(origin);
      auto leafValue = [&](unsigned i) -> Value {
        const Leaf &leaf = tree.leaves[i];
        if (leaf.splat) {
          Value one =
              leaf.direct->load(lb, leaf.fromStore(lb, loc, coord), inside);
          return vector::BroadcastOp::create(
              lb, loc, VectorType::get({width}, leaf.side.elementType),
              vector::ExtractOp::create(lb, loc, one, 0));
        }
        if (!leaf.staged)
          return leaf.direct->load(lb, leaf.fromStore(lb, loc, coord), inside);
        if (leaf.rowDim == plan.dst.contiguous)
          return readBuffer(lb, loc, leaf, coord, width);
        if (leaf.rowDim != plan.stagedDim) {
          // Rows along neither the store's rows nor the register blocks.
          SmallVector<Value> elements;
          for (int64_t s = 0; s < width; ++s)
            elements.push_back(vector::ExtractOp::create(
                lb, loc,
                readBuffer(lb, loc, leaf,
                           shifted(lb, loc, coord, contiguous, s), 1),
                0));
          return vector::FromElementsOp::create(
              lb, loc, VectorType::get({width}, leaf.side.elementType),
              elements);
        }
        // Column `row` of the register block.
        SmallVector<Value> elements;
        for (int64_t s = 0; s < width; ++s)
          elements.push_back(
              vector::ExtractOp::create(lb, loc, bufferRows[i][s], row));
        return vector::FromElementsOp::create(
            lb, loc, VectorType::get({width}, leaf.side.elementType), elements);
      };
      Value fragment =
          evaluateFragment(lb, loc, tree, store.getValue(), width, leafValue);
      out->store(lb, fragment, coord, inside);
    }
  };
  ifInside(b, loc, allOf(b, loc, insides), [&](OpBuilder &ib, bool inside) {
    forEachBlock(ib, loc, plan.mapping, tid, threads,
                 [&](OpBuilder &lb, ArrayRef<Value> origin) {
                   body(lb, origin, inside);
                 });
  });
  return success();
}

LogicalResult Distributor::emitWindowStore(OpBuilder &b, TileTree &tree,
                                           const StorePlan &plan,
                                           const StoreWindow &window, Value tid,
                                           Value grid) {
  StoreOp store = tree.store;
  Location loc = store.getLoc();
  const GlobalSide &dst = plan.dst;
  int64_t c = dst.contiguous;
  int64_t length = dst.tile[c];
  int64_t sector = window.sector;
  std::string why;
  FailureOr<GlobalAccess> out = GlobalAccess::create(b, dst, 1, why);
  if (failed(out))
    return store.emitOpError() << "cannot be distributed: " << why;
  SmallVector<Value> insides{out->tileInside(b)};
  std::vector<std::optional<GlobalAccess>> direct(tree.leaves.size());
  for (auto [i, leaf] : llvm::enumerate(tree.leaves)) {
    if (leaf.staged)
      continue;
    FailureOr<GlobalAccess> in = GlobalAccess::create(b, leaf.side, 1, why);
    if (failed(in))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    direct[i] = std::move(*in);
    insides.push_back(direct[i]->tileInside(b));
  }
  // Staged buffers with rows before the tile are read that much further.
  int64_t halo = window.owner ? sector : 0;
  int64_t rank = dst.tile.size();
  Value notFirst, last;
  if (window.owner) {
    notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                     dst.indices[c], indexConstant(b, loc, 0));
    Value end = arith::AddIOp::create(b, loc, out->origin(c),
                                      indexConstant(b, loc, length));
    last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, end,
                                 out->extent(c));
  }
  // Position origin[c] of the row at `origin` (its other coordinates):
  // element origin[c] - m of the row, m the row's first element's offset
  // mod `sector`, where `part` covers it.
  auto position = [&](OpBuilder &lb, ArrayRef<Value> origin, bool inside,
                      WindowPart part) {
    SmallVector<Value> rowStart(origin);
    rowStart[c] = indexConstant(lb, loc, 0);
    Value shift =
        arith::RemUIOp::create(lb, loc, out->elementOffset(lb, rowStart),
                               indexConstant(lb, loc, sector));
    Value p = origin[c];
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
      if (length % windowLanes())
        inRow = arith::AndIOp::create(
            lb, loc, inRow,
            cmp(arith::CmpIPredicate::ult, p, indexConstant(lb, loc, length)));
      break;
    case WindowPart::Tail:
      inRow = cmp(arith::CmpIPredicate::ult, p, end);
      break;
    }
    scf::IfOp::create(lb, loc, inRow, [&](OpBuilder &tb, Location) {
      SmallVector<Value> coord(origin);
      coord[c] = arith::SubIOp::create(tb, loc, p, shift);
      SmallVector<Value> bufferCoord =
          halo ? shifted(tb, loc, coord, c, halo) : coord;
      auto leafValue = [&](unsigned i) -> Value {
        const Leaf &leaf = tree.leaves[i];
        if (leaf.staged)
          return readBuffer(tb, loc, window.leaves[i], bufferCoord, 1);
        return direct[i]->load(tb, leaf.fromStore(tb, loc, coord), inside);
      };
      Value fragment =
          evaluateFragment(tb, loc, tree, store.getValue(), 1, leafValue);
      out->store(tb, fragment, coord, inside);
      scf::YieldOp::create(tb, loc);
    });
  };
  // Positions along the rows: the row rounded up to whole sectors, and one
  // sector more for the shift.
  int64_t positions = llvm::alignTo(length, sector) + sector;
  // A wave of the target (or the narrowest of all targets) per row: the
  // rows' shifts differ, so two rows in one wave could share banks.
  int64_t lanes = windowLanes();
  if (threads % lanes) {
    // Threads dealt the positions of every row in turn.
    SmallVector<int64_t> extents(dst.tile);
    extents[c] = positions;
    Mapping m = Mapping::unitWidths(extents, fastestFirst(rank, c));
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
  int64_t groups = threads / lanes;
  SmallVector<int64_t> rowShape;
  for (int64_t k = 0; k < rank; ++k)
    if (k != c)
      rowShape.push_back(dst.tile[k]);
  int64_t rows = ShapedType::getNumElements(rowShape);
  Value lane =
      arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, lanes));
  Value group =
      arith::DivUIOp::create(b, loc, tid, indexConstant(b, loc, lanes));
  // Positions [first, first + count) of the row at `origin`.
  auto walk = [&](OpBuilder &bb, ArrayRef<Value> origin, bool inside,
                  int64_t first, int64_t count, WindowPart part) {
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
  };
  auto eachRow = [&](OpBuilder &ib, bool inside, bool neighbour) {
    forEachIteration(
        ib, loc, llvm::divideCeil(rows, groups), [&](OpBuilder &rb, Value k) {
          Value row = arith::AddIOp::create(
              rb, loc, group,
              arith::MulIOp::create(rb, loc, k,
                                    indexConstant(rb, loc, groups)));
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
              walk(bb, origin, inside, 0, positions, WindowPart::Own);
              return;
            }
            walk(bb, origin, inside, 0, length, WindowPart::Neighbour);
            scf::IfOp::create(bb, loc, last, [&](OpBuilder &tb, Location) {
              walk(tb, origin, inside, length, sector, WindowPart::Tail);
              scf::YieldOp::create(tb, loc);
            });
          };
          if (rows % groups == 0) {
            body(rb);
            return;
          }
          Value active =
              arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::ult, row,
                                    indexConstant(rb, loc, rows));
          scf::IfOp::create(rb, loc, active, [&](OpBuilder &tb, Location) {
            body(tb);
            scf::YieldOp::create(tb, loc);
          });
        });
  };
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

LogicalResult Distributor::emitStore(TileTree &tree, const StorePlan &plan,
                                     const std::optional<StoreWindow> &window) {
  StoreOp store = tree.store;
  Location loc = store.getLoc();
  OpBuilder b(store);
  if (plan.anyStaged())
    gpu::BarrierOp::create(b, loc);
  Value tid = linearThreadId(b, loc, block);
  if (!window) {
    if (failed(emitVectorStore(b, tree, plan, tid)))
      return failure();
  } else {
    Value aligned = stridesMultipleOf(b, loc, window->memref,
                                      plan.dst.contiguous, plan.storeWidth);
    // The grid size along the owner's dimension, at the kernel's top level
    // (where the neighbour-owned windows need it).
    Value grid;
    if (window->owner)
      grid = gpu::GridDimOp::create(b, loc, *window->owner);
    auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    OpBuilder eb = ifOp.getElseBodyBuilder();
    if (failed(emitVectorStore(tb, tree, plan, tid)) ||
        failed(emitWindowStore(eb, tree, plan, *window, tid, grid)))
      return failure();
  }
  // In a loop, the next iteration's phase 1 must not overwrite the buffers
  // before every thread has read them.
  if (plan.anyStaged() && store->getParentOp() != func)
    gpu::BarrierOp::create(b, loc);
  return success();
}

} // namespace

Value tiles::addAlignedWorkgroupBuffer(gpu::GPUFuncOp func,
                                       ArrayRef<int64_t> shape,
                                       Type elementType, Location loc) {
  auto type =
      MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                      gpu::AddressSpaceAttr::get(func.getContext(),
                                                 gpu::AddressSpace::Workgroup));
  Value buffer = func.addWorkgroupAttribution(type, loc);
  func.setWorkgroupAttributionAttr(
      func.getNumWorkgroupAttributions() - 1,
      LLVM::LLVMDialect::getAlignAttrName(),
      IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                       kWorkgroupBufferAlignment));
  return buffer;
}

llvm::MaybeAlign tiles::workgroupAccessAlignment(int64_t bytes) {
  return llvm::MaybeAlign(llvm::MinAlign(bytes, kMaxWorkgroupAccessAlignment));
}

FailureOr<StagingMapping> tiles::stagingMapping(const Leaf &leaf,
                                                int64_t threads, bool transpose,
                                                bool uneven) {
  const GlobalSide &src = leaf.side;
  int64_t rank = src.tile.size();
  int64_t across = leaf.bufDims.empty() ? -1 : leaf.bufDims.back();
  transpose = transpose && across >= 0 && across != src.contiguous &&
              vectorizable(src.elementType);
  StagingMapping s{
      Mapping::unitWidths(src.tile,
                          transpose ? fastestFirst(rank, across, src.contiguous)
                                    : fastestFirst(rank, src.contiguous)),
      0, 0};
  s.width = s.mapping.fitWidth(src.contiguous, src.maxWidth, threads, uneven);
  if (!s.width)
    return divisionError(leaf.load, src.tile, threads);
  if (transpose) {
    s.across = across;
    s.depth = std::max<int64_t>(
        1, s.mapping.fitWidth(across, widestVector(src.elementType, 16),
                              threads, uneven));
  }
  s.iterations = s.mapping.iterations(threads);
  return s;
}

int64_t tiles::oddWordRowLength(int64_t length, int64_t elementBytes) {
  // Lanes on consecutive rows of such a buffer are an odd number of 4-byte
  // banks apart (an odd number of 8-byte pairs for wider elements), so
  // any power of two of them, up to the number of banks, hits different
  // banks whatever row they start at.
  auto odd = [&](int64_t n) {
    int64_t bytes = n * elementBytes;
    if (elementBytes <= 4)
      return bytes % 4 == 0 && (bytes / 4) % 2 == 1;
    return n % 2 == 1;
  };
  int64_t n = length;
  while (!odd(n))
    ++n;
  return n;
}

namespace {
/// The shape of `leaf`'s staging buffer of `stages` stages, and its strides
/// when `padRows` pads its rows (empty: packed).
struct StagingShape {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> strides;

  StagingShape(const Leaf &leaf, int64_t stages, bool padRows) {
    if (stages > 1)
      shape.push_back(stages);
    for (int64_t k : leaf.bufDims)
      shape.push_back(leaf.side.tile[k] + (k == leaf.haloDim ? leaf.halo : 0));
    int64_t rank = shape.size();
    if (!padRows || rank < 2)
      return;
    // Row-major with each row padded to an odd number of banks.
    strides.assign(rank, 1);
    strides[rank - 2] =
        oddWordRowLength(shape[rank - 1], elementBytes(leaf.side.elementType));
    for (int64_t k = rank - 3; k >= 0; --k)
      strides[k] = strides[k + 1] * shape[k + 1];
  }
  int64_t elements() const {
    return strides.empty() ? ShapedType::getNumElements(shape)
                           : strides[0] * shape[0];
  }
};
} // namespace

int64_t tiles::stagingBufferElements(const Leaf &leaf, int64_t stages,
                                     bool padRows) {
  return StagingShape(leaf, stages, padRows).elements();
}

int64_t tiles::versionedStagingBytes(const Leaf &leaf, const Leaf &window) {
  return std::max(stagingBufferElements(leaf, 1, /*padRows=*/false),
                  stagingBufferElements(window, 1, /*padRows=*/true)) *
         elementBytes(leaf.side.elementType);
}

void tiles::allocateStagingBuffer(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b,
                                  int64_t stages, bool padRows, Value storage) {
  const GlobalSide &src = leaf.side;
  Location loc = leaf.load.getLoc();
  MLIRContext *ctx = func.getContext();
  leaf.stages = stages;
  StagingShape layout(leaf, stages, padRows);
  ArrayRef<int64_t> shape = layout.shape;
  int64_t space = layout.elements();
  if (storage) {
    // A view of the bytes, at the kernel's start.
    OpBuilder eb = OpBuilder::atBlockBegin(&func.getBody().front());
    auto type =
        MemRefType::get({space}, src.elementType, MemRefLayoutAttrInterface(),
                        cast<MemRefType>(storage.getType()).getMemorySpace());
    leaf.buffer = memref::ViewOp::create(
        eb, loc, type, storage, indexConstant(eb, loc, 0), ValueRange());
  } else {
    leaf.buffer =
        addAlignedWorkgroupBuffer(func, {space}, src.elementType, loc);
  }
  if (layout.strides.empty()) {
    leaf.desc = PackedOp::create(b, loc, DescType::get(ctx, shape),
                                 b.getDenseI64ArrayAttr(shape));
    return;
  }
  leaf.desc = NaiveOp::create(b, loc, DescType::get(ctx, shape),
                              b.getDenseI64ArrayAttr(shape),
                              b.getDenseI64ArrayAttr(layout.strides),
                              IntegerAttr(), b.getI64IntegerAttr(space));
}

void tiles::writeStagedBlock(OpBuilder &b, Location loc, const Leaf &leaf,
                             ArrayRef<Value> origin, Value v, int64_t width,
                             Value stage) {
  const GlobalSide &src = leaf.side;
  if (src.contiguous == leaf.bufDims.back()) {
    Value offset =
        OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(origin, stage));
    vector::StoreOp::create(
        b, loc, v, leaf.buffer, offset, /*nontemporal=*/false,
        workgroupAccessAlignment(width * elementBytes(src.elementType)));
    return;
  }
  for (int64_t i = 0; i < width; ++i) {
    Value offset = OffsetOp::create(
        b, loc, leaf.desc,
        leaf.bufCoord(shifted(b, loc, origin, src.contiguous, i), stage));
    memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, v, i),
                            leaf.buffer, offset);
  }
}

LogicalResult tiles::stageLeaf(gpu::GPUFuncOp func, Leaf &leaf,
                               ArrayRef<int64_t> block,
                               const StagingVersion &version) {
  int64_t threads = block[0] * block[1] * block[2];
  FailureOr<StagingMapping> staging =
      stagingMapping(leaf, threads, /*transpose=*/false, /*uneven=*/true);
  if (failed(staging))
    return failure();
  const GlobalSide &src = leaf.side;
  Location loc = leaf.load.getLoc();
  OpBuilder b(leaf.load);
  std::string why;
  FailureOr<GlobalAccess> in =
      GlobalAccess::create(b, src, staging->width, why);
  if (failed(in))
    return leaf.load.emitOpError() << "cannot be distributed: " << why;
  // Element by element, for loads whose rows are unaligned at run time.
  std::optional<GlobalAccess> elements;
  if (in->alignment() || version.windowLeaf) {
    FailureOr<GlobalAccess> one = GlobalAccess::create(b, src, 1, why);
    if (failed(one))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    elements = std::move(*one);
  }
  // In a loop, every thread must have read the previous tile's buffer.
  if (leaf.load->getParentOp() != func)
    gpu::BarrierOp::create(b, loc);
  if (!version.windowLeaf) {
    allocateStagingBuffer(func, leaf, b);
  } else {
    // The versions run one or the other in every block: their buffers
    // share the bytes, through views (separate buffers to the swizzle
    // search). The second is read along its columns at run-time offsets,
    // which the search cannot see: its rows are padded instead.
    Value storage = addAlignedWorkgroupBuffer(
        func, {versionedStagingBytes(leaf, *version.windowLeaf)},
        IntegerType::get(func.getContext(), 8), loc);
    allocateStagingBuffer(func, leaf, b, 1, false, storage);
    allocateStagingBuffer(func, *version.windowLeaf, b, /*stages=*/1,
                          /*padRows=*/true, storage);
  }
  Value tid = linearThreadId(b, loc, block);
  auto vectors = [&](OpBuilder &vb) {
    ifInside(vb, loc, in->tileInside(vb), [&](OpBuilder &ib, bool inside) {
      forEachBlock(ib, loc, staging->mapping, tid, threads,
                   [&](OpBuilder &lb, ArrayRef<Value> origin) {
                     writeStagedBlock(lb, loc, leaf, origin,
                                      in->load(lb, origin, inside),
                                      staging->width);
                   });
    });
  };
  // Consecutive lanes on consecutive elements along the load's rows.
  int64_t rank = src.tile.size();
  auto scalars = [&](OpBuilder &sb, const Leaf &target) {
    Mapping m =
        Mapping::unitWidths(src.tile, fastestFirst(rank, src.contiguous));
    auto tile = [&](OpBuilder &ib, bool inside) {
      forEachBlock(ib, loc, m, tid, threads,
                   [&](OpBuilder &lb, ArrayRef<Value> origin) {
                     writeStagedBlock(
                         lb, loc, target,
                         shifted(lb, loc, origin, target.haloDim, target.halo),
                         elements->load(lb, origin, inside), 1);
                   });
    };
    if (!target.halo) {
      ifInside(sb, loc, elements->tileInside(sb), tile);
      return;
    }
    // The neighbouring tile's last `halo` rows go before the tile (none
    // before the first tile; inside the view when the tile is).
    SmallVector<int64_t> extents(src.tile);
    extents[target.haloDim] = target.halo;
    Mapping h =
        Mapping::unitWidths(extents, fastestFirst(rank, src.contiguous));
    Value notFirst = arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::ugt,
                                           src.indices[target.haloDim],
                                           indexConstant(sb, loc, 0));
    ifInside(
        sb, loc, elements->tileInside(sb), [&](OpBuilder &ib, bool inside) {
          tile(ib, inside);
          scf::IfOp::create(ib, loc, notFirst, [&](OpBuilder &tb, Location) {
            forEachBlock(
                tb, loc, h, tid, threads,
                [&](OpBuilder &lb, ArrayRef<Value> origin) {
                  writeStagedBlock(
                      lb, loc, target, origin,
                      elements->load(lb,
                                     shifted(lb, loc, origin, target.haloDim,
                                             -target.halo),
                                     inside),
                      1);
                });
            scf::YieldOp::create(tb, loc);
          });
        });
  };
  auto ifElse = [&](OpBuilder &ib, Value cond,
                    function_ref<void(OpBuilder &)> then,
                    function_ref<void(OpBuilder &)> otherwise) {
    auto ifOp = scf::IfOp::create(ib, loc, cond, /*withElseRegion=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    OpBuilder eb = ifOp.getElseBodyBuilder();
    then(tb);
    otherwise(eb);
  };
  // The first version: vectors where the load's rows are aligned.
  auto first = [&](OpBuilder &fb) {
    if (Value aligned = in->alignment(); aligned && staging->width > 1)
      ifElse(fb, aligned, vectors, [&](OpBuilder &eb) { scalars(eb, leaf); });
    else
      vectors(fb);
  };
  if (!version.windowLeaf) {
    first(b);
    return success();
  }
  // The store's rows decide which version's buffer phase 2 reads.
  Value storeAligned = stridesMultipleOf(
      b, loc, version.storeMemref, version.storeContiguous, version.storeWidth);
  ifElse(b, storeAligned, first,
         [&](OpBuilder &eb) { scalars(eb, *version.windowLeaf); });
  return success();
}

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
  BlockUniformity uniform;
  // Contractions first: they consume their loads and stores. Then
  // reductions become cooperative stores and loads of workgroup buffers.
  if (failed(distributeContractions(func, block, uniform, options)) ||
      failed(lowerTileReductions(func, block, uniform)))
    return failure();
  FailureOr<std::vector<TileTree>> trees = collectTileTrees(func, uniform);
  if (failed(trees))
    return failure();
  Distributor distributor(func, block, options);
  for (TileTree &tree : *trees)
    if (failed(distributor.lower(tree)))
      return failure();
  eraseTileTrees(*trees);
  return success();
}
