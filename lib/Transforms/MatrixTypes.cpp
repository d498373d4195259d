//===- MatrixTypes.cpp - IR element types of the matrix instructions ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/MatrixTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::layout;

std::optional<MatrixElementKind> mlir::layout::float8KindOf(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return MatrixElementKind::E4M3FN;
  if (isa<Float8E5M2Type>(t))
    return MatrixElementKind::E5M2;
  if (isa<Float8E4M3FNUZType>(t))
    return MatrixElementKind::E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(t))
    return MatrixElementKind::E5M2FNUZ;
  return std::nullopt;
}

bool mlir::layout::takesMatrixInputs(MatrixElementKind kind, Type t) {
  if (t.isF32())
    return takesF32Inputs(kind);
  if (std::optional<MatrixElementKind> f8 = float8KindOf(t))
    return *f8 == kind;
  return (t.isF16() && kind == MatrixElementKind::F16) ||
         (t.isBF16() && kind == MatrixElementKind::BF16);
}
