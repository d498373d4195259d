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

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TARGET_BANKMODEL_H
