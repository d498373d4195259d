//===- FragmentWarpgroup.cpp - Fragment programs on warpgroup MMA ---------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// What a fragment program's products become on wgmma (sm_90a): the program
// keeps its tiles in the C fragments of the m64n8 instruction, and a
// warpgroup's m64nN accumulator (PTX ISA 9.7.15.5.1.1, "Accumulator D": N / 2
// f32 registers, 4 per 8 columns) is N / 8 such fragments side by side, so
// a product of N columns is one wgmma per K step of 16 over the
// concatenated fragments. A staged A (attention's Q) is read by
// layout.warpgroup_mma from its buffer like B; a computed A (P) goes in as
// registers, layout.warpgroup_mma_reg_a, its fragments a re-view of the
// producer's C fragments (FragmentProgram.cpp planned them with the
// register-A form's layout). The batch runs between wgmma.fence and
// commit_group / wait_group 0: the program reads the result right after.
//
//===----------------------------------------------------------------------===//

#include "ContractionFragments.h"
#include "FragmentProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

SmallVector<Value> tiles::warpgroupAccumulators(OpBuilder &b, Location loc,
                                                const FragmentContext &cx,
                                                ArrayRef<Value> accs) {
  const Plan &plan = cx.plan;
  int64_t per = plan.inst->cElementsPerLane;
  auto accType = VectorType::get({plan.rn * per}, b.getF32Type());
  SmallVector<Value> rows;
  auto isZero = [](Value v) { return matchPattern(v, m_PosZeroFloat()); };
  for (int64_t i = 0; i < plan.rm; ++i) {
    // A product from zero (S = Q K^T): one zero constant, which the
    // lowering turns into scale-d 0 instead of zeroed registers.
    ArrayRef<Value> row = accs.slice(i * plan.rn, plan.rn);
    if (llvm::all_of(row, isZero)) {
      rows.push_back(arith::ConstantOp::create(
          b, loc, accType, DenseElementsAttr::get(accType, 0.0f)));
      continue;
    }
    SmallVector<Value> elements;
    for (int64_t j = 0; j < plan.rn; ++j)
      for (int64_t e = 0; e < per; ++e)
        elements.push_back(
            vector::ExtractOp::create(b, loc, accs[i * plan.rn + j], e));
    rows.push_back(vector::FromElementsOp::create(b, loc, accType, elements));
  }
  return rows;
}

SmallVector<Value> tiles::issueWarpgroupFragments(OpBuilder &b, Location loc,
                                                  const FragmentContext &cx,
                                                  ArrayRef<Value> accumulators,
                                                  ArrayRef<Value> aRegs) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  const OperandLeaves &t = cx.operands;
  int64_t shape[] = {inst.m, plan.tn, inst.k};
  SmallVector<int64_t> bDims = descriptorDims(*t.b, t.bK, t.bN);
  SmallVector<Value> rows(accumulators);
  for (int64_t i = 0; i < plan.rm; ++i) {
    Value &acc = rows[i];
    for (int64_t s = 0; s < plan.ks; ++s) {
      Value k0 = indexConstant(b, loc, s * inst.k);
      SmallVector<Value> bc(2);
      bc[t.bK] = k0;
      bc[t.bN] = cx.waveCol;
      SmallVector<Value> bAt = t.b->bufCoord(bc, cx.stage);
      if (!aRegs.empty()) {
        acc = WarpgroupMmaRegAOp::create(b, loc, acc.getType(), acc,
                                         aRegs[i * plan.ks + s], t.b->buffer,
                                         t.b->desc, bAt, shape, bDims);
        continue;
      }
      SmallVector<Value> a(2);
      a[t.aM] = arith::AddIOp::create(b, loc, cx.waveRow,
                                      indexConstant(b, loc, i * inst.m));
      a[t.aK] = k0;
      acc = WarpgroupMmaOp::create(b, loc, acc.getType(), acc, t.a->buffer,
                                   t.a->desc, t.a->bufCoord(a, cx.stage),
                                   t.b->buffer, t.b->desc, bAt, shape,
                                   descriptorDims(*t.a, t.aM, t.aK), bDims);
    }
  }
  return rows;
}

SmallVector<Value> tiles::warpgroupFragmentsOf(OpBuilder &b, Location loc,
                                               const FragmentContext &cx,
                                               ArrayRef<Value> rows) {
  const Plan &plan = cx.plan;
  int64_t per = plan.inst->cElementsPerLane;
  SmallVector<Value> out;
  for (int64_t i = 0; i < plan.rm; ++i)
    for (int64_t j = 0; j < plan.rn; ++j)
      out.push_back(vector::ExtractStridedSliceOp::create(b, loc, rows[i],
                                                          j * per, per, 1));
  return out;
}

SmallVector<Value> tiles::multiplyWarpgroupFragments(
    OpBuilder &b, Location loc, const FragmentContext &cx, ArrayRef<Value> accs,
    function_ref<Value(int64_t)> aRegisters) {
  const Plan &plan = cx.plan;
  // The computed A's registers before the fence (wgmma.fence orders the
  // lanes' register writes before the wgmma reads them).
  SmallVector<Value> aRegs;
  if (aRegisters)
    for (int64_t tile = 0; tile < plan.rm * plan.ks; ++tile)
      aRegs.push_back(aRegisters(tile));
  SmallVector<Value> rows = warpgroupAccumulators(b, loc, cx, accs);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  rows = issueWarpgroupFragments(b, loc, cx, rows, aRegs);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return warpgroupFragmentsOf(b, loc, cx, rows);
}
