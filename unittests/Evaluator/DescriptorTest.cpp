//===- DescriptorTest.cpp - Tests of descriptors and their evaluator ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The seeds' descriptor examples (CK Tile: naive, packed, aligned, the
// [2, 6] -> [2, 2, 3] view, transposition, convolution padding, slicing, the
// 5-D to 3-D block merge; an im2col pad + embed + merge chain), each checked
// at every coordinate against a closed-form offset written out here, and the
// inverse checked against the forward map.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/TransformFormulas.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <set>

using namespace mlir::layout;
using llvm::SmallVector;

namespace {

std::string errorOf(llvm::Expected<Descriptor> d) {
  if (d)
    return "";
  return llvm::toString(d.takeError());
}

StageEntry entry(Transform t, SmallVector<int64_t, 4> lower,
                 SmallVector<int64_t, 4> upper) {
  return StageEntry{std::move(t), std::move(lower), std::move(upper)};
}

/// Calls `fn` on every coordinate of the box `lengths`.
void forEachCoord(llvm::ArrayRef<int64_t> lengths,
                  const std::function<void(llvm::ArrayRef<int64_t>)> &fn) {
  SmallVector<int64_t> c(lengths.size(), 0);
  while (true) {
    fn(c);
    size_t i = c.size();
    while (i > 0) {
      --i;
      if (++c[i] < lengths[i])
        break;
      c[i] = 0;
      if (i == 0)
        return;
    }
  }
}

/// Checks `layout.upper` against `layout.offset`: every valid coordinate comes
/// back, and every offset that no valid coordinate reaches is refused.
void expectUpperInvertsOffset(const Descriptor &d) {
  ASSERT_FALSE(static_cast<bool>(d.checkInvertible()));
  std::map<int64_t, SmallVector<int64_t>> reached;
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    Evaluation e = d.evaluate(c);
    if (!e.valid)
      return;
    auto back = d.upper(e.offset);
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(*back, SmallVector<int64_t>(c.begin(), c.end()));
    reached[e.offset] = SmallVector<int64_t>(c.begin(), c.end());
  });
  for (int64_t off = 0; off < d.getElementSpaceSize(); ++off) {
    if (reached.count(off))
      continue;
    auto back = d.upper(off);
    EXPECT_FALSE(static_cast<bool>(back)) << "offset " << off;
    if (!back)
      llvm::consumeError(back.takeError());
  }
}

TEST(DescriptorTest, NaivePackedAligned) {
  Descriptor naive = unwrap(Descriptor::naive({3, 4}, {8, 1}));
  EXPECT_EQ(naive.offset({1, 2}), 10);
  EXPECT_EQ(naive.getElementSpaceSize(), 1 + 2 * 8 + 3 * 1);
  Descriptor packed = unwrap(Descriptor::packed({3, 4}));
  EXPECT_EQ(packed.offset({1, 2}), 6);
  EXPECT_EQ(packed.getElementSpaceSize(), 12);
  Descriptor aligned = unwrap(Descriptor::aligned({4, 5}, 8));
  EXPECT_EQ(aligned.getBaseStrides(), (llvm::ArrayRef<int64_t>{8, 1}));
  EXPECT_EQ(aligned.getElementSpaceSize(), 32);
  Descriptor aligned3 = unwrap(Descriptor::aligned({2, 4, 5}, 8));
  EXPECT_EQ(aligned3.getBaseStrides(), (llvm::ArrayRef<int64_t>{32, 8, 1}));
  EXPECT_EQ(aligned3.getElementSpaceSize(), 64);
  forEachCoord({3, 4}, [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(naive.offset(c), c[0] * 8 + c[1]);
    EXPECT_EQ(packed.offset(c), c[0] * 4 + c[1]);
    EXPECT_TRUE(naive.valid(c));
  });
  expectUpperInvertsOffset(naive);
  expectUpperInvertsOffset(packed);
  expectUpperInvertsOffset(aligned3);
}

TEST(DescriptorTest, PackedViewedAs2x2x3) {
  Descriptor d =
      unwrap(unwrap(Descriptor::packed({2, 6}))
                 .transform({entry(Transform::passThrough(2), {0}, {0}),
                             entry(Transform::unmerge({2, 3}), {1}, {1, 2})}));
  EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{2, 2, 3}));
  EXPECT_EQ(d.offset({1, 1, 2}), 11);
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(d.offset(c), c[0] * 6 + c[1] * 3 + c[2]);
  });
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, Transposition) {
  const int64_t m = 5, n = 7;
  Descriptor d =
      unwrap(unwrap(Descriptor::packed({m, n}))
                 .transform({entry(Transform::passThrough(n), {1}, {0}),
                             entry(Transform::passThrough(m), {0}, {1})}));
  EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{n, m}));
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(d.offset(c), c[1] * n + c[0]);
  });
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, ConvolutionPadding) {
  const int64_t N = 2, C = 3, H = 4, W = 5, padH = 1, padW = 2;
  Descriptor d =
      unwrap(unwrap(Descriptor::packed({N, C, H, W}))
                 .transform({entry(Transform::passThrough(N), {0}, {0}),
                             entry(Transform::passThrough(C), {1}, {1}),
                             entry(Transform::pad(H, padH, padH), {2}, {2}),
                             entry(Transform::pad(W, padW, padW), {3}, {3})}));
  EXPECT_EQ(d.getLengths(),
            (llvm::ArrayRef<int64_t>{N, C, H + 2 * padH, W + 2 * padW}));
  int validCount = 0;
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    int64_t h = c[2] - padH, w = c[3] - padW;
    bool valid = h >= 0 && h < H && w >= 0 && w < W;
    EXPECT_EQ(d.valid(c), valid);
    if (valid) {
      EXPECT_EQ(d.offset(c), ((c[0] * C + c[1]) * H + h) * W + w);
      ++validCount;
    }
  });
  EXPECT_EQ(validCount, N * C * H * W);
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, Slicing) {
  const int64_t M = 8, N = 10;
  Descriptor d =
      unwrap(unwrap(Descriptor::packed({M, N}))
                 .transform({entry(Transform::slice(M, 2, 6), {0}, {0}),
                             entry(Transform::slice(N, 3, 9), {1}, {1})}));
  EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{4, 6}));
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(d.offset(c), (c[0] + 2) * N + (c[1] + 3));
  });
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, FiveDToThreeDBlockMerge) {
  // CK Tile's block example: Block_M 256, 8 warps of 64, KVector 4,
  // 2 waves per K: [NumIssues, wavesPerM, wavesPerK, WarpSize, KVector].
  const int64_t blockM = 256, numWarps = 8, warpSize = 64, kVector = 4,
                wavesPerK = 2, wavesPerM = numWarps / wavesPerK,
                numIssues = blockM / wavesPerM;
  Descriptor d = unwrap(
      unwrap(Descriptor::packed(
                 {numIssues, wavesPerM, wavesPerK, warpSize, kVector}))
          .transform(
              {entry(Transform::passThrough(numIssues), {0}, {0}),
               entry(Transform::merge({wavesPerM, wavesPerK}), {1, 2}, {1}),
               entry(Transform::merge({warpSize, kVector}), {3, 4}, {2})}));
  EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{64, 8, 256}));
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    int64_t wm = c[1] / wavesPerK, wk = c[1] % wavesPerK;
    int64_t lane = c[2] / kVector, kv = c[2] % kVector;
    int64_t expected =
        (((c[0] * wavesPerM + wm) * wavesPerK + wk) * warpSize + lane) *
            kVector +
        kv;
    EXPECT_EQ(d.offset(c), expected);
  });
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, Im2colPadEmbedMerge) {
  // NHWC input, 3x3 filter, stride 2, dilation 1, padding 1: the GEMM view
  // [N*Ho*Wo, Y*X*C] of the implicit im2col matrix.
  const int64_t N = 2, Hi = 5, Wi = 6, C = 3, Y = 3, X = 3, stride = 2, dil = 1,
                pad = 1;
  const int64_t Hip = Hi + 2 * pad, Wip = Wi + 2 * pad;
  const int64_t Ho = (Hip - dil * (Y - 1) - 1) / stride + 1;
  const int64_t Wo = (Wip - dil * (X - 1) - 1) / stride + 1;
  Descriptor d0 = unwrap(Descriptor::packed({N, Hi, Wi, C}));
  Descriptor d1 =
      unwrap(d0.transform({entry(Transform::passThrough(N), {0}, {0}),
                           entry(Transform::pad(Hi, pad, pad), {1}, {1}),
                           entry(Transform::pad(Wi, pad, pad), {2}, {2}),
                           entry(Transform::passThrough(C), {3}, {3})}));
  Descriptor d2 = unwrap(d1.transform(
      {entry(Transform::passThrough(N), {0}, {0}),
       entry(Transform::embed({Y, Ho}, {dil, stride}), {1}, {1, 2}),
       entry(Transform::embed({X, Wo}, {dil, stride}), {2}, {3, 4}),
       entry(Transform::passThrough(C), {3}, {5})}));
  Descriptor d = unwrap(
      d2.transform({entry(Transform::merge({N, Ho, Wo}), {0, 2, 4}, {0}),
                    entry(Transform::merge({Y, X, C}), {1, 3, 5}, {1})}));
  EXPECT_EQ(d.getLengths(), (llvm::ArrayRef<int64_t>{N * Ho * Wo, Y * X * C}));
  int padded = 0;
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    int64_t n = c[0] / (Ho * Wo), ho = c[0] / Wo % Ho, wo = c[0] % Wo;
    int64_t y = c[1] / (X * C), x = c[1] / C % X, ch = c[1] % C;
    int64_t hi = y * dil + ho * stride - pad, wi = x * dil + wo * stride - pad;
    bool valid = hi >= 0 && hi < Hi && wi >= 0 && wi < Wi;
    Evaluation e = d.evaluate(c);
    EXPECT_EQ(e.valid, valid);
    if (valid)
      EXPECT_EQ(e.offset, ((n * Hi + hi) * Wi + wi) * C + ch);
    else
      ++padded;
  });
  EXPECT_GT(padded, 0);
  // Overlapping windows (stride < filter) make the chain non-injective.
  llvm::Error e = d.checkInvertible();
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("#layout.embed<[3, 3], [1, 2]>"),
            std::string::npos);
}

TEST(DescriptorTest, XorSwizzledSharedTile) {
  // A 32x32 f32 tile through CK's xor: element (r, c) lives at
  // r * 32 + (c ^ r): every column of 32 rows hits 32 distinct banks.
  Descriptor d = unwrap(unwrap(Descriptor::packed({32, 32}))
                            .transform({entry(Transform::xorTransform({32, 32}),
                                              {0, 1}, {0, 1})}));
  forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(d.offset(c), c[0] * 32 + (c[1] ^ c[0]));
  });
  for (int64_t col = 0; col < 32; ++col) {
    std::set<int64_t> banks;
    for (int64_t row = 0; row < 32; ++row)
      banks.insert(d.offset({row, col}) % 32);
    EXPECT_EQ(banks.size(), 32u);
  }
  expectUpperInvertsOffset(d);
}

TEST(DescriptorTest, ReplicateFreezeAndModulo) {
  Descriptor base = unwrap(Descriptor::naive({3, 4}, {8, 1}));
  Descriptor bcast =
      unwrap(base.transform({entry(Transform::replicate({5}), {}, {0}),
                             entry(Transform::freeze(2), {0}, {}),
                             entry(Transform::passThrough(4), {1}, {1})}));
  EXPECT_EQ(bcast.getLengths(), (llvm::ArrayRef<int64_t>{5, 4}));
  forEachCoord(bcast.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
    EXPECT_EQ(bcast.offset(c), 2 * 8 + c[1]);
  });
  llvm::Error e = bcast.checkInvertible();
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("#layout.replicate<[5]>"),
            std::string::npos);

  Descriptor wrapped =
      unwrap(unwrap(Descriptor::packed({4}))
                 .transform({entry(Transform::modulo(4, 16), {0}, {0})}));
  for (int64_t u = 0; u < 16; ++u)
    EXPECT_EQ(wrapped.offset({u}), u % 4);
  auto up = wrapped.upper(1);
  ASSERT_FALSE(static_cast<bool>(up));
  EXPECT_NE(llvm::toString(up.takeError()).find("#layout.modulo<4, 16>"),
            std::string::npos);
}

TEST(DescriptorTest, SunderInverseSetsUnselectedPiecesToZero) {
  Descriptor d = unwrap(
      unwrap(Descriptor::packed({16}))
          .transform({entry(Transform::sunder({6, 10}), {0}, {0, 1, 2})}));
  EXPECT_EQ(d.offset({3, 7, 1}), 13);
  EXPECT_EQ(d.offset({3, 7, 0}), 3);
  auto up = d.upper(13);
  ASSERT_TRUE(static_cast<bool>(up));
  EXPECT_EQ(*up, (SmallVector<int64_t>{0, 7, 1}));
}

TEST(DescriptorTest, StageErrors) {
  Descriptor p = unwrap(Descriptor::packed({2, 6}));
  EXPECT_EQ(errorOf(p.transform({entry(Transform::passThrough(2), {0}, {0}),
                                 entry(Transform::passThrough(2), {0}, {1})})),
            "old top dimension 0 is consumed twice (by transforms 0 and 1)");
  EXPECT_NE(errorOf(p.transform({entry(Transform::passThrough(2), {0}, {0})}))
                .find("old top dimension 1 is not consumed"),
            std::string::npos);
  EXPECT_NE(errorOf(p.transform({entry(Transform::passThrough(2), {0}, {0}),
                                 entry(Transform::passThrough(6), {1}, {2})}))
                .find("new top dimension 2 is out of range"),
            std::string::npos);
  EXPECT_NE(
      errorOf(p.transform({entry(Transform::passThrough(2), {0}, {0}),
                           entry(Transform::unmerge({2, 4}), {1}, {1, 2})}))
          .find("lower length must equal"),
      std::string::npos);
  EXPECT_NE(errorOf(p.transform({entry(Transform::passThrough(2), {0}, {0}),
                                 entry(Transform::passThrough(6), {2}, {1})}))
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(
      errorOf(Descriptor::naive({INT64_MAX, 3}, {2, 1})).find("overflows"),
      std::string::npos);
  EXPECT_NE(errorOf(Descriptor::packed({1 << 30, 1 << 30, 1 << 30}))
                .find("overflows"),
            std::string::npos);
  EXPECT_NE(errorOf(Descriptor::naive({3, 4}, {8})).find("'strides'"),
            std::string::npos);
  EXPECT_NE(errorOf(Descriptor::packed({})).find("must not be empty"),
            std::string::npos);
}

TEST(DescriptorTest, EveryInjectiveEmbedInverts) {
  // Every embed of two or three dims of lengths 1..3 and coefficients 0..5
  // over a buffer it fits: checkInvertible agrees with brute-force
  // injectivity, and where injective (nested or not) layout.upper inverts
  // layout.offset on every offset.
  int injective = 0, notNested = 0;
  for (int rank = 2; rank <= 3; ++rank) {
    int64_t combos = 1;
    for (int i = 0; i < 2 * rank; ++i)
      combos *= i < rank ? 3 : 6;
    for (int64_t n = 0; n < combos; ++n) {
      SmallVector<int64_t> lengths, coefficients;
      int64_t rest = n;
      for (int i = 0; i < rank; ++i, rest /= 3)
        lengths.push_back(1 + rest % 3);
      for (int i = 0; i < rank; ++i, rest /= 6)
        coefficients.push_back(rest % 6);
      int64_t span = 1;
      for (int i = 0; i < rank; ++i)
        span += (lengths[i] - 1) * coefficients[i];
      Descriptor d = unwrap(
          unwrap(Descriptor::packed({span}))
              .transform(
                  {entry(Transform::embed(lengths, coefficients), {0},
                         rank == 2 ? SmallVector<int64_t, 4>{0, 1}
                                   : SmallVector<int64_t, 4>{0, 1, 2})}));
      std::set<int64_t> offsets;
      int64_t count = 0;
      forEachCoord(d.getLengths(), [&](llvm::ArrayRef<int64_t> c) {
        offsets.insert(d.offset(c));
        ++count;
      });
      bool isInjective = int64_t(offsets.size()) == count;
      llvm::Error e = d.checkInvertible();
      EXPECT_EQ(!e, isInjective)
          << Transform::embed(lengths, coefficients).str() << ": "
          << (e ? llvm::toString(std::move(e)) : "invertible");
      if (e)
        llvm::consumeError(std::move(e));
      if (!isInjective)
        continue;
      ++injective;
      if (!formulas::planEmbedInverse(lengths, coefficients).nested)
        ++notNested;
      expectUpperInvertsOffset(d);
    }
  }
  EXPECT_GT(injective, 100);
  EXPECT_GT(notNested, 20);
}

TEST(DescriptorTest, RankMismatchDoesNotTrap) {
  Descriptor p = unwrap(Descriptor::packed({2, 6}));
  Evaluation e = p.evaluate({1});
  EXPECT_FALSE(e.valid);
}

TEST(DescriptorTest, StrPrintsTheChainAsIR) {
  Descriptor d =
      unwrap(unwrap(Descriptor::packed({2, 6}))
                 .transform({entry(Transform::passThrough(2), {0}, {0}),
                             entry(Transform::unmerge({2, 3}), {1}, {1, 2})}));
  EXPECT_EQ(d.str(),
            "%d0 = layout.packed [2, 6] : !layout.desc<2x6>\n"
            "%d1 = layout.transform %d0 [#layout.pass_through<2> : [0] -> "
            "[0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]] : "
            "!layout.desc<2x6> -> !layout.desc<2x2x3>");
}

} // namespace
