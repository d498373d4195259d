//===- FragmentStores.cpp - Fragment programs: the stores after the loop --===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The stores of a fragment program's results after its loop
// (FragmentProgram.h): a Matrix tile by the lanes that hold its elements, as
// each lane's pairs of consecutive columns where FragmentProgram::pairStores
// says so (the GEMM epilogue's Pairs path: storeRuns, one test that the whole
// tile is inside), else element by element; a row vector by the first lane of
// each row.
//
//===----------------------------------------------------------------------===//

#include "ContractionFragments.h"
#include "FragmentEmitter.h"

#include "layout/Dialect/Layout/Utils/TileAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

namespace mlir {
namespace layout {
namespace tiles {

LogicalResult FragmentEmitter::storePairs(OpBuilder &b, StoreOp store,
                                          const LaneValue &v) {
  std::string why;
  GlobalSide side = GlobalSide::of(store);
  FailureOr<GlobalAccess> pairs = succeeded(side.analyze(p.alignBytes, why))
                                      ? GlobalAccess::create(b, side, 2, why)
                                      : FailureOr<GlobalAccess>(failure());
  if (failed(pairs))
    return store.emitOpError() << "cannot be distributed: " << why;
  int64_t count = inst.cElementsPerLane;
  int64_t perRow =
      p.tilesOf(cast<VectorType>(store.getValue().getType()).getDimSize(1))
          .second;
  SmallVector<EvaluatedFragment> fragments;
  for (auto [t, fragment] : llvm::enumerate(v.parts)) {
    EvaluatedFragment &f = fragments.emplace_back();
    SmallVector<Value> elements;
    for (int64_t e = 0; e < count; ++e) {
      auto [row, col] = coordOf(b, t, e, perRow);
      f.at.push_back({row, col});
      elements.push_back(elementAt(b, fragment, e));
    }
    f.value = vector::FromElementsOp::create(
        b, loc, VectorType::get({count}, elements.front().getType()), elements);
  }
  storeRuns(b, loc, *pairs, 2, fragments);
  return success();
}

LogicalResult FragmentEmitter::emitStore(OpBuilder &b, StoreOp store) {
  const LaneValue &v = values.lookup(store.getValue());
  if (v.kind == FragmentKind::Matrix && p.pairStores.contains(store))
    return storePairs(b, store, v);
  std::string why;
  FailureOr<TileAccess> access =
      traceAccess(b, store, store.getPartition(), store.getIndices(),
                  /*atomic=*/false, why);
  if (failed(access))
    return store.emitOpError() << "cannot be distributed: " << why;
  int64_t rank = access->type.getRank();
  auto put = [&](OpBuilder &sb, Value row, Value col, Value x) {
    SmallVector<Value> at{row};
    if (rank == 2)
      at.push_back(col);
    storeElement(sb, loc, *access, tileElementCoord(sb, loc, *access, at),
                 store.getMasked(), x);
  };
  int64_t count = inst.cElementsPerLane;
  if (v.kind == FragmentKind::Matrix) {
    int64_t perRow =
        p.tilesOf(cast<VectorType>(store.getValue().getType()).getDimSize(1))
            .second;
    for (auto [t, fragment] : llvm::enumerate(v.parts))
      for (int64_t e = 0; e < count; ++e) {
        auto [row, col] = coordOf(b, t, e, perRow);
        put(b, row, col, elementAt(b, fragment, e));
      }
    return success();
  }
  // A row vector: the lanes that share a row hold it alike; the first of
  // them (no mask bit set) writes it.
  int64_t bits = 0;
  for (int64_t mask : p.rows.masks)
    bits |= mask;
  Value mine = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, cx().lane, indexConstant(b, loc, bits)),
      indexConstant(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, mine, /*withElse=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  Value zero = indexConstant(tb, loc, 0);
  int64_t perRow = p.tilesOf(p.transposed ? inst.m : inst.n).second;
  for (auto [g, group] : llvm::enumerate(p.rows.groups)) {
    FragmentRegister first = group.front();
    Value row = coordOf(tb, first.tile, first.element, perRow).first;
    put(tb, row, zero, vector::ExtractOp::create(tb, loc, v.parts.front(), g));
  }
  return success();
}

} // namespace tiles
} // namespace layout
} // namespace mlir
