//===- SharedWavefrontsTest.cpp - Tests of the wgmma / TMA wavefronts -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The wavefronts of SharedWavefronts.h, counted by the bank model, against
// counts worked out here from the swizzle modes as PTX ISA 9.7.15.5.1 and
// CuTe state them (16-byte chunk j of 8-row pattern row r of the mode's
// width W goes to chunk j xor (r mod 8) restricted to the mode's bits: W =
// 128 flips 3 bits, 64 two, 32 one), with the addresses written out by hand
// rather than through the evaluator's swizzle.
//
//===----------------------------------------------------------------------===//

#include "layout/Target/SharedWavefronts.h"

#include "gtest/gtest.h"

using namespace mlir::layout;

namespace {

Chip sm90a() {
  llvm::Expected<Chip> c = parseChip("sm_90a");
  EXPECT_TRUE(bool(c));
  if (!c) {
    llvm::consumeError(c.takeError());
    return Chip{};
  }
  return *c;
}

/// The byte address of chunk j of row r (W bytes per row) in the W-byte
/// swizzle mode: bits 4.. of the chunk xor bits 7.. of the address.
int64_t swizzled(int64_t w, int64_t r, int64_t j) {
  int64_t plain = r * w + j * 16;
  int64_t bits = w == 128 ? 7 : w == 64 ? 3 : 1;
  return plain ^ (((plain >> 7) & bits) << 4);
}

/// A K-major 64 x 16 f16 A tile in the 128B mode (rows 128 bytes apart,
/// 32 bytes of K each): 16 core matrices, each 8 rows at 8 different chunk
/// positions of 128 bytes: 1 cycle each.
TEST(SharedWavefronts, Wgmma128BCoreMatrices) {
  auto fronts = wgmmaReadWavefronts(
      64, 32, [](int64_t r, int64_t j) { return swizzled(128, r, j); });
  ASSERT_EQ(fronts.size(), 16u);
  ConflictCount c = countWavefronts(sm90a(), SharedAccessKind::Read, fronts);
  EXPECT_EQ(c.phases, 16u);
  EXPECT_EQ(c.cycles, 16u);
  EXPECT_EQ(c.maxWays, 1u);
}

/// The same rows without the swizzle: the 8 rows of a core matrix are 128
/// bytes apart, all in the same 4 banks: 8-way, 8 cycles each.
TEST(SharedWavefronts, WgmmaUnswizzledRowsConflict) {
  auto fronts = wgmmaReadWavefronts(
      64, 32, [](int64_t r, int64_t j) { return r * 128 + j * 16; });
  ConflictCount c = countWavefronts(sm90a(), SharedAccessKind::Read, fronts);
  EXPECT_EQ(c.phases, 16u);
  EXPECT_EQ(c.cycles, 128u);
  EXPECT_EQ(c.extra(), 112u);
  EXPECT_EQ(c.maxWays, 8u);
}

/// The 64B and 32B modes: rows of 64 (32) bytes, whose 8-row pattern spans
/// 512 (256) bytes; a core matrix's chunks fall on 8 distinct positions.
TEST(SharedWavefronts, Wgmma64BAnd32B) {
  for (int64_t w : {64, 32}) {
    auto fronts = wgmmaReadWavefronts(
        16, w, [&](int64_t r, int64_t j) { return swizzled(w, r, j); });
    ConflictCount c = countWavefronts(sm90a(), SharedAccessKind::Read, fronts);
    EXPECT_EQ(c.phases, uint64_t(2 * w / 16)) << w;
    EXPECT_EQ(c.extra(), 0u) << w;
  }
}

/// The interleave mode's core matrices are 128 contiguous bytes: 1 cycle.
TEST(SharedWavefronts, WgmmaInterleave) {
  auto fronts = wgmmaReadWavefronts(
      64, 32, [](int64_t r, int64_t j) { return j * 1024 + r * 16; });
  ConflictCount c = countWavefronts(sm90a(), SharedAccessKind::Read, fronts);
  EXPECT_EQ(c.extra(), 0u);
}

/// A 64 x 64 f16 TMA box in the 128B mode: 8192 bytes, 64 wavefronts, each
/// one 128-byte row permuted: 1 cycle; unswizzled the same (rows are
/// contiguous). A box of 64-byte rows into 128-byte rows of the 128B
/// pattern (chunks j in 0-3 of rows r, r + 1): 2-way.
TEST(SharedWavefronts, TmaBoxes) {
  Chip chip = sm90a();
  auto fronts = tmaWriteWavefronts(
      8192, [](int64_t q) { return swizzled(128, q / 8, q % 8); });
  ASSERT_EQ(fronts.size(), 64u);
  EXPECT_EQ(countWavefronts(chip, SharedAccessKind::Write, fronts).extra(), 0u);
  auto half = tmaWriteWavefronts(
      4096, [](int64_t q) { return swizzled(128, q / 4, q % 4); });
  ConflictCount c = countWavefronts(chip, SharedAccessKind::Write, half);
  EXPECT_EQ(c.phases, 32u);
  EXPECT_EQ(c.extra(), 32u);
  EXPECT_EQ(c.maxWays, 2u);
}

} // namespace
