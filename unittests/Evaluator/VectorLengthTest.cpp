//===- VectorLengthTest.cpp - Vector-length inference vs brute force ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The oracle: for a descriptor, the longest run of its last dimension
// (VectorLength.h's promise: every coordinate whose last index is a multiple
// of L is followed by L - 1 coordinates at offset + i * S, all of the same
// validity), found by trying every divisor of the last length over every
// coordinate, and the exact gcd of the offsets at multiples of a vector
// width. The inference must be sound on every descriptor (random chains of
// every kind) and equal to the oracle on one descriptor per kind where the
// kind keeps runs, and on the convolution's im2col chain.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/VectorLength.h"
#include "layout/Testing/RandomChains.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace mlir::layout;
using llvm::SmallVector;

namespace {

/// Whether runs of `length` with stride `stride` hold along the last dim.
bool holds(const Descriptor &d, int64_t length, int64_t stride) {
  if (d.getLengths().back() % length)
    return false;
  bool ok = true;
  chains::forEachCoordinate(d, [&](llvm::ArrayRef<int64_t> c) {
    if (!ok || c.back() % length)
      return;
    Evaluation first = d.evaluate(c);
    SmallVector<int64_t> at(c);
    for (int64_t i = 1; i < length && ok; ++i) {
      at.back() = c.back() + i;
      Evaluation e = d.evaluate(at);
      ok = e.valid == first.valid && e.offset == first.offset + i * stride;
    }
  });
  return ok;
}

/// The longest run the last dimension has (1 when none).
VectorRun bruteRun(const Descriptor &d) {
  int64_t n = d.getLengths().back();
  for (int64_t l = n; l > 1; --l) {
    if (n % l)
      continue;
    SmallVector<int64_t> zero(d.getRank(), 0), one(d.getRank(), 0);
    one.back() = 1;
    int64_t stride = d.offset(one) - d.offset(zero);
    if (holds(d, l, stride))
      return {l, stride};
  }
  return {};
}

/// The gcd of the offsets of the valid coordinates whose last index is a
/// multiple of `multiple`.
int64_t bruteDivisor(const Descriptor &d, int64_t multiple) {
  int64_t g = 0;
  chains::forEachCoordinate(d, [&](llvm::ArrayRef<int64_t> c) {
    if (c.back() % multiple == 0 && d.valid(c))
      g = std::gcd(g, d.offset(c));
  });
  return g;
}

Descriptor packed(llvm::ArrayRef<int64_t> lengths) {
  return llvm::cantFail(Descriptor::packed(lengths));
}

Descriptor stage(const Descriptor &d, llvm::ArrayRef<StageEntry> entries) {
  llvm::Expected<Descriptor> r = d.transform(entries);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return d;
  }
  return *r;
}

/// The inference equals the oracle, and its offsets divisor divides the
/// oracle's (it may only be more cautious there).
void expectExact(const Descriptor &d, VectorRun expected) {
  VectorRun run = lastDimRun(d);
  EXPECT_EQ(run, bruteRun(d)) << d.str();
  EXPECT_EQ(run, expected) << d.str();
  for (int64_t w : {1, 2, 4, 8}) {
    int64_t inferred = offsetDivisor(d, w), exact = bruteDivisor(d, w);
    EXPECT_EQ(exact % (inferred ? inferred : 1), 0)
        << d.str() << " width " << w << ": inferred " << inferred << ", exact "
        << exact;
  }
}

TEST(VectorLength, PassThroughAndBase) {
  expectExact(packed({3, 8}), {8, 1});
  Descriptor t =
      stage(packed({4, 6}), {makeEntry(Transform::passThrough(6), {1}, {0}),
                             makeEntry(Transform::passThrough(4), {0}, {1})});
  expectExact(t, {4, 6});
  expectExact(llvm::cantFail(Descriptor::naive({3, 4}, {8, 2}, 1)), {4, 2});
}

TEST(VectorLength, Pads) {
  Descriptor p = packed({2, 8});
  // Pads that are multiples of 4 keep runs of 4; of 2, runs of 2.
  expectExact(stage(p, {makeEntry(Transform::passThrough(2), {0}, {0}),
                        makeEntry(Transform::pad(8, 4, 8), {1}, {1})}),
              {4, 1});
  expectExact(stage(p, {makeEntry(Transform::passThrough(2), {0}, {0}),
                        makeEntry(Transform::pad(8, 2, 4), {1}, {1})}),
              {2, 1});
  expectExact(stage(p, {makeEntry(Transform::passThrough(2), {0}, {0}),
                        makeEntry(Transform::leftPad(8, 3), {1}, {1})}),
              {1, 0});
  expectExact(stage(p, {makeEntry(Transform::passThrough(2), {0}, {0}),
                        makeEntry(Transform::rightPad(8, 8), {1}, {1})}),
              {8, 1});
}

TEST(VectorLength, EmbedAndUnmerge) {
  // im2col's embed: h = y * 2 + ho * 1 has runs of ... none along ho
  // (dilation 2 interleaves): but w = x * 8 + c keeps c.
  Descriptor row = packed({32});
  expectExact(
      stage(row, {makeEntry(Transform::embed({4, 8}, {8, 1}), {0}, {0, 1})}),
      {8, 1});
  expectExact(
      stage(row, {makeEntry(Transform::embed({4, 4}, {1, 4}), {0}, {0, 1})}),
      {4, 4});

  expectExact(
      stage(row, {makeEntry(Transform::unmerge({2, 4, 4}), {0}, {0, 1, 2})}),
      {4, 1});
  expectExact(stage(packed({2, 32}),
                    {makeEntry(Transform::passThrough(2), {0}, {0}),
                     makeEntry(Transform::embed({3, 8}, {2, 1}), {1}, {1, 2})}),
              {8, 1});
  // Over a lower dim of several runs, an embed keeps what fits in one.
  Descriptor runs = llvm::cantFail(Descriptor::naive({2, 16}, {64, 1}));
  Descriptor merged =
      stage(runs, {makeEntry(Transform::merge({2, 16}), {0, 1}, {0})});
  expectExact(
      stage(merged, {makeEntry(Transform::embed({3, 4}, {8, 2}), {0}, {0, 1})}),
      {4, 2});
  // The other dims' coefficients bound the run too: l = 2 * u0 + u1 over
  // runs of 8 starts u1's windows at even offsets only, so windows of 4
  // would cross a run's end (u0 = 3: 6..9); windows of 2 never do.
  Descriptor eights = stage(llvm::cantFail(Descriptor::naive({2, 8}, {64, 1})),
                            {makeEntry(Transform::merge({2, 8}), {0, 1}, {0})});
  expectExact(
      stage(eights, {makeEntry(Transform::embed({5, 4}, {2, 1}), {0}, {0, 1})}),
      {2, 1});
}

TEST(VectorLength, Merge) {
  // Innermost length, extended across nested strides.
  Descriptor p = packed({3, 4, 8});
  expectExact(
      stage(p, {makeEntry(Transform::merge({3, 4, 8}), {0, 1, 2}, {0})}),
      {96, 1});
  Descriptor gap = llvm::cantFail(Descriptor::naive({3, 4}, {16, 1}));
  expectExact(stage(gap, {makeEntry(Transform::merge({3, 4}), {0, 1}, {0})}),
              {4, 1});
  Descriptor t = stage(p, {makeEntry(Transform::passThrough(3), {0}, {0}),
                           makeEntry(Transform::passThrough(4), {1}, {2}),
                           makeEntry(Transform::passThrough(8), {2}, {1})});
  expectExact(
      stage(t, {makeEntry(Transform::merge({3, 8, 4}), {0, 1, 2}, {0})}),
      {4, 8});
}

TEST(VectorLength, ReplicateFreezeOffsetSliceModulo) {
  Descriptor p = packed({4, 8});
  expectExact(stage(p, {makeEntry(Transform::passThrough(4), {0}, {0}),
                        makeEntry(Transform::passThrough(8), {1}, {1}),
                        makeEntry(Transform::replicate({4}), {}, {2})}),
              {4, 0});
  expectExact(stage(p, {makeEntry(Transform::freeze(1), {0}, {}),
                        makeEntry(Transform::passThrough(8), {1}, {0})}),
              {8, 1});
  expectExact(stage(p, {makeEntry(Transform::passThrough(4), {0}, {0}),
                        makeEntry(Transform::offset(4, 4), {1}, {1})}),
              {4, 1});
  expectExact(stage(p, {makeEntry(Transform::passThrough(4), {0}, {0}),
                        makeEntry(Transform::slice(8, 2, 8), {1}, {1})}),
              {6, 1});
  expectExact(stage(p, {makeEntry(Transform::passThrough(4), {0}, {0}),
                        makeEntry(Transform::modulo(4, 16), {1}, {1})}),
              {4, 1});
}

TEST(VectorLength, XorRotateSwizzleSunder) {
  Descriptor p = packed({8, 8});
  // The xor mixes the column with the row: no runs along it ...
  expectExact(
      stage(p, {makeEntry(Transform::xorTransform({8, 8}), {0, 1}, {0, 1})}),
      {1, 0});
  expectExact(stage(p, {makeEntry(Transform::rotate({8, 8}), {0, 1}, {0, 1})}),
              {1, 0});
  // ... unless it acts on vectors: unmerge the column into (2, 4), xor the
  // row into the first digit, merge back: runs of 4 (CK's vector-keeping
  // form).
  Descriptor u = stage(p, {makeEntry(Transform::passThrough(8), {0}, {0}),
                           makeEntry(Transform::unmerge({2, 4}), {1}, {1, 2})});
  Descriptor x =
      stage(u, {makeEntry(Transform::xorTransform({8, 2}), {0, 1}, {0, 1}),
                makeEntry(Transform::passThrough(4), {2}, {2})});
  expectExact(stage(x, {makeEntry(Transform::passThrough(8), {0}, {0}),
                        makeEntry(Transform::merge({2, 4}), {1, 2}, {1})}),
              {4, 1});
  // A swizzle keeps the 2^M elements below its field.
  Descriptor flat = packed({64});
  expectExact(
      stage(flat, {makeEntry(Transform::swizzle(2, 2, 2, 64), {0}, {0})}),
      {4, 1});
  expectExact(
      stage(flat, {makeEntry(Transform::swizzle(1, 2, -1, 64), {0}, {0})}),
      {2, 1});
  Descriptor s =
      stage(flat, {makeEntry(Transform::sunder({16, 48}), {0}, {0, 1, 2})});
  VectorRun run = lastDimRun(s);
  EXPECT_EQ(run, bruteRun(s));
}

/// im2col (seed 001: CK Tile's convolution as a GEMM): an NHWC input
/// padded on H and W, (Y, Ho) and (X, Wo) embedded with stride and
/// dilation, GEMM-M = (N, Ho, Wo) and GEMM-K = (Y, X, C) merged. C's runs
/// survive when C is a multiple of the vector width, whatever the pads.
Descriptor im2col(int64_t n, int64_t h, int64_t w, int64_t c, int64_t y,
                  int64_t x, int64_t stride, int64_t dilation, int64_t pad) {
  int64_t hp = h + 2 * pad, wp = w + 2 * pad;
  int64_t ho = (hp - dilation * (y - 1) - 1) / stride + 1;
  int64_t wo = (wp - dilation * (x - 1) - 1) / stride + 1;
  Descriptor d = packed({n, h, w, c});
  d = stage(d, {makeEntry(Transform::passThrough(n), {0}, {0}),
                makeEntry(Transform::pad(h, pad, pad), {1}, {1}),
                makeEntry(Transform::pad(w, pad, pad), {2}, {2}),
                makeEntry(Transform::passThrough(c), {3}, {3})});
  d = stage(
      d, {makeEntry(Transform::passThrough(n), {0}, {0}),
          makeEntry(Transform::embed({y, ho}, {dilation, stride}), {1}, {1, 2}),
          makeEntry(Transform::embed({x, wo}, {dilation, stride}), {2}, {3, 4}),
          makeEntry(Transform::passThrough(c), {3}, {5})});
  return stage(d, {makeEntry(Transform::merge({n, ho, wo}), {0, 2, 4}, {0}),
                   makeEntry(Transform::merge({y, x, c}), {1, 3, 5}, {1})});
}

TEST(VectorLength, Im2colKeepsC) {
  Descriptor d = im2col(2, 7, 9, 16, 3, 3, 2, 1, 1);
  expectExact(d, {16, 1});
  // The first elements of the vectors along GEMM-K are 8-aligned.
  EXPECT_EQ(offsetDivisor(d, 8) % 8, 0);
  EXPECT_EQ(bruteDivisor(d, 8) % 8, 0);
  // C = 12 keeps runs of 12 (4-vectors), not 8.
  Descriptor odd = im2col(1, 5, 5, 12, 3, 3, 1, 2, 2);
  expectExact(odd, {12, 1});
  EXPECT_EQ(offsetDivisor(odd, 4) % 4, 0);
  EXPECT_NE(offsetDivisor(odd, 8) % 8, 0);
  EXPECT_NE(explainLastDimRun(odd), "");
  // A 1x1 convolution without padding: the whole K is one run.
  Descriptor one = im2col(2, 4, 4, 8, 1, 1, 1, 1, 0);
  expectExact(one, {8, 1});
  EXPECT_EQ(explainLastDimRun(one), "");
}

/// Soundness on random chains of every kind: the inferred run always holds,
/// and the inferred divisor divides every offset it speaks for.
TEST(VectorLength, RandomChainsAreSound) {
  std::mt19937_64 rng(20261123);
  int exact = 0;
  for (int i = 0; i < 3000; ++i) {
    Descriptor d = chains::randomDescriptor(rng);
    if (d.getRank() == 0)
      continue;
    VectorRun run = lastDimRun(d);
    ASSERT_GE(run.length, 1);
    EXPECT_TRUE(holds(d, run.length, run.stride))
        << d.str() << ": inferred {" << run.length << ", " << run.stride << "}";
    for (int64_t w : {1, 2, 4}) {
      int64_t inferred = offsetDivisor(d, w);
      int64_t actual = bruteDivisor(d, w);
      EXPECT_EQ(inferred ? actual % inferred : actual, 0)
          << d.str() << " width " << w << ": inferred " << inferred
          << ", exact " << actual;
    }
    exact += run == bruteRun(d);
  }
  // Not a bound to meet, a record: how often the rules are exact.
  RecordProperty("exact", exact);
}

/// Soundness with run-time values: random chains made partly run-time
/// (chains::dynamize), each run-time value known to be a multiple of a
/// random divisor of its value (0 for some zeros: "it is 0"). The runs and
/// divisors inferred from the run-time chain and those facts must hold on
/// the chain at its values, which is the static chain it came from.
TEST(VectorLength, RandomRunTimeChainsAreSound) {
  std::mt19937_64 rng(20261126);
  int dynamic = 0, longRuns = 0;
  for (int i = 0; i < 2000; ++i) {
    Descriptor d = chains::randomDescriptor(rng);
    if (d.getRank() == 0)
      continue;
    SmallVector<int64_t> values, known;
    Descriptor dyn = chains::dynamize(d, rng, 60, values);
    dynamic += dyn.isDynamic();
    for (int64_t v : values) {
      int64_t a = v < 0 ? -v : v;
      SmallVector<int64_t> divisors;
      for (int64_t k = 1; k <= a; ++k)
        if (a % k == 0)
          divisors.push_back(k);
      if (a == 0)
        divisors = {0, 1, 4};
      known.push_back(divisors[rng() % divisors.size()]);
    }
    auto facts = [&](int64_t slot) { return known[slot]; };
    VectorRun run = lastDimRun(dyn, facts);
    ASSERT_GE(run.length, 1);
    longRuns += run.length > 1;
    EXPECT_TRUE(holds(d, run.length, run.stride))
        << dyn.str() << " at its values (" << d.str() << "): inferred {"
        << run.length << ", " << run.stride << "}";
    for (int64_t w : {1, 2, 4}) {
      int64_t inferred = offsetDivisor(dyn, w, facts);
      int64_t actual = bruteDivisor(d, w);
      EXPECT_EQ(inferred ? actual % inferred : actual, 0)
          << dyn.str() << " width " << w << ": inferred " << inferred
          << ", exact " << actual;
    }
  }
  EXPECT_GT(dynamic, 1000);
  // The facts do carry runs through run-time chains.
  EXPECT_GT(longRuns, 200);
  RecordProperty("long_runs", longRuns);
}

/// A run-time length counts through its known multiple; unknown, it gives
/// no run, and a run-time stride none along its dim.
TEST(VectorLength, RunTimeLengthsThroughFacts) {
  Descriptor d = llvm::cantFail(
      Descriptor::naive({dynamicSlot(0), dynamicSlot(1)}, {dynamicSlot(2), 1}));
  SmallVector<int64_t> multiples = {1, 8, 4};
  auto facts = [&](int64_t slot) { return multiples[slot]; };
  EXPECT_EQ(lastDimRun(d, facts), (VectorRun{8, 1}));
  EXPECT_EQ(lastDimRun(d), VectorRun{});
  EXPECT_EQ(topRuns(d, facts)[0], VectorRun{});
  // offset = i * lda + j: lda a multiple of 4, j of the width.
  EXPECT_EQ(offsetDivisor(d, 4, facts), 4);
  EXPECT_EQ(offsetDivisor(d, 8, facts), 4);
  EXPECT_EQ(offsetDivisor(d, 4), 1);
  // A right pad by a run-time multiple of 4 keeps runs of 4.
  Descriptor padded = stage(
      d, {{Transform::passThrough(dynamicSlot(0)), {0}, {0}},
          {Transform::rightPad(dynamicSlot(1), dynamicSlot(3)), {1}, {1}}});
  multiples.push_back(4);
  EXPECT_EQ(lastDimRun(padded, facts), (VectorRun{4, 1}));
  multiples[3] = 3;
  EXPECT_EQ(lastDimRun(padded, facts), VectorRun{});
}

} // namespace
