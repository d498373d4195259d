//===- MatrixInstructions.h - Matrix instructions and their layouts -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The one table of the matrix instructions the project targets (f16 / bf16
// inputs, f32 inputs as tf32 / xf32 / f32, and the 8-bit floats; f32
// accumulation): AMD MFMA (gfx90a, gfx942, gfx950), AMD WMMA (gfx11), NVIDIA
// mma.sync m16n8k16, m16n8k8 .tf32 (sm_8x, sm_9x) and m16n8k32 .e4m3 / .e5m2
// (sm_89 and later) and NVIDIA warpgroup MMA wgmma.mma_async m64nNk16 and
// FP8 m64nNk32 (sm_90a), whose A and B come from workgroup memory through
// matrix descriptors (WarpgroupMma.h) instead of registers.
//
// "Register layouts are layouts": each operand's register layout is a
// `Descriptor` with top coordinate (lane, element) whose offset is the linear
// offset of that element in the row-major operand tile: A is M x K, B is
// K x N, C (and D) is M x N. The descriptors are built from transforms in
// lib/Evaluator/MatrixLayouts.cpp, each next to its citation, and the entries
// in MatrixInstructionTable.cpp (the queries: MatrixInstructions.cpp); the
// CPU emulator, the distribution and the bank model ask this table instead
// of restating the formulas. docs/matrix-instructions.md lists the formulas
// and pictures. For mma.sync, the table also says how nvgpu.ldmatrix loads
// the A and B fragments (LdMatrixLoad): the lanes' row addresses, also a
// descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H
#define LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/Float8.h"
#include "layout/Target/Chip.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// The instruction families.
enum class MatrixFamily : uint8_t { MFMA, WMMA, MmaSync, Wgmma };

/// The input (A and B) element kinds; every instruction here accumulates in
/// f32. TF32, XF32 and F32 take f32 values in their registers (the IR's
/// element type is f32): TF32 (NVIDIA mma.sync .tf32) and XF32 (AMD CDNA3
/// MFMA _xf32) multiply them with 10 explicit mantissa bits
/// (inputPrecision), F32 (AMD MFMA _f32) with all 23. The last four are the
/// 8-bit floats, named after their encodings (Float8.h) and MLIR 22's types
/// f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ: the OCP pair is NVIDIA's .e4m3 /
/// .e5m2 and CDNA4's fp8 / bf8, the FNUZ pair CDNA3's fp8 / bf8.
enum class MatrixElementKind : uint8_t {
  F16,
  BF16,
  TF32,
  XF32,
  F32,
  E4M3FN,
  E5M2,
  E4M3FNUZ,
  E5M2FNUZ
};

/// How an instruction of a kind treats the values its A and B registers
/// hold before it multiplies them (what the CPU emulator reproduces).
struct MatrixInputPrecision {
  /// Explicit mantissa bits the products see: 10 (f16, tf32, xf32), 7
  /// (bf16), 23 (f32), 3 (E4M3*), 2 (E5M2*).
  int64_t mantissaBits;
  /// How the f32 register value becomes one of mantissaBits (kinds stored as
  /// f32 only; f16 / bf16 / 8-bit float registers already hold such values):
  /// Truncate: the low bits are ignored (how mma.sync .tf32 is modeled:
  /// PTX leaves it implementation-defined, and the tile programs convert
  /// with cvt.rna.tf32.f32 first, see MatrixInstructions.cpp); NearestEven:
  /// rounded to nearest, ties to even (how CDNA3 _xf32 is modeled); Exact:
  /// no rounding. (NearestAway, ties away from zero,
  /// is cvt.rna.tf32.f32's, which no instruction does itself.)
  enum class Rounding : uint8_t {
    Exact,
    Truncate,
    NearestEven,
    NearestAway
  } rounding;
};

/// The input precision of `kind` (docs/matrix-instructions.md, "f32 inputs").
MatrixInputPrecision inputPrecision(MatrixElementKind kind);

/// Whether the instructions of `kind` take f32 values in their A and B
/// registers (TF32, XF32, F32).
inline bool takesF32Inputs(MatrixElementKind kind) {
  return kind == MatrixElementKind::TF32 || kind == MatrixElementKind::XF32 ||
         kind == MatrixElementKind::F32;
}

/// Whether `kind` is one of the 8-bit floats (E4M3FN, E5M2, E4M3FNUZ,
/// E5M2FNUZ).
inline bool isFloat8(MatrixElementKind kind) {
  return kind == MatrixElementKind::E4M3FN || kind == MatrixElementKind::E5M2 ||
         kind == MatrixElementKind::E4M3FNUZ ||
         kind == MatrixElementKind::E5M2FNUZ;
}

/// The encoding (Float8.h) of an 8-bit float `kind`, or std::nullopt for
/// the other kinds.
std::optional<Float8Encoding> float8EncodingOf(MatrixElementKind kind);

/// The three operands; C stands for the accumulator and the result D, which
/// share one layout.
enum class MatrixOperand : uint8_t { A, B, C };

llvm::StringRef stringifyMatrixFamily(MatrixFamily family);
/// "f16", "bf16", "tf32", "xf32", "f32", or MLIR's name of the 8-bit float
/// type: "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ".
llvm::StringRef stringifyMatrixElementKind(MatrixElementKind kind);
/// "A", "B" or "C".
llvm::StringRef stringifyMatrixOperand(MatrixOperand operand);

/// What the MLIR 22 op that issues the instruction needs spelled out.
struct MatrixOpSpelling {
  /// "amdgpu.mfma", "amdgpu.wmma", "nvgpu.mma.sync",
  /// "layout.warpgroup_mma", or "llvm.call_intrinsic" of `llvmIntrinsic`
  /// (the FP8 mma.sync, which no MLIR 22 op takes).
  llvm::StringRef opName;
  /// The LLVM 22 intrinsic that llvm.call_intrinsic calls, with A and B as
  /// i32 registers (four 8-bit elements each, low byte first) and C as f32;
  /// empty for the other ops.
  llvm::StringRef llvmIntrinsic;
  /// The operand vector shapes: `vector<4xf16>` is {4}; nvgpu.mma.sync's
  /// (registers x elements per register) `vector<4x2xf16>` is {4, 2}. C is
  /// the accumulator and result type.
  llvm::SmallVector<int64_t, 2> aShape, bShape, cShape;
  /// amdgpu.mfma's `blocks` (1 for every instruction here; 0 for the others).
  int64_t blocks = 0;
  /// False where the op does not lower this element kind in MLIR 22
  /// (nvgpu.mma.sync with bf16: emit nvvm.mma.sync with i32-packed
  /// operands).
  bool lowersInMlir22 = true;
  /// The op's unit attribute that selects the reduced-precision form of f32
  /// inputs: "tf32Enabled" (nvgpu.mma.sync .tf32), "reducePrecision"
  /// (amdgpu.mfma _xf32); empty otherwise.
  llvm::StringRef precisionAttr;
};

/// A (row, column) of an operand tile.
struct MatrixCoord {
  int64_t row = 0;
  int64_t col = 0;
  bool operator==(const MatrixCoord &o) const {
    return row == o.row && col == o.col;
  }
};

/// How `nvgpu.ldmatrix` (PTX `ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}
/// .shared.b16`) loads one lane's fragment of A or B from workgroup memory
/// (docs/matrix-instructions.md, "ldmatrix").
///
/// Every lane passes the address of one row: 8 consecutive 16-bit elements
/// (16 bytes) of a *stored tile* whose columns are contiguous. Matrix j's 8
/// rows come from lanes 8j .. 8j + 7; without .trans, lane l receives row
/// l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix j in register j. With
/// the row addresses of `rowAddress`, the result
/// `vector<numTiles x 2 x f16|bf16>` *is* the instruction's fragment: its
/// element (j, v) is element 2 j + v of the operand's register layout
/// (`MatrixInstruction::layout`, `operandCoord`), the op's aShape / bShape.
struct LdMatrixLoad {
  /// nvgpu.ldmatrix's numTiles: the 8x8 matrices loaded (.x1, .x2, .x4).
  int64_t numTiles;
  /// nvgpu.ldmatrix's transpose (.trans).
  bool transpose;
  /// The stored tile, rows x cols, columns contiguous (K fastest): A's M x K
  /// operand tile itself; for B the N x K tile, B's columns as rows.
  int64_t rows, cols;
  /// Whether the stored tile's (r, c) is the operand tile's (c, r) (B).
  bool storedTransposed;
  /// lane -> row * cols + col of the stored-tile element the lane's row
  /// address points at; top lengths [waveSize]. Lanes whose address the
  /// instruction ignores (activeLanes() and up) get the address of lane %
  /// activeLanes(): valid and in bounds (sm_75 and older read them).
  Descriptor rowAddress;

  /// The lanes whose addresses the instruction reads: 8 * numTiles.
  int64_t activeLanes() const { return 8 * numTiles; }
  /// The operand-tile coordinate of stored-tile coordinate `stored`.
  MatrixCoord toOperand(MatrixCoord stored) const {
    return storedTransposed ? MatrixCoord{stored.col, stored.row} : stored;
  }
  /// The stored-tile (row, col) lane `lane`'s row address points at.
  MatrixCoord rowAddressOf(int64_t lane) const {
    int64_t offset = rowAddress.offset({lane});
    return {offset / cols, offset % cols};
  }
};

/// One matrix instruction: D = A * B + C for one wave (warp).
struct MatrixInstruction {
  /// As the ISA guide / PTX spells it (the gfx942 / gfx950 assembler spelling
  /// for MFMA; see mnemonicOn for gfx90a's).
  llvm::StringRef mnemonic;
  /// gfx90a's assembler spelling (e.g. v_mfma_f32_32x32x8bf16_1k); empty when
  /// the instruction is not on gfx90a.
  llvm::StringRef cdna2Mnemonic;
  MatrixFamily family;
  int64_t m, n, k;
  MatrixElementKind inputKind;
  /// Lanes of the wave (64 for MFMA, 32 for gfx11 WMMA and mma.sync, 128:
  /// the warpgroup of 4 warps for wgmma).
  int64_t waveSize;
  /// Elements of A, B and C each lane holds (A and B: 0 for wgmma, which
  /// reads them from workgroup memory).
  int64_t aElementsPerLane, bElementsPerLane, cElementsPerLane;
  /// How many (lane, element) pairs hold each element of A and of B (2 for
  /// gfx11 WMMA, whose half-waves hold copies; 1 otherwise). C is never
  /// replicated.
  int64_t abReplication;
  /// The generations that have the instruction (bits of 1 << ChipGeneration).
  unsigned generations;
  MatrixOpSpelling op;
  /// (lane, element) -> offset in the row-major A (M x K), B (K x N) and
  /// C (M x N) tile; top lengths [waveSize, elements per lane]. For wgmma,
  /// whose lanes hold no A or B, `a` and `b` are the packed operand tiles
  /// themselves ([M, K], [K, N]): see operandsInWorkgroupMemory.
  Descriptor a, b, c;
  /// How nvgpu.ldmatrix loads A and B (mma.sync only; std::nullopt for the
  /// others, which have no such instruction).
  std::optional<LdMatrixLoad> ldmatrixA, ldmatrixB;
  /// How nvgpu.ldmatrix loads B from its K x N tile stored N-fastest (.trans;
  /// mma.sync only): the layout of a row-major B in global memory, staged
  /// with 16-byte writes.
  std::optional<LdMatrixLoad> ldmatrixBTrans;
  /// Whether A and B must be K-major in workgroup memory: wgmma transposes
  /// only f16 / bf16 operands (imm-trans-a / imm-trans-b), so its FP8 forms
  /// read A as M x K and B as N x K with K contiguous. False for the others
  /// (register operands, or either major).
  bool kMajorOnly = false;
  /// The least sm_XY (as XY) that has the instruction where not every chip
  /// of `generations` does: 89 for the FP8 mma.sync (sm_89 and later); 0
  /// otherwise.
  int64_t minimumSmVersion = 0;
  /// The least PTX ISA version (as 10 * major + minor) that has the
  /// instruction where it is above what the NVVM pipeline asks for by
  /// default: 84 for the FP8 mma.sync (PTX ISA, mma: ".e4m3 and .e5m2 ...
  /// introduced in PTX ISA version 8.4"; LLVM 22's NVPTX back end selects
  /// its intrinsic only with +ptx84); 0 otherwise.
  int64_t minimumPtxVersion = 0;

  const Descriptor &layout(MatrixOperand operand) const;
  /// Whether A and B are read from workgroup memory through matrix
  /// descriptors (wgmma) instead of held by the lanes.
  bool operandsInWorkgroupMemory() const {
    return family == MatrixFamily::Wgmma;
  }
  /// Whether the lanes hold `operand` in registers (C always; A and B except
  /// wgmma's, whose register-A form holds A: wgmmaRegisterAForm).
  bool lanesHold(MatrixOperand operand) const {
    return elementsPerLane(operand) > 0;
  }
  /// The lanes one gpu.shuffle reaches: a warp of 32 for wgmma (its
  /// warpgroup is 4 warps), the whole wave for the others.
  int64_t shuffleLanes() const {
    return family == MatrixFamily::Wgmma ? 32 : waveSize;
  }
  /// ldmatrixA or ldmatrixB, or nullptr (C, or no ldmatrix load).
  const LdMatrixLoad *ldmatrix(MatrixOperand operand) const;
  /// (rows, cols) of the operand tile: A (M, K), B (K, N), C (M, N).
  std::pair<int64_t, int64_t> tileShape(MatrixOperand operand) const;
  int64_t elementsPerLane(MatrixOperand operand) const;
  int64_t replication(MatrixOperand operand) const;
  /// Whether every chip of `generation` has the instruction (so false for
  /// the FP8 mma.sync on SM80, whose sm_80 and sm_86 lack it).
  bool availableOn(ChipGeneration generation) const;
  /// Whether `chip` has the instruction.
  bool availableOn(llvm::StringRef chip) const;
  /// The assembler's spelling on `chip` (cdna2Mnemonic on gfx90a).
  llvm::StringRef mnemonicOn(llvm::StringRef chip) const;
  /// The assembler's spelling on a chip of `generation` (cdna2Mnemonic on
  /// CDNA2).
  llvm::StringRef mnemonicOn(ChipGeneration generation) const;
  /// "32x32x8", amdgpu.mfma / amdgpu.wmma's MxNxK list (nvgpu.mma.sync's
  /// mmaShape is [m, n, k]).
  std::string shapeString() const;
};

/// The (row, col) of the operand tile that `lane` holds in its `element`:
/// the layout's offset split by the tile's column count. Requires 0 <= lane <
/// waveSize and 0 <= element < elementsPerLane(operand).
MatrixCoord operandCoord(const MatrixInstruction &inst, MatrixOperand operand,
                         int64_t lane, int64_t element);

/// For each element of a lane's `operand` registers, the first element that
/// holds the same row (`column` false) or column (`column` true) of the
/// operand tile in every lane: a value broadcast along rows or columns (a
/// bias, a scale) is read once per distinct entry. E.g. mma.sync's and
/// wgmma's C: elements 2i and 2i + 1 share a row, 4i + j and 4i + j + 2
/// a column.
llvm::SmallVector<int64_t>
firstElementsSharingLine(const MatrixInstruction &inst, MatrixOperand operand,
                         bool column);

/// The (row, col) of the stored tile (LdMatrixLoad) that `lane`'s
/// nvgpu.ldmatrix row address points at, for the instruction's ldmatrix load
/// of `operand`:
///   A (.x4, M x K stored): row = lane % 16, col = 8 * (lane / 16);
///   B (.x2, N x K stored): row (n) = lane % 8, col (k) = 8 * ((lane / 8) % 2).
/// Requires inst.ldmatrix(operand) and 0 <= lane < waveSize.
MatrixCoord ldmatrixRowAddress(const MatrixInstruction &inst,
                               MatrixOperand operand, int64_t lane);

/// Every instruction of the table.
llvm::ArrayRef<MatrixInstruction> getMatrixInstructions();
/// wgmma's form with A in registers (PTX ISA 9.7.15.5.1.1.1, "Multiplicand
/// A in registers", f16 / bf16; `wgmma.mma_async ... d, a, b-desc, ...`):
/// `inst` with A held by the lanes, 8 elements each (four .f16x2 / .bf16x2
/// registers), in the register layout `a` (lane, element) -> offset in the
/// 64 x 16 A tile; B still read from workgroup memory. The project's
/// layout.warpgroup_mma_reg_a. Not among getMatrixInstructions (a GEMM's
/// A is staged); nullptr for an instruction without such a form (not
/// wgmma, or 8-bit inputs).
const MatrixInstruction *wgmmaRegisterAForm(const MatrixInstruction &inst);
/// The instructions available on `chip` (empty for an unknown chip).
llvm::SmallVector<const MatrixInstruction *>
getMatrixInstructions(llvm::StringRef chip);
/// The chips (as knownChips spells their ranges) whose generation has an
/// instruction taking f32 A and B, each with the instruction kinds, e.g.
/// "sm_80 ... sm_90a (tf32 mma.sync), gfx942 (xf32 MFMA)": what a refusal
/// of an f32 contraction names.
std::string chipsWithF32Inputs();
/// The same list for the kinds `takes` accepts (chipsWithF32Inputs is
/// takesF32Inputs's; isFloat8's names what an 8-bit float contraction's
/// refusal names), with a generation's chips narrowed to those from the
/// instructions' minimumSmVersion ("sm_89 ... sm_90").
std::string chipsWithInputs(llvm::function_ref<bool(MatrixElementKind)> takes);
/// The instructions available on every chip of `generation`.
llvm::SmallVector<const MatrixInstruction *>
getMatrixInstructions(ChipGeneration generation);
/// The instruction of `chip` with these inputs and shape, or nullptr.
const MatrixInstruction *findMatrixInstruction(llvm::StringRef chip,
                                               MatrixElementKind kind,
                                               int64_t m, int64_t n, int64_t k);
/// The instruction issued as LLVM intrinsic `intrinsic` (its
/// op.llvmIntrinsic: the FP8 mma.sync), or nullptr.
const MatrixInstruction *
findMatrixInstructionByIntrinsic(llvm::StringRef intrinsic);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_MATRIXINSTRUCTIONS_H
