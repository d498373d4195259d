//===- Pipelines.h - The pass pipelines of layout-opt -----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_PIPELINES_PIPELINES_H
#define LAYOUT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace layout {

/// Inlines every call (MLIR's -inline, with no simplification pipeline):
/// helper functions that take views, partitions or descriptors become part
/// of their callers, where the lowerings can trace their views to memory.
/// Private helpers left without calls are erased. The pipelines run it
/// first.
void addLayoutInlining(OpPassManager &pm);

/// The part every pipeline shares: canonicalize, lower the layout ops
/// (-convert-layout-to-vector, -convert-layout-to-affine), affine and
/// vector transfers to SCF, strided metadata, and SCF to CF.
void addLayoutLowering(OpPassManager &pm);

/// `-layout-to-llvm`: the CPU pipeline. Canonicalizes the layout IR, lowers
/// its index ops to affine and arith, and everything to the LLVM dialect; the
/// result runs under `mlir-runner` (with libmlir_c_runner_utils for
/// `vector.print`).
void buildLayoutToLLVMPipeline(OpPassManager &pm);

/// The options both GPU pipelines take (`Derived` is the options struct).
template <typename Derived>
struct GpuPipelineOptions : public PassPipelineOptions<Derived> {
  ::mlir::detail::PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("bin (code object / cubin), isa (assembly / PTX), llvm "
                     "(LLVM IR), fatbin"),
      llvm::cl::init("bin")};
  ::mlir::detail::PassOptions::Option<bool> barePtr{
      *this, "bare-ptr",
      llvm::cl::desc("Pass memref kernel arguments as bare pointers"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("Optimization level: 0, 1, 2 or 3"),
      llvm::cl::init(3)};
  ::mlir::detail::PassOptions::Option<bool> swizzle{
      *this, "swizzle",
      llvm::cl::desc("Run -layout-xor-swizzle after the tile pass, so that "
                     "every workgroup buffer gets the swizzle proved to "
                     "remove its bank conflicts (default true; false keeps "
                     "the layouts as written)"),
      llvm::cl::init(true)};
};

struct LayoutToROCDLOptions : public GpuPipelineOptions<LayoutToROCDLOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("AMDGPU chip: gfx90a, gfx942, "
                                          "gfx950, gfx1100, ..., with "
                                          "target-id features as in "
                                          "gfx942:xnack- (default: the "
                                          "gpu.modules' #rocdl.target "
                                          "chip, else gfx942; an option "
                                          "that disagrees with a target is "
                                          "an error)"),
                           llvm::cl::init("")};
  Option<std::string> rocmPath{
      *this, "rocm-path",
      llvm::cl::desc("Directory with amdgcn/bitcode and llvm/bin/ld.lld "
                     "(found automatically when empty)"),
      llvm::cl::init("")};
};

struct LayoutToNVVMOptions : public GpuPipelineOptions<LayoutToNVVMOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("CUDA chip: sm_80, sm_90, sm_90a, ... (default: the "
                     "gpu.modules' #nvvm.target chip, else sm_90; an option "
                     "that disagrees with a target is an error)"),
      llvm::cl::init("")};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit with bin/ptxas (default: $CUDA_PATH, "
                     "else /usr/local/cuda, whichever has bin/ptxas, else "
                     "ptxas on PATH)"),
      llvm::cl::init("")};
  Option<bool> ftz{
      *this, "ftz",
      llvm::cl::desc("Attach targets with the ftz flag: f32 math.exp2 "
                     "becomes ex2.approx.ftz.f32, subnormal results flushed "
                     "to zero (-layout-exp2-to-nvvm; as Triton's libdevice "
                     "linking and nvcc --use_fast_math), instead of "
                     "libdevice's subnormal handling (default false; a "
                     "gpu.module's own #nvvm.target decides for it)"),
      llvm::cl::init(false)};
};

/// `-layout-to-rocdl`: layout IR in gpu.modules down to a gpu.binary that
/// holds an AMDGPU code object for `chip`.
void buildLayoutToROCDLPipeline(OpPassManager &pm,
                                const LayoutToROCDLOptions &options);

/// `-layout-to-nvvm`: the same down to a CUDA cubin (PTX with format=isa).
void buildLayoutToNVVMPipeline(OpPassManager &pm,
                               const LayoutToNVVMOptions &options);

/// Registers the pipelines with the pass registry (`layout-opt` flags).
void registerLayoutPipelines();

} // namespace layout
} // namespace mlir

#endif // LAYOUT_PIPELINES_PIPELINES_H
