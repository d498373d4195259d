//===- Chip.h - The facts of one target chip ---------------------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The one home of chip facts: a chip name is parsed once (parseChip) into a
// `Chip` that says its generation, wave size, workgroup-memory banks and
// sizes, which lanes of a wave its workgroup memory serves together (the
// phase rules of the bank model), and whether it copies asynchronously.
// The matrix instructions of a generation are in MatrixInstructions.h; every
// pass, pipeline and the Python package ask these two instead of testing a
// chip string. Each fact cites its source in Chip.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TARGET_CHIP_H
#define LAYOUT_TARGET_CHIP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace layout {

/// The chip generations the project targets.
enum class ChipGeneration : uint8_t {
  CDNA2, ///< gfx90a
  CDNA3, ///< gfx940, gfx941, gfx942
  CDNA4, ///< gfx950
  RDNA3, ///< gfx1100 ... gfx1103, gfx1150 ... gfx1153
  SM50,  ///< sm_50 ... sm_75 (no cp.async, no mma.sync m16n8k16)
  SM80,  ///< sm_80 ... sm_90 (cp.async, mma.sync m16n8k16)
  SM90A, ///< sm_90a: also warpgroup MMA (wgmma.mma_async), which only the
         ///< architecture-specific target has (PTX ISA, "wgmma": sm_90a)
};

/// How a workgroup-memory access uses the banks: the phase rules differ.
enum class SharedAccessKind : uint8_t {
  Read,
  Write,
  /// NVIDIA ldmatrix: every lane of the first 8 * tiles passes the address
  /// of one 16-byte row.
  LdMatrix,
};

/// One chip.
struct Chip {
  /// The name without a target-id feature suffix ("gfx942" of
  /// "gfx942:sramecc+:xnack-").
  std::string name;
  ChipGeneration generation;
  /// Lanes of a wave (AMD) or warp (NVIDIA).
  unsigned waveSize;
  /// Workgroup-memory banks and the width of each, in bytes.
  unsigned numBanks;
  unsigned bankBytes;
  /// The most workgroup memory one block may declare statically, and the
  /// most it may use at all (above the first, NVIDIA kernels take dynamic
  /// shared memory and the launcher opts in), in bytes.
  int64_t maxStaticBytes;
  int64_t maxBlockBytes;
  /// Lanes copy global memory into workgroup memory asynchronously (PTX
  /// cp.async, sm_80 and later).
  bool asyncCopy;
  /// Warpgroups of 4 warps issue wgmma.mma_async from workgroup-memory
  /// matrix descriptors (sm_90a).
  bool warpgroupMma = false;
  /// The tensor memory accelerator copies boxes of a tensor map into
  /// workgroup memory, completing on mbarriers (PTX cp.async.bulk.tensor:
  /// sm_90 and later).
  bool tensorMemoryAccess = false;

  bool isAMD() const;
  /// The bank-wide word holding byte `byteAddress`: floor(byte / bankBytes).
  int64_t wordOf(int64_t byteAddress) const;
  /// The bank of word `word` among `banks` banks (numBanks, or a phase
  /// rule's): word mod banks. The one home of the address-to-bank mapping
  /// (the bank model and the pictures ask it).
  static int64_t bankOfWord(int64_t word, unsigned banks);
  bool isNVIDIA() const { return !isAMD(); }

  /// How an access of `accessBytes` per lane uses the banks (phaseRule).
  struct PhaseRule;
  PhaseRule phaseRule(unsigned accessBytes, SharedAccessKind kind) const;
};

/// Which lanes of a wave an access serves together, over how many banks:
/// lanes in different phases never conflict.
struct Chip::PhaseRule {
  /// The banks this access is served by (gfx950 writes use 32 of its 64).
  unsigned numBanks;
  /// The phases in the order served; each lane of the wave is in one.
  llvm::SmallVector<llvm::SmallVector<unsigned, 64>, 8> phases;
  /// "2 phases of 32 lanes", "8 phases of 8 lanes (0-3 with 20-23, ...)".
  std::string description;
  /// Where the rule comes from.
  llvm::StringRef source;
};

/// The least workgroup memory any chip parseChip knows lets one block
/// declare statically (Chip::maxStaticBytes), in bytes: what code that
/// must run on every target may use.
int64_t smallestStaticWorkgroupBytes();

/// The fewest lanes of a wave (warp) among the chips parseChip knows:
/// groups of this many consecutive threads run together on every target.
unsigned smallestWaveSize();

/// The chips parseChip knows, for diagnostics: all of them, the AMDGPU
/// ones, the CUDA ones.
llvm::StringRef knownChips();
llvm::StringRef knownAMDChips();
llvm::StringRef knownNVIDIAChips();

/// The LLVM target features of the target-id feature suffix of `name`
/// ("+sramecc,-xnack" of "gfx942:sramecc+:xnack-"; "" without one), or an
/// error naming a malformed feature.
llvm::Expected<std::string> chipTargetFeatures(llvm::StringRef name);

/// Parses a chip name ("gfx942", "gfx942:sramecc+:xnack-", "gfx1100",
/// "sm_90", "sm_90a"); an error naming the known chips otherwise.
llvm::Expected<Chip> parseChip(llvm::StringRef name);

/// `name` without its target-id features ("gfx942" of
/// "gfx942:sramecc+:xnack-"): what names the chip.
llvm::StringRef chipBaseName(llvm::StringRef name);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TARGET_CHIP_H
