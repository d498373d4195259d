//===- Layout.cpp - C API of the layout dialect ---------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout-c/Layout.h"
#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Transforms/Passes.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Layout, layout,
                                      mlir::layout::LayoutDialect)

void layoutRegisterPasses(void) {
  mlir::layout::registerLayoutConversionPasses();
  mlir::layout::registerLayoutTransformsPasses();
  mlir::layout::registerLayoutPipelines();
}
