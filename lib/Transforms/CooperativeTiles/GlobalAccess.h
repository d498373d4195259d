//===- GlobalAccess.h - A thread's vectors of a cooperative tile -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The code one thread runs for its part of a global tile access: vectors of
// `width` elements along the access's contiguous dimension, or element by
// element where a vector would cross the view's edge or lose its alignment.
//
// Edges. Each phase tests once per tile (the same answer in every thread)
// whether the whole tile is inside the view with aligned rows; those tiles
// run unguarded vectors, which the GPU compiler issues back to back. Other
// tiles test each vector: inside and aligned, one vector access; otherwise
// element by element, each guarded (TileAccess.h's masked element access),
// with the padding value for the elements outside.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_GLOBALACCESS_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_GLOBALACCESS_H

#include "ThreadMapping.h"

#include "layout/Dialect/Layout/Utils/TileAccess.h"

namespace mlir {
namespace layout {
namespace tiles {

class GlobalAccess {
public:
  /// Traces the access of `side` at `b`'s insertion point (the tile origin,
  /// the view's extents, the run-time alignment test of dynamic strides).
  static FailureOr<GlobalAccess> create(OpBuilder &b, const GlobalSide &side,
                                        int64_t width, std::string &why);

  /// Whether the whole tile is inside the view and every vector aligned
  /// (then no access needs a guard), or null when that always holds (or,
  /// for views through descriptors moved element by element, when each
  /// element is tested anyway).
  Value tileInside(OpBuilder &b) const;

  /// The view's extent along dimension `k`, and the view coordinate of
  /// the tile's first element along it.
  Value extent(int64_t k) const { return access.extents[k]; }
  Value origin(int64_t k) const { return access.origin[k]; }
  /// The linear element offset in memory (from the memref's aligned base)
  /// of tile coordinate `tileCoord`, for views of strided memrefs.
  Value elementOffset(OpBuilder &b, ValueRange tileCoord) const;

  /// The `width` elements at tile coordinate `tileCoord` along the
  /// contiguous dimension. `inside`: the caller knows the whole tile is
  /// inside the view and aligned (see tileInside).
  Value load(OpBuilder &b, ValueRange tileCoord, bool inside) const;

  /// Stores the `width`-vector `value` at tile coordinate `tileCoord`.
  void store(OpBuilder &b, Value value, ValueRange tileCoord,
             bool inside) const;

  /// Whether the access can be an asynchronous copy into workgroup memory
  /// (copyAsync): `width`-vectors of 4, 8 or 16 bytes along a unit-stride
  /// dimension of a memref or the runs of a descriptor view, masked
  /// elements read as zero.
  bool copiesAsync() const;
  /// The run-time test that the dynamic strides and offset keep
  /// `width`-vectors aligned (null when statically true).
  Value alignment() const { return aligned; }
  /// The strided memref that view coordinates index (TileAccess::strided),
  /// or null for views through descriptors.
  Value stridedMemref() const { return access.strided; }

  /// Starts the asynchronous copy (nvgpu.device_async_copy: PTX cp.async)
  /// of the `width` elements at tile coordinate `tileCoord` to `dst` at
  /// `dstIndices`. The vectors must be aligned (alignment(); the caller
  /// versions on it). Masked, a vector that crosses the view's edge copies
  /// its elements inside and zero-fills the rest; one wholly outside copies
  /// none (from the view's first element, a valid address). `inside`: as
  /// for load.
  void copyAsync(OpBuilder &b, ValueRange tileCoord, bool inside, Value dst,
                 ValueRange dstIndices) const;

private:
  GlobalAccess(const GlobalSide &side, int64_t width)
      : side(side), width(width) {}

  Location loc() const { return side.op->getLoc(); }
  bool vectorizes() const {
    return width > 1 && (access.strided || access.desc) && side.unitStride;
  }
  /// Whether elements moved one by one test that they are inside the view:
  /// masked accesses, except in a whole tile of a strided view (`inside`).
  bool guardsElements(bool inside) const {
    return side.masked && !(inside && access.strided);
  }
  /// Where the `width`-vector at view coordinate `coord` starts, as a
  /// memref whose last dimension is the contiguous one (vector.load / store
  /// and cp.async move along the last): a strided view whose unit stride is
  /// another dimension (a column-major input) goes through memref.transpose.
  ElementRef vectorRef(OpBuilder &b, Location l, ValueRange coord) const;
  /// Whether the vector at `coord` is at a valid descriptor coordinate, for
  /// masked accesses through descriptors that can be invalid (null: always).
  /// A vector is valid or invalid as a whole (VectorLength.h).
  Value vectorValid(OpBuilder &b, Location l, ValueRange coord) const;
  VectorType vectorType() const {
    return VectorType::get({width}, side.elementType);
  }
  /// The conjunction of run-time tests that dynamic strides and offset
  /// keep `width`-vectors aligned (null when statically true).
  Value alignmentTest(OpBuilder &b) const;
  /// Emits `vectorPath` where the vector at view coordinate `coord` moves
  /// as one vector, `elementPath` where it moves element by element, and
  /// an scf.if on the run-time test between them otherwise. Both paths
  /// return the loaded vector, or null for stores.
  Value dispatch(OpBuilder &b, ValueRange coord, bool inside,
                 function_ref<Value(OpBuilder &, Location)> vectorPath,
                 function_ref<Value(OpBuilder &, Location)> elementPath) const;

  GlobalSide side;
  int64_t width;
  TileAccess access;
  /// Whether the dynamic strides and offset allow `width`-vectors (null:
  /// statically true).
  Value aligned;
};

/// The run-time test that the dynamic strides of `memref` (other than that
/// of dimension `contiguous`) and its dynamic offset are multiples of
/// `width` elements, so that `width`-vectors along `contiguous` stay
/// aligned; null when none is dynamic, or the divisibility facts say each
/// is such a multiple.
Value stridesMultipleOf(OpBuilder &b, Location loc, Value memref,
                        int64_t contiguous, int64_t width);

/// Whether stridesMultipleOf tests anything for `memref` and `width`: a
/// stride other than `contiguous`'s, or the offset, is dynamic and not known
/// to be a multiple of `width` (layout/Dialect/Layout/IR/Divisibility.h).
bool hasRunTimeAlignment(Value memref, int64_t contiguous, int64_t width);

/// Emits `for iter in [0, iterations)` around `body(iter)` (no loop for one
/// iteration).
void forEachIteration(OpBuilder &b, Location loc, int64_t iterations,
                      function_ref<void(OpBuilder &, Value)> body);

/// Emits, for each iteration of `threads` threads over the blocks of `m`,
/// `body` at the origin of the block that thread `tid` moves there (under
/// a guard where the last iteration is partial).
void forEachBlock(OpBuilder &b, Location loc, const Mapping &m, Value tid,
                  int64_t threads,
                  function_ref<void(OpBuilder &, ArrayRef<Value>)> body);

/// Emits `body(inside = true)` when `inside` holds and `body(false)`
/// otherwise, as an scf.if on the block-uniform condition, or `body(true)`
/// alone when `inside` is null (always true).
void ifInside(OpBuilder &b, Location loc, Value inside,
              function_ref<void(OpBuilder &, bool)> body);

/// The conjunction of the non-null `conds` (null if none).
Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> conds);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_GLOBALACCESS_H
