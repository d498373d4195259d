//===- Pipelines.cpp - The pass pipelines of layout-opt -------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Pipelines/Pipelines.h"
#include "layout/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void layout::addLayoutInlining(OpPassManager &pm) {
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
}

void layout::addLayoutLowering(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(layout::createConvertLayoutToVector());
  pm.addPass(layout::createConvertLayoutToAffine());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
}

void layout::buildLayoutToLLVMPipeline(OpPassManager &pm) {
  addLayoutInlining(pm);
  addLayoutLowering(pm);
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void layout::registerLayoutPipelines() {
  PassPipelineRegistration<>(
      "layout-to-llvm",
      "Lower layout IR to the LLVM dialect for the CPU (runs under "
      "mlir-runner)",
      buildLayoutToLLVMPipeline);
  PassPipelineRegistration<LayoutToROCDLOptions>(
      "layout-to-rocdl",
      "Lower layout IR in gpu.modules to a gpu.binary holding an AMDGPU code "
      "object: tile programs distributed, workgroup buffers swizzled (proved "
      "conflict-free; swizzle=false keeps them as written), for the chip "
      "option, else the gpu.module's #rocdl.target chip, else gfx942",
      buildLayoutToROCDLPipeline);
  PassPipelineRegistration<LayoutToNVVMOptions>(
      "layout-to-nvvm",
      "Lower layout IR in gpu.modules to a gpu.binary holding a CUDA cubin: "
      "tile programs distributed, workgroup buffers swizzled (proved "
      "conflict-free; swizzle=false keeps them as written), for the chip "
      "option, else the gpu.module's #nvvm.target chip, else sm_90",
      buildLayoutToNVVMPipeline);
}
