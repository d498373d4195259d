//===- Float8Truncation.cpp - arith.truncf to 8-bit floats ----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/Float8Truncation.h"
#include "layout/Evaluator/Float8.h"
#include "layout/Transforms/MatrixTypes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::layout;

/// The encoding of `op`'s 8-bit float result.
static std::optional<Float8Encoding> resultEncoding(arith::TruncFOp op) {
  std::optional<MatrixElementKind> kind =
      float8KindOf(getElementTypeOrSelf(op.getType()));
  return kind ? float8EncodingOf(*kind) : std::nullopt;
}

bool mlir::layout::truncatesToFloat8(arith::TruncFOp op) {
  return resultEncoding(op).has_value();
}

/// Whether `v` is the float constant `value` (a scalar or a splat).
static bool isFloatConstant(Value v, double value) {
  FloatAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getValueAsDouble() == value;
  DenseFPElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<APFloat>().convertToDouble() == value;
  return false;
}

/// The other operand of binary `op` where one is the constant `value`.
template <typename OpTy> static Value otherOperand(Value v, double value) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op)
    return {};
  if (isFloatConstant(op.getRhs(), value))
    return op.getLhs();
  if (isFloatConstant(op.getLhs(), value))
    return op.getRhs();
  return {};
}

Value mlir::layout::saturatedTruncationSource(arith::TruncFOp op) {
  std::optional<Float8Encoding> encoding = resultEncoding(op);
  if (!encoding)
    return {};
  double max = float8Format(*encoding).maxFinite;
  Value in = op.getIn();
  // minimumf(maximumf(x, -M), M)
  if (Value lo = otherOperand<arith::MinimumFOp>(in, max))
    if (Value x = otherOperand<arith::MaximumFOp>(lo, -max))
      return x;
  // maximumf(minimumf(x, M), -M)
  if (Value hi = otherOperand<arith::MaximumFOp>(in, -max))
    if (Value x = otherOperand<arith::MinimumFOp>(hi, max))
      return x;
  return {};
}

LogicalResult mlir::layout::checkFloat8Truncation(arith::TruncFOp op,
                                                  const Chip &chip) {
  Type result = getElementTypeOrSelf(op.getType());
  if (!getElementTypeOrSelf(op.getIn().getType()).isF32())
    return op.emitOpError()
           << "to " << result << ": only f32 converts to 8-bit floats here "
           << "(extend to f32 first)";
  MatrixElementKind kind = *float8KindOf(result);
  bool converts = llvm::any_of(
      getMatrixInstructions(chip.name),
      [&](const MatrixInstruction *inst) { return inst->inputKind == kind; });
  if (!converts)
    return op.emitOpError()
           << "to " << result << ": " << chip.name
           << " does not convert f32 to it; chips convert to the 8-bit "
              "floats their matrix instructions take: "
           << chipsWithInputs(isFloat8);
  if (chip.isNVIDIA() && !saturatedTruncationSource(op)) {
    // (The largest finite values are integers: 448, 57344, 240.)
    auto max = int64_t(float8Format(*float8EncodingOf(kind)).maxFinite);
    return op.emitOpError()
           << "to " << result << ": " << chip.name
           << " converts to 8-bit floats only saturating (cvt.rn.satfinite): "
              "clamp the input first, arith.maximumf with -"
           << max << " then arith.minimumf with " << max;
  }
  return success();
}

void mlir::layout::replaceFloat8Truncation(
    arith::TruncFOp op, Value input,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                          ArrayRef<Value>)>
        encode) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type f8 = getElementTypeOrSelf(op.getType());
  auto vectorType = dyn_cast<VectorType>(input.getType());
  if (!vectorType) {
    Value code = encode(b, loc, {input}).front();
    op.replaceAllUsesWith(
        arith::BitcastOp::create(b, loc, f8, code).getResult());
    op.erase();
    return;
  }
  int64_t n = vectorType.getNumElements();
  auto flatType = VectorType::get({n}, vectorType.getElementType());
  Value flat =
      flatType == vectorType
          ? input
          : vector::ShapeCastOp::create(b, loc, flatType, input).getResult();
  SmallVector<Value> elements;
  for (int64_t i = 0; i < n; ++i)
    elements.push_back(vector::ExtractOp::create(b, loc, flat, i));
  SmallVector<Value> codes = encode(b, loc, elements);
  Value bytes = vector::FromElementsOp::create(
      b, loc, VectorType::get({n}, b.getI8Type()), codes);
  Value asF8 =
      vector::BitCastOp::create(b, loc, VectorType::get({n}, f8), bytes);
  if (asF8.getType() != op.getType())
    asF8 = vector::ShapeCastOp::create(b, loc, op.getType(), asF8);
  op.replaceAllUsesWith(asF8);
  op.erase();
}
