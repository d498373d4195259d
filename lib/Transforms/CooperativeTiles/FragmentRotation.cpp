//===- FragmentRotation.cpp - Fragment programs: the rotated loop ---------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The emission of a fragment program whose last product runs one iteration
// late (FragmentRotation, FragmentProgram.h): FlashAttention-3's
// intra-warpgroup overlap (Shah et al., "FlashAttention-3", 2024, section
// 3.2: the softmax of one iteration runs while the tensor cores compute
// the previous iteration's P V). wgmma is asynchronous: a batch runs from
// its commit_group until a wait_group that does not leave it in flight
// (PTX ISA 9.7.15.6.3, wgmma.wait_group: the N most recent groups may stay
// pending, the older ones complete). Iteration j issues S_j = Q K_j^T,
// then O += P_{j-1} V_{j-1} with the registers carried from iteration
// j - 1, waits for S_j alone (wait_group 1), computes the row statistics
// and P_j while P V runs, and waits for it (wait_group 0) right before the
// first use of its result (O * alpha). No batch stays in flight across
// the back edge, so the carried registers are plain values.
//
// The loop carries, after the program's own iter_args (the deferred
// product's accumulator in place of its result), the computed operand's
// registers.
//
//===----------------------------------------------------------------------===//

#include "FragmentEmitter.h"

#include "layout/Transforms/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// One iteration of the rotated loop (or the peeled first one).
struct RotatedIteration {
  FragmentEmitter &e;
  FragmentSite &first, &deferred;
  /// The iter_arg of the deferred product's result and its parts.
  BlockArgument arg;
  int64_t argIndex, argParts;

  RotatedIteration(FragmentEmitter &e)
      : e(e), first(e.p.sites.front()),
        deferred(e.p.sites[e.p.rotation.deferred]),
        arg(e.p.loop.getRegionIterArgs()[e.p.rotation.arg]),
        argIndex(e.p.rotation.arg), argParts(e.fragmentsOf(arg)) {}

  /// The parts of the program's iter_args in `state` (the rest: the
  /// deferred product's A registers).
  int64_t programParts() const {
    return partsBefore(e.p.loop.getNumRegionIterArgs());
  }
  /// Where the deferred product's accumulator starts in `state`.
  int64_t argOffset() const { return partsBefore(argIndex); }
  /// The parts of the program's first `n` iter_args.
  int64_t partsBefore(int64_t n) const {
    int64_t parts = 0;
    for (BlockArgument a : e.p.loop.getRegionIterArgs().take_front(n))
      parts += e.partsOf(a);
    return parts;
  }

  /// The deferred product of the previous iteration (its accumulator and
  /// A registers from `state`, its tiles in stage `stage`): its
  /// accumulators, built before the wgmma.fence.
  SmallVector<Value> deferredAccumulators(OpBuilder &b, ValueRange state,
                                          Value stage) {
    FragmentContext &cx = e.contexts[e.p.rotation.deferred];
    cx.stage = stage;
    SmallVector<Value> accs(state.slice(argOffset(), argParts));
    return warpgroupAccumulators(b, e.loc, cx, accs);
  }
  /// Its wgmma ops onto `rows` (deferredAccumulators) and their commit;
  /// returns its C fragments.
  SmallVector<Value> issueDeferred(OpBuilder &b, ArrayRef<Value> rows,
                                   ValueRange state) {
    const FragmentContext &cx = e.contexts[e.p.rotation.deferred];
    SmallVector<Value> aRegs(state.drop_front(programParts()));
    SmallVector<Value> out = issueWarpgroupFragments(b, e.loc, cx, rows, aRegs);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, e.loc);
    return warpgroupFragmentsOf(b, e.loc, cx, out);
  }

  /// Emits the iteration at `iv` whose tiles are in stage `stage`, from
  /// carried `state` (peeled: the first iteration, no deferred product);
  /// returns the state it yields.
  FailureOr<SmallVector<Value>> emit(OpBuilder &b, Value iv, Value stage,
                                     ValueRange state, bool peeled);
};

FailureOr<SmallVector<Value>> RotatedIteration::emit(OpBuilder &b, Value iv,
                                                     Value stage,
                                                     ValueRange state,
                                                     bool peeled) {
  FragmentProgram &p = e.p;
  scf::ForOp old = p.loop;
  Location loc = e.loc;
  e.scalars.map(old.getInductionVar(), iv);
  bindParts(e, old.getRegionIterArgs(), state.take_front(programParts()));
  for (Operation &op : old.getBody()->without_terminator())
    if (op.getNumResults() &&
        p.kinds.lookup(op.getResult(0)) == FragmentKind::Scalar)
      b.clone(op, e.scalars);
  if (failed(e.copier->rotatedArrive(b, iv, stage, e.scalars)))
    return failure();
  bool pending = false;
  SmallVector<Value> accOut, aOut;
  for (Operation &op : old.getBody()->without_terminator()) {
    // The first op that reads the deferred product's result waits for it.
    if (&op == p.rotation.firstUse && pending) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
      pending = false;
    }
    if (op.getNumResults() &&
        p.kinds.lookup(op.getResult(0)) == FragmentKind::Scalar)
      continue;
    if (&op == first.contract.getOperation()) {
      // S_j, then the previous iteration's P V behind it; S_j alone is
      // waited for.
      FragmentContext &cx = e.contexts.front();
      cx.stage = stage;
      SmallVector<Value> rows =
          warpgroupAccumulators(b, loc, cx, e.accumulatorParts(b, first));
      SmallVector<Value> later;
      if (!peeled)
        later = deferredAccumulators(
            b, state,
            arith::SubIOp::create(b, loc, indexConstant(b, loc, 1), stage));
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      rows = issueWarpgroupFragments(b, loc, cx, rows, {});
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      if (!peeled) {
        e.values[arg] = {FragmentKind::Matrix, issueDeferred(b, later, state)};
        pending = true;
      }
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, peeled ? 0 : 1);
      e.values[first.contract.getResult()] = {
          FragmentKind::Matrix, warpgroupFragmentsOf(b, loc, cx, rows)};
      continue;
    }
    if (&op == deferred.contract.getOperation()) {
      // Not multiplied here: its accumulator and computed A are carried.
      vector::ContractionOp contract = deferred.contract;
      const Plan &plan = deferred.plan;
      accOut = e.accumulatorParts(b, deferred);
      if (deferred.lhs < 0) {
        SmallVector<Value> producer = e.values.lookup(contract.getLhs()).parts;
        FragmentEmitter::Exchanges exchanged;
        for (int64_t t = 0; t < plan.rm * plan.ks; ++t)
          aOut.push_back(e.reViewTile(b, deferred, producer, exchanged, t));
      }
      continue;
    }
    if (failed(e.emitOp(b, &op)))
      return failure();
  }
  if (pending)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  SmallVector<Value> out;
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip_equal(old.getRegionIterArgs(),
                           old.getBody()->getTerminator()->getOperands()))) {
    if (int64_t(i) == argIndex)
      llvm::append_range(out, accOut);
    else
      appendYielded(b, e, std::get<0>(pair), std::get<1>(pair), out);
  }
  llvm::append_range(out, aOut);
  return out;
}

void remarkRotation(const FragmentProgram &p) {
  scf::ForOp loop = p.loop;
  emitLayoutRemark(
      loop.getLoc(), "FragmentRotation", "layout-tiles",
      loop->getParentOfType<gpu::GPUFuncOp>().getName(),
      llvm::formatv(
          "in a fragment program: product {0} of each iteration is issued "
          "in the next one, right after product 1 (wgmma.wait_group 1), and "
          "waited for before its result's first use, so that it runs "
          "during the next iteration's other ops (FlashAttention-3's "
          "intra-warpgroup overlap); the first iteration is peeled; the "
          "loop's tiles in two stages, copied a whole iteration ahead; 1 "
          "barrier per iteration",
          p.rotation.deferred + 1),
      {{"Deferred", std::to_string(p.rotation.deferred + 1)}}, p.remarks);
}

} // namespace

LogicalResult tiles::emitRotatedLoop(FragmentEmitter &e, OpBuilder &b) {
  FragmentProgram &p = e.p;
  scf::ForOp old = p.loop;
  Location loc = e.loc;
  RotatedIteration it(e);
  remarkRotation(p);
  // The first iteration's copies, then the tiles staged once (Q) while
  // they are in flight.
  if (failed(e.copier->rotatedPrologue(b)) ||
      failed(e.stage(b, p.copies.beforeLoop)))
    return failure();
  Value lb = old.getLowerBound(), ub = old.getUpperBound();
  Value any =
      arith::CmpIOp::create(b, loc,
                            old.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                 : arith::CmpIPredicate::slt,
                            lb, ub);
  SmallVector<Value> inits = initialParts(b, e);
  // The first iteration, peeled (where there is one); else the initial
  // values, zero A registers.
  bool failedPeel = false;
  SmallVector<Type> types;
  auto peel = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &tb, Location) {
        FailureOr<SmallVector<Value>> out =
            it.emit(tb, lb, indexConstant(tb, loc, 0), inits, true);
        failedPeel = failed(out);
        SmallVector<Value> yielded = failedPeel ? inits : *out;
        for (Value v : yielded)
          types.push_back(v.getType());
        scf::YieldOp::create(tb, loc, yielded);
      },
      [&](OpBuilder &eb, Location) {
        SmallVector<Value> values = inits;
        for (Type t : ArrayRef<Type>(types).drop_front(inits.size()))
          values.push_back(arith::ConstantOp::create(
              eb, loc, cast<TypedAttr>(eb.getZeroAttr(t))));
        scf::YieldOp::create(eb, loc, values);
      });
  if (failedPeel)
    return failure();
  // The other iterations.
  Value second = arith::AddIOp::create(b, loc, lb, old.getStep());
  auto loop =
      scf::ForOp::create(b, loc, second, ub, old.getStep(), peel.getResults(),
                         nullptr, old.getUnsignedCmp());
  loop->setAttr(kMatrixInstructionAttr,
                b.getDenseI64ArrayAttr({p.inst->m, p.inst->n, p.inst->k}));
  loop->setAttr(kProductOrderAttr, b.getStringAttr("rotated"));
  Block *body = loop.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  ValueRange carried = loop.getRegionIterArgs();
  FailureOr<SmallVector<Value>> next =
      it.emit(ib, loop.getInductionVar(),
              e.copier->stageAt(ib, loop.getInductionVar()), carried, false);
  if (failed(next))
    return failure();
  scf::YieldOp::create(ib, loc, *next);
  // The last deferred product, where the loop ran.
  ValueRange results = loop.getResults();
  int64_t offset = it.argOffset();
  auto last = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &tb, Location) {
        e.copier->rotatedFinish(tb);
        // The last iteration's stage.
        Value end =
            arith::SubIOp::create(tb, loc, ub, indexConstant(tb, loc, 1));
        SmallVector<Value> rows =
            it.deferredAccumulators(tb, results, e.copier->stageAt(tb, end));
        NVVM::WgmmaFenceAlignedOp::create(tb, loc);
        SmallVector<Value> o = it.issueDeferred(tb, rows, results);
        NVVM::WgmmaWaitGroupSyncOp::create(tb, loc, 0);
        scf::YieldOp::create(tb, loc, o);
      },
      [&](OpBuilder &eb, Location) {
        scf::YieldOp::create(eb, loc, results.slice(offset, it.argParts));
      });
  SmallVector<Value> final(results.take_front(it.programParts()));
  for (int64_t i = 0; i < it.argParts; ++i)
    final[offset + i] = last.getResult(i);
  bindParts(e, old.getResults(), final);
  return success();
}
