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
/// Whether `v` is a splat: a splat constant or a broadcast scalar (one
/// value on every fragment).
bool isSplatValue(Value v);

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
  /// StoreWindows.h); buffer coordinates are then load coordinates plus
  /// `halo` along it.
  int64_t halo = 0;
  int64_t haloDim = -1;
  /// The store dimension along the buffer's rows (staged leaves).
  int64_t rowDim = -1;
  /// The load's access (direct leaves, traced at the store).
  std::optional<GlobalAccess> direct;

  /// The buffer coordinate of load coordinate `loadCoord` (in pipeline
  /// stage `stage` of a buffer of several; a buffer of one stage ignores
  /// it, so that one stage serves a product of a staged tile and a
  /// once-staged one).
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
