//===- SharedWavefronts.cpp - Hardware accesses of shared memory ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// SharedWavefronts.h's model: which 16-byte chunks go together. The
// conflicts of each wavefront are the bank model's (countConflicts).
//
//===----------------------------------------------------------------------===//

#include "layout/Target/SharedWavefronts.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

SmallVector<SharedWavefront> mlir::layout::wgmmaReadWavefronts(
    int64_t rows, int64_t rowBytes,
    llvm::function_ref<int64_t(int64_t, int64_t)> chunkAddress) {
  // One core matrix per wavefront (the model; PTX 9.7.15.5.1 defines the
  // core matrices, not the wavefronts).
  SmallVector<SharedWavefront> result;
  for (int64_t group = 0; group + kCoreMatrixRows <= rows;
       group += kCoreMatrixRows)
    for (int64_t chunk = 0; chunk < rowBytes / kSharedChunkBytes; ++chunk) {
      SharedWavefront &w = result.emplace_back();
      for (int64_t r = group; r < group + kCoreMatrixRows; ++r)
        w.push_back(chunkAddress(r, chunk));
    }
  return result;
}

SmallVector<SharedWavefront> mlir::layout::tmaWriteWavefronts(
    int64_t boxBytes, llvm::function_ref<int64_t(int64_t)> chunkAddress) {
  // 128 consecutive bytes of the unit's write order per wavefront (the
  // model).
  SmallVector<SharedWavefront> result;
  int64_t chunks = boxBytes / kSharedChunkBytes;
  for (int64_t q = 0; q < chunks; ++q) {
    if (q % kChunksPerWavefront == 0)
      result.emplace_back();
    result.back().push_back(chunkAddress(q));
  }
  return result;
}

ConflictCount
mlir::layout::countWavefronts(const Chip &chip, SharedAccessKind kind,
                              ArrayRef<SharedWavefront> wavefronts) {
  ConflictCount total;
  SmallVector<std::optional<int64_t>, 8> lanes;
  for (const SharedWavefront &w : wavefronts) {
    lanes.assign(w.begin(), w.end());
    // The bank model's rule for 16-byte accesses of 8 lanes: one phase on
    // NVIDIA (Chip::phaseRule), so the wavefront is counted as one.
    ConflictCount c = countConflicts(chip, kind, lanes, kSharedChunkBytes);
    total.phases += c.phases;
    total.cycles += c.cycles;
    total.maxWays = std::max(total.maxWays, c.maxWays);
  }
  return total;
}

llvm::StringRef mlir::layout::wgmmaWavefrontModel() {
  return "one wavefront per core matrix, 8 rows of 16 bytes";
}

llvm::StringRef mlir::layout::tmaWavefrontModel() {
  return "one wavefront per 128 bytes of the box, 8 chunks of 16 bytes";
}
