//===- WorkgroupBuffers.cpp - What a workgroup buffer's base promises -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;

int64_t mlir::layout::askedAttributionAlignment(gpu::GPUFuncOp func,
                                                unsigned index) {
  auto a = dyn_cast_or_null<IntegerAttr>(func.getWorkgroupAttributionAttr(
      index, LLVM::LLVMDialect::getAlignAttrName()));
  return a ? a.getInt() : 0;
}

int64_t mlir::layout::knownBaseAlignment(Value memref) {
  if (auto view = memref.getDefiningOp<memref::ViewOp>()) {
    int64_t base = knownBaseAlignment(view.getSource());
    auto cst = view.getByteShift().getDefiningOp<arith::ConstantIndexOp>();
    if (!cst)
      return 1;
    return std::gcd(base, cst.value() == 0 ? base : cst.value());
  }
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg)
    return 1;
  auto func = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getBody().front())
    return 1;
  for (auto [i, w] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (w == arg)
      return std::max<int64_t>(1, askedAttributionAlignment(func, i));
  return 1;
}

Value mlir::layout::workgroupByteAddress(OpBuilder &b, Location loc,
                                         Value buffer, Value element,
                                         int64_t elementBytes) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  return arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, element,
          arith::ConstantIndexOp::create(b, loc, elementBytes)));
}
