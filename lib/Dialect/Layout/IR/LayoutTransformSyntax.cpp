//===- LayoutTransformSyntax.cpp - The syntax of layout.transform ---------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The custom assembly of `layout.transform`: a list of
// `#layout.kind<...> : [lower] -> [upper]` entries, then `args(...)`.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::layout;

/// Whether `c` may appear in an attribute name (`#name`, `#dialect.name`).
static bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
}

/// The length of the `#name` at the start of `text` (0 without a '#').
static size_t scanAttributeName(const char *text) {
  if (text[0] != '#')
    return 0;
  size_t i = 1;
  while (text[i] && isNameChar(text[i]))
    ++i;
  return i;
}

/// Returns the length of the dialect attribute spelled at the start of
/// `text` (`#dialect.mnemonic` and its balanced `<...>` body), or 0.
/// `text` points into the parser's buffer, which ends with a NUL: the scan
/// reads only as far as the attribute goes (taking the whole rest of the
/// buffer would make parsing a chain quadratic in its length).
static size_t scanDialectAttribute(const char *text) {
  size_t i = scanAttributeName(text);
  if (i == 0 || text[i] != '<')
    return i;
  int depth = 0;
  for (; text[i]; ++i) {
    char c = text[i];
    if (c == '"') {
      // Skip a string literal.
      for (++i; text[i] && text[i] != '"'; ++i)
        if (text[i] == '\\' && text[i + 1])
          ++i;
      if (!text[i])
        return 0;
      continue;
    }
    if (c == '<' || c == '[' || c == '(' || c == '{')
      ++depth;
    else if (c == '>' || c == ']' || c == ')' || c == '}')
      if (--depth == 0)
        return i + 1;
  }
  return 0;
}

/// Parses one `#layout.kind<...> : [lower] -> [upper]` entry.
///
/// MLIR's attribute parser reads `#dialect.attr<...> : T` as an attribute
/// with a type, so it would take the entry's `: [lower]` for a type. The
/// attribute is therefore parsed from its own text (its diagnostics are
/// reported at the entry), and the op parser is then moved past the
/// attribute and the colon by the generic parser, whose expected failure on
/// `[` ("expected type") is swallowed.
static ParseResult parseStageEntry(OpAsmParser &parser, Attribute &attr,
                                   SmallVectorImpl<int64_t> &lower,
                                   SmallVectorImpl<int64_t> &upper) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *ctx = parser.getContext();
  const char *at = loc.getPointer();
  // An alias (`#pad1 = #layout.pad<...>` at the top of the file; its name
  // has no '.', unlike `#dialect.attr`): the parser resolves it without
  // reading a trailing `: type`.
  size_t nameEnd = scanAttributeName(at);
  StringRef name = nameEnd ? StringRef(at + 1, nameEnd - 1) : StringRef();
  if (!name.empty() && !name.contains('.')) {
    if (parser.parseAttribute(attr))
      return failure();
    if (!isa<TransformAttrInterface>(attr))
      return parser.emitError(loc)
             << "expected a layout transform attribute, got " << attr;
    if (parser.parseColon() ||
        layout::detail::parseIntegerList(parser, lower) ||
        parser.parseArrow() || layout::detail::parseIntegerList(parser, upper))
      return failure();
    return success();
  }
  size_t length = scanDialectAttribute(at);
  if (length == 0)
    return parser.emitError(loc, "expected a transform attribute "
                                 "'#layout.<kind><...>'");
  std::string errors;
  // Where in the attribute's text the first error is (its column in the
  // text parsed apart), to report it there.
  SMLoc errorLoc = loc;
  size_t numRead = 0;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation());
      if (errors.empty() && fileLoc && fileLoc.getLine() == 1 &&
          fileLoc.getColumn() >= 1 && fileLoc.getColumn() <= length)
        errorLoc = SMLoc::getFromPointer(at + fileLoc.getColumn() - 1);
      errors += (errors.empty() ? "" : "; ") + diag.str();
      return success();
    });
    attr = mlir::parseAttribute(StringRef(at, length), ctx, Type(), &numRead,
                                /*isKnownNullTerminated=*/false);
  }
  if (!attr || numRead != length)
    return parser.emitError(errorLoc)
           << (errors.empty() ? std::string("invalid transform attribute")
                              : errors);
  if (!isa<TransformAttrInterface>(attr))
    return parser.emitError(loc)
           << "expected a layout transform attribute, got " << attr;
  bool colonMissing;
  {
    // Advance past the attribute text and the ':'.
    ScopedDiagnosticHandler swallow(ctx,
                                    [](Diagnostic &) { return success(); });
    Attribute ignored;
    colonMissing = succeeded(parser.parseAttribute(ignored));
  }
  if (colonMissing)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected ':' after the transform attribute");
  const char *dims = parser.getCurrentLocation().getPointer();
  while (llvm::isSpace(*dims))
    ++dims;
  if (*dims != '[')
    return parser.emitError(loc, "expected ': [lower dims] -> [upper dims]' "
                                 "after the transform attribute");
  if (layout::detail::parseIntegerList(parser, lower) || parser.parseArrow() ||
      layout::detail::parseIntegerList(parser, upper))
    return failure();
  return success();
}

ParseResult TransformOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  SmallVector<Attribute> transforms, lowerDims, upperDims;
  Builder &b = parser.getBuilder();
  if (parser.parseOperand(source))
    return failure();
  auto parseEntry = [&]() -> ParseResult {
    Attribute attr;
    SmallVector<int64_t> lower, upper;
    if (parseStageEntry(parser, attr, lower, upper))
      return failure();
    transforms.push_back(attr);
    lowerDims.push_back(b.getDenseI64ArrayAttr(lower));
    upperDims.push_back(b.getDenseI64ArrayAttr(upper));
    return success();
  };
  Type sourceType, resultType;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseEntry))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("args")) &&
      parser.parseOperandList(args, OpAsmParser::Delimiter::Paren))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(sourceType) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperands(args, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute(getTransformsAttrName(result.name),
                      b.getArrayAttr(transforms));
  result.addAttribute(getLowerDimsAttrName(result.name),
                      b.getArrayAttr(lowerDims));
  result.addAttribute(getUpperDimsAttrName(result.name),
                      b.getArrayAttr(upperDims));
  result.addTypes(resultType);
  return success();
}

void TransformOp::print(OpAsmPrinter &p) {
  p << " " << getSource() << " [";
  auto printDims = [&](Attribute dims) {
    p << "[";
    llvm::interleaveComma(cast<DenseI64ArrayAttr>(dims).asArrayRef(), p);
    p << "]";
  };
  for (unsigned i = 0, e = getTransforms().size(); i < e; ++i) {
    if (i > 0)
      p << ", ";
    p.printAttribute(getTransforms()[i]);
    p << " : ";
    printDims(getLowerDims()[i]);
    p << " -> ";
    printDims(getUpperDims()[i]);
  }
  p << "]";
  if (!getArgs().empty())
    p << " args(" << getArgs() << ")";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTransformsAttrName(), getLowerDimsAttrName(),
                           getUpperDimsAttrName()});
  p << " : ";
  p.printType(getSource().getType());
  p << " -> ";
  p.printType(getType());
}
