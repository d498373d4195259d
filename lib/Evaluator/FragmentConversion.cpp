//===- FragmentConversion.cpp - An accumulator reused as an operand -------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/FragmentConversion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::layout;

llvm::StringRef
layout::stringifyFragmentConversionKind(FragmentConversionKind kind) {
  switch (kind) {
  case FragmentConversionKind::ReView:
    return "re-view";
  case FragmentConversionKind::Shuffles:
    return "shuffles";
  case FragmentConversionKind::WorkgroupMemory:
    return "workgroup memory";
  }
  llvm_unreachable("unknown conversion kind");
}

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

MatrixCoord layout::fragmentTileCoord(const MatrixInstruction &inst,
                                      MatrixOperand operand, int64_t cols,
                                      int64_t lane, int64_t tile,
                                      int64_t element) {
  auto [r, c] = inst.tileShape(operand);
  MatrixCoord at = operandCoord(inst, operand, lane, element);
  int64_t tileCols = cols / c;
  return {(tile / tileCols) * r + at.row, (tile % tileCols) * c + at.col};
}

llvm::Error layout::checkFragmentTiling(const MatrixInstruction &inst,
                                        MatrixOperand operand, int64_t rows,
                                        int64_t cols) {
  auto [r, c] = inst.tileShape(operand);
  if (rows < 1 || cols < 1 || rows % r || cols % c)
    return fail(llvm::Twine("the ") + llvm::Twine(rows) + "x" +
                llvm::Twine(cols) + " tile is not whole " + llvm::Twine(r) +
                "x" + llvm::Twine(c) + " tiles of " + inst.mnemonic + "'s " +
                stringifyMatrixOperand(operand));
  return llvm::Error::success();
}

llvm::Expected<FragmentConversion> layout::planFragmentConversion(
    const MatrixInstruction &producer, const MatrixInstruction &consumer,
    MatrixOperand operand, int64_t rows, int64_t cols) {
  if (operand == MatrixOperand::C)
    return fail("the consumer's operand is A or B, not C");
  if (producer.waveSize != consumer.waveSize)
    return fail(llvm::Twine(producer.mnemonic) + " runs on " +
                llvm::Twine(producer.waveSize) + " lanes, " +
                consumer.mnemonic + " on " + llvm::Twine(consumer.waveSize));
  if (llvm::Error e =
          checkFragmentTiling(producer, MatrixOperand::C, rows, cols))
    return std::move(e);
  if (llvm::Error e = checkFragmentTiling(consumer, operand, rows, cols))
    return std::move(e);
  FragmentConversion r;
  if (!consumer.lanesHold(operand)) {
    r.reason = (consumer.mnemonic + " reads its " +
                stringifyMatrixOperand(operand) + " from workgroup memory")
                   .str();
    return r;
  }
  // Who holds each element of the tile in the producer's C fragments (C is
  // never replicated: one slot per element).
  auto [m, n] = producer.tileShape(MatrixOperand::C);
  int64_t producerCols = cols / n, cElements = producer.cElementsPerLane;
  llvm::DenseMap<int64_t, FragmentSlot> holder;
  for (int64_t t = 0, e = (rows / m) * producerCols; t < e; ++t)
    for (int64_t lane = 0; lane < producer.waveSize; ++lane)
      for (int64_t i = 0; i < cElements; ++i) {
        MatrixCoord at =
            fragmentTileCoord(producer, MatrixOperand::C, cols, lane, t, i);
        holder[at.row * cols + at.col] = {lane, t, i};
      }
  // Where each operand slot finds its value.
  auto [orows, ocols] = consumer.tileShape(operand);
  int64_t operandCols = cols / ocols;
  r.operandTiles = (rows / orows) * operandCols;
  r.operandElements = consumer.elementsPerLane(operand);
  r.sources.resize(consumer.waveSize * r.operandTiles * r.operandElements);
  bool sameLane = true;
  for (int64_t lane = 0; lane < consumer.waveSize; ++lane)
    for (int64_t t = 0; t < r.operandTiles; ++t)
      for (int64_t i = 0; i < r.operandElements; ++i) {
        MatrixCoord at = fragmentTileCoord(consumer, operand, cols, lane, t, i);
        FragmentSlot from = holder.lookup(at.row * cols + at.col);
        r.sources[(lane * r.operandTiles + t) * r.operandElements + i] = from;
        sameLane &= from.lane == lane;
      }
  if (sameLane) {
    r.kind = FragmentConversionKind::ReView;
    return r;
  }
  // One shuffle per operand (tile, element) and producer register its
  // lanes read, where some lane reads another lane.
  for (int64_t t = 0; t < r.operandTiles; ++t)
    for (int64_t i = 0; i < r.operandElements; ++i) {
      llvm::DenseSet<int64_t> registers;
      bool moves = false;
      for (int64_t lane = 0; lane < consumer.waveSize; ++lane) {
        const FragmentSlot &from = r.source(lane, t, i);
        registers.insert(from.tile * cElements + from.element);
        moves |= from.lane != lane;
      }
      if (moves)
        r.shuffles += registers.size();
    }
  int64_t perLane = r.operandTiles * r.operandElements;
  if (r.shuffles <= perLane) {
    r.kind = FragmentConversionKind::Shuffles;
    return r;
  }
  r.reason = ("shuffles would take " + llvm::Twine(r.shuffles) + " for the " +
              llvm::Twine(perLane) + " elements each lane needs")
                 .str();
  return r;
}
