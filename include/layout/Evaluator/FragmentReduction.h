//===- FragmentReduction.h - Row statistics of fragments in registers -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A reduction of a tile held in one matrix instruction's fragments (a row
// max or sum of an accumulator: attention's softmax statistics) along one
// dimension runs in registers when the lanes that share a kept coordinate
// (a row) are an xor group: each lane first folds its own registers of
// that row, then a butterfly of gpu.shuffle xor over the group's masks
// (issue 40, item 3; docs/attention-plan.md, section 2.6). Which registers
// and which masks follow from the register layouts of MatrixInstructions.h
// alone, found here by brute force over (lane, register), so that a new
// instruction in the table gets its answer without new code: PTX mma.sync
// C: rows g and g + 8 of lane 4 g + t, masks 1 and 2 (the columns 2 t,
// 2 t + 1 of the four lanes t); MFMA 32x32 C kept by column: lanes l and
// l ^ 32.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_FRAGMENTREDUCTION_H
#define LAYOUT_EVALUATOR_FRAGMENTREDUCTION_H

#include "layout/Evaluator/FragmentConversion.h"

namespace mlir {
namespace layout {

/// A lane's register of a fragment over a tile of several instruction
/// tiles: element `element` of instruction tile `tile`.
struct FragmentRegister {
  int64_t tile = 0;
  int64_t element = 0;
  bool operator==(const FragmentRegister &o) const {
    return tile == o.tile && element == o.element;
  }
};

struct FragmentReduction {
  /// Each lane's registers, grouped by the kept coordinate they hold, the
  /// same groups in every lane (groups[g] lists one lane's registers of its
  /// g-th kept coordinate, in register order).
  llvm::SmallVector<llvm::SmallVector<FragmentRegister>> groups;
  /// The butterfly: single-bit masks b (ascending) such that lane l ^ b
  /// holds the same kept coordinate as lane l in every group; the lanes
  /// l ^ (any xor of masks) hold, between them, each element of that
  /// coordinate's line exactly once.
  llvm::SmallVector<int64_t> masks;
  /// kept[lane * groups.size() + g]: the kept coordinate (row or column of
  /// the tile) of lane `lane`'s group g.
  llvm::SmallVector<int64_t> kept;

  int64_t keptOf(int64_t lane, int64_t group) const {
    return kept[lane * int64_t(groups.size()) + group];
  }
};

/// How to reduce the `rows` x `cols` tile that `inst`'s `operand` fragments
/// hold (its instruction tiles row-major over the tile) along dimension
/// `axis` (1: along the columns, keeping rows; 0: along the rows, keeping
/// columns), in registers. Errors: a tile the instruction tiles do not
/// divide, an axis other than 0 or 1, lanes whose registers of one kept
/// coordinate differ in structure, and lanes sharing a kept coordinate
/// that no xor butterfly covers exactly once (a replicated operand, or a
/// line split otherwise).
llvm::Expected<FragmentReduction>
planFragmentReduction(const MatrixInstruction &inst, MatrixOperand operand,
                      int64_t axis, int64_t rows, int64_t cols);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_FRAGMENTREDUCTION_H
