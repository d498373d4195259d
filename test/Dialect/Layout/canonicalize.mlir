// RUN: layout-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

/// Every worked value of the contract (design/dialect.md), folded to its
/// constant by the folders of layout.offset / layout.valid / layout.upper /
/// layout.element_space_size.

// CHECK-LABEL: func @merge_13
/// #layout.merge<[4, 5]>: upper 13 -> lower (2, 3); a naive base with strides
/// [10, 1] spells the digits in the offset.
// CHECK: %[[C:.*]] = arith.constant 23 : index
// CHECK-NEXT: return %[[C]]
func.func @merge_13() -> index {
  %c13 = arith.constant 13 : index
  %d = layout.naive [4, 5] strides [10, 1] : !layout.desc<4x5>
  %m = layout.transform %d [#layout.merge<[4, 5]> : [0, 1] -> [0]] : !layout.desc<4x5> -> !layout.desc<20>
  %o = layout.offset %m[%c13] : !layout.desc<20>
  return %o : index
}

// -----

// CHECK-LABEL: func @unmerge_14
/// #layout.unmerge<[3, 4, 2]>: upper (1, 3, 0) -> lower 14.
// CHECK: %[[C:.*]] = arith.constant 14 : index
// CHECK-NEXT: return %[[C]]
func.func @unmerge_14() -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = layout.packed [24] : !layout.desc<24>
  %u = layout.transform %p [#layout.unmerge<[3, 4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<24> -> !layout.desc<3x4x2>
  %o = layout.offset %u[%c1, %c3, %c0] : !layout.desc<3x4x2>
  return %o : index
}

// -----

// CHECK-LABEL: func @embed_14
/// #layout.embed<[2, 3], [12, 1]>: upper (1, 2) -> lower 14.
// CHECK: %[[C:.*]] = arith.constant 14 : index
// CHECK-NEXT: return %[[C]]
func.func @embed_14() -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = layout.packed [15] : !layout.desc<15>
  %e = layout.transform %p [#layout.embed<[2, 3], [12, 1]> : [0] -> [0, 1]] : !layout.desc<15> -> !layout.desc<2x3>
  %o = layout.offset %e[%c1, %c2] : !layout.desc<2x3>
  return %o : index
}

// -----

// CHECK-LABEL: func @offset_21
/// #layout.offset<48, 16>: upper 5 -> lower 21.
// CHECK: %[[C:.*]] = arith.constant 21 : index
// CHECK-NEXT: return %[[C]]
func.func @offset_21() -> index {
  %c5 = arith.constant 5 : index
  %p = layout.packed [64] : !layout.desc<64>
  %t = layout.transform %p [#layout.offset<48, 16> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<48>
  %o = layout.offset %t[%c5] : !layout.desc<48>
  return %o : index
}

// -----

// CHECK-LABEL: func @pad_3_1_1
/// #layout.pad<3, 1, 1>: upper 0..4 -> lower -1, 0, 1, 2, 3; valid only for
/// 1..3.
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: return %[[M1]], %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[F]], %[[T]], %[[T]], %[[T]], %[[F]]
func.func @pad_3_1_1() -> (index, index, index, index, index, i1, i1, i1, i1, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %p = layout.packed [3] : !layout.desc<3>
  %t = layout.transform %p [#layout.pad<3, 1, 1> : [0] -> [0]] : !layout.desc<3> -> !layout.desc<5>
  %o0 = layout.offset %t[%c0] : !layout.desc<5>
  %o1 = layout.offset %t[%c1] : !layout.desc<5>
  %o2 = layout.offset %t[%c2] : !layout.desc<5>
  %o3 = layout.offset %t[%c3] : !layout.desc<5>
  %o4 = layout.offset %t[%c4] : !layout.desc<5>
  %v0 = layout.valid %t[%c0] : !layout.desc<5>
  %v1 = layout.valid %t[%c1] : !layout.desc<5>
  %v2 = layout.valid %t[%c2] : !layout.desc<5>
  %v3 = layout.valid %t[%c3] : !layout.desc<5>
  %v4 = layout.valid %t[%c4] : !layout.desc<5>
  return %o0, %o1, %o2, %o3, %o4, %v0, %v1, %v2, %v3, %v4 : index, index, index, index, index, i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func @bases
/// naive [3, 4] strides [8, 1]: offset of (1, 2) is 10, element space 20;
/// packed [3, 4]: offset of (1, 2) is 6, element space 12;
/// aligned [4, 5] align 8: strides [8, 1] (offsets of (1, 0) and (0, 1)),
/// element space 32.
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: return %[[C10]], %[[C20]], %[[C6]], %[[C12]], %[[C8]], %[[C1]], %[[C32]]
func.func @bases() -> (index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  %p = layout.packed [3, 4] : !layout.desc<3x4>
  %a = layout.aligned [4, 5] align 8 : !layout.desc<4x5>
  %o0 = layout.offset %d[%c1, %c2] : !layout.desc<3x4>
  %n0 = layout.element_space_size %d : !layout.desc<3x4>
  %o1 = layout.offset %p[%c1, %c2] : !layout.desc<3x4>
  %n1 = layout.element_space_size %p : !layout.desc<3x4>
  %s0 = layout.offset %a[%c1, %c0] : !layout.desc<4x5>
  %s1 = layout.offset %a[%c0, %c1] : !layout.desc<4x5>
  %n2 = layout.element_space_size %a : !layout.desc<4x5>
  return %o0, %n0, %o1, %n1, %s0, %s1, %n2 : index, index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func @packed_2x6_as_2x2x3
/// packed [2, 6] seen as 2x2x3: offset of (1, 1, 2) is 11, and layout.upper
/// of 11 is (1, 1, 2); the element space is still 12.
// CHECK-DAG: %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK: return %[[C11]], %[[C1]], %[[C1]], %[[C2]], %[[C12]]
func.func @packed_2x6_as_2x2x3() -> (index, index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                            #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
       : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %o = layout.offset %t[%c1, %c1, %c2] : !layout.desc<2x2x3>
  %u:3 = layout.upper %t[%o] : !layout.desc<2x2x3>
  %n = layout.element_space_size %t : !layout.desc<2x2x3>
  return %o, %u#0, %u#1, %u#2, %n : index, index, index, index, index
}

// -----

// CHECK-LABEL: func @no_fold_without_constants
/// Dynamic indices, an offset that no coordinate reaches, and a descriptor
/// from a block argument stay as they are.
// CHECK-SAME: (%[[I:.*]]: index, %[[D:.*]]: !layout.desc<4>)
// CHECK: layout.offset %{{.*}}[%[[I]]]
// CHECK: layout.upper %{{.*}}[%{{.*}}] : !layout.desc<3x4>
// CHECK: layout.element_space_size %[[D]]
func.func @no_fold_without_constants(%i: index, %d: !layout.desc<4>) -> (index, index, index) {
  %c5 = arith.constant 5 : index
  %p = layout.packed [4] : !layout.desc<4>
  %o = layout.offset %p[%i] : !layout.desc<4>
  %n = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  %u:2 = layout.upper %n[%c5] : !layout.desc<3x4>
  %s = layout.element_space_size %d : !layout.desc<4>
  return %o, %u#0, %s : index, index, index
}

// -----

// CHECK-LABEL: func @rocroller_seed
/// rocRoller's coordinate-graph examples (seed 002): Flatten of D at (1, 0) in
/// a 2 x 3 row-major tensor is 3; column-major (a Join with strides [1, 2]),
/// B at (0, 1) is at 2; Tile of 3 is (1, 0); Sunder with N_i = 6 sends
/// (i, j, s) = (4, 7, 0) to 4 and (4, 7, 1) to 7 + 6 = 13.
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C13:.*]] = arith.constant 13 : index
// CHECK: return %[[C3]], %[[C2]], %[[C1]], %[[C0]], %[[C4]], %[[C13]]
func.func @rocroller_seed() -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %mem = layout.packed [6] : !layout.desc<6>
  %flat = layout.transform %mem [#layout.unmerge<[2, 3]> : [0] -> [0, 1]] : !layout.desc<6> -> !layout.desc<2x3>
  %d = layout.offset %flat[%c1, %c0] : !layout.desc<2x3>
  %join = layout.transform %mem [#layout.embed<[2, 3], [1, 2]> : [0] -> [0, 1]] : !layout.desc<6> -> !layout.desc<2x3>
  %b = layout.offset %join[%c0, %c1] : !layout.desc<2x3>
  %tile:2 = layout.upper %flat[%c3] : !layout.desc<2x3>
  %f = layout.packed [16] : !layout.desc<16>
  %s = layout.transform %f [#layout.sunder<[6, 10]> : [0] -> [0, 1, 2]] : !layout.desc<16> -> !layout.desc<6x10x2>
  %s0 = layout.offset %s[%c4, %c7, %c0] : !layout.desc<6x10x2>
  %s1 = layout.offset %s[%c4, %c7, %c1] : !layout.desc<6x10x2>
  return %d, %b, %tile#0, %tile#1, %s0, %s1 : index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func @upper_of_embed_that_does_not_nest
/// #layout.embed<[3, 2], [2, 3]> (injective, not nested): layout.upper of 7
/// is (2, 1), since 2 * 2 + 3 * 1 = 7, and of 3 is (0, 1).
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: return %[[C2]], %[[C1]], %[[C0]], %[[C1]]
func.func @upper_of_embed_that_does_not_nest() -> (index, index, index, index) {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %p = layout.packed [8] : !layout.desc<8>
  %e = layout.transform %p [#layout.embed<[3, 2], [2, 3]> : [0] -> [0, 1]] : !layout.desc<8> -> !layout.desc<3x2>
  %u:2 = layout.upper %e[%c7] : !layout.desc<3x2>
  %v:2 = layout.upper %e[%c3] : !layout.desc<3x2>
  return %u#0, %u#1, %v#0, %v#1 : index, index, index, index
}

// -----

// CHECK-LABEL: func @upper_through_right_pad_of_a_piece
/// sunder<[4, 2]>, then right_pad<4, 2> on piece 0: offset 5 is piece 1's
/// element 1, so layout.upper gives (0, 1, 1).
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: return %[[C0]], %[[C1]], %[[C1]]
func.func @upper_through_right_pad_of_a_piece() -> (index, index, index) {
  %c5 = arith.constant 5 : index
  %p = layout.packed [6] : !layout.desc<6>
  %s = layout.transform %p [#layout.sunder<[4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<6> -> !layout.desc<4x2x2>
  %d = layout.transform %s [#layout.right_pad<4, 2> : [0] -> [0], #layout.pass_through<2> : [1] -> [1], #layout.pass_through<2> : [2] -> [2]] : !layout.desc<4x2x2> -> !layout.desc<6x2x2>
  %u:3 = layout.upper %d[%c5] : !layout.desc<6x2x2>
  return %u#0, %u#1, %u#2 : index, index, index
}
