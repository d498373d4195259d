//===- IntegerFolds.cpp - Integer arith on concrete values ----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "AddressInterpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

unsigned bank::integerBitWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

std::optional<APInt> bank::foldIntegerOp(Operation *op, ArrayRef<APInt> x) {
  unsigned width = integerBitWidth(op->getResult(0).getType());
  return llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
      .Case([&](arith::AddIOp) { return x[0] + x[1]; })
      .Case([&](arith::SubIOp) { return x[0] - x[1]; })
      .Case([&](arith::MulIOp) { return x[0] * x[1]; })
      .Case([&](arith::AndIOp) { return x[0] & x[1]; })
      .Case([&](arith::OrIOp) { return x[0] | x[1]; })
      .Case([&](arith::XOrIOp) { return x[0] ^ x[1]; })
      .Case([&](arith::MinSIOp) { return llvm::APIntOps::smin(x[0], x[1]); })
      .Case([&](arith::MaxSIOp) { return llvm::APIntOps::smax(x[0], x[1]); })
      .Case([&](arith::MinUIOp) { return llvm::APIntOps::umin(x[0], x[1]); })
      .Case([&](arith::MaxUIOp) { return llvm::APIntOps::umax(x[0], x[1]); })
      .Case([&](arith::DivUIOp) -> std::optional<APInt> {
        if (x[1].isZero())
          return std::nullopt;
        return x[0].udiv(x[1]);
      })
      .Case([&](arith::RemUIOp) -> std::optional<APInt> {
        if (x[1].isZero())
          return std::nullopt;
        return x[0].urem(x[1]);
      })
      .Case([&](arith::RemSIOp) -> std::optional<APInt> {
        if (x[1].isZero())
          return std::nullopt;
        return x[0].srem(x[1]);
      })
      .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(
          [&](Operation *) -> std::optional<APInt> {
            if (x[1].isZero() || (x[0].isMinSignedValue() && x[1].isAllOnes()))
              return std::nullopt;
            return llvm::APIntOps::RoundingSDiv(
                x[0], x[1],
                isa<arith::DivSIOp>(op)        ? APInt::Rounding::TOWARD_ZERO
                : isa<arith::FloorDivSIOp>(op) ? APInt::Rounding::DOWN
                                               : APInt::Rounding::UP);
          })
      .Case<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(
          [&](Operation *) -> std::optional<APInt> {
            if (x[1].uge(width))
              return std::nullopt;
            unsigned n = x[1].getZExtValue();
            return isa<arith::ShLIOp>(op)    ? x[0].shl(n)
                   : isa<arith::ShRUIOp>(op) ? x[0].lshr(n)
                                             : x[0].ashr(n);
          })
      .Case([&](arith::CmpIOp cmp) {
        return APInt(1,
                     arith::applyCmpPredicate(cmp.getPredicate(), x[0], x[1]));
      })
      .Case([&](arith::SelectOp) { return x[0].isOne() ? x[1] : x[2]; })
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [&](Operation *) { return x[0].sextOrTrunc(width); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](Operation *) { return x[0].zextOrTrunc(width); })
      .Case([&](arith::TruncIOp) { return x[0].trunc(width); })
      .Default([](Operation *) { return std::nullopt; });
}
