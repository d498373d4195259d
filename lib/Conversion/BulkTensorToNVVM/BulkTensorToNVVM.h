//===- BulkTensorToNVVM.h - What the two TMA passes share -------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_CONVERSION_BULKTENSORTONVVM_BULKTENSORTONVVM_H
#define LAYOUT_LIB_CONVERSION_BULKTENSORTONVVM_BULKTENSORTONVVM_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace layout {

/// The kernel attribute that counts the tensor-map parameters
/// -layout-bulk-tensor-to-nvvm appended (the kernel's last arguments), for
/// -layout-tensor-map-params.
constexpr llvm::StringLiteral kTensorMapParamsAttr = "layout.tensor_map_params";

} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_CONVERSION_BULKTENSORTONVVM_BULKTENSORTONVVM_H
