// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Executes descriptors made by the layout algebra on the CPU, without
/// canonicalizing the algebra ops first; the expected values are CuTe's
/// documented ones.

/// (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8), whose offsets at the
/// 1-D indices 0..11 (colexicographic: index k is the coordinate
/// (k mod 4, k / 4)) the doc lists.
// CHECK: compose: ( 0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42 ){{$}}
func.func @compose() {
  %a = layout.naive [6, 2] strides [8, 2] : !layout.desc<6x2>
  %b = layout.naive [4, 3] strides [3, 1] : !layout.desc<4x3>
  %r = layout.compose %a, %b : (!layout.desc<6x2>, !layout.desc<4x3>) -> !layout.desc<4x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 12 : index
  %buf = memref.alloca() : memref<12xi64>
  scf.for %k = %c0 to %n step %c1 {
    %i = arith.remui %k, %c4 : index
    %j = arith.divui %k, %c4 : index
    %o = layout.offset %r[%i, %j] : !layout.desc<4x3>
    %o64 = arith.index_cast %o : index to i64
    memref.store %o64, %buf[%k] : memref<12xi64>
  }
  %vec = vector.load %buf[%c0] : memref<12xi64>, vector<12xi64>
  vector.print str "compose: "
  vector.print %vec : vector<12xi64>
  return
}

/// A = (2,4):(4,1) takes 0 4 1 5 2 6 3 7; its left inverse (4,2):(2,1)
/// gives back the index of each offset: 0 2 4 6 1 3 5 7.
// CHECK: left_inverse: ( 0, 2, 4, 6, 1, 3, 5, 7 ){{$}}
func.func @left_inverse() {
  %a = layout.naive [2, 4] strides [4, 1] : !layout.desc<2x4>
  %l = layout.left_inverse %a : !layout.desc<2x4> -> !layout.desc<8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8 : index
  %buf = memref.alloca() : memref<8xi64>
  scf.for %k = %c0 to %n step %c1 {
    %o = layout.offset %l[%k] : !layout.desc<8>
    %o64 = arith.index_cast %o : index to i64
    memref.store %o64, %buf[%k] : memref<8xi64>
  }
  %vec = vector.load %buf[%c0] : memref<8xi64>, vector<8xi64>
  vector.print str "left_inverse: "
  vector.print %vec : vector<8xi64>
  return
}

func.func @main() {
  call @compose() : () -> ()
  call @left_inverse() : () -> ()
  return
}
