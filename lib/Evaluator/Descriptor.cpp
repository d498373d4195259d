//===- Descriptor.cpp - Tensor descriptors and their evaluator ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/DescriptorFormulas.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::Error;
using llvm::SmallVector;

static Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

static std::string joinInts(ArrayRef<int64_t> values,
                            llvm::StringRef sep = ", ") {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      values, os,
      [&](int64_t v) {
        if (mlir::layout::isDynamic(v))
          os << "?";
        else
          os << v;
      },
      sep);
  return s;
}

/// The values in IR operand syntax: slot n as `%dyn<n>`.
static std::string joinOperands(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os, [&](int64_t v) {
    if (mlir::layout::isDynamic(v))
      os << "%dyn" << slotOf(v);
    else
      os << v;
  });
  return s;
}

std::string mlir::layout::formatEntry(const StageEntry &entry) {
  return llvm::formatv("{0} : [{1}] -> [{2}]", entry.transform.str(),
                       joinInts(entry.lowerDims), joinInts(entry.upperDims))
      .str();
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

llvm::Expected<Descriptor> Descriptor::fromStrides(ArrayRef<int64_t> lengths,
                                                   ArrayRef<int64_t> strides,
                                                   int64_t elementSpaceSize,
                                                   BaseKind kind,
                                                   int64_t align) {
  Descriptor d;
  d.baseKind = kind;
  d.baseAlign = align;
  d.elementSpaceSize = elementSpaceSize;
  d.baseLengths.assign(lengths.begin(), lengths.end());
  d.baseStrides.assign(strides.begin(), strides.end());
  d.topLengths = d.baseLengths;
  return d;
}

/// Checks the lengths of a base descriptor.
static Error checkBaseLengths(ArrayRef<int64_t> lengths) {
  if (lengths.empty())
    return makeError("'lengths' must not be empty");
  for (auto [i, l] : llvm::enumerate(lengths))
    if (l <= 0 && !mlir::layout::isDynamic(l))
      return makeError(
          llvm::formatv("'lengths' entry {0} must be positive, got {1}", i, l));
  return Error::success();
}

llvm::Expected<Descriptor> Descriptor::naive(ArrayRef<int64_t> lengths,
                                             ArrayRef<int64_t> strides,
                                             int64_t offset,
                                             std::optional<int64_t> space) {
  if (Error e = checkBaseLengths(lengths))
    return std::move(e);
  if (strides.size() != lengths.size())
    return makeError(
        llvm::formatv("'strides' has {0} entries but 'lengths' has {1}",
                      strides.size(), lengths.size()));
  if (offset < 0)
    return makeError(
        llvm::formatv("'offset' must be non-negative, got {0}", offset));
  bool dynamic = anyDynamic(lengths) || anyDynamic(strides);
  for (auto [i, stride] : llvm::enumerate(strides))
    if (stride < 0 && !mlir::layout::isDynamic(stride))
      return makeError(llvm::formatv(
          "'strides' entry {0} must be non-negative, got {1}", i, stride));
  // The least space (formulas::leastElementSpace) over the dimensions whose
  // length and stride are static, in checked arithmetic.
  CheckedInt64Params a;
  SmallVector<std::optional<int64_t>, 4> staticLengths, staticStrides;
  for (auto [len, stride] : llvm::zip_equal(lengths, strides)) {
    if (mlir::layout::isDynamic(len) || mlir::layout::isDynamic(stride))
      continue;
    staticLengths.push_back(len);
    staticStrides.push_back(stride);
  }
  std::optional<int64_t> minSpace = formulas::leastElementSpace(
      a, formulas::param(a, offset), staticLengths, staticStrides);
  if (!minSpace)
    return makeError("element space size offset + 1 + sum (len_i - 1) * "
                     "stride_i overflows int64");
  // With run-time values the least space is known at run time only (a
  // given `space` is then trusted, as a memref's size is).
  if (dynamic && !space)
    minSpace = kDynamic;
  if (!dynamic && space && *space < *minSpace)
    return makeError(llvm::formatv(
        "'space' ({0}) must be at least offset + 1 + sum (len_i - 1) * "
        "stride_i = {1}",
        *space, *minSpace));
  llvm::Expected<Descriptor> d = fromStrides(
      lengths, strides, space ? *space : *minSpace, BaseKind::Naive, 0);
  if (d) {
    d->baseOffset = offset;
    d->explicitSpace = space.has_value();
  }
  return d;
}

/// Row-major strides for `lengths` whose last row is `lastRow` elements long;
/// returns the element space size, or an error on overflow.
static llvm::Expected<int64_t> rowMajorStrides(ArrayRef<int64_t> lengths,
                                               int64_t lastRow,
                                               SmallVector<int64_t> &strides) {
  // A stride above a run-time length is `?` (formulas::baseStrides computes
  // it from the lengths).
  strides.assign(lengths.size(), 1);
  int64_t running = mlir::layout::isDynamic(lastRow) ? kDynamic : lastRow;
  for (size_t i = lengths.size() - 1; i-- > 0;) {
    strides[i] = running;
    if (mlir::layout::isDynamic(running) ||
        mlir::layout::isDynamic(lengths[i])) {
      running = kDynamic;
      continue;
    }
    std::optional<int64_t> next = checkedMul(running, lengths[i]);
    if (!next)
      return makeError("element space size overflows int64");
    running = *next;
  }
  return running;
}

llvm::Expected<Descriptor> Descriptor::packed(ArrayRef<int64_t> lengths) {
  if (Error e = checkBaseLengths(lengths))
    return std::move(e);
  SmallVector<int64_t> strides;
  llvm::Expected<int64_t> space =
      rowMajorStrides(lengths, lengths.back(), strides);
  if (!space)
    return space.takeError();
  return fromStrides(lengths, strides, *space, BaseKind::Packed, 0);
}

llvm::Expected<Descriptor> Descriptor::aligned(ArrayRef<int64_t> lengths,
                                               int64_t align) {
  if (Error e = checkBaseLengths(lengths))
    return std::move(e);
  if (align <= 0)
    return makeError(llvm::formatv("'align' must be positive, got {0}", align));
  if (anyDynamic(lengths))
    return makeError("an aligned base takes static lengths");
  int64_t last = lengths.back();
  std::optional<int64_t> rounded = checkedAdd(last, align - 1);
  if (!rounded)
    return makeError("element space size overflows int64");
  int64_t row = (*rounded / align) * align;
  SmallVector<int64_t> strides;
  llvm::Expected<int64_t> space = rowMajorStrides(lengths, row, strides);
  if (!space)
    return space.takeError();
  return fromStrides(lengths, strides, *space, BaseKind::Aligned, align);
}

llvm::Expected<SmallVector<int64_t>>
Descriptor::checkStage(ArrayRef<int64_t> oldLengths,
                       ArrayRef<StageEntry> entries) {
  int64_t oldRank = oldLengths.size();
  SmallVector<int> consumedBy(oldRank, -1);
  int64_t newRank = 0;
  for (auto [j, entry] : llvm::enumerate(entries)) {
    const Transform &t = entry.transform;
    auto fail = [&, j = j](const llvm::Twine &msg) {
      return makeError(llvm::formatv("transform {0} ({1}) ", j, t.str()) + msg);
    };
    if (Error e = t.verify())
      return fail(llvm::toString(std::move(e)));
    if (entry.lowerDims.size() != t.getNumLowerDims())
      return fail(
          llvm::formatv("consumes {0} old top dimension(s), but {1} are listed",
                        t.getNumLowerDims(), entry.lowerDims.size()));
    if (entry.upperDims.size() != t.getNumUpperDims())
      return fail(
          llvm::formatv("produces {0} new top dimension(s), but {1} are listed",
                        t.getNumUpperDims(), entry.upperDims.size()));
    for (int64_t d : entry.lowerDims) {
      if (d < 0 || d >= oldRank)
        return makeError(llvm::formatv(
            "old top dimension {0} is out of range: the descriptor has rank "
            "{1}",
            d, oldRank));
      if (consumedBy[d] >= 0)
        return makeError(
            llvm::formatv("old top dimension {0} is consumed twice (by "
                          "transforms {1} and {2})",
                          d, consumedBy[d], j));
      consumedBy[d] = j;
    }
    newRank += entry.upperDims.size();
  }
  for (int64_t d = 0; d < oldRank; ++d)
    if (consumedBy[d] < 0)
      return makeError(
          llvm::formatv("old top dimension {0} is not consumed (keep it with "
                        "#layout.pass_through<{1}>)",
                        d, oldLengths[d]));
  if (newRank == 0)
    return makeError("the stage leaves no top dimension (a descriptor has "
                     "rank >= 1)");

  SmallVector<int64_t> newLengths(newRank, 0);
  SmallVector<bool> produced(newRank, false);
  for (auto [j, entry] : llvm::enumerate(entries)) {
    SmallVector<int64_t> lowerLengths;
    for (int64_t d : entry.lowerDims)
      lowerLengths.push_back(oldLengths[d]);
    if (Error e = entry.transform.checkLowerLengths(lowerLengths))
      return makeError(
          llvm::formatv("transform {0} ({1}) ", j, entry.transform.str()) +
          llvm::toString(std::move(e)));
    SmallVector<int64_t> upperLengths = entry.transform.getUpperLengths();
    for (auto [d, len] : llvm::zip_equal(entry.upperDims, upperLengths)) {
      if (d < 0 || d >= newRank)
        return makeError(llvm::formatv(
            "new top dimension {0} is out of range: the new top dimensions "
            "must be exactly 0..{1}",
            d, newRank - 1));
      if (produced[d])
        return makeError(
            llvm::formatv("new top dimension {0} is produced twice", d));
      produced[d] = true;
      newLengths[d] = len;
    }
  }
  return newLengths;
}

llvm::Expected<Descriptor>
Descriptor::transform(ArrayRef<StageEntry> entries) const {
  Descriptor result = *this;
  if (Error e = result.addStage(entries))
    return std::move(e);
  return result;
}

Error Descriptor::addStage(ArrayRef<StageEntry> entries) {
  llvm::Expected<SmallVector<int64_t>> newLengths =
      checkStage(topLengths, entries);
  if (!newLengths)
    return newLengths.takeError();
  stages.emplace_back(entries.begin(), entries.end());
  topLengths.assign(newLengths->begin(), newLengths->end());
  return Error::success();
}

int64_t Descriptor::getNumHiddenIndices() const {
  int64_t n = baseLengths.size();
  for (const Stage &stage : stages)
    for (const StageEntry &e : stage)
      n += e.upperDims.size();
  return n;
}

bool Descriptor::isDynamic() const {
  if (anyDynamic(baseLengths) || anyDynamic(baseStrides))
    return true;
  for (const Stage &stage : stages)
    for (const StageEntry &e : stage)
      if (e.transform.isDynamic())
        return true;
  return false;
}

void Descriptor::mapDynamic(llvm::function_ref<int64_t(int64_t)> fn) {
  auto update = [&](int64_t &v) {
    if (mlir::layout::isDynamic(v))
      v = fn(v);
  };
  llvm::for_each(baseLengths, update);
  // A packed base's strides follow from its lengths.
  if (baseKind == BaseKind::Naive)
    llvm::for_each(baseStrides, update);
  for (Stage &stage : stages)
    for (StageEntry &e : stage)
      e.transform.mapDynamic(fn);
}

llvm::Expected<Descriptor>
Descriptor::instantiate(ArrayRef<int64_t> values) const {
  std::optional<int64_t> missing;
  auto valueOf = [&](int64_t v) -> int64_t {
    int64_t n = slotOf(v);
    if (n < 0 || n >= int64_t(values.size())) {
      missing = n;
      return 1;
    }
    return values[n];
  };
  Descriptor copy = *this;
  copy.mapDynamic(valueOf);
  if (missing)
    return makeError(
        llvm::formatv("run-time value {0} is not given ({1} values)", *missing,
                      values.size()));
  llvm::Expected<Descriptor> result =
      baseKind == BaseKind::Naive
          ? naive(copy.baseLengths, copy.baseStrides, baseOffset,
                  explicitSpace ? std::optional<int64_t>(elementSpaceSize)
                                : std::nullopt)
      : baseKind == BaseKind::Packed ? packed(copy.baseLengths)
                                     : aligned(copy.baseLengths, baseAlign);
  if (!result)
    return result.takeError();
  for (auto [i, stage] : llvm::enumerate(copy.stages))
    if (Error e = result->addStage(stage))
      return makeError(llvm::formatv("stage {0}: ", i + 1) +
                       llvm::toString(std::move(e)));
  return result;
}

Evaluation Descriptor::evaluate(ArrayRef<int64_t> top) const {
  if (top.size() != topLengths.size() || isDynamic())
    return {0, false};
  Int64Algebra a;
  bool valid = true;
  int64_t offset = formulas::offset(*this, a, top, &valid);
  return {offset, valid};
}

//===----------------------------------------------------------------------===//
// Inverse
//===----------------------------------------------------------------------===//

/// The kinds whose inverse keeps 0 at 0, from the kind table, for the
/// diagnostic of a shifted sunder piece.
static std::string kindsKeepingZero() {
  std::string always, ifParam0;
  for (unsigned k = 0; k < kNumTransformKinds; ++k) {
    const TransformKindInfo &info = kindInfo(static_cast<TransformKind>(k));
    if (info.keepsZero == TransformKindInfo::Never)
      continue;
    std::string &list =
        info.keepsZero == TransformKindInfo::Always ? always : ifParam0;
    list += (list.empty() ? "" : ", ") + info.mnemonic.str();
  }
  return always + "; " + ifParam0 + " when their first parameter is 0";
}

Error Descriptor::checkInvertible() const {
  // Row-major strides nest whatever the lengths (formulas::topCoordinate).
  if (Error e =
          hasRunTimeRowMajorBase()
              ? Error::success()
              : Transform::embed(baseLengths, baseStrides).checkInvertible())
    return makeError(llvm::formatv("the base (lengths [{0}], strides [{1}]) ",
                                   joinInts(baseLengths),
                                   joinInts(baseStrides)) +
                     llvm::toString(std::move(e)));
  return checkStagesInvertible();
}

Error Descriptor::checkStagesInvertible() const {
  // The coordinates of a sunder's pieces are free: only the selected one
  // matters, and the inverse picks 0 for the others. That representative
  // must stay a valid, in-bounds coordinate up to the top, and the selected
  // coordinate must invert exactly. Both hold when a piece's coordinate only
  // goes through transforms of one lower dim that map 0 to 0 (their
  // inverse then gives 0 back for 0, and the original coordinate for the
  // selected piece). A transform that mixes it with other dims (merge, xor,
  // rotate) or shifts it (a pad, an offset or slice with a non-zero begin)
  // breaks that.
  SmallVector<bool> free(baseLengths.size(), false);
  for (auto [i, stage] : llvm::enumerate(stages)) {
    size_t rank = 0;
    for (const StageEntry &entry : stage)
      rank += entry.upperDims.size();
    SmallVector<bool> nextFree(rank, false);
    for (const StageEntry &entry : stage) {
      const Transform &t = entry.transform;
      if (Error e = t.checkInvertible())
        return makeError(
            llvm::formatv("stage {0}, {1} ", i + 1, formatEntry(entry)) +
            llvm::toString(std::move(e)));
      bool readsFree =
          llvm::any_of(entry.lowerDims, [&](int64_t d) { return free[d]; });
      if (readsFree && !t.keepsZero())
        return makeError(llvm::formatv(
            "stage {0}, {1} reads the coordinate of a sunder's piece; the "
            "inverse picks 0 for the pieces a sunder does not select, which "
            "stays a valid coordinate only through transforms of one dim "
            "that keep 0 at 0 ({2})",
            i + 1, formatEntry(entry), kindsKeepingZero()));
      for (auto [k, d] : llvm::enumerate(entry.upperDims)) {
        bool isPiece = t.getKind() == TransformKind::Sunder &&
                       k + 1 < entry.upperDims.size();
        nextFree[d] = readsFree || isPiece;
      }
    }
    free = std::move(nextFree);
  }
  return Error::success();
}

llvm::Expected<SmallVector<int64_t>> Descriptor::upper(int64_t offset) const {
  if (isDynamic())
    return makeError("the descriptor has run-time values: instantiate it");
  if (Error e = checkInvertible())
    return std::move(e);
  auto noPreimage = [&]() {
    return makeError(llvm::formatv(
        "offset {0} is not the offset of any valid top coordinate", offset));
  };
  if (offset < 0 || offset >= elementSpaceSize)
    return makeError(
        llvm::formatv("offset {0} is outside the element space [0, {1})",
                      offset, elementSpaceSize));

  // Walk up from the base, rejecting as soon as a coordinate leaves its
  // stage's bounds.
  Int64Algebra a;
  bool inBounds = true;
  SmallVector<int64_t, 8> cur = formulas::topCoordinate(
      *this, a, offset, [&](ArrayRef<int64_t> coord, ArrayRef<int64_t> lens) {
        for (auto [c, l] : llvm::zip_equal(coord, lens))
          if (c < 0 || c >= l)
            inBounds = false;
        return inBounds;
      });
  if (!inBounds)
    return noPreimage();

  // The inverse of each piece is exact only where the coordinate has a
  // preimage; one forward evaluation confirms it.
  Evaluation check = evaluate(cur);
  if (!check.valid || check.offset != offset)
    return noPreimage();
  return SmallVector<int64_t>(cur.begin(), cur.end());
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string Descriptor::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto typeStr = [](ArrayRef<int64_t> lengths) {
    return "!layout.desc<" + joinInts(lengths, "x") + ">";
  };
  switch (baseKind) {
  case BaseKind::Naive:
    os << "%d0 = layout.naive [" << joinOperands(baseLengths) << "] strides ["
       << joinOperands(baseStrides) << "]";
    if (baseOffset != 0)
      os << " offset " << baseOffset;
    if (explicitSpace)
      os << " space " << elementSpaceSize;
    break;
  case BaseKind::Packed:
    os << "%d0 = layout.packed [" << joinOperands(baseLengths) << "]";
    break;
  case BaseKind::Aligned:
    os << "%d0 = layout.aligned [" << joinInts(baseLengths) << "] align "
       << baseAlign;
    break;
  }
  SmallVector<int64_t> lengths(baseLengths.begin(), baseLengths.end());
  os << " : " << typeStr(lengths);
  for (auto [i, stage] : llvm::enumerate(stages)) {
    SmallVector<int64_t> newLengths = *checkStage(lengths, stage);
    os << "\n%d" << i + 1 << " = layout.transform %d" << i << " [";
    llvm::interleaveComma(stage, os,
                          [&](const StageEntry &e) { os << formatEntry(e); });
    os << "]";
    SmallVector<int64_t> slots;
    for (const StageEntry &e : stage) {
      Transform t = e.transform;
      t.mapDynamic([&](int64_t v) {
        slots.push_back(v);
        return v;
      });
    }
    if (!slots.empty())
      os << " args(" << joinOperands(slots) << ")";
    os << " : " << typeStr(lengths) << " -> " << typeStr(newLengths);
    lengths = newLengths;
  }
  return s;
}
