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

/// The box copy of `op`, element by element, then its bytes.
void emulateBoxCopy(BulkTensorLoadOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value source = op.getSource();
  auto type = cast<MemRefType>(source.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> xs;
  for (int64_t extent : op.getBox()) {
    auto loop = scf::ForOp::create(
        b, loc, zero, arith::ConstantIndexOp::create(b, loc, extent), one);
    b.setInsertionPointToStart(loop.getBody());
    xs.push_back(loop.getInductionVar());
  }
  SmallVector<Value> at;
  Value inside;
  for (auto [d, x] : llvm::enumerate(xs)) {
    Value c = arith::AddIOp::create(b, loc, op.getIndices()[d], x);
    at.push_back(c);
    Value dim = memref::DimOp::create(b, loc, source, d);
    Value ok = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c, dim));
    inside = inside ? arith::AndIOp::create(b, loc, inside, ok) : ok;
  }
  Type et = type.getElementType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{et}, inside, true);
  {
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(
        tb, loc, memref::LoadOp::create(tb, loc, source, at).getResult());
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
