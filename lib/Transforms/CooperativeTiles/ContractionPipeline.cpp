//===- ContractionPipeline.cpp - Tile contractions: the K loop ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The K loop of a planned tile contraction (ContractionPipeline.h): the old
// loop's other ops cloned into each rebuilt version, the register-prefetch
// loop, the multistage loop of asynchronous copies (unrolled by the stages
// where the loop holds nothing else), and the versioning between them.
//
//===----------------------------------------------------------------------===//

#include "ContractionPipeline.h"
#include "ContractionFragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// The tile program's K loop and what each rebuilt version of it starts
/// from.
struct KLoop {
  ContractionTree &t;
  FragmentContext cx;
  /// A's and B's operands (the plan's).
  ArrayRef<PipelinedOperand> operands;
  Value tid;
  int64_t threads;
  /// The other iter_args' initial values, then the fragments' (the splat).
  SmallVector<Value> inits;
  int64_t kept;

  int64_t fragments() const { return cx.plan.rm * cx.plan.rn; }
  Location loc() const { return t.loop.getLoc(); }
  /// `x < ub` as the loop compares its induction variable.
  Value below(OpBuilder &b, Value x) const {
    return arith::CmpIOp::create(b, loc(),
                                 t.loop.getUnsignedCmp()
                                     ? arith::CmpIPredicate::ult
                                     : arith::CmpIPredicate::slt,
                                 x, t.loop.getUpperBound());
  }
};

/// Whether the old loop's body holds nothing but the loads, the
/// contraction and the terminator.
bool onlyContraction(ContractionTree &t) {
  Operation *ops[] = {t.contract, t.a.load, t.b.load};
  return llvm::all_of(
      t.loop.getBody()->without_terminator(),
      [&](Operation &op) { return llvm::is_contained(ops, &op); });
}

/// A new loop over the old one's bounds, by `step`, with iter_args
/// `k.inits` then `extra`, into which the old body's other ops are cloned.
/// Returns the loop; `yielded` receives the other iter_args' next values.
scf::ForOp cloneLoop(OpBuilder &b, const KLoop &k, Value step, ValueRange extra,
                     SmallVector<Value> &yielded) {
  scf::ForOp old = k.t.loop;
  SmallVector<Value> inits(k.inits);
  inits.append(extra.begin(), extra.end());
  auto loop =
      scf::ForOp::create(b, k.loc(), old.getLowerBound(), old.getUpperBound(),
                         step, inits, nullptr, old.getUnsignedCmp());
  recordPlan(loop, k.cx.plan);
  Block *body = loop.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  IRMapping map;
  map.map(old.getInductionVar(), loop.getInductionVar());
  for (unsigned i = 0, j = 0; i < old.getInitArgs().size(); ++i)
    if (i != k.t.accIndex)
      map.map(old.getRegionIterArgs()[i], loop.getRegionIterArgs()[j++]);
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  Operation *skip[] = {k.t.contract, k.t.a.load, k.t.b.load};
  for (Operation &op : old.getBody()->without_terminator())
    if (!llvm::is_contained(skip, &op))
      ib.clone(op, map);
  for (auto [i, v] :
       llvm::enumerate(old.getBody()->getTerminator()->getOperands()))
    if (i != k.t.accIndex)
      yielded.push_back(map.lookupOrDefault(v));
  return loop;
}

/// The K loop with register prefetch through one LDS stage (stage 0 of a
/// buffer of several): each iteration writes the tile the previous one
/// loaded to LDS, issues the global loads of the next tile, then
/// multiplies from LDS while they are in flight (the loads of the last
/// iteration are skipped). Returns the other iter_args' and the fragments'
/// results.
FailureOr<SmallVector<Value>> registerLoop(OpBuilder &b, const KLoop &k) {
  Location loc = k.loc();
  scf::ForOp old = k.t.loop;
  FragmentContext cx = k.cx;
  if (k.operands.front().leaf->stages > 1)
    cx.stage = indexConstant(b, loc, 0);
  SmallVector<Value> regs;
  SmallVector<int64_t> counts;
  for (const PipelinedOperand &p : k.operands) {
    FailureOr<SmallVector<Value>> r =
        loadStagedTile(b, loc, *p.leaf, p.at(old.getLowerBound()), p.staging,
                       k.tid, k.threads);
    if (failed(r))
      return failure();
    counts.push_back(r->size());
    regs.append(*r);
  }
  SmallVector<Value> yielded;
  scf::ForOp loop = cloneLoop(b, k, old.getStep(), regs, yielded);
  // The other version of a multistage plan: what this loop does.
  loop->setAttr(kOperandCopiesAttr, b.getStringAttr("registers"));
  OpBuilder ib = OpBuilder::atBlockEnd(loop.getBody());
  ValueRange args = loop.getRegionIterArgs().drop_front(k.kept);
  SmallVector<Value> accs(args.take_front(k.fragments()));
  ValueRange regArgs = args.drop_front(k.fragments());
  // Every thread has read the previous tile; write this one; barrier.
  gpu::BarrierOp::create(ib, loc);
  ValueRange left = regArgs;
  for (auto [p, n] : llvm::zip_equal(k.operands, counts)) {
    storeStagedTile(ib, loc, *p.leaf, p.staging, k.tid, k.threads,
                    left.take_front(n), cx.stage);
    left = left.drop_front(n);
  }
  fenceStagingForWarpgroupMma(ib, loc, *cx.plan.inst);
  gpu::BarrierOp::create(ib, loc);
  // The next tiles' loads, skipped after the last iteration.
  Value nextIV =
      arith::AddIOp::create(ib, loc, loop.getInductionVar(), loop.getStep());
  auto next = scf::IfOp::create(ib, loc, TypeRange(regArgs),
                                k.below(ib, nextIV), /*withElse=*/true);
  {
    OpBuilder tb = next.getThenBodyBuilder();
    SmallVector<Value> loaded;
    for (const PipelinedOperand &p : k.operands) {
      FailureOr<SmallVector<Value>> r = loadStagedTile(
          tb, loc, *p.leaf, p.at(nextIV), p.staging, k.tid, k.threads);
      if (failed(r))
        return failure();
      loaded.append(*r);
    }
    scf::YieldOp::create(tb, loc, loaded);
    OpBuilder eb = next.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc, regArgs);
  }
  yielded.append(multiplyTile(ib, loc, cx, accs));
  yielded.append(next.getResults().begin(), next.getResults().end());
  scf::YieldOp::create(ib, loc, yielded);
  return SmallVector<Value>(
      loop.getResults().take_front(k.kept + k.fragments()));
}

/// What the two multistage K loops share: the stages, how many tiles the
/// copies run ahead of the multiply (`lead`: the prologue copies tiles 0
/// ... lead - 1, step i copies tile i + lead into stage (i + lead) mod
/// stages), and the induction variable `tiles` K tiles after `kt`.
struct StagedSteps {
  const KLoop &k;
  int64_t stages, lead;
  Location loc;
  Value lb, step;

  StagedSteps(const KLoop &k, int64_t lead)
      : k(k), stages(k.operands.front().leaf->stages), lead(lead), loc(k.loc()),
        lb(k.t.loop.getLowerBound()), step(k.t.loop.getStep()) {}

  Value ahead(OpBuilder &ob, Value kt, int64_t tiles) const {
    return arith::AddIOp::create(
        ob, loc, kt,
        arith::MulIOp::create(ob, loc, step, indexConstant(ob, loc, tiles)));
  }
};

/// The steps of the K loop whose tiles the tensor memory accelerator copies
/// (stagedLoop), after the TMA pipelines of CUTLASS's sm90 GEMMs without a
/// producer warp: stage s has an mbarrier that thread 0 arms with the
/// stage's bytes (one arrival) before it issues the boxes; every thread
/// waits on it with the parity of the ring's round (round r of the stage
/// completes its phase r: parity r mod 2).
struct BulkSteps : StagedSteps {
  Value barriers, isFirst;
  int64_t bytes = 0;

  BulkSteps(const KLoop &k, Value barriers, Value isFirst)
      : StagedSteps(k, k.operands.front().leaf->stages - 1), barriers(barriers),
        isFirst(isFirst) {
    for (auto [i, p] : llvm::enumerate(k.operands))
      if (k.cx.plan.boxSource(i))
        bytes += boxBytesPerStage(*p.leaf);
  }

  /// Every thread waits for stage `stage`'s boxes of the ring's round
  /// `round`.
  void wait(OpBuilder &ob, Value stage, Value round) const {
    Value parity =
        arith::RemUIOp::create(ob, loc, round, indexConstant(ob, loc, 2));
    MbarrierWaitOp::create(ob, loc, barriers, stage, parity);
  }
  /// Thread 0 arms stage `stage`'s barrier and copies tile `kt` into the
  /// stage (nothing past the last tile).
  LogicalResult issue(OpBuilder &ob, Value kt, Value stage) const {
    Value go = arith::AndIOp::create(ob, loc, isFirst, k.below(ob, kt));
    auto ifOp = scf::IfOp::create(ob, loc, go, false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    MbarrierArriveExpectTxOp::create(tb, loc, barriers, stage, bytes);
    for (auto [i, p] : llvm::enumerate(k.operands))
      if (Value source = k.cx.plan.boxSource(i))
        if (failed(copyTileInBoxes(tb, loc, *p.leaf, source,
                                   k.cx.plan.boxIm2col(i), p.at(kt),
                                   p.staging.width, stage, barriers, stage)))
          return failure();
    return success();
  }
  /// One K step: wait for tile `kt`'s boxes (in `readStage`, its round
  /// `round`), multiply, leaving this step's wgmma batch in flight and
  /// waiting for the previous one, meet the block (every warpgroup has then
  /// read the previous step's stage), then refill that stage
  /// (`writeStage`) with tile kt + stages - 1.
  FailureOr<SmallVector<Value>> kStep(OpBuilder &ob, Value kt, Value readStage,
                                      Value writeStage, Value round,
                                      ValueRange accs) const {
    wait(ob, readStage, round);
    FragmentContext cx = k.cx;
    cx.stage = readStage;
    cx.wgmmaInFlight = 1;
    SmallVector<Value> products = multiplyTile(ob, loc, cx, accs);
    gpu::BarrierOp::create(ob, loc);
    if (failed(issue(ob, ahead(ob, kt, lead), writeStage)))
      return failure();
    return products;
  }
  /// After the loop: the last batch completes before the epilogue reads
  /// the accumulators.
  void finish(OpBuilder &b) const {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  }
};

/// The steps of the K loop with `stages` LDS stages filled by asynchronous
/// copies (cp.async; stagedLoop). Where warpgroup MMAs read the stages and
/// there are four or more, a step leaves its wgmma batch in flight (the
/// TMA ring's scheme, BulkSteps) and the copies run stages - 2 tiles
/// ahead: the stage step i refills, (i - 2) mod stages, was read by the
/// batch of step i - 2, which every warpgroup waited for (wait_group 1 in
/// step i - 1) before the block met in step i. Otherwise (mma.sync, MFMA,
/// WMMA fragments read from LDS by the threads themselves, or fewer
/// stages, where a copy only one tile ahead measured slower on the H200's
/// convolutions than a batch completing in its step: bench/RESULTS.md)
/// the copies run stages - 1 tiles ahead and each step's multiply
/// completes in the step.
struct AsyncSteps : StagedSteps {
  int64_t inFlight;
  /// Where some operands' tiles are TMA boxes ("tma+cp.async"): their
  /// steps (thread 0 arms the stage's mbarrier with their bytes and issues
  /// them; a step waits for its cp.async groups, then for the barrier's
  /// phase, before the block meets). Null: cp.async copies every tile.
  const BulkSteps *boxes = nullptr;

  AsyncSteps(const KLoop &k, int64_t inFlight)
      : StagedSteps(k, k.operands.front().leaf->stages - 1 - inFlight),
        inFlight(inFlight) {}

  /// The wgmma batches a step may leave in flight with `stages` stages.
  static int64_t batchesInFlight(const Plan &plan, int64_t stages) {
    return plan.inst->operandsInWorkgroupMemory() && stages >= 4 ? 1 : 0;
  }

  /// Starts the copies of tile `kt` into stage `stage` (none past the
  /// last tile) and commits them as one group.
  LogicalResult issue(OpBuilder &ob, Value kt, Value stage) const {
    auto ifOp = scf::IfOp::create(ob, loc, k.below(ob, kt), false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    for (auto [i, p] : llvm::enumerate(k.operands))
      if (!k.cx.plan.boxSource(i) &&
          failed(copyStagedTileAsync(tb, loc, *p.leaf, p.at(kt), p.staging,
                                     k.tid, k.threads, stage)))
        return failure();
    NVVM::CpAsyncCommitGroupOp::create(ob, loc);
    return boxes ? boxes->issue(ob, kt, stage) : success();
  }
  /// One K step: wait for tile `kt` (in `readStage`; the groups of the
  /// lead - 1 tiles after it may stay in flight), meet the block, start
  /// the copies of tile kt + lead into `writeStage`, multiply.
  FailureOr<SmallVector<Value>> kStep(OpBuilder &ob, Value kt, Value readStage,
                                      Value writeStage, Value round,
                                      ValueRange accs) const {
    NVVM::CpAsyncWaitGroupOp::create(ob, loc, uint32_t(lead - 1));
    fenceStagingForWarpgroupMma(ob, loc, *k.cx.plan.inst);
    if (boxes)
      boxes->wait(ob, readStage, round);
    gpu::BarrierOp::create(ob, loc);
    if (failed(issue(ob, ahead(ob, kt, lead), writeStage)))
      return failure();
    FragmentContext cx = k.cx;
    cx.stage = readStage;
    cx.wgmmaInFlight = inFlight;
    return multiplyTile(ob, loc, cx, accs);
  }
  /// After the loop: the groups left are empty; nothing stays in flight
  /// past the kernel, and the last wgmma batch completes before the
  /// epilogue reads the accumulators.
  void finish(OpBuilder &b) const {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0u);
    if (inFlight)
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  }
};

/// The multistage K loop of a loop of nothing but the contraction,
/// unrolled by the stages, so that every stage index is a constant (the
/// buffers' stage offsets fold into the addresses); each K step past the
/// first is guarded.
template <typename Steps>
FailureOr<SmallVector<Value>> unrolledLoop(OpBuilder &b, const Steps &s) {
  const KLoop &k = s.k;
  Location loc = s.loc;
  int64_t stages = s.stages;
  SmallVector<Value> none;
  Value stride =
      arith::MulIOp::create(b, loc, s.step, indexConstant(b, loc, stages));
  scf::ForOp loop = cloneLoop(b, k, stride, {}, none);
  Block *body = loop.getBody();
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  SmallVector<Value> accs(loop.getRegionIterArgs());
  // The ring's round: every stage is filled once per iteration.
  Value round = arith::DivUIOp::create(
      ib, loc, arith::SubIOp::create(ib, loc, loop.getInductionVar(), s.lb),
      stride);
  for (int64_t j = 0; j < stages; ++j) {
    Value kt =
        j ? s.ahead(ib, loop.getInductionVar(), j) : loop.getInductionVar();
    auto at = [&](OpBuilder &ob) {
      return s.kStep(ob, kt, indexConstant(ob, loc, j),
                     indexConstant(ob, loc, (j + s.lead) % stages), round,
                     accs);
    };
    if (j == 0) {
      FailureOr<SmallVector<Value>> r = at(ib);
      if (failed(r))
        return failure();
      accs = *r;
      continue;
    }
    auto ifOp = scf::IfOp::create(ib, loc, TypeRange(ValueRange(accs)),
                                  k.below(ib, kt), /*withElse=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    FailureOr<SmallVector<Value>> r = at(tb);
    if (failed(r))
      return failure();
    scf::YieldOp::create(tb, loc, *r);
    OpBuilder eb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc, accs);
    accs.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  scf::YieldOp::create(ib, loc, accs);
  s.finish(b);
  return SmallVector<Value>(loop.getResults());
}

/// The K loop with `stages` LDS stages filled asynchronously (`Steps`:
/// cp.async or TMA), after the multistage scheme of CUTLASS's sm80 GEMMs:
/// the prologue starts the copies of the first `lead` tiles (stages - 1,
/// or stages - 2 where wgmma batches stay in flight); iteration i waits
/// for its own copies of tile i, meets the block (every thread has
/// finished reading the stage it refills), starts the copies of tile
/// i + lead into that stage, and multiplies tile i.
template <typename Steps>
FailureOr<SmallVector<Value>> stagedLoop(OpBuilder &b, const Steps &s) {
  const KLoop &k = s.k;
  Location loc = s.loc;
  int64_t stages = s.stages;
  Value lb = s.lb, step = s.step;
  for (int64_t j = 0; j < s.lead; ++j)
    if (failed(s.issue(b, s.ahead(b, lb, j), indexConstant(b, loc, j))))
      return failure();
  if (onlyContraction(k.t) && k.kept == 0)
    return unrolledLoop(b, s);
  SmallVector<Value> yielded;
  scf::ForOp loop = cloneLoop(b, k, step, {}, yielded);
  OpBuilder ib = OpBuilder::atBlockEnd(loop.getBody());
  Value iv = loop.getInductionVar();
  Value i = arith::DivUIOp::create(
      ib, loc, arith::SubIOp::create(ib, loc, iv, lb), step);
  Value count = indexConstant(ib, loc, stages);
  Value readStage = arith::RemUIOp::create(ib, loc, i, count);
  Value writeStage = arith::RemUIOp::create(
      ib, loc,
      arith::AddIOp::create(ib, loc, i, indexConstant(ib, loc, s.lead)), count);
  Value round = arith::DivUIOp::create(ib, loc, i, count);
  SmallVector<Value> accs(
      loop.getRegionIterArgs().drop_front(k.kept).take_front(k.fragments()));
  FailureOr<SmallVector<Value>> products =
      s.kStep(ib, iv, readStage, writeStage, round, accs);
  if (failed(products))
    return failure();
  yielded.append(*products);
  scf::YieldOp::create(ib, loc, yielded);
  s.finish(b);
  return SmallVector<Value>(loop.getResults());
}

/// The K loop of TMA boxes (BulkSteps, or AsyncSteps with `boxes` where
/// some tiles are cp.async copies): thread 0 initializes the stages' mbarriers,
/// the block meets, then the staged loop.
FailureOr<SmallVector<Value>> bulkLoop(OpBuilder &b, const KLoop &k,
                                       Value barriers) {
  Location loc = k.loc();
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k.tid,
                                        indexConstant(b, loc, 0));
  auto init = scf::IfOp::create(b, loc, isFirst, false);
  OpBuilder tb = init.getThenBodyBuilder();
  int64_t stages = k.operands.front().leaf->stages;
  for (int64_t s = 0; s < stages; ++s)
    MbarrierInitOp::create(tb, loc, barriers, indexConstant(tb, loc, s), 1);
  // PTX ISA "mbarrier": the initialization is made visible to the async
  // proxy (the TMA unit completes transactions on the barriers).
  NVVM::FenceMbarrierInitOp::create(tb, loc);
  gpu::BarrierOp::create(b, loc);
  const Plan &plan = k.cx.plan;
  BulkSteps boxes(k, barriers, isFirst);
  if (plan.bulkCopies)
    return stagedLoop(b, boxes);
  AsyncSteps mixed(k, AsyncSteps::batchesInFlight(plan, stages));
  mixed.boxes = &boxes;
  return stagedLoop(b, mixed);
}

/// The run-time test that TMA may copy the operands (docs/tensor-maps.md):
/// each source's base 16-byte aligned and its row stride and offset
/// multiples of 16 bytes. The launcher encodes the maps under the same
/// conditions and passes zeros otherwise.
Value bulkCopiesUsable(OpBuilder &b, Location loc, const Plan &plan) {
  SmallVector<Value> tests;
  Value c16 = indexConstant(b, loc, 16);
  Value zero = indexConstant(b, loc, 0);
  for (Value source : plan.bulkSources) {
    if (!source)
      continue;
    auto type = cast<MemRefType>(source.getType());
    int64_t perVector = 16 / elementBytes(type.getElementType());
    if (Value t =
            stridesMultipleOf(b, loc, source, type.getRank() - 1, perVector))
      tests.push_back(t);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, source);
    tests.push_back(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              arith::RemUIOp::create(b, loc, base, c16), zero));
  }
  return allOf(b, loc, tests);
}

} // namespace

LogicalResult tiles::emitContraction(ContractionTree &t, const Plan &plan,
                                     gpu::GPUFuncOp func,
                                     ArrayRef<int64_t> block) {
  const MatrixInstruction &inst = *plan.inst;
  Location loc = t.contract.getLoc();
  OpBuilder b(t.loop);
  int64_t threads = block[0] * block[1] * block[2];
  scf::ForOp old = t.loop;
  Value tid = linearThreadId(b, loc, block);
  FragmentContext cx = FragmentContext::create(b, loc, plan, t.leaves(), tid);
  cx.tid = tid;
  cx.threads = threads;
  KLoop k{t, cx, plan.operands, tid, threads, {}, 0};
  for (auto [i, v] : llvm::enumerate(old.getInitArgs()))
    if (i != t.accIndex)
      k.inits.push_back(v);
  k.kept = k.inits.size();
  VectorType fragType = operandType(inst, MatrixOperand::C, plan.elementType);
  Value zero = arith::ConstantOp::create(
      b, loc, fragType, DenseElementsAttr::get(fragType, t.init));
  k.inits.append(k.fragments(), zero);
  // One buffer per operand, shared by both versions of the loop.
  for (Leaf *leaf : {&t.a, &t.b}) {
    allocateStagingBuffer(func, *leaf, b, plan.stages);
    if (inst.operandsInWorkgroupMemory())
      layOutForWarpgroupMma(func, *leaf, b);
  }
  FailureOr<SmallVector<Value>> results;
  // TMA needs its sources' rows 16-byte aligned, cp.async its vectors.
  SmallVector<Value> tests;
  if (plan.someBoxes())
    if (Value t = bulkCopiesUsable(b, loc, plan))
      tests.push_back(t);
  if (!plan.bulkCopies)
    tests.append(plan.alignment.begin(), plan.alignment.end());
  Value aligned = allOf(b, loc, tests);
  auto fastLoop = [&](OpBuilder &ob) -> FailureOr<SmallVector<Value>> {
    if (!plan.someBoxes())
      return stagedLoop(
          ob, AsyncSteps(k, AsyncSteps::batchesInFlight(plan, plan.stages)));
    Value barriers =
        addAlignedWorkgroupBuffer(func, {plan.stages}, ob.getI64Type(), loc);
    return bulkLoop(ob, k, barriers);
  };
  if (plan.stages == 1) {
    results = registerLoop(b, k);
  } else if (!aligned) {
    results = fastLoop(b);
  } else {
    // Versioned on the run-time alignment of the operands' rows: copies
    // need aligned vectors; other rows take the register pipeline.
    SmallVector<Type> types;
    for (Value v : k.inits)
      types.push_back(v.getType());
    auto ifOp = scf::IfOp::create(b, loc, types, aligned, /*withElse=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    FailureOr<SmallVector<Value>> fast = fastLoop(tb);
    if (failed(fast))
      return failure();
    scf::YieldOp::create(tb, loc, *fast);
    OpBuilder eb = ifOp.getElseBodyBuilder();
    FailureOr<SmallVector<Value>> slow = registerLoop(eb, k);
    if (failed(slow))
      return failure();
    scf::YieldOp::create(eb, loc, *slow);
    results = SmallVector<Value>(ifOp.getResults());
  }
  if (failed(results))
    return failure();
  for (unsigned i = 0, j = 0; i < old.getNumResults(); ++i)
    if (i != t.accIndex)
      old.getResult(i).replaceAllUsesWith((*results)[j++]);
  OpBuilder eb(t.epilogue.store);
  FailureOr<EpiloguePlan::Path> cPath =
      storeFragments(eb, t, cx, ArrayRef<Value>(*results).drop_front(k.kept));
  if (failed(cPath))
    return failure();
  remarkContraction(t, plan, threads, *cPath);
  t.epilogue.store.erase();
  for (Operation *op : llvm::reverse(t.epilogue.ops))
    op->erase();
  for (ContractionTree::Broadcast bc : t.broadcasts) {
    bc.op.erase();
    bc.load.erase();
  }
  t.loop.erase();
  return success();
}
