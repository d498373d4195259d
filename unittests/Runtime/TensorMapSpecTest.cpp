//===- TensorMapSpecTest.cpp - Tests of the tensor-map launch rule --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// TensorMapSpec.h against docs/tensor-maps.md (the contract) without a GPU:
// decoding `<kernel>_tensor_maps` words written out here (version, n, each
// map's 16 words), and the usable / not-usable decision with the
// cuTensorMapEncodeTiled arguments it gives, worked out by hand from the
// doc's formulas: globalDim innermost first, byte strides of dimensions
// 1 .. r-1, the box as exported. The limits are the driver's (globalDim 1 to
// 2^32, byte strides below 2^40, box 1 to 256 and within the swizzle span).
// The driver call itself (TensorMaps.h) runs on the GPU machine through
// bench/gemm/harness.cu.
//
//===----------------------------------------------------------------------===//

#include "layout/Runtime/TensorMapSpec.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::layout::runtime;

namespace {

/// The 16 words of one map: argument, rank, data type, element bytes,
/// swizzle, OOB fill, L2 promotion, the box (innermost first), reserved.
std::vector<uint64_t> mapWords(uint64_t argument, std::vector<uint64_t> box,
                               uint64_t dataType = 6, uint64_t bytes = 2,
                               uint64_t swizzle = 3, uint64_t l2 = 2) {
  std::vector<uint64_t> w = {argument, box.size(), dataType, bytes,
                             swizzle,  0,          l2};
  for (size_t j = 0; j < 5; ++j)
    w.push_back(j < box.size() ? box[j] : 0);
  w.resize(16, 0);
  return w;
}

/// The global's words: version 1, n, then the maps.
std::vector<uint64_t> globalWords(std::vector<std::vector<uint64_t>> maps) {
  std::vector<uint64_t> words = {1, maps.size()};
  for (auto &m : maps)
    words.insert(words.end(), m.begin(), m.end());
  return words;
}

std::string decode(const std::vector<uint64_t> &words,
                   std::vector<TensorMapSpec> &specs) {
  return decodeTensorMapSpecs(words.data(), words.size(), specs);
}

/// The error of decoding `words` ("" if it decodes).
std::string decodeError(const std::vector<uint64_t> &words) {
  std::vector<TensorMapSpec> specs;
  return decode(words, specs);
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// A map of rank `box.size()` on kernel argument `argument`.
TensorMapSpec spec(unsigned argument, std::vector<uint32_t> box,
                   unsigned dataType = 6, unsigned bytes = 2) {
  TensorMapSpec s;
  s.argument = argument;
  s.rank = unsigned(box.size());
  s.dataType = dataType;
  s.elementBytes = bytes;
  s.swizzle = 3;
  for (size_t j = 0; j < box.size(); ++j)
    s.box[j] = box[j];
  return s;
}

MemRefArgument memref(uint64_t aligned, int64_t offset,
                      std::vector<int64_t> sizes,
                      std::vector<int64_t> strides) {
  MemRefArgument m;
  m.aligned = aligned;
  m.offset = offset;
  m.sizes = std::move(sizes);
  m.strides = std::move(strides);
  return m;
}

bool allZero(const TensorMapEncoding &e) {
  bool zero = !e.usable && e.globalAddress == 0;
  for (unsigned j = 0; j < 5; ++j)
    zero = zero && e.globalDim[j] == 0 && e.boxDim[j] == 0 &&
           e.elementStrides[j] == 0 && (j == 4 || e.globalStrides[j] == 0);
  return zero;
}

/// Two maps decode word by word (the GEMM's A and B tiles: f16 64 x 128 with
/// the 128-byte swizzle, bf16 32 x 8 with the 64-byte one).
TEST(TensorMapSpecTest, DecodesEachWord) {
  std::vector<TensorMapSpec> specs;
  ASSERT_EQ(decode(globalWords({mapWords(0, {64, 128}),
                                mapWords(1, {32, 8}, 9, 2, 2, 0)}),
                   specs),
            "");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].argument, 0u);
  EXPECT_EQ(specs[0].rank, 2u);
  EXPECT_EQ(specs[0].dataType, 6u);
  EXPECT_EQ(specs[0].elementBytes, 2u);
  EXPECT_EQ(specs[0].swizzle, 3u);
  EXPECT_EQ(specs[0].l2Promotion, 2u);
  EXPECT_EQ(specs[0].box[0], 64u);
  EXPECT_EQ(specs[0].box[1], 128u);
  EXPECT_EQ(specs[0].box[2], 0u);
  EXPECT_EQ(specs[1].argument, 1u);
  EXPECT_EQ(specs[1].dataType, 9u);
  EXPECT_EQ(specs[1].swizzle, 2u);
  EXPECT_EQ(specs[1].l2Promotion, 0u);
  EXPECT_EQ(specs[1].box[0], 32u);
  EXPECT_EQ(specs[1].box[1], 8u);
  // Rank 5, f32, no swizzle: every box word is read.
  ASSERT_EQ(
      decode(globalWords({mapWords(4, {4, 3, 2, 1, 256}, 7, 4, 0)}), specs),
      "");
  EXPECT_EQ(specs[0].rank, 5u);
  EXPECT_EQ(specs[0].box[4], 256u);
  EXPECT_EQ(specs[0].box[0], 4u);
  // No maps.
  EXPECT_EQ(decode({1, 0}, specs), "");
  EXPECT_TRUE(specs.empty());
}

/// The header: the version, and n against the number of words.
TEST(TensorMapSpecTest, ChecksVersionAndCount) {
  std::vector<uint64_t> words = globalWords({mapWords(0, {64, 128})});
  words[0] = 2;
  EXPECT_EQ(decodeError(words), "format version 2, this launcher reads "
                                "version 1");
  words[0] = 1;
  words[1] = 2;
  EXPECT_TRUE(contains(decodeError(words), "n = 2 maps")) << decodeError(words);
  words[1] = 0;
  EXPECT_TRUE(contains(decodeError(words), "n = 0 maps"));
  // An n whose 16 n overflows is refused, not read past the words.
  EXPECT_TRUE(contains(decodeError({1, uint64_t(1) << 60}), "n = "));
  EXPECT_TRUE(contains(decodeError({1}), "fewer than the 2"));
  EXPECT_TRUE(contains(decodeError({}), "fewer than the 2"));
}

/// Each map's words against the TMA's limits; the failing map is named.
TEST(TensorMapSpecTest, ChecksEachMap) {
  auto error = [](std::vector<uint64_t> map) {
    return decodeError(globalWords({mapWords(0, {64, 8}), map}));
  };
  EXPECT_EQ(error(mapWords(1, {})), "map 1: rank 0, the TMA takes 1 to 5");
  EXPECT_TRUE(contains(error(mapWords(1, {8, 1, 1, 1, 1, 1})), "rank 6"));
  // The box: 1 to 256 within the rank, 0 past it.
  EXPECT_TRUE(contains(error(mapWords(1, {64, 0})), "box[1] = 0"));
  EXPECT_TRUE(contains(error(mapWords(1, {64, 257})), "box[1] = 257"));
  std::vector<uint64_t> past = mapWords(1, {64, 8});
  past[7 + 2] = 4;
  EXPECT_TRUE(contains(error(past), "box[2] = 4 past rank 2"));
  // Inner box bytes: a multiple of 16, within the swizzle span.
  EXPECT_TRUE(contains(error(mapWords(1, {4, 8})), "8 bytes, not a multiple"));
  EXPECT_TRUE(contains(error(mapWords(1, {128, 8})),
                       "256 bytes, more than the 128-byte swizzle span"));
  EXPECT_TRUE(contains(error(mapWords(1, {64, 8}, 6, 2, 1)),
                       "more than the 32-byte swizzle span"));
  EXPECT_EQ(error(mapWords(1, {16, 8}, 6, 2, 1)), "");
  EXPECT_EQ(error(mapWords(1, {256, 8}, 6, 2, 0)), "");
  // The element bytes must be the data type's; packed types are refused.
  EXPECT_TRUE(contains(error(mapWords(1, {64, 8}, 6, 4)),
                       "element bytes 4, data type 6 has 2"));
  EXPECT_TRUE(contains(error(mapWords(1, {64, 8}, 13, 1)), "data type 13"));
  EXPECT_TRUE(contains(error(mapWords(1, {64, 8}, 6, 2, 4)), "swizzle 4"));
  std::vector<uint64_t> reserved = mapWords(1, {64, 8});
  reserved[15] = 1;
  EXPECT_TRUE(contains(error(reserved), "map 1: reserved word 15"));
}

/// A row-major f16 matrix: usable, dimensions innermost first, the row
/// stride in bytes, the box as exported.
TEST(TensorMapSpecTest, RowMajorIsUsable) {
  TensorMapEncoding e;
  // 256 x 512 f16 at 0x10000: rows of 1024 bytes.
  ASSERT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 0, {256, 512}, {512, 1}), e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_EQ(e.globalAddress, 0x10000u);
  EXPECT_EQ(e.globalDim[0], 512u);
  EXPECT_EQ(e.globalDim[1], 256u);
  EXPECT_EQ(e.globalStrides[0], 1024u);
  EXPECT_EQ(e.boxDim[0], 64u);
  EXPECT_EQ(e.boxDim[1], 128u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.globalDim[2], 0u);
  // An offset of 8 f16 moves the address by 16 bytes: still usable.
  ASSERT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 8, {256, 504}, {512, 1}), e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_EQ(e.globalAddress, 0x10010u);
  EXPECT_EQ(e.globalDim[0], 504u);
}

/// Rank 3, f32, strides not those of a packed array: globalDim reversed,
/// globalStrides[j - 1] = strides[r - 1 - j] * 4.
TEST(TensorMapSpecTest, Rank3OrderAndByteStrides) {
  TensorMapEncoding e;
  ASSERT_EQ(planTensorMap(spec(2, {4, 2, 1}, 7, 4),
                          memref(0x2000, 0, {2, 3, 8}, {100, 12, 1}), e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_EQ(e.globalDim[0], 8u);
  EXPECT_EQ(e.globalDim[1], 3u);
  EXPECT_EQ(e.globalDim[2], 2u);
  EXPECT_EQ(e.globalStrides[0], 48u);
  EXPECT_EQ(e.globalStrides[1], 400u);
  EXPECT_EQ(e.boxDim[2], 1u);
  // Rank 1: no strides passed.
  ASSERT_EQ(planTensorMap(spec(0, {16}, 7, 4), memref(0x40, 0, {100}, {1}), e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_EQ(e.globalDim[0], 100u);
  EXPECT_EQ(e.globalStrides[0], 0u);
}

/// Not usable (the kernel takes its non-TMA path): an unaligned row stride,
/// an unaligned address, an innermost stride other than 1. The encoding is
/// all zeros and there is no error, even with sizes the TMA could not take.
TEST(TensorMapSpecTest, UnalignedIsNotUsable) {
  TensorMapEncoding e;
  // 4095 f16 per row: 8190 bytes, not a multiple of 16.
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 0, {4095, 4095}, {4095, 1}), e),
            "");
  EXPECT_TRUE(allZero(e));
  // 4104 f16 per row (8208 bytes) is a multiple of 16 again.
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 0, {4095, 4095}, {4104, 1}), e),
            "");
  EXPECT_TRUE(e.usable);
  // Offset 4 f16 = 8 bytes off the 16-byte grid.
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 4, {256, 512}, {512, 1}), e),
            "");
  EXPECT_TRUE(allZero(e));
  // The aligned pointer itself off the grid.
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10008, 0, {256, 512}, {512, 1}), e),
            "");
  EXPECT_TRUE(allZero(e));
  // A transposed view: innermost stride 256.
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 0, {512, 256}, {1, 256}), e),
            "");
  EXPECT_TRUE(allZero(e));
  // Not usable, so a size of 0 is no error.
  EXPECT_EQ(
      planTensorMap(spec(0, {64, 128}), memref(0x10000, 0, {0, 3}, {3, 1}), e),
      "");
  EXPECT_TRUE(allZero(e));
}

/// A usable map outside the driver's limits is an error naming the argument.
TEST(TensorMapSpecTest, UsableOutOfLimitsIsAnError) {
  TensorMapEncoding e;
  EXPECT_EQ(planTensorMap(spec(1, {64, 128}),
                          memref(0x10000, 0, {0, 64}, {64, 1}), e),
            "argument 1: size 0 along dimension 0 (the TMA takes 1 to 2^32)");
  EXPECT_FALSE(e.usable);
  int64_t big = int64_t(1) << 32;
  EXPECT_EQ(planTensorMap(spec(1, {64, 128}),
                          memref(0x10000, 0, {2, big}, {big, 1}), e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_EQ(e.globalDim[0], uint64_t(big));
  EXPECT_TRUE(
      contains(planTensorMap(spec(1, {64, 128}),
                             memref(0x10000, 0, {2, big + 8}, {big + 8, 1}), e),
               "argument 1: size 4294967304 along dimension 1"));
  // f16 byte strides: 2^40 - 16 is the largest, 2^40 too far.
  int64_t s = (int64_t(1) << 39) - 8;
  EXPECT_EQ(
      planTensorMap(spec(0, {64, 128}), memref(0x10000, 0, {2, 64}, {s, 1}), e),
      "");
  EXPECT_EQ(e.globalStrides[0], (uint64_t(1) << 40) - 16);
  EXPECT_EQ(planTensorMap(spec(0, {64, 128}),
                          memref(0x10000, 0, {2, 64}, {s + 8, 1}), e),
            "argument 0: stride 549755813888 of 2-byte elements along "
            "dimension 0 (the TMA takes byte strides from 0 to below 2^40)");
  // A negative stride passes the kernel's test (-16 bytes is 0 mod 16) but
  // not the driver.
  EXPECT_TRUE(contains(planTensorMap(spec(0, {64, 128}),
                                     memref(0x10000, 0, {2, 64}, {-8, 1}), e),
                       "argument 0: stride -8"));
  EXPECT_TRUE(contains(planTensorMap(spec(0, {64, 128}),
                                     memref(0x10000, 0, {-1, 64}, {64, 1}), e),
                       "argument 0: size -1"));
  // The memref's rank must be the map's.
  EXPECT_EQ(planTensorMap(spec(3, {64, 128}), memref(0x10000, 0, {64}, {1}), e),
            "argument 3: the kernel's tensor map has rank 2, the memref rank "
            "1");
}

/// The map's argument must be a memref of the launch.
TEST(TensorMapSpecTest, FindsTheArgument) {
  MemRefArgument a = memref(0x100, 0, {4, 8}, {8, 1});
  MemRefArgument b = memref(0x200, 0, {4, 8}, {8, 1});
  std::vector<const MemRefArgument *> arguments = {&a, &b, nullptr};
  const MemRefArgument *found = nullptr;
  EXPECT_EQ(findTensorMapArgument(spec(1, {8, 4}), 0, arguments, found), "");
  EXPECT_EQ(found, &b);
  EXPECT_EQ(findTensorMapArgument(spec(2, {8, 4}), 1, arguments, found),
            "argument 2: tensor map 1 covers it, but it is not a memref");
  EXPECT_EQ(found, nullptr);
  EXPECT_EQ(findTensorMapArgument(spec(5, {8, 4}), 0, arguments, found),
            "argument 5: tensor map 0 covers it, but the launch has 3 "
            "arguments");
}

TEST(TensorMapSpecTest, GlobalNameAndElementBytes) {
  EXPECT_EQ(tensorMapsGlobalName("gemm_f16_wg128"),
            "gemm_f16_wg128_tensor_maps");
  EXPECT_EQ(tensorMapElementBytes(0), 1u);  // u8
  EXPECT_EQ(tensorMapElementBytes(6), 2u);  // f16
  EXPECT_EQ(tensorMapElementBytes(7), 4u);  // f32
  EXPECT_EQ(tensorMapElementBytes(8), 8u);  // f64
  EXPECT_EQ(tensorMapElementBytes(9), 2u);  // bf16
  EXPECT_EQ(tensorMapElementBytes(12), 4u); // tf32, flush to zero
  EXPECT_EQ(tensorMapElementBytes(13), 0u); // 16 x u4, packed
}

/// The compiler's side (encodeTensorMapSpecs, what -layout-bulk-tensor-to-nvvm
/// exports) writes the words this test states independently, and decoding
/// gives the specs back.
TEST(TensorMapSpecTest, EncodesWhatItDecodes) {
  TensorMapSpec a;
  a.argument = 0;
  a.rank = 2;
  a.dataType = kTensorMapFloat16;
  a.elementBytes = 2;
  a.swizzle = 3;
  a.l2Promotion = 2;
  a.box[0] = 64;
  a.box[1] = 128;
  TensorMapSpec b = a;
  b.argument = 1;
  b.dataType = kTensorMapBFloat16;
  b.swizzle = 2;
  b.box[0] = 32;
  b.box[1] = 64;
  std::vector<uint64_t> words = encodeTensorMapSpecs({a, b});
  EXPECT_EQ(words, globalWords({mapWords(0, {64, 128}),
                                mapWords(1, {32, 64}, 9, 2, 2)}));
  std::vector<TensorMapSpec> specs;
  ASSERT_EQ(decode(words, specs), "");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(encodeTensorMapSpecs(specs), words);
  EXPECT_EQ(encodeTensorMapSpecs({}), std::vector<uint64_t>({1, 0}));
}

/// An im2col map (the 3x3 convolution's input, N x H x W x C = 32 x 7 x 7 x
/// 512 f16): words 12..15 written out by hand (mode 1; corners -1 as 16-bit
/// fields, W first; traversal strides a byte each, C first), decoded,
/// planned on the NHWC memref, and encoded back.
TEST(TensorMapSpecTest, Im2colWords) {
  std::vector<uint64_t> w = mapWords(2, {64, 64});
  w[1] = 4;           // rank: the memref's
  w[12] = 1;          // im2col
  w[13] = 0xffffffff; // lower corners W = -1, H = -1
  w[14] = 0xfffffffe; // upper corners W = -2, H = -1
  w[15] = 0x01020101; // strides C 1, W 1, H 2, N 1
  std::vector<TensorMapSpec> specs;
  ASSERT_EQ(decode(globalWords({w}), specs), "");
  const TensorMapSpec &s = specs[0];
  EXPECT_TRUE(s.im2col);
  EXPECT_EQ(s.lowerCorner[0], -1);
  EXPECT_EQ(s.lowerCorner[1], -1);
  EXPECT_EQ(s.upperCorner[0], -2);
  EXPECT_EQ(s.upperCorner[1], -1);
  EXPECT_EQ(s.lowerCorner[2], 0);
  EXPECT_EQ(s.traversal[2], 2u);
  EXPECT_EQ(encodeTensorMapSpecs(specs), globalWords({w}));
  TensorMapEncoding e;
  ASSERT_EQ(planTensorMap(s,
                          memref(0x10000, 0, {32, 7, 7, 512},
                                 {7 * 7 * 512, 7 * 512, 512, 1}),
                          e),
            "");
  EXPECT_TRUE(e.usable);
  EXPECT_TRUE(e.im2col);
  EXPECT_EQ(e.globalDim[0], 512u);
  EXPECT_EQ(e.globalDim[3], 32u);
  EXPECT_EQ(e.globalStrides[0], 1024u);
  EXPECT_EQ(e.globalStrides[2], 7u * 7 * 1024);
  EXPECT_EQ(e.channelsPerPixel, 64u);
  EXPECT_EQ(e.pixelsPerColumn, 64u);
  EXPECT_EQ(e.lowerCorner[1], -1);
  EXPECT_EQ(e.upperCorner[0], -2);
  EXPECT_EQ(e.elementStrides[2], 2u);

  // A corner out of a rank-4 map's 8-bit range; a traversal stride of 0;
  // corners past the rank; an im2col map of rank 2.
  std::vector<uint64_t> bad = w;
  bad[13] = 0x00c8ffff; // H = 200
  EXPECT_TRUE(contains(decodeError(globalWords({bad})), "-128 to 127"));
  bad = w;
  bad[15] = 0x01000101;
  EXPECT_TRUE(contains(decodeError(globalWords({bad})), "traversal stride 0"));
  bad = w;
  bad[13] |= uint64_t(1) << 32;
  EXPECT_TRUE(
      contains(decodeError(globalWords({bad})), "corner 1 (word 13, field 2)"));
  bad = w;
  bad[1] = 2;
  bad[15] = 0x0101;
  EXPECT_TRUE(
      contains(decodeError(globalWords({bad})), "im2col map of rank 2"));
  // Pixels up to 1024 in im2col mode, 256 in a tiled box.
  bad = w;
  bad[8] = 1024;
  EXPECT_EQ(decodeError(globalWords({bad})), "");
  bad[12] = 0;
  bad[13] = bad[14] = bad[15] = 0;
  EXPECT_TRUE(contains(decodeError(globalWords({bad})), "1 to 256"));
}

} // namespace
