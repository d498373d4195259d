//===- TargetChip.cpp - The chip a pass compiles for ----------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/TargetChip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;

SmallVector<std::string> mlir::layout::targetChips(Operation *op) {
  auto module = dyn_cast<gpu::GPUModuleOp>(op);
  if (!module)
    module = op->getParentOfType<gpu::GPUModuleOp>();
  SmallVector<std::string> chips;
  if (!module || !module.getTargetsAttr())
    return chips;
  for (Attribute target : module.getTargetsAttr()) {
    std::string chip;
    if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target))
      chip = rocdl.getChip().str();
    else if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
      chip = nvvm.getChip().str();
    else
      continue;
    if (!llvm::is_contained(chips, chip))
      chips.push_back(chip);
  }
  return chips;
}

FailureOr<Chip> mlir::layout::resolveChip(Operation *op, StringRef option,
                                          StringRef pass,
                                          StringRef defaultChip) {
  Operation *at = op;
  if (auto module = op->getParentOfType<gpu::GPUModuleOp>())
    at = module;
  SmallVector<std::string> targets = targetChips(op);
  std::string name;
  if (!option.empty()) {
    if (!targets.empty() && llvm::none_of(targets, [&](const std::string &t) {
          return chipBaseName(t) == chipBaseName(option);
        }))
      return at->emitError() << pass << ": chip=" << option
                             << " disagrees with the gpu.module's target chip '"
                             << targets.front() << "'";
    name = option.str();
  } else if (targets.size() > 1) {
    return at->emitError() << pass << ": the gpu.module's targets name "
                           << targets.size()
                           << " chips; pick one with chip=...";
  } else if (targets.size() == 1) {
    name = targets.front();
  } else if (!defaultChip.empty()) {
    name = defaultChip.str();
  } else {
    return at->emitError()
           << pass
           << ": no chip: pass chip=... or give the gpu.module a target "
              "(#rocdl.target<chip = \"gfx942\">, #nvvm.target<chip = "
              "\"sm_90\">)";
  }
  llvm::Expected<Chip> chip = parseChip(name);
  if (!chip)
    return at->emitError() << pass << ": " << llvm::toString(chip.takeError());
  return *chip;
}
