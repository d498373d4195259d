//===- BankModelTest.cpp - Tests of the bank model ------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// countConflicts (BankModel.h) against counts worked out here from the
// documented rules, independently of the model: the CUDA C++ Programming
// Guide's 32 banks of 4 bytes (a warp's 32-bit access served at once; a
// stride of s words puts gcd(s, 32) lanes in each bank used), its 64- and
// 128-bit accesses served per half and quarter warp, broadcast of one word
// to every lane that reads it, and the seed kernel's 32x33 padded transpose
// tile (003 of the project's seeds: a column read of a 33-word row pitch is
// conflict-free, of a 32-word pitch 32-way). The AMD cases use the phase
// rules Chip.cpp cites (CDNA3 ds_read_b32 in halves of 32 lanes).
//
//===----------------------------------------------------------------------===//

#include "layout/Target/BankModel.h"

#include "gtest/gtest.h"

#include <numeric>
#include <optional>
#include <vector>

using namespace mlir::layout;

namespace {

Chip chip(const char *name) {
  llvm::Expected<Chip> c = parseChip(name);
  EXPECT_TRUE(bool(c)) << name;
  if (!c) {
    llvm::consumeError(c.takeError());
    return Chip{};
  }
  return *c;
}

/// Lane l at byte `base + l * strideBytes`, for `lanes` lanes.
std::vector<std::optional<int64_t>> strided(unsigned lanes, int64_t strideBytes,
                                            int64_t base = 0) {
  std::vector<std::optional<int64_t>> bytes;
  for (unsigned l = 0; l < lanes; ++l)
    bytes.push_back(base + int64_t(l) * strideBytes);
  return bytes;
}

/// A warp's 32-bit access with a stride of `s` words on 32 banks: every bank
/// used holds gcd(s, 32) distinct words (the CUDA guide's stride rule).
TEST(BankModel, WarpStrideRule) {
  Chip sm90 = chip("sm_90");
  for (int64_t s : {1, 2, 3, 4, 8, 16, 17, 32, 33, 64}) {
    ConflictCount c =
        countConflicts(sm90, SharedAccessKind::Read, strided(32, 4 * s), 4);
    unsigned ways = std::gcd(s, int64_t(32));
    EXPECT_EQ(c.phases, 1u) << "stride " << s;
    EXPECT_EQ(c.maxWays, ways) << "stride " << s;
    EXPECT_EQ(c.extra(), ways - 1) << "stride " << s;
  }
}

/// The seed's transpose tile: a column of a 32 x 33 float tile is
/// conflict-free, of a 32 x 32 one 32-way.
TEST(BankModel, PaddedTransposeColumn) {
  Chip sm90 = chip("sm_90");
  EXPECT_EQ(countConflicts(sm90, SharedAccessKind::Read, strided(32, 33 * 4), 4)
                .extra(),
            0u);
  EXPECT_EQ(countConflicts(sm90, SharedAccessKind::Read, strided(32, 32 * 4), 4)
                .extra(),
            31u);
}

/// Lanes reading one word are served together; lanes of different classes
/// (two buffers' words that share an address in the model) are not.
TEST(BankModel, BroadcastAndClasses) {
  Chip sm90 = chip("sm_90");
  std::vector<std::optional<int64_t>> same(32, int64_t(64));
  ConflictCount c = countConflicts(sm90, SharedAccessKind::Read, same, 4);
  EXPECT_EQ(c.extra(), 0u);
  EXPECT_EQ(c.maxWays, 1u);
  std::vector<unsigned> classes(32, 0);
  classes[5] = 1;
  c = countConflicts(sm90, SharedAccessKind::Read, same, 4, classes);
  EXPECT_EQ(c.maxWays, 2u);
  EXPECT_EQ(c.extra(), 1u);
}

/// Inactive lanes take no part; a wave with none active has no phase.
TEST(BankModel, InactiveLanes) {
  Chip sm90 = chip("sm_90");
  std::vector<std::optional<int64_t>> bytes = strided(32, 128);
  for (unsigned l = 1; l < 32; ++l)
    bytes[l] = std::nullopt;
  ConflictCount c = countConflicts(sm90, SharedAccessKind::Read, bytes, 4);
  EXPECT_EQ(c.phases, 1u);
  EXPECT_EQ(c.extra(), 0u);
  std::vector<std::optional<int64_t>> none(32, std::nullopt);
  EXPECT_EQ(countConflicts(sm90, SharedAccessKind::Read, none, 4).phases, 0u);
}

/// 128-bit accesses: a quarter warp (8 lanes, 128 bytes) per phase. Lanes
/// 16 bytes apart fill the 32 banks once per phase; 128 bytes apart, the 8
/// lanes of a phase all use banks 0-3: 8-way in each of 4 phases.
TEST(BankModel, QuarterWarpPhases) {
  Chip sm90 = chip("sm_90");
  ConflictCount c =
      countConflicts(sm90, SharedAccessKind::Read, strided(32, 16), 16);
  EXPECT_EQ(c.phases, 4u);
  EXPECT_EQ(c.extra(), 0u);
  c = countConflicts(sm90, SharedAccessKind::Read, strided(32, 128), 16);
  EXPECT_EQ(c.phases, 4u);
  EXPECT_EQ(c.maxWays, 8u);
  EXPECT_EQ(c.cycles, 32u);
}

/// CDNA3 ds_read_b32 serves a wave of 64 in two halves of 32 lanes: lanes
/// 0 and 32 at the same bank (different words) do not conflict, lanes 0
/// and 1 do.
TEST(BankModel, CDNA3Halves) {
  Chip gfx942 = chip("gfx942");
  std::vector<std::optional<int64_t>> bytes(64, std::nullopt);
  bytes[0] = 0;
  bytes[32] = 128;
  EXPECT_EQ(countConflicts(gfx942, SharedAccessKind::Read, bytes, 4).extra(),
            0u);
  bytes[1] = 256;
  ConflictCount c = countConflicts(gfx942, SharedAccessKind::Read, bytes, 4);
  EXPECT_EQ(c.maxWays, 2u);
  EXPECT_EQ(c.extra(), 1u);
}

/// paddedRowLength's own rule (isOddWordRow): the least length at or above
/// the given one whose rows are an odd number of 4-byte words apart (of
/// 8-byte pairs for wider elements), and a column read of 32 lanes on rows
/// of that pitch is conflict-free on sm_90 as the rule promises.
TEST(BankModel, PaddedRowLengthOddWords) {
  EXPECT_EQ(paddedRowLength(32, 4), 33);
  EXPECT_EQ(paddedRowLength(33, 4), 33);
  EXPECT_EQ(paddedRowLength(64, 2), 66);
  EXPECT_EQ(paddedRowLength(64, 1), 68);
  EXPECT_EQ(paddedRowLength(16, 8), 17);
  Chip sm90 = chip("sm_90");
  for (int64_t length : {8, 32, 64, 96}) {
    std::optional<int64_t> row = paddedRowLength(length, 4);
    ASSERT_TRUE(row);
    EXPECT_EQ(
        countConflicts(sm90, SharedAccessKind::Read, strided(32, *row * 4), 4)
            .extra(),
        0u)
        << length;
  }
}

/// With a criterion of its own, paddedRowLength tries `length + k * step`
/// in order and gives up after kMaxRowPaddingSteps steps.
TEST(BankModel, PaddedRowLengthCriterion) {
  std::vector<int64_t> tried;
  auto from40 = [&](int64_t n) {
    tried.push_back(n);
    return n >= 40;
  };
  EXPECT_EQ(paddedRowLength(32, 4, 4, from40), 40);
  EXPECT_EQ(tried, (std::vector<int64_t>{32, 36, 40}));
  EXPECT_EQ(paddedRowLength(32, 4, 4, [](int64_t) { return false; }),
            std::nullopt);
}

} // namespace
