//===- BankModel.h - The bank model of workgroup memory ---------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// How many cycles one wave's access to workgroup memory (LDS, shared memory)
// takes on a chip: the lanes are served in phases (the chip's phase rule,
// Chip::phaseRule), and within a phase distinct 4-byte words in one bank
// serialize while lanes reading the same word share it (broadcast). This is
// the model's one definition: the proof (-layout-analyze-bank-conflicts),
// the swizzle search and the brute-force test pass all count with it. It
// knows no IR: it takes byte addresses.
//
// Sources: AMD's CDNA3 ISA guide, section 11 ("LDS"), and the LDS bank
// notes of the CDNA4 ISA guide (64 banks, 32 of them for writes); NVIDIA's
// CUDA C++ Programming Guide, "Shared Memory" (32 banks of 4 bytes; 64- and
// 128-bit accesses in 2 and 4 phases of 16 and 8 lanes), and the PTX ISA
// for ldmatrix (each lane of 8 reads one 16-byte row).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TARGET_BANKMODEL_H
#define LAYOUT_TARGET_BANKMODEL_H

#include "layout/Target/Chip.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace layout {

/// The outcome of one access by one wave.
struct ConflictCount {
  /// Phases the access needs, and the cycles it takes (one per phase when
  /// there is no conflict).
  unsigned phases = 0;
  unsigned cycles = 0;
  /// The worst number of distinct words in one bank within a phase.
  unsigned maxWays = 0;
  /// cycles - phases: the extra cycles the conflicts cost.
  unsigned extra() const { return cycles - phases; }
  /// More extra cycles, or as many with more ways: the worse of two waves.
  bool worseThan(const ConflictCount &o) const {
    return extra() > o.extra() || (extra() == o.extra() && maxWays > o.maxWays);
  }
};

/// Counts the conflicts of one wave's access on `chip`: `laneBytes[i]` is
/// lane i's byte address (std::nullopt: the lane does not access memory),
/// each lane touching `accessBytes` bytes. Lanes that touch the same word
/// are served together (broadcast); distinct words in one bank within a
/// phase serialize. Lanes of different `laneClass` (when given) never share
/// a word. This is the model's definition, used by the analysis and by
/// the brute-force check alike.
ConflictCount countConflicts(const Chip &chip, SharedAccessKind kind,
                             llvm::ArrayRef<std::optional<int64_t>> laneBytes,
                             unsigned accessBytes,
                             llvm::ArrayRef<unsigned> laneClass = {});

/// Whether rows of `rowLength` elements of `elementBytes` bytes are an odd
/// number of 4-byte banks apart (of 8-byte pairs for wider elements): then
/// lanes on consecutive rows of one column, any power of two of them up to
/// the number of banks, hit different banks whatever row they start at.
bool isOddWordRow(int64_t rowLength, int64_t elementBytes);

/// The most padding steps paddedRowLength tries.
constexpr int64_t kMaxRowPaddingSteps = 16;

/// Row padding of workgroup buffers, decided here alone: the length that
/// rows of `length` elements of `elementBytes` bytes are padded to, the
/// first of `length + k * step` (k = 0, 1, ..., kMaxRowPaddingSteps) that
/// `conflictFree` accepts, or std::nullopt where none does. `step` (the
/// widest vector access, in elements) keeps padded accesses aligned.
/// Without `conflictFree`, the rule is isOddWordRow: the tile pass pads its
/// window buffers by it before their accesses exist; the swizzle, which
/// sees a buffer's accesses, passes its proof of zero conflicts instead.
std::optional<int64_t>
paddedRowLength(int64_t length, int64_t elementBytes, int64_t step = 1,
                llvm::function_ref<bool(int64_t)> conflictFree = nullptr);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TARGET_BANKMODEL_H
