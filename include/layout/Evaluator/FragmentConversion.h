//===- FragmentConversion.h - An accumulator reused as an operand -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// When a tile that one matrix instruction leaves in its C (accumulator)
// fragments is the A or B operand of the next one (attention's P = f(Q K^T)
// times V), which lane holds each element in the two register layouts of
// MatrixInstructions.h decides what has to move (issue 40, item 2; the
// question Triton's linear layouts answer for convert_layout, and that
// FlashAttention's convert_layout_acc_Aregs and CK Tile's transposed-C warp
// GEMMs answer by hand):
//
//  - nothing: every lane already holds the operand elements it needs (a
//    re-view of its registers; mma.sync m16n8k16's C fragments of two n8
//    tiles are the A fragment of the next m16n8k16);
//  - values across lanes: one gpu.shuffle (DPP / ds_bpermute on AMD) per
//    operand element and producer register it reads from other lanes;
//  - a round trip through workgroup memory, where shuffles would cost more
//    than one per operand element (or the operand is read from memory).
//
// Decided element by element over the wave's tile from the two layouts'
// descriptors, so a new instruction in the table gets its answer without a
// new rule.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_FRAGMENTCONVERSION_H
#define LAYOUT_EVALUATOR_FRAGMENTCONVERSION_H

#include "layout/Evaluator/MatrixInstructions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace layout {

/// A register of a wave's fragments over a tile of several instruction
/// tiles: lane `lane`'s element `element` of instruction tile `tile` (the
/// instruction tiles numbered row-major over the wave's tile).
struct FragmentSlot {
  int64_t lane = 0;
  int64_t tile = 0;
  int64_t element = 0;
  bool operator==(const FragmentSlot &o) const {
    return lane == o.lane && tile == o.tile && element == o.element;
  }
};

enum class FragmentConversionKind : uint8_t {
  /// Every lane holds what it needs: the operand's registers are the
  /// accumulator's, re-viewed (in another order) in the same lane.
  ReView,
  /// Some lanes read registers of other lanes: `shuffles` gpu.shuffle ops.
  Shuffles,
  /// Through workgroup memory (a proved conflict-free buffer).
  WorkgroupMemory,
};

llvm::StringRef stringifyFragmentConversionKind(FragmentConversionKind kind);

struct FragmentConversion {
  FragmentConversionKind kind = FragmentConversionKind::WorkgroupMemory;
  /// The consumer's operand slots over the wave's tile, lane-major: slot
  /// (lane, tile, element) at (lane * tiles + tile) * elements + element,
  /// `operandTiles` tiles of `operandElements` elements; each finds its
  /// value in the producer's C fragments at sources[slot].
  int64_t operandTiles = 0, operandElements = 0;
  llvm::SmallVector<FragmentSlot> sources;
  /// gpu.shuffle ops each lane runs (0 for ReView): for each operand (tile,
  /// element) some lane reads from another lane, one per producer (tile,
  /// element) its lanes read.
  int64_t shuffles = 0;
  /// Why the conversion goes through workgroup memory (empty otherwise).
  std::string reason;

  const FragmentSlot &source(int64_t lane, int64_t tile,
                             int64_t element) const {
    return sources[(lane * operandTiles + tile) * operandElements + element];
  }
};

/// The (row, column) in a tile `cols` wide, made of `inst`'s `operand`
/// tiles row-major, of lane `lane`'s element `element` of instruction tile
/// `tile` (operandCoord moved to the tile's place).
MatrixCoord fragmentTileCoord(const MatrixInstruction &inst,
                              MatrixOperand operand, int64_t cols, int64_t lane,
                              int64_t tile, int64_t element);

/// Whether `rows` x `cols` is whole tiles of `inst`'s `operand` tile (an
/// error naming both otherwise).
llvm::Error checkFragmentTiling(const MatrixInstruction &inst,
                                MatrixOperand operand, int64_t rows,
                                int64_t cols);

/// How the `rows` x `cols` tile that `producer` leaves in C fragments (its
/// instruction tiles row-major over the tile) becomes `consumer`'s
/// `operand` fragments (A: rows = M, cols = K; B: rows = K, cols = N).
/// Shuffles where they cost at most one per operand element the lane
/// holds, else workgroup memory. Errors: operand C, different wave sizes,
/// a tile the instruction tiles do not divide.
llvm::Expected<FragmentConversion>
planFragmentConversion(const MatrixInstruction &producer,
                       const MatrixInstruction &consumer, MatrixOperand operand,
                       int64_t rows, int64_t cols);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_FRAGMENTCONVERSION_H
