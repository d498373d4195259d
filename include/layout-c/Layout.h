/*===- Layout.h - C API of the layout dialect ---------------------*- C -*-===*\
|*                                                                            *|
|* Part of the layout-opt project.                                           *|
|*                                                                            *|
|* The entry points MLIR's upstream Python bindings (and any C client) need  *|
|* to load the layout dialect and its passes. The project's own pybind11     *|
|* extension does not need them; they keep that route open.                  *|
\*===----------------------------------------------------------------------===*/

#ifndef LAYOUT_C_LAYOUT_H
#define LAYOUT_C_LAYOUT_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__layout__(): registers / loads the layout dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Layout, layout);

/// Registers the conversion and transform passes and the pipelines
/// (-convert-layout-to-affine, -layout-to-rocdl, ...) with the global
/// registry.
MLIR_CAPI_EXPORTED void layoutRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // LAYOUT_C_LAYOUT_H
