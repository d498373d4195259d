//===- MatrixLayouts.cpp - Register layouts of the table ------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The operand register layouts of the matrix instructions (MatrixLayouts.h).
// Each operand layout is a descriptor over the row-major operand tile, built
// in two stages on top of `layout.packed [rows, cols]`:
//
//   split:  (row, col)  -> digits   (unmerge the row and column into the
//                                    lane and element digits they are made of)
//   gather: digits      -> (lane, element)   (merge the digits back)
//
// so that offset(lane, element) = row * cols + col. A lane bit that does not
// change the element (gfx11 WMMA A and B) is a `replicate` digit.
//
// Sources (docs/matrix-instructions.md has the formulas, how each was
// checked, and pictures):
//   [CALC] AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_
//          calculator), `matrix_calculator.py -a cdna2|cdna3|rdna3 -i <inst>
//          --matrix-layout`: AMD's tool for these instructions' register
//          layouts. It has no CDNA4 (gfx950) target.
//   [IREE] iree-org/iree, IREEGPUAttrs.cpp, getSingleSubgroupLayout (an
//          independent encoding of the AMD layouts, gfx950 included).
//   [GCN]  carlushuang/gcnasm matrix_core_gfx950/matrix_core.cc (loads and
//          stores of the gfx950 double-K instructions).
//   [PTX]  PTX ISA, section 9.7.14.5.8 "Matrix Fragments for mma.m16n8k16
//          with floating point type" (9.7.13.x in older versions); the
//          formulas were checked on an H100 (sm_90).
//   [WGMMA] PTX ISA, section 9.7.15.5.1.1 "Register Fragments", "Matrix D":
//          the accumulator fragments of wgmma .m64nNk16 with f32 D.
//   [PTX-FP8] PTX ISA, section 9.7.14.5.10 "Matrix Fragments for
//          mma.m16n8k32" (9.7.15.5.10 in PTX 9.x), the .e4m3 / .e5m2 rows
//          (the .s8 / .u8 formulas); "mma with .e4m3 and .e5m2 requires
//          sm_89 or higher". CuTe's SM89_16x8x32_F32E4M3E4M3F32_TN traits
//          (ALayout ((4,8),(4,2,2)):((64,1),(16,8,256))) say the same.
//   [WGMMA-A] PTX ISA, 9.7.15.5.1.1.1 "Matrix Fragments for
//          wgmma.mma_async.m64nNk16", "Multiplicand A in registers": four
//          .f16x2 / .bf16x2 registers a0 .. a7 (Figure "WGMMA .m64nNk16
//          register fragment layout for matrix A"): each warp of the
//          warpgroup 16 rows, laid out as mma.m16n8k16's A fragment.
//   [WGMMA-FP8] PTX ISA, 9.7.15.5.1.1.3 "Matrix Fragments for
//          wgmma.mma_async.m64nNk32": D is N/2 .f32 registers laid out as
//          for m64nNk16 (Figure "WGMMA .m64nNk32 register fragment layout
//          for accumulator matrix D"); wgmma.mma_async: "The transpose
//          operation is only supported for the wgmma.mma_async variants
//          with .f16/ .bf16 types": FP8 A and B are K-major only.
//   [BLOG] ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4
//          architecture" (rocm-blogs, matrix-cores-cdna): its FP8 types
//          table (CDNA3 uses E4M3FNUZ / E5M2FNUZ, CDNA4 the OCP E4M3FN /
//          E5M2) and the v_mfma_f32_32x32x16_fp8_fp8 example.
//   [PTX-TF32] PTX ISA, section 9.7.14.5.7 "Matrix Fragments for
//          mma.m16n8k8" (.tf32 A and B: a0 .. a3 and b0, b1, one .b32 each;
//          C/D as m16n8k16's), and section 5.2.3 "Alternate Floating-Point
//          Data Formats" (tf32: "the internal layout of tf32 format is
//          implementation defined"; cvt.rna.tf32.f32 produces it).
//   [CDNA3] AMD Instinct MI300 (CDNA3) ISA reference guide, "Dependent
//          Matrix Instructions" table (V_MFMA_F32_{32X32X4,16X16X8}_XF32:
//          "F32 data, reduced multiplication precision") and its XF32
//          subsection: the 32-bit float inputs have their mantissa rounded
//          to 10 bits before the multiplication; the A / B / C layouts follow
//          the dense-MFMA formula of [CALC] (k = kPerLane * (lane / d) + e).
//   [LDM]  PTX ISA, section 9.7.14.5.15 "Warp-level matrix load
//          instruction: ldmatrix" (9.7.13.4.15 in older versions), and
//          MLIR's mlir/lib/Dialect/NVGPU/Utils/MMAUtils.cpp,
//          getLaneIdToLdMatrixMatrixCoord; ldmatrix.x4 (A) and .x2.trans
//          (B) were checked on an H100 (/work/notes/gemm-research.md 1d).
//
//===----------------------------------------------------------------------===//

#include "MatrixLayouts.h"

#include "llvm/Support/Error.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using T = Transform;

//===----------------------------------------------------------------------===//
// The layouts
//===----------------------------------------------------------------------===//

/// The row-major `rows` x `cols` tile seen through `split` and then `gather`
/// (file comment). The stages are fixed, so failing to build is a bug here.
static Descriptor fragment(int64_t rows, int64_t cols,
                           ArrayRef<StageEntry> split,
                           ArrayRef<StageEntry> gather) {
  Descriptor d = llvm::cantFail(Descriptor::packed({rows, cols}));
  llvm::cantFail(d.addStage(split), "matrix layout: bad split stage");
  llvm::cantFail(d.addStage(gather), "matrix layout: bad gather stage");
  return d;
}

/// MFMA A and B, wave64, for a d x d output and `kPerLane` elements per lane.
///   A (d x K): i = l % d, k = kPerLane * (l / d) + e
///   B (K x d): k = kPerLane * (l / d) + e, j = l % d
/// CDNA2/CDNA3 (kPerLane 4: 32x32x8, 16x16x16): [CALC] cdna2/cdna3 "A[i][k]"
/// and "B[k][j]" tables of v_mfma_f32_32x32x8_f16 and _16x16x16_f16 (the bf16
/// ones are the same), 0 mismatches; [IREE] mfmaLhs32xK / mfmaLhs16xK.
/// CDNA4 (kPerLane 8: 32x32x16, 16x16x32): [IREE] thread {32,2} / {16,4},
/// element {1,8}; [GCN] offset_a = (lane/32*8) + (lane%32)*stride_a. Not
/// checked against the CDNA4 ISA guide.
/// FP8 (kPerLane 8: 32x32x16 and 16x16x32 fp8_fp8 / bf8_bf8; one lane's 8
/// consecutive k are one 64-bit register pair, a byte each): [CALC] cdna3
/// "A[i][k]" / "B[k][j]" tables of v_mfma_f32_32x32x16_{fp8_fp8,bf8_bf8} and
/// _16x16x32_{fp8_fp8,bf8_bf8} ("v0.[7:0] .. v1.[31:24]": A[i][8 (l / d)] ..
/// A[i][8 (l / d) + 7]), 0 mismatches; [BLOG] (the 32x32x16 fp8 example
/// loads A + 8 (l / 32) + 16 (l % 32) as 8 bytes; gfx942 and gfx950); [IREE]
/// MFMA_F32_{32x32x16,16x16x32}_F8E4M3FNUZ / _F8E4M3FN share the f16 ones'
/// layouts.
Descriptor matrix_layouts::mfmaAB(MatrixOperand operand, int64_t d,
                                  int64_t kPerLane) {
  bool isA = operand == MatrixOperand::A;
  int64_t laneGroups = 64 / d;
  int64_t kTotal = laneGroups * kPerLane;
  // Digits: x = l % d (A's row, B's column), g = l / d, e.
  StageEntry x = makeEntry(T::passThrough(d), {isA ? 0 : 1}, {0});
  StageEntry kSplit =
      makeEntry(T::unmerge({laneGroups, kPerLane}), {isA ? 1 : 0}, {1, 2});
  return fragment(isA ? d : kTotal, isA ? kTotal : d, {x, kSplit},
                  {makeEntry(T::merge({laneGroups, d}), {1, 0}, {0}),
                   makeEntry(T::passThrough(kPerLane), {2}, {1})});
}

/// MFMA C/D (d x d, f32), wave64: each lane holds groups of 4 consecutive
/// rows of column l % d.
///   32x32: i = 8 * (e / 4) + 4 * (l / 32) + e % 4, j = l % 32 (16 elements)
///   16x16: i = 4 * (l / 16) + e,                   j = l % 16 (4 elements)
/// i.e. i = 4 * (64 / d) * (e / 4) + 4 * (l / d) + e % 4.
/// [CALC] cdna3 "C or D i: (8*floor(GPR/4)%32) + 4*floor(lane/32) + GPR%4";
/// [IREE] mfmaAcc32x32 / mfmaAcc16x16, shared with the CDNA4 double-K ones;
/// [GCN] row = lane/32*4 + (i%4) + (i/4*8), col = lane%32 on gfx950.
Descriptor matrix_layouts::mfmaC(int64_t d) {
  int64_t laneGroups = 64 / d, rowGroups = d * d / 256;
  // Digits: (e / 4, l / d, e % 4, l % d).
  return fragment(
      d, d,
      {makeEntry(T::unmerge({rowGroups, laneGroups, 4}), {0}, {0, 1, 2}),
       makeEntry(T::passThrough(d), {1}, {3})},
      {makeEntry(T::merge({laneGroups, d}), {1, 3}, {0}),
       makeEntry(T::merge({rowGroups, 4}), {0, 2}, {1})});
}

/// gfx11 WMMA A and B, wave32, 16 elements per lane:
///   A (16 x 16): i = l % 16, k = e;   B (16 x 16): k = e, j = l % 16
/// and lanes l and l + 16 hold the same elements (the half-waves are
/// replicated): l / 16 is a replicate digit.
/// [CALC] rdna3 v_wmma_f32_16x16x16_f16 "A[i][k] Lane: i and i+16";
/// [IREE] WMMAR3 thread {16,1}, strides {1,0}.
Descriptor matrix_layouts::wmmaAB(MatrixOperand operand) {
  bool isA = operand == MatrixOperand::A;
  // Digits: x = l % 16 (A's row, B's column), k = e, h = l / 16.
  return fragment(16, 16,
                  {makeEntry(T::passThrough(16), {isA ? 0 : 1}, {0}),
                   makeEntry(T::passThrough(16), {isA ? 1 : 0}, {1}),
                   makeEntry(T::replicate({2}), {}, {2})},
                  {makeEntry(T::merge({2, 16}), {2, 0}, {0}),
                   makeEntry(T::passThrough(16), {1}, {1})});
}

/// gfx11 WMMA C/D (16 x 16, f32), wave32, 8 elements per lane: lanes 0-15
/// hold the even rows, lanes 16-31 the odd rows:
///   i = 2 * e + l / 16, j = l % 16
/// [CALC] rdna3 "C or D i: 2*GPR_num + floor(lane/16)".
Descriptor matrix_layouts::wmmaC() {
  // Digits: (e, l / 16, l % 16).
  return fragment(16, 16,
                  {makeEntry(T::unmerge({8, 2}), {0}, {0, 1}),
                   makeEntry(T::passThrough(16), {1}, {2})},
                  {makeEntry(T::merge({2, 16}), {1, 2}, {0}),
                   makeEntry(T::passThrough(8), {0}, {1})});
}

// mma.sync m16n8k16 with 16-bit inputs [PTX 9.7.14.5.8]: groupID g = l >> 2,
// threadID_in_group t = l % 4, so l = 4 g + t (merge<[8, 4]>). Element e of a
// fragment counts the .f16x2 / .bf16x2 halves low to high (a0 ... a7).

/// A (16 x 16): e = 4 c + 2 r + v; row = 8 r + g, col = 8 c + 2 t + v
/// ("row = groupID for a0, a1, a4, a5, groupID + 8 otherwise; col =
/// threadID_in_group * 2 + (i & 1), + 8 for i >= 4").
Descriptor matrix_layouts::mmaSyncA() {
  // Digits: (r, g, c, t, v).
  return fragment(16, 16,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({2, 4, 2}), {1}, {2, 3, 4})},
                  {makeEntry(T::merge({8, 4}), {1, 3}, {0}),
                   makeEntry(T::merge({2, 2, 2}), {2, 0, 4}, {1})});
}

/// B (K x N = 16 x 8): e = 2 r + v; k = 8 r + 2 t + v, n = g ("row =
/// threadID_in_group * 2 + (i & 1), + 8 for i >= 2; col = groupID").
Descriptor matrix_layouts::mmaSyncB() {
  // Digits: (r, t, v, g).
  return fragment(16, 8,
                  {makeEntry(T::unmerge({2, 4, 2}), {0}, {0, 1, 2}),
                   makeEntry(T::passThrough(8), {1}, {3})},
                  {makeEntry(T::merge({8, 4}), {3, 1}, {0}),
                   makeEntry(T::merge({2, 2}), {0, 2}, {1})});
}

/// C/D (16 x 8, f32): e = 2 r + v; row = 8 r + g, col = 2 t + v ("row =
/// groupID for c0, c1, groupID + 8 for c2, c3; col = threadID_in_group * 2 +
/// (i & 1)").
Descriptor matrix_layouts::mmaSyncC() {
  // Digits: (r, g, t, v).
  return fragment(16, 8,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({4, 2}), {1}, {2, 3})},
                  {makeEntry(T::merge({8, 4}), {1, 2}, {0}),
                   makeEntry(T::merge({2, 2}), {0, 3}, {1})});
}

// mma.sync m16n8k8 with .tf32 inputs [PTX-TF32]: one 32-bit element per
// register (a0 .. a3, b0, b1), g = l >> 2, t = l % 4 as above.

/// A (16 x 8): e = 2 c + r; row = 8 r + g, col = 4 c + t ("row = groupID
/// for a0 and a2, groupID + 8 for a1 and a3; col = threadID_in_group for a0
/// and a1, threadID_in_group + 4 for a2 and a3").
Descriptor matrix_layouts::mmaSyncTf32A() {
  // Digits: (r, g, c, t).
  return fragment(16, 8,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({2, 4}), {1}, {2, 3})},
                  {makeEntry(T::merge({8, 4}), {1, 3}, {0}),
                   makeEntry(T::merge({2, 2}), {2, 0}, {1})});
}

/// B (K x N = 8 x 8): e = r; k = 4 r + t, n = g ("row = threadID_in_group
/// for b0, threadID_in_group + 4 for b1; col = groupID").
Descriptor matrix_layouts::mmaSyncTf32B() {
  // Digits: (r, t, g).
  return fragment(8, 8,
                  {makeEntry(T::unmerge({2, 4}), {0}, {0, 1}),
                   makeEntry(T::passThrough(8), {1}, {2})},
                  {makeEntry(T::merge({8, 4}), {2, 1}, {0}),
                   makeEntry(T::passThrough(2), {0}, {1})});
}

// mma.sync m16n8k32 with .e4m3 / .e5m2 inputs [PTX-FP8]: four .b32
// registers of A and two of B, each holding four 8-bit elements low byte
// first (a0 .. a15, b0 .. b7); g = l >> 2, t = l % 4 as above; C/D is
// m16n8k16's (mmaSyncC).

/// A (16 x 32): e = 8 c + 4 r + v; row = 8 r + g, col = 16 c + 4 t + v
/// ("row = groupID for ai where 0 <= i < 4 || 8 <= i < 12, groupID + 8
/// otherwise; col = (threadID_in_group * 4) + (i & 0x3) for i < 8, + 16 for
/// i >= 8").
Descriptor matrix_layouts::mmaSyncFp8A() {
  // Digits: (r, g, c, t, v).
  return fragment(16, 32,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({2, 4, 4}), {1}, {2, 3, 4})},
                  {makeEntry(T::merge({8, 4}), {1, 3}, {0}),
                   makeEntry(T::merge({2, 2, 4}), {2, 0, 4}, {1})});
}

/// B (K x N = 32 x 8): e = 4 c + v; k = 16 c + 4 t + v, n = g ("row =
/// (threadID_in_group * 4) + (i & 0x3) for bi where i < 4, + 16 for i >= 4;
/// col = groupID").
Descriptor matrix_layouts::mmaSyncFp8B() {
  // Digits: (c, t, v, g).
  return fragment(32, 8,
                  {makeEntry(T::unmerge({2, 4, 4}), {0}, {0, 1, 2}),
                   makeEntry(T::passThrough(8), {1}, {3})},
                  {makeEntry(T::merge({8, 4}), {3, 1}, {0}),
                   makeEntry(T::merge({2, 4}), {0, 2}, {1})});
}

/// wgmma .m64nNk16 D (64 x N, f32) [WGMMA]: warp w = lane / 32 of the
/// warpgroup holds rows 16 w .. 16 w + 15 as mma.sync's C does its 16 rows,
/// repeated every 8 columns: with g = (lane % 32) / 4, t = lane % 4 and
/// element e = 4 c + 2 r + v, row = 16 w + 8 r + g, col = 8 c + 2 t + v
/// ("row = (warp in warpgroup) * 16 + groupID (+ 8 for d[i], i % 4 >= 2);
/// col = 8 (i / 4) + threadID_in_group * 2 + (i & 1)"). The FP8
/// .m64nNk32 forms have the same D fragments [WGMMA-FP8].
Descriptor matrix_layouts::wgmmaC(int64_t n) {
  // Digits: (w, r, g, c, t, v).
  return fragment(64, n,
                  {makeEntry(T::unmerge({4, 2, 8}), {0}, {0, 1, 2}),
                   makeEntry(T::unmerge({n / 8, 4, 2}), {1}, {3, 4, 5})},
                  {makeEntry(T::merge({4, 8, 4}), {0, 2, 4}, {0}),
                   makeEntry(T::merge({n / 8, 2, 2}), {3, 1, 5}, {1})});
}

/// wgmma .m64nNk16 A in registers (64 x 16, .f16 / .bf16) [WGMMA-A]: warp
/// w = lane / 32 holds rows 16 w .. 16 w + 15 as mma.sync m16n8k16's A does
/// its 16 rows: with g = (lane % 32) / 4, t = lane % 4 and element e = 4 c +
/// 2 r + v (a0 .. a7, the four .f16x2 registers low to high), row = 16 w +
/// 8 r + g, col = 8 c + 2 t + v. (The same map as wgmmaC(16) over a 64 x 16
/// tile, which is why an accumulator re-views as A: FragmentConversion
/// finds that from the two descriptors.)
Descriptor matrix_layouts::wgmmaRegisterA() {
  // Digits: (w, r, g, c, t, v).
  return fragment(64, 16,
                  {makeEntry(T::unmerge({4, 2, 8}), {0}, {0, 1, 2}),
                   makeEntry(T::unmerge({2, 4, 2}), {1}, {3, 4, 5})},
                  {makeEntry(T::merge({4, 8, 4}), {0, 2, 4}, {0}),
                   makeEntry(T::merge({2, 2, 2}), {3, 1, 5}, {1})});
}

// ldmatrix [LDM]: `ldmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16` reads 8x8
// matrices of 16-bit elements; "each address corresponds to the start of a
// matrix row": threads 0-7 give matrix 0's rows, 8-15 matrix 1's, 16-23
// matrix 2's, 24-31 matrix 3's (.x1 reads threads 0-7's addresses, .x2
// threads 0-15's). Without .trans, lane l receives row l / 4, elements
// 2 (l % 4) and 2 (l % 4) + 1 of matrix j in register j. Matching that with
// the fragments above (register r of A is rows 8 (r % 2).., cols 8 (r / 2)..;
// register r of B covers k = 8 r..) gives the row addresses below.

/// The row addresses of an ldmatrix load over a stored `rows` x (8 *
/// `colBlocks`) tile: lane = merge(copy, colBlock, row), each row address
/// at column 8 * colBlock. `copies` > 1 repeats the addresses of the lanes
/// the instruction reads on the lanes whose addresses it ignores (a
/// `replicate` digit). Digits: (row, colBlock, e8 = 0, copy).
static Descriptor rowAddresses(int64_t rows, int64_t colBlocks,
                               int64_t copies) {
  Stage split = {makeEntry(T::passThrough(rows), {0}, {0}),
                 makeEntry(T::unmerge({colBlocks, 8}), {1}, {1, 2})};
  Stage gather = {makeEntry(T::freeze(0), {2}, {})};
  if (copies > 1) {
    split.push_back(makeEntry(T::replicate({copies}), {}, {3}));
    gather.push_back(
        makeEntry(T::merge({copies, colBlocks, rows}), {3, 1, 0}, {0}));
  } else {
    gather.push_back(makeEntry(T::merge({colBlocks, rows}), {1, 0}, {0}));
  }
  return fragment(rows, 8 * colBlocks, split, gather);
}

/// A with .x4 from the M x K tile (16 x 16, K contiguous): lane l points at
/// row l % 16, column 8 (l / 16), so matrix j is rows 8 (j % 2).., columns
/// 8 (j / 2)..: register j = A's register j (a0 .. a7). MLIR's
/// getLaneIdToLdMatrixMatrixCoord gives the same (strided l % 16,
/// contiguous 8 (l / 16)).
LdMatrixLoad matrix_layouts::mmaSyncLdMatrixA() {
  return LdMatrixLoad{
      /*numTiles=*/4,
      /*transpose=*/false,
      /*rows=*/16,
      /*cols=*/16,
      /*storedTransposed=*/false,
      /*rowAddress=*/rowAddresses(16, 2, 1),
  };
}

/// B with .x2 from the N x K tile (8 x 16, K contiguous; B's columns as
/// rows): lane l < 16 points at n = l % 8, k = 8 (l / 8), so matrix j is
/// k = 8 j.., and lane l receives (n = l / 4, k = 8 j + 2 (l % 4) + v):
/// B's register j (b0 .. b3). .x2 ignores lanes 16-31's addresses; they get
/// lane % 16's (k = 8 ((l / 8) % 2)). MLIR's getLaneIdToLdMatrixMatrixCoord
/// for the 8 x 16 fragment gives (l % 8, 8 (l / 8)): the same on lanes 0-15,
/// past K = 16 on lanes 16-31.
LdMatrixLoad matrix_layouts::mmaSyncLdMatrixB() {
  return LdMatrixLoad{
      /*numTiles=*/2,
      /*transpose=*/false,
      /*rows=*/8,
      /*cols=*/16,
      /*storedTransposed=*/true,
      /*rowAddress=*/rowAddresses(8, 2, 2),
  };
}

/// B with .x2.trans from the K x N tile (16 x 8, N contiguous: B itself):
/// lane l < 16 points at k = l, n = 0, so matrix j is k = 8 j..; with .trans
/// lane l receives column l / 4, rows 2 (l % 4) + v of matrix j, i.e.
/// (k = 8 j + 2 (l % 4) + v, n = l / 4): B's register j (b0 .. b3). Lanes
/// 16-31 repeat lane % 16's addresses. [PTX] ldmatrix .trans ("the matrix
/// is loaded in column-major format"); checked on an H100 (notes of the
/// GEMM research: ldmatrix.x2.trans, lane address (k0 + l % 16, n0)).
LdMatrixLoad matrix_layouts::mmaSyncLdMatrixBTrans() {
  return LdMatrixLoad{
      /*numTiles=*/2,
      /*transpose=*/true,
      /*rows=*/16,
      /*cols=*/8,
      /*storedTransposed=*/false,
      /*rowAddress=*/rowAddresses(16, 1, 2),
  };
}
