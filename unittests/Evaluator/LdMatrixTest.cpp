//===- LdMatrixTest.cpp - Tests of the table's ldmatrix loads -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The ldmatrix loads of the matrix-instruction table (LdMatrixLoad) are
// checked against the PTX ISA's description of ldmatrix ("Warp-level matrix
// load instruction: ldmatrix"), simulated here independently of the table:
// matrix j's rows are the 8 consecutive elements at the addresses of lanes
// 8j .. 8j + 7, and without .trans lane l receives row l / 4, columns
// 2 (l % 4) and 2 (l % 4) + 1 of matrix j in register j. Loading a stored
// tile of distinct values with the table's row addresses must give every
// lane, in every register element, exactly the element the instruction's
// register layout (operandCoord) says that lane holds.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/MatrixInstructions.h"

#include "gtest/gtest.h"

#include <array>
#include <sstream>
#include <vector>

using namespace mlir::layout;

namespace mlir {
namespace layout {
/// How gtest prints a MatrixCoord.
static void PrintTo(const MatrixCoord &c, std::ostream *os) {
  *os << "(" << c.row << ", " << c.col << ")";
}
} // namespace layout
} // namespace mlir

namespace {

constexpr MatrixOperand kAB[] = {MatrixOperand::A, MatrixOperand::B};

std::string describe(const MatrixInstruction &inst, MatrixOperand op) {
  return (inst.mnemonic + " operand " + stringifyMatrixOperand(op)).str();
}

/// A stored tile of distinct values: element (r, c) holds r * cols + c.
struct Tile {
  int64_t rows, cols;
  int64_t at(int64_t r, int64_t c) const {
    EXPECT_TRUE(r >= 0 && r < rows && c >= 0 && c < cols)
        << "read outside the stored tile at (" << r << ", " << c << ")";
    return r * cols + c;
  }
};

/// PTX ldmatrix.sync.aligned.m8n8.x{numTiles}.shared.b16 without .trans on
/// a warp of 32: result[lane][j][v] is element 2 (lane % 4) + v of the row
/// whose address lane 8 j + lane / 4 gives (`address[i]` is lane i's).
std::vector<std::vector<std::array<int64_t, 2>>>
simulateLdMatrix(const Tile &tile, const std::vector<MatrixCoord> &address,
                 int64_t numTiles) {
  std::vector<std::vector<std::array<int64_t, 2>>> result(32);
  for (int64_t lane = 0; lane < 32; ++lane) {
    result[lane].resize(numTiles);
    for (int64_t j = 0; j < numTiles; ++j) {
      MatrixCoord row = address[8 * j + lane / 4];
      for (int64_t v = 0; v < 2; ++v)
        result[lane][j][v] = tile.at(row.row, row.col + 2 * (lane % 4) + v);
    }
  }
  return result;
}

/// The table's row addresses of every lane.
std::vector<MatrixCoord> rowAddresses(const MatrixInstruction &inst,
                                      MatrixOperand op) {
  std::vector<MatrixCoord> address;
  for (int64_t lane = 0; lane < inst.waveSize; ++lane)
    address.push_back(ldmatrixRowAddress(inst, op, lane));
  return address;
}

TEST(LdMatrixTest, MmaSyncHasLoadsOfAAndB) {
  int withLoads = 0;
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    EXPECT_EQ(inst.ldmatrix(MatrixOperand::C), nullptr);
    // ldmatrix moves 16-bit elements: the tf32 and FP8 mma.sync have none
    // (LdMatrixLoad counts 16-bit elements).
    bool mma = inst.family == MatrixFamily::MmaSync &&
               (inst.inputKind == MatrixElementKind::F16 ||
                inst.inputKind == MatrixElementKind::BF16);
    for (MatrixOperand op : kAB) {
      const LdMatrixLoad *load = inst.ldmatrix(op);
      EXPECT_EQ(load != nullptr, mma) << describe(inst, op);
      if (!load)
        continue;
      ++withLoads;
      bool isA = op == MatrixOperand::A;
      EXPECT_EQ(load->numTiles, isA ? 4 : 2) << describe(inst, op);
      EXPECT_FALSE(load->transpose) << describe(inst, op);
      // The stored tile: A's M x K; B's N x K (its columns as rows).
      EXPECT_EQ(load->rows, isA ? inst.m : inst.n) << describe(inst, op);
      EXPECT_EQ(load->cols, inst.k) << describe(inst, op);
      EXPECT_EQ(load->storedTransposed, !isA) << describe(inst, op);
      EXPECT_EQ(load->activeLanes(), 8 * load->numTiles);
      EXPECT_EQ(load->rowAddress.getLengths(),
                (llvm::ArrayRef<int64_t>{inst.waveSize}));
      // vector<numTiles x 2 x f16> is the op's operand vector.
      const llvm::SmallVector<int64_t, 2> &shape =
          isA ? inst.op.aShape : inst.op.bShape;
      EXPECT_EQ(shape, (llvm::SmallVector<int64_t, 2>{load->numTiles, 2}))
          << describe(inst, op);
      // 16-byte rows of an 8x8 matrix: numTiles x 64 elements, the tile.
      EXPECT_EQ(load->numTiles * 64, load->rows * load->cols);
    }
  }
  EXPECT_EQ(withLoads, 4); // f16 and bf16 mma.sync, A and B
}

TEST(LdMatrixTest, RowAddressesMatchFormulas) {
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    for (MatrixOperand op : kAB) {
      const LdMatrixLoad *load = inst.ldmatrix(op);
      if (!load)
        continue;
      for (int64_t lane = 0; lane < inst.waveSize; ++lane) {
        MatrixCoord got = ldmatrixRowAddress(inst, op, lane);
        // A: row = lane % 16, col = 8 (lane / 16). B (n, k): n = lane % 8,
        // k = 8 ((lane / 8) % 2); lanes 16..31 repeat lanes 0..15.
        MatrixCoord want = op == MatrixOperand::A
                               ? MatrixCoord{lane % 16, 8 * (lane / 16)}
                               : MatrixCoord{lane % 8, 8 * ((lane / 8) % 2)};
        EXPECT_EQ(got, want) << describe(inst, op) << " lane " << lane;
        // Every address, read or not, is a whole 16-byte row in the tile.
        EXPECT_TRUE(got.row >= 0 && got.row < load->rows && got.col >= 0 &&
                    got.col % 8 == 0 && got.col + 8 <= load->cols)
            << describe(inst, op) << " lane " << lane;
        if (lane >= load->activeLanes()) {
          EXPECT_EQ(got,
                    ldmatrixRowAddress(inst, op, lane % load->activeLanes()));
        }
      }
    }
  }
}

TEST(LdMatrixTest, SimulatedLoadIsTheFragment) {
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    for (MatrixOperand op : kAB) {
      const LdMatrixLoad *load = inst.ldmatrix(op);
      if (!load)
        continue;
      ASSERT_FALSE(load->transpose);
      ASSERT_EQ(inst.waveSize, 32);
      Tile tile{load->rows, load->cols};
      auto result =
          simulateLdMatrix(tile, rowAddresses(inst, op), load->numTiles);
      int mismatches = 0;
      std::ostringstream first;
      for (int64_t lane = 0; lane < 32; ++lane) {
        for (int64_t j = 0; j < load->numTiles; ++j) {
          for (int64_t v = 0; v < 2; ++v) {
            // The operand element the register layout puts in lane's
            // element 2 j + v, found in the stored tile.
            MatrixCoord want = operandCoord(inst, op, lane, 2 * j + v);
            MatrixCoord stored = load->toOperand(want); // its own inverse
            int64_t expected = tile.at(stored.row, stored.col);
            int64_t got = result[lane][j][v];
            if (got == expected)
              continue;
            if (mismatches++ < 4)
              first << "\n  lane " << lane << " register " << j << " element "
                    << v << ": loaded stored (" << got / tile.cols << ", "
                    << got % tile.cols << "), the layout holds operand ("
                    << want.row << ", " << want.col << ")";
          }
        }
      }
      EXPECT_EQ(mismatches, 0)
          << describe(inst, op) << ": " << mismatches
          << " (lane, register, element) triples differ; first:" << first.str();
    }
  }
}

/// PTX ldmatrix .x{numTiles}.trans: lane receives, in register j, column
/// lane / 4 of matrix j, rows 2 (lane % 4) + v (the matrix loaded
/// column-major).
std::vector<std::vector<std::array<int64_t, 2>>>
simulateLdMatrixTrans(const Tile &tile, const LdMatrixLoad &load) {
  std::vector<std::vector<std::array<int64_t, 2>>> result(32);
  for (int64_t lane = 0; lane < 32; ++lane) {
    result[lane].resize(load.numTiles);
    for (int64_t j = 0; j < load.numTiles; ++j)
      for (int64_t v = 0; v < 2; ++v) {
        MatrixCoord row = load.rowAddressOf(8 * j + 2 * (lane % 4) + v);
        result[lane][j][v] = tile.at(row.row, row.col + lane / 4);
      }
  }
  return result;
}

TEST(LdMatrixTest, TransposedBIsTheFragment) {
  int checked = 0;
  for (const MatrixInstruction &inst : getMatrixInstructions()) {
    if (!inst.ldmatrixBTrans)
      continue;
    const LdMatrixLoad &load = *inst.ldmatrixBTrans;
    ASSERT_TRUE(load.transpose);
    // Row addresses: k = lane % 16, n = 0.
    for (int64_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(load.rowAddressOf(lane), (MatrixCoord{lane % 16, 0}));
    Tile tile{load.rows, load.cols};
    auto result = simulateLdMatrixTrans(tile, load);
    int mismatches = 0;
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t j = 0; j < load.numTiles; ++j)
        for (int64_t v = 0; v < 2; ++v) {
          MatrixCoord want =
              operandCoord(inst, MatrixOperand::B, lane, 2 * j + v);
          MatrixCoord stored = load.toOperand(want);
          mismatches += result[lane][j][v] != tile.at(stored.row, stored.col);
        }
    EXPECT_EQ(mismatches, 0) << describe(inst, MatrixOperand::B);
    ++checked;
  }
  EXPECT_EQ(checked, 2); // mma.sync f16 and bf16
}

} // namespace
