//===- GPUPipelines.cpp - The GPU pipelines of layout-opt -----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// `-layout-to-rocdl{chip=...}` and `-layout-to-nvvm{chip=...}`: layout IR
// inside gpu.modules down to a gpu.binary holding an AMDGPU code object or
// a CUDA cubin. The toolkits are found by Toolkits.h; the passes around
// upstream's gaps are in lib/Conversion/GPUWorkarounds.
//
//===----------------------------------------------------------------------===//

#include "Toolkits.h"
#include "layout/Conversion/Passes.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Target/Chip.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

/// A pass that fails with `message`: how a pipeline whose options are wrong
/// (an unknown chip, a missing toolkit) reports it.
struct ReportErrorPass final
    : PassWrapper<ReportErrorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReportErrorPass)
  explicit ReportErrorPass(std::string message) : message(std::move(message)) {}
  StringRef getArgument() const override { return "layout-report-error"; }
  void runOnOperation() override {
    mlir::emitError(getOperation().getLoc()) << message;
    signalPassFailure();
  }
  std::string message;
};

/// Checks the options both pipelines take (format, O) before anything is
/// resolved; on a bad one, adds a pass that reports it and returns true.
bool reportBadCommonOptions(OpPassManager &pm, StringRef name,
                            const std::string &format, unsigned optLevel) {
  if (format != "bin" && format != "isa" && format != "llvm" &&
      format != "fatbin") {
    pm.addPass(std::make_unique<ReportErrorPass>(
        ("-" + name + ": format must be bin, isa, llvm or fatbin, got '" +
         format + "'")
            .str()));
    return true;
  }
  if (optLevel > 3) {
    pm.addPass(std::make_unique<ReportErrorPass>(
        ("-" + name + ": O must be 0, 1, 2 or 3, got " + Twine(optLevel))
            .str()));
    return true;
  }
  return false;
}

/// The GPU part both pipelines share, around the target-specific passes
/// (their options checked by reportBadCommonOptions): inlines helper
/// functions (addLayoutInlining), distributes
/// cooperative tile copies (-layout-tile-shared-memory; a no-op where they
/// already are), swizzles workgroup buffers (-layout-xor-swizzle, unless
/// `swizzle=false`), lowers the layout ops, attaches the target (`attach`),
/// converts the kernels (`convert`, nested in gpu.modules), the host code,
/// and ends in gpu-module-to-binary.
template <typename Options>
void addGpuPipeline(OpPassManager &pm, StringRef name, StringRef chip,
                    const Options &options, const std::string &toolkit,
                    std::unique_ptr<Pass> attach,
                    std::unique_ptr<Pass> convert) {
  const std::string &format = options.format;
  bool barePtr = options.barePtr;
  layout::addLayoutInlining(pm);
  layout::LayoutTileSharedMemoryOptions tiles;
  tiles.chip = chip.str();
  pm.addPass(layout::createLayoutTileSharedMemory(tiles));
  // The headline by default: every workgroup buffer swizzled where a
  // swizzle is proved to remove its conflicts (a no-op on buffers that
  // have none, and on code without workgroup memory).
  if (options.swizzle) {
    layout::LayoutXorSwizzleOptions swizzle;
    swizzle.chip = chip.str();
    pm.addPass(layout::createLayoutXorSwizzle(swizzle));
  }
  // The target first: the layout lowering picks atomic sync scopes by it.
  pm.addPass(std::move(attach));
  // wgmma reads the operands' descriptors, which the layout lowering
  // consumes: first.
  if (name == "layout-to-nvvm")
    pm.addNestedPass<gpu::GPUModuleOp>(
        layout::createLayoutWarpgroupMmaToNVVM());
  layout::addLayoutLowering(pm);
  pm.addNestedPass<gpu::GPUModuleOp>(
      layout::createLayoutLowerVectorShapeCasts());
  // nvgpu ops (mma.sync, ldmatrix) before the gpu-to-nvvm conversion, which
  // leaves them alone; amdgpu ops are part of the gpu-to-rocdl patterns.
  if (name == "layout-to-nvvm") {
    layout::LayoutDynamicSharedMemoryOptions dynamic;
    dynamic.chip = chip.str();
    pm.addPass(layout::createLayoutDynamicSharedMemory(dynamic));
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutBF16MmaSyncToNVVM());
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  }
  pm.addNestedPass<gpu::GPUModuleOp>(std::move(convert));
  if (name == "layout-to-nvvm")
    pm.addNestedPass<gpu::GPUModuleOp>(
        layout::createLayoutExternDynamicSharedMemory());
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = barePtr;
  pm.addPass(createGpuToLLVMConversionPass(host));
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = toolkit;
  binary.compilationTarget = format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

} // namespace

void layout::buildLayoutToROCDLPipeline(OpPassManager &pm,
                                        const LayoutToROCDLOptions &options) {
  if (reportBadCommonOptions(pm, "layout-to-rocdl", options.format,
                             options.optLevel))
    return;
  std::string chip = options.chip;
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed || !parsed->isAMD()) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    pm.addPass(std::make_unique<ReportErrorPass>(
        parsed ? "-layout-to-rocdl: '" + chip +
                     "' is a CUDA chip (-layout-to-nvvm compiles for it); "
                     "AMDGPU chips: " +
                     knownAMDChips().str()
               : "-layout-to-rocdl: unknown AMDGPU chip '" + chip +
                     "' (known: " + knownAMDChips().str() + ")"));
    return;
  }
  // gfx942:sramecc+:xnack-: the chip for the passes, the features for the
  // target attribute (upstream's chipset option takes no features).
  llvm::Expected<std::string> features = chipTargetFeatures(chip);
  if (!features) {
    pm.addPass(std::make_unique<ReportErrorPass>(
        "-layout-to-rocdl: " + llvm::toString(features.takeError())));
    return;
  }
  std::string error;
  std::string toolkit = rocmToolkit(options.rocmPath, error);
  if (!error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  GpuROCDLAttachTargetOptions attach;
  attach.chip = parsed->name;
  attach.features = *features;
  attach.optLevel = options.optLevel;
  attach.wave64Flag = parsed->waveSize == 64;
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = parsed->name;
  convert.useBarePtrCallConv = options.barePtr;
  addGpuPipeline(pm, "layout-to-rocdl", parsed->name, options, toolkit,
                 createGpuROCDLAttachTarget(attach),
                 createConvertGpuOpsToROCDLOps(convert));
}

void layout::buildLayoutToNVVMPipeline(OpPassManager &pm,
                                       const LayoutToNVVMOptions &options) {
  if (reportBadCommonOptions(pm, "layout-to-nvvm", options.format,
                             options.optLevel))
    return;
  std::string chip = options.chip;
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed || !parsed->isNVIDIA() || parsed->name != chip) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    pm.addPass(std::make_unique<ReportErrorPass>(
        !parsed ? "-layout-to-nvvm: unknown CUDA chip '" + chip +
                      "' (known: " + knownNVIDIAChips().str() + ")"
        : parsed->isAMD()
            ? "-layout-to-nvvm: '" + chip +
                  "' is an AMDGPU chip (-layout-to-rocdl compiles for it); "
                  "CUDA chips: " +
                  knownNVIDIAChips().str()
            : "-layout-to-nvvm: '" + chip +
                  "': CUDA chips take no target-id features"));
    return;
  }
  std::string error;
  std::string toolkit = cudaToolkit(options.cudaPath, options.format, error);
  if (!error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  GpuNVVMAttachTargetOptions attach;
  attach.chip = chip;
  attach.optLevel = options.optLevel;
  ConvertGpuOpsToNVVMOpsOptions convert;
  convert.useBarePtrCallConv = options.barePtr;
  addGpuPipeline(pm, "layout-to-nvvm", chip, options, toolkit,
                 createGpuNVVMAttachTarget(attach),
                 createConvertGpuOpsToNVVMOps(convert));
}
