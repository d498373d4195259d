// RUN: layout-opt %s -canonicalize -split-input-file | FileCheck %s

/// CuTe's worked layout-algebra examples (CUTLASS
/// media/docs/cpp/cute/02_layout_algebra.md), each op canonicalized to the
/// descriptor of the documented result: a naive base over its leaves and a
/// stage of merges. A mode of several leaves is a merge listing its leaves
/// last first (the dialect's merge is row-major, CuTe's order
/// colexicographic), so CuTe's ((2,2),3):((24,2),8) reads as base
/// [2, 2, 3] strides [24, 2, 8] with merge [1, 0] -> [0].

// CHECK-LABEL: func @compose
// (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
// CHECK: %[[B:.*]] = layout.naive [2, 2, 3] strides [24, 2, 8] : !layout.desc<2x2x3>
// CHECK: layout.transform %[[B]] [#layout.merge<[2, 2]> : [1, 0] -> [0], #layout.pass_through<3> : [2] -> [1]] : !layout.desc<2x2x3> -> !layout.desc<4x3>
func.func @compose() -> !layout.desc<4x3> {
  %a = layout.naive [6, 2] strides [8, 2] : !layout.desc<6x2>
  %b = layout.naive [4, 3] strides [3, 1] : !layout.desc<4x3>
  %c = layout.compose %a, %b : (!layout.desc<6x2>, !layout.desc<4x3>) -> !layout.desc<4x3>
  return %c : !layout.desc<4x3>
}

// -----

// CHECK-LABEL: func @compose_20_2
// 20:2 o (5,4):(4,1) = (5,4):(8,2); (10,2):(16,4) o (5,4):(1,5) =
// (5,(2,2)):(16,(80,4))
// CHECK: %[[A:.*]] = layout.naive [5, 4] strides [8, 2] : !layout.desc<5x4>
// CHECK: %[[B:.*]] = layout.naive [5, 2, 2] strides [16, 80, 4] : !layout.desc<5x2x2>
// CHECK: %[[C:.*]] = layout.transform %[[B]] [#layout.pass_through<5> : [0] -> [0], #layout.merge<[2, 2]> : [2, 1] -> [1]] : !layout.desc<5x2x2> -> !layout.desc<5x4>
// CHECK: return %[[A]], %[[C]]
func.func @compose_20_2() -> (!layout.desc<5x4>, !layout.desc<5x4>) {
  %a = layout.naive [20] strides [2] : !layout.desc<20>
  %b = layout.naive [5, 4] strides [4, 1] : !layout.desc<5x4>
  %c = layout.compose %a, %b : (!layout.desc<20>, !layout.desc<5x4>) -> !layout.desc<5x4>
  %a2 = layout.naive [10, 2] strides [16, 4] : !layout.desc<10x2>
  %b2 = layout.naive [5, 4] strides [1, 5] : !layout.desc<5x4>
  %c2 = layout.compose %a2, %b2 : (!layout.desc<10x2>, !layout.desc<5x4>) -> !layout.desc<5x4>
  return %c, %c2 : !layout.desc<5x4>, !layout.desc<5x4>
}

// -----

// CHECK-LABEL: func @compose_by_mode
// (12,(4,8)):(59,(13,1)) o <3:4, 8:2> = (3,(2,4)):(236,(26,1)); the mode
// (4,8):(13,1) is a merge of [8, 4] over dims [2, 1] of strides 13, 1.
// CHECK: %[[B:.*]] = layout.naive [3, 2, 4] strides [236, 26, 1] : !layout.desc<3x2x4>
// CHECK: layout.transform %[[B]] [#layout.pass_through<3> : [0] -> [0], #layout.merge<[4, 2]> : [2, 1] -> [1]] : !layout.desc<3x2x4> -> !layout.desc<3x8>
func.func @compose_by_mode() -> !layout.desc<3x8> {
  %n = layout.naive [12, 8, 4] strides [59, 1, 13] : !layout.desc<12x8x4>
  %a = layout.transform %n [#layout.pass_through<12> : [0] -> [0], #layout.merge<[8, 4]> : [1, 2] -> [1]] : !layout.desc<12x8x4> -> !layout.desc<12x32>
  %t0 = layout.naive [3] strides [4] : !layout.desc<3>
  %t1 = layout.naive [8] strides [2] : !layout.desc<8>
  %c = layout.compose %a, %t0, %t1 : (!layout.desc<12x32>, !layout.desc<3>, !layout.desc<8>) -> !layout.desc<3x8>
  return %c : !layout.desc<3x8>
}

// -----

// CHECK-LABEL: func @complement
// complement(4:2, 24) = (2,3):(1,8); complement((2,2):(1,6), 24) =
// (3,2):(2,12); complement((4,6):(1,4), 24) = 1:0
// CHECK-DAG: %[[A:.*]] = layout.naive [2, 3] strides [1, 8] : !layout.desc<2x3>
// CHECK-DAG: %[[B:.*]] = layout.naive [3, 2] strides [2, 12] : !layout.desc<3x2>
// CHECK-DAG: %[[C:.*]] = layout.naive [1] strides [0] : !layout.desc<1>
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @complement() -> (!layout.desc<2x3>, !layout.desc<3x2>, !layout.desc<1>) {
  %a = layout.naive [4] strides [2] : !layout.desc<4>
  %c = layout.complement %a, 24 : !layout.desc<4> -> !layout.desc<2x3>
  %b = layout.naive [2, 2] strides [1, 6] : !layout.desc<2x2>
  %d = layout.complement %b, 24 : !layout.desc<2x2> -> !layout.desc<3x2>
  %e = layout.naive [4, 6] strides [1, 4] : !layout.desc<4x6>
  %f = layout.complement %e, 24 : !layout.desc<4x6> -> !layout.desc<1>
  return %c, %d, %f : !layout.desc<2x3>, !layout.desc<3x2>, !layout.desc<1>
}

// -----

// CHECK-LABEL: func @coalesce
// coalesce((2,(1,6)):(1,(6,2))) = 12:1
// CHECK: %[[A:.*]] = layout.naive [12] strides [1] : !layout.desc<12>
// CHECK: return %[[A]]
func.func @coalesce() -> !layout.desc<12> {
  %n = layout.naive [2, 6, 1] strides [1, 2, 6] : !layout.desc<2x6x1>
  %a = layout.transform %n [#layout.pass_through<2> : [0] -> [0], #layout.merge<[6, 1]> : [1, 2] -> [1]] : !layout.desc<2x6x1> -> !layout.desc<2x6>
  %c = layout.coalesce %a : !layout.desc<2x6> -> !layout.desc<12>
  return %c : !layout.desc<12>
}

// -----

// CHECK-LABEL: func @divide
// (4,2,3):(2,1,8) / 4:2 = ((2,2),(2,3)):((4,1),(2,8)), and
// (9,(4,8)):(59,(13,1)) / <3:3, (2,4):(1,8)> =
// ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))
// CHECK: %[[A:.*]] = layout.naive [2, 2, 2, 3] strides [4, 1, 2, 8] : !layout.desc<2x2x2x3>
// CHECK: %[[B:.*]] = layout.transform %[[A]] [#layout.merge<[2, 2]> : [1, 0] -> [0], #layout.merge<[3, 2]> : [3, 2] -> [1]] : !layout.desc<2x2x2x3> -> !layout.desc<4x6>
// CHECK: %[[C:.*]] = layout.naive [3, 3, 2, 4, 2, 2] strides [177, 59, 13, 2, 26, 1] : !layout.desc<3x3x2x4x2x2>
// CHECK: %[[D:.*]] = layout.transform %[[C]] [#layout.merge<[3, 3]> : [1, 0] -> [0], #layout.merge<[2, 2, 4, 2]> : [5, 4, 3, 2] -> [1]] : !layout.desc<3x3x2x4x2x2> -> !layout.desc<9x32>
// CHECK: return %[[B]], %[[D]]
func.func @divide() -> (!layout.desc<4x6>, !layout.desc<9x32>) {
  %a = layout.naive [4, 2, 3] strides [2, 1, 8] : !layout.desc<4x2x3>
  %t = layout.naive [4] strides [2] : !layout.desc<4>
  %d = layout.logical_divide %a, %t : (!layout.desc<4x2x3>, !layout.desc<4>) -> !layout.desc<4x6>
  %n = layout.naive [9, 8, 4] strides [59, 1, 13] : !layout.desc<9x8x4>
  %m = layout.transform %n [#layout.pass_through<9> : [0] -> [0], #layout.merge<[8, 4]> : [1, 2] -> [1]] : !layout.desc<9x8x4> -> !layout.desc<9x32>
  %t0 = layout.naive [3] strides [3] : !layout.desc<3>
  %t1 = layout.naive [4, 2] strides [8, 1] : !layout.desc<4x2>
  %t1m = layout.transform %t1 [#layout.merge<[4, 2]> : [0, 1] -> [0]] : !layout.desc<4x2> -> !layout.desc<8>
  %d2 = layout.logical_divide %m, %t0, %t1m : (!layout.desc<9x32>, !layout.desc<3>, !layout.desc<8>) -> !layout.desc<9x32>
  return %d, %d2 : !layout.desc<4x6>, !layout.desc<9x32>
}

// -----

// CHECK-LABEL: func @zipped_and_tiled
// zipped: ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)));
// tiled: ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))
// CHECK: %[[A:.*]] = layout.naive [3, 2, 4, 3, 2, 2] strides [177, 13, 2, 59, 26, 1] : !layout.desc<3x2x4x3x2x2>
// CHECK: layout.transform %[[A]] [#layout.merge<[4, 2, 3]> : [2, 1, 0] -> [0], #layout.merge<[2, 2, 3]> : [5, 4, 3] -> [1]] : !layout.desc<3x2x4x3x2x2> -> !layout.desc<24x12>
// CHECK: %[[B:.*]] = layout.naive [3, 2, 4, 3, 2, 2] strides [177, 13, 2, 59, 26, 1] : !layout.desc<3x2x4x3x2x2>
// CHECK: layout.transform %[[B]] [#layout.merge<[4, 2, 3]> : [2, 1, 0] -> [0], #layout.pass_through<3> : [3] -> [1], #layout.merge<[2, 2]> : [5, 4] -> [2]] : !layout.desc<3x2x4x3x2x2> -> !layout.desc<24x3x4>
func.func @zipped_and_tiled() -> (!layout.desc<24x12>, !layout.desc<24x3x4>) {
  %n = layout.naive [9, 8, 4] strides [59, 1, 13] : !layout.desc<9x8x4>
  %m = layout.transform %n [#layout.pass_through<9> : [0] -> [0], #layout.merge<[8, 4]> : [1, 2] -> [1]] : !layout.desc<9x8x4> -> !layout.desc<9x32>
  %t0 = layout.naive [3] strides [3] : !layout.desc<3>
  %t1 = layout.naive [4, 2] strides [8, 1] : !layout.desc<4x2>
  %t1m = layout.transform %t1 [#layout.merge<[4, 2]> : [0, 1] -> [0]] : !layout.desc<4x2> -> !layout.desc<8>
  %z = layout.zipped_divide %m, %t0, %t1m : (!layout.desc<9x32>, !layout.desc<3>, !layout.desc<8>) -> !layout.desc<24x12>
  %t = layout.tiled_divide %m, %t0, %t1m : (!layout.desc<9x32>, !layout.desc<3>, !layout.desc<8>) -> !layout.desc<24x3x4>
  return %z, %t : !layout.desc<24x12>, !layout.desc<24x3x4>
}

// -----

// CHECK-LABEL: func @products
// (2,2):(4,1) x 6:1 = ((2,2),(2,3)):((4,1),(2,8));
// (2,5):(5,1) blocked (3,4):(1,3) = (6,(5,4)):(5,(1,30));
// (2,5):(5,1) raked (3,4):(1,3) = ((3,2),(4,5)):((10,5),(30,1))
// CHECK: %[[L:.*]] = layout.naive [2, 2, 2, 3] strides [4, 1, 2, 8] : !layout.desc<2x2x2x3>
// CHECK: %[[LT:.*]] = layout.transform %[[L]] [#layout.merge<[2, 2]> : [1, 0] -> [0], #layout.merge<[3, 2]> : [3, 2] -> [1]] : !layout.desc<2x2x2x3> -> !layout.desc<4x6>
// CHECK: %[[B:.*]] = layout.naive [6, 5, 4] strides [5, 1, 30] : !layout.desc<6x5x4>
// CHECK: %[[BT:.*]] = layout.transform %[[B]] [#layout.pass_through<6> : [0] -> [0], #layout.merge<[4, 5]> : [2, 1] -> [1]] : !layout.desc<6x5x4> -> !layout.desc<6x20>
// CHECK: %[[R:.*]] = layout.naive [3, 2, 4, 5] strides [10, 5, 30, 1] : !layout.desc<3x2x4x5>
// CHECK: %[[RT:.*]] = layout.transform %[[R]] [#layout.merge<[2, 3]> : [1, 0] -> [0], #layout.merge<[5, 4]> : [3, 2] -> [1]] : !layout.desc<3x2x4x5> -> !layout.desc<6x20>
// CHECK: return %[[LT]], %[[BT]], %[[RT]]
func.func @products() -> (!layout.desc<4x6>, !layout.desc<6x20>, !layout.desc<6x20>) {
  %a = layout.naive [2, 2] strides [4, 1] : !layout.desc<2x2>
  %b = layout.naive [6] strides [1] : !layout.desc<6>
  %l = layout.logical_product %a, %b : (!layout.desc<2x2>, !layout.desc<6>) -> !layout.desc<4x6>
  %a2 = layout.naive [2, 5] strides [5, 1] : !layout.desc<2x5>
  %b2 = layout.naive [3, 4] strides [1, 3] : !layout.desc<3x4>
  %bl = layout.blocked_product %a2, %b2 : (!layout.desc<2x5>, !layout.desc<3x4>) -> !layout.desc<6x20>
  %rk = layout.raked_product %a2, %b2 : (!layout.desc<2x5>, !layout.desc<3x4>) -> !layout.desc<6x20>
  return %l, %bl, %rk : !layout.desc<4x6>, !layout.desc<6x20>, !layout.desc<6x20>
}

// -----

// CHECK-LABEL: func @inverses
// right_inverse((2,4,6):(4,1,8)) = (4,2,6):(2,1,8), one mode;
// left_inverse(4:2) = (2,4):(0,1)
// CHECK: %[[R:.*]] = layout.naive [4, 2, 6] strides [2, 1, 8] : !layout.desc<4x2x6>
// CHECK: %[[RT:.*]] = layout.transform %[[R]] [#layout.merge<[6, 2, 4]> : [2, 1, 0] -> [0]] : !layout.desc<4x2x6> -> !layout.desc<48>
// CHECK: %[[L:.*]] = layout.naive [2, 4] strides [0, 1] : !layout.desc<2x4>
// CHECK: %[[LT:.*]] = layout.transform %[[L]] [#layout.merge<[4, 2]> : [1, 0] -> [0]] : !layout.desc<2x4> -> !layout.desc<8>
// CHECK: return %[[RT]], %[[LT]]
func.func @inverses() -> (!layout.desc<48>, !layout.desc<8>) {
  %a = layout.naive [2, 4, 6] strides [4, 1, 8] : !layout.desc<2x4x6>
  %r = layout.right_inverse %a : !layout.desc<2x4x6> -> !layout.desc<48>
  %b = layout.naive [4] strides [2] : !layout.desc<4>
  %l = layout.left_inverse %b : !layout.desc<4> -> !layout.desc<8>
  return %r, %l : !layout.desc<48>, !layout.desc<8>
}

// -----

// CHECK-LABEL: func @offsets_fold_through_the_algebra
// The algebra ops trace: offsets of their results fold without
// canonicalizing the ops first. ((2,2),3):((24,2),8) at (3, 2) is
// 24 + 2 + 16 = 42.
// CHECK: %[[C:.*]] = arith.constant 42 : index
// CHECK: return %[[C]]
func.func @offsets_fold_through_the_algebra() -> index {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = layout.naive [6, 2] strides [8, 2] : !layout.desc<6x2>
  %b = layout.naive [4, 3] strides [3, 1] : !layout.desc<4x3>
  %c = layout.compose %a, %b : (!layout.desc<6x2>, !layout.desc<4x3>) -> !layout.desc<4x3>
  %o = layout.offset %c[%c3, %c2] : !layout.desc<4x3>
  return %o : index
}
