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
// Parsing the transform attributes: the generated parsers, with diagnostics
// that name the expected parameter and the nearest transform
//===----------------------------------------------------------------------===//

StringRef mlir::layout::getTransformParameterList(TransformKind kind) {
  switch (kind) {
#define TRANSFORM_KIND(Name, ...)                                              \
  case TransformKind::Name:                                                    \
    return Name##Attr::parameterList;
#include "layout/Evaluator/TransformKinds.def"
  }
  llvm_unreachable("unknown transform kind");
}

/// The transform kind spelled `mnemonic`, if any.
static std::optional<TransformKind> kindOfMnemonic(StringRef mnemonic) {
  for (unsigned i = 0; i < kNumTransformKinds; ++i)
    if (stringifyTransformKind(TransformKind(i)) == mnemonic)
      return TransformKind(i);
  return std::nullopt;
}

/// "unknown attribute `name` ..." with the nearest transform mnemonic (by
/// edit distance) when one is close, else the list of them.
static std::string unknownTransformMessage(StringRef name) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "unknown attribute `" << name << "` in dialect `layout`";
  StringRef best;
  unsigned bestDistance = ~0u;
  for (unsigned i = 0; i < kNumTransformKinds; ++i) {
    StringRef candidate = stringifyTransformKind(TransformKind(i));
    unsigned d = name.edit_distance(candidate, /*AllowReplacements=*/true);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  // Close: at most a third of the longer name differs.
  if (bestDistance <=
      std::max<size_t>(1, std::max(name.size(), best.size()) / 3)) {
    os << "; did you mean `" << best << "`?";
    return msg;
  }
  os << " (the transforms: ";
  for (unsigned i = 0; i < kNumTransformKinds; ++i)
    os << (i ? ", " : "") << stringifyTransformKind(TransformKind(i));
  os << ")";
  return msg;
}

/// Says which parameter of `#layout.<kind><...>` a syntax error at `at`
/// concerns, and moves `at` to that parameter when it was read but refused.
/// `spec` is the attribute's text after `#layout.` (the buffer `at` points
/// into); `original` is the parser's message. The parameter is found by
/// counting the top-level commas between `<` and `at`.
static std::string describeSyntaxError(TransformKind kind, StringRef spec,
                                       const char *&at, StringRef original) {
  SmallVector<StringRef> names;
  getTransformParameterList(kind).split(names, ", ");
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "expected " << names.size()
     << (names.size() == 1 ? " parameter: " : " parameters: ") << "#layout."
     << stringifyTransformKind(kind) << "<" << getTransformParameterList(kind)
     << ">";
  size_t lt = spec.find('<');
  if (lt == StringRef::npos || at <= spec.data() + lt) {
    os << "; " << original;
    return msg;
  }
  size_t index = 0;
  int depth = 0;
  const char *paramStart = nullptr;
  for (const char *p = spec.data() + lt + 1; p < at && p < spec.end(); ++p) {
    char c = *p;
    if (c == '[' || c == '(')
      ++depth;
    else if (c == ']' || c == ')')
      --depth;
    if (c == ',' && depth == 0) {
      ++index;
      paramStart = nullptr;
    } else if (!llvm::isSpace(c) && !paramStart) {
      paramStart = p;
    }
  }
  bool atEnd = at >= spec.end() || *at == '>';
  auto name = [&](size_t i) { return "'" + names[i].str() + "'"; };
  if (index >= names.size() ||
      (paramStart && depth == 0 && original.starts_with("expected '>'")))
    return msg + ", got more";
  if (!paramStart && atEnd)
    return msg + "; " + name(index) + " is missing";
  if (paramStart && depth == 0 && original.starts_with("expected ','"))
    return msg + (atEnd ? "; " + name(index + 1) + " is missing"
                        : "; expected ',' after " + name(index));
  // The parameter itself is malformed or refused.
  if (paramStart && depth == 0)
    at = paramStart;
  return msg + "; parameter " + name(index) + ": " + original.str();
}

Attribute LayoutDialect::parseAttribute(DialectAsmParser &parser,
                                        Type type) const {
  SMLoc start = parser.getCurrentLocation();
  StringRef spec = parser.getFullSymbolSpec();
  StringRef mnemonic;
  Attribute attr;
  SmallVector<Diagnostic> captured;
  OptionalParseResult result;
  {
    ScopedDiagnosticHandler capture(getContext(), [&](Diagnostic &diag) {
      captured.push_back(std::move(diag));
      return success();
    });
    result = generatedAttributeParser(parser, &mnemonic, type, attr);
  }
  if (!result.has_value()) {
    parser.emitError(start) << unknownTransformMessage(mnemonic);
    return {};
  }
  SMLoc at = parser.getCurrentLocation();
  std::optional<TransformKind> kind = kindOfMnemonic(
      spec.take_until([](char c) { return c == '<' || llvm::isSpace(c); }));
  // A syntax error stops before the end of the attribute's text; the
  // verifier's errors (the whole text was read) pass through as they are.
  bool syntaxError = failed(*result) && kind && !captured.empty() &&
                     (at.getPointer() < spec.end() || !spec.contains('<'));
  if (!syntaxError) {
    for (Diagnostic &diag : captured)
      getContext()->getDiagEngine().emit(std::move(diag));
    return attr;
  }
  const char *errorAt = std::min(at.getPointer(), spec.end());
  std::string msg =
      describeSyntaxError(*kind, spec, errorAt, captured.front().str());
  parser.emitError(SMLoc::getFromPointer(errorAt)) << msg;
  return {};
}

void LayoutDialect::printAttribute(Attribute attr,
                                   DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
}

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
