//===- ContractionPlan.h - A matched, planned tile contraction --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Internal to the contraction distribution (Contraction.h): what
// Contraction.cpp recognizes (ContractionTree), and what planContraction
// (ContractionPlan.cpp) decides of it before any code is emitted: the
// matrix instruction, the wave grid and tile, the order of A's and B's
// buffers, how the threads stage them, whether their copies can be
// asynchronous, and the LDS stages of the K loop's pipeline within the
// workgroup memory the chip allows. The emission (ContractionPipeline.h,
// ContractionFragments.h) only reads the plan.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H

#include "Staging.h"
#include "TileExpression.h"

#include "layout/Evaluator/Im2col.h"
#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Transforms/CooperativeTiles.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace layout {
namespace tiles {

/// What the fragments of a contraction read of its operands: the staged
/// leaves of A and B and the positions of m, k in A's tile and of k, n in
/// B's (the GEMM's ContractionTree::leaves(); a loop of several
/// contractions gives each its own).
struct OperandLeaves {
  const Leaf *a = nullptr, *b = nullptr;
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
};

/// A tile contraction and what surrounds it (Contraction.h).
struct ContractionTree {
  vector::ContractionOp contract;
  scf::ForOp loop;
  /// The accumulator's position among the loop's iter_args.
  unsigned accIndex = 0;
  /// The accumulator's initial splat value.
  Attribute init;
  /// A (lhs) and B (rhs), each a staged leaf; their tiles' dimensions in
  /// the contraction: aM / aK are the positions of m and k in A's tile,
  /// bK / bN those of k and n in B's.
  Leaf a, b;
  int64_t aM = 0, aK = 1, bK = 0, bN = 1;
  /// The epilogue: the loop result through elementwise ops to the store.
  /// Its leaf 0 is the loop result; leaf i > 0 is operands[i - 1].
  TileTree epilogue;
  /// Tiles the epilogue broadcasts across C: a bias row (a layout.load of
  /// a tile of N elements, or 1 x N, broadcast over the rows of C) or a
  /// bias column (M x 1, broadcast over the columns).
  struct Broadcast {
    vector::BroadcastOp op;
    LoadOp load;
    /// The C dimension the loaded tile runs along (0: rows, 1: columns).
    int64_t along;
  };
  SmallVector<Broadcast> broadcasts;

  OperandLeaves leaves() const { return {&a, &b, aM, aK, bK, bN}; }
};

/// One operand (A or B) of the software-pipelined K loop: its phase-1
/// mapping, and the load's indices with the induction variable marked.
struct PipelinedOperand {
  Leaf *leaf;
  StagingMapping staging;
  /// The tile indices; `isIV` marks those that are the loop's induction
  /// variable (the others are loop-invariant).
  SmallVector<Value> indices;
  SmallVector<bool> isIV;

  /// The tile indices in the iteration whose induction variable is `iv`.
  SmallVector<Value> at(Value iv) const;
};

/// How the epilogue stores C, decided with the rest of the plan from the
/// instruction's C layout and the store's view (ContractionFragments.h
/// emits it). Each path tests the tile's bounds and alignment once, then
/// each access where the tile is not wholly inside.
struct EpiloguePlan {
  enum class Path {
    /// Each lane stores its fragments' elements one by one.
    Elements,
    /// Each lane stores its fragments' runs of `run` consecutive columns
    /// as vectors.
    Pairs,
    /// The lanes write their pairs into a C buffer of `rowLength`-element
    /// rows (padded so that the writes are conflict-free), the block
    /// meets, and the threads store the tile's rows as `rowWidth`-element
    /// vectors, consecutive threads on consecutive vectors (sm_90a). A
    /// buffer of its own that the kernel's workgroup memory has no room
    /// for leaves the pairs going straight out (the emission's one test).
    Rows
  };
  Path path = Path::Elements;
  int64_t run = 1;
  int64_t rowWidth = 0, rowLength = 0;
  /// The operand whose staging buffer (dead after the loop) holds the C
  /// buffer: 0 (A), 1 (B), -1 (a buffer of its own).
  int64_t reuse = -1;
  /// Why the stores are narrower than 16 bytes (empty: they are not).
  std::string why;
};

/// The distribution of one contraction.
struct Plan {
  const MatrixInstruction *inst = nullptr;
  int64_t bm = 0, bn = 0, bk = 0;
  /// The wave grid and the wave tile.
  int64_t wavesM = 1, wavesN = 1, tm = 0, tn = 0;
  /// Instructions per wave tile and per K tile.
  int64_t rm = 0, rn = 0, ks = 0;
  /// The LDS stages of the K loop's pipeline: `layout.pipeline_stages`,
  /// else as many as fit (at most 3) when the copies can be asynchronous;
  /// 1: register prefetch through one stage.
  int64_t stages = 1;
  /// A's and B's operands of the pipeline, in that order (their leaves'
  /// buffer order, `Leaf::bufDims`, is planned too).
  SmallVector<PipelinedOperand, 2> operands;
  /// The run-time tests that A's and B's rows keep the asynchronous copies
  /// aligned (none when statically so, or when the copies cannot be
  /// asynchronous): with several stages the loop is versioned on them, the
  /// register pipeline taking the other rows. Planning traces the operands'
  /// first tiles before the loop to decide, and these tests are that IR.
  SmallVector<Value, 2> alignment;
  Type elementType;
  /// How A's and B's tiles reach their buffers with several stages: boxes
  /// the tensor memory accelerator copies, each stage guarded by an
  /// mbarrier (`bulkSources`: per operand, the kernel's memref argument its
  /// tiles are boxes of), else cp.async (ContractionPipeline.h).
  /// `bulkCopies`: both operands by TMA; `mixedCopies`: one by TMA (its
  /// source set), the other by cp.async (its source null).
  bool bulkCopies = false;
  bool mixedCopies = false;
  SmallVector<Value, 2> bulkSources;
  /// Whether some operand is copied by TMA, and operand i's source (null
  /// where it is copied by cp.async).
  bool someBoxes() const { return bulkCopies || mixedCopies; }
  Value boxSource(size_t i) const {
    return someBoxes() && i < bulkSources.size() ? bulkSources[i] : Value();
  }
  /// Per operand: the convolution whose im2col view its boxes copy (TMA's
  /// im2col mode over an NHWC memref, Im2col.h), else none (tiled boxes).
  SmallVector<std::optional<Im2colGeometry>, 2> bulkIm2col;
  const Im2colGeometry *boxIm2col(size_t i) const {
    return boxSource(i) && i < bulkIm2col.size() && bulkIm2col[i]
               ? &*bulkIm2col[i]
               : nullptr;
  }
  /// The base alignment the pass may assume (CooperativeTileOptions), for
  /// the epilogue's vector stores.
  int64_t assumeAlignment = 0;
  /// The chip, and the workgroup memory the kernel may use (its static
  /// limit, or all a block may have where it takes dynamic shared memory).
  const Chip *chip = nullptr;
  int64_t workgroupBytesLimit = 0;
  /// How C leaves the registers.
  EpiloguePlan epilogue;
  /// Whether the choices are remarked as diagnostics (remarkContraction).
  bool remarks = false;
};

/// The attributes a tile contraction may carry to ask for a decision, and
/// that each K loop the pass emits carries to say what was decided:
/// `layout.matrix_instruction` [M, N, K], `layout.wave_tile` [TM, TN],
/// `layout.pipeline_stages` (an integer), `layout.operand_copies`.
constexpr llvm::StringLiteral kMatrixInstructionAttr =
    "layout.matrix_instruction";
constexpr llvm::StringLiteral kWaveTileAttr = "layout.wave_tile";
constexpr llvm::StringLiteral kPipelineStagesAttr = "layout.pipeline_stages";
/// How the operands are copied: "tma", "cp.async" or "registers" (asked
/// for on the contraction; "cp.async" keeps TMA off where it would apply).
constexpr llvm::StringLiteral kOperandCopiesAttr = "layout.operand_copies";
/// A fragment program's order of products (on its scf.for): "rotated"
/// (FragmentRotation: the last product one iteration late; the default
/// where it applies) or "program".
constexpr llvm::StringLiteral kProductOrderAttr = "layout.product_order";
/// When a fragment program's first copy group starts its next tiles (on
/// its scf.for): "early" (right after its last reader) or "late" (at the
/// last group's arrival, one barrier less); early by default
/// (FragmentCopyPlan::releaseAfter).
constexpr llvm::StringLiteral kCopyReleaseAttr = "layout.copy_release";

/// The value that `op`'s attribute `name` (one of the above) asks for:
/// std::nullopt where it is absent, a diagnostic at `op` where it is not a
/// string of `allowed`.
FailureOr<std::optional<StringRef>> askedChoice(Operation *op, StringRef name,
                                                ArrayRef<StringRef> allowed);

/// A staged leaf over cooperative `load`'s whole tile (its buffer order and
/// staging are planned later).
Leaf stagedLeafOf(LoadOp load);

/// The order of the buffer an operand (`operand` of `inst`, its tile's K
/// at `kPos`, its M or N at `nPos`) is staged in for fragment reads (unit
/// dimensions dropped): K fastest, since every register layout holds
/// consecutive K elements per lane (MatrixInstructions.h) and fragment
/// reads are then vectors; except a B whose global rows run along N on a
/// chip that reads B from a K x N tile with ldmatrix.trans, which keeps N
/// fastest so that the staging writes are whole vectors. For wgmma, which
/// reads the buffer itself, the global rows' order (K-major only for 8-bit
/// tiles), so that the copies go straight in.
SmallVector<int64_t> fragmentBufferOrder(const MatrixInstruction &inst,
                                         const Leaf &leaf,
                                         MatrixOperand operand, int64_t kPos,
                                         int64_t nPos);

/// Whether instructions of `kind` take A and B of element type `t`
/// (takesMatrixInputs, layout/Transforms/MatrixTypes.h).
bool takesInputs(MatrixElementKind kind, Type t);

/// Writes `plan`'s decisions on `op` (an emitted K loop) as the attributes
/// above, so that what the plan chose is visible in the IR (lit tests).
void recordPlan(Operation *op, const Plan &plan);

/// Whether every lane's C fragment of `inst` holds pairs of consecutive
/// columns from an even column (every lane, every even element: wgmma's
/// and mma.sync's accumulators).
bool holdsPairs(const MatrixInstruction &inst);

/// How many consecutive columns of its C fragments a lane stores as one
/// vector through the view of `side` (analyzed here with `alignBytes`):
/// 2 for NVIDIA's accumulator pairs where the view runs along the columns
/// with unit stride and allows 2-vectors, else 1 with `why`. (`why` also
/// says why vectors are narrower than 16 bytes where they are.)
int64_t pairRun(const MatrixInstruction &inst, GlobalSide &side,
                int64_t alignBytes, std::string &why);

/// Plans the distribution of `tree` over the `block` threads of `func` on
/// `options.chip` (the file comment's decisions), with a diagnostic at the
/// op that does not allow one. Traces A's and B's first tiles before the
/// loop where the chip copies asynchronously (Plan::alignment).
FailureOr<Plan> planContraction(ContractionTree &tree, gpu::GPUFuncOp func,
                                ArrayRef<int64_t> block,
                                const CooperativeTileOptions &options);

/// Remarks what `plan` chose for `tree`'s global accesses on `threads`
/// threads (ContractionRemarks.cpp): A's and B's copies and C's stores, by
/// `cPath` (the plan's epilogue path, or Pairs where the emission found no
/// room for a C buffer of its own), each with the instruction and the wave
/// tile. Call before the tile program's ops are erased.
void remarkContraction(const ContractionTree &tree, const Plan &plan,
                       int64_t threads, EpiloguePlan::Path cPath);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_CONTRACTIONPLAN_H
