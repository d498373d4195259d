//===- MatrixInstructions.cpp - Matrix instructions and their layouts -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
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

#include "layout/Evaluator/MatrixInstructions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <vector>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::StringRef;
using T = Transform;

//===----------------------------------------------------------------------===//
// Names and chips
//===----------------------------------------------------------------------===//

StringRef mlir::layout::stringifyMatrixFamily(MatrixFamily family) {
  switch (family) {
  case MatrixFamily::MFMA:
    return "MFMA";
  case MatrixFamily::WMMA:
    return "WMMA";
  case MatrixFamily::MmaSync:
    return "MmaSync";
  case MatrixFamily::Wgmma:
    return "Wgmma";
  }
  llvm_unreachable("unknown matrix family");
}

StringRef mlir::layout::stringifyMatrixElementKind(MatrixElementKind kind) {
  switch (kind) {
  case MatrixElementKind::F16:
    return "f16";
  case MatrixElementKind::BF16:
    return "bf16";
  case MatrixElementKind::TF32:
    return "tf32";
  case MatrixElementKind::XF32:
    return "xf32";
  case MatrixElementKind::F32:
    return "f32";
  }
  llvm_unreachable("unknown matrix element kind");
}

/// tf32 [PTX-TF32]: PTX leaves what mma.sync does with the low 13 bits of a
/// .tf32 register implementation-defined and converts f32 to tf32 with
/// cvt.rna.tf32.f32 (round to nearest, ties away from zero), whose result
/// has them zero. The tile programs therefore convert every A and B value
/// with cvt.rna before the instruction (ContractionFragments.cpp), so the
/// hardware's treatment of those bits never matters; the instruction itself
/// is modeled as reading the upper 19 bits (Truncate), so that a program
/// that forgot the conversion computes a different result on the CPU.
/// xf32 [CDNA3]: the instruction rounds the f32 mantissa to 10 bits itself;
/// the guide does not name the tie rule: modeled as nearest even (the tests
/// keep away from ties).
MatrixInputPrecision mlir::layout::inputPrecision(MatrixElementKind kind) {
  using R = MatrixInputPrecision::Rounding;
  switch (kind) {
  case MatrixElementKind::F16:
    return {10, R::Exact};
  case MatrixElementKind::BF16:
    return {7, R::Exact};
  case MatrixElementKind::TF32:
    return {10, R::Truncate};
  case MatrixElementKind::XF32:
    return {10, R::NearestEven};
  case MatrixElementKind::F32:
    return {23, R::Exact};
  }
  llvm_unreachable("unknown matrix element kind");
}

StringRef mlir::layout::stringifyMatrixOperand(MatrixOperand operand) {
  switch (operand) {
  case MatrixOperand::A:
    return "A";
  case MatrixOperand::B:
    return "B";
  case MatrixOperand::C:
    return "C";
  }
  llvm_unreachable("unknown matrix operand");
}

/// The generation of `chip`, or std::nullopt for a chip parseChip does not
/// know.
static std::optional<ChipGeneration> classifyChip(StringRef chip) {
  llvm::Expected<Chip> parsed = parseChip(chip);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  return parsed->generation;
}

static unsigned bit(ChipGeneration generation) {
  return 1u << static_cast<unsigned>(generation);
}

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
static Descriptor mfmaAB(MatrixOperand operand, int64_t d, int64_t kPerLane) {
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
static Descriptor mfmaC(int64_t d) {
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
static Descriptor wmmaAB(MatrixOperand operand) {
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
static Descriptor wmmaC() {
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
static Descriptor mmaSyncA() {
  // Digits: (r, g, c, t, v).
  return fragment(16, 16,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({2, 4, 2}), {1}, {2, 3, 4})},
                  {makeEntry(T::merge({8, 4}), {1, 3}, {0}),
                   makeEntry(T::merge({2, 2, 2}), {2, 0, 4}, {1})});
}

/// B (K x N = 16 x 8): e = 2 r + v; k = 8 r + 2 t + v, n = g ("row =
/// threadID_in_group * 2 + (i & 1), + 8 for i >= 2; col = groupID").
static Descriptor mmaSyncB() {
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
static Descriptor mmaSyncC() {
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
static Descriptor mmaSyncTf32A() {
  // Digits: (r, g, c, t).
  return fragment(16, 8,
                  {makeEntry(T::unmerge({2, 8}), {0}, {0, 1}),
                   makeEntry(T::unmerge({2, 4}), {1}, {2, 3})},
                  {makeEntry(T::merge({8, 4}), {1, 3}, {0}),
                   makeEntry(T::merge({2, 2}), {2, 0}, {1})});
}

/// B (K x N = 8 x 8): e = r; k = 4 r + t, n = g ("row = threadID_in_group
/// for b0, threadID_in_group + 4 for b1; col = groupID").
static Descriptor mmaSyncTf32B() {
  // Digits: (r, t, g).
  return fragment(8, 8,
                  {makeEntry(T::unmerge({2, 4}), {0}, {0, 1}),
                   makeEntry(T::passThrough(8), {1}, {2})},
                  {makeEntry(T::merge({8, 4}), {2, 1}, {0}),
                   makeEntry(T::passThrough(2), {0}, {1})});
}

/// wgmma .m64nNk16 D (64 x N, f32) [WGMMA]: warp w = lane / 32 of the
/// warpgroup holds rows 16 w .. 16 w + 15 as mma.sync's C does its 16 rows,
/// repeated every 8 columns: with g = (lane % 32) / 4, t = lane % 4 and
/// element e = 4 c + 2 r + v, row = 16 w + 8 r + g, col = 8 c + 2 t + v
/// ("row = (warp in warpgroup) * 16 + groupID (+ 8 for d[i], i % 4 >= 2);
/// col = 8 (i / 4) + threadID_in_group * 2 + (i & 1)").
static Descriptor wgmmaC(int64_t n) {
  // Digits: (w, r, g, c, t, v).
  return fragment(64, n,
                  {makeEntry(T::unmerge({4, 2, 8}), {0}, {0, 1, 2}),
                   makeEntry(T::unmerge({n / 8, 4, 2}), {1}, {3, 4, 5})},
                  {makeEntry(T::merge({4, 8, 4}), {0, 2, 4}, {0}),
                   makeEntry(T::merge({n / 8, 2, 2}), {3, 1, 5}, {1})});
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
static LdMatrixLoad mmaSyncLdMatrixA() {
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
static LdMatrixLoad mmaSyncLdMatrixB() {
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
static LdMatrixLoad mmaSyncLdMatrixBTrans() {
  return LdMatrixLoad{
      /*numTiles=*/2,
      /*transpose=*/true,
      /*rows=*/16,
      /*cols=*/8,
      /*storedTransposed=*/false,
      /*rowAddress=*/rowAddresses(16, 1, 2),
  };
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// An MFMA with a d x d output (blocks = 1), wave64.
static MatrixInstruction mfma(StringRef mnemonic, StringRef cdna2Mnemonic,
                              int64_t d, int64_t k, MatrixElementKind kind,
                              unsigned generations) {
  int64_t kPerLane = d * k / 64, cPerLane = d * d / 64;
  // amdgpu.mfma MxNxK %a * %b + %c blgp = none : vector<kPerLane x f16|bf16>,
  // ..., vector<cPerLane x f32>; every chip here lowers both kinds. The f32
  // ones (one element per lane) take a scalar f32 (shape {}); xf32 is
  // vector<2xf32> with the reducePrecision attribute (MLIR 22's
  // AMDGPUToROCDL selects rocdl.mfma.f32.32x32x4.xf32 / 16x16x8.xf32 for
  // f32 inputs with reducePrecision on gfx942, the f32 ones without).
  MatrixOpSpelling op;
  op.opName = "amdgpu.mfma";
  if (kPerLane > 1)
    op.aShape = op.bShape = {kPerLane};
  if (kind == MatrixElementKind::XF32)
    op.precisionAttr = "reducePrecision";
  op.cShape = {cPerLane};
  op.blocks = 1;
  return MatrixInstruction{mnemonic,
                           cdna2Mnemonic,
                           MatrixFamily::MFMA,
                           d,
                           d,
                           k,
                           kind,
                           /*waveSize=*/64,
                           kPerLane,
                           kPerLane,
                           cPerLane,
                           /*abReplication=*/1,
                           generations,
                           std::move(op),
                           mfmaAB(MatrixOperand::A, d, kPerLane),
                           mfmaAB(MatrixOperand::B, d, kPerLane),
                           mfmaC(d),
                           /*ldmatrixA=*/std::nullopt,
                           /*ldmatrixB=*/std::nullopt};
}

/// gfx11 WMMA 16x16x16, wave32: amdgpu.wmma 16x16x16 : vector<16xf16|bf16>,
/// vector<16x...>, vector<8xf32>.
static MatrixInstruction wmma(StringRef mnemonic, MatrixElementKind kind) {
  MatrixOpSpelling op;
  op.opName = "amdgpu.wmma";
  op.aShape = op.bShape = {16};
  op.cShape = {8};
  return MatrixInstruction{mnemonic,
                           /*cdna2Mnemonic=*/"",
                           MatrixFamily::WMMA,
                           /*m=*/16,
                           /*n=*/16,
                           /*k=*/16,
                           kind,
                           /*waveSize=*/32,
                           /*aElementsPerLane=*/16,
                           /*bElementsPerLane=*/16,
                           /*cElementsPerLane=*/8,
                           /*abReplication=*/2,
                           bit(ChipGeneration::RDNA3),
                           std::move(op),
                           wmmaAB(MatrixOperand::A),
                           wmmaAB(MatrixOperand::B),
                           wmmaC(),
                           /*ldmatrixA=*/std::nullopt,
                           /*ldmatrixB=*/std::nullopt};
}

/// mma.sync m16n8k8 .tf32, warp 32 [PTX-TF32]: nvgpu.mma.sync (%a, %b, %c)
/// {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>,
/// vector<2x1xf32>, vector<2x2xf32>), which MLIR 22 lowers to nvvm.mma.sync
/// with tf32 operands (the f32 bits passed as .b32). ldmatrix moves 16-bit
/// elements: the fragments are read with plain workgroup loads.
static MatrixInstruction mmaSyncTf32() {
  MatrixOpSpelling op;
  op.opName = "nvgpu.mma.sync";
  op.aShape = {4, 1};
  op.bShape = {2, 1};
  op.cShape = {2, 2};
  op.precisionAttr = "tf32Enabled";
  return MatrixInstruction{"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                           /*cdna2Mnemonic=*/"",
                           MatrixFamily::MmaSync,
                           /*m=*/16,
                           /*n=*/8,
                           /*k=*/8,
                           MatrixElementKind::TF32,
                           /*waveSize=*/32,
                           /*aElementsPerLane=*/4,
                           /*bElementsPerLane=*/2,
                           /*cElementsPerLane=*/4,
                           /*abReplication=*/1,
                           bit(ChipGeneration::SM80) |
                               bit(ChipGeneration::SM90A),
                           std::move(op),
                           mmaSyncTf32A(),
                           mmaSyncTf32B(),
                           mmaSyncC(),
                           /*ldmatrixA=*/std::nullopt,
                           /*ldmatrixB=*/std::nullopt};
}

/// mma.sync m16n8k16, warp 32: nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16,
/// 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>). MLIR 22
/// cannot lower it for bf16 ("failed to deduce operand PTX types"): emit
/// nvvm.mma.sync with i32-packed operands instead. ldmatrix moves bits, so
/// both kinds load their fragments with it.
static MatrixInstruction mmaSync(StringRef mnemonic, MatrixElementKind kind) {
  MatrixOpSpelling op;
  op.opName = "nvgpu.mma.sync";
  op.aShape = {4, 2};
  op.bShape = op.cShape = {2, 2};
  op.lowersInMlir22 = kind == MatrixElementKind::F16;
  return MatrixInstruction{mnemonic,
                           /*cdna2Mnemonic=*/"",
                           MatrixFamily::MmaSync,
                           /*m=*/16,
                           /*n=*/8,
                           /*k=*/16,
                           kind,
                           /*waveSize=*/32,
                           /*aElementsPerLane=*/8,
                           /*bElementsPerLane=*/4,
                           /*cElementsPerLane=*/4,
                           /*abReplication=*/1,
                           bit(ChipGeneration::SM80) |
                               bit(ChipGeneration::SM90A),
                           std::move(op),
                           mmaSyncA(),
                           mmaSyncB(),
                           mmaSyncC(),
                           mmaSyncLdMatrixA(),
                           mmaSyncLdMatrixB(),
                           mmaSyncLdMatrixBTrans()};
}

/// wgmma.mma_async m64nNk16, a warpgroup of 128 lanes, A and B from
/// workgroup memory through matrix descriptors (WarpgroupMma.h): the
/// project's layout.warpgroup_mma, whose accumulator is vector<N/2 x f32>.
static MatrixInstruction wgmma(StringRef mnemonic, int64_t n,
                               MatrixElementKind kind) {
  MatrixOpSpelling op;
  op.opName = "layout.warpgroup_mma";
  op.cShape = {n / 2};
  return MatrixInstruction{mnemonic,
                           /*cdna2Mnemonic=*/"",
                           MatrixFamily::Wgmma,
                           /*m=*/64,
                           n,
                           /*k=*/16,
                           kind,
                           /*waveSize=*/128,
                           /*aElementsPerLane=*/0,
                           /*bElementsPerLane=*/0,
                           /*cElementsPerLane=*/n / 2,
                           /*abReplication=*/1,
                           bit(ChipGeneration::SM90A),
                           std::move(op),
                           llvm::cantFail(Descriptor::packed({64, 16})),
                           llvm::cantFail(Descriptor::packed({16, n})),
                           wgmmaC(n),
                           /*ldmatrixA=*/std::nullopt,
                           /*ldmatrixB=*/std::nullopt};
}

/// The N of the wgmma instructions in the table (PTX allows every multiple
/// of 8 up to 256; the powers of two cover the block tiles planned here).
static constexpr int64_t kWgmmaN[] = {256, 128, 64, 32, 16, 8};

static std::vector<MatrixInstruction> buildTable() {
  using K = MatrixElementKind;
  unsigned cdna = bit(ChipGeneration::CDNA2) | bit(ChipGeneration::CDNA3) |
                  bit(ChipGeneration::CDNA4);
  unsigned cdna4 = bit(ChipGeneration::CDNA4);
  std::vector<MatrixInstruction> table;
  // gfx90a spells them without the '_' before the type, and bf16 with _1k.
  table.push_back(mfma("v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8f16", 32, 8,
                       K::F16, cdna));
  table.push_back(mfma("v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x16f16", 16,
                       16, K::F16, cdna));
  table.push_back(mfma("v_mfma_f32_32x32x8_bf16", "v_mfma_f32_32x32x8bf16_1k",
                       32, 8, K::BF16, cdna));
  table.push_back(mfma("v_mfma_f32_16x16x16_bf16", "v_mfma_f32_16x16x16bf16_1k",
                       16, 16, K::BF16, cdna));
  table.push_back(mfma("v_mfma_f32_32x32x16_f16", "", 32, 16, K::F16, cdna4));
  table.push_back(mfma("v_mfma_f32_32x32x16_bf16", "", 32, 16, K::BF16, cdna4));
  table.push_back(mfma("v_mfma_f32_16x16x32_f16", "", 16, 32, K::F16, cdna4));
  table.push_back(mfma("v_mfma_f32_16x16x32_bf16", "", 16, 32, K::BF16, cdna4));
  table.push_back(wmma("v_wmma_f32_16x16x16_f16", K::F16));
  table.push_back(wmma("v_wmma_f32_16x16x16_bf16", K::BF16));
  table.push_back(
      mmaSync("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", K::F16));
  table.push_back(
      mmaSync("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", K::BF16));
  // f32 inputs: xf32 on CDNA3 only (not gfx950) [CDNA3], f32 on every CDNA
  // (blocks = 1; gfx90a: no '_' before the type) [CALC], tf32 on sm_80+.
  unsigned cdna3 = bit(ChipGeneration::CDNA3);
  table.push_back(mfma("v_mfma_f32_32x32x4_xf32", "", 32, 4, K::XF32, cdna3));
  table.push_back(mfma("v_mfma_f32_16x16x8_xf32", "", 16, 8, K::XF32, cdna3));
  table.push_back(mfma("v_mfma_f32_32x32x2_f32", "v_mfma_f32_32x32x2f32", 32, 2,
                       K::F32, cdna));
  table.push_back(mfma("v_mfma_f32_16x16x4_f32", "v_mfma_f32_16x16x4f32", 16, 4,
                       K::F32, cdna));
  table.push_back(mmaSyncTf32());
  // The mnemonic's N is the instruction's; the table keeps the strings.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> r;
    for (StringRef kind : {"f16", "bf16"})
      for (int64_t n : kWgmmaN)
        r.push_back(llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k16."
                                  "f32.{1}.{1}",
                                  n, kind)
                        .str());
    return r;
  }();
  size_t name = 0;
  for (K kind : {K::F16, K::BF16})
    for (int64_t n : kWgmmaN)
      table.push_back(wgmma(names[name++], n, kind));
  return table;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const Descriptor &MatrixInstruction::layout(MatrixOperand operand) const {
  switch (operand) {
  case MatrixOperand::A:
    return a;
  case MatrixOperand::B:
    return b;
  case MatrixOperand::C:
    return c;
  }
  llvm_unreachable("unknown matrix operand");
}

const LdMatrixLoad *MatrixInstruction::ldmatrix(MatrixOperand operand) const {
  if (operand == MatrixOperand::A && ldmatrixA)
    return &*ldmatrixA;
  if (operand == MatrixOperand::B && ldmatrixB)
    return &*ldmatrixB;
  return nullptr;
}

std::pair<int64_t, int64_t>
MatrixInstruction::tileShape(MatrixOperand operand) const {
  switch (operand) {
  case MatrixOperand::A:
    return {m, k};
  case MatrixOperand::B:
    return {k, n};
  case MatrixOperand::C:
    return {m, n};
  }
  llvm_unreachable("unknown matrix operand");
}

int64_t MatrixInstruction::elementsPerLane(MatrixOperand operand) const {
  switch (operand) {
  case MatrixOperand::A:
    return aElementsPerLane;
  case MatrixOperand::B:
    return bElementsPerLane;
  case MatrixOperand::C:
    return cElementsPerLane;
  }
  llvm_unreachable("unknown matrix operand");
}

int64_t MatrixInstruction::replication(MatrixOperand operand) const {
  return operand == MatrixOperand::C ? 1 : abReplication;
}

bool MatrixInstruction::availableOn(ChipGeneration generation) const {
  return (generations & bit(generation)) != 0;
}

bool MatrixInstruction::availableOn(StringRef chip) const {
  std::optional<ChipGeneration> generation = classifyChip(chip);
  return generation && availableOn(*generation);
}

StringRef MatrixInstruction::mnemonicOn(StringRef chip) const {
  std::optional<ChipGeneration> generation = classifyChip(chip);
  return generation ? mnemonicOn(*generation) : mnemonic;
}

StringRef MatrixInstruction::mnemonicOn(ChipGeneration generation) const {
  if (generation == ChipGeneration::CDNA2 && !cdna2Mnemonic.empty())
    return cdna2Mnemonic;
  return mnemonic;
}

std::string MatrixInstruction::shapeString() const {
  return llvm::formatv("{0}x{1}x{2}", m, n, k).str();
}

MatrixCoord mlir::layout::operandCoord(const MatrixInstruction &inst,
                                       MatrixOperand operand, int64_t lane,
                                       int64_t element) {
  assert(lane >= 0 && lane < inst.waveSize && "lane out of range");
  assert(element >= 0 && element < inst.elementsPerLane(operand) &&
         "element out of range");
  assert((operand == MatrixOperand::C || !inst.operandsInWorkgroupMemory()) &&
         "wgmma's lanes hold no A or B");
  int64_t cols = inst.tileShape(operand).second;
  int64_t offset = inst.layout(operand).offset({lane, element});
  return {offset / cols, offset % cols};
}

MatrixCoord mlir::layout::ldmatrixRowAddress(const MatrixInstruction &inst,
                                             MatrixOperand operand,
                                             int64_t lane) {
  const LdMatrixLoad *load = inst.ldmatrix(operand);
  assert(load && "the instruction has no ldmatrix load of this operand");
  assert(lane >= 0 && lane < inst.waveSize && "lane out of range");
  return load->rowAddressOf(lane);
}

/// The chips of `generation`, as knownChips spells them.
static StringRef chipsOf(ChipGeneration generation) {
  switch (generation) {
  case ChipGeneration::CDNA2:
    return "gfx90a";
  case ChipGeneration::CDNA3:
    return "gfx940, gfx941, gfx942";
  case ChipGeneration::CDNA4:
    return "gfx950";
  case ChipGeneration::RDNA3:
    return "gfx1100 ... gfx1103, gfx1150 ... gfx1153";
  case ChipGeneration::SM50:
    return "sm_50 ... sm_75";
  case ChipGeneration::SM80:
    return "sm_80 ... sm_90";
  case ChipGeneration::SM90A:
    return "sm_90a";
  }
  llvm_unreachable("unknown chip generation");
}

std::string mlir::layout::chipsWithF32Inputs() {
  std::string out;
  for (ChipGeneration g :
       {ChipGeneration::CDNA2, ChipGeneration::CDNA3, ChipGeneration::CDNA4,
        ChipGeneration::RDNA3, ChipGeneration::SM50, ChipGeneration::SM80,
        ChipGeneration::SM90A}) {
    llvm::SmallVector<StringRef> kinds;
    for (const MatrixInstruction *inst : getMatrixInstructions(g))
      if (takesF32Inputs(inst->inputKind)) {
        StringRef kind = stringifyMatrixElementKind(inst->inputKind);
        if (!llvm::is_contained(kinds, kind))
          kinds.push_back(kind);
      }
    if (kinds.empty())
      continue;
    StringRef family = g >= ChipGeneration::SM50 ? "mma.sync" : "MFMA";
    out += (out.empty() ? "" : ", ") + chipsOf(g).str() + " (" +
           llvm::join(kinds, ", ") + " " + family.str() + ")";
  }
  return out;
}

ArrayRef<MatrixInstruction> mlir::layout::getMatrixInstructions() {
  static const std::vector<MatrixInstruction> table = buildTable();
  return table;
}

llvm::SmallVector<const MatrixInstruction *>
mlir::layout::getMatrixInstructions(StringRef chip) {
  std::optional<ChipGeneration> generation = classifyChip(chip);
  if (!generation)
    return {};
  return getMatrixInstructions(*generation);
}

llvm::SmallVector<const MatrixInstruction *>
mlir::layout::getMatrixInstructions(ChipGeneration generation) {
  llvm::SmallVector<const MatrixInstruction *> result;
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (inst.availableOn(generation))
      result.push_back(&inst);
  return result;
}

const MatrixInstruction *
mlir::layout::findMatrixInstruction(StringRef chip, MatrixElementKind kind,
                                    int64_t m, int64_t n, int64_t k) {
  for (const MatrixInstruction *inst : getMatrixInstructions(chip))
    if (inst->inputKind == kind && inst->m == m && inst->n == n && inst->k == k)
      return inst;
  return nullptr;
}
