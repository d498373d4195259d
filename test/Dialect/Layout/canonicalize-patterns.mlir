// RUN: layout-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

/// The patterns of layout.transform: identity entries and stages vanish,
/// consecutive stages compose through the table, plainly strided stages fold
/// back into layout.naive. Each case keeps a layout.offset user so that the
/// descriptor stays alive.

// CHECK-LABEL: func @view_to_naive
// CHECK-NEXT: %[[D:.*]] = layout.naive [2, 2, 3] strides [6, 3, 1] : !layout.desc<2x2x3>
// CHECK-NEXT: layout.offset %[[D]]
func.func @view_to_naive(%i: index, %j: index, %k: index) -> index {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]] : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %o = layout.offset %t[%i, %j, %k] : !layout.desc<2x2x3>
  return %o : index
}

// -----

// CHECK-LABEL: func @transpose_to_naive
/// A permutation of a naive descriptor is the naive descriptor with its
/// strides permuted.
// CHECK-NEXT: %[[D:.*]] = layout.naive [4, 3] strides [1, 8] : !layout.desc<4x3>
func.func @transpose_to_naive(%i: index, %j: index) -> index {
  %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  %t = layout.transform %d [#layout.pass_through<3> : [0] -> [1], #layout.pass_through<4> : [1] -> [0]] : !layout.desc<3x4> -> !layout.desc<4x3>
  %o = layout.offset %t[%i, %j] : !layout.desc<4x3>
  return %o : index
}

// -----

// CHECK-LABEL: func @slice_to_naive
/// Columns [2, 9) then [1, 5) of an aligned 4x10 (row stride 16), transposed:
/// a naive view at offset 3 in the same 64-element space.
// CHECK-NEXT: %[[D:.*]] = layout.naive [4, 4] strides [1, 16] offset 3 space 64 : !layout.desc<4x4>
// CHECK-NEXT: layout.offset %[[D]]
func.func @slice_to_naive(%i: index, %j: index) -> index {
  %p = layout.aligned [4, 10] align 16 : !layout.desc<4x10>
  %a = layout.transform %p [#layout.slice<10, 2, 9> : [1] -> [1], #layout.pass_through<4> : [0] -> [0]] : !layout.desc<4x10> -> !layout.desc<4x7>
  %b = layout.transform %a [#layout.slice<7, 1, 5> : [1] -> [0], #layout.pass_through<4> : [0] -> [1]] : !layout.desc<4x7> -> !layout.desc<4x4>
  %o = layout.offset %b[%i, %j] : !layout.desc<4x4>
  return %o : index
}

// -----

// CHECK-LABEL: func @merge_unmerge_cancels
/// merge then unmerge of the same lengths is the identity: the packed base
/// is all that is left.
// CHECK-NEXT: %[[D:.*]] = layout.packed [4, 6] : !layout.desc<4x6>
// CHECK-NEXT: layout.offset %[[D]]
func.func @merge_unmerge_cancels(%i: index, %j: index) -> index {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %m = layout.transform %p [#layout.merge<[4, 6]> : [0, 1] -> [0]] : !layout.desc<4x6> -> !layout.desc<24>
  %u = layout.transform %m [#layout.unmerge<[4, 6]> : [0] -> [0, 1]] : !layout.desc<24> -> !layout.desc<4x6>
  %o = layout.offset %u[%i, %j] : !layout.desc<4x6>
  return %o : index
}

// -----

// CHECK-LABEL: func @unmerge_merge_cancels
/// unmerge then merge of the same lengths is a pass_through, and the
/// xor below it stays.
// CHECK-NEXT: %[[P:.*]] = layout.packed [24, 8] : !layout.desc<24x8>
// CHECK-NEXT: %[[X:.*]] = layout.transform %[[P]] [#layout.xor<[24, 8]> : [0, 1] -> [0, 1]] : !layout.desc<24x8> -> !layout.desc<24x8>
// CHECK-NEXT: layout.offset %[[X]]
func.func @unmerge_merge_cancels(%i: index, %j: index) -> index {
  %p = layout.packed [24, 8] : !layout.desc<24x8>
  %x = layout.transform %p [#layout.xor<[24, 8]> : [0, 1] -> [0, 1]] : !layout.desc<24x8> -> !layout.desc<24x8>
  %u = layout.transform %x [#layout.unmerge<[4, 6]> : [0] -> [0, 1], #layout.pass_through<8> : [1] -> [2]] : !layout.desc<24x8> -> !layout.desc<4x6x8>
  %m = layout.transform %u [#layout.merge<[4, 6]> : [0, 1] -> [0], #layout.pass_through<8> : [2] -> [1]] : !layout.desc<4x6x8> -> !layout.desc<24x8>
  %o = layout.offset %m[%i, %j] : !layout.desc<24x8>
  return %o : index
}

// -----

// CHECK-LABEL: func @offset_of_offset
/// Over an xor (so not strided), offset<48, 16> then offset<8, 5> is
/// offset<8, 21>.
// CHECK-NEXT: %[[P:.*]] = layout.packed [4, 64] : !layout.desc<4x64>
// CHECK-NEXT: %[[X:.*]] = layout.transform %[[P]] [#layout.xor<[4, 64]> : [0, 1] -> [0, 1]] : !layout.desc<4x64> -> !layout.desc<4x64>
// CHECK-NEXT: %[[O:.*]] = layout.transform %[[X]] [#layout.pass_through<4> : [0] -> [0], #layout.offset<8, 21> : [1] -> [1]] : !layout.desc<4x64> -> !layout.desc<4x8>
// CHECK-NEXT: layout.offset %[[O]]
func.func @offset_of_offset(%i: index, %j: index) -> index {
  %p = layout.packed [4, 64] : !layout.desc<4x64>
  %x = layout.transform %p [#layout.xor<[4, 64]> : [0, 1] -> [0, 1]] : !layout.desc<4x64> -> !layout.desc<4x64>
  %a = layout.transform %x [#layout.pass_through<4> : [0] -> [0], #layout.offset<48, 16> : [1] -> [1]] : !layout.desc<4x64> -> !layout.desc<4x48>
  %b = layout.transform %a [#layout.pass_through<4> : [0] -> [0], #layout.offset<8, 5> : [1] -> [1]] : !layout.desc<4x48> -> !layout.desc<4x8>
  %o = layout.offset %b[%i, %j] : !layout.desc<4x8>
  return %o : index
}

// -----

// CHECK-LABEL: func @slices
/// slice [2, 9) then [1, 5) is [3, 7); an offset<3, 1> of that is [4, 7)
/// and the slice of an offset<6, 2> by [1, 4) is offset<3, 3>.
// CHECK: layout.transform %{{.*}} [#layout.slice<16, 4, 7> : [0] -> [0], #layout.offset<3, 3> : [1] -> [1]] : !layout.desc<16x16> -> !layout.desc<3x3>
func.func @slices(%i: index, %j: index) -> index {
  %p = layout.packed [16, 16] : !layout.desc<16x16>
  %t = layout.transform %p [#layout.xor<[16, 16]> : [0, 1] -> [0, 1]] : !layout.desc<16x16> -> !layout.desc<16x16>
  %a = layout.transform %t [#layout.slice<16, 2, 9> : [0] -> [0], #layout.offset<6, 2> : [1] -> [1]] : !layout.desc<16x16> -> !layout.desc<7x6>
  %b = layout.transform %a [#layout.slice<7, 1, 5> : [0] -> [0], #layout.slice<6, 1, 4> : [1] -> [1]] : !layout.desc<7x6> -> !layout.desc<4x3>
  %c = layout.transform %b [#layout.offset<3, 1> : [0] -> [0], #layout.pass_through<3> : [1] -> [1]] : !layout.desc<4x3> -> !layout.desc<3x3>
  %o = layout.offset %c[%i, %j] : !layout.desc<3x3>
  return %o : index
}

// -----

// CHECK-LABEL: func @pads
/// pad<4, 1, 0> then pad<5, 2, 1> is pad<4, 3, 1>; a zero pad and a modulo
/// by the whole length are pass_throughs, and the stage they leave composes
/// with the one below.
// CHECK-NEXT: %[[P:.*]] = layout.packed [4, 4] : !layout.desc<4x4>
// CHECK-NEXT: %[[T:.*]] = layout.transform %[[P]] [#layout.pad<4, 3, 1> : [0] -> [0], #layout.pass_through<4> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<8x4>
// CHECK-NEXT: layout.valid %[[T]]
func.func @pads(%i: index, %j: index) -> i1 {
  %p = layout.packed [4, 4] : !layout.desc<4x4>
  %a = layout.transform %p [#layout.pad<4, 1, 0> : [0] -> [0], #layout.pad<4, 0, 0> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<5x4>
  %b = layout.transform %a [#layout.pad<5, 2, 1> : [0] -> [0], #layout.modulo<4, 4> : [1] -> [1]] : !layout.desc<5x4> -> !layout.desc<8x4>
  %v = layout.valid %b[%i, %j] : !layout.desc<8x4>
  return %v : i1
}

// -----

// CHECK-LABEL: func @identities
/// xor and rotate with L1 = 1, an embed of one coefficient 1, a swizzle of
/// no bits, a merge and an unmerge of one length: all identities, so only
/// the pad below is left.
// CHECK-NEXT: %[[P:.*]] = layout.packed [8, 1] : !layout.desc<8x1>
// CHECK-NEXT: %[[T:.*]] = layout.transform %[[P]] [#layout.pad<8, 1, 1> : [0] -> [0], #layout.pass_through<1> : [1] -> [1]] : !layout.desc<8x1> -> !layout.desc<10x1>
// CHECK-NEXT: layout.offset %[[T]]
func.func @identities(%i: index, %j: index) -> index {
  %p = layout.packed [8, 1] : !layout.desc<8x1>
  %t = layout.transform %p [#layout.pad<8, 1, 1> : [0] -> [0], #layout.pass_through<1> : [1] -> [1]] : !layout.desc<8x1> -> !layout.desc<10x1>
  %a = layout.transform %t [#layout.xor<[10, 1]> : [0, 1] -> [0, 1]] : !layout.desc<10x1> -> !layout.desc<10x1>
  %b = layout.transform %a [#layout.rotate<[10, 1]> : [0, 1] -> [0, 1]] : !layout.desc<10x1> -> !layout.desc<10x1>
  %c = layout.transform %b [#layout.embed<[10], [1]> : [0] -> [0], #layout.unmerge<[1]> : [1] -> [1]] : !layout.desc<10x1> -> !layout.desc<10x1>
  %d = layout.transform %c [#layout.swizzle<0, 0, 0, 10> : [0] -> [0], #layout.merge<[1]> : [1] -> [1]] : !layout.desc<10x1> -> !layout.desc<10x1>
  %o = layout.offset %d[%i, %j] : !layout.desc<10x1>
  return %o : index
}

// -----

// CHECK-LABEL: func @restriction
/// A modulo by more than its upper length is the identity on a shorter
/// dim: the restriction offset<U, 0>, which then folds into the base.
// CHECK-NEXT: %[[D:.*]] = layout.naive [5] strides [1] space 8 : !layout.desc<5>
func.func @restriction(%i: index) -> index {
  %p = layout.packed [8] : !layout.desc<8>
  %t = layout.transform %p [#layout.modulo<7, 5> : [0] -> [0]] : !layout.desc<8> -> !layout.desc<5>
  %o = layout.offset %t[%i] : !layout.desc<5>
  return %o : index
}

// -----

// CHECK-LABEL: func @not_in_the_table
/// merge then unmerge of other lengths does not compose, and a merge of dims
/// whose strides do not nest (column-major) is not strided: both stages
/// stay.
// CHECK-NEXT: layout.naive [4, 6] strides [1, 4]
// CHECK-NEXT: layout.transform {{.*}}#layout.merge<[4, 6]>
// CHECK-NEXT: layout.transform {{.*}}#layout.unmerge<[6, 4]>
// CHECK-NEXT: layout.offset
func.func @not_in_the_table(%i: index, %j: index) -> index {
  %p = layout.naive [4, 6] strides [1, 4] : !layout.desc<4x6>
  %m = layout.transform %p [#layout.merge<[4, 6]> : [0, 1] -> [0]] : !layout.desc<4x6> -> !layout.desc<24>
  %u = layout.transform %m [#layout.unmerge<[6, 4]> : [0] -> [0, 1]] : !layout.desc<24> -> !layout.desc<6x4>
  %o = layout.offset %u[%i, %j] : !layout.desc<6x4>
  return %o : index
}

// -----

// CHECK-LABEL: func @merge_of_nested_strides
/// packed, unmerge, then the matching merge (issue 14: was left as a naive
/// [5, 3, 4] and a merge): the two stages compose into the identity, and
/// the packed base is what is left.
// CHECK-NEXT: %[[D:.*]] = layout.packed [60] : !layout.desc<60>
// CHECK-NEXT: layout.offset %[[D]]
func.func @merge_of_nested_strides(%i: index) -> index {
  %p = layout.packed [60] : !layout.desc<60>
  %u = layout.transform %p [#layout.unmerge<[5, 3, 4]> : [0] -> [0, 1, 2]] : !layout.desc<60> -> !layout.desc<5x3x4>
  %m = layout.transform %u [#layout.merge<[5, 3, 4]> : [0, 1, 2] -> [0]] : !layout.desc<5x3x4> -> !layout.desc<60>
  %o = layout.offset %m[%i] : !layout.desc<60>
  return %o : index
}

// -----

// CHECK-LABEL: func @merge_of_nested_strides_shared
/// The same chain with the unmerged descriptor used twice: the unmerge
/// folds into the strides [12, 4, 1], which nest, so the merge folds into
/// them too (stride 1).
// CHECK-DAG: layout.naive [5, 3, 4] strides [12, 4, 1] : !layout.desc<5x3x4>
// CHECK-DAG: layout.naive [60] strides [1] : !layout.desc<60>
// CHECK-NOT: layout.transform
func.func @merge_of_nested_strides_shared(%i: index, %j: index, %k: index) -> (index, index) {
  %p = layout.packed [60] : !layout.desc<60>
  %u = layout.transform %p [#layout.unmerge<[5, 3, 4]> : [0] -> [0, 1, 2]] : !layout.desc<60> -> !layout.desc<5x3x4>
  %m = layout.transform %u [#layout.merge<[5, 3, 4]> : [0, 1, 2] -> [0]] : !layout.desc<5x3x4> -> !layout.desc<60>
  %o = layout.offset %m[%i] : !layout.desc<60>
  %q = layout.offset %u[%i, %j, %k] : !layout.desc<5x3x4>
  return %o, %q : index, index
}

// -----

// CHECK-LABEL: func @merge_of_rows
/// A merge of the two outer dims of a 5x3x4 slab with a row stride of 8
/// (strides [24, 8, 1]: 24 = 8 * 3 nests): 15 rows of stride 8. A dim of
/// length 1 nests with any stride.
// CHECK-NEXT: %[[D:.*]] = layout.naive [15, 4] strides [8, 1] space 120 : !layout.desc<15x4>
// CHECK-NEXT: layout.offset %[[D]]
func.func @merge_of_rows(%i: index, %j: index) -> index {
  %p = layout.naive [5, 1, 3, 4] strides [24, 1000, 8, 1] space 120 : !layout.desc<5x1x3x4>
  %m = layout.transform %p [#layout.merge<[5, 1, 3]> : [0, 1, 2] -> [0], #layout.pass_through<4> : [3] -> [1]] : !layout.desc<5x1x3x4> -> !layout.desc<15x4>
  %o = layout.offset %m[%i, %j] : !layout.desc<15x4>
  return %o : index
}

// -----

// CHECK-LABEL: func @crop_and_xor_twice
/// Cropping exactly the padding away is the identity; so is the same xor
/// twice: nothing is left but the packed base.
// CHECK-NEXT: %[[P:.*]] = layout.packed [16, 8] : !layout.desc<16x8>
// CHECK-NEXT: layout.offset %[[P]]
func.func @crop_and_xor_twice(%i: index, %j: index) -> index {
  %p = layout.packed [16, 8] : !layout.desc<16x8>
  %x = layout.transform %p [#layout.xor<[16, 8]> : [0, 1] -> [0, 1]] : !layout.desc<16x8> -> !layout.desc<16x8>
  %a = layout.transform %x [#layout.pad<16, 2, 1> : [0] -> [0], #layout.pass_through<8> : [1] -> [1]] : !layout.desc<16x8> -> !layout.desc<19x8>
  %b = layout.transform %a [#layout.slice<19, 2, 18> : [0] -> [0], #layout.pass_through<8> : [1] -> [1]] : !layout.desc<19x8> -> !layout.desc<16x8>
  %y = layout.transform %b [#layout.xor<[16, 8]> : [0, 1] -> [0, 1]] : !layout.desc<16x8> -> !layout.desc<16x8>
  %o = layout.offset %y[%i, %j] : !layout.desc<16x8>
  return %o : index
}

// -----

// CHECK-LABEL: func @shift_of_pad
/// A window [1, 7) of a 4-long dim padded by 2 on each side covers the data:
/// a pad of 1 on each side. A window [3, 5) inside it is a slice.
// CHECK: layout.transform %{{.*}} [#layout.pad<4, 1, 1> : [0] -> [0], #layout.slice<4, 1, 3> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<6x2>
func.func @shift_of_pad(%i: index, %j: index) -> i1 {
  %p = layout.packed [4, 4] : !layout.desc<4x4>
  %a = layout.transform %p [#layout.pad<4, 2, 2> : [0] -> [0], #layout.pad<4, 2, 2> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<8x8>
  %b = layout.transform %a [#layout.slice<8, 1, 7> : [0] -> [0], #layout.offset<2, 3> : [1] -> [1]] : !layout.desc<8x8> -> !layout.desc<6x2>
  %v = layout.valid %b[%i, %j] : !layout.desc<6x2>
  return %v : i1
}
