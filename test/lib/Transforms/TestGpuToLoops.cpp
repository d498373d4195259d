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
// host memory) and runs the kernel body cut into pieces (GpuToLoopsPlan.h)
// at its `gpu.barrier`s: each piece becomes a loop nest over the block's
// threads, so every thread finishes a piece before any starts the next,
// which is what the barrier guarantees. A wave-level matrix instruction
// (amdgpu.mfma, amdgpu.wmma, nvgpu.mma.sync) is a piece of its own that
// runs once per wave, lane by lane from the instruction's register layouts
// (MatrixEmulation.h); so is the warp-collective load nvgpu.ldmatrix, from
// the PTX ISA's semantics. An scf.for whose bounds are the same in every
// thread of the block and whose body holds a barrier or a wave-collective
// op (a GEMM's K loop) is a piece of its own too: one host loop per block, its
// body the pieces of the loop's body, its bounds computed once, its
// iter_args and results kept per thread in host memory; so is an scf.if
// on a block-uniform condition with a barrier or such an op in a branch
// (a K loop versioned on its operands' alignment). Pure values of
// other pieces are recomputed where used; other values are kept per thread
// in host memory. A test declares the host functions it calls
// (`func.func private @<kernel>_host(...)`); the pass replaces the
// declarations. The gpu.modules are then removed. Kernels with a barrier
// or a matrix instruction in any other region get a diagnostic.
//
// Asynchronous copies (nvgpu.device_async_copy, PTX cp.async) run as
// synchronous ones, zero-filling past `srcElements`, and their group
// commits and waits (nvvm.cp.async.commit.group / wait.group) go: the CPU
// run checks what a pipeline copies where, not that it waits long enough
// (the GPU runs check that). wgmma's fences, commits and waits
// (nvvm.wgmma.*) go too: layout.warpgroup_mma runs synchronously. TMA box
// copies and mbarriers run as BulkCopyEmulation.h says.
//
// A test pass: it lives in test/lib and only layout-opt registers it.
//
//===----------------------------------------------------------------------===//

#include "BulkCopyEmulation.h"
#include "Float8Emulation.h"
#include "GpuToLoopsPlan.h"
#include "MatrixEmulation.h"

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

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

/// Turns one kernel into its host function.
class KernelToLoops {
public:
  KernelToLoops(gpu::GPUFuncOp kernel, ModuleOp top)
      : kernel(kernel), top(top), plan(kernel) {}

  LogicalResult run();

private:
  LogicalResult createHost(OpBuilder &b);
  /// Asynchronous copies as synchronous ones (file comment).
  void synchronizeAsyncCopies();
  /// This block's memory: attributions and the kept values' buffers.
  void allocateBlockMemory(OpBuilder &b);
  /// What allocateBlockMemory allocated, freed at the block's end.
  SmallVector<Value> blockMemory;
  LogicalResult emitPieces(OpBuilder &b, const Pieces &pieces);
  /// The loops of a thread piece: every thread of the block in turn.
  void emitThreadPiece(OpBuilder &b, const Piece &piece);
  /// A wave-collective op: once per wave, lane by lane.
  LogicalResult emitWavePiece(OpBuilder &b, Operation *op);
  /// A uniform loop: one host loop, its body the pieces of the loop's.
  LogicalResult emitLoopPiece(OpBuilder &b, const Piece &piece);
  /// A uniform if: one host if, its branches the pieces of the if's.
  LogicalResult emitIfPiece(OpBuilder &b, const Piece &piece);
  /// Stores one thread's `values` into the buffers of `loop`'s iter_args.
  void storeIterArgs(OpBuilder &b, scf::ForOp loop, ValueRange values,
                     IRMapping &map, Value tid);
  /// A uniform value, computed once on the host (as thread 0 would).
  Value hostUniform(OpBuilder &b, Value v, IRMapping &map);
  /// Clones `op` for the thread whose values `map` holds.
  void cloneForThread(OpBuilder &b, Operation *op, IRMapping &map,
                      ArrayRef<Value> threadId);
  /// The linear id of thread `threadId` (x fastest).
  Value linearId(OpBuilder &b, ArrayRef<Value> threadId);
  /// The host buffer (memref<threads x T>) that holds `v`.
  Value bufferOf(Value v) const { return keptBuffer.lookup(plan.storageOf(v)); }

  gpu::GPUFuncOp kernel;
  ModuleOp top;
  KernelPlan plan;
  SmallVector<int64_t, 3> block;
  int64_t threads = 1;
  DenseMap<Value, Value> keptBuffer;
  /// Values the same in every thread: the kernel's arguments and
  /// attributions, and the induction variables of the host loops.
  IRMapping base;
  Location loc = kernel.getLoc();
  /// The host function's entry block (scratch memory of the emulations).
  Block *entry = nullptr;
  Value zero, one;
  Value grid[3];
  Value blockId[3];
  Value blockDim[3];
};

Value KernelToLoops::linearId(OpBuilder &b, ArrayRef<Value> threadId) {
  // x + bx * (y + by * z)
  Value inner = arith::AddIOp::create(
      b, loc, threadId[1],
      arith::MulIOp::create(b, loc, blockDim[1], threadId[2]));
  return arith::AddIOp::create(
      b, loc, threadId[0], arith::MulIOp::create(b, loc, blockDim[0], inner));
}

void KernelToLoops::cloneForThread(OpBuilder &b, Operation *op, IRMapping &map,
                                   ArrayRef<Value> threadId) {
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return map.map(t.getResult(), threadId[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::BlockIdOp>(op))
    return map.map(t.getResult(), blockId[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::BlockDimOp>(op))
    return map.map(t.getResult(), blockDim[dimIndex(t.getDimension())]);
  if (auto t = dyn_cast<gpu::GridDimOp>(op))
    return map.map(t.getResult(), grid[dimIndex(t.getDimension())]);
  // A view of a workgroup buffer: a view of its host buffer.
  if (auto view = dyn_cast<memref::ViewOp>(op);
      view && view.getType().getMemorySpace()) {
    auto viewOp = memref::ViewOp::create(
        b, view.getLoc(), hostType(view.getType()),
        map.lookupOrDefault(view.getSource()),
        map.lookupOrDefault(view.getByteShift()),
        llvm::map_to_vector(view.getSizes(),
                            [&](Value v) { return map.lookupOrDefault(v); }));
    return map.map(view.getResult(), viewOp.getResult());
  }
  // A reinterpretation of one (the epilogue's C buffer over a staging
  // buffer): of its host buffer.
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op);
      cast && cast.getType().getMemorySpace()) {
    Operation *copy = b.clone(*op, map);
    copy->getResult(0).setType(hostType(cast.getType()));
    return map.map(cast.getResult(), copy->getResult(0));
  }
  b.clone(*op, map);
}

Value KernelToLoops::hostUniform(OpBuilder &b, Value v, IRMapping &map) {
  if (Value known = map.lookupOrNull(v))
    return known;
  // Not an argument: a uniform chain of side-effect-free ops (the plan
  // checked), which contains no thread id.
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands())
    hostUniform(b, operand, map);
  cloneForThread(b, def, map, {zero, zero, zero});
  return map.lookup(v);
}

void KernelToLoops::storeIterArgs(OpBuilder &b, scf::ForOp loop,
                                  ValueRange values, IRMapping &map,
                                  Value tid) {
  for (auto [arg, v] : llvm::zip_equal(loop.getRegionIterArgs(), values))
    memref::StoreOp::create(b, loc, map.lookup(v), keptBuffer.lookup(arg), tid);
}

void KernelToLoops::emitThreadPiece(OpBuilder &b, const Piece &piece) {
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
  // Values of other pieces, read back or recomputed; then the piece's own
  // ops, each kept result written back for later pieces. The body's
  // scf.yield writes the next iteration's iter_args.
  for (Value v : piece.loads)
    map.map(v, memref::LoadOp::create(b, loc, bufferOf(v), tid));
  for (Operation *op : piece.recomputed)
    cloneForThread(b, op, map, threadId);
  for (Operation *op : piece.ops) {
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp())) {
        for (auto [result, v] :
             llvm::zip_equal(ifOp.getResults(), yield.getOperands()))
          memref::StoreOp::create(b, loc, map.lookup(v),
                                  keptBuffer.lookup(result), tid);
        continue;
      }
      storeIterArgs(b, cast<scf::ForOp>(yield->getParentOp()),
                    yield.getOperands(), map, tid);
      continue;
    }
    cloneForThread(b, op, map, threadId);
    for (Value result : op->getResults())
      if (plan.keptValues().contains(result))
        memref::StoreOp::create(b, loc, map.lookup(result),
                                keptBuffer.lookup(result), tid);
  }
  if (scf::ForOp next = piece.initializes)
    storeIterArgs(b, next, next.getInitArgs(), map, tid);
}

LogicalResult KernelToLoops::emitWavePiece(OpBuilder &b, Operation *op) {
  std::optional<int64_t> waveSize = waveSizeOf(op);
  if (!waveSize)
    return failure();
  if (threads % *waveSize)
    return op->emitError() << "runs in waves of " << *waveSize
                           << " lanes, but the block has " << threads
                           << " threads";
  OpBuilder::InsertionGuard guard(b);
  auto waves = scf::ForOp::create(
      b, loc, zero, arith::ConstantIndexOp::create(b, loc, threads),
      arith::ConstantIndexOp::create(b, loc, *waveSize));
  b.setInsertionPointToStart(waves.getBody());
  Value first = waves.getInductionVar();
  // Block-uniform operands (buffers, descriptors, constants) are computed
  // in this piece, before the loops the emulations open.
  IRMapping uniform = base;
  for (Value v : op->getOperands())
    if (!plan.storageOf(v))
      hostUniform(b, v, uniform);
  auto laneAt = [&](OpBuilder &lb, Value lane) -> Value {
    return arith::AddIOp::create(lb, loc, first, lane);
  };
  auto operandAt = [&](OpBuilder &lb, unsigned operand, Value lane) -> Value {
    Value v = op->getOperand(operand);
    if (!plan.storageOf(v))
      return hostUniform(lb, v, uniform);
    return memref::LoadOp::create(lb, loc, bufferOf(v), laneAt(lb, lane));
  };
  auto storeAt = [&](OpBuilder &lb, Value lane, Value r, Value v) {
    if (plan.keptValues().contains(r))
      memref::StoreOp::create(lb, loc, v, keptBuffer.lookup(r),
                              laneAt(lb, lane));
  };
  Value result = op->getResult(0);
  auto resultAt = [&](OpBuilder &lb, Value lane, Value d) {
    storeAt(lb, lane, result, d);
  };
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    emulateLdMatrix(b, loc, ldmatrix, operandAt, resultAt);
    return success();
  }
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    emulateShuffle(b, loc, shuffle, *waveSize, operandAt,
                   [&](OpBuilder &lb, Value lane, Value r, Value valid) {
                     storeAt(lb, lane, shuffle.getShuffleResult(), r);
                     storeAt(lb, lane, shuffle.getValid(), valid);
                   });
    return success();
  }
  const MatrixInstruction *inst = matrixInstructionOf(op);
  OpBuilder atEntry = OpBuilder::atBlockBegin(entry);
  MatrixTiles tiles = allocateMatrixTiles(atEntry, loc, *inst);
  if (inst->family == MatrixFamily::Wgmma)
    emulateWarpgroupMma(b, loc, op, *inst, tiles, operandAt, resultAt);
  else
    emulateMatrixInstruction(b, loc, op, *inst, tiles, operandAt, resultAt);
  return success();
}

LogicalResult KernelToLoops::emitLoopPiece(OpBuilder &b, const Piece &piece) {
  auto loop = cast<scf::ForOp>(piece.op());
  IRMapping uniform = base;
  Value lower = hostUniform(b, loop.getLowerBound(), uniform);
  Value upper = hostUniform(b, loop.getUpperBound(), uniform);
  Value step = hostUniform(b, loop.getStep(), uniform);
  auto host = scf::ForOp::create(b, loc, lower, upper, step, ValueRange{},
                                 nullptr, loop.getUnsignedCmp());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(host.getBody());
  base.map(loop.getInductionVar(), host.getInductionVar());
  return emitPieces(b, piece.body);
}

LogicalResult KernelToLoops::emitIfPiece(OpBuilder &b, const Piece &piece) {
  auto ifOp = cast<scf::IfOp>(piece.op());
  IRMapping uniform = base;
  Value cond = hostUniform(b, ifOp.getCondition(), uniform);
  auto host = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(host.thenBlock()->getTerminator());
  if (failed(emitPieces(b, piece.body)))
    return failure();
  b.setInsertionPoint(host.elseBlock()->getTerminator());
  return emitPieces(b, piece.elseBody);
}

LogicalResult KernelToLoops::emitPieces(OpBuilder &b, const Pieces &pieces) {
  for (const std::unique_ptr<Piece> &piece : pieces) {
    switch (piece->kind) {
    case Piece::Kind::Threads:
      if (!piece->empty())
        emitThreadPiece(b, *piece);
      break;
    case Piece::Kind::Wave:
      if (failed(emitWavePiece(b, piece->op())))
        return failure();
      break;
    case Piece::Kind::Loop:
      if (failed(emitLoopPiece(b, *piece)))
        return failure();
      break;
    case Piece::Kind::If:
      if (failed(emitIfPiece(b, *piece)))
        return failure();
      break;
    }
  }
  return success();
}

void KernelToLoops::allocateBlockMemory(OpBuilder &b) {
  // Host buffers as aligned as the kernel declares its workgroup buffers
  // (llvm.align), so that the vector accesses' alignment claims hold. On
  // the heap: a block's memory on the stack would grow the host function's
  // frame by that much per block.
  auto alloc = [&](MemRefType type, int64_t align = 0) {
    Value m = memref::AllocOp::create(
        b, loc, type, align ? b.getI64IntegerAttr(align) : IntegerAttr());
    blockMemory.push_back(m);
    return m;
  };
  for (auto [i, wg] : llvm::enumerate(kernel.getWorkgroupAttributions()))
    base.map(wg, alloc(hostType(cast<MemRefType>(wg.getType())),
                       askedAttributionAlignment(kernel, i)));
  for (BlockArgument pv : kernel.getPrivateAttributions())
    base.map(pv, alloc(hostType(cast<MemRefType>(pv.getType()))));
  for (Value v : plan.keptValues())
    keptBuffer[v] = alloc(MemRefType::get({threads}, v.getType()));
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
  entry = host.addEntryBlock();
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
  allocateBlockMemory(b);
  for (int d = 0; d < 3; ++d)
    blockDim[d] = arith::ConstantIndexOp::create(b, loc, block[d]);
  if (failed(emitPieces(b, plan.pieces())))
    return failure();
  for (Value m : blockMemory)
    memref::DeallocOp::create(b, loc, m);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  return success();
}

void KernelToLoops::synchronizeAsyncCopies() {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCopyOp, NVVM::CpAsyncCommitGroupOp,
            NVVM::CpAsyncWaitGroupOp, NVVM::WgmmaFenceAlignedOp,
            NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
            NVVM::FenceProxyOp, NVVM::FenceMbarrierInitOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      OpBuilder b(copy);
      Location l = copy.getLoc();
      auto dst = cast<MemRefType>(copy.getDst().getType());
      auto type = VectorType::get({copy.getDstElements().getSExtValue()},
                                  dst.getElementType());
      Value count = copy.getSrcElements();
      if (!count)
        count = arith::ConstantIndexOp::create(b, l, type.getNumElements());
      Value mask = vector::CreateMaskOp::create(
          b, l, VectorType::get(type.getShape(), b.getI1Type()), count);
      Value zeros = arith::ConstantOp::create(
          b, l, type,
          DenseElementsAttr::get(type, b.getZeroAttr(dst.getElementType())));
      Value v = vector::MaskedLoadOp::create(b, l, type, copy.getSrc(),
                                             copy.getSrcIndices(), mask, zeros);
      vector::StoreOp::create(b, l, v, copy.getDst(), copy.getDstIndices());
    }
    op->erase();
  }
}

LogicalResult KernelToLoops::run() {
  std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
  if (!known)
    return kernel.emitError() << "needs known_block_size to run as loops";
  block.assign(known->begin(), known->end());
  block.resize(3, 1);
  threads = block[0] * block[1] * block[2];
  synchronizeAsyncCopies();
  emulateBulkCopies(kernel);
  if (failed(plan.build()))
    return failure();
  OpBuilder b = OpBuilder::atBlockEnd(top.getBody());
  return createHost(b);
}

/// Replaces each nvvm.convert.float.to.tf32 <rna> (cvt.rna.tf32.f32, which
/// the tile programs put before tf32 mma.sync) by its result computed on
/// the bits: the f32 rounded to 10 explicit mantissa bits, to nearest with
/// ties away from zero (PTX ISA, "cvt": .rna), the low 13 bits zero. Other
/// rounding modes have no emulation.
static LogicalResult emulateTf32Conversions(ModuleOp top) {
  SmallVector<NVVM::ConvertFloatToTF32Op> cvts;
  top.walk([&](NVVM::ConvertFloatToTF32Op op) { cvts.push_back(op); });
  for (NVVM::ConvertFloatToTF32Op op : cvts) {
    if (op.getRnd() != NVVM::FPRoundingMode::RNA || op.getRelu() ||
        op.getSat() != NVVM::SaturationMode::NONE)
      return op.emitError() << "has no emulation: only cvt.rna.tf32.f32 "
                               "(rnd = rna, no relu or saturation) has one";
    OpBuilder b(op);
    Value rounded = roundMantissa(b, op.getLoc(), op.getSrc(), 10,
                                  MatrixInputPrecision::Rounding::NearestAway);
    op.replaceAllUsesWith(
        arith::BitcastOp::create(b, op.getLoc(), op.getType(), rounded)
            .getResult());
    op.erase();
  }
  return success();
}

struct TestGpuToLoopsPass final
    : PassWrapper<TestGpuToLoopsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGpuToLoopsPass)

  StringRef getArgument() const final { return "layout-test-gpu-to-loops"; }
  StringRef getDescription() const final {
    return "Test only: run kernels on the CPU as loops over threads";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<func::FuncDialect, memref::MemRefDialect, scf::SCFDialect,
                    arith::ArithDialect, vector::VectorDialect,
                    cf::ControlFlowDialect, LayoutDialect>();
  }

  void runOnOperation() override {
    ModuleOp top = getOperation();
    if (failed(emulateTf32Conversions(top)) ||
        failed(emulateFloat8Truncations(top)) ||
        failed(vectorizeMatrixIntrinsicResults(top)))
      return signalPassFailure();
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
