//===- SharedWavefronts.h - Hardware accesses of shared memory --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// How the hardware units of sm_90 touch shared memory where no thread gives
// an address: the wgmma.mma_async operand reads (from matrix descriptors)
// and the TMA box writes (cp.async.bulk.tensor). Each access is cut into
// wavefronts of 16-byte chunks, and every wavefront is counted by the bank
// model (countConflicts, BankModel.h) as one phase of 16-byte accesses:
// there is no second conflict rule here, only which chunks go together.
//
// What is documented:
// * PTX ISA 8.x, 9.7.15.5.1 "Shared Memory Matrix Layout": wgmma reads A
//   and B from shared memory as *core matrices* of 8 rows of 16 bytes
//   (8 x 8 f16), in one of the canonical layouts (K- or MN-major) and
//   swizzle modes (none / interleave, 32, 64, 128 bytes); each core
//   matrix's row is 16 contiguous bytes. 9.7.15.5.1.2: the matrix
//   descriptor that says where they are.
// * PTX ISA 9.7.9.25 "cp.async.bulk.tensor" and the CUDA C++ Programming
//   Guide, "Asynchronous Data Copies using the Tensor Memory Accelerator"
//   (its "TMA Swizzle" table): the TMA unit writes the box into shared
//   memory in the order of its dimensions (innermost fastest), and a
//   swizzle mode permutes the 16-byte chunks of each 128-byte row by the
//   row index mod 8 (the guide states the modes' purpose: avoiding shared
//   memory bank conflicts).
// * CuTe (cute/atom/mma_traits_sm90_gmma.hpp, cute/swizzle.hpp; CUTLASS's
//   "CuTe dense matrix-matrix multiply tutorial", sm90 part): the modes are
//   Swizzle<3,4,3> (128 B), <2,4,3>, <1,4,3> on byte addresses, whose xor
//   of the 16-byte chunk index (bits 4-6) with the 128-byte row index
//   (bits 7-9) makes the 8 chunks at one column of 8 consecutive rows
//   distinct mod 128 bytes: 8 x 16 bytes covering all 32 four-byte banks.
//
// What is assumed (NVIDIA does not document the shared-memory wavefronts of
// either unit; the model is stated here so that it can be checked, e.g.
// against ncu's l1tex__data_bank_*_pipe_lsu_mem_shared counters):
// * wgmma reads one core matrix (8 rows of 16 bytes, 128 bytes) per
//   wavefront, as ldmatrix reads one 8x8 matrix per phase (PTX "ldmatrix";
//   Chip::phaseRule); which core matrices go in which order does not
//   matter to the count.
// * TMA writes the box's bytes, in the order it writes them, as 16-byte
//   chunks, one wavefront per 128 consecutive bytes of that order (8
//   chunks), each chunk at the (swizzled) address its bytes go to.
//
// Under this model a wavefront of 8 chunks costs one cycle when their
// addresses are distinct mod 128 bytes, k cycles when k of them share a
// 16-byte bank group (four 4-byte banks) with distinct words.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TARGET_SHAREDWAVEFRONTS_H
#define LAYOUT_TARGET_SHAREDWAVEFRONTS_H

#include "layout/Target/BankModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace layout {

/// The bytes of one chunk: a core-matrix row of wgmma, the unit of the TMA
/// swizzle (PTX 9.7.15.5.1).
constexpr int64_t kSharedChunkBytes = 16;
/// The rows of a core matrix (PTX 9.7.15.5.1).
constexpr int64_t kCoreMatrixRows = 8;
/// The chunks of one wavefront of the model (128 bytes).
constexpr int64_t kChunksPerWavefront = 8;

/// One wavefront: the byte addresses of its 16-byte chunks (at most
/// kChunksPerWavefront).
using SharedWavefront = llvm::SmallVector<int64_t, 8>;

/// The wavefronts in which wgmma reads one operand tile, seen as `rows`
/// rows of `rowBytes` contiguous-dimension bytes (K-major: the M or N rows,
/// 16 K elements each; MN-major: the 16 K rows, M or N elements each):
/// one per core matrix, rows 8i .. 8i + 7 at chunk j, whose chunk of row r
/// is at `chunkAddress(r, j)`. Requires rows a multiple of 8 and rowBytes
/// of 16.
llvm::SmallVector<SharedWavefront> wgmmaReadWavefronts(
    int64_t rows, int64_t rowBytes,
    llvm::function_ref<int64_t(int64_t row, int64_t chunk)> chunkAddress);

/// The wavefronts in which TMA writes a box of `boxBytes` bytes (a multiple
/// of 16): chunk q (bytes 16q .. 16q + 15 in the order the unit writes
/// them) goes to `chunkAddress(q)`, chunks 8w .. 8w + 7 form wavefront w.
llvm::SmallVector<SharedWavefront>
tmaWriteWavefronts(int64_t boxBytes,
                   llvm::function_ref<int64_t(int64_t chunk)> chunkAddress);

/// The cost of `wavefronts` on `chip`: each counted by countConflicts as one
/// access of kind `kind` whose lanes are its chunks (16 bytes each), so that
/// phases sum to the wavefronts (when no chunk rule splits them) and cycles
/// to their cycles; maxWays is the worst wavefront's.
ConflictCount countWavefronts(const Chip &chip, SharedAccessKind kind,
                              llvm::ArrayRef<SharedWavefront> wavefronts);

/// The model in words, for remarks: "one wavefront per core matrix (8 rows
/// of 16 bytes)" and "one wavefront per 128 bytes of the box (8 chunks of 16
/// bytes)".
llvm::StringRef wgmmaWavefrontModel();
llvm::StringRef tmaWavefrontModel();

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TARGET_SHAREDWAVEFRONTS_H
