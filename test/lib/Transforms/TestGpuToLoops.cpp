//===- TestGpuToLoops.cpp - Kernels as CPU loops, for tests ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-test-gpu-to-loops: for CPU tests of kernels' index arithmetic.
// Each `gpu.func` kernel with a `known_block_size` becomes a host function
// `@<kernel>_host(args..., %grid_x, %grid_y, %grid_z)` that loops over the
// blocks of the grid; per block it allocates the workgroup attributions (in
// host memory) and runs the kernel body split at its top-level
// `gpu.barrier`s: each piece becomes a loop nest over the block's threads,
// so every thread finishes a piece before any starts the next, which is
// what the barrier guarantees. Pure values of earlier pieces are recomputed
// in later ones. A test declares the host functions it calls
// (`func.func private @<kernel>_host(...)`); the pass replaces the
// declarations. The gpu.modules are then removed. Kernels whose barriers
// are not at the top level, or whose later pieces use a value an earlier
// piece loaded, get a diagnostic.
//
// A test pass: it lives in test/lib and only layout-opt registers it.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

int dimIndex(gpu::Dimension d) {
  return d == gpu::Dimension::x ? 0 : d == gpu::Dimension::y ? 1 : 2;
}

/// `type` without its memory space (host memory).
MemRefType hostType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout());
}

struct TestGpuToLoopsPass final
    : PassWrapper<TestGpuToLoopsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGpuToLoopsPass)

  StringRef getArgument() const final { return "layout-test-gpu-to-loops"; }
  StringRef getDescription() const final {
    return "Test only: run kernels on the CPU as loops over threads";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<func::FuncDialect, memref::MemRefDialect,
                    scf::SCFDialect, arith::ArithDialect>();
  }

  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules;
    top.walk([&](gpu::GPUModuleOp m) { modules.push_back(m); });
    for (gpu::GPUModuleOp m : modules)
      for (gpu::GPUFuncOp f : m.getOps<gpu::GPUFuncOp>())
        if (f.isKernel() && failed(convert(f, top)))
          return signalPassFailure();
    for (gpu::GPUModuleOp m : modules) {
      Operation *parent = m->getParentOp();
      m.erase();
      // An inner module left empty (the kernels' container) goes too.
      if (auto inner = dyn_cast<ModuleOp>(parent);
          inner && inner != top && inner.getBody()->empty())
        inner.erase();
    }
  }

  LogicalResult convert(gpu::GPUFuncOp kernel, ModuleOp top) {
    std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
    if (!known)
      return kernel.emitError() << "needs known_block_size to run as loops";
    SmallVector<int64_t, 3> block(known->begin(), known->end());
    block.resize(3, 1);
    Block &body = kernel.getBody().front();
    // The pieces between top-level barriers.
    SmallVector<SmallVector<Operation *>> pieces(1);
    bool nestedBarrier = false;
    for (Operation &op : body) {
      if (isa<gpu::BarrierOp>(op)) {
        pieces.emplace_back();
        continue;
      }
      if (isa<gpu::ReturnOp>(op))
        continue;
      op.walk([&](gpu::BarrierOp) { nestedBarrier = true; });
      pieces.back().push_back(&op);
    }
    if (nestedBarrier)
      return kernel.emitError()
             << "has a gpu.barrier that is not at the top level of its body";

    OpBuilder b = OpBuilder::atBlockEnd(top.getBody());
    Location loc = kernel.getLoc();
    // A declaration of the host function (how a test calls it before it
    // exists) is replaced.
    std::string hostName = (kernel.getName() + "_host").str();
    if (auto decl = top.lookupSymbol<func::FuncOp>(hostName)) {
      if (!decl.isDeclaration())
        return decl.emitError() << "'" << hostName
                                << "' already exists and is not a declaration";
      decl.erase();
    }
    SmallVector<Type> argTypes(kernel.getArgumentTypes());
    IndexType index = b.getIndexType();
    argTypes.append({index, index, index});
    auto host = func::FuncOp::create(b, loc, hostName,
                                      b.getFunctionType(argTypes, {}));
    Block *entry = host.addEntryBlock();
    b.setInsertionPointToStart(entry);
    auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    Value zero = cst(0), one = cst(1);
    unsigned nargs = kernel.getNumArguments();
    Value grid[3] = {entry->getArgument(nargs), entry->getArgument(nargs + 1),
                     entry->getArgument(nargs + 2)};
    // Blocks: z, y, x.
    SmallVector<Value> blockId(3);
    for (int d = 2; d >= 0; --d) {
      auto loop = scf::ForOp::create(b, loc, zero, grid[d], one);
      b.setInsertionPointToStart(loop.getBody());
      blockId[d] = loop.getInductionVar();
    }
    // Workgroup memory of this block.
    IRMapping base;
    for (unsigned i = 0; i < nargs; ++i)
      base.map(kernel.getArgument(i), entry->getArgument(i));
    for (BlockArgument wg : kernel.getWorkgroupAttributions())
      base.map(wg, memref::AllocaOp::create(
                       b, loc, hostType(cast<MemRefType>(wg.getType()))));
    for (BlockArgument pv : kernel.getPrivateAttributions())
      base.map(pv, memref::AllocaOp::create(
                       b, loc, hostType(cast<MemRefType>(pv.getType()))));
    Value blockDim[3] = {cst(block[0]), cst(block[1]), cst(block[2])};

    for (auto [k, piece] : llvm::enumerate(pieces)) {
      // Threads: z, y, x.
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Value> threadId(3);
      for (int d = 2; d >= 0; --d) {
        auto loop = scf::ForOp::create(b, loc, zero, blockDim[d], one);
        b.setInsertionPointToStart(loop.getBody());
        threadId[d] = loop.getInductionVar();
      }
      IRMapping map = base;
      auto cloneOp = [&](Operation *op) -> LogicalResult {
        if (auto t = dyn_cast<gpu::ThreadIdOp>(op)) {
          map.map(t.getResult(), threadId[dimIndex(t.getDimension())]);
          return success();
        }
        if (auto t = dyn_cast<gpu::BlockIdOp>(op)) {
          map.map(t.getResult(), blockId[dimIndex(t.getDimension())]);
          return success();
        }
        if (auto t = dyn_cast<gpu::BlockDimOp>(op)) {
          map.map(t.getResult(), blockDim[dimIndex(t.getDimension())]);
          return success();
        }
        if (auto t = dyn_cast<gpu::GridDimOp>(op)) {
          map.map(t.getResult(), grid[dimIndex(t.getDimension())]);
          return success();
        }
        b.clone(*op, map);
        return success();
      };
      // Recompute the pure values of the earlier pieces, then this one.
      for (size_t e = 0; e < k; ++e)
        for (Operation *op : pieces[e])
          if (isPure(op) && op->getNumRegions() == 0)
            (void)cloneOp(op);
      for (Operation *op : piece)
        (void)cloneOp(op);
      // A value from an earlier piece that could not be recomputed.
      for (Operation *op : piece) {
        WalkResult r = op->walk([&](Operation *inner) {
          for (Value operand : inner->getOperands())
            if (operand.getParentBlock() == &body && !map.contains(operand) &&
                !isa<BlockArgument>(operand))
              return WalkResult::interrupt();
          return WalkResult::advance();
        });
        if (r.wasInterrupted())
          return op->emitError()
                 << "uses a value that an earlier piece of the kernel "
                    "computed with side effects; it cannot run as loops";
      }
    }
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);
    return success();
  }
};

} // namespace

namespace mlir {
namespace layout {
namespace test {
void registerTestGpuToLoopsPass() { PassRegistration<TestGpuToLoopsPass>(); }
} // namespace test
} // namespace layout
} // namespace mlir
