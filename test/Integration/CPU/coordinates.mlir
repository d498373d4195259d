// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Coordinates walked through the seeds' descriptors on the CPU, carried by
/// scf.for: at every step the coordinate's offset and validity are compared
/// with layout.offset / layout.valid of the top index recomputed from
/// scratch, and the mismatches counted. The merge walk's offsets are also
/// printed: packed-with-strides [2, 3, 4] (strides 100, 10, 1) merged into
/// 24 visits 100 a + 10 b + c for the digits (a, b, c) of 0..23.

// CHECK: merge walk: ( 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 100, 101, 102, 103, 110, 111, 112, 113, 120, 121, 122, 123 )
// CHECK-NEXT: merge, step 1: 0 mismatches
// CHECK-NEXT: merge, step 5: 0 mismatches
// CHECK-NEXT: merge, step -7: 0 mismatches
// CHECK-NEXT: merge, dynamic step 3: 0 mismatches
// CHECK-NEXT: conv window, steps (0, 1) then (1, -3): 0 mismatches
// CHECK-NEXT: 3-D block merge, step (1, 3): 0 mismatches

/// Walks %d (rank 1) from %start by %n steps of the static step 1, 5 or -7
/// (selected by %which), or of the dynamic %dyn, counting mismatches.
func.func @walk1(%start: index, %n: index, %which: index, %dyn: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %p = layout.naive [2, 3, 4] strides [100, 10, 1] : !layout.desc<2x3x4>
  %m = layout.transform %p [#layout.merge<[2, 3, 4]> : [0, 1, 2] -> [0]] : !layout.desc<2x3x4> -> !layout.desc<24>
  %c = layout.make_coord %m[%start] : !layout.desc<24> -> !layout.coord<24, 4>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %c, %top = %start, %bad = %zero) -> (!layout.coord<24, 4>, index, i64) {
    %o = layout.coord_offset %m, %cur : !layout.desc<24>, !layout.coord<24, 4>
    %e = layout.offset %m[%top] : !layout.desc<24>
    %ne = arith.cmpi ne, %o, %e : index
    %inc = arith.select %ne, %one, %zero : i64
    %bad2 = arith.addi %bad, %inc : i64
    %is1 = arith.cmpi eq, %which, %c0 : index
    %is5 = arith.cmpi eq, %which, %c1 : index
    %is7 = arith.cmpi eq, %which, %c2 : index
    %next:2 = scf.if %is1 -> (!layout.coord<24, 4>, index) {
      %n1 = layout.move_coord %m, %cur by [1] : !layout.desc<24>, !layout.coord<24, 4>
      %t1 = arith.addi %top, %c1 : index
      scf.yield %n1, %t1 : !layout.coord<24, 4>, index
    } else {
      %r5:2 = scf.if %is5 -> (!layout.coord<24, 4>, index) {
        %n5 = layout.move_coord %m, %cur by [5] : !layout.desc<24>, !layout.coord<24, 4>
        %c5 = arith.constant 5 : index
        %t5 = arith.addi %top, %c5 : index
        scf.yield %n5, %t5 : !layout.coord<24, 4>, index
      } else {
        %r7:2 = scf.if %is7 -> (!layout.coord<24, 4>, index) {
          %n7 = layout.move_coord %m, %cur by [-7] : !layout.desc<24>, !layout.coord<24, 4>
          %c7 = arith.constant 7 : index
          %t7 = arith.subi %top, %c7 : index
          scf.yield %n7, %t7 : !layout.coord<24, 4>, index
        } else {
          %nd = layout.move_coord %m, %cur[%dyn] : !layout.desc<24>, !layout.coord<24, 4>
          %td = arith.addi %top, %dyn : index
          scf.yield %nd, %td : !layout.coord<24, 4>, index
        }
        scf.yield %r7#0, %r7#1 : !layout.coord<24, 4>, index
      }
      scf.yield %r5#0, %r5#1 : !layout.coord<24, 4>, index
    }
    scf.yield %next#0, %next#1, %bad2 : !layout.coord<24, 4>, index, i64
  }
  return %r#2 : i64
}

func.func @print_walk() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %p = layout.naive [2, 3, 4] strides [100, 10, 1] : !layout.desc<2x3x4>
  %m = layout.transform %p [#layout.merge<[2, 3, 4]> : [0, 1, 2] -> [0]] : !layout.desc<2x3x4> -> !layout.desc<24>
  %c = layout.make_coord %m[%c0] : !layout.desc<24> -> !layout.coord<24, 4>
  %buf = memref.alloca() : memref<24xi64>
  %r = scf.for %i = %c0 to %c24 step %c1 iter_args(%cur = %c) -> (!layout.coord<24, 4>) {
    %o = layout.coord_offset %m, %cur : !layout.desc<24>, !layout.coord<24, 4>
    %o64 = arith.index_cast %o : index to i64
    memref.store %o64, %buf[%i] : memref<24xi64>
    %n = layout.move_coord %m, %cur by [1] : !layout.desc<24>, !layout.coord<24, 4>
    scf.yield %n : !layout.coord<24, 4>
  }
  %v = vector.load %buf[%c0] : memref<24xi64>, vector<24xi64>
  vector.print str "merge walk: "
  vector.print %v : vector<24xi64>
  return
}

/// A 1-D convolution's im2col view (W = 5 padded by 1, window 3): walk the
/// window dim by 1 and the output dim by 1 (with the window back by 3),
/// comparing offset and validity; 60 steps cover every (o, k) and beyond.
func.func @conv() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c20 = arith.constant 20 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %p = layout.packed [5] : !layout.desc<5>
  %pd = layout.transform %p [#layout.pad<5, 1, 1> : [0] -> [0]] : !layout.desc<5> -> !layout.desc<7>
  %e = layout.transform %pd [#layout.embed<[5, 3], [1, 1]> : [0] -> [0, 1]] : !layout.desc<7> -> !layout.desc<5x3>
  %c = layout.make_coord %e[%c0, %c0] : !layout.desc<5x3> -> !layout.coord<5x3, 4>
  %r:4 = scf.for %s = %c0 to %c20 step %c1 iter_args(%cur = %c, %o = %c0, %k = %c0, %bad = %zero) -> (!layout.coord<5x3, 4>, index, index, i64) {
    %inner:4 = scf.for %t = %c0 to %c3 step %c1 iter_args(%cc = %cur, %kk = %k, %b = %bad, %dummy = %c0) -> (!layout.coord<5x3, 4>, index, i64, index) {
      %off = layout.coord_offset %e, %cc : !layout.desc<5x3>, !layout.coord<5x3, 4>
      %val = layout.coord_valid %e, %cc : !layout.desc<5x3>, !layout.coord<5x3, 4>
      %eoff = layout.offset %e[%o, %kk] : !layout.desc<5x3>
      %eval = layout.valid %e[%o, %kk] : !layout.desc<5x3>
      %vne = arith.cmpi ne, %val, %eval : i1
      %one_ne = arith.cmpi ne, %off, %eoff : index
      %one_bad = arith.andi %one_ne, %eval : i1
      %any = arith.ori %vne, %one_bad : i1
      %inc = arith.select %any, %one, %zero : i64
      %b2 = arith.addi %b, %inc : i64
      %next = layout.move_coord %e, %cc by [0, 1] : !layout.desc<5x3>, !layout.coord<5x3, 4>
      %k2 = arith.addi %kk, %c1 : index
      scf.yield %next, %k2, %b2, %c0 : !layout.coord<5x3, 4>, index, i64, index
    }
    %back = layout.move_coord %e, %inner#0 by [1, -3] : !layout.desc<5x3>, !layout.coord<5x3, 4>
    %o2 = arith.addi %o, %c1 : index
    %k3 = arith.subi %inner#1, %c3 : index
    scf.yield %back, %o2, %k3, %inner#2 : !layout.coord<5x3, 4>, index, index, i64
  }
  return %r#3 : i64
}

/// The seed's 5-D to 3-D block merge (dims (0), (1, 2), (3, 4) of
/// [2, 2, 2, 3, 2] merged into [2, 4, 6]), walked by (1, 3) from (0, 0).
func.func @block_merge() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c30 = arith.constant 30 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %p = layout.packed [2, 2, 2, 3, 2] : !layout.desc<2x2x2x3x2>
  %m = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.merge<[2, 2]> : [1, 2] -> [1], #layout.merge<[3, 2]> : [3, 4] -> [2]] : !layout.desc<2x2x2x3x2> -> !layout.desc<2x4x6>
  %c = layout.make_coord %m[%c0, %c0, %c0] : !layout.desc<2x4x6> -> !layout.coord<2x4x6, 8>
  %r:4 = scf.for %i = %c0 to %c30 step %c1 iter_args(%cur = %c, %y = %c0, %z = %c0, %bad = %zero) -> (!layout.coord<2x4x6, 8>, index, index, i64) {
    %o = layout.coord_offset %m, %cur : !layout.desc<2x4x6>, !layout.coord<2x4x6, 8>
    %e = layout.offset %m[%c0, %y, %z] : !layout.desc<2x4x6>
    %ne = arith.cmpi ne, %o, %e : index
    %inc = arith.select %ne, %one, %zero : i64
    %b2 = arith.addi %bad, %inc : i64
    %n = layout.move_coord %m, %cur by [0, 1, 3] : !layout.desc<2x4x6>, !layout.coord<2x4x6, 8>
    %y2 = arith.addi %y, %c1 : index
    %z2 = arith.addi %z, %c3 : index
    scf.yield %n, %y2, %z2, %b2 : !layout.coord<2x4x6, 8>, index, index, i64
  }
  return %r#3 : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c30 = arith.constant 30 : index
  %c40 = arith.constant 40 : index
  %c200 = arith.constant 200 : index
  call @print_walk() : () -> ()
  %b1 = call @walk1(%c0, %c40, %c0, %c0) : (index, index, index, index) -> i64
  vector.print str "merge, step 1: "
  vector.print %b1 : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  %b5 = call @walk1(%c3, %c30, %c1, %c0) : (index, index, index, index) -> i64
  vector.print str "merge, step 5: "
  vector.print %b5 : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  %b7 = call @walk1(%c200, %c40, %c2, %c0) : (index, index, index, index) -> i64
  vector.print str "merge, step -7: "
  vector.print %b7 : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  %bd = call @walk1(%c1, %c30, %c3, %c3) : (index, index, index, index) -> i64
  vector.print str "merge, dynamic step 3: "
  vector.print %bd : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  %bc = call @conv() : () -> i64
  vector.print str "conv window, steps (0, 1) then (1, -3): "
  vector.print %bc : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  %bb = call @block_merge() : () -> i64
  vector.print str "3-D block merge, step (1, 3): "
  vector.print %bb : i64 punctuation <no_punctuation>
  vector.print str " mismatches\n"
  return
}
