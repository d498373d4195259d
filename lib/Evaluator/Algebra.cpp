//===- Algebra.cpp - CuTe's layout algebra on strided layouts -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The definitions follow CuTe's layout-algebra documentation (CUTLASS,
// media/docs/cpp/cute/02_layout_algebra.md): coalesce's four binary rules,
// composition's "divide out the stride, then mod out the shape" with its
// stride and shape divisibility conditions, complement over the modes
// sorted by stride, divide as A o (B, B*), product as (A, A* o B), and the
// inverses from the leaves sorted by stride.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Algebra.h"
#include "layout/Evaluator/IndexAlgebra.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir::layout;
using llvm::Error;
using Leaves = std::vector<std::pair<int64_t, int64_t>>;

static Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static Error overflow(llvm::StringRef what) {
  return makeError(llvm::Twine(what) + " overflows int64");
}

/// ceil(a / b) for a >= 0, b > 0, without overflow.
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

//===----------------------------------------------------------------------===//
// StridedLayout
//===----------------------------------------------------------------------===//

llvm::Expected<StridedLayout> StridedLayout::leaf(int64_t size,
                                                  int64_t stride) {
  if (size <= 0)
    return makeError(llvm::formatv("a size must be positive, got {0}", size));
  if (stride < 0)
    return makeError(
        llvm::formatv("a stride must be non-negative, got {0}", stride));
  if (!checkedMul(size - 1, stride))
    return overflow("the extent of " + std::to_string(size) + ":" +
                    std::to_string(stride));
  StridedLayout l;
  l.sizeValue = size;
  l.strideValue = stride;
  return l;
}

llvm::Expected<StridedLayout>
StridedLayout::tuple(llvm::ArrayRef<StridedLayout> modes) {
  if (modes.empty())
    return makeError("a tuple needs at least one mode");
  StridedLayout l;
  l.modes.assign(modes.begin(), modes.end());
  // The size and the largest offset fit int64 (an invariant of every
  // layout: evaluation and cosize never wrap).
  int64_t span = 0;
  for (const StridedLayout &m : modes) {
    std::optional<int64_t> s = checkedMul(l.sizeValue, m.size());
    if (!s)
      return overflow("the size of the layout");
    l.sizeValue = *s;
    std::optional<int64_t> t = checkedAdd(span, m.cosize() - 1);
    if (!t || *t == std::numeric_limits<int64_t>::max())
      return overflow("the extent of the layout");
    span = *t;
  }
  return l;
}

llvm::Expected<StridedLayout>
StridedLayout::flat(llvm::ArrayRef<int64_t> sizes,
                    llvm::ArrayRef<int64_t> strides) {
  if (sizes.size() != strides.size() || sizes.empty())
    return makeError(llvm::formatv(
        "a flat layout needs as many strides as sizes, at least one; got {0} "
        "and {1}",
        sizes.size(), strides.size()));
  std::vector<StridedLayout> modes;
  for (auto [s, d] : llvm::zip_equal(sizes, strides)) {
    llvm::Expected<StridedLayout> l = leaf(s, d);
    if (!l)
      return l.takeError();
    modes.push_back(std::move(*l));
  }
  if (modes.size() == 1)
    return modes.front();
  return tuple(modes);
}

std::vector<std::pair<int64_t, int64_t>> StridedLayout::leaves() const {
  if (isLeaf())
    return {{sizeValue, strideValue}};
  Leaves out;
  for (const StridedLayout &m : modes) {
    Leaves sub = m.leaves();
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

int64_t StridedLayout::cosize() const {
  // Fits int64: leaf() and tuple() check it.
  int64_t c = 1;
  for (auto [s, d] : leaves())
    c += (s - 1) * d;
  return c;
}

int64_t StridedLayout::operator()(int64_t index) const {
  // The last leaf takes what is left (CuTe extends the last mode past the
  // size, which composition relies on).
  Leaves ls = leaves();
  int64_t offset = 0;
  for (auto [k, leaf] : llvm::enumerate(ls)) {
    auto [s, d] = leaf;
    int64_t c = k + 1 == ls.size() ? index : index % s;
    offset = wrappingAdd(offset, wrappingMul(c, d));
    index /= s;
  }
  return offset;
}

int64_t StridedLayout::at(llvm::ArrayRef<int64_t> coordinate) const {
  int64_t offset = 0;
  for (unsigned i = 0; i < rank() && i < coordinate.size(); ++i)
    offset = wrappingAdd(offset, mode(i)(coordinate[i]));
  return offset;
}

static void printShape(const StridedLayout &l, llvm::raw_ostream &os,
                       bool strides) {
  if (l.isLeaf()) {
    os << (strides ? l.stride() : l.size());
    return;
  }
  os << "(";
  for (unsigned i = 0; i < l.rank(); ++i) {
    if (i)
      os << ",";
    printShape(l.mode(i), os, strides);
  }
  os << ")";
}

std::string StridedLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  printShape(*this, os, false);
  os << ":";
  printShape(*this, os, true);
  return s;
}

namespace {
/// A recursive-descent reader of CuTe's notation.
struct NotationParser {
  llvm::StringRef text;
  size_t pos = 0;

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '_'))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  /// A tree of integers: a leaf holds `value`.
  struct Tree {
    int64_t value = 0;
    std::vector<Tree> children;
  };
  llvm::Expected<Tree> tree() {
    Tree t;
    if (consume('(')) {
      do {
        llvm::Expected<Tree> c = tree();
        if (!c)
          return c.takeError();
        t.children.push_back(std::move(*c));
      } while (consume(','));
      if (!consume(')'))
        return error("')'");
      return t;
    }
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (start == pos ||
        text.substr(start, pos - start).getAsInteger(10, t.value))
      return error("an integer");
    return t;
  }
  Error error(llvm::StringRef expected) {
    return makeError(llvm::formatv("expected {0} at column {1} of '{2}'",
                                   expected, pos + 1, text));
  }
};
} // namespace

static llvm::Expected<StridedLayout>
fromTrees(const NotationParser::Tree &shape, const NotationParser::Tree &stride,
          llvm::StringRef text) {
  if (shape.children.size() != stride.children.size())
    return makeError(llvm::formatv(
        "the shape and the stride of '{0}' differ in structure", text));
  if (shape.children.empty())
    return StridedLayout::leaf(shape.value, stride.value);
  std::vector<StridedLayout> modes;
  for (auto [sh, st] : llvm::zip_equal(shape.children, stride.children)) {
    llvm::Expected<StridedLayout> m = fromTrees(sh, st, text);
    if (!m)
      return m.takeError();
    modes.push_back(std::move(*m));
  }
  return StridedLayout::tuple(modes);
}

llvm::Expected<StridedLayout> StridedLayout::parse(llvm::StringRef text) {
  NotationParser p{text};
  llvm::Expected<NotationParser::Tree> shape = p.tree();
  if (!shape)
    return shape.takeError();
  if (!p.consume(':'))
    return p.error("':'");
  llvm::Expected<NotationParser::Tree> stride = p.tree();
  if (!stride)
    return stride.takeError();
  p.skipSpace();
  if (p.pos != text.size())
    return p.error("the end");
  return fromTrees(*shape, *stride, text);
}

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

llvm::Expected<Descriptor> StridedLayout::toDescriptor() const {
  llvm::SmallVector<int64_t> lengths, strides;
  Stage stage;
  bool merges = false;
  for (unsigned m = 0; m < rank(); ++m) {
    Leaves ls = mode(m).leaves();
    int64_t first = lengths.size();
    for (auto [s, d] : ls) {
      lengths.push_back(s);
      strides.push_back(d);
    }
    if (ls.size() == 1) {
      stage.push_back(makeEntry(Transform::passThrough(ls[0].first), {first},
                                {int64_t(m)}));
      continue;
    }
    merges = true;
    llvm::SmallVector<int64_t> mergeLengths, lowerDims;
    for (int64_t k = ls.size(); k-- > 0;) {
      mergeLengths.push_back(ls[k].first);
      lowerDims.push_back(first + k);
    }
    stage.push_back(
        makeEntry(Transform::merge(mergeLengths), lowerDims, {int64_t(m)}));
  }
  llvm::Expected<Descriptor> d = Descriptor::naive(lengths, strides);
  if (!d || !merges)
    return d;
  if (Error e = d->addStage(stage))
    return std::move(e);
  return d;
}

llvm::Expected<StridedLayout>
StridedLayout::fromDescriptor(const Descriptor &d) {
  if (d.getBaseOffset() != 0)
    return makeError(llvm::formatv(
        "the base has offset {0}; the algebra's layouts start at 0",
        d.getBaseOffset()));
  std::vector<StridedLayout> modes;
  for (auto [s, st] : llvm::zip_equal(d.getBaseLengths(), d.getBaseStrides())) {
    llvm::Expected<StridedLayout> l = leaf(s, st);
    if (!l)
      return l.takeError();
    modes.push_back(std::move(*l));
  }
  for (auto [i, stage] : llvm::enumerate(d.getStages())) {
    size_t rank = 0;
    for (const StageEntry &e : stage)
      rank += e.upperDims.size();
    std::vector<StridedLayout> next(rank, modes.front());
    for (const StageEntry &e : stage) {
      const Transform &t = e.transform;
      auto refuse = [&](llvm::StringRef why) {
        return makeError(
            llvm::formatv("stage {0}, {1} {2}", i + 1, formatEntry(e), why));
      };
      // Mode `k` of the upper dims as `lower o (size:stride)`.
      auto composeInto = [&](unsigned k, int64_t size,
                             int64_t stride) -> Error {
        llvm::Expected<StridedLayout> b = leaf(size, stride);
        if (!b)
          return b.takeError();
        llvm::Expected<StridedLayout> c =
            algebra::composition(modes[e.lowerDims[0]], *b);
        if (!c)
          return refuse(llvm::toString(c.takeError()));
        next[e.upperDims[k]] = std::move(*c);
        return Error::success();
      };
      llvm::ArrayRef<int64_t> lens = t.getLengths();
      switch (t.getKind()) {
      case TransformKind::PassThrough:
        next[e.upperDims[0]] = modes[e.lowerDims[0]];
        break;
      case TransformKind::Merge: {
        // Row-major over the lower dims: the last one is the fastest leaf.
        std::vector<StridedLayout> parts;
        for (int64_t k = e.lowerDims.size(); k-- > 0;)
          parts.push_back(modes[e.lowerDims[k]]);
        llvm::Expected<StridedLayout> m = tuple(parts);
        if (!m)
          return m.takeError();
        next[e.upperDims[0]] = std::move(*m);
        break;
      }
      case TransformKind::Unmerge: {
        // The upper dims' strides in the lower index (the unmerge's own
        // formula: row-major suffix products).
        llvm::SmallVector<int64_t, 4> p = formulas::suffixProducts(lens);
        for (size_t k = 0; k < lens.size(); ++k)
          if (Error err = composeInto(k, lens[k], p[k]))
            return std::move(err);
        break;
      }
      case TransformKind::Embed:
        for (size_t k = 0; k < lens.size(); ++k)
          if (Error err = composeInto(k, lens[k], t.getCoefficients()[k]))
            return std::move(err);
        break;
      case TransformKind::Replicate:
        for (size_t k = 0; k < lens.size(); ++k) {
          llvm::Expected<StridedLayout> l = leaf(lens[k], 0);
          if (!l)
            return l.takeError();
          next[e.upperDims[k]] = std::move(*l);
        }
        break;
      case TransformKind::Offset:
      case TransformKind::Slice:
        if (t.getParam(0) != 0)
          return refuse("shifts its dim; the algebra's layouts start at 0");
        if (Error err = composeInto(0, t.getUpperLengths()[0], 1))
          return std::move(err);
        break;
      case TransformKind::Freeze:
        if (t.getParam(0) != 0)
          return refuse("adds a constant offset; the algebra's layouts start "
                        "at 0");
        break;
      default:
        return refuse("is not strided: the algebra is defined on pass_through, "
                      "merge, unmerge, embed, replicate, and offset, slice or "
                      "freeze at 0");
      }
    }
    modes = std::move(next);
  }
  return tuple(modes);
}

//===----------------------------------------------------------------------===//
// The algebra
//===----------------------------------------------------------------------===//

/// The coalesced leaves of `leaves` (CuTe's binary rules); never empty.
static Leaves coalesceLeaves(const Leaves &leaves) {
  Leaves out;
  for (auto [s, d] : leaves) {
    if (s == 1)
      continue;
    std::optional<int64_t> next =
        out.empty() ? std::nullopt
                    : checkedMul(out.back().first, out.back().second);
    if (next && d == *next) {
      out.back().first *= s;
      continue;
    }
    out.emplace_back(s, d);
  }
  if (out.empty())
    out.emplace_back(1, 0);
  return out;
}

/// A layout from leaves (one leaf, or a flat tuple); fails when its size or
/// extent overflows int64.
static llvm::Expected<StridedLayout> fromLeaves(const Leaves &leaves) {
  llvm::SmallVector<int64_t> sizes, strides;
  for (auto [s, d] : leaves) {
    sizes.push_back(s);
    strides.push_back(d);
  }
  return StridedLayout::flat(sizes, strides);
}

StridedLayout algebra::coalesce(const StridedLayout &a) {
  // The same function on the same indices: the same size and extent.
  return cantFail(fromLeaves(coalesceLeaves(a.leaves())));
}

StridedLayout algebra::coalesceByMode(const StridedLayout &a) {
  if (a.rank() == 1 && a.isLeaf())
    return coalesce(a);
  std::vector<StridedLayout> modes;
  for (unsigned i = 0; i < a.rank(); ++i)
    modes.push_back(coalesce(a.mode(i)));
  return cantFail(StridedLayout::tuple(modes));
}

/// A o (s:d) (CuTe's composition_impl): divide d out of A's coalesced
/// shape from the left, then keep the first s elements.
static llvm::Expected<StridedLayout> composeLeaf(const StridedLayout &a,
                                                 int64_t s, int64_t d) {
  if (s == 1)
    return StridedLayout::leaf(1, 0);
  if (d == 0)
    return StridedLayout::leaf(s, 0);
  Leaves flat = coalesceLeaves(a.leaves());
  Leaves result;
  int64_t restShape = s, restStride = d;
  for (size_t i = 0; i + 1 < flat.size(); ++i) {
    auto [shape, stride] = flat[i];
    if (restStride % shape != 0 && shape % restStride != 0)
      return makeError(llvm::formatv(
          "composition with {0}:{1} breaks CuTe's stride divisibility "
          "condition: the remaining stride {2} and the size {3} of the "
          "coalesced mode {4} of {5} do not divide one another",
          s, d, restStride, shape, i, a.str()));
    int64_t nextShape = ceilDiv(shape, restStride);
    int64_t nextStride = ceilDiv(restStride, shape);
    if (nextShape == 1 || restShape == 1) {
      restStride = nextStride;
      continue;
    }
    int64_t newShape = std::min(nextShape, restShape);
    if (restShape % newShape != 0)
      return makeError(llvm::formatv(
          "composition with {0}:{1} breaks CuTe's shape divisibility "
          "condition: the remaining size {2} is not a multiple of {3}, what "
          "mode {4} of {5} holds",
          s, d, restShape, newShape, i, a.str()));
    std::optional<int64_t> newStride = checkedMul(restStride, stride);
    if (!newStride)
      return overflow("a stride of the composition");
    result.emplace_back(newShape, *newStride);
    restShape /= newShape;
    restStride = nextStride;
  }
  if (restShape != 1 || result.empty()) {
    std::optional<int64_t> newStride =
        checkedMul(restStride, flat.back().second);
    if (!newStride)
      return overflow("a stride of the composition");
    result.emplace_back(restShape, *newStride);
  }
  return fromLeaves(result);
}

llvm::Expected<StridedLayout> algebra::composition(const StridedLayout &a,
                                                   const StridedLayout &b) {
  if (b.isLeaf())
    return composeLeaf(a, b.size(), b.stride());
  std::vector<StridedLayout> modes;
  for (unsigned i = 0; i < b.rank(); ++i) {
    llvm::Expected<StridedLayout> m = composition(a, b.mode(i));
    if (!m)
      return m.takeError();
    modes.push_back(std::move(*m));
  }
  return StridedLayout::tuple(modes);
}

/// Applies `f` to the leading modes of `a` with the tiler's layouts; the
/// other modes stay.
template <typename F>
static llvm::Expected<StridedLayout>
byMode(const StridedLayout &a, llvm::ArrayRef<StridedLayout> tiler, F f) {
  if (tiler.size() > a.rank())
    return makeError(
        llvm::formatv("the tiler has {0} modes but the layout {1} only {2}",
                      tiler.size(), a.str(), a.rank()));
  std::vector<StridedLayout> modes;
  for (unsigned i = 0; i < a.rank(); ++i) {
    if (i >= tiler.size()) {
      modes.push_back(a.mode(i));
      continue;
    }
    llvm::Expected<StridedLayout> m = f(a.mode(i), tiler[i]);
    if (!m)
      return m.takeError();
    modes.push_back(std::move(*m));
  }
  return StridedLayout::tuple(modes);
}

llvm::Expected<StridedLayout>
algebra::composition(const StridedLayout &a,
                     llvm::ArrayRef<StridedLayout> tiler) {
  return byMode(a, tiler, [](const StridedLayout &x, const StridedLayout &y) {
    return composition(x, y);
  });
}

llvm::Expected<StridedLayout> algebra::complement(const StridedLayout &a,
                                                  int64_t m) {
  if (m <= 0)
    return makeError(
        llvm::formatv("the complement's codomain size must be positive, got "
                      "{0}",
                      m));
  Leaves sorted;
  for (auto [s, d] : a.leaves())
    if (s > 1 && d != 0)
      sorted.emplace_back(s, d);
  llvm::stable_sort(sorted, [](auto x, auto y) { return x.second < y.second; });
  Leaves result;
  int64_t current = 1;
  for (auto [s, d] : sorted) {
    if (d < current)
      return makeError(llvm::formatv(
          "{0} has no complement: stride {1} is below {2}, the extent of the "
          "modes with smaller strides (CuTe's complement needs the modes, "
          "sorted by stride, not to overlap)",
          a.str(), d, current));
    if (d % current != 0)
      return makeError(llvm::formatv(
          "{0} has no complement: stride {1} is not a multiple of {2}, the "
          "extent of the modes with smaller strides",
          a.str(), d, current));
    result.emplace_back(d / current, current);
    std::optional<int64_t> next = checkedMul(s, d);
    if (!next)
      return overflow("the extent of the layout");
    current = *next;
  }
  result.emplace_back(ceilDiv(m, current), current);
  return fromLeaves(coalesceLeaves(result));
}

llvm::Expected<StridedLayout> algebra::logicalDivide(const StridedLayout &a,
                                                     const StridedLayout &b) {
  llvm::Expected<StridedLayout> rest = complement(b, a.size());
  if (!rest)
    return rest.takeError();
  llvm::Expected<StridedLayout> both = StridedLayout::tuple({b, *rest});
  if (!both)
    return both.takeError();
  return composition(a, *both);
}

llvm::Expected<StridedLayout>
algebra::logicalDivide(const StridedLayout &a,
                       llvm::ArrayRef<StridedLayout> tiler) {
  return byMode(a, tiler, [](const StridedLayout &x, const StridedLayout &y) {
    return logicalDivide(x, y);
  });
}

/// A by-mode logical divide split into its tiles (one mode holding every
/// tile mode) and its rests (each rest mode, then the modes beyond the
/// tiler): what zipped and tiled divide regroup.
static llvm::Expected<std::pair<StridedLayout, std::vector<StridedLayout>>>
divideParts(const StridedLayout &a, llvm::ArrayRef<StridedLayout> tiler) {
  if (tiler.empty())
    return makeError("the tiler is empty");
  llvm::Expected<StridedLayout> d = algebra::logicalDivide(a, tiler);
  if (!d)
    return d.takeError();
  std::vector<StridedLayout> tiles, rests;
  for (unsigned i = 0; i < d->rank(); ++i) {
    if (i < tiler.size()) {
      tiles.push_back(d->mode(i).mode(0));
      rests.push_back(d->mode(i).mode(1));
    } else {
      rests.push_back(d->mode(i));
    }
  }
  // Modes of the divide, whose size and extent were checked: no overflow.
  return std::make_pair(cantFail(StridedLayout::tuple(tiles)), rests);
}

llvm::Expected<StridedLayout>
algebra::zippedDivide(const StridedLayout &a,
                      llvm::ArrayRef<StridedLayout> tiler) {
  auto parts = divideParts(a, tiler);
  if (!parts)
    return parts.takeError();
  return StridedLayout::tuple(
      {parts->first, cantFail(StridedLayout::tuple(parts->second))});
}

llvm::Expected<StridedLayout>
algebra::tiledDivide(const StridedLayout &a,
                     llvm::ArrayRef<StridedLayout> tiler) {
  auto parts = divideParts(a, tiler);
  if (!parts)
    return parts.takeError();
  std::vector<StridedLayout> modes = {parts->first};
  modes.insert(modes.end(), parts->second.begin(), parts->second.end());
  return StridedLayout::tuple(modes);
}

llvm::Expected<StridedLayout> algebra::zippedDivide(const StridedLayout &a,
                                                    const StridedLayout &b) {
  return logicalDivide(a, b);
}

llvm::Expected<StridedLayout> algebra::tiledDivide(const StridedLayout &a,
                                                   const StridedLayout &b) {
  llvm::Expected<StridedLayout> d = logicalDivide(a, b);
  if (!d)
    return d.takeError();
  std::vector<StridedLayout> modes = {d->mode(0)};
  const StridedLayout &rest = d->mode(1);
  for (unsigned i = 0; i < rest.rank(); ++i)
    modes.push_back(rest.mode(i));
  return StridedLayout::tuple(modes);
}

llvm::Expected<StridedLayout> algebra::logicalProduct(const StridedLayout &a,
                                                      const StridedLayout &b) {
  std::optional<int64_t> m = checkedMul(a.size(), b.cosize());
  if (!m)
    return overflow("size(A) * cosize(B)");
  llvm::Expected<StridedLayout> rest = complement(a, *m);
  if (!rest)
    return rest.takeError();
  llvm::Expected<StridedLayout> repeated = composition(*rest, b);
  if (!repeated)
    return repeated.takeError();
  return StridedLayout::tuple({a, *repeated});
}

llvm::Expected<StridedLayout>
algebra::logicalProduct(const StridedLayout &a,
                        llvm::ArrayRef<StridedLayout> tiler) {
  return byMode(a, tiler, [](const StridedLayout &x, const StridedLayout &y) {
    return logicalProduct(x, y);
  });
}

/// The modes of `l` padded with 1:0 to `rank`, as a tuple.
static StridedLayout padded(const StridedLayout &l, unsigned rank) {
  std::vector<StridedLayout> modes;
  for (unsigned i = 0; i < rank; ++i)
    modes.push_back(i < l.rank() ? l.mode(i)
                                 : cantFail(StridedLayout::leaf(1, 0)));
  return cantFail(StridedLayout::tuple(modes));
}

static llvm::Expected<StridedLayout>
zippedProduct(const StridedLayout &a, const StridedLayout &b, bool raked) {
  unsigned rank = std::max(a.rank(), b.rank());
  StridedLayout pa = padded(a, rank), pb = padded(b, rank);
  llvm::Expected<StridedLayout> p = algebra::logicalProduct(pa, pb);
  if (!p)
    return p.takeError();
  std::vector<StridedLayout> modes;
  for (unsigned i = 0; i < rank; ++i) {
    const StridedLayout &x = p->mode(0).mode(i), &y = p->mode(1).mode(i);
    llvm::Expected<StridedLayout> m =
        raked ? StridedLayout::tuple({y, x}) : StridedLayout::tuple({x, y});
    if (!m)
      return m.takeError();
    modes.push_back(std::move(*m));
  }
  return algebra::coalesceByMode(cantFail(StridedLayout::tuple(modes)));
}

llvm::Expected<StridedLayout> algebra::blockedProduct(const StridedLayout &a,
                                                      const StridedLayout &b) {
  return zippedProduct(a, b, /*raked=*/false);
}

llvm::Expected<StridedLayout> algebra::rakedProduct(const StridedLayout &a,
                                                    const StridedLayout &b) {
  return zippedProduct(a, b, /*raked=*/true);
}

namespace {
/// A coalesced leaf with its weight in the 1-D index (the product of the
/// sizes of the leaves before it).
struct WeightedLeaf {
  int64_t size, stride, weight;
};
} // namespace

/// The coalesced leaves of `a` with a non-zero stride, sorted by stride.
static std::vector<WeightedLeaf> sortedLeaves(const StridedLayout &a) {
  std::vector<WeightedLeaf> out;
  int64_t weight = 1;
  for (auto [s, d] : coalesceLeaves(a.leaves())) {
    if (d != 0 && s > 1)
      out.push_back({s, d, weight});
    weight = wrappingMul(weight, s);
  }
  llvm::stable_sort(out, [](const WeightedLeaf &x, const WeightedLeaf &y) {
    return x.stride < y.stride;
  });
  return out;
}

StridedLayout algebra::rightInverse(const StridedLayout &a) {
  Leaves result;
  int64_t current = 1;
  for (const WeightedLeaf &l : sortedLeaves(a)) {
    if (l.stride != current)
      break;
    result.emplace_back(l.size, l.weight);
    current *= l.size;
  }
  // R's offsets are indices of A (below size(A)): no overflow.
  return cantFail(fromLeaves(coalesceLeaves(result)));
}

llvm::Expected<StridedLayout> algebra::leftInverse(const StridedLayout &a) {
  // Leaves of stride 0 are left out (CuTe's filter): L(A(i)) is then the
  // index of i with those coordinates at 0.
  std::vector<WeightedLeaf> sorted = sortedLeaves(a);
  if (sorted.empty())
    return StridedLayout::leaf(1, 0);
  Leaves result;
  if (sorted.front().stride > 1)
    result.emplace_back(sorted.front().stride, 0);
  for (size_t j = 0; j + 1 < sorted.size(); ++j) {
    const WeightedLeaf &x = sorted[j], &y = sorted[j + 1];
    if (y.stride % x.stride != 0)
      return makeError(llvm::formatv(
          "{0} has no left inverse as a layout: stride {1} is not a multiple "
          "of stride {2}",
          a.str(), y.stride, x.stride));
    if (y.stride / x.stride < x.size)
      return makeError(llvm::formatv(
          "{0} is not injective: the mode of size {1} and stride {2} "
          "overlaps the mode of stride {3}, so it has no left inverse",
          a.str(), x.size, x.stride, y.stride));
    result.emplace_back(y.stride / x.stride, x.weight);
  }
  result.emplace_back(sorted.back().size, sorted.back().weight);
  return fromLeaves(coalesceLeaves(result));
}

llvm::Expected<StridedLayout>
algebra::withTiler(TilerFunction function, const StridedLayout &a,
                   llvm::ArrayRef<StridedLayout> tiler, TilerKind kind) {
  if (tiler.empty())
    return makeError("the tiler is empty");
  if (kind == TilerKind::Layout && tiler.size() != 1)
    return makeError(
        llvm::formatv("a layout tiler is one layout, got {0}", tiler.size()));
  bool layout = kind == TilerKind::Layout;
  const StridedLayout &b = tiler.front();
  switch (function) {
  case TilerFunction::Composition:
    return layout ? composition(a, b) : composition(a, tiler);
  case TilerFunction::LogicalDivide:
    return layout ? logicalDivide(a, b) : logicalDivide(a, tiler);
  case TilerFunction::ZippedDivide:
    return layout ? zippedDivide(a, b) : zippedDivide(a, tiler);
  case TilerFunction::TiledDivide:
    return layout ? tiledDivide(a, b) : tiledDivide(a, tiler);
  case TilerFunction::LogicalProduct:
    return layout ? logicalProduct(a, b) : logicalProduct(a, tiler);
  }
  llvm_unreachable("unknown tiler function");
}
