//===- TransformKindsTest.cpp - The table of kinds against the formulas ---===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The facts of TransformKinds.def (arguments, dims, validity, keeping 0,
// involution) checked against the formulas on every entry of many random
// chains, so that a row cannot claim what its kind's formulas do not do.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/DescriptorFormulas.h"
#include "layout/Testing/RandomChains.h"

#include "gtest/gtest.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Calls `fn` with every coordinate of `lengths` (one, empty, for no dims).
void forEachIndex(ArrayRef<int64_t> lengths,
                  llvm::function_ref<void(ArrayRef<int64_t>)> fn) {
  SmallVector<int64_t> c(lengths.size(), 0);
  for (;;) {
    fn(c);
    size_t i = lengths.size();
    while (i > 0 && ++c[i - 1] == lengths[i - 1])
      c[--i] = 0;
    if (i == 0)
      return;
  }
}

struct Seen {
  int entries = 0;
  int withInvalid = 0;
};

/// Checks the facts of `t`'s kind on `t`, consuming dims of `lowerLengths`.
void checkFacts(const Transform &t, ArrayRef<int64_t> lowerLengths,
                Seen &seen) {
  SCOPED_TRACE(t.str());
  const TransformKindInfo &info = t.getKindInfo();
  EXPECT_EQ(info.kind, t.getKind());
  EXPECT_EQ(t.str().rfind(("#layout." + info.mnemonic + "<").str(), 0), 0u);

  // The arguments give the transform back.
  SmallVector<TransformArg> args;
  for (unsigned i = 0; i < t.getNumArgs(); ++i)
    args.push_back(t.getArg(i));
  EXPECT_EQ(Transform::make(t.getKind(), args), t);

  SmallVector<int64_t> upperLengths = t.getUpperLengths();
  EXPECT_EQ(upperLengths.size(), t.getNumUpperDims());
  EXPECT_EQ(lowerLengths.size(), t.getNumLowerDims());

  // Every upper coordinate, and those one past the end of a dim.
  SmallVector<int64_t> pastEnd;
  for (int64_t n : upperLengths)
    pastEnd.push_back(n + 1);
  Int64Algebra a;
  bool sawInvalid = false;
  forEachIndex(pastEnd, [&](ArrayRef<int64_t> u) {
    bool inDomain = true;
    for (auto [x, n] : llvm::zip_equal(u, upperLengths))
      inDomain &= x < n;
    SmallVector<int64_t, 4> l;
    formulas::lowerIndex(t, a, u, l);
    ASSERT_EQ(l.size(), t.getNumLowerDims());
    bool inBounds = true;
    for (auto [x, n] : llvm::zip_equal(l, lowerLengths))
      inBounds &= x >= 0 && x < n;
    bool valid = formulas::validity(t, a, u);
    sawInvalid |= !valid;
    // A kind that can be invalid sends the valid coordinates of its domain
    // into the lower dims; one that cannot sends its whole domain there.
    if (inDomain && (valid || !t.canBeInvalid())) {
      EXPECT_TRUE(inBounds) << "at " << formatIntList(u);
    }
    if (t.isInvolution() && inDomain) {
      SmallVector<int64_t, 4> back;
      formulas::lowerIndex(t, a, ArrayRef<int64_t>(l), back);
      EXPECT_EQ(ArrayRef<int64_t>(back), u);
    }
  });

  // Keeping 0: the inverse takes a lower 0 to an upper 0.
  if (t.keepsZero()) {
    if (llvm::Error e = t.checkInvertible()) {
      llvm::consumeError(std::move(e));
    } else {
      SmallVector<int64_t, 4> zeros(t.getNumLowerDims(), 0), u;
      formulas::upperIndex(t, a, ArrayRef<int64_t>(zeros), u);
      EXPECT_EQ(u, SmallVector<int64_t>(t.getNumUpperDims(), 0));
    }
  }
  ++seen.entries;
  seen.withInvalid += sawInvalid;
}

TEST(TransformKindsTest, TableIsIndexedByKind) {
  for (unsigned k = 0; k < kNumTransformKinds; ++k) {
    auto kind = static_cast<TransformKind>(k);
    EXPECT_EQ(kindInfo(kind).kind, kind);
    EXPECT_EQ(stringifyTransformKind(kind).str(),
              kindInfo(kind).mnemonic.str());
  }
  EXPECT_EQ(stringifyTransformKind(TransformKind::PassThrough).str(),
            "pass_through");
  EXPECT_EQ(Transform::make(TransformKind::Swizzle, {3, 4, 3, 1024}),
            Transform::swizzle(3, 4, 3, 1024));
  EXPECT_EQ(Transform::make(TransformKind::Embed,
                            {ArrayRef<int64_t>{2, 3}, ArrayRef<int64_t>{12, 1}})
                .str(),
            "#layout.embed<[2, 3], [12, 1]>");
}

TEST(TransformKindsTest, FactsHoldOnRandomChains) {
  std::mt19937_64 rng(7);
  std::array<Seen, kNumTransformKinds> seen{};
  for (int n = 0; n < 2000; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    SmallVector<int64_t> lengths(d.getBaseLengths().begin(),
                                 d.getBaseLengths().end());
    for (const Stage &stage : d.getStages()) {
      for (const StageEntry &e : stage) {
        SmallVector<int64_t> lowerLengths;
        for (int64_t dim : e.lowerDims)
          lowerLengths.push_back(lengths[dim]);
        checkFacts(e.transform, lowerLengths,
                   seen[static_cast<unsigned>(e.transform.getKind())]);
      }
      llvm::Expected<SmallVector<int64_t>> next =
          Descriptor::checkStage(lengths, stage);
      ASSERT_TRUE(static_cast<bool>(next));
      lengths = std::move(*next);
    }
  }
  // Every kind was checked, and every kind that claims it can be invalid
  // was.
  for (unsigned k = 0; k < kNumTransformKinds; ++k) {
    auto kind = static_cast<TransformKind>(k);
    std::string name = stringifyTransformKind(kind).str();
    EXPECT_GT(seen[k].entries, 0) << name;
    if (kindInfo(kind).canBeInvalid) {
      EXPECT_GT(seen[k].withInvalid, 0) << name;
    }
  }
}

} // namespace
