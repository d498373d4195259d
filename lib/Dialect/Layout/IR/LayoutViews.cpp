//===- LayoutViews.cpp - Tensor views and partitions ----------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Partition.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;

static llvm::Error traceError(const Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// Why `v` is not produced by an op of type `OpTy`, or its producer.
template <typename OpTy>
static llvm::Expected<OpTy> traceProducer(Value v, StringRef what) {
  if (auto op = v.getDefiningOp<OpTy>())
    return op;
  if (isa<BlockArgument>(v))
    return traceError(llvm::formatv(
        "the {0}'s origin cannot be traced: it is a block argument, not a "
        "'{1}'",
        what, OpTy::getOperationName()));
  return traceError(llvm::formatv(
      "the {0}'s origin cannot be traced: it is produced by '{1}', not by "
      "'{2}'",
      what, v.getDefiningOp()->getName().getStringRef(),
      OpTy::getOperationName()));
}

llvm::Expected<ViewOp> mlir::layout::traceView(Value tensorView) {
  return traceProducer<ViewOp>(tensorView, "tensor view");
}

llvm::Expected<PartitionOp> mlir::layout::tracePartition(Value partition) {
  return traceProducer<PartitionOp>(partition, "partition view");
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc, Adaptor a,
                                       SmallVectorImpl<Type> &types) {
  auto emitError = [&] {
    return layout::detail::inferError(ctx, loc, getOperationName());
  };
  if (failed(layout::detail::checkInferInputs(ctx, loc, getOperationName(),
                                              a.getOperands(), 1, {})))
    return failure();
  auto memref = dyn_cast<MemRefType>(a.getSource().getType());
  if (!memref)
    return emitError() << "source must be a memref";
  // A view of a memref has its shape; one through a descriptor has the
  // descriptor's lengths (ViewOp::verify checks the rest).
  ArrayRef<int64_t> shape = memref.getShape();
  if (a.getDesc()) {
    auto desc = dyn_cast<DescType>(a.getDesc().getType());
    if (!desc)
      return emitError() << "desc must be a descriptor";
    shape = desc.getLengths();
  }
  Type type = TensorViewType::getChecked(emitError, ctx, shape,
                                         memref.getElementType());
  if (!type)
    return failure();
  types.push_back(type);
  return success();
}

LogicalResult ViewOp::verify() {
  auto memref = cast<MemRefType>(getSource().getType());
  TensorViewType type = getType();
  if (memref.getElementType() != type.getElementType())
    return emitOpError() << "element type " << type.getElementType()
                         << " of the view differs from the buffer's "
                         << memref.getElementType();
  if (!getDesc()) {
    if (memref.getShape() != type.getShape())
      return emitOpError() << "view type " << type
                           << " does not have the memref's shape (" << memref
                           << ")";
    if (!memref.isStrided())
      return emitOpError() << "needs a strided memref, got " << memref;
    return success();
  }
  // A 1-D buffer through a descriptor.
  if (memref.getRank() != 1)
    return emitOpError() << "the buffer of a view through a descriptor must "
                            "be 1-D, got "
                         << memref;
  DescType desc = getDesc().getType();
  if (desc.getLengths() != type.getShape())
    return emitOpError() << "view type " << type
                         << " does not have the descriptor's lengths (" << desc
                         << ")";
  if (memref.isDynamicDim(0))
    return success();
  llvm::Expected<Descriptor> d = traceDescriptor(getDesc());
  if (!d) {
    // Checked again (and reported) where the view is lowered.
    llvm::consumeError(d.takeError());
    return success();
  }
  if (memref.getDimSize(0) < d->getElementSpaceSize())
    return emitOpError() << "buffer of " << memref.getDimSize(0)
                         << " elements is smaller than the descriptor's "
                            "element space ("
                         << d->getElementSpaceSize() << " elements)";
  return success();
}

//===----------------------------------------------------------------------===//
// PartitionOp, IndexSpaceOp
//===----------------------------------------------------------------------===//

/// The partition type of `view` cut into `tile`, or an error through
/// `emitError`.
static FailureOr<PartitionViewType>
partitionType(MLIRContext *ctx, TensorViewType view, ArrayRef<int64_t> tile,
              function_ref<InFlightDiagnostic()> emitError) {
  if (llvm::Error e = checkPartitionTile(view.getRank(), tile))
    return emitError() << llvm::toString(std::move(e));
  return PartitionViewType::get(ctx, view.getShape(), view.getElementType(),
                                tile);
}

LogicalResult PartitionOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor a,
                                            SmallVectorImpl<Type> &types) {
  auto emitError = [&] {
    return layout::detail::inferError(ctx, loc, getOperationName());
  };
  if (failed(layout::detail::checkInferInputs(ctx, loc, getOperationName(),
                                              a.getOperands(), 1,
                                              {{"tile", a.getTileAttr()}})))
    return failure();
  auto view = dyn_cast<TensorViewType>(a.getView().getType());
  if (!view)
    return emitError() << "view must be a tensor view";
  FailureOr<PartitionViewType> type =
      partitionType(ctx, view, a.getTile(), emitError);
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult PartitionOp::verify() {
  FailureOr<PartitionViewType> expected =
      partitionType(getContext(), getView().getType(), getTile(),
                    [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  if (getType() != *expected)
    return emitOpError() << "result type " << getType() << " should be "
                         << *expected;
  return success();
}

LogicalResult
IndexSpaceOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                               ValueRange operands, DictionaryAttr,
                               OpaqueProperties, RegionRange,
                               SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return failure();
  auto type = dyn_cast<PartitionViewType>(operands[0].getType());
  if (!type)
    return failure();
  inferredReturnTypes.assign(type.getRank(), IndexType::get(context));
  return success();
}

LogicalResult IndexSpaceOp::verify() { return success(); }

LogicalResult IndexSpaceOp::fold(FoldAdaptor,
                                 SmallVectorImpl<OpFoldResult> &results) {
  PartitionViewType type = getPartition().getType();
  if (llvm::any_of(type.getShape(), ShapedType::isDynamic))
    return failure();
  Builder b(getContext());
  for (int64_t count : partitionIndexSpace(type.getShape(), type.getTile()))
    results.push_back(b.getIndexAttr(count));
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Checks the tile indices and the atomic clause shared by loads and stores.
static LogicalResult verifyAccess(Operation *op, PartitionViewType type,
                                  size_t numIndices, VectorType vector,
                                  StringRef role,
                                  std::optional<MemoryOrder> order,
                                  std::optional<Scope> scope, bool isLoad) {
  if (numIndices != type.getRank())
    return op->emitOpError()
           << "expects " << type.getRank() << " tile indices (the rank of "
           << type << "), got " << numIndices;
  VectorType tile = type.getTileType();
  if (vector != tile)
    return op->emitOpError()
           << role << " type " << vector << " does not match the tile " << tile;
  if (order.has_value() != scope.has_value())
    return op->emitOpError() << "an atomic access needs both a memory order "
                                "and a scope";
  if (order) {
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
      return op->emitOpError()
             << "an atomic access needs elements of 8, 16, 32 or 64 bits, got "
             << type.getElementType();
    bool readOrder = *order == MemoryOrder::Relaxed ||
                     *order == MemoryOrder::Acquire ||
                     *order == MemoryOrder::SeqCst;
    bool writeOrder = *order == MemoryOrder::Relaxed ||
                      *order == MemoryOrder::Release ||
                      *order == MemoryOrder::SeqCst;
    if (isLoad && !readOrder)
      return op->emitOpError()
             << "memory order '" << stringifyMemoryOrder(*order)
             << "' is not valid for a load (use relaxed, acquire or seq_cst)";
    if (!isLoad && !writeOrder)
      return op->emitOpError()
             << "memory order '" << stringifyMemoryOrder(*order)
             << "' is not valid for a store (use relaxed, release or seq_cst)";
  }
  return success();
}

/// An unmasked access of a partition whose static extent its tiles do not
/// divide: the last tile along that dimension reaches past the view's end,
/// and without a mask the lowering would read or write there. A constant
/// tile index whose tile lies inside the view is fine; any other index may
/// name the last tile. Run-time extents are the user's promise (views.md).
static LogicalResult verifyTilesInside(Operation *op, PartitionViewType type,
                                       ValueRange indices, bool isLoad) {
  for (auto [k, extent, tile, index] :
       llvm::enumerate(type.getShape(), type.getTile(), indices)) {
    if (ShapedType::isDynamic(extent) || extent % tile == 0)
      continue;
    APInt value;
    if (matchPattern(index, m_ConstantInt(&value)) &&
        (value.getSExtValue() + 1) * tile <= extent)
      continue;
    int64_t tiles = llvm::divideCeil(extent, tile);
    return op->emitOpError()
           << "is unmasked, but along dimension " << k << " the view's extent "
           << extent << " is not a multiple of the tile's " << tile << ": tile "
           << tiles - 1 << " " << (isLoad ? "reads" : "writes") << " "
           << tiles * tile - extent
           << " elements past the end; add 'masked' (or index only tiles "
              "inside the view with constants)";
  }
  return success();
}

LogicalResult LoadOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc, Adaptor a,
                                       SmallVectorImpl<Type> &types) {
  if (failed(layout::detail::checkInferInputs(ctx, loc, getOperationName(),
                                              a.getOperands(), 1, {})))
    return failure();
  auto partition = dyn_cast<PartitionViewType>(a.getPartition().getType());
  if (!partition)
    return layout::detail::inferError(ctx, loc, getOperationName())
           << "partition must be a partition view";
  // One tile (verifyAccess checks a given type against it).
  types.push_back(partition.getTileType());
  return success();
}

LogicalResult LoadOp::verify() {
  PartitionViewType type = getPartition().getType();
  if (failed(verifyAccess(*this, type, getIndices().size(), getType(), "result",
                          getOrder(), getScope(), /*isLoad=*/true)))
    return failure();
  if (!getMasked() &&
      failed(verifyTilesInside(*this, type, getIndices(), /*isLoad=*/true)))
    return failure();
  if (std::optional<Padding> padding = getPadding()) {
    if (!getMasked())
      return emitOpError() << "padding(" << stringifyPadding(*padding)
                           << ") needs 'masked': an unmasked load reads "
                              "every element";
    if (*padding != Padding::Zero && !isa<FloatType>(type.getElementType()))
      return emitOpError() << "padding(" << stringifyPadding(*padding)
                           << ") needs a floating-point view; "
                           << type.getElementType() << " pads with zero only";
  }
  return success();
}

LogicalResult StoreOp::verify() {
  if (failed(verifyAccess(*this, getPartition().getType(), getIndices().size(),
                          getValue().getType(), "value", getOrder(), getScope(),
                          /*isLoad=*/false)))
    return failure();
  if (!getMasked())
    return verifyTilesInside(*this, getPartition().getType(), getIndices(),
                             /*isLoad=*/false);
  return success();
}
