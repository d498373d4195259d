//===- LdMatrixSteps.cpp - ldmatrix tiles from bases and immediates -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-ldmatrix-steps (Passes.td): the ldmatrix reads of one buffer
// whose offsets are, in every thread, one of them with low bits flipped and
// a constant added become PTX `ldmatrix [base + imm]` from a few bases.
// The step is found and proved by evaluating each read's offset for every
// thread of the block (ThreadEvaluator), so it holds exactly where the
// kernel reads.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/InlinePtx.h"
#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTLDMATRIXSTEPS
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// The most threads a block evaluates (CUDA's limit).
constexpr int64_t kMaxThreads = 1024;

/// An index value of one thread: constants, gpu.thread_id, the arith ops
/// (through their folders) and layout.offset of a traced static
/// descriptor; std::nullopt for anything else.
class ThreadEvaluator {
public:
  ThreadEvaluator(ArrayRef<int64_t> block,
                  DenseMap<Value, std::optional<Descriptor>> &descriptors)
      : block(block), descriptors(descriptors) {}

  std::optional<int64_t> at(Value v, int64_t tid) {
    if (tid != thread) {
      memo.clear();
      thread = tid;
    }
    return eval(v);
  }

private:
  std::optional<int64_t> eval(Value v) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    std::optional<int64_t> r = compute(v);
    memo[v] = r;
    return r;
  }

  std::optional<int64_t> compute(Value v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return c;
    Operation *op = v.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      switch (id.getDimension()) {
      case gpu::Dimension::x:
        return thread % block[0];
      case gpu::Dimension::y:
        return thread / block[0] % block[1];
      case gpu::Dimension::z:
        return thread / (block[0] * block[1]);
      }
    }
    if (auto offset = dyn_cast<OffsetOp>(op)) {
      const std::optional<Descriptor> &d = traced(offset.getDesc());
      if (!d)
        return std::nullopt;
      SmallVector<int64_t> top;
      for (Value c : offset.getIndices()) {
        std::optional<int64_t> x = eval(c);
        if (!x)
          return std::nullopt;
        top.push_back(*x);
      }
      if (!d->valid(top))
        return std::nullopt;
      return d->offset(top);
    }
    if (op->getDialect() != op->getContext()->getLoadedDialect("arith") ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
      return std::nullopt;
    SmallVector<Attribute> operands;
    for (Value o : op->getOperands()) {
      std::optional<int64_t> x = eval(o);
      if (!x || !o.getType().isIntOrIndex())
        return std::nullopt;
      operands.push_back(IntegerAttr::get(o.getType(), *x));
    }
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(operands, folded)) || folded.size() != 1)
      return std::nullopt;
    // A fold to one of the operands (x / 1, x + 0): its value.
    if (auto same = dyn_cast_if_present<Value>(folded.front()))
      return same != v ? eval(same) : std::nullopt;
    auto attr = dyn_cast_if_present<IntegerAttr>(
        dyn_cast_if_present<Attribute>(folded.front()));
    if (!attr)
      return std::nullopt;
    return attr.getValue().getSExtValue();
  }

  const std::optional<Descriptor> &traced(Value desc) {
    auto it = descriptors.find(desc);
    if (it != descriptors.end())
      return it->second;
    std::optional<Descriptor> d;
    if (llvm::Expected<Descriptor> t = traceDescriptor(desc))
      d = std::move(*t);
    else
      llvm::consumeError(t.takeError());
    return descriptors[desc] = std::move(d);
  }

  ArrayRef<int64_t> block;
  DenseMap<Value, std::optional<Descriptor>> &descriptors;
  DenseMap<Value, std::optional<int64_t>> memo;
  int64_t thread = -1;
};

/// One ldmatrix whose offset every thread's evaluation gave.
struct Read {
  nvgpu::LdMatrixOp op;
  OffsetOp offset;
  SmallVector<int64_t> perThread;
};

/// (flip, add) with ((r ^ flip) + add) == x for every thread's offsets r
/// of `first` and x of `other`: flip below 2^k, add a multiple of 2^k, the
/// least such k; std::nullopt where none up to 2^40 holds.
std::optional<std::pair<int64_t, int64_t>> stepBetween(const Read &first,
                                                       const Read &other) {
  int64_t r0 = first.perThread.front(), x0 = other.perThread.front();
  for (int k = 0; k <= 40; ++k) {
    int64_t low = (int64_t(1) << k) - 1;
    int64_t flip = (r0 ^ x0) & low, add = (x0 & ~low) - (r0 & ~low);
    bool all = true;
    for (auto [r, x] : llvm::zip_equal(first.perThread, other.perThread))
      if (((r ^ flip) + add) != x) {
        all = false;
        break;
      }
    if (all)
      return std::pair{flip, add};
  }
  return std::nullopt;
}

/// PTX `ldmatrix` of `op` at byte address `base` + `immediate` (inline
/// PTX, with side effects so that it stays between the kernel's barriers),
/// its registers put back together as the op's result vector.
Value ldmatrixAt(OpBuilder &b, nvgpu::LdMatrixOp op, Value base,
                 int64_t immediate) {
  Location loc = op.getLoc();
  int64_t n = op.getNumTiles();
  std::string regs;
  for (int64_t i = 0; i < n; ++i)
    regs += llvm::formatv("{0}${1}", i ? ", " : "", i).str();
  std::string text = llvm::formatv(
      "ldmatrix.sync.aligned.m8n8.x{0}{1}.shared.b16 {{{2}}, [${3}+{4}];", n,
      op.getTranspose() ? ".trans" : "", regs, n, immediate);
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=r,";
  constraints += "r";
  Type i32 = b.getI32Type();
  Type result = n == 1 ? i32
                       : LLVM::LLVMStructType::getLiteral(
                             b.getContext(), SmallVector<Type>(n, i32));
  Value address = arith::IndexCastUIOp::create(b, loc, i32, base);
  auto asmOp = createInlinePtx(b, loc, result, ValueRange{address}, text,
                               constraints, /*sideEffects=*/true);
  VectorType type = op.getType();
  auto pair = VectorType::get({type.getDimSize(1)}, type.getElementType());
  Value vec = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  for (int64_t i = 0; i < n; ++i) {
    Value reg =
        n == 1 ? asmOp.getResult(0)
               : LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i)
                     .getResult();
    Value halves = LLVM::BitcastOp::create(b, loc, pair, reg);
    vec = vector::InsertOp::create(b, loc, halves, vec, i);
  }
  return vec;
}

/// Whether every operand of `op` dominates `at`.
bool operandsDominate(Operation *op, Operation *at, DominanceInfo &dom) {
  return llvm::all_of(op->getOperands(),
                      [&](Value v) { return dom.properlyDominates(v, at); });
}

/// Rewrites the reads of one buffer through one descriptor.
void rewriteGroup(MutableArrayRef<Read> reads, DominanceInfo &dom) {
  Read &first = reads.front();
  int64_t eb = first.op.getSrcMemref().getType().getElementTypeBitWidth() / 8;
  SmallVector<std::pair<Read *, std::pair<int64_t, int64_t>>> steps;
  for (Read &r : reads) {
    if (&r != &first && !operandsDominate(first.offset, r.op, dom))
      continue;
    std::optional<std::pair<int64_t, int64_t>> step =
        &r == &first ? std::pair<int64_t, int64_t>{0, 0}
                     : stepBetween(first, r);
    if (step)
      steps.push_back({&r, *step});
  }
  if (steps.size() < 2)
    return;
  OffsetOp reference = first.offset;
  for (auto [read, step] : steps) {
    nvgpu::LdMatrixOp op = read->op;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value at =
        OffsetOp::create(b, loc, reference.getDesc(), reference.getIndices());
    if (step.first)
      at = arith::XOrIOp::create(
          b, loc, at, arith::ConstantIndexOp::create(b, loc, step.first));
    Value base = workgroupByteAddress(b, loc, op.getSrcMemref(), at, eb);
    op.getResult().replaceAllUsesWith(
        ldmatrixAt(b, op, base, step.second * eb));
    op.erase();
  }
}

struct LdMatrixStepsPass final
    : layout::impl::LayoutLdMatrixStepsBase<LdMatrixStepsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      DenseI32ArrayAttr known = func.getKnownBlockSizeAttr();
      if (!known || known.size() != 3)
        return;
      SmallVector<int64_t> block(known.asArrayRef());
      int64_t threads = block[0] * block[1] * block[2];
      if (threads > kMaxThreads)
        return;
      DenseMap<Value, std::optional<Descriptor>> descriptors;
      ThreadEvaluator eval(block, descriptors);
      llvm::MapVector<std::pair<Value, Value>, SmallVector<Read>> groups;
      SmallVector<Read> reads;
      func.walk([&](nvgpu::LdMatrixOp op) {
        if (op.getIndices().size() != 1)
          return;
        auto offset = op.getIndices().front().getDefiningOp<OffsetOp>();
        if (!offset)
          return;
        reads.push_back({op, offset, {}});
      });
      // Thread by thread (the evaluator's memo is per thread).
      SmallVector<bool> ok(reads.size(), true);
      for (int64_t tid = 0; tid < threads; ++tid)
        for (auto [i, r] : llvm::enumerate(reads)) {
          if (!ok[i])
            continue;
          std::optional<int64_t> x = eval.at(r.offset.getResult(), tid);
          if (!x)
            ok[i] = false;
          else
            r.perThread.push_back(*x);
        }
      for (auto [i, r] : llvm::enumerate(reads))
        if (ok[i])
          groups[{r.op.getSrcMemref(), r.offset.getDesc()}].push_back(r);
      DominanceInfo dom(func);
      for (auto &[key, group] : groups)
        rewriteGroup(group, dom);
    });
  }
};

} // namespace
