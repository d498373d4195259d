//===- TransformTest.cpp - Tests of the transforms' semantics -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Every transform kind on worked values from the seeds and on values computed
// here from the contract's formulas, plus brute-force properties (bijections,
// merge/unmerge inverses, verifier messages).
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Transform.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::layout;
using llvm::SmallVector;

namespace {

/// Runs calculateLowerIndex, returning the lower coordinate and validity.
std::pair<SmallVector<int64_t>, bool> lower(const Transform &t,
                                            llvm::ArrayRef<int64_t> upper) {
  SmallVector<int64_t> result(t.getNumLowerDims(), 0);
  bool valid = t.calculateLowerIndex(upper, result);
  return {result, valid};
}

std::string verifyMessage(const Transform &t) {
  llvm::Error e = t.verify();
  return e ? llvm::toString(std::move(e)) : std::string();
}

TEST(TransformTest, SeedWorkedValues) {
  // CK Tile's documented examples (seed 000).
  EXPECT_EQ(lower(Transform::merge({4, 5}), {13}).first,
            (SmallVector<int64_t>{2, 3}));
  EXPECT_EQ(lower(Transform::unmerge({3, 4, 2}), {1, 3, 0}).first,
            (SmallVector<int64_t>{14}));
  EXPECT_EQ(lower(Transform::embed({2, 3}, {12, 1}), {1, 2}).first,
            (SmallVector<int64_t>{14}));
  EXPECT_EQ(lower(Transform::offset(48, 16), {5}).first,
            (SmallVector<int64_t>{21}));
  for (int64_t u : {0, 10, 20, 47})
    EXPECT_EQ(lower(Transform::offset(48, 16), {u}).first[0], u + 16);
  EXPECT_EQ(lower(Transform::passThrough(60), {25}).first[0], 25);
}

TEST(TransformTest, PadSeedValues) {
  Transform pad = Transform::pad(3, 1, 1);
  ASSERT_FALSE(verifyMessage(pad).size());
  EXPECT_EQ(pad.getUpperLengths(), (SmallVector<int64_t>{5}));
  const int64_t expectedLower[] = {-1, 0, 1, 2, 3};
  const bool expectedValid[] = {false, true, true, true, false};
  for (int64_t u = 0; u < 5; ++u) {
    auto [l, valid] = lower(pad, {u});
    EXPECT_EQ(l[0], expectedLower[u]) << "u = " << u;
    EXPECT_EQ(valid, expectedValid[u]) << "u = " << u;
  }
}

TEST(TransformTest, LeftAndRightPad) {
  Transform left = Transform::leftPad(4, 2);
  EXPECT_EQ(left.getUpperLengths()[0], 6);
  for (int64_t u = 0; u < 6; ++u) {
    auto [l, valid] = lower(left, {u});
    EXPECT_EQ(l[0], u - 2);
    EXPECT_EQ(valid, u >= 2);
  }
  Transform right = Transform::rightPad(11, 1);
  EXPECT_EQ(right.getUpperLengths()[0], 12);
  for (int64_t u = 0; u < 12; ++u) {
    auto [l, valid] = lower(right, {u});
    EXPECT_EQ(l[0], u);
    EXPECT_EQ(valid, u < 11);
  }
}

TEST(TransformTest, SliceModuloFreezeReplicate) {
  Transform slice = Transform::slice(10, 2, 7);
  EXPECT_EQ(slice.getUpperLengths()[0], 5);
  for (int64_t u = 0; u < 5; ++u)
    EXPECT_EQ(lower(slice, {u}).first[0], u + 2);

  Transform mod = Transform::modulo(4, 16);
  for (int64_t u = 0; u < 16; ++u)
    EXPECT_EQ(lower(mod, {u}).first[0], u % 4);

  Transform freeze = Transform::freeze(2);
  EXPECT_EQ(freeze.getNumUpperDims(), 0u);
  EXPECT_EQ(lower(freeze, {}).first, (SmallVector<int64_t>{2}));

  Transform rep = Transform::replicate({3, 4});
  EXPECT_EQ(rep.getNumLowerDims(), 0u);
  EXPECT_EQ(rep.getUpperLengths(), (SmallVector<int64_t>{3, 4}));
  EXPECT_TRUE(lower(rep, {1, 2}).first.empty());
}

TEST(TransformTest, XorRotateSwizzleFormulas) {
  Transform x = Transform::xorTransform({4, 8});
  for (int64_t u0 = 0; u0 < 4; ++u0)
    for (int64_t u1 = 0; u1 < 8; ++u1)
      EXPECT_EQ(lower(x, {u0, u1}).first,
                (SmallVector<int64_t>{u0, u1 ^ (u0 % 8)}));
  Transform r = Transform::rotate({4, 6});
  for (int64_t u0 = 0; u0 < 4; ++u0)
    for (int64_t u1 = 0; u1 < 6; ++u1)
      EXPECT_EQ(lower(r, {u0, u1}).first,
                (SmallVector<int64_t>{u0, (u1 + u0) % 6}));
  // Hopper's SW128 on byte addresses: Swizzle<3, 4, 3>: bits 7..9 into 4..6.
  Transform s = Transform::swizzle(3, 4, 3, 1024);
  EXPECT_EQ(lower(s, {0x80}).first[0], 0x80 ^ 0x10);
  EXPECT_EQ(lower(s, {0x3ff}).first[0], 0x3ff ^ 0x70);
  EXPECT_EQ(lower(s, {0x0f}).first[0], 0x0f);
  // A negative shift moves low bits up: bits 0..1 into 4..5.
  Transform sl = Transform::swizzle(2, 4, -4, 64);
  EXPECT_EQ(lower(sl, {0x3}).first[0], 0x33);
}

TEST(TransformTest, Sunder) {
  // rocRoller seed: f(i, j, s) = i if s = 0, j + N_i if s = 1.
  Transform s = Transform::sunder({6, 10});
  EXPECT_EQ(s.getUpperLengths(), (SmallVector<int64_t>{6, 10, 2}));
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 10; ++j) {
      EXPECT_EQ(lower(s, {i, j, 0}).first[0], i);
      EXPECT_EQ(lower(s, {i, j, 1}).first[0], j + 6);
      EXPECT_TRUE(lower(s, {i, j, 1}).second);
    }
  EXPECT_FALSE(lower(s, {0, 0, 2}).second);
}

TEST(TransformTest, UnmergeAfterMergeIsIdentity) {
  for (SmallVector<int64_t> lengths :
       {SmallVector<int64_t>{4, 5}, SmallVector<int64_t>{3, 4, 2},
        SmallVector<int64_t>{7}, SmallVector<int64_t>{2, 1, 3, 5}}) {
    Transform merge = Transform::merge(lengths);
    Transform unmerge = Transform::unmerge(lengths);
    int64_t total = merge.getUpperLengths()[0];
    std::set<SmallVector<int64_t>> seen;
    for (int64_t u = 0; u < total; ++u) {
      SmallVector<int64_t> digits = lower(merge, {u}).first;
      for (auto [d, l] : llvm::zip_equal(digits, lengths)) {
        EXPECT_GE(d, 0);
        EXPECT_LT(d, l);
      }
      seen.insert(digits);
      EXPECT_EQ(lower(unmerge, digits).first[0], u);
    }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), total);
  }
}

/// Checks that a 1-D transform is a bijection of [0, length).
void expectBijection1D(const Transform &t) {
  int64_t length = t.getUpperLengths()[0];
  std::set<int64_t> images;
  for (int64_t u = 0; u < length; ++u) {
    int64_t l = lower(t, {u}).first[0];
    EXPECT_GE(l, 0) << t.str();
    EXPECT_LT(l, length) << t.str();
    images.insert(l);
  }
  EXPECT_EQ(static_cast<int64_t>(images.size()), length) << t.str();
}

/// Checks that a 2-D transform is a bijection of [0, L0) x [0, L1).
void expectBijection2D(const Transform &t) {
  auto lengths = t.getUpperLengths();
  std::set<std::pair<int64_t, int64_t>> images;
  for (int64_t u0 = 0; u0 < lengths[0]; ++u0)
    for (int64_t u1 = 0; u1 < lengths[1]; ++u1) {
      auto l = lower(t, {u0, u1}).first;
      EXPECT_EQ(l[0], u0);
      EXPECT_GE(l[1], 0);
      EXPECT_LT(l[1], lengths[1]) << t.str();
      images.insert({l[0], l[1]});
    }
  EXPECT_EQ(static_cast<int64_t>(images.size()), lengths[0] * lengths[1])
      << t.str();
}

TEST(TransformTest, XorRotateSwizzleAreBijections) {
  for (int64_t l0 : {1, 3, 8, 32, 33})
    for (int64_t l1 : {1, 2, 4, 8, 16, 32}) {
      expectBijection2D(Transform::xorTransform({l0, l1}));
      expectBijection2D(Transform::rotate({l0, l1}));
    }
  for (int64_t l1 : {3, 5, 7, 33})
    expectBijection2D(Transform::rotate({9, l1}));
  for (auto [b, m, s] : {std::tuple<int64_t, int64_t, int64_t>{3, 4, 3},
                         {2, 4, 3},
                         {1, 4, 3},
                         {3, 0, 3},
                         {2, 2, 4},
                         {2, 4, -2},
                         {0, 0, 0},
                         {3, 3, -3}}) {
    int64_t block = int64_t(1) << (b + m);
    for (int64_t mult : {1, 2, 3, 8}) {
      Transform t = Transform::swizzle(b, m, s, block * mult);
      ASSERT_EQ(verifyMessage(t), "") << t.str();
      expectBijection1D(t);
    }
  }
}

TEST(TransformTest, InverseOfEachKind) {
  // calculateUpperIndex undoes calculateLowerIndex on every upper coordinate
  // of each invertible transform.
  SmallVector<Transform> transforms = {
      Transform::passThrough(5),         Transform::pad(3, 1, 2),
      Transform::leftPad(4, 3),          Transform::rightPad(4, 3),
      Transform::embed({2, 3}, {12, 1}), Transform::embed({3, 2}, {1, 3}),
      Transform::merge({4, 5}),          Transform::unmerge({3, 4, 2}),
      Transform::offset(6, 3),           Transform::slice(10, 2, 7),
      Transform::modulo(8, 8),           Transform::xorTransform({4, 8}),
      Transform::rotate({4, 6}),         Transform::swizzle(2, 1, 3, 64),
      Transform::sunder({1, 1}),         Transform::replicate({1, 1})};
  for (const Transform &t : transforms) {
    ASSERT_EQ(verifyMessage(t), "") << t.str();
    ASSERT_FALSE(static_cast<bool>(t.checkInvertible())) << t.str();
    SmallVector<int64_t> upperLengths = t.getUpperLengths();
    int64_t total = 1;
    for (int64_t l : upperLengths)
      total *= l;
    for (int64_t flat = 0; flat < total; ++flat) {
      SmallVector<int64_t> u(upperLengths.size());
      int64_t rest = flat;
      for (size_t i = u.size(); i-- > 0;) {
        u[i] = rest % upperLengths[i];
        rest /= upperLengths[i];
      }
      auto [l, valid] = lower(t, u);
      if (!valid)
        continue;
      SmallVector<int64_t> back(u.size(), -1);
      t.calculateUpperIndex(l, back);
      EXPECT_EQ(back, u) << t.str();
    }
  }
}

TEST(TransformTest, NonInvertibleTransformsSayWhy) {
  auto why = [](const Transform &t) {
    llvm::Error e = t.checkInvertible();
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  EXPECT_NE(why(Transform::modulo(4, 16)).find("not injective"),
            std::string::npos);
  EXPECT_NE(why(Transform::replicate({5})).find("not injective"),
            std::string::npos);
  // Overlapping embed: u0 + u1 with U = [3, 2].
  EXPECT_NE(why(Transform::embed({3, 2}, {1, 1})).find("not injective"),
            std::string::npos);
  EXPECT_EQ(why(Transform::embed({3, 2}, {2, 1})), "");
}

TEST(TransformTest, VerifierMessagesNameTheParameter) {
  EXPECT_EQ(verifyMessage(Transform::passThrough(0)),
            "'length' must be positive, got 0");
  EXPECT_EQ(verifyMessage(Transform::pad(3, 1, -1)),
            "'right' must be non-negative, got -1");
  EXPECT_EQ(verifyMessage(Transform::merge({})),
            "'lower_lengths' must not be empty");
  EXPECT_EQ(verifyMessage(Transform::embed({2, 3}, {1})),
            "'coefficients' has 1 entries but 'upper_lengths' has 2");
  EXPECT_NE(verifyMessage(Transform::xorTransform({4, 6})).find("power of two"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::swizzle(3, 4, 2, 1024)).find("|S|"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::swizzle(3, 4, 3, 64)).find("exceed L"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::slice(4, 3, 2)).find("'begin'"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::slice(4, 1, 5)).find("'end'"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::modulo(0, 4)).find("'modulus'"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::unmerge({INT64_MAX, 2})).find("overflows"),
            std::string::npos);
  EXPECT_NE(verifyMessage(Transform::pad(INT64_MAX, 1, 0)).find("overflows"),
            std::string::npos);
}

TEST(TransformTest, LowerLengthChecks) {
  auto check = [](const Transform &t, llvm::ArrayRef<int64_t> lowerLengths) {
    llvm::Error e = t.checkLowerLengths(lowerLengths);
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  EXPECT_EQ(check(Transform::unmerge({2, 3}), {6}), "");
  EXPECT_NE(check(Transform::unmerge({2, 3}), {7}), "");
  EXPECT_EQ(check(Transform::embed({2, 3}, {12, 1}), {15}), "");
  EXPECT_NE(check(Transform::embed({2, 3}, {12, 1}), {14}), "");
  EXPECT_EQ(check(Transform::offset(48, 16), {64}), "");
  EXPECT_NE(check(Transform::offset(48, 16), {63}), "");
  EXPECT_EQ(check(Transform::modulo(4, 16), {4}), "");
  EXPECT_NE(check(Transform::modulo(5, 16), {4}), "");
  EXPECT_EQ(check(Transform::freeze(3), {4}), "");
  EXPECT_NE(check(Transform::freeze(4), {4}), "");
  EXPECT_EQ(check(Transform::sunder({6, 10}), {16}), "");
  EXPECT_NE(check(Transform::merge({4, 5}), {4, 6}), "");
}

TEST(TransformTest, StrSpellsTheContractSyntax) {
  EXPECT_EQ(Transform::pad(3, 1, 1).str(), "#layout.pad<3, 1, 1>");
  EXPECT_EQ(Transform::embed({2, 3}, {12, 1}).str(),
            "#layout.embed<[2, 3], [12, 1]>");
  EXPECT_EQ(Transform::swizzle(3, 4, 3, 1024).str(),
            "#layout.swizzle<3, 4, 3, 1024>");
  EXPECT_EQ(Transform::modulo(4, 16).str(), "#layout.modulo<4, 16>");
}

} // namespace
