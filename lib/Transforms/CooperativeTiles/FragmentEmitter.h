//===- FragmentEmitter.h - Fragment programs: the emitter -------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The state of a fragment program's emission (FragmentEmit.cpp): each
// program value's lane values, the scalars, the staged copies. Shared by
// the loop in program order (FragmentEmit.cpp) and the rotated one
// (FragmentRotation.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTEMITTER_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTEMITTER_H

#include "ContractionFragments.h"
#include "FragmentCopies.h"
#include "FragmentProgram.h"

#include "mlir/IR/IRMapping.h"

#include <map>

namespace mlir {
namespace layout {
namespace tiles {

/// One lane's value of a program value: Matrix, its C fragments (row-major
/// over the wave tile); Slice, one vector of its rows' values; Scalar, the
/// value.
struct LaneValue {
  FragmentKind kind = FragmentKind::Scalar;
  SmallVector<Value> parts;
};

struct FragmentEmitter {
  FragmentProgram &p;
  Location loc;
  const MatrixInstruction &inst;
  std::vector<FragmentContext> contexts;
  DenseMap<Value, LaneValue> values;
  IRMapping scalars;
  Value tid;
  int64_t threads;
  /// The leaves staged so far in the current iteration (or before the
  /// loop, for the loop-invariant ones).
  DenseSet<int> staged;
  /// The loop-variant tiles' copies, where they run ahead (FragmentCopies.h).
  std::optional<FragmentCopier> copier;

  const FragmentContext &cx() const { return contexts.front(); }
  /// The C fragment type with elements `et`.
  VectorType fragmentType(Type et) const {
    return VectorType::get(operandType(inst, MatrixOperand::C, et).getShape(),
                           et);
  }
  VectorType sliceType(Type et) const {
    return VectorType::get({int64_t(p.rows.groups.size())}, et);
  }
  /// C fragments of a BM x cols tile per lane.
  int64_t fragmentsOf(int64_t cols) const {
    auto [r, c] = p.tilesOf(cols);
    return r * c;
  }
  /// The program's (row, column) of register `e` of C fragment `tile` (of
  /// `tilesPerRow` along the instruction's columns): the instruction tile's
  /// coordinate moved to the fragment's and the wave's place, swapped when
  /// the instructions compute the transposes.
  std::pair<Value, Value> coordOf(OpBuilder &b, int64_t tile, int64_t e,
                                  int64_t tilesPerRow) const;
  int64_t fragmentsOf(Value tile) const {
    return fragmentsOf(cast<VectorType>(tile.getType()).getDimSize(1));
  }
  /// The lane values program value `v` takes: its C fragments (Matrix), or
  /// one (a slice's vector, a scalar).
  int64_t partsOf(Value v) const {
    return p.kinds.lookup(v) == FragmentKind::Matrix ? fragmentsOf(v) : 1;
  }
  /// The C fragments of `site`'s accumulator operand.
  SmallVector<Value> accumulatorParts(OpBuilder &b,
                                      const FragmentSite &site) const;

  Value scalar(Value v) const { return scalars.lookupOrDefault(v); }
  Value elementAt(OpBuilder &b, Value fragment, int64_t e) const;
  /// `x` of lane `lane ^ mask` (gpu.shuffle xor over the wave).
  Value shuffleXor(OpBuilder &b, Value x, int64_t mask) const;
  /// `mine` in the lanes whose bit is set in `own`, `other` elsewhere.
  Value selectOwn(OpBuilder &b, uint64_t own, Value mine, Value other) const;
  Value splatAs(OpBuilder &b, Value v, VectorType type) const;
  /// The scalar of splat `v` (a splat constant or a broadcast scalar), or
  /// null where `v` is not one.
  Value splatScalar(OpBuilder &b, Value v) const;
  /// `v`'s part `i` as a value of `type` (the user's kind).
  Value partOf(OpBuilder &b, Value v, int64_t i, VectorType type) const;

  void emitElementwise(OpBuilder &b, Operation *op);
  /// A planned mask (FragmentMask): its select's true value where the
  /// compare holds over the whole block tile, else the compare and select.
  void emitMask(OpBuilder &b, arith::SelectOp select, const FragmentMask &m);
  void emitReduction(OpBuilder &b, vector::MultiDimReductionOp op);
  void emitBroadcast(OpBuilder &b, vector::BroadcastOp op);
  /// A broadcast of positions: each register's row or column put through
  /// the positions' ops (positionAt).
  void emitPositions(OpBuilder &b, vector::BroadcastOp op);
  /// The scalar value of positions `v` at position `at`.
  Value positionAt(OpBuilder &b, Value v, Value at);
  /// The producer registers exchanged with a lane's xor partner, once
  /// each: by (tile, element, mask).
  using Exchanges = std::map<std::tuple<int64_t, int64_t, int64_t>, Value>;
  /// Instruction tile `tile` of `site`'s computed operand (A, or B of the
  /// transposed products): a re-view of the `producer`'s C fragments
  /// (FragmentProgram.cpp checked that it is the same in every lane), or
  /// registers of the lane's xor partner.
  Value reViewTile(OpBuilder &b, const FragmentSite &site,
                   ArrayRef<Value> producer, Exchanges &exchanged,
                   int64_t tile) const;
  LogicalResult emitContraction(OpBuilder &b, const FragmentSite &site);
  LogicalResult stage(OpBuilder &b, ArrayRef<int> leaves);
  LogicalResult emitStore(OpBuilder &b, StoreOp store);
  /// A Matrix tile's store of FragmentProgram::pairStores: each lane's
  /// pairs of consecutive columns as 2-vectors (storeRuns: one test that
  /// the whole tile is inside, else each pair tested).
  LogicalResult storePairs(OpBuilder &b, StoreOp store, const LaneValue &v);
  LogicalResult emitOp(OpBuilder &b, Operation *op);
  void remark(const FragmentSite &site) const;
};

/// The lane's values of the loop's initial iter_args.
SmallVector<Value> initialParts(OpBuilder &b, FragmentEmitter &e);
/// Gives the lane values of `kinds`-shaped `parts` to `targets` in order.
void bindParts(FragmentEmitter &e, ValueRange targets, ValueRange parts);
/// The lane's parts of value `v` yielded for iter_arg `arg`.
void appendYielded(OpBuilder &b, FragmentEmitter &e, Value arg, Value v,
                   SmallVector<Value> &out);

/// Emits the rotated loop of `p` (FragmentRotation; FragmentRotation.cpp)
/// after the emitter's setup: the peeled first iteration, the loop, the
/// last deferred product; binds the old loop's results.
LogicalResult emitRotatedLoop(FragmentEmitter &e, OpBuilder &b);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTEMITTER_H
