//===- Divisibility.h - What run-time values are multiples of ---*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Divisibility facts: what an `index` value, or a memref's strides and
// offset, are known to be multiples of, from constants, the arithmetic that
// computes them, `layout.assume_multiple`, and function argument attributes
// (Triton's `tt.divisibility`, CuTe's static strides):
//
//   %ld = layout.assume_multiple %x, 4 : index
//   func.func @f(%n: index {layout.multiple_of = 8 : i64},
//                %a: memref<?x?xf32, strided<[?, 1], offset: ?>>
//                    {layout.stride_multiples = array<i64: 4, 1>,
//                     layout.offset_multiple = 4 : i64})
//
// A known multiple of 0 means the value is 0 (a multiple of everything); 1
// means nothing is known. The facts are the program's promises, as
// memref.assume_alignment's are: nothing checks them at run time.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_DIVISIBILITY_H
#define LAYOUT_DIALECT_LAYOUT_IR_DIVISIBILITY_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace layout {

/// The function argument attributes of the facts.
inline constexpr llvm::StringLiteral kMultipleOfAttr = "layout.multiple_of";
inline constexpr llvm::StringLiteral kStrideMultiplesAttr =
    "layout.stride_multiples";
inline constexpr llvm::StringLiteral kOffsetMultipleAttr =
    "layout.offset_multiple";

/// What `value` (an index or integer) is known to be a multiple of (0: it
/// is 0; 1: nothing known).
int64_t knownMultiple(Value value);

/// Whether a value known to be a multiple of `known` is one of `n` (> 0).
inline bool isKnownMultipleOf(int64_t known, int64_t n) {
  return known == 0 || known % n == 0;
}

/// What a strided memref's strides and offset are known to be multiples of.
struct MemRefMultiples {
  llvm::SmallVector<int64_t> strides;
  int64_t offset = 1;
};

/// The facts of `memref`'s strides and offset: static ones are their own
/// values; dynamic ones come from the argument attributes of a function's
/// memref argument, or from the operands of the memref.reinterpret_cast or
/// memref.subview that made it. Nothing for a memref that is not strided.
std::optional<MemRefMultiples> knownMemRefMultiples(Value memref);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_DIVISIBILITY_H
