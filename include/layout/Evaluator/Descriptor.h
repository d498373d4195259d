//===- Descriptor.h - Tensor descriptors and their evaluator ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A descriptor (CK Tile's tensor descriptor) maps a coordinate of its top
// index space to one element offset in a linear buffer through a chain of
// stages; each stage is a set of transforms side by side, each consuming some
// dims of the previous top ("lower dims") and producing some dims of the new
// top ("upper dims"). The base stage is the naive (strided) descriptor, which
// is an embed of the buffer's one dimension.
//
// This is the evaluator every other component is checked against: folders,
// `layout.upper`, the lowerings' execution tests and the Python bindings.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_DESCRIPTOR_H
#define LAYOUT_EVALUATOR_DESCRIPTOR_H

#include "layout/Evaluator/Transform.h"

#include <vector>

namespace mlir {
namespace layout {

/// One entry of a stage: `transform : [lowerDims] -> [upperDims]`.
struct StageEntry {
  Transform transform;
  llvm::SmallVector<int64_t, 4> lowerDims;
  llvm::SmallVector<int64_t, 4> upperDims;
};

/// `transform : [lowerDims] -> [upperDims]`.
inline StageEntry makeEntry(Transform transform,
                            llvm::ArrayRef<int64_t> lowerDims,
                            llvm::ArrayRef<int64_t> upperDims) {
  StageEntry e{std::move(transform), {}, {}};
  e.lowerDims.assign(lowerDims.begin(), lowerDims.end());
  e.upperDims.assign(upperDims.begin(), upperDims.end());
  return e;
}

/// `#layout.kind<...> : [lower] -> [upper]`, as inside `layout.transform`.
std::string formatEntry(const StageEntry &entry);

/// One stage: transforms side by side.
using Stage = llvm::SmallVector<StageEntry, 2>;

/// How a descriptor's base was built (kept for printing it back).
enum class BaseKind : uint8_t { Naive, Packed, Aligned };

/// The result of evaluating a descriptor at one top coordinate.
struct Evaluation {
  int64_t offset = 0;
  bool valid = false;
};

class Descriptor {
public:
  /// `layout.naive`: offset = base offset + sum idx_i * stride_i, element
  /// space = `space` when given, else base offset + 1 + sum (len_i - 1) *
  /// stride_i (the least it may be). Lengths positive, strides and offset
  /// non-negative, and no int64 overflow.
  static llvm::Expected<Descriptor>
  naive(llvm::ArrayRef<int64_t> lengths, llvm::ArrayRef<int64_t> strides,
        int64_t offset = 0, std::optional<int64_t> space = std::nullopt);
  /// `layout.packed`: row-major, element space = prod len.
  static llvm::Expected<Descriptor> packed(llvm::ArrayRef<int64_t> lengths);
  /// `layout.aligned`: row-major with the last dimension's row stride rounded
  /// up to a multiple of `align`; element space = prod_{i<n-1} len_i *
  /// roundup(len_{n-1}, align) (= len_0 * stride_0 for rank >= 2).
  static llvm::Expected<Descriptor> aligned(llvm::ArrayRef<int64_t> lengths,
                                            int64_t align);

  /// Checks a stage applied to a descriptor of top lengths `topLengths`
  /// (CK Tile's transform_tensor_descriptor rules: verified transforms, dims
  /// in range, every old top dim consumed exactly once, new top dims exactly
  /// 0..n-1, lower lengths fit) and returns the new top lengths.
  static llvm::Expected<llvm::SmallVector<int64_t>>
  checkStage(llvm::ArrayRef<int64_t> topLengths,
             llvm::ArrayRef<StageEntry> entries);

  /// Returns this descriptor with one more stage (checked with checkStage).
  llvm::Expected<Descriptor>
  transform(llvm::ArrayRef<StageEntry> entries) const;
  /// Adds one stage in place (checked with checkStage; unchanged on error).
  llvm::Error addStage(llvm::ArrayRef<StageEntry> entries);

  /// The number of hidden indices of a coordinate: the ranks of every level
  /// of the chain, base and top included (!layout.coord's `hidden`).
  int64_t getNumHiddenIndices() const;

  /// Top (logical) lengths and rank.
  llvm::ArrayRef<int64_t> getLengths() const { return topLengths; }
  unsigned getRank() const { return topLengths.size(); }
  /// Number of elements the buffer must hold (`?` when it depends on a
  /// run-time value).
  int64_t getElementSpaceSize() const { return elementSpaceSize; }
  /// The base (naive) lengths and strides.
  llvm::ArrayRef<int64_t> getBaseLengths() const { return baseLengths; }
  llvm::ArrayRef<int64_t> getBaseStrides() const { return baseStrides; }
  /// The base offset (naive bases only; 0 otherwise).
  int64_t getBaseOffset() const { return baseOffset; }
  /// Whether the element space was given explicitly (naive `space`).
  bool hasExplicitSpace() const { return explicitSpace; }
  BaseKind getBaseKind() const { return baseKind; }
  /// Whether the base is row-major at any value of its run-time lengths (a
  /// packed base with run-time lengths): its strides are the suffix
  /// products of its lengths, and they nest (formulas::baseStrides,
  /// formulas::topCoordinate).
  bool hasRunTimeRowMajorBase() const {
    return baseKind == BaseKind::Packed && anyDynamic(baseLengths);
  }
  int64_t getBaseAlign() const { return baseAlign; }
  /// The stages added on top of the base, in order.
  llvm::ArrayRef<Stage> getStages() const { return stages; }

  /// Whether a length, stride or transform argument is a run-time value
  /// (Transform.h): then the top lengths and the element space size may be
  /// `?` (kDynamic), and only formulas over an algebra with run-time
  /// parameters, or `instantiate`, compute with it.
  bool isDynamic() const;
  /// Replaces each run-time value by `fn(value)`, in the order the IR lists
  /// their operands: the base's lengths, a naive base's strides, then each
  /// stage's transforms in order, each in argument order.
  void mapDynamic(llvm::function_ref<int64_t(int64_t)> fn);
  /// The static descriptor at run-time values, slot n (dynamicSlot(n)) taking
  /// `values[n]`; the values are checked as the constructors and addStage
  /// check static ones.
  llvm::Expected<Descriptor> instantiate(llvm::ArrayRef<int64_t> values) const;

  /// Offset and validity of a top coordinate. `top` must have getRank()
  /// entries, and the descriptor must be static (otherwise the result is
  /// {0, false}). Never traps.
  Evaluation evaluate(llvm::ArrayRef<int64_t> top) const;
  int64_t offset(llvm::ArrayRef<int64_t> top) const {
    return evaluate(top).offset;
  }
  bool valid(llvm::ArrayRef<int64_t> top) const { return evaluate(top).valid; }

  /// Checks that the descriptor is injective on its valid domain, naming the
  /// transform that is not (e.g. "stage 1, #layout.modulo<4, 8> : [0] -> [0]
  /// is not injective: ...").
  llvm::Error checkInvertible() const;
  /// The part of checkInvertible that is about the stages: with it, a base
  /// whose injectivity is the caller's promise (run-time strides, as a
  /// memref's) is trusted.
  llvm::Error checkStagesInvertible() const;

  /// The inverse: the valid, in-bounds top coordinate whose offset is
  /// `offset`. Fails when the descriptor is not invertible or when no such
  /// coordinate exists.
  llvm::Expected<llvm::SmallVector<int64_t>> upper(int64_t offset) const;

  /// The descriptor as IR in the contract's syntax (one op per stage); slot
  /// n's operand is `%dyn<n>`.
  std::string str() const;

private:
  Descriptor() = default;
  static llvm::Expected<Descriptor> fromStrides(llvm::ArrayRef<int64_t> lengths,
                                                llvm::ArrayRef<int64_t> strides,
                                                int64_t elementSpaceSize,
                                                BaseKind kind, int64_t align);

  BaseKind baseKind = BaseKind::Naive;
  int64_t baseAlign = 0;
  int64_t baseOffset = 0;
  bool explicitSpace = false;
  int64_t elementSpaceSize = 0;
  llvm::SmallVector<int64_t, 4> baseLengths;
  llvm::SmallVector<int64_t, 4> baseStrides;
  std::vector<Stage> stages;
  llvm::SmallVector<int64_t, 4> topLengths;
};

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_DESCRIPTOR_H
