//===- FragmentConversionTest.cpp - Accumulators reused as operands -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// planFragmentConversion against the ISA documents' fragment formulas,
// written out here as plain arithmetic (not the table's descriptors): for
// each pair where the documents say the accumulator IS the next operand,
// every source slot the plan gives is the one the formulas give; where they
// say it is not, the plan moves data, and every source slot it names holds
// the element the operand slot needs (checked through the formulas).
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/FragmentConversion.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

const MatrixInstruction &byName(llvm::StringRef mnemonic) {
  return matrixInstructionNamed(mnemonic);
}

FragmentConversion plan(const MatrixInstruction &producer,
                        const MatrixInstruction &consumer,
                        MatrixOperand operand, int64_t rows, int64_t cols) {
  llvm::Expected<FragmentConversion> r =
      planFragmentConversion(producer, consumer, operand, rows, cols);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  return *r;
}

constexpr llvm::StringLiteral kMmaSync =
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";

// PTX ISA 9.7.14.5.8 (m16n8k16, .f16): g = lane / 4, t = lane % 4.
//   C/D (16 x 8) c_i: row = g + 8 (i / 2), col = 2 t + i % 2.
//   A (16 x 16) a_i:  row = g + 8 ((i / 2) % 2), col = 2 t + i % 2 + 8 (i / 4).
// So a_0..a_3 are c_0..c_3 of the n8 tile of columns 0-7, a_4..a_7 those of
// columns 8-15, in the same lane (FlashAttention-2's P in registers).
TEST(FragmentConversion, MmaSyncAccumulatorsAreTheNextA) {
  const MatrixInstruction &mma = byName(kMmaSync);
  FragmentConversion r = plan(mma, mma, MatrixOperand::A, 16, 16);
  EXPECT_EQ(r.kind, FragmentConversionKind::ReView);
  EXPECT_EQ(r.shuffles, 0);
  ASSERT_EQ(r.operandTiles, 1);
  ASSERT_EQ(r.operandElements, 8);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t i = 0; i < 8; ++i)
      EXPECT_EQ(r.source(lane, 0, i), (FragmentSlot{lane, i / 4, i % 4}))
          << "lane " << lane << " a_" << i;
  // Over a 32 x 64 wave tile: 2 x 8 C tiles, 2 x 4 A tiles; A tile (u, v)
  // takes C tiles (u, 2 v) and (u, 2 v + 1).
  FragmentConversion wide = plan(mma, mma, MatrixOperand::A, 32, 64);
  EXPECT_EQ(wide.kind, FragmentConversionKind::ReView);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t t = 0; t < 8; ++t)
      for (int64_t i = 0; i < 8; ++i)
        EXPECT_EQ(
            wide.source(lane, t, i),
            (FragmentSlot{lane, (t / 4) * 8 + 2 * (t % 4) + i / 4, i % 4}));
}

// wgmma (PTX ISA 9.7.15.5.1.1.1, .m64nNk16 .f16, a warpgroup of 128 lanes,
// w = lane / 32, g = (lane % 32) / 4, t = lane % 4): D d_i of an m64n8:
// row = 16 w + g + 8 (i / 2), col = 2 t + i % 2; A in registers a_i: row =
// 16 w + g + 8 ((i / 2) % 2), col = 2 t + i % 2 + 8 (i / 4). So, as for
// mma.sync, a_0..a_3 are d_0..d_3 of the n8 tile of columns 0-7 and a_4..a_7
// those of columns 8-15, in the same lane (FlashAttention-3's P in
// registers): the register-A form takes the accumulator with no movement.
TEST(FragmentConversion, WgmmaAccumulatorsAreTheNextRegisterA) {
  const MatrixInstruction &wgmma =
      byName("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
  const MatrixInstruction *rs = wgmmaRegisterAForm(wgmma);
  ASSERT_NE(rs, nullptr);
  EXPECT_EQ(rs->elementsPerLane(MatrixOperand::A), 8);
  for (int64_t lane = 0; lane < 128; ++lane)
    for (int64_t i = 0; i < 8; ++i) {
      int64_t w = lane / 32, g = (lane % 32) / 4, t = lane % 4;
      MatrixCoord at = operandCoord(*rs, MatrixOperand::A, lane, i);
      EXPECT_EQ(at, (MatrixCoord{16 * w + g + 8 * ((i / 2) % 2),
                                 2 * t + i % 2 + 8 * (i / 4)}))
          << "lane " << lane << " a_" << i;
    }
  // Over a 64 x 64 tile (P of a 64-key block): 8 C tiles, 4 A tiles; A tile
  // v takes C tiles 2 v and 2 v + 1.
  FragmentConversion r = plan(wgmma, *rs, MatrixOperand::A, 64, 64);
  EXPECT_EQ(r.kind, FragmentConversionKind::ReView);
  ASSERT_EQ(r.operandTiles, 4);
  ASSERT_EQ(r.operandElements, 8);
  for (int64_t lane = 0; lane < 128; ++lane)
    for (int64_t v = 0; v < 4; ++v)
      for (int64_t i = 0; i < 8; ++i)
        EXPECT_EQ(r.source(lane, v, i),
                  (FragmentSlot{lane, 2 * v + i / 4, i % 4}))
            << "lane " << lane << " tile " << v << " a_" << i;
  // The FP8 wgmma has no register-A form here.
  EXPECT_EQ(wgmmaRegisterAForm(
                byName("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3")),
            nullptr);
}

// The B of m16n8k16 (16 x 8) b_i: row (k) = 2 t + i % 2 + 8 (i / 2), col (n)
// = g: a lane holds a column, while C's lanes hold rows: the accumulator
// is not the next B in any lane arrangement that shuffles cheaply (lane
// (g, t) needs c registers that depend on g % 2: two per element).
TEST(FragmentConversion, MmaSyncAccumulatorsAreNotTheNextB) {
  const MatrixInstruction &mma = byName(kMmaSync);
  FragmentConversion r = plan(mma, mma, MatrixOperand::B, 16, 8);
  EXPECT_EQ(r.kind, FragmentConversionKind::WorkgroupMemory);
  EXPECT_EQ(r.shuffles, 8);
  EXPECT_FALSE(r.reason.empty());
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t i = 0; i < 4; ++i) {
      int64_t g = lane / 4, t = lane % 4;
      int64_t k = 2 * t + i % 2 + 8 * (i / 2);
      // The holder of C (k, g): lane 4 (k % 8) + g / 2, element
      // 2 (k / 8) + g % 2.
      EXPECT_EQ(r.source(lane, 0, i),
                (FragmentSlot{4 * (k % 8) + g / 2, 0, 2 * (k / 8) + g % 2}));
    }
}

// CDNA3 ISA, MFMA 32x32x8 f16 (wave64): C/D lane l, element j: row =
// 8 (j / 4) + 4 (l / 32) + j % 4, col = l % 32; B (8 x 32) lane l, element
// i: k = 4 (l / 32) + i, n = l % 32. Over 32 x 32 (B tiles are the four K
// blocks of 8 rows), B tile u's element i is C's element 4 u + i of the
// same lane: the transposed formulation S^T = K Q^T feeds P^T as B with
// no data movement (CK Tile's transposed-C warp GEMMs).
TEST(FragmentConversion, Mfma32AccumulatorsAreTheNextB) {
  const MatrixInstruction &mfma = byName("v_mfma_f32_32x32x8_f16");
  FragmentConversion r = plan(mfma, mfma, MatrixOperand::B, 32, 32);
  EXPECT_EQ(r.kind, FragmentConversionKind::ReView);
  ASSERT_EQ(r.operandTiles, 4);
  ASSERT_EQ(r.operandElements, 4);
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t u = 0; u < 4; ++u)
      for (int64_t i = 0; i < 4; ++i)
        EXPECT_EQ(r.source(lane, u, i), (FragmentSlot{lane, 0, 4 * u + i}));
}

// A (32 x 8) lane l, element i: row = l % 32, k = 4 (l / 32) + i: a lane
// holds a row, C's lanes hold columns; the register a lane needs depends on
// its row (16 of them per element): through workgroup memory.
TEST(FragmentConversion, Mfma32AccumulatorsAreNotTheNextA) {
  const MatrixInstruction &mfma = byName("v_mfma_f32_32x32x8_f16");
  FragmentConversion r = plan(mfma, mfma, MatrixOperand::A, 32, 32);
  EXPECT_EQ(r.kind, FragmentConversionKind::WorkgroupMemory);
  EXPECT_EQ(r.shuffles, 4 * 4 * 16);
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t u = 0; u < 4; ++u)
      for (int64_t i = 0; i < 4; ++i) {
        int64_t row = lane % 32, col = 8 * u + 4 * (lane / 32) + i;
        // The holder of C (row, col): lane col + 32 ((row % 8) / 4),
        // element 4 (row / 8) + row % 4.
        EXPECT_EQ(r.source(lane, u, i),
                  (FragmentSlot{col + 32 * ((row % 8) / 4), 0,
                                4 * (row / 8) + row % 4}));
      }
}

// MFMA 16x16x16 f16: C lane l, element j: row = 4 (l / 16) + j, col =
// l % 16; B (16 x 16) lane l, element i: k = 4 (l / 16) + i, n = l % 16:
// the same (row, col) in the same lane and element.
TEST(FragmentConversion, Mfma16AccumulatorsAreTheNextB) {
  const MatrixInstruction &mfma = byName("v_mfma_f32_16x16x16_f16");
  FragmentConversion r = plan(mfma, mfma, MatrixOperand::B, 16, 16);
  EXPECT_EQ(r.kind, FragmentConversionKind::ReView);
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t i = 0; i < 4; ++i)
      EXPECT_EQ(r.source(lane, 0, i), (FragmentSlot{lane, 0, i}));
}

// RDNA3 WMMA 16x16x16 f16 (wave32): C lane l, element j: row = 2 j +
// l / 16, col = l % 16; B lane l, element k: (k, l % 16), lanes l and
// l + 16 holding the same (replicated). A lane holds every other row of
// its column: the other half comes from lane l ^ 16, register k / 2: one
// shuffle per element.
TEST(FragmentConversion, WmmaAccumulatorsNeedTheOtherHalfWave) {
  const MatrixInstruction &wmma = byName("v_wmma_f32_16x16x16_f16");
  FragmentConversion r = plan(wmma, wmma, MatrixOperand::B, 16, 16);
  EXPECT_EQ(r.kind, FragmentConversionKind::Shuffles);
  EXPECT_EQ(r.shuffles, 16);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t k = 0; k < 16; ++k)
      EXPECT_EQ(r.source(lane, 0, k),
                (FragmentSlot{16 * (k % 2) + lane % 16, 0, k / 2}));
}

TEST(FragmentConversion, Refusals) {
  const MatrixInstruction &mma = byName(kMmaSync);
  const MatrixInstruction &mfma = byName("v_mfma_f32_32x32x8_f16");
  auto error = [](llvm::Expected<FragmentConversion> r) {
    return r ? std::string() : llvm::toString(r.takeError());
  };
  EXPECT_EQ(
      error(planFragmentConversion(mma, mfma, MatrixOperand::A, 32, 32)),
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 runs on 32 lanes, "
      "v_mfma_f32_32x32x8_f16 on 64");
  EXPECT_EQ(error(planFragmentConversion(mma, mma, MatrixOperand::A, 16, 8)),
            "the 16x8 tile is not whole 16x16 tiles of "
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32's A");
  EXPECT_EQ(error(planFragmentConversion(mma, mma, MatrixOperand::C, 16, 16)),
            "the consumer's operand is A or B, not C");
  // wgmma reads A and B from workgroup memory (in this table).
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (inst.operandsInWorkgroupMemory()) {
      FragmentConversion r = plan(inst, inst, MatrixOperand::A, inst.m,
                                  inst.n % inst.k ? inst.k : inst.n);
      EXPECT_EQ(r.kind, FragmentConversionKind::WorkgroupMemory);
      EXPECT_NE(r.reason.find("reads its A from workgroup memory"),
                std::string::npos);
      break;
    }
}

} // namespace
