//===- layout-reduce.cpp - The test-case reducer for layout IR ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's reducer (mlirReduceMain) with the dialects and passes layout-opt
// knows (tools/common/Registration.h): it shrinks an input while a test
// script still calls it interesting, for example while `layout-opt` still
// fails on it with the same message:
//
//   layout-reduce bad.mlir -reduction-tree='traversal-mode=0 test=check.sh'
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::layout::tools::registerPasses();
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
