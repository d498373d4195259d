//===- FragmentReductionTest.cpp - Row statistics in registers ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// planFragmentReduction against the ISA documents' fragment formulas,
// written out here as plain arithmetic (not the table's descriptors): the
// registers each lane folds, the butterfly's masks, and the kept
// coordinate of every (lane, group).
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/FragmentReduction.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

const MatrixInstruction &byName(llvm::StringRef mnemonic) {
  return matrixInstructionNamed(mnemonic);
}

FragmentReduction plan(const MatrixInstruction &inst, MatrixOperand operand,
                       int64_t axis, int64_t rows, int64_t cols) {
  llvm::Expected<FragmentReduction> r =
      planFragmentReduction(inst, operand, axis, rows, cols);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  return *r;
}

// PTX ISA 9.7.14.5.8 (m16n8k16): g = lane / 4, t = lane % 4; C c_i: row
// g + 8 (i / 2), col 2 t + i % 2. A 16 x 64 tile (8 n8 tiles): each lane
// folds c_0, c_1 of every tile (row g) and c_2, c_3 (row g + 8), then xor
// 1 and 2 (the four lanes t of group g): S's row max in attention.
TEST(FragmentReduction, MmaSyncRows) {
  const MatrixInstruction &mma =
      byName("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  FragmentReduction r = plan(mma, MatrixOperand::C, 1, 16, 64);
  EXPECT_EQ(r.masks, (llvm::SmallVector<int64_t>{1, 2}));
  ASSERT_EQ(r.groups.size(), 2u);
  for (int64_t g = 0; g < 2; ++g) {
    ASSERT_EQ(r.groups[g].size(), 16u);
    for (int64_t t = 0; t < 8; ++t)
      for (int64_t j = 0; j < 2; ++j)
        EXPECT_EQ(r.groups[g][2 * t + j], (FragmentRegister{t, 2 * g + j}));
  }
  for (int64_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.keptOf(lane, 0), lane / 4);
    EXPECT_EQ(r.keptOf(lane, 1), lane / 4 + 8);
  }
  // Two tile rows (32 x 16): groups per row tile, masks unchanged.
  FragmentReduction r2 = plan(mma, MatrixOperand::C, 1, 32, 16);
  EXPECT_EQ(r2.masks, (llvm::SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(r2.groups.size(), 4u);
  // Along the rows (keeping columns): the 8 lanes g of each t, xor 4, 8,
  // 16; each lane's column 2 t + j over both row halves and both tiles.
  FragmentReduction c = plan(mma, MatrixOperand::C, 0, 32, 8);
  EXPECT_EQ(c.masks, (llvm::SmallVector<int64_t>{4, 8, 16}));
  ASSERT_EQ(c.groups.size(), 2u);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t j = 0; j < 2; ++j)
      EXPECT_EQ(c.keptOf(lane, j), 2 * (lane % 4) + j);
}

// CDNA3 ISA, v_mfma_f32_32x32x8_f16: C register i of lane l is row
// 8 (i / 4) + 4 (l / 32) + i % 4, column l % 32. Kept by column (the
// transposed form S^T = K Q^T, whose columns are queries): all 16
// registers, lanes l and l ^ 32.
TEST(FragmentReduction, Mfma32Columns) {
  const MatrixInstruction &mfma = byName("v_mfma_f32_32x32x8_f16");
  FragmentReduction r = plan(mfma, MatrixOperand::C, 0, 64, 32);
  EXPECT_EQ(r.masks, (llvm::SmallVector<int64_t>{32}));
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].size(), 32u); // 16 registers of each of 2 tiles
  for (int64_t lane = 0; lane < 64; ++lane)
    EXPECT_EQ(r.keptOf(lane, 0), lane % 32);
  // Kept by row: the 32 lanes of a half-wave, xor 1 .. 16.
  FragmentReduction rows = plan(mfma, MatrixOperand::C, 1, 32, 32);
  EXPECT_EQ(rows.masks, (llvm::SmallVector<int64_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(rows.groups.size(), 16u);
}

// CDNA3 v_mfma_f32_16x16x16_f16: C register i of lane l is row
// 4 (l / 16) + i, column l % 16: kept by column, xor 16 and 32.
TEST(FragmentReduction, Mfma16Columns) {
  FragmentReduction r =
      plan(byName("v_mfma_f32_16x16x16_f16"), MatrixOperand::C, 0, 16, 16);
  EXPECT_EQ(r.masks, (llvm::SmallVector<int64_t>{16, 32}));
  for (int64_t lane = 0; lane < 64; ++lane)
    EXPECT_EQ(r.keptOf(lane, 0), lane % 16);
}

// RDNA3 WMMA: lanes l and l + 16 hold the same A elements (the operand is
// replicated across the half-waves): no butterfly sums each once.
TEST(FragmentReduction, RefusesReplicatedOperands) {
  llvm::Expected<FragmentReduction> r = planFragmentReduction(
      byName("v_wmma_f32_16x16x16_f16"), MatrixOperand::A, 1, 16, 16);
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("twice"), std::string::npos);
  llvm::Expected<FragmentReduction> odd = planFragmentReduction(
      byName("v_mfma_f32_32x32x8_f16"), MatrixOperand::C, 1, 48, 32);
  ASSERT_FALSE(bool(odd));
  llvm::consumeError(odd.takeError());
}

} // namespace
