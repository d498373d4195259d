//===- layout-opt.cpp - The layout-opt driver -----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass registered, plus
// the layout dialect and its passes, and (in a build with tests) the test
// passes of test/lib (tools/common/Registration.h).
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::layout::tools::registerPasses();
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "layout-opt: MLIR optimizer with the layout dialect\n",
      registry));
}
