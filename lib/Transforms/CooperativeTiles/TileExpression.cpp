//===- TileExpression.cpp - The expression a cooperative store stores -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "TileExpression.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <set>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

SmallVector<Value> Leaf::bufCoord(ArrayRef<Value> loadCoord,
                                  Value stage) const {
  assert((stage || stages == 1) && "a stage for a buffer of stages");
  SmallVector<Value> r;
  if (stages > 1)
    r.push_back(stage);
  for (int64_t k : bufDims)
    r.push_back(loadCoord[k]);
  return r;
}

int64_t Leaf::stageElements() const {
  int64_t n = 1;
  for (int64_t k : bufDims)
    n *= side.tile[k];
  return n;
}

SmallVector<Value> Leaf::fromStore(OpBuilder &b, Location loc,
                                   ArrayRef<Value> storeCoord) const {
  SmallVector<Value> r(side.tile.size(), Value());
  for (auto [k, c] : llvm::enumerate(storeCoord))
    if (perm[k] >= 0)
      r[perm[k]] = c;
  // Dimensions the store broadcasts (unit ones): coordinate 0.
  for (Value &c : r)
    if (!c)
      c = indexConstant(b, loc, 0);
  return r;
}

SmallVector<int64_t> tiles::throughTileOp(Operation *op,
                                          ArrayRef<int64_t> perm) {
  SmallVector<int64_t> next;
  if (auto transpose = dyn_cast<vector::TransposeOp>(op)) {
    for (int64_t p : perm)
      next.push_back(p < 0 ? -1 : transpose.getPermutation()[p]);
    return next;
  }
  if (auto shapeCast = dyn_cast<vector::ShapeCastOp>(op)) {
    // Unit dimensions added or dropped: the non-unit dimensions match in
    // order (isUnitShapeCast); a result unit dimension has none.
    ArrayRef<int64_t> from = shapeCast.getSourceVectorType().getShape();
    ArrayRef<int64_t> to = shapeCast.getResultVectorType().getShape();
    SmallVector<int64_t> sourceOf(to.size(), -1);
    int64_t j = 0;
    for (auto [i, n] : llvm::enumerate(to)) {
      if (n == 1)
        continue;
      while (from[j] == 1)
        ++j;
      sourceOf[i] = j++;
    }
    for (int64_t p : perm)
      next.push_back(p < 0 ? -1 : sourceOf[p]);
    return next;
  }
  auto broadcast = cast<vector::BroadcastOp>(op);
  auto source = cast<VectorType>(broadcast.getSourceType());
  VectorType result = broadcast.getResultVectorType();
  // Source dimension j is result dimension j + lead, unless stretched.
  int64_t lead = result.getRank() - source.getRank();
  for (int64_t p : perm) {
    int64_t j = p - lead;
    bool none = p < 0 || j < 0 ||
                (source.getDimSize(j) == 1 && result.getDimSize(p) != 1);
    next.push_back(none ? -1 : j);
  }
  return next;
}

bool tiles::isUnitShapeCast(Operation *op) {
  auto shapeCast = dyn_cast<vector::ShapeCastOp>(op);
  if (!shapeCast)
    return false;
  auto nonUnit = [](ArrayRef<int64_t> shape) {
    return llvm::to_vector(
        llvm::make_filter_range(shape, [](int64_t n) { return n != 1; }));
  };
  return nonUnit(shapeCast.getSourceVectorType().getShape()) ==
         nonUnit(shapeCast.getResultVectorType().getShape());
}

bool tiles::movesTile(Operation *op) {
  return isa<vector::TransposeOp>(op) || isTileBroadcast(op) ||
         isUnitShapeCast(op);
}

bool tiles::isTileBroadcast(Operation *op) {
  auto broadcast = dyn_cast<vector::BroadcastOp>(op);
  return broadcast && isa<VectorType>(broadcast.getSourceType());
}

std::optional<unsigned> TileTree::leafAt(Value v,
                                         ArrayRef<int64_t> perm) const {
  if (auto it = leafOf.find(v); it != leafOf.end())
    return it->second;
  for (auto [i, leaf] : llvm::enumerate(leaves))
    if (leaf.load->getResult(0) == v && ArrayRef<int64_t>(leaf.perm) == perm)
      return i;
  return std::nullopt;
}

void tiles::eraseTileTrees(ArrayRef<TileTree> trees) {
  // Stores first; then the ops and loads once their users are gone (trees
  // may share them).
  SmallVector<Operation *> dead;
  DenseSet<Operation *> seen;
  for (const TileTree &tree : trees) {
    tree.store->erase();
    for (Operation *op : tree.ops)
      if (seen.insert(op).second)
        dead.push_back(op);
    for (const Leaf &leaf : tree.leaves)
      if (seen.insert(leaf.load).second)
        dead.push_back(leaf.load);
  }
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *&op : dead)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
}

FragmentOp tiles::classifyFragmentOp(Operation *op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    return dense && dense.isSplat() ? FragmentOp::SplatConstant
                                    : FragmentOp::None;
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
    return isa<VectorType>(broadcast.getSource().getType())
               ? FragmentOp::None
               : FragmentOp::ScalarBroadcast;
  bool elementwise = op->hasTrait<OpTrait::Elementwise>() && isPure(op) &&
                     op->getNumRegions() == 0 && op->getNumResults() == 1 &&
                     llvm::all_of(op->getOperandTypes(),
                                  [](Type t) { return isa<VectorType>(t); });
  return elementwise ? FragmentOp::Elementwise : FragmentOp::None;
}

bool tiles::isSplatValue(Value v) {
  Operation *def = v.getDefiningOp();
  FragmentOp kind = def ? classifyFragmentOp(def) : FragmentOp::None;
  return kind == FragmentOp::SplatConstant ||
         kind == FragmentOp::ScalarBroadcast;
}

namespace {

/// Collects one store's expression.
class Collector {
public:
  Collector(TileTree &tree, BlockUniformity &uniform)
      : tree(tree), uniform(uniform) {}

  /// Adds the expression of `v` (store dimension k is v's dimension
  /// perm[k]) to the tree; `user` is the op that consumes `v`.
  LogicalResult collect(Value v, ArrayRef<int64_t> perm, Operation *user);

private:
  LogicalResult collectLeaf(LoadOp load, Value v, ArrayRef<int64_t> perm);

  TileTree &tree;
  BlockUniformity &uniform;
  /// The ops already collected, each with the permutation it was reached
  /// with (a value used twice is collected once per permutation).
  std::set<std::pair<Operation *, SmallVector<int64_t>>> visited;
  DenseSet<Operation *> inOps;
};

LogicalResult Collector::collect(Value v, ArrayRef<int64_t> perm,
                                 Operation *user) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return user->emitOpError()
           << "cooperative tile store: each tile value it stores must be "
              "computed in the kernel";
  if (def->getBlock() != tree.store->getBlock())
    return tree.store.emitOpError()
           << "cooperative tile store must be in the block of the loads "
              "and ops that compute its value";
  if (!visited.insert({def, SmallVector<int64_t>(perm)}).second)
    return success();
  if (auto load = dyn_cast<LoadOp>(def))
    return collectLeaf(load, v, perm);
  if (movesTile(def)) {
    if (failed(collect(def->getOperand(0), throughTileOp(def, perm), def)))
      return failure();
  } else if (isa<vector::ShapeCastOp>(def)) {
    return def->emitOpError()
           << "in a cooperative tile copy: only shape casts that add or "
              "drop unit dimensions are supported";
  } else {
    switch (classifyFragmentOp(def)) {
    case FragmentOp::Elementwise:
      for (Value operand : def->getOperands())
        if (failed(collect(operand, perm, def)))
          return failure();
      break;
    case FragmentOp::SplatConstant:
    case FragmentOp::ScalarBroadcast:
      break;
    case FragmentOp::None:
      if (isa<arith::ConstantOp>(def))
        return def->emitOpError()
               << "in a cooperative tile copy: only splat constants are "
                  "supported";
      return def->emitOpError()
             << "in a cooperative tile copy: only vector.transpose, "
                "elementwise ops, splat constants and broadcasts may compute "
                "the stored tile from cooperative loads";
    }
  }
  // Operands before users: an op reached again (another permutation) is
  // already after its operands' first visit.
  if (inOps.insert(def).second)
    tree.ops.push_back(def);
  return success();
}

LogicalResult Collector::collectLeaf(LoadOp load, Value v,
                                     ArrayRef<int64_t> perm) {
  if (!uniform.isCooperative(load))
    return load.emitOpError()
           << "per-thread tile load (its indices depend on the thread) "
              "feeds a cooperative tile store";
  if (load.getOrder())
    return load.emitOpError()
           << "atomic cooperative tile loads are not supported";
  Leaf leaf;
  leaf.load = load;
  leaf.perm.assign(perm.begin(), perm.end());
  leaf.side = GlobalSide::of(load);
  tree.leaves.push_back(std::move(leaf));
  return success();
}

} // namespace

FailureOr<std::vector<TileTree>>
tiles::collectTileTrees(gpu::GPUFuncOp func, BlockUniformity &uniform) {
  std::vector<TileTree> trees;
  DenseSet<Operation *> matched;
  LogicalResult result = success();
  // The first store that cannot be lowered stops the walk: one diagnostic
  // per kernel, not one per store of a shared cause.
  func.walk([&](StoreOp store) {
    if (!uniform.isCooperative(store))
      return WalkResult::advance();
    if (store.getOrder()) {
      store.emitOpError() << "atomic cooperative tile stores are not supported";
      result = failure();
      return WalkResult::interrupt();
    }
    TileTree tree;
    tree.store = store;
    SmallVector<int64_t> identity = llvm::to_vector(
        llvm::seq<int64_t>(0, store.getValue().getType().getRank()));
    if (failed(Collector(tree, uniform)
                   .collect(store.getValue(), identity, store))) {
      result = failure();
      return WalkResult::interrupt();
    }
    for (const Leaf &leaf : tree.leaves)
      matched.insert(leaf.load);
    trees.push_back(std::move(tree));
    return WalkResult::advance();
  });
  if (failed(result))
    return failure();
  // A tile value may be used several times, but only by the expressions
  // of cooperative stores: the pass replaces all of them. Ops that do not
  // depend on a load (splat constants, scalar broadcasts) may have other
  // users; they stay while those do.
  DenseSet<Operation *> inTrees(matched.begin(), matched.end());
  SmallVector<Operation *> tileOps;
  for (const TileTree &tree : trees) {
    inTrees.insert(tree.store);
    for (const Leaf &leaf : tree.leaves)
      tileOps.push_back(leaf.load);
  }
  DenseSet<Operation *> dependent(matched.begin(), matched.end());
  for (const TileTree &tree : trees)
    for (Operation *op : tree.ops) {
      inTrees.insert(op);
      if (llvm::any_of(
              op->getOperands(),
              [&](Value o) { return dependent.contains(o.getDefiningOp()); }) &&
          dependent.insert(op).second)
        tileOps.push_back(op);
    }
  for (Operation *op : tileOps)
    for (Operation *user : op->getUsers())
      if (!inTrees.contains(user)) {
        InFlightDiagnostic d =
            user->emitOpError()
            << "uses a cooperative tile value but computes no cooperative "
               "tile store's value: tile values may only reach layout.store "
               "through vector.transpose, elementwise ops, broadcasts, unit "
               "shape casts and reductions";
        d.attachNote(op->getLoc()) << "the tile value";
        return failure();
      }
  func.walk([&](LoadOp load) {
    if (!uniform.isCooperative(load) || matched.contains(load))
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
  return trees;
}

namespace {
/// The fragments already evaluated, by value and permutation: a value used
/// several times is evaluated (and its leaves read) once per fragment.
using FragmentCache = std::map<
    std::pair<Value, SmallVector<int64_t>>, Value,
    llvm::function_ref<bool(const std::pair<Value, SmallVector<int64_t>> &,
                            const std::pair<Value, SmallVector<int64_t>> &)>>;
} // namespace

static Value evaluateAt(OpBuilder &b, Location loc, const TileTree &tree,
                        Value v, ArrayRef<int64_t> perm, int64_t width,
                        function_ref<Value(unsigned)> leafValue,
                        FragmentCache &cache);

/// evaluateFragment of `v`, reached with permutation `perm` (store
/// dimension k is v's dimension perm[k]), once per (v, perm).
static Value evaluateOnce(OpBuilder &b, Location loc, const TileTree &tree,
                          Value v, ArrayRef<int64_t> perm, int64_t width,
                          function_ref<Value(unsigned)> leafValue,
                          FragmentCache &cache) {
  auto key = std::make_pair(v, SmallVector<int64_t>(perm));
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  Value r = evaluateAt(b, loc, tree, v, perm, width, leafValue, cache);
  cache.emplace(std::move(key), r);
  return r;
}

static Value evaluateAt(OpBuilder &b, Location loc, const TileTree &tree,
                        Value v, ArrayRef<int64_t> perm, int64_t width,
                        function_ref<Value(unsigned)> leafValue,
                        FragmentCache &cache) {
  if (std::optional<unsigned> leaf = tree.leafAt(v, perm))
    return leafValue(*leaf);
  Operation *def = v.getDefiningOp();
  auto type =
      VectorType::get({width}, cast<VectorType>(v.getType()).getElementType());
  if (movesTile(def))
    return evaluateOnce(b, loc, tree, def->getOperand(0),
                        throughTileOp(def, perm), width, leafValue, cache);
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(
            type,
            cast<DenseElementsAttr>(c.getValue()).getSplatValue<Attribute>()));
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(def))
    return vector::BroadcastOp::create(b, loc, type, broadcast.getSource());
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(
        evaluateOnce(b, loc, tree, operand, perm, width, leafValue, cache));
  OperationState state(loc, def->getName(), operands, TypeRange{type},
                       def->getAttrs());
  return b.create(state)->getResult(0);
}

Value tiles::evaluateFragment(OpBuilder &b, Location loc, const TileTree &tree,
                              Value v, int64_t width,
                              function_ref<Value(unsigned)> leafValue) {
  SmallVector<int64_t> identity = llvm::to_vector(
      llvm::seq<int64_t>(0, cast<VectorType>(v.getType()).getRank()));
  auto less = [](const std::pair<Value, SmallVector<int64_t>> &x,
                 const std::pair<Value, SmallVector<int64_t>> &y) {
    if (x.first != y.first)
      return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
    return x.second < y.second;
  };
  FragmentCache cache(less);
  return evaluateOnce(b, loc, tree, v, identity, width, leafValue, cache);
}
