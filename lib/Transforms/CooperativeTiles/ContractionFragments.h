//===- ContractionFragments.h - Tile contractions: fragments ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// What each lane of a planned tile contraction does with its fragments:
// reads them from the staged A and B buffers through the instruction's
// register layouts (MatrixInstructions.h), issues the matrix instructions
// of a K tile, and after the loop evaluates the epilogue on them and stores
// its elements of C. The K loop around them is ContractionPipeline.h.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONFRAGMENTS_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONFRAGMENTS_H

#include "ContractionPlan.h"

namespace mlir {
namespace layout {
namespace tiles {

/// Everything the fragment reads, the matrix instructions and the epilogue
/// read.
struct FragmentContext {
  const Plan &plan;
  /// The operands the fragments are read from.
  OperandLeaves operands;
  Value lane;
  /// The wave tile's first row and column in the block tile.
  Value waveRow, waveCol;
  /// The register layouts of A, B and C as descriptors.
  Value layoutA, layoutB, layoutC;
  /// The instruction's ldmatrix row addresses of A and B as descriptors
  /// (null where A or B is not read with ldmatrix), and the loads.
  Value rowsA, rowsB;
  const LdMatrixLoad *loadA = nullptr, *loadB = nullptr;
  /// The pipeline stage the fragments are read from (null: the buffers
  /// hold one).
  Value stage;
  /// The wgmma batches a K step leaves in flight (wgmma.wait_group's
  /// count): 0 where the step's stage is overwritten next, 1 where the
  /// loop refills the previous step's stage instead (BulkSteps).
  int64_t wgmmaInFlight = 0;
  /// The block's linear thread id and thread count.
  Value tid;
  int64_t threads = 0;

  /// The context of thread `tid` (the block's linear thread id): its lane,
  /// its wave tile's origin and the layouts, built at `b`.
  static FragmentContext create(OpBuilder &b, Location loc, const Plan &plan,
                                const OperandLeaves &operands, Value tid);
};

/// The vector type of operand `operand` of the instruction's MLIR op
/// (one with a vector shape: not A or B of the f32 MFMAs).
VectorType operandType(const MatrixInstruction &inst, MatrixOperand operand,
                       Type elementType);
/// The type of operand `operand` of the instruction's MLIR op: operandType,
/// or `elementType` itself where the op takes a scalar (A and B of the f32
/// MFMAs, an empty shape in the table).
Type operandValueType(const MatrixInstruction &inst, MatrixOperand operand,
                      Type elementType);

/// The operand fragment of `inst` (its MLIR op's type for `operand`) made
/// of `elements` in register order (tf32 elements converted as mma.sync
/// takes them).
Value fragmentOf(OpBuilder &b, Location loc, const MatrixInstruction &inst,
                 MatrixOperand operand, Type et, SmallVector<Value> elements);

/// The (row, col) that `layout` (a register or row-address layout of the
/// table, materialized) maps `top` to in its row-major `cols`-column tile,
/// in IR: the layout's offset split as operandCoord splits it.
std::pair<Value, Value> tileCoordAt(OpBuilder &b, Location loc, Value layout,
                                    ValueRange top, int64_t cols);

/// A lane's fragments of A or B for several instruction tiles: [tile][s],
/// s the K step within a packed group.
using OperandFragments = SmallVector<SmallVector<Value>>;
/// The fragments of `operand` (A or B, from its staged buffer) for the
/// wave's `count` tiles along M (A) or N (B), `step` apart from `base`, at
/// K offset `k0`, `pack` K steps each (one packed read where pack > 1).
OperandFragments readOperandFragments(OpBuilder &b, Location loc,
                                      const FragmentContext &cx,
                                      MatrixOperand operand, int64_t count,
                                      Value base, int64_t step, Value k0,
                                      int64_t pack);
/// The matrix instructions of `pack` K steps: as.size() x bs.size()
/// instruction tiles accumulated onto `accs` (row-major), in place. The
/// fragments may come from buffers (readOperandFragments) or from
/// registers (a fragment program's values).
void multiplyFragments(OpBuilder &b, Location loc,
                       const MatrixInstruction &inst,
                       const OperandFragments &as, const OperandFragments &bs,
                       MutableArrayRef<Value> accs, int64_t pack);

/// The K-tile step: fragments of A and B, RM * RN instructions per K step,
/// accumulated onto `accs` (the lane's RM * RN fragments of C).
SmallVector<Value> multiplyTile(OpBuilder &b, Location loc,
                                const FragmentContext &cx, ValueRange accs);

/// The K-tile step of a wgmma plan (ContractionWarpgroup.cpp): per K step
/// and instruction tile, one layout.warpgroup_mma of the wave's (the
/// warpgroup's) tiles of A and B in their buffers, between wgmma.fence and
/// commit_group / wait_group `cx.wgmmaInFlight`.
SmallVector<Value> multiplyWarpgroupTile(OpBuilder &b, Location loc,
                                         const FragmentContext &cx,
                                         ValueRange accs);

/// For a wgmma plan, the fence that orders a thread's staging writes before
/// the matrix instructions' reads (the proxy fence); nothing otherwise.
/// Each writer emits it after its writes, before the barrier.
void fenceStagingForWarpgroupMma(OpBuilder &b, Location loc,
                                 const MatrixInstruction &inst);

/// The positions in `leaf`'s buffer descriptor (a stage first where it has
/// several) of load dimensions `x` and `y`: the dims of a wgmma operand.
SmallVector<int64_t> descriptorDims(const Leaf &leaf, int64_t x, int64_t y);

/// Whether wgmma (`inst`) can read `leaf`'s tile from its buffer (ordered
/// by fragmentBufferOrder): two non-unit dimensions that
/// wgmmaStagingLayout lays out; a diagnostic (after `what`) otherwise.
LogicalResult checkWarpgroupMmaStaging(const MatrixInstruction &inst,
                                       const Leaf &leaf, StringRef what);

/// Lays out `leaf`'s staging buffer (allocated) as wgmma reads it: the
/// descriptor wgmmaStagingLayout gives, the attribution aligned to the
/// swizzle pattern (ContractionWarpgroup.cpp).
void layOutForWarpgroupMma(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b);

/// The bytes of one stage of `leaf`'s buffer that copyTileInBoxes fills.
int64_t boxBytesPerStage(const Leaf &leaf);
/// The columns of one of copyTileInBoxes's boxes: a row of the widest
/// swizzle mode the buffer's rows fill (TMA's rows are at most the mode's
/// bytes).
int64_t boxColumns(const Leaf &leaf);

/// Copies `leaf`'s tile at tile `indices` of kernel argument `source` into
/// pipeline stage `stage` of its buffer (laid out by layOutForWarpgroupMma)
/// as TMA boxes, one per swizzle row of the buffer's columns, completing
/// on mbarrier `barriers[barrier]` (ContractionWarpgroup.cpp): tiled boxes
/// of `source`, or where `im2col` is given (the tile is a block of its
/// implicit GEMM's A), im2col boxes of the NHWC memref `source`. Fails
/// (with a diagnostic) where the tile cannot be traced.
LogicalResult copyTileInBoxes(OpBuilder &b, Location loc, const Leaf &leaf,
                              Value source, const Im2colGeometry *im2col,
                              ArrayRef<Value> indices, int64_t width,
                              Value stage, Value barriers, Value barrier);

/// One lane's epilogue result for one C fragment: its elements and their
/// (row, column) in the block tile.
struct EvaluatedFragment {
  Value value;
  SmallVector<SmallVector<Value>> at;
};

/// Stores the `fragments`' runs of `run` consecutive columns with `g`:
/// unguarded vectors where the whole tile is inside and aligned (one test
/// for all of them), each vector tested otherwise.
void storeRuns(OpBuilder &b, Location loc, const GlobalAccess &g, int64_t run,
               ArrayRef<EvaluatedFragment> fragments);

/// The sm_90a epilogue through workgroup memory (ContractionWarpgroup.cpp),
/// the plan's EpiloguePlan::Rows: each lane writes its fragments' pairs to
/// the C buffer (in A's or B's staging buffer, else one of its own), the
/// block meets, and the threads store the tile's rows as coalesced vectors
/// with `g` (one whole-tile test, else each vector tested). Returns false
/// (emitting nothing) where the buffer is its own and the kernel's
/// workgroup memory has no room for it.
bool storeThroughWorkgroupMemory(OpBuilder &b, ContractionTree &t,
                                 const FragmentContext &cx,
                                 const GlobalAccess &g,
                                 ArrayRef<EvaluatedFragment> fragments);

/// After the loop: each lane evaluates the epilogue on its fragments `accs`
/// and stores its elements of C, masked at the edges, by the plan's
/// epilogue path (a diagnostic where the store or a bias cannot be
/// traced). Returns the path taken: the plan's, or Pairs where Rows found
/// no room for its buffer.
FailureOr<EpiloguePlan::Path> storeFragments(OpBuilder &b, ContractionTree &t,
                                             const FragmentContext &cx,
                                             ValueRange accs);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONFRAGMENTS_H
