//===- TargetChip.h - The chip a pass compiles for -------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Every pass and pipeline with a `chip` option finds its chip here: a
// gpu.module's target attribute (#rocdl.target<chip = ...> or
// #nvvm.target<chip = ...>) names it, so a user names it once; the option
// names it where the module has no target, and an option that disagrees
// with the target is an error.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_TARGETCHIP_H
#define LAYOUT_TRANSFORMS_TARGETCHIP_H

#include "layout/Target/Chip.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// The chip names of the target attributes of the gpu.module at or around
/// `op` (empty when it has none, or `op` is in no gpu.module).
SmallVector<std::string> targetChips(Operation *op);

/// The chip for the code at `op` (a gpu.module or an op in one): the
/// gpu.module's target chip, or `option` where it has none. Emits an error
/// at the gpu.module (or `op`) naming `pass` and fails when the option
/// disagrees with the target, the targets name several chips and no option
/// picks one, the chip is unknown, or there is no chip at all and
/// `defaultChip` is empty (else `defaultChip`, which the pass documents).
FailureOr<Chip> resolveChip(Operation *op, StringRef option, StringRef pass,
                            StringRef defaultChip = "");

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_TARGETCHIP_H
