//===- Contraction.cpp - Tile contractions onto matrix instructions -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The recognition of tile contractions (Contraction.h: the loop, the
// accumulator, A and B, the epilogue), and the loop over a kernel's
// contractions: recognize, plan (ContractionPlan.h), emit
// (ContractionPipeline.h).
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "ContractionPipeline.h"
#include "ContractionPlan.h"
#include "FragmentProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

LogicalResult tiles::matchMatmulDims(vector::ContractionOp contract,
                                     int64_t &aM, int64_t &aK, int64_t &bK,
                                     int64_t &bN) {
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  auto iterators = contract.getIteratorTypesArray();
  if (iterators.size() != 3 || maps[2].getNumResults() != 2 ||
      maps[0].getNumResults() != 2 || maps[1].getNumResults() != 2)
    return failure();
  auto dim = [](AffineMap map, unsigned i) -> int64_t {
    auto d = dyn_cast<AffineDimExpr>(map.getResult(i));
    return d ? int64_t(d.getPosition()) : -1;
  };
  int64_t m = dim(maps[2], 0), n = dim(maps[2], 1);
  int64_t k = 3 - m - n;
  if (m < 0 || n < 0 || m == n || k < 0 || k > 2 ||
      iterators[m] != vector::IteratorType::parallel ||
      iterators[n] != vector::IteratorType::parallel ||
      iterators[k] != vector::IteratorType::reduction)
    return failure();
  auto positions = [&](AffineMap map, int64_t x, int64_t y, int64_t &px,
                       int64_t &py) {
    int64_t d0 = dim(map, 0), d1 = dim(map, 1);
    if (d0 == x && d1 == y) {
      px = 0, py = 1;
      return true;
    }
    if (d0 == y && d1 == x) {
      px = 1, py = 0;
      return true;
    }
    return false;
  };
  if (!positions(maps[0], m, k, aM, aK) || !positions(maps[1], k, n, bK, bN))
    return failure();
  return success();
}

Leaf tiles::stagedLeafOf(LoadOp load) {
  Leaf leaf;
  leaf.load = load;
  leaf.side = GlobalSide::of(load);
  for (int64_t k = 0, e = load.getType().getRank(); k < e; ++k)
    leaf.perm.push_back(k);
  leaf.staged = true;
  return leaf;
}

namespace {

/// A cooperative load feeding the contraction as `what`.
FailureOr<Leaf> operandLeaf(vector::ContractionOp contract, Value v,
                            StringRef what, BlockUniformity &uniform) {
  auto load = v.getDefiningOp<LoadOp>();
  if (!load || !v.hasOneUse() || load->getBlock() != contract->getBlock() ||
      !uniform.isCooperative(load) || load.getOrder())
    return contract.emitOpError()
           << "in a tile program: its " << what
           << " must be a cooperative, non-atomic layout.load in the loop "
              "body, used only here";
  return stagedLeafOf(load);
}

/// Matches the loop, accumulator, operands and epilogue of `contract`.
FailureOr<ContractionTree> matchContraction(vector::ContractionOp contract,
                                            BlockUniformity &uniform) {
  ContractionTree t;
  t.contract = contract;
  if (contract.getKind() != vector::CombiningKind::ADD ||
      failed(matchMatmulDims(contract, t.aM, t.aK, t.bK, t.bN)))
    return contract.emitOpError()
           << "in a tile program must be a matrix multiply: maps (m, k) or "
              "(k, m), (k, n) or (n, k), (m, n), iterators parallel, "
              "parallel, reduction, kind add";
  auto accType = dyn_cast<VectorType>(contract.getAccType());
  if (!accType || !accType.getElementType().isF32())
    return contract.emitOpError()
           << "in a tile program: the accumulator must be a vector of f32 "
              "(the matrix instructions accumulate in f32), got "
           << contract.getAccType();
  auto acc = dyn_cast<BlockArgument>(contract.getAcc());
  t.loop = dyn_cast<scf::ForOp>(contract->getParentOp());
  if (!t.loop || !acc || acc.getOwner() != t.loop.getBody() ||
      acc.getArgNumber() == 0 || !acc.hasOneUse() ||
      !contract->getResult(0).hasOneUse())
    return contract.emitOpError()
           << "in a tile program: its accumulator must be an iter_arg of "
              "the enclosing scf.for, used only here, and its result only "
              "yielded";
  t.accIndex = acc.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(t.loop.getBody()->getTerminator());
  if (yield.getOperand(t.accIndex) != contract.getResult())
    return contract.emitOpError()
           << "in a tile program: its result must be yielded as the same "
              "iter_arg";
  if (!uniform.allUniform(
          {t.loop.getLowerBound(), t.loop.getUpperBound(), t.loop.getStep()}))
    return t.loop.emitOpError()
           << "around a tile contraction must have block-uniform bounds";
  Value init = t.loop.getInitArgs()[t.accIndex];
  auto cst = init.getDefiningOp<arith::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return contract.emitOpError()
           << "in a tile program: the accumulator must start from a splat "
              "constant";
  t.init = dense.getSplatValue<Attribute>();
  FailureOr<Leaf> a = operandLeaf(contract, contract.getLhs(), "A", uniform);
  if (failed(a))
    return failure();
  FailureOr<Leaf> b = operandLeaf(contract, contract.getRhs(), "B", uniform);
  if (failed(b))
    return failure();
  t.a = std::move(*a);
  t.b = std::move(*b);
  return t;
}

/// The epilogue from the loop's result to its one cooperative store.
LogicalResult matchEpilogue(ContractionTree &t, BlockUniformity &uniform) {
  Value result = t.loop.getResult(t.accIndex);
  Operation *user = nullptr;
  Value v = result;
  while (v.hasOneUse()) {
    user = *v.getUsers().begin();
    if (isa<StoreOp>(user) || user->getNumResults() != 1)
      break;
    v = user->getResult(0);
  }
  auto store = dyn_cast_or_null<StoreOp>(user);
  if (!store || !uniform.isCooperative(store) || store.getOrder() ||
      store->getBlock() != t.loop->getBlock())
    return t.contract.emitOpError()
           << "in a tile program: the accumulated tile must reach one "
              "cooperative, non-atomic layout.store after the loop through "
              "elementwise ops";
  t.epilogue.store = store;
  // The store's expression: the loop result is leaf 0, the broadcast bias
  // rows and columns the others.
  t.epilogue.leafOf[result] = 0;
  ArrayRef<int64_t> cTile = store.getPartition().getType().getTile();
  SmallVector<Value> work{store.getValue()};
  SmallVector<Operation *> ops;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == result)
      continue;
    Operation *def = x.getDefiningOp();
    if (auto broadcast = dyn_cast_or_null<vector::BroadcastOp>(def);
        broadcast && x.hasOneUse() &&
        isa<VectorType>(broadcast.getSource().getType())) {
      auto load = broadcast.getSource().getDefiningOp<LoadOp>();
      ArrayRef<int64_t> shape =
          cast<VectorType>(broadcast.getSource().getType()).getShape();
      int64_t along = -1;
      if (cTile.size() == 2 && shape.size() == 1 && shape[0] == cTile[1])
        along = 1;
      else if (cTile.size() == 2 && shape.size() == 2 && shape[0] == 1 &&
               shape[1] == cTile[1])
        along = 1;
      else if (cTile.size() == 2 && shape.size() == 2 && shape[1] == 1 &&
               shape[0] == cTile[0])
        along = 0;
      if (!load || along < 0 || !broadcast.getSource().hasOneUse() ||
          !uniform.isCooperative(load) || load.getOrder() ||
          t.loop->isAncestor(load) || load->getBlock() != t.loop->getBlock())
        return broadcast.emitOpError()
               << "after a tile contraction: a broadcast tile must be a bias "
                  "row (N or 1 x N elements) or column (M x 1) loaded once "
                  "with a cooperative, non-atomic layout.load next to the "
                  "loop and used once";
      t.epilogue.leafOf[x] = t.broadcasts.size() + 1;
      t.broadcasts.push_back({broadcast, load, along});
      continue;
    }
    FragmentOp kind = def ? classifyFragmentOp(def) : FragmentOp::None;
    if (!x.hasOneUse() || kind == FragmentOp::None)
      return store.emitOpError()
             << "after a tile contraction: the stored tile must be computed "
                "from the accumulated tile by elementwise ops, splat "
                "constants, broadcasts of scalars and broadcast bias rows or "
                "columns, each used once";
    ops.push_back(def);
    if (kind == FragmentOp::Elementwise)
      for (Value operand : def->getOperands())
        work.push_back(operand);
  }
  // Operands before users: the ops sorted by their position in the block.
  llvm::sort(ops,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  ops.erase(llvm::unique(ops), ops.end());
  t.epilogue.ops.assign(ops.begin(), ops.end());
  return success();
}

} // namespace

LogicalResult
tiles::distributeContractions(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                              BlockUniformity &uniform,
                              const CooperativeTileOptions &options) {
  SmallVector<vector::ContractionOp> contracts;
  func.walk([&](vector::ContractionOp c) { contracts.push_back(c); });
  // Loops of several contractions are fragment programs (FragmentProgram.h),
  // compiled before this room.
  for (vector::ContractionOp contract : contracts) {
    FailureOr<ContractionTree> tree = matchContraction(contract, uniform);
    if (failed(tree) || failed(matchEpilogue(*tree, uniform)))
      return failure();
    FailureOr<Plan> plan = planContraction(*tree, func, block, options);
    if (failed(plan) || failed(emitContraction(*tree, *plan, func, block)))
      return failure();
  }
  return success();
}
