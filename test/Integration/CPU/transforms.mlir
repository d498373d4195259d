// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Executes layout.offset / layout.valid on the CPU for one descriptor per
/// transform kind and for the seeds' examples, over every top coordinate in
/// row-major order. Each line is the offsets, with -1 where the coordinate
/// is invalid. The expected values are worked out from the formulas in
/// docs/transforms.md (written next to each case), not by the evaluator.

/// identity
// CHECK: pass_through: ( 0, 1, 2, 3, 4 ){{$}}
func.func @pass_through() {
  %d0 = layout.packed [5] : !layout.desc<5>
  %d1 = layout.transform %d0 [#layout.pass_through<5> : [0] -> [0]] : !layout.desc<5> -> !layout.desc<5>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<5xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<5>
    %v = layout.valid %d1[%f] : !layout.desc<5>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<5xi64>
  }
  %vec = vector.load %buf[%c0] : memref<5xi64>, vector<5xi64>
  vector.print str "pass_through: "
  vector.print %vec : vector<5xi64>
  return
}

/// u - 1, valid for 1 <= u < 4
// CHECK: pad: ( -1, 0, 1, 2, -1 ){{$}}
func.func @pad() {
  %d0 = layout.packed [3] : !layout.desc<3>
  %d1 = layout.transform %d0 [#layout.pad<3, 1, 1> : [0] -> [0]] : !layout.desc<3> -> !layout.desc<5>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<5xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<5>
    %v = layout.valid %d1[%f] : !layout.desc<5>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<5xi64>
  }
  %vec = vector.load %buf[%c0] : memref<5xi64>, vector<5xi64>
  vector.print str "pad: "
  vector.print %vec : vector<5xi64>
  return
}

/// u - 2, valid for u >= 2
// CHECK: left_pad: ( -1, -1, 0, 1, 2 ){{$}}
func.func @left_pad() {
  %d0 = layout.packed [3] : !layout.desc<3>
  %d1 = layout.transform %d0 [#layout.left_pad<3, 2> : [0] -> [0]] : !layout.desc<3> -> !layout.desc<5>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<5xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<5>
    %v = layout.valid %d1[%f] : !layout.desc<5>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<5xi64>
  }
  %vec = vector.load %buf[%c0] : memref<5xi64>, vector<5xi64>
  vector.print str "left_pad: "
  vector.print %vec : vector<5xi64>
  return
}

/// u, valid for u < 3
// CHECK: right_pad: ( 0, 1, 2, -1, -1 ){{$}}
func.func @right_pad() {
  %d0 = layout.packed [3] : !layout.desc<3>
  %d1 = layout.transform %d0 [#layout.right_pad<3, 2> : [0] -> [0]] : !layout.desc<3> -> !layout.desc<5>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<5xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<5>
    %v = layout.valid %d1[%f] : !layout.desc<5>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<5xi64>
  }
  %vec = vector.load %buf[%c0] : memref<5xi64>, vector<5xi64>
  vector.print str "right_pad: "
  vector.print %vec : vector<5xi64>
  return
}

/// 12 u0 + u1
// CHECK: embed: ( 0, 1, 2, 12, 13, 14 ){{$}}
func.func @embed() {
  %d0 = layout.packed [15] : !layout.desc<15>
  %d1 = layout.transform %d0 [#layout.embed<[2, 3], [12, 1]> : [0] -> [0, 1]] : !layout.desc<15> -> !layout.desc<2x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 6 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<6xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (2, 3) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<2x3>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<2x3>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<6xi64>
  }
  %vec = vector.load %buf[%c0] : memref<6xi64>, vector<6xi64>
  vector.print str "embed: "
  vector.print %vec : vector<6xi64>
  return
}

/// (u div 5, u mod 5) on strides [10, 1]
// CHECK: merge: ( 0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24, 30, 31, 32, 33, 34 ){{$}}
func.func @merge() {
  %d0 = layout.naive [4, 5] strides [10, 1] : !layout.desc<4x5>
  %d1 = layout.transform %d0 [#layout.merge<[4, 5]> : [0, 1] -> [0]] : !layout.desc<4x5> -> !layout.desc<20>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<20xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<20>
    %v = layout.valid %d1[%f] : !layout.desc<20>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<20xi64>
  }
  %vec = vector.load %buf[%c0] : memref<20xi64>, vector<20xi64>
  vector.print str "merge: "
  vector.print %vec : vector<20xi64>
  return
}

/// 8 u0 + 2 u1 + u2
// CHECK: unmerge: ( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23 ){{$}}
func.func @unmerge() {
  %d0 = layout.packed [24] : !layout.desc<24>
  %d1 = layout.transform %d0 [#layout.unmerge<[3, 4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<24> -> !layout.desc<3x4x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 24 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<24xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:3 = affine.delinearize_index %f into (3, 4, 2) : index, index, index
    %o = layout.offset %d1[%i#0, %i#1, %i#2] : !layout.desc<3x4x2>
    %v = layout.valid %d1[%i#0, %i#1, %i#2] : !layout.desc<3x4x2>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<24xi64>
  }
  %vec = vector.load %buf[%c0] : memref<24xi64>, vector<24xi64>
  vector.print str "unmerge: "
  vector.print %vec : vector<24xi64>
  return
}

/// the new dim is ignored
// CHECK: replicate: ( 0, 0, 1, 1, 2, 2 ){{$}}
func.func @replicate() {
  %d0 = layout.packed [3] : !layout.desc<3>
  %d1 = layout.transform %d0 [#layout.pass_through<3> : [0] -> [0], #layout.replicate<[2]> : [] -> [1]] : !layout.desc<3> -> !layout.desc<3x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 6 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<6xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (3, 2) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<3x2>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<3x2>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<6xi64>
  }
  %vec = vector.load %buf[%c0] : memref<6xi64>, vector<6xi64>
  vector.print str "replicate: "
  vector.print %vec : vector<6xi64>
  return
}

/// dim 0 pinned to 2
// CHECK: freeze: ( 8, 9, 10, 11 ){{$}}
func.func @freeze() {
  %d0 = layout.packed [3, 4] : !layout.desc<3x4>
  %d1 = layout.transform %d0 [#layout.freeze<2> : [0] -> [], #layout.pass_through<4> : [1] -> [0]] : !layout.desc<3x4> -> !layout.desc<4>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<4xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<4>
    %v = layout.valid %d1[%f] : !layout.desc<4>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<4xi64>
  }
  %vec = vector.load %buf[%c0] : memref<4xi64>, vector<4xi64>
  vector.print str "freeze: "
  vector.print %vec : vector<4xi64>
  return
}

/// u + 16
// CHECK: offset: ( 16, 17, 18, 19, 20, 21 ){{$}}
func.func @offset() {
  %d0 = layout.packed [64] : !layout.desc<64>
  %d1 = layout.transform %d0 [#layout.offset<6, 16> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<6>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 6 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<6xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<6>
    %v = layout.valid %d1[%f] : !layout.desc<6>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<6xi64>
  }
  %vec = vector.load %buf[%c0] : memref<6xi64>, vector<6xi64>
  vector.print str "offset: "
  vector.print %vec : vector<6xi64>
  return
}

/// u + 2
// CHECK: slice: ( 2, 3, 4, 5, 6 ){{$}}
func.func @slice() {
  %d0 = layout.packed [10] : !layout.desc<10>
  %d1 = layout.transform %d0 [#layout.slice<10, 2, 7> : [0] -> [0]] : !layout.desc<10> -> !layout.desc<5>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<5xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<5>
    %v = layout.valid %d1[%f] : !layout.desc<5>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<5xi64>
  }
  %vec = vector.load %buf[%c0] : memref<5xi64>, vector<5xi64>
  vector.print str "slice: "
  vector.print %vec : vector<5xi64>
  return
}

/// u mod 3
// CHECK: modulo: ( 0, 1, 2, 0, 1, 2, 0 ){{$}}
func.func @modulo() {
  %d0 = layout.packed [4] : !layout.desc<4>
  %d1 = layout.transform %d0 [#layout.modulo<3, 7> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<7>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 7 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<7xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<7>
    %v = layout.valid %d1[%f] : !layout.desc<7>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<7xi64>
  }
  %vec = vector.load %buf[%c0] : memref<7xi64>, vector<7xi64>
  vector.print str "modulo: "
  vector.print %vec : vector<7xi64>
  return
}

/// (u0, u1 xor (u0 mod 4))
// CHECK: xor: ( 0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9 ){{$}}
func.func @xor() {
  %d0 = layout.packed [3, 4] : !layout.desc<3x4>
  %d1 = layout.transform %d0 [#layout.xor<[3, 4]> : [0, 1] -> [0, 1]] : !layout.desc<3x4> -> !layout.desc<3x4>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 12 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<12xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (3, 4) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<3x4>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<3x4>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<12xi64>
  }
  %vec = vector.load %buf[%c0] : memref<12xi64>, vector<12xi64>
  vector.print str "xor: "
  vector.print %vec : vector<12xi64>
  return
}

/// (u0, (u1 + u0) mod 3)
// CHECK: rotate: ( 0, 1, 2, 4, 5, 3 ){{$}}
func.func @rotate() {
  %d0 = layout.packed [2, 3] : !layout.desc<2x3>
  %d1 = layout.transform %d0 [#layout.rotate<[2, 3]> : [0, 1] -> [0, 1]] : !layout.desc<2x3> -> !layout.desc<2x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 6 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<6xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (2, 3) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<2x3>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<2x3>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<6xi64>
  }
  %vec = vector.load %buf[%c0] : memref<6xi64>, vector<6xi64>
  vector.print str "rotate: "
  vector.print %vec : vector<6xi64>
  return
}

/// u xor ((u >> 3) & 0b110)
// CHECK: swizzle: ( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 16, 17, 22, 23, 20, 21, 26, 27, 24, 25, 30, 31, 28, 29, 36, 37, 38, 39, 32, 33, 34, 35, 44, 45, 46, 47, 40, 41, 42, 43, 54, 55, 52, 53, 50, 51, 48, 49, 62, 63, 60, 61, 58, 59, 56, 57 ){{$}}
func.func @swizzle() {
  %d0 = layout.packed [64] : !layout.desc<64>
  %d1 = layout.transform %d0 [#layout.swizzle<2, 1, 3, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<64xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<64>
    %v = layout.valid %d1[%f] : !layout.desc<64>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<64xi64>
  }
  %vec = vector.load %buf[%c0] : memref<64xi64>, vector<64xi64>
  vector.print str "swizzle: "
  vector.print %vec : vector<64xi64>
  return
}

/// u xor ((u << 2) & 0b11000)
// CHECK: swizzle_left: ( 0, 1, 10, 11, 20, 21, 30, 31, 8, 9, 2, 3, 28, 29, 22, 23, 16, 17, 26, 27, 4, 5, 14, 15, 24, 25, 18, 19, 12, 13, 6, 7 ){{$}}
func.func @swizzle_left() {
  %d0 = layout.packed [32] : !layout.desc<32>
  %d1 = layout.transform %d0 [#layout.swizzle<2, 3, -2, 32> : [0] -> [0]] : !layout.desc<32> -> !layout.desc<32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 32 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<32xi64>
  scf.for %f = %c0 to %n step %c1 {
    %o = layout.offset %d1[%f] : !layout.desc<32>
    %v = layout.valid %d1[%f] : !layout.desc<32>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<32xi64>
  }
  %vec = vector.load %buf[%c0] : memref<32xi64>, vector<32xi64>
  vector.print str "swizzle_left: "
  vector.print %vec : vector<32xi64>
  return
}

/// pieces [3, 2]: (a, b, s) -> a if s = 0 else 3 + b
// CHECK: sunder: ( 0, 3, 0, 4, 1, 3, 1, 4, 2, 3, 2, 4 ){{$}}
func.func @sunder() {
  %d0 = layout.packed [5] : !layout.desc<5>
  %d1 = layout.transform %d0 [#layout.sunder<[3, 2]> : [0] -> [0, 1, 2]] : !layout.desc<5> -> !layout.desc<3x2x2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 12 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<12xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:3 = affine.delinearize_index %f into (3, 2, 2) : index, index, index
    %o = layout.offset %d1[%i#0, %i#1, %i#2] : !layout.desc<3x2x2>
    %v = layout.valid %d1[%i#0, %i#1, %i#2] : !layout.desc<3x2x2>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<12xi64>
  }
  %vec = vector.load %buf[%c0] : memref<12xi64>, vector<12xi64>
  vector.print str "sunder: "
  vector.print %vec : vector<12xi64>
  return
}

/// packed [2, 6] as 2x2x3: 6 u0 + 3 u1 + u2
// CHECK: seed_view_2x2x3: ( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ){{$}}
func.func @seed_view_2x2x3() {
  %d0 = layout.packed [2, 6] : !layout.desc<2x6>
  %d1 = layout.transform %d0 [#layout.pass_through<2> : [0] -> [0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]] : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 12 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<12xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:3 = affine.delinearize_index %f into (2, 2, 3) : index, index, index
    %o = layout.offset %d1[%i#0, %i#1, %i#2] : !layout.desc<2x2x3>
    %v = layout.valid %d1[%i#0, %i#1, %i#2] : !layout.desc<2x2x3>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<12xi64>
  }
  %vec = vector.load %buf[%c0] : memref<12xi64>, vector<12xi64>
  vector.print str "seed_view_2x2x3: "
  vector.print %vec : vector<12xi64>
  return
}

/// 4x3 transpose of a 3x4 row-major: 4 j + i
// CHECK: seed_transpose: ( 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11 ){{$}}
func.func @seed_transpose() {
  %d0 = layout.packed [3, 4] : !layout.desc<3x4>
  %d1 = layout.transform %d0 [#layout.pass_through<3> : [0] -> [1], #layout.pass_through<4> : [1] -> [0]] : !layout.desc<3x4> -> !layout.desc<4x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 12 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<12xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (4, 3) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<4x3>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<4x3>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<12xi64>
  }
  %vec = vector.load %buf[%c0] : memref<12xi64>, vector<12xi64>
  vector.print str "seed_transpose: "
  vector.print %vec : vector<12xi64>
  return
}

/// H, W of 4x4 padded by 1: valid inside, offset 4 (h - 1) + (w - 1)
// CHECK: seed_conv_pad: ( -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, 4, 5, 6, 7, -1, -1, 8, 9, 10, 11, -1, -1, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1 ){{$}}
func.func @seed_conv_pad() {
  %d0 = layout.packed [4, 4] : !layout.desc<4x4>
  %d1 = layout.transform %d0 [#layout.pad<4, 1, 1> : [0] -> [0], #layout.pad<4, 1, 1> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<6x6>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 36 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<36xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (6, 6) : index, index
    %o = layout.offset %d1[%i#0, %i#1] : !layout.desc<6x6>
    %v = layout.valid %d1[%i#0, %i#1] : !layout.desc<6x6>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<36xi64>
  }
  %vec = vector.load %buf[%c0] : memref<36xi64>, vector<36xi64>
  vector.print str "seed_conv_pad: "
  vector.print %vec : vector<36xi64>
  return
}

/// 5-D [2, 2, 2, 3, 2] merged into 3-D [2, 4, 6] as dims (0), (1, 2), (3, 4)
// CHECK: seed_block_merge: ( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47 ){{$}}
func.func @seed_block_merge() {
  %d0 = layout.packed [2, 2, 2, 3, 2] : !layout.desc<2x2x2x3x2>
  %d1 = layout.transform %d0 [#layout.pass_through<2> : [0] -> [0], #layout.merge<[2, 2]> : [1, 2] -> [1], #layout.merge<[3, 2]> : [3, 4] -> [2]] : !layout.desc<2x2x2x3x2> -> !layout.desc<2x4x6>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 48 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<48xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:3 = affine.delinearize_index %f into (2, 4, 6) : index, index, index
    %o = layout.offset %d1[%i#0, %i#1, %i#2] : !layout.desc<2x4x6>
    %v = layout.valid %d1[%i#0, %i#1, %i#2] : !layout.desc<2x4x6>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<48xi64>
  }
  %vec = vector.load %buf[%c0] : memref<48xi64>, vector<48xi64>
  vector.print str "seed_block_merge: "
  vector.print %vec : vector<48xi64>
  return
}

/// 1-D conv im2col: W 5 padded by 1, window 3: (o, k) -> o + k - 1 (valid inside)
// CHECK: seed_im2col: ( -1, 0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, -1 ){{$}}
func.func @seed_im2col() {
  %d0 = layout.packed [5] : !layout.desc<5>
  %d1 = layout.transform %d0 [#layout.pad<5, 1, 1> : [0] -> [0]] : !layout.desc<5> -> !layout.desc<7>
  %d2 = layout.transform %d1 [#layout.embed<[5, 3], [1, 1]> : [0] -> [0, 1]] : !layout.desc<7> -> !layout.desc<5x3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 15 : index
  %minus1 = arith.constant -1 : i64
  %buf = memref.alloca() : memref<15xi64>
  scf.for %f = %c0 to %n step %c1 {
    %i:2 = affine.delinearize_index %f into (5, 3) : index, index
    %o = layout.offset %d2[%i#0, %i#1] : !layout.desc<5x3>
    %v = layout.valid %d2[%i#0, %i#1] : !layout.desc<5x3>
    %o64 = arith.index_cast %o : index to i64
    %r = arith.select %v, %o64, %minus1 : i64
    memref.store %r, %buf[%f] : memref<15xi64>
  }
  %vec = vector.load %buf[%c0] : memref<15xi64>, vector<15xi64>
  vector.print str "seed_im2col: "
  vector.print %vec : vector<15xi64>
  return
}

func.func @main() {
  call @pass_through() : () -> ()
  call @pad() : () -> ()
  call @left_pad() : () -> ()
  call @right_pad() : () -> ()
  call @embed() : () -> ()
  call @merge() : () -> ()
  call @unmerge() : () -> ()
  call @replicate() : () -> ()
  call @freeze() : () -> ()
  call @offset() : () -> ()
  call @slice() : () -> ()
  call @modulo() : () -> ()
  call @xor() : () -> ()
  call @rotate() : () -> ()
  call @swizzle() : () -> ()
  call @swizzle_left() : () -> ()
  call @sunder() : () -> ()
  call @seed_view_2x2x3() : () -> ()
  call @seed_transpose() : () -> ()
  call @seed_conv_pad() : () -> ()
  call @seed_block_merge() : () -> ()
  call @seed_im2col() : () -> ()
  return
}
