//===- Remarks.h - The remarks of layout-opt's passes -----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// How a pass says what it found or chose: a remark through MLIR's remark
// engine when the engine takes the pass's category (layout-opt
// --remarks-filter=<category> [--remark-format=yaml], with the metrics as
// arguments), else a diagnostic remark where the pass prints remarks.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_REMARKS_H
#define LAYOUT_TRANSFORMS_REMARKS_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>

namespace mlir {
namespace layout {

/// Emits `text` at `loc` as remark `name` of `category` in `function`
/// through the remark engine when it is on and takes `category`, with
/// `metrics` as arguments; otherwise as a diagnostic remark when
/// `diagnostic` is set (nothing when it is not).
void emitLayoutRemark(Location loc, StringRef name, StringRef category,
                      StringRef function, const std::string &text,
                      ArrayRef<std::pair<StringRef, std::string>> metrics,
                      bool diagnostic = true);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_REMARKS_H
