//===- MatrixEmulation.cpp - Matrix instructions on the CPU ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "MatrixEmulation.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/MatrixTypes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::test;

Value test::roundMantissa(OpBuilder &b, Location loc, Value x, int64_t bits,
                          MatrixInputPrecision::Rounding rounding) {
  using R = MatrixInputPrecision::Rounding;
  if (rounding == R::Exact || bits >= 23)
    return x;
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  int64_t dropped = 23 - bits;
  Value word = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  Value up = word;
  if (rounding == R::NearestEven) {
    // Half an ulp less one, plus the kept value's lowest bit: a tie rounds
    // up only from an odd value.
    Value lowest = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, word, c(dropped)), c(1));
    up = arith::AddIOp::create(
        b, loc, word,
        arith::AddIOp::create(b, loc, lowest,
                              c((int64_t(1) << (dropped - 1)) - 1)));
  } else if (rounding == R::NearestAway) {
    up = arith::AddIOp::create(b, loc, word, c(int64_t(1) << (dropped - 1)));
  }
  Value kept = arith::AndIOp::create(
      b, loc, up, c(int32_t(~((uint32_t(1) << dropped) - 1))));
  // NaN and the infinities (all exponent bits set) pass unchanged.
  Value exponent = arith::AndIOp::create(b, loc, word, c(0x7f800000));
  Value finite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       exponent, c(0x7f800000));
  Value rounded = arith::BitcastOp::create(b, loc, b.getF32Type(), kept);
  return arith::SelectOp::create(b, loc, finite, rounded, x);
}

/// The table's instruction `call` issues as its LLVM intrinsic (the FP8
/// mma.sync), or nullptr.
static const MatrixInstruction *intrinsicOf(LLVM::CallIntrinsicOp call) {
  return findMatrixInstructionByIntrinsic(call.getIntrin());
}

bool test::isMatrixInstruction(Operation *op) {
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return intrinsicOf(call) != nullptr;
  return isa<amdgpu::MFMAOp, amdgpu::WMMAOp, nvgpu::MmaSyncOp, WarpgroupMmaOp,
             WarpgroupMmaRegAOp>(op);
}

LogicalResult test::vectorizeMatrixIntrinsicResults(ModuleOp top) {
  SmallVector<LLVM::CallIntrinsicOp> calls;
  top.walk([&](LLVM::CallIntrinsicOp call) {
    if (intrinsicOf(call))
      calls.push_back(call);
  });
  for (LLVM::CallIntrinsicOp call : calls) {
    const MatrixInstruction &inst = *intrinsicOf(call);
    int64_t n = inst.cElementsPerLane;
    auto structType =
        call.getNumResults() == 1
            ? dyn_cast<LLVM::LLVMStructType>(call.getResult(0).getType())
            : LLVM::LLVMStructType();
    OpBuilder b(call);
    if (!structType || int64_t(structType.getBody().size()) != n ||
        !llvm::all_of(structType.getBody(), [](Type t) { return t.isF32(); }) ||
        !llvm::all_of(call->getUsers(), [](Operation *user) {
          auto extract = dyn_cast<LLVM::ExtractValueOp>(user);
          return extract && extract.getPosition().size() == 1;
        }))
      return call.emitError() << "has no emulation: " << inst.op.llvmIntrinsic
                              << " must return a struct of " << n
                              << " f32, each taken by llvm.extractvalue";
    auto type = VectorType::get({n}, b.getF32Type());
    auto vectorCall = LLVM::CallIntrinsicOp::create(
        b, call.getLoc(), type, call.getIntrinAttr(), call.getArgs());
    for (Operation *user : llvm::make_early_inc_range(call->getUsers())) {
      auto extract = cast<LLVM::ExtractValueOp>(user);
      OpBuilder eb(extract);
      extract.replaceAllUsesWith(
          vector::ExtractOp::create(eb, extract.getLoc(),
                                    vectorCall.getResult(0),
                                    extract.getPosition()[0])
              .getResult());
      extract.erase();
    }
    call.erase();
  }
  return success();
}

bool test::isWaveCollective(Operation *op) {
  return isMatrixInstruction(op) || isa<nvgpu::LdMatrixOp, gpu::ShuffleOp>(op);
}

namespace {

/// The family and MxNxK of a matrix op.
struct OpShape {
  MatrixFamily family;
  int64_t m, n, k;
};

OpShape shapeOf(Operation *op) {
  if (auto mfma = dyn_cast<amdgpu::MFMAOp>(op))
    return {MatrixFamily::MFMA, mfma.getM(), mfma.getN(), mfma.getK()};
  if (auto wmma = dyn_cast<amdgpu::WMMAOp>(op))
    return {MatrixFamily::WMMA, wmma.getM(), wmma.getN(), wmma.getK()};
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    const MatrixInstruction &inst = *intrinsicOf(call);
    return {inst.family, inst.m, inst.n, inst.k};
  }
  std::array<int64_t, 3> mnk = cast<nvgpu::MmaSyncOp>(op).getMmaShapeAsArray();
  return {MatrixFamily::MmaSync, mnk[0], mnk[1], mnk[2]};
}

int64_t elementCount(Type t) {
  auto vector = dyn_cast<VectorType>(t);
  return vector ? vector.getNumElements() : 1;
}

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The elements of `v` as a 1-D vector (nvgpu.mma.sync's operands are
/// registers x elements per register, flattened in that order); a scalar
/// (A and B of the f32 MFMAs) as vector<1x...>.
Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = dyn_cast<VectorType>(v.getType());
  if (!type)
    return vector::FromElementsOp::create(
        b, loc, VectorType::get({1}, v.getType()), ValueRange{v});
  if (type.getRank() == 1)
    return v;
  return vector::ShapeCastOp::create(
      b, loc, VectorType::get({type.getNumElements()}, type.getElementType()),
      v);
}

/// A host tile of f32 holding one operand.
Value allocTile(OpBuilder &b, Location loc, std::pair<int64_t, int64_t> shape) {
  return memref::AllocaOp::create(
      b, loc, MemRefType::get({shape.first, shape.second}, b.getF32Type()));
}

/// `body(builder, iv)` in an scf.for from 0 to `n`.
void forEach(OpBuilder &b, Location loc, int64_t n,
             function_ref<void(OpBuilder &, Value)> body) {
  scf::ForOp::create(b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, n),
                     indexConstant(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                       body(fb, iv);
                       scf::YieldOp::create(fb, loc);
                     });
}

/// The (row, col) of the tile (`cols` columns) that lane `lane`'s element
/// `e` holds, by the table's register layout `layout` (materialized).
std::pair<Value, Value> tileCoord(OpBuilder &b, Location loc, Value layout,
                                  Value lane, Value e, int64_t cols) {
  Value off = OffsetOp::create(b, loc, layout, ValueRange{lane, e});
  Value n = indexConstant(b, loc, cols);
  return {arith::DivUIOp::create(b, loc, off, n),
          arith::RemUIOp::create(b, loc, off, n)};
}

/// One lane's registers of an operand as a 1-D vector of its elements, in
/// the register layout's element order.
using LaneRegistersAt = function_ref<Value(OpBuilder &, Value lane)>;

/// The registers of operand `operand` (A, B or C) of matrix op `op` for one
/// lane: the op's operand (0: A, 1: B, 2: C) flattened; for an instruction
/// called as its LLVM intrinsic (the FP8 mma.sync), A's and B's i32
/// registers as their bytes, low byte first (element 4 r + i is byte i of
/// register r), and C's f32 operands.
Value laneRegisters(OpBuilder &b, Location loc, Operation *op,
                    const MatrixInstruction &inst, MatrixOperand operand,
                    Value lane, LaneOperandAt laneOperand) {
  if (!isa<LLVM::CallIntrinsicOp>(op))
    return flatten(b, loc, laneOperand(b, unsigned(operand), lane));
  int64_t aRegs = inst.aElementsPerLane / 4, bRegs = inst.bElementsPerLane / 4;
  int64_t first = operand == MatrixOperand::A   ? 0
                  : operand == MatrixOperand::B ? aRegs
                                                : aRegs + bRegs;
  int64_t count = operand == MatrixOperand::A   ? aRegs
                  : operand == MatrixOperand::B ? bRegs
                                                : inst.cElementsPerLane;
  SmallVector<Value> regs;
  for (int64_t i = 0; i < count; ++i)
    regs.push_back(laneOperand(b, unsigned(first + i), lane));
  Type t = regs.front().getType();
  Value v =
      vector::FromElementsOp::create(b, loc, VectorType::get({count}, t), regs);
  if (operand == MatrixOperand::C)
    return v;
  return vector::BitCastOp::create(
      b, loc, VectorType::get({4 * count}, b.getI8Type()), v);
}

/// An 8-bit float `x` (or its bits as i8) of `encoding` as f32: Float8.h's
/// exact decode (every 8-bit float value is an f32; NaN stays NaN, E5M2's
/// infinities stay infinite), looked up in a table of the 256 codes.
Value decodeFloat8Element(OpBuilder &b, Location loc, Value x,
                          Float8Encoding encoding) {
  if (!x.getType().isInteger(8))
    x = arith::BitcastOp::create(b, loc, b.getI8Type(), x);
  SmallVector<float> values;
  for (int code = 0; code < 256; ++code)
    values.push_back(float(decodeFloat8(encoding, uint8_t(code))));
  auto type = VectorType::get({256}, b.getF32Type());
  Value table = arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(values)));
  Value at = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), x);
  return vector::ExtractOp::create(b, loc, table, OpFoldResult(at));
}

/// Element `x` of a lane's `operand` registers as the f32 the instruction
/// multiplies: 16-bit floats extended, 8-bit floats decoded exactly, f32
/// registers of A and B as inputPrecision says.
Value inputValue(OpBuilder &b, Location loc, const MatrixInstruction &inst,
                 MatrixOperand operand, Value x) {
  if (operand != MatrixOperand::C) {
    if (std::optional<Float8Encoding> encoding =
            float8EncodingOf(inst.inputKind))
      return decodeFloat8Element(b, loc, x, *encoding);
  }
  if (x.getType() != b.getF32Type())
    return arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  if (operand == MatrixOperand::C)
    return x;
  // f32 registers (tf32, xf32, f32): what the instruction makes of them.
  MatrixInputPrecision p = inputPrecision(inst.inputKind);
  return test::roundMantissa(b, loc, x, p.mantissaBits, p.rounding);
}

/// Writes every lane's elements of `operand` (each lane's registers from
/// `registers`) into the f32 `tile` at the (row, col) the table's layout
/// gives them, in loops over the lanes and registers. Where the layout
/// replicates elements (gfx11 WMMA's half-waves), a second pass compares
/// every holder with the value written: an element whose holders disagree
/// becomes NaN.
void gather(OpBuilder &b, Location loc, const MatrixInstruction &inst,
            MatrixOperand operand, Value tile, LaneRegistersAt registers) {
  Value layout = buildDescriptor(b, loc, inst.layout(operand));
  int64_t cols = inst.tileShape(operand).second;
  auto eachElement =
      [&](function_ref<void(OpBuilder &, Value x, ValueRange at)> body) {
        forEach(b, loc, inst.waveSize, [&](OpBuilder &lb, Value lane) {
          Value regs = registers(lb, lane);
          forEach(lb, loc, inst.elementsPerLane(operand),
                  [&](OpBuilder &eb, Value e) {
                    auto [r, c] = tileCoord(eb, loc, layout, lane, e, cols);
                    Value x = vector::ExtractOp::create(eb, loc, regs,
                                                        OpFoldResult(e));
                    body(eb, inputValue(eb, loc, inst, operand, x),
                         ValueRange{r, c});
                  });
        });
      };
  eachElement([&](OpBuilder &eb, Value x, ValueRange at) {
    memref::StoreOp::create(eb, loc, x, tile, at);
  });
  if (inst.replication(operand) == 1)
    return;
  eachElement([&](OpBuilder &eb, Value x, ValueRange at) {
    Value nan = arith::ConstantOp::create(
        eb, loc, eb.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
    Value written = memref::LoadOp::create(eb, loc, tile, at);
    Value same =
        arith::CmpFOp::create(eb, loc, arith::CmpFPredicate::OEQ, written, x);
    memref::StoreOp::create(
        eb, loc, arith::SelectOp::create(eb, loc, same, written, nan), tile,
        at);
  });
}

/// Gives every lane its D registers (`type`) from the f32 tile `c` through
/// the table's C layout, in loops over the lanes and registers.
void scatter(OpBuilder &b, Location loc, const MatrixInstruction &inst, Value c,
             VectorType type, LaneResultAt laneResult) {
  Value layout = buildDescriptor(b, loc, inst.c);
  auto flat = VectorType::get({type.getNumElements()}, b.getF32Type());
  forEach(b, loc, inst.waveSize, [&](OpBuilder &lb, Value lane) {
    Value zeros = arith::ConstantOp::create(
        lb, loc, flat, DenseElementsAttr::get(flat, lb.getF32FloatAttr(0)));
    auto fill = scf::ForOp::create(
        lb, loc, indexConstant(lb, loc, 0),
        indexConstant(lb, loc, inst.cElementsPerLane),
        indexConstant(lb, loc, 1), ValueRange{zeros},
        [&](OpBuilder &eb, Location, Value e, ValueRange acc) {
          auto [r, col] = tileCoord(eb, loc, layout, lane, e, inst.n);
          Value x = memref::LoadOp::create(eb, loc, c, ValueRange{r, col});
          scf::YieldOp::create(
              eb, loc,
              vector::InsertOp::create(eb, loc, x, acc[0], OpFoldResult(e))
                  .getResult());
        });
    Value d = fill.getResult(0);
    if (type.getRank() != 1)
      d = vector::ShapeCastOp::create(lb, loc, type, d);
    laneResult(lb, lane, d);
  });
}

/// c[i][j] += sum_k a[i][k] * b[k][j] in f32.
void multiplyAccumulate(OpBuilder &b, Location loc,
                        const MatrixInstruction &inst, Value a, Value bt,
                        Value c) {
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  auto loop = [&](OpBuilder &lb, int64_t n, auto body) {
    scf::ForOp::create(lb, loc, zero, indexConstant(lb, loc, n), one,
                       ValueRange{},
                       [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                         body(fb, iv);
                         scf::YieldOp::create(fb, loc);
                       });
  };
  loop(b, inst.m, [&](OpBuilder &ib, Value i) {
    loop(ib, inst.n, [&](OpBuilder &jb, Value j) {
      Value init = memref::LoadOp::create(jb, loc, c, ValueRange{i, j});
      auto sum = scf::ForOp::create(
          jb, loc, zero, indexConstant(jb, loc, inst.k), one, init,
          [&](OpBuilder &kb, Location, Value k, ValueRange acc) {
            Value x = memref::LoadOp::create(kb, loc, a, ValueRange{i, k});
            Value y = memref::LoadOp::create(kb, loc, bt, ValueRange{k, j});
            Value p = arith::MulFOp::create(kb, loc, x, y);
            scf::YieldOp::create(
                kb, loc, arith::AddFOp::create(kb, loc, acc[0], p).getResult());
          });
      memref::StoreOp::create(jb, loc, sum.getResult(0), c, ValueRange{i, j});
    });
  });
}

} // namespace

/// The table's wgmma of `op`'s N and element type, or nullptr after a

/// The table's wgmma of `op`'s N and element type (`input`), its
/// register-A form for layout.warpgroup_mma_reg_a, or nullptr after a
/// diagnostic.
static const MatrixInstruction *wgmmaOf(Operation *op, Type input,
                                        ArrayRef<int64_t> shape) {
  bool registerA = isa<WarpgroupMmaRegAOp>(op);
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (inst.family == MatrixFamily::Wgmma &&
        takesMatrixInputs(inst.inputKind, input) && inst.n == shape[1] &&
        inst.k == shape[2]) {
      const MatrixInstruction *form =
          registerA ? wgmmaRegisterAForm(inst) : &inst;
      if (form)
        return form;
    }
  op->emitError() << "has no emulation: no wgmma 64x" << shape[1] << "x"
                  << shape[2] << " with " << input
                  << (registerA ? " inputs and A in registers" : " inputs")
                  << " in the table";
  return nullptr;
}

/// The table's instruction that `call` issues as its LLVM intrinsic, or
/// nullptr after a diagnostic: its operands must be A's and B's 32-bit
/// registers (i32) and C's elements (f32), its result a vector of C's
/// elements (vectorizeMatrixIntrinsicResults).
static const MatrixInstruction *intrinsicCallOf(LLVM::CallIntrinsicOp call) {
  const MatrixInstruction *inst = intrinsicOf(call);
  int64_t regs = (inst->aElementsPerLane + inst->bElementsPerLane) / 4;
  int64_t c = inst->cElementsPerLane;
  auto result = call.getNumResults() == 1
                    ? dyn_cast<VectorType>(call.getResult(0).getType())
                    : VectorType();
  bool ok = int64_t(call.getArgs().size()) == regs + c && result &&
            result.getNumElements() == c && result.getElementType().isF32();
  for (auto [i, arg] : llvm::enumerate(call.getArgs()))
    ok = ok && (int64_t(i) < regs ? arg.getType().isInteger(32)
                                  : arg.getType().isF32());
  if (ok)
    return inst;
  call.emitError() << "has no emulation: " << call.getIntrin() << " takes "
                   << regs << " i32 registers of A and B and " << c
                   << " f32 of C, and returns " << c << " f32";
  return nullptr;
}

const MatrixInstruction *test::matrixInstructionOf(Operation *op) {
  if (auto wgmma = dyn_cast<WarpgroupMmaOp>(op))
    return wgmmaOf(op,
                   cast<MemRefType>(wgmma.getA().getType()).getElementType(),
                   wgmma.getShape());
  if (auto wgmma = dyn_cast<WarpgroupMmaRegAOp>(op))
    return wgmmaOf(op,
                   cast<VectorType>(wgmma.getA().getType()).getElementType(),
                   wgmma.getShape());
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return intrinsicCallOf(call);
  OpShape shape = shapeOf(op);
  Type input = getElementTypeOrSelf(op->getOperand(0).getType());
  std::optional<MatrixElementKind> kind;
  if (input.isF16())
    kind = MatrixElementKind::F16;
  else if (input.isBF16())
    kind = MatrixElementKind::BF16;
  else if (input.isF32() && shape.family == MatrixFamily::MmaSync &&
           op->hasAttr("tf32Enabled"))
    kind = MatrixElementKind::TF32;
  else if (input.isF32() && shape.family == MatrixFamily::MFMA)
    kind = op->hasAttr("reducePrecision") ? MatrixElementKind::XF32
                                          : MatrixElementKind::F32;
  else
    kind = float8KindOf(input);
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    if (!kind || inst.family != shape.family || inst.m != shape.m ||
        inst.n != shape.n || inst.k != shape.k || inst.inputKind != *kind)
      continue;
    if (elementCount(op->getOperand(0).getType()) != inst.aElementsPerLane ||
        elementCount(op->getOperand(1).getType()) != inst.bElementsPerLane ||
        elementCount(op->getOperand(2).getType()) != inst.cElementsPerLane ||
        !getElementTypeOrSelf(op->getOperand(2).getType()).isF32())
      break;
    return &inst;
  }
  op->emitError() << "has no emulation: no " << shape.m << "x" << shape.n << "x"
                  << shape.k << " " << input
                  << " instruction with these operand sizes and an f32 "
                     "accumulator in the matrix-instruction table";
  return nullptr;
}

/// Checks what emulateLdMatrix assumes: 16-bit elements (PTX's .b16),
/// rows contiguous along the last index, a vector<numTiles x 2> result
/// with numTiles 1, 2 or 4.
static LogicalResult checkLdMatrix(nvgpu::LdMatrixOp op) {
  MemRefType type = op.getSrcMemref().getType();
  SmallVector<int64_t> strides;
  int64_t offset;
  VectorType result = op.getType();
  int64_t numTiles = op.getNumTiles();
  if (type.getElementTypeBitWidth() != 16)
    return op.emitError() << "has no emulation: ldmatrix loads 16-bit "
                             "elements, not "
                          << type.getElementType();
  if (type.getRank() == 0 ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return op.emitError() << "has no emulation: the rows it loads must be "
                             "contiguous along the memref's last index";
  if ((numTiles != 1 && numTiles != 2 && numTiles != 4) ||
      result.getShape() != ArrayRef<int64_t>{numTiles, 2})
    return op.emitError() << "has no emulation: numTiles must be 1, 2 or 4 "
                             "and the result vector<numTiles x 2>";
  return success();
}

std::optional<int64_t> test::waveSizeOf(Operation *op) {
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
    return shuffleWidth(shuffle);
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    if (failed(checkLdMatrix(ldmatrix)))
      return std::nullopt;
    return 32; // a warp
  }
  if (const MatrixInstruction *inst = matrixInstructionOf(op))
    return inst->waveSize;
  return std::nullopt;
}

void test::emulateLdMatrix(OpBuilder &b, Location loc, nvgpu::LdMatrixOp op,
                           LaneOperandAt laneOperand, LaneResultAt laneResult) {
  int64_t numTiles = op.getNumTiles();
  bool transpose = op.getTranspose();
  unsigned rank = op.getIndices().size();
  Value memref = laneOperand(b, 0, indexConstant(b, loc, 0));
  VectorType type = op.getType();
  auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
  forEach(b, loc, 32, [&](OpBuilder &lb, Value lane) {
    auto c = [&](int64_t v) { return indexConstant(lb, loc, v); };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(lb, loc, x, y);
    };
    Value group = arith::DivUIOp::create(lb, loc, lane, c(4));
    Value pair = arith::MulIOp::create(
        lb, loc, arith::RemUIOp::create(lb, loc, lane, c(4)), c(2));
    // Element `p` of row `r` of matrix `j`: the row's address is lane
    // 8j + r's indices (lanes 8j .. 8j + 7 give matrix j's rows 0 .. 7).
    auto element = [&](int64_t j, Value r, Value p) -> Value {
      Value rowLane = add(c(8 * j), r);
      SmallVector<Value> at;
      for (unsigned d = 0; d < rank; ++d)
        at.push_back(laneOperand(lb, 1 + d, rowLane));
      at.back() = add(at.back(), p);
      return memref::LoadOp::create(lb, loc, memref, at);
    };
    SmallVector<Value> elements;
    for (int64_t j = 0; j < numTiles; ++j)
      for (int64_t v = 0; v < 2; ++v) {
        Value inPair = add(pair, c(v));
        elements.push_back(transpose ? element(j, inPair, group)
                                     : element(j, group, inPair));
      }
    Value regs = vector::FromElementsOp::create(lb, loc, flat, elements);
    laneResult(lb, lane, vector::ShapeCastOp::create(lb, loc, type, regs));
  });
}

MatrixTiles test::allocateMatrixTiles(OpBuilder &b, Location loc,
                                      const MatrixInstruction &inst) {
  return {allocTile(b, loc, inst.tileShape(MatrixOperand::A)),
          allocTile(b, loc, inst.tileShape(MatrixOperand::B)),
          allocTile(b, loc, inst.tileShape(MatrixOperand::C))};
}

void test::emulateMatrixInstruction(OpBuilder &b, Location loc, Operation *op,
                                    const MatrixInstruction &inst,
                                    MatrixTiles tiles,
                                    LaneOperandAt laneOperand,
                                    LaneResultAt laneResult) {
  for (auto [operand, tile] : {std::pair{MatrixOperand::A, tiles.a},
                               std::pair{MatrixOperand::B, tiles.b},
                               std::pair{MatrixOperand::C, tiles.c}})
    gather(b, loc, inst, operand, tile, [&](OpBuilder &lb, Value lane) {
      return laneRegisters(lb, loc, op, inst, operand, lane, laneOperand);
    });
  multiplyAccumulate(b, loc, inst, tiles.a, tiles.b, tiles.c);
  scatter(b, loc, inst, tiles.c, cast<VectorType>(op->getResult(0).getType()),
          laneResult);
}

//===----------------------------------------------------------------------===//
// Warpgroup MMA
//===----------------------------------------------------------------------===//

namespace {

/// Reads an operand tile (rows x cols, the instruction's A or B) from its
/// workgroup buffer through its descriptor into the f32 host `tile`:
/// element (r, c) at the origin moved by r along dims[0], c along dims[1],
/// as the instruction multiplies it (inputValue: 8-bit floats decoded).
void readOperand(OpBuilder &b, Location loc, const MatrixInstruction &inst,
                 MatrixOperand operand, Value buffer, Value desc,
                 ValueRange origin, ArrayRef<int64_t> dims, int64_t rows,
                 int64_t cols, Value tile) {
  forEach(b, loc, rows, [&](OpBuilder &rb, Value r) {
    forEach(rb, loc, cols, [&](OpBuilder &cb, Value c) {
      SmallVector<Value> at(origin);
      at[dims[0]] = arith::AddIOp::create(cb, loc, at[dims[0]], r);
      at[dims[1]] = arith::AddIOp::create(cb, loc, at[dims[1]], c);
      Value off = OffsetOp::create(cb, loc, desc, at);
      Value x = inputValue(cb, loc, inst, operand,
                           memref::LoadOp::create(cb, loc, buffer, off));
      memref::StoreOp::create(cb, loc, x, tile, ValueRange{r, c});
    });
  });
}

} // namespace

void test::emulateWarpgroupMma(OpBuilder &b, Location loc, Operation *op,
                               const MatrixInstruction &inst, MatrixTiles tiles,
                               LaneOperandAt laneOperand,
                               LaneResultAt laneResult) {
  Value lane0 = indexConstant(b, loc, 0);
  auto origin = [&](unsigned first, unsigned rank) {
    SmallVector<Value> o;
    for (unsigned i = 0; i < rank; ++i)
      o.push_back(laneOperand(b, first + i, lane0));
    return o;
  };
  if (auto mma = dyn_cast<WarpgroupMmaRegAOp>(op)) {
    // Operand numbers: acc, a, b, b_desc, b_origin...; A gathered from the
    // lanes through the register-A layout.
    gather(b, loc, inst, MatrixOperand::A, tiles.a,
           [&](OpBuilder &lb, Value lane) {
             return flatten(lb, loc, laneOperand(lb, 1, lane));
           });
    readOperand(b, loc, inst, MatrixOperand::B, laneOperand(b, 2, lane0),
                laneOperand(b, 3, lane0), origin(4, mma.getBOrigin().size()),
                mma.getBDims(), inst.k, inst.n, tiles.b);
  } else {
    auto ss = cast<WarpgroupMmaOp>(op);
    // Operand numbers: acc, a, a_desc, a_origin..., b, b_desc, b_origin....
    unsigned aOrigin = 3, rankA = ss.getAOrigin().size();
    unsigned bBuf = aOrigin + rankA, rankB = ss.getBOrigin().size();
    readOperand(b, loc, inst, MatrixOperand::A, laneOperand(b, 1, lane0),
                laneOperand(b, 2, lane0), origin(aOrigin, rankA), ss.getADims(),
                inst.m, inst.k, tiles.a);
    readOperand(b, loc, inst, MatrixOperand::B, laneOperand(b, bBuf, lane0),
                laneOperand(b, bBuf + 1, lane0), origin(bBuf + 2, rankB),
                ss.getBDims(), inst.k, inst.n, tiles.b);
  }
  gather(b, loc, inst, MatrixOperand::C, tiles.c,
         [&](OpBuilder &lb, Value lane) {
           return flatten(lb, loc, laneOperand(lb, 0, lane));
         });
  multiplyAccumulate(b, loc, inst, tiles.a, tiles.b, tiles.c);
  scatter(b, loc, inst, tiles.c, cast<VectorType>(op->getResult(0).getType()),
          laneResult);
}
