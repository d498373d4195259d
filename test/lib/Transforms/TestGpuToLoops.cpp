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
// what the barrier guarantees. A wave-level matrix instruction at the top
// level (amdgpu.mfma, amdgpu.wmma, nvgpu.mma.sync) is a piece of its own
// that runs once per wave, lane by lane from the instruction's register
// layouts (MatrixEmulation.h). Pure values of earlier pieces are recomputed
// in later ones; other values an earlier piece computed are kept per thread
// in host memory. A test declares the host functions it calls
// (`func.func private @<kernel>_host(...)`); the pass replaces the
// declarations. The gpu.modules are then removed. Kernels whose barriers or
// matrix instructions are not at the top level get a diagnostic.
//
// A test pass: it lives in test/lib and only layout-opt registers it.
//
//===----------------------------------------------------------------------===//

#include "MatrixEmulation.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::test;

namespace {

int dimIndex(gpu::Dimension d) {
  return d == gpu::Dimension::x ? 0 : d == gpu::Dimension::y ? 1 : 2;
}

/// `type` without its memory space (host memory).
MemRefType hostType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout());
}

/// Ops of the kernel body that every thread runs before any thread runs
/// the next piece, or one matrix instruction (run per wave).
struct Piece {
  SmallVector<Operation *> ops;
  Operation *matrix = nullptr;
};

/// Turns one kernel into its host function.
class KernelToLoops {
public:
  KernelToLoops(gpu::GPUFuncOp kernel, ModuleOp top)
      : kernel(kernel), top(top), body(kernel.getBody().front()) {}

  LogicalResult run();

private:
  LogicalResult splitPieces();
  /// Which values of earlier pieces later pieces recompute (pure ops) and
  /// which they read back from per-thread host memory.
  void planValues();
  void need(Value v);
  bool topLevel(Value v) const {
    return v.getDefiningOp() && v.getDefiningOp()->getBlock() == &body;
  }
  LogicalResult createHost(OpBuilder &b);
  /// The loops of a thread piece: every thread of the block in turn.
  void emitThreadPiece(OpBuilder &b, size_t index);
  LogicalResult emitMatrixPiece(OpBuilder &b, Operation *op);
  /// Clones `op` for the thread whose values `map` holds.
  void cloneForThread(OpBuilder &b, Operation *op, IRMapping &map,
                      ArrayRef<Value> threadId);
  /// The linear id of thread `threadId` (x fastest).
  Value linearId(OpBuilder &b, ArrayRef<Value> threadId);

  gpu::GPUFuncOp kernel;
  ModuleOp top;
  Block &body;
  SmallVector<int64_t, 3> block;
  int64_t threads = 1;
  SmallVector<Piece> pieces;
  DenseMap<Operation *, size_t> pieceOf;
  /// Values kept per thread, with their host buffers (memref<threads x T>).
  llvm::SetVector<Value> kept;
  DenseMap<Value, Value> keptBuffer;
  /// Pure ops recomputed where later pieces use them.
  DenseSet<Operation *> recomputed;
  IRMapping base;
  Location loc = kernel.getLoc();
  Value zero, one;
  Value grid[3];
  Value blockId[3];
  Value blockDim[3];
};

LogicalResult KernelToLoops::splitPieces() {
  pieces.emplace_back();
  for (Operation &op : body) {
    if (isa<gpu::BarrierOp>(op)) {
      pieces.emplace_back();
      continue;
    }
    if (isa<gpu::ReturnOp>(op))
      continue;
    WalkResult nested = op.walk([&](Operation *inner) {
      if (inner != &op &&
          (isa<gpu::BarrierOp>(inner) || isMatrixInstruction(inner))) {
        inner->emitError() << "is not at the top level of the kernel body: "
                              "it cannot run as loops";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return failure();
    if (isMatrixInstruction(&op)) {
      if (!matrixInstructionOf(&op))
        return failure();
      pieces.emplace_back().matrix = &op;
      pieceOf[&op] = pieces.size() - 1;
      pieces.emplace_back();
      continue;
    }
    pieceOf[&op] = pieces.size() - 1;
    pieces.back().ops.push_back(&op);
  }
  return success();
}

void KernelToLoops::need(Value v) {
  if (!topLevel(v) || kept.contains(v))
    return;
  Operation *def = v.getDefiningOp();
  if (isPure(def) && def->getNumRegions() == 0 && !isMatrixInstruction(def)) {
    if (recomputed.insert(def).second)
      for (Value operand : def->getOperands())
        need(operand);
    return;
  }
  kept.insert(v);
}

void KernelToLoops::planValues() {
  for (auto [index, piece] : llvm::enumerate(pieces)) {
    if (piece.matrix) {
      // Each lane's operands are read from the threads' values.
      for (Value operand : piece.matrix->getOperands())
        if (topLevel(operand))
          kept.insert(operand);
      continue;
    }
    for (Operation *op : piece.ops)
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (topLevel(operand) && pieceOf[operand.getDefiningOp()] < index)
            need(operand);
      });
  }
}

Value KernelToLoops::linearId(OpBuilder &b, ArrayRef<Value> threadId) {
  // x + bx * (y + by * z)
  Value inner = arith::AddIOp::create(
      b, loc, threadId[1],
      arith::MulIOp::create(b, loc, blockDim[1], threadId[2]));
  return arith::AddIOp::create(
      b, loc, threadId[0], arith::MulIOp::create(b, loc, blockDim[0], inner));
}

void KernelToLoops::cloneForThread(OpBuilder &b, Operation *op,
                                   IRMapping &map, ArrayRef<Value> threadId) {
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return map.map(t.getResult(), threadId[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::BlockIdOp>(op))
    return map.map(t.getResult(), blockId[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::BlockDimOp>(op))
    return map.map(t.getResult(), blockDim[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::GridDimOp>(op))
    return map.map(t.getResult(), grid[dimIndex(t.getDimension())]);
  b.clone(*op, map);
}

void KernelToLoops::emitThreadPiece(OpBuilder &b, size_t index) {
  OpBuilder::InsertionGuard guard(b);
  // Threads: z, y, x.
  SmallVector<Value> threadId(3);
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, blockDim[d], one);
    b.setInsertionPointToStart(loop.getBody());
    threadId[d] = loop.getInductionVar();
  }
  Value tid = linearId(b, threadId);
  IRMapping map = base;
  // Kept values of earlier pieces, then recomputed pure ones, then the
  // piece's own ops (each kept result written back for later pieces).
  for (Value v : kept)
    if (pieceOf[v.getDefiningOp()] < index)
      map.map(v, memref::LoadOp::create(b, loc, keptBuffer[v], tid));
  for (size_t earlier = 0; earlier < index; ++earlier)
    for (Operation *op : pieces[earlier].ops)
      if (recomputed.contains(op))
        cloneForThread(b, op, map, threadId);
  for (Operation *op : pieces[index].ops) {
    cloneForThread(b, op, map, threadId);
    for (Value result : op->getResults())
      if (kept.contains(result))
        memref::StoreOp::create(b, loc, map.lookup(result),
                                keptBuffer[result], tid);
  }
}

LogicalResult KernelToLoops::emitMatrixPiece(OpBuilder &b, Operation *op) {
  const MatrixInstruction *inst = matrixInstructionOf(op);
  if (!inst)
    return failure();
  if (threads % inst->waveSize)
    return op->emitError() << "runs in waves of " << inst->waveSize
                           << " lanes, but the block has " << threads
                           << " threads";
  OpBuilder::InsertionGuard guard(b);
  auto waves = scf::ForOp::create(
      b, loc, zero, arith::ConstantIndexOp::create(b, loc, threads),
      arith::ConstantIndexOp::create(b, loc, inst->waveSize));
  b.setInsertionPointToStart(waves.getBody());
  Value first = waves.getInductionVar();
  auto laneId = [&](OpBuilder &lb, int64_t lane) -> Value {
    return arith::AddIOp::create(
        lb, loc, first, arith::ConstantIndexOp::create(lb, loc, lane));
  };
  auto laneOperand = [&](OpBuilder &lb, unsigned operand,
                         int64_t lane) -> Value {
    Value v = op->getOperand(operand);
    if (!topLevel(v))
      return base.lookup(v);
    return memref::LoadOp::create(lb, loc, keptBuffer[v], laneId(lb, lane));
  };
  Value result = op->getResult(0);
  auto laneResult = [&](OpBuilder &lb, int64_t lane, Value d) {
    if (kept.contains(result))
      memref::StoreOp::create(lb, loc, d, keptBuffer[result],
                              laneId(lb, lane));
  };
  emulateMatrixInstruction(b, loc, op, *inst, laneOperand, laneResult);
  return success();
}

LogicalResult KernelToLoops::createHost(OpBuilder &b) {
  // A declaration of the host function (how a test calls it before it
  // exists) is replaced.
  std::string hostName = (kernel.getName() + "_host").str();
  if (auto decl = top.lookupSymbol<func::FuncOp>(hostName)) {
    if (!decl.isDeclaration())
      return decl.emitError()
             << "'" << hostName << "' already exists and is not a declaration";
    decl.erase();
  }
  SmallVector<Type> argTypes(kernel.getArgumentTypes());
  IndexType index = b.getIndexType();
  argTypes.append({index, index, index});
  auto host =
      func::FuncOp::create(b, loc, hostName, b.getFunctionType(argTypes, {}));
  Block *entry = host.addEntryBlock();
  b.setInsertionPointToStart(entry);
  zero = arith::ConstantIndexOp::create(b, loc, 0);
  one = arith::ConstantIndexOp::create(b, loc, 1);
  unsigned nargs = kernel.getNumArguments();
  for (int d = 0; d < 3; ++d)
    grid[d] = entry->getArgument(nargs + d);
  for (unsigned i = 0; i < nargs; ++i)
    base.map(kernel.getArgument(i), entry->getArgument(i));
  // Blocks: z, y, x.
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, grid[d], one);
    b.setInsertionPointToStart(loop.getBody());
    blockId[d] = loop.getInductionVar();
  }
  // Memory of this block: workgroup and private attributions, and the
  // per-thread values kept across pieces.
  for (BlockArgument wg : kernel.getWorkgroupAttributions())
    base.map(wg, memref::AllocaOp::create(
                     b, loc, hostType(cast<MemRefType>(wg.getType()))));
  for (BlockArgument pv : kernel.getPrivateAttributions())
    base.map(pv, memref::AllocaOp::create(
                     b, loc, hostType(cast<MemRefType>(pv.getType()))));
  for (Value v : kept)
    keptBuffer[v] = memref::AllocaOp::create(
        b, loc, MemRefType::get({threads}, v.getType()));
  for (int d = 0; d < 3; ++d)
    blockDim[d] = arith::ConstantIndexOp::create(b, loc, block[d]);
  for (auto [index, piece] : llvm::enumerate(pieces)) {
    if (!piece.matrix) {
      emitThreadPiece(b, index);
      continue;
    }
    if (failed(emitMatrixPiece(b, piece.matrix)))
      return failure();
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  return success();
}

LogicalResult KernelToLoops::run() {
  std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
  if (!known)
    return kernel.emitError() << "needs known_block_size to run as loops";
  block.assign(known->begin(), known->end());
  block.resize(3, 1);
  threads = block[0] * block[1] * block[2];
  if (failed(splitPieces()))
    return failure();
  planValues();
  for (Value v : kept)
    if (isa<MemRefType>(v.getType()) || !MemRefType::isValidElementType(v.getType()))
      return v.getDefiningOp()->emitError()
             << "computes a value that a later piece of the kernel uses and "
                "that cannot be kept in host memory; it cannot run as loops";
  OpBuilder b = OpBuilder::atBlockEnd(top.getBody());
  return createHost(b);
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
                    scf::SCFDialect, arith::ArithDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules;
    top.walk([&](gpu::GPUModuleOp m) { modules.push_back(m); });
    for (gpu::GPUModuleOp m : modules)
      for (gpu::GPUFuncOp f : m.getOps<gpu::GPUFuncOp>())
        if (f.isKernel() && failed(KernelToLoops(f, top).run()))
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
};

} // namespace

namespace mlir {
namespace layout {
namespace test {
void registerTestGpuToLoopsPass() { PassRegistration<TestGpuToLoopsPass>(); }
} // namespace test
} // namespace layout
} // namespace mlir
