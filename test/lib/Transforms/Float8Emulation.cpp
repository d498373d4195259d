//===- Float8Emulation.cpp - Truncations to 8-bit floats on the CPU -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The emulation does not round by a formula of its own: it partitions the
// non-negative f32 values into the intervals on which encodeFloat8 gives
// one code (found by bisection over the f32 bit patterns, on which the
// encoding's code order is monotone), and each element looks its interval
// up by counting the lower ends at or below its magnitude. The interval's
// code for either sign is encodeFloat8's of the interval's lower end.
//
//===----------------------------------------------------------------------===//

#include "Float8Emulation.h"

#include "layout/Evaluator/Float8.h"
#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Transforms/Float8Truncation.h"
#include "layout/Transforms/MatrixTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"

#include <limits>

using namespace mlir;
using namespace mlir::layout;

namespace {

/// The intervals of one encoding: lowerEnds[i] is where interval i + 1
/// starts (interval 0 starts at +0), and positive[i] / negative[i] the code
/// of interval i for a value of either sign.
struct Float8Intervals {
  SmallVector<float> lowerEnds;
  SmallVector<int8_t> positive, negative;
  uint8_t nan;
};

/// The code of the f32 whose bits are `bits` (non-negative), ranked: the
/// finite codes by value (their own number), past them (infinity or NaN)
/// one more.
int64_t rankOf(Float8Encoding encoding, uint32_t bits) {
  const Float8Format &f = float8Format(encoding);
  uint8_t code = encodeFloat8(encoding, double(llvm::bit_cast<float>(bits)),
                              Float8Overflow::NonSaturating);
  return code <= f.maxFiniteCode ? code : f.maxFiniteCode + 1;
}

Float8Intervals intervalsOf(Float8Encoding encoding) {
  const Float8Format &f = float8Format(encoding);
  Float8Intervals out;
  auto codeOf = [&](float x) {
    return int8_t(encodeFloat8(encoding, x, Float8Overflow::NonSaturating));
  };
  out.positive.push_back(codeOf(0.0f));
  out.negative.push_back(codeOf(-0.0f));
  // +infinity has the highest rank; bisect for the least bits of each.
  const uint32_t inf = 0x7f800000;
  for (int64_t rank = 1; rank <= f.maxFiniteCode + 1; ++rank) {
    uint32_t lo = 0, hi = inf;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (rankOf(encoding, mid) >= rank)
        hi = mid;
      else
        lo = mid + 1;
    }
    float end = llvm::bit_cast<float>(lo);
    out.lowerEnds.push_back(end);
    out.positive.push_back(codeOf(end));
    out.negative.push_back(codeOf(-end));
  }
  out.nan = encodeFloat8(encoding, std::numeric_limits<double>::quiet_NaN(),
                         Float8Overflow::NonSaturating);
  return out;
}

/// The code (i8) of f32 `x`.
Value encodeElement(OpBuilder &b, Location loc, Value x,
                    const Float8Intervals &t) {
  Type i32 = b.getI32Type(), i8 = b.getI8Type();
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value magnitude = arith::BitcastOp::create(
      b, loc, b.getF32Type(),
      arith::AndIOp::create(b, loc, bits, c32(0x7fffffff)));
  auto n = int64_t(t.lowerEnds.size());
  auto endsType = VectorType::get({n}, b.getF32Type());
  Value ends = arith::ConstantOp::create(
      b, loc, endsType,
      DenseElementsAttr::get(endsType, ArrayRef<float>(t.lowerEnds)));
  Value spread = vector::BroadcastOp::create(b, loc, endsType, magnitude);
  // NaN is at or above no lower end: interval 0, replaced below.
  Value at =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, spread, ends);
  Value ones = arith::ExtUIOp::create(b, loc, VectorType::get({n}, i32), at);
  Value count =
      vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, ones);
  Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), count);
  auto codesType = VectorType::get({n + 1}, i8);
  auto table = [&](ArrayRef<int8_t> codes) -> Value {
    Value v = arith::ConstantOp::create(
        b, loc, codesType, DenseElementsAttr::get(codesType, codes));
    return vector::ExtractOp::create(b, loc, v, OpFoldResult(index));
  };
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, c32(0));
  Value code = arith::SelectOp::create(b, loc, negative, table(t.negative),
                                       table(t.positive));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value nan = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(i8, int64_t(int8_t(t.nan))));
  return arith::SelectOp::create(b, loc, isNaN, nan, code);
}

} // namespace

LogicalResult test::emulateFloat8Truncations(ModuleOp top) {
  SmallVector<arith::TruncFOp> truncs;
  top.walk([&](arith::TruncFOp op) {
    if (truncatesToFloat8(op))
      truncs.push_back(op);
  });
  for (arith::TruncFOp op : truncs) {
    Type f8 = getElementTypeOrSelf(op.getType());
    Float8Intervals t = intervalsOf(*float8EncodingOf(*float8KindOf(f8)));
    replaceFloat8Truncation(
        op, op.getIn(),
        [&](OpBuilder &b, Location loc, ArrayRef<Value> elements) {
          SmallVector<Value> codes;
          for (Value x : elements) {
            if (!x.getType().isF32())
              x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
            codes.push_back(encodeElement(b, loc, x, t));
          }
          return codes;
        });
  }
  return success();
}
