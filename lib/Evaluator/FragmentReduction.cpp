//===- FragmentReduction.cpp - Row statistics of fragments in registers ---===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/FragmentReduction.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

llvm::Error fail(const llvm::Twine &why) {
  return llvm::createStringError("no reduction in registers: " + why);
}

} // namespace

llvm::Expected<FragmentReduction>
layout::planFragmentReduction(const MatrixInstruction &inst,
                              MatrixOperand operand, int64_t axis, int64_t rows,
                              int64_t cols) {
  if (axis != 0 && axis != 1)
    return fail("axis " + llvm::Twine(axis) + " of a 2-D tile");
  if (llvm::Error e = checkFragmentTiling(inst, operand, rows, cols))
    return std::move(e);
  auto [r, c] = inst.tileShape(operand);
  int64_t tileCols = cols / c, tiles = (rows / r) * tileCols;
  int64_t elements = inst.elementsPerLane(operand), lanes = inst.waveSize;
  auto coordOf = [&](int64_t lane, int64_t t, int64_t i) {
    return fragmentTileCoord(inst, operand, cols, lane, t, i);
  };
  auto keptOf = [&](const MatrixCoord &at) {
    return axis == 1 ? at.row : at.col;
  };
  // Lane 0's groups, by first appearance of each kept coordinate.
  FragmentReduction red;
  llvm::SmallVector<int64_t> order;
  for (int64_t t = 0; t < tiles; ++t)
    for (int64_t i = 0; i < elements; ++i) {
      int64_t k = keptOf(coordOf(0, t, i));
      auto it = llvm::find(order, k);
      if (it == order.end()) {
        order.push_back(k);
        red.groups.emplace_back();
        it = order.end() - 1;
      }
      red.groups[it - order.begin()].push_back({t, i});
    }
  // Every lane: the same registers share a kept coordinate.
  red.kept.resize(lanes * red.groups.size());
  for (int64_t lane = 0; lane < lanes; ++lane)
    for (auto [g, group] : llvm::enumerate(red.groups)) {
      int64_t k = keptOf(coordOf(lane, group[0].tile, group[0].element));
      red.kept[lane * red.groups.size() + g] = k;
      for (const FragmentRegister &reg : group)
        if (keptOf(coordOf(lane, reg.tile, reg.element)) != k)
          return fail(llvm::Twine("lane ") + llvm::Twine(lane) +
                      "'s registers do not group as lane 0's");
    }
  // The single-bit masks that keep every group's coordinate.
  for (int64_t b = 1; b < lanes; b <<= 1) {
    bool keeps = true;
    for (int64_t lane = 0; lane < lanes && keeps; ++lane)
      for (size_t g = 0; g < red.groups.size() && keeps; ++g)
        keeps = red.keptOf(lane, g) == red.keptOf(lane ^ b, g);
    if (keeps)
      red.masks.push_back(b);
  }
  // The butterfly must visit each element of a line exactly once: the xor
  // span of the masks times a lane's group covers the line.
  int64_t span = int64_t(1) << red.masks.size();
  int64_t line = axis == 1 ? cols : rows;
  for (int64_t lane = 0; lane < lanes; ++lane)
    for (auto [g, group] : llvm::enumerate(red.groups)) {
      llvm::DenseSet<int64_t> seen;
      for (int64_t s = 0; s < span; ++s) {
        int64_t other = lane;
        for (auto [j, m] : llvm::enumerate(red.masks))
          if (s >> j & 1)
            other ^= m;
        for (const FragmentRegister &reg : group) {
          MatrixCoord at = coordOf(other, reg.tile, reg.element);
          if (!seen.insert(axis == 1 ? at.col : at.row).second)
            return fail(llvm::Twine(inst.mnemonic) + "'s " +
                        stringifyMatrixOperand(operand) +
                        " holds an element of a line twice among the lanes "
                        "that share it (a replicated operand)");
        }
      }
      if (int64_t(seen.size()) != line)
        return fail(llvm::Twine("the lanes an xor butterfly reaches hold ") +
                    llvm::Twine(seen.size()) + " of the " + llvm::Twine(line) +
                    " elements of a line");
    }
  return red;
}
