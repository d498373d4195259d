//===- Passes.h - Conversion passes of layout-opt ---------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PASSES_H
#define LAYOUT_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace layout {

#define GEN_PASS_DECL
#include "layout/Conversion/Passes.h.inc"

/// Adds the patterns that lower `layout.offset`, `layout.valid`,
/// `layout.upper` and `layout.element_space_size` of traceable descriptors
/// to affine and arith ops.
void populateLayoutToAffinePatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "layout/Conversion/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_CONVERSION_PASSES_H
