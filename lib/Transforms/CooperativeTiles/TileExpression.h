//===- TileExpression.h - The expression a cooperative store stores -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A cooperative store's tile is an expression of cooperative loads (the
// leaves), ops that move a tile's elements (vector.transpose, broadcasts of
// tiles, unit shape casts: movesTile), elementwise ops, splat constants and
// broadcasts of scalars, a value possibly used several times (by several
// stores too); every thread evaluates it on its own fragments (reductions
// are rewritten into such expressions first, Reduction.h). This file
// collects those expressions from a kernel (with a diagnostic at the op that
// does not fit) and evaluates one on fragments.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_TILEEXPRESSION_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_TILEEXPRESSION_H

#include "GlobalAccess.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <vector>

namespace mlir {
namespace layout {
namespace tiles {

/// How an op of a tile expression is evaluated on fragments (the one
/// classification the tile copies and the contraction epilogues share).
enum class FragmentOp {
  /// Not an op a tile expression may contain.
  None,
  /// A splat vector constant: the same constant on every fragment.
  SplatConstant,
  /// vector.broadcast of a scalar: the scalar on every fragment.
  ScalarBroadcast,
  /// A pure elementwise op of vector operands: cloned on the fragments.
  Elementwise,
};
FragmentOp classifyFragmentOp(Operation *op);

/// A leaf of a cooperative tile expression: a cooperative load.
struct Leaf {
  LoadOp load;
  /// Store dimension k is this load's dimension perm[k], or -1 where a
  /// vector.broadcast above the load repeats it along store dimension k or
  /// a unit shape_cast adds it (the load's other dimensions are unit
  /// ones, read at 0).
  SmallVector<int64_t> perm;
  GlobalSide side;
  /// Whether it goes through a workgroup buffer (its fastest dimension is
  /// not the store's).
  bool staged = false;
  /// The staging: buffer, descriptor, and the load dimensions it keeps
  /// (the non-unit ones). A buffer of several pipeline stages has the stage
  /// as its descriptor's first dimension.
  Value buffer;
  Value desc;
  SmallVector<int64_t> bufDims;
  int64_t stages = 1;
  /// Extra elements before the tile along load dimension `haloDim` that the
  /// buffer holds (rows of the neighbouring tile: the windows of
  /// Distribute.cpp); buffer coordinates are then load coordinates plus
  /// `halo` along it.
  int64_t halo = 0;
  int64_t haloDim = -1;
  /// The store dimension along the buffer's rows (staged leaves).
  int64_t rowDim = -1;
  /// The load's access (direct leaves, traced at the store).
  std::optional<GlobalAccess> direct;

  /// The buffer coordinate of load coordinate `loadCoord` (in pipeline
  /// stage `stage` of a buffer of several).
  SmallVector<Value> bufCoord(ArrayRef<Value> loadCoord,
                              Value stage = Value()) const;
  /// The elements of one stage of its buffer (the tile, unit dimensions
  /// dropped; `bufDims` must be set).
  int64_t stageElements() const;
  /// The load coordinate of store coordinate `storeCoord`.
  SmallVector<Value> fromStore(OpBuilder &b, Location loc,
                               ArrayRef<Value> storeCoord) const;
  /// Whether a fragment along the store's rows is one element repeated
  /// (the store's contiguous dimension is a broadcast one).
  bool splat = false;
};

/// A cooperative store and the tile expression it stores.
struct TileTree {
  StoreOp store;
  std::vector<Leaf> leaves;
  /// The ops between the leaves and the store, operands before users.
  SmallVector<Operation *> ops;
  /// Values evaluated by a given leaf index whatever the permutation (the
  /// contraction epilogues' accumulator and broadcasts).
  DenseMap<Value, unsigned> leafOf;

  /// The leaf that evaluates `v` reached with permutation `perm`: from
  /// leafOf, else the leaf of that load and permutation.
  std::optional<unsigned> leafAt(Value v, ArrayRef<int64_t> perm) const;
};

/// Erases the trees' stores, then their ops and loads once unused (trees
/// may share them), after lowering.
void eraseTileTrees(ArrayRef<TileTree> trees);

/// The permutation with which the tile operand of `op` (a vector.transpose,
/// a vector.broadcast of a vector or a unit shape_cast) is reached when `op` is
/// reached with `perm` (store dimension k is op's dimension perm[k], -1: none):
/// store dimension k is the operand's dimension result[k], or -1 where the
/// broadcast adds or stretches it.
SmallVector<int64_t> throughTileOp(Operation *op, ArrayRef<int64_t> perm);

/// Whether `op` is a vector.shape_cast that only adds or drops unit
/// dimensions.
bool isUnitShapeCast(Operation *op);

/// Whether `op` moves a tile's elements without computing (a transpose, a
/// broadcast of a tile, a unit shape cast): throughTileOp maps through it.
bool movesTile(Operation *op);

/// Whether `op` is a vector.broadcast of a vector (rows or columns of a
/// tile repeated along new or unit dimensions).
bool isTileBroadcast(Operation *op);

/// Collects the tile expressions of `func`'s cooperative stores. Emits a
/// diagnostic and fails at the first store whose expression does not fit
/// (one diagnostic per kernel), or at a cooperative load no such store
/// consumes.
FailureOr<std::vector<TileTree>> collectTileTrees(gpu::GPUFuncOp func,
                                                  BlockUniformity &uniform);

/// How the threads deal a staged leaf's tile for phase 1: the mapping, the
/// vector width and the iterations per thread. A transposing staging (the
/// buffer's fastest dimension `across` is not the global rows' one) gives
/// each thread `depth` rows of `width`-element vectors per block, which it
/// transposes in registers into `width` vectors of `depth` elements along
/// the buffer's rows (CK's thread-wise transfer with different source and
/// destination vector dimensions): whole-vector writes instead of one per
/// element.
struct StagingMapping {
  Mapping mapping;
  int64_t width;
  int64_t iterations;
  int64_t depth = 1;
  int64_t across = -1;

  /// The global vectors one thread loads per tile.
  int64_t vectors() const { return iterations * depth; }
};

/// The phase-1 mapping of `leaf` for `threads` threads (a diagnostic when
/// the block does not divide the tile; with `uneven`, the last iteration
/// may be partial instead: StagingMapping::mapping.active). With `transpose`, a
/// leaf whose buffer's fastest dimension (`leaf.bufDims.back()`) is not its
/// global contiguous one is dealt in blocks `depth` deep along the buffer's
/// fastest dimension (up to 16-byte writes), numbered along it first.
FailureOr<StagingMapping> stagingMapping(const Leaf &leaf, int64_t threads,
                                         bool transpose = false,
                                         bool uneven = false);

/// The most alignment an LDS vector access claims: 16 bytes, the widest
/// single LDS instruction (wider register blocks are split).
constexpr int64_t kMaxWorkgroupAccessAlignment = 16;

/// Adds a workgroup attribution of `shape` x `elementType` to `func`,
/// aligned to kWorkgroupBufferAlignment (llvm.align), and returns it.
Value addAlignedWorkgroupBuffer(gpu::GPUFuncOp func, ArrayRef<int64_t> shape,
                                Type elementType, Location loc);

/// The alignment a `bytes`-byte vector access to a workgroup buffer at a
/// multiple of its size may claim: the largest power of two dividing it,
/// at most kMaxWorkgroupAccessAlignment.
llvm::MaybeAlign workgroupAccessAlignment(int64_t bytes);

/// A workgroup buffer over the leaf's tile (dimensions `leaf.bufDims`), or
/// `stages` such tiles, and the packed descriptor that indexes it, created
/// at `b`. With `padRows`, a buffer of two or more dimensions has its rows
/// padded to oddWordRowLength (a layout.naive descriptor). With `storage`
/// (a workgroup buffer of bytes), the buffer is a memref.view of it.
void allocateStagingBuffer(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b,
                           int64_t stages = 1, bool padRows = false,
                           Value storage = Value());

/// The elements of the buffer allocateStagingBuffer allocates for `leaf`.
int64_t stagingBufferElements(const Leaf &leaf, int64_t stages, bool padRows);

/// The bytes that a staged leaf's buffer and the padded buffer of its
/// second version (`window`, Distribute.cpp) share.
int64_t versionedStagingBytes(const Leaf &leaf, const Leaf &window);

/// The least row length of at least `length` elements of `elementBytes`
/// bytes that is an odd number of 4-byte banks (of 8-byte pairs for wider
/// elements): lanes on consecutive rows of one column never share a bank.
int64_t oddWordRowLength(int64_t length, int64_t elementBytes);

/// Writes one thread's block `v` (`width` elements along the load's
/// contiguous dimension from tile coordinate `origin`) to the leaf's buffer.
void writeStagedBlock(OpBuilder &b, Location loc, const Leaf &leaf,
                      ArrayRef<Value> origin, Value v, int64_t width,
                      Value stage = Value());

/// The second version of a staged leaf's phase 1, for a store whose rows
/// are aligned only at run time (Distribute.cpp): where the store's
/// `storeWidth`-vectors along `storeContiguous` of `storeMemref` are not
/// aligned, the tile goes element by element into `windowLeaf`'s buffer.
struct StagingVersion {
  Value storeMemref;
  int64_t storeContiguous = 0;
  int64_t storeWidth = 1;
  /// A copy of the leaf that receives the second buffer (null: no second
  /// version).
  Leaf *windowLeaf = nullptr;
};

/// Phase 1 of a staged leaf, at its load: a workgroup buffer over the
/// load's tile (unit dimensions dropped; `leaf.bufDims`), written with
/// coalesced vectors (element by element, consecutive lanes on consecutive
/// elements, where the load's rows are unaligned at run time), and the
/// packed descriptor that indexes it (`leaf.desc`). In a loop, a barrier
/// first (every thread has read the previous tile). With a second
/// `version`, both buffers and a run-time choice between them.
LogicalResult stageLeaf(gpu::GPUFuncOp func, Leaf &leaf,
                        ArrayRef<int64_t> block,
                        const StagingVersion &version = {});

/// The fragment of the tile value `v` that is a vector of `width` elements
/// along the store's contiguous dimension: leaves come from `leafValue`
/// (by index into `tree.leaves`), the other ops are cloned on fragments.
Value evaluateFragment(OpBuilder &b, Location loc, const TileTree &tree,
                       Value v, int64_t width,
                       function_ref<Value(unsigned)> leafValue);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_TILEEXPRESSION_H
