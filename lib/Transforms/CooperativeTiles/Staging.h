//===- Staging.h - Staging buffers of cooperative tiles ---------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The staging room of the cooperative tile distribution: every workgroup
// buffer a tile goes through, for the stores (Distribute.cpp and its
// windows, StoreWindows.h), the reductions (Reduction.h) and the
// contractions (ContractionPipeline.h) alike. Here live the buffers' shape
// (packed, padded rows, pipeline stages, halo rows), their allocation and
// alignment, how the threads deal a tile into a buffer (phase 1: the
// staging mapping, stageLeaf), and the reads and writes of a staged block:
// the vectors of the store's phase 2, the register loads, writes and
// asynchronous copies of the contractions' K pipeline.
//
// Staging depends on the tile expressions (a staged Leaf) and the global
// accesses, never on the rooms that use it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STAGING_H
#define LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STAGING_H

#include "GlobalAccess.h"
#include "TileExpression.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {
namespace tiles {

/// How the threads deal a staged leaf's tile for phase 1: the mapping, the
/// vector width and the iterations per thread. A transposing staging (the
/// buffer's fastest dimension `across` is not the global rows' one) gives
/// each thread `depth` rows of `width`-element vectors per block, which it
/// transposes in registers into `width` vectors of `depth` elements along
/// the buffer's rows (CK's thread-wise transfer with different source and
/// destination vector dimensions): whole-vector writes instead of one per
/// element.
struct StagingMapping {
  Mapping mapping;
  int64_t width;
  int64_t iterations;
  int64_t depth = 1;
  int64_t across = -1;

  /// The global vectors one thread loads per tile.
  int64_t vectors() const { return iterations * depth; }
};

/// The phase-1 mapping of `leaf` for `threads` threads (a diagnostic when
/// the block does not divide the tile; with `uneven`, the last iteration
/// may be partial instead: StagingMapping::mapping.active). With `transpose`, a
/// leaf whose buffer's fastest dimension (`leaf.bufDims.back()`) is not its
/// global contiguous one is dealt in blocks `depth` deep along the buffer's
/// fastest dimension (up to 16-byte writes), numbered along it first.
FailureOr<StagingMapping> stagingMapping(const Leaf &leaf, int64_t threads,
                                         bool transpose = false,
                                         bool uneven = false);

/// The most alignment an LDS vector access claims: 16 bytes, the widest
/// single LDS instruction (wider register blocks are split).
constexpr int64_t kMaxWorkgroupAccessAlignment = 16;

/// Adds a workgroup attribution of `shape` x `elementType` to `func`,
/// aligned to kWorkgroupBufferAlignment (llvm.align), and returns it.
Value addAlignedWorkgroupBuffer(gpu::GPUFuncOp func, ArrayRef<int64_t> shape,
                                Type elementType, Location loc);

/// The alignment a `bytes`-byte vector access to a workgroup buffer at a
/// multiple of its size may claim: the largest power of two dividing it,
/// at most kMaxWorkgroupAccessAlignment.
llvm::MaybeAlign workgroupAccessAlignment(int64_t bytes);

/// A workgroup buffer over the leaf's tile (dimensions `leaf.bufDims`), or
/// `stages` such tiles, and the packed descriptor that indexes it, created
/// at `b`. With `padRows`, a buffer of two or more dimensions has its rows
/// padded by the bank model's paddedRowLength (a layout.naive descriptor).
/// With `storage` (a workgroup buffer of bytes), the buffer is a
/// memref.view of it.
void allocateStagingBuffer(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b,
                           int64_t stages = 1, bool padRows = false,
                           Value storage = Value());

/// The elements of the buffer allocateStagingBuffer allocates for `leaf`.
int64_t stagingBufferElements(const Leaf &leaf, int64_t stages, bool padRows);

/// The bytes that a staged leaf's buffer and the padded buffer of its
/// second version (`window`, StoreWindows.h) share.
int64_t versionedStagingBytes(const Leaf &leaf, const Leaf &window);

/// Writes one thread's block `v` (`width` elements along the load's
/// contiguous dimension from tile coordinate `origin`) to the leaf's buffer.
void writeStagedBlock(OpBuilder &b, Location loc, const Leaf &leaf,
                      ArrayRef<Value> origin, Value v, int64_t width,
                      Value stage = Value());

/// The second version of a staged leaf's phase 1, for a store whose rows
/// are aligned only at run time (StoreWindows.h): where the store's
/// `storeWidth`-vectors along `storeContiguous` of `storeMemref` are not
/// aligned, the tile goes element by element into `windowLeaf`'s buffer.
struct StagingVersion {
  Value storeMemref;
  int64_t storeContiguous = 0;
  int64_t storeWidth = 1;
  /// A copy of the leaf that receives the second buffer (null: no second
  /// version).
  Leaf *windowLeaf = nullptr;
};

/// Phase 1 of a staged leaf, at its load: a workgroup buffer over the
/// load's tile (unit dimensions dropped; `leaf.bufDims`), written with
/// coalesced vectors (element by element, consecutive lanes on consecutive
/// elements, where the load's rows are unaligned at run time), and the
/// packed descriptor that indexes it (`leaf.desc`). In a loop, a barrier
/// first (every thread has read the previous tile). With a second
/// `version`, both buffers and a run-time choice between them.
LogicalResult stageLeaf(gpu::GPUFuncOp func, Leaf &leaf,
                        ArrayRef<int64_t> block,
                        const StagingVersion &version = {});

/// A `width`-vector of a staged leaf's buffer at store coordinate
/// `storeCoord`, along the buffer's rows (phase 2 of a store).
Value readStagedVector(OpBuilder &b, Location loc, const Leaf &leaf,
                       ArrayRef<Value> storeCoord, int64_t width);

/// The global access of `leaf`'s tile at tile `indices` with `width`
/// vectors, traced at `b` (a diagnostic at the load when it cannot be).
FailureOr<GlobalAccess> tileAccess(OpBuilder &b, const Leaf &leaf,
                                   ArrayRef<Value> indices, int64_t width);

/// One thread's blocks of `leaf`'s tile at tile `indices`, loaded into
/// registers at `b` (whole-tile test once, then unguarded or guarded
/// vectors, as phase 1 of the other tile programs).
FailureOr<SmallVector<Value>> loadStagedTile(OpBuilder &b, Location loc,
                                             const Leaf &leaf,
                                             ArrayRef<Value> indices,
                                             const StagingMapping &staging,
                                             Value tid, int64_t threads);

/// Writes one thread's blocks `values` of `leaf`'s tile to its buffer (in
/// pipeline stage `stage` of a buffer of several).
void storeStagedTile(OpBuilder &b, Location loc, const Leaf &leaf,
                     const StagingMapping &staging, Value tid, int64_t threads,
                     ValueRange values, Value stage);

/// Whether `leaf`'s tile can be copied asynchronously: straight into its
/// buffer (the global rows run along the buffer's) as `access`'s vectors
/// (GlobalAccess::copiesAsync).
bool copiesAsync(const Leaf &leaf, const GlobalAccess &access);

/// Why a tile that copiesAsync refuses is not copied asynchronously (the
/// predicate of a sentence whose subject names the tile).
inline constexpr llvm::StringLiteral kNotCopiedAsync =
    " is not copied as 4-, 8- or 16-byte vectors straight into its buffer "
    "(its rows run across the buffer's, or its view does not allow such "
    "vectors)";

/// Starts the asynchronous copies of one thread's blocks of `leaf`'s tile
/// at tile `indices` into pipeline stage `stage` of its buffer (whole-tile
/// test once, then unguarded or zero-filling copies).
LogicalResult copyStagedTileAsync(OpBuilder &b, Location loc, const Leaf &leaf,
                                  ArrayRef<Value> indices,
                                  const StagingMapping &staging, Value tid,
                                  int64_t threads, Value stage);

} // namespace tiles
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_COOPERATIVETILES_STAGING_H
