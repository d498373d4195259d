//===- WarpgroupMma.cpp - wgmma operands in workgroup memory --------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// WarpgroupMma.h's facts, each next to its source.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Evaluator/Transform.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <string>

using namespace mlir::layout;

const SharedSwizzleMode &mlir::layout::sharedSwizzleMode(SharedSwizzle mode) {
  // PTX 9.7.15.5.1 "Swizzling modes": the pattern repeats every 8 rows of
  // the swizzle width (256, 512, 1024 bytes); 9.7.15.5.1.2: layout type 1
  // = 128B, 2 = 64B, 3 = 32B, 0 = interleave. CUDA Driver API,
  // CUtensorMapSwizzle: CU_TENSOR_MAP_SWIZZLE_NONE = 0, _32B, _64B, _128B.
  static const SharedSwizzleMode modes[] = {
      {SharedSwizzle::None, "none", 16, 0, 16, 0, 0},
      {SharedSwizzle::B32, "32B", 32, 1, 256, 3, 1},
      {SharedSwizzle::B64, "64B", 64, 2, 512, 2, 2},
      {SharedSwizzle::B128, "128B", 128, 3, 1024, 1, 3},
  };
  return modes[static_cast<unsigned>(mode)];
}

std::optional<SharedSwizzle>
mlir::layout::widestSharedSwizzle(int64_t rowBytes) {
  for (SharedSwizzle mode :
       {SharedSwizzle::B128, SharedSwizzle::B64, SharedSwizzle::B32})
    if (rowBytes > 0 && rowBytes % sharedSwizzleMode(mode).rowBytes == 0)
      return mode;
  return std::nullopt;
}

int64_t mlir::layout::applySharedSwizzle(SharedSwizzle mode, int64_t address) {
  // The mode is the evaluator's swizzle transform (its one home): CuTe
  // Swizzle<B, 4, 3> on byte addresses, over any address below 2^30.
  constexpr int64_t kAddresses = int64_t(1) << 30;
  Transform swizzle =
      Transform::swizzle(sharedSwizzleMode(mode).xorBits, 4, 3, kAddresses);
  int64_t lower = 0;
  swizzle.calculateLowerIndex({address}, lower);
  return lower;
}

int64_t mlir::layout::wgmmaCanonicalOffset(SharedSwizzle mode,
                                           OperandMajor major, int64_t lbo,
                                           int64_t sbo, int64_t elementBytes,
                                           int64_t mn, int64_t k) {
  int64_t w = sharedSwizzleMode(mode).rowBytes;
  int64_t kBytes = k * elementBytes, mnBytes = mn * elementBytes;
  if (major == OperandMajor::K) {
    // ((8, m), (T, 2k)) : ((W, SBO), (1, LBO)) in bytes, a row of 8 rows of
    // W bytes; the interleaved mode's K steps of 16 bytes go LBO apart.
    int64_t rows = (mn / 8) * sbo + (mn % 8) * w;
    if (mode == SharedSwizzle::None)
      return rows + (kBytes / 16) * lbo + kBytes % 16;
    return rows + kBytes;
  }
  if (mode == SharedSwizzle::None)
    return (mnBytes / 16) * sbo + mnBytes % 16 + (k / 8) * lbo + (k % 8) * 16;
  // ((W, m), (8, k)) : ((1, LBO), (W, SBO)) in bytes: an atom of W bytes of
  // M or N by 8 rows of K, atoms LBO apart along M / N, 8-row groups of K
  // SBO apart.
  return (mnBytes / w) * lbo + mnBytes % w + (k / 8) * sbo + (k % 8) * w;
}

std::optional<std::string>
mlir::layout::wgmmaStagingProblem(int64_t rows, int64_t cols,
                                  int64_t elementBytes) {
  if (rows % 8)
    return llvm::formatv("its {0} rows are not a multiple of 8 (the swizzle "
                         "pattern's)",
                         rows)
        .str();
  if (!widestSharedSwizzle(cols * elementBytes))
    return llvm::formatv("its contiguous rows of {0} bytes are not a multiple "
                         "of 32 (the narrowest swizzle mode's)",
                         cols * elementBytes)
        .str();
  return std::nullopt;
}

Descriptor mlir::layout::wgmmaStagingLayout(int64_t stages, int64_t rows,
                                            int64_t cols,
                                            int64_t elementBytes) {
  using T = Transform;
  SharedSwizzle mode = *widestSharedSwizzle(cols * elementBytes);
  const SharedSwizzleMode &m = sharedSwizzleMode(mode);
  int64_t atom = m.rowBytes / elementBytes, atoms = cols / atom;
  int64_t total = stages * cols * rows;
  // The byte swizzle on element offsets: 16-byte chunks are 16 /
  // elementBytes elements.
  int64_t base = llvm::Log2_64(uint64_t(16 / elementBytes));
  Descriptor d =
      llvm::cantFail(Descriptor::packed({stages, atoms, rows, atom}));
  llvm::cantFail(d.addStage(
      {makeEntry(T::merge({stages, atoms, rows, atom}), {0, 1, 2, 3}, {0})}));
  llvm::cantFail(
      d.addStage({makeEntry(T::swizzle(m.xorBits, base, 3, total), {0}, {0})}));
  llvm::cantFail(d.addStage(
      {makeEntry(T::unmerge({stages, atoms, rows, atom}), {0}, {0, 1, 2, 3})}));
  // (stage, row, column) -> (stage, atom, row, column in atom).
  Stage top;
  if (stages > 1)
    top.push_back(makeEntry(T::passThrough(stages), {0}, {0}));
  else
    top.push_back(makeEntry(T::freeze(0), {0}, {}));
  int64_t s = stages > 1 ? 1 : 0;
  top.push_back(makeEntry(T::passThrough(rows), {2}, {s}));
  top.push_back(makeEntry(T::merge({atoms, atom}), {1, 3}, {s + 1}));
  llvm::cantFail(d.addStage(top));
  return d;
}

uint64_t WgmmaMatrixDescriptor::encodeWithoutStart() const {
  auto field = [](int64_t bytes) { return uint64_t(bytes >> 4) & 0x3FFF; };
  return field(leadingByteOffset) << 16 | field(strideByteOffset) << 32 |
         sharedSwizzleMode(swizzle).wgmmaLayoutType << 62;
}

uint64_t WgmmaMatrixDescriptor::encode(int64_t startAddress) const {
  return encodeWithoutStart() | (uint64_t(startAddress >> 4) & 0x3FFF);
}

//===----------------------------------------------------------------------===//
// Matching a descriptor
//===----------------------------------------------------------------------===//

namespace {

/// The origins of the tiles of `extents` (one per top dimension) that fit
/// in `lengths`: every multiple of the extent along each dimension, in order
/// (at most kMaxSharedTileOrigins, one more where there are more; an extent
/// of 1 is every coordinate). The origins matchWgmmaOperand and matchTmaBox
/// prove.
llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
tileOrigins(llvm::ArrayRef<int64_t> lengths, llvm::ArrayRef<int64_t> extents) {
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>> result{
      llvm::SmallVector<int64_t, 4>(lengths.size(), 0)};
  for (int64_t dim = 0, e = lengths.size(); dim < e; ++dim) {
    llvm::SmallVector<llvm::SmallVector<int64_t, 4>> next;
    for (const auto &o : result)
      for (int64_t x = 0; x + extents[dim] <= lengths[dim]; x += extents[dim]) {
        next.push_back(o);
        next.back()[dim] = x;
        if (int64_t(next.size()) > kMaxSharedTileOrigins)
          return next;
      }
    result = std::move(next);
  }
  return result;
}

} // namespace

llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
mlir::layout::wgmmaOperandOrigins(llvm::ArrayRef<int64_t> lengths,
                                  int64_t mnDim, int64_t kDim, int64_t mnExtent,
                                  int64_t kExtent) {
  llvm::SmallVector<int64_t, 4> extents(lengths.size(), 1);
  extents[mnDim] = mnExtent;
  extents[kDim] = kExtent;
  return tileOrigins(lengths, extents);
}

llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
mlir::layout::tmaBoxOrigins(llvm::ArrayRef<int64_t> lengths,
                            llvm::ArrayRef<int64_t> destDims,
                            llvm::ArrayRef<int64_t> box) {
  llvm::SmallVector<int64_t, 4> extents(lengths.size(), 1);
  for (auto [d, e] : llvm::zip_equal(destDims, box))
    extents[d] = e;
  return tileOrigins(lengths, extents);
}

namespace {

/// Why `layout` does not read what `d` says at `origins` (empty: it does).
std::string disproof(const Descriptor &d, const WgmmaOperandLayout &layout,
                     llvm::ArrayRef<llvm::SmallVector<int64_t, 4>> origins,
                     int64_t mnDim, int64_t kDim, int64_t mnExtent,
                     int64_t eb) {
  for (const auto &origin : origins) {
    int64_t start = d.offset(origin) * eb;
    if (start % 16)
      return llvm::formatv("the tile at ({0:$[, ]}) starts at byte {1}, not "
                           "a multiple of 16",
                           llvm::make_range(origin.begin(), origin.end()),
                           start)
          .str();
    llvm::SmallVector<int64_t, 4> top(origin);
    for (int64_t mn = 0; mn < mnExtent; ++mn)
      for (int64_t k = 0; k < wgmmaK(eb); ++k) {
        top[mnDim] = origin[mnDim] + mn;
        top[kDim] = origin[kDim] + k;
        int64_t want = d.offset(top) * eb;
        int64_t got = applySharedSwizzle(
            layout.swizzle,
            start + wgmmaCanonicalOffset(layout.swizzle, layout.major,
                                         layout.lbo, layout.sbo, eb, mn, k));
        if (!d.valid(top) || got != want)
          return llvm::formatv("element ({0}, {1}) of the tile at ({2:$[, ]}) "
                               "is at byte {3}; the hardware reads byte {4}",
                               mn, k,
                               llvm::make_range(origin.begin(), origin.end()),
                               want, got)
              .str();
      }
  }
  return "";
}

} // namespace

llvm::Expected<WgmmaOperandLayout>
mlir::layout::matchWgmmaOperand(const Descriptor &d, int64_t mnDim,
                                int64_t kDim, int64_t mnExtent,
                                int64_t elementBytes) {
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  if (d.isDynamic())
    return error("its descriptor has run-time lengths or arguments");
  llvm::ArrayRef<int64_t> lengths = d.getLengths();
  int64_t kExtent = wgmmaK(elementBytes);
  if (lengths[mnDim] < mnExtent || lengths[kDim] < kExtent)
    return error(llvm::formatv("its descriptor is {0} x {1} along the "
                               "instruction's dimensions, less than {2} x {3}",
                               lengths[mnDim], lengths[kDim], mnExtent,
                               kExtent));
  auto all = wgmmaOperandOrigins(lengths, mnDim, kDim, mnExtent, kExtent);
  llvm::SmallVector<int64_t, 4> o0(lengths.size(), 0);
  auto step = [&](int64_t dim, int64_t by) {
    llvm::SmallVector<int64_t, 4> t(o0);
    t[dim] = by;
    return (d.offset(t) - d.offset(o0)) * elementBytes;
  };
  WgmmaOperandLayout layout;
  if (step(kDim, 1) == elementBytes)
    layout.major = OperandMajor::K;
  else if (step(mnDim, 1) == elementBytes)
    layout.major = OperandMajor::MN;
  else
    return error("neither its K nor its M / N dimension is contiguous (wgmma "
                 "reads K-major or MN-major tiles)");
  std::string why;
  for (SharedSwizzle mode :
       {SharedSwizzle::B128, SharedSwizzle::B64, SharedSwizzle::B32}) {
    const SharedSwizzleMode &m = sharedSwizzleMode(mode);
    layout.swizzle = mode;
    if (layout.major == OperandMajor::K) {
      layout.lbo = 16; // unused by the swizzled K-major layouts
      layout.sbo = step(mnDim, 8);
    } else {
      int64_t atom = m.rowBytes / elementBytes;
      layout.lbo = mnExtent > atom ? step(mnDim, atom) : 16;
      layout.sbo = step(kDim, 8);
    }
    std::string no;
    if (layout.lbo <= 0 || layout.sbo <= 0 || layout.lbo % 16 ||
        layout.sbo % 16 || layout.lbo >= (1 << 18) || layout.sbo >= (1 << 18))
      no = llvm::formatv("leading / stride byte offsets {0} / {1} are not "
                         "positive multiples of 16 below 2^18",
                         layout.lbo, layout.sbo)
               .str();
    else
      no = disproof(d, layout, all, mnDim, kDim, mnExtent, elementBytes);
    if (no.empty())
      return layout;
    why += (why.empty() ? "" : "; ") + m.name.str() + ": " + no;
  }
  return error("it matches no swizzle mode of wgmma (" + why + ")");
}

namespace {

/// Why a TMA box copy in `mode` does not write what `d` says at `origins`
/// (empty: it does).
std::string boxDisproof(const Descriptor &d, SharedSwizzle mode,
                        llvm::ArrayRef<llvm::SmallVector<int64_t, 4>> origins,
                        llvm::ArrayRef<int64_t> destDims,
                        llvm::ArrayRef<int64_t> box, int64_t eb) {
  int64_t elements = 1;
  for (int64_t e : box)
    elements *= e;
  for (const auto &origin : origins) {
    int64_t start = d.offset(origin) * eb;
    if (start % 128)
      return llvm::formatv("the box at ({0:$[, ]}) starts at byte {1}, not a "
                           "multiple of 128",
                           llvm::make_range(origin.begin(), origin.end()),
                           start)
          .str();
    llvm::SmallVector<int64_t, 4> top(origin);
    for (int64_t linear = 0; linear < elements; ++linear) {
      // The box coordinate of the linear-th element, last dimension fastest.
      for (int64_t i = box.size() - 1, rest = linear; i >= 0; --i) {
        top[destDims[i]] = origin[destDims[i]] + rest % box[i];
        rest /= box[i];
      }
      int64_t want = d.offset(top) * eb;
      int64_t got = applySharedSwizzle(mode, start + linear * eb);
      if (!d.valid(top) || got != want)
        return llvm::formatv("box element {0} at ({1:$[, ]}) is at byte {2}; "
                             "the copy writes byte {3}",
                             linear, llvm::make_range(top.begin(), top.end()),
                             want, got)
            .str();
    }
  }
  return "";
}

} // namespace

llvm::Expected<SharedSwizzle>
mlir::layout::matchTmaBox(const Descriptor &d, llvm::ArrayRef<int64_t> destDims,
                          llvm::ArrayRef<int64_t> box, int64_t elementBytes) {
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  if (d.isDynamic())
    return error("its descriptor has run-time lengths or arguments");
  if (box.empty() || box.size() != destDims.size())
    return error("the box and its destination dimensions differ in rank");
  int64_t rowBytes = box.back() * elementBytes;
  auto all = tmaBoxOrigins(d.getLengths(), destDims, box);
  std::string why;
  for (SharedSwizzle mode : {SharedSwizzle::B128, SharedSwizzle::B64,
                             SharedSwizzle::B32, SharedSwizzle::None}) {
    const SharedSwizzleMode &m = sharedSwizzleMode(mode);
    std::string no;
    if (mode != SharedSwizzle::None && rowBytes != m.rowBytes)
      no = llvm::formatv("the box's rows are {0} bytes, not {1}", rowBytes,
                         m.rowBytes)
               .str();
    else if (rowBytes % 16)
      no = llvm::formatv("the box's rows are {0} bytes, not a multiple of 16",
                         rowBytes)
               .str();
    else
      no = boxDisproof(d, mode, all, destDims, box, elementBytes);
    if (no.empty())
      return mode;
    why += (why.empty() ? "" : "; ") + m.name.str() + ": " + no;
  }
  return error("it matches no swizzle mode of TMA (" + why + ")");
}
