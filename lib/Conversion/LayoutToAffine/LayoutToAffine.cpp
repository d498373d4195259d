//===- LayoutToAffine.cpp - Layout index ops to affine maps ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Composes a descriptor's chain into affine expressions by running the
// evaluator's own formulas (layout/Evaluator/DescriptorFormulas.h) over an
// algebra of AffineExprs: a whole chain becomes one map that MLIR's
// simplifier reduces.
// The pieces that are not affine (xor, the sunder's selects, comparisons)
// are materialized as arith ops whose results enter the next expressions as
// new dims.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/IndexAlgebras.h"
#include "layout/Evaluator/DescriptorFormulas.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/DialectConversion.h"
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

/// The index algebra (IndexAlgebra.h) over AffineExprs: affine operations
/// compose into expressions over a growing list of SSA operands (the dims);
/// the others (xor, select, comparisons) are materialized as arith ops whose
/// results enter later expressions as new dims. The run-time values of a
/// descriptor (its slots) are the symbols: a parameter is a constant or a
/// symbol, so a dynamic chain becomes maps such as
/// `(d0, d1)[s0] -> (d0 * s0 + d1)`. Every op it creates is recorded so that
/// `eraseUnused` can drop what the caller did not use.
class AffineAlgebra : public AffineExprAlgebra {
public:
  using Value = AffineExpr;
  using Param = AffineExpr;
  using AffineExprAlgebra::floorDiv;
  using AffineExprAlgebra::floorMod;
  using AffineExprAlgebra::mul;
  /// A condition: a known constant, or an i1 SSA value.
  struct Bool {
    std::optional<bool> known;
    mlir::Value value;
  };

  /// `runTime[n]` is the value of slot n (traceDescriptor's).
  AffineAlgebra(RewriterBase &rewriter, Location loc,
                ArrayRef<mlir::Value> runTime = {})
      : AffineExprAlgebra(rewriter.getContext()), rewriter(rewriter), loc(loc),
        symbols(runTime.begin(), runTime.end()) {}

  // Parameters: constants, or symbols for the run-time values.
  AffineExpr param(int64_t raw) {
    if (isDynamic(raw)) {
      assert(slotOf(raw) < int64_t(symbols.size()) && "an unnumbered '?'");
      return getAffineSymbolExpr(slotOf(raw), ctx);
    }
    return constant(raw);
  }
  AffineExpr paramMul(AffineExpr x, AffineExpr y) { return x * y; }
  AffineExpr paramAdd(AffineExpr x, AffineExpr y) { return x + y; }
  AffineExpr paramSub(AffineExpr x, AffineExpr y) { return x - y; }
  AffineExpr valueOf(AffineExpr p) { return p; }
  AffineExpr mul(AffineExpr x, AffineExpr c) { return x * c; }
  AffineExpr floorDiv(AffineExpr x, AffineExpr d) {
    return divide(x, d, /*remainder=*/false);
  }
  AffineExpr floorMod(AffineExpr x, AffineExpr d) {
    return divide(x, d, /*remainder=*/true);
  }

  /// A new dim standing for `v`.
  AffineExpr dim(mlir::Value v) {
    operands.push_back(v);
    return getAffineDimExpr(operands.size() - 1, ctx);
  }

  AffineExpr bitXor(AffineExpr x, AffineExpr y) {
    return dim(create<arith::XOrIOp>(materialize(x), materialize(y)));
  }
  AffineExpr select(Bool c, AffineExpr x, AffineExpr y) {
    if (c.known)
      return *c.known ? x : y;
    return dim(
        create<arith::SelectOp>(c.value, materialize(x), materialize(y)));
  }

  Bool truth(bool b) { return {b, {}}; }
  Bool inRange(AffineExpr v, AffineExpr n) {
    return compare(arith::CmpIPredicate::ult, v, n);
  }
  Bool atLeast(AffineExpr v, AffineExpr c) {
    return compare(arith::CmpIPredicate::sge, v, c);
  }
  Bool lessThan(AffineExpr v, AffineExpr c) {
    return compare(arith::CmpIPredicate::slt, v, c);
  }
  Bool equals(AffineExpr v, AffineExpr c) {
    return compare(arith::CmpIPredicate::eq, v, c);
  }
  Bool inRange(AffineExpr v, int64_t n) { return inRange(v, constant(n)); }
  Bool atLeast(AffineExpr v, int64_t c) { return atLeast(v, constant(c)); }
  Bool lessThan(AffineExpr v, int64_t c) { return lessThan(v, constant(c)); }
  Bool equals(AffineExpr v, int64_t c) { return equals(v, constant(c)); }
  Bool both(Bool x, Bool y) {
    if (x.known)
      return *x.known ? y : x;
    if (y.known)
      return *y.known ? x : y;
    return {std::nullopt, create<arith::AndIOp>(x.value, y.value)};
  }
  Bool either(Bool x, Bool y) {
    if (x.known)
      return *x.known ? x : y;
    if (y.known)
      return *y.known ? y : x;
    return {std::nullopt, create<arith::OrIOp>(x.value, y.value)};
  }

  /// One value computing `e`: an existing operand, a constant, or an
  /// `affine.apply` of the simplified map over the operands it uses.
  mlir::Value materialize(AffineExpr e) {
    e = simplify(e);
    auto [it, inserted] = materialized.try_emplace(e);
    if (!inserted)
      return it->second;
    mlir::Value result;
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      result = operands[d.getPosition()];
    } else if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
      result = symbols[s.getPosition()];
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      result = indexConstant(c.getValue());
    } else {
      // Keep the dims and symbols that `e` uses, in order, as the map's
      // (found by walking `e`, not the operand list, which grows with the
      // chain).
      SmallVector<unsigned> usedDims, usedSymbols;
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          usedDims.push_back(d.getPosition());
        if (auto s = dyn_cast<AffineSymbolExpr>(sub))
          usedSymbols.push_back(s.getPosition());
      });
      for (SmallVector<unsigned> *used : {&usedDims, &usedSymbols}) {
        llvm::sort(*used);
        used->erase(llvm::unique(*used), used->end());
      }
      DenseMap<AffineExpr, AffineExpr> remap;
      SmallVector<mlir::Value> mapOperands;
      for (unsigned pos : usedDims) {
        remap[getAffineDimExpr(pos, ctx)] =
            getAffineDimExpr(mapOperands.size(), ctx);
        mapOperands.push_back(operands[pos]);
      }
      for (auto [i, pos] : llvm::enumerate(usedSymbols)) {
        remap[getAffineSymbolExpr(pos, ctx)] = getAffineSymbolExpr(i, ctx);
        mapOperands.push_back(symbols[pos]);
      }
      AffineMap map =
          AffineMap::get(usedDims.size(), usedSymbols.size(), e.replace(remap));
      result = record(
          affine::AffineApplyOp::create(rewriter, loc, map, mapOperands));
    }
    it->second = result;
    return result;
  }

  mlir::Value materialize(Bool b) {
    if (b.known)
      return record(arith::ConstantIntOp::create(rewriter, loc, *b.known, 1));
    return b.value;
  }

  /// Erases the ops this algebra created that nothing uses (in reverse
  /// creation order, so chains of dead ops go too).
  void eraseUnused() {
    for (Operation *op : llvm::reverse(created))
      if (op->use_empty())
        rewriter.eraseOp(op);
    created.clear();
  }

private:
  template <typename OpTy, typename... Args>
  mlir::Value create(Args &&...args) {
    return record(OpTy::create(rewriter, loc, std::forward<Args>(args)...));
  }
  mlir::Value record(Operation *op) {
    created.push_back(op);
    return op->getResult(0);
  }
  mlir::Value indexConstant(int64_t c) {
    return record(arith::ConstantIndexOp::create(rewriter, loc, c));
  }
  /// x floordiv d or x mod d: affine for a constant d; for a run-time d,
  /// arith ops (affine::expandAffineExpr, -lower-affine's expansion) whose
  /// result enters later maps as a dim. A map holding both `x floordiv s`
  /// and `x mod s` is what LLVM 22's AffineExpr simplifyAdd gets wrong
  /// (`(d0 floordiv s0) * 40 + d1 * 8 + d0 mod s0` becomes
  /// `(d0 floordiv s0) * 80 + d1 * 8` under -canonicalize; fixed upstream
  /// after 22 by llvm-project PR 181613), so no map is given one.
  AffineExpr divide(AffineExpr x, AffineExpr d, bool remainder) {
    if (auto c = dyn_cast<AffineConstantExpr>(d))
      return remainder ? x % c.getValue() : x.floorDiv(c.getValue());
    AffineExpr d0 = getAffineDimExpr(0, ctx), s0 = getAffineSymbolExpr(0, ctx);
    mlir::Value v = affine::expandAffineExpr(
        rewriter, loc, remainder ? d0 % s0 : d0.floorDiv(s0),
        ValueRange{materialize(x)}, ValueRange{materialize(d)});
    record(v.getDefiningOp());
    return dim(v);
  }

  /// `e` simplified where MLIR's simplifier is sound: pure affine
  /// expressions. Semi-affine ones (a run-time value multiplying or dividing)
  /// are kept as built (see `divide`: LLVM 22's simplifier rewrites
  /// `(d0 floordiv s0) * 40 + d1 * 8 + d0 mod s0` to
  /// `(d0 floordiv s0) * 80 + d1 * 8`, checked with mlir-opt-22
  /// --affine-simplify-structures).
  AffineExpr simplify(AffineExpr e) {
    if (!e.isPureAffine())
      return e;
    return simplifyAffineExpr(e, operands.size(), symbols.size());
  }

  Bool compare(arith::CmpIPredicate pred, AffineExpr v, AffineExpr bound) {
    AffineExpr simplified = simplify(v);
    AffineExpr simplifiedBound = simplify(bound);
    auto k = dyn_cast<AffineConstantExpr>(simplified);
    auto kb = dyn_cast<AffineConstantExpr>(simplifiedBound);
    if (k && kb) {
      Int64Algebra ints;
      int64_t x = k.getValue(), c = kb.getValue();
      switch (pred) {
      case arith::CmpIPredicate::ult:
        return truth(ints.inRange(x, c));
      case arith::CmpIPredicate::sge:
        return truth(ints.atLeast(x, c));
      case arith::CmpIPredicate::slt:
        return truth(ints.lessThan(x, c));
      default:
        return truth(ints.equals(x, c));
      }
    }
    return {std::nullopt,
            create<arith::CmpIOp>(pred, materialize(v), materialize(bound))};
  }

  RewriterBase &rewriter;
  Location loc;
  SmallVector<mlir::Value> operands;
  SmallVector<mlir::Value> symbols;
  DenseMap<AffineExpr, mlir::Value> materialized;
  SmallVector<Operation *> created;
};

/// Lowers one layout index op whose descriptor traces to a constant chain:
/// `build` computes the replacement values from the traced descriptor with
/// the generic formulas over an AffineAlgebra.
template <typename OpTy> struct LowerIndexOp : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  virtual LogicalResult check(const Descriptor &) const { return success(); }
  virtual SmallVector<Value> build(OpTy op, const Descriptor &d,
                                   AffineAlgebra &a) const = 0;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    SmallVector<Value> runTime;
    llvm::Expected<Descriptor> d = traceDescriptor(op.getDesc(), &runTime);
    if (!d)
      return rewriter.notifyMatchFailure(op, llvm::toString(d.takeError()));
    if (failed(check(*d)))
      return rewriter.notifyMatchFailure(op,
                                         "the descriptor is not invertible");
    AffineAlgebra a(rewriter, op.getLoc(), runTime);
    SmallVector<Value> results = build(op, *d, a);
    rewriter.replaceOp(op, results);
    a.eraseUnused();
    return success();
  }
};

SmallVector<AffineExpr> dims(AffineAlgebra &a, ValueRange values) {
  return llvm::map_to_vector(values, [&](Value v) { return a.dim(v); });
}

struct LowerOffset final : LowerIndexOp<OffsetOp> {
  using LowerIndexOp::LowerIndexOp;
  SmallVector<Value> build(OffsetOp op, const Descriptor &d,
                           AffineAlgebra &a) const override {
    return {a.materialize(formulas::offset(d, a, dims(a, op.getIndices())))};
  }
};

struct LowerValid final : LowerIndexOp<ValidOp> {
  using LowerIndexOp::LowerIndexOp;
  SmallVector<Value> build(ValidOp op, const Descriptor &d,
                           AffineAlgebra &a) const override {
    SmallVector<AffineExpr> top = dims(a, op.getIndices());
    return {a.materialize(
        formulas::validity(d, a, formulas::makeCoordinate(d, a, top)))};
  }
};

struct LowerUpper final : LowerIndexOp<UpperOp> {
  using LowerIndexOp::LowerIndexOp;
  LogicalResult check(const Descriptor &d) const override {
    if (llvm::Error e = d.checkInvertible()) {
      llvm::consumeError(std::move(e));
      return failure();
    }
    return success();
  }
  SmallVector<Value> build(UpperOp op, const Descriptor &d,
                           AffineAlgebra &a) const override {
    SmallVector<AffineExpr, 8> top = formulas::topCoordinate(
        d, a, a.dim(op.getOffset()),
        [](ArrayRef<AffineExpr>, ArrayRef<int64_t>) { return true; });
    return llvm::map_to_vector(top,
                               [&](AffineExpr e) { return a.materialize(e); });
  }
};

/// The element space size: a constant, or the base's formula over its
/// run-time lengths and strides (the map's symbols).
struct LowerElementSpaceSize final : LowerIndexOp<ElementSpaceSizeOp> {
  using LowerIndexOp::LowerIndexOp;
  SmallVector<Value> build(ElementSpaceSizeOp op, const Descriptor &d,
                           AffineAlgebra &a) const override {
    return {
        a.materialize(formulas::value(a, formulas::elementSpaceSize(d, a)))};
  }
};

/// A divisibility fact has done its work by the time offsets become maps:
/// the value goes on without it.
struct DropAssumeMultiple final : OpRewritePattern<AssumeMultipleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AssumeMultipleOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getValue());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Coordinates: !layout.coord becomes its hidden indices (1:N), also through
// scf.for iter_args.
//===----------------------------------------------------------------------===//

/// The levels of a coordinate from its flattened hidden values.
formulas::Levels<AffineExpr> unflatten(const Descriptor &d, AffineAlgebra &a,
                                       ValueRange hidden) {
  formulas::Levels<AffineExpr> levels(d.getStages().size() + 1);
  size_t next = 0;
  auto take = [&](size_t rank, SmallVector<AffineExpr, 4> &level) {
    for (size_t i = 0; i < rank; ++i)
      level.push_back(a.dim(hidden[next++]));
  };
  take(d.getBaseLengths().size(), levels[0]);
  for (auto [k, stage] : llvm::enumerate(d.getStages())) {
    size_t rank = 0;
    for (const StageEntry &e : stage)
      rank += e.upperDims.size();
    take(rank, levels[k + 1]);
  }
  return levels;
}

SmallVector<Value> flatten(AffineAlgebra &a,
                           const formulas::Levels<AffineExpr> &levels) {
  SmallVector<Value> values;
  for (const auto &level : levels)
    for (AffineExpr e : level)
      values.push_back(a.materialize(e));
  return values;
}

/// The hidden indices of the coordinate at top index `top`.
SmallVector<Value> fromTop(const Descriptor &d, AffineAlgebra &a,
                           ArrayRef<AffineExpr> top) {
  return flatten(a, formulas::makeCoordinate(d, a, top));
}

/// Lowers one coordinate op of a traceable descriptor: `build` computes the
/// values of its result (a coordinate's hidden indices, or one index / i1)
/// from the descriptor and the op's operands, already converted 1:N.
template <typename OpTy> struct LowerCoordOp : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;

  virtual SmallVector<Value> build(OpTy op, OneToNOpAdaptor adaptor,
                                   const Descriptor &d,
                                   AffineAlgebra &a) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    SmallVector<Value> runTime;
    llvm::Expected<Descriptor> d = traceDescriptor(op.getDesc(), &runTime);
    if (!d)
      return rewriter.notifyMatchFailure(op, llvm::toString(d.takeError()));
    AffineAlgebra a(rewriter, op.getLoc(), runTime);
    SmallVector<Value> values = build(op, adaptor, *d, a);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct LowerMakeCoord final : LowerCoordOp<MakeCoordOp> {
  using LowerCoordOp::LowerCoordOp;
  SmallVector<Value> build(MakeCoordOp op, OneToNOpAdaptor adaptor,
                           const Descriptor &d,
                           AffineAlgebra &a) const override {
    SmallVector<AffineExpr> top;
    for (ValueRange index : adaptor.getIndices())
      top.push_back(a.dim(index.front()));
    return fromTop(d, a, top);
  }
};

struct LowerMoveCoord final : LowerCoordOp<MoveCoordOp> {
  using LowerCoordOp::LowerCoordOp;
  SmallVector<Value> build(MoveCoordOp op, OneToNOpAdaptor adaptor,
                           const Descriptor &d,
                           AffineAlgebra &a) const override {
    formulas::Levels<AffineExpr> levels = unflatten(d, a, adaptor.getCoord());
    if (std::optional<ArrayRef<int64_t>> steps = op.getStaticSteps()) {
      // A constant step: the carry-based update (no division).
      SmallVector<AffineExpr> step;
      for (int64_t s : *steps)
        step.push_back(a.constant(s));
      formulas::moveCoordinate(d, a, levels, step);
      return flatten(a, levels);
    }
    // A dynamic step: the merges' digits of the step would need divisions;
    // recompute from the new top instead.
    SmallVector<AffineExpr> top;
    for (auto [t, s] : llvm::zip_equal(levels.back(), adaptor.getSteps()))
      top.push_back(t + a.dim(s.front()));
    return fromTop(d, a, top);
  }
};

struct LowerCoordOffset final : LowerCoordOp<CoordOffsetOp> {
  using LowerCoordOp::LowerCoordOp;
  SmallVector<Value> build(CoordOffsetOp op, OneToNOpAdaptor adaptor,
                           const Descriptor &d,
                           AffineAlgebra &a) const override {
    return {a.materialize(
        formulas::coordinateOffset(d, a, unflatten(d, a, adaptor.getCoord())))};
  }
};

struct LowerCoordValid final : LowerCoordOp<CoordValidOp> {
  using LowerCoordOp::LowerCoordOp;
  SmallVector<Value> build(CoordValidOp op, OneToNOpAdaptor adaptor,
                           const Descriptor &d,
                           AffineAlgebra &a) const override {
    return {a.materialize(
        formulas::validity(d, a, unflatten(d, a, adaptor.getCoord())))};
  }
};

/// Lowers every coordinate op (and the scf ops that carry coordinates).
LogicalResult lowerCoordinates(Operation *root) {
  bool any = false, untraceable = false;
  root->walk([&](Operation *op) {
    if (!isa<MakeCoordOp, MoveCoordOp, CoordOffsetOp, CoordValidOp>(op))
      return;
    any = true;
    // Say why at the op rather than "failed to legalize".
    SmallVector<Value> runTime;
    if (llvm::Expected<Descriptor> d =
            traceDescriptor(op->getOperand(0), &runTime);
        !d) {
      op->emitOpError() << "cannot be lowered: "
                        << llvm::toString(d.takeError());
      untraceable = true;
    }
  });
  if (untraceable)
    return failure();
  if (!any)
    return success();
  MLIRContext *ctx = root->getContext();
  TypeConverter converter;
  converter.addConversion([](Type t) { return t; });
  converter.addConversion(
      [](CoordType t, SmallVectorImpl<Type> &results) -> LogicalResult {
        results.append(t.getHidden(), IndexType::get(t.getContext()));
        return success();
      });
  ConversionTarget target(*ctx);
  target.addLegalDialect<affine::AffineDialect, arith::ArithDialect>();
  target.addIllegalOp<MakeCoordOp, MoveCoordOp, CoordOffsetOp, CoordValidOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(ctx);
  patterns
      .add<LowerMakeCoord, LowerMoveCoord, LowerCoordOffset, LowerCoordValid>(
          converter, ctx);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(root, target, std::move(patterns));
}

struct ConvertLayoutToAffinePass final
    : layout::impl::ConvertLayoutToAffineBase<ConvertLayoutToAffinePass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(lowerCoordinates(getOperation())))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateLayoutToAffinePatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // Whatever is left could not be lowered: say why at the op.
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<OffsetOp, ValidOp, UpperOp, ElementSpaceSizeOp>(op))
        return;
      SmallVector<Value> runTime;
      llvm::Expected<Descriptor> d =
          traceDescriptor(op->getOperand(0), &runTime);
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

void mlir::layout::populateLayoutToAffinePatterns(RewritePatternSet &patterns) {
  patterns.add<LowerOffset, LowerValid, LowerUpper, LowerElementSpaceSize,
               DropAssumeMultiple>(patterns.getContext());
}
