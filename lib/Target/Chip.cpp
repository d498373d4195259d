//===- Chip.cpp - The facts of one target chip ----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Target/Chip.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;

llvm::StringRef mlir::layout::knownAMDChips() {
  return "gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, "
         "gfx1150 ... gfx1153";
}

llvm::StringRef mlir::layout::knownNVIDIAChips() { return "sm_50 ... sm_90a"; }

llvm::StringRef mlir::layout::knownChips() {
  return "gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, "
         "gfx1150 ... gfx1153, sm_50 ... sm_90a";
}

llvm::Expected<std::string>
mlir::layout::chipTargetFeatures(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> parts;
  name.split(parts, ':');
  std::string features;
  for (llvm::StringRef part : llvm::drop_begin(parts)) {
    // A target-id feature is a name followed by + (on) or - (off) (LLVM
    // AMDGPU usage, "Target ID").
    if (part.size() < 2 || (part.back() != '+' && part.back() != '-'))
      return llvm::createStringError(
          llvm::formatv("chip '{0}': target-id feature '{1}' must be a name "
                        "followed by + or - (as in gfx942:sramecc+:xnack-)",
                        name, part)
              .str());
    if (!features.empty())
      features += ",";
    features += part.back();
    features += part.drop_back().str();
  }
  return features;
}

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// The generation of a chip name without feature suffix.
static std::optional<ChipGeneration> classify(llvm::StringRef chip) {
  if (chip == "gfx90a")
    return ChipGeneration::CDNA2;
  if (chip == "gfx940" || chip == "gfx941" || chip == "gfx942")
    return ChipGeneration::CDNA3;
  if (chip == "gfx950")
    return ChipGeneration::CDNA4;
  llvm::StringRef rest = chip;
  // gfx1100 ... gfx1103 (RDNA3), gfx1150 ... gfx1153 (RDNA3.5).
  if (rest.consume_front("gfx11") && rest.size() == 2 &&
      (rest[0] == '0' || rest[0] == '5') && rest[1] >= '0' && rest[1] <= '3')
    return ChipGeneration::RDNA3;
  rest = chip;
  // sm_<major><minor> with an optional "a" (architecture-specific) suffix.
  if (rest.consume_front("sm_")) {
    bool archSpecific = rest.consume_back("a");
    unsigned sm;
    if (rest.size() != 2 || !isDigit(rest[0]) || !isDigit(rest[1]) ||
        rest.getAsInteger(10, sm))
      return std::nullopt;
    if (sm >= 50 && sm < 80)
      return ChipGeneration::SM50;
    if (sm == 90 && archSpecific)
      return ChipGeneration::SM90A;
    if (sm >= 80 && sm <= 90)
      return ChipGeneration::SM80;
  }
  return std::nullopt;
}

llvm::StringRef mlir::layout::chipBaseName(llvm::StringRef name) {
  return name.take_until([](char c) { return c == ':'; });
}

llvm::Expected<Chip> mlir::layout::parseChip(llvm::StringRef name) {
  llvm::StringRef base = chipBaseName(name);
  std::optional<ChipGeneration> generation = classify(base);
  if (!generation)
    return llvm::createStringError(
        llvm::formatv("unknown chip '{0}' (known: {1})", name, knownChips())
            .str());
  Chip chip;
  chip.name = base.str();
  chip.generation = *generation;
  chip.asyncCopy = false;
  auto facts = [&](unsigned wave, unsigned banks, int64_t ldsBytes) {
    chip.waveSize = wave;
    chip.numBanks = banks;
    chip.bankBytes = 4;
    chip.maxStaticBytes = chip.maxBlockBytes = ldsBytes;
  };
  switch (*generation) {
  case ChipGeneration::CDNA2:
  case ChipGeneration::CDNA3:
    // AMD Instinct MI200 / MI300 CDNA ISA reference guides, "Data Share
    // Operations": wave64; 64 KiB of LDS per compute unit, all of it
    // allocatable by one workgroup, in 32 banks of 4 bytes.
    facts(64, 32, 64 * 1024);
    break;
  case ChipGeneration::CDNA4:
    // AMD CDNA4 ISA reference guide, "LDS": 160 KiB per compute unit in 64
    // banks of 4 bytes; wave64.
    facts(64, 64, 160 * 1024);
    break;
  case ChipGeneration::RDNA3:
    // AMD RDNA3 ISA reference guide, "Local Data Share": wave32 (the native
    // mode of RDNA; the pipelines compile wave32), at most 64 KiB per
    // workgroup; a wave32 access is served by 32 banks of 4 bytes per
    // cycle.
    facts(32, 32, 64 * 1024);
    break;
  case ChipGeneration::SM50:
  case ChipGeneration::SM80:
  case ChipGeneration::SM90A: {
    // CUDA C++ Programming Guide, "Shared Memory" of compute capabilities
    // 5.x-9.x: 32 banks of 4 bytes, a warp of 32 lanes. "Technical
    // Specifications per Compute Capability": static allocations at most
    // 48 KB per block; with dynamic shared memory a block may opt in to
    // 163 KB on 8.0 and 8.7, 99 KB on 8.6 and 8.9, 227 KB on 9.0 (the
    // older opt-ins are not modeled: 48 KB). PTX ISA "cp.async": sm_80
    // and later.
    facts(32, 32, 48 * 1024);
    if (*generation != ChipGeneration::SM50) {
      chip.asyncCopy = true;
      chip.warpgroupMma = *generation == ChipGeneration::SM90A;
      llvm::StringRef sm = base.drop_front(3);
      chip.tensorMemoryAccess = sm.starts_with("9");
      chip.maxBlockBytes = sm.starts_with("80") || sm.starts_with("87")
                               ? 163 * 1024
                           : sm.starts_with("9") ? 227 * 1024
                                                 : 99 * 1024;
    }
    break;
  }
  }
  return chip;
}

/// One chip of each generation.
static constexpr llvm::StringLiteral kGenerationChips[] = {
    "gfx90a", "gfx942", "gfx950", "gfx1100",
    "sm_70",  "sm_80",  "sm_90",  "sm_90a"};

int64_t mlir::layout::smallestStaticWorkgroupBytes() {
  int64_t least = INT64_MAX;
  for (llvm::StringRef name : kGenerationChips)
    least = std::min(least, llvm::cantFail(parseChip(name)).maxStaticBytes);
  return least;
}

unsigned mlir::layout::smallestWaveSize() {
  unsigned least = ~0u;
  for (llvm::StringRef name : kGenerationChips)
    least = std::min(least, llvm::cantFail(parseChip(name)).waveSize);
  return least;
}

bool Chip::isAMD() const {
  return generation != ChipGeneration::SM50 &&
         generation != ChipGeneration::SM80 &&
         generation != ChipGeneration::SM90A;
}

//===----------------------------------------------------------------------===//
// Phase rules
//===----------------------------------------------------------------------===//

/// Bit `i` of `lane`.
static unsigned bit(unsigned lane, unsigned i) { return (lane >> i) & 1; }

/// The phases of a wave of `waveSize` lanes grouped by `key(lane)`, in the
/// order of each group's first lane.
template <typename Key>
static llvm::SmallVector<llvm::SmallVector<unsigned, 64>, 8>
groupLanes(unsigned waveSize, Key key) {
  llvm::SmallVector<unsigned, 8> keys;
  llvm::SmallVector<llvm::SmallVector<unsigned, 64>, 8> phases;
  for (unsigned lane = 0; lane < waveSize; ++lane) {
    unsigned k = key(lane);
    auto *it = llvm::find(keys, k);
    if (it == keys.end()) {
      keys.push_back(k);
      phases.emplace_back();
      it = keys.end() - 1;
    }
    phases[it - keys.begin()].push_back(lane);
  }
  return phases;
}

/// "8 phases of 8 lanes": every phase has the same size here.
static std::string phaseCount(size_t phases, size_t lanes) {
  return llvm::formatv("{0} phases of {1} lanes", phases, lanes).str();
}

Chip::PhaseRule Chip::phaseRule(unsigned accessBytes,
                                SharedAccessKind kind) const {
  // Sub-dword accesses are served like dword ones, a b96 like a b128.
  unsigned bytes = std::max(4u, unsigned(llvm::PowerOf2Ceil(accessBytes)));
  bool read = kind != SharedAccessKind::Write;
  PhaseRule rule;
  rule.numBanks = numBanks;
  auto consecutive = [&](unsigned lanes, llvm::StringRef source) {
    lanes = std::min(lanes, waveSize);
    rule.phases = groupLanes(waveSize, [&](unsigned l) { return l / lanes; });
    rule.description = phaseCount(waveSize / lanes, lanes);
    rule.source = source;
  };
  auto keyed = [&](auto key, llvm::StringRef groups, llvm::StringRef source) {
    rule.phases = groupLanes(waveSize, key);
    rule.description =
        phaseCount(rule.phases.size(), rule.phases.front().size()) + " (" +
        groups.str() + ")";
    rule.source = source;
  };
  if (isNVIDIA()) {
    // CUDA C++ Programming Guide, "Shared Memory" (5.x and later): a 32-bit
    // access of a warp is served at once. 64- and 128-bit accesses are
    // served per half and quarter warp (NVIDIA GTC 2019 S9593; CUTLASS
    // issue #328): 128 bytes per phase. PTX ISA "ldmatrix": each 8 lanes
    // give the 16-byte row addresses of one 8x8 matrix, one phase each.
    consecutive(kind == SharedAccessKind::LdMatrix ? 8 : 128 / bytes,
                "CUDA C++ Programming Guide, Shared Memory; GTC 2019 S9593; "
                "PTX ISA ldmatrix");
    return rule;
  }
  switch (generation) {
  case ChipGeneration::CDNA2:
  case ChipGeneration::CDNA3:
    // Measured on MI300 (nod-ai/amd-shark-ai docs/empirical-lds/
    // cdna3info.md: rocprof conflict counts) and documented for b128 (CK
    // Tile docs, "Understanding AMD GPU LDS and Bank Conflicts"; ROCm
    // blog "Avoiding LDS Bank Conflicts on AMD GPUs Using CK-Tile"):
    // ds_*_b32 in halves, ds_*_b64 in 4 x 16 consecutive lanes,
    // ds_write_b128 in 8 x 8 consecutive lanes, ds_read_b128 in 8 phases
    // whose lanes share (l5, l3, l2 xor l4). gfx90a (same 64 KiB LDS of 32
    // banks) is assumed to follow gfx942.
    if (bytes <= 8 || !read) {
      consecutive(128 / bytes, "MI300 measurements (amd-shark-ai "
                               "empirical-lds); CK Tile LDS docs");
      return rule;
    }
    keyed(
        [](unsigned l) {
          return bit(l, 5) << 2 | bit(l, 3) << 1 | (bit(l, 2) ^ bit(l, 4));
        },
        "lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with "
        "24-27, and the same + 32",
        "CK Tile LDS docs; ROCm blog on LDS bank conflicts; MI300 "
        "measurements (amd-shark-ai empirical-lds)");
    return rule;
  case ChipGeneration::CDNA4:
    // MI350 (nod-ai/amd-shark-ai docs/empirical-lds/cdna4info.md;
    // HipKittens phase experiments; triton-lang/triton PR 11365): reads
    // use all 64 banks: ds_read_b32 one phase of 64 lanes, b64 halves,
    // b128 4 phases of 16 lanes sharing (l5, l2 xor l3 xor l4). Writes are
    // served by 32 banks as on gfx942 (HipKittens: ds_write_b64 in 4 x 16
    // lanes; ROCm rocRoller's LDSBankModel). rocRoller models ds_read_b32
    // with 32 banks; the measurements say 64, used here.
    if (!read) {
      rule.numBanks = 32;
      consecutive(128 / bytes, "HipKittens phase experiments; rocRoller "
                               "LDSBankModel (writes on 32 banks)");
      return rule;
    }
    if (bytes <= 8) {
      consecutive(256 / bytes, "MI350 measurements (amd-shark-ai "
                               "empirical-lds)");
      return rule;
    }
    keyed(
        [](unsigned l) {
          return bit(l, 5) << 1 | (bit(l, 2) ^ bit(l, 3) ^ bit(l, 4));
        },
        "lanes 0-3, 12-15, 20-23 and 24-27; 4-11, 16-19 and 28-31; and the "
        "same + 32",
        "MI350 measurements (amd-shark-ai empirical-lds; HipKittens); "
        "triton-lang/triton PR 11365");
    return rule;
  case ChipGeneration::RDNA3:
    // RDNA3 ISA guide, "Local Data Share": 64 banks per WGP in two halves
    // of 32, one per SIMD pair, so a wave sees 32 (measured on W7900,
    // amd-shark-ai docs/empirical-lds/rdna3info.md): ds_*_b32 one phase of
    // 32 lanes, b64 halves, ds_read_b128 4 phases sharing (l3, l2 xor l4).
    // Wide writes are not documented: assumed 8 consecutive lanes, as on
    // CDNA.
    if (bytes <= 8 || !read) {
      consecutive(128 / bytes, "W7900 measurements (amd-shark-ai "
                               "empirical-lds); RDNA3 ISA guide");
      return rule;
    }
    keyed([](unsigned l) { return bit(l, 3) << 1 | (bit(l, 2) ^ bit(l, 4)); },
          "lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with "
          "24-27",
          "W7900 measurements (amd-shark-ai empirical-lds)");
    return rule;
  case ChipGeneration::SM50:
  case ChipGeneration::SM80:
  case ChipGeneration::SM90A:
    break;
  }
  llvm_unreachable("NVIDIA chips return above");
}

int64_t Chip::wordOf(int64_t byteAddress) const {
  int64_t w = byteAddress / bankBytes;
  return w - (byteAddress % int64_t(bankBytes) < 0);
}

int64_t Chip::bankOfWord(int64_t word, unsigned banks) {
  int64_t b = word % int64_t(banks);
  return b < 0 ? b + banks : b;
}
