//===- GlobalAccess.cpp - A thread's vectors of a cooperative tile --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "GlobalAccess.h"
#include "layout/Dialect/Layout/IR/Divisibility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

/// `all` and `c` (either may be null: true).
static void conjoin(OpBuilder &b, Location loc, Value &all, Value c) {
  if (c)
    all = all ? arith::AndIOp::create(b, loc, all, c).getResult() : c;
}

Value tiles::allOf(OpBuilder &b, Location loc, ArrayRef<Value> conds) {
  Value all;
  for (Value c : conds)
    conjoin(b, loc, all, c);
  return all;
}

FailureOr<GlobalAccess> GlobalAccess::create(OpBuilder &b,
                                             const GlobalSide &side,
                                             int64_t width, std::string &why) {
  GlobalAccess g(side, width);
  FailureOr<TileAccess> access =
      traceAccess(b, side.op, side.partition, side.indices,
                  /*atomic=*/false, why);
  if (failed(access))
    return failure();
  g.access = std::move(*access);
  if (g.vectorizes())
    g.aligned = g.alignmentTest(b);
  return g;
}

/// The dimensions other than `contiguous` whose strides are dynamic and not
/// known multiples of `width` (Divisibility.h), and whether the offset is
/// such; false when `memref` is not strided.
static bool dynamicLayout(Value memref, int64_t contiguous, int64_t width,
                          SmallVector<int64_t> &dynamic, bool &dynamicOffset) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(memref.getType())
                 .getStridesAndOffset(strides, offset)))
    return false;
  std::optional<MemRefMultiples> facts = knownMemRefMultiples(memref);
  auto known = [&](std::optional<int64_t> k) {
    return facts &&
           isKnownMultipleOf(k ? facts->strides[*k] : facts->offset, width);
  };
  for (auto [k, s] : llvm::enumerate(strides))
    if (int64_t(k) != contiguous && ShapedType::isDynamic(s) &&
        !known(int64_t(k)))
      dynamic.push_back(k);
  dynamicOffset = ShapedType::isDynamic(offset) && !known(std::nullopt);
  return true;
}

bool tiles::hasRunTimeAlignment(Value memref, int64_t contiguous,
                                int64_t width) {
  SmallVector<int64_t> dynamic;
  bool dynamicOffset = false;
  return dynamicLayout(memref, contiguous, width, dynamic, dynamicOffset) &&
         (!dynamic.empty() || dynamicOffset);
}

Value tiles::stridesMultipleOf(OpBuilder &b, Location l, Value memref,
                               int64_t contiguous, int64_t width) {
  SmallVector<int64_t> dynamic;
  bool dynamicOffset = false;
  if (!dynamicLayout(memref, contiguous, width, dynamic, dynamicOffset) ||
      (dynamic.empty() && !dynamicOffset))
    return {};
  auto meta = memref::ExtractStridedMetadataOp::create(b, l, memref);
  auto multiple = [&](Value x) -> Value {
    Value rem = arith::RemUIOp::create(b, l, x, indexConstant(b, l, width));
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, rem,
                                 indexConstant(b, l, 0));
  };
  Value test;
  if (dynamicOffset)
    conjoin(b, l, test, multiple(meta.getOffset()));
  for (int64_t k : dynamic)
    conjoin(b, l, test, multiple(meta.getStrides()[k]));
  return test;
}

Value GlobalAccess::alignmentTest(OpBuilder &b) const {
  // Through a descriptor the vectors' offsets are static multiples of the
  // width (GlobalSide::analyze) and the buffer's stride is 1: only its
  // offset may need the test.
  Value memref = access.strided ? access.strided : access.buffer;
  return stridesMultipleOf(b, loc(), memref, side.contiguous, width);
}

Value GlobalAccess::elementOffset(OpBuilder &b, ValueRange tileCoord) const {
  assert(access.strided && "element offsets of strided views only");
  Location l = loc();
  SmallVector<Value> coord = tileElementCoord(b, l, access, tileCoord);
  auto meta = memref::ExtractStridedMetadataOp::create(b, l, access.strided);
  Value offset = meta.getOffset();
  for (auto [x, stride] : llvm::zip_equal(coord, meta.getStrides()))
    offset = arith::AddIOp::create(b, l, offset,
                                   arith::MulIOp::create(b, l, x, stride));
  return offset;
}

Value GlobalAccess::vectorValid(OpBuilder &b, Location l,
                                ValueRange coord) const {
  if (!access.desc || !access.descCanBeInvalid || !side.masked)
    return {};
  return ValidOp::create(b, l, access.desc, coord);
}

Value GlobalAccess::tileInside(OpBuilder &b) const {
  // Views through descriptors moved element by element test each element
  // (its validity too).
  if (!vectorizes() && !access.strided)
    return {};
  Location l = loc();
  Value test = aligned;
  if (side.masked)
    for (auto [o, e, t] :
         llvm::zip_equal(access.origin, access.extents, side.tile)) {
      Value end = arith::AddIOp::create(b, l, o, indexConstant(b, l, t));
      conjoin(b, l, test,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, end, e));
    }
  return test;
}

Value GlobalAccess::dispatch(
    OpBuilder &b, ValueRange coord, bool inside,
    function_ref<Value(OpBuilder &, Location)> vectorPath,
    function_ref<Value(OpBuilder &, Location)> elementPath) const {
  Location l = loc();
  if (!vectorizes())
    return elementPath(b, l);
  if (inside)
    return vectorPath(b, l);
  // The vector moves whole when it is aligned and, masked, its last
  // element is inside the view.
  Value test = aligned;
  if (side.masked) {
    SmallVector<Value> last = shifted(b, l, coord, side.contiguous, width - 1);
    for (auto [x, e] : llvm::zip_equal(last, access.extents))
      conjoin(b, l, test,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, x, e));
  }
  if (!test)
    return vectorPath(b, l);
  auto yield = [](function_ref<Value(OpBuilder &, Location)> path) {
    return [path](OpBuilder &pb, Location pl) {
      if (Value v = path(pb, pl))
        scf::YieldOp::create(pb, pl, v);
      else
        scf::YieldOp::create(pb, pl);
    };
  };
  auto ifOp =
      scf::IfOp::create(b, l, test, yield(vectorPath), yield(elementPath));
  return ifOp->getNumResults() ? ifOp->getResult(0) : Value();
}

ElementRef GlobalAccess::vectorRef(OpBuilder &b, Location l,
                                   ValueRange coord) const {
  int64_t rank = coord.size();
  if (!access.strided || side.contiguous == rank - 1)
    return elementRef(b, l, access, coord);
  SmallVector<unsigned> perm;
  for (int64_t k = 0; k < rank; ++k)
    if (k != side.contiguous)
      perm.push_back(k);
  perm.push_back(side.contiguous);
  Value transposed = memref::TransposeOp::create(
      b, l, access.strided,
      AffineMapAttr::get(AffineMap::getPermutationMap(perm, b.getContext())));
  ElementRef ref{transposed, {}};
  for (unsigned k : perm)
    ref.indices.push_back(coord[k]);
  return ref;
}

Value GlobalAccess::load(OpBuilder &b, ValueRange tileCoord,
                         bool inside) const {
  Location l = loc();
  SmallVector<Value> coord = tileElementCoord(b, l, access, tileCoord);
  Value pad = paddingValue(b, l, side.elementType, side.padding);
  auto elements = [&](OpBuilder &eb, Location el) -> Value {
    SmallVector<Value> values;
    for (int64_t i = 0; i < width; ++i)
      values.push_back(loadElement(eb, el, access,
                                   shifted(eb, el, coord, side.contiguous, i),
                                   guardsElements(inside), pad));
    return vector::FromElementsOp::create(eb, el, vectorType(), values);
  };
  auto vector = [&](OpBuilder &vb, Location vl) -> Value {
    auto read = [&](OpBuilder &rb, Location rl) -> Value {
      ElementRef ref = vectorRef(rb, rl, coord);
      return vector::LoadOp::create(
          rb, rl, vectorType(), ref.memref, ref.indices,
          /*nontemporal=*/false,
          llvm::MaybeAlign(width * elementBytes(side.elementType)));
    };
    Value valid = vectorValid(vb, vl, coord);
    if (!valid)
      return read(vb, vl);
    // A vector at an invalid coordinate (a pad) is all padding.
    return scf::IfOp::create(
               vb, vl, valid,
               [&](OpBuilder &tb, Location tl) {
                 scf::YieldOp::create(tb, tl, read(tb, tl));
               },
               [&](OpBuilder &eb, Location el) {
                 scf::YieldOp::create(
                     eb, el,
                     vector::BroadcastOp::create(eb, el, vectorType(), pad)
                         .getResult());
               })
        .getResult(0);
  };
  return dispatch(b, coord, inside, vector, elements);
}

void GlobalAccess::store(OpBuilder &b, Value value, ValueRange tileCoord,
                         bool inside) const {
  Location l = loc();
  SmallVector<Value> coord = tileElementCoord(b, l, access, tileCoord);
  auto elements = [&](OpBuilder &eb, Location el) -> Value {
    for (int64_t i = 0; i < width; ++i) {
      SmallVector<Value> at = shifted(eb, el, coord, side.contiguous, i);
      storeElement(eb, el, access, at, guardsElements(inside),
                   [&](OpBuilder &sb, Location sl, const ElementRef &ref) {
                     Value x = vector::ExtractOp::create(sb, sl, value, i);
                     memref::StoreOp::create(sb, sl, x, ref.memref,
                                             ref.indices);
                   });
    }
    return Value();
  };
  auto vector = [&](OpBuilder &vb, Location vl) -> Value {
    auto write = [&](OpBuilder &wb, Location wl) {
      ElementRef ref = vectorRef(wb, wl, coord);
      vector::StoreOp::create(
          wb, wl, value, ref.memref, ref.indices, /*nontemporal=*/false,
          llvm::MaybeAlign(width * elementBytes(side.elementType)));
    };
    if (Value valid = vectorValid(vb, vl, coord))
      scf::IfOp::create(vb, vl, valid, [&](OpBuilder &tb, Location tl) {
        write(tb, tl);
        scf::YieldOp::create(tb, tl);
      });
    else
      write(vb, vl);
    return Value();
  };
  dispatch(b, coord, inside, vector, elements);
}

bool GlobalAccess::copiesAsync() const {
  int64_t bytes = width * elementBytes(side.elementType);
  return vectorizes() && (bytes == 4 || bytes == 8 || bytes == 16) &&
         (!side.padding || *side.padding == Padding::Zero);
}

void GlobalAccess::copyAsync(OpBuilder &b, ValueRange tileCoord, bool inside,
                             Value dst, ValueRange dstIndices) const {
  Location l = loc();
  SmallVector<Value> coord = tileElementCoord(b, l, access, tileCoord);
  // PTX cp.async: .cg (L2 only) takes 16-byte copies, .ca 4 and 8.
  bool bypassL1 = width * elementBytes(side.elementType) == 16;
  auto copy = [&](Value src, ValueRange from, Value count) {
    nvgpu::DeviceAsyncCopyOp::create(
        b, l, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst, dstIndices,
        src, from, b.getIndexAttr(width), count,
        bypassL1 ? b.getUnitAttr() : UnitAttr());
  };
  Value zero = indexConstant(b, l, 0);
  if (access.desc) {
    // Through a descriptor the vector is wholly inside the view or wholly
    // outside (its width divides the last dim's runs, which divide the
    // extent), and wholly valid or not: one test, and a copy of all or
    // none of it.
    ElementRef ref = elementRef(b, l, access, coord);
    // Inside the view's extents and valid (elementInside), or only valid
    // when the caller knows the tile is inside.
    Value ok = side.masked && !inside ? elementInside(b, l, access, coord)
                                      : vectorValid(b, l, coord);
    if (!ok) {
      copy(ref.memref, ref.indices, Value());
      return;
    }
    Value count =
        arith::SelectOp::create(b, l, ok, indexConstant(b, l, width), zero);
    Value from = arith::SelectOp::create(b, l, ok, ref.indices[0], zero);
    copy(ref.memref, from, count);
    return;
  }
  ElementRef ref = vectorRef(b, l, coord);
  if (inside || !side.masked) {
    copy(ref.memref, ref.indices, Value());
    return;
  }
  // The elements inside: min(extent - x, width) along the contiguous
  // dimension (0 past it), none when another coordinate is outside.
  Value count;
  Value outside;
  for (auto [k, x, e] : llvm::enumerate(coord, access.extents)) {
    if (int64_t(k) == side.contiguous) {
      Value left = arith::SubIOp::create(b, l, e, x);
      Value past = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, e, x);
      count = arith::SelectOp::create(
          b, l, past, zero,
          arith::MinUIOp::create(b, l, left, indexConstant(b, l, width)));
      continue;
    }
    Value out = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, x, e);
    outside =
        outside ? arith::OrIOp::create(b, l, outside, out).getResult() : out;
  }
  if (outside)
    count = arith::SelectOp::create(b, l, outside, zero, count);
  Value none =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, count, zero);
  SmallVector<Value> from;
  for (Value x : ref.indices)
    from.push_back(arith::SelectOp::create(b, l, none, zero, x));
  copy(ref.memref, from, count);
}

void tiles::forEachIteration(OpBuilder &b, Location loc, int64_t iterations,
                             function_ref<void(OpBuilder &, Value)> body) {
  if (iterations == 1) {
    body(b, indexConstant(b, loc, 0));
    return;
  }
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0),
                                 indexConstant(b, loc, iterations),
                                 indexConstant(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(b, loop.getInductionVar());
}

void tiles::forEachBlock(
    OpBuilder &b, Location loc, const Mapping &m, Value tid, int64_t threads,
    function_ref<void(OpBuilder &, ArrayRef<Value>)> body) {
  forEachIteration(
      b, loc, m.iterations(threads), [&](OpBuilder &lb, Value iter) {
        Value active = m.active(lb, loc, tid, iter, threads);
        if (!active) {
          body(lb, m.blockOrigin(lb, loc, tid, iter, threads));
          return;
        }
        scf::IfOp::create(lb, loc, active, [&](OpBuilder &tb, Location) {
          body(tb, m.blockOrigin(tb, loc, tid, iter, threads));
          scf::YieldOp::create(tb, loc);
        });
      });
}

void tiles::ifInside(OpBuilder &b, Location loc, Value inside,
                     function_ref<void(OpBuilder &, bool)> body) {
  if (!inside) {
    body(b, true);
    return;
  }
  scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &tb, Location) {
        body(tb, true);
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &fb, Location) {
        body(fb, false);
        scf::YieldOp::create(fb, loc);
      });
}
