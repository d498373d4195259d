//===- Registration.h - What the layout-opt tools register ------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The passes and dialects of the layout-opt driver, in one place for every
// tool that parses and runs what layout-opt does (layout-opt, layout-fuzz):
// every upstream dialect, extension and pass, the layout dialect and its
// passes and pipelines, and (in a build with tests, LAYOUT_INCLUDE_TESTS)
// the test passes of test/lib.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TOOLS_COMMON_REGISTRATION_H
#define LAYOUT_TOOLS_COMMON_REGISTRATION_H

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#ifdef LAYOUT_INCLUDE_TESTS
namespace mlir::layout::test {
void registerTestGpuToLoopsPass();
void registerTestBankConflictsPass();
} // namespace mlir::layout::test
#endif

namespace mlir::layout::tools {

/// Registers every pass and pipeline layout-opt knows.
inline void registerPasses() {
  registerAllPasses();
#ifdef LAYOUT_INCLUDE_TESTS
  test::registerTestGpuToLoopsPass();
  test::registerTestBankConflictsPass();
#endif
  registerLayoutConversionPasses();
  registerLayoutPipelines();
  registerLayoutTransformsPasses();
}

/// Adds every dialect and extension layout-opt knows to `registry`.
inline void registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<LayoutDialect>();
  // gpu-module-to-binary translates kernels to LLVM IR.
  registerAllToLLVMIRTranslations(registry);
}

} // namespace mlir::layout::tools

#endif // LAYOUT_TOOLS_COMMON_REGISTRATION_H
