//===- FragmentMasks.cpp - Fragment programs: masks with a fast path -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// planMasks (FragmentProgram.h): the selects of a fragment program whose
// condition is a conjunction of compares of monotone positions, which the
// emission tests at the block tile's ends first (FragmentMask).
//
//===----------------------------------------------------------------------===//

#include "FragmentProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

/// Whether positions `v` (FragmentKind::Coordinates) are monotone along
/// their dimension: a sequence (vector.step or an arithmetic-sequence
/// constant) plus or minus splats, through shape casts.
static bool monotonePositions(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<vector::StepOp>(def) || arithmeticSequence(def))
    return true;
  if (auto cast = dyn_cast<vector::ShapeCastOp>(def))
    return monotonePositions(cast.getSource());
  if (isa<arith::AddIOp>(def))
    return (monotonePositions(def->getOperand(0)) &&
            isSplatValue(def->getOperand(1))) ||
           (isSplatValue(def->getOperand(0)) &&
            monotonePositions(def->getOperand(1)));
  if (isa<arith::SubIOp>(def))
    return monotonePositions(def->getOperand(0)) &&
           isSplatValue(def->getOperand(1));
  return false;
}

void tiles::planMasks(FragmentProgram &p) {
  Block *body = p.loop.getBody();
  for (Operation &op : body->without_terminator()) {
    auto select = dyn_cast<arith::SelectOp>(op);
    if (!select || p.kinds.lookup(select.getResult()) != FragmentKind::Matrix)
      continue;
    FragmentMask mask;
    SetVector<Operation *> ops;
    // The conjunction's compares; false where the condition is another op.
    std::function<bool(Value)> collect = [&](Value c) {
      Operation *def = c.getDefiningOp();
      if (!def || def->getBlock() != body)
        return false;
      if (isa<arith::AndIOp>(def)) {
        ops.insert(def);
        return collect(def->getOperand(0)) && collect(def->getOperand(1));
      }
      auto compare = dyn_cast<arith::CmpIOp>(def);
      if (!compare || llvm::is_contained(
                          {arith::CmpIPredicate::eq, arith::CmpIPredicate::ne},
                          compare.getPredicate()))
        return false;
      ops.insert(def);
      mask.compares.push_back(compare);
      for (Value side : def->getOperands()) {
        if (isSplatValue(side))
          continue;
        auto b = side.getDefiningOp<vector::BroadcastOp>();
        if (!b || b->getBlock() != body ||
            !isa<VectorType>(b.getSourceType()) ||
            !monotonePositions(b.getSource()))
          return false;
        ops.insert(b);
      }
      return true;
    };
    if (!collect(select.getCondition()))
      continue;
    // Used nowhere else: the fast path does not emit them.
    bool own = llvm::all_of(ops, [&](Operation *o) {
      return llvm::all_of(o->getUsers(), [&](Operation *user) {
        return user == select || ops.contains(user);
      });
    });
    if (!own)
      continue;
    mask.ops = ops.takeVector();
    llvm::sort(mask.ops, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    p.masks[select] = std::move(mask);
  }
}
