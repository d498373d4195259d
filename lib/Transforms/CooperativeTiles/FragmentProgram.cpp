//===- FragmentProgram.cpp - Fragment programs: recognize and plan --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The recognition of a fragment program (FragmentProgram.h): the kind of
// every value of the loop and of the ops after it that use its results,
// each op checked against the rules; then the plan: the one matrix
// instruction and wave grid for which every computed operand is a re-view
// of an accumulator and every row reduction stays in a wave's registers,
// and the staging of the loads. Nothing is created before everything is
// checked.
//
//===----------------------------------------------------------------------===//

#include "FragmentProgram.h"
#include "Contraction.h"
#include "ContractionFragments.h"
#include "FragmentCopies.h"

#include "layout/Transforms/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

bool tiles::isFragmentProgramLoop(scf::ForOp loop) {
  auto contracts = loop.getBody()->getOps<vector::ContractionOp>();
  if (llvm::range_size(contracts) > 1)
    return true;
  // One product per iteration that does not accumulate onto an iter_arg
  // (its accumulator a constant): the loop computes with it, as the block
  // scales of an FP8 GEMM scale each K tile's product before adding it.
  return llvm::any_of(contracts, [&](vector::ContractionOp c) {
    auto acc = dyn_cast<BlockArgument>(c.getAcc());
    return !acc || acc.getOwner() != loop.getBody();
  });
}

std::optional<std::pair<int64_t, int64_t>>
tiles::arithmeticSequence(Operation *op) {
  auto cst = dyn_cast_or_null<arith::ConstantOp>(op);
  auto dense = cst ? dyn_cast<DenseIntElementsAttr>(cst.getValue()) : nullptr;
  if (!dense || dense.isSplat() || dense.getType().getRank() != 1)
    return std::nullopt;
  SmallVector<int64_t> v;
  for (const APInt &x : dense.getValues<APInt>())
    v.push_back(x.getSExtValue());
  int64_t step = v[1] - v[0];
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] - v[i - 1] != step)
      return std::nullopt;
  return std::pair{v[0], step};
}

namespace {

/// (a, b) where `index` is (iv * a) / b (arith.muli with the constant a on
/// either side, arith.divui by the constant b) and b is not a multiple of
/// a: an iteration's a elements from a * iv on straddle blocks of b (a
/// block scale per 128-wide K block read per K tile of a that does not
/// divide 128); std::nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> straddledBlock(Value index,
                                                          Value iv) {
  auto div = index.getDefiningOp<arith::DivUIOp>();
  auto mul = div ? div.getLhs().getDefiningOp<arith::MulIOp>() : nullptr;
  std::optional<int64_t> b =
      div ? getConstantIntValue(div.getRhs()) : std::nullopt;
  if (!mul || !b || *b <= 0)
    return std::nullopt;
  Value other = mul.getLhs() == iv ? mul.getRhs() : mul.getLhs();
  if (mul.getLhs() != iv && mul.getRhs() != iv)
    return std::nullopt;
  std::optional<int64_t> a = getConstantIntValue(other);
  if (!a || *a <= 0 || *b % *a == 0)
    return std::nullopt;
  return std::pair{*a, *b};
}

constexpr llvm::StringLiteral kWhat =
    "in a fragment program (a loop of several tile contractions)";

struct Planner {
  FragmentProgram &p;
  BlockUniformity &uniform;
  int64_t threads;

  /// The kind of `v`; a value from outside the program is a Scalar, a
  /// Splat (a splat constant or a broadcast scalar), or Staged (a tile no
  /// rule takes but a contraction's operand: the rules refuse it).
  FragmentKind kindOf(Value v) const {
    auto it = p.kinds.find(v);
    if (it != p.kinds.end())
      return it->second;
    if (!isa<VectorType>(v.getType()))
      return FragmentKind::Scalar;
    if (isSplatValue(v))
      return FragmentKind::Splat;
    return isCoordinates(v) ? FragmentKind::Coordinates : FragmentKind::Staged;
  }
  /// Whether `v` is computed from vector.step (or the constant the
  /// canonicalizer makes of it),
  /// splats and elementwise ops alone.
  bool isCoordinates(Value v) const {
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<vector::StepOp>(def) || arithmeticSequence(def))
      return true;
    if (isSplatValue(v))
      return false;
    if (classifyFragmentOp(def) != FragmentOp::Elementwise &&
        !isa<vector::ShapeCastOp>(def))
      return false;
    bool some = false;
    for (Value operand : def->getOperands()) {
      FragmentKind k = kindOf(operand);
      if (k == FragmentKind::Coordinates)
        some = true;
      else if (k != FragmentKind::Splat)
        return false;
    }
    return some;
  }
  bool isTile(Value v) const {
    FragmentKind k = kindOf(v);
    return k == FragmentKind::Matrix || k == FragmentKind::Slice;
  }
  /// The kind a tile value of type `t` has: BM x C a Matrix, BM or BM x 1
  /// a Slice.
  std::optional<FragmentKind> tileKind(Type t) const {
    auto v = dyn_cast<VectorType>(t);
    if (!v || v.getShape().empty() || v.getDimSize(0) != p.bm)
      return std::nullopt;
    if (v.getRank() == 1 || (v.getRank() == 2 && v.getDimSize(1) == 1))
      return FragmentKind::Slice;
    if (v.getRank() == 2)
      return FragmentKind::Matrix;
    return std::nullopt;
  }
  InFlightDiagnostic fail(Operation *op) {
    return op->emitOpError() << kWhat << ": ";
  }

  LogicalResult classifyIterArgs();
  LogicalResult classify(Operation *op, bool inLoop);
  LogicalResult classifyContraction(vector::ContractionOp contract);
  LogicalResult classifyLoad(LoadOp load);
  LogicalResult classifyTileOp(Operation *op);
  std::optional<LogicalResult> classifyCoordinates(Operation *op);
  LogicalResult collectAfter();
};

LogicalResult Planner::classifyIterArgs() {
  scf::ForOp loop = p.loop;
  p.kinds[loop.getInductionVar()] = FragmentKind::Scalar;
  for (auto [arg, init] :
       llvm::zip_equal(loop.getRegionIterArgs(), loop.getInitArgs())) {
    if (!isa<VectorType>(arg.getType())) {
      p.kinds[arg] = FragmentKind::Scalar;
      continue;
    }
    std::optional<FragmentKind> kind = tileKind(arg.getType());
    if (!kind)
      return fail(loop) << "a carried vector must be a " << p.bm
                        << " x N tile or a vector of " << p.bm
                        << " rows (the contractions' rows), got "
                        << arg.getType();
    auto cst = init.getDefiningOp<arith::ConstantOp>();
    auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
    if (!dense || !dense.isSplat())
      return fail(loop) << "a carried tile must start from a splat constant";
    p.kinds[arg] = *kind;
  }
  return success();
}

LogicalResult Planner::classifyLoad(LoadOp load) {
  if (!uniform.isCooperative(load) || load.getOrder())
    return fail(load) << "a load must be cooperative and non-atomic";
  for (OpOperand &use : load->getUses()) {
    auto contract = dyn_cast<vector::ContractionOp>(use.getOwner());
    if (!contract || use.getOperandNumber() > 1)
      return fail(load) << "a loaded tile must be an operand (A or B) of the "
                           "loop's contractions";
  }
  for (Value index : load.getIndices())
    if (kindOf(index) != FragmentKind::Scalar)
      return fail(load) << "its tile indices must be scalars";
  Leaf leaf = stagedLeafOf(load);
  if (leaf.side.elementType != p.elementType)
    return fail(load) << "the loaded tiles must all be " << p.elementType
                      << ", got " << leaf.side.elementType;
  p.leaves.push_back(std::move(leaf));
  p.kinds[load.getResult()] = FragmentKind::Staged;
  return success();
}

LogicalResult Planner::classifyContraction(vector::ContractionOp contract) {
  FragmentSite site;
  site.contract = contract;
  if (contract.getKind() != vector::CombiningKind::ADD ||
      failed(matchMatmulDims(contract, site.lM, site.lK, site.rK, site.rN)))
    return fail(contract) << "a contraction must be a matrix multiply";
  auto acc = dyn_cast<VectorType>(contract.getAccType());
  if (!acc || !acc.getElementType().isF32() ||
      tileKind(acc) != FragmentKind::Matrix)
    return fail(contract) << "the accumulator must be a " << p.bm
                          << " x N tile of f32, got " << contract.getAccType();
  FragmentKind accKind = kindOf(contract.getAcc());
  if (accKind != FragmentKind::Matrix && accKind != FragmentKind::Splat)
    return fail(contract) << "the accumulator must be a tile of the program "
                             "or a splat constant";
  auto leafIndex = [&](Value v) -> int {
    for (auto [i, leaf] : llvm::enumerate(p.leaves))
      if (leaf.load.getResult() == v)
        return int(i);
    return -1;
  };
  site.lhs = leafIndex(contract.getLhs());
  site.rhs = leafIndex(contract.getRhs());
  if (site.rhs < 0)
    return fail(contract) << "B must be a loaded tile (a B computed in "
                             "registers is not supported yet)";
  if (site.lhs < 0 &&
      (kindOf(contract.getLhs()) != FragmentKind::Matrix || site.lM != 0))
    return fail(contract) << "A must be a loaded tile or a " << p.bm
                          << " x K tile of the program (m x k, not "
                             "transposed)";
  auto lhs = cast<VectorType>(contract.getLhsType());
  auto rhs = cast<VectorType>(contract.getRhsType());
  if (lhs.getElementType() != p.elementType ||
      rhs.getElementType() != p.elementType)
    return fail(contract) << "A and B must be " << p.elementType;
  site.rows = acc.getDimSize(0);
  site.cols = acc.getDimSize(1);
  site.depth = lhs.getDimSize(site.lK);
  site.plan.elementType = p.elementType;
  p.kinds[contract.getResult()] = FragmentKind::Matrix;
  p.sites.push_back(std::move(site));
  return success();
}

/// Elementwise ops, splats, row reductions, slice shape casts and
/// broadcasts.
/// Positions (vector.step, and what elementwise ops and shape casts make of
/// them with splats), and their broadcasts onto tiles.
std::optional<LogicalResult> Planner::classifyCoordinates(Operation *op) {
  Value result = op->getResult(0);
  // The rule is isCoordinates' (the one for values from outside the loop).
  if (isCoordinates(result)) {
    p.kinds[result] = FragmentKind::Coordinates;
    return success();
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (kindOf(broadcast.getSource()) != FragmentKind::Coordinates)
      return std::nullopt;
    auto source = cast<VectorType>(broadcast.getSourceType());
    VectorType type = broadcast.getResultVectorType();
    bool columns = source.getRank() == 1;
    bool rows = source.getRank() == 2 && source.getDimSize(1) == 1;
    if (tileKind(type) != FragmentKind::Matrix || !(columns || rows) ||
        source.getDimSize(0) != type.getDimSize(columns ? 1 : 0))
      return fail(op) << "positions must be broadcast onto a " << p.bm
                      << " x N tile from N columns or " << p.bm << " x 1 rows";
    p.kinds[result] = FragmentKind::Matrix;
    return success();
  }
  if (llvm::any_of(op->getOperands(), [&](Value v) {
        return kindOf(v) == FragmentKind::Coordinates;
      }))
    return fail(op) << "positions combine only with positions and splats";
  return std::nullopt;
}

LogicalResult Planner::classifyTileOp(Operation *op) {
  Value result = op->getResult(0);
  if (std::optional<LogicalResult> positions = classifyCoordinates(op))
    return *positions;
  if (auto reduce = dyn_cast<vector::MultiDimReductionOp>(op)) {
    Type et = getElementTypeOrSelf(reduce.getSourceVectorType());
    if (kindOf(reduce.getSource()) != FragmentKind::Matrix ||
        reduce.getReductionDims() != ArrayRef<int64_t>{1} ||
        tileKind(reduce.getType()) != FragmentKind::Slice ||
        !(et.isF32() || et.isInteger(32)))
      return fail(op) << "a reduction must fold the columns of a " << p.bm
                      << " x N tile of f32 or i32 into its rows";
    FragmentKind acc = kindOf(reduce.getAcc());
    if (acc != FragmentKind::Slice && acc != FragmentKind::Splat)
      return fail(op) << "the reduction's accumulator must be a row vector "
                         "of the program or a splat";
    p.reductions.try_emplace(reduce.getSourceVectorType().getDimSize(1));
    p.kinds[result] = FragmentKind::Slice;
    return success();
  }
  if (auto cast = dyn_cast<vector::ShapeCastOp>(op)) {
    if (kindOf(cast.getSource()) != FragmentKind::Slice ||
        tileKind(cast.getType()) != FragmentKind::Slice)
      return fail(op) << "a shape cast may only turn a row vector into a "
                      << p.bm << " x 1 tile or back";
    p.kinds[result] = FragmentKind::Slice;
    return success();
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (!isa<VectorType>(broadcast.getSourceType())) {
      p.kinds[result] = FragmentKind::Splat;
      return success();
    }
    auto source = cast<VectorType>(broadcast.getSourceType());
    if (kindOf(broadcast.getSource()) != FragmentKind::Slice ||
        source.getRank() != 2 ||
        tileKind(broadcast.getType()) != FragmentKind::Matrix)
      return fail(op) << "a broadcast must repeat a " << p.bm
                      << " x 1 row vector across the columns of a tile";
    p.reductions.try_emplace(broadcast.getResultVectorType().getDimSize(1));
    p.kinds[result] = FragmentKind::Matrix;
    return success();
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense || !dense.isSplat())
      return fail(op) << "a vector constant must be a splat";
    p.kinds[result] = FragmentKind::Splat;
    return success();
  }
  if (classifyFragmentOp(op) != FragmentOp::Elementwise)
    return fail(op) << "only contractions, loads, elementwise ops, splats, "
                       "row reductions and their broadcasts may compute "
                       "tiles";
  std::optional<FragmentKind> kind = tileKind(result.getType());
  if (!kind)
    return fail(op) << "an elementwise op must compute a " << p.bm
                    << " x N tile or a row vector, got " << result.getType();
  for (Value operand : op->getOperands()) {
    FragmentKind k = kindOf(operand);
    if (k != FragmentKind::Splat &&
        (k != *kind || cast<VectorType>(operand.getType()).getShape() !=
                           cast<VectorType>(result.getType()).getShape()))
      return fail(op) << "the operands of an elementwise op must be tiles of "
                         "its shape or splats (broadcast row vectors "
                         "explicitly)";
  }
  p.kinds[result] = *kind;
  return success();
}

LogicalResult Planner::classify(Operation *op, bool inLoop) {
  if (auto yield = dyn_cast<scf::YieldOp>(op)) {
    for (auto [arg, v] :
         llvm::zip_equal(p.loop.getRegionIterArgs(), yield.getOperands())) {
      FragmentKind want = kindOf(arg), got = kindOf(v);
      if (got != want &&
          !(got == FragmentKind::Splat && want != FragmentKind::Scalar))
        return fail(yield) << "a carried tile must be yielded in its kind";
    }
    return success();
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    if (!inLoop)
      return fail(op) << "a tile the loop computes must not be combined "
                         "with loads after it (not supported yet)";
    return classifyLoad(load);
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    if (inLoop || !uniform.isCooperative(store) || store.getOrder() ||
        !isTile(store.getValue()))
      return fail(op) << "a tile of the program must be stored after the "
                         "loop with a cooperative, non-atomic layout.store";
    ArrayRef<int64_t> tile = store.getPartition().getType().getTile();
    if (tile != cast<VectorType>(store.getValue().getType()).getShape())
      return fail(op) << "the stored tile must be the partition's tile";
    return success();
  }
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    if (!inLoop)
      return fail(op) << "contractions must be in the loop";
    return classifyContraction(contract);
  }
  bool vectors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<VectorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>);
  if (!vectors) {
    // A scalar read at block-uniform indices (a block scale per K tile):
    // every lane reads the same element, which nothing in the program
    // writes (its stores are after the loop).
    auto read = dyn_cast<memref::LoadOp>(op);
    if (read && !uniform.allUniform(read.getIndices()))
      return fail(op) << "a scalar memref.load beside the tile ops must "
                         "read at block-uniform indices";
    if (read)
      for (Value index : read.getIndices())
        if (std::optional<std::pair<int64_t, int64_t>> split =
                straddledBlock(index, p.loop.getInductionVar()))
          return fail(op) << "the index (iv * " << split->first << ") / "
                          << split->second
                          << " changes within an iteration's K tile of "
                          << split->first << " elements (a block of "
                          << split->second
                          << " is not a whole number of tiles): one scale per "
                             "product cannot cover it; make the K tile divide "
                             "the block";
    if (op->getNumRegions() || (!read && !isPure(op)))
      return fail(op) << "only pure scalar ops and scalar memref.loads may "
                         "sit beside the tile ops";
    for (Value r : op->getResults())
      p.kinds[r] = FragmentKind::Scalar;
    return success();
  }
  if (op->getNumResults() != 1 || op->getNumRegions())
    return fail(op) << "not a tile op it knows";
  return classifyTileOp(op);
}

/// The ops after the loop that use its results, transitively, in order.
LogicalResult Planner::collectAfter() {
  scf::ForOp loop = p.loop;
  llvm::SetVector<Operation *> users;
  SmallVector<Value> work(loop.getResults());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != loop->getBlock())
        return fail(user) << "a tile the loop computes may only be used by "
                             "ops next to the loop";
      if (users.insert(user))
        work.append(user->result_begin(), user->result_end());
    }
  }
  SmallVector<Operation *> ops(users.begin(), users.end());
  llvm::sort(ops,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  for (auto [arg, r] :
       llvm::zip_equal(loop.getRegionIterArgs(), loop.getResults()))
    p.kinds[r] = kindOf(arg);
  for (Operation *op : ops) {
    if (failed(classify(op, /*inLoop=*/false)))
      return failure();
    p.after.push_back(op);
  }
  return success();
}

/// The instruction's view of `site` in `p`'s orientation: A, B and the
/// plan's tile (the wave grid splits the program's rows).
void orient(const FragmentProgram &p, FragmentSite &site) {
  const MatrixInstruction &inst = *p.inst;
  Plan &plan = site.plan;
  plan.inst = &inst;
  plan.bk = site.depth;
  if (!p.transposed) {
    site.a = site.lhs, site.aM = site.lM, site.aK = site.lK;
    site.b = site.rhs, site.bK = site.rK, site.bN = site.rN;
    plan.bm = site.rows, plan.bn = site.cols;
    plan.wavesM = p.waves, plan.wavesN = 1;
    plan.tm = p.tm, plan.tn = site.cols;
  } else {
    // C^T = B^T A^T: the user's rhs is the instruction's A (its n, k are
    // A's m, k), the lhs its B.
    site.a = site.rhs, site.aM = site.rN, site.aK = site.rK;
    site.b = site.lhs, site.bK = site.lK, site.bN = site.lM;
    plan.bm = site.cols, plan.bn = site.rows;
    plan.wavesM = 1, plan.wavesN = p.waves;
    plan.tm = site.cols, plan.tn = p.tm;
  }
  plan.rm = plan.tm / inst.m, plan.rn = plan.tn / inst.n;
  plan.ks = plan.bk / inst.k;
}

/// Why the program's computed operand of `site` is not a re-view of its
/// producer's C fragments (empty: it is; `site.sources` filled).
std::string planReView(const FragmentProgram &p, FragmentSite &site) {
  const MatrixInstruction &inst = *p.inst, &consumer = *p.operandInst;
  MatrixOperand operand = p.transposed ? MatrixOperand::B : MatrixOperand::A;
  int64_t rows = p.transposed ? site.depth : p.tm;
  int64_t cols = p.transposed ? p.tm : site.depth;
  llvm::Expected<FragmentConversion> c =
      planFragmentConversion(inst, consumer, operand, rows, cols);
  if (!c)
    return llvm::toString(c.takeError());
  if (c->kind == FragmentConversionKind::WorkgroupMemory)
    return llvm::formatv("its accumulator is not its {0} operand per lane "
                         "({1}: {2})",
                         stringifyMatrixOperand(operand),
                         stringifyFragmentConversionKind(c->kind), c->reason)
        .str();
  // Each operand register: one producer register for every lane, read in
  // the lane itself or in one xor partner.
  site.sources.clear();
  DenseSet<std::tuple<int64_t, int64_t, int64_t>> shuffled;
  for (int64_t t = 0; t < c->operandTiles; ++t)
    for (int64_t e = 0; e < c->operandElements; ++e) {
      FragmentSlot first = c->source(0, t, e);
      FragmentSource source{{first.tile, first.element}, 0, 0};
      for (int64_t lane = 0; lane < consumer.waveSize; ++lane) {
        FragmentSlot s = c->source(lane, t, e);
        if (s.tile != first.tile || s.element != first.element)
          return "its accumulator registers become operand registers in an "
                 "order that depends on the lane";
        if (s.lane == lane) {
          // `own` has a bit per lane of a wave of at most 64 (a warpgroup's
          // re-views read no other lane: refused below).
          if (lane < 64)
            source.own |= uint64_t(1) << lane;
          continue;
        }
        if ((source.xorMask && (lane ^ s.lane) != source.xorMask) ||
            (lane ^ s.lane) >= inst.shuffleLanes() || consumer.waveSize > 64)
          return llvm::formatv("its accumulator becomes its {0} operand by "
                               "shuffles other than one xor within a warp "
                               "per register (not emitted yet)",
                               stringifyMatrixOperand(operand))
              .str();
        source.xorMask = lane ^ s.lane;
      }
      if (source.xorMask)
        shuffled.insert({first.tile, first.element, source.xorMask});
      site.sources.push_back(source);
    }
  site.shuffles = shuffled.size();
  return "";
}

/// Why `inst` in orientation `transposed` cannot run the program (empty:
/// it can; the program's and the sites' plans filled).
std::string tryInstruction(FragmentProgram &p, const MatrixInstruction &inst,
                           bool transposed, int64_t threads) {
  if (threads % inst.waveSize)
    return "the block is not whole waves";
  int64_t waves = threads / inst.waveSize;
  // The waves split the program's rows: the instruction's rows, or its
  // columns when transposed.
  int64_t across = transposed ? inst.n : inst.m;
  if (p.bm % waves || (p.bm / waves) % across)
    return llvm::formatv("{0} rows over {1} waves are not whole {2}-row "
                         "instruction tiles",
                         p.bm, waves, across);
  bool warpgroup = inst.operandsInWorkgroupMemory();
  if (warpgroup && transposed)
    return "wgmma's lanes hold no B (the transposed products would need "
           "one in registers)";
  p.inst = &inst;
  p.operandInst = warpgroup ? wgmmaRegisterAForm(inst) : &inst;
  p.transposed = transposed;
  p.waves = waves;
  p.tm = p.bm / waves;
  auto refuse = [&](std::string why) {
    p.inst = nullptr;
    return why;
  };
  for (FragmentSite &site : p.sites) {
    orient(p, site);
    const Plan &plan = site.plan;
    if (plan.tm % inst.m || plan.tn % inst.n || plan.bk % inst.k)
      return refuse(llvm::formatv("a {0}x{1}x{2} contraction is not whole {3} "
                                  "instructions",
                                  site.rows, site.cols, site.depth,
                                  inst.shapeString()));
    // One wgmma spans the product's columns (N <= 256, PTX ISA 9.7.15.2).
    if (warpgroup && plan.tn > 256)
      return refuse(llvm::formatv("a product {0} columns wide is wider than "
                                  "one wgmma (N up to 256)",
                                  plan.tn));
  }
  // The rows a lane holds, the same for every tile width.
  llvm::Expected<FragmentReduction> rows =
      p.planRows(transposed ? inst.m : inst.n);
  if (!rows)
    return refuse(llvm::toString(rows.takeError()));
  for (auto &[cols, plan] : p.reductions) {
    llvm::Expected<FragmentReduction> r = p.planRows(cols);
    if (!r)
      return refuse(llvm::toString(r.takeError()));
    if (r->kept != rows->kept)
      return refuse("its lanes hold other rows in tiles of another width");
    if (llvm::any_of(r->masks,
                     [&](int64_t m) { return m >= inst.shuffleLanes(); }))
      return refuse("its rows' lanes span more than one warp's shuffles");
    plan = std::move(*r);
  }
  for (FragmentSite &site : p.sites)
    if (site.lhs < 0)
      if (std::string why = planReView(p, site); !why.empty())
        return refuse(why);
  p.rows = std::move(*rows);
  return "";
}

/// Orders each staged leaf's buffer for its role and plans its staging.
LogicalResult planLeaves(FragmentProgram &p, int64_t threads,
                         const CooperativeTileOptions &options) {
  std::string why;
  for (Leaf &leaf : p.leaves) {
    if (failed(leaf.side.analyze(options.assumeAlignment, why)))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    // Its buffer's order for its role (fragmentBufferOrder), the same in
    // every contraction that reads it.
    SmallVector<int64_t> order;
    for (FragmentSite &site : p.sites)
      for (auto [index, isA] : {std::pair{site.a, true}, {site.b, false}}) {
        if (index < 0 || &p.leaves[index] != &leaf)
          continue;
        SmallVector<int64_t> mine = fragmentBufferOrder(
            *p.inst, leaf, isA ? MatrixOperand::A : MatrixOperand::B,
            isA ? site.aK : site.bK, isA ? site.aM : site.bN);
        if (!order.empty() && order != mine)
          return leaf.load.emitOpError()
                 << kWhat << ": a tile read as A and as B is not supported";
        order = mine;
      }
    leaf.bufDims = order;
    if (p.inst->operandsInWorkgroupMemory() &&
        failed(checkWarpgroupMmaStaging(*p.inst, leaf, kWhat)))
      return failure();
    FailureOr<StagingMapping> staging =
        stagingMapping(leaf, threads, /*transpose=*/true);
    if (failed(staging))
      return failure();
    p.staging.push_back(*staging);
  }
  return success();
}

} // namespace

FailureOr<FragmentProgram>
tiles::planFragmentProgram(scf::ForOp loop, gpu::GPUFuncOp func,
                           ArrayRef<int64_t> block, BlockUniformity &uniform,
                           const CooperativeTileOptions &options) {
  FragmentProgram p;
  p.loop = loop;
  p.remarks = options.remarks;
  int64_t threads = block[0] * block[1] * block[2];
  Planner planner{p, uniform, threads};
  if (!uniform.allUniform(
          {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
    return loop.emitOpError() << kWhat << ": its bounds must be block-uniform";
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
      auto acc = dyn_cast<VectorType>(contract.getAccType());
      p.bm = acc && acc.getRank() == 2 ? acc.getDimSize(0) : 0;
      p.elementType = getElementTypeOrSelf(contract.getLhsType());
      break;
    }
  // Scalar computations the loop does not change (the constant indices a
  // tracer makes at each use, as layout_opt.tile does) go before it, as
  // loop-invariant code motion would move them: a tile at invariant indices
  // (Q) is then staged once, not per iteration. Only speculatable ops
  // (isPure: not a division that the loop's trip count guards).
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    if (isPure(&op) && op.getNumRegions() == 0 &&
        llvm::none_of(op.getResultTypes(),
                      [](Type t) { return isa<VectorType>(t); }) &&
        llvm::all_of(op.getOperands(), [&](Value v) {
          return !loop.getRegion().isAncestor(v.getParentRegion());
        }))
      op.moveBefore(loop);
  if (failed(planner.classifyIterArgs()))
    return failure();
  for (Operation &op : *loop.getBody())
    if (failed(planner.classify(&op, /*inLoop=*/true)))
      return failure();
  if (failed(planner.collectAfter()))
    return failure();
  planMasks(p);
  const std::optional<Chip> &chip = options.chip;
  if (!chip)
    return loop.emitOpError() << kWhat
                              << " needs the target: run "
                                 "-layout-tile-shared-memory with chip=...";
  SmallVector<const MatrixInstruction *> candidates;
  // The chip's own (the FP8 mma.sync is on sm_89 and later of its
  // generation).
  // wgmma: the m64n8 one stands for every N (FragmentProgram::inst), where
  // it has a register-A form for a computed A.
  for (const MatrixInstruction *inst : getMatrixInstructions(chip->name))
    if (takesInputs(inst->inputKind, p.elementType) &&
        (!inst->operandsInWorkgroupMemory() ||
         (inst->n == 8 && wgmmaRegisterAForm(*inst))))
      candidates.push_back(inst);
  llvm::stable_sort(candidates, [](auto *x, auto *y) {
    return x->m * x->n * x->k > y->m * y->n * y->k;
  });
  // Each instruction as the program computes its products, then on their
  // transposes (MFMA: an accumulator is a B operand, not an A).
  SmallVector<std::string> reasons;
  for (const MatrixInstruction *inst : candidates) {
    for (bool transposed : {false, true}) {
      std::string why = tryInstruction(p, *inst, transposed, threads);
      if (why.empty())
        break;
      reasons.push_back(llvm::formatv(
          "{0} ({1}{2}): {3}", inst->mnemonicOn(chip->generation),
          inst->shapeString(), transposed ? ", transposed" : "", why));
    }
    if (p.inst)
      break;
  }
  if (!p.inst) {
    InFlightDiagnostic d = loop.emitOpError()
                           << kWhat << ": no matrix instruction of "
                           << chip->name << " with " << p.elementType
                           << " inputs keeps the loop in registers";
    for (const std::string &r : reasons)
      d << "; " << r;
    return d;
  }
  if (failed(planLeaves(p, threads, options)) ||
      failed(planFragmentCopies(p, *chip, options.rotateProducts,
                                options.copiesAhead)))
    return failure();
  // The Matrix tiles' stores as pairs where the instruction and the view
  // allow (the program's rows are the instruction's: not transposed).
  p.alignBytes = options.assumeAlignment;
  for (Operation *op : p.after) {
    auto store = dyn_cast<StoreOp>(op);
    if (!store || p.kinds.lookup(store.getValue()) != FragmentKind::Matrix)
      continue;
    GlobalSide side = GlobalSide::of(store);
    std::string why = "the program computes the tiles' transposes";
    if (!p.transposed && pairRun(*p.inst, side, p.alignBytes, why) == 2)
      p.pairStores.insert(store);
    bool pairs = p.pairStores.contains(store);
    emitLayoutRemark(
        store.getLoc(), "FragmentStores", "layout-tiles", func.getName(),
        pairs ? "in a fragment program: the tile stored as each lane's "
                "pairs of consecutive columns (2-vectors)"
              : "in a fragment program: the tile stored element by "
                "element: " +
                    why,
        {{"Run", pairs ? "2" : "1"}}, p.remarks);
  }
  return p;
}

LogicalResult
tiles::distributeFragmentPrograms(gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                                  BlockUniformity &uniform,
                                  const CooperativeTileOptions &options) {
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) {
    if (isFragmentProgramLoop(loop))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    FailureOr<FragmentProgram> program =
        planFragmentProgram(loop, func, block, uniform, options);
    if (failed(program) || failed(emitFragmentProgram(*program, func, block)))
      return failure();
  }
  return success();
}
