//===- TileSharedMemory.cpp - Cooperative tiles, staged through LDS -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Inside a kernel whose block size is known, a `layout.load` / `layout.store`
// whose tile indices are the same in every thread of the block moves the
// tile cooperatively: the tile is a block-level value, and each thread moves
// its part of it.
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
// tile access from its descriptor.
//
// Staging. When the tile reaches its store through vector.transpose ops
// (a permutation) and the load's fastest dimension is not the store's,
// the two mappings differ: the tile goes through a workgroup buffer whose
// layout is a `layout.packed` descriptor over the tile (its unit dimensions
// dropped): coalesced global reads write it, `gpu.barrier`, then each
// thread reads a block of `width` vectors along the buffer's contiguous
// dimension, transposes it in registers and writes vectors along the
// store's contiguous dimension. -layout-xor-swizzle then picks the buffer's
// layout.
//
// Edges: a masked access whose vector is not entirely inside the view (or
// whose alignment fails at run time) moves its elements one by one, each
// guarded, with the padding value for the elements outside.
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

bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

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
  /// The dimension of unit stride (else the last one, unvectorized).
  int64_t contiguous = 0;
  /// The widest vector the view's static layout allows along it.
  int64_t maxWidth = 1;
};

int64_t elementBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

/// Fills `contiguous` and `maxWidth` from the view's static strides and
/// offset (dynamic ones are checked at run time).
LogicalResult analyze(GlobalSide &side, int64_t alignBytes,
                      std::string &why) {
  llvm::Expected<PartitionOp> part = tracePartition(side.partition);
  if (!part) {
    why = llvm::toString(part.takeError());
    return failure();
  }
  llvm::Expected<ViewOp> view = traceView(part->getView());
  if (!view) {
    why = llvm::toString(view.takeError());
    return failure();
  }
  int64_t rank = side.tile.size();
  side.contiguous = rank - 1;
  side.maxWidth = 1;
  // Views through descriptors move element by element (the descriptor
  // decides every offset); memref views vectorize.
  if (view->getDesc())
    return success();
  auto type = cast<MemRefType>(view->getSource().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return success();
  auto unit = llvm::find(strides, 1);
  if (unit == strides.end())
    return success();
  side.contiguous = unit - strides.begin();
  int64_t bytes = elementBytes(side.elementType);
  int64_t w = std::max<int64_t>(1, std::min<int64_t>(16, alignBytes) / bytes);
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
  std::pair<Path, Value> path(OpBuilder &b, ValueRange c) const {
    if (width == 1 || !access.strided)
      return {Path::Elements, Value()};
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
  Value load(OpBuilder &b, ValueRange tileCoord) const {
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
    auto [p, f] = path(b, c);
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
  void store(OpBuilder &b, Value v, ValueRange tileCoord) const {
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
    auto [p, f] = path(b, c);
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

/// A cooperative copy: a load, the vector.transpose ops on its value, the
/// store of the result.
struct Copy {
  LoadOp load;
  SmallVector<vector::TransposeOp> transposes;
  StoreOp store;
  /// Store dimension k is load dimension perm[k].
  SmallVector<int64_t> perm;
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
    auto cooperative = [&](Operation *op, ValueRange indices) {
      return llvm::all_of(indices,
                          [&](Value i) { return isBlockUniform(i, memo); });
    };
    SmallVector<Copy> copies;
    LogicalResult result = success();
    func.walk([&](LoadOp load) {
      if (!cooperative(load, load.getIndices()))
        return;
      FailureOr<Copy> c = matchCopy(load);
      if (failed(c)) {
        result = failure();
        return;
      }
      copies.push_back(*c);
    });
    // A load that failed to match has reported its store's problem too.
    if (failed(result))
      return failure();
    func.walk([&](StoreOp store) {
      if (!cooperative(store, store.getIndices()))
        return;
      if (llvm::any_of(copies, [&](const Copy &c) { return c.store == store; }))
        return;
      store.emitOpError()
          << "cooperative tile store (its indices are the same in every "
             "thread): its value must come from a cooperative layout.load "
             "through vector.transpose ops only";
      result = failure();
    });
    if (failed(result))
      return failure();
    for (Copy &c : copies)
      if (failed(lower(func, c, block, threads)))
        return failure();
    return success();
  }

  FailureOr<Copy> matchCopy(LoadOp load) {
    Copy c;
    c.load = load;
    if (load.getOrder()) {
      load.emitOpError() << "atomic cooperative tile loads are not supported";
      return failure();
    }
    int64_t rank = load.getType().getRank();
    c.perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    Value v = load.getResult();
    while (true) {
      if (!v.hasOneUse()) {
        load.emitOpError()
            << "cooperative tile load (its indices are the same in every "
               "thread): its value must have one use, a layout.store or a "
               "vector.transpose";
        return failure();
      }
      Operation *user = *v.getUsers().begin();
      if (auto t = dyn_cast<vector::TransposeOp>(user)) {
        SmallVector<int64_t> next;
        for (int64_t k : t.getPermutation())
          next.push_back(c.perm[k]);
        c.perm = next;
        c.transposes.push_back(t);
        v = t.getResult();
        continue;
      }
      auto store = dyn_cast<StoreOp>(user);
      if (!store || store.getValue() != v) {
        load.emitOpError()
            << "cooperative tile load: its value reaches '"
            << user->getName()
            << "'; only vector.transpose and layout.store are supported";
        return failure();
      }
      if (store->getBlock() != load->getBlock()) {
        store.emitOpError()
            << "cooperative tile store must be in the block of its load";
        return failure();
      }
      if (store.getOrder()) {
        store.emitOpError()
            << "atomic cooperative tile stores are not supported";
        return failure();
      }
      c.store = store;
      return c;
    }
  }

  LogicalResult lower(gpu::GPUFuncOp func, Copy &c,
                      ArrayRef<int64_t> block, int64_t threads) {
    GlobalSide src{c.load,
                   c.load.getPartition(),
                   llvm::to_vector(c.load.getIndices()),
                   c.load.getMasked(),
                   c.load.getPadding(),
                   c.load.getPartition().getType().getTile(),
                   c.load.getType().getElementType()};
    GlobalSide dst{c.store,
                   c.store.getPartition(),
                   llvm::to_vector(c.store.getIndices()),
                   c.store.getMasked(),
                   std::nullopt,
                   c.store.getPartition().getType().getTile(),
                   c.store.getValue().getType().getElementType()};
    std::string why;
    if (failed(analyze(src, assumeAlignment, why))) {
      c.load.emitOpError() << "cannot be distributed: " << why;
      return failure();
    }
    if (failed(analyze(dst, assumeAlignment, why))) {
      c.store.emitOpError() << "cannot be distributed: " << why;
      return failure();
    }
    int64_t rank = src.tile.size();
    if (c.perm[dst.contiguous] == src.contiguous)
      return lowerDirect(c, src, dst, block, threads);
    return lowerStaged(func, c, src, dst, block, threads, rank);
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

  /// Load and store agree on the fastest dimension: each thread moves its
  /// vectors straight from the source to the destination.
  LogicalResult lowerDirect(Copy &c, GlobalSide &src, GlobalSide &dst,
                            ArrayRef<int64_t> block, int64_t threads) {
    int64_t rank = dst.tile.size();
    Mapping m{llvm::to_vector(dst.tile), SmallVector<int64_t>(rank, 1),
              fastestFirst(rank, dst.contiguous)};
    int64_t w = fitWidth(m, dst.contiguous,
                         std::min(src.maxWidth, dst.maxWidth), threads);
    if (!w)
      return divisionError(c.store, dst.tile, threads);
    OpBuilder b(c.store);
    Location loc = c.store.getLoc();
    std::string why;
    FailureOr<GlobalAccess> in = GlobalAccess::create(b, src, w, why);
    FailureOr<GlobalAccess> out = GlobalAccess::create(b, dst, w, why);
    if (failed(in) || failed(out))
      return c.store.emitOpError() << "cannot be distributed: " << why;
    Value tid = threadId(b, loc, block);
    forEachIteration(b, loc, m.blocks() / threads,
                     [&](OpBuilder &lb, Value iter) {
                       SmallVector<Value> o =
                           blockOrigin(lb, loc, m, tid, iter, threads);
                       SmallVector<Value> lo(rank);
                       for (int64_t k = 0; k < rank; ++k)
                         lo[c.perm[k]] = o[k];
                       out->store(lb, in->load(lb, lo), o);
                     });
    erase(c);
    return success();
  }

  /// Load and store want different fastest dimensions: stage the tile in
  /// a workgroup buffer.
  LogicalResult lowerStaged(gpu::GPUFuncOp func, Copy &c, GlobalSide &src,
                            GlobalSide &dst, ArrayRef<int64_t> block,
                            int64_t threads, int64_t rank) {
    Type et = src.elementType;
    int64_t bytes = elementBytes(et);
    int64_t maxVec = std::max<int64_t>(1, 16 / bytes);
    // The buffer: a packed descriptor over the tile's non-unit dimensions.
    SmallVector<int64_t> bufDims, bufShape;
    for (int64_t k = 0; k < rank; ++k)
      if (src.tile[k] != 1) {
        bufDims.push_back(k);
        bufShape.push_back(src.tile[k]);
      }
    if (bufDims.empty())
      return lowerDirect(c, src, dst, block, threads);
    int64_t bufLast = bufDims.back();

    // Phase 1: the load's mapping (load coordinates).
    Mapping m1{llvm::to_vector(src.tile), SmallVector<int64_t>(rank, 1),
               fastestFirst(rank, src.contiguous)};
    int64_t w1 = fitWidth(m1, src.contiguous, src.maxWidth, threads);
    if (!w1)
      return divisionError(c.load, src.tile, threads);
    // Phase 2: the store's mapping (store coordinates); e is the store
    // dimension along the buffer's contiguous one.
    int64_t e = llvm::find(c.perm, bufLast) - c.perm.begin();
    Mapping m2{llvm::to_vector(dst.tile), SmallVector<int64_t>(rank, 1),
               fastestFirst(rank, dst.contiguous, e)};
    int64_t ws = 0, we = 1;
    for (int64_t s = dst.maxWidth; s >= 1 && !ws; s /= 2) {
      m2.width[dst.contiguous] = s;
      if (e == dst.contiguous) {
        if (m2.fits(threads))
          ws = s;
        continue;
      }
      for (int64_t r = std::min<int64_t>(maxVec, 64 / s); r >= 1; r /= 2) {
        m2.width[e] = r;
        if (m2.fits(threads)) {
          ws = s;
          we = r;
          break;
        }
      }
    }
    if (!ws)
      return divisionError(c.store, dst.tile, threads);

    Location loc = c.load.getLoc();
    MLIRContext *ctx = func.getContext();
    int64_t size = 1;
    for (int64_t s : bufShape)
      size *= s;
    auto bufType = MemRefType::get(
        {size}, et, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value buf = func.addWorkgroupAttribution(bufType, loc);
    auto bufCoord = [&](ArrayRef<Value> loadCoord) {
      SmallVector<Value> r;
      for (int64_t k : bufDims)
        r.push_back(loadCoord[k]);
      return r;
    };

    OpBuilder b(c.load);
    std::string why;
    FailureOr<GlobalAccess> in = GlobalAccess::create(b, src, w1, why);
    if (failed(in))
      return c.load.emitOpError() << "cannot be distributed: " << why;
    bool inLoop = c.load->getParentOp() != func;
    if (inLoop)
      gpu::BarrierOp::create(b, loc);
    auto desc = PackedOp::create(
        b, loc, DescType::get(ctx, bufShape),
        b.getDenseI64ArrayAttr(bufShape));
    Value tid = threadId(b, loc, block);
    int64_t align1 = w1 * bytes;
    forEachIteration(b, loc, m1.blocks() / threads, [&](OpBuilder &lb,
                                                        Value iter) {
      SmallVector<Value> o = blockOrigin(lb, loc, m1, tid, iter, threads);
      Value v = in->load(lb, o);
      if (src.contiguous == bufLast) {
        Value off = OffsetOp::create(lb, loc, desc, bufCoord(o));
        vector::StoreOp::create(lb, loc, v, buf, off, false,
                                llvm::MaybeAlign(align1));
        return;
      }
      for (int64_t i = 0; i < w1; ++i) {
        Value off = OffsetOp::create(
            lb, loc, desc, bufCoord(plus(lb, loc, o, src.contiguous, i)));
        memref::StoreOp::create(lb, loc,
                                vector::ExtractOp::create(lb, loc, v, i), buf,
                                off);
      }
    });

    Location sloc = c.store.getLoc();
    b.setInsertionPoint(c.store);
    gpu::BarrierOp::create(b, sloc);
    FailureOr<GlobalAccess> out = GlobalAccess::create(b, dst, ws, why);
    if (failed(out))
      return c.store.emitOpError() << "cannot be distributed: " << why;
    Value tid2 = threadId(b, sloc, block);
    auto toLoad = [&](ArrayRef<Value> storeCoord) {
      SmallVector<Value> r(rank);
      for (int64_t k = 0; k < rank; ++k)
        r[c.perm[k]] = storeCoord[k];
      return r;
    };
    auto readVector = [&](OpBuilder &lb, ArrayRef<Value> storeCoord,
                          int64_t width) -> Value {
      Value off = OffsetOp::create(lb, sloc, desc, bufCoord(toLoad(storeCoord)));
      return vector::LoadOp::create(lb, sloc, VectorType::get({width}, et),
                                    buf, off, false,
                                    llvm::MaybeAlign(width * bytes));
    };
    forEachIteration(b, sloc, m2.blocks() / threads, [&](OpBuilder &lb,
                                                         Value iter) {
      SmallVector<Value> o = blockOrigin(lb, sloc, m2, tid2, iter, threads);
      if (e == dst.contiguous) {
        out->store(lb, readVector(lb, o, ws), o);
        return;
      }
      // ws vectors of we along the buffer, transposed in registers into we
      // vectors of ws along the destination.
      SmallVector<Value> rows;
      for (int64_t s = 0; s < ws; ++s)
        rows.push_back(readVector(lb, plus(lb, sloc, o, dst.contiguous, s), we));
      for (int64_t r = 0; r < we; ++r) {
        SmallVector<Value> elems;
        for (int64_t s = 0; s < ws; ++s)
          elems.push_back(vector::ExtractOp::create(lb, sloc, rows[s], r));
        Value v = vector::FromElementsOp::create(
            lb, sloc, VectorType::get({ws}, et), elems);
        out->store(lb, v, plus(lb, sloc, o, e, r));
      }
    });
    if (inLoop)
      gpu::BarrierOp::create(b, sloc);
    erase(c);
    return success();
  }

  void erase(Copy &c) {
    c.store.erase();
    for (vector::TransposeOp t : llvm::reverse(c.transposes))
      t.erase();
    c.load.erase();
  }
};

} // namespace
