//===- DynamicSharedMemory.cpp - Large workgroup buffers on NVIDIA --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-dynamic-shared-memory: a kernel whose workgroup attributions
// exceed the chip's static shared-memory limit takes them from dynamic
// shared memory instead, and exports the byte count its launcher passes.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/TargetChip.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTDYNAMICSHAREDMEMORY
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

struct LayoutDynamicSharedMemory final
    : layout::impl::LayoutDynamicSharedMemoryBase<LayoutDynamicSharedMemory> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return WalkResult::advance();
      FailureOr<Chip> memory =
          resolveChip(func, chip, "-layout-dynamic-shared-memory", "sm_90");
      if (failed(memory) || failed(convert(func, *memory)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult convert(gpu::GPUFuncOp func, const Chip &memory) {
    SmallVector<BlockArgument> buffers =
        llvm::to_vector(func.getWorkgroupAttributions());
    WorkgroupLayout layout = layoutWorkgroupBuffers(func);
    int64_t total = layout.bytes;
    if (total <= memory.maxStaticBytes)
      return success();
    if (layout.unplaceable)
      return func.emitOpError()
             << "workgroup attribution #" << *layout.unplaceable
             << " is not a static, identity-layout memref of whole bytes; "
                "cannot place it in dynamic shared memory";
    if (total > memory.maxBlockBytes)
      return func.emitOpError()
             << "needs " << total << " bytes of workgroup memory; "
             << memory.name << " allows " << memory.maxBlockBytes
             << " bytes per block";

    MLIRContext *ctx = func.getContext();
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Location loc = func.getLoc();
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                     MemRefLayoutAttrInterface(), workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    for (auto [a, offset] : llvm::zip_equal(buffers, layout.offsets)) {
      Value at = arith::ConstantIndexOp::create(b, a.getLoc(), offset);
      Value view = memref::ViewOp::create(b, a.getLoc(), a.getType(), base, at,
                                          ValueRange());
      a.replaceAllUsesWith(view);
    }
    // Drop the attributions: they are the entry block's last arguments.
    unsigned first = func.getFunctionType().getNumInputs();
    unsigned count = buffers.size();
    entry.eraseArguments(first, count);
    func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                  b.getI64IntegerAttr(0));
    func->removeAttr(func.getWorkgroupAttribAttrsAttrName());
    func->setAttr(kDynamicSharedMemoryBytesAttr, b.getI64IntegerAttr(total));

    // The launcher's copy of the size, from the code object itself.
    auto module = func->getParentOfType<gpu::GPUModuleOp>();
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    std::string name = (func.getName() + "_dynamic_shared_bytes").str();
    if (SymbolTable::lookupSymbolIn(module, name))
      return func.emitOpError() << "cannot export its dynamic shared memory "
                                   "size: the module already has a symbol '"
                                << name << "'";
    LLVM::GlobalOp::create(mb, loc, mb.getI32Type(), /*isConstant=*/true,
                           LLVM::Linkage::External, name,
                           mb.getI32IntegerAttr(int32_t(total)),
                           /*alignment=*/4, /*addrSpace=*/4);
    return success();
  }
};

} // namespace
