//===- IndexAlgebras.h - Index algebras that build IR ------------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Instances of the index algebra of IndexAlgebra.h (and Partition.h) whose
// values are IR: `AffineExprAlgebra` composes AffineExprs (the affine part of
// the affine lowering's algebra, and `layout.index_space`'s lowering), and
// `ArithAlgebra` emits `arith` ops on `index` values at a builder's
// insertion point (the tile accesses of the vector lowering and of the tile
// pass). A formula instantiated with either emits exactly the arithmetic
// the evaluator computes.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_INDEXALGEBRAS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_INDEXALGEBRAS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace layout {

/// The affine operations of an index algebra over AffineExprs.
class AffineExprAlgebra {
public:
  using Value = AffineExpr;
  explicit AffineExprAlgebra(MLIRContext *ctx) : ctx(ctx) {}

  AffineExpr constant(int64_t c) { return getAffineConstantExpr(c, ctx); }
  AffineExpr add(AffineExpr x, AffineExpr y) { return x + y; }
  AffineExpr sub(AffineExpr x, AffineExpr y) { return x - y; }
  AffineExpr mul(AffineExpr x, int64_t c) { return x * c; }
  AffineExpr floorDiv(AffineExpr x, int64_t d) { return x.floorDiv(d); }
  AffineExpr floorMod(AffineExpr x, int64_t d) { return x % d; }
  AffineExpr ceilDiv(AffineExpr x, int64_t d) { return x.ceilDiv(d); }

protected:
  MLIRContext *ctx;
};

/// The operations the partition formulas (Partition.h) ask of an index
/// algebra, over `index` SSA values, as `arith` ops created at `b`'s
/// insertion point. It has no division: coordinates may be negative before
/// a view's bounds check, where unsigned division would differ from the
/// evaluator's floor division.
class ArithAlgebra {
public:
  using Value = mlir::Value;
  ArithAlgebra(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(int64_t c) {
    return arith::ConstantIndexOp::create(b, loc, c);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) {
    return arith::MulIOp::create(b, loc, x, constant(c));
  }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_INDEXALGEBRAS_H
