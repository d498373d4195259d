//===- CooperativeTiles.h - Distribute cooperative tiles --------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The entry point of -layout-tile-shared-memory for compilers that drive it
// themselves (as NVGPU exposes optimizeSharedMemoryReadsAndWrites).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_COOPERATIVETILES_H
#define LAYOUT_TRANSFORMS_COOPERATIVETILES_H

#include "layout/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>

namespace mlir {
namespace layout {

struct CooperativeTileOptions {
  /// Alignment in bytes assumed of every global buffer's base; vectors are
  /// at most this wide.
  int64_t assumeAlignment = 16;
  /// The target, resolved once per kernel (parseChip / resolveChip): its
  /// matrix instructions tile contractions, its wave size and workgroup
  /// memory bound the copies. None: code that suits every target, and a
  /// contraction gets a diagnostic.
  std::optional<Chip> chip;
  /// Whether each global access's thread mapping and vector width are
  /// remarked as diagnostics (they go to the remark engine's category
  /// layout-tiles whenever it takes them).
  bool remarks = false;
  /// Whether a fragment program's last product is issued one iteration late
  /// where wgmma allows (FlashAttention-3's overlap; a loop's
  /// layout.product_order attribute decides for that loop). Off by
  /// default: on the H200, ptxas serializes the deferred wgmma
  /// (bench/RESULTS.md).
  bool rotateProducts = false;
  /// Whether a fragment program's loop-variant tiles are copied a whole
  /// iteration ahead into two stages where they can be (a loop's
  /// layout.copy_release attribute decides for that loop).
  bool copiesAhead = false;
};

/// Distributes the cooperative tile loads and stores of `func` (a kernel
/// with a known block size; other functions are left alone) over the
/// threads of the block, staging transposed tiles through workgroup
/// buffers. The IR needs the layout, arith, memref, scf, vector and gpu
/// dialects loaded. On failure a diagnostic names the op and the kernel
/// may be partly rewritten.
LogicalResult distributeCooperativeTiles(gpu::GPUFuncOp func,
                                         const CooperativeTileOptions &options);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_COOPERATIVETILES_H
