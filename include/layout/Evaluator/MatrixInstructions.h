//===- MatrixInstructions.h - Matrix instructions and their layouts -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The one table of the matrix instructions the project targets (f16 / bf16
// inputs, f32 accumulation): AMD MFMA (gfx90a, gfx942, gfx950), AMD WMMA
// (gfx11) and NVIDIA mma.sync m16n8k16 (sm_8x, sm_9x).
//
// "Register layouts are layouts": each operand's register layout is a
// `Descriptor` with top coordinate (lane, element) whose offset is the linear
// offset of that element in the row-major operand tile: A is M x K, B is
// K x N, C (and D) is M x N. The descriptors are built from transforms in
// MatrixInstructions.cpp, each next to its citation; the CPU emulator, the
// distribution and the bank model ask this table instead of restating the
// formulas. docs/matrix-instructions.md lists the formulas and pictures.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H
#define LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H

#include "layout/Evaluator/Descriptor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// The instruction families.
enum class MatrixFamily : uint8_t { MFMA, WMMA, MmaSync };

/// The input (A and B) element kinds; every instruction here accumulates in
/// f32.
enum class MatrixElementKind : uint8_t { F16, BF16 };

/// The three operands; C stands for the accumulator and the result D, which
/// share one layout.
enum class MatrixOperand : uint8_t { A, B, C };

/// The chip generations of the table. A chip string maps to at most one
/// (classifyChip).
enum class ChipGeneration : uint8_t {
  CDNA2, ///< gfx90a
  CDNA3, ///< gfx942
  CDNA4, ///< gfx950
  RDNA3, ///< gfx11* (gfx1100 ... gfx1153)
  SM80,  ///< sm_8x and sm_9x (sm_80, sm_86, sm_89, sm_90, sm_90a)
};

llvm::StringRef stringifyMatrixFamily(MatrixFamily family);
/// "f16" or "bf16".
llvm::StringRef stringifyMatrixElementKind(MatrixElementKind kind);
/// "A", "B" or "C".
llvm::StringRef stringifyMatrixOperand(MatrixOperand operand);

/// The generation of `chip` ("gfx942", "gfx1100", "sm_90", ...; a target-id
/// feature suffix such as ":sramecc+:xnack-" is ignored), or std::nullopt for
/// a chip outside the table.
std::optional<ChipGeneration> classifyChip(llvm::StringRef chip);

/// What the MLIR 22 op that issues the instruction needs spelled out.
struct MatrixOpSpelling {
  /// "amdgpu.mfma", "amdgpu.wmma" or "nvgpu.mma.sync".
  llvm::StringRef opName;
  /// The operand vector shapes: `vector<4xf16>` is {4}; nvgpu.mma.sync's
  /// (registers x elements per register) `vector<4x2xf16>` is {4, 2}. C is
  /// the accumulator and result type.
  llvm::SmallVector<int64_t, 2> aShape, bShape, cShape;
  /// amdgpu.mfma's `blocks` (1 for every instruction here; 0 for the others).
  int64_t blocks = 0;
  /// False where the op does not lower this element kind in MLIR 22
  /// (nvgpu.mma.sync with bf16: emit nvvm.mma.sync with i32-packed operands).
  bool lowersInMlir22 = true;
};

/// One matrix instruction: D = A * B + C for one wave (warp).
struct MatrixInstruction {
  /// As the ISA guide / PTX spells it (the gfx942 / gfx950 assembler spelling
  /// for MFMA; see mnemonicOn for gfx90a's).
  llvm::StringRef mnemonic;
  /// gfx90a's assembler spelling (e.g. v_mfma_f32_32x32x8bf16_1k); empty when
  /// the instruction is not on gfx90a.
  llvm::StringRef cdna2Mnemonic;
  MatrixFamily family;
  int64_t m, n, k;
  MatrixElementKind inputKind;
  /// Lanes of the wave (64 for MFMA, 32 for gfx11 WMMA and mma.sync).
  int64_t waveSize;
  /// Elements of A, B and C each lane holds.
  int64_t aElementsPerLane, bElementsPerLane, cElementsPerLane;
  /// How many (lane, element) pairs hold each element of A and of B (2 for
  /// gfx11 WMMA, whose half-waves hold copies; 1 otherwise). C is never
  /// replicated.
  int64_t abReplication;
  /// The generations that have the instruction (bits of 1 << ChipGeneration).
  unsigned generations;
  MatrixOpSpelling op;
  /// (lane, element) -> offset in the row-major A (M x K), B (K x N) and
  /// C (M x N) tile; top lengths [waveSize, elements per lane].
  Descriptor a, b, c;

  const Descriptor &layout(MatrixOperand operand) const;
  /// (rows, cols) of the operand tile: A (M, K), B (K, N), C (M, N).
  std::pair<int64_t, int64_t> tileShape(MatrixOperand operand) const;
  int64_t elementsPerLane(MatrixOperand operand) const;
  int64_t replication(MatrixOperand operand) const;
  bool availableOn(ChipGeneration generation) const;
  bool availableOn(llvm::StringRef chip) const;
  /// The assembler's spelling on `chip` (cdna2Mnemonic on gfx90a).
  llvm::StringRef mnemonicOn(llvm::StringRef chip) const;
  /// "32x32x8", amdgpu.mfma / amdgpu.wmma's MxNxK list (nvgpu.mma.sync's
  /// mmaShape is [m, n, k]).
  std::string shapeString() const;
};

/// A (row, column) of an operand tile.
struct MatrixCoord {
  int64_t row = 0;
  int64_t col = 0;
  bool operator==(const MatrixCoord &o) const {
    return row == o.row && col == o.col;
  }
};

/// The (row, col) of the operand tile that `lane` holds in its `element`:
/// the layout's offset split by the tile's column count. Requires 0 <= lane <
/// waveSize and 0 <= element < elementsPerLane(operand).
MatrixCoord operandCoord(const MatrixInstruction &inst, MatrixOperand operand,
                         int64_t lane, int64_t element);

/// Every instruction of the table.
llvm::ArrayRef<MatrixInstruction> getMatrixInstructions();
/// The instructions available on `chip` (empty for an unknown chip).
llvm::SmallVector<const MatrixInstruction *>
getMatrixInstructions(llvm::StringRef chip);
/// The instruction of `chip` with these inputs and shape, or nullptr.
const MatrixInstruction *findMatrixInstruction(llvm::StringRef chip,
                                               MatrixElementKind kind,
                                               int64_t m, int64_t n, int64_t k);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H
