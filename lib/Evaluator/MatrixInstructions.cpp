//===- MatrixInstructions.cpp - Queries of the matrix instruction table ---===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The names of the families, kinds and operands, the input precision of each
// kind, and the queries of the table (MatrixInstructions.h): operand
// coordinates, ldmatrix row addresses, availability per chip, lookups. The
// layouts are built in MatrixLayouts.cpp, the table in
// MatrixInstructionTable.cpp.
//
//===----------------------------------------------------------------------===//

#include "MatrixLayouts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::StringRef;
using matrix_layouts::generationBit;

//===----------------------------------------------------------------------===//
// Names and chips
//===----------------------------------------------------------------------===//

namespace {
/// A family's identifier and how the vendors' documents name its
/// instructions (the mnemonics' stems).
struct FamilyNames {
  MatrixFamily family;
  StringRef id, spelling;
};
constexpr FamilyNames kFamilyNames[] = {
    {MatrixFamily::MFMA, "MFMA", "MFMA"},
    {MatrixFamily::WMMA, "WMMA", "WMMA"},
    {MatrixFamily::MmaSync, "MmaSync", "mma.sync"},
    {MatrixFamily::Wgmma, "Wgmma", "wgmma"},
};
const FamilyNames &namesOf(MatrixFamily family) {
  for (const FamilyNames &n : kFamilyNames)
    if (n.family == family)
      return n;
  llvm_unreachable("unknown matrix family");
}
} // namespace

StringRef mlir::layout::stringifyMatrixFamily(MatrixFamily family) {
  return namesOf(family).id;
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
  case MatrixElementKind::E4M3FN:
    return "f8E4M3FN";
  case MatrixElementKind::E5M2:
    return "f8E5M2";
  case MatrixElementKind::E4M3FNUZ:
    return "f8E4M3FNUZ";
  case MatrixElementKind::E5M2FNUZ:
    return "f8E5M2FNUZ";
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
/// keep away from ties). The 8-bit floats are exact like f16: their
/// registers hold the values (3 mantissa bits for E4M3, 2 for E5M2).
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
  case MatrixElementKind::E4M3FN:
  case MatrixElementKind::E4M3FNUZ:
    return {3, R::Exact};
  case MatrixElementKind::E5M2:
  case MatrixElementKind::E5M2FNUZ:
    return {2, R::Exact};
  }
  llvm_unreachable("unknown matrix element kind");
}

std::optional<Float8Encoding>
mlir::layout::float8EncodingOf(MatrixElementKind kind) {
  switch (kind) {
  case MatrixElementKind::E4M3FN:
    return Float8Encoding::E4M3FN;
  case MatrixElementKind::E5M2:
    return Float8Encoding::E5M2;
  case MatrixElementKind::E4M3FNUZ:
    return Float8Encoding::E4M3FNUZ;
  case MatrixElementKind::E5M2FNUZ:
    return Float8Encoding::E5M2FNUZ;
  default:
    return std::nullopt;
  }
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

/// The least sm_XY (as XY) of the chips of an NVIDIA `generation`; 0 for
/// the AMD ones.
static int64_t leastSmVersion(ChipGeneration generation) {
  switch (generation) {
  case ChipGeneration::SM50:
    return 50;
  case ChipGeneration::SM80:
    return 80;
  case ChipGeneration::SM90A:
    return 90;
  default:
    return 0;
  }
}

bool MatrixInstruction::availableOn(ChipGeneration generation) const {
  return (generations & generationBit(generation)) != 0 &&
         leastSmVersion(generation) >= minimumSmVersion;
}

/// Whether `chip` has `inst`: its generation does, and it is not below the
/// instruction's minimumSmVersion ("sm_89", "sm_90a": the digits after
/// "sm_").
static bool hasInstruction(const Chip &chip, const MatrixInstruction &inst) {
  if ((inst.generations & generationBit(chip.generation)) == 0)
    return false;
  if (inst.minimumSmVersion == 0)
    return true;
  int64_t version = 0;
  StringRef digits = StringRef(chip.name).drop_front(3).take_while(
      [](char c) { return c >= '0' && c <= '9'; });
  return !digits.getAsInteger(10, version) && version >= inst.minimumSmVersion;
}

/// The chip `name` names, or std::nullopt for one parseChip does not know.
static std::optional<Chip> lookUpChip(StringRef name) {
  llvm::Expected<Chip> parsed = parseChip(name);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  return std::move(*parsed);
}

bool MatrixInstruction::availableOn(StringRef chip) const {
  std::optional<Chip> parsed = lookUpChip(chip);
  return parsed && hasInstruction(*parsed, *this);
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
  assert(inst.lanesHold(operand) && "wgmma's lanes hold no B (nor A but in "
                                    "its register-A form)");
  int64_t cols = inst.tileShape(operand).second;
  int64_t offset = inst.layout(operand).offset({lane, element});
  return {offset / cols, offset % cols};
}

llvm::SmallVector<int64_t>
mlir::layout::firstElementsSharingLine(const MatrixInstruction &inst,
                                       MatrixOperand operand, bool column) {
  int64_t count = inst.elementsPerLane(operand);
  auto line = [&](int64_t lane, int64_t e) {
    MatrixCoord at = operandCoord(inst, operand, lane, e);
    return column ? at.col : at.row;
  };
  llvm::SmallVector<int64_t> first(count);
  for (int64_t e = 0; e < count; ++e) {
    first[e] = e;
    for (int64_t f = 0; f < e; ++f)
      if (first[f] == f &&
          llvm::all_of(llvm::seq<int64_t>(0, inst.waveSize), [&](int64_t lane) {
            return line(lane, f) == line(lane, e);
          })) {
        first[e] = f;
        break;
      }
  }
  return first;
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

std::string mlir::layout::chipsWithInputs(
    llvm::function_ref<bool(MatrixElementKind)> takes) {
  std::string out;
  for (ChipGeneration g :
       {ChipGeneration::CDNA2, ChipGeneration::CDNA3, ChipGeneration::CDNA4,
        ChipGeneration::RDNA3, ChipGeneration::SM50, ChipGeneration::SM80,
        ChipGeneration::SM90A}) {
    llvm::SmallVector<StringRef> kinds, families;
    // The least sm_XY every matching instruction of the generation needs
    // (minimumSmVersion: the FP8 mma.sync is on sm_89 and later only).
    std::optional<int64_t> least;
    for (const MatrixInstruction &inst : getMatrixInstructions()) {
      if ((inst.generations & generationBit(g)) == 0 || !takes(inst.inputKind))
        continue;
      StringRef kind = stringifyMatrixElementKind(inst.inputKind);
      if (!llvm::is_contained(kinds, kind))
        kinds.push_back(kind);
      StringRef family = namesOf(inst.family).spelling;
      if (!llvm::is_contained(families, family))
        families.push_back(family);
      least = least ? std::min(*least, inst.minimumSmVersion)
                    : inst.minimumSmVersion;
    }
    if (kinds.empty())
      continue;
    std::string chips = chipsOf(g).str();
    if (*least > leastSmVersion(g))
      chips = llvm::formatv("sm_{0} ... {1}", *least,
                            StringRef(chipsOf(g)).rsplit(" ... ").second)
                  .str();
    out += (out.empty() ? "" : ", ") + chips + " (" + llvm::join(kinds, ", ") +
           " " + llvm::join(families, ", ") + ")";
  }
  return out;
}

std::string mlir::layout::chipsWithF32Inputs() {
  return chipsWithInputs(takesF32Inputs);
}

llvm::SmallVector<const MatrixInstruction *>
mlir::layout::getMatrixInstructions(StringRef chip) {
  llvm::SmallVector<const MatrixInstruction *> result;
  std::optional<Chip> parsed = lookUpChip(chip);
  if (!parsed)
    return result;
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (hasInstruction(*parsed, inst))
      result.push_back(&inst);
  return result;
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

const MatrixInstruction *
mlir::layout::findMatrixInstructionByIntrinsic(StringRef intrinsic) {
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (!inst.op.llvmIntrinsic.empty() && inst.op.llvmIntrinsic == intrinsic)
      return &inst;
  return nullptr;
}
