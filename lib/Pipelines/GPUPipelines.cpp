//===- GPUPipelines.cpp - The GPU pipelines of layout-opt -----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// `-layout-to-rocdl{chip=...}` and `-layout-to-nvvm{chip=...}`: layout IR
// inside gpu.modules down to a gpu.binary holding an AMDGPU code object or
// a CUDA cubin. The ROCm device libraries and ld.lld are found without any
// setup: Debian's rocm-device-libs and lld-22 are laid out the way
// gpu-module-to-binary expects in a cache directory of symlinks.
//
//===----------------------------------------------------------------------===//

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
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <unistd.h>

using namespace mlir;

#ifndef LAYOUT_LLVM_TOOLS_DIR
#define LAYOUT_LLVM_TOOLS_DIR "/usr/lib/llvm-22/bin"
#endif

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

/// Gives the global behind gpu.dynamic_shared_memory external linkage.
/// MLIR 22's gpu-to-nvvm declares it internal, which the NVPTX back end
/// demotes to a one-byte static `.shared` variable; PTX's dynamic shared
/// memory is an `.extern .shared` array of unknown size (PTX ISA, "State
/// Spaces: Shared"), as clang emits for `extern __shared__` and flang
/// since llvm/llvm-project#161940.
struct ExternDynamicSharedMemoryPass final
    : PassWrapper<ExternDynamicSharedMemoryPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExternDynamicSharedMemoryPass)
  StringRef getArgument() const override {
    return "layout-extern-dynamic-shared-memory";
  }
  void runOnOperation() override {
    getOperation()->walk([](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() == 3 && array && array.getNumElements() == 0)
        global.setLinkage(LLVM::Linkage::External);
    });
  }
};

/// Lowers n-D vector.shape_cast to element moves: the matrix instructions'
/// n-D operands (nvgpu.mma.sync's registers x halves) are built from flat
/// fragments, and the GPU conversions only convert 1-D shape casts.
struct LowerVectorShapeCastsPass final
    : PassWrapper<LowerVectorShapeCastsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerVectorShapeCastsPass)
  StringRef getArgument() const override {
    return "layout-lower-vector-shape-casts";
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Rewrites bf16 `nvgpu.mma.sync` m16n8k16 into `nvvm.mma.sync` with
/// i32-packed operands: MLIR 22's nvgpu-to-nvvm conversion does not lower
/// bf16 ("failed to deduce operand PTX types"), while PTX has
/// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32. Register r of A
/// (vector<4x2xbf16>) and B (vector<2x2xbf16>) is one 32-bit register of
/// two bf16, low half first (PTX ISA, mma.m16n8k16 fragments), as nvgpu
/// packs f16.
struct BF16MmaSyncToNVVMPass final
    : PassWrapper<BF16MmaSyncToNVVMPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BF16MmaSyncToNVVMPass)
  StringRef getArgument() const override {
    return "layout-bf16-mma-sync-to-nvvm";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<NVVM::NVVMDialect, LLVM::LLVMDialect, vector::VectorDialect>();
  }

  /// The 32-bit registers of a (registers x 2) bf16 vector.
  static SmallVector<Value> registers(OpBuilder &b, Location loc, Value v) {
    auto type = cast<VectorType>(v.getType());
    auto pair = VectorType::get({1}, b.getI32Type());
    SmallVector<Value> regs;
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      Value row = vector::ExtractOp::create(b, loc, v, r);
      Value packed = vector::BitCastOp::create(b, loc, pair, row);
      regs.push_back(vector::ExtractOp::create(b, loc, packed, 0));
    }
    return regs;
  }

  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> ops;
    getOperation()->walk([&](nvgpu::MmaSyncOp op) {
      if (op.getMatrixA().getType().getElementType().isBF16() &&
          op.getMmaShapeAsArray() == std::array<int64_t, 3>{16, 8, 16})
        ops.push_back(op);
    });
    for (nvgpu::MmaSyncOp op : ops) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      SmallVector<Value> c;
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t v = 0; v < 2; ++v)
          c.push_back(vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                                ArrayRef<int64_t>{r, v}));
      Type f32 = b.getF32Type();
      auto result =
          LLVM::LLVMStructType::getLiteral(&getContext(), {f32, f32, f32, f32});
      auto mma = NVVM::MmaOp::create(
          b, loc, result, registers(b, loc, op.getMatrixA()),
          registers(b, loc, op.getMatrixB()), c, ArrayRef<int64_t>{16, 8, 16},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                        NVVM::MMATypes::bf16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      SmallVector<Value> d;
      for (int64_t i = 0; i < 4; ++i)
        d.push_back(LLVM::ExtractValueOp::create(b, loc, mma, i));
      op.replaceAllUsesWith(Value(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(op.getType()), d)));
      op.erase();
    }
  }
};

bool exists(const Twine &path) { return llvm::sys::fs::exists(path); }

/// Finds the first directory of `candidates` that holds the AMDGPU device
/// libraries (ockl.bc).
std::optional<std::string> findBitcodeDir() {
  // $LAYOUT_OPT_DEVICE_LIBS replaces the search (device libraries installed
  // somewhere else).
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("LAYOUT_OPT_DEVICE_LIBS")) {
    if (exists(*env + "/ockl.bc"))
      return *env;
    return std::nullopt;
  }
  for (const char *dir :
       {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
        "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode",
        "/opt/rocm/amdgcn/bitcode"})
    if (exists(Twine(dir) + "/ockl.bc"))
      return std::string(dir);
  return std::nullopt;
}

/// Finds ld.lld: next to the LLVM this project was built with, then on PATH.
std::optional<std::string> findLld() {
  std::string beside = std::string(LAYOUT_LLVM_TOOLS_DIR) + "/ld.lld";
  if (exists(beside))
    return beside;
  for (StringRef name : {"ld.lld", "ld.lld-22"})
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(name))
      return *p;
  return std::nullopt;
}

/// The CUDA toolkit that -layout-to-nvvm hands gpu-module-to-binary, as its
/// cuda-path option documents: the option when given (it must hold
/// bin/ptxas), else $CUDA_PATH, else /usr/local/cuda, whichever has
/// bin/ptxas; else "" (MLIR's own search, ptxas on PATH). A given path must
/// hold bin/ptxas where the format needs it (bin, fatbin); PTX and LLVM IR
/// output need none. A ptxas missing everywhere is MLIR's error at
/// serialization, which names ptxas.
std::string cudaToolkit(StringRef explicitPath, StringRef format,
                        std::string &error) {
  bool needsPtxas = format == "bin" || format == "fatbin";
  if (!explicitPath.empty()) {
    if (needsPtxas && !exists(explicitPath + "/bin/ptxas"))
      error =
          ("-layout-to-nvvm: cuda-path '" + explicitPath + "' has no bin/ptxas")
              .str();
    return explicitPath.str();
  }
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    if (exists(*env + "/bin/ptxas"))
      return *env;
  if (exists("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda";
  return "";
}

/// The ROCm directory for gpu-module-to-binary: `explicitPath` if given,
/// $ROCM_PATH if it is complete, else a cache directory of symlinks to
/// Debian's device libraries and ld.lld. On failure, `error` says what is
/// missing and how to get it.
std::string rocmToolkit(StringRef explicitPath, std::string &error) {
  if (!explicitPath.empty()) {
    bool bitcode = exists(explicitPath + "/amdgcn/bitcode/ockl.bc");
    bool lld = exists(explicitPath + "/llvm/bin/ld.lld");
    if (!bitcode || !lld) {
      error = ("-layout-to-rocdl: rocm-path '" + explicitPath + "' has no " +
               (!bitcode ? "amdgcn/bitcode/ockl.bc (the AMDGPU device "
                           "libraries)"
                         : "") +
               (!bitcode && !lld ? " and no " : "") +
               (!lld ? "llvm/bin/ld.lld" : ""))
                  .str();
      return "";
    }
    return explicitPath.str();
  }
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("ROCM_PATH"))
    if (exists(*env + "/amdgcn/bitcode/ockl.bc") &&
        exists(*env + "/llvm/bin/ld.lld"))
      return *env;
  std::optional<std::string> bitcode = findBitcodeDir();
  std::optional<std::string> lld = findLld();
  if (!bitcode || !lld) {
    error = "-layout-to-rocdl: cannot find ";
    if (!bitcode)
      error += "the AMDGPU device libraries (amdgcn/bitcode/ockl.bc; Debian "
               "package rocm-device-libs)";
    if (!bitcode && !lld)
      error += " nor ";
    if (!lld)
      error += "the linker ld.lld (Debian package lld-22)";
    error += "; install them, or pass rocm-path=<dir> with amdgcn/bitcode "
             "and llvm/bin/ld.lld";
    return "";
  }
  SmallString<128> root;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, root);
  llvm::sys::path::append(root,
                          "layout-opt-rocm-" + std::to_string(::getuid()));
  SmallString<128> amdgcn(root), bin(root);
  llvm::sys::path::append(amdgcn, "amdgcn");
  llvm::sys::path::append(bin, "llvm", "bin");
  std::error_code ec;
  if ((ec = llvm::sys::fs::create_directories(amdgcn)) ||
      (ec = llvm::sys::fs::create_directories(bin))) {
    error = "-layout-to-rocdl cannot create " + root.str().str() + ": " +
            ec.message();
    return "";
  }
  auto link = [&](StringRef target, const Twine &at) {
    SmallString<128> path;
    at.toVector(path);
    SmallString<128> current;
    if (!llvm::sys::fs::real_path(path, current) && current == target)
      return std::error_code();
    llvm::sys::fs::remove(path);
    return llvm::sys::fs::create_link(target, path);
  };
  if ((ec = link(*bitcode, amdgcn + "/bitcode")) ||
      (ec = link(*lld, bin + "/ld.lld"))) {
    error = "-layout-to-rocdl cannot link the toolkit into " +
            root.str().str() + ": " + ec.message();
    return "";
  }
  return root.str().str();
}

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
/// (their options checked by reportBadCommonOptions): distributes
/// cooperative tile copies
/// (-layout-tile-shared-memory; a no-op where they already are), lowers the
/// layout ops, attaches the target
/// (`attach`), converts the kernels (`convert`, nested in gpu.modules), the
/// host code, and ends in gpu-module-to-binary. Reports an invalid format
/// with a failing pass.
void addGpuPipeline(OpPassManager &pm, StringRef name, StringRef chip,
                    const std::string &format, bool barePtr,
                    const std::string &toolkit, std::unique_ptr<Pass> attach,
                    std::unique_ptr<Pass> convert) {
  layout::LayoutTileSharedMemoryOptions tiles;
  tiles.chip = chip.str();
  pm.addPass(layout::createLayoutTileSharedMemory(tiles));
  // The target first: the layout lowering picks atomic sync scopes by it.
  pm.addPass(std::move(attach));
  layout::addLayoutLowering(pm);
  pm.addNestedPass<gpu::GPUModuleOp>(
      std::make_unique<LowerVectorShapeCastsPass>());
  // nvgpu ops (mma.sync, ldmatrix) before the gpu-to-nvvm conversion, which
  // leaves them alone; amdgpu ops are part of the gpu-to-rocdl patterns.
  if (name == "layout-to-nvvm") {
    layout::LayoutDynamicSharedMemoryOptions dynamic;
    dynamic.chip = chip.str();
    pm.addPass(layout::createLayoutDynamicSharedMemory(dynamic));
    pm.addNestedPass<gpu::GPUModuleOp>(
        std::make_unique<BF16MmaSyncToNVVMPass>());
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  }
  pm.addNestedPass<gpu::GPUModuleOp>(std::move(convert));
  if (name == "layout-to-nvvm")
    pm.addNestedPass<gpu::GPUModuleOp>(
        std::make_unique<ExternDynamicSharedMemoryPass>());
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
        "-layout-to-rocdl: unknown AMDGPU chip '" + chip +
        "' (known: " + knownChips().str() + ")"));
    return;
  }
  std::string error;
  std::string toolkit = rocmToolkit(options.rocmPath, error);
  if (!error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  GpuROCDLAttachTargetOptions attach;
  attach.chip = chip;
  attach.optLevel = options.optLevel;
  attach.wave64Flag = parsed->waveSize == 64;
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = chip;
  convert.useBarePtrCallConv = options.barePtr;
  addGpuPipeline(pm, "layout-to-rocdl", chip, options.format, options.barePtr,
                 toolkit, createGpuROCDLAttachTarget(attach),
                 createConvertGpuOpsToROCDLOps(convert));
}

void layout::buildLayoutToNVVMPipeline(OpPassManager &pm,
                                       const LayoutToNVVMOptions &options) {
  if (reportBadCommonOptions(pm, "layout-to-nvvm", options.format,
                             options.optLevel))
    return;
  std::string chip = options.chip;
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed || !parsed->isNVIDIA()) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    pm.addPass(std::make_unique<ReportErrorPass>(
        "-layout-to-nvvm: unknown CUDA chip '" + chip +
        "' (known: " + knownChips().str() + ")"));
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
  addGpuPipeline(pm, "layout-to-nvvm", chip, options.format, options.barePtr,
                 toolkit, createGpuNVVMAttachTarget(attach),
                 createConvertGpuOpsToNVVMOps(convert));
}
