//===- BulkCopyEmulation.cpp - TMA copies and mbarriers on the CPU --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "BulkCopyEmulation.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

/// The fields of an emulated mbarrier's word: bit 0 the current phase's
/// parity; then, 21 bits each (PTX counts are below 2^20), the pending
/// arrivals, the expected arrivals and the pending transaction bytes.
struct Word {
  Value phase, pending, expected, tx;
};

constexpr int64_t kFieldBits = 21;
constexpr int64_t kPendingShift = 1;
constexpr int64_t kExpectedShift = kPendingShift + kFieldBits;
constexpr int64_t kTxShift = kExpectedShift + kFieldBits;

class Emitter {
public:
  Emitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value field(Value w, int64_t shift, int64_t bits) {
    Value s = arith::ShRUIOp::create(b, loc, w, i64(shift));
    return arith::AndIOp::create(b, loc, s, i64((int64_t(1) << bits) - 1));
  }
  Word load(Value bars, Value index) {
    Value w = memref::LoadOp::create(b, loc, bars, index);
    return {field(w, 0, 1), field(w, kPendingShift, kFieldBits),
            field(w, kExpectedShift, kFieldBits),
            field(w, kTxShift, kFieldBits)};
  }
  void store(Value bars, Value index, const Word &w) {
    auto at = [&](Value v, int64_t shift) {
      return arith::ShLIOp::create(b, loc, v, i64(shift));
    };
    Value v = arith::OrIOp::create(
        b, loc, w.phase,
        arith::OrIOp::create(
            b, loc, at(w.pending, kPendingShift),
            arith::OrIOp::create(b, loc, at(w.expected, kExpectedShift),
                                 at(w.tx, kTxShift))));
    memref::StoreOp::create(b, loc, v, bars, index);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  void check(Value cond, StringRef msg) {
    cf::AssertOp::create(b, loc, cond, msg);
  }
  /// The phase completes when its arrivals and bytes are in; the next
  /// phase expects the same arrivals.
  Word completed(Word w) {
    Value zero = i64(0);
    Value done =
        arith::AndIOp::create(b, loc, eq(w.pending, zero), eq(w.tx, zero));
    w.phase = arith::SelectOp::create(
        b, loc, done, arith::XOrIOp::create(b, loc, w.phase, i64(1)), w.phase);
    w.pending = arith::SelectOp::create(b, loc, done, w.expected, w.pending);
    return w;
  }
  /// Completes `bytes` transaction bytes on `bars[index]`.
  void completeTx(Value bars, Value index, int64_t bytes) {
    Word w = load(bars, index);
    check(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, w.tx,
                                i64(bytes)),
          "mbarrier: TMA bytes complete on a phase that did not expect them "
          "(no mbarrier.arrive.expect_tx for them)");
    w.tx = arith::SubIOp::create(b, loc, w.tx, i64(bytes));
    store(bars, index, completed(w));
  }

  OpBuilder &b;
  Location loc;
};

/// Loops over `op`'s box extents, innermost last; the builder is left in
/// the innermost body and `xs` receives the induction variables.
void boxLoops(OpBuilder &b, Location loc, BulkTensorLoadOp op,
              SmallVectorImpl<Value> &xs) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t extent : op.getBox()) {
    auto loop = scf::ForOp::create(
        b, loc, zero, arith::ConstantIndexOp::create(b, loc, extent), one);
    b.setInsertionPointToStart(loop.getBody());
    xs.push_back(loop.getInductionVar());
  }
}

/// 0 <= c < dim `d` of `source`.
Value inDim(OpBuilder &b, Location loc, Value source, int64_t d, Value c) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value dim = memref::DimOp::create(b, loc, source, d);
  return arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c, dim));
}

/// Stores source[at] (zero where `inside` is false) at box element `xs` of
/// `op`'s destination.
void copyElement(OpBuilder &b, Location loc, BulkTensorLoadOp op,
                 ArrayRef<Value> at, Value inside, ArrayRef<Value> xs) {
  Type et = cast<MemRefType>(op.getSource().getType()).getElementType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{et}, inside, true);
  {
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(
        tb, loc,
        memref::LoadOp::create(tb, loc, op.getSource(), at).getResult());
    OpBuilder eb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(
        eb, loc,
        arith::ConstantOp::create(eb, loc, cast<TypedAttr>(b.getZeroAttr(et)))
            .getResult());
  }
  SmallVector<Value> dest(op.getOrigin());
  for (auto [d, x] : llvm::zip_equal(op.getDestDims(), xs))
    dest[d] = arith::AddIOp::create(b, loc, dest[d], x);
  Value offset = OffsetOp::create(b, loc, op.getDesc(), dest);
  memref::StoreOp::create(b, loc, ifOp.getResult(0), op.getDest(), offset);
}

/// The tiled box copy of `op`: box element x reads source[indices + x].
void emulateTiledCopy(OpBuilder &b, Location loc, BulkTensorLoadOp op) {
  SmallVector<Value> xs;
  boxLoops(b, loc, op, xs);
  SmallVector<Value> at;
  Value inside;
  for (auto [d, x] : llvm::enumerate(xs)) {
    Value c = arith::AddIOp::create(b, loc, op.getIndices()[d], x);
    at.push_back(c);
    Value ok = inDim(b, loc, op.getSource(), d, c);
    inside = inside ? arith::AndIOp::create(b, loc, inside, ok) : ok;
  }
  copyElement(b, loc, op, at, inside, xs);
}

/// The im2col box copy of `op` (Im2col.h, the op's description): the
/// filter origin's bounding box per spatial dimension d has count_d =
/// (dim_d - 1 + upper_d - lower_d) / stride_d + 1 positions; the
/// instruction's start is position i_d = (index_d - lower_d) / stride_d
/// (checked to be one); box row p is linear position start + p, the last
/// spatial dimension fastest, then the image; its pixel is lower_d + i_d
/// stride_d + offset_d.
void emulateIm2colCopy(OpBuilder &b, Location loc, BulkTensorLoadOp op) {
  Emitter e(b, loc);
  Value source = op.getSource();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  int64_t rank = cast<MemRefType>(source.getType()).getRank();
  int64_t spatial = rank - 2;
  ArrayRef<int64_t> lower = *op.getLowerCorner(), upper = *op.getUpperCorner(),
                    strides = *op.getTraversalStrides();
  // The start's linear position, before the loops.
  SmallVector<Value> counts;
  Value linear = op.getIndices()[0];
  for (int64_t d = 0; d < spatial; ++d) {
    Value dim = memref::DimOp::create(b, loc, source, d + 1);
    Value span = arith::AddIOp::create(b, loc, dim, cst(upper[d] - lower[d]));
    Value count = arith::AddIOp::create(
        b, loc,
        arith::DivSIOp::create(b, loc,
                               arith::SubIOp::create(b, loc, span, cst(1)),
                               cst(strides[d])),
        cst(1));
    counts.push_back(count);
    Value from =
        arith::SubIOp::create(b, loc, op.getIndices()[d + 1], cst(lower[d]));
    Value i = arith::DivSIOp::create(b, loc, from, cst(strides[d]));
    Value onGrid = arith::AndIOp::create(
        b, loc,
        e.eq(arith::RemSIOp::create(b, loc, from, cst(strides[d])), cst(0)),
        arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, from,
                                  cst(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                  count)));
    e.check(onGrid, "im2col: the filter origin does not start on a position "
                    "of its bounding box");
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, count), i);
  }
  SmallVector<Value> xs;
  boxLoops(b, loc, op, xs);
  Value pos = arith::AddIOp::create(b, loc, linear, xs[0]);
  SmallVector<Value> at(rank);
  Value inside = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (int64_t d = spatial - 1; d >= 0; --d) {
    Value i = arith::RemSIOp::create(b, loc, pos, counts[d]);
    pos = arith::DivSIOp::create(b, loc, pos, counts[d]);
    Value c = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, cst(lower[d]),
            arith::MulIOp::create(b, loc, i, cst(strides[d]))),
        op.getOffsets()[d]);
    at[d + 1] = c;
    inside =
        arith::AndIOp::create(b, loc, inside, inDim(b, loc, source, d + 1, c));
  }
  at[0] = pos;
  at[rank - 1] =
      arith::AddIOp::create(b, loc, op.getIndices()[rank - 1], xs[1]);
  for (int64_t d : {int64_t(0), rank - 1})
    inside =
        arith::AndIOp::create(b, loc, inside, inDim(b, loc, source, d, at[d]));
  copyElement(b, loc, op, at, inside, xs);
}

/// The box copy of `op`, element by element, then its bytes.
void emulateBoxCopy(BulkTensorLoadOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (op.isIm2col())
    emulateIm2colCopy(b, loc, op);
  else
    emulateTiledCopy(b, loc, op);
  b.setInsertionPoint(op);
  Emitter(b, loc).completeTx(op.getBarriers(), op.getBarrier(),
                             op.getBoxBytes());
}

} // namespace

void test::emulateBulkCopies(gpu::GPUFuncOp kernel) {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<BulkTensorLoadOp, MbarrierInitOp, MbarrierArriveExpectTxOp,
            MbarrierWaitOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Emitter e(b, op->getLoc());
    if (auto copy = dyn_cast<BulkTensorLoadOp>(op)) {
      emulateBoxCopy(copy);
    } else if (auto init = dyn_cast<MbarrierInitOp>(op)) {
      Value n = e.i64(init.getArrivals());
      e.store(init.getBarriers(), init.getIndex(), {e.i64(0), n, n, e.i64(0)});
    } else if (auto arrive = dyn_cast<MbarrierArriveExpectTxOp>(op)) {
      Word w = e.load(arrive.getBarriers(), arrive.getIndex());
      e.check(arith::CmpIOp::create(b, op->getLoc(), arith::CmpIPredicate::ugt,
                                    w.pending, e.i64(0)),
              "mbarrier: an arrival beyond the phase's expected count");
      w.tx = arith::AddIOp::create(b, op->getLoc(), w.tx,
                                   e.i64(arrive.getBytes()));
      w.pending = arith::SubIOp::create(b, op->getLoc(), w.pending, e.i64(1));
      e.store(arrive.getBarriers(), arrive.getIndex(), e.completed(w));
    } else if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
      Word w = e.load(wait.getBarriers(), wait.getIndex());
      Value parity = arith::IndexCastUIOp::create(
          b, op->getLoc(), b.getI64Type(), wait.getParity());
      // The phase of parity p has completed when the current one's is not p.
      e.check(arith::CmpIOp::create(b, op->getLoc(), arith::CmpIPredicate::ne,
                                    w.phase, parity),
              "mbarrier: a wait on a phase that has not completed (wrong "
              "parity, or its arrivals and copies come later): on the GPU it "
              "would hang");
    }
    op->erase();
  }
}
