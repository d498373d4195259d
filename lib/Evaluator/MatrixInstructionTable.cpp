//===- MatrixInstructionTable.cpp - The table of matrix instructions ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The entries of the one table (MatrixInstructions.h): each instruction's
// shape, element kinds, chips, MLIR op spelling and register layouts (from
// MatrixLayouts.cpp, where the sources [CALC], [CDNA3], [PTX], ... are
// listed).
//
//===----------------------------------------------------------------------===//

#include "MatrixLayouts.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>
#include <vector>

using namespace mlir::layout;
using namespace mlir::layout::matrix_layouts;
using llvm::ArrayRef;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// An MFMA with a d x d output (blocks = 1), wave64.
static MatrixInstruction mfma(StringRef mnemonic, StringRef cdna2Mnemonic,
                              int64_t d, int64_t k, MatrixElementKind kind,
                              unsigned generations) {
  int64_t kPerLane = d * k / 64, cPerLane = d * d / 64;
  // amdgpu.mfma MxNxK %a * %b + %c blgp = none : vector<kPerLane x f16|bf16>,
  // ..., vector<cPerLane x f32>; every chip here lowers both kinds, and the
  // FP8 ones as vector<8 x f8E4M3FNUZ|f8E5M2FNUZ> on gfx942,
  // vector<8 x f8E4M3FN|f8E5M2> on gfx950 (MLIR 22's AMDGPUToROCDL selects
  // rocdl.mfma.f32.32x32x16.fp8.fp8 / .bf8.bf8 and the 16x16x32 ones for
  // exactly those types on those chips, and refuses the other encoding:
  // "no intrinsic matching MFMA size on given chipset"). The f32
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
                           generationBit(ChipGeneration::RDNA3),
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
                           generationBit(ChipGeneration::SM80) |
                               generationBit(ChipGeneration::SM90A),
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
                           generationBit(ChipGeneration::SM80) |
                               generationBit(ChipGeneration::SM90A),
                           std::move(op),
                           mmaSyncA(),
                           mmaSyncB(),
                           mmaSyncC(),
                           mmaSyncLdMatrixA(),
                           mmaSyncLdMatrixB(),
                           mmaSyncLdMatrixBTrans()};
}

/// wgmma.mma_async m64nNk16 (f16, bf16) and m64nNk32 (FP8), a warpgroup of
/// 128 lanes, A and B from workgroup memory through matrix descriptors
/// (WarpgroupMma.h): the project's layout.warpgroup_mma, whose accumulator is
/// vector<N/2 x f32>. FP8 A and B must be K-major [WGMMA-FP8]; MLIR 22's
/// nvvm.wgmma.mma_async, which layout.warpgroup_mma lowers to, has e4m3 /
/// e5m2.
static MatrixInstruction wgmma(StringRef mnemonic, int64_t n, int64_t k,
                               MatrixElementKind kind) {
  MatrixOpSpelling op;
  op.opName = "layout.warpgroup_mma";
  op.cShape = {n / 2};
  MatrixInstruction inst{mnemonic,
                         /*cdna2Mnemonic=*/"",
                         MatrixFamily::Wgmma,
                         /*m=*/64,
                         n,
                         k,
                         kind,
                         /*waveSize=*/128,
                         /*aElementsPerLane=*/0,
                         /*bElementsPerLane=*/0,
                         /*cElementsPerLane=*/n / 2,
                         /*abReplication=*/1,
                         generationBit(ChipGeneration::SM90A),
                         std::move(op),
                         llvm::cantFail(Descriptor::packed({64, k})),
                         llvm::cantFail(Descriptor::packed({k, n})),
                         wgmmaC(n),
                         /*ldmatrixA=*/std::nullopt,
                         /*ldmatrixB=*/std::nullopt};
  inst.kMajorOnly = isFloat8(kind);
  return inst;
}

/// mma.sync m16n8k32 with .e4m3 / .e5m2 A and B, f32 C, warp 32
/// [PTX-FP8], on sm_89 and later. In MLIR 22 neither nvgpu.mma.sync (its
/// verifier: "expected input data type (i4,i8,f16,bf16,tf32,f64)") nor
/// nvvm.mma.sync (no 8-bit float shape but the sparse m16n8k64) takes it;
/// LLVM 22's intrinsic does, selected to this instruction on sm_89 and
/// later (llc refuses it for sm_80): llvm.call_intrinsic `intrinsic`(4 x
/// i32 A, 2 x i32 B, 4 x f32 C) -> !llvm.struct<(f32, f32, f32, f32)>. The
/// shapes count registers x bytes: A vector<4x4xf8E4M3FN>, B
/// vector<2x4xf8E4M3FN>, C vector<2x2xf32>. No ldmatrix load: LdMatrixLoad
/// counts 16-bit elements.
static MatrixInstruction mmaSyncFp8(StringRef mnemonic, StringRef intrinsic,
                                    MatrixElementKind kind) {
  MatrixOpSpelling op;
  op.opName = "llvm.call_intrinsic";
  op.llvmIntrinsic = intrinsic;
  op.aShape = {4, 4};
  op.bShape = {2, 4};
  op.cShape = {2, 2};
  MatrixInstruction inst{mnemonic,
                         /*cdna2Mnemonic=*/"",
                         MatrixFamily::MmaSync,
                         /*m=*/16,
                         /*n=*/8,
                         /*k=*/32,
                         kind,
                         /*waveSize=*/32,
                         /*aElementsPerLane=*/16,
                         /*bElementsPerLane=*/8,
                         /*cElementsPerLane=*/4,
                         /*abReplication=*/1,
                         generationBit(ChipGeneration::SM80) |
                             generationBit(ChipGeneration::SM90A),
                         std::move(op),
                         mmaSyncFp8A(),
                         mmaSyncFp8B(),
                         mmaSyncC(),
                         /*ldmatrixA=*/std::nullopt,
                         /*ldmatrixB=*/std::nullopt};
  inst.minimumSmVersion = 89;
  inst.minimumPtxVersion = 84;
  return inst;
}

/// The N of the wgmma instructions in the table (PTX allows every multiple
/// of 8 up to 256; the powers of two cover the block tiles planned here).
static constexpr int64_t kWgmmaN[] = {256, 128, 64, 32, 16, 8};

/// The FP8 instructions (issue 42), A and B of one encoding each: the mixed
/// fp8_bf8 / bf8_fp8 MFMAs and e4m3 x e5m2 mma.sync / wgmma are left out (an
/// entry has one input kind), and so are gfx950's double-K
/// v_mfma_f32_{32x32x64,16x16x128}_f8f6f4 (docs/matrix-instructions.md: its
/// sources disagree on the order of K within a lane). CDNA3 reads fp8 / bf8
/// as E4M3FNUZ / E5M2FNUZ, CDNA4 the same mnemonics as the OCP E4M3FN / E5M2
/// [BLOG]; the layouts are the 8-per-lane MFMA ones [CALC cdna3].
static void addFloat8Entries(std::vector<MatrixInstruction> &table) {
  using K = MatrixElementKind;
  struct Encodings {
    K fp8, bf8;
    unsigned generations;
  };
  for (Encodings g :
       {Encodings{K::E4M3FNUZ, K::E5M2FNUZ,
                  generationBit(ChipGeneration::CDNA3)},
        Encodings{K::E4M3FN, K::E5M2, generationBit(ChipGeneration::CDNA4)}}) {
    table.push_back(
        mfma("v_mfma_f32_32x32x16_fp8_fp8", "", 32, 16, g.fp8, g.generations));
    table.push_back(
        mfma("v_mfma_f32_32x32x16_bf8_bf8", "", 32, 16, g.bf8, g.generations));
    table.push_back(
        mfma("v_mfma_f32_16x16x32_fp8_fp8", "", 16, 32, g.fp8, g.generations));
    table.push_back(
        mfma("v_mfma_f32_16x16x32_bf8_bf8", "", 16, 32, g.bf8, g.generations));
  }
  table.push_back(mmaSyncFp8(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
      "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32", K::E4M3FN));
  table.push_back(
      mmaSyncFp8("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
                 "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e5m2.f32", K::E5M2));
  static const std::vector<std::string> names = [] {
    std::vector<std::string> r;
    for (StringRef kind : {"e4m3", "e5m2"})
      for (int64_t n : kWgmmaN)
        r.push_back(llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k32."
                                  "f32.{1}.{1}",
                                  n, kind)
                        .str());
    return r;
  }();
  size_t name = 0;
  for (K kind : {K::E4M3FN, K::E5M2})
    for (int64_t n : kWgmmaN)
      table.push_back(wgmma(names[name++], n, /*k=*/32, kind));
}

static std::vector<MatrixInstruction> buildTable() {
  using K = MatrixElementKind;
  unsigned cdna = generationBit(ChipGeneration::CDNA2) |
                  generationBit(ChipGeneration::CDNA3) |
                  generationBit(ChipGeneration::CDNA4);
  unsigned cdna4 = generationBit(ChipGeneration::CDNA4);
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
  unsigned cdna3 = generationBit(ChipGeneration::CDNA3);
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
      table.push_back(wgmma(names[name++], n, /*k=*/16, kind));
  addFloat8Entries(table);
  return table;
}

ArrayRef<MatrixInstruction> mlir::layout::getMatrixInstructions() {
  static const std::vector<MatrixInstruction> table = buildTable();
  return table;
}

const MatrixInstruction *
mlir::layout::wgmmaRegisterAForm(const MatrixInstruction &inst) {
  // One register-A form per 16-bit wgmma of the table, in its order.
  static const std::vector<MatrixInstruction> forms = [] {
    std::vector<MatrixInstruction> r;
    for (const MatrixInstruction &ss : getMatrixInstructions()) {
      if (ss.family != MatrixFamily::Wgmma || isFloat8(ss.inputKind))
        continue;
      MatrixInstruction rs = ss;
      rs.op.opName = "layout.warpgroup_mma_reg_a";
      rs.op.aShape = {8};
      rs.aElementsPerLane = 8;
      rs.a = wgmmaRegisterA();
      r.push_back(std::move(rs));
    }
    return r;
  }();
  for (const MatrixInstruction &rs : forms)
    if (rs.family == inst.family && rs.n == inst.n && rs.k == inst.k &&
        rs.inputKind == inst.inputKind)
      return &rs;
  return nullptr;
}
