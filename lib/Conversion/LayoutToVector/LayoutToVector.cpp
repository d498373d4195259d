//===- LayoutToVector.cpp - Partition accesses to vector ops --------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile loads and stores of partition views. Element J of tile I is
// the view's element c = I * tile + J (cuda::tiles::partition_view's
// mapping); a masked access skips the elements with c outside the view's
// extents or at an invalid descriptor coordinate.
//
// Strided views go through one vector.transfer_read / transfer_write.
// Views through other descriptors go through a loop over the tile that
// computes each element's offset with layout.offset (the affine lowering
// turns it into index arithmetic) and stages the tile in a small buffer.
// Atomic accesses are one LLVM atomic load or store per element.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/IndexAlgebras.h"
#include "layout/Dialect/Layout/Utils/TileAccess.h"
#include "layout/Evaluator/IndexAlgebra.h"
#include "layout/Evaluator/Partition.h"
#include "layout/Evaluator/Simplify.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_CONVERTLAYOUTTOVECTOR
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The mask of the tile's elements inside the view: extent - origin per
/// dimension (vector.create_mask clamps to [0, tile]).
Value extentMask(OpBuilder &b, Location loc, const TileAccess &access) {
  SmallVector<Value> bounds;
  for (auto [e, o] : llvm::zip_equal(access.extents, access.origin))
    bounds.push_back(arith::SubIOp::create(b, loc, e, o));
  auto maskType = VectorType::get(access.type.getTile(), b.getI1Type());
  return vector::CreateMaskOp::create(b, loc, maskType, bounds);
}

/// The whole tile `type` read from `memref` at `indices` (in bounds; the
/// masked-off elements read `padding`).
Value readTile(OpBuilder &b, Location loc, VectorType type, Value memref,
               ValueRange indices, Value padding, Value mask) {
  SmallVector<bool> inBounds(type.getRank(), true);
  return vector::TransferReadOp::create(
      b, loc, type, memref, indices,
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext()),
      padding, mask, b.getBoolArrayAttr(inBounds));
}

/// Writes the whole tile `value` to `memref` at `indices` (in bounds; the
/// masked-off elements are not written).
void writeTile(OpBuilder &b, Location loc, Value value, Value memref,
               ValueRange indices, Value mask) {
  auto type = cast<VectorType>(value.getType());
  SmallVector<bool> inBounds(type.getRank(), true);
  vector::TransferWriteOp::create(
      b, loc, Type(), value, memref, indices,
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext()), mask,
      b.getBoolArrayAttr(inBounds));
}

/// A host buffer of the tile's shape (the element-by-element paths stage
/// through it) and the zero indices of its first element.
std::pair<Value, SmallVector<Value>> allocStage(OpBuilder &b, Location loc,
                                                VectorType type) {
  Value stage = memref::AllocaOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  return {stage, SmallVector<Value>(type.getRank(), indexConstant(b, loc, 0))};
}

LLVM::AtomicOrdering llvmOrdering(MemoryOrder order) {
  switch (order) {
  case MemoryOrder::Relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemoryOrder::Acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemoryOrder::Release:
    return LLVM::AtomicOrdering::release;
  case MemoryOrder::AcqRel:
    return LLVM::AtomicOrdering::acq_rel;
  case MemoryOrder::SeqCst:
    return LLVM::AtomicOrdering::seq_cst;
  }
  llvm_unreachable("unknown memory order");
}

/// The LLVM sync scope of an atomic access of `scope` in `op`, from the
/// target of the enclosing gpu.module: AMDGPU's "singlethread",
/// "workgroup", "agent" and "" (system) (LLVM AMDGPU usage, "Memory Scopes"),
/// NVPTX's "singlethread", "block", "device" and "" (PTX .cta, .gpu, .sys).
/// Without a target (the CPU) every scope is the system's.
StringRef syncScope(Operation *op, std::optional<Scope> scope) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  ArrayAttr targets = module ? module.getTargetsAttr() : ArrayAttr();
  if (!scope || !targets || targets.empty())
    return "";
  bool amd = isa<ROCDL::ROCDLTargetAttr>(targets[0]);
  bool nvidia = isa<NVVM::NVVMTargetAttr>(targets[0]);
  if (!amd && !nvidia)
    return "";
  switch (*scope) {
  case Scope::Thread:
    return "singlethread";
  case Scope::Block:
    return amd ? "workgroup" : "block";
  case Scope::Device:
    return amd ? "agent" : "device";
  case Scope::System:
    return "";
  }
  llvm_unreachable("unknown scope");
}

/// An LLVM pointer to element `indices` of `memref`, for the atomic
/// accesses (the memref dialect has no atomic load or store).
Value elementPointer(OpBuilder &b, Location loc, Value memref,
                     ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  unsigned addressSpace = 0;
  if (auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace()))
    addressSpace = space.getInt();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = meta.getOffset();
  for (auto [i, s] : llvm::zip_equal(indices, meta.getStrides()))
    linear = arith::AddIOp::create(b, loc, linear,
                                   arith::MulIOp::create(b, loc, i, s));
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  Value address = arith::AddIOp::create(
      b, loc, aligned,
      arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, bytes)));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace), asInt);
}

/// Loops over the tile's elements: `body(b, loc, J, c)` with J the element
/// in the tile and c = origin + J its view coordinate.
void forEachTileElement(
    OpBuilder &b, Location loc, const TileAccess &access,
    function_ref<void(OpBuilder &, Location, ValueRange, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t t : access.type.getTile()) {
    lbs.push_back(indexConstant(b, loc, 0));
    ubs.push_back(indexConstant(b, loc, t));
    steps.push_back(indexConstant(b, loc, 1));
  }
  scf::buildLoopNest(b, loc, lbs, ubs, steps,
                     [&](OpBuilder &nb, Location nloc, ValueRange j) {
                       body(nb, nloc, j, tileElementCoord(nb, nloc, access, j));
                     });
}

/// Traces the partition of a load or store (its tile origin and extents
/// created at the rewriter's insertion point); a failure is reported as the
/// pattern's match failure.
template <typename OpTy>
FailureOr<TileAccess> traceTile(OpTy op, PatternRewriter &rewriter) {
  std::string why;
  FailureOr<TileAccess> access =
      traceAccess(rewriter, op, op.getPartition(), op.getIndices(),
                  op.getOrder().has_value(), why);
  if (failed(access))
    return rewriter.notifyMatchFailure(op, why);
  return access;
}

struct LowerLoad final : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<TileAccess> access = traceTile(op, rewriter);
    if (failed(access))
      return failure();
    VectorType tileType = op.getType();
    Type elementType = tileType.getElementType();
    Value padding = paddingValue(rewriter, loc, elementType, op.getPadding());

    if (access->strided && !op.getOrder()) {
      Value mask =
          op.getMasked() ? extentMask(rewriter, loc, *access) : Value();
      rewriter.replaceOp(op, readTile(rewriter, loc, tileType, access->strided,
                                      access->origin, padding, mask));
      return success();
    }

    // Element by element, staged through a buffer of the tile's shape.
    auto [stage, zeros] = allocStage(rewriter, loc, tileType);
    forEachTileElement(
        rewriter, loc, *access,
        [&](OpBuilder &b, Location l, ValueRange j, ValueRange coord) {
          auto atomicLoad = [&](OpBuilder &lb, Location ll,
                                const ElementRef &ref) -> Value {
            Value ptr = elementPointer(lb, ll, ref.memref, ref.indices);
            return LLVM::LoadOp::create(
                lb, ll, elementType, ptr,
                elementType.getIntOrFloatBitWidth() / 8,
                /*isVolatile=*/false, /*isNonTemporal=*/false,
                /*isInvariant=*/false, /*isInvariantGroup=*/false,
                llvmOrdering(*op.getOrder()), syncScope(op, op.getScope()));
          };
          Value v =
              loadElement(b, l, *access, coord, op.getMasked(), padding,
                          op.getOrder() ? ElementReader(atomicLoad) : nullptr);
          memref::StoreOp::create(b, l, v, stage, j);
        });
    Value read = readTile(rewriter, loc, tileType, stage, zeros, padding, {});
    rewriter.replaceOp(op, read);
    return success();
  }
};

struct LowerStore final : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<TileAccess> access = traceTile(op, rewriter);
    if (failed(access))
      return failure();
    VectorType tileType = op.getValue().getType();
    if (access->strided && !op.getOrder()) {
      Value mask =
          op.getMasked() ? extentMask(rewriter, loc, *access) : Value();
      writeTile(rewriter, loc, op.getValue(), access->strided, access->origin,
                mask);
      rewriter.eraseOp(op);
      return success();
    }

    auto [stage, zeros] = allocStage(rewriter, loc, tileType);
    writeTile(rewriter, loc, op.getValue(), stage, zeros, {});
    forEachTileElement(
        rewriter, loc, *access,
        [&](OpBuilder &b, Location l, ValueRange j, ValueRange coord) {
          auto write = [&](OpBuilder &sb, Location sl, const ElementRef &ref) {
            Value v = memref::LoadOp::create(sb, sl, stage, j);
            if (std::optional<MemoryOrder> order = op.getOrder()) {
              Value ptr = elementPointer(sb, sl, ref.memref, ref.indices);
              LLVM::StoreOp::create(
                  sb, sl, v, ptr,
                  tileType.getElementType().getIntOrFloatBitWidth() / 8,
                  /*isVolatile=*/false, /*isNonTemporal=*/false,
                  /*isInvariantGroup=*/false, llvmOrdering(*order),
                  syncScope(op, op.getScope()));
              return;
            }
            memref::StoreOp::create(sb, sl, v, ref.memref, ref.indices);
          };
          storeElement(b, l, *access, coord, op.getMasked(), write);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The tile counts of dynamic extents (static ones fold), Partition.h's
/// formula as an affine map; a dynamic extent is the memref's, or the top
/// length of the view's descriptor computed from its run-time operands.
struct LowerIndexSpace final : OpRewritePattern<IndexSpaceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexSpaceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string why;
    FailureOr<TracedView> traced = traceTileView(op, op.getPartition(), why);
    if (failed(traced))
      return rewriter.notifyMatchFailure(op, why);
    PartitionViewType type = op.getPartition().getType();
    SmallVector<Value> extents;
    if (llvm::any_of(type.getShape(), ShapedType::isDynamic))
      extents = viewExtents(rewriter, loc, *traced);
    SmallVector<Value> counts;
    for (auto [k, e, t] : llvm::enumerate(type.getShape(), type.getTile())) {
      if (!ShapedType::isDynamic(e)) {
        Int64Algebra ints;
        counts.push_back(
            indexConstant(rewriter, loc, formulas::tileCount(ints, e, t)));
        continue;
      }
      AffineExprAlgebra affine(getContext());
      AffineExpr count =
          formulas::tileCount(affine, rewriter.getAffineDimExpr(0), t);
      counts.push_back(affine::AffineApplyOp::create(
          rewriter, loc, AffineMap::get(1, 0, count), extents[k]));
    }
    rewriter.replaceOp(op, counts);
    return success();
  }
};

/// Why the access `op` to `partition` was not lowered.
std::string whyNot(Operation *op, Value partition) {
  std::string why;
  if (failed(traceTileView(op, partition, why)))
    return why;
  return "an atomic access needs a memref whose memory space is an integer "
         "(an LLVM address space)";
}

struct ConvertLayoutToVectorPass final
    : layout::impl::ConvertLayoutToVectorBase<ConvertLayoutToVectorPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLayoutToVectorPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp, IndexSpaceOp>(op))
        return;
      Value partition = op->getOperand(isa<StoreOp>(op) ? 1 : 0);
      op->emitOpError() << "cannot be lowered: " << whyNot(op, partition);
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

void mlir::layout::populateLayoutToVectorPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerLoad, LowerStore, LowerIndexSpace>(patterns.getContext());
}
