//===- TensorMapParams.cpp - Tensor maps passed by value ------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-tensor-map-params (Passes.td): after the GPU-to-NVVM conversion,
// the tensor-map parameters that -layout-bulk-tensor-to-nvvm appended to a
// kernel become by-value grid constants, as CUDA passes a
// `const __grid_constant__ CUtensorMap` (docs/tensor-maps.md).
//
//===----------------------------------------------------------------------===//

#include "BulkTensorToNVVM.h"

#include "layout/Conversion/Passes.h"
#include "layout/Runtime/TensorMapSpec.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTTENSORMAPPARAMS
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

struct LayoutTensorMapParamsPass
    : layout::impl::LayoutTensorMapParamsBase<LayoutTensorMapParamsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      auto count = func->getAttrOfType<IntegerAttr>(kTensorMapParamsAttr);
      if (!count)
        return;
      MLIRContext *ctx = func.getContext();
      Builder b(ctx);
      Type map = LLVM::LLVMArrayType::get(
          b.getI64Type(), runtime::kTensorMapBytes / sizeof(uint64_t));
      unsigned n = func.getNumArguments();
      for (unsigned i = n - count.getInt(); i < n; ++i) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(map));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(runtime::kTensorMapAlignment));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
      func->removeAttr(kTensorMapParamsAttr);
    });
  }
};

} // namespace
