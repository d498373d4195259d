//===- FragmentProgram.h - Loops whose tiles live in fragments --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A fragment program (issue 40; docs/attention-plan.md, stages 3-7) is an
// scf.for over tiles that holds several contractions (attention's
// S = Q K^T and O += P V): every tile value of the loop lives in the
// registers of one matrix instruction's accumulator layout, and the loop
// never leaves them:
//
//  - a contraction multiplies staged operands (cooperative layout.loads,
//    through workgroup buffers as in the GEMM) or a value of the program
//    (an accumulator after elementwise ops and arith.truncf) re-viewed as
//    the next instruction's operand fragment where the register layouts
//    agree per lane (FragmentConversion.h decides), accumulating onto any
//    value: a splat constant, an iter_arg, a computed tile;
//  - vector.multi_reduction along the rows of such a tile folds each lane's
//    registers of a row, then the lanes that share the row by a butterfly
//    of gpu.shuffle xor (FragmentReduction.h decides the registers and the
//    masks): the row vector (a "slice") is held by every lane of the row;
//  - a slice broadcast back over a tile (vector.shape_cast to R x 1, then
//    vector.broadcast) reads each register's row value: no data movement;
//  - the tiles and slices the loop carries are per-lane iter_args, stored
//    after the loop by the lanes that hold them.
//
// The waves split the rows only (each wave holds whole rows, so that row
// statistics and re-views stay within it). Recognition and planning are
// FragmentProgram.cpp (everything decided and checked before any IR is
// created), emission FragmentEmit.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H

#include "ContractionPlan.h"

#include "layout/Evaluator/FragmentReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <deque>

namespace mlir {
namespace layout {
namespace tiles {

struct FragmentContext;

/// Where a value of a fragment program lives in each lane.
enum class FragmentKind : uint8_t {
  /// Not a tile: scalars (indices, loop bounds), cloned as they are.
  Scalar,
  /// A splat constant or a broadcast scalar: materialized at its use in
  /// the user's shape.
  Splat,
  /// A BM x cols tile in the instruction's C layout: per lane, the wave
  /// tile's rm x (cols / n) C fragments, row-major.
  Matrix,
  /// A vector of BM rows (or BM x 1): per lane, one vector of the rows it
  /// holds in the C layout (FragmentReduction's groups, in their order).
  Slice,
  /// A cooperative layout.load staged through a workgroup buffer, read as
  /// an operand of a contraction.
  Staged,
  /// Positions: a vector computed from vector.step, splats and elementwise
  /// ops (a causal or ragged mask's rows and columns). No lane holds it: a
  /// broadcast onto a tile (of a C vector across the rows, or of a BM x 1
  /// one across the columns) evaluates it at each register's column or row.
  Coordinates,
};

/// Where one register of a computed operand comes from: register `reg` of
/// the producer's C fragments, of the lane itself (lanes whose bit is set
/// in `own`) or of lane `lane ^ xorMask` (the others, by gpu.shuffle xor).
struct FragmentSource {
  FragmentRegister reg;
  int64_t xorMask = 0;
  uint64_t own = ~uint64_t(0);
};

/// One vector.contract of the program: the user's operands (lhs x rhs,
/// logical), and the instruction's (A x B) in the program's orientation.
struct FragmentSite {
  vector::ContractionOp contract;
  /// The user's lhs and rhs: staged leaves (indices into
  /// FragmentProgram::leaves) or -1 (a value of the program); the positions
  /// of m, k in the lhs tile and of k, n in the rhs tile; the tile sizes.
  int lhs = -1, rhs = -1;
  int64_t lM = 0, lK = 1, rK = 0, rN = 1;
  int64_t rows = 0, cols = 0, depth = 0;

  /// In the instruction's terms (FragmentProgram::transposed swaps the
  /// operands: C^T = B^T A^T): the distribution as the GEMM's Plan gives
  /// it, for the fragment reads (FragmentContext); A's and B's leaves (-1:
  /// computed) and positions.
  Plan plan;
  int a = -1, b = -1;
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
  /// For a computed operand (A, or B when transposed): where operand
  /// fragment (tile, element) comes from, [tile * elements + element]; the
  /// same register in every lane (a re-view), or that register of the lane
  /// or its xor partner (gfx11 WMMA's C to B: lane ^ 16). `shuffles`: the
  /// gpu.shuffle ops a lane runs per product.
  SmallVector<FragmentSource> sources;
  int64_t shuffles = 0;
};

/// How the loop-variant staged tiles reach their buffers (FragmentCopies.h).
enum class FragmentCopyMode : uint8_t {
  /// Each group's loads, a barrier, the writes, a barrier, right before the
  /// first product that reads it.
  Synchronous,
  /// Each group loaded into registers one product ahead, written at its
  /// product.
  Registers,
  /// Each group copied by cp.async one product ahead.
  Async,
};

/// The plan of the staged copies (FragmentCopies.h).
struct FragmentCopyPlan {
  FragmentCopyMode mode = FragmentCopyMode::Synchronous;
  /// The staged leaves whose tile indices the loop does not change (Q):
  /// staged once, before it.
  SmallVector<int> beforeLoop;
  /// The loop-variant staged leaves (indices into FragmentProgram::leaves)
  /// by the product that first reads them, in program order.
  SmallVector<SmallVector<int>> groups;
  /// Per site: the group it reads first, or -1.
  SmallVector<int64_t> groupAt;
  /// The old loop's scalar ops that compute group 0's tile indices, in
  /// order: cloned with the induction variable of the next iteration (and,
  /// before the loop, of the first).
  SmallVector<Operation *> indexOps;
  /// Async: the site after whose product group 0's tiles of the next
  /// iteration are started (after a barrier: the last product that reads
  /// them), so that they load during the products and row statistics that
  /// follow instead of only during the last product; -1 otherwise (they
  /// start at the last group's arrival).
  int64_t releaseAfter = -1;
  /// Async, layout.copy_release = "ahead": every group's tiles of the next
  /// iteration start at the top of the iteration, into the other of two
  /// stages (stage: the iteration's number mod 2), behind its one barrier;
  /// the products wait for nothing (their tiles arrived during the
  /// previous iteration).
  bool ahead = false;
  /// Why the copies-ahead option found them unable to go ahead (empty when
  /// it was not asked or they go ahead).
  std::string notAhead;
  /// Why the copies are not of a faster mode (for the remark).
  std::string why;
};

/// FlashAttention-3's overlap of a warpgroup's row statistics with its
/// last product (sm_90a; FragmentRotation.cpp): the last product (P V)
/// of iteration j is issued in iteration j + 1, right after the first
/// product (S = Q K^T) of that iteration, whose operands the loop's
/// values do not change, so that the tensor cores run P_j V_j while the
/// warpgroup computes the row statistics of S_{j+1}:
///
///   top:      cp.async.wait_group 0; barrier; copy group 0's next tiles
///             into the other stage, group 1's tiles into this one
///   product 0 (S_{j+1}), then product 1 of iteration j; wait_group 1
///   ... the program's ops; wait_group 0 before the first use of
///   the deferred product's result (the iter_arg it is yielded to)
///   product 1's operands are computed and carried, not multiplied
///
/// The first iteration is peeled (no deferred product), the last deferred
/// product runs after the loop. The loop-variant tiles have two stages:
/// one barrier an iteration, every copy a whole iteration ahead.
struct FragmentRotation {
  /// The deferred product's site, or -1 (the products run in order).
  int64_t deferred = -1;
  /// The iter_arg its result is yielded to, and the op of the loop body
  /// that reads it first (the deferred product is waited for before it).
  int64_t arg = -1;
  Operation *firstUse = nullptr;
  /// Why the products run in order, where the rotation was considered.
  std::string why;
};

/// An arith.select whose condition is a conjunction (arith.andi) of
/// ordered compares, each of a broadcast of monotone positions (a tile's
/// column or row positions: FragmentKind::Coordinates) with another or with
/// a splat (a causal mask, a ragged-key bound), planned by planMasks:
/// where every compare holds over the whole block tile, which the
/// sequences' ends decide, a block-uniform branch takes the select's true
/// value and skips the compares and selects (FlashAttention-2 masks only
/// the tiles that cross the diagonal or the end of the keys).
struct FragmentMask {
  /// The condition's ops (arith.andi, arith.cmpi, position broadcasts), in
  /// program order: emitted only where the mask is evaluated.
  SmallVector<Operation *> ops;
  SmallVector<arith::CmpIOp> compares;
};

/// A planned fragment program.
struct FragmentProgram {
  scf::ForOp loop;
  /// The instruction whose C fragments hold the program's tiles. For wgmma
  /// (sm_90a), the m64n8 one: a warpgroup's m64nN accumulator is N / 8 of
  /// its fragments side by side, so one product of N columns is one wgmma
  /// per K step over the concatenated fragments (FragmentWarpgroup.cpp).
  const MatrixInstruction *inst = nullptr;
  /// The instruction as a computed operand's consumer sees it: `inst`, or
  /// for wgmma its register-A form (wgmmaRegisterAForm).
  const MatrixInstruction *operandInst = nullptr;
  /// Whether the instructions compute the transposes of the program's
  /// tiles (S^T = K Q^T for S = Q K^T): an accumulator is then an operand
  /// by re-view on MFMA, whose C fragments are B fragments (C to A is
  /// not; FragmentConversion.h). Rows of the program's tiles are then the
  /// instructions' columns, and the waves split those.
  bool transposed = false;
  /// The block tile's rows, the waves (all along the rows) and each wave's
  /// rows.
  int64_t bm = 0, waves = 1, tm = 0;
  Type elementType;
  /// The staged loads (stable addresses: FragmentContext points at them).
  std::deque<Leaf> leaves;
  std::vector<StagingMapping> staging;
  std::vector<FragmentSite> sites;
  FragmentCopyPlan copies;
  FragmentRotation rotation;
  /// The masks with a uniform fast path, by their select.
  DenseMap<Operation *, FragmentMask> masks;
  /// The kind of every value the emission meets: the loop's block
  /// arguments and ops, and the ops after the loop that use its results.
  DenseMap<Value, FragmentKind> kinds;
  /// The ops after the loop, in order (their stores last in each chain),
  /// that the emission compiles and erases.
  SmallVector<Operation *> after;
  /// How a row vector is held: the C layout's groups of registers that
  /// share a row of the program's tiles, over one instruction tile across
  /// the wave's rows (the same rows for every tile width).
  FragmentReduction rows;
  /// The row-reduction plans by tile width (columns).
  std::map<int64_t, FragmentReduction> reductions;
  /// Whether choices are remarked as diagnostics.
  bool remarks = false;
  /// The stores of Matrix tiles after the loop that go out as each lane's
  /// pairs of consecutive columns (pairRun: mma.sync's and wgmma's C, a
  /// view along the columns), and the alignment their views are analyzed
  /// with; the others store element by element.
  DenseSet<Operation *> pairStores;
  int64_t alignBytes = 0;

  /// The reduction plan of a Matrix tile `cols` wide (planned).
  const FragmentReduction &reductionOf(int64_t cols) const {
    return reductions.at(cols);
  }
  /// The instruction tiles (along the instruction's rows, its columns) of
  /// a wave's part of a Matrix tile `cols` wide.
  std::pair<int64_t, int64_t> tilesOf(int64_t cols) const {
    if (transposed)
      return {cols / inst->m, tm / inst->n};
    return {tm / inst->m, cols / inst->n};
  }
  /// The reduction of a wave's part of a Matrix tile `cols` wide along the
  /// program's rows, as the evaluator plans it.
  llvm::Expected<FragmentReduction> planRows(int64_t cols) const {
    if (transposed)
      return planFragmentReduction(*inst, MatrixOperand::C, 0, cols, tm);
    return planFragmentReduction(*inst, MatrixOperand::C, 1, tm, cols);
  }
};

/// The first value and the step of a 1-D integer or index constant whose
/// elements are an arithmetic sequence (what the canonicalizer makes of
/// vector.step and its sums with splats), or std::nullopt.
std::optional<std::pair<int64_t, int64_t>> arithmeticSequence(Operation *op);

/// Fills `p.masks`: the selects of the loop whose condition is a
/// FragmentMask (FragmentMasks.cpp).
void planMasks(FragmentProgram &p);

/// Whether `loop` is compiled as a fragment program (it holds more than one
/// vector.contract, or one whose accumulator is not an iter_arg of the
/// loop: a product per iteration the loop computes with, as block-scaled
/// GEMMs do): the GEMM path (Contraction.h) leaves it alone.
bool isFragmentProgramLoop(scf::ForOp loop);

/// Recognizes and plans the fragment program of `loop` on
/// `options.chip`, with a diagnostic at the op that does not fit.
FailureOr<FragmentProgram>
planFragmentProgram(scf::ForOp loop, gpu::GPUFuncOp func,
                    ArrayRef<int64_t> block, BlockUniformity &uniform,
                    const CooperativeTileOptions &options);

/// The products of `site` on wgmma (`cx.plan.inst`, the m64n8 unit;
/// FragmentWarpgroup.cpp): for each of the warpgroup's 64-row instruction
/// tiles, its `accs` fragments (C fragments row-major, plan.rn per row)
/// concatenated into one m64nN accumulator, one layout.warpgroup_mma per K
/// step with A staged (`aRegisters` null) or one
/// layout.warpgroup_mma_reg_a with A's registers `aRegisters(tile)`
/// (tile i * ks + s of the computed A), all between wgmma.fence and
/// commit_group / wait_group 0; the result split back into fragments.
SmallVector<Value>
multiplyWarpgroupFragments(OpBuilder &b, Location loc,
                           const FragmentContext &cx, ArrayRef<Value> accs,
                           function_ref<Value(int64_t)> aRegisters);
/// The m64nN accumulators of multiplyWarpgroupFragments, one per 64-row
/// instruction tile: `accs` concatenated (a zero constant for zeros).
SmallVector<Value> warpgroupAccumulators(OpBuilder &b, Location loc,
                                         const FragmentContext &cx,
                                         ArrayRef<Value> accs);
/// The wgmma ops alone of multiplyWarpgroupFragments onto `accumulators`
/// (warpgroupAccumulators; between a fence and a commit the caller
/// emits), A's registers given (empty: A staged). A buffer of two stages
/// is read in `cx.stage`.
SmallVector<Value> issueWarpgroupFragments(OpBuilder &b, Location loc,
                                           const FragmentContext &cx,
                                           ArrayRef<Value> accumulators,
                                           ArrayRef<Value> aRegs);
/// The C fragments of issueWarpgroupFragments's accumulators.
SmallVector<Value> warpgroupFragmentsOf(OpBuilder &b, Location loc,
                                        const FragmentContext &cx,
                                        ArrayRef<Value> rows);

/// Emits `program` (FragmentEmit.cpp): the per-lane loop, the stores after
/// it, remarks; erases the tile program's ops.
LogicalResult emitFragmentProgram(FragmentProgram &program, gpu::GPUFuncOp func,
                                  ArrayRef<int64_t> block);

/// Compiles every fragment program loop of `func` (a kernel with a known
/// block size).
LogicalResult distributeFragmentPrograms(gpu::GPUFuncOp func,
                                         ArrayRef<int64_t> block,
                                         BlockUniformity &uniform,
                                         const CooperativeTileOptions &options);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_FRAGMENTPROGRAM_H
