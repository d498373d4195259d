//===- GPUPipelines.cpp - The GPU pipelines of layout-opt -----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// `-layout-to-rocdl{chip=...}` and `-layout-to-nvvm{chip=...}`: layout IR
// inside gpu.modules down to a gpu.binary holding an AMDGPU code object or
// a CUDA cubin. The chip is the option's, else the one the gpu.modules'
// targets name (#rocdl.target<chip = ...>), else gfx942 / sm_90: the
// pipeline is built when the module is seen (GpuPipelineForTargetPass). The
// toolkits are found by Toolkits.h; the passes around upstream's gaps are in
// lib/Conversion/GPUWorkarounds.
//
//===----------------------------------------------------------------------===//

#include "Toolkits.h"
#include "layout/Conversion/Passes.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Target/Chip.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/TargetChip.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::layout;

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

/// Makes NVPTX give shared-memory pointers 32 bits (its -nvptx-short-ptr,
/// as Triton's PTX translation sets it), unless the command line set the
/// option. PTX addresses of the .shared window are 32-bit: 64-bit pointers
/// cost every hoisted ldmatrix / cp.async address a register pair (the d
/// 128 attention kernels spilled 360 bytes at 255 registers; 208 with
/// this). The option is process-wide, as LLVM's options are.
void useShortSharedPointers() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it == options.end() || it->second->getNumOccurrences())
    return;
  // As if given on the command line (parsed by the option's own type).
  (void)it->second->addOccurrence(0, it->first, "true");
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
  if (name == "layout-to-nvvm") {
    useShortSharedPointers();
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutNVVMPtxVersion());
    pm.addNestedPass<gpu::GPUModuleOp>(
        layout::createLayoutWarpgroupMmaToNVVM());
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutBulkTensorToNVVM());
    // The saturating FP8 truncations, while their clamps are as written.
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutFloat8TruncToNVVM());
    // exp2 where the target flushes subnormals (MLIR 22 keeps the flag
    // unused).
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutExp2ToNVVM());
    // ldmatrix reads of a buffer from a few bases and immediates, once the
    // swizzle is chosen and while the offsets are layout.offset ops.
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutLdMatrixSteps());
  } else {
    // Truncations to (and extensions of) 8-bit floats: the chip's packed
    // conversions (V_CVT_PK_FP8_F32 ...); a saturating truncation's clamp
    // (layout/Transforms/Float8Truncation.h) stays as written.
    ArithToAMDGPUConversionPassOptions fp8;
    fp8.chipset = chip.str();
    pm.addNestedPass<gpu::GPUModuleOp>(createArithToAMDGPUConversionPass(fp8));
  }
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
  if (name == "layout-to-nvvm") {
    pm.addNestedPass<gpu::GPUModuleOp>(
        layout::createLayoutExternDynamicSharedMemory());
    pm.addNestedPass<gpu::GPUModuleOp>(layout::createLayoutTensorMapParams());
  }
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = barePtr;
  pm.addPass(createGpuToLLVMConversionPass(host));
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = toolkit;
  binary.compilationTarget = format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// The default chips, where neither the option nor a target names one.
constexpr llvm::StringLiteral kDefaultAMDChip = "gfx942";
constexpr llvm::StringLiteral kDefaultNVIDIAChip = "sm_90";

/// What the pipelines need of their options once the chip is known (the
/// options themselves cannot be copied into a pass).
struct GpuSettings {
  std::string format;
  bool barePtr;
  unsigned optLevel;
  bool swizzle;
  /// rocm-path or cuda-path.
  std::string toolkitPath;
  /// -layout-to-nvvm's ftz.
  bool ftz = false;
};

/// Why `chip` cannot be -layout-to-rocdl's chip ("" when it can).
std::string rocdlChipProblem(StringRef chip) {
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return ("-layout-to-rocdl: unknown AMDGPU chip '" + chip +
            "' (known: " + knownAMDChips() + ")")
        .str();
  }
  if (!parsed->isAMD())
    return ("-layout-to-rocdl: '" + chip +
            "' is a CUDA chip (-layout-to-nvvm compiles for it); AMDGPU "
            "chips: " +
            knownAMDChips())
        .str();
  // gfx942:sramecc+:xnack-: the features must be well formed.
  llvm::Expected<std::string> features = chipTargetFeatures(chip);
  if (!features)
    return "-layout-to-rocdl: " + llvm::toString(features.takeError());
  return "";
}

/// Why `chip` cannot be -layout-to-nvvm's chip ("" when it can).
std::string nvvmChipProblem(StringRef chip) {
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return ("-layout-to-nvvm: unknown CUDA chip '" + chip +
            "' (known: " + knownNVIDIAChips() + ")")
        .str();
  }
  if (parsed->isAMD())
    return ("-layout-to-nvvm: '" + chip +
            "' is an AMDGPU chip (-layout-to-rocdl compiles for it); CUDA "
            "chips: " +
            knownNVIDIAChips())
        .str();
  if (parsed->name != chip)
    return ("-layout-to-nvvm: '" + chip +
            "': CUDA chips take no target-id features")
        .str();
  return "";
}

/// -layout-to-rocdl for `chip`, attaching the target to the gpu.modules
/// whose names `attachTo` matches (all when empty).
void buildROCDLFor(OpPassManager &pm, const GpuSettings &settings,
                   StringRef chip, StringRef attachTo) {
  if (std::string problem = rocdlChipProblem(chip); !problem.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(problem));
    return;
  }
  Chip parsed = cantFail(parseChip(chip));
  // gfx942:sramecc+:xnack-: the chip for the passes, the features for the
  // target attribute (upstream's chipset option takes no features).
  std::string features = cantFail(chipTargetFeatures(chip));
  std::string error;
  std::string toolkit = rocmToolkit(settings.toolkitPath, error);
  if (!error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  GpuROCDLAttachTargetOptions attach;
  attach.moduleMatcher = attachTo.str();
  attach.chip = parsed.name;
  attach.features = features;
  attach.optLevel = settings.optLevel;
  attach.wave64Flag = parsed.waveSize == 64;
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = parsed.name;
  convert.useBarePtrCallConv = settings.barePtr;
  addGpuPipeline(pm, "layout-to-rocdl", parsed.name, settings, toolkit,
                 createGpuROCDLAttachTarget(attach),
                 createConvertGpuOpsToROCDLOps(convert));
}

/// -layout-to-nvvm for `chip` (see buildROCDLFor).
void buildNVVMFor(OpPassManager &pm, const GpuSettings &settings,
                  StringRef chip, StringRef attachTo) {
  if (std::string problem = nvvmChipProblem(chip); !problem.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(problem));
    return;
  }
  std::string error;
  std::string toolkit =
      cudaToolkit(settings.toolkitPath, settings.format, error);
  if (!error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  GpuNVVMAttachTargetOptions attach;
  attach.moduleMatcher = attachTo.str();
  attach.chip = chip.str();
  attach.optLevel = settings.optLevel;
  attach.ftzFlag = settings.ftz;
  // PTX ISA 8.0 brought cp.async.bulk.tensor and mbarrier expect_tx (sm_90);
  // the NVPTX back end's default for sm_90 is 7.8 and cannot select them.
  if (cantFail(parseChip(chip)).tensorMemoryAccess)
    attach.features = "+ptx80";
  ConvertGpuOpsToNVVMOpsOptions convert;
  convert.useBarePtrCallConv = settings.barePtr;
  addGpuPipeline(pm, "layout-to-nvvm", chip, settings, toolkit,
                 createGpuNVVMAttachTarget(attach),
                 createConvertGpuOpsToNVVMOps(convert));
}

using BuildFor = void (*)(OpPassManager &, const GpuSettings &, StringRef,
                          StringRef);

/// Runs a GPU pipeline for the chip the module's gpu.module targets
/// (#rocdl.target<chip = ...>, #nvvm.target<chip = ...>) name when the
/// `chip` option is empty, else for the option, which must agree with
/// every target of its backend; with neither, for the default chip. The
/// pipeline attaches its target only to the gpu.modules without one.
struct GpuPipelineForTargetPass final
    : PassWrapper<GpuPipelineForTargetPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GpuPipelineForTargetPass)

  GpuPipelineForTargetPass(StringRef pipeline, bool amd, StringRef option,
                           StringRef defaultChip, GpuSettings settings,
                           BuildFor build)
      : pipeline(pipeline.str()), amd(amd), option(option.str()),
        defaultChip(defaultChip.str()), settings(std::move(settings)),
        build(build) {}

  StringRef getArgument() const override { return "layout-gpu-pipeline"; }
  StringRef getDescription() const override {
    return "A GPU pipeline for the chip of the gpu.modules' targets";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    build(pm, settings, option.empty() ? defaultChip : option, "");
    pm.getDependentDialects(registry);
  }

  /// The chip names of `module`'s targets of this pipeline's backend (an
  /// unknown name counts as this backend's: the pipeline names it).
  SmallVector<std::string> backendTargets(gpu::GPUModuleOp module) const {
    SmallVector<std::string> chips;
    for (const std::string &name : layout::targetChips(module)) {
      llvm::Expected<Chip> chip = parseChip(name);
      if (!chip)
        llvm::consumeError(chip.takeError());
      if (!chip || chip->isAMD() == amd)
        chips.push_back(name);
    }
    return chips;
  }

  void runOnOperation() override {
    std::string chip = option;
    gpu::GPUModuleOp chipFrom;
    SmallVector<std::string> untargeted;
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      SmallVector<std::string> chips = backendTargets(module);
      if (chips.empty())
        untargeted.push_back(llvm::Regex::escape(module.getName()));
      for (const std::string &target : chips) {
        if (chip.empty()) {
          chip = target;
          chipFrom = module;
          continue;
        }
        if (chipBaseName(target) == chipBaseName(chip))
          continue;
        InFlightDiagnostic diag = module.emitError() << "-" << pipeline << ": ";
        if (!option.empty()) {
          diag << "chip=" << option
               << " disagrees with the gpu.module's target chip '" << target
               << "' (drop the option, or the target)";
        } else {
          diag << "the gpu.module's target chip '" << target
               << "' differs from '" << chip
               << "', another gpu.module's; one run compiles for one chip "
                  "(pick one with chip=...)";
          diag.attachNote(chipFrom.getLoc()) << "the gpu.module whose target "
                                             << "names '" << chip << "'";
        }
        return signalPassFailure();
      }
    }
    if (chip.empty())
      chip = defaultChip;
    // The target goes where there is none of this backend: a regex of
    // those names, or one that matches no name.
    std::string attachTo =
        untargeted.empty() ? "$^" : "^(" + llvm::join(untargeted, "|") + ")$";
    OpPassManager pm(ModuleOp::getOperationName());
    build(pm, settings, chip, attachTo);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }

  std::string pipeline;
  bool amd;
  std::string option, defaultChip;
  GpuSettings settings;
  BuildFor build;
};

} // namespace

void layout::buildLayoutToROCDLPipeline(OpPassManager &pm,
                                        const LayoutToROCDLOptions &options) {
  if (reportBadCommonOptions(pm, "layout-to-rocdl", options.format,
                             options.optLevel))
    return;
  // A chip option is checked before the module is seen.
  std::string chip = options.chip;
  if (!chip.empty())
    if (std::string problem = rocdlChipProblem(chip); !problem.empty()) {
      pm.addPass(std::make_unique<ReportErrorPass>(problem));
      return;
    }
  GpuSettings settings{options.format, options.barePtr, options.optLevel,
                       options.swizzle, options.rocmPath};
  pm.addPass(std::make_unique<GpuPipelineForTargetPass>(
      "layout-to-rocdl", /*amd=*/true, chip, kDefaultAMDChip,
      std::move(settings), buildROCDLFor));
}

void layout::buildLayoutToNVVMPipeline(OpPassManager &pm,
                                       const LayoutToNVVMOptions &options) {
  if (reportBadCommonOptions(pm, "layout-to-nvvm", options.format,
                             options.optLevel))
    return;
  std::string chip = options.chip;
  if (!chip.empty())
    if (std::string problem = nvvmChipProblem(chip); !problem.empty()) {
      pm.addPass(std::make_unique<ReportErrorPass>(problem));
      return;
    }
  GpuSettings settings{options.format,  options.barePtr,  options.optLevel,
                       options.swizzle, options.cudaPath, options.ftz};
  pm.addPass(std::make_unique<GpuPipelineForTargetPass>(
      "layout-to-nvvm", /*amd=*/false, chip, kDefaultNVIDIAChip,
      std::move(settings), buildNVVMFor));
}
