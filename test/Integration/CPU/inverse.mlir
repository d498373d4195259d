// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Executes layout.upper on the CPU for injective chains whose inverse has no
/// closed form: for every offset o of the element space, the top coordinate
/// u = upper(o) as its row-major index, or -1 where o has no preimage
/// (offset(u) != o or u invalid). The expected values are worked out by hand
/// next to each case.

/// embed<[3, 2], [2, 3]>: (u0, u1) -> 2 u0 + 3 u1 takes 0 2 4 3 5 7 for
/// (0,0) (1,0) (2,0) (0,1) (1,1) (2,1); the coefficients do not nest
/// (3 < 1 + 2 * 2), so the inverse searches u1 and solves u0.
// CHECK: embed: ( 0, -1, 2, 1, 4, 3, -1, 5 ){{$}}
func.func @embed() {
  %p = layout.packed [8] : !layout.desc<8>
  %d = layout.transform %p [#layout.embed<[3, 2], [2, 3]> : [0] -> [0, 1]] : !layout.desc<8> -> !layout.desc<3x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 8 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<8xi64>
  scf.for %o = %c0 to %n step %c1 {
    %u:2 = layout.upper %d[%o] : !layout.desc<3x2>
    %back = layout.offset %d[%u#0, %u#1] : !layout.desc<3x2>
    %v = layout.valid %d[%u#0, %u#1] : !layout.desc<3x2>
    %same = arith.cmpi eq, %back, %o : index
    %ok = arith.andi %v, %same : i1
    %row = arith.muli %u#0, %c2 : index
    %lin = arith.addi %row, %u#1 : index
    %lin64 = arith.index_cast %lin : index to i64
    %r = arith.select %ok, %lin64, %minus1 : i64
    memref.store %r, %buf[%o] : memref<8xi64>
  }
  %vec = vector.load %buf[%c0] : memref<8xi64>, vector<8xi64>
  vector.print str "embed: "
  vector.print %vec : vector<8xi64>
  return
}

/// The same map as a naive base: lengths [3, 2], strides [2, 3], space 8.
// CHECK: naive: ( 0, -1, 2, 1, 4, 3, -1, 5 ){{$}}
func.func @naive() {
  %d = layout.naive [3, 2] strides [2, 3] space 8 : !layout.desc<3x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 8 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<8xi64>
  scf.for %o = %c0 to %n step %c1 {
    %u:2 = layout.upper %d[%o] : !layout.desc<3x2>
    %back = layout.offset %d[%u#0, %u#1] : !layout.desc<3x2>
    %v = layout.valid %d[%u#0, %u#1] : !layout.desc<3x2>
    %same = arith.cmpi eq, %back, %o : index
    %ok = arith.andi %v, %same : i1
    %row = arith.muli %u#0, %c2 : index
    %lin = arith.addi %row, %u#1 : index
    %lin64 = arith.index_cast %lin : index to i64
    %r = arith.select %ok, %lin64, %minus1 : i64
    memref.store %r, %buf[%o] : memref<8xi64>
  }
  %vec = vector.load %buf[%c0] : memref<8xi64>, vector<8xi64>
  vector.print str "naive: "
  vector.print %vec : vector<8xi64>
  return
}

/// sunder<[4, 2]> then right_pad<4, 2> on piece 0: top (u0, u1, s) in
/// 6x2x2, offset u0 (valid for u0 < 4) when s = 0, 4 + u1 when s = 1. The
/// inverse of o < 4 is (o, 0, 0), index 4 o; of o = 4, 5 it is (0, o - 4, 1),
/// index 2 (o - 4) + 1. The pad keeps 0 at 0 (and valid), so the free
/// piece's representative 0 survives it.
// CHECK: sunder_right_pad: ( 0, 4, 8, 12, 1, 3 ){{$}}
func.func @sunder_right_pad() {
  %p = layout.packed [6] : !layout.desc<6>
  %s = layout.transform %p [#layout.sunder<[4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<6> -> !layout.desc<4x2x2>
  %d = layout.transform %s [#layout.right_pad<4, 2> : [0] -> [0], #layout.pass_through<2> : [1] -> [1], #layout.pass_through<2> : [2] -> [2]] : !layout.desc<4x2x2> -> !layout.desc<6x2x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 6 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<6xi64>
  scf.for %o = %c0 to %n step %c1 {
    %u:3 = layout.upper %d[%o] : !layout.desc<6x2x2>
    %back = layout.offset %d[%u#0, %u#1, %u#2] : !layout.desc<6x2x2>
    %v = layout.valid %d[%u#0, %u#1, %u#2] : !layout.desc<6x2x2>
    %same = arith.cmpi eq, %back, %o : index
    %ok = arith.andi %v, %same : i1
    %a = arith.muli %u#0, %c4 : index
    %b = arith.muli %u#1, %c2 : index
    %ab = arith.addi %a, %b : index
    %lin = arith.addi %ab, %u#2 : index
    %lin64 = arith.index_cast %lin : index to i64
    %r = arith.select %ok, %lin64, %minus1 : i64
    memref.store %r, %buf[%o] : memref<6xi64>
  }
  %vec = vector.load %buf[%c0] : memref<6xi64>, vector<6xi64>
  vector.print str "sunder_right_pad: "
  vector.print %vec : vector<6xi64>
  return
}

func.func @main() {
  call @embed() : () -> ()
  call @naive() : () -> ()
  call @sunder_right_pad() : () -> ()
  return
}
