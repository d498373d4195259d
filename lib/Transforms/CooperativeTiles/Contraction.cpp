//===- Contraction.cpp - Tile contractions onto matrix instructions -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "ContractionPlan.h"

#include "layout/Evaluator/MatrixInstructions.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

/// The dimension positions of a matmul's maps (m, n, k), or failure.
LogicalResult matmulDims(vector::ContractionOp contract, ContractionTree &t) {
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
  if (!positions(maps[0], m, k, t.aM, t.aK) ||
      !positions(maps[1], k, n, t.bK, t.bN))
    return failure();
  return success();
}

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
  Leaf leaf;
  leaf.load = load;
  leaf.side = GlobalSide::of(load);
  for (int64_t k = 0, e = load.getType().getRank(); k < e; ++k)
    leaf.perm.push_back(k);
  leaf.staged = true;
  return leaf;
}

/// Matches the loop, accumulator, operands and epilogue of `contract`.
FailureOr<ContractionTree> matchContraction(vector::ContractionOp contract,
                                            BlockUniformity &uniform) {
  ContractionTree t;
  t.contract = contract;
  if (contract.getKind() != vector::CombiningKind::ADD ||
      failed(matmulDims(contract, t)))
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

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

MatrixElementKind elementKind(Type t, bool &ok) {
  ok = t.isF16() || t.isBF16();
  return t.isBF16() ? MatrixElementKind::BF16 : MatrixElementKind::F16;
}

/// Fills `plan.wavesM/N`, `tm`, `tn` for `waves` waves and instruction
/// `inst` (with `waveTile` if given); false if no grid divides.
bool fitWaves(Plan &plan, const MatrixInstruction &inst, int64_t waves,
              ArrayRef<int64_t> waveTile) {
  int64_t best = -1;
  for (int64_t wm = 1; wm <= waves; ++wm) {
    if (waves % wm)
      continue;
    int64_t wn = waves / wm;
    if (plan.bm % wm || plan.bn % wn)
      continue;
    int64_t tm = plan.bm / wm, tn = plan.bn / wn;
    if (!waveTile.empty() && (tm != waveTile[0] || tn != waveTile[1]))
      continue;
    if (tm % inst.m || tn % inst.n || plan.bk % inst.k)
      continue;
    int64_t skew = std::abs(tm - tn);
    if (best >= 0 && skew >= best)
      continue;
    best = skew;
    plan.wavesM = wm, plan.wavesN = wn, plan.tm = tm, plan.tn = tn;
  }
  return best >= 0;
}

FailureOr<Plan> planContraction(ContractionTree &t, int64_t threads,
                                const std::optional<Chip> &chip) {
  vector::ContractionOp contract = t.contract;
  Plan plan;
  ArrayRef<int64_t> aTile = t.a.side.tile, bTile = t.b.side.tile;
  ArrayRef<int64_t> cTile = t.epilogue.store.getPartition().getType().getTile();
  plan.bm = aTile[t.aM];
  plan.bk = aTile[t.aK];
  plan.bn = bTile[t.bN];
  if (cTile.size() != 2 || cTile[0] != plan.bm || cTile[1] != plan.bn)
    return t.epilogue.store.emitOpError()
           << "after a tile contraction: the stored tile must be the "
              "accumulated BM x BN tile";
  plan.elementType = t.a.side.elementType;
  bool ok;
  MatrixElementKind kind = elementKind(plan.elementType, ok);
  if (!ok || t.b.side.elementType != plan.elementType)
    return contract.emitOpError()
           << "in a tile program: A and B must both be f16 or both bf16, "
              "got "
           << t.a.side.elementType << " and " << t.b.side.elementType;
  if (!chip)
    return contract.emitOpError()
           << "in a tile program needs the target: run "
              "-layout-tile-shared-memory with chip=... (-layout-to-rocdl "
              "and -layout-to-nvvm pass theirs)";
  SmallVector<const MatrixInstruction *> candidates;
  for (const MatrixInstruction *inst : getMatrixInstructions(chip->generation))
    if (inst->inputKind == kind)
      candidates.push_back(inst);
  if (candidates.empty())
    return contract.emitOpError()
           << "in a tile program: " << chip->name
           << " has no matrix instruction "
           << "with " << plan.elementType << " inputs and an f32 accumulator";
  // The largest instruction first.
  llvm::stable_sort(candidates, [](auto *x, auto *y) {
    return x->m * x->n * x->k > y->m * y->n * y->k;
  });
  SmallVector<int64_t> shape, waveTile;
  if (auto attr = contract->getAttrOfType<DenseI64ArrayAttr>(
          "layout.matrix_instruction"))
    shape.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
  if (auto attr =
          contract->getAttrOfType<DenseI64ArrayAttr>("layout.wave_tile"))
    waveTile.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
  if (Attribute attr = contract->getAttr("layout.pipeline_stages")) {
    auto stages = dyn_cast<IntegerAttr>(attr);
    if (!stages || stages.getInt() < 1 || stages.getInt() > 8)
      return contract.emitOpError()
             << "layout.pipeline_stages takes an integer from 1 (register "
                "prefetch) to 8, got "
             << attr;
    plan.stages = stages.getInt();
  }
  if ((!shape.empty() && shape.size() != 3) ||
      (!waveTile.empty() && waveTile.size() != 2))
    return contract.emitOpError()
           << "layout.matrix_instruction takes [M, N, K] and "
              "layout.wave_tile [TM, TN]";
  for (const MatrixInstruction *inst : candidates) {
    if (!shape.empty() &&
        (inst->m != shape[0] || inst->n != shape[1] || inst->k != shape[2]))
      continue;
    if (threads % inst->waveSize)
      continue;
    if (!fitWaves(plan, *inst, threads / inst->waveSize, waveTile))
      continue;
    plan.inst = inst;
    plan.rm = plan.tm / inst->m;
    plan.rn = plan.tn / inst->n;
    plan.ks = plan.bk / inst->k;
    return plan;
  }
  InFlightDiagnostic d = contract.emitOpError();
  d << "in a tile program: the block tile " << plan.bm << "x" << plan.bn << "x"
    << plan.bk << " (BM x BN x BK) cannot be divided among the " << threads
    << " threads' waves";
  if (!waveTile.empty())
    d << " into wave tiles of " << waveTile[0] << "x" << waveTile[1];
  d << ": each wave tile must be a multiple of the instruction's M x N and "
       "BK of its K, for one of";
  for (const MatrixInstruction *inst : candidates)
    if (shape.empty() ||
        (inst->m == shape[0] && inst->n == shape[1] && inst->k == shape[2]))
      d << " " << inst->mnemonicOn(chip->generation) << " ("
        << inst->shapeString() << ", wave " << inst->waveSize << ")";
  return failure();
}

} // namespace

LogicalResult
tiles::distributeContractions(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                              BlockUniformity &uniform,
                              const CooperativeTileOptions &options) {
  SmallVector<vector::ContractionOp> contracts;
  func.walk([&](vector::ContractionOp c) { contracts.push_back(c); });
  for (vector::ContractionOp contract : contracts) {
    FailureOr<ContractionTree> tree = matchContraction(contract, uniform);
    if (failed(tree) || failed(matchEpilogue(*tree, uniform)))
      return failure();
    FailureOr<Plan> plan =
        planContraction(*tree, block[0] * block[1] * block[2], options.chip);
    if (failed(plan) ||
        failed(emitContraction(*tree, *plan, func, block, options)))
      return failure();
  }
  return success();
}
