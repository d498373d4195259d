//===- Im2col.cpp - The im2col descriptor chain as a geometry -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Im2col.h"

#include "layout/Evaluator/Descriptor.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

using namespace mlir;
using namespace mlir::layout;

namespace {
/// im2colBoxOperands on numbers.
struct IntOps {
  int64_t div(int64_t x, int64_t d) { return x / d; }
  int64_t rem(int64_t x, int64_t d) { return x % d; }
  int64_t affine(int64_t x, int64_t scale, int64_t shift) {
    return x * scale + shift;
  }
};
} // namespace

std::optional<std::array<int64_t, 4>> Im2colGeometry::input(int64_t m,
                                                            int64_t k) const {
  // The pixel the filter origin of row m, shifted by column k's filter
  // offsets, reads (the box rule's own formula).
  IntOps ops;
  std::array<int64_t, 4> at;
  std::array<int64_t, 2> offsets;
  im2colBoxOperands<int64_t>(*this, m, k, ops, at, offsets);
  int64_t y = at[1] + offsets[0], x = at[2] + offsets[1];
  if (y < 0 || y >= h || x < 0 || x >= w)
    return std::nullopt;
  return std::array<int64_t, 4>{at[0], y, x, at[3]};
}

std::array<int64_t, 2> Im2colGeometry::lowerCorner() const {
  return {-pad[0], -pad[1]};
}

std::array<int64_t, 2> Im2colGeometry::upperCorner() const {
  return {(output[0] - 1) * stride[0] - pad[0] - (h - 1),
          (output[1] - 1) * stride[1] - pad[1] - (w - 1)};
}

std::array<int64_t, 3> Im2colGeometry::corner(int64_t m) const {
  IntOps ops;
  std::array<int64_t, 4> indices;
  std::array<int64_t, 2> offsets;
  im2colBoxOperands<int64_t>(*this, m, 0, ops, indices, offsets);
  return {indices[0], indices[1], indices[2]};
}

std::array<int64_t, 2> Im2colGeometry::offsets(int64_t k) const {
  IntOps ops;
  std::array<int64_t, 4> indices;
  std::array<int64_t, 2> offsets;
  im2colBoxOperands<int64_t>(*this, 0, k, ops, indices, offsets);
  return offsets;
}

std::string Im2colGeometry::tmaProblem(int64_t pixels, int64_t channels) const {
  if (channels < 1 || channels > 256 || c % channels)
    return "a box of " + std::to_string(channels) +
           " channels straddles two filter positions or exceeds 256 (the "
           "input has " +
           std::to_string(c) + " channels)";
  if (pixels < 1 || pixels > 1024)
    return "a box of " + std::to_string(pixels) +
           " pixels (TMA's im2col mode moves 1 to 1024)";
  for (int64_t corner :
       {lowerCorner()[0], lowerCorner()[1], upperCorner()[0], upperCorner()[1]})
    if (corner < -128 || corner > 127)
      return "a bounding-box corner of " + std::to_string(corner) +
             " (a rank-4 im2col tensor map takes -128 to 127)";
  for (int64_t s : stride)
    if (s < 1 || s > 8)
      return "a stride of " + std::to_string(s) +
             " (a tensor map's traversal stride is 1 to 8)";
  for (int64_t dy = 0; dy < 2; ++dy)
    if ((filter[dy] - 1) * dilation[dy] > 0xffff)
      return "filter offsets beyond 16 bits";
  return std::string();
}

namespace {

/// What a dimension of the chain's current top holds.
struct Role {
  enum Kind { N, H, W, C, Padded, Part, M, K } kind;
  /// Padded, Part: the spatial axis (0 = H, 1 = W).
  int axis = 0;
  /// Part: its length and embed coefficient.
  int64_t length = 0, coefficient = 0;
};

llvm::Error mismatch(const llvm::Twine &why) {
  return llvm::createStringError("not an NHWC im2col chain: " + why);
}

/// The geometry the roles of the chain's merges state.
struct Reader {
  Im2colGeometry g;
  std::array<bool, 2> padded = {}, embedded = {};
  /// The (output, filter) parts of each axis, from the merges.
  std::array<std::optional<Role>, 2> outputPart, filterPart;

  llvm::Error entry(const StageEntry &e, llvm::ArrayRef<Role> top,
                    llvm::SmallVectorImpl<Role> &next);
  llvm::Error merge(llvm::ArrayRef<Role> parts, Role &out);
};

llvm::Error Reader::merge(llvm::ArrayRef<Role> parts, Role &out) {
  auto isPart = [&](const Role &r, int axis) {
    return r.kind == Role::Part && r.axis == axis;
  };
  if (parts.size() == 3 && parts[0].kind == Role::N && isPart(parts[1], 0) &&
      isPart(parts[2], 1)) {
    outputPart = {parts[1], parts[2]};
    out = {Role::M};
    return llvm::Error::success();
  }
  if (parts.size() == 3 && isPart(parts[0], 0) && isPart(parts[1], 1) &&
      parts[2].kind == Role::C) {
    filterPart = {parts[0], parts[1]};
    out = {Role::K};
    return llvm::Error::success();
  }
  return mismatch("a merge that is neither (N, Ho, Wo) nor (Y, X, C)");
}

llvm::Error Reader::entry(const StageEntry &e, llvm::ArrayRef<Role> top,
                          llvm::SmallVectorImpl<Role> &next) {
  const Transform &t = e.transform;
  std::string name = formatEntry(e);
  llvm::SmallVector<Role> in;
  for (int64_t d : e.lowerDims)
    in.push_back(top[d]);
  auto spatialAxis = [&](const Role &r) {
    return r.kind == Role::H ? 0 : r.kind == Role::W ? 1 : -1;
  };
  switch (t.getKind()) {
  case TransformKind::PassThrough:
    next[e.upperDims[0]] = in[0];
    return llvm::Error::success();
  case TransformKind::Pad:
  case TransformKind::LeftPad:
  case TransformKind::RightPad: {
    int axis = spatialAxis(in[0]);
    if (axis < 0 || padded[axis])
      return mismatch(name + " pads a dimension other than H or W");
    padded[axis] = true;
    g.pad[axis] = t.getKind() == TransformKind::RightPad ? 0 : t.getParam(0);
    next[e.upperDims[0]] = {Role::Padded, axis};
    return llvm::Error::success();
  }
  case TransformKind::Embed: {
    int axis = in[0].kind == Role::Padded ? in[0].axis : spatialAxis(in[0]);
    if (axis < 0 || embedded[axis] || t.getLengths().size() != 2)
      return mismatch(name + " is not the (filter, output) embed of H or W");
    embedded[axis] = true;
    for (size_t i = 0; i < 2; ++i) {
      if (t.getCoefficients()[i] < 1)
        return mismatch(name + " has a coefficient below 1");
      next[e.upperDims[i]] = {Role::Part, axis, t.getLengths()[i],
                              t.getCoefficients()[i]};
    }
    return llvm::Error::success();
  }
  case TransformKind::Merge:
    if (llvm::Error err = merge(in, next[e.upperDims[0]]))
      return llvm::joinErrors(std::move(err), mismatch(name));
    return llvm::Error::success();
  default:
    return mismatch(name + " is no pad, embed, merge or pass_through");
  }
}

/// Whether `g` reproduces `d` at (m, k): the same validity, and where
/// valid the offset `base` (d's packed NHWC base) gives g's input element.
bool agrees(const Descriptor &d, const Descriptor &base,
            const Im2colGeometry &g, int64_t m, int64_t k) {
  Evaluation e = d.evaluate({m, k});
  std::optional<std::array<int64_t, 4>> at = g.input(m, k);
  if (!at)
    return !e.valid;
  return e.valid && e.offset == base.offset(*at);
}

} // namespace

llvm::Expected<Im2colGeometry> layout::matchIm2col(const Descriptor &d) {
  if (d.isDynamic() || d.getBaseKind() != BaseKind::Packed ||
      d.getBaseLengths().size() != 4)
    return mismatch("the base is not a static packed rank-4 (NHWC) tensor");
  Reader r;
  llvm::ArrayRef<int64_t> base = d.getBaseLengths();
  r.g.n = base[0], r.g.h = base[1], r.g.w = base[2], r.g.c = base[3];
  llvm::SmallVector<Role> top = {{Role::N}, {Role::H}, {Role::W}, {Role::C}};
  for (const Stage &stage : d.getStages()) {
    size_t rank = 0;
    for (const StageEntry &e : stage)
      rank += e.upperDims.size();
    llvm::SmallVector<Role> next(rank, Role{Role::N});
    for (const StageEntry &e : stage)
      if (llvm::Error err = r.entry(e, top, next))
        return std::move(err);
    top = std::move(next);
  }
  if (top.size() != 2 || top[0].kind != Role::M || top[1].kind != Role::K)
    return mismatch("the top is not (GEMM-M, GEMM-K)");
  for (int axis = 0; axis < 2; ++axis) {
    if (!r.embedded[axis] || !r.outputPart[axis] || !r.filterPart[axis])
      return mismatch("H or W is not embedded as (filter, output)");
    r.g.output[axis] = r.outputPart[axis]->length;
    r.g.stride[axis] = r.outputPart[axis]->coefficient;
    r.g.filter[axis] = r.filterPart[axis]->length;
    r.g.dilation[axis] = r.filterPart[axis]->coefficient;
  }
  // The roles fix the formula; check it against the evaluator where the
  // padding and the merges' carries meet: the first and last rows of an
  // image and of the GEMM, each filter position's first and last channel.
  const Im2colGeometry &g = r.g;
  llvm::Expected<Descriptor> packedBase = Descriptor::packed(base);
  if (!packedBase)
    return packedBase.takeError();
  int64_t image = g.output[0] * g.output[1];
  llvm::SmallVector<int64_t> ms;
  for (int64_t m : {int64_t(0), g.output[1] - 1, g.output[1], image - 1, image,
                    g.gemmM() - g.output[1], g.gemmM() - 1})
    if (m >= 0 && m < g.gemmM())
      ms.push_back(m);
  for (int64_t m = 0; m < std::min<int64_t>(g.gemmM(), 2 * image); m += 7)
    ms.push_back(m);
  for (int64_t m : ms)
    for (int64_t f = 0; f < g.filter[0] * g.filter[1]; ++f)
      for (int64_t ch : {int64_t(0), g.c - 1})
        if (!agrees(d, *packedBase, g, m, f * g.c + ch))
          return mismatch("its numbers do not reproduce it at (" +
                          std::to_string(m) + ", " +
                          std::to_string(f * g.c + ch) + ")");
  return r.g;
}
