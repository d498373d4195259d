//===- TileAccess.h - Where the elements of a partition tile live -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The pieces that the lowerings of `layout.load` / `layout.store` share:
// -convert-layout-to-vector (one thread moves the whole tile) and
// -layout-tile-shared-memory (the threads of a block share the tile): the
// trace of a partition to the memory behind it, and the one masked access
// of a single element.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_TILEACCESS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_TILEACCESS_H

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Simplify.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// Everything a tile access needs, traced from its partition.
struct TileAccess {
  PartitionViewType type;
  /// The view's extents (constants, or memref.dim of the memref).
  SmallVector<Value> extents;
  /// I_k * tile_k: the view coordinate of the tile's first element.
  SmallVector<Value> origin;
  /// A strided memref indexed by view coordinates (a memref view, or the
  /// buffer reinterpreted with a strided descriptor's strides), or null.
  Value strided;
  /// Otherwise the 1-D buffer and the descriptor that maps coordinates
  /// into it.
  Value buffer;
  Value desc;
  /// Whether the descriptor can make coordinates invalid (pads, sunder).
  bool descCanBeInvalid = false;
};

/// A partition traced to the memory behind it, before any op is created.
struct TracedView {
  /// The memref the view is over.
  Value source;
  /// For a view through a descriptor: its value and its traced chain, and
  /// its strided form when it is a plain strided base over a buffer with
  /// unit stride (`sourceOffset` is that buffer's offset).
  Value desc;
  std::optional<Descriptor> descriptor;
  /// The descriptor's run-time values, slot n (Transform.h) first at n.
  SmallVector<Value> runTime;
  std::optional<StridedBase> base;
  int64_t sourceOffset = 0;
  /// Whether the buffer behind a descriptor has unit stride (consecutive
  /// offsets are consecutive elements: vectors can move through it).
  bool contiguousSource = false;

  /// The strides and offset (ShapedType::kDynamic where only known at run
  /// time) with which view coordinates index memory, when they are affine:
  /// a memref view's own layout, or the strided descriptor's over its
  /// buffer. std::nullopt for other descriptors.
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> stridedLayout() const;
};

/// Traces `partition` (accessed by `op`, a load or a store) to its view,
/// memref and descriptor; `why` says what could not be traced, or why the
/// access is invalid: a store through a descriptor that is not injective
/// (Descriptor::checkInvertible) would write one memory element from
/// several tile elements, undefined behaviour in cuda::tiles.
FailureOr<TracedView> traceTileView(Operation *op, Value partition,
                                    std::string &why);

/// The extents of a traced view (its top lengths: run-time ones computed
/// from the descriptor's operands) as index values created at `b`.
SmallVector<Value> viewExtents(OpBuilder &b, Location loc,
                               const TracedView &traced);

/// What the run-time value of each slot of a traced view's descriptor is
/// known to be a multiple of (Divisibility.h), for VectorLength.h.
int64_t knownSlotMultiple(const TracedView &traced, int64_t slot);

/// Traces `partition` (of the access `op` at tile `indices`) to its view
/// and descriptor, then creates the ops that compute the tile's origin and
/// the view's extents at `b`'s insertion point. Every check comes before
/// the first op is created: on failure nothing is created and `why` says
/// what could not be traced.
FailureOr<TileAccess> traceAccess(OpBuilder &b, Operation *op, Value partition,
                                  ValueRange indices, bool atomic,
                                  std::string &why);

/// Whether an atomic access can address `memref`: its memory space must be
/// an LLVM address space (none or an integer).
bool hasIntegerMemorySpace(Value memref);

/// The padding value of `kind` (zero when absent) for `type`.
Value paddingValue(OpBuilder &b, Location loc, Type type,
                   std::optional<Padding> kind);

/// Where one element of a descriptor or strided view lives.
struct ElementRef {
  Value memref;
  SmallVector<Value> indices;
};

/// The element at view coordinate `coord`.
ElementRef elementRef(OpBuilder &b, Location loc, const TileAccess &access,
                      ValueRange coord);

/// Whether the element at `coord` is inside the view's extents and valid.
Value elementInside(OpBuilder &b, Location loc, const TileAccess &access,
                    ValueRange coord);

/// The view coordinate of element `inTile` of the tile: origin + inTile
/// (Partition.h's formula).
SmallVector<Value> tileElementCoord(OpBuilder &b, Location loc,
                                    const TileAccess &access,
                                    ValueRange inTile);

/// Reads the element `ref` names (a memref.load, or an atomic load).
using ElementReader =
    function_ref<Value(OpBuilder &, Location, const ElementRef &)>;
/// Writes the element `ref` names.
using ElementWriter =
    function_ref<void(OpBuilder &, Location, const ElementRef &)>;

/// The element at view coordinate `coord`, read with `read` (memref.load
/// when null). When `masked`, an element outside the view or at an invalid
/// descriptor coordinate is not read and is `padding`.
Value loadElement(OpBuilder &b, Location loc, const TileAccess &access,
                  ValueRange coord, bool masked, Value padding,
                  ElementReader read = nullptr);

/// Writes the element at view coordinate `coord` with `write`; when
/// `masked`, only if it is inside the view and valid.
void storeElement(OpBuilder &b, Location loc, const TileAccess &access,
                  ValueRange coord, bool masked, ElementWriter write);

/// storeElement with a memref.store of `value`.
void storeElement(OpBuilder &b, Location loc, const TileAccess &access,
                  ValueRange coord, bool masked, Value value);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_TILEACCESS_H
