//===- ContractionPlan.cpp - Tile contractions: the decisions -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// planContraction (ContractionPlan.h): the matrix instruction and wave grid
// (the attributes `layout.matrix_instruction` and `layout.wave_tile`, else
// the largest instruction and the most square grid that divide), the
// operands' buffer order and staging, whether their copies can be
// asynchronous, the pipeline's stages (`layout.pipeline_stages`, else
// as many as the chip's workgroup memory allows, at most 3), and how the
// epilogue stores C (EpiloguePlan).
//
//===----------------------------------------------------------------------===//

#include "ContractionPlan.h"
#include "ContractionFragments.h"

#include "layout/Evaluator/Im2col.h"
#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Target/BankModel.h"
#include "layout/Transforms/MatrixTypes.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/Remarks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

SmallVector<Value> PipelinedOperand::at(Value iv) const {
  SmallVector<Value> r;
  for (auto [v, iv0] : llvm::zip_equal(indices, isIV))
    r.push_back(iv0 ? iv : v);
  return r;
}

/// The order of an operand's buffer (`leaf.bufDims`, unit dimensions
/// dropped): K fastest, or N (the other dimension) with `nFastest`.
static SmallVector<int64_t> bufferOrder(const Leaf &leaf, int64_t kPos,
                                        bool nFastest) {
  SmallVector<int64_t> dims;
  int64_t last = nFastest ? 1 - kPos : kPos;
  for (int64_t k : {1 - last, last})
    if (leaf.side.tile[k] != 1)
      dims.push_back(k);
  return dims;
}

SmallVector<int64_t> tiles::fragmentBufferOrder(const MatrixInstruction &inst,
                                                const Leaf &leaf,
                                                MatrixOperand operand,
                                                int64_t kPos, int64_t nPos) {
  bool nContiguous = leaf.side.unitStride && leaf.side.contiguous == nPos;
  // wgmma reads K-major and MN-major 16-bit tiles alike, 8-bit ones K-major
  // only (kMajorOnly).
  if (inst.operandsInWorkgroupMemory())
    return bufferOrder(leaf, kPos, !inst.kMajorOnly && nContiguous);
  return bufferOrder(leaf, kPos,
                     operand == MatrixOperand::B && inst.ldmatrixBTrans &&
                         nContiguous);
}

bool tiles::takesInputs(MatrixElementKind kind, Type t) {
  return takesMatrixInputs(kind, t);
}

namespace {

//===----------------------------------------------------------------------===//
// The instruction and the waves
//===----------------------------------------------------------------------===//

/// Fills `plan.wavesM/N`, `tm`, `tn` for `waves` waves and instruction
/// `inst` (with `waveTile` if given); false if no grid divides.
bool fitWaves(Plan &plan, const MatrixInstruction &inst, int64_t waves,
              ArrayRef<int64_t> waveTile) {
  int64_t best = -1;
  for (int64_t wm = 1; wm <= waves; ++wm) {
    if (waves % wm)
      continue;
    int64_t wn = waves / wm;
    if (plan.bm % wm || plan.bn % wn)
      continue;
    int64_t tm = plan.bm / wm, tn = plan.bn / wn;
    if (!waveTile.empty() && (tm != waveTile[0] || tn != waveTile[1]))
      continue;
    if (tm % inst.m || tn % inst.n || plan.bk % inst.k)
      continue;
    int64_t skew = std::abs(tm - tn);
    if (best >= 0 && skew >= best)
      continue;
    best = skew;
    plan.wavesM = wm, plan.wavesN = wn, plan.tm = tm, plan.tn = tn;
  }
  return best >= 0;
}

/// Whether `t` is one of the element types a tile contraction takes for A
/// and B: f16, bf16, f32 or an 8-bit float.
bool isInputType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || float8KindOf(t).has_value();
}

/// The instructions of `chip` that take `t`'s A and B (both of one element
/// type), or a diagnostic naming the chips that have such instructions. A
/// chip's instructions are its own (getMatrixInstructions(name): the FP8
/// mma.sync is on sm_89 and later of its generation).
FailureOr<SmallVector<const MatrixInstruction *>>
candidateInstructions(ContractionTree &t, const std::optional<Chip> &chip) {
  vector::ContractionOp contract = t.contract;
  Type et = t.a.side.elementType, bt = t.b.side.elementType;
  // (vector.contract's verifier already refuses two element types, so an
  // E4M3 A with an E5M2 B never gets here; the table has no such mix.)
  if (!isInputType(et) || bt != et)
    return contract.emitOpError()
           << "in a tile program: A and B must have one element type, f16, "
              "bf16, f32 or an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ, "
              "f8E5M2FNUZ), got "
           << et << " and " << bt;
  if (!chip)
    return contract.emitOpError()
           << "in a tile program needs the target: run "
              "-layout-tile-shared-memory with chip=... (-layout-to-rocdl "
              "and -layout-to-nvvm pass theirs)";
  SmallVector<const MatrixInstruction *> candidates;
  for (const MatrixInstruction *inst : getMatrixInstructions(chip->name))
    if (takesInputs(inst->inputKind, et))
      candidates.push_back(inst);
  if (!candidates.empty())
    return candidates;
  if (et.isF32())
    return contract.emitOpError()
           << "in a tile program: " << chip->name
           << " has no matrix instruction with f32 inputs; f32 tiles "
              "multiply on "
           << chipsWithF32Inputs()
           << " (or convert the tiles to f16 or bf16 with arith.truncf)";
  if (float8KindOf(et))
    return contract.emitOpError() << "in a tile program: " << chip->name
                                  << " has no matrix instruction with " << et
                                  << " inputs; 8-bit float tiles multiply on "
                                  << chipsWithInputs(isFloat8);
  return contract.emitOpError() << "in a tile program: " << chip->name
                                << " has no matrix instruction with " << et
                                << " inputs and an f32 accumulator";
}

/// The matrix instruction and the wave grid of `t` for `threads` threads
/// on `chip`; `askedStages` receives `layout.pipeline_stages` (0 when
/// absent).
FailureOr<Plan> planInstruction(ContractionTree &t, int64_t threads,
                                const std::optional<Chip> &chip,
                                int64_t &askedStages) {
  vector::ContractionOp contract = t.contract;
  Plan plan;
  askedStages = 0;
  ArrayRef<int64_t> aTile = t.a.side.tile, bTile = t.b.side.tile;
  ArrayRef<int64_t> cTile = t.epilogue.store.getPartition().getType().getTile();
  plan.bm = aTile[t.aM];
  plan.bk = aTile[t.aK];
  plan.bn = bTile[t.bN];
  if (cTile.size() != 2 || cTile[0] != plan.bm || cTile[1] != plan.bn)
    return t.epilogue.store.emitOpError()
           << "after a tile contraction: the stored tile must be the "
              "accumulated BM x BN tile";
  plan.elementType = t.a.side.elementType;
  FailureOr<SmallVector<const MatrixInstruction *>> found =
      candidateInstructions(t, chip);
  if (failed(found))
    return failure();
  SmallVector<const MatrixInstruction *> candidates = std::move(*found);
  // The largest instruction first.
  llvm::stable_sort(candidates, [](auto *x, auto *y) {
    return x->m * x->n * x->k > y->m * y->n * y->k;
  });
  SmallVector<int64_t> shape, waveTile;
  if (auto attr =
          contract->getAttrOfType<DenseI64ArrayAttr>(kMatrixInstructionAttr))
    shape.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
  if (auto attr = contract->getAttrOfType<DenseI64ArrayAttr>(kWaveTileAttr))
    waveTile.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
  if (Attribute attr = contract->getAttr(kPipelineStagesAttr)) {
    auto stages = dyn_cast<IntegerAttr>(attr);
    if (!stages || stages.getInt() < 1 || stages.getInt() > 8)
      return contract.emitOpError()
             << "layout.pipeline_stages takes an integer from 1 (register "
                "prefetch) to 8, got "
             << attr;
    askedStages = stages.getInt();
  }
  if ((!shape.empty() && shape.size() != 3) ||
      (!waveTile.empty() && waveTile.size() != 2))
    return contract.emitOpError()
           << "layout.matrix_instruction takes [M, N, K] and "
              "layout.wave_tile [TM, TN]";
  for (const MatrixInstruction *inst : candidates) {
    if (!shape.empty() &&
        (inst->m != shape[0] || inst->n != shape[1] || inst->k != shape[2]))
      continue;
    if (threads % inst->waveSize)
      continue;
    if (!fitWaves(plan, *inst, threads / inst->waveSize, waveTile))
      continue;
    plan.inst = inst;
    plan.rm = plan.tm / inst->m;
    plan.rn = plan.tn / inst->n;
    plan.ks = plan.bk / inst->k;
    return plan;
  }
  InFlightDiagnostic d = contract.emitOpError();
  d << "in a tile program: the block tile " << plan.bm << "x" << plan.bn << "x"
    << plan.bk << " (BM x BN x BK) cannot be divided among the " << threads
    << " threads' waves";
  if (!waveTile.empty())
    d << " into wave tiles of " << waveTile[0] << "x" << waveTile[1];
  d << ": each wave tile must be a multiple of the instruction's M x N and "
       "BK of its K, for one of";
  for (const MatrixInstruction *inst : candidates)
    if (shape.empty() ||
        (inst->m == shape[0] && inst->n == shape[1] && inst->k == shape[2]))
      d << " " << inst->mnemonicOn(chip->generation) << " ("
        << inst->shapeString() << ", wave " << inst->waveSize << ")";
  return failure();
}

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

/// Whether `load`'s indices are the loop's induction variable or
/// loop-invariant (then the tiles of later iterations are known ahead).
bool prefetchable(scf::ForOp loop, LoadOp load) {
  return llvm::all_of(load.getIndices(), [&](Value v) {
    return v == loop.getInductionVar() ||
           !loop.getRegion().isAncestor(v.getParentRegion());
  });
}

/// Analyzes A's and B's global sides, orders their buffers and plans their
/// staging for `threads` threads (Plan::operands), or a diagnostic.
LogicalResult planOperands(ContractionTree &t, Plan &plan, int64_t threads,
                           const CooperativeTileOptions &options) {
  std::string why;
  for (Leaf *leaf : {&t.a, &t.b})
    if (failed(leaf->side.analyze(options.assumeAlignment, why)))
      return leaf->load.emitOpError() << "cannot be distributed: " << why;
  const MatrixInstruction &inst = *plan.inst;
  t.a.bufDims.append(
      fragmentBufferOrder(inst, t.a, MatrixOperand::A, t.aK, t.aM));
  t.b.bufDims.append(
      fragmentBufferOrder(inst, t.b, MatrixOperand::B, t.bK, t.bN));
  if (inst.operandsInWorkgroupMemory())
    for (Leaf *leaf : {&t.a, &t.b})
      if (failed(
              checkWarpgroupMmaStaging(inst, *leaf, "in a tile contraction")))
        return failure();
  scf::ForOp old = t.loop;
  for (Leaf *leaf : {&t.a, &t.b}) {
    if (!prefetchable(old, leaf->load))
      return leaf->load.emitOpError()
             << "in a tile contraction: its tile indices must be the loop's "
                "induction variable or defined outside the loop (the "
                "software "
                "pipeline loads the next K tile one step ahead)";
    FailureOr<StagingMapping> staging =
        stagingMapping(*leaf, threads, /*transpose=*/true);
    if (failed(staging))
      return failure();
    PipelinedOperand p{
        leaf, *staging, llvm::to_vector(leaf->load.getIndices()), {}};
    for (Value v : p.indices)
      p.isIV.push_back(v == old.getInductionVar());
    plan.operands.push_back(std::move(p));
  }
  return success();
}

/// Why the operands cannot be copied asynchronously on `chip` (empty: they
/// can). Traces their first tiles at `b` (before the loop) while the chip
/// has such copies, collecting the run-time alignment tests of those
/// traced (Plan::alignment) and the accesses in `traced` (for
/// bulkProblem); fails with a diagnostic where a tile cannot be traced.
FailureOr<std::string> asyncProblem(OpBuilder &b, ContractionTree &t,
                                    Plan &plan, const Chip &chip,
                                    SmallVector<GlobalAccess, 2> &traced) {
  std::string notAsync;
  if (!chip.asyncCopy)
    notAsync = chip.name + " has no asynchronous copies into workgroup "
                           "memory";
  for (const PipelinedOperand &p : plan.operands) {
    if (!notAsync.empty())
      break;
    FailureOr<GlobalAccess> access =
        tileAccess(b, *p.leaf, p.at(t.loop.getLowerBound()), p.staging.width);
    if (failed(access))
      return failure();
    traced.push_back(*access);
    if (!copiesAsync(*p.leaf, *access))
      notAsync = (p.leaf == &t.a ? "A" : "B") + kNotCopiedAsync.str();
    else if (Value test = access->alignment())
      plan.alignment.push_back(test);
  }
  return notAsync;
}

/// The workgroup memory `func` may use on `chip`: the static limit, or all
/// a block may have where it is marked layout.dynamic_shared_memory (its
/// launcher passes the size -layout-dynamic-shared-memory exports).
int64_t workgroupBytesLimit(gpu::GPUFuncOp func, const Chip &chip) {
  return func->hasAttr(kDynamicSharedMemoryAttr) ? chip.maxBlockBytes
                                                 : chip.maxStaticBytes;
}

/// The pipeline's LDS stages on `chip`: `asked` (layout.pipeline_stages,
/// 0 when absent) when the copies can be asynchronous (`notAsync` empty)
/// and the stages fit the memory a block may have, else a diagnostic;
/// without `asked`, as many as fit, at most 3, where the copies can be
/// asynchronous, else 1.
FailureOr<int64_t> chooseStages(ContractionTree &t, gpu::GPUFuncOp func,
                                const Chip &chip, int64_t asked,
                                StringRef notAsync) {
  int64_t stageBytes = 0;
  for (const Leaf *leaf : {&t.a, &t.b})
    stageBytes += leaf->stageElements() * elementBytes(leaf->side.elementType);
  // What the kernel already has, placed as the NVVM pipeline places it.
  int64_t used = layoutWorkgroupBuffers(func).bytes;
  if (asked == 1)
    return asked;
  if (asked > 1) {
    if (!notAsync.empty())
      return t.contract.emitOpError()
             << "in a tile program: layout.pipeline_stages = " << asked
             << " needs asynchronous copies, but " << notAsync
             << " (1 stage: register prefetch)";
    // Stages asked for may take all the memory a block can have (above the
    // static limit the NVVM pipeline moves the buffers into dynamic shared
    // memory, whose size the launcher passes).
    if (asked * stageBytes <= chip.maxBlockBytes - used)
      return asked;
    InFlightDiagnostic d = t.contract.emitOpError();
    d << "in a tile program: layout.pipeline_stages = " << asked << " needs "
      << asked * stageBytes << " bytes of workgroup memory (A and B tiles of "
      << stageBytes << " bytes per stage); " << chip.name << " allows "
      << chip.maxBlockBytes << " bytes per block";
    if (chip.maxBlockBytes > chip.maxStaticBytes)
      d << " (" << chip.maxStaticBytes
        << " statically, the rest as dynamic shared memory)";
    if (used)
      d << ", of which the kernel uses " << used;
    return d;
  }
  // The default stays within the static limit, so that a kernel launches
  // without dynamic shared memory unless its program asks for more: a
  // kernel marked layout.dynamic_shared_memory (its launcher passes the
  // size -layout-dynamic-shared-memory exports) may use all a block has.
  int64_t room = workgroupBytesLimit(func, chip) - used;
  int64_t stages =
      notAsync.empty() ? std::min<int64_t>(3, room / stageBytes) : 1;
  return stages < 2 ? 1 : stages;
}

/// The kernel argument `access` reads when its view coordinates index that
/// memref itself, or null.
Value kernelArgumentOf(gpu::GPUFuncOp func, const GlobalAccess &access) {
  auto arg = dyn_cast_or_null<BlockArgument>(access.stridedMemref());
  if (!arg || arg.getOwner() != &func.getBody().front() ||
      arg.getArgNumber() >= func.getFunctionType().getNumInputs())
    return Value();
  return arg;
}

/// Why operand `p`'s tiles cannot be TMA im2col boxes (empty: they can):
/// a view through the NHWC im2col chain (matchIm2col) of a rank-4 memref
/// argument of the kernel collapsed to one dimension, the tile's rows
/// along GEMM-M and its channels contiguous, K a multiple of the K tile
/// (no box past the filter) and the boxes within the im2col mode's limits.
/// `arg` receives the argument and `geometry` the convolution.
std::string im2colBoxProblem(ContractionTree &t, const PipelinedOperand &p,
                             gpu::GPUFuncOp func, Value &arg,
                             std::optional<Im2colGeometry> &geometry) {
  std::string name = p.leaf == &t.a ? "A" : "B";
  auto partition = p.leaf->load.getPartition().getDefiningOp<PartitionOp>();
  auto view =
      partition ? partition.getView().getDefiningOp<ViewOp>() : ViewOp();
  if (!view || !view.getDesc())
    return name + " is not a tile of a rank-2 memref argument of the "
                  "kernel (whose tensor map the launcher encodes) nor a view "
                  "through a descriptor";
  llvm::Expected<Descriptor> d = traceDescriptor(view.getDesc());
  if (!d)
    return name +
           "'s view has no static descriptor: " + llvm::toString(d.takeError());
  llvm::Expected<Im2colGeometry> g = matchIm2col(*d);
  if (!g)
    return name + " is no TMA box (not a tile of a rank-2 memref argument) " +
           "and its view is " + llvm::toString(g.takeError());
  auto collapse = view.getSource().getDefiningOp<memref::CollapseShapeOp>();
  auto source =
      collapse ? dyn_cast<BlockArgument>(collapse.getSrc()) : BlockArgument();
  auto type = source ? dyn_cast<MemRefType>(source.getType()) : MemRefType();
  SmallVector<int64_t> nhwc{g->n, g->h, g->w, g->c};
  if (!type || source.getOwner() != &func.getBody().front() ||
      !type.getLayout().isIdentity() || type.getShape() != ArrayRef(nhwc))
    return name + " is an im2col view, but not of a " +
           llvm::join(llvm::map_range(
                          nhwc, [](int64_t v) { return std::to_string(v); }),
                      "x") +
           " memref argument of the kernel collapsed to one dimension (the "
           "tensor map TMA's im2col mode reads)";
  ArrayRef<int64_t> tile = p.leaf->side.tile;
  if (p.leaf->bufDims.size() != 2 || p.leaf->bufDims[0] != 0 ||
      p.leaf->side.contiguous != 1)
    return name + "'s buffer rows are not GEMM-M with the channels along "
                  "them";
  if (g->gemmK() % tile[1])
    return name + "'s K (" + std::to_string(g->gemmK()) +
           ") is not a multiple of its K tile (" + std::to_string(tile[1]) +
           "): a box past the filter would read pixels";
  std::string why = g->tmaProblem(tile[0], boxColumns(*p.leaf));
  if (!why.empty())
    return name + "'s im2col boxes: " + why;
  arg = source;
  geometry = *g;
  return std::string();
}

/// Why operand `p`'s tiles cannot be TMA boxes (empty: they can): a
/// rank-2 memref argument of the kernel, its rows along the buffer's and
/// its boxes' rows at most 256, or an im2col view (im2colBoxProblem).
/// `access`: its first tile's access, which asyncProblem traced; `arg`
/// receives the argument, `geometry` the convolution of im2col boxes.
std::string operandBoxProblem(ContractionTree &t, const PipelinedOperand &p,
                              gpu::GPUFuncOp func, const GlobalAccess &access,
                              Value &arg,
                              std::optional<Im2colGeometry> &geometry) {
  std::string name = p.leaf == &t.a ? "A" : "B";
  arg = kernelArgumentOf(func, access);
  auto type = arg ? dyn_cast<MemRefType>(arg.getType()) : MemRefType();
  if (!type)
    return im2colBoxProblem(t, p, func, arg, geometry);
  if (type.getRank() != 2)
    return name + " is not a tile of a rank-2 memref argument of the "
                  "kernel (whose tensor map the launcher encodes)";
  if (!copiesAsync(*p.leaf, access) || p.leaf->side.contiguous != 1)
    return name + "'s rows do not run along its memref's last dimension "
                  "and its buffer's rows";
  if (p.leaf->side.tile[p.leaf->bufDims[0]] > 256)
    return name + "'s tile has more than 256 rows (a TMA box's limit)";
  return std::string();
}

/// Why the operands' tiles cannot all be TMA boxes (empty: they can): the
/// chip, the instruction (wgmma reads the boxes where the unit writes
/// them), the stages, and each operand (operandBoxProblem). `traced`: the
/// first tiles' accesses asyncProblem traced (both operands' copies can
/// be asynchronous). Sets Plan::bulkSources, per operand (null where its
/// tiles are not boxes), when the chip, instruction and stages allow.
std::string bulkProblem(ContractionTree &t, Plan &plan, gpu::GPUFuncOp func,
                        const Chip &chip, ArrayRef<GlobalAccess> traced) {
  if (!chip.tensorMemoryAccess)
    return chip.name + " has no tensor memory accelerator";
  if (!plan.inst->operandsInWorkgroupMemory())
    return std::string("TMA staging feeds wgmma only");
  if (plan.stages < 2)
    return std::string("one stage: register prefetch");
  if (traced.size() != plan.operands.size())
    return std::string("the operands are not copied asynchronously");
  SmallVector<Value, 2> sources;
  SmallVector<std::optional<Im2colGeometry>, 2> im2col;
  std::string first;
  for (auto [p, access] : llvm::zip_equal(plan.operands, traced)) {
    Value arg;
    std::optional<Im2colGeometry> geometry;
    std::string why = operandBoxProblem(t, p, func, access, arg, geometry);
    sources.push_back(why.empty() ? arg : Value());
    im2col.push_back(why.empty() ? geometry : std::nullopt);
    if (first.empty())
      first = why;
  }
  plan.bulkSources = std::move(sources);
  plan.bulkIm2col = std::move(im2col);
  return first;
}

//===----------------------------------------------------------------------===//
// The epilogue
//===----------------------------------------------------------------------===//

/// The row length (elements) of the C buffer of EpiloguePlan::Rows: the
/// bank model's padding (paddedRowLength, in steps of `width`) under
/// which every pair write of the wgmma accumulator layout, warp by warp,
/// costs no extra cycle (countConflicts), or std::nullopt.
std::optional<int64_t> cRowLength(const Plan &plan, int64_t cols, int64_t eb,
                                  int64_t width) {
  const MatrixInstruction &inst = *plan.inst;
  const Chip &chip = *plan.chip;
  const Descriptor &c = inst.layout(MatrixOperand::C);
  auto conflictFree = [&](int64_t length) {
    SmallVector<std::optional<int64_t>> bytes(chip.waveSize);
    for (int64_t warp = 0; warp < inst.waveSize / chip.waveSize; ++warp)
      for (int64_t e = 0; e < inst.cElementsPerLane; e += 2) {
        for (int64_t l = 0; l < chip.waveSize; ++l) {
          int64_t at = c.offset({warp * chip.waveSize + l, e});
          bytes[l] = ((at / inst.n) * length + at % inst.n) * eb;
        }
        if (countConflicts(chip, SharedAccessKind::Write, bytes, 2 * eb)
                .extra())
          return false;
      }
    return true;
  };
  return paddedRowLength(cols, eb, width, conflictFree);
}

/// Why C's rows cannot go through a buffer of `e.rowWidth`-element vectors
/// (empty: they can; then sets rowLength and reuse).
std::string planRows(const ContractionTree &t, const Plan &plan,
                     int64_t threads, EpiloguePlan &e) {
  StoreOp store = t.epilogue.store;
  auto type = cast<VectorType>(store.getValue().getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Type et = type.getElementType();
  int64_t eb = elementBytes(et);
  if (cols % e.rowWidth || (rows * (cols / e.rowWidth)) % threads)
    return llvm::formatv("{0}-element vectors of C's rows do not give the {1} "
                         "threads equal parts of the tile",
                         e.rowWidth, threads);
  std::optional<int64_t> length = cRowLength(plan, cols, eb, e.rowWidth);
  if (!length)
    return "no padding of a C buffer's rows within the bank model's steps "
           "makes the lanes' pair writes conflict-free";
  e.rowLength = *length;
  // A or B's buffer of the same element type that holds the C buffer.
  for (auto [i, leaf] : llvm::enumerate(std::array{&t.a, &t.b}))
    if (e.reuse < 0 && leaf->side.elementType == et &&
        stagingBufferElements(*leaf, plan.stages, /*padRows=*/false) >=
            rows * *length)
      e.reuse = i;
  return "";
}

/// How the epilogue of `t` stores C (EpiloguePlan) on `threads` threads:
/// NVIDIA's accumulator pairs (wgmma, mma.sync) as vectors where the view
/// allows them, through a C buffer as rows of up to 16 bytes where the tile
/// divides among the threads and a padding makes the pair writes
/// conflict-free; element by element elsewhere (the AMD targets keep
/// element stores, their code unchanged).
EpiloguePlan planEpilogue(const ContractionTree &t, const Plan &plan,
                          int64_t threads, int64_t alignBytes) {
  EpiloguePlan e;
  GlobalSide side = GlobalSide::of(t.epilogue.store);
  e.run = pairRun(*plan.inst, side, alignBytes, e.why);
  if (e.run < 2)
    return e;
  e.path = EpiloguePlan::Path::Pairs;
  e.rowWidth =
      std::min<int64_t>(side.maxWidth, kMaxWorkgroupAccessAlignment /
                                           elementBytes(side.elementType));
  if (e.rowWidth <= e.run)
    return e;
  std::string notRows = planRows(t, plan, threads, e);
  if (!notRows.empty()) {
    e.why = notRows;
    return e;
  }
  e.path = EpiloguePlan::Path::Rows;
  return e;
}

} // namespace

bool tiles::holdsPairs(const MatrixInstruction &inst) {
  if (inst.cElementsPerLane % 2)
    return false;
  const Descriptor &c = inst.layout(MatrixOperand::C);
  for (int64_t lane = 0; lane < inst.waveSize; ++lane)
    for (int64_t e = 0; e < inst.cElementsPerLane; e += 2) {
      int64_t at = c.offset({lane, e});
      if (at % 2 || c.offset({lane, e + 1}) != at + 1)
        return false;
    }
  return true;
}

int64_t tiles::pairRun(const MatrixInstruction &inst, GlobalSide &side,
                       int64_t alignBytes, std::string &why) {
  bool pairs = holdsPairs(inst);
  bool nvidia = inst.family == MatrixFamily::Wgmma ||
                inst.family == MatrixFamily::MmaSync;
  if (!nvidia || !pairs) {
    why = pairs ? std::string("off NVIDIA's matrix instructions each lane "
                              "stores its accumulator's pairs of "
                              "consecutive columns element by element")
                : llvm::formatv("the {0} accumulator layout gives no lane "
                                "two consecutive columns",
                                inst.mnemonic)
                      .str();
    return 1;
  }
  std::string failure;
  if (failed(side.analyze(alignBytes, failure)) || !side.unitStride ||
      side.contiguous != int64_t(side.tile.size()) - 1 || side.maxWidth < 2) {
    why = !failure.empty() ? failure
          : !side.narrowWhy.empty()
              ? side.narrowWhy
              : "its view does not run along C's columns with unit stride";
    return 1;
  }
  why = side.narrowWhy;
  return 2;
}

void tiles::recordPlan(Operation *op, const Plan &plan) {
  Builder b(op->getContext());
  op->setAttr(
      kMatrixInstructionAttr,
      b.getDenseI64ArrayAttr({plan.inst->m, plan.inst->n, plan.inst->k}));
  op->setAttr(kWaveTileAttr, b.getDenseI64ArrayAttr({plan.tm, plan.tn}));
  op->setAttr(kPipelineStagesAttr, b.getI64IntegerAttr(plan.stages));
  op->setAttr(kOperandCopiesAttr,
              b.getStringAttr(plan.bulkCopies    ? "tma"
                              : plan.mixedCopies ? "tma+cp.async"
                              : plan.stages > 1  ? "cp.async"
                                                 : "registers"));
}

/// planContraction's copies of A and B: the instruction, the operands'
/// buffers, the stages and whether TMA copies them.
static FailureOr<Plan> planCopies(ContractionTree &t, gpu::GPUFuncOp func,
                                  int64_t threads,
                                  const CooperativeTileOptions &options) {
  int64_t asked = 0;
  FailureOr<Plan> plan = planInstruction(t, threads, options.chip, asked);
  if (failed(plan) || failed(planOperands(t, *plan, threads, options)))
    return failure();
  // planInstruction found matrix instructions of the chip: there is one.
  const Chip &chip = *options.chip;
  OpBuilder b(t.loop);
  SmallVector<GlobalAccess, 2> traced;
  FailureOr<std::string> notAsync = asyncProblem(b, t, *plan, chip, traced);
  if (failed(notAsync))
    return failure();
  FailureOr<int64_t> stages = chooseStages(t, func, chip, asked, *notAsync);
  if (failed(stages))
    return failure();
  plan->stages = *stages;
  plan->assumeAlignment = options.assumeAlignment;
  plan->chip = &chip;
  plan->workgroupBytesLimit = workgroupBytesLimit(func, chip);
  FailureOr<std::optional<StringRef>> copies =
      askedChoice(t.contract, kOperandCopiesAttr,
                  {"tma", "tma+cp.async", "cp.async", "registers"});
  if (failed(copies))
    return failure();
  if (*copies == "registers")
    plan->stages = 1;
  if (*copies && **copies != "tma" && **copies != "tma+cp.async")
    return plan;
  std::string notBulk = bulkProblem(t, *plan, func, chip, traced);
  if (*copies == "tma" && !notBulk.empty())
    return t.contract.emitOpError()
           << "in a tile program: layout.operand_copies = \"tma\", but "
           << notBulk;
  plan->bulkCopies = notBulk.empty();
  // Where one operand's tiles are boxes and the other's are not, a program
  // may ask for TMA for the boxes and cp.async for the rest
  // ("tma+cp.async"). Not the default: on the H200's convolutions it was
  // slower than cp.async for both (bench/RESULTS.md: thread 0 issues the
  // boxes and its share of the copies, and every step waits on both).
  plan->mixedCopies = *copies == "tma+cp.async" && !plan->bulkCopies &&
                      llvm::any_of(plan->bulkSources, [](Value v) {
                        return static_cast<bool>(v);
                      });
  if (*copies == "tma+cp.async" && !plan->mixedCopies && !plan->bulkCopies)
    return t.contract.emitOpError()
           << "in a tile program: layout.operand_copies = \"tma+cp.async\", "
              "but no operand's tiles are TMA boxes: "
           << notBulk;
  // On a chip with TMA, a wgmma plan that falls back says why.
  if (!notBulk.empty() && !plan->mixedCopies && chip.tensorMemoryAccess &&
      plan->inst->operandsInWorkgroupMemory())
    emitLayoutRemark(
        t.contract.getLoc(), "OperandCopies", "layout-tiles", func.getName(),
        llvm::formatv("operands staged by {0}, not by TMA: {1}",
                      plan->stages > 1 ? "cp.async" : "register prefetch",
                      notBulk),
        {{"Copies", plan->stages > 1 ? "cp.async" : "registers"},
         {"Why", notBulk}},
        options.remarks);
  return plan;
}

FailureOr<Plan> tiles::planContraction(ContractionTree &t, gpu::GPUFuncOp func,
                                       ArrayRef<int64_t> block,
                                       const CooperativeTileOptions &options) {
  int64_t threads = block[0] * block[1] * block[2];
  FailureOr<Plan> plan = planCopies(t, func, threads, options);
  if (failed(plan))
    return failure();
  plan->epilogue = planEpilogue(t, *plan, threads, options.assumeAlignment);
  plan->remarks = options.remarks;
  return plan;
}

FailureOr<std::optional<StringRef>>
tiles::askedChoice(Operation *op, StringRef name, ArrayRef<StringRef> allowed) {
  Attribute attr = op->getAttr(name);
  if (!attr)
    return std::optional<StringRef>();
  auto text = dyn_cast<StringAttr>(attr);
  if (text && llvm::is_contained(allowed, text.getValue()))
    return std::optional<StringRef>(text.getValue());
  std::string choices;
  for (auto [i, choice] : llvm::enumerate(allowed))
    choices += (i == 0                    ? ""
                : i + 1 == allowed.size() ? " or "
                                          : ", ") +
               ("\"" + choice + "\"").str();
  return op->emitOpError() << name << " takes " << choices << ", got " << attr;
}
