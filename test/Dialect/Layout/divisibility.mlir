// RUN: layout-opt %s -canonicalize | FileCheck %s
// RUN: layout-opt %s -convert-layout-to-affine | FileCheck %s --check-prefix=LOWER

/// Canonicalization with divisibility facts: `x mod N` of a known multiple
/// of N is 0 (through the arithmetic that keeps the fact); a fact already
/// known, or of a constant that keeps it, folds away; a weaker fact keeps
/// the remainder.

// CHECK-LABEL: func.func @remainders(
// CHECK-SAME: %[[X:[a-z0-9]+]]: index, %[[Y:[a-z0-9]+]]: index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[X8:.*]] = layout.assume_multiple %[[X]], 8 : index
// CHECK: %[[R6:.*]] = arith.remui %{{.*}}, %c16 : index
// CHECK: return %[[C0]], %[[C0]], %[[C0]], %[[R6]], %[[C0]]
func.func @remainders(%x: index, %y: index {layout.multiple_of = 12 : i64})
    -> (index, index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %x8 = layout.assume_multiple %x, 8 : index
  // 8 | x8: x8 mod 4 = 0.
  %r1 = arith.remui %x8, %c4 : index
  // 12 | y: y mod 6 = 0 (signed too).
  %r2 = arith.remsi %y, %c6 : index
  // x8 * 2 + y * 4: both multiples of 16? 16 and 48: gcd 16.
  %a = arith.muli %x8, %c2 : index
  %b = arith.muli %y, %c4 : index
  %s = arith.addi %a, %b : index
  %r3 = arith.remui %s, %c16 : index
  // x8 + y: gcd(8, 12) = 4, not a multiple of 16: kept.
  %t = arith.addi %x8, %y : index
  %r6 = arith.remui %t, %c16 : index
  %r4 = arith.remui %t, %c4 : index
  return %r1, %r2, %r3, %r6, %r4 : index, index, index, index, index
}

// CHECK-LABEL: func.func @folds(
// CHECK-SAME: %[[X:[a-z0-9]+]]: index
// CHECK: %[[C12:.*]] = arith.constant 12 : index
// CHECK: %[[X8:.*]] = layout.assume_multiple %[[X]], 8 : index
// CHECK-NOT: layout.assume_multiple
// CHECK: return %[[C12]], %[[X8]]
func.func @folds(%x: index) -> (index, index) {
  %c12 = arith.constant 12 : index
  %k = layout.assume_multiple %c12, 4 : index
  %x8 = layout.assume_multiple %x, 8 : index
  %x4 = layout.assume_multiple %x8, 4 : index
  return %k, %x4 : index, index
}

// The lowering drops the facts.
// LOWER-LABEL: func.func @lowered(
// LOWER-SAME: %[[X:[a-z0-9]+]]: index
// LOWER-NOT: layout.assume_multiple
// LOWER: return %[[X]]
func.func @lowered(%x: index) -> index {
  %x8 = layout.assume_multiple %x, 8 : index
  return %x8 : index
}
