//===- MatrixTypes.h - IR element types of the matrix instructions -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Which MLIR element types the input kinds of the matrix instruction table
// (layout/Evaluator/MatrixInstructions.h, IR-free) take: the one mapping the
// tile pass's planning and the CPU emulation of the instructions ask.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_MATRIXTYPES_H
#define LAYOUT_TRANSFORMS_MATRIXTYPES_H

#include "layout/Evaluator/MatrixInstructions.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir {
namespace layout {

/// The 8-bit float kind of `t` (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ),
/// or std::nullopt for any other type.
std::optional<MatrixElementKind> float8KindOf(Type t);

/// Whether instructions of `kind` take A and B of element type `t`: f16,
/// bf16, the 8-bit float of the kind, or f32 for the kinds that hold f32 in
/// their registers (tf32, xf32, f32).
bool takesMatrixInputs(MatrixElementKind kind, Type t);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_MATRIXTYPES_H
