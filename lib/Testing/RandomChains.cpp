//===- RandomChains.cpp - Random valid descriptors for testing ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Testing/RandomChains.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::chains;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Small helpers over the generator.
struct Dice {
  std::mt19937_64 &rng;
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool coin(int percent = 50) { return range(0, 99) < percent; }
};

int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

Descriptor randomBase(Dice &dice, const RandomChainOptions &options) {
  for (;;) {
    int64_t rank = dice.range(1, 3);
    SmallVector<int64_t> lengths;
    for (int64_t i = 0; i < rank; ++i)
      lengths.push_back(dice.range(1, 8));
    if (product(lengths) > options.maxElements)
      continue;
    llvm::Expected<Descriptor> d = [&]() -> llvm::Expected<Descriptor> {
      switch (dice.range(0, 2)) {
      case 0:
        return Descriptor::packed(lengths);
      case 1:
        return Descriptor::aligned(lengths, dice.range(1, 8));
      default: {
        SmallVector<int64_t> strides;
        for (int64_t i = 0; i < rank; ++i)
          strides.push_back(dice.range(0, 12));
        int64_t offset = dice.coin(20) ? dice.range(1, 9) : 0;
        llvm::Expected<Descriptor> least =
            Descriptor::naive(lengths, strides, offset);
        if (!least || !dice.coin(20))
          return least;
        // A larger buffer than the least the view needs.
        return Descriptor::naive(lengths, strides, offset,
                                 least->getElementSpaceSize() +
                                     dice.range(0, 9));
      }
      }
    }();
    if (d)
      return std::move(*d);
    llvm::consumeError(d.takeError());
  }
}

/// The divisors of `n` greater than 1 and smaller than `n`.
SmallVector<int64_t> properDivisors(int64_t n) {
  SmallVector<int64_t> ds;
  for (int64_t d = 2; d < n; ++d)
    if (n % d == 0)
      ds.push_back(d);
  return ds;
}

bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// Builds one entry consuming old dims `lower` (their lengths `lens`) and
/// producing `numUpper` new dims (filled in later), or std::nullopt if the
/// chosen kind does not fit.
std::optional<Transform> randomTransform(Dice &dice, TransformKind kind,
                                         ArrayRef<int64_t> lens) {
  using K = TransformKind;
  int64_t L = lens.empty() ? 0 : lens[0];
  switch (kind) {
  case K::PassThrough:
    return Transform::passThrough(L);
  case K::Pad:
    return Transform::pad(L, dice.range(0, 2), dice.range(0, 2));
  case K::LeftPad:
    return Transform::leftPad(L, dice.range(0, 2));
  case K::RightPad:
    return Transform::rightPad(L, dice.range(0, 2));
  case K::Embed: {
    for (int attempt = 0; attempt < 8; ++attempt) {
      int64_t k = dice.range(1, 2);
      SmallVector<int64_t> ups, cs;
      int64_t span = 1;
      for (int64_t i = 0; i < k; ++i) {
        ups.push_back(dice.range(1, 4));
        cs.push_back(dice.range(0, 4));
        span += (ups.back() - 1) * cs.back();
      }
      if (span <= L)
        return Transform::embed(ups, cs);
    }
    return std::nullopt;
  }
  case K::Merge:
    return Transform::merge(lens);
  case K::Unmerge: {
    SmallVector<int64_t> ds = properDivisors(L);
    if (ds.empty())
      return std::nullopt;
    int64_t a = ds[dice.range(0, ds.size() - 1)];
    return Transform::unmerge({a, L / a});
  }
  case K::Replicate:
    return Transform::replicate({dice.range(1, 3)});
  case K::Freeze:
    return Transform::freeze(dice.range(0, L - 1));
  case K::Offset: {
    int64_t u = dice.range(1, L);
    return Transform::offset(u, dice.range(0, L - u));
  }
  case K::Slice: {
    int64_t b = dice.range(0, L - 1);
    return Transform::slice(L, b, dice.range(b + 1, L));
  }
  case K::Modulo:
    return Transform::modulo(dice.range(1, L), dice.range(1, 2 * L));
  case K::Xor:
    if (!isPowerOfTwo(lens[1]))
      return std::nullopt;
    return Transform::xorTransform(lens);
  case K::Rotate:
    return Transform::rotate(lens);
  case K::Swizzle: {
    for (int attempt = 0; attempt < 8; ++attempt) {
      int64_t b = dice.range(0, 2), m = dice.range(0, 2);
      int64_t s = dice.range(b, b + 2) * (dice.coin() ? 1 : -1);
      if (s == 0 && b > 0)
        continue;
      if (L % (int64_t(1) << (b + m)) == 0)
        return Transform::swizzle(b, m, s, L);
    }
    return std::nullopt;
  }
  case K::Sunder: {
    if (L < 2)
      return std::nullopt;
    int64_t first = dice.range(1, L - 1);
    return Transform::sunder({first, L - first});
  }
  }
  return std::nullopt;
}

/// How many old dims a kind consumes (a merge, one per lower length: two).
unsigned numLowerDims(TransformKind kind) {
  return kindInfo(kind).lowerDims.of(/*numEntries=*/2);
}

/// One random stage over top lengths `lengths`, or std::nullopt.
std::optional<Stage> randomStage(Dice &dice, ArrayRef<int64_t> lengths) {
  SmallVector<int64_t> order(lengths.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), dice.rng);
  Stage stage;
  size_t next = 0;
  int64_t newRank = 0;
  while (next < order.size()) {
    auto kind =
        static_cast<TransformKind>(dice.range(0, kNumTransformKinds - 1));
    // Most entries are plain: keep chains readable but every kind present.
    if (dice.coin(35))
      kind = TransformKind::PassThrough;
    unsigned n = numLowerDims(kind);
    if (next + n > order.size())
      continue;
    SmallVector<int64_t> lowerDims(order.begin() + next,
                                   order.begin() + next + n);
    SmallVector<int64_t> lens;
    for (int64_t d : lowerDims)
      lens.push_back(lengths[d]);
    std::optional<Transform> t = randomTransform(dice, kind, lens);
    if (!t)
      continue;
    if (llvm::Error e = t->verify()) {
      llvm::consumeError(std::move(e));
      continue;
    }
    StageEntry e{*t, {}, {}};
    e.lowerDims.assign(lowerDims.begin(), lowerDims.end());
    for (unsigned i = 0; i < t->getNumUpperDims(); ++i)
      e.upperDims.push_back(newRank++);
    stage.push_back(std::move(e));
    next += n;
  }
  if (newRank == 0)
    return std::nullopt;
  // New top dims in a random order.
  SmallVector<int64_t> perm(newRank);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), dice.rng);
  for (StageEntry &e : stage)
    for (int64_t &d : e.upperDims)
      d = perm[d];
  return stage;
}

} // namespace

Descriptor chains::randomDescriptor(std::mt19937_64 &rng,
                                    const RandomChainOptions &options) {
  Dice dice{rng};
  Descriptor d = randomBase(dice, options);
  int64_t depth = dice.range(0, options.maxDepth);
  for (int64_t level = 0, attempts = 0; level < depth && attempts < 200;
       ++attempts) {
    std::optional<Stage> stage = randomStage(dice, d.getLengths());
    if (!stage)
      continue;
    llvm::Expected<Descriptor> next = d.transform(*stage);
    if (!next) {
      llvm::consumeError(next.takeError());
      continue;
    }
    if (product(next->getLengths()) > options.maxElements)
      continue;
    d = std::move(*next);
    ++level;
  }
  return d;
}

int64_t chains::numCoordinates(const Descriptor &d) {
  return product(d.getLengths());
}

void chains::forEachCoordinate(const Descriptor &d,
                               llvm::function_ref<void(ArrayRef<int64_t>)> fn) {
  ArrayRef<int64_t> lengths = d.getLengths();
  int64_t total = product(lengths);
  SmallVector<int64_t> coord(lengths.size());
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat;
    for (size_t i = lengths.size(); i-- > 0;) {
      coord[i] = rest % lengths[i];
      rest /= lengths[i];
    }
    fn(coord);
  }
}

Descriptor chains::dynamize(const Descriptor &d, std::mt19937_64 &rng,
                            unsigned percent,
                            llvm::SmallVectorImpl<int64_t> &values) {
  auto pick = [&](int64_t v) {
    if (percent == 0 || rng() % 100 >= percent)
      return v;
    values.push_back(v);
    return dynamicSlot(values.size() - 1);
  };
  auto pickAll = [&](llvm::ArrayRef<int64_t> vs) {
    SmallVector<int64_t> out;
    for (int64_t v : vs)
      out.push_back(pick(v));
    return out;
  };
  llvm::Expected<Descriptor> result = [&]() -> llvm::Expected<Descriptor> {
    switch (d.getBaseKind()) {
    case BaseKind::Naive: {
      SmallVector<int64_t> lengths = pickAll(d.getBaseLengths());
      SmallVector<int64_t> strides = pickAll(d.getBaseStrides());
      return Descriptor::naive(lengths, strides, d.getBaseOffset(),
                               d.hasExplicitSpace()
                                   ? std::optional(d.getElementSpaceSize())
                                   : std::nullopt);
    }
    case BaseKind::Packed:
      return Descriptor::packed(pickAll(d.getBaseLengths()));
    case BaseKind::Aligned:
      return Descriptor::aligned(d.getBaseLengths(), d.getBaseAlign());
    }
    llvm_unreachable("unknown base kind");
  }();
  for (const Stage &stage : d.getStages()) {
    Stage entries = stage;
    for (StageEntry &e : entries) {
      const Transform &t = e.transform;
      if (!t.getKindInfo().runTime)
        continue;
      SmallVector<SmallVector<int64_t>> lists;
      SmallVector<TransformArg> args;
      lists.reserve(t.getNumArgs());
      for (unsigned i = 0; i < t.getNumArgs(); ++i) {
        TransformArg arg = t.getArg(i);
        if (arg.isListArg()) {
          lists.push_back(pickAll(arg.getList()));
          args.push_back(llvm::ArrayRef<int64_t>(lists.back()));
        } else {
          args.push_back(pick(arg.getScalar()));
        }
      }
      e.transform = Transform::make(t.getKind(), args);
    }
    if (llvm::Error e = result->addStage(entries))
      llvm::report_fatal_error(llvm::Twine("dynamize: ") +
                               llvm::toString(std::move(e)));
  }
  return llvm::cantFail(std::move(result));
}
