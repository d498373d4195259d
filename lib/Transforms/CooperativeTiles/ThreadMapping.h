//===- ThreadMapping.h - Which thread moves which part of a tile -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The thread-mapping half of the cooperative tile distribution
// (-layout-tile-shared-memory): which values are the same in every thread
// of a block, how a tile's elements are dealt to the threads, and how wide
// the vectors of a global access can be.
//
// A mapping of a tile gives each thread, per iteration, a block of the tile:
// `width[k]` consecutive elements along each dimension k (1 for most). The
// blocks are numbered with `order[0]` fastest, and block g goes to thread
// g mod N at iteration g / N, for N threads: the lanes of a warp/wave take
// consecutive blocks along the fastest dimension. When N does not divide
// the blocks, the last iteration is partial (Mapping::active).
//
// A global access's fastest dimension is the one of unit stride (coalesced)
// and its width the widest vector (up to 16 bytes) that divides the tile,
// keeps the access aligned (strides and offset multiples of it, checked at
// run time when they are dynamic; buffers are assumed aligned to
// `assume-alignment` bytes) and gives every thread the same number of
// blocks (else the widest that divides the tile). This is how CK Tile and
// rocMLIR derive the vector length of a tile access from its descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_THREADMAPPING_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_THREADMAPPING_H

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/TileAccess.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {
namespace tiles {

/// An index constant.
Value indexConstant(OpBuilder &b, Location loc, int64_t value);

/// Whether values are provably the same in every thread of a block: kernel
/// arguments, block and grid ids and sizes, constants, memref.dim, ops
/// without memory effects (divisions included) of such values, and induction
/// variables of scf.for loops with such bounds. Thread and lane ids, loads and
/// everything else are not.
class BlockUniformity {
public:
  bool isUniform(Value v) { return isUniform(v, 0); }
  /// Whether every index in `indices` is uniform.
  bool allUniform(ValueRange indices);
  /// Whether `op` is a cooperative tile access: a layout.load or
  /// layout.store whose indices are the same in every thread.
  bool isCooperative(Operation *op);

private:
  bool isUniform(Value v, unsigned depth);
  DenseMap<Value, bool> memo;
};

/// Which elements of a tile each thread moves (see the file comment).
struct Mapping {
  SmallVector<int64_t> tile;
  SmallVector<int64_t> width;
  SmallVector<int64_t> order;

  /// A mapping of `tile` with unit widths and `order`.
  static Mapping unitWidths(ArrayRef<int64_t> tile, SmallVector<int64_t> order);
  /// How many blocks the tile has.
  int64_t blocks() const;
  /// Whether the widths divide the tile.
  bool divides() const;
  /// Whether the widths divide the tile and `threads` threads get the same
  /// number of blocks.
  bool fits(int64_t threads) const;
  /// The iterations of `threads` threads over the blocks: the last one is
  /// partial when the threads do not divide the blocks (see active).
  int64_t iterations(int64_t threads) const;
  /// Sets width[dim] to the widest power of two up to `max` that fits
  /// `threads` and returns it. With `uneven`, when none does, to the widest
  /// that divides the tile (a partial last iteration). 0 (with width[dim] =
  /// 1) when none does.
  int64_t fitWidth(int64_t dim, int64_t max, int64_t threads,
                   bool uneven = false);
  /// The tile coordinates of the first element of the block that thread
  /// `tid` moves at iteration `iter`.
  SmallVector<Value> blockOrigin(OpBuilder &b, Location loc, Value tid,
                                 Value iter, int64_t threads) const;
  /// Whether thread `tid` has a block at iteration `iter` (null: always,
  /// when the threads divide the blocks).
  Value active(OpBuilder &b, Location loc, Value tid, Value iter,
               int64_t threads) const;
};

/// Emits the diagnostic at `op` that a block of `threads` threads does not
/// divide its cooperative tile `tile` into equal parts, and fails.
LogicalResult divisionError(Operation *op, ArrayRef<int64_t> tile,
                            int64_t threads);

/// `first` (and then `second`, if different and not -1), then the other
/// dimensions from the last to the first.
SmallVector<int64_t> fastestFirst(int64_t rank, int64_t first,
                                  int64_t second = -1);

/// `base` with `step` added to coordinate `dim`.
SmallVector<Value> shifted(OpBuilder &b, Location loc, ValueRange base,
                           int64_t dim, int64_t step);

/// The block's linear thread id, x fastest.
Value linearThreadId(OpBuilder &b, Location loc, ArrayRef<int64_t> block);

/// The size in bytes of an element of `t` (at least 1).
int64_t elementBytes(Type t);

/// Whether per-element accesses of `t` may be grouped into vectors (a
/// power of two of whole bytes: a vector of i1 or i24 would be packed in
/// memory unlike memref elements).
bool vectorizable(Type t);

/// The widest power-of-two vector of `t` elements in at most `maxBytes`
/// bytes (1 for types that are not whole bytes).
int64_t widestVector(Type t, int64_t maxBytes);

/// One side of a cooperative copy: a global tile access.
struct GlobalSide {
  Operation *op;
  Value partition;
  SmallVector<Value> indices;
  bool masked;
  std::optional<Padding> padding;
  ArrayRef<int64_t> tile;
  Type elementType;
  /// The dimension the accesses move along: the one of unit stride (else
  /// the last one, unvectorized).
  int64_t contiguous = 0;
  /// Whether `contiguous` has unit stride (vectors are contiguous).
  bool unitStride = false;
  /// The widest vector the view's static layout allows along it.
  int64_t maxWidth = 1;
  /// Why `maxWidth` is narrower than 16 bytes (empty: it is not, or the
  /// view allows 16-byte vectors along it).
  std::string narrowWhy;

  static GlobalSide of(LoadOp load);
  static GlobalSide of(StoreOp store);

  /// Fills `contiguous`, `unitStride` and `maxWidth` from the strides and
  /// offset with which the view indexes memory (static ones here, dynamic
  /// ones are checked at run time): a memref view's layout, or a strided
  /// descriptor's. Views through other descriptors move vectors along their
  /// last dimension as long as its inferred runs (VectorLength.h), else
  /// element by element, with a remark that says why. `why` says what
  /// could not be traced.
  LogicalResult analyze(int64_t alignBytes, std::string &why);

private:
  void vectorsThroughDescriptor(const TracedView &traced, int64_t alignBytes);
};

/// What the tile pass chose for one access, as its remark says it
/// (remarkAccess): the threads, the vectors along `contiguous`, how the
/// threads share the tile, and why the vectors are narrower than 16 bytes.
/// Every path of the pass (copies, reductions, contractions) states its
/// plan's choice in this form, so that one function words them all.
struct AccessChoice {
  /// What the access is and how it goes: "load", "store (...)".
  std::string role;
  SmallVector<int64_t> tile;
  Type elementType;
  int64_t threads = 0;
  /// The dimension the vectors run along, and their elements.
  int64_t contiguous = 0;
  int64_t vectorElements = 1;
  /// How the threads share the tile, after "along dimension D": ", in
  /// blocks of ...; consecutive threads on consecutive blocks, ...".
  std::string arrangement;
  /// The elements each thread moves (at most, when an iteration is
  /// partial), and its iterations (0: not an iteration count).
  int64_t elementsPerThread = 0;
  int64_t iterations = 0;
  /// Why the vectors are narrower than 16 bytes (empty: they are not, or
  /// nothing narrowed them).
  std::string narrowWhy;
  /// More metrics for the remark engine (the contraction's instruction).
  SmallVector<std::pair<StringRef, std::string>> metrics;

  /// The choice of mapping `m` along `contiguous` for `threads` threads.
  static AccessChoice of(StringRef role, const Mapping &m, int64_t contiguous,
                         Type elementType, int64_t threads,
                         StringRef narrowWhy);
};

/// "256 threads, each moving 4 x f32 vectors (16 bytes) along dimension
/// 1; consecutive threads on consecutive blocks, dimension order [1, 0],
/// 1 iteration; 4 elements per thread": the text of `choice` after its
/// role and tile.
std::string describeChoice(const AccessChoice &choice);

/// The remark of the tile pass for one access at `loc` in `function`: its
/// choice (describeChoice) and, for vectors narrower than 16 bytes, why.
/// Through the remark engine when it takes the category layout-tiles; else
/// a diagnostic remark when `diagnostic`. The one place that words the
/// tile pass's remarks of accesses.
void remarkAccess(Location loc, StringRef function, const AccessChoice &choice,
                  bool diagnostic);

/// remarkAccess at `op`, in the function around it.
void remarkAccess(Operation *op, const AccessChoice &choice, bool diagnostic);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_THREADMAPPING_H
