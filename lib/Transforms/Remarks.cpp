//===- Remarks.cpp - The remarks of layout-opt's passes -------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/Remarks.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Remarks.h"

using namespace mlir;

void mlir::layout::emitLayoutRemark(
    Location loc, StringRef name, StringRef category, StringRef function,
    const std::string &text,
    ArrayRef<std::pair<StringRef, std::string>> metrics, bool diagnostic) {
  // An empty remark when the engine is off or filters this category out.
  if (auto remark = remark::analysis(
          loc, remark::RemarkOpts::name(name).category(category).function(
                   function))) {
    remark << text;
    for (auto &[key, value] : metrics)
      remark << remark::metric(key, value);
    return;
  }
  if (diagnostic)
    mlir::emitRemark(loc) << text;
}
