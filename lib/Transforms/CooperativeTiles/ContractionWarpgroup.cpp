//===- ContractionWarpgroup.cpp - Tile contractions on warpgroup MMA ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// What changes when the plan's instruction is wgmma (sm_90a): A and B stay
// in their staging buffers, laid out in the hardware's swizzle mode
// (wgmmaStagingLayout, WarpgroupMma.h) and aligned to its pattern, and a
// K tile is one batch of layout.warpgroup_mma per warpgroup between
// wgmma.fence and wgmma.commit_group / wait_group 0, so that the next
// barrier may let the stage be overwritten. The epilogue reads the
// accumulators through the table's register layout, as for the other
// instructions (ContractionFragments.cpp).
//
//===----------------------------------------------------------------------===//

#include "ContractionFragments.h"

#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

void tiles::layOutForWarpgroupMma(gpu::GPUFuncOp func, Leaf &leaf,
                                  OpBuilder &b) {
  Location loc = leaf.load.getLoc();
  int64_t rows = leaf.side.tile[leaf.bufDims[0]];
  int64_t cols = leaf.side.tile[leaf.bufDims[1]];
  int64_t eb = elementBytes(leaf.side.elementType);
  Value old = leaf.desc;
  leaf.desc =
      buildDescriptor(b, loc, wgmmaStagingLayout(leaf.stages, rows, cols, eb));
  if (old.use_empty())
    old.getDefiningOp()->erase();
  int64_t align = sharedSwizzleMode(*widestSharedSwizzle(cols * eb)).alignment;
  for (auto [i, arg] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (arg == leaf.buffer)
      func.setWorkgroupAttributionAttr(
          i, LLVM::LLVMDialect::getAlignAttrName(),
          b.getI64IntegerAttr(std::max(align, kWorkgroupBufferAlignment)));
}

void tiles::fenceStagingForWarpgroupMma(OpBuilder &b, Location loc,
                                        const MatrixInstruction &inst) {
  if (!inst.operandsInWorkgroupMemory())
    return;
  // PTX ISA "Memory consistency model: proxies": wgmma reads shared memory
  // through the async proxy; the staging writes (st.shared, cp.async) are
  // generic-proxy accesses, ordered before it only by this fence in each
  // writing thread, ahead of the barrier.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

LogicalResult tiles::checkWarpgroupMmaStaging(const MatrixInstruction &inst,
                                              const Leaf &leaf,
                                              StringRef what) {
  LoadOp load = leaf.load;
  if (leaf.bufDims.size() != 2)
    return load.emitOpError() << what << " on " << inst.mnemonic
                              << ": its tile must have two non-unit dimensions";
  int64_t rows = leaf.side.tile[leaf.bufDims[0]];
  int64_t cols = leaf.side.tile[leaf.bufDims[1]];
  if (std::optional<std::string> why =
          wgmmaStagingProblem(rows, cols, elementBytes(leaf.side.elementType)))
    return load.emitOpError()
           << what << " on " << inst.mnemonic << ": its " << rows << "x" << cols
           << " tile cannot be laid out for wgmma: " << *why;
  return success();
}

SmallVector<int64_t> tiles::descriptorDims(const Leaf &leaf, int64_t x,
                                           int64_t y) {
  int64_t s = leaf.stages > 1 ? 1 : 0;
  auto pos = [&](int64_t k) {
    return s + int64_t(llvm::find(leaf.bufDims, k) - leaf.bufDims.begin());
  };
  return {pos(x), pos(y)};
}

int64_t tiles::boxBytesPerStage(const Leaf &leaf) {
  return leaf.stageElements() * elementBytes(leaf.side.elementType);
}

int64_t tiles::boxColumns(const Leaf &leaf) {
  int64_t cols = leaf.side.tile[leaf.bufDims[1]];
  int64_t eb = elementBytes(leaf.side.elementType);
  return sharedSwizzleMode(*widestSharedSwizzle(cols * eb)).rowBytes / eb;
}

namespace {
/// im2colBoxOperands as index arithmetic.
struct IndexOps {
  OpBuilder &b;
  Location loc;
  Value cst(int64_t v) { return indexConstant(b, loc, v); }
  Value div(Value x, int64_t d) {
    return arith::DivUIOp::create(b, loc, x, cst(d));
  }
  Value rem(Value x, int64_t d) {
    return arith::RemUIOp::create(b, loc, x, cst(d));
  }
  Value affine(Value x, int64_t scale, int64_t shift) {
    Value y = arith::MulIOp::create(b, loc, x, cst(scale));
    return shift ? arith::AddIOp::create(b, loc, y, cst(shift)) : y;
  }
};
} // namespace

/// The im2col box of the implicit GEMM's A block at rows m0 (its first
/// pixels) and columns k0 (channels of one filter position): the
/// instruction's coordinates and filter offsets (im2colBoxOperands).
static void copyIm2colBox(OpBuilder &b, Location loc, const Leaf &leaf,
                          Value source, const Im2colGeometry &g, Value m0,
                          Value k0, ArrayRef<int64_t> box,
                          ArrayRef<int64_t> destDims, ArrayRef<Value> at,
                          Value stage, Value barriers, Value barrier) {
  IndexOps ops{b, loc};
  std::array<Value, 4> indices;
  std::array<Value, 2> offsets;
  im2colBoxOperands<Value>(g, m0, k0, ops, indices, offsets);
  std::array<int64_t, 2> lower = g.lowerCorner(), upper = g.upperCorner();
  BulkTensorLoadOp::create(
      b, loc, source, indices, offsets, leaf.buffer, leaf.desc,
      leaf.bufCoord(at, stage), barriers, barrier, box, destDims,
      b.getDenseI64ArrayAttr(lower), b.getDenseI64ArrayAttr(upper),
      b.getDenseI64ArrayAttr(g.stride));
}

LogicalResult tiles::copyTileInBoxes(OpBuilder &b, Location loc,
                                     const Leaf &leaf, Value source,
                                     const Im2colGeometry *im2col,
                                     ArrayRef<Value> indices, int64_t width,
                                     Value stage, Value barriers,
                                     Value barrier) {
  int64_t r = leaf.bufDims[0], c = leaf.bufDims[1];
  int64_t rows = leaf.side.tile[r], cols = leaf.side.tile[c];
  int64_t atom = boxColumns(leaf);
  SmallVector<int64_t> box(2), dims = descriptorDims(leaf, r, c);
  box[r] = rows;
  box[c] = atom;
  SmallVector<int64_t> destDims(2);
  destDims[r] = dims[0];
  destDims[c] = dims[1];
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> origin;
  if (im2col) {
    // The tile's first element: tile indices times the tile (a partition
    // view's tiles; im2colBoxProblem asked for rows along GEMM-M).
    for (auto [i, extent] : llvm::zip_equal(indices, leaf.side.tile))
      origin.push_back(
          arith::MulIOp::create(b, loc, i, indexConstant(b, loc, extent)));
  } else {
    FailureOr<GlobalAccess> access = tileAccess(b, leaf, indices, width);
    if (failed(access))
      return failure();
    origin = {access->origin(0), access->origin(1)};
  }
  for (int64_t a = 0; a < cols; a += atom) {
    SmallVector<Value> from(origin);
    from[c] = arith::AddIOp::create(b, loc, from[c], indexConstant(b, loc, a));
    SmallVector<Value> at(2, zero);
    at[c] = indexConstant(b, loc, a);
    if (im2col)
      copyIm2colBox(b, loc, leaf, source, *im2col, from[0], from[1], box,
                    destDims, at, stage, barriers, barrier);
    else
      BulkTensorLoadOp::create(b, loc, source, from, ValueRange(), leaf.buffer,
                               leaf.desc, leaf.bufCoord(at, stage), barriers,
                               barrier, box, destDims, nullptr, nullptr,
                               nullptr);
  }
  return success();
}

SmallVector<Value> tiles::multiplyWarpgroupTile(OpBuilder &b, Location loc,
                                                const FragmentContext &cx,
                                                ValueRange accs) {
  const Plan &plan = cx.plan;
  const MatrixInstruction &inst = *plan.inst;
  const OperandLeaves &t = cx.operands;
  SmallVector<int64_t> aDims = descriptorDims(*t.a, t.aM, t.aK);
  SmallVector<int64_t> bDims = descriptorDims(*t.b, t.bK, t.bN);
  int64_t shape[] = {inst.m, inst.n, inst.k};
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  SmallVector<Value> out(accs);
  for (int64_t kk = 0; kk < plan.ks; ++kk) {
    Value k0 = indexConstant(b, loc, kk * inst.k);
    for (int64_t i = 0; i < plan.rm; ++i) {
      SmallVector<Value> a(2);
      a[t.aM] = arith::AddIOp::create(b, loc, cx.waveRow,
                                      indexConstant(b, loc, i * inst.m));
      a[t.aK] = k0;
      for (int64_t j = 0; j < plan.rn; ++j) {
        SmallVector<Value> bc(2);
        bc[t.bK] = k0;
        bc[t.bN] = arith::AddIOp::create(b, loc, cx.waveCol,
                                         indexConstant(b, loc, j * inst.n));
        Value &acc = out[i * plan.rn + j];
        acc = WarpgroupMmaOp::create(
            b, loc, acc.getType(), acc, t.a->buffer, t.a->desc,
            t.a->bufCoord(a, cx.stage), t.b->buffer, t.b->desc,
            t.b->bufCoord(bc, cx.stage), shape, aDims, bDims);
      }
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, cx.wgmmaInFlight);
  return out;
}

bool tiles::storeThroughWorkgroupMemory(OpBuilder &b, ContractionTree &t,
                                        const FragmentContext &cx,
                                        const GlobalAccess &g,
                                        ArrayRef<EvaluatedFragment> fragments) {
  const Plan &plan = cx.plan;
  const EpiloguePlan &epilogue = plan.epilogue;
  StoreOp store = t.epilogue.store;
  Location loc = store.getLoc();
  auto type = cast<VectorType>(store.getValue().getType());
  int64_t rowsOfTile = type.getDimSize(0), cols = type.getDimSize(1);
  Type et = type.getElementType();
  int64_t eb = elementBytes(et);
  int64_t width = epilogue.rowWidth;
  int64_t vectorsPerRow = cols / width;
  int64_t length = epilogue.rowLength;
  // The C buffer reuses A's or B's staging buffer where the plan found one
  // of the same element type that holds it (dead after the loop: no memory
  // added, so no block per SM lost), once every warpgroup has finished
  // reading it; otherwise a buffer of its own where the kernel's memory
  // allows.
  int64_t elements = rowsOfTile * length;
  Value buffer;
  if (epilogue.reuse >= 0) {
    const Leaf *leaf = epilogue.reuse == 0 ? &t.a : &t.b;
    auto staged = cast<MemRefType>(leaf->buffer.getType());
    gpu::BarrierOp::create(b, loc);
    auto view =
        MemRefType::get({rowsOfTile, length}, et,
                        StridedLayoutAttr::get(b.getContext(), 0, {length, 1}),
                        staged.getMemorySpace());
    buffer = memref::ReinterpretCastOp::create(
        b, loc, view, leaf->buffer, 0, ArrayRef<int64_t>{rowsOfTile, length},
        ArrayRef<int64_t>{length, 1});
  }
  auto func = t.loop->getParentOfType<gpu::GPUFuncOp>();
  if (!buffer) {
    if (layoutWorkgroupBuffers(func).bytes + kWorkgroupBufferAlignment +
            elements * eb >
        plan.workgroupBytesLimit)
      return false;
    buffer = addAlignedWorkgroupBuffer(func, {rowsOfTile, length}, et, loc);
  }
  // Each lane's pairs, then the block meets.
  for (const EvaluatedFragment &f : fragments)
    for (int64_t e = 0, n = f.at.size(); e < n; e += 2)
      vector::StoreOp::create(
          b, loc,
          vector::ExtractStridedSliceOp::create(b, loc, f.value, e, 2, 1),
          buffer, f.at[e]);
  gpu::BarrierOp::create(b, loc);
  // The rows as coalesced vectors: consecutive threads on consecutive
  // vectors of a row.
  int64_t iterations = rowsOfTile * vectorsPerRow / cx.threads;
  auto emit = [&](OpBuilder &ob, bool inside) {
    for (int64_t it = 0; it < iterations; ++it) {
      Value v = arith::AddIOp::create(ob, loc, cx.tid,
                                      indexConstant(ob, loc, it * cx.threads));
      Value per = indexConstant(ob, loc, vectorsPerRow);
      Value r = arith::DivUIOp::create(ob, loc, v, per);
      Value c = arith::MulIOp::create(ob, loc,
                                      arith::RemUIOp::create(ob, loc, v, per),
                                      indexConstant(ob, loc, width));
      Value x = vector::LoadOp::create(ob, loc, VectorType::get({width}, et),
                                       buffer, ValueRange{r, c});
      g.store(ob, x, {r, c}, inside);
    }
  };
  Value whole = g.tileInside(b);
  if (!whole) {
    emit(b, /*inside=*/true);
    return true;
  }
  auto ifOp = scf::IfOp::create(b, loc, whole, /*withElse=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  emit(tb, /*inside=*/true);
  OpBuilder eb2 = ifOp.getElseBodyBuilder();
  emit(eb2, /*inside=*/false);
  return true;
}
