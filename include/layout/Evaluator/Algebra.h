//===- Algebra.h - CuTe's layout algebra on strided layouts -----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// CuTe's layout algebra (CUTLASS, media/docs/cpp/cute/02_layout_algebra.md):
// coalesce, composition, complement, logical / zipped / tiled divide,
// logical / blocked / raked product, and right / left inverse, on
// *strided layouts*: a hierarchical shape with one stride per leaf, written
// in CuTe's notation `((2,2),3):((24,2),8)`. The definitions and the worked
// examples are CuTe's; the code is this project's.
//
// Conventions, as in CuTe:
//  - A layout maps a coordinate to an offset: a 1-D index is split into the
//    leaves' coordinates *colexicographically* (the first leaf fastest), and
//    the offset is the sum of coordinate times stride over the leaves.
//  - The top-level modes of a layout are the dims of its descriptor: a
//    descriptor's top coordinate (c_0, .., c_{r-1}) is a layout coordinate
//    with one 1-D index per mode.
//
// Where the dialect differs: its merge and unmerge transforms are row-major
// (the last dim fastest); the algebra keeps CuTe's colexicographic order so
// that its results are CuTe's. `toDescriptor` therefore spells a mode of
// several leaves as a `merge` whose lower dims are listed last leaf first.
// A descriptor keeps only the top-level grouping, so the nesting inside a
// mode is flattened there (the function is the same). Strides are
// non-negative and layouts start at offset 0 (the dialect has no negative
// strides; a descriptor with a base offset or a shifting transform is not a
// layout of the algebra).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_ALGEBRA_H
#define LAYOUT_EVALUATOR_ALGEBRA_H

#include "layout/Evaluator/Descriptor.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace layout {

/// A CuTe layout: a leaf `size:stride`, or a tuple of layouts (its modes).
class StridedLayout {
public:
  /// `size:stride`; the size must be positive, the stride non-negative, and
  /// (size - 1) * stride must fit int64.
  static llvm::Expected<StridedLayout> leaf(int64_t size, int64_t stride);
  /// `(m_0, .., m_{n-1})`, n >= 1; fails if the size or the largest offset
  /// overflows int64 (every layout's offsets fit int64).
  static llvm::Expected<StridedLayout>
  tuple(llvm::ArrayRef<StridedLayout> modes);
  /// The flat layout `(sizes):(strides)` (one leaf when there is one size).
  static llvm::Expected<StridedLayout> flat(llvm::ArrayRef<int64_t> sizes,
                                            llvm::ArrayRef<int64_t> strides);
  /// Parses CuTe's notation, e.g. `((2,2),3):((24,2),8)` or `12:1`
  /// (CuTe's static `_` prefixes are accepted and ignored).
  static llvm::Expected<StridedLayout> parse(llvm::StringRef text);

  bool isLeaf() const { return modes.empty(); }
  /// The number of elements of the domain.
  int64_t size() const { return sizeValue; }
  /// The leaf's stride (leaves only).
  int64_t stride() const { return strideValue; }
  /// The top-level modes: a leaf is its own single mode.
  unsigned rank() const { return isLeaf() ? 1 : modes.size(); }
  const StridedLayout &mode(unsigned i) const {
    return isLeaf() ? *this : modes[i];
  }
  /// The leaves in order, as (size, stride).
  std::vector<std::pair<int64_t, int64_t>> leaves() const;
  /// One past the largest offset: 1 + sum (size - 1) * stride.
  int64_t cosize() const;

  /// The offset of a 1-D index (colexicographic over the leaves; the last
  /// leaf takes the rest of an index past size(), as in CuTe).
  int64_t operator()(int64_t index) const;
  /// The offset of a coordinate with one 1-D index per top-level mode.
  int64_t at(llvm::ArrayRef<int64_t> coordinate) const;

  /// CuTe's notation: `((2,2),3):((24,2),8)`.
  std::string str() const;

  bool operator==(const StridedLayout &o) const {
    return sizeValue == o.sizeValue && strideValue == o.strideValue &&
           modes == o.modes;
  }
  bool operator!=(const StridedLayout &o) const { return !(*this == o); }

  /// The descriptor of this layout: a naive base over the leaves and, when a
  /// mode has several leaves, one stage of merges (last leaf first, see the
  /// file comment) and pass_throughs. Its top lengths are the modes' sizes.
  llvm::Expected<Descriptor> toDescriptor() const;
  /// The layout of a descriptor whose chain is strided: a naive, packed or
  /// aligned base without offset, then stages of pass_through, merge,
  /// unmerge, embed, replicate, and offset / slice / freeze at 0 (the
  /// shifting and non-linear kinds are refused, naming the stage). Its
  /// top-level modes are the descriptor's dims.
  static llvm::Expected<StridedLayout> fromDescriptor(const Descriptor &d);

private:
  StridedLayout() = default;
  int64_t sizeValue = 1;
  int64_t strideValue = 0;
  std::vector<StridedLayout> modes;
};

/// The algebra. Each function follows CuTe's definition; `tiler` versions
/// apply one layout per leading mode (CuTe's by-mode tilers). Each fails
/// with a message naming the condition that does not hold (CuTe's stride
/// and shape divisibility conditions, injectivity) or an int64 overflow.
namespace algebra {

/// Merges consecutive leaves that continue each other (s0:d0, s1:s0*d0 ->
/// s0*s1:d0) and drops leaves of size 1: a flat layout of the same function
/// on 1-D indices.
StridedLayout coalesce(const StridedLayout &a);
/// Coalesces each top-level mode separately (keeps the rank).
StridedLayout coalesceByMode(const StridedLayout &a);

/// A o B: (A o B)(c) = A(B(c)), with B's shape.
llvm::Expected<StridedLayout> composition(const StridedLayout &a,
                                          const StridedLayout &b);
/// By-mode composition with a tiler: mode i of A composed with tiler[i].
llvm::Expected<StridedLayout> composition(const StridedLayout &a,
                                          llvm::ArrayRef<StridedLayout> tiler);

/// complement(A, M): the ordered layout whose image fills, with A's, the
/// codomain [0, M) (rounded up to a multiple of A's extent, the largest
/// size * stride of its modes).
llvm::Expected<StridedLayout> complement(const StridedLayout &a, int64_t m);

/// A / B = A o (B, complement(B, size(A))).
llvm::Expected<StridedLayout> logicalDivide(const StridedLayout &a,
                                            const StridedLayout &b);
llvm::Expected<StridedLayout>
logicalDivide(const StridedLayout &a, llvm::ArrayRef<StridedLayout> tiler);
/// ((tiles), (rests, other modes)) and ((tiles), rest_0, .., other modes)
/// for a by-mode tiler; for one layout B (CuTe's Layout tiler), (A o B,
/// A o B*) (the logical divide) and (A o B, the modes of A o B*).
llvm::Expected<StridedLayout> zippedDivide(const StridedLayout &a,
                                           llvm::ArrayRef<StridedLayout> tiler);
llvm::Expected<StridedLayout> tiledDivide(const StridedLayout &a,
                                          llvm::ArrayRef<StridedLayout> tiler);
llvm::Expected<StridedLayout> zippedDivide(const StridedLayout &a,
                                           const StridedLayout &b);
llvm::Expected<StridedLayout> tiledDivide(const StridedLayout &a,
                                          const StridedLayout &b);

/// A x B = (A, complement(A, size(A) * cosize(B)) o B).
llvm::Expected<StridedLayout> logicalProduct(const StridedLayout &a,
                                             const StridedLayout &b);
llvm::Expected<StridedLayout>
logicalProduct(const StridedLayout &a, llvm::ArrayRef<StridedLayout> tiler);
/// The algebra's functions that take a tiler, and how the tiler is read:
/// one layout (CuTe's Layout tiler; `tiler` has one entry) or one layout per
/// leading mode of A (a by-mode tiler, CuTe's Tile<...>). The dialect's ops
/// and the Python functions both dispatch through `withTiler`.
enum class TilerFunction : uint8_t {
  Composition,
  LogicalDivide,
  ZippedDivide,
  TiledDivide,
  LogicalProduct
};
enum class TilerKind : uint8_t { Layout, ByMode };
llvm::Expected<StridedLayout> withTiler(TilerFunction function,
                                        const StridedLayout &a,
                                        llvm::ArrayRef<StridedLayout> tiler,
                                        TilerKind kind);

/// The logical product of A and B padded to the same rank, zipped mode by
/// mode as (A_i, B*_i) (blocked) or (B*_i, A_i) (raked), each mode
/// coalesced.
llvm::Expected<StridedLayout> blockedProduct(const StridedLayout &a,
                                             const StridedLayout &b);
llvm::Expected<StridedLayout> rakedProduct(const StridedLayout &a,
                                           const StridedLayout &b);

/// The largest R with A(R(i)) = i for i < size(R) (1:0 if A(1) != 1).
StridedLayout rightInverse(const StridedLayout &a);
/// L with L(A(i)) = i for every i < size(A) (leaves of stride 0 are left
/// out, as CuTe does: L(A(i)) is then i with their coordinates at 0); the
/// other leaves must not overlap, and each sorted stride must divide the
/// next.
llvm::Expected<StridedLayout> leftInverse(const StridedLayout &a);

} // namespace algebra
} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_ALGEBRA_H
