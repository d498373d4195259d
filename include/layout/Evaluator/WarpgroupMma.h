//===- WarpgroupMma.h - wgmma operands in workgroup memory -------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The one home of the facts of Hopper's warpgroup MMA operands in workgroup
// (shared) memory: the swizzle modes that wgmma's matrix descriptor and the
// TMA unit share (with their two encodings), the canonical layouts in which
// wgmma.mma_async reads A and B through a matrix descriptor, the 64-bit
// descriptor itself, and how a TMA tile copy writes a box into a buffer. The
// register layout of the accumulator is in the table of matrix instructions
// (MatrixInstructions.h, family Wgmma).
//
// Sources: PTX ISA 8.x, section 9.7.15.5.1 "Shared Memory Matrix Layout"
// (K-major and MN-major canonical layouts, "Strides", "Swizzling modes"),
// 9.7.15.5.1.2 "Matrix Descriptor Format"; CUDA Driver API
// `CUtensorMapSwizzle`; CuTe's cute/atom/mma_traits_sm90_gmma.hpp comments
// (the canonical layouts in CuTe notation, Swizzle<B, 4, 3> on byte
// addresses). No code is taken from them; the formulas are restated here,
// once.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_WARPGROUPMMA_H
#define LAYOUT_EVALUATOR_WARPGROUPMMA_H

#include "layout/Evaluator/Descriptor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// The swizzle modes of wgmma operands and TMA boxes (32, 64 and 128 bytes;
/// `None` is the interleaved layout of 8 x 16-byte core matrices).
enum class SharedSwizzle : uint8_t { None, B32, B64, B128 };

/// The facts of one swizzle mode.
struct SharedSwizzleMode {
  SharedSwizzle mode;
  /// "none", "32B", "64B", "128B".
  llvm::StringRef name;
  /// The row width the pattern swizzles, in bytes (16 for None: one core
  /// matrix row).
  int64_t rowBytes;
  /// CuTe Swizzle<B, 4, 3> on byte addresses: the 16-byte chunk index (bits
  /// 4 .. 4 + B) xor the row-of-`rowBytes` bits 7 .. 7 + B; B = 0 for None.
  int64_t xorBits;
  /// The bytes of one repetition of the pattern (8 rows): the alignment a
  /// swizzled buffer's base needs so that the pattern's phase follows its
  /// offsets (256, 512, 1024; 16 for None).
  int64_t alignment;
  /// The wgmma matrix descriptor's layout type (bits 62-63): 0 none, 1
  /// 128B, 2 64B, 3 32B (PTX 9.7.15.5.1.2).
  uint64_t wgmmaLayoutType;
  /// CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B (the other order).
  unsigned tmaSwizzle;
};

/// The facts of `mode`.
const SharedSwizzleMode &sharedSwizzleMode(SharedSwizzle mode);

/// The widest swizzled mode whose row a contiguous run of `rowBytes` bytes
/// fills: 128B when it is a multiple of 128, else 64B, else 32B (Triton's
/// rule); std::nullopt when it is not a multiple of 32.
std::optional<SharedSwizzle> widestSharedSwizzle(int64_t rowBytes);

/// The swizzle of `mode` applied to byte address `address` (an address
/// relative to a base aligned to the mode's `alignment`, below 2^30): the
/// evaluator's `#layout.swizzle<B, 4, 3>` of it (None: B = 0, the identity).
int64_t applySharedSwizzle(SharedSwizzle mode, int64_t address);

/// The K of one wgmma.mma_async for inputs of `elementBytes` bytes: 32
/// bytes of elements (m64nNk16 for f16 / bf16, m64nNk32 for the 8-bit
/// floats; PTX ISA 9.7.15.2, "Matrix shape").
constexpr int64_t wgmmaK(int64_t elementBytes) { return 32 / elementBytes; }

/// Which dimension of an operand tile is contiguous in workgroup memory: K
/// (A row-major M x K, B stored N x K) or M / N (the transposed forms,
/// wgmma's imm-trans-a / imm-trans-b, f16 and bf16 only).
enum class OperandMajor : uint8_t { K, MN };

/// The byte offset, before the swizzle, of element (mn, k) of an operand
/// tile from the descriptor's start address, for elements of `elementBytes`
/// bytes in the canonical layout of `mode` and `major` with leading- and
/// stride-dimension byte offsets `lbo` and `sbo` (PTX 9.7.15.5.1):
///   K-major, swizzled (row width W = rowBytes):
///     (mn / 8) * sbo + (mn % 8) * W + k * elementBytes   (lbo unused)
///   K-major, None: (mn / 8) * sbo + (mn % 8) * 16
///     + (k * elementBytes / 16) * lbo + (k * elementBytes) % 16
///   MN-major, swizzled: (mn * elementBytes / W) * lbo
///     + (mn * elementBytes) % W + (k / 8) * sbo + (k % 8) * W
///   MN-major, None: (mn * elementBytes / 16) * sbo + (mn * elementBytes) % 16
///     + (k / 8) * lbo + (k % 8) * 16
/// The hardware then reads the swizzled address applySharedSwizzle(mode,
/// start + offset).
int64_t wgmmaCanonicalOffset(SharedSwizzle mode, OperandMajor major,
                             int64_t lbo, int64_t sbo, int64_t elementBytes,
                             int64_t mn, int64_t k);

/// The 64-bit shared-memory matrix descriptor of wgmma.mma_async (PTX
/// 9.7.15.5.1.2): bits 0-13 start address >> 4, 16-29 leading-dimension
/// byte offset >> 4, 32-45 stride-dimension byte offset >> 4, 49-51 base
/// offset (0: every base here is aligned to its mode's pattern), 62-63 the
/// layout type.
struct WgmmaMatrixDescriptor {
  int64_t leadingByteOffset = 0;
  int64_t strideByteOffset = 0;
  SharedSwizzle swizzle = SharedSwizzle::None;

  /// The descriptor's bits other than the start address.
  uint64_t encodeWithoutStart() const;
  /// The descriptor for start address `startAddress` (a shared-window byte
  /// address, a multiple of 16 below 2^18).
  uint64_t encode(int64_t startAddress) const;
};

/// The layout of a workgroup buffer of `stages` tiles of `rows` x `cols`
/// elements of `elementBytes` bytes, columns contiguous, that wgmma reads
/// in the widest swizzle mode whose row the columns fill
/// (widestSharedSwizzle): the columns cut into atoms of one swizzle row
/// (rowBytes / elementBytes elements), stored [stage][atom][row][column in
/// atom], and the mode's xor (CuTe Swizzle<B, 4, 3> on bytes, Swizzle<B,
/// 4 - log2(elementBytes), 3> on elements) on the offset. Top coordinates
/// (stage, row, column), or (row, column) for one stage. Requires rows a
/// multiple of 8 and cols * elementBytes a multiple of 32
/// (wgmmaStagingFits).
Descriptor wgmmaStagingLayout(int64_t stages, int64_t rows, int64_t cols,
                              int64_t elementBytes);

/// Whether wgmmaStagingLayout lays out such a tile; why not otherwise.
std::optional<std::string> wgmmaStagingProblem(int64_t rows, int64_t cols,
                                               int64_t elementBytes);

/// How wgmma reads one operand: the mode, majorness and byte offsets of
/// its matrix descriptors.
struct WgmmaOperandLayout {
  SharedSwizzle swizzle = SharedSwizzle::None;
  OperandMajor major = OperandMajor::K;
  int64_t lbo = 0, sbo = 0;

  WgmmaMatrixDescriptor descriptor() const { return {lbo, sbo, swizzle}; }
};

/// The most tile origins matchWgmmaOperand, matchTmaBox and the bank
/// model's proof of the two (BankConflicts.h) enumerate (a buffer's
/// pipeline stages times its instruction tiles are far fewer).
constexpr int64_t kMaxSharedTileOrigins = 1024;

/// The origins matchWgmmaOperand proves for a descriptor of top `lengths`:
/// every multiple of `mnExtent` along `mnDim` and of `kExtent` (wgmmaK)
/// along `kDim` whose tile fits, with every coordinate along the other
/// dimensions, in order; one more than kMaxSharedTileOrigins where there
/// are more.
llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
wgmmaOperandOrigins(llvm::ArrayRef<int64_t> lengths, int64_t mnDim,
                    int64_t kDim, int64_t mnExtent, int64_t kExtent);

/// The origins matchTmaBox proves: every multiple of box[i] along
/// destDims[i] whose box fits, every coordinate along the other dimensions
/// (at most one more than kMaxSharedTileOrigins, as wgmmaOperandOrigins).
llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
tmaBoxOrigins(llvm::ArrayRef<int64_t> lengths, llvm::ArrayRef<int64_t> destDims,
              llvm::ArrayRef<int64_t> box);

/// Derives how wgmma reads an operand tile laid out by the static
/// descriptor `d`: element (mn, k) of the tile at top coordinate `origin`
/// is `d`'s element origin + mn e_mnDim + k e_kDim, for mn < `mnExtent` (64
/// for A, N for B) and k < wgmmaK(elementBytes). Tries the swizzled modes
/// from the widest, reading the byte offsets off `d`, and proves the one it
/// returns element by element: for every origin whose mnDim coordinate is a
/// multiple of mnExtent, whose kDim coordinate is a multiple of K, and any
/// other top coordinate, the hardware's address of every element
/// (applySharedSwizzle of the start, `d`'s offset at the origin in bytes,
/// plus wgmmaCanonicalOffset) is `d`'s. Requires the buffer's base aligned
/// to the mode's `alignment` (the caller's check). An error says why no
/// mode fits otherwise.
llvm::Expected<WgmmaOperandLayout>
matchWgmmaOperand(const Descriptor &d, int64_t mnDim, int64_t kDim,
                  int64_t mnExtent, int64_t elementBytes);

/// Derives the swizzle mode in which a TMA tile copy
/// (`cp.async.bulk.tensor`, PTX ISA 9.7.9.25; CUDA Driver API
/// cuTensorMapEncodeTiled) writes a box of `box` elements of
/// `elementBytes` bytes (its last dimension the contiguous one) into a
/// workgroup buffer laid out by the static descriptor `d`, box dimension i
/// running along top dimension `destDims[i]`. The unit writes the box row
/// by row (last dimension fastest) from a 128-byte-aligned start, the mode's
/// xor applied to each byte address (applySharedSwizzle); in a swizzled
/// mode the box's rows are exactly the mode's rowBytes. Tries 128B, 64B,
/// 32B, then none, and proves the one it returns element by element for
/// every origin a multiple of the box along `destDims` (any other top
/// coordinate). Requires the buffer's base aligned to the mode's
/// `alignment` (the caller's check). An error says why no mode fits.
llvm::Expected<SharedSwizzle> matchTmaBox(const Descriptor &d,
                                          llvm::ArrayRef<int64_t> destDims,
                                          llvm::ArrayRef<int64_t> box,
                                          int64_t elementBytes);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_WARPGROUPMMA_H
