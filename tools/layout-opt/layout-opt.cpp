//===- layout-opt.cpp - The layout-opt driver -----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass registered, plus
// the layout dialect and its passes, and (in a build with tests) the test
// passes of test/lib.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef LAYOUT_INCLUDE_TESTS
namespace mlir::layout::test {
void registerTestGpuToLoopsPass();
} // namespace mlir::layout::test
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
#ifdef LAYOUT_INCLUDE_TESTS
  mlir::layout::test::registerTestGpuToLoopsPass();
#endif
  mlir::layout::registerLayoutConversionPasses();
  mlir::layout::registerLayoutPipelines();
  mlir::layout::registerLayoutTransformsPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::layout::LayoutDialect>();
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "layout-opt: MLIR optimizer with the layout dialect\n",
      registry));
}
