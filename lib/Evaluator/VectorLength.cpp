//===- VectorLength.cpp - Guaranteed vector lengths of descriptors --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The rules, one per kind. Notation: a lower run {g, S} (VectorRun), an
// upper run {L, S'}. A run of L upper indices starting at a multiple of L
// must land, index by index, on a run of the lower dim that starts inside
// one lower run of g (then offsets step by a constant and validity holds).
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/VectorLength.h"
#include "layout/Evaluator/DescriptorFormulas.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include <numeric>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

namespace {

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// The largest power of two dividing `d` (0 for 0: any power).
int64_t powerOfTwoPart(int64_t d) { return d == 0 ? 0 : d & -d; }

/// The smaller of two divisors where 0 means "always 0" (infinitely
/// divisible).
int64_t minDivisor(int64_t a, int64_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return std::min(a, b);
}

/// What is known of a parameter: its value when static (`exact`), else a
/// number it is a multiple of (>= 1).
struct Known {
  int64_t value = 1;
  bool exact = true;
  /// A number the parameter is a multiple of (0: it is 0).
  int64_t multiple() const {
    if (!exact)
      return value;
    return value == std::numeric_limits<int64_t>::min() ? 1
           : value < 0                                  ? -value
                                                        : value;
  }
  bool is(int64_t v) const { return exact && value == v; }
};

/// Parameters as `Known`s (IndexAlgebra.h's Param): static values exactly,
/// run-time ones through what the caller knows of their slots. The
/// formulas then give what upper lengths, strides and coefficients are.
struct KnownParams {
  KnownMultiples known;
  using Param = Known;
  /// As a value: a divisor (DivisorAlgebra's values).
  using Value = int64_t;
  Value valueOf(Known p) const { return p.multiple(); }
  Known param(int64_t raw) const {
    if (!isDynamic(raw))
      return {raw, true};
    int64_t m = known ? known(slotOf(raw)) : 1;
    // 0: the value is known to be 0.
    return m == 0 ? Known{0, true} : Known{m > 0 ? m : 1, false};
  }
  Known paramMul(Known x, Known y) const {
    if (x.exact && y.exact)
      return {wrappingMul(x.value, y.value), true};
    std::optional<int64_t> p = checkedMul(x.multiple(), y.multiple());
    return {p && *p > 0 ? *p : 1, false};
  }
  Known paramAdd(Known x, Known y) const {
    if (x.exact && y.exact)
      return {wrappingAdd(x.value, y.value), true};
    int64_t g = std::gcd(x.multiple(), y.multiple());
    return {g > 0 ? g : 1, false};
  }
  Known paramSub(Known x, Known y) const {
    if (x.exact && y.exact)
      return {wrappingSub(x.value, y.value), true};
    return paramAdd({x.multiple(), false}, {y.multiple(), false});
  }
};

/// A run of `lower` shifted by `shift` upper indices and cut to `length`:
/// pads, modulo and swizzles move the lower index by a constant (or wrap it
/// at a multiple, or keep its low bits), so the run keeps its stride and
/// shortens to what divides the shift and the new length.
VectorRun shiftedRun(VectorRun lower, int64_t shift, int64_t length) {
  int64_t l = gcd(gcd(lower.length, shift), length);
  return {l, l > 1 ? lower.stride : 0};
}

/// Runs of the upper dims of lower = sum_j u_j * c_j (embed, unmerge) with
/// a lower run {g, S}: along u_j, L consecutive indices from a multiple of L
/// step the lower index by c_j; they stay inside one lower run when L * c_j
/// divides g and every other coefficient (then every start is a multiple of
/// L * c_j modulo g). A zero coefficient broadcasts the whole dim, and a
/// lower dim that is one run (`whole`) has no edges to cross. A run-time
/// coefficient gives no run along its dim (its stride is not known), and
/// counts through what it is a multiple of along the others.
void linearRuns(VectorRun lower, bool whole, ArrayRef<Known> lengths,
                ArrayRef<Known> coefficients,
                SmallVectorImpl<VectorRun> &upper) {
  for (size_t j = 0; j < lengths.size(); ++j) {
    Known c = coefficients[j];
    if (!c.exact) {
      upper.push_back({});
      continue;
    }
    if (c.value == 0 || whole) {
      upper.push_back({lengths[j].multiple(), c.value * lower.stride});
      continue;
    }
    int64_t room = lower.length;
    for (size_t i = 0; i < lengths.size(); ++i)
      if (i != j && !lengths[i].is(1) && !lengths[i].is(0))
        room = gcd(room, coefficients[i].multiple());
    int64_t l =
        room % c.value == 0 ? gcd(lengths[j].multiple(), room / c.value) : 1;
    upper.push_back({l, l > 1 ? c.value * lower.stride : 0});
  }
}

} // namespace

void mlir::layout::upperRuns(const Transform &t, ArrayRef<VectorRun> lower,
                             ArrayRef<int64_t> lowerLengths,
                             SmallVectorImpl<VectorRun> &upper,
                             KnownMultiples known) {
  KnownParams k{known};
  // What each parameter and upper length is (a multiple of, when run-time).
  auto m = [&](int64_t raw) { return k.param(raw).multiple(); };
  SmallVector<Known, 4> lengths = formulas::params(k, t.getLengths());
  SmallVector<Known, 4> upperLengths = formulas::upperLengths(t, k);
  auto upperLength = [&](size_t i) { return upperLengths[i].multiple(); };
  // Whether lower dim i is one run: then shifts within it cross no edge (a
  // run-time length is never known to be one run).
  auto whole = [&](size_t i) {
    return !isDynamic(lowerLengths[i]) && lower[i].length == lowerLengths[i];
  };
  size_t first = upper.size();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
    upper.push_back(lower[0]);
    break;
  case TransformKind::Pad:
    // Valid from left to left + L: both edges must fall between runs.
    upper.push_back(shiftedRun(
        lower[0], gcd(m(t.getParam(0)), m(t.getParam(1))), upperLength(0)));
    break;
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
    upper.push_back(shiftedRun(lower[0], m(t.getParam(0)), upperLength(0)));
    break;
  case TransformKind::Offset:
  case TransformKind::Slice:
    // u + begin stays inside the lower dim (checkLowerLengths): inside one
    // run, the whole upper dim is one.
    upper.push_back(
        whole(0) ? VectorRun{upperLength(0), lower[0].stride}
                 : shiftedRun(lower[0], m(t.getParam(0)), upperLength(0)));
    break;
  case TransformKind::Modulo:
    // u mod m: runs within one period.
    upper.push_back(shiftedRun(lower[0], m(t.getParam(0)), upperLength(0)));
    break;
  case TransformKind::Embed:
    linearRuns(lower[0], whole(0), lengths,
               formulas::params(k, t.getCoefficients()), upper);
    break;
  case TransformKind::Unmerge:
    linearRuns(lower[0], whole(0), lengths,
               formulas::suffixProducts(k, t.getLengths()), upper);
    break;
  case TransformKind::Merge: {
    // The innermost digit moves first: a run of its lower dim, extended
    // outward while a whole inner dim is one run and the next dim out
    // continues it (its stride = inner length x inner stride), as CuTe's
    // coalesce joins modes. A run-time length ends the extension.
    size_t n = lengths.size();
    VectorRun run{gcd(lengths[n - 1].multiple(), lower[n - 1].length),
                  lower[n - 1].stride};
    Known inner = lengths[n - 1];
    for (size_t i = n - 1; i-- > 0;) {
      if (!inner.exact || run.length != inner.value ||
          lower[i].stride != inner.value * run.stride || lengths[i].is(1))
        break;
      int64_t g = gcd(lengths[i].multiple(), lower[i].length);
      run.length *= g;
      if (!lengths[i].is(g))
        break;
      inner.value *= g;
    }
    if (run.length == 1)
      run.stride = 0;
    upper.push_back(run);
    break;
  }
  case TransformKind::Replicate:
    for (const Known &l : lengths)
      upper.push_back({l.multiple(), 0});
    break;
  case TransformKind::Freeze:
    break;
  case TransformKind::Swizzle: {
    // Bits below M, and below M + S when the field comes from lower bits,
    // pass through unchanged.
    int64_t bits = t.getParam(0), base = t.getParam(1), shift = t.getParam(2);
    int64_t keep = bits == 0 ? upperLength(0)
                   : std::min(base, base + shift) <= 0
                       ? 1
                       : int64_t(1) << std::min(base, base + shift);
    upper.push_back(shiftedRun(lower[0], keep, upperLength(0)));
    break;
  }
  case TransformKind::Xor:
  case TransformKind::Rotate:
    // Dim 0 passes through when dim 1 has length 1 (nothing to mix); dim 1
    // moves with dim 0's value, so nothing is guaranteed.
    upper.push_back(lengths[1].is(1) ? lower[0] : VectorRun{});
    upper.push_back(lengths[1].is(1) ? lower[1] : VectorRun{});
    break;
  case TransformKind::Sunder:
    // The offset moves along a piece only while the switch selects it.
    upper.append(upperLengths.size(), VectorRun{});
    break;
  }
  // A run of one element says nothing about the stride.
  for (size_t i = first; i < upper.size(); ++i)
    if (upper[i].length <= 1)
      upper[i] = VectorRun{};
}

/// Runs of every dim of every level, base first.
static std::vector<SmallVector<VectorRun>> allRuns(const Descriptor &d,
                                                   KnownMultiples known) {
  std::vector<SmallVector<VectorRun>> levels;
  // The base indexes the linear buffer: each dim is one run of its whole
  // length (what a run-time length is a multiple of) with its stride (none
  // for a run-time stride).
  KnownParams k{known};
  SmallVector<VectorRun> base;
  for (auto [l, s] : llvm::zip_equal(formulas::params(k, d.getBaseLengths()),
                                     formulas::baseStrides(d, k)))
    base.push_back(l.multiple() > 1 && s.exact
                       ? VectorRun{l.multiple(), s.value}
                       : VectorRun{});
  levels.push_back(std::move(base));
  SmallVector<int64_t> lengths(d.getBaseLengths());
  for (const Stage &stage : d.getStages()) {
    size_t rank = 0;
    for (const StageEntry &e : stage)
      rank += e.upperDims.size();
    SmallVector<VectorRun> next(rank);
    SmallVector<int64_t> nextLengths(rank);
    for (const StageEntry &e : stage) {
      SmallVector<VectorRun> lower, upper;
      SmallVector<int64_t> lowerLengths;
      for (int64_t dim : e.lowerDims) {
        lower.push_back(levels.back()[dim]);
        lowerLengths.push_back(lengths[dim]);
      }
      upperRuns(e.transform, lower, lowerLengths, upper, known);
      for (auto [dim, run, l] :
           llvm::zip_equal(e.upperDims, upper, e.transform.getUpperLengths())) {
        next[dim] = run;
        nextLengths[dim] = l;
      }
    }
    levels.push_back(std::move(next));
    lengths = std::move(nextLengths);
  }
  return levels;
}

SmallVector<VectorRun> mlir::layout::topRuns(const Descriptor &d,
                                             KnownMultiples known) {
  return allRuns(d, known).back();
}

VectorRun mlir::layout::lastDimRun(const Descriptor &d, KnownMultiples known) {
  if (d.getRank() == 0)
    return {};
  return topRuns(d, known).back();
}

namespace {

/// The index algebra of divisors (IndexAlgebra.h): a value stands for "some
/// multiple of v" (0: exactly 0). Running the transforms' own formulas in
/// it says what each lower index, and the offset, is a multiple of, so the
/// divisor rules are not written a second time: u - left is a multiple of
/// gcd(d, left), (u / P) mod l of gcd(d / P, l) when P divides d, an xor
/// of the smaller power of two, a select of the gcd of both sides.
struct DivisorAlgebra : KnownParams {
  using Value = int64_t;
  /// Conditions carry nothing: a select keeps what both sides share.
  struct Bool {};
  // Run-time parameters (KnownParams): a value times a multiple of m is a
  // multiple of m times it; divided by a run-time value, nothing is known;
  // modulo one that is a multiple of m, what it and m share.
  Value mul(Value a, Known p) { return mul(a, p.multiple()); }
  Value floorDiv(Value a, Known p) {
    return p.exact ? floorDiv(a, p.value) : a == 0 ? 0 : 1;
  }
  Value floorMod(Value a, Known p) { return gcd(a, p.multiple()); }
  Bool inRange(Value, Known) { return {}; }
  Bool atLeast(Value, Known) { return {}; }
  Bool lessThan(Value, Known) { return {}; }
  Value constant(int64_t c) {
    // -2^63 has no positive negation; it is a multiple of 1.
    return c == std::numeric_limits<int64_t>::min() ? 1 : c < 0 ? -c : c;
  }
  Value add(Value a, Value b) { return gcd(a, b); }
  Value sub(Value a, Value b) { return gcd(a, b); }
  Value mul(Value a, int64_t c) {
    std::optional<int64_t> p = checkedMul(a, c < 0 ? -c : c);
    // Past int64 only "a multiple of 1" is certain.
    return p && *p >= 0 ? *p : 1;
  }
  Value floorDiv(Value a, int64_t d) { return a % d == 0 ? a / d : 1; }
  Value floorMod(Value a, int64_t d) { return gcd(a, d); }
  Value bitXor(Value a, Value b) {
    return minDivisor(powerOfTwoPart(a), powerOfTwoPart(b));
  }
  Value select(Bool, Value a, Value b) { return gcd(a, b); }
  Bool truth(bool) { return {}; }
  Bool inRange(Value, int64_t) { return {}; }
  Bool atLeast(Value, int64_t) { return {}; }
  Bool lessThan(Value, int64_t) { return {}; }
  Bool equals(Value, int64_t) { return {}; }
  Bool both(Bool, Bool) { return {}; }
  Bool either(Bool, Bool) { return {}; }
};

} // namespace

void mlir::layout::lowerDivisors(const Transform &t, ArrayRef<int64_t> u,
                                 SmallVectorImpl<int64_t> &l,
                                 KnownMultiples known) {
  DivisorAlgebra a;
  a.known = known;
  formulas::lowerIndex(t, a, u, l);
}

int64_t mlir::layout::offsetDivisor(const Descriptor &d, int64_t lastMultiple,
                                    KnownMultiples known) {
  // The top indices: any (multiples of 1), the last a multiple of
  // `lastMultiple`; the descriptor's own offset formula does the rest.
  SmallVector<int64_t> top(d.getRank(), 1);
  if (!top.empty())
    top.back() = lastMultiple;
  DivisorAlgebra a;
  a.known = known;
  return formulas::offset(d, a, top);
}

std::string mlir::layout::explainLastDimRun(const Descriptor &d,
                                            KnownMultiples known) {
  if (d.getRank() == 0)
    return "the descriptor has no dimensions";
  std::vector<SmallVector<VectorRun>> levels = allRuns(d, known);
  // Follow the last top dim down: the entry that makes it, and the lower
  // dim its run comes from (merge: the innermost; others: the one at the
  // same position, or the only one).
  SmallVector<std::string> steps;
  int64_t dim = d.getRank() - 1;
  ArrayRef<Stage> stages = d.getStages();
  for (size_t s = stages.size(); s-- > 0;) {
    for (const StageEntry &e : stages[s]) {
      auto at = llvm::find(e.upperDims, dim);
      if (at == e.upperDims.end())
        continue;
      size_t pos = at - e.upperDims.begin();
      VectorRun up = levels[s + 1][dim];
      if (e.lowerDims.empty()) {
        steps.push_back(llvm::formatv("stage {0}, {1}: a run of {2} with "
                                      "stride {3}",
                                      s + 1, formatEntry(e), up.length,
                                      up.stride));
        dim = -1;
        break;
      }
      int64_t next = e.lowerDims.size() == 1 ? e.lowerDims[0]
                     : e.transform.getKind() == TransformKind::Merge
                         ? e.lowerDims.back()
                         : e.lowerDims[std::min(pos, e.lowerDims.size() - 1)];
      VectorRun low = levels[s][next];
      if (up.length < low.length || (up.length > 1 && low.length == 1))
        steps.push_back(llvm::formatv(
            "stage {0}, {1} takes the run of {2} (stride {3}) of its lower "
            "dim {4} to {5}",
            s + 1, formatEntry(e), low.length, low.stride, next, up.length));
      dim = next;
      break;
    }
    if (dim < 0)
      break;
  }
  if (dim >= 0) {
    KnownParams k{known};
    Known stride = formulas::baseStrides(d, k)[dim];
    Known length = k.param(d.getBaseLengths()[dim]);
    if (!stride.exact)
      steps.push_back(llvm::formatv("the base dim {0} it comes from has a "
                                    "run-time stride",
                                    dim));
    else if (stride.value != 1)
      steps.push_back(llvm::formatv("the base dim {0} it comes from has "
                                    "stride {1}",
                                    dim, stride.value));
    else if (!length.exact)
      steps.push_back(llvm::formatv(
          "the base dim {0} it comes from has a run-time length known to be "
          "a multiple of {1} (layout.assume_multiple or layout.multiple_of "
          "state more)",
          dim, length.value));
  }
  VectorRun top = levels.back().back();
  if (top.length == d.getLengths().back() && top.stride == 1)
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "the last dimension has runs of " << top.length << " with stride "
     << top.stride;
  for (const std::string &step : llvm::reverse(steps))
    os << "; " << step;
  return s;
}
