// RUN: layout-opt %s -convert-layout-to-affine -split-input-file | FileCheck %s

/// The seed's packed [2, 6] seen as 2x2x3 composes into one map with no
/// floordiv or mod.
// CHECK-DAG: #[[VIEW:.*]] = affine_map<(d0, d1, d2) -> (d0 * 6 + d1 * 3 + d2)>
// CHECK-LABEL: func @view_2x2x3
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[O:.*]] = affine.apply #[[VIEW]](%[[I]], %[[J]], %[[K]])
// CHECK-NOT: layout.offset
// CHECK: return %[[O]]
func.func @view_2x2x3(%i: index, %j: index, %k: index) -> index {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                            #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
       : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %o = layout.offset %t[%i, %j, %k] : !layout.desc<2x2x3>
  return %o : index
}

// -----

/// An unmerge after a merge of the same lengths cancels: no floordiv, no mod.
// CHECK-DAG: #[[MU:.*]] = affine_map<(d0, d1) -> (d0 * 6 + d1)>
// CHECK-LABEL: func @merge_unmerge_cancel
// CHECK: affine.apply #[[MU]](%{{.*}}, %{{.*}})
func.func @merge_unmerge_cancel(%i: index, %j: index) -> index {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %m = layout.transform %p [#layout.merge<[4, 6]> : [0, 1] -> [0]] : !layout.desc<4x6> -> !layout.desc<24>
  %u = layout.transform %m [#layout.unmerge<[4, 6]> : [0] -> [0, 1]] : !layout.desc<24> -> !layout.desc<4x6>
  %o = layout.offset %u[%i, %j] : !layout.desc<4x6>
  return %o : index
}

// -----

/// A padded convolution input: the offset is one map; validity is one
/// unsigned compare per two-sided pad, combined with arith.andi.
// CHECK-DAG: #[[OFF:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 48 + d1 * 16 + d2 * 4 + d3 - 5)>
// CHECK-DAG: #[[SUB:.*]] = affine_map<(d0) -> (d0 - 1)>
// CHECK-LABEL: func @conv_padding
// CHECK-SAME: (%[[N:.*]]: index, %[[C:.*]]: index, %[[H:.*]]: index, %[[W:.*]]: index)
// CHECK: %[[O:.*]] = affine.apply #[[OFF]](%[[N]], %[[C]], %[[H]], %[[W]])
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[H1:.*]] = affine.apply #[[SUB]](%[[H]])
// CHECK-DAG: %[[W1:.*]] = affine.apply #[[SUB]](%[[W]])
// CHECK-DAG: %[[VH:.*]] = arith.cmpi ult, %[[H1]], %[[C4]] : index
// CHECK-DAG: %[[VW:.*]] = arith.cmpi ult, %[[W1]], %{{.*}} : index
// CHECK: %[[V:.*]] = arith.andi %[[VH]], %[[VW]] : i1
// CHECK: return %[[O]], %[[V]]
func.func @conv_padding(%n: index, %c: index, %h: index, %w: index) -> (index, i1) {
  %x = layout.packed [2, 3, 4, 4] : !layout.desc<2x3x4x4>
  %p = layout.transform %x [#layout.pass_through<2> : [0] -> [0],
                            #layout.pass_through<3> : [1] -> [1],
                            #layout.pad<4, 1, 1> : [2] -> [2],
                            #layout.pad<4, 1, 1> : [3] -> [3]]
       : !layout.desc<2x3x4x4> -> !layout.desc<2x3x6x6>
  %o = layout.offset %p[%n, %c, %h, %w] : !layout.desc<2x3x6x6>
  %v = layout.valid %p[%n, %c, %h, %w] : !layout.desc<2x3x6x6>
  return %o, %v : index, i1
}

// -----

/// The xor swizzle is an arith.xori between two affine pieces; its inverse
/// (layout.upper) is the same xor; a descriptor without pads is always valid.
// CHECK-DAG: #[[MOD:.*]] = affine_map<(d0) -> (d0 mod 32)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 * 32 + d1)>
// CHECK-DAG: #[[DIV:.*]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func @xor_tile
// CHECK-SAME: (%[[R:.*]]: index, %[[C:.*]]: index, %[[OFF:.*]]: index)
// CHECK: %[[M:.*]] = affine.apply #[[MOD]](%[[R]])
// CHECK: %[[X:.*]] = arith.xori %[[C]], %[[M]] : index
// CHECK: %[[O:.*]] = affine.apply #[[ROW]](%[[R]], %[[X]])
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[UX:.*]] = arith.xori
// CHECK: %[[UR:.*]] = affine.apply #[[DIV]](%[[OFF]])
// CHECK: return %[[O]], %[[TRUE]], %[[UR]], %[[UX]]
func.func @xor_tile(%r: index, %c: index, %off: index) -> (index, i1, index, index) {
  %p = layout.packed [32, 32] : !layout.desc<32x32>
  %x = layout.transform %p [#layout.xor<[32, 32]> : [0, 1] -> [0, 1]] : !layout.desc<32x32> -> !layout.desc<32x32>
  %o = layout.offset %x[%r, %c] : !layout.desc<32x32>
  %v = layout.valid %x[%r, %c] : !layout.desc<32x32>
  %u:2 = layout.upper %x[%off] : !layout.desc<32x32>
  return %o, %v, %u#0, %u#1 : index, i1, index, index
}

// -----

/// layout.element_space_size becomes its constant.
// CHECK-LABEL: func @element_space
// CHECK: %[[C:.*]] = arith.constant 20 : index
// CHECK: return %[[C]]
func.func @element_space() -> index {
  %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  %n = layout.element_space_size %d : !layout.desc<3x4>
  return %n : index
}

// -----

/// layout.element_space_size with run-time lengths and strides (issue 38):
/// the base's least space `offset + 1 + sum (len_i - 1) * stride_i` over the
/// map's symbols, whatever the stages above the base. packed [%n, 4]:
/// (n - 1) * 4 + 3 + 1 = 4n; packed [%n, %m, 3] under a merge: (n - 1) * 3m
/// + (m - 1) * 3 + 2 + 1 = 3nm; naive [%n, 8] strides [%ld, 1] offset 3:
/// 3 + 1 + (n - 1) * ld + 7; a given `space` stays the constant.
// CHECK-DAG: #[[PACKED:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-DAG: #[[MERGED:.*]] = affine_map<()[s0, s1] -> ((s0 - 1) * (s1 * 3) + (s1 - 1) * 3 + 3)>
// CHECK-DAG: #[[NAIVE:.*]] = affine_map<()[s0, s1] -> ((s0 - 1) * s1 + 11)>
// CHECK-LABEL: func @element_space_runtime
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %[[LD:.*]]: index)
// CHECK-DAG: %[[P:.*]] = affine.apply #[[PACKED]]()[%[[N]]]
// CHECK-DAG: %[[Q:.*]] = affine.apply #[[MERGED]]()[%[[N]], %[[M]]]
// CHECK-DAG: %[[R:.*]] = affine.apply #[[NAIVE]]()[%[[N]], %[[LD]]]
// CHECK-DAG: %[[S:.*]] = arith.constant 100 : index
// CHECK: return %[[P]], %[[Q]], %[[R]], %[[S]]
func.func @element_space_runtime(%n: index, %m: index, %ld: index) -> (index, index, index, index) {
  %p = layout.packed [%n, 4] : !layout.desc<?x4>
  %sp = layout.element_space_size %p : !layout.desc<?x4>
  %q = layout.packed [%n, %m, 3] : !layout.desc<?x?x3>
  %qm = layout.transform %q [#layout.merge<[?, ?, 3]> : [0, 1, 2] -> [0]] args(%n, %m) : !layout.desc<?x?x3> -> !layout.desc<?>
  %sq = layout.element_space_size %qm : !layout.desc<?>
  %r = layout.naive [%n, 8] strides [%ld, 1] offset 3 : !layout.desc<?x8>
  %sr = layout.element_space_size %r : !layout.desc<?x8>
  %s = layout.naive [%n, 8] strides [%ld, 1] space 100 : !layout.desc<?x8>
  %ss = layout.element_space_size %s : !layout.desc<?x8>
  return %sp, %sq, %sr, %ss : index, index, index, index
}
