//===- Reduction.cpp - Reductions of cooperative tiles --------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A `vector.multi_reduction` of a cooperative tile value (one computed from
// cooperative loads) reduces the block's tile: no thread holds a whole row.
// It is rewritten into pieces the rest of the pass already distributes,
// around one reduction step written per thread:
//
//   layout.store %source -> a workgroup buffer over the source tile
//                           (cooperative: coalesced global reads, the
//                           source expression evaluated on fragments)
//   gpu.barrier
//   per thread: `group` consecutive lanes reduce one kept coordinate, each
//               lane a strided part of its reduced elements (consecutive
//               lanes on consecutive elements); the lanes' partial results
//               go through a second buffer and are folded in levels of up
//               to 16 (a barrier between levels: a group may span several
//               waves), the last level writing the result to a buffer over
//               the kept tile
//   gpu.barrier
//   %r = layout.load of that buffer (cooperative), combined with the
//        reduction's accumulator by the kind's arith op
//
// The result then feeds cooperative stores like any tile value (row sums
// and row maxima of a tile, a transpose scaled per row). Reductions of one
// source value in one block share its buffer (softmax statistics store the
// tile once and reduce it twice), and all reductions of a kernel share the
// partial-results buffer of their element type.
//
//===----------------------------------------------------------------------===//

#include "Reduction.h"
#include "GlobalAccess.h"
#include "Staging.h"
#include "TileExpression.h"

#include "layout/Evaluator/Partition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// Whether values are cooperative tile values: cooperative loads, or ops
/// of tile expressions with such an operand (memoized: expressions share
/// values).
class TileValues {
public:
  explicit TileValues(BlockUniformity &uniform) : uniform(uniform) {}

  bool contains(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    bool tile = false;
    if (def && isa<VectorType>(v.getType())) {
      if (isa<LoadOp>(def))
        tile = uniform.isCooperative(def);
      else if (isa<vector::MultiDimReductionOp>(def) || movesTile(def) ||
               classifyFragmentOp(def) == FragmentOp::Elementwise)
        tile = llvm::any_of(def->getOperands(),
                            [&](Value o) { return contains(o); });
    }
    return memo[v] = tile;
  }

private:
  BlockUniformity &uniform;
  DenseMap<Value, bool> memo;
};

/// The digits of `x` in the mixed radix `shape` (the last fastest).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value x,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> digits(shape.size());
  for (int64_t i = shape.size() - 1; i >= 0; --i) {
    Value n = indexConstant(b, loc, shape[i]);
    digits[i] = i ? arith::RemUIOp::create(b, loc, x, n).getResult() : x;
    if (i)
      x = arith::DivUIOp::create(b, loc, x, n);
  }
  return digits;
}

/// A workgroup buffer of `shape` elements of `type`, viewed as a tile:
/// the buffer and the partition view of one tile over it.
std::pair<Value, Value> tileBuffer(gpu::GPUFuncOp func, OpBuilder &b,
                                   Location loc, ArrayRef<int64_t> shape,
                                   Type type) {
  MLIRContext *ctx = func.getContext();
  Value buffer = addAlignedWorkgroupBuffer(func, shape, type, loc);
  auto viewType = TensorViewType::get(ctx, shape, type);
  Value view = ViewOp::create(b, loc, viewType, buffer, /*desc=*/Value());
  auto partitionType = PartitionViewType::get(ctx, shape, type, shape);
  Value partition = PartitionOp::create(b, loc, partitionType, view,
                                        b.getDenseI64ArrayAttr(shape));
  return {buffer, partition};
}

/// The most partial results one lane folds per level.
constexpr int64_t kFoldFanIn = 16;

/// How one reduction is dealt to the threads: the kept and reduced parts of
/// its source, and the lanes that reduce each kept coordinate together.
struct ReductionPlan {
  /// Which source dimensions are reduced, and the shapes of the kept and
  /// reduced ones.
  SmallVector<bool> reduced;
  SmallVector<int64_t> keptShape, reducedShape;
  /// Kept coordinates and reduced elements per kept coordinate.
  int64_t kept = 0, count = 0;
  /// Lanes per kept coordinate (a power of two, at most the threads per
  /// kept coordinate and the reduced elements: a group may span waves, its
  /// partial results then folded through workgroup memory), the groups of
  /// the block, and the passes of the groups over the kept coordinates.
  int64_t group = 1, groups = 1, passes = 1;
};

ReductionPlan planReduction(vector::MultiDimReductionOp red, int64_t threads) {
  ReductionPlan p;
  ArrayRef<int64_t> shape = red.getSourceVectorType().getShape();
  p.reduced = red.getReductionMask();
  for (auto [n, r] : llvm::zip_equal(shape, p.reduced))
    (r ? p.reducedShape : p.keptShape).push_back(n);
  p.kept = ShapedType::getNumElements(p.keptShape);
  p.count = ShapedType::getNumElements(p.reducedShape);
  p.group = std::min<int64_t>({int64_t(llvm::bit_floor(uint64_t(
                                   std::max<int64_t>(1, threads / p.kept)))),
                               int64_t(llvm::bit_floor(uint64_t(p.count)))});
  p.groups = threads / p.group;
  p.passes = llvm::divideCeil(p.kept, p.groups);
  return p;
}

/// The per-thread reduction step of one reduction (see the file comment):
/// from the source buffer to the result buffer.
class ReductionStep {
public:
  ReductionStep(vector::MultiDimReductionOp red, const ReductionPlan &plan,
                Value source, Value result, Value partials)
      : plan(plan), loc(red.getLoc()), kind(red.getKind()),
        resultType(cast<VectorType>(red.getDest().getType())), source(source),
        result(result), partials(partials) {}

  /// Emits the step for thread `tid` at `b`.
  void emit(OpBuilder &b, Value tid);

private:
  /// The source element of kept coordinate `k` and reduced index `r`.
  Value element(OpBuilder &eb, Value k, Value r) const;
  /// Stores `v` at kept coordinate `k` of the result buffer (the kept
  /// tile's shape).
  void storeResult(OpBuilder &sb, Value k, Value v) const;
  void ifThen(OpBuilder &ib, Value cond,
              function_ref<void(OpBuilder &)> body) const;
  Value less(OpBuilder &cb, Value x, int64_t n) const;
  /// The lane's partial result for kept coordinate `k`: elements lane,
  /// lane + group, ...
  Value partial(OpBuilder &pb, Value k) const;
  /// One kept coordinate per thread and pass (group 1).
  void emitPerThread(OpBuilder &b) const;
  /// Groups of lanes per kept coordinate, their partial results folded.
  void emitFolded(OpBuilder &b) const;

  const ReductionPlan &plan;
  Location loc;
  vector::CombiningKind kind;
  VectorType resultType;
  Value source, result, partials;
  Value tid, lane, first;
};

Value ReductionStep::element(OpBuilder &eb, Value k, Value r) const {
  SmallVector<Value> keptDigits = delinearize(eb, loc, k, plan.keptShape);
  SmallVector<Value> reducedDigits = delinearize(eb, loc, r, plan.reducedShape);
  SmallVector<Value> coord;
  unsigned ki = 0, ri = 0;
  for (bool isReduced : plan.reduced)
    coord.push_back(isReduced ? reducedDigits[ri++] : keptDigits[ki++]);
  return memref::LoadOp::create(eb, loc, source, coord).getResult();
}

void ReductionStep::storeResult(OpBuilder &sb, Value k, Value v) const {
  SmallVector<Value> coord = delinearize(sb, loc, k, resultType.getShape());
  memref::StoreOp::create(sb, loc, v, result, coord);
}

void ReductionStep::ifThen(OpBuilder &ib, Value cond,
                           function_ref<void(OpBuilder &)> body) const {
  scf::IfOp::create(ib, loc, cond, [&](OpBuilder &tb, Location) {
    body(tb);
    scf::YieldOp::create(tb, loc);
  });
}

Value ReductionStep::less(OpBuilder &cb, Value x, int64_t n) const {
  return arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::ult, x,
                               indexConstant(cb, loc, n))
      .getResult();
}

Value ReductionStep::partial(OpBuilder &pb, Value k) const {
  int64_t group = plan.group, count = plan.count;
  Value init = element(pb, k, lane);
  int64_t steps = llvm::divideCeil(count, group);
  if (steps == 1)
    return init;
  auto loop = scf::ForOp::create(
      pb, loc, indexConstant(pb, loc, 1), indexConstant(pb, loc, steps),
      indexConstant(pb, loc, 1), ValueRange{init},
      [&](OpBuilder &lb, Location, Value j, ValueRange acc) {
        Value r = arith::AddIOp::create(
            lb, loc, lane,
            arith::MulIOp::create(lb, loc, j, indexConstant(lb, loc, group)));
        auto next = [&](OpBuilder &nb) {
          return vector::makeArithReduction(nb, loc, kind, element(nb, k, r),
                                            acc[0]);
        };
        Value v;
        if (count % group == 0) {
          v = next(lb);
        } else {
          v = scf::IfOp::create(
                  lb, loc, less(lb, r, count),
                  [&](OpBuilder &tb, Location) {
                    scf::YieldOp::create(tb, loc, next(tb));
                  },
                  [&](OpBuilder &eb, Location) {
                    scf::YieldOp::create(eb, loc, acc[0]);
                  })
                  .getResult(0);
        }
        scf::YieldOp::create(lb, loc, v);
      });
  return loop.getResult(0);
}

void ReductionStep::emitPerThread(OpBuilder &b) const {
  // A kept coordinate per thread and pass: no partial results to fold (the
  // passes as a loop, each guarded where the threads do not divide the
  // kept coordinates).
  forEachIteration(b, loc, plan.passes, [&](OpBuilder &lb, Value pass) {
    Value k = arith::AddIOp::create(
        lb, loc, tid,
        arith::MulIOp::create(lb, loc, pass,
                              indexConstant(lb, loc, plan.groups)));
    if (plan.kept % plan.groups == 0) {
      storeResult(lb, k, partial(lb, k));
      return;
    }
    ifThen(lb, less(lb, k, plan.kept),
           [&](OpBuilder &tb) { storeResult(tb, k, partial(tb, k)); });
  });
}

void ReductionStep::emitFolded(OpBuilder &b) const {
  // group > 1 means threads / kept >= 2 lanes per coordinate: one pass;
  // partial results through `partials`, folded in levels: at stride s,
  // lanes at multiples of s * fan fold `fan` partial results s apart,
  // until the group's first lane holds the result.
  int64_t group = plan.group;
  Value k = first;
  Value active = plan.kept % plan.groups == 0 ? Value() : less(b, k, plan.kept);
  auto guarded = [&](OpBuilder &gb, Value cond,
                     function_ref<void(OpBuilder &)> body) {
    if (cond)
      ifThen(gb, cond, body);
    else
      body(gb);
  };
  guarded(b, active, [&](OpBuilder &tb) {
    memref::StoreOp::create(tb, loc, partial(tb, k), partials, tid);
  });
  for (int64_t stride = 1; stride < group;) {
    int64_t fan = std::min(kFoldFanIn, group / stride);
    bool last = stride * fan == group;
    gpu::BarrierOp::create(b, loc);
    Value rem = arith::RemUIOp::create(b, loc, lane,
                                       indexConstant(b, loc, stride * fan));
    Value folds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                        indexConstant(b, loc, 0));
    if (active)
      folds = arith::AndIOp::create(b, loc, folds, active);
    ifThen(b, folds, [&](OpBuilder &tb) {
      Value v = memref::LoadOp::create(tb, loc, partials, tid);
      for (int64_t i = 1; i < fan; ++i) {
        Value at = arith::AddIOp::create(tb, loc, tid,
                                         indexConstant(tb, loc, i * stride));
        Value other = memref::LoadOp::create(tb, loc, partials, at);
        v = vector::makeArithReduction(tb, loc, kind, other, v);
      }
      if (last)
        storeResult(tb, k, v);
      else
        memref::StoreOp::create(tb, loc, v, partials, tid);
    });
    stride *= fan;
  }
}

void ReductionStep::emit(OpBuilder &b, Value threadId) {
  int64_t group = plan.group;
  tid = threadId;
  lane = group > 1
             ? arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, group))
                   .getResult()
             : indexConstant(b, loc, 0);
  first = group > 1 ? arith::DivUIOp::create(b, loc, tid,
                                             indexConstant(b, loc, group))
                          .getResult()
                    : tid;
  if (group == 1)
    emitPerThread(b);
  else
    emitFolded(b);
}

/// The remark of `red`'s reduction step by `plan` (remarkAccess): the
/// threads' reads of the source tile staged in workgroup memory. Its global
/// loads and the result's stores are the copies' (Distribute.cpp).
void remarkReduction(vector::MultiDimReductionOp red, const ReductionPlan &plan,
                     int64_t threads, bool diagnostic) {
  VectorType type = red.getSourceVectorType();
  AccessChoice c;
  c.tile.assign(type.getShape().begin(), type.getShape().end());
  c.elementType = type.getElementType();
  c.threads = threads;
  // The fastest reduced dimension: consecutive lanes read along it.
  for (auto [k, r] : llvm::enumerate(plan.reduced))
    if (r)
      c.contiguous = k;
  int64_t steps = llvm::divideCeil(plan.count, plan.group);
  c.elementsPerThread = plan.passes * steps;
  c.iterations = plan.passes;
  std::string staged = "reduction (reads of its source, staged in workgroup "
                       "memory: ";
  if (plan.group > 1) {
    c.role = staged + llvm::formatv("{0} consecutive lanes per kept "
                                    "coordinate, each on every {0}-th reduced "
                                    "element, the partial results folded in "
                                    "levels of up to {1})",
                                    plan.group, kFoldFanIn)
                          .str();
    c.narrowWhy = "each lane reads one element at a time, consecutive lanes "
                  "on consecutive elements of a kept coordinate";
  } else {
    c.role = staged + "one lane per kept coordinate, on all its reduced "
                      "elements)";
    c.narrowWhy = "each lane reads one element at a time, of its own kept "
                  "coordinate";
  }
  c.arrangement = llvm::formatv(
      "; {0} kept coordinate{1} for {2} group{3} of lanes, {4} {5}", plan.kept,
      plan.kept == 1 ? "" : "s", plan.groups, plan.groups == 1 ? "" : "s",
      plan.passes, plan.passes == 1 ? "pass" : "passes");
  remarkAccess(red, c, diagnostic);
}

class ReductionLowering {
public:
  ReductionLowering(gpu::GPUFuncOp func, ArrayRef<int64_t> block, bool remarks)
      : func(func), block(block), threads(block[0] * block[1] * block[2]),
        remarks(remarks) {}

  LogicalResult lower(vector::MultiDimReductionOp red);

private:
  /// A diagnostic at a reduction that cannot be lowered: a scalar result,
  /// elements that are not whole bytes, a source over the tile limit.
  LogicalResult check(vector::MultiDimReductionOp red);
  /// The source tile of `red` in a workgroup buffer: the buffer stored by
  /// an earlier reduction of the same value in the same block, else a new
  /// one, stored cooperatively here.
  Value sourceBuffer(OpBuilder &b, vector::MultiDimReductionOp red);

  gpu::GPUFuncOp func;
  ArrayRef<int64_t> block;
  int64_t threads;
  bool remarks;
  /// Source values already stored, per block.
  DenseMap<std::pair<Value, Block *>, Value> stored;
  /// The partial-results buffer of each element type.
  DenseMap<Type, Value> partialBuffers;
};

Value ReductionLowering::sourceBuffer(OpBuilder &b,
                                      vector::MultiDimReductionOp red) {
  Value src = red.getSource();
  auto key = std::make_pair(src, red->getBlock());
  if (Value buffer = stored.lookup(key))
    return buffer;
  Location loc = red.getLoc();
  VectorType type = red.getSourceVectorType();
  auto [source, sourceTile] =
      tileBuffer(func, b, loc, type.getShape(), type.getElementType());
  // In a loop, every thread must have read the previous iteration's tile.
  if (red->getParentOp() != func)
    gpu::BarrierOp::create(b, loc);
  SmallVector<Value> zeros(type.getRank(), indexConstant(b, loc, 0));
  StoreOp::create(b, loc, src, sourceTile, zeros,
                  /*masked=*/UnitAttr(), /*order=*/nullptr, /*scope=*/nullptr);
  gpu::BarrierOp::create(b, loc);
  stored[key] = source;
  return source;
}

LogicalResult ReductionLowering::check(vector::MultiDimReductionOp red) {
  auto resultType = dyn_cast<VectorType>(red.getDest().getType());
  if (!resultType)
    return red.emitOpError()
           << "reduces every dimension of a cooperative tile to a scalar: "
              "keep a unit dimension (reduce to vector<1x...>) to store it "
              "as a tile";
  VectorType sourceType = red.getSourceVectorType();
  Type et = sourceType.getElementType();
  if (!vectorizable(et))
    return red.emitOpError() << "reduction of a cooperative tile of " << et
                             << ": elements must be whole bytes";
  ArrayRef<int64_t> shape = sourceType.getShape();
  // The source becomes a tile of a workgroup buffer: the tile limit holds
  // (a broadcast may make a larger source than any load).
  if (llvm::Error e = checkPartitionTile(shape.size(), shape)) {
    std::string message = llvm::toString(std::move(e));
    return red.emitOpError()
           << "reduction of a cooperative tile: its source " << message;
  }
  return success();
}

LogicalResult ReductionLowering::lower(vector::MultiDimReductionOp red) {
  if (failed(check(red)))
    return failure();
  auto resultType = cast<VectorType>(red.getDest().getType());
  Type et = red.getSourceVectorType().getElementType();
  ReductionPlan plan = planReduction(red, threads);
  remarkReduction(red, plan, threads, remarks);
  Location loc = red.getLoc();
  OpBuilder b(red);
  Value source = sourceBuffer(b, red);
  auto [result, resultTile] =
      tileBuffer(func, b, loc, resultType.getShape(), et);
  Value partials;
  if (plan.group > 1) {
    Value &shared = partialBuffers[et];
    if (!shared)
      shared = addAlignedWorkgroupBuffer(func, {threads}, et, loc);
    partials = shared;
  }
  Value tid = linearThreadId(b, loc, block);
  ReductionStep(red, plan, source, result, partials).emit(b, tid);
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> resultZeros(resultType.getRank(),
                                 indexConstant(b, loc, 0));
  Value reducedTile =
      LoadOp::create(b, loc, resultType, resultTile, resultZeros,
                     /*masked=*/UnitAttr(), /*padding=*/nullptr,
                     /*order=*/nullptr, /*scope=*/nullptr);
  Value combined = vector::makeArithReduction(b, loc, red.getKind(),
                                              reducedTile, red.getAcc());
  red.getDest().replaceAllUsesWith(combined);
  red.erase();
  // The combination may fold away the reduced value (x & 0).
  if (reducedTile.use_empty())
    reducedTile.getDefiningOp()->erase();
  return success();
}

} // namespace

LogicalResult
tiles::lowerTileReductions(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                           BlockUniformity &uniform,
                           const CooperativeTileOptions &options) {
  SmallVector<vector::MultiDimReductionOp> reductions;
  TileValues tileValues(uniform);
  func.walk([&](vector::MultiDimReductionOp red) {
    if (tileValues.contains(red.getSource()))
      reductions.push_back(red);
  });
  ReductionLowering lowering(func, block, options.remarks);
  for (vector::MultiDimReductionOp red : reductions)
    if (failed(lowering.lower(red)))
      return failure();
  return success();
}
