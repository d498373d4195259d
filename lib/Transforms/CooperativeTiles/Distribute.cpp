//===- Distribute.cpp - Cooperative stores, staged through LDS ------------===//
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
// Stores whose rows are aligned only at run time get a second version of
// the copy, in sector-aligned windows: StoreWindows.h. The workgroup
// buffers are the staging room's (Staging.h).
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"
#include "Staging.h"
#include "StoreWindows.h"

#include "layout/Transforms/WorkgroupMemory.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

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
  /// The widest vector that every direct leaf allows, and the leaf that
  /// narrowed it below the store's (null: none did).
  int64_t directWidth = 1;
  const Leaf *narrowedBy = nullptr;
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
  /// The remarks of the store and its leaves (remarkAccess): the mappings
  /// chosen and why vectors are narrower than 16 bytes.
  void remarkPlan(const TileTree &tree, const StorePlan &plan, bool windowed);
  /// Phase 2, at the store: each thread evaluates its fragments and stores
  /// them (under the run-time test of `window`, when there is one).
  LogicalResult emitStore(TileTree &tree, const StorePlan &plan,
                          const std::optional<StoreWindow> &window);
  /// Phase 2 with vectors along the store's rows.
  LogicalResult emitVectorStore(OpBuilder &b, TileTree &tree,
                                const StorePlan &plan, Value tid);

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
  std::optional<StoreWindow> window = planStoreWindow(
      func, tree, plan.dst, plan.storeWidth, threads, options.chip);
  remarkPlan(tree, plan, window.has_value());
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
    } else if (side.maxWidth < plan.directWidth) {
      plan.directWidth = side.maxWidth;
      plan.narrowedBy = &leaf;
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

/// Whether `partition` is a tile view of a workgroup buffer (a reduction's
/// source or result, Reduction.cpp).
static bool inWorkgroupMemory(Value partition) {
  auto part = partition.getDefiningOp<PartitionOp>();
  auto view = part ? part.getView().getDefiningOp<ViewOp>() : ViewOp();
  auto type =
      view ? dyn_cast<MemRefType>(view.getSource().getType()) : MemRefType();
  return type && isWorkgroupMemory(type);
}

void Distributor::remarkPlan(const TileTree &tree, const StorePlan &plan,
                             bool windowed) {
  const GlobalSide &dst = plan.dst;
  auto uneven = [&](int64_t wider) {
    return llvm::formatv("{0}-element vectors do not give the {1} threads "
                         "equal parts of the tile",
                         wider, threads)
        .str();
  };
  std::string why = dst.narrowWhy;
  if (plan.narrowedBy && plan.storeWidth == plan.directWidth)
    why = llvm::formatv("the load it computes from allows only {0}-element "
                        "vectors: {1}",
                        plan.directWidth, plan.narrowedBy->side.narrowWhy);
  else if (plan.storeWidth < plan.directWidth)
    why = uneven(plan.storeWidth * 2);
  remarkAccess(tree.store,
               AccessChoice::of(
                   inWorkgroupMemory(StoreOp(tree.store).getPartition())
                       ? "store (into workgroup memory: a reduction's source)"
                   : windowed ? "store (rows aligned only at run time get a "
                                "second version, in sector-aligned windows)"
                              : "store",
                   plan.mapping, dst.contiguous, dst.elementType, threads, why),
               options.remarks);
  for (const Leaf &leaf : tree.leaves) {
    const GlobalSide &side = leaf.side;
    if (leaf.staged) {
      // The mapping stageLeaf takes (it diagnoses a failure).
      FailureOr<StagingMapping> s =
          stagingMapping(leaf, threads, /*transpose=*/false, /*uneven=*/true);
      if (failed(s))
        continue;
      remarkAccess(
          leaf.load,
          AccessChoice::of(
              "load (staged through workgroup memory: "
              "its rows run across the store's)",
              s->mapping, side.contiguous, side.elementType, threads,
              s->width < side.maxWidth ? uneven(s->width * 2) : side.narrowWhy),
          options.remarks);
      continue;
    }
    // A direct leaf reads what the store's threads need: the store's
    // mapping through the permutation.
    Mapping m = Mapping::unitWidths(side.tile, {});
    for (int64_t k : plan.mapping.order)
      if (leaf.perm[k] >= 0 && !leaf.splat && side.unitStride) {
        m.order.push_back(leaf.perm[k]);
        m.width[leaf.perm[k]] = plan.mapping.width[k];
      }
    for (int64_t k = side.tile.size() - 1; k >= 0; --k)
      if (!llvm::is_contained(m.order, k))
        m.order.push_back(k);
    std::string leafWhy =
        leaf.splat ? "it is repeated along the store's rows (one element "
                     "per fragment)"
        : !side.unitStride
            ? "its rows run across the store's and it is not staged, so it "
              "is read element by element"
            : why;
    remarkAccess(leaf.load,
                 AccessChoice::of(
                     inWorkgroupMemory(LoadOp(leaf.load).getPartition())
                         ? "load (from workgroup memory: a "
                           "reduction's result, along the "
                           "store's rows)"
                         : "load (into registers, along the "
                           "store's rows)",
                     m, side.contiguous, side.elementType, threads, leafWhy),
                 options.remarks);
  }
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
            bufferRows[i].push_back(readStagedVector(
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
          return readStagedVector(lb, loc, leaf, coord, width);
        if (leaf.rowDim != plan.stagedDim) {
          // Rows along neither the store's rows nor the register blocks.
          SmallVector<Value> elements;
          for (int64_t s = 0; s < width; ++s)
            elements.push_back(vector::ExtractOp::create(
                lb, loc,
                readStagedVector(lb, loc, leaf,
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
        failed(
            emitWindowStore(eb, tree, plan.dst, *window, tid, grid, threads)))
      return failure();
  }
  // In a loop, the next iteration's phase 1 must not overwrite the buffers
  // before every thread has read them.
  if (plan.anyStaged() && store->getParentOp() != func)
    gpu::BarrierOp::create(b, loc);
  return success();
}

} // namespace

LogicalResult
tiles::distributeTileStores(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                            BlockUniformity &uniform,
                            const CooperativeTileOptions &options) {
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
