//===- Transform.h - Coordinate transforms of the layout dialect -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The single home of the semantics of every coordinate transform of the
// `layout` dialect (CK Tile's pass_through, pad, embed, merge, unmerge,
// replicate, freeze, offset, slice, modulo, xor; rotate; CuTe's swizzle;
// rocRoller's sunder). A transform maps an *upper* coordinate to a *lower*
// coordinate (CK Tile's `calculate_lower_index`); this file also holds the
// parameter checks, the lower-length checks used by `layout.transform`, and
// the inverse (`calculate_upper_index`) used by `layout.upper`.
//
// The attribute verifiers, the folders, the lowerings' tests and the Python
// bindings all call into this file; nothing else restates the formulas. The
// facts about each kind (mnemonic, arguments, dims, validity, ...) are the
// rows of TransformKinds.def, read through `kindInfo(kind)`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_TRANSFORM_H
#define LAYOUT_EVALUATOR_TRANSFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace mlir {
namespace layout {

/// The kinds of coordinate transform, one per row of TransformKinds.def. The
/// spelling of each kind in IR is `#layout.<stringifyTransformKind(kind)>`.
enum class TransformKind : uint8_t {
#define TRANSFORM_KIND(Name, ...) Name,
#include "layout/Evaluator/TransformKinds.def"
};

/// The number of transform kinds.
inline constexpr unsigned kNumTransformKinds = 0
#define TRANSFORM_KIND(Name, ...) +1
#include "layout/Evaluator/TransformKinds.def"
    ;

/// The facts about one kind of transform: a row of TransformKinds.def, which
/// documents each field. Read them with `kindInfo(kind)` or through the
/// `Transform` methods of the same names.
struct TransformKindInfo {
  /// Where a Transform keeps an argument of its kind.
  enum Arg : uint8_t { Length, Lengths, Coefficients, Param0, Param1, Param2 };
  /// Whether an argument is a list (the others are scalars).
  static constexpr bool isList(Arg arg) {
    return arg == Lengths || arg == Coefficients;
  }
  /// The arguments of a kind, in the order of its constructor, its
  /// attribute's parameters and its IR syntax.
  struct Args {
    std::array<Arg, 4> slots = {};
    uint8_t size = 0;
    constexpr Args(std::initializer_list<Arg> args) {
      for (Arg a : args)
        slots[size++] = a;
    }
    constexpr const Arg *begin() const { return slots.data(); }
    constexpr const Arg *end() const { return slots.data() + size; }
    constexpr Arg operator[](unsigned i) const { return slots[i]; }
  };
  /// A number of dims: `count` plus, when `perEntry`, one per entry of the
  /// list argument.
  struct DimCount {
    uint8_t count = 0;
    bool perEntry = false;
    constexpr unsigned of(size_t numEntries) const {
      return count + (perEntry ? numEntries : 0);
    }
  };
  struct Dims : DimCount {
    constexpr Dims(uint8_t n) : DimCount{n, false} {}
  };
  struct PerEntry : DimCount {
    constexpr PerEntry(uint8_t n) : DimCount{n, true} {}
  };
  enum ZeroRule : uint8_t { Never, Always, IfParam0IsZero };
  enum StridedForm : uint8_t {
    NotStrided,
    SameStride,
    Shifted,
    Broadcast,
    RowMajor,
    ByCoefficients,
    Nested
  };

  // The columns of TransformKinds.def, in order.
  TransformKind kind;
  llvm::StringLiteral mnemonic;
  Args args;
  DimCount lowerDims;
  DimCount upperDims;
  bool canBeInvalid;
  ZeroRule keepsZero;
  bool isInvolution;
  StridedForm strided;
  bool runTime;

  /// The table, indexed by kind (in a member so that the rows of
  /// TransformKinds.def name the enumerators above unqualified).
  static constexpr std::array<TransformKindInfo, kNumTransformKinds> table() {
    return {{
#define TRANSFORM_KIND(Name, ...) {TransformKind::Name, __VA_ARGS__},
#include "layout/Evaluator/TransformKinds.def"
    }};
  }
};

namespace detail {
inline constexpr std::array<TransformKindInfo, kNumTransformKinds>
    transformKindTable = TransformKindInfo::table();
constexpr bool isIndexedByKind() {
  for (unsigned i = 0; i < kNumTransformKinds; ++i)
    if (static_cast<unsigned>(transformKindTable[i].kind) != i)
      return false;
  return true;
}
static_assert(isIndexedByKind(), "the kind table is not in enum order");
} // namespace detail

/// The facts about `kind`.
constexpr const TransformKindInfo &kindInfo(TransformKind kind) {
  return detail::transformKindTable[static_cast<unsigned>(kind)];
}

/// Returns the IR mnemonic of `kind` (`pass_through`, `pad`, ...).
constexpr llvm::StringRef stringifyTransformKind(TransformKind kind) {
  return kindInfo(kind).mnemonic;
}

/// Wrapping (two's complement) 64-bit arithmetic and the floor division and
/// non-negative remainder used by every formula of the dialect.
int64_t wrappingAdd(int64_t a, int64_t b);
int64_t wrappingSub(int64_t a, int64_t b);
int64_t wrappingMul(int64_t a, int64_t b);
/// Floor division; `b` must be positive.
int64_t floorDiv(int64_t a, int64_t b);
/// Non-negative remainder; `b` must be positive.
int64_t floorMod(int64_t a, int64_t b);
/// Checked arithmetic: returns std::nullopt on int64 overflow.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);

//===----------------------------------------------------------------------===//
// Run-time values
//===----------------------------------------------------------------------===//
//
// A length, stride or transform argument may be a run-time value: `?` in the
// IR (MLIR's ShapedType::kDynamic, INT64_MIN), given by an SSA operand of
// the op. A descriptor traced with its operands numbers them: the n-th
// operand's value is held as the sentinel `dynamicSlot(n)`, so that the
// formulas can ask which run-time value an argument is (the affine lowering
// makes slot n the map's symbol n). Static checks skip run-time values; the
// evaluator computes only with static descriptors
// (Descriptor::instantiate gives one for run-time values).

/// `?`: a run-time value not yet numbered (slot 0).
inline constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();
/// The most run-time values one descriptor chain takes.
inline constexpr int64_t kMaxDynamicSlots = int64_t(1) << 16;
/// Whether `v` is a run-time value (`?` or a numbered slot).
constexpr bool isDynamic(int64_t v) { return v < kDynamic + kMaxDynamicSlots; }
/// The sentinel of the n-th run-time value of a chain.
constexpr int64_t dynamicSlot(int64_t n) { return kDynamic + n; }
/// The number of a run-time value's slot.
constexpr int64_t slotOf(int64_t v) { return v - kDynamic; }
/// Whether any of `values` is a run-time value.
inline bool anyDynamic(llvm::ArrayRef<int64_t> values) {
  for (int64_t v : values)
    if (isDynamic(v))
      return true;
  return false;
}

/// Formats `values` as `[a, b, c]`, the list syntax of the dialect.
std::string formatIntList(llvm::ArrayRef<int64_t> values);
/// `[a, ?, c]`: lengths or arguments, a run-time value as `?`.
std::string formatSizeList(llvm::ArrayRef<int64_t> values);

/// One argument of a transform: a scalar or a list (see
/// TransformKindInfo::Args for where each kind keeps it).
class TransformArg {
public:
  // Implicit, so that `Transform::make(kind, {3, 1, 1})` reads as a call.
  TransformArg(int64_t scalar) : scalar(scalar) {}
  TransformArg(llvm::ArrayRef<int64_t> list) : list(list), isList(true) {}

  bool isListArg() const { return isList; }
  int64_t getScalar() const {
    assert(!isList && "a list argument");
    return scalar;
  }
  llvm::ArrayRef<int64_t> getList() const {
    assert(isList && "a scalar argument");
    return list;
  }
  /// The argument as `T`: int64_t or llvm::ArrayRef<int64_t>.
  template <typename T> T as() const {
    if constexpr (std::is_same_v<T, int64_t>)
      return getScalar();
    else
      return getList();
  }

private:
  int64_t scalar = 0;
  llvm::ArrayRef<int64_t> list;
  bool isList = false;
};

/// One coordinate transform with its parameters. Build it with the static
/// constructors, then check it with `verify()` before evaluating it: the
/// evaluation functions assume verified parameters.
class Transform {
public:
  static Transform passThrough(int64_t length);
  static Transform pad(int64_t length, int64_t left, int64_t right);
  static Transform leftPad(int64_t length, int64_t left);
  static Transform rightPad(int64_t length, int64_t right);
  static Transform embed(llvm::ArrayRef<int64_t> upperLengths,
                         llvm::ArrayRef<int64_t> coefficients);
  static Transform merge(llvm::ArrayRef<int64_t> lowerLengths);
  static Transform unmerge(llvm::ArrayRef<int64_t> upperLengths);
  static Transform replicate(llvm::ArrayRef<int64_t> upperLengths);
  static Transform freeze(int64_t value);
  static Transform offset(int64_t upperLength, int64_t offset);
  static Transform slice(int64_t length, int64_t begin, int64_t end);
  static Transform modulo(int64_t modulus, int64_t upperLength);
  /// `#layout.xor<[L0, L1]>` (named so because `xor` is a C++ keyword).
  static Transform xorTransform(llvm::ArrayRef<int64_t> lengths);
  static Transform rotate(llvm::ArrayRef<int64_t> lengths);
  static Transform swizzle(int64_t bits, int64_t base, int64_t shift,
                           int64_t length);
  static Transform sunder(llvm::ArrayRef<int64_t> pieces);
  /// The transform of `kind` with `args`, as many as the kind has and in its
  /// order (TransformKindInfo::args): `make(TransformKind::Pad, {3, 1, 1})`
  /// is `pad(3, 1, 1)`.
  static Transform make(TransformKind kind, llvm::ArrayRef<TransformArg> args);

  TransformKind getKind() const { return kind; }
  /// The facts about this transform's kind.
  const TransformKindInfo &getKindInfo() const { return kindInfo(kind); }

  /// The arguments, as `make` takes them: `getArg(i)` for i below
  /// `getNumArgs()`.
  unsigned getNumArgs() const { return getKindInfo().args.size; }
  TransformArg getArg(unsigned i) const;

  /// The list parameter: upper lengths (embed, unmerge, replicate), lower
  /// lengths (merge), [L0, L1] (xor, rotate), the pieces (sunder). For kinds
  /// with a single length it holds that length (pass_through, pads, slice,
  /// swizzle: L; offset, modulo: the upper length U).
  llvm::ArrayRef<int64_t> getLengths() const { return lengths; }
  /// The embed coefficients (empty for every other kind).
  llvm::ArrayRef<int64_t> getCoefficients() const { return coefficients; }
  /// Scalar parameters, by kind: pad (left, right), left_pad (left),
  /// right_pad (right), freeze (value), offset (offset), slice (begin, end),
  /// modulo (modulus), swizzle (B, M, S).
  int64_t getParam(unsigned i) const { return params[i]; }

  /// Checks the parameters. The message names the parameter and the reason
  /// (e.g. "'right' must be non-negative, got -1"); int64 overflow of the
  /// upper lengths is an error too.
  llvm::Error verify() const;

  unsigned getNumLowerDims() const {
    return getKindInfo().lowerDims.of(lengths.size());
  }
  unsigned getNumUpperDims() const {
    return getKindInfo().upperDims.of(lengths.size());
  }
  /// The upper lengths (verified transforms only).
  llvm::SmallVector<int64_t> getUpperLengths() const;

  /// Checks that the lower lengths this transform consumes fit it: equal for
  /// pass_through, pads, merge, unmerge, slice, xor, rotate, swizzle, sunder;
  /// within bounds for embed, offset, modulo and freeze.
  llvm::Error checkLowerLengths(llvm::ArrayRef<int64_t> lowerLengths) const;

  /// CK Tile's calculate_lower_index: writes the lower coordinate of `upper`
  /// into `lower` and returns whether the coordinate is valid (only the pads
  /// and sunder can be invalid). Never traps, whatever the input. The
  /// formulas live in TransformFormulas.h (formulas::lowerIndex / validity).
  bool calculateLowerIndex(llvm::ArrayRef<int64_t> upper,
                           llvm::MutableArrayRef<int64_t> lower) const;

  /// Checks that the transform is injective on its upper domain, so that
  /// `calculateUpperIndex` is defined. Sunder counts as injective: its
  /// inverse picks the representative whose unselected coordinates are 0
  /// (rocRoller's inverse of Sunder). The message says why not otherwise.
  llvm::Error checkInvertible() const;

  /// The inverse (formulas::upperIndex): writes an upper coordinate that
  /// maps to `lower`, exact only where `lower` has a preimage (callers check
  /// with calculateLowerIndex). Only for invertible transforms.
  void calculateUpperIndex(llvm::ArrayRef<int64_t> lower,
                           llvm::MutableArrayRef<int64_t> upper) const;

  /// Whether the transform is the identity on its upper domain.
  bool isIdentity() const;

  /// Whether some upper coordinate is invalid (the pads, sunder).
  bool canBeInvalid() const { return getKindInfo().canBeInvalid; }
  /// Whether a coordinate of 0 stays 0 through the inverse
  /// (TransformKinds.def).
  bool keepsZero() const;
  /// Whether the transform is its own inverse (xor, swizzle).
  bool isInvolution() const { return getKindInfo().isInvolution; }

  /// Whether some argument is a run-time value (only kinds whose
  /// TransformKindInfo::runTime is set verify with one).
  bool isDynamic() const;
  /// Replaces each run-time argument, in argument order, by `fn(value)`
  /// (numbering slots, or giving the values of an instance).
  void mapDynamic(llvm::function_ref<int64_t(int64_t)> fn);

  /// The transform in IR syntax, e.g. `#layout.pad<3, 1, 1>` (a run-time
  /// argument prints as `?`).
  std::string str() const;

  bool operator==(const Transform &other) const {
    return kind == other.kind && lengths == other.lengths &&
           coefficients == other.coefficients && params == other.params;
  }
  bool operator!=(const Transform &other) const { return !(*this == other); }

private:
  explicit Transform(TransformKind kind) : kind(kind) {}

  TransformKind kind;
  llvm::SmallVector<int64_t, 4> lengths;
  llvm::SmallVector<int64_t, 4> coefficients;
  std::array<int64_t, 3> params = {0, 0, 0};
};

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_TRANSFORM_H
