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
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <tuple>
#include <utility>

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

ParseResult
mlir::layout::detail::parseIntegerList(AsmParser &parser,
                                       SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          int64_t v;
                                          if (parser.parseInteger(v))
                                            return failure();
                                          values.push_back(v);
                                          return success();
                                        });
}

/// `[a, b, c]`, possibly empty (the verifiers reject empty lists with a
/// message naming the parameter).
namespace mlir::layout::detail {
/// A transform's scalar argument: an integer or `?` (kDynamic).
static FailureOr<int64_t> parseSize(AsmParser &parser) {
  if (succeeded(parser.parseOptionalQuestion()))
    return kDynamic;
  SMLoc loc = parser.getCurrentLocation();
  int64_t v;
  if (parser.parseInteger(v))
    return failure();
  if (isDynamic(v))
    return parser.emitError(loc)
           << "integer " << v << " is reserved for run-time values (write '?')";
  return v;
}
static void printSize(AsmPrinter &printer, int64_t v) {
  if (isDynamic(v))
    printer << "?";
  else
    printer << v;
}
} // namespace mlir::layout::detail

/// `[a, ?, c]`: a transform's list argument (`?` for a run-time value).
static ParseResult parseIntList(AsmParser &parser,
                                SmallVector<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<int64_t> v = layout::detail::parseSize(parser);
        if (failed(v))
          return failure();
        values.push_back(*v);
        return success();
      });
}
static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << formatSizeList(values);
}

/// `3x?x5`: the lengths of a descriptor type, `?` for a run-time length.
static ParseResult parseDimList(AsmParser &parser,
                                SmallVector<int64_t> &lengths) {
  return parser.parseDimensionList(lengths, /*allowDynamic=*/true,
                                   /*withTrailingX=*/false);
}
static void printDimList(AsmPrinter &printer, ArrayRef<int64_t> lengths) {
  llvm::interleave(
      lengths, printer,
      [&](int64_t l) {
        if (ShapedType::isDynamic(l))
          printer << "?";
        else
          printer << l;
      },
      "x");
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

//===----------------------------------------------------------------------===//
// The glue of the transform attributes (LayoutAttrs.td generates each
// attribute's getTransform() and verify() with these)
//===----------------------------------------------------------------------===//

namespace mlir::layout::detail {

/// Verifies a transform through the evaluator; the message names the
/// attribute, the parameter and the reason.
static LogicalResult
verifyTransform(function_ref<InFlightDiagnostic()> emitError,
                const Transform &transform) {
  if (llvm::Error e = transform.verify())
    return emitError() << "'#layout."
                       << stringifyTransformKind(transform.getKind()) << "' "
                       << llvm::toString(std::move(e));
  return success();
}

/// The evaluator's form of a transform attribute: its parameters are the
/// arguments of its kind.
template <typename AttrT> static Transform transformOf(AttrT attr) {
  return std::apply(
      [](auto... params) {
        return Transform::make(AttrT::transformKind, {TransformArg(params)...});
      },
      attr.getImpl()->getAsKey());
}

static constexpr bool equalStrings(StringRef a, StringRef b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a.data()[i] != b.data()[i])
      return false;
  return true;
}

template <typename AttrT, size_t... I>
static constexpr bool parametersMatch(std::index_sequence<I...>) {
  using KeyTy = typename AttrT::ImplType::KeyTy;
  const TransformKindInfo::Args &args = kindInfo(AttrT::transformKind).args;
  return args.size == sizeof...(I) &&
         ((TransformKindInfo::isList(args[I])
               ? std::is_same_v<std::tuple_element_t<I, KeyTy>,
                                ArrayRef<int64_t>>
               : std::is_same_v<std::tuple_element_t<I, KeyTy>, int64_t>) &&
          ...);
}

/// Whether the mnemonic and the parameters of a transform attribute are those
/// of its row of TransformKinds.def.
template <typename AttrT> static constexpr bool matchesTransformKind() {
  using KeyTy = typename AttrT::ImplType::KeyTy;
  return equalStrings(AttrT::getMnemonic(),
                      stringifyTransformKind(AttrT::transformKind)) &&
         parametersMatch<AttrT>(
             std::make_index_sequence<std::tuple_size_v<KeyTy>>());
}

} // namespace mlir::layout::detail

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

namespace {
/// Lets -inline inline functions that take or return descriptors, views and
/// partitions: every layout op computes from its operands (descriptors,
/// offsets, views) or is a plain memory access (loads, stores, atomics), has
/// no region, and means the same in any function, so all may be inlined.
/// The lowerings trace a view to its memref; a helper function's view
/// argument is traceable once the helper is inlined into its caller.
struct LayoutInlinerInterface final : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void LayoutDialect::initialize() {
  addInterfaces<LayoutInlinerInterface>();
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
    if (ShapedType::isDynamic(l))
      continue;
    if (l <= 0)
      return emitError() << "'!layout.desc' length " << i
                         << " must be positive or '?', got " << l;
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
static LogicalResult
verifyViewShape(function_ref<InFlightDiagnostic()> emitError,
                StringRef typeName, ArrayRef<int64_t> shape, Type elementType) {
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

/// The attribute of `t` (of its kind's class `AttrT`): the attribute's
/// parameters are the kind's arguments, in order.
template <typename AttrT, size_t... I>
static AttrT attrOf(MLIRContext *ctx, const Transform &t,
                    std::index_sequence<I...>) {
  using KeyTy = typename AttrT::ImplType::KeyTy;
  return AttrT::get(
      ctx, t.getArg(I).template as<std::tuple_element_t<I, KeyTy>>()...);
}
template <typename AttrT>
static AttrT attrOf(MLIRContext *ctx, const Transform &t) {
  using KeyTy = typename AttrT::ImplType::KeyTy;
  return attrOf<AttrT>(ctx, t,
                       std::make_index_sequence<std::tuple_size_v<KeyTy>>());
}

// One case per row of TransformKinds.def, whose attribute is `<Name>Attr`.
TransformAttrInterface mlir::layout::getTransformAttr(MLIRContext *ctx,
                                                      const Transform &t) {
  switch (t.getKind()) {
#define TRANSFORM_KIND(Name, ...)                                              \
  case TransformKind::Name:                                                    \
    return attrOf<Name##Attr>(ctx, t);
#include "layout/Evaluator/TransformKinds.def"
  }
  llvm_unreachable("unknown transform kind");
}
