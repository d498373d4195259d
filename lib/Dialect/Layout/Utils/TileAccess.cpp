//===- TileAccess.cpp - Where the elements of a partition tile live -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/TileAccess.h"
#include "layout/Dialect/Layout/IR/Divisibility.h"
#include "layout/Dialect/Layout/Utils/IndexAlgebras.h"
#include "layout/Evaluator/DescriptorFormulas.h"
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

/// Parameters as index values (IndexAlgebra.h's Param): constants, or the
/// traced descriptor's run-time operands; operations on two constants fold.
struct RunTimeParams {
  using Value = mlir::Value;
  using Param = mlir::Value;
  OpBuilder &b;
  Location loc;
  ArrayRef<Value> runTime;
  Value param(int64_t raw) {
    return isDynamic(raw) ? runTime[slotOf(raw)] : indexConstant(b, loc, raw);
  }
  template <typename Op>
  Value fold(Value x, Value y, int64_t (*f)(int64_t, int64_t)) {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy)
      return indexConstant(b, loc, f(*cx, *cy));
    return Op::create(b, loc, x, y);
  }
  Value paramMul(Value x, Value y) {
    return fold<arith::MulIOp>(x, y, wrappingMul);
  }
  Value paramAdd(Value x, Value y) {
    return fold<arith::AddIOp>(x, y, wrappingAdd);
  }
  Value paramSub(Value x, Value y) {
    return fold<arith::SubIOp>(x, y, wrappingSub);
  }
  Value valueOf(Value p) { return p; }
};

/// A base length, stride or offset: an attribute, or a run-time operand.
OpFoldResult foldResult(OpBuilder &b, int64_t raw, ArrayRef<Value> runTime) {
  if (isDynamic(raw))
    return runTime[slotOf(raw)];
  return b.getIndexAttr(raw);
}

/// ShapedType::kDynamic for a run-time value.
int64_t staticOrDynamic(int64_t raw) {
  return isDynamic(raw) ? ShapedType::kDynamic : raw;
}

} // namespace

SmallVector<Value> mlir::layout::viewExtents(OpBuilder &b, Location loc,
                                             const TracedView &traced) {
  SmallVector<Value> extents;
  if (!traced.descriptor) {
    for (auto [k, e] :
         llvm::enumerate(cast<MemRefType>(traced.source.getType()).getShape()))
      extents.push_back(
          ShapedType::isDynamic(e)
              ? memref::DimOp::create(b, loc, traced.source, k).getResult()
              : indexConstant(b, loc, e));
    return extents;
  }
  RunTimeParams params{b, loc, traced.runTime};
  for (Value e : formulas::topLengths(*traced.descriptor, params))
    extents.push_back(e);
  return extents;
}

int64_t mlir::layout::knownSlotMultiple(const TracedView &traced,
                                        int64_t slot) {
  return knownMultiple(traced.runTime[slot]);
}

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
  llvm::Expected<Descriptor> d = traceDescriptor(t.desc, &t.runTime);
  if (!d)
    return fail(d.takeError());
  t.descriptor = std::move(*d);
  // A base with run-time strides or lengths is injective by the caller's
  // promise, as a memref with run-time strides is; the stages are checked.
  bool promisedBase = anyDynamic(t.descriptor->getBaseLengths()) ||
                      anyDynamic(t.descriptor->getBaseStrides());
  if (isa<StoreOp>(op))
    if (llvm::Error e = promisedBase ? t.descriptor->checkStagesInvertible()
                                     : t.descriptor->checkInvertible())
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
  // A strided base: its strides are the descriptor's own, except for a
  // packed base with run-time lengths (the suffix products, left to the
  // descriptor's formulas).
  if (t.contiguousSource && !t.descriptor->hasRunTimeRowMajorBase())
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
  int64_t offset =
      ShapedType::isDynamic(sourceOffset) || isDynamic(base->offset)
          ? ShapedType::kDynamic
          : sourceOffset + base->offset;
  return std::pair{llvm::map_to_vector<6>(base->strides, staticOrDynamic),
                   offset};
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

  access.extents = viewExtents(rewriter, loc, *traced);
  if (!desc) {
    access.strided = source;
    return access;
  }

  ArrayRef<Value> runTime = traced->runTime;
  if (base) {
    // A strided descriptor over a contiguous buffer: the buffer seen with
    // the descriptor's strides (run-time ones its operands).
    std::optional<int64_t> staticOffset;
    OpFoldResult offset;
    if (!ShapedType::isDynamic(srcOffset) && !isDynamic(base->offset)) {
      staticOffset = srcOffset + base->offset;
      offset = rewriter.getIndexAttr(*staticOffset);
    } else {
      Value from =
          ShapedType::isDynamic(srcOffset)
              ? memref::ExtractStridedMetadataOp::create(rewriter, loc, source)
                    .getOffset()
              : indexConstant(rewriter, loc, srcOffset);
      Value add = isDynamic(base->offset)
                      ? runTime[slotOf(base->offset)]
                      : indexConstant(rewriter, loc, base->offset);
      offset = arith::AddIOp::create(rewriter, loc, from, add).getResult();
    }
    SmallVector<OpFoldResult> sizes, strides;
    for (auto [l, s] : llvm::zip_equal(base->lengths, base->strides)) {
      sizes.push_back(foldResult(rewriter, l, runTime));
      strides.push_back(foldResult(rewriter, s, runTime));
    }
    access.strided = memref::ReinterpretCastOp::create(
        rewriter, loc,
        stridedType(
            sourceType, llvm::map_to_vector(base->lengths, staticOrDynamic),
            llvm::map_to_vector(base->strides, staticOrDynamic), staticOffset),
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
