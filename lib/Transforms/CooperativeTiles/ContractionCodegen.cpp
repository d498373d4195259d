//===- ContractionCodegen.cpp - Tile contractions: the emitted code -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The code of a planned tile contraction (Contraction.h describes it): the
// rebuilt K loop carrying each lane's fragments, the staging of A and B,
// the fragment reads through the register layouts, the matrix
// instructions, and the epilogue's masked stores.
//
//===----------------------------------------------------------------------===//

#include "ContractionPlan.h"
#include "Staging.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

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
  /// The instruction's ldmatrix row addresses of A and B as descriptors
  /// (null where A or B is not read with ldmatrix), and the loads.
  Value rowsA, rowsB;
  const LdMatrixLoad *loadA = nullptr, *loadB = nullptr;
  /// The pipeline stage the fragments are read from (null: the buffers
  /// hold one).
  Value stage;
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

/// The (row, col) that `layout` (a register or row-address layout of the
/// table) maps `top` to in its row-major `cols`-column tile, in IR: the
/// layout's offset split as operandCoord splits it.
std::pair<Value, Value> tileCoordAt(OpBuilder &b, Location loc, Value layout,
                                    ValueRange top, int64_t cols) {
  Value off = OffsetOp::create(b, loc, layout, top);
  Value c = indexConstant(b, loc, cols);
  return {arith::DivUIOp::create(b, loc, off, c),
          arith::RemUIOp::create(b, loc, off, c)};
}

/// How `operand` is read with ldmatrix, or nullptr: the instruction has an
/// ldmatrix form for its buffer's order (mma.sync's A and B from K-fastest
/// buffers, B also from an N-fastest one with .trans).
const LdMatrixLoad *ldmatrixLoad(const Plan &plan, const ContractionTree &t,
                                 MatrixOperand operand) {
  const MatrixInstruction &inst = *plan.inst;
  bool isA = operand == MatrixOperand::A;
  const Leaf &leaf = isA ? t.a : t.b;
  if (leaf.bufDims.size() != 2)
    return nullptr;
  if (leaf.bufDims.back() == (isA ? t.aK : t.bK))
    return inst.ldmatrix(operand);
  if (!isA && inst.ldmatrixBTrans)
    return &*inst.ldmatrixBTrans;
  return nullptr;
}

/// The order of an operand's buffer (`leaf.bufDims`, unit dimensions
/// dropped): K fastest, since every register layout holds consecutive K
/// elements per lane (MatrixInstructions.h) and fragment reads are then
/// vectors; except a B whose global rows run along N on a chip that reads
/// B from a K x N tile with ldmatrix.trans, which keeps N fastest so that
/// the staging writes are whole vectors.
void orderBuffer(Leaf &leaf, int64_t kPos, bool nFastest) {
  int64_t last = nFastest ? 1 - kPos : kPos;
  for (int64_t k : {1 - last, last})
    if (leaf.side.tile[k] != 1)
      leaf.bufDims.push_back(k);
}

/// One lane's fragment of A or B with one nvgpu.ldmatrix: each lane gives
/// the address of one 16-byte row of the stored tile (the table's row
/// addresses), and the result is the instruction's fragment.
Value readWithLdMatrix(OpBuilder &b, Location loc, const Context &cx,
                       MatrixOperand operand, Value rows, Value rowBase,
                       Value colBase) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  const LdMatrixLoad &load = *(isA ? cx.loadA : cx.loadB);
  const Leaf &leaf = isA ? cx.tree.a : cx.tree.b;
  auto [r, c] = tileCoordAt(b, loc, rows, cx.lane, load.cols);
  // The stored tile's (r, c) is the operand tile's (r, c), or (c, r) for a
  // B stored N x K; the operand's rows and columns sit at rowPos / colPos of
  // the load's tile.
  if (load.storedTransposed)
    std::swap(r, c);
  SmallVector<Value> coord(2);
  int64_t rowPos = isA ? cx.tree.aM : cx.tree.bK;
  int64_t colPos = isA ? cx.tree.aK : cx.tree.bN;
  coord[rowPos] = arith::AddIOp::create(b, loc, rowBase, r);
  coord[colPos] = arith::AddIOp::create(b, loc, colBase, c);
  Value at =
      OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord, cx.stage));
  return nvgpu::LdMatrixOp::create(
      b, loc, operandType(inst, operand, cx.plan.elementType), leaf.buffer,
      ValueRange{at}, load.transpose, uint32_t(load.numTiles));
}

/// One lane's fragment of A or B for instruction tile (`rowBase`,
/// `colBase`) of the operand tile, read from the leaf's buffer.
Value readFragment(OpBuilder &b, Location loc, const Context &cx,
                   MatrixOperand operand, Value rowBase, Value colBase) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  if (Value rows = isA ? cx.rowsA : cx.rowsB)
    return readWithLdMatrix(b, loc, cx, operand, rows, rowBase, colBase);
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
    auto [r, c] =
        tileCoordAt(b, loc, layout, {cx.lane, indexConstant(b, loc, e)}, cols);
    SmallVector<Value> coord(2);
    coord[rowPos] = arith::AddIOp::create(b, loc, rowBase, r);
    coord[colPos] = arith::AddIOp::create(b, loc, colBase, c);
    Value at =
        OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord, cx.stage));
    if (runs[e] == 1) {
      elements.push_back(memref::LoadOp::create(b, loc, leaf.buffer, at));
      continue;
    }
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({runs[e]}, et), leaf.buffer, at,
        /*nontemporal=*/false,
        workgroupAccessAlignment(runs[e] * elementBytes(et)));
    for (int64_t j = 0; j < runs[e]; ++j)
      elements.push_back(vector::ExtractOp::create(b, loc, v, j));
  }
  return vector::FromElementsOp::create(b, loc, operandType(inst, operand, et),
                                        elements);
}

/// K packing (CK's KPack, Triton's kWidth): the contraction sums over K in
/// any order, so A and B may both read K through the same permutation. When
/// every lane of both register layouts holds one run of R consecutive k at
/// a multiple of R (MFMA f16 / bf16: R = 4, 8 bytes), P consecutive
/// instruction K steps can take their k from one contiguous run of P * R
/// per lane: step s of a group reads the tile's k = P * K * group + P * k0
/// + R * s + e for the lane's k0 + e of the instruction (a bijection of the
/// group's P * K values), so each lane reads its P fragments as one
/// 16-byte vector (ds_read_b128 instead of P ds_read_b64). Returns P, 1
/// when the layouts or the buffers (K fastest, no ldmatrix) do not allow
/// it.
int64_t kPack(const Context &cx) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  if (cx.loadA || cx.loadB)
    return 1;
  int64_t run = 0;
  for (MatrixOperand operand : {MatrixOperand::A, MatrixOperand::B}) {
    bool isA = operand == MatrixOperand::A;
    const Leaf &leaf = isA ? cx.tree.a : cx.tree.b;
    if (leaf.bufDims.back() != (isA ? cx.tree.aK : cx.tree.bK))
      return 1;
    int64_t n = inst.elementsPerLane(operand);
    int axis = isA ? 1 : 0;
    if (layoutRuns(inst, operand, axis, n).front() != n || (run && run != n))
      return 1;
    run = n;
    for (int64_t lane = 0; lane < inst.waveSize; ++lane) {
      MatrixCoord first = operandCoord(inst, operand, lane, 0);
      if ((isA ? first.col : first.row) % n)
        return 1;
    }
  }
  int64_t bytes = run * elementBytes(plan.elementType);
  int64_t pack = bytes < 16 ? 16 / bytes : 1;
  while (pack > 1 && plan.ks % pack)
    pack /= 2;
  return pack;
}

/// One lane's fragments of A or B for `pack` K steps of instruction tile
/// (`rowBase`, `colBase`) of the operand tile (the K coordinate the first
/// step's), read as one vector (kPack).
SmallVector<Value> readPackedFragments(OpBuilder &b, Location loc,
                                       const Context &cx, MatrixOperand operand,
                                       Value rowBase, Value colBase,
                                       int64_t pack) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  const Leaf &leaf = isA ? cx.tree.a : cx.tree.b;
  Type et = cx.plan.elementType;
  int64_t n = inst.elementsPerLane(operand);
  auto [r, c] = tileCoordAt(b, loc, isA ? cx.layoutA : cx.layoutB,
                            {cx.lane, indexConstant(b, loc, 0)},
                            inst.tileShape(operand).second);
  // The lane's k0 moves to pack * k0.
  Value p = indexConstant(b, loc, pack);
  if (isA)
    c = arith::MulIOp::create(b, loc, c, p);
  else
    r = arith::MulIOp::create(b, loc, r, p);
  SmallVector<Value> coord(2);
  coord[isA ? cx.tree.aM : cx.tree.bK] =
      arith::AddIOp::create(b, loc, rowBase, r);
  coord[isA ? cx.tree.aK : cx.tree.bN] =
      arith::AddIOp::create(b, loc, colBase, c);
  Value at =
      OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord, cx.stage));
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({pack * n}, et), leaf.buffer, at,
      /*nontemporal=*/false,
      workgroupAccessAlignment(pack * n * elementBytes(et)));
  SmallVector<Value> fragments;
  for (int64_t s = 0; s < pack; ++s) {
    SmallVector<Value> elements;
    for (int64_t e = 0; e < n; ++e)
      elements.push_back(vector::ExtractOp::create(b, loc, v, s * n + e));
    fragments.push_back(vector::FromElementsOp::create(
        b, loc, operandType(inst, operand, et), elements));
  }
  return fragments;
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
    return nvgpu::MmaSyncOp::create(b, loc, a, bv, acc,
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
  int64_t pack = kPack(cx);
  for (int64_t group = 0; group < plan.ks; group += pack) {
    Value k0 = indexConstant(b, loc, group * inst.k);
    // as[i][s], bs[j][s]: the fragments of K step group + s.
    SmallVector<SmallVector<Value>> as, bs;
    for (int64_t i = 0; i < plan.rm; ++i) {
      Value row = arith::AddIOp::create(b, loc, cx.waveRow,
                                        indexConstant(b, loc, i * inst.m));
      as.push_back(pack > 1 ? readPackedFragments(b, loc, cx, MatrixOperand::A,
                                                  row, k0, pack)
                            : SmallVector<Value>{readFragment(
                                  b, loc, cx, MatrixOperand::A, row, k0)});
    }
    for (int64_t j = 0; j < plan.rn; ++j) {
      Value col = arith::AddIOp::create(b, loc, cx.waveCol,
                                        indexConstant(b, loc, j * inst.n));
      bs.push_back(pack > 1 ? readPackedFragments(b, loc, cx, MatrixOperand::B,
                                                  k0, col, pack)
                            : SmallVector<Value>{readFragment(
                                  b, loc, cx, MatrixOperand::B, k0, col)});
    }
    for (int64_t s = 0; s < pack; ++s)
      for (int64_t i = 0; i < plan.rm; ++i)
        for (int64_t j = 0; j < plan.rn; ++j)
          out[i * plan.rn + j] =
              multiply(b, loc, inst, as[i][s], bs[j][s], out[i * plan.rn + j]);
  }
  return out;
}

/// One operand of the software-pipelined K loop: its phase-1 mapping, and
/// the load's indices with the induction variable marked.
struct Pipelined {
  Leaf *leaf;
  StagingMapping staging;
  /// The tile indices; `isIV` marks those that are the loop's induction
  /// variable (the others are loop-invariant).
  SmallVector<Value> indices;
  SmallVector<bool> isIV;

  SmallVector<Value> at(Value iv) const {
    SmallVector<Value> r;
    for (auto [v, iv0] : llvm::zip_equal(indices, isIV))
      r.push_back(iv0 ? iv : v);
    return r;
  }
};

/// Whether `load`'s indices are the loop's induction variable or
/// loop-invariant (then the tiles of later iterations are known ahead).
bool prefetchable(scf::ForOp loop, LoadOp load) {
  return llvm::all_of(load.getIndices(), [&](Value v) {
    return v == loop.getInductionVar() ||
           !loop.getRegion().isAncestor(v.getParentRegion());
  });
}

/// The tile program's K loop and what each rebuilt version of it starts
/// from.
struct KLoop {
  ContractionTree &t;
  Context cx;
  SmallVector<Pipelined, 2> operands;
  Value tid;
  int64_t threads;
  /// The other iter_args' initial values, then the fragments' (the splat).
  SmallVector<Value> inits;
  int64_t kept;

  int64_t fragments() const { return cx.plan.rm * cx.plan.rn; }
  Location loc() const { return t.loop.getLoc(); }
  /// `x < ub` as the loop compares its induction variable.
  Value below(OpBuilder &b, Value x) const {
    return arith::CmpIOp::create(b, loc(),
                                 t.loop.getUnsignedCmp()
                                     ? arith::CmpIPredicate::ult
                                     : arith::CmpIPredicate::slt,
                                 x, t.loop.getUpperBound());
  }
};

/// Whether the old loop's body holds nothing but the loads, the
/// contraction and the terminator.
bool onlyContraction(ContractionTree &t) {
  Operation *ops[] = {t.contract, t.a.load, t.b.load};
  return llvm::all_of(
      t.loop.getBody()->without_terminator(),
      [&](Operation &op) { return llvm::is_contained(ops, &op); });
}

/// A new loop over the old one's bounds, by `step`, with iter_args
/// `k.inits` then `extra`, into which the old body's other ops are cloned.
/// Returns the loop; `yielded` receives the other iter_args' next values.
scf::ForOp cloneLoop(OpBuilder &b, const KLoop &k, Value step, ValueRange extra,
                     SmallVector<Value> &yielded) {
  scf::ForOp old = k.t.loop;
  SmallVector<Value> inits(k.inits);
  inits.append(extra.begin(), extra.end());
  auto loop =
      scf::ForOp::create(b, k.loc(), old.getLowerBound(), old.getUpperBound(),
                         step, inits, nullptr, old.getUnsignedCmp());
  Block *body = loop.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  IRMapping map;
  map.map(old.getInductionVar(), loop.getInductionVar());
  for (unsigned i = 0, j = 0; i < old.getInitArgs().size(); ++i)
    if (i != k.t.accIndex)
      map.map(old.getRegionIterArgs()[i], loop.getRegionIterArgs()[j++]);
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  Operation *skip[] = {k.t.contract, k.t.a.load, k.t.b.load};
  for (Operation &op : old.getBody()->without_terminator())
    if (!llvm::is_contained(skip, &op))
      ib.clone(op, map);
  for (auto [i, v] :
       llvm::enumerate(old.getBody()->getTerminator()->getOperands()))
    if (i != k.t.accIndex)
      yielded.push_back(map.lookupOrDefault(v));
  return loop;
}

/// The K loop with register prefetch through one LDS stage (stage 0 of a
/// buffer of several): each iteration writes the tile the previous one
/// loaded to LDS, issues the global loads of the next tile, then
/// multiplies from LDS while they are in flight (the loads of the last
/// iteration are skipped). Returns the other iter_args' and the fragments'
/// results.
FailureOr<SmallVector<Value>> registerLoop(OpBuilder &b, const KLoop &k) {
  Location loc = k.loc();
  scf::ForOp old = k.t.loop;
  Context cx = k.cx;
  if (k.operands.front().leaf->stages > 1)
    cx.stage = indexConstant(b, loc, 0);
  SmallVector<Value> regs;
  SmallVector<int64_t> counts;
  for (const Pipelined &p : k.operands) {
    FailureOr<SmallVector<Value>> r =
        loadStagedTile(b, loc, *p.leaf, p.at(old.getLowerBound()), p.staging,
                       k.tid, k.threads);
    if (failed(r))
      return failure();
    counts.push_back(r->size());
    regs.append(*r);
  }
  SmallVector<Value> yielded;
  scf::ForOp loop = cloneLoop(b, k, old.getStep(), regs, yielded);
  OpBuilder ib = OpBuilder::atBlockEnd(loop.getBody());
  ValueRange args = loop.getRegionIterArgs().drop_front(k.kept);
  SmallVector<Value> accs(args.take_front(k.fragments()));
  ValueRange regArgs = args.drop_front(k.fragments());
  // Every thread has read the previous tile; write this one; barrier.
  gpu::BarrierOp::create(ib, loc);
  ValueRange left = regArgs;
  for (auto [p, n] : llvm::zip_equal(k.operands, counts)) {
    storeStagedTile(ib, loc, *p.leaf, p.staging, k.tid, k.threads,
                    left.take_front(n), cx.stage);
    left = left.drop_front(n);
  }
  gpu::BarrierOp::create(ib, loc);
  // The next tiles' loads, skipped after the last iteration.
  Value nextIV =
      arith::AddIOp::create(ib, loc, loop.getInductionVar(), loop.getStep());
  auto next = scf::IfOp::create(ib, loc, TypeRange(regArgs),
                                k.below(ib, nextIV), /*withElse=*/true);
  {
    OpBuilder tb = next.getThenBodyBuilder();
    SmallVector<Value> loaded;
    for (const Pipelined &p : k.operands) {
      FailureOr<SmallVector<Value>> r = loadStagedTile(
          tb, loc, *p.leaf, p.at(nextIV), p.staging, k.tid, k.threads);
      if (failed(r))
        return failure();
      loaded.append(*r);
    }
    scf::YieldOp::create(tb, loc, loaded);
    OpBuilder eb = next.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc, regArgs);
  }
  yielded.append(multiplyTile(ib, loc, cx, accs));
  yielded.append(next.getResults().begin(), next.getResults().end());
  scf::YieldOp::create(ib, loc, yielded);
  return SmallVector<Value>(
      loop.getResults().take_front(k.kept + k.fragments()));
}

/// The K loop with `stages` LDS stages filled by asynchronous copies
/// (cp.async), after the multistage scheme of CUTLASS's sm80 GEMMs: the
/// prologue starts the copies of the first stages - 1 tiles; iteration i
/// waits for its own copies of tile i (all but the newest stages - 2
/// groups), meets the block at a barrier (tile i is then complete, and
/// every thread has finished reading tile i - 1's stage), starts the
/// copies of tile i + stages - 1 into that stage, and multiplies tile i.
/// Every thread commits one group per tile, empty past the last, so that
/// the wait counts are the same in every iteration.
FailureOr<SmallVector<Value>> asyncLoop(OpBuilder &b, const KLoop &k) {
  Location loc = k.loc();
  scf::ForOp old = k.t.loop;
  int64_t stages = k.operands.front().leaf->stages;
  Value lb = old.getLowerBound(), step = old.getStep();
  auto issue = [&](OpBuilder &ob, Value kt, Value stage) -> LogicalResult {
    auto ifOp = scf::IfOp::create(ob, loc, k.below(ob, kt), false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    for (const Pipelined &p : k.operands)
      if (failed(copyStagedTileAsync(tb, loc, *p.leaf, p.at(kt), p.staging,
                                     k.tid, k.threads, stage)))
        return failure();
    NVVM::CpAsyncCommitGroupOp::create(ob, loc);
    return success();
  };
  auto ahead = [&](OpBuilder &ob, Value kt, int64_t tiles) -> Value {
    return arith::AddIOp::create(
        ob, loc, kt,
        arith::MulIOp::create(ob, loc, step, indexConstant(ob, loc, tiles)));
  };
  for (int64_t s = 0; s + 1 < stages; ++s)
    if (failed(issue(b, ahead(b, lb, s), indexConstant(b, loc, s))))
      return failure();
  // One K step: wait for tile `kt` (in `readStage`), meet the block, start
  // the copies of tile kt + stages - 1 into `writeStage`, multiply.
  auto step1 = [&](OpBuilder &ob, Value kt, Value readStage, Value writeStage,
                   ValueRange accs) -> FailureOr<SmallVector<Value>> {
    NVVM::CpAsyncWaitGroupOp::create(ob, loc, uint32_t(stages - 2));
    gpu::BarrierOp::create(ob, loc);
    if (failed(issue(ob, ahead(ob, kt, stages - 1), writeStage)))
      return failure();
    Context cx = k.cx;
    cx.stage = readStage;
    return multiplyTile(ob, loc, cx, accs);
  };
  // A loop of nothing but the contraction is unrolled by the stages, so
  // that every stage index is a constant (the buffers' stage offsets fold
  // into the addresses); each K step past the first is guarded.
  if (onlyContraction(k.t) && k.kept == 0) {
    SmallVector<Value> none;
    scf::ForOp loop = cloneLoop(
        b, k,
        arith::MulIOp::create(b, loc, step, indexConstant(b, loc, stages)), {},
        none);
    Block *body = loop.getBody();
    OpBuilder ib = OpBuilder::atBlockEnd(body);
    SmallVector<Value> accs(loop.getRegionIterArgs());
    for (int64_t j = 0; j < stages; ++j) {
      Value kt =
          j ? ahead(ib, loop.getInductionVar(), j) : loop.getInductionVar();
      auto at = [&](OpBuilder &ob) {
        return step1(ob, kt, indexConstant(ob, loc, j),
                     indexConstant(ob, loc, (j + stages - 1) % stages), accs);
      };
      if (j == 0) {
        FailureOr<SmallVector<Value>> r = at(ib);
        if (failed(r))
          return failure();
        accs = *r;
        continue;
      }
      auto ifOp = scf::IfOp::create(ib, loc, TypeRange(ValueRange(accs)),
                                    k.below(ib, kt), /*withElse=*/true);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      FailureOr<SmallVector<Value>> r = at(tb);
      if (failed(r))
        return failure();
      scf::YieldOp::create(tb, loc, *r);
      OpBuilder eb = ifOp.getElseBodyBuilder();
      scf::YieldOp::create(eb, loc, accs);
      accs.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    }
    scf::YieldOp::create(ib, loc, accs);
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0u);
    return SmallVector<Value>(loop.getResults());
  }
  SmallVector<Value> yielded;
  scf::ForOp loop = cloneLoop(b, k, step, {}, yielded);
  OpBuilder ib = OpBuilder::atBlockEnd(loop.getBody());
  Value iv = loop.getInductionVar();
  Value i = arith::DivUIOp::create(
      ib, loc, arith::SubIOp::create(ib, loc, iv, lb), step);
  Value count = indexConstant(ib, loc, stages);
  Value readStage = arith::RemUIOp::create(ib, loc, i, count);
  Value writeStage = arith::RemUIOp::create(
      ib, loc,
      arith::AddIOp::create(ib, loc, i, indexConstant(ib, loc, stages - 1)),
      count);
  SmallVector<Value> accs(
      loop.getRegionIterArgs().drop_front(k.kept).take_front(k.fragments()));
  FailureOr<SmallVector<Value>> products =
      step1(ib, iv, readStage, writeStage, accs);
  if (failed(products))
    return failure();
  yielded.append(*products);
  scf::YieldOp::create(ib, loc, yielded);
  // The groups left are empty; nothing stays in flight past the kernel.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0u);
  return SmallVector<Value>(loop.getResults());
}

/// Whether `leaf`'s tile can be copied asynchronously: straight into its
/// buffer (the global rows run along the buffer's) as copiesAsync vectors.
bool copiesAsync(const Leaf &leaf, const GlobalAccess &access) {
  return access.copiesAsync() && leaf.bufDims.back() == leaf.side.contiguous;
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
  // The bias rows and columns, each traced once.
  SmallVector<TileAccess> biases;
  for (ContractionTree::Broadcast bc : t.broadcasts) {
    FailureOr<TileAccess> in =
        traceAccess(b, bc.load, bc.load.getPartition(), bc.load.getIndices(),
                    /*atomic=*/false, why);
    if (failed(in))
      return bc.load.emitOpError() << "cannot be distributed: " << why;
    biases.push_back(*in);
  }
  int64_t count = inst.cElementsPerLane;
  int64_t cols = inst.n;
  for (int64_t i = 0; i < plan.rm; ++i)
    for (int64_t j = 0; j < plan.rn; ++j) {
      Value row0 = arith::AddIOp::create(b, loc, cx.waveRow,
                                         indexConstant(b, loc, i * inst.m));
      Value col0 = arith::AddIOp::create(b, loc, cx.waveCol,
                                         indexConstant(b, loc, j * inst.n));
      // The C tile coordinates of the lane's elements.
      SmallVector<SmallVector<Value>> at;
      for (int64_t e = 0; e < count; ++e) {
        auto [r, c] = tileCoordAt(b, loc, cx.layoutC,
                                  {cx.lane, indexConstant(b, loc, e)}, cols);
        at.push_back({arith::AddIOp::create(b, loc, row0, r),
                      arith::AddIOp::create(b, loc, col0, c)});
      }
      Value acc = accs[i * plan.rn + j];
      Value flat =
          reshape(b, loc, acc, VectorType::get({count}, b.getF32Type()));
      auto leafValue = [&](unsigned leaf) -> Value {
        if (leaf == 0)
          return flat;
        ContractionTree::Broadcast bc = t.broadcasts[leaf - 1];
        const TileAccess &in = biases[leaf - 1];
        Type et = in.type.getElementType();
        Value padding = paddingValue(b, loc, et, bc.load.getPadding());
        SmallVector<Value> elements;
        for (ArrayRef<Value> tc : at) {
          // The bias tile's coordinate of C's (row, col).
          SmallVector<Value> inTile;
          if (in.type.getRank() == 2)
            inTile.push_back(bc.along == 1 ? indexConstant(b, loc, 0) : tc[0]);
          inTile.push_back(bc.along == 1 ? tc[1] : indexConstant(b, loc, 0));
          elements.push_back(loadElement(b, loc, in,
                                         tileElementCoord(b, loc, in, inTile),
                                         bc.load.getMasked(), padding));
        }
        return vector::FromElementsOp::create(
            b, loc, VectorType::get({count}, et), elements);
      };
      Value value = evaluateFragment(b, loc, t.epilogue, store.getValue(),
                                     count, leafValue);
      for (int64_t e = 0; e < count; ++e) {
        SmallVector<Value> coord = tileElementCoord(b, loc, *access, at[e]);
        Value x = vector::ExtractOp::create(b, loc, value, e);
        storeElement(b, loc, *access, coord, store.getMasked(), x);
      }
    }
  return success();
}

} // namespace

LogicalResult tiles::emitContraction(ContractionTree &t, const Plan &planned,
                                     gpu::GPUFuncOp func,
                                     ArrayRef<int64_t> block,
                                     const CooperativeTileOptions &options) {
  const Plan *plan = &planned;
  std::string why;
  for (Leaf *leaf : {&t.a, &t.b})
    if (failed(leaf->side.analyze(options.assumeAlignment, why)))
      return leaf->load.emitOpError() << "cannot be distributed: " << why;
  const MatrixInstruction &inst = *plan->inst;
  orderBuffer(t.a, t.aK, /*nFastest=*/false);
  orderBuffer(t.b, t.bK,
              /*nFastest=*/inst.ldmatrixBTrans && t.b.side.unitStride &&
                  t.b.side.contiguous == t.bN);
  Location loc = t.contract.getLoc();
  OpBuilder b(t.loop);
  Context cx{*plan, t, {}, {}, {}, {}, {}, {}, {}, {}, nullptr, nullptr, {}};
  int64_t threads = block[0] * block[1] * block[2];
  scf::ForOp old = t.loop;
  SmallVector<Pipelined, 2> operands;
  for (Leaf *leaf : {&t.a, &t.b}) {
    if (!prefetchable(old, leaf->load))
      return leaf->load.emitOpError()
             << "in a tile contraction: its tile indices must be the loop's "
                "induction variable or defined outside the loop (the software "
                "pipeline loads the next K tile one step ahead)";
    FailureOr<StagingMapping> staging =
        stagingMapping(*leaf, threads, /*transpose=*/true);
    if (failed(staging))
      return failure();
    Pipelined p{leaf, *staging, llvm::to_vector(leaf->load.getIndices()), {}};
    for (Value v : p.indices)
      p.isIV.push_back(v == old.getInductionVar());
    operands.push_back(std::move(p));
  }
  // The pipeline: asynchronous copies into several stages where the chip
  // has them, the operands allow them and the stages fit.
  // planContraction found matrix instructions of the chip: it parses.
  const Chip &memory = *options.chip;
  int64_t stageBytes = 0;
  for (Leaf *leaf : {&t.a, &t.b})
    stageBytes += leaf->stageElements() * elementBytes(leaf->side.elementType);
  // What the kernel already has, placed as the NVVM pipeline places it.
  int64_t used = layoutWorkgroupBuffers(func).bytes;
  SmallVector<Value, 2> alignment;
  std::string notAsync;
  if (!memory.asyncCopy)
    notAsync = options.chip->name +
               " has no asynchronous copies into workgroup "
               "memory";
  for (const Pipelined &p : operands) {
    if (!notAsync.empty())
      break;
    FailureOr<GlobalAccess> access =
        tileAccess(b, *p.leaf, p.at(old.getLowerBound()), p.staging.width);
    if (failed(access))
      return failure();
    if (!copiesAsync(*p.leaf, *access))
      notAsync = std::string(p.leaf == &t.a ? "A" : "B") +
                 " is not copied as 4-, 8- or 16-byte vectors straight into "
                 "its buffer (its rows run across the buffer's, or its view "
                 "does not allow such vectors)";
    else if (Value test = access->alignment())
      alignment.push_back(test);
  }
  int64_t stages = plan->stages;
  if (stages > 1) {
    if (!notAsync.empty())
      return t.contract.emitOpError()
             << "in a tile program: layout.pipeline_stages = " << stages
             << " needs asynchronous copies, but " << notAsync
             << " (1 stage: register prefetch)";
    // Stages asked for may take all the memory a block can have (above the
    // static limit the NVVM pipeline moves the buffers into dynamic shared
    // memory, whose size the launcher passes).
    if (stages * stageBytes > memory.maxBlockBytes - used) {
      InFlightDiagnostic d = t.contract.emitOpError();
      d << "in a tile program: layout.pipeline_stages = " << stages << " needs "
        << stages * stageBytes
        << " bytes of workgroup memory (A and B tiles of " << stageBytes
        << " bytes per stage); " << options.chip->name << " allows "
        << memory.maxBlockBytes << " bytes per block";
      if (memory.maxBlockBytes > memory.maxStaticBytes)
        d << " (" << memory.maxStaticBytes
          << " statically, the rest as dynamic shared memory)";
      if (used)
        d << ", of which the kernel uses " << used;
      return d;
    }
  } else if (plan->stages == 0) {
    // The default stays within the static limit, so that a kernel launches
    // without dynamic shared memory unless its program asks for more: a
    // kernel marked layout.dynamic_shared_memory (its launcher passes the
    // size -layout-dynamic-shared-memory exports) may use all a block has.
    int64_t limit = func->hasAttr(kDynamicSharedMemoryAttr)
                        ? memory.maxBlockBytes
                        : memory.maxStaticBytes;
    int64_t room = limit - used;
    stages = notAsync.empty() ? std::min<int64_t>(3, room / stageBytes) : 1;
    if (stages < 2)
      stages = 1;
  }
  Value tid = linearThreadId(b, loc, block);
  Value wave =
      arith::DivUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  cx.lane =
      arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  Value wm =
      arith::DivUIOp::create(b, loc, wave, indexConstant(b, loc, plan->wavesN));
  Value wn =
      arith::RemUIOp::create(b, loc, wave, indexConstant(b, loc, plan->wavesN));
  cx.waveRow =
      arith::MulIOp::create(b, loc, wm, indexConstant(b, loc, plan->tm));
  cx.waveCol =
      arith::MulIOp::create(b, loc, wn, indexConstant(b, loc, plan->tn));
  cx.layoutA = materializeLayout(b, loc, inst.a);
  cx.layoutB = materializeLayout(b, loc, inst.b);
  cx.layoutC = materializeLayout(b, loc, inst.c);
  cx.loadA = ldmatrixLoad(*plan, t, MatrixOperand::A);
  cx.loadB = ldmatrixLoad(*plan, t, MatrixOperand::B);
  if (cx.loadA)
    cx.rowsA = materializeLayout(b, loc, cx.loadA->rowAddress);
  if (cx.loadB)
    cx.rowsB = materializeLayout(b, loc, cx.loadB->rowAddress);
  KLoop k{t, cx, std::move(operands), tid, threads, {}, 0};
  for (auto [i, v] : llvm::enumerate(old.getInitArgs()))
    if (i != t.accIndex)
      k.inits.push_back(v);
  k.kept = k.inits.size();
  VectorType fragType = operandType(inst, MatrixOperand::C, plan->elementType);
  Value zero = arith::ConstantOp::create(
      b, loc, fragType, DenseElementsAttr::get(fragType, t.init));
  k.inits.append(k.fragments(), zero);
  // One buffer per operand, shared by both versions of the loop.
  for (Leaf *leaf : {&t.a, &t.b})
    allocateStagingBuffer(func, *leaf, b, stages);
  FailureOr<SmallVector<Value>> results;
  Value aligned = allOf(b, loc, alignment);
  if (stages == 1) {
    results = registerLoop(b, k);
  } else if (!aligned) {
    results = asyncLoop(b, k);
  } else {
    // Versioned on the run-time alignment of the operands' rows: copies
    // need aligned vectors; other rows take the register pipeline.
    SmallVector<Type> types;
    for (Value v : k.inits)
      types.push_back(v.getType());
    auto ifOp = scf::IfOp::create(b, loc, types, aligned, /*withElse=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    FailureOr<SmallVector<Value>> fast = asyncLoop(tb, k);
    if (failed(fast))
      return failure();
    scf::YieldOp::create(tb, loc, *fast);
    OpBuilder eb = ifOp.getElseBodyBuilder();
    FailureOr<SmallVector<Value>> slow = registerLoop(eb, k);
    if (failed(slow))
      return failure();
    scf::YieldOp::create(eb, loc, *slow);
    results = SmallVector<Value>(ifOp.getResults());
  }
  if (failed(results))
    return failure();
  for (unsigned i = 0, j = 0; i < old.getNumResults(); ++i)
    if (i != t.accIndex)
      old.getResult(i).replaceAllUsesWith((*results)[j++]);
  OpBuilder eb(t.epilogue.store);
  if (failed(storeFragments(eb, t, cx,
                            ArrayRef<Value>(*results).drop_front(k.kept))))
    return failure();
  t.epilogue.store.erase();
  for (Operation *op : llvm::reverse(t.epilogue.ops))
    op->erase();
  for (ContractionTree::Broadcast bc : t.broadcasts) {
    bc.op.erase();
    bc.load.erase();
  }
  t.loop.erase();
  return success();
}
