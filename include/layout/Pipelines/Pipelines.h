//===- Pipelines.h - The pass pipelines of layout-opt -----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_PIPELINES_PIPELINES_H
#define LAYOUT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace layout {

/// `-layout-to-llvm`: the CPU pipeline. Canonicalizes the layout IR, lowers
/// its index ops to affine and arith, and everything to the LLVM dialect; the
/// result runs under `mlir-runner` (with libmlir_c_runner_utils for
/// `vector.print`).
void buildLayoutToLLVMPipeline(OpPassManager &pm);

/// Registers the pipelines with the pass registry (`layout-opt` flags).
void registerLayoutPipelines();

} // namespace layout
} // namespace mlir

#endif // LAYOUT_PIPELINES_PIPELINES_H
