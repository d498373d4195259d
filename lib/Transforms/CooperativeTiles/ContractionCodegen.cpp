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

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

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
  Value at = OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord));
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
  return vector::FromElementsOp::create(b, loc, operandType(inst, operand, et),
                                        elements);
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
/// One thread's blocks of `leaf`'s tile at tile `indices`, loaded into
/// registers at `b` (whole-tile test once, then unguarded or guarded
/// vectors, as phase 1 of the other tile programs).
FailureOr<SmallVector<Value>> loadStagedTile(OpBuilder &b, Location loc,
                                             const Leaf &leaf,
                                             ArrayRef<Value> indices,
                                             const StagingMapping &staging,
                                             Value tid, int64_t threads) {
  GlobalSide side = leaf.side;
  side.indices.assign(indices.begin(), indices.end());
  std::string why;
  FailureOr<GlobalAccess> in =
      GlobalAccess::create(b, side, staging.width, why);
  if (failed(in))
    return LoadOp(leaf.load).emitOpError() << "cannot be distributed: " << why;
  auto blocks = [&](OpBuilder &lb, bool inside) {
    SmallVector<Value> values;
    for (int64_t it = 0; it < staging.iterations; ++it) {
      SmallVector<Value> origin = staging.mapping.blockOrigin(
          lb, loc, tid, indexConstant(lb, loc, it), threads);
      values.push_back(in->load(lb, origin, inside));
    }
    return values;
  };
  Value whole = in->tileInside(b);
  if (!whole)
    return blocks(b, true);
  auto ifOp = scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &tb, Location) {
        scf::YieldOp::create(tb, loc, blocks(tb, true));
      },
      [&](OpBuilder &eb, Location) {
        scf::YieldOp::create(eb, loc, blocks(eb, false));
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// Writes one thread's blocks `values` of `leaf`'s tile to its buffer.
void storeStagedTile(OpBuilder &b, Location loc, const Leaf &leaf,
                     const StagingMapping &staging, Value tid, int64_t threads,
                     ValueRange values) {
  for (auto [it, v] : llvm::enumerate(values)) {
    SmallVector<Value> origin = staging.mapping.blockOrigin(
        b, loc, tid, indexConstant(b, loc, it), threads);
    writeStagedBlock(b, loc, leaf, origin, v, staging.width);
  }
}

/// The software pipeline of one operand (register prefetch): its phase-1
/// mapping, and the load's indices with the induction variable marked.
struct Prefetch {
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
/// loop-invariant (then the next tile's indices are known a step ahead).
bool prefetchable(scf::ForOp loop, LoadOp load) {
  return llvm::all_of(load.getIndices(), [&](Value v) {
    return v == loop.getInductionVar() ||
           !loop.getRegion().isAncestor(v.getParentRegion());
  });
}

/// Replaces the contraction's loop by one that carries the fragments and,
/// software-pipelined, the next K tile of A and B in registers: each
/// iteration writes the tile the previous one loaded to LDS, issues the
/// global loads of the next tile, then multiplies from LDS while they are
/// in flight (one LDS stage; the loads of the last iteration are skipped).
scf::ForOp rebuildLoop(OpBuilder &b, ContractionTree &t, const Context &cx,
                       gpu::GPUFuncOp func, ArrayRef<int64_t> block,
                       LogicalResult &status) {
  status = failure();
  scf::ForOp old = t.loop;
  Location loc = old.getLoc();
  const Plan &plan = cx.plan;
  int64_t threads = block[0] * block[1] * block[2];
  SmallVector<Prefetch, 2> prefetch;
  for (Leaf *leaf : {&t.a, &t.b}) {
    if (!prefetchable(old, leaf->load)) {
      leaf->load.emitOpError()
          << "in a tile contraction: its tile indices must be the loop's "
             "induction variable or defined outside the loop (the software "
             "pipeline loads the next K tile one step ahead)";
      return old;
    }
    FailureOr<StagingMapping> staging = stagingMapping(*leaf, threads);
    if (failed(staging))
      return old;
    Prefetch p{leaf, *staging, llvm::to_vector(leaf->load.getIndices()), {}};
    for (Value v : p.indices)
      p.isIV.push_back(v == old.getInductionVar());
    prefetch.push_back(std::move(p));
  }
  // The prologue: buffers and the first tiles' registers.
  Value tid = linearThreadId(b, loc, block);
  SmallVector<Value> inits;
  for (auto [i, v] : llvm::enumerate(old.getInitArgs()))
    if (i != t.accIndex)
      inits.push_back(v);
  int64_t kept = inits.size();
  VectorType fragType =
      operandType(*plan.inst, MatrixOperand::C, plan.elementType);
  Value zero = arith::ConstantOp::create(
      b, loc, fragType, DenseElementsAttr::get(fragType, t.init));
  inits.append(plan.rm * plan.rn, zero);
  SmallVector<int64_t> regCounts;
  for (Prefetch &p : prefetch) {
    allocateStagingBuffer(func, *p.leaf, b);
    FailureOr<SmallVector<Value>> regs = loadStagedTile(
        b, loc, *p.leaf, p.at(old.getLowerBound()), p.staging, tid, threads);
    if (failed(regs))
      return old;
    regCounts.push_back(regs->size());
    inits.append(*regs);
  }
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
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder ib(yield);
  // Every thread has read the previous tile; write this one; barrier.
  gpu::BarrierOp::create(ib, loc);
  ValueRange args = body->getArguments().drop_front(1 + kept);
  SmallVector<Value> accs(args.take_front(plan.rm * plan.rn));
  ValueRange regArgs = args.drop_front(plan.rm * plan.rn);
  for (auto [p, n] : llvm::zip_equal(prefetch, regCounts)) {
    storeStagedTile(ib, loc, *p.leaf, p.staging, tid, threads,
                    regArgs.take_front(n));
    regArgs = regArgs.drop_front(n);
  }
  gpu::BarrierOp::create(ib, loc);
  // The next tiles' loads, skipped after the last iteration.
  Value nextIV =
      arith::AddIOp::create(ib, loc, loop.getInductionVar(), loop.getStep());
  Value more = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::slt, nextIV,
                                     loop.getUpperBound());
  SmallVector<Type> regTypes;
  for (Value v : body->getArguments().drop_front(1 + kept + plan.rm * plan.rn))
    regTypes.push_back(v.getType());
  auto next = scf::IfOp::create(ib, loc, regTypes, more, /*withElse=*/true);
  {
    OpBuilder tb = next.getThenBodyBuilder();
    SmallVector<Value> loaded;
    for (Prefetch &p : prefetch) {
      FailureOr<SmallVector<Value>> regs = loadStagedTile(
          tb, loc, *p.leaf, p.at(nextIV), p.staging, tid, threads);
      if (failed(regs))
        return loop;
      loaded.append(*regs);
    }
    scf::YieldOp::create(tb, loc, loaded);
    OpBuilder eb = next.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc,
                         ValueRange(body->getArguments().drop_front(
                             1 + kept + plan.rm * plan.rn)));
  }
  SmallVector<Value> products = multiplyTile(ib, loc, cx, accs);
  SmallVector<Value> yielded;
  for (auto [i, v] : llvm::enumerate(yield.getOperands()))
    if (i != t.accIndex)
      yielded.push_back(v);
  yielded.append(products);
  yielded.append(next.getResults().begin(), next.getResults().end());
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
        auto [r, c] = tileCoordAt(b, loc, cx.layoutC,
                                  {cx.lane, indexConstant(b, loc, e)}, cols);
        SmallVector<Value> tileCoord{arith::AddIOp::create(b, loc, row0, r),
                                     arith::AddIOp::create(b, loc, col0, c)};
        SmallVector<Value> coord = tileElementCoord(b, loc, *access, tileCoord);
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
  Context cx{*plan, t, {}, {}, {}, {}, {}, {}, {}, {}, nullptr, nullptr};
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
  LogicalResult status = success();
  scf::ForOp loop = rebuildLoop(b, t, cx, func, block, status);
  if (failed(status))
    return failure();
  OpBuilder eb(t.epilogue.store);
  // The results: the other iter_args, the fragments, the prefetched tiles.
  int64_t kept = t.loop.getNumResults() - 1;
  if (failed(storeFragments(
          eb, t, cx, loop.getResults().slice(kept, plan->rm * plan->rn))))
    return failure();
  t.epilogue.store.erase();
  for (Operation *op : llvm::reverse(t.epilogue.ops))
    op->erase();
  t.loop.erase();
  return success();
}
