//===- WarpgroupMmaTest.cpp - wgmma operand facts -------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Checks WarpgroupMma.h against the PTX ISA's statements, restated here
// independently: the two encodings of the swizzle modes, the descriptor's
// bit fields, and that the canonical layouts of the swizzled modes with
// dense strides are CuTe's Swizzle<B, 4, 3> over a row-major tile.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/WarpgroupMma.h"

#include "llvm/Support/MathExtras.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir::layout;

namespace {

constexpr SharedSwizzle kSwizzled[] = {SharedSwizzle::B32, SharedSwizzle::B64,
                                       SharedSwizzle::B128};

TEST(WarpgroupMmaTest, ModeEncodings) {
  // PTX 9.7.15.5.1.2: "layout type: 0 interleave, 1 128B, 2 64B, 3 32B";
  // CUtensorMapSwizzle: NONE 0, 32B 1, 64B 2, 128B 3.
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::B128).wgmmaLayoutType, 1u);
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::B64).wgmmaLayoutType, 2u);
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::B32).wgmmaLayoutType, 3u);
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::None).wgmmaLayoutType, 0u);
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::B128).tmaSwizzle, 3u);
  EXPECT_EQ(sharedSwizzleMode(SharedSwizzle::B32).tmaSwizzle, 1u);
  for (SharedSwizzle m : kSwizzled)
    EXPECT_EQ(sharedSwizzleMode(m).alignment,
              8 * sharedSwizzleMode(m).rowBytes);
  EXPECT_EQ(widestSharedSwizzle(128), SharedSwizzle::B128);
  EXPECT_EQ(widestSharedSwizzle(256), SharedSwizzle::B128);
  EXPECT_EQ(widestSharedSwizzle(64), SharedSwizzle::B64);
  EXPECT_EQ(widestSharedSwizzle(96), SharedSwizzle::B32);
  EXPECT_EQ(widestSharedSwizzle(16), std::nullopt);
}

TEST(WarpgroupMmaTest, DescriptorBits) {
  WgmmaMatrixDescriptor d{/*lbo=*/16, /*sbo=*/1024, SharedSwizzle::B128};
  // start 0x400 >> 4 = 0x40 in bits 0-13, LBO 1 in 16-29, SBO 64 in 32-45,
  // 128B = 1 in 62-63.
  EXPECT_EQ(d.encode(0x400), (uint64_t(1) << 62) | (uint64_t(64) << 32) |
                                 (uint64_t(1) << 16) | 0x40u);
  EXPECT_EQ(d.encode(0x400) & ~uint64_t(0x3FFF), d.encodeWithoutStart());
}

// Dense strides (SBO = 8 rows of the mode's width): the K-major canonical
// layout of a tile whose rows are one swizzle row wide is the row-major
// tile, and the swizzle is CuTe's Swizzle<B, 4, 3>: 16-byte chunk c of row
// r goes to chunk c xor (r mod 2^B) within its 8-row atom... for 128B;
// narrower rows take the row-of-128-bytes bits, so two or four rows share
// one xor value.
TEST(WarpgroupMmaTest, SwizzledKMajorIsSwizzledRowMajor) {
  for (SharedSwizzle m : kSwizzled) {
    int64_t w = sharedSwizzleMode(m).rowBytes,
            bits = sharedSwizzleMode(m).xorBits;
    int64_t cols = w / 2, rows = 64;
    std::set<int64_t> seen;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        int64_t canonical =
            wgmmaCanonicalOffset(m, OperandMajor::K, 0, 8 * w, 2, r, c);
        int64_t rowMajor = r * w + 2 * c;
        ASSERT_EQ(canonical, rowMajor) << sharedSwizzleMode(m).name.str();
        int64_t chunk = (rowMajor / 16) % (1 << bits);
        int64_t line = (rowMajor / 128) % (1 << bits);
        int64_t want = rowMajor - chunk * 16 + (chunk ^ line) * 16;
        ASSERT_EQ(applySharedSwizzle(m, rowMajor), want);
        seen.insert(applySharedSwizzle(m, rowMajor));
      }
    EXPECT_EQ(int64_t(seen.size()), rows * cols);
    EXPECT_EQ(*seen.rbegin(), rows * w - 2);
  }
}

// MN-major, 128B: an atom is 64 f16 of M or N by 8 rows of K; atoms LBO
// apart along M / N, 8-row groups SBO apart along K. A 16 x 128 (K x N) B
// tile stored as two atoms-columns of 16 K rows: LBO = 16 * 128 bytes.
TEST(WarpgroupMmaTest, MnMajorAtoms) {
  std::set<int64_t> seen;
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t n = 0; n < 128; ++n) {
      int64_t off = wgmmaCanonicalOffset(SharedSwizzle::B128, OperandMajor::MN,
                                         /*lbo=*/2048, /*sbo=*/1024, 2, n, k);
      EXPECT_EQ(off, (n / 64) * 2048 + k * 128 + (n % 64) * 2);
      seen.insert(applySharedSwizzle(SharedSwizzle::B128, off));
    }
  EXPECT_EQ(seen.size(), 16u * 128u);
}

// The staging layouts the tile pass gives wgmma's buffers are read by the
// mode and offsets matchWgmmaOperand derives, for every stage and tile.
TEST(WarpgroupMmaTest, StagingLayoutsMatch) {
  struct Case {
    int64_t stages, rows, cols;
    bool kMajor;
    SharedSwizzle mode;
    int64_t lbo, sbo;
  };
  // A 128 x 64 K-major; B 32 x 128 (K x N) N-major; A 64 x 32 (64B).
  for (Case c : {Case{3, 128, 64, true, SharedSwizzle::B128, 16, 1024},
                 Case{2, 32, 128, false, SharedSwizzle::B128, 32 * 128, 1024},
                 Case{1, 64, 32, true, SharedSwizzle::B64, 16, 512},
                 Case{2, 16, 64, false, SharedSwizzle::B128, 16, 1024}}) {
    Descriptor d = wgmmaStagingLayout(c.stages, c.rows, c.cols, 2);
    int64_t s = c.stages > 1 ? 1 : 0;
    // K-major: rows are M (or N), columns K; N-major: rows K, columns N.
    int64_t mnDim = c.kMajor ? s : s + 1, kDim = c.kMajor ? s + 1 : s;
    int64_t mnExtent = c.kMajor ? 64 : c.cols;
    llvm::Expected<WgmmaOperandLayout> l =
        matchWgmmaOperand(d, mnDim, kDim, mnExtent, 2);
    ASSERT_TRUE(static_cast<bool>(l)) << llvm::toString(l.takeError());
    EXPECT_EQ(l->swizzle, c.mode);
    EXPECT_EQ(l->major, c.kMajor ? OperandMajor::K : OperandMajor::MN);
    EXPECT_EQ(l->lbo, c.lbo);
    EXPECT_EQ(l->sbo, c.sbo);
    EXPECT_EQ(d.getElementSpaceSize(), c.stages * c.rows * c.cols);
  }
}

// A tile the hardware cannot read as laid out: row-major without the xor.
TEST(WarpgroupMmaTest, UnswizzledTileIsRefused) {
  Descriptor d = llvm::cantFail(Descriptor::packed({64, 64}));
  llvm::Expected<WgmmaOperandLayout> l = matchWgmmaOperand(d, 0, 1, 64, 2);
  ASSERT_FALSE(static_cast<bool>(l));
  std::string why = llvm::toString(l.takeError());
  EXPECT_NE(why.find("matches no swizzle mode"), std::string::npos) << why;
}

// TMA writes a box row by row, a swizzled mode's xor applied to each byte
// address: for the 128B mode (CUDA Driver API, CU_TENSOR_MAP_SWIZZLE_128B;
// CuTe Swizzle<3, 4, 3>) the 16-byte chunk c of row r of 128 bytes lands
// at chunk c ^ (r mod 8); the 64B and 32B modes xor 2 and 1 bits with
// the 128-byte line the byte is in. Restated here for the staging layouts of
// 64-, 128- and 32-byte rows, in one and several atoms and stages.
TEST(WarpgroupMmaTest, TmaBoxesOfStagingLayouts) {
  struct Case {
    int64_t stages, rows, cols, eb;
    SharedSwizzle mode;
  } cases[] = {{2, 64, 64, 2, SharedSwizzle::B128},
               {3, 128, 128, 2, SharedSwizzle::B128},
               {2, 16, 32, 2, SharedSwizzle::B64},
               {3, 64, 16, 2, SharedSwizzle::B32}};
  for (const Case &c : cases) {
    Descriptor d = wgmmaStagingLayout(c.stages, c.rows, c.cols, c.eb);
    int64_t rowBytes = sharedSwizzleMode(c.mode).rowBytes;
    int64_t atom = rowBytes / c.eb;
    int64_t bits = llvm::Log2_64(rowBytes / 16);
    llvm::Expected<SharedSwizzle> m =
        matchTmaBox(d, {1, 2}, {c.rows, atom}, c.eb);
    ASSERT_TRUE(static_cast<bool>(m)) << llvm::toString(m.takeError());
    EXPECT_EQ(*m, c.mode);
    // Independently: each box's bytes where the unit writes them.
    for (int64_t s = 0; s < c.stages; ++s)
      for (int64_t a = 0; a < c.cols; a += atom) {
        int64_t start = d.offset({s, 0, a}) * c.eb;
        EXPECT_EQ(start % sharedSwizzleMode(c.mode).alignment, 0);
        for (int64_t r = 0; r < c.rows; ++r)
          for (int64_t x = 0; x < atom; ++x) {
            int64_t byte = x * c.eb;
            // Bits 4.. of the byte address xor bits 7.. (the 128-byte
            // line), B = log2(rowBytes / 16) of each.
            int64_t line = (r * rowBytes + byte) >> 7;
            int64_t chunk = (byte / 16) ^ (line % (int64_t(1) << bits));
            int64_t want = start + r * rowBytes + chunk * 16 + byte % 16;
            ASSERT_EQ(d.offset({s, r, a + x}) * c.eb, want);
          }
      }
  }
}

// A dense row-major buffer takes unswizzled boxes; padded rows take none.
TEST(WarpgroupMmaTest, TmaBoxModes) {
  Descriptor packed = llvm::cantFail(Descriptor::packed({64, 32}));
  llvm::Expected<SharedSwizzle> none = matchTmaBox(packed, {0, 1}, {64, 32}, 2);
  ASSERT_TRUE(static_cast<bool>(none)) << llvm::toString(none.takeError());
  EXPECT_EQ(*none, SharedSwizzle::None);
  Descriptor padded = llvm::cantFail(Descriptor::naive({64, 32}, {40, 1}));
  llvm::Expected<SharedSwizzle> no = matchTmaBox(padded, {0, 1}, {64, 32}, 2);
  ASSERT_FALSE(static_cast<bool>(no));
  std::string why = llvm::toString(no.takeError());
  EXPECT_NE(why.find("matches no swizzle mode of TMA"), std::string::npos)
      << why;
}

} // namespace
