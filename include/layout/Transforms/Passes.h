//===- Passes.h - Transformation passes of layout-opt -----------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_PASSES_H
#define LAYOUT_TRANSFORMS_PASSES_H

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace layout {

#define GEN_PASS_DECL
#include "layout/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Transforms/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_PASSES_H
