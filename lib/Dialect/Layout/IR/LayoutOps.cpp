//===- LayoutOps.cpp - Ops of the layout dialect --------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;

/// Whether a descriptor type's lengths `type` hold the lengths `computed`:
/// equal, except that a `?` in the type may stand for a static length (one
/// that a constant operand made static).
bool mlir::layout::isCompatibleLengths(ArrayRef<int64_t> computed,
                                       ArrayRef<int64_t> type) {
  if (computed.size() != type.size())
    return false;
  for (auto [c, t] : llvm::zip_equal(computed, type))
    if (!ShapedType::isDynamic(t) && c != t)
      return false;
  return true;
}

/// Checks that a base descriptor built by the evaluator matches the op's
/// result type, or reports the evaluator's error at the op.
static LogicalResult verifyBase(Operation *op, llvm::Expected<Descriptor> desc,
                                DescType resultType) {
  if (!desc)
    return op->emitOpError() << llvm::toString(desc.takeError());
  if (!isCompatibleLengths(desc->getLengths(), resultType.getLengths()))
    return op->emitOpError()
           << "result type " << resultType << " does not match the lengths "
           << formatSizeList(desc->getLengths());
  return success();
}

//===----------------------------------------------------------------------===//
// NaiveOp, PackedOp, AlignedOp
//===----------------------------------------------------------------------===//

InFlightDiagnostic layout::detail::inferError(MLIRContext *ctx,
                                              std::optional<Location> loc,
                                              StringRef opName) {
  if (!loc)
    return InFlightDiagnostic();
  return emitError(*loc) << "'" << opName << "' op ";
}

LogicalResult layout::detail::checkInferInputs(
    MLIRContext *ctx, std::optional<Location> loc, StringRef opName,
    ValueRange operands, size_t minOperands,
    ArrayRef<std::pair<StringRef, Attribute>> attrs) {
  if (operands.size() < minOperands)
    return inferError(ctx, loc, opName) << "needs at least " << minOperands
                                        << " operands, got " << operands.size();
  for (auto [name, attr] : attrs)
    if (!attr)
      return inferError(ctx, loc, opName)
             << "requires attribute '" << name << "' (of its ODS kind)";
  return success();
}

/// The evaluator's form of a layout.naive op, or of its adaptor.
template <typename OpOrAdaptor>
static llvm::Expected<Descriptor> naiveDescriptor(OpOrAdaptor op) {
  std::optional<int64_t> space;
  if (std::optional<uint64_t> s = op.getSpace())
    space = static_cast<int64_t>(*s);
  return Descriptor::naive(op.getLengths(), op.getStrides(),
                           static_cast<int64_t>(op.getOffset().value_or(0)),
                           space);
}

llvm::Expected<Descriptor> NaiveOp::getDescriptor() {
  return naiveDescriptor(*this);
}

/// The inferred type of a base op: the descriptor type of its lengths, or
/// the evaluator's error.
static LogicalResult inferBase(MLIRContext *ctx, std::optional<Location> loc,
                               StringRef opName,
                               llvm::Expected<Descriptor> desc,
                               SmallVectorImpl<Type> &types) {
  if (!desc)
    return layout::detail::inferError(ctx, loc, opName)
           << llvm::toString(desc.takeError());
  types.push_back(DescType::get(ctx, desc->getLengths()));
  return success();
}

LogicalResult NaiveOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc, Adaptor a,
                                        SmallVectorImpl<Type> &types) {
  if (failed(layout::detail::checkInferInputs(
          ctx, loc, getOperationName(), a.getOperands(), 0,
          {{"lengths", a.getLengthsAttr()}, {"strides", a.getStridesAttr()}})))
    return failure();
  return inferBase(ctx, loc, getOperationName(), naiveDescriptor(a), types);
}

LogicalResult PackedOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc, Adaptor a,
                                         SmallVectorImpl<Type> &types) {
  if (failed(layout::detail::checkInferInputs(
          ctx, loc, getOperationName(), a.getOperands(), 0,
          {{"lengths", a.getLengthsAttr()}})))
    return failure();
  return inferBase(ctx, loc, getOperationName(),
                   Descriptor::packed(a.getLengths()), types);
}

LogicalResult AlignedOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          Adaptor a,
                                          SmallVectorImpl<Type> &types) {
  if (failed(layout::detail::checkInferInputs(
          ctx, loc, getOperationName(), a.getOperands(), 0,
          {{"lengths", a.getLengthsAttr()}, {"align", a.getAlignAttr()}})))
    return failure();
  return inferBase(ctx, loc, getOperationName(),
                   Descriptor::aligned(a.getLengths(), a.getAlign()), types);
}

/// The number of run-time values (`?`) in `values`.
static size_t countDynamic(ArrayRef<int64_t> values) {
  return llvm::count_if(values, [](int64_t v) { return isDynamic(v); });
}

/// Checks that a list with `?` entries has one operand per `?`.
static LogicalResult verifyDynamicList(Operation *op, StringRef name,
                                       ArrayRef<int64_t> values,
                                       ValueRange operands) {
  if (countDynamic(values) != operands.size())
    return op->emitOpError()
           << "'" << name << "' has " << countDynamic(values)
           << " run-time entries ('?') but " << operands.size()
           << " operands are given for them";
  return success();
}

/// Folds the constant operands of a `?` list into its static entries:
/// returns the new list and operands, or nothing when none is constant.
static std::optional<std::pair<SmallVector<int64_t>, SmallVector<Value>>>
foldConstantOperands(ArrayRef<int64_t> values, ValueRange operands);

/// Refuses a run-time operand that is a constant in the range reserved for
/// run-time values (every length, stride and transform argument that may be
/// a run-time value must be non-negative, so such a constant is always
/// wrong, and it cannot be written into the op).
static LogicalResult verifyNoReservedConstant(Operation *op,
                                              ValueRange operands) {
  for (auto [i, operand] : llvm::enumerate(operands)) {
    APInt c;
    if (matchPattern(operand, m_ConstantInt(&c)) && isDynamic(c.getSExtValue()))
      return op->emitOpError() << "run-time operand " << i
                               << " is the constant " << c.getSExtValue()
                               << ", in the range reserved for run-time values";
  }
  return success();
}

/// Checks a base with its constant operands written in (what the
/// canonicalizer makes of it), or reports the evaluator's error at the op.
static LogicalResult verifyConstantOperands(Operation *op,
                                            llvm::Expected<Descriptor> desc) {
  if (!desc)
    return op->emitOpError() << "with its constant operands written in: "
                             << llvm::toString(desc.takeError());
  return success();
}

LogicalResult NaiveOp::verify() {
  if (failed(verifyDynamicList(*this, "lengths", getLengths(),
                               getDynamicLengths())) ||
      failed(verifyDynamicList(*this, "strides", getStrides(),
                               getDynamicStrides())) ||
      failed(verifyBase(*this, getDescriptor(), getType())) ||
      failed(verifyNoReservedConstant(*this, getOperands())))
    return failure();
  auto lengths = foldConstantOperands(getLengths(), getDynamicLengths());
  auto strides = foldConstantOperands(getStrides(), getDynamicStrides());
  if (!lengths && !strides)
    return success();
  std::optional<int64_t> space;
  if (std::optional<uint64_t> s = getSpace())
    space = static_cast<int64_t>(*s);
  return verifyConstantOperands(
      *this,
      Descriptor::naive(lengths ? lengths->first : getLengths(),
                        strides ? strides->first : getStrides(),
                        static_cast<int64_t>(getOffset().value_or(0)), space));
}

LogicalResult PackedOp::verify() {
  if (failed(verifyDynamicList(*this, "lengths", getLengths(),
                               getDynamicLengths())) ||
      failed(verifyBase(*this, Descriptor::packed(getLengths()), getType())) ||
      failed(verifyNoReservedConstant(*this, getOperands())))
    return failure();
  if (auto lengths = foldConstantOperands(getLengths(), getDynamicLengths()))
    return verifyConstantOperands(*this, Descriptor::packed(lengths->first));
  return success();
}

static std::optional<std::pair<SmallVector<int64_t>, SmallVector<Value>>>
foldConstantOperands(ArrayRef<int64_t> values, ValueRange operands) {
  SmallVector<int64_t> newValues;
  SmallVector<Value> newOperands;
  bool changed = false;
  size_t next = 0;
  for (int64_t v : values) {
    if (!isDynamic(v)) {
      newValues.push_back(v);
      continue;
    }
    Value operand = operands[next++];
    APInt c;
    if (matchPattern(operand, m_ConstantInt(&c)) &&
        !isDynamic(c.getSExtValue())) {
      newValues.push_back(c.getSExtValue());
      changed = true;
    } else {
      newValues.push_back(kDynamic);
      newOperands.push_back(operand);
    }
  }
  if (!changed)
    return std::nullopt;
  return std::make_pair(newValues, newOperands);
}

namespace {
/// `layout.naive [%c4, %m] ...` with `%c4` constant is `layout.naive [4, %m]`.
/// The result type keeps its `?` (a `?` in a descriptor type may stand for a
/// length that became static), so no user changes.
template <typename OpTy>
struct FoldConstantBaseOperands final : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto lengths =
        foldConstantOperands(op.getLengths(), op.getDynamicLengths());
    std::optional<std::pair<SmallVector<int64_t>, SmallVector<Value>>> strides;
    if constexpr (std::is_same_v<OpTy, NaiveOp>)
      strides = foldConstantOperands(op.getStrides(), op.getDynamicStrides());
    if (!lengths && !strides)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      if (lengths) {
        op.setLengths(lengths->first);
        op.getDynamicLengthsMutable().assign(lengths->second);
      }
      if constexpr (std::is_same_v<OpTy, NaiveOp>) {
        if (strides) {
          op.setStrides(strides->first);
          op.getDynamicStridesMutable().assign(strides->second);
        }
      }
    });
    return success();
  }
};
} // namespace

void NaiveOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<FoldConstantBaseOperands<NaiveOp>>(context);
}

void PackedOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldConstantBaseOperands<PackedOp>>(context);
}

LogicalResult AlignedOp::verify() {
  return verifyBase(*this, Descriptor::aligned(getLengths(), getAlign()),
                    getType());
}

//===----------------------------------------------------------------------===//
// TransformOp
//===----------------------------------------------------------------------===//

/// Builds the stage entries of a transform op (or of its adaptor), or
/// reports through `emitError` (when given) why its attributes are
/// malformed (which only the generic form can produce).
template <typename OpOrAdaptor>
static FailureOr<Stage>
buildStageEntries(OpOrAdaptor op,
                  function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&](const Twine &msg) -> FailureOr<Stage> {
    if (emitError)
      emitError() << msg;
    return failure();
  };
  ArrayAttr transforms = op.getTransforms();
  if (transforms.empty())
    return fail("needs at least one transform");
  if (op.getLowerDims().size() != transforms.size() ||
      op.getUpperDims().size() != transforms.size())
    return fail(llvm::formatv("has {0} transforms but {1} lower_dims and {2} "
                              "upper_dims entries",
                              transforms.size(), op.getLowerDims().size(),
                              op.getUpperDims().size()));
  Stage entries;
  for (unsigned i = 0, e = transforms.size(); i < e; ++i) {
    auto attr = dyn_cast<TransformAttrInterface>(transforms[i]);
    if (!attr)
      return fail(llvm::formatv("entry {0} is not a layout transform "
                                "attribute",
                                i));
    auto lower = dyn_cast<DenseI64ArrayAttr>(op.getLowerDims()[i]);
    auto upper = dyn_cast<DenseI64ArrayAttr>(op.getUpperDims()[i]);
    if (!lower || !upper)
      return fail(llvm::formatv("entry {0}'s dims must be array<i64: ...>", i));
    StageEntry entry{attr.getTransform(), {}, {}};
    entry.lowerDims.assign(lower.asArrayRef().begin(),
                           lower.asArrayRef().end());
    entry.upperDims.assign(upper.asArrayRef().begin(),
                           upper.asArrayRef().end());
    entries.push_back(std::move(entry));
  }
  return entries;
}

Stage TransformOp::getStageEntries() {
  FailureOr<Stage> entries = buildStageEntries(*this, nullptr);
  if (failed(entries))
    return {};
  return *entries;
}

/// The upper lengths of a transform op (or of its adaptor): its source's
/// lengths through its stage, or an error through `emitError`.
template <typename OpOrAdaptor>
static FailureOr<SmallVector<int64_t>>
transformUpperLengths(OpOrAdaptor op,
                      function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<Stage> entries = buildStageEntries(op, emitError);
  if (failed(entries))
    return failure();
  size_t runTime = 0;
  for (StageEntry &e : *entries)
    e.transform.mapDynamic([&](int64_t v) {
      ++runTime;
      return v;
    });
  if (runTime != op.getArgs().size())
    return emitError() << "the transforms have " << runTime
                       << " run-time arguments ('?') but args(...) gives "
                       << op.getArgs().size() << " values";
  auto source = dyn_cast<DescType>(op.getSource().getType());
  if (!source)
    return emitError() << "source must be a descriptor, got "
                       << op.getSource().getType();
  llvm::Expected<SmallVector<int64_t>> newLengths =
      Descriptor::checkStage(source.getLengths(), *entries);
  if (!newLengths)
    return emitError() << llvm::toString(newLengths.takeError());
  return *newLengths;
}

LogicalResult TransformOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor a,
                                            SmallVectorImpl<Type> &types) {
  if (failed(layout::detail::checkInferInputs(
          ctx, loc, getOperationName(), a.getOperands(), 1,
          {{"transforms", a.getTransformsAttr()},
           {"lower_dims", a.getLowerDimsAttr()},
           {"upper_dims", a.getUpperDimsAttr()}})))
    return failure();
  FailureOr<SmallVector<int64_t>> lengths = transformUpperLengths(a, [&] {
    return layout::detail::inferError(ctx, loc, getOperationName());
  });
  if (failed(lengths))
    return failure();
  types.push_back(DescType::get(ctx, *lengths));
  return success();
}

LogicalResult TransformOp::verify() {
  FailureOr<SmallVector<int64_t>> newLengths =
      transformUpperLengths(*this, [&] { return emitOpError(); });
  if (failed(newLengths))
    return failure();
  if (!isCompatibleLengths(*newLengths, getType().getLengths()))
    return emitOpError() << "result type " << getType()
                         << " does not match the transforms' upper lengths "
                         << formatSizeList(*newLengths);
  // A run-time argument given by a constant must keep the stage valid: the
  // canonicalizer writes it in, and the lowered index ops fold with it.
  if (failed(verifyNoReservedConstant(*this, getArgs())))
    return failure();
  Stage entries = getStageEntries();
  SmallVector<Value> kept;
  if (!layout::detail::writeConstantArgs(entries, getArgs(), kept))
    return success();
  llvm::Expected<SmallVector<int64_t>> constantLengths =
      Descriptor::checkStage(getSource().getType().getLengths(), entries);
  if (!constantLengths)
    return emitOpError() << "with its constant run-time arguments written in: "
                         << llvm::toString(constantLengths.takeError());
  return success();
}

//===----------------------------------------------------------------------===//
// Tracing a descriptor to its base
//===----------------------------------------------------------------------===//

static llvm::Error traceError(const Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// The evaluator's form of a base op, or why `baseOp` is not one.
static llvm::Expected<Descriptor> staticBaseDescriptor(Operation *baseOp) {
  if (!baseOp)
    return traceError("the descriptor's origin cannot be traced: it is a "
                      "block argument, not a layout.naive / layout.packed / "
                      "layout.aligned chain");
  if (auto naive = dyn_cast<NaiveOp>(baseOp))
    return naive.getDescriptor();
  if (auto packed = dyn_cast<PackedOp>(baseOp))
    return Descriptor::packed(packed.getLengths());
  if (auto aligned = dyn_cast<AlignedOp>(baseOp))
    return Descriptor::aligned(aligned.getLengths(), aligned.getAlign());
  if (isAlgebraOp(baseOp))
    return algebraDescriptor(baseOp);
  return traceError("the descriptor's origin cannot be traced: it is "
                    "produced by '" +
                    baseOp->getName().getStringRef() +
                    "', not by a layout.naive / layout.packed / "
                    "layout.aligned chain");
}

/// How deep algebra ops may nest inside one trace (they trace their
/// operands): deeper is refused, which also stops a cycle through them in a
/// graph region.
static constexpr unsigned kMaxTraceDepth = 64;

/// Numbers the run-time values an op's operands give, in order: called on
/// each `?` (Descriptor::mapDynamic, Transform::mapDynamic), it appends the
/// next operand to `runTime` and returns its slot.
struct RunTimeNumbering {
  ValueRange operands;
  SmallVectorImpl<Value> *runTime;
  size_t next = 0;
  bool mismatch = false;

  int64_t operator()(int64_t) {
    if (next >= operands.size()) {
      mismatch = true;
      return kDynamic;
    }
    runTime->push_back(operands[next++]);
    return dynamicSlot(runTime->size() - 1);
  }
  /// Whether every `?` had its operand and every operand its `?`.
  llvm::Error finish(Operation *op) const {
    if (mismatch || next != operands.size())
      return traceError("the descriptor's chain holds a '" +
                        op->getName().getStringRef() +
                        "' whose run-time operands do not match its '?' "
                        "entries");
    return llvm::Error::success();
  }
};

/// Refuses an op with run-time operands when the caller wants a static
/// descriptor.
static llvm::Error checkRunTimeWanted(Operation *op, ValueRange operands,
                                      SmallVectorImpl<Value> *runTime) {
  if (operands.empty() || runTime)
    return llvm::Error::success();
  return traceError("the descriptor has run-time values ('" +
                    op->getName().getStringRef() +
                    "' takes SSA operands); this use needs a static "
                    "descriptor");
}

/// The evaluator's form of a base op, its run-time values numbered.
static llvm::Expected<Descriptor>
baseDescriptor(Operation *baseOp, SmallVectorImpl<Value> *runTime) {
  llvm::Expected<Descriptor> d = staticBaseDescriptor(baseOp);
  if (!d)
    return d;
  if (llvm::Error e =
          checkRunTimeWanted(baseOp, baseOp->getOperands(), runTime))
    return std::move(e);
  if (baseOp->getNumOperands() == 0)
    return d;
  RunTimeNumbering number{baseOp->getOperands(), runTime};
  d->mapDynamic(std::ref(number));
  if (llvm::Error e = number.finish(baseOp))
    return std::move(e);
  return d;
}

Value mlir::layout::buildDescriptor(OpBuilder &b, Location loc,
                                    const Descriptor &d) {
  auto baseType = DescType::get(b.getContext(), d.getBaseLengths());
  Value desc;
  switch (d.getBaseKind()) {
  case BaseKind::Packed:
    desc = PackedOp::create(b, loc, baseType,
                            b.getDenseI64ArrayAttr(d.getBaseLengths()));
    break;
  case BaseKind::Aligned:
    desc = AlignedOp::create(b, loc, baseType,
                             b.getDenseI64ArrayAttr(d.getBaseLengths()),
                             b.getI64IntegerAttr(d.getBaseAlign()));
    break;
  case BaseKind::Naive:
    desc = NaiveOp::create(
        b, loc, baseType, b.getDenseI64ArrayAttr(d.getBaseLengths()),
        b.getDenseI64ArrayAttr(d.getBaseStrides()),
        d.getBaseOffset() ? b.getI64IntegerAttr(d.getBaseOffset())
                          : IntegerAttr(),
        d.hasExplicitSpace() ? b.getI64IntegerAttr(d.getElementSpaceSize())
                             : IntegerAttr());
    break;
  }
  return buildStages(b, loc, desc, d.getStages());
}

Value mlir::layout::buildStages(OpBuilder &b, Location loc, Value desc,
                                ArrayRef<Stage> stages) {
  for (const Stage &stage : stages)
    desc = TransformOp::create(b, loc, desc, stage);
  return desc;
}

llvm::Expected<Descriptor>
mlir::layout::traceDescriptor(Value desc, SmallVectorImpl<Value> *runTime) {
  static thread_local unsigned depth = 0;
  if (depth >= kMaxTraceDepth)
    return traceError("the descriptor's chain nests algebra ops more than " +
                      Twine(kMaxTraceDepth) + " deep, or is a cycle");
  ++depth;
  auto leave = llvm::make_scope_exit([] { --depth; });
  // Walk up to the base, then rebuild the chain from the base down (a
  // transform seen twice is a cycle, possible in a graph region).
  SmallVector<TransformOp> chain;
  llvm::SmallPtrSet<Operation *, 8> seen;
  Value cur = desc;
  while (auto transform = cur.getDefiningOp<TransformOp>()) {
    if (!seen.insert(transform).second)
      return traceError("the descriptor's chain of layout.transform ops is a "
                        "cycle");
    chain.push_back(transform);
    cur = transform.getSource();
  }
  Operation *baseOp = cur.getDefiningOp();
  llvm::Expected<Descriptor> result = baseOp && isa<NaiveOp, PackedOp>(baseOp)
                                          ? baseDescriptor(baseOp, runTime)
                                          : staticBaseDescriptor(baseOp);
  for (TransformOp op : llvm::reverse(chain)) {
    if (!result)
      return result;
    FailureOr<Stage> entries = buildStageEntries(op, nullptr);
    if (failed(entries))
      return traceError("the descriptor's chain holds an invalid "
                        "layout.transform");
    if (llvm::Error e = checkRunTimeWanted(op, op.getArgs(), runTime))
      return std::move(e);
    if (!op.getArgs().empty()) {
      RunTimeNumbering number{op.getArgs(), runTime};
      for (StageEntry &e : *entries)
        e.transform.mapDynamic(std::ref(number));
      if (llvm::Error e = number.finish(op))
        return std::move(e);
    }
    if (llvm::Error e = result->addStage(*entries))
      return std::move(e);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// OffsetOp, ValidOp
//===----------------------------------------------------------------------===//

/// Both index ops take one index per top dim.
static LogicalResult verifyIndexCount(Operation *op, DescType type,
                                      size_t numIndices) {
  if (numIndices != type.getRank())
    return op->emitOpError()
           << "expects " << type.getRank() << " indices (the rank of " << type
           << "), got " << numIndices;
  return success();
}

LogicalResult OffsetOp::verify() {
  return verifyIndexCount(*this, getDesc().getType(), getIndices().size());
}

LogicalResult ValidOp::verify() {
  return verifyIndexCount(*this, getDesc().getType(), getIndices().size());
}

/// Evaluates a descriptor at constant indices, if the chain and all indices
/// are known.
static std::optional<Evaluation> evaluateConstant(Value desc,
                                                  ArrayRef<Attribute> indices) {
  SmallVector<int64_t> coord;
  for (Attribute a : indices) {
    auto i = dyn_cast_or_null<IntegerAttr>(a);
    if (!i)
      return std::nullopt;
    coord.push_back(i.getInt());
  }
  llvm::Expected<Descriptor> d = traceDescriptor(desc);
  if (!d) {
    llvm::consumeError(d.takeError());
    return std::nullopt;
  }
  if (coord.size() != d->getRank())
    return std::nullopt;
  return d->evaluate(coord);
}

OpFoldResult OffsetOp::fold(FoldAdaptor adaptor) {
  std::optional<Evaluation> e =
      evaluateConstant(getDesc(), adaptor.getIndices());
  if (!e)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), e->offset);
}

OpFoldResult ValidOp::fold(FoldAdaptor adaptor) {
  std::optional<Evaluation> e =
      evaluateConstant(getDesc(), adaptor.getIndices());
  if (!e)
    return {};
  return BoolAttr::get(getContext(), e->valid);
}

//===----------------------------------------------------------------------===//
// ElementSpaceSizeOp
//===----------------------------------------------------------------------===//

OpFoldResult ElementSpaceSizeOp::fold(FoldAdaptor) {
  llvm::Expected<Descriptor> d = traceDescriptor(getDesc());
  if (!d) {
    llvm::consumeError(d.takeError());
    return {};
  }
  return IntegerAttr::get(IndexType::get(getContext()),
                          d->getElementSpaceSize());
}

//===----------------------------------------------------------------------===//
// UpperOp
//===----------------------------------------------------------------------===//

LogicalResult
UpperOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                          ValueRange operands, DictionaryAttr, OpaqueProperties,
                          RegionRange,
                          SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return failure();
  auto type = dyn_cast<DescType>(operands[0].getType());
  if (!type)
    return failure();
  inferredReturnTypes.assign(type.getRank(), IndexType::get(context));
  return success();
}

LogicalResult UpperOp::verify() {
  // Where the chain is known, it must be invertible.
  llvm::Expected<Descriptor> d = traceDescriptor(getDesc());
  if (!d) {
    llvm::consumeError(d.takeError());
    return success();
  }
  if (llvm::Error e = d->checkInvertible())
    return emitOpError() << "needs a descriptor that is injective on its "
                            "valid domain, but "
                         << llvm::toString(std::move(e));
  return success();
}

LogicalResult UpperOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  auto offset = dyn_cast_or_null<IntegerAttr>(adaptor.getOffset());
  if (!offset)
    return failure();
  llvm::Expected<Descriptor> d = traceDescriptor(getDesc());
  if (!d) {
    llvm::consumeError(d.takeError());
    return failure();
  }
  llvm::Expected<SmallVector<int64_t>> coord = d->upper(offset.getInt());
  if (!coord) {
    // Not invertible, or no coordinate lands there: leave it to runtime.
    llvm::consumeError(coord.takeError());
    return failure();
  }
  for (int64_t c : *coord)
    results.push_back(IntegerAttr::get(IndexType::get(getContext()), c));
  return success();
}

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
