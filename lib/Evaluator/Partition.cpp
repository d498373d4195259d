//===- Partition.cpp - Partition views and their evaluator ----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Evaluator/Partition.h"
#include "layout/Evaluator/IndexAlgebra.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;

llvm::Error mlir::layout::checkPartitionTile(size_t viewRank,
                                             llvm::ArrayRef<int64_t> tile) {
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
  };
  if (tile.size() != viewRank)
    return error(llvm::formatv("tile has {0} lengths but the view has rank {1}",
                               tile.size(), viewRank));
  for (auto [i, t] : llvm::enumerate(tile))
    if (t <= 0)
      return error(
          llvm::formatv("tile length {0} must be positive, got {1}", i, t));
  int64_t elements = 1;
  for (int64_t t : tile) {
    if (t > kMaxTileElements / elements)
      return error(llvm::formatv(
          "tile [{0}] has more than {1} elements (the limit of what one "
          "thread or block holds as a vector)",
          llvm::make_range(tile.begin(), tile.end()), kMaxTileElements));
    elements *= t;
  }
  return llvm::Error::success();
}

llvm::SmallVector<int64_t>
mlir::layout::partitionIndexSpace(llvm::ArrayRef<int64_t> extents,
                                  llvm::ArrayRef<int64_t> tile) {
  Int64Algebra a;
  llvm::SmallVector<int64_t> counts;
  for (auto [e, t] : llvm::zip_equal(extents, tile))
    counts.push_back(formulas::tileCount(a, e, t));
  return counts;
}
