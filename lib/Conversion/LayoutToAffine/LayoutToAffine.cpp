//===- LayoutToAffine.cpp - Layout index ops to affine maps ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Composes a descriptor's chain into affine expressions: each transform maps
// the expressions of its upper coordinate to those of its lower coordinate
// (the same formulas as the evaluator's calculateLowerIndex, as AffineExprs),
// so that a whole chain becomes one map that MLIR's simplifier reduces. The
// transforms that are not affine (xor, swizzle, sunder) are materialized as
// arith ops whose results enter the next expressions as new dims.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_CONVERTLAYOUTTOAFFINE
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Builds affine expressions over a growing list of SSA operands (the dims)
/// and materializes them as `affine.apply` ops.
class IndexExprBuilder {
public:
  IndexExprBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), ctx(b.getContext()) {}

  /// A new dim standing for `v`.
  AffineExpr dim(Value v) {
    operands.push_back(v);
    return getAffineDimExpr(operands.size() - 1, ctx);
  }
  AffineExpr cst(int64_t c) { return getAffineConstantExpr(c, ctx); }

  /// One value computing `e`: an existing operand, a constant, or an
  /// `affine.apply` of the simplified map over the operands it uses.
  Value materialize(AffineExpr e) {
    e = simplifyAffineExpr(e, operands.size(), 0);
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return operands[d.getPosition()];
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return arith::ConstantIndexOp::create(b, loc, c.getValue());
    // Keep the dims that `e` uses, in order, as the map's dims.
    SmallVector<AffineExpr> remap(operands.size(), AffineExpr());
    SmallVector<Value> mapOperands;
    for (unsigned i = 0; i < operands.size(); ++i)
      if (e.isFunctionOfDim(i)) {
        remap[i] = getAffineDimExpr(mapOperands.size(), ctx);
        mapOperands.push_back(operands[i]);
      } else {
        remap[i] = getAffineConstantExpr(0, ctx);
      }
    AffineMap map = AffineMap::get(mapOperands.size(), 0,
                                   e.replaceDims(remap));
    return affine::AffineApplyOp::create(b, loc, map, mapOperands);
  }

  Value constant(int64_t c) {
    return arith::ConstantIndexOp::create(b, loc, c);
  }
  Value cmp(arith::CmpIPredicate pred, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
  }
  Value select(Value cond, Value a, Value c) {
    return arith::SelectOp::create(b, loc, cond, a, c);
  }

  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  SmallVector<Value> operands;
};

/// prod_{j>i} lengths[j] for each i.
SmallVector<int64_t> suffixProducts(ArrayRef<int64_t> lengths) {
  SmallVector<int64_t> p(lengths.size(), 1);
  for (size_t i = lengths.size(); i-- > 1;)
    p[i - 1] = p[i] * lengths[i];
  return p;
}

/// sum_{j<i} pieces[j] for each i.
SmallVector<int64_t> prefixSums(ArrayRef<int64_t> pieces) {
  SmallVector<int64_t> p(pieces.size(), 0);
  for (size_t i = 1; i < pieces.size(); ++i)
    p[i] = p[i - 1] + pieces[i - 1];
  return p;
}

/// `u xor ((u >> S) & (((1 << B) - 1) << M))` on an index value.
Value emitSwizzle(IndexExprBuilder &eb, Value x, const Transform &t) {
  int64_t bits = t.getParam(0), base = t.getParam(1), shift = t.getParam(2);
  OpBuilder &b = eb.b;
  Value shifted =
      shift >= 0
          ? arith::ShRSIOp::create(b, eb.loc, x, eb.constant(shift)).getResult()
          : arith::ShLIOp::create(b, eb.loc, x, eb.constant(-shift))
                .getResult();
  int64_t mask = ((int64_t(1) << bits) - 1) << base;
  Value masked = arith::AndIOp::create(b, eb.loc, shifted, eb.constant(mask));
  return arith::XOrIOp::create(b, eb.loc, x, masked);
}

/// The lower coordinate of `t` as expressions of its upper coordinate.
SmallVector<AffineExpr> lowerExprs(const Transform &t,
                                   ArrayRef<AffineExpr> u,
                                   IndexExprBuilder &eb) {
  ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::RightPad:
    return {u[0]};
  case TransformKind::Pad:
  case TransformKind::LeftPad:
    return {u[0] - t.getParam(0)};
  case TransformKind::Embed: {
    AffineExpr l = eb.cst(0);
    for (auto [ui, c] : llvm::zip_equal(u, t.getCoefficients()))
      l = l + ui * c;
    return {l};
  }
  case TransformKind::Merge: {
    SmallVector<int64_t> p = suffixProducts(lengths);
    SmallVector<AffineExpr> l;
    for (size_t i = 0; i < lengths.size(); ++i)
      l.push_back(i == 0 ? u[0].floorDiv(p[0])
                         : u[0].floorDiv(p[i]) % lengths[i]);
    return l;
  }
  case TransformKind::Unmerge: {
    SmallVector<int64_t> p = suffixProducts(lengths);
    AffineExpr l = eb.cst(0);
    for (auto [ui, pi] : llvm::zip_equal(u, p))
      l = l + ui * pi;
    return {l};
  }
  case TransformKind::Replicate:
    return {};
  case TransformKind::Freeze:
    return {eb.cst(t.getParam(0))};
  case TransformKind::Offset:
  case TransformKind::Slice:
    return {u[0] + t.getParam(0)};
  case TransformKind::Modulo:
    return {u[0] % t.getParam(0)};
  case TransformKind::Rotate:
    return {u[0], (u[1] + u[0]) % lengths[1]};
  case TransformKind::Xor: {
    Value x = arith::XOrIOp::create(eb.b, eb.loc, eb.materialize(u[1]),
                                    eb.materialize(u[0] % lengths[1]));
    return {u[0], eb.dim(x)};
  }
  case TransformKind::Swizzle:
    return {eb.dim(emitSwizzle(eb, eb.materialize(u[0]), t))};
  case TransformKind::Sunder: {
    // l = u_s + prefix_s, selected by the switch s (the last coordinate).
    size_t k = lengths.size();
    SmallVector<int64_t> prefix = prefixSums(lengths);
    Value s = eb.materialize(u[k]);
    Value l = eb.materialize(u[k - 1] + prefix[k - 1]);
    for (size_t j = k - 1; j-- > 0;)
      l = eb.select(eb.cmp(arith::CmpIPredicate::eq, s, eb.constant(j)),
                    eb.materialize(u[j] + prefix[j]), l);
    return {eb.dim(l)};
  }
  }
  llvm_unreachable("unknown transform kind");
}

/// Appends the validity conditions of `t` at upper coordinate `u` (none for
/// the transforms that are always valid).
void validityConditions(const Transform &t, ArrayRef<AffineExpr> u,
                        IndexExprBuilder &eb, SmallVectorImpl<Value> &conds) {
  using P = arith::CmpIPredicate;
  switch (t.getKind()) {
  case TransformKind::Pad:
    // left <= u < left + L as one unsigned compare of u - left with L.
    conds.push_back(eb.cmp(P::ult, eb.materialize(u[0] - t.getParam(0)),
                           eb.constant(t.getLengths()[0])));
    return;
  case TransformKind::LeftPad:
    conds.push_back(eb.cmp(P::sge, eb.materialize(u[0]),
                           eb.constant(t.getParam(0))));
    return;
  case TransformKind::RightPad:
    conds.push_back(eb.cmp(P::slt, eb.materialize(u[0]),
                           eb.constant(t.getLengths()[0])));
    return;
  case TransformKind::Sunder: {
    ArrayRef<int64_t> pieces = t.getLengths();
    Value s = eb.materialize(u[pieces.size()]);
    Value valid;
    for (size_t j = 0; j < pieces.size(); ++j) {
      Value isJ = eb.cmp(P::eq, s, eb.constant(j));
      Value inPiece =
          eb.cmp(P::ult, eb.materialize(u[j]), eb.constant(pieces[j]));
      Value both = arith::AndIOp::create(eb.b, eb.loc, isJ, inPiece);
      valid = valid ? arith::OrIOp::create(eb.b, eb.loc, valid, both)
                          .getResult()
                    : both;
    }
    conds.push_back(valid);
    return;
  }
  default:
    return;
  }
}

/// Runs the chain from the top down, calling `onStage` with each stage's
/// upper expressions before lowering it; returns the base coordinate.
SmallVector<AffineExpr>
walkDown(const Descriptor &d, ValueRange indices, IndexExprBuilder &eb,
         function_ref<void(const StageEntry &, ArrayRef<AffineExpr>)> onEntry) {
  SmallVector<AffineExpr> cur;
  for (Value v : indices)
    cur.push_back(eb.dim(v));
  for (const Stage &stage : llvm::reverse(d.getStages())) {
    size_t inputRank = 0;
    for (const StageEntry &e : stage)
      inputRank += e.lowerDims.size();
    SmallVector<AffineExpr> next(inputRank);
    for (const StageEntry &e : stage) {
      SmallVector<AffineExpr> up;
      for (int64_t dim : e.upperDims)
        up.push_back(cur[dim]);
      if (onEntry)
        onEntry(e, up);
      SmallVector<AffineExpr> lo = lowerExprs(e.transform, up, eb);
      for (auto [dim, expr] : llvm::zip_equal(e.lowerDims, lo))
        next[dim] = expr;
    }
    cur = std::move(next);
  }
  return cur;
}

/// Digits of `l` in an embed with nested coefficients (largest first).
SmallVector<AffineExpr> splitNested(AffineExpr l, ArrayRef<int64_t> lengths,
                                    ArrayRef<int64_t> coefficients,
                                    IndexExprBuilder &eb) {
  SmallVector<unsigned> order;
  SmallVector<AffineExpr> u(lengths.size(), eb.cst(0));
  for (unsigned i = 0; i < lengths.size(); ++i)
    if (lengths[i] > 1)
      order.push_back(i);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return coefficients[a] > coefficients[b];
  });
  AffineExpr rest = l;
  for (unsigned i : order) {
    u[i] = rest.floorDiv(coefficients[i]);
    rest = rest % coefficients[i];
  }
  return u;
}

/// The upper coordinate of `t` as expressions of its lower coordinate (the
/// inverse; `t` is invertible).
SmallVector<AffineExpr> upperExprs(const Transform &t,
                                   ArrayRef<AffineExpr> l,
                                   IndexExprBuilder &eb) {
  ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
  case TransformKind::RightPad:
  case TransformKind::Modulo:
    return {l[0]};
  case TransformKind::Pad:
  case TransformKind::LeftPad:
    return {l[0] + t.getParam(0)};
  case TransformKind::Embed:
    return splitNested(l[0], lengths, t.getCoefficients(), eb);
  case TransformKind::Merge: {
    SmallVector<int64_t> p = suffixProducts(lengths);
    AffineExpr u = eb.cst(0);
    for (auto [li, pi] : llvm::zip_equal(l, p))
      u = u + li * pi;
    return {u};
  }
  case TransformKind::Unmerge: {
    SmallVector<int64_t> p = suffixProducts(lengths);
    SmallVector<AffineExpr> u;
    for (size_t i = 0; i < lengths.size(); ++i)
      u.push_back(i == 0 ? l[0].floorDiv(p[0])
                         : l[0].floorDiv(p[i]) % lengths[i]);
    return u;
  }
  case TransformKind::Replicate:
    return SmallVector<AffineExpr>(lengths.size(), eb.cst(0));
  case TransformKind::Freeze:
    return {};
  case TransformKind::Offset:
  case TransformKind::Slice:
    return {l[0] - t.getParam(0)};
  case TransformKind::Rotate:
    return {l[0], (l[1] - l[0]) % lengths[1]};
  case TransformKind::Xor:
    // An involution: the same formula.
    return lowerExprs(t, l, eb);
  case TransformKind::Swizzle:
    return lowerExprs(t, l, eb);
  case TransformKind::Sunder: {
    size_t k = lengths.size();
    SmallVector<int64_t> prefix = prefixSums(lengths);
    Value lv = eb.materialize(l[0]);
    Value s = eb.constant(0);
    for (size_t j = 1; j < k; ++j)
      s = eb.select(eb.cmp(arith::CmpIPredicate::sge, lv,
                           eb.constant(prefix[j])),
                    eb.constant(j), s);
    SmallVector<AffineExpr> u;
    for (size_t j = 0; j < k; ++j)
      u.push_back(eb.dim(
          eb.select(eb.cmp(arith::CmpIPredicate::eq, s, eb.constant(j)),
                    eb.materialize(l[0] - prefix[j]), eb.constant(0))));
    u.push_back(eb.dim(s));
    return u;
  }
  }
  llvm_unreachable("unknown transform kind");
}

/// Traces the descriptor of `op` or reports why not as a match failure.
FailureOr<Descriptor> traceOrFail(Operation *op, Value desc,
                                  PatternRewriter &rewriter) {
  llvm::Expected<Descriptor> d = traceDescriptor(desc);
  if (!d) {
    std::string why = llvm::toString(d.takeError());
    (void)rewriter.notifyMatchFailure(op, why);
    return failure();
  }
  return std::move(*d);
}

struct LowerOffset final : OpRewritePattern<OffsetOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OffsetOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Descriptor> d = traceOrFail(op, op.getDesc(), rewriter);
    if (failed(d))
      return failure();
    IndexExprBuilder eb(rewriter, op.getLoc());
    SmallVector<AffineExpr> base = walkDown(*d, op.getIndices(), eb, nullptr);
    AffineExpr offset = eb.cst(0);
    for (auto [c, s] : llvm::zip_equal(base, d->getBaseStrides()))
      offset = offset + c * s;
    rewriter.replaceOp(op, eb.materialize(offset));
    return success();
  }
};

struct LowerValid final : OpRewritePattern<ValidOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ValidOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Descriptor> d = traceOrFail(op, op.getDesc(), rewriter);
    if (failed(d))
      return failure();
    IndexExprBuilder eb(rewriter, op.getLoc());
    SmallVector<Value> conds;
    walkDown(*d, op.getIndices(), eb,
             [&](const StageEntry &e, ArrayRef<AffineExpr> up) {
               validityConditions(e.transform, up, eb, conds);
             });
    Value valid;
    for (Value c : conds)
      valid = valid ? arith::AndIOp::create(rewriter, op.getLoc(), valid, c)
                          .getResult()
                    : c;
    if (!valid)
      valid = arith::ConstantIntOp::create(rewriter, op.getLoc(), 1, 1);
    rewriter.replaceOp(op, valid);
    return success();
  }
};

struct LowerUpper final : OpRewritePattern<UpperOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UpperOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Descriptor> d = traceOrFail(op, op.getDesc(), rewriter);
    if (failed(d))
      return failure();
    if (llvm::Error e = d->checkInvertible()) {
      (void)rewriter.notifyMatchFailure(op, llvm::toString(std::move(e)));
      return failure();
    }
    IndexExprBuilder eb(rewriter, op.getLoc());
    SmallVector<AffineExpr> cur = splitNested(
        eb.dim(op.getOffset()), d->getBaseLengths(), d->getBaseStrides(), eb);
    for (const Stage &stage : d->getStages()) {
      size_t outputRank = 0;
      for (const StageEntry &e : stage)
        outputRank += e.upperDims.size();
      SmallVector<AffineExpr> next(outputRank);
      for (const StageEntry &e : stage) {
        SmallVector<AffineExpr> lo;
        for (int64_t dim : e.lowerDims)
          lo.push_back(cur[dim]);
        SmallVector<AffineExpr> up = upperExprs(e.transform, lo, eb);
        for (auto [dim, expr] : llvm::zip_equal(e.upperDims, up))
          next[dim] = expr;
      }
      cur = std::move(next);
    }
    SmallVector<Value> results;
    for (AffineExpr e : cur)
      results.push_back(eb.materialize(e));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LowerElementSpaceSize final : OpRewritePattern<ElementSpaceSizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ElementSpaceSizeOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Descriptor> d = traceOrFail(op, op.getDesc(), rewriter);
    if (failed(d))
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        op, d->getElementSpaceSize());
    return success();
  }
};

struct ConvertLayoutToAffinePass final
    : layout::impl::ConvertLayoutToAffineBase<ConvertLayoutToAffinePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLayoutToAffinePatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // Whatever is left could not be lowered: say why at the op.
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<OffsetOp, ValidOp, UpperOp, ElementSpaceSizeOp>(op))
        return;
      llvm::Expected<Descriptor> d = traceDescriptor(op->getOperand(0));
      if (!d) {
        op->emitOpError() << "cannot be lowered: "
                          << llvm::toString(d.takeError());
      } else if (llvm::Error e = d->checkInvertible()) {
        op->emitOpError() << "cannot be lowered: the descriptor is not "
                             "invertible: "
                          << llvm::toString(std::move(e));
      } else {
        op->emitOpError() << "cannot be lowered";
      }
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

void mlir::layout::populateLayoutToAffinePatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerOffset, LowerValid, LowerUpper, LowerElementSpaceSize>(
      patterns.getContext());
}
