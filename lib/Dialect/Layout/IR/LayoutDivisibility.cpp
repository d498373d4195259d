//===- LayoutDivisibility.cpp - What run-time values are multiples of -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/Divisibility.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;

namespace {

/// How far the facts are followed through producers.
constexpr unsigned kMaxDepth = 16;

/// A multiple of both a and b is a multiple of a * b only for a product;
/// these combine the facts of an operation's operands.
int64_t productFact(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (std::optional<int64_t> p = checkedMul(a, b))
    return *p;
  return std::max(a, b); // (still a divisor of the product)
}
int64_t sumFact(int64_t a, int64_t b) { return std::gcd(a, b); }

/// |c|, or nothing known for a constant whose magnitude does not fit.
int64_t constantFact(int64_t c) {
  if (c == std::numeric_limits<int64_t>::min())
    return 1;
  return c < 0 ? -c : c;
}

/// The function argument `arg` is, or nothing.
FunctionOpInterface functionOf(BlockArgument arg) {
  Block *block = arg.getOwner();
  if (!block->isEntryBlock())
    return {};
  return dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
}

int64_t multipleOf(Value v, unsigned depth) {
  if (depth > kMaxDepth)
    return 1;
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return constantFact(c.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (FunctionOpInterface fn = functionOf(arg))
      if (auto attr = fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                       kMultipleOfAttr))
        return attr.getInt();
    return 1;
  }
  Operation *op = v.getDefiningOp();
  auto of = [&](Value x) { return multipleOf(x, depth + 1); };
  if (auto assume = dyn_cast<AssumeMultipleOp>(op)) {
    int64_t known = of(assume.getValue());
    int64_t stated = assume.getMultiple();
    if (isKnownMultipleOf(known, stated))
      return known;
    // A multiple of both is a multiple of their lcm.
    int64_t g = std::gcd(known, stated);
    if (std::optional<int64_t> l = checkedMul(known / g, stated))
      return *l;
    return stated;
  }
  if (isa<arith::MulIOp>(op))
    return productFact(of(op->getOperand(0)), of(op->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return sumFact(of(op->getOperand(0)), of(op->getOperand(1)));
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return sumFact(of(select.getTrueValue()), of(select.getFalseValue()));
  if (isa<arith::IndexCastOp>(op))
    return of(op->getOperand(0));
  if (auto shl = dyn_cast<arith::ShLIOp>(op)) {
    APInt k;
    if (matchPattern(shl.getRhs(), m_ConstantInt(&k)) &&
        k.getSExtValue() >= 0 && k.getSExtValue() < 62)
      return productFact(of(shl.getLhs()), int64_t(1) << k.getSExtValue());
  }
  return 1;
}

/// The fact of a mixed static / dynamic size (an OpFoldResult).
int64_t multipleOf(OpFoldResult ofr, unsigned depth) {
  if (auto attr = dyn_cast<Attribute>(ofr))
    return constantFact(cast<IntegerAttr>(attr).getInt());
  return multipleOf(cast<Value>(ofr), depth);
}

std::optional<MemRefMultiples> memrefMultiples(Value memref, unsigned depth) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  auto staticFact = [](int64_t s) {
    return ShapedType::isDynamic(s) ? int64_t(1) : constantFact(s);
  };
  MemRefMultiples m;
  m.strides = llvm::map_to_vector(strides, staticFact);
  m.offset = staticFact(offset);
  if (depth > kMaxDepth)
    return m;
  // The producer's facts, for the dynamic entries only (a static entry is
  // its own exact value).
  std::optional<MemRefMultiples> given;
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (FunctionOpInterface fn = functionOf(arg)) {
      MemRefMultiples f;
      f.strides.assign(strides.size(), 1);
      if (auto attr = fn.getArgAttrOfType<DenseI64ArrayAttr>(
              arg.getArgNumber(), kStrideMultiplesAttr))
        if (attr.size() == int64_t(strides.size()))
          f.strides.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
      if (auto attr = fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                       kOffsetMultipleAttr))
        f.offset = attr.getInt();
      given = std::move(f);
    }
  } else if (auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>()) {
    MemRefMultiples f;
    for (OpFoldResult s : cast.getMixedStrides())
      f.strides.push_back(multipleOf(s, depth + 1));
    f.offset = multipleOf(cast.getMixedOffsets().front(), depth + 1);
    given = std::move(f);
  } else if (auto sub = memref.getDefiningOp<memref::SubViewOp>()) {
    // Not rank-reducing: stride_i = src_i * step_i and
    // offset = src offset + sum off_i * src_i.
    std::optional<MemRefMultiples> src =
        memrefMultiples(sub.getSource(), depth + 1);
    if (src && sub.getSourceType().getRank() == type.getRank()) {
      MemRefMultiples f;
      f.offset = src->offset;
      for (auto [srcStride, step, off] : llvm::zip_equal(
               src->strides, sub.getMixedStrides(), sub.getMixedOffsets())) {
        f.strides.push_back(
            productFact(srcStride, multipleOf(step, depth + 1)));
        f.offset = sumFact(f.offset,
                           productFact(multipleOf(off, depth + 1), srcStride));
      }
      given = std::move(f);
    }
  } else if (auto c = memref.getDefiningOp<memref::CastOp>()) {
    given = memrefMultiples(c.getSource(), depth + 1);
  }
  if (given && given->strides.size() == strides.size()) {
    for (auto [k, s] : llvm::enumerate(strides))
      if (ShapedType::isDynamic(s))
        m.strides[k] = given->strides[k];
    if (ShapedType::isDynamic(offset))
      m.offset = given->offset;
  }
  return m;
}

} // namespace

int64_t mlir::layout::knownMultiple(Value value) {
  return multipleOf(value, 0);
}

std::optional<MemRefMultiples>
mlir::layout::knownMemRefMultiples(Value memref) {
  return memrefMultiples(memref, 0);
}

//===----------------------------------------------------------------------===//
// layout.assume_multiple
//===----------------------------------------------------------------------===//

LogicalResult AssumeMultipleOp::verify() {
  // The attribute is an i64; its ODS getter reads it unsigned.
  int64_t multiple = getMultipleAttr().getInt();
  if (multiple <= 0)
    return emitOpError() << "'multiple' must be positive, got " << multiple;
  return success();
}

OpFoldResult AssumeMultipleOp::fold(FoldAdaptor adaptor) {
  // A constant that is a multiple needs no fact; one that is not is the
  // program's broken promise, left for the verifier of the caller to see.
  if (auto c = dyn_cast_or_null<IntegerAttr>(adaptor.getValue()))
    if (isKnownMultipleOf(constantFact(c.getInt()), getMultiple()))
      return c;
  // A fact already known of the value.
  if (isKnownMultipleOf(knownMultiple(getValue()), getMultiple()))
    return getValue();
  return {};
}

namespace {
/// `x mod N` (remui / remsi by a constant N > 0) of a known multiple of N
/// is 0.
template <typename RemOp>
struct FoldRemainderOfMultiple final : OpRewritePattern<RemOp> {
  using OpRewritePattern<RemOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RemOp op,
                                PatternRewriter &rewriter) const override {
    APInt n;
    if (!matchPattern(op.getRhs(), m_ConstantInt(&n)) || n.getSExtValue() <= 0)
      return failure();
    // Only where a stated fact is involved (arith folds the rest).
    int64_t known = knownMultiple(op.getLhs());
    if (known == 1 || !isKnownMultipleOf(known, n.getSExtValue()))
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, op.getType(), rewriter.getZeroAttr(op.getType()));
    return success();
  }
};
} // namespace

void AssumeMultipleOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<FoldRemainderOfMultiple<arith::RemUIOp>,
              FoldRemainderOfMultiple<arith::RemSIOp>>(context);
}

//===----------------------------------------------------------------------===//
// The function argument attributes
//===----------------------------------------------------------------------===//

LogicalResult LayoutDialect::verifyRegionArgAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Type type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  auto fail = [&]() {
    return op->emitOpError()
           << "argument " << argIndex << "'s '" << name << "' ";
  };
  auto positive = [&](int64_t v, StringRef what) -> LogicalResult {
    if (v > 0)
      return success();
    return fail() << what << " must be positive, got " << v;
  };
  if (name == kMultipleOfAttr) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value)
      return fail() << "must be an integer";
    if (!type.isIntOrIndex())
      return fail() << "applies to an index or integer argument, not " << type;
    return positive(value.getInt(), "the multiple");
  }
  if (name == kStrideMultiplesAttr || name == kOffsetMultipleAttr) {
    auto memref = dyn_cast<MemRefType>(type);
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!memref || failed(memref.getStridesAndOffset(strides, offset)))
      return fail() << "applies to a strided memref argument, not " << type;
    if (name == kOffsetMultipleAttr) {
      auto value = dyn_cast<IntegerAttr>(attr.getValue());
      if (!value)
        return fail() << "must be an integer";
      // 0: the offset is 0.
      if (value.getInt() < 0)
        return fail() << "must be non-negative, got " << value.getInt();
      return success();
    }
    auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!values)
      return fail() << "must be array<i64: ...>, one entry per dimension";
    if (values.size() != int64_t(strides.size()))
      return fail() << "has " << values.size() << " entries but " << type
                    << " has rank " << strides.size();
    for (int64_t v : values.asArrayRef())
      if (v < 0)
        return fail() << "entries must be non-negative, got " << v;
    return success();
  }
  return op->emitOpError() << "unknown layout argument attribute '" << name
                           << "'";
}
