//===- Im2colTest.cpp - The im2col chain read back as a geometry ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// matchIm2col against the evaluator, brute force: for convolutions with
// padding, strides and dilations, the geometry's GEMM element (m, k) is the
// descriptor's at every coordinate; and the TMA im2col parameters, run
// through the hardware's traversal as the PTX ISA describes it (written out
// here: the filter origin walks its bounding box W-fastest, then H, then
// N, in steps of the traversal stride), give every box row's pixels.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Im2col.h"
#include "layout/Evaluator/Descriptor.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::layout;

namespace {

struct Conv {
  int64_t n, h, w, c, y, x, padT, padB, padL, padR, sh, sw, dh, dw;
  int64_t ho() const { return (h + padT + padB - dh * (y - 1) - 1) / sh + 1; }
  int64_t wo() const { return (w + padL + padR - dw * (x - 1) - 1) / sw + 1; }
};

StageEntry entry(Transform t, llvm::SmallVector<int64_t, 4> lower,
                 llvm::SmallVector<int64_t, 4> upper) {
  return StageEntry{std::move(t), std::move(lower), std::move(upper)};
}

/// gen-conv.py's chain (bench/conv): pad, embed (filter, output), merge.
Descriptor chain(const Conv &v) {
  Descriptor d = unwrap(Descriptor::packed({v.n, v.h, v.w, v.c}));
  d = unwrap(d.transform({entry(Transform::passThrough(v.n), {0}, {0}),
                          entry(Transform::pad(v.h, v.padT, v.padB), {1}, {1}),
                          entry(Transform::pad(v.w, v.padL, v.padR), {2}, {2}),
                          entry(Transform::passThrough(v.c), {3}, {3})}));
  d = unwrap(d.transform(
      {entry(Transform::passThrough(v.n), {0}, {0}),
       entry(Transform::embed({v.y, v.ho()}, {v.dh, v.sh}), {1}, {2, 3}),
       entry(Transform::embed({v.x, v.wo()}, {v.dw, v.sw}), {2}, {4, 5}),
       entry(Transform::passThrough(v.c), {3}, {1})}));
  return unwrap(d.transform(
      {entry(Transform::merge({v.n, v.ho(), v.wo()}), {0, 3, 5}, {0}),
       entry(Transform::merge({v.y, v.x, v.c}), {2, 4, 1}, {1})}));
}

/// The pixel {n, h, w} of row p of a TMA im2col box whose filter origin
/// starts at `start` ({n, h, w}) with filter offsets `off` ({h, w}), as the
/// PTX ISA's im2col mode describes it; std::nullopt outside the tensor
/// (zero fill).
std::optional<std::array<int64_t, 3>> tmaPixel(const Im2colGeometry &g,
                                               std::array<int64_t, 3> start,
                                               std::array<int64_t, 2> off,
                                               int64_t p) {
  std::array<int64_t, 2> lo = g.lowerCorner(), up = g.upperCorner();
  std::array<int64_t, 2> dims = {g.h, g.w}, count;
  for (int d = 0; d < 2; ++d)
    count[d] = (dims[d] - 1 + up[d] - lo[d]) / g.stride[d] + 1;
  int64_t i = (start[1] - lo[0]) / g.stride[0];
  int64_t j = (start[2] - lo[1]) / g.stride[1];
  int64_t linear = (start[0] * count[0] + i) * count[1] + j + p;
  int64_t wi = linear % count[1], hi = (linear / count[1]) % count[0];
  int64_t n = linear / (count[1] * count[0]);
  int64_t hh = lo[0] + hi * g.stride[0] + off[0];
  int64_t ww = lo[1] + wi * g.stride[1] + off[1];
  if (n >= g.n || hh < 0 || hh >= g.h || ww < 0 || ww >= g.w)
    return std::nullopt;
  return std::array<int64_t, 3>{n, hh, ww};
}

void checkConv(const Conv &v) {
  Descriptor d = chain(v);
  llvm::Expected<Im2colGeometry> g = matchIm2col(d);
  ASSERT_TRUE(bool(g)) << llvm::toString(g.takeError());
  EXPECT_EQ(g->gemmM(), d.getLengths()[0]);
  EXPECT_EQ(g->gemmK(), d.getLengths()[1]);
  // Every element, against the evaluator.
  for (int64_t m = 0; m < g->gemmM(); ++m)
    for (int64_t k = 0; k < g->gemmK(); ++k) {
      Evaluation e = d.evaluate({m, k});
      std::optional<std::array<int64_t, 4>> at = g->input(m, k);
      ASSERT_EQ(e.valid, at.has_value()) << "at (" << m << ", " << k << ")";
      if (at) {
        ASSERT_EQ(e.offset,
                  (((*at)[0] * v.h + (*at)[1]) * v.w + (*at)[2]) * v.c +
                      (*at)[3]);
      }
    }
  // TMA boxes of 8 pixels from every row, every filter position.
  for (int64_t m0 = 0; m0 < g->gemmM(); ++m0)
    for (int64_t k0 = 0; k0 < g->gemmK(); k0 += v.c)
      for (int64_t p = 0; p < 8; ++p) {
        auto px = tmaPixel(*g, g->corner(m0), g->offsets(k0), p);
        std::optional<std::array<int64_t, 4>> want;
        if (m0 + p < g->gemmM())
          want = g->input(m0 + p, k0);
        ASSERT_EQ(px.has_value(), want.has_value())
            << "m0 " << m0 << " k0 " << k0 << " p " << p;
        if (px) {
          ASSERT_EQ(
              (std::array<int64_t, 3>{(*want)[0], (*want)[1], (*want)[2]}),
              *px);
        }
      }
}

TEST(Im2col, Resnet3x3) {
  checkConv({2, 7, 7, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1});
}
TEST(Im2col, StridedPadded) {
  checkConv({2, 9, 8, 2, 3, 3, 1, 1, 1, 0, 2, 2, 1, 1});
}
TEST(Im2col, Dilated) {
  checkConv({1, 9, 10, 2, 3, 2, 2, 2, 1, 1, 1, 3, 2, 1});
}
TEST(Im2col, NoPadding) {
  checkConv({3, 6, 5, 3, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1});
}

TEST(Im2col, RefusesOtherChains) {
  // (Y, X, C) merged as (C, Y, X): not the NHWC K order.
  Conv v{2, 7, 7, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  Descriptor d = unwrap(Descriptor::packed({v.n, v.h, v.w, v.c}));
  d = unwrap(d.transform({entry(Transform::passThrough(v.n), {0}, {0}),
                          entry(Transform::pad(v.h, 1, 1), {1}, {1}),
                          entry(Transform::pad(v.w, 1, 1), {2}, {2}),
                          entry(Transform::passThrough(v.c), {3}, {3})}));
  d = unwrap(
      d.transform({entry(Transform::passThrough(v.n), {0}, {0}),
                   entry(Transform::embed({v.y, v.ho()}, {1, 1}), {1}, {2, 3}),
                   entry(Transform::embed({v.x, v.wo()}, {1, 1}), {2}, {4, 5}),
                   entry(Transform::passThrough(v.c), {3}, {1})}));
  d = unwrap(d.transform(
      {entry(Transform::merge({v.n, v.ho(), v.wo()}), {0, 3, 5}, {0}),
       entry(Transform::merge({v.c, v.y, v.x}), {1, 2, 4}, {1})}));
  llvm::Expected<Im2colGeometry> g = matchIm2col(d);
  ASSERT_FALSE(bool(g));
  EXPECT_NE(llvm::toString(g.takeError()).find("neither"), std::string::npos);
  // A plain matrix.
  llvm::Expected<Im2colGeometry> plain =
      matchIm2col(unwrap(Descriptor::packed({64, 64})));
  ASSERT_FALSE(bool(plain));
  llvm::consumeError(plain.takeError());
}

TEST(Im2col, TmaLimits) {
  Conv v{2, 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  llvm::Expected<Im2colGeometry> g = matchIm2col(chain(v));
  ASSERT_TRUE(bool(g)) << llvm::toString(g.takeError());
  EXPECT_EQ(g->tmaProblem(64, 64), "");
  EXPECT_EQ(g->lowerCorner(), (std::array<int64_t, 2>{-1, -1}));
  EXPECT_EQ(g->upperCorner(), (std::array<int64_t, 2>{-1, -1}));
  EXPECT_NE(g->tmaProblem(64, 48).find("straddles"), std::string::npos);
  EXPECT_NE(g->tmaProblem(2048, 64).find("pixels"), std::string::npos);
}

} // namespace
