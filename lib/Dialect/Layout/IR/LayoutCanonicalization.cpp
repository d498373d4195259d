//===- LayoutCanonicalization.cpp - Canonicalization of descriptors -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The patterns of `layout.transform`: identity entries become pass_throughs,
// identity stages vanish, consecutive stages compose, and stages over a
// strided base fold back into `layout.naive`. The algebra is in
// layout/Evaluator/Simplify.h (brute-force tested there); these patterns
// only move it onto ops.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Simplify.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::layout;

void TransformOp::build(OpBuilder &builder, OperationState &state, Value source,
                        ArrayRef<StageEntry> stage) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Attribute> transforms, lowerDims, upperDims;
  for (const StageEntry &e : stage) {
    transforms.push_back(getTransformAttr(ctx, e.transform));
    lowerDims.push_back(builder.getDenseI64ArrayAttr(e.lowerDims));
    upperDims.push_back(builder.getDenseI64ArrayAttr(e.upperDims));
  }
  auto sourceType = cast<DescType>(source.getType());
  llvm::Expected<SmallVector<int64_t>> lengths =
      Descriptor::checkStage(sourceType.getLengths(), stage);
  // An invalid stage still builds (with the source's type) so that the
  // verifier reports it at the op.
  SmallVector<int64_t> resultLengths(sourceType.getLengths());
  if (lengths)
    resultLengths = *lengths;
  else
    llvm::consumeError(lengths.takeError());
  build(builder, state, DescType::get(ctx, resultLengths), source,
        builder.getArrayAttr(transforms), builder.getArrayAttr(lowerDims),
        builder.getArrayAttr(upperDims));
}

namespace {

/// Whether `desc` (through further layout.transform ops) feeds a coordinate
/// op: its chain is part of the coordinate's type (the number of hidden
/// indices), so canonicalization keeps it as written.
bool feedsCoordinates(Value desc) {
  SmallVector<Value> work = {desc};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<MakeCoordOp, MoveCoordOp, CoordOffsetOp, CoordValidOp>(user))
        return true;
      if (auto t = dyn_cast<TransformOp>(user))
        work.push_back(t.getResult());
    }
  }
  return false;
}

/// Identity entries (a zero pad, a slice from 0, a modulo by at least its
/// length, xor/rotate with L1 = 1, ...) become pass_throughs, or
/// `#layout.offset<U, 0>` where they shrink the dim.
struct SimplifyIdentityEntries final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    if (feedsCoordinates(op.getResult()))
      return failure();
    std::optional<Stage> stage = simplifyIdentityEntries(
        cast<DescType>(op.getSource().getType()).getLengths(),
        op.getStageEntries());
    if (!stage)
      return failure();
    rewriter.replaceOpWithNewOp<TransformOp>(op, op.getSource(), *stage);
    return success();
  }
};

/// A stage of pass_throughs of each dim onto itself is its source.
struct DropIdentityStage final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    if (feedsCoordinates(op.getResult()) ||
        !isIdentityStage(op.getStageEntries()) ||
        op.getSource().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, op.getSource());
    return success();
  }
};

/// transform(transform(x, s1), s2) -> transform(x, s1 . s2) where the
/// composition is in the table (Simplify.h).
struct ComposeStages final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    auto below = op.getSource().getDefiningOp<TransformOp>();
    if (!below || feedsCoordinates(op.getResult()))
      return failure();
    std::optional<Stage> stage =
        composeStages(cast<DescType>(below.getSource().getType()).getLengths(),
                      below.getStageEntries(), op.getStageEntries());
    if (!stage)
      return failure();
    auto composed =
        TransformOp::create(rewriter, op.getLoc(), below.getSource(), *stage);
    if (composed.getType() != op.getType()) {
      rewriter.eraseOp(composed);
      return failure();
    }
    rewriter.replaceOp(op, composed.getResult());
    return success();
  }
};

/// A plainly strided stage over a base (naive, packed, aligned) becomes a
/// `layout.naive` with the same element space.
struct FoldIntoNaive final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    Operation *baseOp = op.getSource().getDefiningOp();
    if (!isa_and_nonnull<NaiveOp, PackedOp, AlignedOp>(baseOp) ||
        feedsCoordinates(op.getResult()))
      return failure();
    llvm::Expected<Descriptor> d = traceDescriptor(op.getSource());
    if (!d) {
      llvm::consumeError(d.takeError());
      return failure();
    }
    std::optional<StridedBase> base = StridedBase::of(*d);
    if (!base)
      return failure();
    std::optional<StridedBase> folded =
        foldIntoStrides(*base, op.getStageEntries());
    if (!folded)
      return failure();
    IntegerAttr offset, space;
    if (folded->offset != 0)
      offset = rewriter.getI64IntegerAttr(folded->offset);
    if (folded->space != folded->minimalSpace())
      space = rewriter.getI64IntegerAttr(folded->space);
    rewriter.replaceOpWithNewOp<NaiveOp>(
        op, op.getType(), rewriter.getDenseI64ArrayAttr(folded->lengths),
        rewriter.getDenseI64ArrayAttr(folded->strides), offset, space);
    return success();
  }
};

} // namespace

void TransformOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<SimplifyIdentityEntries, DropIdentityStage, ComposeStages,
              FoldIntoNaive>(context);
}
