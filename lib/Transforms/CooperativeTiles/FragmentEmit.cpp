//===- FragmentEmit.cpp - Fragment programs: the per-lane code ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The emission of a planned fragment program (FragmentProgram.h): a new
// loop whose iter_args are each lane's registers of the carried tiles and
// row vectors; per iteration the staged tiles through their workgroup
// buffers (global loads, barrier, writes, barrier), then the program's ops
// in order on each lane's values; after the loop the stores of the lanes'
// elements (FragmentStores.cpp). The per-op rules are the file comment of
// FragmentProgram.h.
//
//===----------------------------------------------------------------------===//

#include "ContractionFragments.h"
#include "FragmentEmitter.h"

#include "layout/Dialect/Layout/Utils/TileAccess.h"
#include "layout/Transforms/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace mlir {
namespace layout {
namespace tiles {

std::pair<Value, Value> FragmentEmitter::coordOf(OpBuilder &b, int64_t tile,
                                                 int64_t e,
                                                 int64_t tilesPerRow) const {
  auto [r, c] = tileCoordAt(b, loc, cx().layoutC,
                            {cx().lane, indexConstant(b, loc, e)}, inst.n);
  auto add = [&](Value x, Value y, int64_t z) -> Value {
    return arith::AddIOp::create(
        b, loc, x, arith::AddIOp::create(b, loc, y, indexConstant(b, loc, z)));
  };
  Value row = add(cx().waveRow, r, (tile / tilesPerRow) * inst.m);
  Value col = add(cx().waveCol, c, (tile % tilesPerRow) * inst.n);
  if (p.transposed)
    std::swap(row, col);
  return {row, col};
}

Value FragmentEmitter::shuffleXor(OpBuilder &b, Value x, int64_t mask) const {
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  // gpu.shuffle moves 32-bit values on every target (NVVM's shfl takes
  // i32 / f32 only): a narrower element goes as the low bits of an i32.
  Type type = x.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value word = x;
  if (bits != 32) {
    Type narrow = b.getIntegerType(bits);
    word = arith::ExtUIOp::create(
        b, loc, b.getI32Type(),
        isa<IntegerType>(type) ? x
                               : arith::BitcastOp::create(b, loc, narrow, x));
  }
  Value y =
      gpu::ShuffleOp::create(b, loc, word, i32(mask), i32(inst.shuffleLanes()),
                             gpu::ShuffleMode::XOR)
          .getShuffleResult();
  if (bits == 32)
    return y;
  Value low = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), y);
  return isa<IntegerType>(type) ? low
                                : arith::BitcastOp::create(b, loc, type, low);
}

Value FragmentEmitter::selectOwn(OpBuilder &b, uint64_t own, Value mine,
                                 Value other) const {
  // Bit `lane` of `own`.
  Value lane = arith::IndexCastOp::create(b, loc, b.getI64Type(), cx().lane);
  Value bits = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(own));
  Value bit = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, lane),
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1)));
  Value set = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, bit,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)));
  return arith::SelectOp::create(b, loc, set, mine, other);
}

Value FragmentEmitter::elementAt(OpBuilder &b, Value fragment,
                                 int64_t e) const {
  auto type = cast<VectorType>(fragment.getType());
  return vector::ExtractOp::create(
      b, loc, fragment, delinearize(e, computeStrides(type.getShape())));
}

Value FragmentEmitter::splatAs(OpBuilder &b, Value v, VectorType type) const {
  if (auto cst = v.getDefiningOp<arith::ConstantOp>()) {
    auto dense = cast<DenseElementsAttr>(cst.getValue());
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  }
  return vector::BroadcastOp::create(b, loc, type, splatScalar(b, v));
}

Value FragmentEmitter::splatScalar(OpBuilder &b, Value v) const {
  Operation *def = v.getDefiningOp();
  switch (def ? classifyFragmentOp(def) : FragmentOp::None) {
  case FragmentOp::SplatConstant:
    return arith::ConstantOp::create(
        b, loc,
        cast<TypedAttr>(
            cast<DenseElementsAttr>(cast<arith::ConstantOp>(def).getValue())
                .getSplatValue<Attribute>()));
  case FragmentOp::ScalarBroadcast:
    return scalar(cast<vector::BroadcastOp>(def).getSource());
  default:
    return Value();
  }
}

SmallVector<Value>
FragmentEmitter::accumulatorParts(OpBuilder &b,
                                  const FragmentSite &site) const {
  SmallVector<Value> accs;
  for (int64_t i = 0, n = site.plan.rm * site.plan.rn; i < n; ++i)
    accs.push_back(partOf(b, vector::ContractionOp(site.contract).getAcc(), i,
                          fragmentType(b.getF32Type())));
  return accs;
}

Value FragmentEmitter::partOf(OpBuilder &b, Value v, int64_t i,
                              VectorType type) const {
  auto it = values.find(v);
  if (it == values.end())
    return splatAs(b, v, type);
  return it->second.parts[i];
}

void FragmentEmitter::emitElementwise(OpBuilder &b, Operation *op) {
  Value result = op->getResult(0);
  FragmentKind kind = p.kinds.lookup(result);
  Type et = getElementTypeOrSelf(result.getType());
  int64_t n = kind == FragmentKind::Matrix ? fragmentsOf(result) : 1;
  LaneValue out{kind, {}};
  for (int64_t i = 0; i < n; ++i) {
    IRMapping map;
    for (Value operand : op->getOperands()) {
      Type oet = getElementTypeOrSelf(operand.getType());
      VectorType type =
          kind == FragmentKind::Matrix ? fragmentType(oet) : sliceType(oet);
      map.map(operand, partOf(b, operand, i, type));
    }
    Operation *clone = b.clone(*op, map);
    clone->getResult(0).setType(kind == FragmentKind::Matrix ? fragmentType(et)
                                                             : sliceType(et));
    out.parts.push_back(clone->getResult(0));
  }
  values[result] = std::move(out);
}

void FragmentEmitter::emitMask(OpBuilder &b, arith::SelectOp select,
                               const FragmentMask &m) {
  // Whether every compare holds over the block tile: each side's least and
  // greatest value there (a position sequence's ends, monotone in either
  // direction; a splat's value), x < y (or <=) everywhere when it holds
  // for the greatest x and the least y, x > y (or >=) for the least x and
  // the greatest y.
  Value everywhere;
  for (arith::CmpIOp compare : m.compares) {
    arith::CmpIPredicate pred = compare.getPredicate();
    bool isSigned = llvm::is_contained(
        {arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
         arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge},
        pred);
    auto range = [&](Value side) -> std::pair<Value, Value> {
      if (Value x = splatScalar(b, side))
        return {x, x};
      auto positions = side.getDefiningOp<vector::BroadcastOp>();
      int64_t n = cast<VectorType>(positions.getSourceType()).getDimSize(0);
      Value first =
          positionAt(b, positions.getSource(), indexConstant(b, loc, 0));
      Value last =
          positionAt(b, positions.getSource(), indexConstant(b, loc, n - 1));
      if (isSigned)
        return {arith::MinSIOp::create(b, loc, first, last),
                arith::MaxSIOp::create(b, loc, first, last)};
      return {arith::MinUIOp::create(b, loc, first, last),
              arith::MaxUIOp::create(b, loc, first, last)};
    };
    auto [lhsMin, lhsMax] = range(compare.getLhs());
    auto [rhsMin, rhsMax] = range(compare.getRhs());
    bool less = llvm::is_contained(
        {arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
         arith::CmpIPredicate::ult, arith::CmpIPredicate::ule},
        pred);
    Value holds = arith::CmpIOp::create(b, loc, pred, less ? lhsMax : lhsMin,
                                        less ? rhsMin : rhsMax);
    everywhere =
        everywhere ? arith::AndIOp::create(b, loc, everywhere, holds) : holds;
  }
  emitLayoutRemark(
      select.getLoc(), "FragmentMask", "layout-tiles",
      select->getParentOfType<gpu::GPUFuncOp>().getName(),
      llvm::formatv("in a fragment program: a mask of {0} position "
                    "compare(s), tested at the block tile's ends first: "
                    "where it holds on the whole tile a block-uniform "
                    "branch skips the compares and selects",
                    m.compares.size()),
      {{"Compares", std::to_string(m.compares.size())}}, p.remarks);
  Value result = select.getResult();
  VectorType type = fragmentType(getElementTypeOrSelf(result.getType()));
  int64_t n = fragmentsOf(result);
  auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(n, type), everywhere,
                                /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  SmallVector<Value> kept;
  for (int64_t i = 0; i < n; ++i)
    kept.push_back(partOf(tb, select.getTrueValue(), i, type));
  scf::YieldOp::create(tb, loc, kept);
  OpBuilder eb = ifOp.getElseBodyBuilder();
  for (Operation *op : m.ops) {
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
      emitBroadcast(eb, broadcast);
    else
      emitElementwise(eb, op);
  }
  emitElementwise(eb, select);
  scf::YieldOp::create(eb, loc, values[result].parts);
  values[result] = {FragmentKind::Matrix,
                    SmallVector<Value>(ifOp.getResults())};
}

void FragmentEmitter::emitReduction(OpBuilder &b,
                                    vector::MultiDimReductionOp op) {
  int64_t cols = op.getSourceVectorType().getDimSize(1);
  const FragmentReduction &r = p.reductionOf(cols);
  SmallVector<Value> source = values.lookup(op.getSource()).parts;
  Type et = op.getSourceVectorType().getElementType();
  Value acc = partOf(b, op.getAcc(), 0, sliceType(et));
  Value width = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(inst.shuffleLanes()));
  SmallVector<Value> rows;
  for (auto [g, group] : llvm::enumerate(r.groups)) {
    // The lane's registers of the row, then the lanes that share it.
    Value x;
    for (FragmentRegister reg : group) {
      Value y = elementAt(b, source[reg.tile], reg.element);
      x = x ? vector::makeArithReduction(b, loc, op.getKind(), x, y) : y;
    }
    for (int64_t mask : r.masks) {
      Value offset =
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(mask));
      Value other = gpu::ShuffleOp::create(b, loc, x, offset, width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      x = vector::makeArithReduction(b, loc, op.getKind(), x, other);
    }
    // The accumulator last: every lane of the row holds it.
    Value a = vector::ExtractOp::create(b, loc, acc, int64_t(g));
    rows.push_back(vector::makeArithReduction(b, loc, op.getKind(), x, a));
  }
  values[op.getResult()] = {
      FragmentKind::Slice,
      {vector::FromElementsOp::create(b, loc, sliceType(et), rows)}};
  std::string masks;
  for (int64_t mask : r.masks)
    masks += (masks.empty() ? "" : ", ") + std::to_string(mask);
  emitLayoutRemark(
      op.getLoc(), "FragmentReduction", "layout-tiles",
      op->getParentOfType<gpu::GPUFuncOp>().getName(),
      llvm::formatv("in a fragment program: row {0} in registers: {1} "
                    "registers per row in each lane, then gpu.shuffle xor "
                    "{2}; no workgroup memory",
                    vector::stringifyCombiningKind(op.getKind()),
                    r.groups.front().size(), masks.empty() ? "none" : masks),
      {{"Masks", masks}}, p.remarks);
}

Value FragmentEmitter::positionAt(OpBuilder &b, Value v, Value at) {
  Operation *def = v.getDefiningOp();
  if (isa<vector::StepOp>(def))
    return at;
  if (auto sequence = arithmeticSequence(def)) {
    // first + step * at, in the constant's element type.
    Type et = getElementTypeOrSelf(v);
    Value i = at;
    if (!et.isIndex())
      i = arith::IndexCastOp::create(b, loc, et, at);
    auto c = [&](int64_t x) -> Value {
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(et, x));
    };
    return arith::AddIOp::create(
        b, loc, c(sequence->first),
        arith::MulIOp::create(b, loc, i, c(sequence->second)));
  }
  if (auto cast = dyn_cast<vector::ShapeCastOp>(def))
    return positionAt(b, cast.getSource(), at);
  // An elementwise op of positions and splats (FragmentProgram.cpp checked).
  IRMapping map;
  for (Value operand : def->getOperands()) {
    Value x = splatScalar(b, operand);
    map.map(operand, x ? x : positionAt(b, operand, at));
  }
  Operation *clone = b.clone(*def, map);
  clone->getResult(0).setType(getElementTypeOrSelf(def->getResult(0)));
  return clone->getResult(0);
}

void FragmentEmitter::emitPositions(OpBuilder &b, vector::BroadcastOp op) {
  VectorType type = op.getResultVectorType();
  bool columns = cast<VectorType>(op.getSourceType()).getRank() == 1;
  int64_t perRow = p.tilesOf(type.getDimSize(1)).second;
  int64_t count = inst.cElementsPerLane;
  LaneValue out{FragmentKind::Matrix, {}};
  for (int64_t t = 0, n = fragmentsOf(type.getDimSize(1)); t < n; ++t) {
    SmallVector<Value> elements;
    for (int64_t e = 0; e < count; ++e) {
      auto [row, col] = coordOf(b, t, e, perRow);
      elements.push_back(positionAt(b, op.getSource(), columns ? col : row));
    }
    out.parts.push_back(vector::FromElementsOp::create(
        b, loc, fragmentType(type.getElementType()), elements));
  }
  values[op.getResult()] = std::move(out);
}

void FragmentEmitter::emitBroadcast(OpBuilder &b, vector::BroadcastOp op) {
  if (p.kinds.lookup(op.getSource()) == FragmentKind::Coordinates ||
      !values.count(op.getSource()))
    return emitPositions(b, op);
  int64_t cols = op.getResultVectorType().getDimSize(1);
  const FragmentReduction &r = p.reductionOf(cols);
  Value slice = values.lookup(op.getSource()).parts.front();
  Type et = op.getResultVectorType().getElementType();
  int64_t count = inst.cElementsPerLane;
  // Register (tile, element) holds the value of its row's group.
  SmallVector<int64_t> groupOf(fragmentsOf(cols) * count, -1);
  for (auto [g, group] : llvm::enumerate(r.groups))
    for (FragmentRegister reg : group)
      groupOf[reg.tile * count + reg.element] = g;
  SmallVector<Value> rowValues;
  for (int64_t g = 0, e = r.groups.size(); g < e; ++g)
    rowValues.push_back(vector::ExtractOp::create(b, loc, slice, g));
  LaneValue out{FragmentKind::Matrix, {}};
  for (int64_t t = 0, e = fragmentsOf(cols); t < e; ++t) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < count; ++i)
      elements.push_back(rowValues[groupOf[t * count + i]]);
    out.parts.push_back(
        vector::FromElementsOp::create(b, loc, fragmentType(et), elements));
  }
  values[op.getResult()] = std::move(out);
}

/// Stages the leaves among `leaves` not staged yet: each thread's global
/// loads, a barrier (every thread is done with the previous tiles), the
/// writes, a barrier. One tile at a time in registers per leaf group: a
/// contraction's operands are staged right before it.
LogicalResult FragmentEmitter::stage(OpBuilder &b, ArrayRef<int> leaves) {
  SmallVector<int> todo;
  for (int i : leaves)
    if (i >= 0 && staged.insert(i).second)
      todo.push_back(i);
  if (todo.empty())
    return success();
  SmallVector<SmallVector<Value>> regs;
  for (int i : todo) {
    const Leaf &leaf = p.leaves[i];
    LoadOp load = leaf.load;
    SmallVector<Value> indices;
    for (Value v : load.getIndices())
      indices.push_back(scalar(v));
    FailureOr<SmallVector<Value>> r =
        loadStagedTile(b, loc, leaf, indices, p.staging[i], tid, threads);
    if (failed(r))
      return failure();
    regs.push_back(*r);
  }
  gpu::BarrierOp::create(b, loc);
  for (auto [i, r] : llvm::zip_equal(todo, regs))
    storeStagedTile(b, loc, p.leaves[i], p.staging[i], tid, threads, r,
                    Value());
  fenceStagingForWarpgroupMma(b, loc, inst);
  gpu::BarrierOp::create(b, loc);
  return success();
}

Value FragmentEmitter::reViewTile(OpBuilder &b, const FragmentSite &site,
                                  ArrayRef<Value> producer,
                                  Exchanges &exchanged, int64_t tile) const {
  // The computed operand (A, or B of the transposed products) is a re-view
  // of the producer's C fragments (FragmentProgram.cpp checked that it is
  // the same in every lane): tile `tile` of it, per K step.
  MatrixOperand computed = p.transposed ? MatrixOperand::B : MatrixOperand::A;
  const MatrixInstruction &consumer = *p.operandInst;
  int64_t elements = consumer.elementsPerLane(computed);
  SmallVector<Value> regs;
  for (int64_t e = 0; e < elements; ++e) {
    const FragmentSource &from = site.sources[tile * elements + e];
    Value own = elementAt(b, producer[from.reg.tile], from.reg.element);
    if (!from.xorMask) {
      regs.push_back(own);
      continue;
    }
    Value &other = exchanged[{from.reg.tile, from.reg.element, from.xorMask}];
    if (!other)
      other = shuffleXor(b, own, from.xorMask);
    regs.push_back(from.own ? selectOwn(b, from.own, own, other) : other);
  }
  return fragmentOf(b, loc, consumer, computed, p.elementType, std::move(regs));
}

LogicalResult FragmentEmitter::emitContraction(OpBuilder &b,
                                               const FragmentSite &site) {
  if (failed(copier->pipelined()
                 ? copier->arrive(b, &site - p.sites.data(), scalars)
                 : stage(b, {site.a, site.b})))
    return failure();
  const Plan &plan = site.plan;
  const FragmentContext &c = contexts[&site - p.sites.data()];
  vector::ContractionOp contract = site.contract;
  SmallVector<Value> accs = accumulatorParts(b, site);
  SmallVector<Value> producer;
  if (site.lhs < 0)
    producer = values.lookup(contract.getLhs()).parts;
  Exchanges exchanged;
  auto reView = [&](int64_t tile) {
    return SmallVector<Value>{reViewTile(b, site, producer, exchanged, tile)};
  };
  int64_t index = &site - p.sites.data();
  if (inst.operandsInWorkgroupMemory()) {
    auto aRegisters = [&](int64_t tile) { return reView(tile).front(); };
    values[contract.getResult()] = {
        FragmentKind::Matrix,
        multiplyWarpgroupFragments(
            b, loc, c, accs,
            site.lhs < 0 ? function_ref<Value(int64_t)>(aRegisters) : nullptr)};
    return copier->release(b, index, scalars);
  }
  // An operand's `count` fragments at K offset `k0`: read from its staged
  // leaf, or re-viewed (instruction tile `tileOf(i)` of the computed one).
  auto operand = [&](MatrixOperand which, int leaf, int64_t count, Value base,
                     int64_t step, Value k0,
                     function_ref<int64_t(int64_t)> tileOf) {
    if (leaf >= 0)
      return readOperandFragments(b, loc, c, which, count, base, step, k0, 1);
    OperandFragments out;
    for (int64_t i = 0; i < count; ++i)
      out.push_back(reView(tileOf(i)));
    return out;
  };
  for (int64_t s = 0; s < plan.ks; ++s) {
    Value k0 = indexConstant(b, loc, s * inst.k);
    // A's instruction tiles are rm x ks, B's ks x rn.
    OperandFragments as =
        operand(MatrixOperand::A, site.a, plan.rm, c.waveRow, inst.m, k0,
                [&](int64_t i) { return i * plan.ks + s; });
    OperandFragments bs =
        operand(MatrixOperand::B, site.b, plan.rn, c.waveCol, inst.n, k0,
                [&](int64_t j) { return s * plan.rn + j; });
    multiplyFragments(b, loc, inst, as, bs, accs, 1);
  }
  values[contract.getResult()] = {FragmentKind::Matrix, accs};
  return copier->release(b, index, scalars);
}

LogicalResult FragmentEmitter::emitOp(OpBuilder &b, Operation *op) {
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(b, store);
  if (isa<LoadOp>(op) || op->getNumResults() == 0)
    return success();
  Value result = op->getResult(0);
  switch (p.kinds.lookup(result)) {
  case FragmentKind::Scalar:
    b.clone(*op, scalars);
    return success();
  case FragmentKind::Splat:
  case FragmentKind::Staged:
  case FragmentKind::Coordinates:
    return success(); // materialized at each use / staged per iteration
  case FragmentKind::Matrix:
  case FragmentKind::Slice:
    break;
  }
  // A planned mask's compare and position broadcasts are emitted with its
  // select (emitMask), where the mask is evaluated.
  for (const auto &[select, mask] : p.masks)
    if (llvm::is_contained(mask.ops, op))
      return success();
  if (auto it = p.masks.find(op); it != p.masks.end()) {
    emitMask(b, cast<arith::SelectOp>(op), it->second);
    return success();
  }
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    for (const FragmentSite &site : p.sites)
      if (site.contract == contract)
        return emitContraction(b, site);
  } else if (auto reduce = dyn_cast<vector::MultiDimReductionOp>(op)) {
    emitReduction(b, reduce);
  } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    emitBroadcast(b, broadcast);
  } else if (auto cast = dyn_cast<vector::ShapeCastOp>(op)) {
    values[result] = values.lookup(cast.getSource());
  } else {
    emitElementwise(b, op);
  }
  return success();
}

void FragmentEmitter::remark(const FragmentSite &site) const {
  const Plan &plan = site.plan;
  vector::ContractionOp contract = site.contract;
  StringRef operand = p.transposed ? "B" : "A";
  std::string lhs =
      site.lhs >= 0
          ? llvm::formatv("its lhs staged through workgroup memory as the "
                          "instruction's {0}",
                          operand)
                .str()
      : site.shuffles
          ? llvm::formatv("its lhs the accumulator's registers as the "
                          "instruction's {0} by {1} gpu.shuffle xor per "
                          "lane (no workgroup memory)",
                          operand, site.shuffles)
                .str()
          : llvm::formatv("its lhs a re-view of the accumulator's registers "
                          "as the instruction's {0} (0 shuffles, no "
                          "workgroup memory)",
                          operand)
                .str();
  // wgmma: one m64nN per K step over the m64n8 fragments (FragmentWarpgroup).
  std::string instruction =
      inst.operandsInWorkgroupMemory()
          ? llvm::formatv("wgmma m64n{0}k{1} ({2} A)", plan.tn, inst.k,
                          site.lhs >= 0
                              ? "workgroup-memory"
                              : "register, layout.warpgroup_mma_reg_a")
                .str()
          : llvm::formatv("{0} ({1})", inst.mnemonic, inst.shapeString()).str();
  emitLayoutRemark(
      contract.getLoc(), "FragmentContraction", "layout-tiles",
      contract->getParentOfType<gpu::GPUFuncOp>().getName(),
      llvm::formatv("in a fragment program: {0}{1}, {2} waves of "
                    "{3}x{4} tiles; {5}",
                    instruction,
                    p.transposed ? " on the transposed products" : "", p.waves,
                    plan.tm, plan.tn, lhs),
      {{"Instruction", inst.mnemonic.str()},
       {"A", site.lhs >= 0 ? "staged" : "re-view"}},
      p.remarks);
}

SmallVector<Value> initialParts(OpBuilder &b, FragmentEmitter &e) {
  SmallVector<Value> inits;
  for (auto [arg, init] :
       llvm::zip_equal(e.p.loop.getRegionIterArgs(), e.p.loop.getInitArgs())) {
    FragmentKind kind = e.p.kinds.lookup(arg);
    Type et = getElementTypeOrSelf(arg.getType());
    if (kind == FragmentKind::Scalar)
      inits.push_back(init);
    else if (kind == FragmentKind::Slice)
      inits.push_back(e.splatAs(b, init, e.sliceType(et)));
    else
      inits.append(e.fragmentsOf(arg), e.splatAs(b, init, e.fragmentType(et)));
  }
  return inits;
}

void bindParts(FragmentEmitter &e, ValueRange targets, ValueRange parts) {
  for (Value target : targets) {
    FragmentKind kind = e.p.kinds.lookup(target);
    int64_t n = e.partsOf(target);
    if (kind == FragmentKind::Scalar)
      e.scalars.map(target, parts.front());
    else
      e.values[target] = {kind, SmallVector<Value>(parts.take_front(n))};
    parts = parts.drop_front(n);
  }
}

void appendYielded(OpBuilder &b, FragmentEmitter &e, Value arg, Value v,
                   SmallVector<Value> &out) {
  FragmentKind kind = e.p.kinds.lookup(arg);
  Type et = getElementTypeOrSelf(arg.getType());
  if (kind == FragmentKind::Scalar)
    out.push_back(e.scalar(v));
  else if (kind == FragmentKind::Slice)
    out.push_back(e.partOf(b, v, 0, e.sliceType(et)));
  else
    for (int64_t i = 0, n = e.fragmentsOf(arg); i < n; ++i)
      out.push_back(e.partOf(b, v, i, e.fragmentType(et)));
}

/// The ops after the loop (the stores of its results, bound by the
/// caller); erases the tile program.
LogicalResult emitAfterLoop(FragmentEmitter &e) {
  for (Operation *op : e.p.after) {
    OpBuilder ab(op);
    if (failed(e.emitOp(ab, op)))
      return failure();
  }
  for (Operation *op : llvm::reverse(e.p.after))
    op->erase();
  e.p.loop.erase();
  return success();
}

} // namespace tiles
} // namespace layout
} // namespace mlir

LogicalResult tiles::emitFragmentProgram(FragmentProgram &p,
                                         gpu::GPUFuncOp func,
                                         ArrayRef<int64_t> block) {
  scf::ForOp old = p.loop;
  Location loc = old.getLoc();
  OpBuilder b(old);
  FragmentEmitter e{p,  loc, *p.inst, {},
                    {}, {},  {},      block[0] * block[1] * block[2]};
  e.tid = linearThreadId(b, loc, block);
  e.copier.emplace(p, loc, e.tid, e.threads);
  e.copier->remark();
  for (FragmentSite &site : p.sites) {
    OperandLeaves leaves{site.a >= 0 ? &p.leaves[site.a] : nullptr,
                         &p.leaves[site.b],
                         site.aM,
                         site.aK,
                         site.bK,
                         site.bN};
    e.contexts.push_back(
        FragmentContext::create(b, loc, site.plan, leaves, e.tid));
    e.remark(site);
  }
  bool rotated = p.rotation.deferred >= 0;
  for (auto [i, leaf] : llvm::enumerate(p.leaves)) {
    // A rotated loop's copies, or those asked for ahead, run a whole
    // iteration ahead: two stages.
    bool variant = !llvm::is_contained(p.copies.beforeLoop, int(i));
    allocateStagingBuffer(func, leaf, b,
                          (rotated || p.copies.ahead) && variant ? 2 : 1);
    if (p.inst->operandsInWorkgroupMemory())
      layOutForWarpgroupMma(func, leaf, b);
  }
  if (rotated) {
    if (failed(emitRotatedLoop(e, b)))
      return failure();
    return emitAfterLoop(e);
  }
  // The first iteration's copies start first; tiles whose indices the loop
  // does not change (Q) are then staged once, while they are in flight
  // (FragmentCopyPlan::beforeLoop).
  FailureOr<SmallVector<Value>> carried = e.copier->prologue(b);
  if (failed(carried) || failed(e.stage(b, p.copies.beforeLoop)))
    return failure();
  DenseSet<int> beforeLoop = e.staged;
  SmallVector<Value> inits = initialParts(b, e);
  llvm::append_range(inits, *carried);
  auto loop =
      scf::ForOp::create(b, loc, old.getLowerBound(), old.getUpperBound(),
                         old.getStep(), inits, nullptr, old.getUnsignedCmp());
  loop->setAttr(kMatrixInstructionAttr,
                b.getDenseI64ArrayAttr({p.inst->m, p.inst->n, p.inst->k}));
  if (p.inst->operandsInWorkgroupMemory())
    loop->setAttr(kProductOrderAttr, b.getStringAttr("program"));
  Block *body = loop.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  e.staged = beforeLoop;
  e.scalars.map(old.getInductionVar(), loop.getInductionVar());
  bindParts(e, old.getRegionIterArgs(), loop.getRegionIterArgs());
  e.copier->enterLoop(loop,
                      loop.getRegionIterArgs().take_back(carried->size()));
  // The scalars first (the staged tiles' indices); each staged tile right
  // before its first contraction (FragmentEmitter::stage).
  for (Operation &op : old.getBody()->without_terminator())
    if (op.getNumResults() &&
        p.kinds.lookup(op.getResult(0)) == FragmentKind::Scalar)
      ib.clone(op, e.scalars);
  if (p.copies.ahead) {
    // Every product reads this iteration's stage.
    Value stage = e.copier->stageAt(ib, loop.getInductionVar());
    for (FragmentContext &cx : e.contexts)
      cx.stage = stage;
    if (failed(e.copier->startIteration(ib, stage, e.scalars)))
      return failure();
  }
  for (Operation &op : old.getBody()->without_terminator())
    if (!op.getNumResults() ||
        p.kinds.lookup(op.getResult(0)) != FragmentKind::Scalar)
      if (failed(e.emitOp(ib, &op)))
        return failure();
  SmallVector<Value> yielded;
  for (auto [arg, v] :
       llvm::zip_equal(old.getRegionIterArgs(),
                       old.getBody()->getTerminator()->getOperands()))
    appendYielded(ib, e, arg, v, yielded);
  llvm::append_range(yielded, e.copier->yielded());
  scf::YieldOp::create(ib, loc, yielded);
  e.copier->finish(b);
  bindParts(e, old.getResults(), loop.getResults());
  return emitAfterLoop(e);
}
