//===- ContractionRemarks.cpp - Tile contractions: what was chosen --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// remarkContraction (ContractionPlan.h): the plan's choices for a tile
// contraction's global accesses, said in the tile pass's one wording
// (remarkAccess, ThreadMapping.h) like the copies' remarks: A's and B's
// copies (their phase-1 mapping, how they reach their buffers) and C's
// stores (the epilogue's path), each naming the matrix instruction and the
// wave tile. Nothing here decides: every number is the plan's.
//
//===----------------------------------------------------------------------===//

#include "ContractionPlan.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace {

/// "v_mfma_f32_32x32x8_f16 on 32x32 wave tiles (2x1 waves)".
std::string instructionOf(const Plan &plan) {
  return llvm::formatv("{0} on {1}x{2} wave tiles ({3}x{4} waves)",
                       plan.inst->mnemonicOn(plan.chip->generation), plan.tm,
                       plan.tn, plan.wavesM, plan.wavesN)
      .str();
}

/// The metrics every remark of the contraction carries.
SmallVector<std::pair<StringRef, std::string>>
instructionMetrics(const Plan &plan) {
  return {{"Instruction", plan.inst->shapeString()},
          {"WaveTile", llvm::formatv("{0}x{1}", plan.tm, plan.tn).str()}};
}

/// How the operands reach their buffers, for the loads' role.
std::string copiesOf(const Plan &plan, size_t operand) {
  if (plan.mixedCopies)
    return plan.boxSource(operand)
               ? llvm::formatv("{0} stages of TMA boxes issued by one thread, "
                               "the other operand's tiles by cp.async, where "
                               "the operands are aligned at run time; "
                               "otherwise register prefetch with this mapping",
                               plan.stages)
                     .str()
               : llvm::formatv("cp.async into {0} stages of its workgroup "
                               "buffer, the other operand's tiles as TMA "
                               "boxes, where the operands are aligned at run "
                               "time; otherwise register prefetch",
                               plan.stages)
                     .str();
  if (plan.bulkCopies)
    return llvm::formatv("{0} stages of TMA {1}boxes issued by one thread, "
                         "where the operands are aligned at run time; "
                         "otherwise register prefetch with this mapping",
                         plan.stages, plan.boxIm2col(operand) ? "im2col " : "");
  if (plan.stages > 1)
    return llvm::formatv(
        "cp.async into {0} stages of its workgroup buffer{1}", plan.stages,
        plan.alignment.empty() ? ""
                               : "; rows aligned only at run time get a "
                                 "register-prefetch version");
  // A buffer whose fastest dimension is not the global rows' (K fastest
  // for fragment reads, the rows along M or N): the staging transposes.
  const Leaf &leaf = *plan.operands[operand].leaf;
  if (leaf.bufDims.size() == 2 && leaf.bufDims.back() != leaf.side.contiguous)
    return "into registers, transposed there (its global rows run across "
           "its buffer's), then its workgroup buffer, one K tile ahead";
  return "into registers, then its workgroup buffer, one K tile ahead";
}

/// The choice of operand `p`'s phase-1 copy (stagingMapping's).
AccessChoice operandChoice(StringRef name, size_t operand,
                           const PipelinedOperand &p, const Plan &plan,
                           int64_t threads) {
  const GlobalSide &side = p.leaf->side;
  const StagingMapping &s = p.staging;
  std::string why = side.narrowWhy;
  if (s.width < side.maxWidth)
    why = llvm::formatv("{0}-element vectors do not give the {1} threads "
                        "equal parts of the tile",
                        s.width * 2, threads);
  AccessChoice c = AccessChoice::of(
      llvm::formatv("load of {0} ({1}; {2})", name, copiesOf(plan, operand),
                    instructionOf(plan))
          .str(),
      s.mapping, side.contiguous, side.elementType, threads, why);
  c.metrics = instructionMetrics(plan);
  return c;
}

/// The choice of C's stores on `path`.
AccessChoice storeChoice(const ContractionTree &t, const Plan &plan,
                         int64_t threads, EpiloguePlan::Path path) {
  const EpiloguePlan &e = plan.epilogue;
  StoreOp store = t.epilogue.store;
  auto type = cast<VectorType>(store.getValue().getType());
  AccessChoice c;
  c.tile.assign(type.getShape().begin(), type.getShape().end());
  c.elementType = type.getElementType();
  c.threads = threads;
  c.contiguous = 1;
  c.elementsPerThread = type.getNumElements() / threads;
  c.metrics = instructionMetrics(plan);
  c.narrowWhy = e.why;
  std::string fragments =
      llvm::formatv("{0}x{1} {2}x{3} C fragments per wave", plan.rm, plan.rn,
                    plan.inst->m, plan.inst->n);
  if (path == EpiloguePlan::Path::Elements) {
    c.role = llvm::formatv("store of C (each lane its elements of the {0}; "
                           "{1})",
                           fragments, instructionOf(plan));
    return c;
  }
  if (path == EpiloguePlan::Path::Pairs) {
    c.role = llvm::formatv("store of C (each lane its runs of {0} consecutive "
                           "columns of the {1}; {2})",
                           e.run, fragments, instructionOf(plan));
    c.vectorElements = e.run;
    // Rows the plan chose but the kernel had no room for.
    if (e.path == EpiloguePlan::Path::Rows)
      c.narrowWhy = "the kernel's workgroup memory has no room for a C buffer";
    return c;
  }
  c.role = llvm::formatv(
      "store of C (the lanes write their pairs of the {0} into a C buffer of "
      "{1}-element rows ({2}), then the block stores its rows; {3})",
      fragments, e.rowLength,
      e.reuse == 0   ? "in A's staging buffer"
      : e.reuse == 1 ? "in B's staging buffer"
                     : "a buffer of its own",
      instructionOf(plan));
  c.vectorElements = e.rowWidth;
  c.iterations = type.getNumElements() / e.rowWidth / threads;
  c.arrangement = llvm::formatv("; consecutive threads on consecutive vectors "
                                "of a row, {0} {1}",
                                c.iterations,
                                c.iterations == 1 ? "iteration" : "iterations");
  return c;
}

} // namespace

void tiles::remarkContraction(const ContractionTree &t, const Plan &plan,
                              int64_t threads, EpiloguePlan::Path cPath) {
  for (auto [i, p] : llvm::enumerate(plan.operands))
    remarkAccess(p.leaf->load,
                 operandChoice(p.leaf == &t.a ? "A" : "B", i, p, plan, threads),
                 plan.remarks);
  remarkAccess(t.epilogue.store, storeChoice(t, plan, threads, cPath),
               plan.remarks);
}
