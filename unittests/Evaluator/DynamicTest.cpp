//===- DynamicTest.cpp - Tests of run-time lengths and arguments ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A descriptor with run-time values (Transform.h's slots) checks only what is
// static, refuses to evaluate, and instantiates at given values to the
// descriptor with those values written in: checked on a hand-made GEMM
// descriptor (its offsets against the closed form i * lda + k) and by brute
// force on random chains made partly run-time (chains::dynamize), whose
// instance at the original values must agree with the original at every
// coordinate.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/DescriptorFormulas.h"
#include "layout/Testing/RandomChains.h"

#include "gtest/gtest.h"

using namespace mlir::layout;
using llvm::SmallVector;

namespace {

TEST(DynamicTest, SlotsAreDynamicAndNumbered) {
  EXPECT_TRUE(isDynamic(kDynamic));
  EXPECT_TRUE(isDynamic(dynamicSlot(7)));
  EXPECT_EQ(slotOf(dynamicSlot(7)), 7);
  EXPECT_FALSE(isDynamic(0));
  EXPECT_FALSE(isDynamic(-1));
  EXPECT_FALSE(isDynamic(std::numeric_limits<int64_t>::max()));
}

TEST(DynamicTest, GemmDescriptorInstantiates) {
  // naive [M, K] strides [lda, 1], then K cut into [K / 8, 8].
  Descriptor d = llvm::cantFail(
      Descriptor::naive({dynamicSlot(0), dynamicSlot(1)}, {dynamicSlot(2), 1}));
  llvm::cantFail(d.addStage(
      {makeEntry(Transform::passThrough(dynamicSlot(3)), {0}, {0}),
       makeEntry(Transform::unmerge({dynamicSlot(4), 8}), {1}, {1, 2})}));
  EXPECT_TRUE(d.isDynamic());
  EXPECT_EQ(d.getLengths()[0], kDynamic);
  EXPECT_EQ(d.getLengths()[2], 8);
  EXPECT_EQ(d.getElementSpaceSize(), kDynamic);
  // A dynamic descriptor does not evaluate.
  EXPECT_FALSE(d.evaluate({0, 0, 0}).valid);

  for (auto [m, kt, lda] : {std::tuple<int64_t, int64_t, int64_t>{3, 2, 16},
                            {5, 1, 9},
                            {1, 4, 32}}) {
    int64_t k = kt * 8;
    Descriptor s = llvm::cantFail(d.instantiate({m, k, lda, m, kt}));
    EXPECT_FALSE(s.isDynamic());
    ASSERT_EQ(s.getLengths(), (llvm::ArrayRef<int64_t>{m, kt, 8}));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t t = 0; t < kt; ++t)
        for (int64_t q = 0; q < 8; ++q) {
          Evaluation e = s.evaluate({i, t, q});
          EXPECT_TRUE(e.valid);
          EXPECT_EQ(e.offset, i * lda + t * 8 + q);
        }
  }
}

TEST(DynamicTest, InstanceValuesAreChecked) {
  Descriptor d = llvm::cantFail(Descriptor::packed({dynamicSlot(0), 4}));
  llvm::cantFail(d.addStage(
      {makeEntry(Transform::slice(4, dynamicSlot(1), 3), {1}, {1}),
       makeEntry(Transform::passThrough(dynamicSlot(2)), {0}, {0})}));
  // Too few values.
  llvm::Expected<Descriptor> missing = d.instantiate({2, 1});
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("run-time value 2"),
            std::string::npos);
  // A begin past the end: the slice's own check, at run time.
  llvm::Expected<Descriptor> bad = d.instantiate({2, 3, 2});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("the slice would be empty"),
            std::string::npos);
  // A pass_through whose length is not the consumed one.
  llvm::Expected<Descriptor> mismatch = d.instantiate({2, 1, 5});
  ASSERT_FALSE(static_cast<bool>(mismatch));
  llvm::consumeError(mismatch.takeError());
  EXPECT_TRUE(static_cast<bool>(d.instantiate({2, 1, 2})));
}

TEST(DynamicTest, StaticOnlyKindsRefuseRunTimeArguments) {
  Transform x = Transform::xorTransform({4, dynamicSlot(0)});
  llvm::Error e = x.verify();
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("takes no run-time"),
            std::string::npos);
  // Run-time kinds: the static parts are still checked.
  llvm::Error pad = Transform::pad(dynamicSlot(0), -1, 0).verify();
  ASSERT_TRUE(static_cast<bool>(pad));
  llvm::consumeError(std::move(pad));
  EXPECT_FALSE(static_cast<bool>(
      Transform::pad(dynamicSlot(0), dynamicSlot(1), 2).verify()));
}

TEST(DynamicTest, RandomChainsInstantiateToThemselves) {
  std::mt19937_64 rng(2026);
  int checkedChains = 0, dynamicChains = 0;
  for (int n = 0; n < 300; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    SmallVector<int64_t> values;
    Descriptor dyn = chains::dynamize(d, rng, 50, values);
    ASSERT_EQ(dyn.isDynamic(), !values.empty());
    dynamicChains += !values.empty();
    // The structure does not depend on the values.
    EXPECT_EQ(dyn.getNumHiddenIndices(), d.getNumHiddenIndices());
    EXPECT_EQ(dyn.getRank(), d.getRank());
    llvm::Expected<Descriptor> back = dyn.instantiate(values);
    ASSERT_TRUE(static_cast<bool>(back))
        << llvm::toString(back.takeError()) << "\n"
        << d.str();
    EXPECT_EQ(back->getLengths(), d.getLengths());
    chains::forEachCoordinate(d, [&](llvm::ArrayRef<int64_t> c) {
      Evaluation want = d.evaluate(c), got = back->evaluate(c);
      EXPECT_EQ(got.valid, want.valid);
      if (want.valid)
        EXPECT_EQ(got.offset, want.offset);
    });
    ++checkedChains;
  }
  EXPECT_EQ(checkedChains, 300);
  EXPECT_GT(dynamicChains, 250);
}

/// The int64 algebra whose run-time parameters take given values (slot n is
/// `values[n]`).
struct SlotValues : Int64Algebra {
  using Param = int64_t;
  llvm::ArrayRef<int64_t> values;
  explicit SlotValues(llvm::ArrayRef<int64_t> values) : values(values) {}
  Param param(int64_t raw) {
    return isDynamic(raw) ? values[slotOf(raw)] : raw;
  }
  Param paramMul(Param x, Param y) { return x * y; }
  Param paramAdd(Param x, Param y) { return x + y; }
  Param paramSub(Param x, Param y) { return x - y; }
  Value valueOf(Param p) { return p; }
};

// formulas::elementSpaceSize of a chain made partly run-time, at the values
// it was made from, is the element space the constructors computed for the
// static chain (Descriptor::naive with the same formula in checked int64
// arithmetic, packed and aligned with their own).
TEST(DynamicTest, ElementSpaceSizeAtValuesIsTheStaticOne) {
  std::mt19937_64 rng(38);
  int runTimeSpaces = 0;
  for (int n = 0; n < 300; ++n) {
    Descriptor d = chains::randomDescriptor(rng);
    SmallVector<int64_t> values;
    Descriptor dyn = chains::dynamize(d, rng, 50, values);
    runTimeSpaces += isDynamic(dyn.getElementSpaceSize());
    SlotValues a(values);
    EXPECT_EQ(formulas::elementSpaceSize(dyn, a), d.getElementSpaceSize())
        << d.str() << "\n"
        << dyn.str();
  }
  EXPECT_GT(runTimeSpaces, 50);
}

} // namespace
