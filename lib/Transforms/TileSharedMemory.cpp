//===- TileSharedMemory.cpp - Cooperative tiles, staged through LDS -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Inside a kernel whose block size is known, a `layout.load` / `layout.store`
// whose tile indices are the same in every thread of the block moves the
// tile cooperatively: the tile is a block-level value, and each thread moves
// its part of it. A cooperative store's tile is an expression of cooperative
// loads (the leaves), vector.transpose, elementwise ops, splat constants
// and broadcasts of scalars; every thread evaluates it on its fragments.
//
// Thread mappings. A mapping of a tile gives each thread, per iteration,
// a block of the tile: `width[k]` consecutive elements along each dimension
// k (1 for most). The blocks are numbered with the fastest dimension first,
// and block g goes to thread g mod N at iteration g / N, for N threads: the
// lanes of a warp/wave take consecutive blocks along the fastest dimension.
// A global access's fastest dimension is the one of unit stride (coalesced)
// and its width the widest vector (up to 16 bytes) that divides the tile,
// keeps the access aligned (strides and offset multiples of it, checked at
// run time when they are dynamic; buffers are assumed aligned to
// `assume-alignment` bytes) and gives every thread the same number of
// blocks. This is how CK Tile and rocMLIR derive the vector length of a
// tile access from its descriptor. The store's mapping drives the
// expression.
//
// Staging. A leaf whose fastest dimension (through the permutation of the
// transposes above it) is not the store's goes through a workgroup buffer
// whose layout is a `layout.packed` descriptor over its tile (unit
// dimensions dropped): coalesced global reads write it at the load,
// `gpu.barrier` at the store, then each thread reads a block of `ws`
// vectors of `we` elements along the buffer's rows and transposes it in
// registers into `we` fragments of `ws` elements along the store's rows.
// -layout-xor-swizzle then picks the buffer's layout. Other leaves load
// their fragments straight into registers.
//
// Edges. Each phase tests once per tile (the same answer in every thread)
// whether the whole tile is inside the view with aligned rows; those tiles
// run unguarded vectors, which the GPU compiler issues back to back. Other
// tiles test each vector: inside and aligned, one vector access; otherwise
// element by element, each guarded, with the padding value for the
// elements outside.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/TileAccess.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTTILESHAREDMEMORY
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}


//===----------------------------------------------------------------------===//
// Block uniformity
//===----------------------------------------------------------------------===//

/// Whether `v` is provably the same in every thread of a block: kernel
/// arguments, block and grid ids and sizes, constants, memref.dim, pure
/// ops of such values, and induction variables of scf.for loops with such
/// bounds. Thread and lane ids, loads and everything else are not.
bool isBlockUniform(Value v, DenseMap<Value, bool> &memo, unsigned depth = 0) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  if (depth > 64)
    return false;
  bool uniform = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(parent))
      uniform = arg.getOwner() == &func.getBody().front();
    else if (auto loop = dyn_cast<scf::ForOp>(parent))
      uniform = v == loop.getInductionVar() &&
                isBlockUniform(loop.getLowerBound(), memo, depth + 1) &&
                isBlockUniform(loop.getUpperBound(), memo, depth + 1) &&
                isBlockUniform(loop.getStep(), memo, depth + 1);
  } else {
    Operation *op = v.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp>(op))
      uniform = false;
    else if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
                 memref::DimOp>(op) ||
             (isPure(op) && op->getNumRegions() == 0))
      uniform = llvm::all_of(op->getOperands(), [&](Value o) {
        return isBlockUniform(o, memo, depth + 1);
      });
  }
  memo[v] = uniform;
  return uniform;
}

//===----------------------------------------------------------------------===//
// Thread mappings
//===----------------------------------------------------------------------===//

/// Which elements of a tile each thread moves: per iteration a block of
/// `width[k]` elements along each dimension k; blocks are numbered with
/// `order[0]` fastest and dealt round-robin to the threads.
struct Mapping {
  SmallVector<int64_t> tile;
  SmallVector<int64_t> width;
  SmallVector<int64_t> order;

  int64_t blocks() const {
    int64_t n = 1;
    for (auto [t, w] : llvm::zip_equal(tile, width))
      n *= t / w;
    return n;
  }
  bool fits(int64_t threads) const {
    for (auto [t, w] : llvm::zip_equal(tile, width))
      if (t % w)
        return false;
    return blocks() % threads == 0;
  }
};

/// `first` (and then `second`, if different and not -1), then the other
/// dimensions from the last to the first.
SmallVector<int64_t> fastestFirst(int64_t rank, int64_t first,
                                  int64_t second = -1) {
  SmallVector<int64_t> order{first};
  if (second >= 0 && second != first)
    order.push_back(second);
  for (int64_t k = rank - 1; k >= 0; --k)
    if (!llvm::is_contained(order, k))
      order.push_back(k);
  return order;
}

/// The tile coordinates of the first element of the block that thread
/// `tid` moves at iteration `iter`.
SmallVector<Value> blockOrigin(OpBuilder &b, Location loc, const Mapping &m,
                               Value tid, Value iter, int64_t threads) {
  Value g = arith::AddIOp::create(
      b, loc, tid, arith::MulIOp::create(b, loc, iter, cst(b, loc, threads)));
  SmallVector<Value> origin(m.tile.size());
  for (auto [i, k] : llvm::enumerate(m.order)) {
    int64_t count = m.tile[k] / m.width[k];
    Value q = g;
    if (i + 1 < m.order.size()) {
      q = arith::RemUIOp::create(b, loc, g, cst(b, loc, count));
      g = arith::DivUIOp::create(b, loc, g, cst(b, loc, count));
    }
    origin[k] = m.width[k] == 1
                    ? q
                    : arith::MulIOp::create(b, loc, q,
                                            cst(b, loc, m.width[k]))
                          .getResult();
  }
  return origin;
}

SmallVector<Value> plus(OpBuilder &b, Location loc, ValueRange base,
                        int64_t dim, int64_t step) {
  SmallVector<Value> r(base);
  if (step)
    r[dim] = arith::AddIOp::create(b, loc, r[dim], cst(b, loc, step));
  return r;
}

//===----------------------------------------------------------------------===//
// Global accesses
//===----------------------------------------------------------------------===//

/// One side of a cooperative copy: a global tile access.
struct GlobalSide {
  Operation *op;
  Value partition;
  SmallVector<Value> indices;
  bool masked;
  std::optional<Padding> padding;
  ArrayRef<int64_t> tile;
  Type elementType;
  /// The dimension the accesses move along: the one of unit stride (else
  /// the last one, unvectorized).
  int64_t contiguous = 0;
  /// Whether `contiguous` has unit stride (vectors are contiguous).
  bool unitStride = false;
  /// The widest vector the view's static layout allows along it.
  int64_t maxWidth = 1;
};

int64_t elementBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

/// Whether per-element accesses of `t` may be grouped into vectors (whole
/// bytes: a vector of i1 would be bit-packed in memory).
bool vectorizable(Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits >= 8 && bits % 8 == 0;
}

/// Fills `contiguous` and `maxWidth` from the strides and offset with which
/// the view indexes memory (static ones here, dynamic ones are checked at
/// run time): a memref view's layout, or a strided descriptor's. Views
/// through other descriptors move element by element.
LogicalResult analyze(GlobalSide &side, int64_t alignBytes,
                      std::string &why) {
  FailureOr<TracedView> traced = traceTileView(side.partition, why);
  if (failed(traced))
    return failure();
  int64_t rank = side.tile.size();
  side.contiguous = rank - 1;
  side.maxWidth = 1;
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout =
      traced->stridedLayout();
  if (!layout)
    return success();
  ArrayRef<int64_t> strides = layout->first;
  int64_t offset = layout->second;
  auto unit = llvm::find(strides, 1);
  if (unit == strides.end())
    return success();
  side.contiguous = unit - strides.begin();
  side.unitStride = true;
  if (!vectorizable(side.elementType))
    return success();
  int64_t bytes = elementBytes(side.elementType);
  int64_t w = llvm::bit_floor(uint64_t(
      std::max<int64_t>(1, std::min<int64_t>(16, alignBytes) / bytes)));
  auto divides = [&](int64_t x) {
    return ShapedType::isDynamic(x) || x % w == 0;
  };
  while (w > 1 &&
         (side.tile[side.contiguous] % w || !divides(offset) ||
          !llvm::all_of(llvm::enumerate(strides), [&](auto s) {
            return int64_t(s.index()) == side.contiguous || divides(s.value());
          })))
    w /= 2;
  side.maxWidth = w;
  return success();
}

/// Emits the code of one side: traces the access at the current insertion
/// point (the tile origin, the extents) and moves vectors.
struct GlobalAccess {
  GlobalSide side;
  TileAccess access;
  int64_t width;
  /// Whether the dynamic strides and offset allow `width`-vectors (null:
  /// statically true).
  Value aligned;

  static FailureOr<GlobalAccess> create(OpBuilder &b, const GlobalSide &side,
                                        int64_t width, std::string &why) {
    GlobalAccess g{side, {}, width, {}};
    FailureOr<TileAccess> access =
        traceAccess(b, side.op, side.partition, side.indices,
                    /*atomic=*/false, why);
    if (failed(access))
      return failure();
    g.access = std::move(*access);
    if (width > 1 && g.access.strided) {
      Location loc = side.op->getLoc();
      auto type = cast<MemRefType>(g.access.strided.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (succeeded(type.getStridesAndOffset(strides, offset))) {
        SmallVector<int64_t> dynamic;
        for (auto [k, s] : llvm::enumerate(strides))
          if (int64_t(k) != side.contiguous && ShapedType::isDynamic(s))
            dynamic.push_back(k);
        if (!dynamic.empty() || ShapedType::isDynamic(offset)) {
          auto meta = memref::ExtractStridedMetadataOp::create(
              b, loc, g.access.strided);
          auto multiple = [&](Value x) -> Value {
            Value r = arith::RemUIOp::create(b, loc, x, cst(b, loc, width));
            return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r,
                                         cst(b, loc, 0));
          };
          auto conj = [&](Value c) {
            g.aligned = g.aligned
                            ? arith::AndIOp::create(b, loc, g.aligned, c)
                                  .getResult()
                            : c;
          };
          if (ShapedType::isDynamic(offset))
            conj(multiple(meta.getOffset()));
          for (int64_t k : dynamic)
            conj(multiple(meta.getStrides()[k]));
        }
      }
    }
    return g;
  }

  Location loc() const { return side.op->getLoc(); }

  SmallVector<Value> viewCoord(OpBuilder &b, ValueRange tileCoord) const {
    SmallVector<Value> c;
    for (auto [o, j] : llvm::zip_equal(access.origin, tileCoord))
      c.push_back(arith::AddIOp::create(b, loc(), o, j));
    return c;
  }

  /// How the vector at view coordinate `c` moves.
  enum class Path { Vector, Elements, Guarded };
  bool vectorizes() const {
    return width > 1 && access.strided && side.unitStride;
  }
  /// `inside`: the caller knows the whole tile is inside the view and
  /// aligned (see tileInside).
  std::pair<Path, Value> path(OpBuilder &b, ValueRange c, bool inside) const {
    if (!vectorizes())
      return {Path::Elements, Value()};
    if (inside)
      return {Path::Vector, Value()};
    Value cond = aligned;
    if (side.masked) {
      SmallVector<Value> last = plus(b, loc(), c, side.contiguous, width - 1);
      for (auto [x, e] : llvm::zip_equal(last, access.extents)) {
        Value in =
            arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, x, e);
        cond = cond ? arith::AndIOp::create(b, loc(), cond, in).getResult()
                    : in;
      }
    }
    return {cond ? Path::Guarded : Path::Vector, cond};
  }

  VectorType vectorType() const {
    return VectorType::get({width}, side.elementType);
  }

  /// The `width` elements from view coordinate `c` along the contiguous
  /// dimension.
  /// Whether the whole tile is inside the view and every vector aligned
  /// (then no access needs a guard), or null when that always holds.
  Value tileInside(OpBuilder &b) const {
    if (!vectorizes())
      return {};
    Location l = loc();
    Value cond = aligned;
    if (side.masked)
      for (auto [o, e, t] :
           llvm::zip_equal(access.origin, access.extents, side.tile)) {
        Value end = arith::AddIOp::create(b, l, o, cst(b, l, t));
        Value in =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, end, e);
        cond = cond ? arith::AndIOp::create(b, l, cond, in).getResult() : in;
      }
    return cond;
  }

  Value load(OpBuilder &b, ValueRange tileCoord, bool inside) const {
    Location l = loc();
    SmallVector<Value> c = viewCoord(b, tileCoord);
    Value pad = paddingValue(b, l, side.elementType, side.padding);
    auto elements = [&](OpBuilder &eb, Location el) -> Value {
      SmallVector<Value> vals;
      for (int64_t i = 0; i < width; ++i) {
        SmallVector<Value> ci = plus(eb, el, c, side.contiguous, i);
        auto one = [&](OpBuilder &ob, Location ol) -> Value {
          ElementRef ref = elementRef(ob, ol, access, ci);
          return memref::LoadOp::create(ob, ol, ref.memref, ref.indices);
        };
        if (!side.masked) {
          vals.push_back(one(eb, el));
          continue;
        }
        auto ifOp = scf::IfOp::create(
            eb, el, elementInside(eb, el, access, ci),
            [&](OpBuilder &tb, Location tl) {
              scf::YieldOp::create(tb, tl, one(tb, tl));
            },
            [&](OpBuilder &fb, Location fl) {
              scf::YieldOp::create(fb, fl, pad);
            });
        vals.push_back(ifOp.getResult(0));
      }
      return vector::FromElementsOp::create(eb, el, vectorType(), vals);
    };
    auto vectorLoad = [&](OpBuilder &vb, Location vl) -> Value {
      return vector::LoadOp::create(
          vb, vl, vectorType(), access.strided, c, /*nontemporal=*/false,
          llvm::MaybeAlign(width * elementBytes(side.elementType)));
    };
    auto [p, f] = path(b, c, inside);
    if (p == Path::Vector)
      return vectorLoad(b, l);
    if (p == Path::Elements)
      return elements(b, l);
    auto ifOp = scf::IfOp::create(
        b, l, f,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, vectorLoad(tb, tl));
        },
        [&](OpBuilder &fb, Location fl) {
          scf::YieldOp::create(fb, fl, elements(fb, fl));
        });
    return ifOp.getResult(0);
  }

  /// Stores the `width`-vector `v` from view coordinate `c` along the
  /// contiguous dimension.
  void store(OpBuilder &b, Value v, ValueRange tileCoord,
             bool inside) const {
    Location l = loc();
    SmallVector<Value> c = viewCoord(b, tileCoord);
    auto elements = [&](OpBuilder &eb, Location el) {
      for (int64_t i = 0; i < width; ++i) {
        SmallVector<Value> ci = plus(eb, el, c, side.contiguous, i);
        auto one = [&](OpBuilder &ob, Location ol) {
          ElementRef ref = elementRef(ob, ol, access, ci);
          Value x = vector::ExtractOp::create(ob, ol, v, i);
          memref::StoreOp::create(ob, ol, x, ref.memref, ref.indices);
        };
        if (!side.masked) {
          one(eb, el);
          continue;
        }
        scf::IfOp::create(eb, el, elementInside(eb, el, access, ci),
                          [&](OpBuilder &tb, Location tl) {
                            one(tb, tl);
                            scf::YieldOp::create(tb, tl);
                          });
      }
    };
    auto vectorStore = [&](OpBuilder &vb, Location vl) {
      vector::StoreOp::create(
          vb, vl, v, access.strided, c, /*nontemporal=*/false,
          llvm::MaybeAlign(width * elementBytes(side.elementType)));
    };
    auto [p, f] = path(b, c, inside);
    if (p == Path::Vector)
      return vectorStore(b, l);
    if (p == Path::Elements)
      return elements(b, l);
    scf::IfOp::create(
        b, l, f,
        [&](OpBuilder &tb, Location tl) {
          vectorStore(tb, tl);
          scf::YieldOp::create(tb, tl);
        },
        [&](OpBuilder &fb, Location fl) {
          elements(fb, fl);
          scf::YieldOp::create(fb, fl);
        });
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A leaf of a cooperative tile expression: a cooperative load.
struct Leaf {
  LoadOp load;
  /// Store dimension k is this load's dimension perm[k].
  SmallVector<int64_t> perm;
  GlobalSide side;
  /// Whether it goes through a workgroup buffer (its fastest dimension is
  /// not the store's).
  bool staged = false;
  /// The staging: buffer, descriptor, the load dimensions it keeps (the
  /// non-unit ones), and the phase-1 access.
  Value buffer;
  Value desc;
  SmallVector<int64_t> bufDims;
  /// The load's access (direct leaves, traced at the store).
  std::optional<GlobalAccess> direct;

  /// The buffer coordinate of load coordinate `loadCoord`.
  SmallVector<Value> bufCoord(ArrayRef<Value> loadCoord) const {
    SmallVector<Value> r;
    for (int64_t k : bufDims)
      r.push_back(loadCoord[k]);
    return r;
  }
};

/// A cooperative store and the tile expression it stores: cooperative
/// loads (leaves), vector.transpose, elementwise ops, splat constants and
/// broadcasts of scalars, each value used once.
struct Tree {
  StoreOp store;
  std::vector<Leaf> leaves;
  /// The ops between the leaves and the store, operands before users.
  SmallVector<Operation *> ops;
  DenseMap<Value, unsigned> leafOf;
};

/// Emits `for iter in [0, iterations)` around `body(iter)`.
void forEachIteration(OpBuilder &b, Location loc, int64_t iterations,
                      function_ref<void(OpBuilder &, Value)> body) {
  if (iterations == 1) {
    body(b, cst(b, loc, 0));
    return;
  }
  auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0),
                                 cst(b, loc, iterations), cst(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(b, loop.getInductionVar());
}

/// Whether `op` computes each element of its result from the same element
/// of its vector operands only.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() && isPure(op) &&
         op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return isa<VectorType>(t); });
}

/// Emits `body(inside = true)` when `inside` holds and `body(false)`
/// otherwise, as an scf.if on the block-uniform condition (a whole tile in
/// bounds and aligned runs unguarded vector accesses, which the compiler
/// can issue back to back), or `body(true)` alone when `inside` is null
/// (always true).
void ifInside(OpBuilder &b, Location loc, Value inside,
              function_ref<void(OpBuilder &, bool)> body) {
  if (!inside) {
    body(b, true);
    return;
  }
  scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &tb, Location) {
        body(tb, true);
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &fb, Location) {
        body(fb, false);
        scf::YieldOp::create(fb, loc);
      });
}

/// The conjunction of the non-null `conds` (null if none).
Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> conds) {
  Value r;
  for (Value c : conds)
    if (c)
      r = r ? arith::AndIOp::create(b, loc, r, c).getResult() : c;
  return r;
}

struct LayoutTileSharedMemoryPass final
    : layout::impl::LayoutTileSharedMemoryBase<LayoutTileSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (failed(runOnFunc(func)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult runOnFunc(gpu::GPUFuncOp func) {
    std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
    if (!known || !func.isKernel())
      return success();
    SmallVector<int64_t, 3> block(known->begin(), known->end());
    int64_t threads = block[0] * block[1] * block[2];
    DenseMap<Value, bool> memo;
    auto cooperative = [&](ValueRange indices) {
      return llvm::all_of(indices,
                          [&](Value i) { return isBlockUniform(i, memo); });
    };
    std::vector<Tree> trees;
    DenseSet<Operation *> matched;
    LogicalResult result = success();
    // The first store that cannot be lowered stops the walk: one
    // diagnostic per kernel, not one per store of a shared cause.
    func.walk([&](StoreOp store) {
      if (!cooperative(store.getIndices()))
        return WalkResult::advance();
      Tree t;
      t.store = store;
      if (store.getOrder()) {
        store.emitOpError()
            << "atomic cooperative tile stores are not supported";
        result = failure();
        return WalkResult::interrupt();
      }
      SmallVector<int64_t> identity = llvm::to_vector(
          llvm::seq<int64_t>(0, store.getValue().getType().getRank()));
      if (failed(collect(t, store.getValue(), identity, store, cooperative))) {
        result = failure();
        return WalkResult::interrupt();
      }
      for (const Leaf &l : t.leaves)
        matched.insert(l.load);
      trees.push_back(std::move(t));
      return WalkResult::advance();
    });
    if (failed(result))
      return failure();
    func.walk([&](LoadOp load) {
      if (!cooperative(load.getIndices()) || matched.contains(load))
        return;
      load.emitOpError()
          << "cooperative tile load (its indices are the same in every "
             "thread): its value must reach a cooperative layout.store "
             "through vector.transpose, elementwise ops, splat constants "
             "and broadcasts";
      result = failure();
    });
    if (failed(result))
      return failure();
    for (Tree &t : trees)
      if (failed(lower(func, t, block, threads)))
        return failure();
    return success();
  }

  /// Adds the expression of `v` (store dimension k is v's dimension
  /// perm[k]) to `t`.
  LogicalResult collect(Tree &t, Value v, ArrayRef<int64_t> perm,
                        Operation *user,
                        function_ref<bool(ValueRange)> cooperative) {
    Operation *def = v.getDefiningOp();
    if (!def || !v.hasOneUse())
      return user->emitOpError()
             << "cooperative tile store: each tile value it stores must be "
                "computed in the kernel and used once";
    if (def->getBlock() != t.store->getBlock())
      return t.store.emitOpError()
             << "cooperative tile store must be in the block of the loads "
                "and ops that compute its value";
    if (auto load = dyn_cast<LoadOp>(def)) {
      if (!cooperative(load.getIndices()))
        return load.emitOpError()
               << "per-thread tile load (its indices depend on the thread) "
                  "feeds a cooperative tile store";
      if (load.getOrder())
        return load.emitOpError()
               << "atomic cooperative tile loads are not supported";
      Leaf leaf;
      leaf.load = load;
      leaf.perm.assign(perm.begin(), perm.end());
      leaf.side = GlobalSide{load,
                             load.getPartition(),
                             llvm::to_vector(load.getIndices()),
                             load.getMasked(),
                             load.getPadding(),
                             load.getPartition().getType().getTile(),
                             load.getType().getElementType()};
      t.leafOf[v] = t.leaves.size();
      t.leaves.push_back(std::move(leaf));
      return success();
    }
    if (auto tr = dyn_cast<vector::TransposeOp>(def)) {
      SmallVector<int64_t> next;
      for (int64_t k : perm)
        next.push_back(tr.getPermutation()[k]);
      if (failed(collect(t, tr.getVector(), next, def, cooperative)))
        return failure();
    } else if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense || !dense.isSplat())
        return def->emitOpError()
               << "in a cooperative tile copy: only splat constants are "
                  "supported";
    } else if (auto bc = dyn_cast<vector::BroadcastOp>(def)) {
      if (isa<VectorType>(bc.getSource().getType()))
        return def->emitOpError()
               << "in a cooperative tile copy: only broadcasts of scalars "
                  "are supported";
    } else if (isElementwise(def)) {
      for (Value operand : def->getOperands())
        if (failed(collect(t, operand, perm, def, cooperative)))
          return failure();
    } else {
      return def->emitOpError()
             << "in a cooperative tile copy: only vector.transpose, "
                "elementwise ops, splat constants and broadcasts of scalars "
                "may compute the stored tile from cooperative loads";
    }
    t.ops.push_back(def);
    return success();
  }

  /// The block's linear thread id, x fastest.
  Value threadId(OpBuilder &b, Location loc, ArrayRef<int64_t> block) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    int64_t stride = block[0];
    for (auto [dim, n] : {std::pair{gpu::Dimension::y, block[1]},
                          std::pair{gpu::Dimension::z, block[2]}}) {
      if (n == 1)
        continue;
      Value t = gpu::ThreadIdOp::create(b, loc, dim);
      tid = arith::AddIOp::create(
          b, loc, tid, arith::MulIOp::create(b, loc, t, cst(b, loc, stride)));
      stride *= n;
    }
    return tid;
  }

  /// The widest width up to `max` (halving) for which `m` with
  /// m.width[dim] = width gives every thread the same number of blocks.
  static int64_t fitWidth(Mapping &m, int64_t dim, int64_t max,
                          int64_t threads) {
    for (int64_t w = max; w >= 1; w /= 2) {
      m.width[dim] = w;
      if (m.fits(threads))
        return w;
    }
    m.width[dim] = 1;
    return 0;
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

  /// The fragment of `v` (a vector of `width` elements) at store
  /// coordinates `c` along store dimension `dim`: leaves come from
  /// `leafValue`, the other ops are cloned on fragments.
  Value fragment(OpBuilder &b, Location loc, Tree &t, Value v,
                 int64_t width,
                 function_ref<Value(unsigned)> leafValue) {
    if (auto it = t.leafOf.find(v); it != t.leafOf.end())
      return leafValue(it->second);
    Operation *def = v.getDefiningOp();
    auto type = VectorType::get(
        {width}, cast<VectorType>(v.getType()).getElementType());
    if (auto tr = dyn_cast<vector::TransposeOp>(def))
      return fragment(b, loc, t, tr.getVector(), width, leafValue);
    if (auto c = dyn_cast<arith::ConstantOp>(def))
      return arith::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(
              type, cast<DenseElementsAttr>(c.getValue()).getSplatValue<Attribute>()));
    if (auto bc = dyn_cast<vector::BroadcastOp>(def))
      return vector::BroadcastOp::create(b, loc, type, bc.getSource());
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(fragment(b, loc, t, o, width, leafValue));
    OperationState state(loc, def->getName(), operands, TypeRange{type},
                         def->getAttrs());
    return b.create(state)->getResult(0);
  }

  LogicalResult lower(gpu::GPUFuncOp func, Tree &t, ArrayRef<int64_t> block,
                      int64_t threads) {
    StoreOp store = t.store;
    GlobalSide dst{store,
                   store.getPartition(),
                   llvm::to_vector(store.getIndices()),
                   store.getMasked(),
                   std::nullopt,
                   store.getPartition().getType().getTile(),
                   store.getValue().getType().getElementType()};
    std::string why;
    if (failed(analyze(dst, assumeAlignment, why)))
      return store.emitOpError() << "cannot be distributed: " << why;
    int64_t rank = dst.tile.size();
    // Which leaves need a buffer, the widths of the direct accesses, and
    // the store dimension along the buffers' rows.
    int64_t directMax = dst.maxWidth;
    int64_t e = -1;
    int64_t bufMax = 16;
    for (Leaf &l : t.leaves) {
      if (failed(analyze(l.side, assumeAlignment, why)))
        return l.load.emitOpError() << "cannot be distributed: " << why;
      for (int64_t k = 0; k < rank; ++k)
        if (l.side.tile[l.perm[k]] != 1)
          l.bufDims.push_back(l.perm[k]);
      llvm::sort(l.bufDims);
      // Staging pays when both sides have rows to coalesce along.
      bool differ = l.perm[dst.contiguous] != l.side.contiguous;
      l.staged = differ && !l.bufDims.empty() &&
                 l.side.tile[l.side.contiguous] > 1 &&
                 dst.tile[dst.contiguous] > 1;
      if (!l.staged) {
        if (differ) {
          // The load follows the store's rows, element by element.
          l.side.contiguous = l.perm[dst.contiguous];
          l.side.unitStride = false;
        } else {
          directMax = std::min(directMax, l.side.maxWidth);
        }
        continue;
      }
      int64_t le = llvm::find(l.perm, l.bufDims.back()) - l.perm.begin();
      if (e >= 0 && le != e)
        return store.emitOpError()
               << "cooperative tile store: its staged loads are permuted "
                  "differently (not supported)";
      e = le;
      int64_t bytes = elementBytes(l.side.elementType);
      bufMax = std::min(bufMax,
                        vectorizable(l.side.elementType)
                            ? int64_t(llvm::bit_floor(uint64_t(
                                  std::max<int64_t>(1, 16 / bytes))))
                            : int64_t(1));
    }

    // The store's mapping: widths ws along its rows, and we along e for
    // the register blocks of staged leaves.
    Mapping m{llvm::to_vector(dst.tile), SmallVector<int64_t>(rank, 1),
              fastestFirst(rank, dst.contiguous, e)};
    int64_t ws = 0, we = 1;
    for (int64_t s = directMax; s >= 1 && !ws; s /= 2) {
      m.width[dst.contiguous] = s;
      if (e < 0 || e == dst.contiguous) {
        if (m.fits(threads))
          ws = s;
        continue;
      }
      for (int64_t r = std::min<int64_t>(bufMax, 64 / s); r >= 1; r /= 2) {
        m.width[e] = r;
        if (m.fits(threads)) {
          ws = s;
          we = r;
          break;
        }
      }
    }
    if (!ws)
      return divisionError(store, dst.tile, threads);

    // Phase 1, at each staged load: coalesced reads into its buffer.
    for (Leaf &l : t.leaves)
      if (l.staged && failed(stage(func, l, block, threads)))
        return failure();

    // Phase 2, at the store.
    Location loc = store.getLoc();
    OpBuilder b(store);
    bool anyStaged = e >= 0;
    bool inLoop = store->getParentOp() != func;
    if (anyStaged)
      gpu::BarrierOp::create(b, loc);
    FailureOr<GlobalAccess> out = GlobalAccess::create(b, dst, ws, why);
    if (failed(out))
      return store.emitOpError() << "cannot be distributed: " << why;
    for (Leaf &l : t.leaves) {
      if (l.staged)
        continue;
      FailureOr<GlobalAccess> in = GlobalAccess::create(b, l.side, ws, why);
      if (failed(in))
        return l.load.emitOpError() << "cannot be distributed: " << why;
      l.direct = std::move(*in);
    }
    Value tid = threadId(b, loc, block);
    auto toLeaf = [&](const Leaf &l, ArrayRef<Value> storeCoord) {
      SmallVector<Value> r(l.side.tile.size(), Value());
      for (int64_t k = 0; k < rank; ++k)
        r[l.perm[k]] = storeCoord[k];
      return r;
    };
    auto readBuffer = [&](OpBuilder &lb, const Leaf &l,
                          ArrayRef<Value> storeCoord, int64_t width) -> Value {
      Value off = OffsetOp::create(lb, loc, l.desc,
                                   l.bufCoord(toLeaf(l, storeCoord)));
      int64_t bytes = elementBytes(l.side.elementType);
      return vector::LoadOp::create(
          lb, loc, VectorType::get({width}, l.side.elementType), l.buffer,
          off, false, llvm::MaybeAlign(width * bytes));
    };
    SmallVector<Value> insides{out->tileInside(b)};
    for (Leaf &l : t.leaves)
      if (!l.staged)
        insides.push_back(l.direct->tileInside(b));
    ifInside(b, loc, allOf(b, loc, insides), [&](OpBuilder &ib, bool inside) {
    forEachIteration(ib, loc, m.blocks() / threads, [&](OpBuilder &lb,
                                                       Value iter) {
      SmallVector<Value> o = blockOrigin(lb, loc, m, tid, iter, threads);
      // Staged leaves with a register block: ws vectors of we along the
      // buffer's rows.
      SmallVector<SmallVector<Value>> rows(t.leaves.size());
      bool blocks = anyStaged && e != dst.contiguous;
      if (blocks)
        for (auto [i, l] : llvm::enumerate(t.leaves))
          if (l.staged)
            for (int64_t s = 0; s < ws; ++s)
              rows[i].push_back(readBuffer(
                  lb, l, plus(lb, loc, o, dst.contiguous, s), we));
      int64_t count = blocks ? we : 1;
      for (int64_t u = 0; u < count; ++u) {
        SmallVector<Value> c = u ? plus(lb, loc, o, e, u) : o;
        Value v = fragment(lb, loc, t, store.getValue(), ws,
                           [&](unsigned i) -> Value {
                             Leaf &l = t.leaves[i];
                             if (!l.staged)
                               return l.direct->load(lb, toLeaf(l, c), inside);
                             if (!blocks)
                               return readBuffer(lb, l, c, ws);
                             SmallVector<Value> elems;
                             for (int64_t s = 0; s < ws; ++s)
                               elems.push_back(vector::ExtractOp::create(
                                   lb, loc, rows[i][s], u));
                             return vector::FromElementsOp::create(
                                 lb, loc,
                                 VectorType::get({ws}, l.side.elementType),
                                 elems);
                           });
        out->store(lb, v, c, inside);
      }
    });
    });
    if (anyStaged && inLoop)
      gpu::BarrierOp::create(b, loc);
    store.erase();
    for (Operation *op : llvm::reverse(t.ops))
      op->erase();
    for (Leaf &l : t.leaves)
      l.load.erase();
    return success();
  }

  /// Phase 1 of a staged leaf, at its load: a workgroup buffer over the
  /// load's tile (unit dimensions dropped), written with coalesced vectors.
  LogicalResult stage(gpu::GPUFuncOp func, Leaf &l, ArrayRef<int64_t> block,
                      int64_t threads) {
    GlobalSide &src = l.side;
    int64_t rank = src.tile.size();
    Type et = src.elementType;
    Mapping m{llvm::to_vector(src.tile), SmallVector<int64_t>(rank, 1),
              fastestFirst(rank, src.contiguous)};
    int64_t w = fitWidth(m, src.contiguous, src.maxWidth, threads);
    if (!w)
      return divisionError(l.load, src.tile, threads);
    Location loc = l.load.getLoc();
    MLIRContext *ctx = func.getContext();
    SmallVector<int64_t> shape;
    int64_t size = 1;
    for (int64_t k : l.bufDims) {
      shape.push_back(src.tile[k]);
      size *= src.tile[k];
    }
    auto bufType = MemRefType::get(
        {size}, et, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    l.buffer = func.addWorkgroupAttribution(bufType, loc);

    OpBuilder b(l.load);
    std::string why;
    FailureOr<GlobalAccess> in = GlobalAccess::create(b, src, w, why);
    if (failed(in))
      return l.load.emitOpError() << "cannot be distributed: " << why;
    if (l.load->getParentOp() != func)
      gpu::BarrierOp::create(b, loc);
    l.desc = PackedOp::create(b, loc, DescType::get(ctx, shape),
                              b.getDenseI64ArrayAttr(shape));
    int64_t bytes = elementBytes(et);
    Value tid = threadId(b, loc, block);
    ifInside(b, loc, in->tileInside(b), [&](OpBuilder &ib, bool inside) {
    forEachIteration(ib, loc, m.blocks() / threads, [&](OpBuilder &lb,
                                                       Value iter) {
      SmallVector<Value> o = blockOrigin(lb, loc, m, tid, iter, threads);
      Value v = in->load(lb, o, inside);
      if (src.contiguous == l.bufDims.back()) {
        Value off = OffsetOp::create(lb, loc, l.desc, l.bufCoord(o));
        vector::StoreOp::create(lb, loc, v, l.buffer, off, false,
                                llvm::MaybeAlign(w * bytes));
        return;
      }
      for (int64_t i = 0; i < w; ++i) {
        Value off = OffsetOp::create(
            lb, loc, l.desc, l.bufCoord(plus(lb, loc, o, src.contiguous, i)));
        memref::StoreOp::create(lb, loc,
                                vector::ExtractOp::create(lb, loc, v, i),
                                l.buffer, off);
      }
    });
    });
    return success();
  }
};

} // namespace
