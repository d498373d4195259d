//===- ShuffleEmulation.cpp - gpu.shuffle on the CPU ----------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// For -layout-test-gpu-to-loops: a gpu.shuffle runs once per group of
// `width` lanes, after every lane of the group has computed its value (the
// emulation runs threads one after the other between wave pieces). Lane k
// of a group reads the value of lane xor: k ^ offset, down: k + offset, up:
// k - offset, idx: offset (the gpu dialect's description of the op); a
// source outside [0, width) gives valid = false and an unspecified value,
// here NaN (floats) or all ones (integers), so that a program that uses it
// shows it. Groups of `width` consecutive lanes are separate shuffles, as
// NVVM's shfl.sync segments make them.
//
//===----------------------------------------------------------------------===//

#include "MatrixEmulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;

std::optional<int64_t> test::shuffleWidth(gpu::ShuffleOp op) {
  IntegerAttr width;
  if (!matchPattern(op.getWidth(), m_Constant(&width)) || width.getInt() < 1 ||
      width.getInt() > 64) {
    op.emitError() << "has no emulation: gpu.shuffle needs a constant width "
                      "from 1 to 64";
    return std::nullopt;
  }
  return width.getInt();
}

/// The unspecified value of an invalid shuffle, made visible: NaN, or all
/// ones.
static Value unspecified(OpBuilder &b, Location loc, Type type) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar =
      isa<FloatType>(element)
          ? TypedAttr(b.getFloatAttr(
                element,
                APFloat::getNaN(cast<FloatType>(element).getFloatSemantics())))
          : TypedAttr(b.getIntegerAttr(element, -1));
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

void test::emulateShuffle(OpBuilder &b, Location loc, gpu::ShuffleOp op,
                          int64_t width, LaneOperandAt operandAt,
                          ShuffleResultAt resultAt) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto lanes = scf::ForOp::create(b, loc, index(0), index(width), index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(lanes.getBody());
  Value lane = lanes.getInductionVar();
  Value offset = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                            operandAt(b, 1, lane));
  Value source;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    source = arith::XOrIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::DOWN:
    source = arith::AddIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::UP:
    source = arith::SubIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::IDX:
    source = offset;
    break;
  }
  Value valid = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, source,
                            index(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, source,
                            index(width)));
  Value from = arith::SelectOp::create(b, loc, valid, source, lane);
  Value value = operandAt(b, 0, from);
  Value result = arith::SelectOp::create(b, loc, valid, value,
                                         unspecified(b, loc, value.getType()));
  resultAt(b, lane, result, valid);
}
