//===- LayoutAlgebra.cpp - CuTe's layout algebra as ops -------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The algebra ops (layout.compose, layout.complement, ...) compute with the
// evaluator's algebra (Algebra.h) on the layouts of their traced operands.
// One function, algebraDescriptor, gives an op's result descriptor: the
// verifier checks the result type with it, traceDescriptor sees through the
// ops with it, and canonicalization rewrites an op to its naive base and
// stage of merges.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Algebra.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

static llvm::Error algebraError(const Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// The layout of a descriptor operand.
static llvm::Expected<StridedLayout> operandLayout(Value v, unsigned index) {
  llvm::Expected<Descriptor> d = traceDescriptor(v);
  if (!d)
    return d.takeError();
  llvm::Expected<StridedLayout> l = StridedLayout::fromDescriptor(*d);
  if (!l)
    return algebraError("operand " + Twine(index) + " is not a layout of " +
                        "the algebra: " + llvm::toString(l.takeError()));
  return l;
}

/// How many tiler operands an op takes: at least `min`, at most `max`.
static std::pair<unsigned, unsigned> tilerArity(Operation *op) {
  if (isa<BlockedProductOp, RakedProductOp>(op))
    return {1, 1};
  if (isa<ComposeOp, LogicalDivideOp, ZippedDivideOp, TiledDivideOp,
          LogicalProductOp>(op))
    return {1, ~0u};
  return {0, 0};
}

/// Why `op` has the wrong number of tiler operands, or "".
static std::string arityProblem(Operation *op) {
  auto [min, max] = tilerArity(op);
  unsigned n = op->getNumOperands() - 1;
  if (n >= min && n <= max)
    return "";
  if (min == max)
    return "takes " + std::to_string(min) + " tiler operand" +
           (min == 1 ? "" : "s") + ", got " + std::to_string(n);
  return "takes at least " + std::to_string(min) + " tiler operand, got " +
         std::to_string(n);
}

/// CuTe's result of an algebra op on its operands' layouts. (Also reached
/// through traceDescriptor from other ops' verifiers, possibly before this
/// op's own verifier ran: the arity is checked here too.)
static llvm::Expected<StridedLayout> algebraLayout(Operation *op) {
  if (std::string problem = arityProblem(op); !problem.empty())
    return algebraError(op->getName().getStringRef() + " " + problem);
  std::vector<StridedLayout> operands;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    llvm::Expected<StridedLayout> l = operandLayout(v, i);
    if (!l)
      return l.takeError();
    operands.push_back(std::move(*l));
  }
  const StridedLayout &a = operands.front();
  llvm::ArrayRef<StridedLayout> tiler = llvm::ArrayRef(operands).drop_front();
  // One tiler operand is a layout, several a by-mode tiler.
  algebra::TilerKind kind = tiler.size() == 1 ? algebra::TilerKind::Layout
                                              : algebra::TilerKind::ByMode;
  auto with = [&](algebra::TilerFunction f) {
    return algebra::withTiler(f, a, tiler, kind);
  };
  using R = llvm::Expected<StridedLayout>;
  using F = algebra::TilerFunction;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case([&](ComposeOp) { return with(F::Composition); })
      .Case([&](LogicalDivideOp) { return with(F::LogicalDivide); })
      .Case([&](ZippedDivideOp) { return with(F::ZippedDivide); })
      .Case([&](TiledDivideOp) { return with(F::TiledDivide); })
      .Case([&](LogicalProductOp) { return with(F::LogicalProduct); })
      .Case([&](BlockedProductOp) -> R {
        return algebra::blockedProduct(a, tiler[0]);
      })
      .Case([&](RakedProductOp) -> R {
        return algebra::rakedProduct(a, tiler[0]);
      })
      .Case([&](ComplementOp c) -> R {
        return algebra::complement(a, static_cast<int64_t>(c.getSize()));
      })
      .Case([&](CoalesceOp) -> R { return algebra::coalesce(a); })
      // The inverses are functions of one offset: one mode.
      .Case([&](RightInverseOp) -> R {
        return StridedLayout::tuple({algebra::rightInverse(a)});
      })
      .Case([&](LeftInverseOp) -> R {
        R l = algebra::leftInverse(a);
        if (!l)
          return l.takeError();
        return StridedLayout::tuple({*l});
      })
      .Default([](Operation *) -> R {
        return algebraError("not an op of the layout algebra");
      });
}

bool mlir::layout::isAlgebraOp(Operation *op) {
  return isa<ComposeOp, LogicalDivideOp, ZippedDivideOp, TiledDivideOp,
             LogicalProductOp, BlockedProductOp, RakedProductOp, ComplementOp,
             CoalesceOp, RightInverseOp, LeftInverseOp>(op);
}

llvm::Expected<Descriptor> mlir::layout::algebraDescriptor(Operation *op) {
  llvm::Expected<StridedLayout> l = algebraLayout(op);
  if (!l)
    return l.takeError();
  return algebra::coalesceByMode(*l).toDescriptor();
}

/// The shared verifier: the tiler's arity, then (when the operands trace)
/// the algebra's conditions and the result type.
static LogicalResult verifyAlgebraOp(Operation *op) {
  if (std::string problem = arityProblem(op); !problem.empty())
    return op->emitOpError() << problem;
  for (Value v : op->getOperands()) {
    llvm::Expected<Descriptor> d = traceDescriptor(v);
    if (!d) {
      // Checked where it can be (after inlining, say).
      llvm::consumeError(d.takeError());
      return success();
    }
  }
  llvm::Expected<Descriptor> d = algebraDescriptor(op);
  if (!d)
    return op->emitOpError() << llvm::toString(d.takeError());
  auto type = cast<DescType>(op->getResult(0).getType());
  if (type.getLengths() != d->getLengths())
    return op->emitOpError()
           << "result type " << type << " does not match the sizes of the "
           << "result's modes " << formatSizeList(d->getLengths());
  return success();
}

namespace {
/// Rewrites an algebra op to its result: a layout.naive over the leaves and,
/// where a mode has several, a layout.transform of merges.
struct MaterializeAlgebra final : RewritePattern {
  MaterializeAlgebra(StringRef name, MLIRContext *ctx)
      : RewritePattern(name, /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    llvm::Expected<Descriptor> d = algebraDescriptor(op);
    if (!d) {
      llvm::consumeError(d.takeError());
      return failure();
    }
    Location loc = op->getLoc();
    MLIRContext *ctx = op->getContext();
    // Nothing is created unless it replaces the op (a result type that the
    // verifier could not check leaves the op alone).
    if (DescType::get(ctx, d->getLengths()) != op->getResult(0).getType())
      return failure();
    rewriter.replaceOp(op, buildDescriptor(rewriter, loc, *d));
    return success();
  }
};
} // namespace

#define ALGEBRA_OP(Op)                                                         \
  LogicalResult Op::verify() { return verifyAlgebraOp(*this); }                \
  void Op::getCanonicalizationPatterns(RewritePatternSet &results,             \
                                       MLIRContext *context) {                 \
    results.add<MaterializeAlgebra>(Op::getOperationName(), context);          \
  }
ALGEBRA_OP(ComposeOp)
ALGEBRA_OP(LogicalDivideOp)
ALGEBRA_OP(ZippedDivideOp)
ALGEBRA_OP(TiledDivideOp)
ALGEBRA_OP(LogicalProductOp)
ALGEBRA_OP(BlockedProductOp)
ALGEBRA_OP(RakedProductOp)
ALGEBRA_OP(ComplementOp)
ALGEBRA_OP(CoalesceOp)
ALGEBRA_OP(RightInverseOp)
ALGEBRA_OP(LeftInverseOp)
#undef ALGEBRA_OP
