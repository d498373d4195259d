//===- Partition.h - Partition views and their evaluator ---------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A partition view cuts a view of extents E into tiles of lengths T
// (cuda::tiles::partition_view's mapping): element J of tile I is the view's
// element I * T + J, and there are ceil(E / T) tiles along each dimension,
// the last ones possibly reaching past the view (masked accesses skip those
// elements).
//
// This is the single home of that arithmetic, written once over an index
// algebra (IndexAlgebra.h): the folder of `layout.index_space` instantiates it
// with Int64Algebra, the lowerings with algebras that emit index arithmetic,
// and the Python package calls the int64 instance.
//
// Beyond the operations of IndexAlgebra.h, the partition formulas ask an
// algebra for `Value ceilDiv(Value, int64_t d)` (d > 0) where they count tiles.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_PARTITION_H
#define LAYOUT_EVALUATOR_PARTITION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir {
namespace layout {

/// The most elements a tile may have: 2^16. A tile is a vector value, held
/// in registers by the thread or the block that accesses it; 2^16 32-bit
/// registers is the whole register file of an NVIDIA SM (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability":
/// 64K registers per SM up to sm_90) and half of a CDNA3 CU's VGPRs. The
/// bound also keeps the element-by-element lowerings (one step per tile
/// row or element) to seconds instead of hours.
constexpr int64_t kMaxTileElements = int64_t(1) << 16;

/// Checks tile lengths against a view of rank `viewRank`: one positive
/// length per dimension, at most kMaxTileElements elements in all (checked
/// factor by factor, so no product overflows). The message (e.g. "tile
/// length 1 must be positive, got 0") is what the verifiers and the Python
/// package report.
llvm::Error checkPartitionTile(size_t viewRank, llvm::ArrayRef<int64_t> tile);

/// The tile counts (`layout.index_space`) of static `extents` cut into
/// `tile` (checked with checkPartitionTile; extents non-negative).
llvm::SmallVector<int64_t> partitionIndexSpace(llvm::ArrayRef<int64_t> extents,
                                               llvm::ArrayRef<int64_t> tile);

namespace formulas {

/// How many tiles of length `tile` cover `extent`: ceil(extent / tile).
template <typename A>
typename A::Value tileCount(A &a, typename A::Value extent, int64_t tile) {
  return a.ceilDiv(extent, tile);
}

/// The view coordinate of the first element of tile `index`: index * tile.
template <typename A>
typename A::Value tileOrigin(A &a, typename A::Value index, int64_t tile) {
  return a.mul(index, tile);
}

/// The view coordinate of element `inTile` of the tile whose first element
/// is at `origin`: origin + inTile.
template <typename A>
typename A::Value tileElement(A &a, typename A::Value origin,
                              typename A::Value inTile) {
  return a.add(origin, inTile);
}

} // namespace formulas
} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_PARTITION_H
