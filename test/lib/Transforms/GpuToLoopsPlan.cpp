//===- GpuToLoopsPlan.cpp - How a kernel runs as host loops ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "GpuToLoopsPlan.h"
#include "MatrixEmulation.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::test;

namespace {

/// A gpu.barrier or wave-collective op inside `op`'s regions, or null.
Operation *nestedSync(Operation *op) {
  Operation *found = nullptr;
  op->walk([&](Operation *inner) {
    if (inner != op &&
        (isa<gpu::BarrierOp>(inner) || isWaveCollective(inner))) {
      found = inner;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Pure ops a piece recomputes rather than reading from host memory.
bool recomputable(Operation *op) {
  return isPure(op) && op->getNumRegions() == 0 && !isWaveCollective(op);
}

Piece &addPiece(Pieces &pieces, Piece::Kind kind) {
  pieces.push_back(std::make_unique<Piece>());
  pieces.back()->kind = kind;
  return *pieces.back();
}

} // namespace

LogicalResult KernelPlan::build() {
  if (failed(split(kernel.getBody().front(), top)))
    return failure();
  plan(top);
  return checkKept();
}

LogicalResult KernelPlan::split(Block &block, Pieces &out) {
  // Every body starts and ends with a thread piece, and one follows each
  // wave and loop piece: a loop's init operands are stored at the end of
  // the thread piece before it, its body's scf.yield is in its last one.
  addPiece(out, Piece::Kind::Threads);
  for (Operation &op : block) {
    if (isa<gpu::BarrierOp>(op)) {
      addPiece(out, Piece::Kind::Threads);
      continue;
    }
    if (isa<gpu::ReturnOp>(op))
      continue;
    if (isWaveCollective(&op)) {
      if (!waveSizeOf(&op))
        return failure();
      Piece &piece = addPiece(out, Piece::Kind::Wave);
      piece.ops.push_back(&op);
      pieceOf[&op] = &piece;
      addPiece(out, Piece::Kind::Threads);
      continue;
    }
    Operation *sync = nestedSync(&op);
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && sync) {
      if (failed(addLoop(loop, out)))
        return failure();
      addPiece(out, Piece::Kind::Threads);
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && sync) {
      if (failed(addIf(ifOp, out)))
        return failure();
      addPiece(out, Piece::Kind::Threads);
      continue;
    }
    if (sync)
      return sync->emitError()
             << "is nested in an op other than a block-uniform scf.for or "
                "scf.if: it cannot run as loops";
    out.back()->ops.push_back(&op);
    pieceOf[&op] = out.back().get();
  }
  return success();
}

LogicalResult KernelPlan::addLoop(scf::ForOp loop, Pieces &out) {
  if (!isUniform(loop.getLowerBound()) || !isUniform(loop.getUpperBound()) ||
      !isUniform(loop.getStep()))
    return loop.emitError()
           << "has a gpu.barrier or a wave-collective op in its body but "
              "bounds that are not the same in every thread of a block: it "
              "cannot run as loops";
  out.back()->initializes = loop;
  Piece &piece = addPiece(out, Piece::Kind::Loop);
  piece.ops.push_back(loop);
  pieceOf[loop] = &piece;
  // Per-thread values carried from one iteration to the next.
  for (Value arg : loop.getRegionIterArgs())
    kept.insert(arg);
  return split(*loop.getBody(), piece.body);
}

LogicalResult KernelPlan::addIf(scf::IfOp ifOp, Pieces &out) {
  if (!isUniform(ifOp.getCondition()))
    return ifOp.emitError()
           << "has a gpu.barrier or a wave-collective op in a branch but a "
              "condition that is not the same in every thread of a block: "
              "it cannot run as loops";
  Piece &piece = addPiece(out, Piece::Kind::If);
  piece.ops.push_back(ifOp);
  pieceOf[ifOp] = &piece;
  // Each thread's results, written by the branches' scf.yield.
  for (Value result : ifOp.getResults())
    kept.insert(result);
  if (failed(split(ifOp.getThenRegion().front(), piece.body)))
    return failure();
  if (ifOp.getElseRegion().empty())
    return success();
  return split(ifOp.getElseRegion().front(), piece.elseBody);
}

bool KernelPlan::isUniform(Value v) {
  if (auto it = uniform.find(v); it != uniform.end())
    return it->second;
  bool result = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    result = arg.getOwner() == &kernel.getBody().front() || isInductionVar(v);
  } else {
    Operation *def = v.getDefiningOp();
    StringRef dialect = def->getName().getDialectNamespace();
    if (isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(def))
      result = true;
    else if (dialect == "gpu" || dialect == "amdgpu" || dialect == "nvgpu")
      result = false; // Thread, lane and wave ids; shuffles; matrix ops.
    else
      result = def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
               llvm::all_of(def->getOperands(),
                            [&](Value operand) { return isUniform(operand); });
  }
  uniform[v] = result;
  return result;
}

bool KernelPlan::isLoopPiece(Operation *op) const {
  auto it = pieceOf.find(op);
  return it != pieceOf.end() && it->second->kind == Piece::Kind::Loop;
}

bool KernelPlan::isInductionVar(Value v) const {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return false;
  Operation *parent = arg.getOwner()->getParentOp();
  return isLoopPiece(parent) && cast<scf::ForOp>(parent).getInductionVar() == v;
}

Piece *KernelPlan::holder(Value v) const {
  Operation *func = kernel;
  Operation *at = v.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    at = arg.getOwner()->getParentOp();
    if (at == func)
      return nullptr;
  }
  // The op in a piece's body that `v`'s definition is in.
  for (; at && at != func; at = at->getParentOp())
    if (auto it = pieceOf.find(at); it != pieceOf.end())
      return it->second;
  return nullptr;
}

Value KernelPlan::storageOf(Value v) const {
  if (kept.contains(v))
    return v;
  auto result = dyn_cast<OpResult>(v);
  if (result && isLoopPiece(result.getOwner()))
    return cast<scf::ForOp>(result.getOwner())
        .getRegionIterArgs()[result.getResultNumber()];
  return {};
}

void KernelPlan::need(Piece &user, Value v) {
  Piece *from = holder(v);
  if (!from || from == &user || isInductionVar(v))
    return;
  if (storageOf(v)) {
    user.loads.insert(v);
    return;
  }
  Operation *def = v.getDefiningOp();
  if (def && recomputable(def)) {
    if (user.recomputed.contains(def))
      return;
    for (Value operand : def->getOperands())
      need(user, operand);
    user.recomputed.insert(def);
    return;
  }
  kept.insert(v);
  user.loads.insert(v);
}

void KernelPlan::planWave(Piece &piece) {
  // Each lane's operands are read from the threads' values; block-uniform
  // ones (layout.warpgroup_mma's descriptors) are computed on the host.
  for (Value operand : piece.op()->getOperands())
    if (holder(operand) && !isInductionVar(operand) && !storageOf(operand) &&
        !isUniform(operand))
      kept.insert(operand);
}

void KernelPlan::plan(Pieces &pieces) {
  for (std::unique_ptr<Piece> &piece : pieces) {
    if (piece->kind == Piece::Kind::Wave) {
      planWave(*piece);
      continue;
    }
    if (piece->kind == Piece::Kind::Loop) {
      plan(piece->body);
      continue;
    }
    if (piece->kind == Piece::Kind::If) {
      plan(piece->body);
      plan(piece->elseBody);
      continue;
    }
    for (Operation *op : piece->ops)
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          need(*piece, operand);
      });
    if (piece->initializes)
      for (Value init : piece->initializes.getInitArgs())
        need(*piece, init);
  }
}

LogicalResult KernelPlan::checkKept() {
  for (Value v : kept) {
    if (!isa<MemRefType>(v.getType()) &&
        MemRefType::isValidElementType(v.getType()))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner()->getParentOp()->emitError()
             << "carries a value from one iteration to the next that cannot "
                "be kept in host memory; it cannot run as loops";
    return v.getDefiningOp()->emitError()
           << "computes a value that a later piece of the kernel uses and "
              "that cannot be kept in host memory; it cannot run as loops";
  }
  return success();
}
