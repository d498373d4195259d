//===- CoordinateTest.cpp - Tests of incremental coordinates --------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Moving a coordinate (formulas::moveCoordinate, CK Tile's
// update_lower_index) must give, at every level, exactly what recomputing
// from the new top gives: checked by hand on a merge of three dims and a
// padded convolution window, and by brute force on random chains, random
// coordinates (in and out of bounds) and random steps.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/DescriptorFormulas.h"
#include "layout/Testing/RandomChains.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using Coord = formulas::Levels<int64_t>;

Coord make(const Descriptor &d, ArrayRef<int64_t> top) {
  Int64Algebra a;
  return formulas::makeCoordinate(d, a, top);
}

void move(const Descriptor &d, Coord &c, ArrayRef<int64_t> step) {
  Int64Algebra a;
  formulas::moveCoordinate(d, a, c, step);
}

TEST(CoordinateTest, MergeOfThreeDimsCarries) {
  // packed [2, 3, 4] merged into 24: walking the merged index by 1 visits
  // the digits (i / 12, i / 4 mod 3, i mod 4); the offset is i.
  Descriptor d = unwrap(
      unwrap(Descriptor::packed({2, 3, 4}))
          .transform({makeEntry(Transform::merge({2, 3, 4}), {0, 1, 2}, {0})}));
  Coord c = make(d, {0});
  for (int64_t i = 0; i < 24; ++i) {
    EXPECT_EQ(c[0], (SmallVector<int64_t, 4>{i / 12, i / 4 % 3, i % 4}));
    Int64Algebra a;
    EXPECT_EQ(formulas::coordinateOffset(d, a, c), i);
    move(d, c, {1});
  }
  // Steps of 5 and -7 carry and borrow across two digits at once.
  c = make(d, {3});
  move(d, c, {5}); // 8 = (0, 2, 0)
  EXPECT_EQ(c[0], (SmallVector<int64_t, 4>{0, 2, 0}));
  move(d, c, {5}); // 13 = (1, 0, 1)
  EXPECT_EQ(c[0], (SmallVector<int64_t, 4>{1, 0, 1}));
  move(d, c, {-7}); // 6 = (0, 1, 2)
  EXPECT_EQ(c[0], (SmallVector<int64_t, 4>{0, 1, 2}));
  // The most significant digit is never reduced: 23 + 2 = 25 -> (2, 0, 1).
  c = make(d, {23});
  move(d, c, {2});
  EXPECT_EQ(c[0], (SmallVector<int64_t, 4>{2, 0, 1}));
}

TEST(CoordinateTest, PaddedConvolutionWindow) {
  // A 1-D convolution's im2col view: input W = 5 padded by 1 each side,
  // output position o and window k: x = o + k - 1, valid inside [0, 5).
  // Walk k by 1 and o by 2 and compare offset and validity with the
  // closed form at every step.
  Descriptor d = unwrap(
      unwrap(unwrap(Descriptor::packed({5}))
                 .transform({makeEntry(Transform::pad(5, 1, 1), {0}, {0})}))
          .transform(
              {makeEntry(Transform::embed({5, 3}, {1, 1}), {0}, {0, 1})}));
  Coord c = make(d, {0, 0});
  for (int64_t o = 0; o < 5; o += 2) {
    for (int64_t k = 0; k < 3; ++k) {
      Int64Algebra a;
      bool valid;
      int64_t off = formulas::coordinateOffset(d, a, c, &valid);
      int64_t x = o + k - 1;
      EXPECT_EQ(valid, x >= 0 && x < 5) << o << " " << k;
      if (valid)
        EXPECT_EQ(off, x);
      move(d, c, {0, 1});
    }
    move(d, c, {2, -3});
  }
}

TEST(CoordinateTest, RandomMovesEqualRecomputation) {
  std::mt19937_64 rng(2024);
  auto range = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int moves = 0;
  for (int n = 0; n < 2000; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    SmallVector<int64_t> top;
    for (int64_t len : d.getLengths())
      top.push_back(range(-2, len + 1));
    Coord c = make(d, top);
    for (int m = 0; m < 8; ++m) {
      SmallVector<int64_t> step;
      for (size_t i = 0; i < top.size(); ++i) {
        step.push_back(range(-5, 5));
        top[i] += step[i];
      }
      move(d, c, step);
      Coord fresh = make(d, top);
      ASSERT_EQ(c, fresh) << d.str() << "\nat " << formatIntList(top);
      Int64Algebra a;
      bool valid;
      int64_t off = formulas::coordinateOffset(d, a, c, &valid);
      Evaluation ev = d.evaluate(top);
      ASSERT_EQ(valid, ev.valid);
      ASSERT_EQ(off, ev.offset);
      ++moves;
    }
  }
  EXPECT_EQ(moves, 16000);
}

} // namespace
