//===- layout-lsp-server.cpp - The language server for layout IR ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's language server (MlirLspServerMain) with the dialects layout-opt
// knows (tools/common/Registration.h): diagnostics, hover, go-to-definition
// and completion for files that use the layout dialect. docs/tools.md says
// how to point an editor at it.
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
