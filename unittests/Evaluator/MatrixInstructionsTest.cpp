//===- MatrixInstructionsTest.cpp - Tests of the matrix instruction table -===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Every (lane, element) of every operand of every instruction is compared
// with the ISA documents' formulas, written out here as plain arithmetic and
// independently of the descriptors (docs/matrix-instructions.md cites them);
// every element of A, B and C must be held by exactly `replication` pairs;
// the per-chip lookups are checked against the chips' instruction sets.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/MatrixInstructions.h"

#include "gtest/gtest.h"

#include <map>
#include <set>
#include <sstream>

using namespace mlir::layout;
using llvm::StringRef;

namespace {

constexpr MatrixOperand kOperands[] = {MatrixOperand::A, MatrixOperand::B,
                                       MatrixOperand::C};

/// AMD MFMA, wave64, blocks = 1 ([CALC] cdna2/cdna3; gfx950: [IREE], [GCN]).
/// The FP8 32x32x16 and 16x16x32 (fp8_fp8, bf8_bf8; gfx942 and gfx950) have
/// the gfx950 f16 ones' layouts: [CALC] cdna3 tables of
/// v_mfma_f32_32x32x16_fp8_fp8 ("lane 0: A[0][0] .. A[0][7] in v0.[7:0] ..
/// v1.[31:24]") and the ROCm CDNA3/CDNA4 matrix-core blog.
MatrixCoord mfmaFormula(int64_t m, int64_t k, MatrixOperand op, int64_t l,
                        int64_t e) {
  if (m == 32 && k == 8) { // v_mfma_f32_32x32x8_{f16,bf16}
    if (op == MatrixOperand::A)
      return {l % 32, 4 * (l / 32) + e};
    if (op == MatrixOperand::B)
      return {4 * (l / 32) + e, l % 32};
    return {8 * (e / 4) + 4 * (l / 32) + e % 4, l % 32};
  }
  if (m == 16 && k == 16) { // v_mfma_f32_16x16x16_{f16,bf16}
    if (op == MatrixOperand::A)
      return {l % 16, 4 * (l / 16) + e};
    if (op == MatrixOperand::B)
      return {4 * (l / 16) + e, l % 16};
    return {4 * (l / 16) + e, l % 16};
  }
  if (m == 32 && k == 16) { // gfx950 v_mfma_f32_32x32x16_{f16,bf16}
    if (op == MatrixOperand::A)
      return {l % 32, 8 * (l / 32) + e};
    if (op == MatrixOperand::B)
      return {8 * (l / 32) + e, l % 32};
    return {8 * (e / 4) + 4 * (l / 32) + e % 4, l % 32};
  }
  if (m == 16 && k == 32) { // gfx950 v_mfma_f32_16x16x32_{f16,bf16}
    if (op == MatrixOperand::A)
      return {l % 16, 8 * (l / 16) + e};
    if (op == MatrixOperand::B)
      return {8 * (l / 16) + e, l % 16};
    return {4 * (l / 16) + e, l % 16};
  }
  // f32 inputs [CDNA3 ISA guide / CALC]: v_mfma_f32_32x32x4_xf32 and
  // v_mfma_f32_16x16x8_xf32 hold 2 consecutive k per lane, the f32
  // v_mfma_f32_32x32x2_f32 and v_mfma_f32_16x16x4_f32 one; C as above.
  if ((m == 32 && k == 4) || (m == 32 && k == 2)) {
    int64_t per = k / 2;
    if (op == MatrixOperand::A)
      return {l % 32, per * (l / 32) + e};
    if (op == MatrixOperand::B)
      return {per * (l / 32) + e, l % 32};
    return {8 * (e / 4) + 4 * (l / 32) + e % 4, l % 32};
  }
  if ((m == 16 && k == 8) || (m == 16 && k == 4)) {
    int64_t per = k / 4;
    if (op == MatrixOperand::A)
      return {l % 16, per * (l / 16) + e};
    if (op == MatrixOperand::B)
      return {per * (l / 16) + e, l % 16};
    return {4 * (l / 16) + e, l % 16};
  }
  ADD_FAILURE() << "no formula for MFMA " << m << "xKx" << k;
  return {-1, -1};
}

/// gfx11 v_wmma_f32_16x16x16_{f16,bf16}, wave32 ([CALC] rdna3).
MatrixCoord wmmaFormula(MatrixOperand op, int64_t l, int64_t e) {
  if (op == MatrixOperand::A)
    return {l % 16, e}; // lanes l and l + 16 hold copies
  if (op == MatrixOperand::B)
    return {e, l % 16};
  return {2 * e + l / 16, l % 16};
}

/// mma.sync.aligned.m16n8k8 with .tf32 inputs (PTX "Matrix Fragments for
/// mma.m16n8k8", .tf32): a0 .. a3, b0, b1 one element each.
MatrixCoord mmaSyncTf32Formula(MatrixOperand op, int64_t lane, int64_t i) {
  int64_t groupID = lane >> 2;
  int64_t threadID_in_group = lane % 4;
  if (op == MatrixOperand::A)
    return {(i == 0 || i == 2) ? groupID : groupID + 8,
            (i == 0 || i == 1) ? threadID_in_group : threadID_in_group + 4};
  if (op == MatrixOperand::B)
    return {i == 0 ? threadID_in_group : threadID_in_group + 4, groupID};
  return {i < 2 ? groupID : groupID + 8, threadID_in_group * 2 + (i & 1)};
}

/// mma.sync.aligned.m16n8k32 with .e4m3 / .e5m2 inputs (PTX "Matrix
/// Fragments for mma.m16n8k32"): a0 .. a15 in four .b32, b0 .. b7 in two.
MatrixCoord mmaSyncFp8Formula(MatrixOperand op, int64_t lane, int64_t i) {
  int64_t groupID = lane >> 2;
  int64_t threadID_in_group = lane % 4;
  if (op == MatrixOperand::A)
    return {(i < 4 || (i >= 8 && i < 12)) ? groupID : groupID + 8,
            threadID_in_group * 4 + (i & 0x3) + (i >= 8 ? 16 : 0)};
  if (op == MatrixOperand::B)
    return {threadID_in_group * 4 + (i & 0x3) + (i >= 4 ? 16 : 0), groupID};
  return {i < 2 ? groupID : groupID + 8, threadID_in_group * 2 + (i & 1)};
}

/// mma.sync.aligned.m16n8k16 with f16 / bf16 inputs ([PTX] 9.7.14.5.8).
MatrixCoord mmaSyncFormula(MatrixOperand op, int64_t lane, int64_t i) {
  int64_t groupID = lane >> 2;
  int64_t threadID_in_group = lane % 4;
  if (op == MatrixOperand::A) {
    bool lowRow = i == 0 || i == 1 || i == 4 || i == 5;
    return {lowRow ? groupID : groupID + 8,
            threadID_in_group * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  }
  if (op == MatrixOperand::B)
    return {threadID_in_group * 2 + (i & 1) + (i >= 2 ? 8 : 0), groupID};
  return {i < 2 ? groupID : groupID + 8, threadID_in_group * 2 + (i & 1)};
}

/// wgmma .m64nNk16 (and FP8 .m64nNk32) D, PTX ISA 9.7.15.5.1.1 "Matrix D":
/// the warpgroup's
/// warp w holds rows 16 w ..; in it, row = groupID + 8 for d[i] with i % 4
/// >= 2, col = (i / 4) * 8 + threadID_in_group * 2 + (i & 1).
MatrixCoord wgmmaFormula(MatrixOperand op, int64_t lane, int64_t i) {
  if (op != MatrixOperand::C)
    return {-1, -1};
  int64_t warp = lane / 32, groupID = (lane % 32) >> 2,
          threadID_in_group = lane % 4;
  return {16 * warp + groupID + (i % 4 >= 2 ? 8 : 0),
          (i / 4) * 8 + threadID_in_group * 2 + (i & 1)};
}

MatrixCoord isaFormula(const MatrixInstruction &inst, MatrixOperand op,
                       int64_t lane, int64_t element) {
  switch (inst.family) {
  case MatrixFamily::Wgmma:
    return wgmmaFormula(op, lane, element);
  case MatrixFamily::MFMA:
    return mfmaFormula(inst.m, inst.k, op, lane, element);
  case MatrixFamily::WMMA:
    return wmmaFormula(op, lane, element);
  case MatrixFamily::MmaSync:
    if (inst.k == 32)
      return mmaSyncFp8Formula(op, lane, element);
    return inst.k == 8 ? mmaSyncTf32Formula(op, lane, element)
                       : mmaSyncFormula(op, lane, element);
  }
  return {-1, -1};
}

std::string describe(const MatrixInstruction &inst, MatrixOperand op) {
  return (inst.mnemonic + " operand " + stringifyMatrixOperand(op)).str();
}

std::vector<std::string> mnemonics(StringRef chip) {
  std::vector<std::string> names;
  for (const MatrixInstruction *inst : getMatrixInstructions(chip))
    names.push_back(inst->mnemonic.str());
  return names;
}

TEST(MatrixInstructionsTest, LayoutsMatchIsaFormulas) {
  // 29 f16 / bf16 / f32 ones, 8 FP8 MFMAs (gfx942 FNUZ, gfx950 OCP), 2 FP8
  // mma.sync, 12 FP8 wgmma.
  ASSERT_EQ(getMatrixInstructions().size(), 51u);
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    for (MatrixOperand op : kOperands) {
      if (op != MatrixOperand::C && inst.operandsInWorkgroupMemory())
        continue;
      const Descriptor &d = inst.layout(op);
      auto [rows, cols] = inst.tileShape(op);
      EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{
                                    inst.waveSize, inst.elementsPerLane(op)}))
          << describe(inst, op);
      EXPECT_EQ(d.getElementSpaceSize(), rows * cols) << describe(inst, op);
      int mismatches = 0;
      std::ostringstream first;
      for (int64_t lane = 0; lane < inst.waveSize; ++lane) {
        for (int64_t e = 0; e < inst.elementsPerLane(op); ++e) {
          MatrixCoord got = operandCoord(inst, op, lane, e);
          MatrixCoord want = isaFormula(inst, op, lane, e);
          EXPECT_TRUE(d.valid({lane, e}));
          EXPECT_EQ(d.offset({lane, e}), got.row * cols + got.col);
          if (got == want)
            continue;
          if (mismatches++ < 4)
            first << "\n  lane " << lane << " element " << e << ": layout ("
                  << got.row << ", " << got.col << "), ISA (" << want.row
                  << ", " << want.col << ")";
        }
      }
      EXPECT_EQ(mismatches, 0)
          << describe(inst, op) << ": " << mismatches
          << " (lane, element) pairs differ from the ISA formula; first:"
          << first.str();
    }
  }
}

TEST(MatrixInstructionsTest, EveryElementHeldReplicationTimes) {
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    EXPECT_EQ(inst.replication(MatrixOperand::A),
              inst.family == MatrixFamily::WMMA ? 2 : 1);
    EXPECT_EQ(inst.replication(MatrixOperand::C), 1);
    for (MatrixOperand op : kOperands) {
      if (op != MatrixOperand::C && inst.operandsInWorkgroupMemory())
        continue;
      auto [rows, cols] = inst.tileShape(op);
      EXPECT_EQ(inst.waveSize * inst.elementsPerLane(op),
                rows * cols * inst.replication(op))
          << describe(inst, op);
      std::map<std::pair<int64_t, int64_t>, int64_t> holders;
      for (int64_t lane = 0; lane < inst.waveSize; ++lane)
        for (int64_t e = 0; e < inst.elementsPerLane(op); ++e) {
          MatrixCoord c = operandCoord(inst, op, lane, e);
          ++holders[{c.row, c.col}];
        }
      int64_t wrong = 0;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          auto it = holders.find({r, c});
          int64_t count = it == holders.end() ? 0 : it->second;
          if (count != inst.replication(op) && wrong++ < 4)
            ADD_FAILURE() << describe(inst, op) << ": element (" << r << ", "
                          << c << ") is held by " << count
                          << " (lane, element) pairs, expected "
                          << inst.replication(op);
        }
      EXPECT_EQ(wrong, 0) << describe(inst, op);
      EXPECT_EQ(holders.size(), static_cast<size_t>(rows * cols))
          << describe(inst, op) << ": some pairs fall outside the tile";
    }
  }
}

TEST(MatrixInstructionsTest, InverseFindsTheHolder) {
  // An unreplicated layout is invertible: layout.upper names the lane and
  // element holding a tile element. A replicated one is refused.
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    for (MatrixOperand op : kOperands) {
      if (op != MatrixOperand::C && inst.operandsInWorkgroupMemory())
        continue;
      const Descriptor &d = inst.layout(op);
      llvm::Error err = d.checkInvertible();
      if (inst.replication(op) != 1) {
        EXPECT_TRUE(static_cast<bool>(err)) << describe(inst, op);
        llvm::consumeError(std::move(err));
        continue;
      }
      ASSERT_FALSE(static_cast<bool>(err))
          << describe(inst, op) << ": " << llvm::toString(std::move(err));
      for (int64_t off = 0; off < d.getElementSpaceSize(); ++off) {
        auto top = d.upper(off);
        ASSERT_TRUE(static_cast<bool>(top)) << llvm::toString(top.takeError());
        EXPECT_EQ(d.offset(*top), off) << describe(inst, op);
      }
    }
  }
}

TEST(MatrixInstructionsTest, ChipAvailability) {
  using V = std::vector<std::string>;
  V cdna = {"v_mfma_f32_32x32x8_f16", "v_mfma_f32_16x16x16_f16",
            "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_16x16x16_bf16"};
  V f32 = {"v_mfma_f32_32x32x2_f32", "v_mfma_f32_16x16x4_f32"};
  V cdna2 = cdna;
  cdna2.insert(cdna2.end(), f32.begin(), f32.end());
  EXPECT_EQ(mnemonics("gfx90a"), cdna2);
  // xf32 only on CDNA3.
  // The FP8 MFMAs: the same mnemonics on gfx942 (FNUZ) and gfx950 (OCP).
  V fp8 = {"v_mfma_f32_32x32x16_fp8_fp8", "v_mfma_f32_32x32x16_bf8_bf8",
           "v_mfma_f32_16x16x32_fp8_fp8", "v_mfma_f32_16x16x32_bf8_bf8"};
  V cdna3 = cdna;
  cdna3.insert(cdna3.end(),
               {"v_mfma_f32_32x32x4_xf32", "v_mfma_f32_16x16x8_xf32"});
  cdna3.insert(cdna3.end(), f32.begin(), f32.end());
  cdna3.insert(cdna3.end(), fp8.begin(), fp8.end());
  EXPECT_EQ(mnemonics("gfx942"), cdna3);
  EXPECT_EQ(mnemonics("gfx942:sramecc+:xnack-"), cdna3);
  V cdna4 = cdna;
  cdna4.insert(cdna4.end(),
               {"v_mfma_f32_32x32x16_f16", "v_mfma_f32_32x32x16_bf16",
                "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x32_bf16"});
  cdna4.insert(cdna4.end(), f32.begin(), f32.end());
  cdna4.insert(cdna4.end(), fp8.begin(), fp8.end());
  EXPECT_EQ(mnemonics("gfx950"), cdna4);
  V rdna3 = {"v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16"};
  EXPECT_EQ(mnemonics("gfx1100"), rdna3);
  EXPECT_EQ(mnemonics("gfx1151"), rdna3);
  V sm80 = {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"};
  for (StringRef chip : {"sm_80", "sm_86"})
    EXPECT_EQ(mnemonics(chip), sm80) << chip.str();
  // sm_89 and later add the FP8 mma.sync (PTX: "requires sm_89 or higher").
  V sm89 = sm80;
  sm89.insert(sm89.end(),
              {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
               "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"});
  for (StringRef chip : {"sm_89", "sm_90"})
    EXPECT_EQ(mnemonics(chip), sm89) << chip.str();
  // sm_90a adds warpgroup MMA, m64nNk16 for N = 256 ... 8, and the FP8
  // m64nNk32.
  V sm90a = sm80;
  auto addWgmma = [&](StringRef kind, StringRef k) {
    for (int n : {256, 128, 64, 32, 16, 8})
      sm90a.push_back(("wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) +
                       k + ".f32." + kind + "." + kind)
                          .str());
  };
  addWgmma("f16", "k16");
  addWgmma("bf16", "k16");
  sm90a.insert(sm90a.end(), sm89.begin() + sm80.size(), sm89.end());
  addWgmma("e4m3", "k32");
  addWgmma("e5m2", "k32");
  EXPECT_EQ(mnemonics("sm_90a"), sm90a);
  for (StringRef chip : {"", "gfx908", "gfx94", "gfx9420", "gfx1200", "gfx110",
                         "sm_75", "sm_100", "sm_9", "sm_90x", "h100"})
    EXPECT_TRUE(getMatrixInstructions(chip).empty()) << chip.str();

  using K = MatrixElementKind;
  EXPECT_EQ(findMatrixInstruction("gfx942", K::F16, 32, 32, 16), nullptr);
  EXPECT_NE(findMatrixInstruction("gfx942", K::F16, 16, 16, 16), nullptr);
  EXPECT_NE(findMatrixInstruction("gfx950", K::F16, 32, 32, 16), nullptr);
}

TEST(MatrixInstructionsTest, FindAndSpellings) {
  using K = MatrixElementKind;
  const MatrixInstruction *mfma =
      findMatrixInstruction("gfx942", K::BF16, 32, 32, 8);
  ASSERT_NE(mfma, nullptr);
  EXPECT_EQ(mfma->mnemonic, "v_mfma_f32_32x32x8_bf16");
  EXPECT_EQ(mfma->mnemonicOn("gfx90a"), "v_mfma_f32_32x32x8bf16_1k");
  EXPECT_EQ(mfma->mnemonicOn("gfx942"), "v_mfma_f32_32x32x8_bf16");
  EXPECT_EQ(mfma->shapeString(), "32x32x8");
  EXPECT_EQ(mfma->op.opName, "amdgpu.mfma");
  EXPECT_EQ(mfma->op.aShape, (llvm::SmallVector<int64_t, 2>{4}));
  EXPECT_EQ(mfma->op.cShape, (llvm::SmallVector<int64_t, 2>{16}));
  EXPECT_EQ(mfma->op.blocks, 1);

  const MatrixInstruction *dk =
      findMatrixInstruction("gfx950", K::F16, 16, 16, 32);
  ASSERT_NE(dk, nullptr);
  EXPECT_EQ(dk->mnemonic, "v_mfma_f32_16x16x32_f16");
  EXPECT_EQ(dk->op.aShape, (llvm::SmallVector<int64_t, 2>{8}));
  EXPECT_EQ(dk->op.cShape, (llvm::SmallVector<int64_t, 2>{4}));
  EXPECT_FALSE(dk->availableOn("gfx942"));

  const MatrixInstruction *wmma =
      findMatrixInstruction("gfx1100", K::F16, 16, 16, 16);
  ASSERT_NE(wmma, nullptr);
  EXPECT_EQ(wmma->family, MatrixFamily::WMMA);
  EXPECT_EQ(wmma->waveSize, 32);
  EXPECT_EQ(wmma->op.aShape, (llvm::SmallVector<int64_t, 2>{16}));
  EXPECT_EQ(wmma->op.cShape, (llvm::SmallVector<int64_t, 2>{8}));
  EXPECT_EQ(findMatrixInstruction("gfx1100", K::F16, 32, 32, 8), nullptr);

  const MatrixInstruction *mma =
      findMatrixInstruction("sm_90", K::F16, 16, 8, 16);
  ASSERT_NE(mma, nullptr);
  EXPECT_EQ(mma->op.opName, "nvgpu.mma.sync");
  EXPECT_EQ(mma->op.aShape, (llvm::SmallVector<int64_t, 2>{4, 2}));
  EXPECT_EQ(mma->op.bShape, (llvm::SmallVector<int64_t, 2>{2, 2}));
  EXPECT_EQ(mma->op.cShape, (llvm::SmallVector<int64_t, 2>{2, 2}));
  EXPECT_TRUE(mma->op.lowersInMlir22);
  EXPECT_FALSE(
      findMatrixInstruction("sm_90", K::BF16, 16, 8, 16)->op.lowersInMlir22);
  EXPECT_EQ(findMatrixInstruction("sm_90", K::F16, 16, 16, 16), nullptr);
  EXPECT_EQ(findMatrixInstruction("gfx908", K::F16, 32, 32, 8), nullptr);

  // The op's vectors hold exactly the elements of a lane.
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    auto product = [](llvm::ArrayRef<int64_t> shape) {
      int64_t p = 1;
      for (int64_t s : shape)
        p *= s;
      return p;
    };
    if (inst.operandsInWorkgroupMemory()) {
      EXPECT_TRUE(inst.op.aShape.empty() && inst.op.bShape.empty());
      EXPECT_EQ(inst.aElementsPerLane + inst.bElementsPerLane, 0);
    } else {
      EXPECT_EQ(product(inst.op.aShape), inst.aElementsPerLane);
      EXPECT_EQ(product(inst.op.bShape), inst.bElementsPerLane);
    }
    EXPECT_EQ(product(inst.op.cShape), inst.cElementsPerLane);
    // The mnemonic names the kind: "_f16", ".tf32.", or the ISA's FP8
    // names (AMD fp8 / bf8, NVIDIA e4m3 / e5m2).
    std::string kind = stringifyMatrixElementKind(inst.inputKind).str();
    if (isFloat8(inst.inputKind)) {
      bool e4m3 = inst.inputKind == K::E4M3FN || inst.inputKind == K::E4M3FNUZ;
      bool amd = inst.family == MatrixFamily::MFMA;
      kind = amd ? (e4m3 ? "fp8" : "bf8") : (e4m3 ? "e4m3" : "e5m2");
    }
    EXPECT_TRUE(inst.mnemonic.contains("_" + kind) ||
                inst.mnemonic.contains("." + kind + "."))
        << inst.mnemonic.str();
    EXPECT_EQ(inst.mnemonic.contains("bf16"), inst.inputKind == K::BF16)
        << inst.mnemonic.str();
  }
}

TEST(MatrixInstructionsTest, F32Inputs) {
  using K = MatrixElementKind;
  using R = MatrixInputPrecision::Rounding;
  const MatrixInstruction *tf32 =
      findMatrixInstruction("sm_80", K::TF32, 16, 8, 8);
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->op.aShape, (llvm::SmallVector<int64_t, 2>{4, 1}));
  EXPECT_EQ(tf32->op.bShape, (llvm::SmallVector<int64_t, 2>{2, 1}));
  EXPECT_EQ(tf32->op.precisionAttr, "tf32Enabled");
  EXPECT_EQ(tf32->ldmatrix(MatrixOperand::A), nullptr);
  EXPECT_TRUE(tf32->availableOn("sm_90a"));
  const MatrixInstruction *xf32 =
      findMatrixInstruction("gfx942", K::XF32, 32, 32, 4);
  ASSERT_NE(xf32, nullptr);
  EXPECT_EQ(xf32->op.aShape, (llvm::SmallVector<int64_t, 2>{2}));
  EXPECT_EQ(xf32->op.precisionAttr, "reducePrecision");
  EXPECT_FALSE(xf32->availableOn("gfx950"));
  EXPECT_FALSE(xf32->availableOn("gfx90a"));
  const MatrixInstruction *f32 =
      findMatrixInstruction("gfx90a", K::F32, 16, 16, 4);
  ASSERT_NE(f32, nullptr);
  EXPECT_TRUE(f32->op.aShape.empty()); // a scalar f32
  EXPECT_TRUE(f32->op.precisionAttr.empty());
  EXPECT_EQ(f32->mnemonicOn("gfx90a"), "v_mfma_f32_16x16x4f32");
  EXPECT_EQ(f32->mnemonicOn("gfx950"), "v_mfma_f32_16x16x4_f32");
  for (StringRef chip : {"gfx1100", "sm_75"})
    for (const MatrixInstruction *inst : getMatrixInstructions(chip))
      EXPECT_FALSE(takesF32Inputs(inst->inputKind)) << chip.str();

  EXPECT_EQ(inputPrecision(K::TF32).mantissaBits, 10);
  EXPECT_EQ(inputPrecision(K::TF32).rounding, R::Truncate);
  EXPECT_EQ(inputPrecision(K::XF32).rounding, R::NearestEven);
  EXPECT_EQ(inputPrecision(K::F32).rounding, R::Exact);
  EXPECT_EQ(chipsWithF32Inputs(),
            "gfx90a (f32 MFMA), gfx940, gfx941, gfx942 (xf32, f32 MFMA), "
            "gfx950 (f32 MFMA), sm_80 ... sm_90 (tf32 mma.sync), sm_90a "
            "(tf32 mma.sync)");
}

TEST(MatrixInstructionsTest, Float8Entries) {
  using K = MatrixElementKind;
  using R = MatrixInputPrecision::Rounding;
  // gfx942 reads fp8 / bf8 as the FNUZ encodings, gfx950 as the OCP ones:
  // the same mnemonic, two entries, each found only with its encoding.
  struct Chip {
    const char *name;
    K fp8, bf8, other;
  };
  for (Chip c : {Chip{"gfx942", K::E4M3FNUZ, K::E5M2FNUZ, K::E4M3FN},
                 Chip{"gfx950", K::E4M3FN, K::E5M2, K::E4M3FNUZ}}) {
    for (auto [m, k] : {std::pair<int64_t, int64_t>{32, 16}, {16, 32}}) {
      const MatrixInstruction *fp8 =
          findMatrixInstruction(c.name, c.fp8, m, m, k);
      const MatrixInstruction *bf8 =
          findMatrixInstruction(c.name, c.bf8, m, m, k);
      ASSERT_NE(fp8, nullptr) << c.name;
      ASSERT_NE(bf8, nullptr) << c.name;
      EXPECT_EQ(fp8->mnemonic, "v_mfma_f32_" + fp8->shapeString() + "_fp8_fp8");
      EXPECT_EQ(bf8->mnemonic, "v_mfma_f32_" + bf8->shapeString() + "_bf8_bf8");
      EXPECT_EQ(fp8->op.opName, "amdgpu.mfma");
      EXPECT_EQ(fp8->op.aShape, (llvm::SmallVector<int64_t, 2>{8}));
      EXPECT_EQ(fp8->op.cShape,
                (llvm::SmallVector<int64_t, 2>{m == 32 ? 16 : 4}));
      EXPECT_FALSE(fp8->availableOn("gfx90a"));
      EXPECT_EQ(findMatrixInstruction(c.name, c.other, m, m, k), nullptr)
          << c.name;
    }
  }
  EXPECT_EQ(findMatrixInstruction("gfx950", K::E4M3FN, 32, 32, 16)->op.aShape,
            (llvm::SmallVector<int64_t, 2>{8}));
  // mma.sync m16n8k32 on sm_89 and later, through LLVM's intrinsic.
  const MatrixInstruction *mma =
      findMatrixInstruction("sm_90", K::E4M3FN, 16, 8, 32);
  ASSERT_NE(mma, nullptr);
  EXPECT_EQ(mma->op.opName, "llvm.call_intrinsic");
  EXPECT_EQ(mma->op.llvmIntrinsic,
            "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  EXPECT_EQ(mma->op.aShape, (llvm::SmallVector<int64_t, 2>{4, 4}));
  EXPECT_EQ(mma->op.bShape, (llvm::SmallVector<int64_t, 2>{2, 4}));
  EXPECT_EQ(mma->op.cShape, (llvm::SmallVector<int64_t, 2>{2, 2}));
  EXPECT_EQ(mma->minimumSmVersion, 89);
  EXPECT_EQ(mma->minimumPtxVersion, 84);
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (inst.op.llvmIntrinsic.empty())
      EXPECT_EQ(inst.minimumPtxVersion, 0) << inst.mnemonic.str();
  EXPECT_EQ(mma->ldmatrix(MatrixOperand::A), nullptr);
  EXPECT_EQ(float8EncodingOf(K::E4M3FNUZ), Float8Encoding::E4M3FNUZ);
  EXPECT_EQ(float8EncodingOf(K::E5M2), Float8Encoding::E5M2);
  EXPECT_EQ(float8EncodingOf(K::F16), std::nullopt);
  // What a refusal of an FP8 contraction names: the FP8 mma.sync from
  // sm_89 on, and sm_90a's wgmma.
  EXPECT_EQ(chipsWithInputs(isFloat8),
            "gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA), gfx950 "
            "(f8E4M3FN, f8E5M2 MFMA), sm_89 ... sm_90 (f8E4M3FN, f8E5M2 "
            "mma.sync), sm_90a (f8E4M3FN, f8E5M2 mma.sync, wgmma)");
  for (StringRef chip : {"sm_89", "sm_90", "sm_90a"})
    EXPECT_TRUE(mma->availableOn(chip)) << chip.str();
  for (StringRef chip : {"sm_80", "sm_86", "gfx942"})
    EXPECT_FALSE(mma->availableOn(chip)) << chip.str();
  // By generation: SM80 (sm_80 ... sm_90) lacks it on sm_80 / sm_86.
  EXPECT_FALSE(mma->availableOn(ChipGeneration::SM80));
  EXPECT_TRUE(mma->availableOn(ChipGeneration::SM90A));
  EXPECT_NE(findMatrixInstruction("sm_89", K::E5M2, 16, 8, 32), nullptr);
  EXPECT_EQ(findMatrixInstruction("sm_86", K::E5M2, 16, 8, 32), nullptr);
  // wgmma m64nNk32: K-major A and B only, from workgroup memory.
  for (K kind : {K::E4M3FN, K::E5M2}) {
    const MatrixInstruction *wg =
        findMatrixInstruction("sm_90a", kind, 64, 128, 32);
    ASSERT_NE(wg, nullptr);
    EXPECT_TRUE(wg->kMajorOnly);
    EXPECT_TRUE(wg->operandsInWorkgroupMemory());
    EXPECT_EQ(wg->op.cShape, (llvm::SmallVector<int64_t, 2>{64}));
    EXPECT_EQ(wg->a.getLengths(), (llvm::ArrayRef<int64_t>{64, 32}));
    EXPECT_EQ(wg->b.getLengths(), (llvm::ArrayRef<int64_t>{32, 128}));
    EXPECT_TRUE(wg->op.lowersInMlir22);
    EXPECT_EQ(findMatrixInstruction("sm_90", kind, 64, 128, 32), nullptr);
  }
  EXPECT_FALSE(
      findMatrixInstruction("sm_90a", K::F16, 64, 128, 16)->kMajorOnly);
  // Every FP8 entry: exact 8-bit inputs; never taken for f32 tiles.
  int entries = 0;
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    if (!isFloat8(inst.inputKind))
      continue;
    ++entries;
    EXPECT_FALSE(takesF32Inputs(inst.inputKind));
    MatrixInputPrecision p = inputPrecision(inst.inputKind);
    bool e4m3 = inst.inputKind == K::E4M3FN || inst.inputKind == K::E4M3FNUZ;
    EXPECT_EQ(p.mantissaBits, e4m3 ? 3 : 2);
    EXPECT_EQ(p.rounding, R::Exact);
    EXPECT_EQ(inst.kMajorOnly, inst.family == MatrixFamily::Wgmma);
  }
  EXPECT_EQ(entries, 22);
  EXPECT_EQ(stringifyMatrixElementKind(K::E4M3FNUZ), "f8E4M3FNUZ");
  EXPECT_EQ(stringifyMatrixElementKind(K::E5M2), "f8E5M2");
}

} // namespace

// The elements of a lane's C fragment that hold one row or one column, from
// the PTX ISA's figures ("mma.m16n8k16 ... accumulator D": c0, c1 in row
// groupID, c2, c3 in row groupID + 8, columns 2 threadID_in_group + (i & 1);
// wgmma's D: the same 8-column pattern repeated every 4 registers along N).
TEST(MatrixInstructionsTest, FirstElementsSharingLine) {
  using K = MatrixElementKind;
  const MatrixInstruction *mma =
      findMatrixInstruction("sm_80", K::F16, 16, 8, 16);
  ASSERT_NE(mma, nullptr);
  EXPECT_EQ(firstElementsSharingLine(*mma, MatrixOperand::C, /*column=*/false),
            (llvm::SmallVector<int64_t>{0, 0, 2, 2}));
  EXPECT_EQ(firstElementsSharingLine(*mma, MatrixOperand::C, /*column=*/true),
            (llvm::SmallVector<int64_t>{0, 1, 0, 1}));
  const MatrixInstruction *wg =
      findMatrixInstruction("sm_90a", K::F16, 64, 16, 16);
  ASSERT_NE(wg, nullptr);
  EXPECT_EQ(firstElementsSharingLine(*wg, MatrixOperand::C, /*column=*/false),
            (llvm::SmallVector<int64_t>{0, 0, 2, 2, 0, 0, 2, 2}));
  EXPECT_EQ(firstElementsSharingLine(*wg, MatrixOperand::C, /*column=*/true),
            (llvm::SmallVector<int64_t>{0, 1, 0, 1, 4, 5, 4, 5}));
}
