//===- Im2col.h - The im2col descriptor chain as a convolution's geometry -===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A forward convolution's implicit GEMM reads its A operand (GEMM-M = (N,
// Ho, Wo), GEMM-K = (Y, X, C)) through the im2col descriptor chain of CK
// Tile's implicit GEMM (seed 001): a packed NHWC input, H and W padded,
// each embedded as (filter, output) with the dilation and the stride, then
// merged. matchIm2col reads that chain back as the convolution's numbers,
// which is what the tensor memory accelerator's im2col mode needs
// (cuTensorMapEncodeIm2col's corners and traversal strides, the
// instruction's pixel coordinates and filter offsets).
//
// The TMA's im2col mode (PTX ISA 5.5.4, "Im2col mode"; CUDA Driver API,
// cuTensorMapEncodeIm2col): a box of `pixels` rows of `channels` elements.
// The filter's origin ("corner") walks a bounding box per spatial dimension
// d, from lowerCorner[d] to dim[d] - 1 + upperCorner[d], in steps of the
// traversal stride, W fastest, then H, then N; row p of the box is the
// pixel at the p-th corner position from the instruction's coordinates,
// shifted by the instruction's filter offsets; channels from the
// instruction's c. Elements outside the tensor read as zero.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_IM2COL_H
#define LAYOUT_EVALUATOR_IM2COL_H

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir {
namespace layout {

class Descriptor;

/// A 2-D convolution's geometry, as an NHWC im2col chain states it. Spatial
/// pairs are {H, W}.
struct Im2colGeometry {
  /// The input tensor: N x H x W x C, packed.
  int64_t n = 0, h = 0, w = 0, c = 0;
  /// The filter's extent, and the output's.
  std::array<int64_t, 2> filter = {}, output = {};
  /// Leading (top, left) padding, stride and dilation.
  std::array<int64_t, 2> pad = {}, stride = {}, dilation = {};

  int64_t gemmM() const { return n * output[0] * output[1]; }
  int64_t gemmK() const { return filter[0] * filter[1] * c; }
  /// The input element {n, h, w, c} that GEMM element (m, k) reads, or
  /// std::nullopt where it reads the padding (zero).
  std::optional<std::array<int64_t, 4>> input(int64_t m, int64_t k) const;

  /// cuTensorMapEncodeIm2col's pixelBoxLowerCorner and pixelBoxUpperCorner,
  /// {H, W}: the filter origin's bounding box runs from -pad to (output -
  /// 1) * stride - pad, which is dim - 1 + upper.
  std::array<int64_t, 2> lowerCorner() const;
  std::array<int64_t, 2> upperCorner() const;
  /// The instruction's coordinates {n, h, w} of GEMM row m's filter origin
  /// (a corner position), and its filter offsets {h, w} of GEMM column k
  /// (k's channel is k mod c).
  std::array<int64_t, 3> corner(int64_t m) const;
  std::array<int64_t, 2> offsets(int64_t k) const;

  /// Why boxes of `pixels` rows of `channels` channels cannot be copied by
  /// TMA's im2col mode (empty: they can): a box must not straddle two
  /// filter positions (c a multiple of `channels`), and the corners and
  /// traversal strides must fit the tensor map (rank 4: corners in
  /// [-128, 127], strides 1 to 8), pixels at most 1024, channels at most
  /// 256 (cuTensorMapEncodeIm2col).
  std::string tmaProblem(int64_t pixels, int64_t channels) const;
};

/// The operands of the TMA im2col copy of the box whose first element is
/// GEMM element (m, k): the instruction's coordinates {n, h, w, c} (the
/// filter origin of row m, k's channel) and its filter offsets {h, w} of
/// column k. Computed with `ops` (`div`, `rem`, `affine(x, scale, shift)`
/// = x * scale + shift, on int64_t or on IR values), so that the compiler's
/// emission and its tests share this one formula.
template <typename T, typename Ops>
void im2colBoxOperands(const Im2colGeometry &g, T m, T k, Ops &ops,
                       std::array<T, 4> &indices, std::array<T, 2> &offsets) {
  int64_t image = g.output[0] * g.output[1];
  T pixel = ops.rem(m, image);
  indices = {ops.div(m, image),
             ops.affine(ops.div(pixel, g.output[1]), g.stride[0], -g.pad[0]),
             ops.affine(ops.rem(pixel, g.output[1]), g.stride[1], -g.pad[1]),
             ops.rem(k, g.c)};
  T position = ops.div(k, g.c);
  offsets = {ops.affine(ops.div(position, g.filter[1]), g.dilation[0], 0),
             ops.affine(ops.rem(position, g.filter[1]), g.dilation[1], 0)};
}

/// The geometry of `d` when it is an NHWC im2col chain (a packed rank-4
/// base; H and W each padded at most once, then embedded as (filter,
/// output) with positive coefficients; (N, Ho, Wo) merged into top
/// dimension 0 and (Y, X, C) into top dimension 1, each in that order),
/// else an error saying which part differs.
llvm::Expected<Im2colGeometry> matchIm2col(const Descriptor &d);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_IM2COL_H
