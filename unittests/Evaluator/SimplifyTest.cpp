//===- SimplifyTest.cpp - Tests of the canonicalization algebra -----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Each rewrite of Simplify.h is checked two ways: on hand-written cases
// whose result is spelled out, and by brute force, where the rewritten
// descriptor must agree with the original on the validity of every in-bounds
// top coordinate, on the offset of every valid one, and on the element
// space.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Simplify.h"
#include "layout/Testing/RandomChains.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// The base of `d` alone, as a naive descriptor with the same space.
Descriptor baseOf(const Descriptor &d) {
  return unwrap(Descriptor::naive(d.getBaseLengths(), d.getBaseStrides(),
                                  d.getBaseOffset(), d.getElementSpaceSize()));
}

/// `base` with `stages` on top.
Descriptor build(Descriptor base, ArrayRef<Stage> stages) {
  for (const Stage &s : stages)
    base = unwrap(base.transform(s));
  return base;
}

/// Same validity everywhere in bounds, same offset where valid, same space.
::testing::AssertionResult sameMeaning(const Descriptor &a,
                                       const Descriptor &b) {
  if (a.getLengths() != b.getLengths())
    return ::testing::AssertionFailure() << "top lengths differ";
  if (a.getElementSpaceSize() != b.getElementSpaceSize())
    return ::testing::AssertionFailure()
           << "element space " << a.getElementSpaceSize() << " vs "
           << b.getElementSpaceSize();
  std::string failure;
  chains::forEachCoordinate(a, [&](ArrayRef<int64_t> c) {
    if (!failure.empty())
      return;
    Evaluation x = a.evaluate(c), y = b.evaluate(c);
    if (x.valid != y.valid || (x.valid && x.offset != y.offset))
      failure = "at " + formatIntList(c) + ": (" + std::to_string(x.offset) +
                ", " + std::to_string(x.valid) + ") vs (" +
                std::to_string(y.offset) + ", " + std::to_string(y.valid) + ")";
  });
  if (!failure.empty())
    return ::testing::AssertionFailure() << failure << "\n"
                                         << a.str() << "\n---\n"
                                         << b.str();
  return ::testing::AssertionSuccess();
}

TEST(SimplifyTest, IdentityEntries) {
  // A zero pad and a modulo by its length are pass_throughs; a slice from 0
  // shrinks the dim, so it is the restriction offset<U, 0>.
  Stage stage = {makeEntry(Transform::pad(4, 0, 0), {0}, {0}),
                 makeEntry(Transform::modulo(6, 6), {1}, {1}),
                 makeEntry(Transform::slice(5, 0, 3), {2}, {2})};
  std::optional<Stage> s = simplifyIdentityEntries({4, 6, 5}, stage);
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->size(), 3u);
  EXPECT_EQ((*s)[0].transform, Transform::passThrough(4));
  EXPECT_EQ((*s)[1].transform, Transform::passThrough(6));
  EXPECT_EQ((*s)[2].transform, Transform::offset(3, 0));
  EXPECT_FALSE(isIdentityStage(*s));
  // xor with L1 = 1 is two pass_throughs, and then the stage vanishes.
  Stage x = {makeEntry(Transform::xorTransform({4, 1}), {0, 1}, {0, 1})};
  std::optional<Stage> sx = simplifyIdentityEntries({4, 1}, x);
  ASSERT_TRUE(sx.has_value());
  EXPECT_TRUE(isIdentityStage(*sx));
  // Nothing to do: no result.
  EXPECT_FALSE(simplifyIdentityEntries(
                   {4}, {makeEntry(Transform::pad(4, 1, 0), {0}, {0})})
                   .has_value());
}

TEST(SimplifyTest, ComposeTable) {
  auto one = [](const std::optional<Stage> &s) {
    EXPECT_TRUE(s.has_value());
    EXPECT_EQ(s ? s->size() : 0u, 1u);
    return s && s->size() == 1 ? (*s)[0].transform : Transform::passThrough(1);
  };
  // Unmerge then merge of the same lengths: a pass_through.
  EXPECT_EQ(one(composeStages(
                {24}, {makeEntry(Transform::unmerge({4, 6}), {0}, {0, 1})},
                {makeEntry(Transform::merge({4, 6}), {0, 1}, {0})})),
            Transform::passThrough(24));
  // Offset of offset: offsets add.
  EXPECT_EQ(
      one(composeStages({20}, {makeEntry(Transform::offset(10, 3), {0}, {0})},
                        {makeEntry(Transform::offset(4, 5), {0}, {0})})),
      Transform::offset(4, 8));
  // Slice of slice: [2, 9) then [1, 5) is [3, 7).
  EXPECT_EQ(
      one(composeStages({10}, {makeEntry(Transform::slice(10, 2, 9), {0}, {0})},
                        {makeEntry(Transform::slice(7, 1, 5), {0}, {0})})),
      Transform::slice(10, 3, 7));
  // Slice of offset and offset of slice.
  EXPECT_EQ(
      one(composeStages({20}, {makeEntry(Transform::offset(10, 3), {0}, {0})},
                        {makeEntry(Transform::slice(10, 2, 6), {0}, {0})})),
      Transform::offset(4, 5));
  EXPECT_EQ(
      one(composeStages({10}, {makeEntry(Transform::slice(10, 2, 9), {0}, {0})},
                        {makeEntry(Transform::offset(3, 1), {0}, {0})})),
      Transform::slice(10, 3, 6));
  // Pad of pad: pads add.
  EXPECT_EQ(
      one(composeStages({4}, {makeEntry(Transform::pad(4, 1, 0), {0}, {0})},
                        {makeEntry(Transform::pad(5, 2, 1), {0}, {0})})),
      Transform::pad(4, 3, 1));
  // Merge then unmerge: pass_throughs, through a permutation.
  std::optional<Stage> mu =
      composeStages({6, 4}, {makeEntry(Transform::merge({4, 6}), {1, 0}, {0})},
                    {makeEntry(Transform::unmerge({4, 6}), {0}, {1, 0})});
  ASSERT_TRUE(mu.has_value());
  ASSERT_EQ(mu->size(), 2u);
  EXPECT_EQ((*mu)[0].transform, Transform::passThrough(6));
  EXPECT_EQ((*mu)[0].lowerDims, SmallVector<int64_t>({0}));
  EXPECT_EQ((*mu)[0].upperDims, SmallVector<int64_t>({0}));
  EXPECT_EQ((*mu)[1].transform, Transform::passThrough(4));
  EXPECT_EQ((*mu)[1].lowerDims, SmallVector<int64_t>({1}));
  EXPECT_EQ((*mu)[1].upperDims, SmallVector<int64_t>({1}));
  // Not in the table: merge then unmerge of other lengths.
  EXPECT_FALSE(
      composeStages({4, 6}, {makeEntry(Transform::merge({4, 6}), {0, 1}, {0})},
                    {makeEntry(Transform::unmerge({6, 4}), {0}, {0, 1})})
          .has_value());
}

TEST(SimplifyTest, FoldIntoStrides) {
  // packed [2, 6] viewed as 2x2x3 is naive [2, 2, 3] strides [6, 3, 1].
  Descriptor p = unwrap(Descriptor::packed({2, 6}));
  std::optional<StridedBase> v =
      foldIntoStrides(*StridedBase::of(p),
                      {makeEntry(Transform::passThrough(2), {0}, {0}),
                       makeEntry(Transform::unmerge({2, 3}), {1}, {1, 2})});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->lengths, SmallVector<int64_t>({2, 2, 3}));
  EXPECT_EQ(v->strides, SmallVector<int64_t>({6, 3, 1}));
  EXPECT_EQ(v->offset, 0);
  EXPECT_EQ(v->space, 12);
  // A transposed slice of an aligned base keeps the base's space.
  Descriptor a = unwrap(Descriptor::aligned({4, 10}, 16));
  std::optional<StridedBase> s = foldIntoStrides(
      *StridedBase::of(a), {makeEntry(Transform::slice(10, 2, 9), {1}, {0}),
                            makeEntry(Transform::passThrough(4), {0}, {1})});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->lengths, SmallVector<int64_t>({7, 4}));
  EXPECT_EQ(s->strides, SmallVector<int64_t>({1, 16}));
  EXPECT_EQ(s->offset, 2);
  EXPECT_EQ(s->space, 64);
  // A pad is not strided.
  EXPECT_FALSE(foldIntoStrides(*StridedBase::of(p),
                               {makeEntry(Transform::pad(2, 1, 0), {0}, {0}),
                                makeEntry(Transform::passThrough(6), {1}, {1})})
                   .has_value());
}

/// Merges of consecutive dims of random strided bases: the strides nest
/// when each is the next one times the next length (some bases are built
/// nested, with a random padding of the innermost stride, others get a
/// random stride somewhere). A fold must keep the meaning; a merge whose
/// strides do not nest must not fold. Both outcomes are counted so that the
/// test cannot pass vacuously.
TEST(SimplifyTest, MergeOfNestedStridesFolds) {
  std::mt19937_64 rng(7);
  auto range = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int folded = 0, kept = 0;
  for (int n = 0; n < 2000; ++n) {
    int64_t rank = range(2, 4);
    SmallVector<int64_t> lengths, strides(rank);
    for (int64_t i = 0; i < rank; ++i)
      lengths.push_back(range(1, 4));
    strides[rank - 1] = range(0, 3);
    for (int64_t i = rank - 1; i-- > 0;)
      strides[i] = strides[i + 1] * lengths[i + 1];
    if (range(0, 1))
      strides[range(0, rank - 1)] = range(0, 12);
    Descriptor base = unwrap(Descriptor::naive(lengths, strides, range(0, 2)));
    // Merge dims [first, first + count) into one; pass the others.
    int64_t first = range(0, rank - 2), count = range(2, rank - first);
    SmallVector<int64_t> merged(lengths.begin() + first,
                                lengths.begin() + first + count);
    SmallVector<int64_t> lower;
    for (int64_t i = 0; i < count; ++i)
      lower.push_back(first + i);
    Stage stage = {makeEntry(Transform::merge(merged), lower, {first})};
    for (int64_t i = 0, up = 0; i < rank; ++i) {
      if (i == first)
        ++up;
      if (i >= first && i < first + count)
        continue;
      stage.push_back(makeEntry(Transform::passThrough(lengths[i]), {i}, {up}));
      ++up;
    }
    // Without dims of length 1, the strides nest when each neighbour does.
    bool nested = llvm::none_of(merged, [](int64_t l) { return l == 1; });
    for (int64_t i = first; i + 1 < first + count; ++i)
      nested &= strides[i] == strides[i + 1] * lengths[i + 1];
    Descriptor d = unwrap(base.transform(stage));
    std::optional<StridedBase> b =
        foldIntoStrides(*StridedBase::of(base), stage);
    if (b) {
      ASSERT_TRUE(sameMeaning(d, unwrap(b->descriptor())));
      ++folded;
    } else {
      ++kept;
    }
    if (nested)
      EXPECT_TRUE(b.has_value()) << d.str();
  }
  EXPECT_GT(folded, 300);
  EXPECT_GT(kept, 100);
}

/// Every rewrite, at every position of many random chains, keeps the
/// meaning; counts how often each applied so that the test cannot pass
/// vacuously.
TEST(SimplifyTest, RandomChainsKeepTheirMeaning) {
  std::mt19937_64 rng(42);
  int identity = 0, composed = 0, folded = 0, simplified = 0;
  for (int n = 0; n < 3000; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    Descriptor base = baseOf(d);
    ArrayRef<Stage> stages = d.getStages();
    SmallVector<SmallVector<int64_t>> lengthsBelow;
    Descriptor cur = base;
    for (const Stage &s : stages) {
      lengthsBelow.emplace_back(cur.getLengths());
      cur = unwrap(cur.transform(s));
    }
    for (size_t i = 0; i < stages.size(); ++i) {
      if (std::optional<Stage> s =
              simplifyIdentityEntries(lengthsBelow[i], stages[i])) {
        std::vector<Stage> copy(stages.begin(), stages.end());
        copy[i] = *s;
        ASSERT_TRUE(sameMeaning(d, build(base, copy)));
        ++identity;
      }
      if (i + 1 < stages.size()) {
        if (std::optional<Stage> s =
                composeStages(lengthsBelow[i], stages[i], stages[i + 1])) {
          std::vector<Stage> copy(stages.begin(), stages.begin() + i);
          copy.push_back(*s);
          copy.insert(copy.end(), stages.begin() + i + 2, stages.end());
          ASSERT_TRUE(sameMeaning(d, build(base, copy)));
          ++composed;
        }
      }
    }
    // The whole chain at once (what canonicalization applies).
    SimplifiedChain chain =
        simplifyChain(base.getLengths(), StridedBase::of(base), stages);
    if (chain.changed) {
      Descriptor under = chain.base ? unwrap(chain.base->descriptor()) : base;
      ASSERT_TRUE(sameMeaning(d, build(under, chain.stages)));
      ASSERT_LE(chain.stages.size(), stages.size());
      ++simplified;
    }
    if (!stages.empty()) {
      if (std::optional<StridedBase> b =
              foldIntoStrides(*StridedBase::of(base), stages[0])) {
        ASSERT_TRUE(sameMeaning(
            d, build(unwrap(b->descriptor()), stages.drop_front())));
        ++folded;
      }
    }
  }
  EXPECT_GT(identity, 100);
  EXPECT_GT(composed, 100);
  EXPECT_GT(folded, 100);
  EXPECT_GT(simplified, 300);
}

/// On random chains that checkInvertible accepts, upper(offset(c)) gives
/// back, for every valid coordinate c, a valid coordinate with the same
/// offset (c itself when no sunder is involved).
TEST(DescriptorInverseTest, RandomInvertibleChainsRoundTrip) {
  std::mt19937_64 rng(11);
  int invertible = 0, withSunder = 0;
  for (int n = 0; n < 4000; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    if (llvm::Error e = d.checkInvertible()) {
      llvm::consumeError(std::move(e));
      continue;
    }
    ++invertible;
    bool sunder = false;
    for (const Stage &s : d.getStages())
      for (const StageEntry &e : s)
        sunder |= e.transform.getKind() == TransformKind::Sunder;
    withSunder += sunder;
    chains::forEachCoordinate(d, [&](ArrayRef<int64_t> c) {
      Evaluation ev = d.evaluate(c);
      if (!ev.valid)
        return;
      llvm::Expected<SmallVector<int64_t>> u = d.upper(ev.offset);
      ASSERT_TRUE(static_cast<bool>(u))
          << llvm::toString(u.takeError()) << " at " << formatIntList(c) << "\n"
          << d.str();
      Evaluation back = d.evaluate(*u);
      EXPECT_TRUE(back.valid);
      EXPECT_EQ(back.offset, ev.offset);
      if (!sunder)
        EXPECT_EQ(ArrayRef<int64_t>(*u), c) << d.str();
    });
  }
  EXPECT_GT(invertible, 1000);
  EXPECT_GT(withSunder, 50);
}

/// The table's pairs, with random parameters, around random permutations.
TEST(SimplifyTest, RandomPairsOfTheTable) {
  std::mt19937_64 rng(7);
  auto range = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int composedCount = 0, notInTable = 0;
  for (int n = 0; n < 2000; ++n) {
    int64_t a = range(1, 6), b = range(1, 6), L = range(1, 12);
    Descriptor base =
        unwrap(Descriptor::naive({a * b, L}, {range(0, 20), 1}, range(0, 3)));
    Stage first, second;
    switch (range(0, 5)) {
    case 0: // unmerge then merge
      first = {makeEntry(Transform::unmerge({a, b}), {0}, {0, 1}),
               makeEntry(Transform::passThrough(L), {1}, {2})};
      second = {makeEntry(Transform::passThrough(L), {2}, {0}),
                makeEntry(Transform::merge({a, b}), {0, 1}, {1})};
      break;
    case 1: { // merge then unmerge (after unmerging to get two dims)
      base = unwrap(
          base.transform({makeEntry(Transform::unmerge({a, b}), {0}, {0, 1}),
                          makeEntry(Transform::passThrough(L), {1}, {2})}));
      first = {makeEntry(Transform::merge({a, b}), {0, 1}, {1}),
               makeEntry(Transform::passThrough(L), {2}, {0})};
      second = {makeEntry(Transform::unmerge({a, b}), {1}, {2, 0}),
                makeEntry(Transform::passThrough(L), {0}, {1})};
      break;
    }
    case 2: { // shifts
      int64_t u1 = range(1, L);
      Transform t1 = range(0, 1) ? Transform::offset(u1, range(0, L - u1))
                                 : Transform::slice(L, L - u1, L);
      int64_t u2 = range(1, u1);
      int64_t o2 = range(0, u1 - u2);
      Transform t2 = range(0, 1) ? Transform::offset(u2, o2)
                                 : Transform::slice(u1, o2, o2 + u2);
      first = {makeEntry(Transform::passThrough(a * b), {0}, {1}),
               makeEntry(t1, {1}, {0})};
      second = {makeEntry(t2, {0}, {0}),
                makeEntry(Transform::passThrough(a * b), {1}, {1})};
      break;
    }
    case 4: { // a shift of a pad
      int64_t l = range(0, 3), r = range(0, 3);
      Transform pad = range(0, 2) == 0 ? Transform::pad(L, l, r)
                      : range(0, 1)    ? Transform::leftPad(L, l)
                                       : Transform::rightPad(L, r);
      int64_t padded = pad.getUpperLengths()[0];
      int64_t u = range(1, padded);
      int64_t begin = range(0, padded - u);
      Transform shift = range(0, 1)
                            ? Transform::offset(u, begin)
                            : Transform::slice(padded, begin, begin + u);
      first = {makeEntry(pad, {1}, {0}),
               makeEntry(Transform::passThrough(a * b), {0}, {1})};
      second = {makeEntry(shift, {0}, {0}),
                makeEntry(Transform::passThrough(a * b), {1}, {1})};
      Descriptor d = build(base, {first, second});
      if (std::optional<Stage> s =
              composeStages(base.getLengths(), first, second)) {
        ASSERT_TRUE(sameMeaning(d, build(base, {*s})));
        ++composedCount;
      } else {
        ++notInTable;
      }
      continue;
    }
    case 5: { // xor then xor: the same (cancels) or another (stays)
      int64_t l1 = int64_t(1) << range(0, 3);
      base = unwrap(Descriptor::packed({a * b, l1}));
      Transform x = Transform::xorTransform({a * b, l1});
      first = {makeEntry(x, {0, 1}, {0, 1})};
      second = {makeEntry(x, {0, 1}, {0, 1})};
      break;
    }
    default: { // pads
      int64_t l1 = range(0, 2), r1 = range(0, 2);
      first = {makeEntry(Transform::pad(L, l1, r1), {1}, {1}),
               makeEntry(Transform::passThrough(a * b), {0}, {0})};
      second = {makeEntry(Transform::pad(L + l1 + r1, range(0, 2), range(0, 2)),
                          {1}, {0}),
                makeEntry(Transform::passThrough(a * b), {0}, {1})};
      break;
    }
    }
    Descriptor d = build(base, {first, second});
    std::optional<Stage> s = composeStages(base.getLengths(), first, second);
    ASSERT_TRUE(s.has_value()) << d.str();
    ASSERT_TRUE(sameMeaning(d, build(base, {*s})));
    ++composedCount;
  }
  EXPECT_EQ(composedCount + notInTable, 2000);
  EXPECT_GT(composedCount, 1800);
  EXPECT_GT(notInTable, 20);
}

} // namespace
