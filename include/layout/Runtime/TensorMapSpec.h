//===- TensorMapSpec.h - Tensor maps a kernel needs, without CUDA -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The host side of the tensor-map launch ABI, without the driver: decoding
// a kernel's exported `<kernel>_tensor_maps` words into specs, and
// deciding, for one spec and the memref argument a launcher passes, whether
// the map is usable and with which cuTensorMapEncodeTiled arguments.
// docs/tensor-maps.md is the contract; this header and
// python/layout_opt/cuda.py (the Python launcher, which cannot include it)
// both implement it. Header-only and free of <cuda.h>, so that it is
// unit-tested where CUDA is not installed; TensorMaps.h adds the driver
// calls.
//
// The driver's requirements checked here come from cuTensorMapEncodeTiled's
// documentation (CUDA Driver API, "Tensor Map Object Management"; the same
// text is cuda.h's comment on the function), for interleave NONE:
//  - globalAddress 16-byte aligned;
//  - globalDim[i] non-zero and at most 2^32;
//  - globalStrides[i] (bytes, dimensions 1 .. rank-1) a multiple of 16 and
//    below 2^40;
//  - boxDim[i] non-zero and at most 256, boxDim[0] * elementBytes a multiple
//    of 16, and at most the swizzle span (32, 64 or 128 bytes) when
//    swizzled;
//  - elementStrides[i] 1 to 8 (all 1 here);
//  - the CUtensorMap itself 64-byte aligned (TensorMaps.h).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_RUNTIME_TENSORMAPSPEC_H
#define LAYOUT_RUNTIME_TENSORMAPSPEC_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace layout {
namespace runtime {

/// The format version of `<kernel>_tensor_maps` that this header reads.
inline constexpr uint64_t kTensorMapsVersion = 1;
/// Words before the first map (version, n), and words per map.
inline constexpr size_t kTensorMapsHeaderWords = 2;
inline constexpr size_t kTensorMapSpecWords = 16;
/// The TMA's largest rank.
inline constexpr unsigned kMaxTensorMapRank = 5;
/// A CUtensorMap's bytes and the alignment cuTensorMapEncodeTiled needs.
inline constexpr size_t kTensorMapBytes = 128;
inline constexpr size_t kTensorMapAlignment = 64;
/// The driver's limits: globalDim at most 2^32, byte strides below 2^40,
/// boxDim at most 256.
inline constexpr uint64_t kMaxTensorMapDim = uint64_t(1) << 32;
inline constexpr uint64_t kTensorMapStrideBytesLimit = uint64_t(1) << 40;
inline constexpr uint64_t kMaxTensorMapBox = 256;

/// One map a kernel needs: its 16 words of `<kernel>_tensor_maps`, decoded
/// (docs/tensor-maps.md gives the word layout).
struct TensorMapSpec {
  /// The kernel argument (0-based among the gpu.func's arguments) whose
  /// memref the map covers.
  unsigned argument = 0;
  /// The memref's rank, 1 to 5.
  unsigned rank = 0;
  /// CUtensorMapDataType (6 f16, 9 bf16, 7 f32, 0 u8, ...).
  unsigned dataType = 0;
  unsigned elementBytes = 0;
  /// CUtensorMapSwizzle (0 none, 1 32B, 2 64B, 3 128B).
  unsigned swizzle = 0;
  /// CUtensorMapFloatOOBfill (0: out-of-bounds elements read as zero).
  unsigned oobFill = 0;
  /// CUtensorMapL2promotion.
  unsigned l2Promotion = 0;
  /// The box, innermost dimension (the memref's last) first; 0 past rank.
  /// In im2col mode: {channelsPerPixel, pixelsPerColumn}, then 0.
  uint32_t box[kMaxTensorMapRank] = {};
  /// CUtensorMapEncodeIm2col instead of Tiled (word 12 = 1).
  bool im2col = false;
  /// im2col: pixelBoxLowerCorner / UpperCorner per spatial dimension,
  /// innermost (W) first, rank - 2 of them (words 13, 14: 16-bit two's
  /// complement fields); the traversal strides of all dimensions, innermost
  /// first (word 15: a byte each).
  int32_t lowerCorner[kMaxTensorMapRank - 2] = {};
  int32_t upperCorner[kMaxTensorMapRank - 2] = {};
  uint32_t traversal[kMaxTensorMapRank] = {};
};

/// A memref argument as MLIR's calling convention passes it: the aligned
/// pointer, the offset, the sizes and the strides, in elements, outermost
/// dimension first.
struct MemRefArgument {
  uint64_t aligned = 0;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
};

/// The arguments of cuTensorMapEncodeTiled for one map, innermost dimension
/// first; all zero when the map is not usable (the launcher then passes 128
/// zero bytes).
struct TensorMapEncoding {
  bool usable = false;
  uint64_t globalAddress = 0;
  uint64_t globalDim[kMaxTensorMapRank] = {};
  uint64_t globalStrides[kMaxTensorMapRank - 1] = {};
  uint32_t boxDim[kMaxTensorMapRank] = {};
  uint32_t elementStrides[kMaxTensorMapRank] = {};
  /// cuTensorMapEncodeIm2col's arguments where the spec is im2col (boxDim
  /// unused).
  bool im2col = false;
  int lowerCorner[kMaxTensorMapRank - 2] = {};
  int upperCorner[kMaxTensorMapRank - 2] = {};
  uint32_t channelsPerPixel = 0, pixelsPerColumn = 0;
};

/// The CUtensorMapDataType values (cuda.h) that layout-opt exports.
inline constexpr unsigned kTensorMapUInt8 = 0;
inline constexpr unsigned kTensorMapInt32 = 3;
inline constexpr unsigned kTensorMapInt64 = 5;
inline constexpr unsigned kTensorMapFloat16 = 6;
inline constexpr unsigned kTensorMapFloat32 = 7;
inline constexpr unsigned kTensorMapFloat64 = 8;
inline constexpr unsigned kTensorMapBFloat16 = 9;

/// The byte size of a CUtensorMapDataType's element (UINT8 = 0 up to
/// TFLOAT32_FTZ = 12); 0 for the packed 4- and 6-bit types and unknown ones,
/// which this launcher does not encode.
constexpr unsigned tensorMapElementBytes(uint64_t dataType) {
  switch (dataType) {
  case kTensorMapUInt8:
    return 1;
  case 1: // UINT16
  case kTensorMapFloat16:
  case kTensorMapBFloat16:
    return 2;
  case 2: // UINT32
  case kTensorMapInt32:
  case kTensorMapFloat32:
  case 10: // FLOAT32_FTZ
  case 11: // TFLOAT32
  case 12: // TFLOAT32_FTZ
    return 4;
  case 4: // UINT64
  case kTensorMapInt64:
  case kTensorMapFloat64:
    return 8;
  default:
    return 0;
  }
}

/// The name of the global a kernel exports its tensor maps in.
inline std::string tensorMapsGlobalName(const std::string &kernel) {
  return kernel + "_tensor_maps";
}

namespace detail {
/// The largest |corner| + 1 of an im2col map of `rank`
/// (cuTensorMapEncodeIm2col: 16-bit corners at rank 3, 8-bit at rank 4,
/// 5-bit at rank 5).
constexpr int64_t im2colCornerLimit(unsigned rank) {
  return rank == 3 ? 32768 : rank == 4 ? 128 : 16;
}

/// Decodes the im2col words 12..15 of a map of `spec.rank` into `spec`;
/// returns "" or what is wrong (prefixed with `at`).
inline std::string decodeIm2colWords(const uint64_t *w, const std::string &at,
                                     TensorMapSpec &spec) {
  auto n = [](int64_t v) { return std::to_string(v); };
  spec.im2col = true;
  unsigned rank = spec.rank;
  if (rank < 3)
    return at + "an im2col map of rank " + n(rank) + ", the TMA takes 3 to 5";
  int64_t limit = im2colCornerLimit(rank);
  for (unsigned j = 0; j < kMaxTensorMapRank - 2; ++j) {
    for (unsigned k = 0; k < 2; ++k) {
      int64_t c = int16_t(uint16_t(w[13 + k] >> (16 * j)));
      if (j >= rank - 2 ? c != 0 : (c < -limit || c >= limit))
        return at + "im2col corner " + n(c) + " (word " + n(13 + k) +
               ", field " + n(j) + "), a rank-" + n(rank) + " map takes -" +
               n(limit) + " to " + n(limit - 1);
      (k ? spec.upperCorner : spec.lowerCorner)[j] = int32_t(c);
    }
  }
  if ((w[13] | w[14]) >> (16 * (kMaxTensorMapRank - 2)))
    return at + "im2col corner words have bits past the 3 fields";
  for (unsigned j = 0; j < kMaxTensorMapRank; ++j) {
    uint64_t t = (w[15] >> (8 * j)) & 0xff;
    if (j < rank ? (t < 1 || t > 8) : t != 0)
      return at + "traversal stride " + n(int64_t(t)) + " of dimension " +
             n(j) + ", expected 1 to 8 within the rank, 0 past it";
    spec.traversal[j] = uint32_t(t);
  }
  if (w[15] >> (8 * kMaxTensorMapRank))
    return at + "the traversal word has bits past the 5 strides";
  return "";
}

/// Checks the words of map `i` (w[0..15]) and decodes them into `spec`;
/// returns "" or what is wrong, prefixed with "map i: ".
inline std::string decodeTensorMapSpec(const uint64_t *w, size_t i,
                                       TensorMapSpec &spec) {
  std::string at = "map " + std::to_string(i) + ": ";
  auto n = [](uint64_t v) { return std::to_string(v); };
  if (w[0] > UINT32_MAX)
    return at + "argument " + n(w[0]) + " is out of range";
  if (w[1] < 1 || w[1] > kMaxTensorMapRank)
    return at + "rank " + n(w[1]) + ", the TMA takes 1 to 5";
  unsigned bytes = tensorMapElementBytes(w[2]);
  if (!bytes)
    return at + "data type " + n(w[2]) + " is not one this launcher encodes";
  if (w[3] != bytes)
    return at + "element bytes " + n(w[3]) + ", data type " + n(w[2]) +
           " has " + n(bytes);
  if (w[4] > 3)
    return at + "swizzle " + n(w[4]) + ", expected 0 to 3";
  if (w[5] > 1)
    return at + "out-of-bounds fill " + n(w[5]) + ", expected 0 or 1";
  if (w[6] > 3)
    return at + "L2 promotion " + n(w[6]) + ", expected 0 to 3";
  spec.argument = unsigned(w[0]);
  spec.rank = unsigned(w[1]);
  spec.dataType = unsigned(w[2]);
  spec.elementBytes = bytes;
  spec.swizzle = unsigned(w[4]);
  spec.oobFill = unsigned(w[5]);
  spec.l2Promotion = unsigned(w[6]);
  if (w[12] > 1)
    return at + "mode " + n(w[12]) + ", expected 0 (tiled) or 1 (im2col)";
  // im2col's box is (channels, pixels): pixels up to 1024.
  unsigned boxRank = w[12] ? 2 : spec.rank;
  for (unsigned j = 0; j < kMaxTensorMapRank; ++j) {
    uint64_t b = w[7 + j];
    uint64_t most = w[12] && j == 1 ? 1024 : kMaxTensorMapBox;
    if (j < boxRank && (b < 1 || b > most))
      return at + "box[" + n(j) + "] = " + n(b) + ", the TMA takes 1 to " +
             n(most);
    if (j >= boxRank && b != 0)
      return at + "box[" + n(j) + "] = " + n(b) +
             (w[12] ? std::string(" past the im2col box's 2 dimensions")
                    : " past rank " + n(spec.rank)) +
             ", expected 0";
    spec.box[j] = uint32_t(b);
  }
  uint64_t innerBytes = uint64_t(spec.box[0]) * bytes;
  if (innerBytes % 16)
    return at + "the box's inner dimension is " + n(innerBytes) +
           " bytes, not a multiple of 16";
  uint64_t span = spec.swizzle ? uint64_t(16) << spec.swizzle : 0;
  if (span && innerBytes > span)
    return at + "the box's inner dimension is " + n(innerBytes) +
           " bytes, more than the " + n(span) + "-byte swizzle span";
  if (w[12])
    return decodeIm2colWords(w, at, spec);
  for (unsigned j = 13; j < kTensorMapSpecWords; ++j)
    if (w[j] != 0)
      return at + "reserved word " + n(j) + " is " + n(w[j]) + ", expected 0";
  return "";
}
} // namespace detail

/// The words of `<kernel>_tensor_maps` for `specs` (the compiler's side of
/// the ABI, which decodeTensorMapSpecs reads back): version, n, then each
/// map's 16 words.
inline std::vector<uint64_t>
encodeTensorMapSpecs(const std::vector<TensorMapSpec> &specs) {
  std::vector<uint64_t> words{kTensorMapsVersion, specs.size()};
  for (const TensorMapSpec &spec : specs) {
    uint64_t w[kTensorMapSpecWords] = {
        spec.argument, spec.rank,    spec.dataType,   spec.elementBytes,
        spec.swizzle,  spec.oobFill, spec.l2Promotion};
    for (unsigned j = 0; j < kMaxTensorMapRank; ++j)
      w[7 + j] = spec.box[j];
    if (spec.im2col) {
      w[12] = 1;
      for (unsigned j = 0; j < kMaxTensorMapRank - 2; ++j) {
        w[13] |= uint64_t(uint16_t(spec.lowerCorner[j])) << (16 * j);
        w[14] |= uint64_t(uint16_t(spec.upperCorner[j])) << (16 * j);
      }
      for (unsigned j = 0; j < kMaxTensorMapRank; ++j)
        w[15] |= uint64_t(spec.traversal[j] & 0xff) << (8 * j);
    }
    words.insert(words.end(), w, w + kTensorMapSpecWords);
  }
  return words;
}

/// Decodes the `count` words of a kernel's `<kernel>_tensor_maps` into
/// `specs`, checking the version, n against the word count, and each map
/// against the TMA's limits. Returns "" or what is wrong.
[[nodiscard]] inline std::string
decodeTensorMapSpecs(const uint64_t *words, size_t count,
                     std::vector<TensorMapSpec> &specs) {
  specs.clear();
  if (count < kTensorMapsHeaderWords)
    return std::to_string(count) +
           " words, fewer than the 2 of the header (version, n)";
  if (words[0] != kTensorMapsVersion)
    return "format version " + std::to_string(words[0]) +
           ", this launcher reads version 1";
  uint64_t n = words[1];
  size_t body = count - kTensorMapsHeaderWords;
  if (n > body / kTensorMapSpecWords || body != n * kTensorMapSpecWords)
    return "n = " + std::to_string(n) + " maps need 2 + 16 n words, the " +
           "global has " + std::to_string(count);
  specs.resize(size_t(n));
  for (size_t i = 0; i < n; ++i) {
    std::string error = detail::decodeTensorMapSpec(
        words + kTensorMapsHeaderWords + kTensorMapSpecWords * i, i, specs[i]);
    if (!error.empty()) {
      specs.clear();
      return error;
    }
  }
  return "";
}

/// Decides whether the map of `spec` is usable on `memref` (the memref the
/// launcher passes as argument spec.argument) and fills `encoding`
/// (docs/tensor-maps.md, "How the launcher encodes map i"): usable when the
/// innermost stride is 1, globalAddress = aligned + offset * elementBytes is
/// 16-byte aligned and every other stride * elementBytes is a multiple of 16
/// (the conditions the kernel tests at run time, modulo 2^64 as it computes
/// them). A usable map outside the driver's limits, and a memref of another
/// rank than the map's, are errors: returns "argument a: ..." then, else "".
[[nodiscard]] inline std::string planTensorMap(const TensorMapSpec &spec,
                                               const MemRefArgument &memref,
                                               TensorMapEncoding &encoding) {
  encoding = TensorMapEncoding();
  std::string at = "argument " + std::to_string(spec.argument) + ": ";
  size_t rank = spec.rank;
  if (rank < 1 || rank > kMaxTensorMapRank || memref.sizes.size() != rank ||
      memref.strides.size() != rank)
    return at + "the kernel's tensor map has rank " + std::to_string(rank) +
           ", the memref rank " + std::to_string(memref.sizes.size());
  uint64_t bytes = spec.elementBytes;
  if (bytes == 0)
    return at + "the kernel's tensor map has 0-byte elements";
  uint64_t address = memref.aligned + uint64_t(memref.offset) * bytes;
  bool usable = memref.strides[rank - 1] == 1 && address % 16 == 0;
  for (size_t d = 0; d + 1 < rank; ++d)
    usable = usable && uint64_t(memref.strides[d]) * bytes % 16 == 0;
  if (!usable)
    return "";
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = memref.sizes[d];
    if (size < 1 || uint64_t(size) > kMaxTensorMapDim)
      return at + "size " + std::to_string(size) + " along dimension " +
             std::to_string(d) + " (the TMA takes 1 to 2^32)";
  }
  for (size_t d = 0; d + 1 < rank; ++d) {
    int64_t stride = memref.strides[d];
    if (stride < 0 ||
        uint64_t(stride) > (kTensorMapStrideBytesLimit - 1) / bytes)
      return at + "stride " + std::to_string(stride) + " of " +
             std::to_string(bytes) + "-byte elements along dimension " +
             std::to_string(d) + " (the TMA takes byte strides from 0 to " +
             "below 2^40)";
  }
  encoding.usable = true;
  encoding.globalAddress = address;
  for (size_t j = 0; j < rank; ++j) {
    encoding.globalDim[j] = uint64_t(memref.sizes[rank - 1 - j]);
    if (j > 0)
      encoding.globalStrides[j - 1] =
          uint64_t(memref.strides[rank - 1 - j]) * bytes;
    encoding.boxDim[j] = spec.box[j];
    encoding.elementStrides[j] = spec.im2col ? spec.traversal[j] : 1;
  }
  if (spec.im2col) {
    encoding.im2col = true;
    for (size_t j = 0; j + 2 < rank; ++j) {
      encoding.lowerCorner[j] = spec.lowerCorner[j];
      encoding.upperCorner[j] = spec.upperCorner[j];
    }
    encoding.channelsPerPixel = spec.box[0];
    encoding.pixelsPerColumn = spec.box[1];
  }
  return "";
}

/// The memref that map `index` (of `spec`) covers among a launch's
/// arguments: arguments[a] is kernel argument a's memref, or null where
/// argument a is not a memref. Returns "" with `memref` set, or
/// "argument a: ..." when the argument is missing or not a memref.
[[nodiscard]] inline std::string
findTensorMapArgument(const TensorMapSpec &spec, size_t index,
                      const std::vector<const MemRefArgument *> &arguments,
                      const MemRefArgument *&memref) {
  memref = nullptr;
  std::string at = "argument " + std::to_string(spec.argument) + ": ";
  if (spec.argument >= arguments.size())
    return at + "tensor map " + std::to_string(index) +
           " covers it, but the launch has " +
           std::to_string(arguments.size()) + " arguments";
  memref = arguments[spec.argument];
  if (!memref)
    return at + "tensor map " + std::to_string(index) +
           " covers it, but it is not a memref";
  return "";
}

} // namespace runtime
} // namespace layout
} // namespace mlir

#endif // LAYOUT_RUNTIME_TENSORMAPSPEC_H
