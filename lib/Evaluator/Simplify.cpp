//===- Simplify.cpp - Rewrites of stages that keep their meaning ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Simplify.h"
#include "layout/Evaluator/IndexAlgebra.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// StridedBase
//===----------------------------------------------------------------------===//

std::optional<StridedBase> StridedBase::of(const Descriptor &d) {
  if (!d.getStages().empty())
    return std::nullopt;
  StridedBase b;
  b.lengths.assign(d.getBaseLengths().begin(), d.getBaseLengths().end());
  b.strides.assign(d.getBaseStrides().begin(), d.getBaseStrides().end());
  b.offset = d.getBaseOffset();
  b.space = d.getElementSpaceSize();
  return b;
}

int64_t StridedBase::minimalSpace() const {
  // What layout.naive computes without a `space` clause.
  llvm::Expected<Descriptor> d = Descriptor::naive(lengths, strides, offset);
  if (!d) {
    llvm::consumeError(d.takeError());
    return space;
  }
  return d->getElementSpaceSize();
}

llvm::Expected<Descriptor> StridedBase::descriptor() const {
  return Descriptor::naive(lengths, strides, offset, space);
}

//===----------------------------------------------------------------------===//
// Identity entries
//===----------------------------------------------------------------------===//

std::optional<Stage>
mlir::layout::simplifyIdentityEntries(ArrayRef<int64_t> lengths,
                                      const Stage &stage) {
  Stage result;
  bool changed = false;
  for (const StageEntry &e : stage) {
    const Transform &t = e.transform;
    if (t.getKind() == TransformKind::PassThrough || !t.isIdentity() ||
        e.lowerDims.size() != e.upperDims.size()) {
      result.push_back(e);
      continue;
    }
    SmallVector<int64_t> upperLengths = t.getUpperLengths();
    for (auto [lo, up, len] :
         llvm::zip_equal(e.lowerDims, e.upperDims, upperLengths)) {
      bool restriction = len != lengths[lo];
      // offset<U, 0> is already the canonical restriction.
      if (restriction && t.getKind() == TransformKind::Offset) {
        result.push_back(e);
        continue;
      }
      result.push_back(makeEntry(restriction ? Transform::offset(len, 0)
                                             : Transform::passThrough(len),
                                 {lo}, {up}));
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  return result;
}

bool mlir::layout::isIdentityStage(const Stage &stage) {
  return llvm::all_of(stage, [](const StageEntry &e) {
    return e.transform.getKind() == TransformKind::PassThrough &&
           e.lowerDims == e.upperDims;
  });
}

//===----------------------------------------------------------------------===//
// Composition
//===----------------------------------------------------------------------===//

/// The table: `first` then `second` (second consumes exactly first's upper
/// dims, in order) as entries whose lower dims index first's lower dims and
/// whose upper dims index second's upper dims.
static std::optional<Stage> composePair(const Transform &first,
                                        const Transform &second) {
  using K = TransformKind;
  K k1 = first.getKind(), k2 = second.getKind();
  auto p = [&](const Transform &t, unsigned i) { return t.getParam(i); };
  // Unmerge then merge of the same lengths: u -> digits -> u.
  if (k1 == K::Unmerge && k2 == K::Merge &&
      first.getLengths() == second.getLengths()) {
    int64_t total = 1;
    for (int64_t l : first.getLengths())
      total *= l;
    return Stage{makeEntry(Transform::passThrough(total), {0}, {0})};
  }
  // Merge then unmerge of the same lengths: digits -> u -> digits.
  if (k1 == K::Merge && k2 == K::Unmerge &&
      first.getLengths() == second.getLengths()) {
    Stage s;
    for (auto [i, l] : llvm::enumerate(first.getLengths()))
      s.push_back(
          makeEntry(Transform::passThrough(l), {int64_t(i)}, {int64_t(i)}));
    return s;
  }
  // Shifts compose by adding: u + o2 + o1.
  if ((k1 == K::Offset || k1 == K::Slice) &&
      (k2 == K::Offset || k2 == K::Slice)) {
    int64_t o1 = p(first, 0), o2 = p(second, 0);
    int64_t upper = second.getUpperLengths()[0];
    std::optional<int64_t> begin = checkedAdd(o1, o2);
    std::optional<int64_t> end =
        begin ? checkedAdd(*begin, upper) : std::nullopt;
    if (!end)
      return std::nullopt;
    // A slice below keeps its exact lower length; an offset below only
    // needs U + off <= L, which the composition inherits.
    Transform t = k1 == K::Slice
                      ? Transform::slice(first.getLengths()[0], *begin, *end)
                      : Transform::offset(upper, *begin);
    return Stage{makeEntry(std::move(t), {0}, {0})};
  }
  // A shift [b, b + U) of a pad (left l, length L): inside [l, l + L) it
  // is a slice of the unpadded dim; covering it, it is a smaller pad.
  if ((k1 == K::Pad || k1 == K::LeftPad || k1 == K::RightPad) &&
      (k2 == K::Offset || k2 == K::Slice)) {
    int64_t l = k1 == K::RightPad ? 0 : p(first, 0);
    int64_t L = first.getLengths()[0];
    int64_t b = p(second, 0);
    int64_t u = second.getUpperLengths()[0];
    if (l <= b && b + u <= l + L)
      return Stage{makeEntry(Transform::slice(L, b - l, b - l + u), {0}, {0})};
    if (b <= l && b + u >= l + L)
      return Stage{
          makeEntry(Transform::pad(L, l - b, b + u - l - L), {0}, {0})};
    return std::nullopt;
  }
  // Xor is an involution: xor then the same xor is the identity.
  if (k1 == K::Xor && k2 == K::Xor && first == second)
    return Stage{
        makeEntry(Transform::passThrough(first.getLengths()[0]), {0}, {0}),
        makeEntry(Transform::passThrough(first.getLengths()[1]), {1}, {1})};
  // Pad of pad: the outer valid range lies inside the inner one.
  if (k1 == K::Pad && k2 == K::Pad) {
    std::optional<int64_t> left = checkedAdd(p(first, 0), p(second, 0));
    std::optional<int64_t> right = checkedAdd(p(first, 1), p(second, 1));
    if (!left || !right)
      return std::nullopt;
    return Stage{makeEntry(Transform::pad(first.getLengths()[0], *left, *right),
                           {0}, {0})};
  }
  return std::nullopt;
}

std::optional<Stage> mlir::layout::composeStages(ArrayRef<int64_t> lengths,
                                                 const Stage &first,
                                                 const Stage &second) {
  // The middle dims: first's upper dims, second's lower dims.
  int64_t middleRank = 0;
  for (const StageEntry &e : first)
    middleRank += e.upperDims.size();
  struct Producer {
    unsigned entry = 0;
    unsigned position = 0;
  };
  SmallVector<Producer> producer(middleRank);
  for (auto [i, e] : llvm::enumerate(first))
    for (auto [j, d] : llvm::enumerate(e.upperDims))
      producer[d] = {unsigned(i), unsigned(j)};
  // For each middle dim passed through by `second`: its new top dim.
  SmallVector<int64_t> passedTo(middleRank, -1);
  for (const StageEntry &e : second)
    if (e.transform.getKind() == TransformKind::PassThrough)
      passedTo[e.lowerDims[0]] = e.upperDims[0];
  auto isPass = [](const StageEntry &e) {
    return e.transform.getKind() == TransformKind::PassThrough;
  };

  Stage result;
  SmallVector<bool> firstDone(first.size(), false);
  for (const StageEntry &e2 : second) {
    if (e2.lowerDims.empty()) {
      result.push_back(e2);
      continue;
    }
    // Over pass_throughs of `first`: e2 reads first's lower dims directly.
    if (llvm::all_of(e2.lowerDims, [&](int64_t m) {
          return isPass(first[producer[m].entry]);
        })) {
      StageEntry n = e2;
      for (auto [k, m] : llvm::enumerate(e2.lowerDims)) {
        n.lowerDims[k] = first[producer[m].entry].lowerDims[0];
        firstDone[producer[m].entry] = true;
      }
      result.push_back(std::move(n));
      continue;
    }
    // A pass_through over part of a non-trivial entry: handled with it.
    if (isPass(e2))
      continue;
    // Exactly the upper dims of one entry of `first`, in order.
    unsigned i = producer[e2.lowerDims[0]].entry;
    const StageEntry &e1 = first[i];
    if (ArrayRef<int64_t>(e2.lowerDims) != ArrayRef<int64_t>(e1.upperDims))
      return std::nullopt;
    std::optional<Stage> local = composePair(e1.transform, e2.transform);
    if (!local)
      return std::nullopt;
    for (StageEntry &n : *local) {
      for (int64_t &d : n.lowerDims)
        d = e1.lowerDims[d];
      for (int64_t &d : n.upperDims)
        d = e2.upperDims[d];
      result.push_back(std::move(n));
    }
    firstDone[i] = true;
  }
  // The entries of `first` not consumed yet: freezes, and entries all of
  // whose upper dims `second` passes through (relabeled).
  for (auto [i, e1] : llvm::enumerate(first)) {
    if (firstDone[i])
      continue;
    StageEntry n = e1;
    for (int64_t &d : n.upperDims) {
      if (passedTo[d] < 0)
        return std::nullopt;
      d = passedTo[d];
    }
    result.push_back(std::move(n));
  }
  // Deterministic order: by the first new top dim (freezes last).
  llvm::stable_sort(result, [](const StageEntry &a, const StageEntry &b) {
    int64_t ka = a.upperDims.empty() ? INT64_MAX : a.upperDims[0];
    int64_t kb = b.upperDims.empty() ? INT64_MAX : b.upperDims[0];
    return ka < kb;
  });
  llvm::Expected<SmallVector<int64_t>> checked =
      Descriptor::checkStage(lengths, result);
  if (!checked) {
    llvm::consumeError(checked.takeError());
    return std::nullopt;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Strided bases
//===----------------------------------------------------------------------===//

std::optional<StridedBase>
mlir::layout::foldIntoStrides(const StridedBase &base, const Stage &stage) {
  int64_t rank = 0;
  for (const StageEntry &e : stage)
    rank += e.upperDims.size();
  StridedBase out;
  out.lengths.assign(rank, 0);
  out.strides.assign(rank, 0);
  out.space = base.space;
  std::optional<int64_t> offset = base.offset;
  // Adds `amount * stride` to the base offset.
  auto shift = [&](int64_t amount, int64_t stride) {
    std::optional<int64_t> term = checkedMul(amount, stride);
    offset = term && offset ? checkedAdd(*offset, *term) : std::nullopt;
  };
  // Sets new dim `d` to `length` with stride `stride * factor`.
  bool overflow = false;
  auto set = [&](int64_t d, int64_t length, int64_t stride, int64_t factor) {
    std::optional<int64_t> s = checkedMul(stride, factor);
    overflow |= !s;
    out.lengths[d] = length;
    out.strides[d] = s.value_or(0);
  };
  for (const StageEntry &e : stage) {
    const Transform &t = e.transform;
    SmallVector<int64_t> upper = t.getUpperLengths();
    // How the kind folds (TransformKindInfo::StridedForm).
    switch (t.getKindInfo().strided) {
    case TransformKindInfo::NotStrided:
      return std::nullopt;
    case TransformKindInfo::SameStride:
      set(e.upperDims[0], upper[0], base.strides[e.lowerDims[0]], 1);
      break;
    case TransformKindInfo::Shifted:
      for (auto [d, len] : llvm::zip_equal(e.upperDims, upper))
        set(d, len, base.strides[e.lowerDims[0]], 1);
      shift(t.getParam(0), base.strides[e.lowerDims[0]]);
      break;
    case TransformKindInfo::Broadcast:
      for (auto [d, len] : llvm::zip_equal(e.upperDims, upper))
        set(d, len, 0, 0);
      break;
    case TransformKindInfo::RowMajor: {
      SmallVector<int64_t, 4> p = formulas::suffixProducts(t.getLengths());
      for (auto [d, len, pi] : llvm::zip_equal(e.upperDims, upper, p))
        set(d, len, base.strides[e.lowerDims[0]], pi);
      break;
    }
    case TransformKindInfo::ByCoefficients:
      for (auto [d, len, c] :
           llvm::zip_equal(e.upperDims, upper, t.getCoefficients()))
        set(d, len, base.strides[e.lowerDims[0]], c);
      break;
    case TransformKindInfo::Nested: {
      // The merge's digits are row-major (formulas::suffixProducts, whose
      // product is the merge's upper length): dim i nests when its stride is
      // the last one times its suffix product.
      SmallVector<int64_t, 4> p = formulas::suffixProducts(t.getLengths());
      int64_t last = base.strides[e.lowerDims.back()];
      for (auto [i, len] : llvm::enumerate(t.getLengths())) {
        std::optional<int64_t> expected = checkedMul(last, p[i]);
        if (len != 1 &&
            (!expected || base.strides[e.lowerDims[i]] != *expected))
          return std::nullopt;
      }
      set(e.upperDims[0], upper[0], last, 1);
      break;
    }
    }
  }
  if (overflow || !offset)
    return std::nullopt;
  out.offset = *offset;
  // The new base must describe the same buffer: its least space fits.
  llvm::Expected<Descriptor> d = out.descriptor();
  if (!d) {
    llvm::consumeError(d.takeError());
    return std::nullopt;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Chains
//===----------------------------------------------------------------------===//

SimplifiedChain mlir::layout::simplifyChain(ArrayRef<int64_t> lengths,
                                            std::optional<StridedBase> base,
                                            ArrayRef<Stage> stages) {
  SimplifiedChain result;
  // The stages kept so far, each with the top lengths below it; `top` is
  // the top lengths above the last one.
  SmallVector<SmallVector<int64_t, 4>> below;
  SmallVector<int64_t, 4> top(lengths.begin(), lengths.end());
  below.reserve(stages.size());
  result.stages.reserve(stages.size());
  auto topOf = [](ArrayRef<int64_t> under, const Stage &s) {
    llvm::Expected<SmallVector<int64_t>> l = Descriptor::checkStage(under, s);
    if (!l) {
      llvm::consumeError(l.takeError());
      return std::optional<SmallVector<int64_t>>();
    }
    return std::optional<SmallVector<int64_t>>(std::move(*l));
  };
  for (const Stage &original : stages) {
    Stage s = original;
    std::optional<SmallVector<int64_t>> above = topOf(top, s);
    if (!above)
      return SimplifiedChain{
          std::nullopt, {stages.begin(), stages.end()}, false};
    SmallVector<int64_t, 4> under = top;
    while (true) {
      if (std::optional<Stage> t = simplifyIdentityEntries(under, s)) {
        s = std::move(*t);
        result.changed = true;
      }
      if (result.stages.empty())
        break;
      // Compose with the stage below while the table allows; the composed
      // stage must give the same top lengths.
      std::optional<Stage> c =
          composeStages(below.back(), result.stages.back(), s);
      if (!c)
        break;
      std::optional<SmallVector<int64_t>> cTop = topOf(below.back(), *c);
      if (!cTop || *cTop != *above)
        break;
      s = std::move(*c);
      under = below.pop_back_val();
      result.stages.pop_back();
      result.changed = true;
    }
    if (isIdentityStage(s) && ArrayRef<int64_t>(*above) == ArrayRef(under)) {
      result.changed = true;
      top = under;
      continue;
    }
    result.stages.push_back(std::move(s));
    below.push_back(under);
    top.assign(above->begin(), above->end());
  }
  if (!base)
    return result;
  size_t folded = 0;
  for (; folded < result.stages.size(); ++folded) {
    std::optional<StridedBase> next =
        foldIntoStrides(*base, result.stages[folded]);
    if (!next)
      break;
    base = std::move(next);
  }
  if (folded) {
    result.base = std::move(base);
    result.stages.erase(result.stages.begin(), result.stages.begin() + folded);
    result.changed = true;
  }
  return result;
}
