//===- AlgebraTest.cpp - Tests of CuTe's layout algebra -------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Two kinds of test. The worked examples of CuTe's layout-algebra
// documentation (CUTLASS media/docs/cpp/cute/02_layout_algebra.md, and the
// inverses of the CuTe MLIR dialect's layout-algebra tests), each result
// spelled as CuTe prints it. And brute-force properties over random small
// layouts, checked element by element against plain function evaluation:
// composition is function composition; a complement's image is disjoint
// from the layout's and together they fill [0, N); a divide followed by the
// product of its tile restores the layout; the inverses invert; and a
// layout's descriptor computes the layout's offsets.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Algebra.h"

#include "gtest/gtest.h"

#include <limits>
#include <random>
#include <set>

using namespace mlir::layout;
using namespace mlir::layout::algebra;

namespace {

StridedLayout parse(llvm::StringRef text) {
  llvm::Expected<StridedLayout> l = StridedLayout::parse(text);
  if (!l) {
    ADD_FAILURE() << llvm::toString(l.takeError());
    return cantFail(StridedLayout::leaf(1, 0));
  }
  return std::move(*l);
}

/// The layout's text, or the error's.
std::string show(llvm::Expected<StridedLayout> l) {
  if (!l)
    return "error: " + llvm::toString(l.takeError());
  return l->str();
}

std::vector<StridedLayout> tiler(std::initializer_list<const char *> modes) {
  std::vector<StridedLayout> t;
  for (const char *m : modes)
    t.push_back(parse(m));
  return t;
}

TEST(Algebra, ParseAndPrint) {
  EXPECT_EQ(parse("((2,2),3):((24,2),8)").str(), "((2,2),3):((24,2),8)");
  EXPECT_EQ(parse("(_5,(_2,_2)):(_16,(_80,_4))").str(),
            "(5,(2,2)):(16,(80,4))");
  EXPECT_EQ(parse("12:1").str(), "12:1");
  EXPECT_EQ(show(StridedLayout::parse("(2,2):(1)")),
            "error: the shape and the stride of '(2,2):(1)' differ in "
            "structure");
  EXPECT_EQ(show(StridedLayout::parse("(2,0):(1,2)")),
            "error: a size must be positive, got 0");
}

TEST(Algebra, EvaluatesColexicographically) {
  // The doc's composition result R(0..11).
  StridedLayout r = parse("((2,2),3):((24,2),8)");
  std::vector<int64_t> got;
  for (int64_t i = 0; i < r.size(); ++i)
    got.push_back(r(i));
  EXPECT_EQ(
      got, (std::vector<int64_t>{0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42}));
  EXPECT_EQ(r.cosize(), 43);
}

TEST(Algebra, CoalesceDocExamples) {
  EXPECT_EQ(coalesce(parse("(2,(1,6)):(1,(6,2))")).str(), "12:1");
  EXPECT_EQ(coalesceByMode(parse("(2,(1,6)):(1,(6,2))")).str(), "(2,6):(1,2)");
  EXPECT_EQ(coalesce(parse("(2,4):(1,2)")).str(), "8:1");
}

TEST(Algebra, CompositionDocExamples) {
  EXPECT_EQ(show(composition(parse("(6,2):(8,2)"), parse("(4,3):(3,1)"))),
            "((2,2),3):((24,2),8)");
  EXPECT_EQ(show(composition(parse("20:2"), parse("(5,4):(4,1)"))),
            "(5,4):(8,2)");
  EXPECT_EQ(show(composition(parse("(10,2):(16,4)"), parse("(5,4):(1,5)"))),
            "(5,(2,2)):(16,(80,4))");
  // (3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9w,3x,y,z), with w, x, y, z
  // = 1000, 100, 10, 1 and the size-1 mode dropped.
  EXPECT_EQ(
      show(composition(parse("(3,6,2,8):(1000,100,10,1)"), parse("16:9"))),
      "(2,2,4):(300,10,1)");
  // By-mode tilers.
  EXPECT_EQ(
      show(composition(parse("(12,(4,8)):(59,(13,1))"), tiler({"3:4", "8:2"}))),
      "(3,(2,4)):(236,(26,1))");
  EXPECT_EQ(
      show(composition(parse("(12,(4,8)):(59,(13,1))"), tiler({"3:1", "8:1"}))),
      "(3,(4,2)):(59,(13,1))");
}

TEST(Algebra, CompositionConditions) {
  EXPECT_EQ(show(composition(parse("(6,2):(8,2)"), parse("3:4"))),
            "error: composition with 3:4 breaks CuTe's stride divisibility "
            "condition: the remaining stride 4 and the size 6 of the "
            "coalesced mode 0 of (6,2):(8,2) do not divide one another");
  EXPECT_EQ(show(composition(parse("(6,2):(8,2)"), parse("3:3"))),
            "error: composition with 3:3 breaks CuTe's shape divisibility "
            "condition: the remaining size 3 is not a multiple of 2, what "
            "mode 0 of (6,2):(8,2) holds");
}

TEST(Algebra, ComplementDocExamples) {
  EXPECT_EQ(show(complement(parse("4:1"), 24)), "6:4");
  EXPECT_EQ(show(complement(parse("6:4"), 24)), "4:1");
  EXPECT_EQ(show(complement(parse("(4,6):(1,4)"), 24)), "1:0");
  EXPECT_EQ(show(complement(parse("4:2"), 24)), "(2,3):(1,8)");
  EXPECT_EQ(show(complement(parse("(2,4):(1,6)"), 24)), "3:2");
  EXPECT_EQ(show(complement(parse("(2,2):(1,6)"), 24)), "(3,2):(2,12)");
  EXPECT_EQ(show(complement(parse("(2,2):(1,1)"), 24)),
            "error: (2,2):(1,1) has no complement: stride 1 is below 2, the "
            "extent of the modes with smaller strides (CuTe's complement "
            "needs the modes, sorted by stride, not to overlap)");
  // Near int64's end: the rounding up does not wrap, and an extent that
  // does not fit is an error, not a wrapped answer.
  EXPECT_EQ(show(complement(parse("2:1"), std::numeric_limits<int64_t>::max())),
            "4611686018427387904:2");
  EXPECT_EQ(show(StridedLayout::flat({4, 3}, {(int64_t(1) << 62) + 1, 4})),
            "error: the extent of 4:4611686018427387905 overflows int64");
}

TEST(Algebra, DivideDocExamples) {
  EXPECT_EQ(show(logicalDivide(parse("(4,2,3):(2,1,8)"), parse("4:2"))),
            "((2,2),(2,3)):((4,1),(2,8))");
  auto a = parse("(9,(4,8)):(59,(13,1))");
  auto t = tiler({"3:3", "(2,4):(1,8)"});
  EXPECT_EQ(show(logicalDivide(a, t)),
            "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
  EXPECT_EQ(show(zippedDivide(a, t)),
            "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
  EXPECT_EQ(show(tiledDivide(a, t)),
            "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
  // A layout as the tiler (CuTe's Layout tiler): the logical divide, and
  // the tile then the rest's modes.
  EXPECT_EQ(show(zippedDivide(parse("(4,2,3):(2,1,8)"), parse("4:2"))),
            "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(show(tiledDivide(parse("(4,2,3):(2,1,8)"), parse("4:2"))),
            "((2,2),2,3):((4,1),2,8)");
  // layout<0>(zipped_divide(a, b)) == composition(a, b).
  EXPECT_EQ(cantFail(zippedDivide(a, t)).mode(0).str(),
            show(composition(a, t)));
}

TEST(Algebra, ProductDocExamples) {
  EXPECT_EQ(show(logicalProduct(parse("(2,2):(4,1)"), parse("6:1"))),
            "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(show(logicalProduct(parse("(2,2):(4,1)"), parse("(4,2):(2,1)"))),
            "((2,2),(4,2)):((4,1),(8,2))");
  EXPECT_EQ(show(logicalProduct(parse("(2,5):(5,1)"), tiler({"3:5", "4:6"}))),
            "((2,3),(5,4)):((5,10),(1,30))");
  EXPECT_EQ(show(blockedProduct(parse("(2,5):(5,1)"), parse("(3,4):(1,3)"))),
            "(6,(5,4)):(5,(1,30))");
  EXPECT_EQ(show(rakedProduct(parse("(2,5):(5,1)"), parse("(3,4):(1,3)"))),
            "((3,2),(4,5)):((10,5),(30,1))");
}

TEST(Algebra, InverseExamples) {
  // CuTe's MLIR dialect's right_inverse / left_inverse tests.
  struct Case {
    const char *layout, *right, *left;
  };
  for (Case c : std::vector<Case>{
           {"(4,3):(1,4)", "12:1", "12:1"},
           {"(4,3):(3,1)", "(3,4):(4,1)", "(3,4):(4,1)"},
           {"8:1", "8:1", "8:1"},
           {"4:0", "1:0", "1:0"},
           {"((2,4),3):((1,2),8)", "24:1", "24:1"},
           {"4:2", "1:0", "(2,4):(0,1)"},
           {"4:4", "1:0", "(4,4):(0,1)"},
           {"(4,2):(1,16)", "4:1", "(16,2):(1,4)"},
           {"(4,2):(1,5)", "4:1", "(5,2):(1,4)"},
           {"(2,4,4,6):(4,1,0,8)", "(4,2,6):(2,1,32)", nullptr},
           {"(32,128):(0,1)", "128:32", nullptr},
           {"(2,4,6):(1,2,8)", "48:1", "48:1"},
           {"(2,4,8):(32,0,2)", nullptr, "(2,16,2):(0,8,1)"},
           {"(2,4,6):(4,1,8)", "(4,2,6):(2,1,8)", "(4,2,6):(2,1,8)"},
       }) {
    SCOPED_TRACE(c.layout);
    if (c.right) {
      EXPECT_EQ(rightInverse(parse(c.layout)).str(), c.right);
    }
    if (c.left) {
      EXPECT_EQ(show(leftInverse(parse(c.layout))), c.left);
    }
  }
  EXPECT_EQ(show(leftInverse(parse("(2,2):(1,1)"))),
            "error: (2,2):(1,1) is not injective: the mode of size 2 and "
            "stride 1 overlaps the mode of stride 1, so it has no left "
            "inverse");
  // Its domain, 4 * 2^61, does not fit int64.
  EXPECT_EQ(
      show(leftInverse(cantFail(StridedLayout::leaf(4, int64_t(1) << 61)))),
      "error: the size of the layout overflows int64");
}

//===----------------------------------------------------------------------===//
// Brute force
//===----------------------------------------------------------------------===//

bool isInjective(const StridedLayout &l) {
  std::set<int64_t> seen;
  for (int64_t i = 0; i < l.size(); ++i)
    if (!seen.insert(l(i)).second)
      return false;
  return true;
}

/// Random small layouts: 1 to 3 modes, each a leaf or a pair of leaves,
/// sizes and strides from small sets of products of 2 and 3 (so that the
/// divisibility conditions often hold).
struct Generator {
  std::mt19937_64 rng{20261126};
  int64_t pick(std::initializer_list<int64_t> xs) {
    std::uniform_int_distribution<size_t> d(0, xs.size() - 1);
    return xs.begin()[d(rng)];
  }
  StridedLayout leaf(bool allowZero) {
    int64_t s = pick({1, 2, 2, 3, 4, 4, 6});
    int64_t d = allowZero ? pick({0, 1, 1, 2, 3, 4, 6, 8, 12, 16})
                          : pick({1, 1, 2, 3, 4, 6, 8, 12, 16});
    return cantFail(StridedLayout::leaf(s, d));
  }
  StridedLayout layout(bool allowZero = true) {
    std::vector<StridedLayout> modes;
    int n = 1 + rng() % 3;
    for (int i = 0; i < n; ++i) {
      if (rng() % 3 == 0)
        modes.push_back(
            cantFail(StridedLayout::tuple({leaf(allowZero), leaf(allowZero)})));
      else
        modes.push_back(leaf(allowZero));
    }
    return n == 1 ? modes[0] : cantFail(StridedLayout::tuple(modes));
  }
};

TEST(AlgebraBruteForce, CompositionIsFunctionComposition) {
  Generator g;
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    // Composition is defined where B's offsets are indices of A (CuTe's
    // extension of A's last mode past its size is not kept by coalescing),
    // and distributes over B's modes where B is injective (CuTe's doc).
    StridedLayout a = g.layout(), b = g.layout();
    if (b.cosize() > a.size() || !isInjective(b))
      continue;
    llvm::Expected<StridedLayout> r = composition(a, b);
    if (!r) {
      llvm::consumeError(r.takeError());
      continue;
    }
    ++checked;
    ASSERT_EQ(r->size(), b.size()) << a.str() << " o " << b.str();
    for (int64_t i = 0; i < b.size(); ++i)
      ASSERT_EQ((*r)(i), a(b(i)))
          << a.str() << " o " << b.str() << " = " << r->str() << " at " << i;
  }
  EXPECT_GT(checked, 300);
}

TEST(AlgebraBruteForce, CoalesceKeepsTheFunction) {
  Generator g;
  for (int n = 0; n < 1000; ++n) {
    StridedLayout a = g.layout();
    StridedLayout c = coalesce(a);
    ASSERT_EQ(c.size(), a.size());
    for (int64_t i = 0; i < a.size(); ++i)
      ASSERT_EQ(c(i), a(i)) << a.str() << " -> " << c.str();
  }
}

TEST(AlgebraBruteForce, ComplementFillsTheCodomain) {
  Generator g;
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    StridedLayout a = g.layout(/*allowZero=*/false);
    int64_t m = a.cosize() * (1 + g.rng() % 3);
    llvm::Expected<StridedLayout> c = complement(a, m);
    if (!c) {
      llvm::consumeError(c.takeError());
      continue;
    }
    ++checked;
    // Disjoint images (but for 0), and together a bijection onto [0, N) with
    // N >= m.
    std::set<int64_t> image;
    for (int64_t i = 0; i < a.size(); ++i)
      image.insert(a(i));
    for (int64_t j = 1; j < c->size(); ++j)
      ASSERT_FALSE(image.count((*c)(j)))
          << a.str() << " and its complement " << c->str();
    StridedLayout both = cantFail(StridedLayout::tuple({a, *c}));
    std::set<int64_t> all;
    for (int64_t i = 0; i < both.size(); ++i)
      ASSERT_TRUE(all.insert(both(i)).second) << both.str();
    ASSERT_GE(both.size(), m) << both.str();
    ASSERT_EQ(*all.rbegin(), both.size() - 1) << both.str();
  }
  EXPECT_GT(checked, 500);
}

TEST(AlgebraBruteForce, DivideThenProductRestores) {
  // D = A / B = A o (B, B*); the product of the tile B with the number of
  // tiles, B x size(D<1>):1 = (B, B*), composed into A gives D back.
  Generator g;
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    StridedLayout a = g.layout(/*allowZero=*/false);
    StridedLayout b = g.layout(/*allowZero=*/false);
    llvm::Expected<StridedLayout> d = logicalDivide(a, b);
    if (!d) {
      llvm::consumeError(d.takeError());
      continue;
    }
    StridedLayout tiles = cantFail(StridedLayout::leaf(d->mode(1).size(), 1));
    llvm::Expected<StridedLayout> p = logicalProduct(b, tiles);
    if (!p) {
      llvm::consumeError(p.takeError());
      continue;
    }
    llvm::Expected<StridedLayout> back = composition(a, *p);
    if (!back) {
      llvm::consumeError(back.takeError());
      continue;
    }
    ++checked;
    ASSERT_EQ(back->size(), d->size());
    for (int64_t i = 0; i < d->size(); ++i)
      ASSERT_EQ((*back)(i), (*d)(i)) << a.str() << " / " << b.str() << " = "
                                     << d->str() << " vs " << back->str();
    // And the divide only reorders A's domain when B tiles it exactly.
    if (d->size() == a.size() && isInjective(b)) {
      std::multiset<int64_t> x, y;
      for (int64_t i = 0; i < a.size(); ++i) {
        x.insert(a(i));
        y.insert((*d)(i));
      }
      if (b.cosize() <= a.size() && a.size() % b.cosize() == 0) {
        ASSERT_EQ(x, y) << a.str() << " / " << b.str() << " = " << d->str();
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(AlgebraBruteForce, InversesInvert) {
  Generator g;
  int left = 0;
  for (int n = 0; n < 3000; ++n) {
    StridedLayout a = g.layout();
    StridedLayout r = rightInverse(a);
    for (int64_t i = 0; i < r.size(); ++i)
      ASSERT_EQ(a(r(i)), i) << a.str() << " right inverse " << r.str();
    // The right inverse is the largest: A does not reach size(R) right
    // after R's image unless R could not go on.
    llvm::Expected<StridedLayout> l = leftInverse(a);
    if (!l) {
      llvm::consumeError(l.takeError());
      continue;
    }
    if (!isInjective(a))
      continue;
    ++left;
    for (int64_t i = 0; i < a.size(); ++i)
      ASSERT_EQ((*l)(a(i)), i) << a.str() << " left inverse " << l->str();
  }
  EXPECT_GT(left, 300);
}

TEST(AlgebraBruteForce, DescriptorsComputeTheLayout) {
  Generator g;
  for (int n = 0; n < 1000; ++n) {
    StridedLayout a = g.layout();
    llvm::Expected<Descriptor> d = a.toDescriptor();
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    ASSERT_EQ(d->getRank(), a.rank());
    llvm::Expected<StridedLayout> back = StridedLayout::fromDescriptor(*d);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    // Every top coordinate, row-major.
    llvm::SmallVector<int64_t> c(a.rank(), 0);
    for (int64_t k = 0; k < a.size(); ++k) {
      int64_t rest = k;
      for (unsigned i = a.rank(); i-- > 0;) {
        c[i] = rest % a.mode(i).size();
        rest /= a.mode(i).size();
      }
      ASSERT_EQ(d->offset(c), a.at(c)) << a.str();
      ASSERT_EQ(back->at(c), a.at(c)) << a.str() << " -> " << back->str();
    }
  }
}

TEST(Algebra, FromDescriptorOfChains) {
  // packed [4, 6] seen through unmerge<[2, 3]> of dim 1 and a merge of
  // dims 0 and 1: the merge is row-major, so its mode lists dim 1 first.
  Descriptor d = cantFail(Descriptor::packed({4, 6}));
  d = cantFail(
      d.transform({makeEntry(Transform::passThrough(4), {0}, {0}),
                   makeEntry(Transform::unmerge({2, 3}), {1}, {1, 2})}));
  EXPECT_EQ(show(StridedLayout::fromDescriptor(d)), "(4,2,3):(6,3,1)");
  d = cantFail(d.transform({makeEntry(Transform::merge({4, 2}), {0, 1}, {0}),
                            makeEntry(Transform::passThrough(3), {2}, {1})}));
  EXPECT_EQ(show(StridedLayout::fromDescriptor(d)), "((2,4),3):((3,6),1)");
  Descriptor x =
      cantFail(cantFail(Descriptor::packed({4, 8}))
                   .transform({makeEntry(Transform::xorTransform({4, 8}),
                                         {0, 1}, {0, 1})}));
  EXPECT_EQ(show(StridedLayout::fromDescriptor(x)),
            "error: stage 1, #layout.xor<[4, 8]> : [0, 1] -> [0, 1] is not "
            "strided: the algebra is defined on pass_through, merge, "
            "unmerge, embed, replicate, and offset, slice or freeze at 0");
}

} // namespace
