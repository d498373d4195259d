// RUN: layout-opt %s -layout-lower-vector-shape-casts | FileCheck %s

/// An n-D shape cast (a matrix instruction's registers x halves built from a
/// flat fragment) becomes element moves, which the GPU conversions lower;
/// none is left.
// CHECK-LABEL: func.func @to_registers
// CHECK-NOT: vector.shape_cast
// CHECK: vector.shuffle %{{.*}} [0, 1]
// CHECK: vector.insert %{{.*}} [0] : vector<2xf16> into vector<4x2xf16>
// CHECK: vector.shuffle %{{.*}} [6, 7]
// CHECK: %[[R:.*]] = vector.insert %{{.*}} [3] : vector<2xf16> into vector<4x2xf16>
// CHECK-NOT: vector.shape_cast
// CHECK: return %[[R]]
func.func @to_registers(%v: vector<8xf16>) -> vector<4x2xf16> {
  %0 = vector.shape_cast %v : vector<8xf16> to vector<4x2xf16>
  return %0 : vector<4x2xf16>
}

// CHECK-LABEL: func.func @from_registers
// CHECK-NOT: vector.shape_cast
// CHECK: return
func.func @from_registers(%v: vector<2x2xf32>) -> vector<4xf32> {
  %0 = vector.shape_cast %v : vector<2x2xf32> to vector<4xf32>
  return %0 : vector<4xf32>
}
