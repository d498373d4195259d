//===- LayoutDialect.cpp - The layout dialect, types, attributes ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Partition.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

ParseResult mlir::layout::detail::parseIntegerList(
    AsmParser &parser, SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        values.push_back(v);
        return success();
      });
}

/// `[a, b, c]`, possibly empty (the verifiers reject empty lists with a
/// message naming the parameter).
static ParseResult parseIntList(AsmParser &parser,
                                SmallVector<int64_t> &values) {
  return layout::detail::parseIntegerList(parser, values);
}
static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

/// `3x4x5`: the static lengths of a descriptor type.
static ParseResult parseDimList(AsmParser &parser,
                                SmallVector<int64_t> &lengths) {
  return parser.parseDimensionList(lengths, /*allowDynamic=*/false,
                                   /*withTrailingX=*/false);
}
static void printDimList(AsmPrinter &printer, ArrayRef<int64_t> lengths) {
  llvm::interleave(lengths, printer, "x");
}

/// `4x?x8xf32`: a shape with static or dynamic extents, then the element
/// type (the syntax of the view types).
static ParseResult parseShapeAndType(AsmParser &parser,
                                     SmallVector<int64_t> &shape,
                                     Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true))
    return failure();
  return parser.parseType(elementType);
}
static void printShapeAndType(AsmPrinter &printer, ArrayRef<int64_t> shape,
                              Type elementType) {
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      printer << "?";
    else
      printer << d;
    printer << "x";
  }
  printer << elementType;
}

#include "layout/Dialect/Layout/IR/LayoutDialect.cpp.inc"

#include "layout/Dialect/Layout/IR/LayoutEnums.cpp.inc"

#include "layout/Dialect/Layout/IR/LayoutAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutTypes.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void LayoutDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "layout/Dialect/Layout/IR/LayoutAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "layout/Dialect/Layout/IR/LayoutTypes.cpp.inc"
      >();
}

Operation *LayoutDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// DescType
//===----------------------------------------------------------------------===//

LogicalResult DescType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> lengths) {
  if (lengths.empty())
    return emitError() << "'!layout.desc' must have rank >= 1";
  int64_t count = 1;
  for (auto [i, l] : llvm::enumerate(lengths)) {
    if (l <= 0)
      return emitError() << "'!layout.desc' length " << i
                         << " must be positive, got " << l;
    std::optional<int64_t> next = checkedMul(count, l);
    if (!next)
      return emitError() << "'!layout.desc' has more than INT64_MAX top "
                            "coordinates (the product of its lengths "
                            "overflows int64)";
    count = *next;
  }
  return success();
}

/// Shared checks of the view types' shape and element type.
static LogicalResult verifyViewShape(function_ref<InFlightDiagnostic()> emitError,
                                     StringRef typeName, ArrayRef<int64_t> shape,
                                     Type elementType) {
  if (shape.empty())
    return emitError() << "'" << typeName << "' must have rank >= 1";
  for (auto [i, e] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(e) && e <= 0)
      return emitError() << "'" << typeName << "' extent " << i
                         << " must be positive or '?', got " << e;
  if (!isa<IntegerType, FloatType>(elementType))
    return emitError() << "'" << typeName
                       << "' element type must be an integer or a float, got "
                       << elementType;
  return success();
}

LogicalResult
TensorViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  return verifyViewShape(emitError, "!layout.tensor_view", shape, elementType);
}

LogicalResult
PartitionViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> shape, Type elementType,
                          ArrayRef<int64_t> tile) {
  if (failed(verifyViewShape(emitError, "!layout.partition_view", shape,
                             elementType)))
    return failure();
  if (llvm::Error e = checkPartitionTile(shape.size(), tile))
    return emitError() << "'!layout.partition_view' "
                       << llvm::toString(std::move(e));
  return success();
}

//===----------------------------------------------------------------------===//
// Transform attributes
//===----------------------------------------------------------------------===//

/// Verifies a transform through the evaluator; the message names the
/// attribute, the parameter and the reason.
static LogicalResult verifyTransform(function_ref<InFlightDiagnostic()> emitError,
                                     const Transform &transform) {
  if (llvm::Error e = transform.verify())
    return emitError() << "'#layout."
                       << stringifyTransformKind(transform.getKind())
                       << "' " << llvm::toString(std::move(e));
  return success();
}

// Each attribute's parameters map one to one onto the evaluator's
// constructor of the same kind; verification and semantics live there.

Transform PassThroughAttr::getTransform() const {
  return Transform::passThrough(getLength());
}
LogicalResult
PassThroughAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t length) {
  return verifyTransform(emitError, Transform::passThrough(length));
}

Transform PadAttr::getTransform() const {
  return Transform::pad(getLength(), getLeft(), getRight());
}
LogicalResult PadAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              int64_t length, int64_t left, int64_t right) {
  return verifyTransform(emitError, Transform::pad(length, left, right));
}

Transform LeftPadAttr::getTransform() const {
  return Transform::leftPad(getLength(), getLeft());
}
LogicalResult LeftPadAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t length, int64_t left) {
  return verifyTransform(emitError, Transform::leftPad(length, left));
}

Transform RightPadAttr::getTransform() const {
  return Transform::rightPad(getLength(), getRight());
}
LogicalResult
RightPadAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t length, int64_t right) {
  return verifyTransform(emitError, Transform::rightPad(length, right));
}

Transform EmbedAttr::getTransform() const {
  return Transform::embed(getUpperLengths(), getCoefficients());
}
LogicalResult EmbedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> upperLengths,
                                ArrayRef<int64_t> coefficients) {
  return verifyTransform(emitError,
                         Transform::embed(upperLengths, coefficients));
}

Transform MergeAttr::getTransform() const {
  return Transform::merge(getLowerLengths());
}
LogicalResult MergeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> lowerLengths) {
  return verifyTransform(emitError, Transform::merge(lowerLengths));
}

Transform UnmergeAttr::getTransform() const {
  return Transform::unmerge(getUpperLengths());
}
LogicalResult UnmergeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> upperLengths) {
  return verifyTransform(emitError, Transform::unmerge(upperLengths));
}

Transform ReplicateAttr::getTransform() const {
  return Transform::replicate(getUpperLengths());
}
LogicalResult
ReplicateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> upperLengths) {
  return verifyTransform(emitError, Transform::replicate(upperLengths));
}

Transform FreezeAttr::getTransform() const {
  return Transform::freeze(getValue());
}
LogicalResult FreezeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t value) {
  return verifyTransform(emitError, Transform::freeze(value));
}

Transform OffsetAttr::getTransform() const {
  return Transform::offset(getUpperLength(), getOffset());
}
LogicalResult OffsetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t upperLength, int64_t offset) {
  return verifyTransform(emitError, Transform::offset(upperLength, offset));
}

Transform SliceAttr::getTransform() const {
  return Transform::slice(getLength(), getBegin(), getEnd());
}
LogicalResult SliceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t length, int64_t begin, int64_t end) {
  return verifyTransform(emitError, Transform::slice(length, begin, end));
}

Transform ModuloAttr::getTransform() const {
  return Transform::modulo(getModulus(), getUpperLength());
}
LogicalResult ModuloAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t modulus, int64_t upperLength) {
  return verifyTransform(emitError, Transform::modulo(modulus, upperLength));
}

Transform XorAttr::getTransform() const {
  return Transform::xorTransform(getLengths());
}
LogicalResult XorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> lengths) {
  return verifyTransform(emitError, Transform::xorTransform(lengths));
}

Transform RotateAttr::getTransform() const {
  return Transform::rotate(getLengths());
}
LogicalResult RotateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> lengths) {
  return verifyTransform(emitError, Transform::rotate(lengths));
}

Transform SwizzleAttr::getTransform() const {
  return Transform::swizzle(getBits(), getBase(), getShift(), getLength());
}
LogicalResult SwizzleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t bits, int64_t base, int64_t shift,
                                  int64_t length) {
  return verifyTransform(emitError,
                         Transform::swizzle(bits, base, shift, length));
}

Transform SunderAttr::getTransform() const {
  return Transform::sunder(getPieces());
}
LogicalResult SunderAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> pieces) {
  return verifyTransform(emitError, Transform::sunder(pieces));
}

TransformAttrInterface mlir::layout::getTransformAttr(MLIRContext *ctx,
                                                      const Transform &t) {
  ArrayRef<int64_t> lengths = t.getLengths();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
    return PassThroughAttr::get(ctx, lengths[0]);
  case TransformKind::Pad:
    return PadAttr::get(ctx, lengths[0], t.getParam(0), t.getParam(1));
  case TransformKind::LeftPad:
    return LeftPadAttr::get(ctx, lengths[0], t.getParam(0));
  case TransformKind::RightPad:
    return RightPadAttr::get(ctx, lengths[0], t.getParam(0));
  case TransformKind::Embed:
    return EmbedAttr::get(ctx, lengths, t.getCoefficients());
  case TransformKind::Merge:
    return MergeAttr::get(ctx, lengths);
  case TransformKind::Unmerge:
    return UnmergeAttr::get(ctx, lengths);
  case TransformKind::Replicate:
    return ReplicateAttr::get(ctx, lengths);
  case TransformKind::Freeze:
    return FreezeAttr::get(ctx, t.getParam(0));
  case TransformKind::Offset:
    return OffsetAttr::get(ctx, lengths[0], t.getParam(0));
  case TransformKind::Slice:
    return SliceAttr::get(ctx, lengths[0], t.getParam(0), t.getParam(1));
  case TransformKind::Modulo:
    return ModuloAttr::get(ctx, t.getParam(0), lengths[0]);
  case TransformKind::Xor:
    return XorAttr::get(ctx, lengths);
  case TransformKind::Rotate:
    return RotateAttr::get(ctx, lengths);
  case TransformKind::Swizzle:
    return SwizzleAttr::get(ctx, t.getParam(0), t.getParam(1), t.getParam(2),
                            lengths[0]);
  case TransformKind::Sunder:
    return SunderAttr::get(ctx, lengths);
  }
  llvm_unreachable("unknown transform kind");
}
