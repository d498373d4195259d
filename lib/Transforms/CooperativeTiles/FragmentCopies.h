//===- FragmentCopies.h - Fragment programs: the staged copies --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// How a fragment program's loop-variant staged tiles (attention's K and V)
// reach their workgroup buffers. Each tile has one buffer (two stages where
// the copies go a whole iteration ahead or the products are rotated, below
// and FragmentRotation.cpp); the tiles are
// grouped by the product that first reads them (K before S = Q K^T, V
// before O += P V), and each group's copy runs one product ahead, as in
// FlashAttention-2's forward loop (flash_fwd_kernel.h: the V copy is
// issued before S = Q K^T, the next K copy before the softmax and P V):
//
//   before product g:  wait for group g's copy; barrier;
//                      start group g + 1's copy (after the last group:
//                      group 0 of the next iteration, if there is one)
//
// With cp.async, group 0's next tiles start earlier: right after the last
// product that reads them, behind a barrier (every wave is done with the
// buffer), so that they load during the rest of the iteration (attention's
// K during the softmax and P V, not only during P V).
//
// The barrier before product g is also the one after which no wave reads
// group g + 1's buffer for the previous iteration, so one buffer per tile
// suffices and an iteration meets the block once per group (the
// synchronous staging meets it twice per group and overlaps nothing).
// Group 0's buffer is refilled before the last group's product, so its
// tiles must be read by then.
//
// The copies are cp.async (Async: PTX cp.async into the buffer, zero-fill
// past a masked edge) where the chip has them and every tile goes
// straight into its buffer as aligned 4-, 8- or 16-byte vectors; else
// each thread loads its part of the next group into registers and writes
// it to the buffer at the group's product (Registers: the loads are in
// flight during the product before). Synchronous where the program has a
// single group or the next iteration's tile indices cannot be computed
// ahead.
//
// Asked for (layout.copy_release = "ahead", or the tile pass's copies-ahead
// option where the loop asks for nothing else), every group goes a whole
// iteration ahead into two stages, a single group too: at the top of
// iteration j the block waits for j's tiles, meets once, and starts every
// tile of j + 1 into the other stage, (j - lb) / step mod 2; the products
// wait for nothing.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTCOPIES_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTCOPIES_H

#include "FragmentProgram.h"

#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace layout {
namespace tiles {

/// Plans `p.copies` on `chip`: the groups, the mode and why it is not a
/// faster one. Traces the tiles' global accesses before the loop (a
/// diagnostic where one cannot be traced).
/// With `rotate`, the last product runs one iteration late where it can
/// (FragmentRotation; a loop's layout.product_order decides for it); with
/// `ahead`, the copies run a whole iteration ahead where they can
/// (FragmentCopyPlan::ahead; a loop's layout.copy_release decides for it).
LogicalResult planFragmentCopies(FragmentProgram &p, const Chip &chip,
                                 bool rotate, bool ahead);

/// Emits the copies that FragmentCopyPlan planned, for the fragment
/// program's emitter (FragmentEmit.cpp).
class FragmentCopier {
public:
  FragmentCopier(const FragmentProgram &p, Location loc, Value tid,
                 int64_t threads)
      : p(p), plan(p.copies), old(p.loop), loc(loc), tid(tid),
        threads(threads) {}

  bool pipelined() const { return plan.mode != FragmentCopyMode::Synchronous; }

  /// Before the loop: starts group 0's copies for the first iteration
  /// (ahead: every group's, into stage 0).
  /// Returns the registers the loop carries for it (Registers mode; the
  /// new loop's extra iter_args' initial values).
  FailureOr<SmallVector<Value>> prologue(OpBuilder &b);
  /// Binds the new loop and the block arguments of the carried registers.
  void enterLoop(scf::ForOp loop, ValueRange carried);
  /// Before the products of site `site`: completes the copies of the group
  /// it first reads, meets the block, starts the next group's copies.
  /// `scalars` maps the old loop's scalars to this iteration's.
  LogicalResult arrive(OpBuilder &b, int64_t site, const IRMapping &scalars);
  /// After the products of site `site`: where the plan releases group 0's
  /// buffers there (FragmentCopyPlan::releaseAfter), meets the block and
  /// starts group 0's copies of the next iteration.
  LogicalResult release(OpBuilder &b, int64_t site, const IRMapping &scalars);
  /// The stage of the tiles of the iteration at `iv` in a loop of two
  /// stages: the iteration's number, (iv - lb) / step, mod 2 (as the GEMM's
  /// pipelines compute theirs; the bank-conflict proof evaluates it).
  Value stageAt(OpBuilder &b, Value iv) const;
  /// At the top of an iteration whose tiles are in `stage`, after its
  /// scalars (FragmentCopyPlan::ahead; nothing otherwise): this
  /// iteration's copies complete, the block meets, every group's tiles of
  /// the next iteration start into the other stage.
  LogicalResult startIteration(OpBuilder &b, Value stage,
                               const IRMapping &scalars);
  /// The carried registers' next values (the new loop's extra yields).
  ArrayRef<Value> yielded() const { return next; }
  /// After the loop: no copy stays in flight (ahead, the block also meets:
  /// no barrier followed the last iteration's reads).
  void finish(OpBuilder &b) const;

  /// The copies of a rotated program (FragmentRotation: two stages, one
  /// meeting an iteration). Before the peeled first iteration: its group 0
  /// into stage 0.
  LogicalResult rotatedPrologue(OpBuilder &b);
  /// At the top of the iteration at `iv`, whose tiles go to stage `stage`
  /// (`scalars` maps the old loop's scalars to its): every copy started
  /// so far completes (this iteration's group 0, the previous one's group
  /// 1), the block meets, then group 0's tiles of the next iteration start
  /// into the other stage and group 1's of this one into `stage`.
  LogicalResult rotatedArrive(OpBuilder &b, Value iv, Value stage,
                              const IRMapping &scalars);
  /// After the loop, before the last deferred product: the last group 1
  /// completes and the block meets.
  void rotatedFinish(OpBuilder &b) const;
  /// Remarks the plan at the loop (where remarks are asked for).
  void remark() const;

private:
  /// Every copy started so far completes (cp.async.wait_group 0; the
  /// writes made visible to wgmma's async proxy where it reads them), and
  /// the block meets: the top of a two-stage iteration, and the end of a
  /// rotated loop.
  void completeAndMeet(OpBuilder &b) const;
  /// Starts (Async) or loads into registers (Registers) group `g`'s tiles
  /// at the old loop's tile indices mapped by `at`.
  FailureOr<SmallVector<Value>> issue(OpBuilder &b, int64_t g,
                                      const IRMapping &at,
                                      Value stage = Value()) const;
  /// The copies of `groups` for the iteration at `iv` (the prologue's
  /// lower bound, or the next iteration's), under the test that it is
  /// below the upper bound: the registers loaded (zeros where it is not).
  FailureOr<SmallVector<Value>> issueAt(OpBuilder &b, ArrayRef<int64_t> groups,
                                        Value iv, Value ub,
                                        const IRMapping &scalars,
                                        Value stage = Value());

  const FragmentProgram &p;
  const FragmentCopyPlan &plan;
  /// The tile program's loop, and the new one (enterLoop).
  scf::ForOp old;
  Location loc;
  Value tid;
  int64_t threads;
  scf::ForOp loop;
  /// Registers mode: the registers of each group loaded by the previous
  /// product (group 0's: the loop's carried block arguments).
  SmallVector<SmallVector<Value>> pending;
  SmallVector<Value> next;
  /// Async: the groups whose cp.async commit groups are in flight, oldest
  /// first (what cp.async.wait_group counts).
  SmallVector<int64_t> inFlight;
};

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTCOPIES_H
