//===- ContractionFragments.cpp - Tile contractions: fragments ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The lane-level code of a planned tile contraction (ContractionFragments.h):
// the register layouts as IR, the fragment reads from the staged buffers
// (vectors along the layouts' runs, K-packed vectors, nvgpu.ldmatrix), the
// matrix instructions of one K tile, and the epilogue's masked stores.
//
//===----------------------------------------------------------------------===//

#include "ContractionFragments.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

VectorType tiles::operandType(const MatrixInstruction &inst,
                              MatrixOperand operand, Type elementType) {
  const MatrixOpSpelling &op = inst.op;
  ArrayRef<int64_t> shape = operand == MatrixOperand::A   ? op.aShape
                            : operand == MatrixOperand::B ? op.bShape
                                                          : op.cShape;
  // A and B of the f32 MFMAs are one f32 per lane: a scalar (shape {}).
  assert(!shape.empty() && "a scalar operand has no vector type");
  return VectorType::get(shape, operand == MatrixOperand::C
                                    ? Float32Type::get(elementType.getContext())
                                    : elementType);
}

Type tiles::operandValueType(const MatrixInstruction &inst,
                             MatrixOperand operand, Type elementType) {
  if (operand != MatrixOperand::C &&
      (operand == MatrixOperand::A ? inst.op.aShape : inst.op.bShape).empty())
    return elementType;
  return operandType(inst, operand, elementType);
}

/// One lane's fragment of A or B from its `elements` (the register layout's
/// order), as the instruction takes it: a vector of the op's shape, or the
/// scalar of the f32 MFMAs. For tf32 mma.sync each element is first
/// converted with cvt.rna.tf32.f32 (nvvm.convert.float.to.tf32 <rna>): PTX
/// (section 5.2.3, "Alternate Floating-Point Data Formats") leaves the
/// layout of a .tf32 register implementation-defined and produces it with
/// that conversion, which rounds to nearest (ties away from zero) and
/// zeroes the low 13 bits; what mma.sync does with those bits then does not
/// matter (inputPrecision, MatrixInstructions.cpp). The xf32 MFMA rounds
/// its f32 inputs itself.
Value tiles::fragmentOf(OpBuilder &b, Location loc,
                        const MatrixInstruction &inst, MatrixOperand operand,
                        Type et, SmallVector<Value> elements) {
  if (inst.inputKind == MatrixElementKind::TF32)
    for (Value &x : elements) {
      Value tf32 = NVVM::ConvertFloatToTF32Op::create(
          b, loc, b.getI32Type(), x, NVVM::FPRoundingMode::RNA);
      x = arith::BitcastOp::create(b, loc, b.getF32Type(), tf32);
    }
  Type type = operandValueType(inst, operand, et);
  if (!isa<VectorType>(type))
    return elements.front();
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(type),
                                        elements);
}

namespace {

/// A register layout as IR (its packed base and its stages).
Value materializeLayout(OpBuilder &b, Location loc, const Descriptor &d) {
  return buildDescriptor(b, loc, d);
}

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

} // namespace

std::pair<Value, Value> tiles::tileCoordAt(OpBuilder &b, Location loc,
                                           Value layout, ValueRange top,
                                           int64_t cols) {
  Value off = OffsetOp::create(b, loc, layout, top);
  Value c = indexConstant(b, loc, cols);
  return {arith::DivUIOp::create(b, loc, off, c),
          arith::RemUIOp::create(b, loc, off, c)};
}

namespace {

/// How `operand` is read with ldmatrix, or nullptr: the instruction has an
/// ldmatrix form for its buffer's order (mma.sync's A and B from K-fastest
/// buffers, B also from an N-fastest one with .trans).
const LdMatrixLoad *ldmatrixLoad(const Plan &plan, const OperandLeaves &t,
                                 MatrixOperand operand) {
  const MatrixInstruction &inst = *plan.inst;
  bool isA = operand == MatrixOperand::A;
  if (!(isA ? t.a : t.b))
    return nullptr; // a fragment program's operand in registers
  const Leaf &leaf = isA ? *t.a : *t.b;
  if (leaf.bufDims.size() != 2)
    return nullptr;
  if (leaf.bufDims.back() == (isA ? t.aK : t.bK))
    return inst.ldmatrix(operand);
  if (!isA && inst.ldmatrixBTrans)
    return &*inst.ldmatrixBTrans;
  return nullptr;
}

/// One lane's fragments of A or B for the instruction tiles at `bases`
/// (row, col) of the operand tile with one nvgpu.ldmatrix: each lane gives
/// the address of one 16-byte row of the stored tile (the table's row
/// addresses), and the result is the instruction's fragment. Two tiles of
/// an .x2 load share one .x4 (as CUTLASS's SM75_U32x4_LDSM_N reads two B
/// fragments): lanes 16-31 give the second tile's row addresses (those of
/// lanes 0-15 of its .x2), and its matrices follow the first tile's.
SmallVector<Value> readWithLdMatrix(OpBuilder &b, Location loc,
                                    const FragmentContext &cx,
                                    MatrixOperand operand, Value rows,
                                    ArrayRef<std::pair<Value, Value>> bases) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  const LdMatrixLoad &load = *(isA ? cx.loadA : cx.loadB);
  const Leaf &leaf = isA ? *cx.operands.a : *cx.operands.b;
  int64_t tiles = bases.size();
  Value lane = cx.lane;
  auto [rowBase, colBase] = bases.front();
  if (tiles == 2) {
    Value active = indexConstant(b, loc, load.activeLanes());
    Value second =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, lane, active);
    lane = arith::RemUIOp::create(b, loc, lane, active);
    rowBase = arith::SelectOp::create(b, loc, second, bases[1].first, rowBase);
    colBase = arith::SelectOp::create(b, loc, second, bases[1].second, colBase);
  }
  auto [r, c] = tileCoordAt(b, loc, rows, lane, load.cols);
  // The stored tile's (r, c) is the operand tile's (r, c), or (c, r) for a
  // B stored N x K; the operand's rows and columns sit at rowPos / colPos of
  // the load's tile.
  if (load.storedTransposed)
    std::swap(r, c);
  SmallVector<Value> coord(2);
  int64_t rowPos = isA ? cx.operands.aM : cx.operands.bK;
  int64_t colPos = isA ? cx.operands.aK : cx.operands.bN;
  coord[rowPos] = arith::AddIOp::create(b, loc, rowBase, r);
  coord[colPos] = arith::AddIOp::create(b, loc, colBase, c);
  Value at =
      OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(coord, cx.stage));
  VectorType type = operandType(inst, operand, cx.plan.elementType);
  int64_t regs = type.getDimSize(0);
  VectorType loaded = VectorType::get({tiles * regs, type.getDimSize(1)},
                                      type.getElementType());
  Value v = nvgpu::LdMatrixOp::create(b, loc, loaded, leaf.buffer,
                                      ValueRange{at}, load.transpose,
                                      uint32_t(tiles * load.numTiles));
  if (tiles == 1)
    return {v};
  SmallVector<Value> fragments;
  for (int64_t t = 0; t < tiles; ++t)
    fragments.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, v, ArrayRef<int64_t>{t * regs, 0},
        ArrayRef<int64_t>{regs, type.getDimSize(1)}, ArrayRef<int64_t>{1, 1}));
  return fragments;
}

/// One lane's fragment of A or B for instruction tile (`rowBase`,
/// `colBase`) of the operand tile, read from the leaf's buffer.
Value readFragment(OpBuilder &b, Location loc, const FragmentContext &cx,
                   MatrixOperand operand, Value rowBase, Value colBase) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  if (Value rows = isA ? cx.rowsA : cx.rowsB)
    return readWithLdMatrix(b, loc, cx, operand, rows, {{rowBase, colBase}})
        .front();
  const Leaf &leaf = isA ? *cx.operands.a : *cx.operands.b;
  // Positions of the operand tile's rows and columns in the load's tile.
  int64_t rowPos = isA ? cx.operands.aM : cx.operands.bK;
  int64_t colPos = isA ? cx.operands.aK : cx.operands.bN;
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
  return fragmentOf(b, loc, inst, operand, et, std::move(elements));
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
int64_t kPack(const FragmentContext &cx) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  if (cx.loadA || cx.loadB)
    return 1;
  int64_t run = 0;
  for (MatrixOperand operand : {MatrixOperand::A, MatrixOperand::B}) {
    bool isA = operand == MatrixOperand::A;
    const Leaf &leaf = isA ? *cx.operands.a : *cx.operands.b;
    if (leaf.bufDims.back() != (isA ? cx.operands.aK : cx.operands.bK))
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
                                       const FragmentContext &cx,
                                       MatrixOperand operand, Value rowBase,
                                       Value colBase, int64_t pack) {
  const MatrixInstruction &inst = *cx.plan.inst;
  bool isA = operand == MatrixOperand::A;
  const Leaf &leaf = isA ? *cx.operands.a : *cx.operands.b;
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
  coord[isA ? cx.operands.aM : cx.operands.bK] =
      arith::AddIOp::create(b, loc, rowBase, r);
  coord[isA ? cx.operands.aK : cx.operands.bN] =
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
    fragments.push_back(
        fragmentOf(b, loc, inst, operand, et, std::move(elements)));
  }
  return fragments;
}

/// The 32-bit registers of an 8-bit float fragment `v` (vector<R x 4 x f8>,
/// register r holding elements 4r .. 4r + 3, low byte first) as i32.
SmallVector<Value> registersOf(OpBuilder &b, Location loc, Value v) {
  auto type = cast<VectorType>(v.getType());
  auto bytes = VectorType::get({4}, b.getI8Type());
  auto word = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> regs;
  for (int64_t r = 0, n = type.getDimSize(0); r < n; ++r) {
    Value x = vector::ExtractOp::create(b, loc, v, r);
    x = arith::BitcastOp::create(b, loc, bytes, x);
    x = vector::BitCastOp::create(b, loc, word, x);
    regs.push_back(vector::ExtractOp::create(b, loc, x, 0));
  }
  return regs;
}

/// An instruction no MLIR 22 op issues (the FP8 mma.sync): a call of the
/// table's LLVM intrinsic with A's and B's registers as i32 and C's
/// elements as f32, its struct of f32 results rebuilt into the accumulator
/// type.
Value callIntrinsic(OpBuilder &b, Location loc, const MatrixInstruction &inst,
                    Value a, Value bv, Value acc) {
  SmallVector<Value> args = registersOf(b, loc, a);
  llvm::append_range(args, registersOf(b, loc, bv));
  auto accType = cast<VectorType>(acc.getType());
  SmallVector<int64_t> strides = computeStrides(accType.getShape());
  int64_t n = accType.getNumElements();
  for (int64_t i = 0; i < n; ++i)
    args.push_back(
        vector::ExtractOp::create(b, loc, acc, delinearize(i, strides)));
  auto result = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(n, b.getF32Type()));
  auto call = LLVM::CallIntrinsicOp::create(
      b, loc, result, b.getStringAttr(inst.op.llvmIntrinsic), args);
  SmallVector<Value> d;
  for (int64_t i = 0; i < n; ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, call.getResult(0), i));
  return vector::FromElementsOp::create(b, loc, accType, d);
}

/// One matrix instruction: acc + a * b.
Value multiply(OpBuilder &b, Location loc, const MatrixInstruction &inst,
               Value a, Value bv, Value acc) {
  switch (inst.family) {
  case MatrixFamily::MFMA: {
    auto mfma = amdgpu::MFMAOp::create(b, loc, acc.getType(), uint32_t(inst.m),
                                       uint32_t(inst.n), uint32_t(inst.k),
                                       uint32_t(1), a, bv, acc);
    // xf32: f32 inputs with reducePrecision (the table's precisionAttr).
    if (!inst.op.precisionAttr.empty())
      mfma->setAttr(inst.op.precisionAttr, b.getUnitAttr());
    return mfma;
  }
  case MatrixFamily::WMMA:
    return amdgpu::WMMAOp::create(b, loc, acc.getType(), uint32_t(inst.m),
                                  uint32_t(inst.n), uint32_t(inst.k), a, bv,
                                  acc);
  case MatrixFamily::MmaSync: {
    if (!inst.op.llvmIntrinsic.empty())
      return callIntrinsic(b, loc, inst, a, bv, acc);
    auto mma = nvgpu::MmaSyncOp::create(
        b, loc, a, bv, acc, ArrayRef<int64_t>{inst.m, inst.n, inst.k});
    // tf32: f32 operands with tf32Enabled (the table's precisionAttr).
    if (!inst.op.precisionAttr.empty())
      mma->setAttr(inst.op.precisionAttr, b.getUnitAttr());
    return mma;
  }
  case MatrixFamily::Wgmma:
    break; // multiplyWarpgroupTile
  }
  llvm_unreachable("unknown matrix family");
}

} // namespace

FragmentContext FragmentContext::create(OpBuilder &b, Location loc,
                                        const Plan &plan,
                                        const OperandLeaves &t, Value tid) {
  const MatrixInstruction &inst = *plan.inst;
  FragmentContext cx{plan, t,  {}, {},      {},      {}, {},
                     {},   {}, {}, nullptr, nullptr, {}};
  Value wave =
      arith::DivUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  cx.lane =
      arith::RemUIOp::create(b, loc, tid, indexConstant(b, loc, inst.waveSize));
  Value wm =
      arith::DivUIOp::create(b, loc, wave, indexConstant(b, loc, plan.wavesN));
  Value wn =
      arith::RemUIOp::create(b, loc, wave, indexConstant(b, loc, plan.wavesN));
  cx.waveRow =
      arith::MulIOp::create(b, loc, wm, indexConstant(b, loc, plan.tm));
  cx.waveCol =
      arith::MulIOp::create(b, loc, wn, indexConstant(b, loc, plan.tn));
  cx.layoutA = materializeLayout(b, loc, inst.a);
  cx.layoutB = materializeLayout(b, loc, inst.b);
  cx.layoutC = materializeLayout(b, loc, inst.c);
  cx.loadA = ldmatrixLoad(plan, t, MatrixOperand::A);
  cx.loadB = ldmatrixLoad(plan, t, MatrixOperand::B);
  if (cx.loadA)
    cx.rowsA = materializeLayout(b, loc, cx.loadA->rowAddress);
  if (cx.loadB)
    cx.rowsB = materializeLayout(b, loc, cx.loadB->rowAddress);
  return cx;
}

OperandFragments tiles::readOperandFragments(OpBuilder &b, Location loc,
                                             const FragmentContext &cx,
                                             MatrixOperand operand,
                                             int64_t count, Value base,
                                             int64_t step, Value k0,
                                             int64_t pack) {
  bool isA = operand == MatrixOperand::A;
  auto tileAt = [&](int64_t t) -> std::pair<Value, Value> {
    Value at =
        arith::AddIOp::create(b, loc, base, indexConstant(b, loc, t * step));
    return isA ? std::pair{at, k0} : std::pair{k0, at};
  };
  // Tiles read by .x2 ldmatrix go two to an .x4.
  const LdMatrixLoad *load = isA ? cx.loadA : cx.loadB;
  Value rows = isA ? cx.rowsA : cx.rowsB;
  if (pack == 1 && rows && load->numTiles == 2 && count % 2 == 0 &&
      2 * load->activeLanes() <= cx.plan.inst->waveSize) {
    OperandFragments result;
    for (int64_t t = 0; t < count; t += 2)
      for (Value f : readWithLdMatrix(b, loc, cx, operand, rows,
                                      {tileAt(t), tileAt(t + 1)}))
        result.push_back({f});
    return result;
  }
  OperandFragments result;
  for (int64_t t = 0; t < count; ++t) {
    auto [row, col] = tileAt(t);
    result.push_back(
        pack > 1
            ? readPackedFragments(b, loc, cx, operand, row, col, pack)
            : SmallVector<Value>{readFragment(b, loc, cx, operand, row, col)});
  }
  return result;
}

void tiles::multiplyFragments(OpBuilder &b, Location loc,
                              const MatrixInstruction &inst,
                              const OperandFragments &as,
                              const OperandFragments &bs,
                              MutableArrayRef<Value> accs, int64_t pack) {
  int64_t rm = as.size(), rn = bs.size();
  for (int64_t s = 0; s < pack; ++s)
    for (int64_t i = 0; i < rm; ++i)
      for (int64_t j = 0; j < rn; ++j)
        accs[i * rn + j] =
            multiply(b, loc, inst, as[i][s], bs[j][s], accs[i * rn + j]);
}

SmallVector<Value> tiles::multiplyTile(OpBuilder &b, Location loc,
                                       const FragmentContext &cx,
                                       ValueRange accs) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  if (inst.operandsInWorkgroupMemory())
    return multiplyWarpgroupTile(b, loc, cx, accs);
  SmallVector<Value> out(accs);
  int64_t pack = kPack(cx);
  for (int64_t group = 0; group < plan.ks; group += pack) {
    Value k0 = indexConstant(b, loc, group * inst.k);
    OperandFragments as = readOperandFragments(
        b, loc, cx, MatrixOperand::A, plan.rm, cx.waveRow, inst.m, k0, pack);
    OperandFragments bs = readOperandFragments(
        b, loc, cx, MatrixOperand::B, plan.rn, cx.waveCol, inst.n, k0, pack);
    multiplyFragments(b, loc, inst, as, bs, out, pack);
  }
  return out;
}

/// The global accesses of the plan's epilogue path (EpiloguePlan; the
/// store's view was analyzed when planning): `run`-element vectors of each
/// lane's consecutive columns (`pairs`, for Pairs and Rows), and the tile's
/// rows as `rowWidth`-element vectors (`rows`, for Rows).
struct EpilogueVectors {
  std::optional<GlobalAccess> pairs, rows;
};

static EpilogueVectors epilogueVectors(OpBuilder &b, StoreOp store,
                                       const EpiloguePlan &e,
                                       int64_t alignBytes) {
  EpilogueVectors out;
  if (e.path == EpiloguePlan::Path::Elements)
    return out;
  std::string why;
  GlobalSide side = GlobalSide::of(store);
  if (failed(side.analyze(alignBytes, why)))
    return out;
  FailureOr<GlobalAccess> pairs = GlobalAccess::create(b, side, e.run, why);
  if (failed(pairs))
    return out;
  out.pairs = std::move(*pairs);
  if (e.path != EpiloguePlan::Path::Rows)
    return out;
  FailureOr<GlobalAccess> rows = GlobalAccess::create(b, side, e.rowWidth, why);
  if (succeeded(rows))
    out.rows = std::move(*rows);
  return out;
}

void tiles::storeRuns(OpBuilder &b, Location loc, const GlobalAccess &g,
                      int64_t run, ArrayRef<EvaluatedFragment> fragments) {
  auto emit = [&](OpBuilder &ob, bool inside) {
    for (const EvaluatedFragment &f : fragments)
      for (int64_t e = 0, n = f.at.size(); e < n; e += run)
        g.store(
            ob,
            vector::ExtractStridedSliceOp::create(ob, loc, f.value, e, run, 1),
            f.at[e], inside);
  };
  Value whole = g.tileInside(b);
  if (!whole)
    return emit(b, /*inside=*/true);
  auto ifOp = scf::IfOp::create(b, loc, whole, /*withElse=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  emit(tb, /*inside=*/true);
  OpBuilder eb = ifOp.getElseBodyBuilder();
  emit(eb, /*inside=*/false);
}

FailureOr<EpiloguePlan::Path> tiles::storeFragments(OpBuilder &b,
                                                    ContractionTree &t,
                                                    const FragmentContext &cx,
                                                    ValueRange accs) {
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
  // Per broadcast: the first of the lane's elements that reads its entry (a
  // row scale: one load per row the lane holds, not per element).
  SmallVector<SmallVector<int64_t>> firstReaders;
  for (ContractionTree::Broadcast bc : t.broadcasts)
    firstReaders.push_back(firstElementsSharingLine(inst, MatrixOperand::C,
                                                    /*column=*/bc.along == 1));
  const EpiloguePlan &e = plan.epilogue;
  EpilogueVectors out = epilogueVectors(b, store, e, plan.assumeAlignment);
  SmallVector<EvaluatedFragment> evaluated;
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
        ArrayRef<int64_t> first = firstReaders[leaf - 1];
        SmallVector<Value> elements;
        for (auto [index, tc] : llvm::enumerate(at)) {
          if (first[index] != int64_t(index)) {
            elements.push_back(elements[first[index]]);
            continue;
          }
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
      if (out.rows) {
        evaluated.push_back({value, at});
        continue;
      }
      if (out.pairs) {
        storeRuns(b, loc, *out.pairs, e.run, EvaluatedFragment{value, at});
        continue;
      }
      for (int64_t e = 0; e < count; ++e) {
        SmallVector<Value> coord = tileElementCoord(b, loc, *access, at[e]);
        Value x = vector::ExtractOp::create(b, loc, value, e);
        storeElement(b, loc, *access, coord, store.getMasked(), x);
      }
    }
  if (out.rows &&
      !storeThroughWorkgroupMemory(b, t, cx, *out.rows, evaluated)) {
    // No room for the buffer: the runs go straight out.
    for (const EvaluatedFragment &f : evaluated)
      storeRuns(b, loc, *out.pairs, e.run, f);
    return EpiloguePlan::Path::Pairs;
  }
  return e.path;
}
