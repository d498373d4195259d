//===- LayoutCanonicalization.cpp - Canonicalization of descriptors -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The pattern of `layout.transform`: identity entries become pass_throughs,
// identity stages vanish, consecutive stages compose, and stages over a
// strided base fold back into `layout.naive`, a whole chain at a time. The
// algebra is in layout/Evaluator/Simplify.h (brute-force tested there); the
// pattern only moves it onto ops.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Simplify.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

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
        builder.getArrayAttr(upperDims), ValueRange());
}

namespace {

/// Whether `desc` (through further layout.transform ops) feeds a coordinate
/// op: its chain is part of the coordinate's type (the number of hidden
/// indices), so canonicalization keeps it as written.
bool feedsCoordinates(Value desc) {
  // (A graph region may hold a cycle of transforms: each is visited once.)
  SmallVector<Value> work = {desc};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<MakeCoordOp, MoveCoordOp, CoordOffsetOp, CoordValidOp>(user))
        return true;
      if (auto t = dyn_cast<TransformOp>(user))
        if (seen.insert(t).second)
          work.push_back(t.getResult());
    }
  }
  return false;
}

/// Whether `op` is inside a chain: its only user is the next layout.transform
/// (the chain is then simplified from its top, where it is used).
bool isInsideChain(TransformOp op) {
  return op->hasOneUse() && isa<TransformOp>(*op->user_begin());
}

/// Simplifies a chain of layout.transform ops at once from its top `op`
/// (an op whose result is used other than by a single layout.transform),
/// down through the ops used only by the next one: identity entries become
/// pass_throughs (or `#layout.offset<U, 0>` where they shrink the dim),
/// identity stages vanish, consecutive stages compose, and the stages over a
/// strided base (naive, packed, aligned) fold back into `layout.naive` with
/// the same element space (simplifyChain). One match walks the chain once,
/// so canonicalizing a chain takes time linear in its length.
struct SimplifyChain final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    if (isInsideChain(op) || feedsCoordinates(op.getResult()))
      return failure();
    // The simplifications compare and compose values: run-time ones wait
    // until FoldConstantArgs has made them static.
    auto isDynamicOp = [](TransformOp t) {
      return !t.getArgs().empty() ||
             llvm::any_of(cast<DescType>(t.getSource().getType()).getLengths(),
                          ShapedType::isDynamic);
    };
    if (isDynamicOp(op))
      return failure();
    SmallVector<TransformOp> chain = {op};
    while (auto below = chain.back().getSource().getDefiningOp<TransformOp>()) {
      if (!below->hasOneUse())
        break;
      // A cycle (possible in a graph region) is no chain to simplify.
      if (llvm::is_contained(chain, below))
        return failure();
      if (isDynamicOp(below))
        break;
      chain.push_back(below);
    }
    std::reverse(chain.begin(), chain.end());
    Value source = chain.front().getSource();
    std::optional<StridedBase> base;
    if (isa_and_nonnull<NaiveOp, PackedOp, AlignedOp>(source.getDefiningOp())) {
      llvm::Expected<Descriptor> d = traceDescriptor(source);
      if (!d)
        llvm::consumeError(d.takeError());
      else
        base = StridedBase::of(*d);
    }
    std::vector<Stage> stages;
    stages.reserve(chain.size());
    for (TransformOp t : chain)
      stages.push_back(t.getStageEntries());
    SimplifiedChain simple = simplifyChain(
        cast<DescType>(source.getType()).getLengths(), base, stages);
    if (!simple.changed)
      return failure();
    Location loc = op.getLoc();
    Value v = source;
    if (simple.base) {
      // A naive base, its `space` written only where it is not the least.
      const StridedBase &b = *simple.base;
      std::optional<int64_t> space;
      if (b.space != b.minimalSpace())
        space = b.space;
      llvm::Expected<Descriptor> base =
          Descriptor::naive(b.lengths, b.strides, b.offset, space);
      if (!base) {
        llvm::consumeError(base.takeError());
        return failure();
      }
      v = buildDescriptor(rewriter, loc, *base);
    }
    v = buildStages(rewriter, loc, v, simple.stages);
    if (v.getType() != op.getType()) {
      // Erase the new chain, from its top down to `source`.
      while (v != source) {
        Operation *created = v.getDefiningOp();
        auto t = dyn_cast<TransformOp>(created);
        v = t ? t.getSource() : source;
        rewriter.eraseOp(created);
      }
      return failure();
    }
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// A run-time argument given by a constant becomes static:
/// `#layout.unmerge<[?, 32]> ... args(%c4)` is `#layout.unmerge<[4, 32]>`.
/// The result type keeps its `?`s (isCompatibleLengths), so no user
/// changes. A constant that would make a transform invalid is refused by
/// the verifier (TransformOp::verify), so it never reaches this pattern.
struct FoldConstantArgs final : OpRewritePattern<TransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransformOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getArgs().empty())
      return failure();
    Stage entries = op.getStageEntries();
    if (entries.empty())
      return failure();
    SmallVector<Value> kept;
    if (!layout::detail::writeConstantArgs(entries, op.getArgs(), kept))
      return failure();
    llvm::Expected<SmallVector<int64_t>> lengths = Descriptor::checkStage(
        cast<DescType>(op.getSource().getType()).getLengths(), entries);
    if (!lengths) {
      llvm::consumeError(lengths.takeError());
      return failure();
    }
    SmallVector<Attribute> transforms;
    for (const StageEntry &e : entries)
      transforms.push_back(getTransformAttr(getContext(), e.transform));
    rewriter.modifyOpInPlace(op, [&] {
      op.setTransformsAttr(rewriter.getArrayAttr(transforms));
      op.getArgsMutable().assign(kept);
    });
    return success();
  }
};

} // namespace

bool mlir::layout::detail::writeConstantArgs(Stage &entries, ValueRange args,
                                             SmallVectorImpl<Value> &kept) {
  size_t next = 0;
  bool changed = false;
  for (StageEntry &e : entries)
    e.transform.mapDynamic([&](int64_t v) {
      if (next >= args.size())
        return v;
      Value arg = args[next++];
      APInt c;
      if (matchPattern(arg, m_ConstantInt(&c)) &&
          !isDynamic(c.getSExtValue())) {
        changed = true;
        return c.getSExtValue();
      }
      kept.push_back(arg);
      return v;
    });
  return changed;
}

void TransformOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<SimplifyChain, FoldConstantArgs>(context);
}
