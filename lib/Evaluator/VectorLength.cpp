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
#include "layout/Evaluator/Formulas.h"

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
/// lower dim that is one run (`whole`) has no edges to cross.
void linearRuns(VectorRun lower, bool whole, ArrayRef<int64_t> lengths,
                ArrayRef<int64_t> coefficients,
                SmallVectorImpl<VectorRun> &upper) {
  for (size_t j = 0; j < lengths.size(); ++j) {
    int64_t c = coefficients[j];
    if (c == 0 || whole) {
      upper.push_back({lengths[j], c * lower.stride});
      continue;
    }
    int64_t room = lower.length;
    for (size_t i = 0; i < lengths.size(); ++i)
      if (i != j && lengths[i] > 1)
        room = gcd(room, coefficients[i]);
    int64_t l = room % c == 0 ? gcd(lengths[j], room / c) : 1;
    upper.push_back({l, l > 1 ? c * lower.stride : 0});
  }
}

} // namespace

void mlir::layout::upperRuns(const Transform &t, ArrayRef<VectorRun> lower,
                             ArrayRef<int64_t> lowerLengths,
                             SmallVectorImpl<VectorRun> &upper) {
  ArrayRef<int64_t> lengths = t.getLengths();
  // Whether lower dim i is one run: then shifts within it cross no edge.
  auto whole = [&](size_t i) { return lower[i].length == lowerLengths[i]; };
  SmallVector<int64_t> upperLengths = t.getUpperLengths();
  size_t first = upper.size();
  switch (t.getKind()) {
  case TransformKind::PassThrough:
    upper.push_back(lower[0]);
    break;
  case TransformKind::Pad:
    // Valid from left to left + L: both edges must fall between runs.
    upper.push_back(shiftedRun(lower[0], gcd(t.getParam(0), t.getParam(1)),
                               upperLengths[0]));
    break;
  case TransformKind::LeftPad:
  case TransformKind::RightPad:
    upper.push_back(shiftedRun(lower[0], t.getParam(0), upperLengths[0]));
    break;
  case TransformKind::Offset:
  case TransformKind::Slice:
    // u + begin stays inside the lower dim (checkLowerLengths): inside one
    // run, the whole upper dim is one.
    upper.push_back(whole(0)
                        ? VectorRun{upperLengths[0], lower[0].stride}
                        : shiftedRun(lower[0], t.getParam(0), upperLengths[0]));
    break;
  case TransformKind::Modulo:
    // u mod m: runs within one period.
    upper.push_back(shiftedRun(lower[0], t.getParam(0), upperLengths[0]));
    break;
  case TransformKind::Embed:
    linearRuns(lower[0], whole(0), lengths, t.getCoefficients(), upper);
    break;
  case TransformKind::Unmerge:
    linearRuns(lower[0], whole(0), lengths, formulas::suffixProducts(lengths),
               upper);
    break;
  case TransformKind::Merge: {
    // The innermost digit moves first: a run of its lower dim, extended
    // outward while a whole inner dim is one run and the next dim out
    // continues it (its stride = inner length x inner stride), as CuTe's
    // coalesce joins modes.
    size_t n = lengths.size();
    VectorRun run{gcd(lengths[n - 1], lower[n - 1].length),
                  lower[n - 1].stride};
    int64_t inner = lengths[n - 1];
    for (size_t i = n - 1; i-- > 0;) {
      if (run.length != inner || lower[i].stride != inner * run.stride ||
          lengths[i] == 1)
        break;
      int64_t g = gcd(lengths[i], lower[i].length);
      run.length *= g;
      if (g != lengths[i])
        break;
      inner *= lengths[i];
    }
    if (run.length == 1)
      run.stride = 0;
    upper.push_back(run);
    break;
  }
  case TransformKind::Replicate:
    for (int64_t l : lengths)
      upper.push_back({l, 0});
    break;
  case TransformKind::Freeze:
    break;
  case TransformKind::Swizzle: {
    // Bits below M, and below M + S when the field comes from lower bits,
    // pass through unchanged.
    int64_t bits = t.getParam(0), base = t.getParam(1), shift = t.getParam(2);
    int64_t keep = bits == 0 ? upperLengths[0]
                   : std::min(base, base + shift) <= 0
                       ? 1
                       : int64_t(1) << std::min(base, base + shift);
    upper.push_back(shiftedRun(lower[0], keep, upperLengths[0]));
    break;
  }
  case TransformKind::Xor:
  case TransformKind::Rotate:
    // Dim 0 passes through when dim 1 has length 1 (nothing to mix); dim 1
    // moves with dim 0's value, so nothing is guaranteed.
    upper.push_back(lengths[1] == 1 ? lower[0] : VectorRun{});
    upper.push_back(lengths[1] == 1 ? lower[1] : VectorRun{});
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
static std::vector<SmallVector<VectorRun>> allRuns(const Descriptor &d) {
  std::vector<SmallVector<VectorRun>> levels;
  // The base indexes the linear buffer: each dim is one run of its whole
  // length with its stride.
  SmallVector<VectorRun> base;
  for (auto [l, s] : llvm::zip_equal(d.getBaseLengths(), d.getBaseStrides()))
    base.push_back(l > 1 ? VectorRun{l, s} : VectorRun{});
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
      upperRuns(e.transform, lower, lowerLengths, upper);
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

SmallVector<VectorRun> mlir::layout::topRuns(const Descriptor &d) {
  return allRuns(d).back();
}

VectorRun mlir::layout::lastDimRun(const Descriptor &d) {
  if (d.getRank() == 0)
    return {};
  return topRuns(d).back();
}

namespace {

/// The index algebra of divisors (Formulas.h): a value stands for "some
/// multiple of v" (0: exactly 0). Running the transforms' own formulas in
/// it says what each lower index, and the offset, is a multiple of, so the
/// divisor rules are not written a second time: u - left is a multiple of
/// gcd(d, left), (u / P) mod l of gcd(d / P, l) when P divides d, an xor
/// of the smaller power of two, a select of the gcd of both sides.
struct DivisorAlgebra {
  using Value = int64_t;
  /// Conditions carry nothing: a select keeps what both sides share.
  struct Bool {};
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
                                 SmallVectorImpl<int64_t> &l) {
  DivisorAlgebra a;
  formulas::lowerIndex(t, a, u, l);
}

int64_t mlir::layout::offsetDivisor(const Descriptor &d, int64_t lastMultiple) {
  // The top indices: any (multiples of 1), the last a multiple of
  // `lastMultiple`; the descriptor's own offset formula does the rest.
  SmallVector<int64_t> top(d.getRank(), 1);
  if (!top.empty())
    top.back() = lastMultiple;
  DivisorAlgebra a;
  return formulas::offset(d, a, top);
}

std::string mlir::layout::explainLastDimRun(const Descriptor &d) {
  if (d.getRank() == 0)
    return "the descriptor has no dimensions";
  std::vector<SmallVector<VectorRun>> levels = allRuns(d);
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
    int64_t stride = d.getBaseStrides()[dim];
    if (stride != 1)
      steps.push_back(llvm::formatv("the base dim {0} it comes from has "
                                    "stride {1}",
                                    dim, stride));
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
