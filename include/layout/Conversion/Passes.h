//===- Passes.h - Conversion passes of layout-opt ---------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PASSES_H
#define LAYOUT_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace layout {

#define GEN_PASS_DECL
#include "layout/Conversion/Passes.h.inc"

/// Adds the patterns that lower `layout.offset`, `layout.valid`,
/// `layout.upper` and `layout.element_space_size` of traceable descriptors
/// to affine and arith ops. The affine and arith dialects must be loaded
/// (a pass lists them as dependent dialects).
void populateLayoutToAffinePatterns(RewritePatternSet &patterns);

/// Adds the patterns that lower `layout.load`, `layout.store` and
/// `layout.index_space` of traceable partitions to vector, memref, scf and
/// (for atomics) LLVM ops; descriptor views leave `layout.offset` /
/// `layout.valid` ops for populateLayoutToAffinePatterns. The vector,
/// memref, scf, arith, affine and LLVM dialects must be loaded.
void populateLayoutToVectorPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "layout/Conversion/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_CONVERSION_PASSES_H
