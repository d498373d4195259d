//===- Contraction.cpp - Tile contractions onto matrix instructions -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "TileExpression.h"

#include "layout/Evaluator/MatrixInstructions.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

/// A tile contraction and what surrounds it (Contraction.h).
struct ContractionTree {
  vector::ContractionOp contract;
  scf::ForOp loop;
  /// The accumulator's position among the loop's iter_args.
  unsigned accIndex = 0;
  /// The accumulator's initial splat value.
  Attribute init;
  /// A (lhs) and B (rhs), each a staged leaf; their tiles' dimensions in
  /// the contraction: aM / aK are the positions of m and k in A's tile,
  /// bK / bN those of k and n in B's.
  Leaf a, b;
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
  /// The epilogue: the loop result through elementwise ops to the store.
  TileTree epilogue;
};

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
      !uniform.allUniform(load.getIndices()) || load.getOrder())
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

/// The buffer of an operand keeps K fastest (`kPos` is K's position in the
/// load's tile): every register layout holds consecutive K elements per lane
/// (MatrixInstructions.h), so fragment reads are vectors; unit dimensions are
/// dropped.
void bufferKFastest(Leaf &leaf, int64_t kPos) {
  for (int64_t k : {1 - kPos, kPos})
    if (leaf.side.tile[k] != 1)
      leaf.bufDims.push_back(k);
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
  if (!uniform.allUniform({t.loop.getLowerBound(), t.loop.getUpperBound(),
                           t.loop.getStep()}))
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
  bufferKFastest(t.a, t.aK);
  bufferKFastest(t.b, t.bK);
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
  if (!store || !uniform.allUniform(store.getIndices()) || store.getOrder() ||
      store->getBlock() != t.loop->getBlock())
    return t.contract.emitOpError()
           << "in a tile program: the accumulated tile must reach one "
              "cooperative, non-atomic layout.store after the loop through "
              "elementwise ops";
  t.epilogue.store = store;
  // The store's expression, with the loop result as its only leaf.
  t.epilogue.leafOf[result] = 0;
  SmallVector<Value> work{store.getValue()};
  SmallVector<Operation *> ops;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == result)
      continue;
    Operation *def = x.getDefiningOp();
    bool splat = false;
    if (auto c = dyn_cast_or_null<arith::ConstantOp>(def))
      if (auto d = dyn_cast<DenseElementsAttr>(c.getValue()))
        splat = d.isSplat();
    bool scalarBroadcast =
        isa_and_nonnull<vector::BroadcastOp>(def) &&
        !isa<VectorType>(def->getOperand(0).getType());
    bool elementwise = def && def->hasTrait<OpTrait::Elementwise>() &&
                       isPure(def) && def->getNumResults() == 1 &&
                       def->getNumRegions() == 0;
    if (!def || !x.hasOneUse() || !(splat || scalarBroadcast || elementwise))
      return store.emitOpError()
             << "after a tile contraction: the stored tile must be computed "
                "from the accumulated tile by elementwise ops, splat "
                "constants and broadcasts of scalars, each used once";
    ops.push_back(def);
    if (elementwise)
      for (Value operand : def->getOperands())
        if (isa<VectorType>(operand.getType()))
          work.push_back(operand);
  }
  // Operands before users: the ops sorted by their position in the block.
  llvm::sort(ops, [](Operation *x, Operation *y) {
    return x->isBeforeInBlock(y);
  });
  ops.erase(llvm::unique(ops), ops.end());
  t.epilogue.ops.assign(ops.begin(), ops.end());
  return success();
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// The distribution of one contraction.
struct Plan {
  const MatrixInstruction *inst = nullptr;
  int64_t bm = 0, bn = 0, bk = 0;
  /// The wave grid and the wave tile.
  int64_t wavesM = 1, wavesN = 1, tm = 0, tn = 0;
  /// Instructions per wave tile and per K tile.
  int64_t rm = 0, rn = 0, ks = 0;
  Type elementType;
};

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
                                StringRef chip) {
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
  if (chip.empty())
    return contract.emitOpError()
           << "in a tile program needs the target: run "
              "-layout-tile-shared-memory with chip=... (-layout-to-rocdl "
              "and -layout-to-nvvm pass theirs)";
  SmallVector<const MatrixInstruction *> candidates;
  for (const MatrixInstruction *inst : getMatrixInstructions(chip))
    if (inst->inputKind == kind)
      candidates.push_back(inst);
  if (candidates.empty())
    return contract.emitOpError()
           << "in a tile program: " << chip << " has no matrix instruction "
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
  d << "in a tile program: the block tile " << plan.bm << "x" << plan.bn
    << "x" << plan.bk << " (BM x BN x BK) cannot be divided among the "
    << threads << " threads' waves";
  if (!waveTile.empty())
    d << " into wave tiles of " << waveTile[0] << "x" << waveTile[1];
  d << ": each wave tile must be a multiple of the instruction's M x N and "
       "BK of its K, for one of";
  for (const MatrixInstruction *inst : candidates)
    if (shape.empty() || (inst->m == shape[0] && inst->n == shape[1] &&
                          inst->k == shape[2]))
      d << " " << inst->mnemonicOn(chip) << " (" << inst->shapeString()
        << ", wave " << inst->waveSize << ")";
  return failure();
}

//===----------------------------------------------------------------------===//
// Code generation
//===----------------------------------------------------------------------===//

/// A register layout as IR: the packed base and its stages.
Value materializeLayout(OpBuilder &b, Location loc, const Descriptor &d) {
  MLIRContext *ctx = b.getContext();
  Value desc = PackedOp::create(b, loc, DescType::get(ctx, d.getBaseLengths()),
                                b.getDenseI64ArrayAttr(d.getBaseLengths()));
  for (const Stage &stage : d.getStages())
    desc = TransformOp::create(b, loc, desc, stage);
  return desc;
}

/// The vector type of operand `operand` of the MLIR op.
VectorType operandType(const MatrixInstruction &inst, MatrixOperand operand,
                       Type elementType) {
  const MatrixOpSpelling &op = inst.op;
  ArrayRef<int64_t> shape = operand == MatrixOperand::A   ? op.aShape
                            : operand == MatrixOperand::B ? op.bShape
                                                          : op.cShape;
  return VectorType::get(shape, operand == MatrixOperand::C
                                    ? Float32Type::get(elementType.getContext())
                                    : elementType);
}

/// Everything the loop body and the epilogue read.
struct Context {
  const Plan &plan;
  const ContractionTree &tree;
  Value lane;
  /// The wave tile's first row and column in the block tile.
  Value waveRow, waveCol;
  /// The register layouts of A, B and C as descriptors.
  Value layoutA, layoutB, layoutC;
};

/// `v` with the elements in the same (row-major) order as `type`, by
/// extracting and rebuilding them: the GPU lowerings do not lower n-D
/// vector.shape_cast.
Value reshape(OpBuilder &b, Location loc, Value v, VectorType type) {
  auto from = cast<VectorType>(v.getType());
  if (from == type)
    return v;
  SmallVector<Value> elements;
  SmallVector<int64_t> strides = computeStrides(from.getShape());
  for (int64_t i = 0, n = from.getNumElements(); i < n; ++i)
    elements.push_back(
        vector::ExtractOp::create(b, loc, v, delinearize(i, strides)));
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// Runs of the register layout: element e starts a run of `run[e]`
/// elements that every lane holds at consecutive positions along the
/// operand tile's `axis` (0: rows, 1: columns), or 0 inside a run.
SmallVector<int64_t> layoutRuns(const MatrixInstruction &inst,
                                MatrixOperand operand, int axis,
                                int64_t maxRun) {
  int64_t n = inst.elementsPerLane(operand);
  SmallVector<int64_t> runs(n, 0);
  for (int64_t e = 0; e < n;) {
    int64_t run = 1;
    for (int64_t v = maxRun; v > 1; v /= 2) {
      if (e % v || e + v > n)
        continue;
      bool together = true;
      for (int64_t lane = 0; lane < inst.waveSize && together; ++lane) {
        MatrixCoord first = operandCoord(inst, operand, lane, e);
        for (int64_t j = 1; j < v && together; ++j) {
          MatrixCoord x = operandCoord(inst, operand, lane, e + j);
          together = axis == 1 ? (x.row == first.row && x.col == first.col + j)
                               : (x.col == first.col && x.row == first.row + j);
        }
      }
      if (together) {
        run = v;
        break;
      }
    }
    runs[e] = run;
    e += run;
  }
  return runs;
}

/// One lane's fragment of A or B for instruction tile (`rowBase`,
/// `colBase`) of the operand tile, read from the leaf's buffer.
Value readFragment(OpBuilder &b, Location loc, const Context &cx,
                   MatrixOperand operand, Value rowBase, Value colBase) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  const Leaf &leaf = isA ? cx.tree.a : cx.tree.b;
  // Positions of the operand tile's rows and columns in the load's tile.
  int64_t rowPos = isA ? cx.tree.aM : cx.tree.bK;
  int64_t colPos = isA ? cx.tree.aK : cx.tree.bN;
  int axis = leaf.bufDims.back() == colPos ? 1 : 0;
  Type et = cx.plan.elementType;
  int64_t cols = inst.tileShape(operand).second;
  SmallVector<int64_t> runs =
      layoutRuns(inst, operand, axis, widestVector(et, 16));
  Value layout = isA ? cx.layoutA : cx.layoutB;
  SmallVector<Value> elements;
  for (int64_t e = 0; e < int64_t(runs.size()); e += runs[e]) {
    Value off = OffsetOp::create(b, loc, layout,
                                 ValueRange{cx.lane, indexConstant(b, loc, e)});
    Value r = arith::DivUIOp::create(b, loc, off, indexConstant(b, loc, cols));
    Value c = arith::RemUIOp::create(b, loc, off, indexConstant(b, loc, cols));
    SmallVector<Value> coord(2);
    coord[rowPos] = arith::AddIOp::create(b, loc, rowBase, r);
    coord[colPos] = arith::AddIOp::create(b, loc, colBase, c);
    Value at = OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord));
    if (runs[e] == 1) {
      elements.push_back(memref::LoadOp::create(b, loc, leaf.buffer, at));
      continue;
    }
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({runs[e]}, et), leaf.buffer, at,
        /*nontemporal=*/false, llvm::MaybeAlign(runs[e] * elementBytes(et)));
    for (int64_t j = 0; j < runs[e]; ++j)
      elements.push_back(vector::ExtractOp::create(b, loc, v, j));
  }
  return vector::FromElementsOp::create(
      b, loc, operandType(inst, operand, et), elements);
}

/// One matrix instruction: acc + a * b.
Value multiply(OpBuilder &b, Location loc, const MatrixInstruction &inst,
               Value a, Value bv, Value acc) {
  switch (inst.family) {
  case MatrixFamily::MFMA:
    return amdgpu::MFMAOp::create(b, loc, acc.getType(), uint32_t(inst.m),
                                  uint32_t(inst.n), uint32_t(inst.k),
                                  uint32_t(1), a, bv, acc);
  case MatrixFamily::WMMA:
    return amdgpu::WMMAOp::create(b, loc, acc.getType(), uint32_t(inst.m),
                                  uint32_t(inst.n), uint32_t(inst.k), a, bv,
                                  acc);
  case MatrixFamily::MmaSync:
    return nvgpu::MmaSyncOp::create(
        b, loc, a, bv, acc,
        ArrayRef<int64_t>{inst.m, inst.n, inst.k});
  }
  llvm_unreachable("unknown matrix family");
}

/// The K-tile step: fragments of A and B, RM * RN instructions per K step.
SmallVector<Value> multiplyTile(OpBuilder &b, Location loc, const Context &cx,
                                ValueRange accs) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  SmallVector<Value> out(accs);
  for (int64_t ks = 0; ks < plan.ks; ++ks) {
    Value k0 = indexConstant(b, loc, ks * inst.k);
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < plan.rm; ++i) {
      Value row = arith::AddIOp::create(b, loc, cx.waveRow,
                                        indexConstant(b, loc, i * inst.m));
      as.push_back(readFragment(b, loc, cx, MatrixOperand::A, row, k0));
    }
    for (int64_t j = 0; j < plan.rn; ++j) {
      Value col = arith::AddIOp::create(b, loc, cx.waveCol,
                                        indexConstant(b, loc, j * inst.n));
      bs.push_back(readFragment(b, loc, cx, MatrixOperand::B, k0, col));
    }
    for (int64_t i = 0; i < plan.rm; ++i)
      for (int64_t j = 0; j < plan.rn; ++j)
        out[i * plan.rn + j] =
            multiply(b, loc, inst, as[i], bs[j], out[i * plan.rn + j]);
  }
  return out;
}

/// Replaces the contraction's loop by one that carries the fragments.
scf::ForOp rebuildLoop(OpBuilder &b, ContractionTree &t, const Context &cx,
                       gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                       LogicalResult &status) {
  scf::ForOp old = t.loop;
  Location loc = old.getLoc();
  const Plan &plan = cx.plan;
  VectorType fragType =
      operandType(*plan.inst, MatrixOperand::C, plan.elementType);
  Value zero = arith::ConstantOp::create(
      b, loc, fragType, DenseElementsAttr::get(fragType, t.init));
  SmallVector<Value> inits;
  for (auto [i, v] : llvm::enumerate(old.getInitArgs()))
    if (i != t.accIndex)
      inits.push_back(v);
  int64_t kept = inits.size();
  inits.append(plan.rm * plan.rn, zero);
  auto loop = scf::ForOp::create(b, loc, old.getLowerBound(),
                                 old.getUpperBound(), old.getStep(), inits);
  Block *body = loop.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  Block *oldBody = old.getBody();
  // The old body moves in; its arguments become the new ones.
  oldBody->getArgument(0).replaceAllUsesWith(loop.getInductionVar());
  for (unsigned i = 0, j = 0; i < old.getInitArgs().size(); ++i)
    if (i != t.accIndex)
      oldBody->getArgument(i + 1).replaceAllUsesWith(
          body->getArgument(1 + j++));
  body->getOperations().splice(body->end(), oldBody->getOperations());
  for (unsigned i = 0, j = 0; i < old.getNumResults(); ++i)
    if (i != t.accIndex)
      old.getResult(i).replaceAllUsesWith(loop.getResult(j++));
  // The loads' indices now use the new loop's arguments.
  for (Leaf *leaf : {&t.a, &t.b})
    leaf->side.indices = llvm::to_vector(leaf->load.getIndices());
  // Phase 1 at the loads, then the multiplications before the yield.
  if (failed(stageLeaf(func, t.a, block)) ||
      failed(stageLeaf(func, t.b, block))) {
    status = failure();
    return loop;
  }
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder ib(yield);
  gpu::BarrierOp::create(ib, loc);
  SmallVector<Value> accs(body->getArguments().drop_front(1 + kept));
  SmallVector<Value> next = multiplyTile(ib, loc, cx, accs);
  SmallVector<Value> yielded;
  for (auto [i, v] : llvm::enumerate(yield.getOperands()))
    if (i != t.accIndex)
      yielded.push_back(v);
  yielded.append(next);
  scf::YieldOp::create(ib, loc, yielded);
  yield.erase();
  t.contract.erase();
  t.a.load.erase();
  t.b.load.erase();
  status = success();
  return loop;
}

/// After the loop: each lane evaluates the epilogue on its fragments and
/// stores its elements of C, masked at the edges.
LogicalResult storeFragments(OpBuilder &b, ContractionTree &t,
                             const Context &cx, ValueRange accs) {
  StoreOp store = t.epilogue.store;
  Location loc = store.getLoc();
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  std::string why;
  FailureOr<TileAccess> access =
      traceAccess(b, store, store.getPartition(), store.getIndices(),
                  /*atomic=*/false, why);
  if (failed(access))
    return store.emitOpError() << "cannot be distributed: " << why;
  int64_t count = inst.cElementsPerLane;
  int64_t cols = inst.n;
  for (int64_t i = 0; i < plan.rm; ++i)
    for (int64_t j = 0; j < plan.rn; ++j) {
      Value acc = accs[i * plan.rn + j];
      Value flat =
          reshape(b, loc, acc, VectorType::get({count}, b.getF32Type()));
      Value value = evaluateFragment(b, loc, t.epilogue, store.getValue(),
                                     count, [&](unsigned) { return flat; });
      Value row0 = arith::AddIOp::create(b, loc, cx.waveRow,
                                         indexConstant(b, loc, i * inst.m));
      Value col0 = arith::AddIOp::create(b, loc, cx.waveCol,
                                         indexConstant(b, loc, j * inst.n));
      for (int64_t e = 0; e < count; ++e) {
        Value off = OffsetOp::create(
            b, loc, cx.layoutC, ValueRange{cx.lane, indexConstant(b, loc, e)});
        Value r =
            arith::DivUIOp::create(b, loc, off, indexConstant(b, loc, cols));
        Value c =
            arith::RemUIOp::create(b, loc, off, indexConstant(b, loc, cols));
        SmallVector<Value> tileCoord{arith::AddIOp::create(b, loc, row0, r),
                                     arith::AddIOp::create(b, loc, col0, c)};
        SmallVector<Value> coord = tileElementCoord(b, loc, *access, tileCoord);
        Value x = vector::ExtractOp::create(b, loc, value, e);
        storeElement(b, loc, *access, coord, store.getMasked(), x);
      }
    }
  return success();
}

LogicalResult lowerContraction(ContractionTree &t, gpu::GPUFuncOp func,
                               ArrayRef<int64_t> block,
                               const CooperativeTileOptions &options) {
  int64_t threads = block[0] * block[1] * block[2];
  FailureOr<Plan> plan = planContraction(t, threads, options.chip);
  if (failed(plan))
    return failure();
  std::string why;
  for (Leaf *leaf : {&t.a, &t.b})
    if (failed(leaf->side.analyze(options.assumeAlignment, why)))
      return leaf->load.emitOpError() << "cannot be distributed: " << why;
  const MatrixInstruction &inst = *plan->inst;
  Location loc = t.contract.getLoc();
  OpBuilder b(t.loop);
  Context cx{*plan, t, {}, {}, {}, {}, {}, {}};
  Value tid = linearThreadId(b, loc, block);
  Value wave =
      arith::DivUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  cx.lane =
      arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  Value wm = arith::DivUIOp::create(b, loc, wave,
                                    indexConstant(b, loc, plan->wavesN));
  Value wn = arith::RemUIOp::create(b, loc, wave,
                                    indexConstant(b, loc, plan->wavesN));
  cx.waveRow =
      arith::MulIOp::create(b, loc, wm, indexConstant(b, loc, plan->tm));
  cx.waveCol =
      arith::MulIOp::create(b, loc, wn, indexConstant(b, loc, plan->tn));
  cx.layoutA = materializeLayout(b, loc, inst.a);
  cx.layoutB = materializeLayout(b, loc, inst.b);
  cx.layoutC = materializeLayout(b, loc, inst.c);
  LogicalResult status = success();
  scf::ForOp loop = rebuildLoop(b, t, cx, func, block, status);
  if (failed(status))
    return failure();
  OpBuilder eb(t.epilogue.store);
  int64_t kept = loop.getNumResults() - plan->rm * plan->rn;
  if (failed(storeFragments(eb, t, cx, loop.getResults().drop_front(kept))))
    return failure();
  t.epilogue.store.erase();
  for (Operation *op : llvm::reverse(t.epilogue.ops))
    op->erase();
  t.loop.erase();
  return success();
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
    if (failed(tree) || failed(matchEpilogue(*tree, uniform)) ||
        failed(lowerContraction(*tree, func, block, options)))
      return failure();
  }
  return success();
}
