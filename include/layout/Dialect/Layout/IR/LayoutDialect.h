//===- LayoutDialect.h - The layout dialect ---------------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The `layout` dialect, its types and its transform attributes.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/Transform.h"
#include "layout/Evaluator/VectorLength.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "layout/Dialect/Layout/IR/LayoutDialect.h.inc"

#include "layout/Dialect/Layout/IR/LayoutEnums.h.inc"

#include "layout/Dialect/Layout/IR/LayoutAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutTypes.h.inc"

namespace mlir {
namespace layout {

namespace detail {
/// Parses `[a, b, c]` (possibly empty): the integer lists of the dialect's
/// attributes and of `layout.transform`'s dims.
ParseResult parseIntegerList(AsmParser &parser,
                             SmallVectorImpl<int64_t> &values);
} // namespace detail

/// The names of the parameters of `kind`'s attribute, in order, as its ODS
/// declares them: "length, left, right" for `#layout.pad`.
StringRef getTransformParameterList(TransformKind kind);

/// Builds the attribute of `transform` (the inverse of
/// TransformAttrInterface::getTransform).
TransformAttrInterface getTransformAttr(MLIRContext *context,
                                        const Transform &transform);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
