//===- TileAccess.cpp - Where the elements of a partition tile live -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/TileAccess.h"
#include "layout/Dialect/Layout/Utils/IndexAlgebras.h"
#include "layout/Evaluator/Partition.h"
#include "layout/Evaluator/Simplify.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The memref type of `lengths` / `strides` / `offset` (dynamic offset when
/// `offset` is std::nullopt) in `base`'s memory space.
MemRefType stridedType(MemRefType base, ArrayRef<int64_t> lengths,
                       ArrayRef<int64_t> strides,
                       std::optional<int64_t> offset) {
  auto layout = StridedLayoutAttr::get(
      base.getContext(), offset ? *offset : ShapedType::kDynamic, strides);
  return MemRefType::get(lengths, base.getElementType(), layout,
                         base.getMemorySpace());
}

} // namespace

bool mlir::layout::hasIntegerMemorySpace(Value memref) {
  Attribute space = cast<MemRefType>(memref.getType()).getMemorySpace();
  return !space || isa<IntegerAttr>(space);
}

FailureOr<TracedView>
mlir::layout::traceTileView(Operation *op, Value partition, std::string &why) {
  auto fail = [&](llvm::Error e) -> FailureOr<TracedView> {
    why = llvm::toString(std::move(e));
    return failure();
  };
  llvm::Expected<PartitionOp> part = tracePartition(partition);
  if (!part)
    return fail(part.takeError());
  llvm::Expected<ViewOp> view = traceView(part->getView());
  if (!view)
    return fail(view.takeError());
  TracedView t;
  t.source = view->getSource();
  t.desc = view->getDesc();
  if (!t.desc)
    return t;
  llvm::Expected<Descriptor> d = traceDescriptor(t.desc);
  if (!d)
    return fail(d.takeError());
  t.descriptor = std::move(*d);
  if (isa<StoreOp>(op))
    if (llvm::Error e = t.descriptor->checkInvertible())
      return fail(llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "a store through a view whose descriptor is not injective: several "
          "tile elements could write one memory element (" +
              llvm::toString(std::move(e)) + ")"));
  SmallVector<int64_t> srcStrides;
  t.contiguousSource =
      succeeded(cast<MemRefType>(t.source.getType())
                    .getStridesAndOffset(srcStrides, t.sourceOffset)) &&
      srcStrides[0] == 1;
  if (t.contiguousSource)
    t.base = StridedBase::of(*t.descriptor);
  return t;
}

std::optional<std::pair<SmallVector<int64_t>, int64_t>>
TracedView::stridedLayout() const {
  if (!desc) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(cast<MemRefType>(source.getType())
                   .getStridesAndOffset(strides, offset)))
      return std::nullopt;
    return std::pair{strides, offset};
  }
  if (!base)
    return std::nullopt;
  int64_t offset = ShapedType::isDynamic(sourceOffset)
                       ? ShapedType::kDynamic
                       : sourceOffset + base->offset;
  return std::pair{llvm::to_vector<6>(base->strides), offset};
}

FailureOr<TileAccess> mlir::layout::traceAccess(OpBuilder &rewriter,
                                                Operation *op, Value partition,
                                                ValueRange indices, bool atomic,
                                                std::string &why) {
  Location loc = op->getLoc();
  FailureOr<TracedView> traced = traceTileView(op, partition, why);
  if (failed(traced))
    return failure();
  Value source = traced->source;
  auto sourceType = cast<MemRefType>(source.getType());
  if (atomic && !hasIntegerMemorySpace(source)) {
    why = "memory space of an atomic access";
    return failure();
  }
  const std::optional<Descriptor> &desc = traced->descriptor;
  const std::optional<StridedBase> &base = traced->base;
  int64_t srcOffset = traced->sourceOffset;

  TileAccess access;
  access.type = cast<PartitionViewType>(partition.getType());
  ArithAlgebra arith(rewriter, loc);
  for (auto [i, t] : llvm::zip_equal(indices, access.type.getTile()))
    access.origin.push_back(formulas::tileOrigin(arith, Value(i), t));

  if (!desc) {
    access.strided = source;
    for (auto [k, e] : llvm::enumerate(access.type.getShape()))
      access.extents.push_back(
          ShapedType::isDynamic(e)
              ? memref::DimOp::create(rewriter, loc, source, k).getResult()
              : indexConstant(rewriter, loc, e));
    return access;
  }

  for (int64_t e : desc->getLengths())
    access.extents.push_back(indexConstant(rewriter, loc, e));
  if (base) {
    // A strided descriptor over a contiguous buffer: the buffer seen with
    // the descriptor's strides.
    std::optional<int64_t> staticOffset;
    OpFoldResult offset;
    if (!ShapedType::isDynamic(srcOffset)) {
      staticOffset = srcOffset + base->offset;
      offset = rewriter.getIndexAttr(*staticOffset);
    } else {
      auto meta =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, source);
      offset = arith::AddIOp::create(rewriter, loc, meta.getOffset(),
                                     indexConstant(rewriter, loc, base->offset))
                   .getResult();
    }
    SmallVector<OpFoldResult> sizes, strides;
    for (auto [l, s] : llvm::zip_equal(base->lengths, base->strides)) {
      sizes.push_back(rewriter.getIndexAttr(l));
      strides.push_back(rewriter.getIndexAttr(s));
    }
    access.strided = memref::ReinterpretCastOp::create(
        rewriter, loc,
        stridedType(sourceType, base->lengths, base->strides, staticOffset),
        source, offset, sizes, strides);
    return access;
  }
  access.buffer = source;
  access.desc = traced->desc;
  for (const Stage &stage : desc->getStages())
    for (const StageEntry &e : stage)
      access.descCanBeInvalid |= e.transform.canBeInvalid();
  return access;
}

Value mlir::layout::paddingValue(OpBuilder &b, Location loc, Type type,
                                 std::optional<Padding> kind) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v = APFloat::getZero(sem);
    switch (kind.value_or(Padding::Zero)) {
    case Padding::Zero:
      break;
    case Padding::NegZero:
      v = APFloat::getZero(sem, /*Negative=*/true);
      break;
    case Padding::NaN:
      v = APFloat::getQNaN(sem);
      break;
    case Padding::PosInf:
      v = APFloat::getInf(sem);
      break;
    case Padding::NegInf:
      v = APFloat::getInf(sem, /*Negative=*/true);
      break;
    }
    return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
  }
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
}

ElementRef mlir::layout::elementRef(OpBuilder &b, Location loc,
                                    const TileAccess &access,
                                    ValueRange coord) {
  if (access.strided)
    return {access.strided, SmallVector<Value>(coord)};
  Value off = OffsetOp::create(b, loc, access.desc, coord);
  return {access.buffer, {off}};
}

Value mlir::layout::elementInside(OpBuilder &b, Location loc,
                                  const TileAccess &access, ValueRange coord) {
  Value inside;
  for (auto [c, e] : llvm::zip_equal(coord, access.extents)) {
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, e);
    inside =
        inside ? arith::AndIOp::create(b, loc, inside, in).getResult() : in;
  }
  if (access.desc && access.descCanBeInvalid)
    inside = arith::AndIOp::create(b, loc, inside,
                                   ValidOp::create(b, loc, access.desc, coord));
  return inside;
}

SmallVector<Value> mlir::layout::tileElementCoord(OpBuilder &b, Location loc,
                                                  const TileAccess &access,
                                                  ValueRange inTile) {
  ArithAlgebra arith(b, loc);
  SmallVector<Value> coord;
  for (auto [o, j] : llvm::zip_equal(access.origin, inTile))
    coord.push_back(formulas::tileElement(arith, o, Value(j)));
  return coord;
}

Value mlir::layout::loadElement(OpBuilder &b, Location loc,
                                const TileAccess &access, ValueRange coord,
                                bool masked, Value padding,
                                ElementReader read) {
  auto readOne = [&](OpBuilder &rb, Location rl) -> Value {
    ElementRef ref = elementRef(rb, rl, access, coord);
    if (read)
      return read(rb, rl, ref);
    return memref::LoadOp::create(rb, rl, ref.memref, ref.indices);
  };
  if (!masked)
    return readOne(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, elementInside(b, loc, access, coord),
      [&](OpBuilder &tb, Location tl) {
        scf::YieldOp::create(tb, tl, readOne(tb, tl));
      },
      [&](OpBuilder &eb, Location el) {
        scf::YieldOp::create(eb, el, padding);
      });
  return ifOp.getResult(0);
}

void mlir::layout::storeElement(OpBuilder &b, Location loc,
                                const TileAccess &access, ValueRange coord,
                                bool masked, ElementWriter write) {
  auto writeOne = [&](OpBuilder &wb, Location wl) {
    write(wb, wl, elementRef(wb, wl, access, coord));
  };
  if (!masked)
    return writeOne(b, loc);
  scf::IfOp::create(b, loc, elementInside(b, loc, access, coord),
                    [&](OpBuilder &tb, Location tl) {
                      writeOne(tb, tl);
                      scf::YieldOp::create(tb, tl);
                    });
}

void mlir::layout::storeElement(OpBuilder &b, Location loc,
                                const TileAccess &access, ValueRange coord,
                                bool masked, Value value) {
  storeElement(b, loc, access, coord, masked,
               [&](OpBuilder &wb, Location wl, const ElementRef &ref) {
                 memref::StoreOp::create(wb, wl, value, ref.memref,
                                         ref.indices);
               });
}
