//===- FragmentCopies.cpp - Fragment programs: the staged copies ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The plan and the emission of a fragment program's staged copies
// (FragmentCopies.h).
//
//===----------------------------------------------------------------------===//

#include "FragmentCopies.h"
#include "ContractionFragments.h"
#include "Staging.h"

#include "layout/Transforms/Remarks.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// Sets apart the leaves whose tile indices the loop does not change
/// (staged once before it) and groups the others by the site that first
/// reads them; `last[i]`: the last site that reads leaf i.
void groupLeaves(FragmentProgram &p, SmallVector<int64_t> &last) {
  FragmentCopyPlan &plan = p.copies;
  DenseSet<int> grouped;
  last.assign(p.leaves.size(), -1);
  for (auto [i, leaf] : llvm::enumerate(p.leaves))
    if (llvm::all_of(LoadOp(leaf.load).getIndices(), [&](Value v) {
          return !p.loop.getRegion().isAncestor(v.getParentRegion());
        }))
      plan.beforeLoop.push_back(i);
  for (auto [s, site] : llvm::enumerate(p.sites)) {
    plan.groupAt.push_back(-1);
    for (int i : {site.a, site.b}) {
      if (i < 0 || llvm::is_contained(plan.beforeLoop, i))
        continue;
      last[i] = s;
      if (!grouped.insert(i).second)
        continue;
      if (plan.groupAt[s] < 0) {
        plan.groupAt[s] = plan.groups.size();
        plan.groups.emplace_back();
      }
      plan.groups.back().push_back(i);
    }
  }
}

/// The old loop's ops that compute the tile indices of group 0 (of every
/// group where `all`) from the induction variable and values defined
/// outside the loop (in order), or why they cannot be computed for another
/// iteration.
std::string planIndexOps(FragmentProgram &p, bool all) {
  scf::ForOp loop = p.loop;
  SetVector<Operation *> ops;
  SmallVector<Value> work;
  for (const SmallVector<int> &group :
       ArrayRef(p.copies.groups).take_front(all ? p.copies.groups.size() : 1))
    for (int i : group)
      llvm::append_range(work, LoadOp(p.leaves[i].load).getIndices());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar() ||
        !loop.getRegion().isAncestor(v.getParentRegion()))
      continue;
    Operation *op = v.getDefiningOp();
    if (!op)
      return "their tile indices depend on a value the loop carries";
    if (op->getNumRegions() || !isMemoryEffectFree(op) ||
        op->getBlock() != loop.getBody())
      return llvm::formatv("their tile indices depend on '{0}', which cannot "
                           "be computed ahead",
                           op->getName())
          .str();
    if (ops.insert(op))
      llvm::append_range(work, op->getOperands());
  }
  p.copies.indexOps = ops.takeVector();
  llvm::sort(p.copies.indexOps,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return "";
}

/// Why the groups' tiles cannot be copied by cp.async on `chip` (empty:
/// they can), tracing their accesses before the loop.
FailureOr<std::string> asyncProblem(FragmentProgram &p, const Chip &chip) {
  if (!chip.asyncCopy)
    return chip.name + " has no asynchronous copies into workgroup memory";
  OpBuilder b(p.loop);
  Value zero = indexConstant(b, p.loop.getLoc(), 0);
  for (const SmallVector<int> &group : p.copies.groups)
    for (int i : group) {
      const Leaf &leaf = p.leaves[i];
      SmallVector<Value> at(LoadOp(leaf.load).getIndices().size(), zero);
      FailureOr<GlobalAccess> access =
          tileAccess(b, leaf, at, p.staging[i].width);
      if (failed(access))
        return failure();
      if (!copiesAsync(leaf, *access))
        return "a tile" + kNotCopiedAsync.str();
      if (access->alignment())
        return std::string(
            "a tile's rows keep its vectors aligned only at run time "
            "(layout.stride_multiples on the memref makes it static)");
    }
  return std::string();
}

/// Why the loop-variant tiles cannot have two stages each on `chip` (empty:
/// they can): the block's workgroup memory, with what the kernel already
/// has (placed as the NVVM pipeline places it).
std::string twoStageProblem(const FragmentProgram &p, const Chip &chip) {
  int64_t bytes = 0;
  for (auto [i, leaf] : llvm::enumerate(p.leaves))
    bytes += stagingBufferElements(
                 leaf, llvm::is_contained(p.copies.beforeLoop, i) ? 1 : 2,
                 /*padRows=*/false) *
             elementBytes(leaf.side.elementType);
  int64_t used =
      layoutWorkgroupBuffers(p.loop->getParentOfType<gpu::GPUFuncOp>()).bytes;
  if (used + bytes <= chip.maxBlockBytes)
    return "";
  return llvm::formatv("two stages of its tiles take {0} bytes, over the "
                       "{1} the block has left of its {2}",
                       bytes, chip.maxBlockBytes - used, chip.maxBlockBytes)
      .str();
}

/// Why the last product cannot be issued one iteration late
/// (FragmentRotation; empty: it can), filling `p.rotation` where it can.
std::string planRotation(FragmentProgram &p, const Chip &chip,
                         ArrayRef<int64_t> last) {
  const FragmentCopyPlan &plan = p.copies;
  if (p.sites.size() != 2 || plan.groups.size() != 2 || plan.groupAt[0] != 0 ||
      plan.groupAt[1] != 1)
    return "it has not two products that each read one copy group first";
  FragmentSite &first = p.sites[0], &deferred = p.sites[1];
  // Product 0 goes first in the next iteration: nothing computed in the
  // loop may feed it.
  if (first.a < 0 || first.b < 0 || !isSplatValue(first.contract.getAcc()))
    return "the first product reads a value the loop computes";
  // Its tiles are overwritten a stage later: the deferred product (one
  // iteration late) must not read them.
  for (int i : plan.groups[0])
    if (last[i] != 0)
      return "the last product reads a tile of the first copy group";
  Value result = deferred.contract.getResult();
  if (!result.hasOneUse() || !isa<scf::YieldOp>(*result.getUsers().begin()))
    return "the last product's result is used in the loop";
  int64_t arg = result.getUses().begin()->getOperandNumber();
  BlockArgument carried = p.loop.getRegionIterArgs()[arg];
  if (carried.use_empty())
    return "the iter_arg of the last product's result is not used";
  // Its result is there only once the next iteration's first product is
  // issued.
  Operation *firstUse = nullptr;
  for (Operation *user : carried.getUsers()) {
    Operation *op = p.loop.getBody()->findAncestorOpInBlock(*user);
    if (!op || !first.contract->isBeforeInBlock(op))
      return "the iter_arg of the last product's result is used before the "
             "first product";
    if (!firstUse || op->isBeforeInBlock(firstUse))
      firstUse = op;
  }
  if (std::string why = twoStageProblem(p, chip); !why.empty())
    return why;
  p.rotation.deferred = 1;
  p.rotation.arg = arg;
  p.rotation.firstUse = firstUse;
  return "";
}

/// Every group's tiles copied by cp.async a whole iteration ahead into two
/// stages (FragmentCopyPlan::ahead) where they can be; where they cannot,
/// an error at the loop if it `asked` (layout.copy_release = "ahead"), else
/// `plan.ahead` stays false.
LogicalResult planAhead(FragmentProgram &p, const Chip &chip, bool asked) {
  FragmentCopyPlan &plan = p.copies;
  auto refuse = [&](const Twine &why) -> LogicalResult {
    if (!asked) {
      plan.notAhead = why.str();
      return success();
    }
    return p.loop.emitOpError() << "in a fragment program: "
                                   "layout.copy_release = \"ahead\", but "
                                << why;
  };
  if (std::string why = planIndexOps(p, /*all=*/true); !why.empty())
    return refuse(why);
  FailureOr<std::string> why = asyncProblem(p, chip);
  if (failed(why))
    return failure();
  if (!why->empty())
    return refuse("its tiles cannot be copied by cp.async: " + *why);
  if (std::string bytes = twoStageProblem(p, chip); !bytes.empty())
    return refuse(bytes);
  plan.mode = FragmentCopyMode::Async;
  plan.ahead = true;
  return success();
}

/// The copy groups and mode of `p` (FragmentCopyPlan), the first group's
/// release as `release` asks (layout.copy_release; without it, ahead where
/// `ahead` and possible); `last[i]`: the last site that reads leaf i.
LogicalResult planCopyMode(FragmentProgram &p, const Chip &chip,
                           std::optional<StringRef> release, bool ahead,
                           SmallVector<int64_t> &last) {
  FragmentCopyPlan &plan = p.copies;
  groupLeaves(p, last);
  if (plan.groups.empty()) {
    plan.why = "it stages no tile that changes in the loop";
    if (release == "ahead")
      return p.loop.emitOpError() << "in a fragment program: "
                                     "layout.copy_release = \"ahead\", but "
                                  << plan.why;
    return success();
  }
  if (release ? *release == "ahead" : ahead) {
    if (failed(planAhead(p, chip, release.has_value())))
      return failure();
    if (plan.ahead)
      return success();
  }
  if (plan.groups.size() < 2) {
    plan.why = "its staged tiles are read first by one product: a buffer "
               "each cannot be refilled during the product that reads it";
    return success();
  }
  // Group 0 is refilled (for the next iteration) before the last group's
  // product: no product from then on may read it.
  int64_t lastStart =
      llvm::find(plan.groupAt, int64_t(plan.groups.size() - 1)) -
      plan.groupAt.begin();
  for (int i : plan.groups.front())
    if (last[i] >= lastStart) {
      plan.why = "a tile of the first group is read by the last group's "
                 "product, during which it is refilled";
      return success();
    }
  if (std::string why = planIndexOps(p, /*all=*/false); !why.empty()) {
    plan.why = why;
    return success();
  }
  FailureOr<std::string> why = asyncProblem(p, chip);
  if (failed(why))
    return failure();
  plan.why = *why;
  plan.mode =
      why->empty() ? FragmentCopyMode::Async : FragmentCopyMode::Registers;
  // Group 0's buffers are free after the last product that reads them
  // (before the last group's product: checked above). Early unless the
  // loop asks for "late" (layout.copy_release): the extra barrier gains
  // 1-6% on most kernels but costs 2-4% on some one-warpgroup wgmma ones
  // (bench/RESULTS.md).
  if (plan.mode != FragmentCopyMode::Async)
    return success();
  if (release != "late")
    for (int i : plan.groups.front())
      plan.releaseAfter = std::max(plan.releaseAfter, last[i]);
  return success();
}

} // namespace

LogicalResult tiles::planFragmentCopies(FragmentProgram &p, const Chip &chip,
                                        bool rotate, bool ahead) {
  FragmentCopyPlan &plan = p.copies;
  FailureOr<std::optional<StringRef>> release =
      askedChoice(p.loop, kCopyReleaseAttr, {"early", "late", "ahead"});
  FailureOr<std::optional<StringRef>> order =
      askedChoice(p.loop, kProductOrderAttr, {"rotated", "program"});
  if (failed(release) || failed(order))
    return failure();
  // The copies-ahead option yields to a rotation asked for (the loop's
  // attribute or rotate-products): the rotation has its own two stages.
  bool rotationAsked = *order ? **order == "rotated" : rotate;
  SmallVector<int64_t> last;
  if (failed(planCopyMode(p, chip, *release, ahead && !rotationAsked, last)))
    return failure();
  // wgmma runs asynchronously: the last product can overlap the next
  // iteration's row statistics (FragmentRotation), its copies then a whole
  // iteration ahead instead.
  if (*order ? **order == "program" : !rotate) {
    p.rotation.why = *order ? "the loop asks for it (layout.product_order)"
                            : "not asked for (layout.product_order = "
                              "\"rotated\" or rotate-products)";
    return success();
  }
  if (plan.ahead) {
    p.rotation.why = "the loop asks for its copies ahead "
                     "(layout.copy_release)";
  } else if (plan.mode == FragmentCopyMode::Async &&
             p.inst->operandsInWorkgroupMemory()) {
    p.rotation.why = planRotation(p, chip, last);
    if (p.rotation.deferred >= 0)
      plan.releaseAfter = -1;
  } else {
    p.rotation.why = "its products are not wgmma with cp.async copies";
  }
  if (*order && p.rotation.deferred < 0)
    return p.loop.emitOpError()
           << "in a fragment program: layout.product_order = \"rotated\", "
              "but "
           << p.rotation.why;
  return success();
}

FailureOr<SmallVector<Value>> FragmentCopier::issue(OpBuilder &b, int64_t g,
                                                    const IRMapping &at,
                                                    Value stage) const {
  SmallVector<Value> regs;
  for (int i : plan.groups[g]) {
    const Leaf &leaf = p.leaves[i];
    SmallVector<Value> indices;
    for (Value v : LoadOp(leaf.load).getIndices())
      indices.push_back(at.lookupOrDefault(v));
    if (plan.mode == FragmentCopyMode::Async) {
      if (failed(copyStagedTileAsync(b, loc, leaf, indices, p.staging[i], tid,
                                     threads, stage)))
        return failure();
      continue;
    }
    FailureOr<SmallVector<Value>> r =
        loadStagedTile(b, loc, leaf, indices, p.staging[i], tid, threads);
    if (failed(r))
      return failure();
    llvm::append_range(regs, *r);
  }
  return regs;
}

FailureOr<SmallVector<Value>>
FragmentCopier::issueAt(OpBuilder &b, ArrayRef<int64_t> groups, Value iv,
                        Value ub, const IRMapping &scalars, Value stage) {
  Value below =
      arith::CmpIOp::create(b, loc,
                            old.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                 : arith::CmpIPredicate::slt,
                            iv, ub);
  // The tile indices of that iteration, computed in the branch that uses
  // them.
  auto issueIn = [&](OpBuilder &tb) {
    IRMapping at = scalars;
    at.map(old.getInductionVar(), iv);
    for (Operation *op : plan.indexOps)
      tb.clone(*op, at);
    SmallVector<Value> regs;
    for (int64_t g : groups) {
      FailureOr<SmallVector<Value>> r = issue(tb, g, at, stage);
      if (failed(r))
        return r;
      llvm::append_range(regs, *r);
    }
    return FailureOr<SmallVector<Value>>(std::move(regs));
  };
  if (plan.mode == FragmentCopyMode::Async) {
    auto ifOp = scf::IfOp::create(b, loc, below, /*withElseRegion=*/false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    if (failed(issueIn(tb)))
      return failure();
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    return SmallVector<Value>();
  }
  bool failedIssue = false;
  SmallVector<Type> types;
  auto ifOp = scf::IfOp::create(
      b, loc, below,
      [&](OpBuilder &tb, Location) {
        FailureOr<SmallVector<Value>> regs = issueIn(tb);
        failedIssue = failed(regs);
        if (!failedIssue)
          for (Value v : *regs)
            types.push_back(v.getType());
        scf::YieldOp::create(tb, loc,
                             failedIssue ? SmallVector<Value>() : *regs);
      },
      [&](OpBuilder &eb, Location) {
        SmallVector<Value> zeros;
        for (Type t : types)
          zeros.push_back(arith::ConstantOp::create(
              eb, loc, cast<TypedAttr>(eb.getZeroAttr(t))));
        scf::YieldOp::create(eb, loc, zeros);
      });
  if (failedIssue)
    return failure();
  return SmallVector<Value>(ifOp.getResults());
}

FailureOr<SmallVector<Value>> FragmentCopier::prologue(OpBuilder &b) {
  if (!pipelined())
    return SmallVector<Value>();
  if (plan.ahead) {
    // Every group of the first iteration, into stage 0.
    SmallVector<int64_t> all =
        llvm::to_vector(llvm::seq<int64_t>(0, int64_t(plan.groups.size())));
    return issueAt(b, all, old.getLowerBound(), old.getUpperBound(),
                   IRMapping(), indexConstant(b, loc, 0));
  }
  inFlight = {0};
  return issueAt(b, {0}, old.getLowerBound(), old.getUpperBound(), IRMapping());
}

Value FragmentCopier::stageAt(OpBuilder &b, Value iv) const {
  scf::ForOp loop = old;
  Value n = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
      loop.getStep());
  return arith::RemUIOp::create(b, loc, n, indexConstant(b, loc, 2));
}

LogicalResult FragmentCopier::startIteration(OpBuilder &b, Value stage,
                                             const IRMapping &scalars) {
  if (!plan.ahead)
    return success();
  // This iteration's tiles (started one iteration ago) complete; after the
  // barrier no wave reads the other stage (the previous iteration's
  // products completed: ldmatrix, or wgmma waited for), which the next
  // iteration's tiles then fill.
  completeAndMeet(b);
  Value other = arith::SubIOp::create(b, loc, indexConstant(b, loc, 1), stage);
  Value next =
      arith::AddIOp::create(b, loc, loop.getInductionVar(), loop.getStep());
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, int64_t(plan.groups.size())));
  return issueAt(b, all, next, loop.getUpperBound(), scalars, other);
}

void FragmentCopier::enterLoop(scf::ForOp newLoop, ValueRange carried) {
  loop = newLoop;
  pending.assign(plan.groups.size(), {});
  if (!plan.groups.empty())
    pending.front().assign(carried.begin(), carried.end());
}

LogicalResult FragmentCopier::arrive(OpBuilder &b, int64_t site,
                                     const IRMapping &scalars) {
  int64_t g = plan.groupAt[site];
  if (g < 0 || plan.ahead)
    return success();
  if (plan.mode == FragmentCopyMode::Async) {
    // Group g's commit group and every older one complete; the younger
    // ones may stay in flight.
    auto it = llvm::find(inFlight, g);
    assert(it != inFlight.end() && "waiting for a group not started");
    NVVM::CpAsyncWaitGroupOp::create(b, loc, uint32_t(inFlight.end() - it - 1));
    inFlight.erase(inFlight.begin(), it + 1);
  } else {
    ArrayRef<Value> regs = pending[g];
    for (int i : plan.groups[g]) {
      int64_t n = p.staging[i].vectors();
      storeStagedTile(b, loc, p.leaves[i], p.staging[i], tid, threads,
                      regs.take_front(n), Value());
      regs = regs.drop_front(n);
    }
  }
  fenceStagingForWarpgroupMma(b, loc, *p.inst);
  gpu::BarrierOp::create(b, loc);
  int64_t h = g + 1;
  if (h == int64_t(plan.groups.size())) {
    if (plan.releaseAfter >= 0)
      return success(); // group 0's next tiles started at its release
    inFlight.push_back(0);
    Value iv =
        arith::AddIOp::create(b, loc, loop.getInductionVar(), loop.getStep());
    FailureOr<SmallVector<Value>> regs =
        issueAt(b, {0}, iv, loop.getUpperBound(), scalars);
    if (failed(regs))
      return failure();
    next = std::move(*regs);
    return success();
  }
  FailureOr<SmallVector<Value>> regs = issue(b, h, scalars);
  if (failed(regs))
    return failure();
  if (plan.mode == FragmentCopyMode::Async) {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    inFlight.push_back(h);
  }
  pending[h] = std::move(*regs);
  return success();
}

LogicalResult FragmentCopier::release(OpBuilder &b, int64_t site,
                                      const IRMapping &scalars) {
  if (plan.mode != FragmentCopyMode::Async || site != plan.releaseAfter)
    return success();
  // Every wave is done with group 0's buffers (its products read them
  // synchronously: ldmatrix, or wgmma waited for).
  gpu::BarrierOp::create(b, loc);
  Value iv =
      arith::AddIOp::create(b, loc, loop.getInductionVar(), loop.getStep());
  inFlight.push_back(0);
  return issueAt(b, {0}, iv, loop.getUpperBound(), scalars);
}

void FragmentCopier::completeAndMeet(OpBuilder &b) const {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0u);
  fenceStagingForWarpgroupMma(b, loc, *p.inst);
  gpu::BarrierOp::create(b, loc);
}

LogicalResult FragmentCopier::rotatedPrologue(OpBuilder &b) {
  return issueAt(b, {0}, old.getLowerBound(), old.getUpperBound(), IRMapping(),
                 indexConstant(b, loc, 0));
}

LogicalResult FragmentCopier::rotatedArrive(OpBuilder &b, Value iv, Value stage,
                                            const IRMapping &scalars) {
  // The previous iteration's products have completed in every lane that
  // reaches the barrier (their wgmma waited for), so both stages it read
  // may be refilled after it.
  completeAndMeet(b);
  Value other = arith::SubIOp::create(b, loc, indexConstant(b, loc, 1), stage);
  Value next = arith::AddIOp::create(b, loc, iv, old.getStep());
  if (failed(issueAt(b, {0}, next, old.getUpperBound(), scalars, other)) ||
      failed(issue(b, 1, scalars, stage)))
    return failure();
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  return success();
}

void FragmentCopier::rotatedFinish(OpBuilder &b) const { completeAndMeet(b); }

void FragmentCopier::finish(OpBuilder &b) const {
  if (plan.mode == FragmentCopyMode::Async)
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0u);
  // Ahead, no barrier follows the last iteration's reads: meet, so that
  // code after the loop (the program again, in an enclosing loop, whose
  // prologue refills stage 0 before any barrier) finds the buffers free.
  if (plan.ahead)
    gpu::BarrierOp::create(b, loc);
}

void FragmentCopier::remark() const {
  int64_t groups = plan.groups.size();
  std::string text = llvm::formatv(
      "{0} staged tile(s) once before the loop, {1} per iteration; ",
      plan.beforeLoop.size(), p.leaves.size() - plan.beforeLoop.size());
  StringRef copies;
  switch (plan.mode) {
  case FragmentCopyMode::Async:
    copies = "cp.async";
    if (p.rotation.deferred >= 0 || plan.ahead) {
      text += llvm::formatv(
          "those in {0} groups, copied by cp.async a "
          "whole iteration ahead into two stages ({1}); "
          "1 barrier per iteration",
          groups, plan.ahead ? "copies ahead" : "the products rotated");
      break;
    }
    text += llvm::formatv(
        "those in {0} groups, each copied by cp.async during the product "
        "before the one that reads it{1}; {2} barriers per iteration",
        groups,
        plan.releaseAfter >= 0
            ? llvm::formatv(", the first group's next tiles from right "
                            "after product {0}, its last reader",
                            plan.releaseAfter + 1)
                  .str()
            : std::string(" (layout.copy_release = \"late\")"),
        groups + (plan.releaseAfter >= 0 ? 1 : 0));
    if (p.inst->operandsInWorkgroupMemory() && !p.rotation.why.empty())
      text += "; the products in program order: " + p.rotation.why;
    break;
  case FragmentCopyMode::Registers:
    copies = "registers";
    text += llvm::formatv("those in {0} groups, each loaded into "
                          "registers during the product before the one that "
                          "reads it; {0} barriers per iteration; not cp.async: "
                          "{1}",
                          groups, plan.why);
    break;
  case FragmentCopyMode::Synchronous:
    copies = "synchronous";
    text += llvm::formatv("those loaded, written and met by two "
                          "barriers right before the product that reads "
                          "them: {0}",
                          plan.why);
    break;
  }
  if (!plan.notAhead.empty())
    text += "; not ahead (copies-ahead): " + plan.notAhead;
  scf::ForOp at = old;
  emitLayoutRemark(
      at.getLoc(), "FragmentCopies", "layout-tiles",
      at->getParentOfType<gpu::GPUFuncOp>().getName(),
      "in a fragment program: " + text,
      {{"Copies", copies.str()}, {"Groups", std::to_string(groups)}},
      p.remarks);
}
