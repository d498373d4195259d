// RUN: layout-opt %s -split-input-file -verify-diagnostics

/// One case per diagnostic of the layout dialect: transform attributes (their
/// parameters), the descriptor type, the base ops, layout.transform (stage
/// structure and lower lengths) and the index ops.

/// pass_through of length 0
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.pass_through' 'length' must be positive, got 0}}
  %t = layout.transform %p [#layout.pass_through<0> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// negative left pad
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.pad' 'left' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.pad<4, -1, 0> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// negative right pad
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.pad' 'right' must be non-negative, got -2}}
  %t = layout.transform %p [#layout.pad<4, 1, -2> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// pad whose upper length overflows
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.pad' upper length left + length + right overflows int64}}
  %t = layout.transform %p [#layout.pad<4, 9223372036854775807, 0> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// negative left_pad
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.left_pad' 'left' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.left_pad<4, -1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// negative right_pad
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.right_pad' 'right' must be non-negative, got -3}}
  %t = layout.transform %p [#layout.right_pad<4, -3> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// embed with an empty length list
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.embed' 'upper_lengths' must not be empty}}
  %t = layout.transform %p [#layout.embed<[], []> : [0] -> []] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// embed with fewer coefficients than lengths
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.embed' 'coefficients' has 1 entries but 'upper_lengths' has 2}}
  %t = layout.transform %p [#layout.embed<[2, 2], [1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x2>
  return
}

// -----

/// embed with a negative coefficient
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.embed' 'coefficients' entry 1 must be non-negative, got -1}}
  %t = layout.transform %p [#layout.embed<[2, 2], [1, -1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x2>
  return
}

// -----

/// embed with a zero length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.embed' 'upper_lengths' entry 1 must be positive, got 0}}
  %t = layout.transform %p [#layout.embed<[2, 0], [1, 1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x2>
  return
}

// -----

/// embed whose span overflows
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.embed' lower span 1 + sum (U_i - 1) * c_i overflows int64}}
  %t = layout.transform %p [#layout.embed<[3, 2], [4611686018427387904, 1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<3x2>
  return
}

// -----

/// merge with an empty list
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.merge' 'lower_lengths' must not be empty}}
  %t = layout.transform %p [#layout.merge<[]> : [] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// merge whose product overflows
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.merge' product of 'lower_lengths' overflows int64}}
  %t = layout.transform %p [#layout.merge<[4294967296, 4294967296]> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// unmerge with a negative length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.unmerge' 'upper_lengths' entry 1 must be positive, got -2}}
  %t = layout.transform %p [#layout.unmerge<[2, -2]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x2>
  return
}

// -----

/// replicate with an empty list
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.replicate' 'upper_lengths' must not be empty}}
  %t = layout.transform %p [#layout.replicate<[]> : [] -> []] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// freeze at a negative value
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.freeze' 'value' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.freeze<-1> : [0] -> []] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// offset of zero upper length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.offset' 'upper_length' must be positive, got 0}}
  %t = layout.transform %p [#layout.offset<0, 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// negative offset
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.offset' 'offset' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.offset<2, -1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<2>
  return
}

// -----

/// slice with begin > end
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.slice' 'begin' (3) must not be greater than 'end' (2)}}
  %t = layout.transform %p [#layout.slice<4, 3, 2> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<1>
  return
}

// -----

/// empty slice
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.slice' 'begin' and 'end' are both 2: the slice would be empty}}
  %t = layout.transform %p [#layout.slice<4, 2, 2> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<1>
  return
}

// -----

/// slice beyond its length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.slice' 'end' (5) must not exceed the length (4)}}
  %t = layout.transform %p [#layout.slice<4, 1, 5> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// slice with a negative begin
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.slice' 'begin' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.slice<4, -1, 2> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<3>
  return
}

// -----

/// modulo by zero
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.modulo' 'modulus' must be positive, got 0}}
  %t = layout.transform %p [#layout.modulo<0, 8> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<8>
  return
}

// -----

/// xor whose L1 is not a power of two
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'#layout.xor' L1 (6) must be a power of two, otherwise u1 xor (u0 mod L1) leaves [0, L1) and the transform is not a bijection}}
  %t = layout.transform %p [#layout.xor<[2, 6]> : [0, 1] -> [0, 1]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// xor with three lengths
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'#layout.xor' 'lengths' must have exactly 2 entries [L0, L1], got 3}}
  %t = layout.transform %p [#layout.xor<[2, 2, 2]> : [0, 1] -> [0, 1]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// rotate with one length
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'#layout.rotate' 'lengths' must have exactly 2 entries [L0, L1], got 1}}
  %t = layout.transform %p [#layout.rotate<[4]> : [0, 1] -> [0, 1]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// swizzle whose source and target bits overlap
func.func @f() {
  %p = layout.packed [1024] : !layout.desc<1024>
  // expected-error @+1 {{'#layout.swizzle' |S| (2) must be at least B (3): the source and target bits overlap and the swizzle is not a bijection}}
  %t = layout.transform %p [#layout.swizzle<3, 4, 2, 1024> : [0] -> [0]] : !layout.desc<1024> -> !layout.desc<1024>
  return
}

// -----

/// swizzle whose bits exceed L
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{'#layout.swizzle' the swizzled bits exceed L: L (64) must be a multiple of 2^(B + M) = 128}}
  %t = layout.transform %p [#layout.swizzle<3, 4, 3, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// swizzle whose bits reach bit 62
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{'#layout.swizzle' B + M + |S| (62) must be below 62}}
  %t = layout.transform %p [#layout.swizzle<1, 1, 60, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// swizzle whose M would overflow B + M + |S| (issue 14: accepted before)
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{'#layout.swizzle' B + M + |S| must be below 62, got B = 2, M = 9223372036854775807, S = 2}}
  %t = layout.transform %p [#layout.swizzle<2, 9223372036854775807, 2, 16> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// swizzle with S = -2^63 (|S| is not representable): the integers just
/// above -2^63 stand for run-time values, so the parser refuses them.
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{integer -9223372036854775808 is reserved for run-time values (write '?')}}
  %t = layout.transform %p [#layout.swizzle<1, 1, -9223372036854775808, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// swizzle with a huge negative S
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{'#layout.swizzle' B + M + |S| must be below 62, got B = 1, M = 1, S = -9223372036854000000}}
  %t = layout.transform %p [#layout.swizzle<1, 1, -9223372036854000000, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// swizzle with negative B
func.func @f() {
  %p = layout.packed [64] : !layout.desc<64>
  // expected-error @+1 {{'#layout.swizzle' 'B' must be non-negative, got -1}}
  %t = layout.transform %p [#layout.swizzle<-1, 4, 3, 64> : [0] -> [0]] : !layout.desc<64> -> !layout.desc<64>
  return
}

// -----

/// sunder with no pieces
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.sunder' 'pieces' must not be empty}}
  %t = layout.transform %p [#layout.sunder<[]> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// sunder whose total overflows
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'#layout.sunder' sum of 'pieces' overflows int64}}
  %t = layout.transform %p [#layout.sunder<[9223372036854775807, 1]> : [0] -> [0, 1, 2]] : !layout.desc<4> -> !layout.desc<1x1x2>
  return
}

// -----

/// an old top dimension consumed twice
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op old top dimension 0 is consumed twice (by transforms 0 and 1)}}
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.pass_through<2> : [0] -> [1]] : !layout.desc<2x6> -> !layout.desc<2x2>
  return
}

// -----

/// an old top dimension left unconsumed
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op old top dimension 1 is not consumed (keep it with #layout.pass_through<6>)}}
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0]] : !layout.desc<2x6> -> !layout.desc<2>
  return
}

// -----

/// an old top dimension out of range
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op old top dimension 2 is out of range: the descriptor has rank 2}}
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.pass_through<6> : [2] -> [1]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// new top dimensions that are not 0..n-1
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op new top dimension 2 is out of range: the new top dimensions must be exactly 0..1}}
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.pass_through<6> : [1] -> [2]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// a new top dimension produced twice
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op new top dimension 0 is produced twice}}
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.pass_through<6> : [1] -> [0]] : !layout.desc<2x6> -> !layout.desc<2x6>
  return
}

// -----

/// a transform given the wrong number of lower dims
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.merge<[2, 6]>) consumes 2 old top dimension(s), but 1 are listed}}
  %t = layout.transform %p [#layout.merge<[2, 6]> : [0] -> [0]] : !layout.desc<2x6> -> !layout.desc<12>
  return
}

// -----

/// a transform given the wrong number of upper dims
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.unmerge<[2, 2]>) produces 2 new top dimension(s), but 1 are listed}}
  %t = layout.transform %p [#layout.unmerge<[2, 2]> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<2x2>
  return
}

// -----

/// unmerge whose product differs from the lower length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.unmerge<[2, 3]>) lower length must equal the product of the upper lengths (6), but the consumed dimension has length 4}}
  %t = layout.transform %p [#layout.unmerge<[2, 3]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x3>
  return
}

// -----

/// merge whose lengths differ from the lower lengths
func.func @f() {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.merge<[2, 5]>) lower length 1 must equal 5, but the consumed dimension has length 6}}
  %t = layout.transform %p [#layout.merge<[2, 5]> : [0, 1] -> [0]] : !layout.desc<2x6> -> !layout.desc<10>
  return
}

// -----

/// pass_through of the wrong length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.pass_through<5>) lower length must equal the transform's length (5), but the consumed dimension has length 4}}
  %t = layout.transform %p [#layout.pass_through<5> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<5>
  return
}

// -----

/// embed spanning more than its lower length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.embed<[2, 3], [2, 1]>) spans 1 + sum (U_i - 1) * c_i = 5 elements, more than the consumed dimension's length 4}}
  %t = layout.transform %p [#layout.embed<[2, 3], [2, 1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<2x3>
  return
}

// -----

/// offset past its lower length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.offset<3, 2>) upper_length + offset = 5 exceeds the consumed dimension's length 4}}
  %t = layout.transform %p [#layout.offset<3, 2> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<3>
  return
}

// -----

/// modulo larger than its lower length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 0 (#layout.modulo<5, 8>) modulus 5 exceeds the consumed dimension's length 4}}
  %t = layout.transform %p [#layout.modulo<5, 8> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<8>
  return
}

// -----

/// freeze outside its lower length
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op transform 1 (#layout.freeze<4>) value 4 is outside the consumed dimension's range [0, 4)}}
  %t = layout.transform %p [#layout.replicate<[1]> : [] -> [0], #layout.freeze<4> : [0] -> []] : !layout.desc<4> -> !layout.desc<1>
  return
}

// -----

/// a stage that leaves no dimension
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op the stage leaves no top dimension (a descriptor has rank >= 1)}}
  %t = layout.transform %p [#layout.freeze<1> : [0] -> []] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// a result type that differs from the upper lengths
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op result type '!layout.desc<4x1>' does not match the transforms' upper lengths [2, 2]}}
  %t = layout.transform %p [#layout.unmerge<[2, 2]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<4x1>
  return
}

// -----

/// something that is not a transform attribute in a stage
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected a transform attribute '#layout.<kind><...>'}}
  %t = layout.transform %p [42 : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// an attribute of another dialect in a stage
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected a layout transform attribute, got #gpu.address_space<workgroup>}}
  %t = layout.transform %p [#gpu.address_space<workgroup> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// a stage entry without its dims
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected ':' after the transform attribute}}
  %t = layout.transform %p [#layout.pass_through<4>] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// an unknown transform
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{unknown attribute `flatten` in dialect `layout` (the transforms: pass_through, pad, left_pad, right_pad, embed, merge, unmerge, replicate, freeze, offset, slice, modulo, xor, rotate, swizzle, sunder)}}
  %t = layout.transform %p [#layout.flatten<[4]> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// generic form: a transform without its dims
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op has 1 transforms but 0 lower_dims and 1 upper_dims entries}}
  %t = "layout.transform"(%p) <{transforms = [#layout.pass_through<4>], lower_dims = [], upper_dims = [array<i64: 0>]}> : (!layout.desc<4>) -> !layout.desc<4>
  return
}

// -----

/// generic form: an entry that is not a transform
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op entry 0 is not a layout transform attribute}}
  %t = "layout.transform"(%p) <{transforms = [4 : i64], lower_dims = [array<i64: 0>], upper_dims = [array<i64: 0>]}> : (!layout.desc<4>) -> !layout.desc<4>
  return
}

// -----

/// generic form: dims that are not i64 arrays
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op entry 0's dims must be array<i64: ...>}}
  %t = "layout.transform"(%p) <{transforms = [#layout.pass_through<4>], lower_dims = [[0]], upper_dims = [array<i64: 0>]}> : (!layout.desc<4>) -> !layout.desc<4>
  return
}

// -----

/// generic form: an empty stage
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{'layout.transform' op needs at least one transform}}
  %t = "layout.transform"(%p) <{transforms = [], lower_dims = [], upper_dims = []}> : (!layout.desc<4>) -> !layout.desc<4>
  return
}

// -----

/// a descriptor type with a zero length
// expected-error @+1 {{'!layout.desc' length 1 must be positive or '?', got 0}}
func.func @f(%d: !layout.desc<3x0>) {
  return
}

// -----

/// a descriptor type with more than INT64_MAX coordinates
// expected-error @+1 {{'!layout.desc' has more than INT64_MAX top coordinates (the product of its lengths overflows int64)}}
func.func @f(%d: !layout.desc<4294967296x4294967296>) {
  return
}

// -----

/// naive with fewer strides than lengths
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'strides' has 1 entries but 'lengths' has 2}}
  %d = layout.naive [3, 4] strides [8] : !layout.desc<3x4>
  return
}

// -----

/// naive with a negative stride
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'strides' entry 1 must be non-negative, got -1}}
  %d = layout.naive [3, 4] strides [8, -1] : !layout.desc<3x4>
  return
}

// -----

/// naive with a zero length
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'lengths' entry 1 must be positive, got 0}}
  %d = layout.naive [3, 0] strides [8, 1] : !layout.desc<3x1>
  return
}

// -----

/// naive with no lengths
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'lengths' must not be empty}}
  %d = layout.naive [] strides [] : !layout.desc<1>
  return
}

// -----

/// naive whose element space overflows
func.func @f() {
  // expected-error @+1 {{'layout.naive' op element space size offset + 1 + sum (len_i - 1) * stride_i overflows int64}}
  %d = layout.naive [3, 4] strides [4611686018427387904, 1] : !layout.desc<3x4>
  return
}

// -----

/// naive with a negative offset
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'offset' must be non-negative, got -2}}
  %d = layout.naive [3, 4] strides [4, 1] offset -2 : !layout.desc<3x4>
  return
}

// -----

/// naive whose space is smaller than its span
func.func @f() {
  // expected-error @+1 {{'layout.naive' op 'space' (12) must be at least offset + 1 + sum (len_i - 1) * stride_i = 14}}
  %d = layout.naive [3, 4] strides [4, 1] offset 2 space 12 : !layout.desc<3x4>
  return
}

// -----

/// naive whose type does not match
func.func @f() {
  // expected-error @+1 {{'layout.naive' op result type '!layout.desc<3x5>' does not match the lengths [3, 4]}}
  %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x5>
  return
}

// -----

/// packed whose type does not match
func.func @f() {
  // expected-error @+1 {{'layout.packed' op result type '!layout.desc<6x2>' does not match the lengths [2, 6]}}
  %d = layout.packed [2, 6] : !layout.desc<6x2>
  return
}

// -----

/// aligned with a zero alignment
func.func @f() {
  // expected-error @+1 {{'layout.aligned' op 'align' must be positive, got 0}}
  %d = layout.aligned [4, 5] align 0 : !layout.desc<4x5>
  return
}

// -----

/// aligned whose element space overflows
func.func @f() {
  // expected-error @+1 {{'layout.aligned' op element space size overflows int64}}
  %d = layout.aligned [3, 3074457345618258602] align 4 : !layout.desc<3x3074457345618258602>
  return
}

// -----

/// layout.offset with too few indices
func.func @f(%i: index) -> index {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.offset' op expects 2 indices (the rank of '!layout.desc<2x6>'), got 1}}
  %o = layout.offset %p[%i] : !layout.desc<2x6>
  return %o : index
}

// -----

/// layout.valid with too many indices
func.func @f(%i: index) -> i1 {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.valid' op expects 2 indices (the rank of '!layout.desc<2x6>'), got 3}}
  %o = layout.valid %p[%i, %i, %i] : !layout.desc<2x6>
  return %o : i1
}

// -----

/// layout.upper through a modulo
func.func @f(%i: index) -> index {
  %p = layout.packed [4] : !layout.desc<4>
  %t = layout.transform %p [#layout.modulo<4, 16> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<16>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 1, #layout.modulo<4, 16> : [0] -> [0] is not injective: the modulus 4 is smaller than the upper length 16, so u and u + 4 collide}}
  %u = layout.upper %t[%i] : !layout.desc<16>
  return %u : index
}

// -----

/// layout.upper through a replicate
func.func @f(%i: index) -> index {
  %p = layout.packed [4] : !layout.desc<4>
  %t = layout.transform %p [#layout.replicate<[3]> : [] -> [0], #layout.pass_through<4> : [0] -> [1]] : !layout.desc<4> -> !layout.desc<3x4>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 1, #layout.replicate<[3]> : [] -> [0] is not injective: every upper coordinate maps to the same (empty) lower coordinate}}
  %u:2 = layout.upper %t[%i] : !layout.desc<3x4>
  return %u#0 : index
}

// -----

/// layout.upper through an overlapping embed
func.func @f(%i: index) -> index {
  %p = layout.packed [4] : !layout.desc<4>
  %t = layout.transform %p [#layout.embed<[3, 2], [1, 1]> : [0] -> [0, 1]] : !layout.desc<4> -> !layout.desc<3x2>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 1, #layout.embed<[3, 2], [1, 1]> : [0] -> [0, 1] is not injective: upper coordinates [0, 1] and [1, 0] both map to 1}}
  %u:2 = layout.upper %t[%i] : !layout.desc<3x2>
  return %u#0 : index
}

// -----

/// layout.upper of a naive descriptor with overlapping strides
func.func @f(%i: index) -> index {
  %d = layout.naive [4, 4] strides [2, 1] : !layout.desc<4x4>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but the base (lengths [4, 4], strides [2, 1]) is not injective: upper coordinates [0, 2] and [1, 0] both map to 2}}
  %u:2 = layout.upper %d[%i] : !layout.desc<4x4>
  return %u#0 : index
}

// -----

/// a standalone attribute with a bad parameter
// expected-error @+1 {{'#layout.pad' 'left' must be non-negative, got -1}}
func.func @f() attributes {layout.t = #layout.pad<4, -1, 0>} {
  return
}

// -----

/// layout.upper through a shift of a sunder's piece
func.func @f(%i: index) -> index {
  %p = layout.packed [6] : !layout.desc<6>
  %s = layout.transform %p [#layout.sunder<[4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<6> -> !layout.desc<4x2x2>
  %t = layout.transform %s [#layout.offset<2, 1> : [0] -> [0], #layout.pass_through<2> : [1] -> [1], #layout.pass_through<2> : [2] -> [2]] : !layout.desc<4x2x2> -> !layout.desc<2x2x2>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 2, #layout.offset<2, 1> : [0] -> [0] reads the coordinate of a sunder's piece; the inverse picks 0 for the pieces a sunder does not select, which stays a valid coordinate only through transforms of one dim that keep 0 at 0 (pass_through, right_pad, embed, unmerge, freeze, modulo, swizzle, sunder; pad, offset, slice when their first parameter is 0)}}
  %u:3 = layout.upper %t[%i] : !layout.desc<2x2x2>
  return %u#0 : index
}

// -----

/// a tile whose rank differs from the view's
func.func @f(%m: memref<4x8xi32>) {
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  // expected-error @+1 {{'layout.partition' op tile has 3 lengths but the view has rank 2}}
  %p = layout.partition %v tile [2, 2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

// -----

/// a non-positive tile length
func.func @f(%m: memref<4x8xi32>) {
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  // expected-error @+1 {{'layout.partition' op tile length 1 must be positive, got 0}}
  %p = layout.partition %v tile [2, 0] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

// -----

/// a partition type with a non-positive tile length
// expected-error @+1 {{'!layout.partition_view' tile length 0 must be positive, got -3}}
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [-3, 2]>) {
  return
}

// -----

/// a tile of 2^40 elements (was a hang in -layout-to-llvm, one step per
/// element); the count is checked factor by factor, without overflow
func.func @f(%m: memref<?x?xf32>) {
  %v = layout.view %m : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
  // expected-error @+1 {{'layout.partition' op tile [1048576, 1048576] has more than 65536 elements (the limit of what one thread or block holds as a vector)}}
  %p = layout.partition %v tile [1048576, 1048576] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [1, 1]>
  return
}

// -----

/// a tile of 2^16 + 2^15 elements, one dimension long, in a type
// expected-error @+1 {{'!layout.partition_view' tile [98304, 1] has more than 65536 elements}}
func.func @f(%p: !layout.partition_view<?x?xf32, tile = [98304, 1]>) {
  return
}

// -----

/// lengths whose product overflows int64
// expected-error @+1 {{'!layout.partition_view' tile [4294967296, 4294967296, 4] has more than 65536 elements}}
func.func @f(%p: !layout.partition_view<?x?x?xf32, tile = [4294967296, 4294967296, 4]>) {
  return
}

// -----

/// a partition type whose tile rank differs from the view's
// expected-error @+1 {{'!layout.partition_view' tile has 1 lengths but the view has rank 2}}
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2]>) {
  return
}

// -----

/// a partition whose result type has another tile
func.func @f(%m: memref<4x8xi32>) {
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  // expected-error @+1 {{'layout.partition' op result type '!layout.partition_view<4x8xi32, tile = [2, 4]>' should be '!layout.partition_view<4x8xi32, tile = [2, 2]>'}}
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 4]>
  return
}

// -----

/// a load whose result shape differs from the tile
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op result type 'vector<2x4xi32>' does not match the tile 'vector<2x2xi32>'}}
  %r = layout.load %p[%i, %i] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x4xi32>
  return
}

// -----

/// a load whose result element type differs from the view's
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op result type 'vector<2x2xf32>' does not match the tile 'vector<2x2xi32>'}}
  %r = layout.load %p[%i, %i] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xf32>
  return
}

// -----

/// a load with the wrong number of tile indices
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op expects 2 tile indices (the rank of '!layout.partition_view<4x8xi32, tile = [2, 2]>'), got 1}}
  %r = layout.load %p[%i] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return
}

// -----

/// a non-zero padding value on an integer view
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op padding(nan) needs a floating-point view; 'i32' pads with zero only}}
  %r = layout.load %p[%i, %i] masked padding(nan) : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return
}

// -----

/// an unmasked load of 32x32 tiles of a static 16x16 view: the tile reaches
/// past the end (the silent out-of-bounds tile of issue 38)
func.func @f(%p: !layout.partition_view<16x16xf32, tile = [32, 32]>, %i: index) {
  // expected-error @+1 {{'layout.load' op is unmasked, but along dimension 0 the view's extent 16 is not a multiple of the tile's 32: tile 0 reads 16 elements past the end; add 'masked' (or index only tiles inside the view with constants)}}
  %r = layout.load %p[%i, %i] : !layout.partition_view<16x16xf32, tile = [32, 32]> -> vector<32x32xf32>
  return
}

// -----

/// an unmasked store whose constant index names the last, partial tile
func.func @f(%p: !layout.partition_view<4x11xf32, tile = [2, 4]>, %v: vector<2x4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'layout.store' op is unmasked, but along dimension 1 the view's extent 11 is not a multiple of the tile's 4: tile 2 writes 1 elements past the end; add 'masked' (or index only tiles inside the view with constants)}}
  layout.store %v, %p[%c1, %c2] : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
  return
}

// -----

/// padding without masked
func.func @f(%p: !layout.partition_view<4x8xf32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op padding(pos_inf) needs 'masked': an unmasked load reads every element}}
  %r = layout.load %p[%i, %i] padding(pos_inf) : !layout.partition_view<4x8xf32, tile = [2, 2]> -> vector<2x2xf32>
  return
}

// -----

/// a store of the wrong vector type
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %x: vector<4xi32>, %i: index) {
  // expected-error @+1 {{'layout.store' op value type 'vector<4xi32>' does not match the tile 'vector<2x2xi32>'}}
  layout.store %x, %p[%i, %i] : vector<4xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

// -----

/// an atomic order that is not valid for loads
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op memory order 'release' is not valid for a load (use relaxed, acquire or seq_cst)}}
  %r = layout.load %p[%i, %i] atomic(release, device) : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return
}

// -----

/// acq_rel is not valid for loads either
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op memory order 'acq_rel' is not valid for a load (use relaxed, acquire or seq_cst)}}
  %r = layout.load %p[%i, %i] atomic(acq_rel, block) : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return
}

// -----

/// an atomic order that is not valid for stores
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %x: vector<2x2xi32>, %i: index) {
  // expected-error @+1 {{'layout.store' op memory order 'acquire' is not valid for a store (use relaxed, release or seq_cst)}}
  layout.store %x, %p[%i, %i] atomic(acquire, device) : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

// -----

/// an atomic access to elements that are not 8, 16, 32 or 64 bits
func.func @f(%p: !layout.partition_view<4x8xi1, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op an atomic access needs elements of 8, 16, 32 or 64 bits, got 'i1'}}
  %r = layout.load %p[%i, %i] atomic(relaxed, device) : !layout.partition_view<4x8xi1, tile = [2, 2]> -> vector<2x2xi1>
  return
}

// -----

/// an atomic clause given only an order (generic form)
func.func @f(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) {
  // expected-error @+1 {{'layout.load' op an atomic access needs both a memory order and a scope}}
  %r = "layout.load"(%p, %i, %i) <{order = 1 : i32}> : (!layout.partition_view<4x8xi32, tile = [2, 2]>, index, index) -> vector<2x2xi32>
  return
}

// -----

/// a buffer statically smaller than the descriptor's element space
func.func @f(%buf: memref<10xf32>) {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.view' op buffer of 10 elements is smaller than the descriptor's element space (12 elements)}}
  %v = layout.view %buf by %p : memref<10xf32>, !layout.desc<2x6> -> !layout.tensor_view<2x6xf32>
  return
}

// -----

/// a view through a descriptor over a buffer that is not 1-D
func.func @f(%buf: memref<3x4xf32>) {
  %p = layout.packed [12] : !layout.desc<12>
  // expected-error @+1 {{'layout.view' op the buffer of a view through a descriptor must be 1-D, got 'memref<3x4xf32>'}}
  %v = layout.view %buf by %p : memref<3x4xf32>, !layout.desc<12> -> !layout.tensor_view<12xf32>
  return
}

// -----

/// a view whose shape differs from the descriptor's lengths
func.func @f(%buf: memref<12xf32>) {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // expected-error @+1 {{'layout.view' op view type '!layout.tensor_view<6x2xf32>' does not have the descriptor's lengths ('!layout.desc<2x6>')}}
  %v = layout.view %buf by %p : memref<12xf32>, !layout.desc<2x6> -> !layout.tensor_view<6x2xf32>
  return
}

// -----

/// a view whose shape differs from the memref's
func.func @f(%m: memref<4x8xi32>) {
  // expected-error @+1 {{'layout.view' op view type '!layout.tensor_view<4x?xi32>' does not have the memref's shape ('memref<4x8xi32>')}}
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x?xi32>
  return
}

// -----

/// a view whose element type differs from the buffer's
func.func @f(%m: memref<4x8xi32>) {
  // expected-error @+1 {{'layout.view' op element type 'f32' of the view differs from the buffer's 'i32'}}
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xf32>
  return
}

// -----

/// a view type with a non-positive extent
// expected-error @+1 {{'!layout.tensor_view' extent 1 must be positive or '?', got 0}}
func.func @f(%v: !layout.tensor_view<4x0xf32>) {
  return
}

// -----

/// a view type of a non-scalar element
// expected-error @+1 {{'!layout.tensor_view' element type must be an integer or a float, got 'index'}}
func.func @f(%v: !layout.tensor_view<4xindex>) {
  return
}

// -----

/// an alias that is not a layout transform
#notlayout = 3 : i32
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{custom op 'layout.transform' expected a layout transform attribute, got 3 : i32}}
  %t = layout.transform %p [#notlayout : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// make_coord with the wrong number of indices
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  // expected-error @+1 {{'layout.make_coord' op expects 2 indices (the rank of '!layout.desc<4x6>'), got 1}}
  %c = layout.make_coord %p[%i] : !layout.desc<4x6> -> !layout.coord<4x6, 4>
  return
}

// -----

/// a coordinate type of other lengths
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  // expected-error @+1 {{'layout.make_coord' op coordinate type '!layout.coord<6x4, 4>' does not have the descriptor's lengths ('!layout.desc<4x6>')}}
  %c = layout.make_coord %p[%i, %i] : !layout.desc<4x6> -> !layout.coord<6x4, 4>
  return
}

// -----

/// a coordinate type with the wrong number of hidden indices
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %m = layout.transform %p [#layout.merge<[4, 6]> : [0, 1] -> [0]] : !layout.desc<4x6> -> !layout.desc<24>
  // expected-error @+1 {{'layout.make_coord' op coordinate type '!layout.coord<24, 2>' carries 2 hidden indices but the descriptor's chain has 3}}
  %c = layout.make_coord %m[%i] : !layout.desc<24> -> !layout.coord<24, 2>
  return
}

// -----

/// a static step of the wrong rank
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %c = layout.make_coord %p[%i, %i] : !layout.desc<4x6> -> !layout.coord<4x6, 2>
  // expected-error @+1 {{'layout.move_coord' op static step has 1 entries but the descriptor has rank 2}}
  %n = layout.move_coord %p, %c by [1] : !layout.desc<4x6>, !layout.coord<4x6, 2>
  return
}

// -----

/// a dynamic step of the wrong rank
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %c = layout.make_coord %p[%i, %i] : !layout.desc<4x6> -> !layout.coord<4x6, 2>
  // expected-error @+1 {{'layout.move_coord' op expects 2 step values, got 3}}
  %n = layout.move_coord %p, %c[%i, %i, %i] : !layout.desc<4x6>, !layout.coord<4x6, 2>
  return
}

// -----

/// both a static and a dynamic step (generic form)
func.func @f(%i: index) {
  %p = layout.packed [4] : !layout.desc<4>
  %c = layout.make_coord %p[%i] : !layout.desc<4> -> !layout.coord<4, 1>
  // expected-error @+1 {{'layout.move_coord' op takes a static or a dynamic step, not both}}
  %n = "layout.move_coord"(%p, %c, %i) <{static_steps = array<i64: 1>}> : (!layout.desc<4>, !layout.coord<4, 1>, index) -> !layout.coord<4, 1>
  return
}

// -----

/// the offset of a coordinate of another descriptor
func.func @f(%i: index) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %q = layout.packed [6, 4] : !layout.desc<6x4>
  %c = layout.make_coord %p[%i, %i] : !layout.desc<4x6> -> !layout.coord<4x6, 2>
  // expected-error @+1 {{'layout.coord_offset' op coordinate type '!layout.coord<4x6, 2>' does not have the descriptor's lengths ('!layout.desc<6x4>')}}
  %o = layout.coord_offset %q, %c : !layout.desc<6x4>, !layout.coord<4x6, 2>
  return
}

// -----

/// layout.upper through a left pad of a sunder's piece (its inverse moves
/// the piece's representative 0 to -1, invalid)
func.func @f(%i: index) -> index {
  %p = layout.packed [6] : !layout.desc<6>
  %s = layout.transform %p [#layout.sunder<[4, 2]> : [0] -> [0, 1, 2]] : !layout.desc<6> -> !layout.desc<4x2x2>
  %t = layout.transform %s [#layout.pass_through<4> : [0] -> [0], #layout.left_pad<2, 1> : [1] -> [1], #layout.pass_through<2> : [2] -> [2]] : !layout.desc<4x2x2> -> !layout.desc<4x3x2>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 2, #layout.left_pad<2, 1> : [1] -> [1] reads the coordinate of a sunder's piece}}
  %u:3 = layout.upper %t[%i] : !layout.desc<4x3x2>
  return %u#0 : index
}

// -----

/// layout.upper through an embed that does not nest and is too large to
/// enumerate
func.func @f(%i: index) -> index {
  %p = layout.packed [600000] : !layout.desc<600000>
  %t = layout.transform %p [#layout.embed<[300, 300], [2, 3]> : [0] -> [0, 1]] : !layout.desc<600000> -> !layout.desc<300x300>
  // expected-error @+1 {{'layout.upper' op needs a descriptor that is injective on its valid domain, but stage 1, #layout.embed<[300, 300], [2, 3]> : [0] -> [0, 1] is not nested (no coefficient order in which each exceeds the span of the smaller ones), and it has more than 65536 coordinates, the most that are enumerated to check that it is injective}}
  %u:2 = layout.upper %t[%i] : !layout.desc<300x300>
  return %u#0 : index
}

// -----

/// layout.upper through an injective embed whose inverse would search more
/// combinations than it unrolls
func.func @f(%i: index) -> index {
  %p = layout.packed [8192] : !layout.desc<8192>
  %t = layout.transform %p [#layout.embed<[2, 2, 2, 2, 2, 2, 2, 2, 2, 3], [3, 6, 12, 24, 48, 96, 192, 384, 768, 2]> : [0] -> [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]] : !layout.desc<8192> -> !layout.desc<2x2x2x2x2x2x2x2x2x3>
  // expected-error @+1 {{is injective but not nested; its inverse would search 512 combinations of the other dimensions, more than the 256 it unrolls}}
  %u:10 = layout.upper %t[%i] : !layout.desc<2x2x2x2x2x2x2x2x2x3>
  return %u#0 : index
}

// -----

/// layout.compose breaking CuTe's stride divisibility condition
func.func @f() -> !layout.desc<3> {
  %a = layout.naive [6, 2] strides [8, 2] : !layout.desc<6x2>
  %b = layout.naive [3] strides [4] : !layout.desc<3>
  // expected-error @+1 {{'layout.compose' op composition with 3:4 breaks CuTe's stride divisibility condition: the remaining stride 4 and the size 6 of the coalesced mode 0 of (6,2):(8,2) do not divide one another}}
  %c = layout.compose %a, %b : (!layout.desc<6x2>, !layout.desc<3>) -> !layout.desc<3>
  return %c : !layout.desc<3>
}

// -----

/// a layout.compose result type that is not the result's
func.func @f() -> !layout.desc<12> {
  %a = layout.naive [6, 2] strides [8, 2] : !layout.desc<6x2>
  %b = layout.naive [4, 3] strides [3, 1] : !layout.desc<4x3>
  // expected-error @+1 {{'layout.compose' op result type '!layout.desc<12>' does not match the sizes of the result's modes [4, 3]}}
  %c = layout.compose %a, %b : (!layout.desc<6x2>, !layout.desc<4x3>) -> !layout.desc<12>
  return %c : !layout.desc<12>
}

// -----

/// layout.blocked_product with two tiler operands
func.func @f(%t: !layout.desc<3>) -> !layout.desc<6x20> {
  %a = layout.naive [2, 5] strides [5, 1] : !layout.desc<2x5>
  // expected-error @+1 {{'layout.blocked_product' op takes 1 tiler operand, got 2}}
  %c = layout.blocked_product %a, %t, %t : (!layout.desc<2x5>, !layout.desc<3>, !layout.desc<3>) -> !layout.desc<6x20>
  return %c : !layout.desc<6x20>
}

// -----

/// the algebra on a descriptor that is not strided
func.func @f() -> !layout.desc<4x8> {
  %p = layout.packed [4, 8] : !layout.desc<4x8>
  %x = layout.transform %p [#layout.xor<[4, 8]> : [0, 1] -> [0, 1]] : !layout.desc<4x8> -> !layout.desc<4x8>
  // expected-error @+1 {{'layout.coalesce' op operand 0 is not a layout of the algebra: stage 1, #layout.xor<[4, 8]> : [0, 1] -> [0, 1] is not strided: the algebra is defined on pass_through, merge, unmerge, embed, replicate, and offset, slice or freeze at 0}}
  %c = layout.coalesce %x : !layout.desc<4x8> -> !layout.desc<4x8>
  return %c : !layout.desc<4x8>
}

// -----

/// layout.complement within a size that is not positive
func.func @f() -> !layout.desc<1> {
  %a = layout.naive [4] strides [2] : !layout.desc<4>
  // expected-error @+1 {{'layout.complement' op the complement's codomain size must be positive, got 0}}
  %c = layout.complement %a, 0 : !layout.desc<4> -> !layout.desc<1>
  return %c : !layout.desc<1>
}

// -----

/// layout.left_inverse of a layout whose modes overlap
func.func @f() -> !layout.desc<4> {
  %a = layout.naive [2, 2] strides [1, 1] : !layout.desc<2x2>
  // expected-error @+1 {{'layout.left_inverse' op (2,2):(1,1) is not injective: the mode of size 2 and stride 1 overlaps the mode of stride 1, so it has no left inverse}}
  %c = layout.left_inverse %a : !layout.desc<2x2> -> !layout.desc<4>
  return %c : !layout.desc<4>
}

// -----

/// the algebra on a descriptor with a base offset
func.func @f() -> !layout.desc<4> {
  %a = layout.naive [4] strides [2] offset 3 : !layout.desc<4>
  // expected-error @+1 {{'layout.right_inverse' op operand 0 is not a layout of the algebra: the base has offset 3; the algebra's layouts start at 0}}
  %c = layout.right_inverse %a : !layout.desc<4> -> !layout.desc<4>
  return %c : !layout.desc<4>
}

// -----

/// Run-time arguments: only the kinds whose arguments are sizes take `?`.
func.func @xor_runtime(%n: index) {
  %p = layout.packed [%n, 4] : !layout.desc<?x4>
  // expected-error @+1 {{'#layout.xor' takes no run-time ('?') argument: its formula depends on the values}}
  %t = layout.transform %p [#layout.xor<[?, 4]> : [0, 1] -> [0, 1]] args(%n) : !layout.desc<?x4> -> !layout.desc<?x4>
  return
}

// -----

/// Every `?` of a stage needs its value in args(...).
func.func @runtime_args_missing(%n: index) {
  %p = layout.packed [%n] : !layout.desc<?>
  // expected-error @+1 {{'layout.transform' op the transforms have 1 run-time arguments ('?') but args(...) gives 0 values}}
  %t = layout.transform %p [#layout.pass_through<?> : [0] -> [0]] : !layout.desc<?> -> !layout.desc<?>
  return
}

// -----

func.func @runtime_args_extra(%n: index) {
  %p = layout.packed [8] : !layout.desc<8>
  // expected-error @+1 {{'layout.transform' op the transforms have 0 run-time arguments ('?') but args(...) gives 1 values}}
  %t = layout.transform %p [#layout.pass_through<8> : [0] -> [0]] args(%n) : !layout.desc<8> -> !layout.desc<8>
  return
}

// -----

/// The static parts of a transform with run-time arguments are still checked.
func.func @runtime_slice_static_parts(%n: index) {
  %p = layout.packed [%n] : !layout.desc<?>
  // expected-error @+1 {{'#layout.slice' 'begin' (4) must not be greater than 'end' (2)}}
  %t = layout.transform %p [#layout.slice<?, 4, 2> : [0] -> [0]] args(%n) : !layout.desc<?> -> !layout.desc<2>
  return
}

// -----

/// A static length that does not fit a static lower length is an error even
/// next to run-time ones.
func.func @runtime_static_mismatch(%n: index) {
  %p = layout.packed [%n, 6] : !layout.desc<?x6>
  // expected-error @+1 {{'layout.transform' op transform 1 (#layout.pass_through<4>) lower length must equal the transform's length (4), but the consumed dimension has length 6}}
  %t = layout.transform %p [#layout.pass_through<?> : [0] -> [0], #layout.pass_through<4> : [1] -> [1]] args(%n) : !layout.desc<?x6> -> !layout.desc<?x4>
  return
}

// -----

/// A `?` in the result type stands for a run-time length; a static one
/// must match.
func.func @runtime_result_type(%n: index) {
  %p = layout.packed [%n] : !layout.desc<?>
  // expected-error @+1 {{'layout.transform' op result type '!layout.desc<4>' does not match the transforms' upper lengths [?]}}
  %t = layout.transform %p [#layout.pass_through<?> : [0] -> [0]] args(%n) : !layout.desc<?> -> !layout.desc<4>
  return
}

// -----

func.func @runtime_base_type(%n: index) {
  // expected-error @+1 {{'layout.packed' op result type '!layout.desc<4x8>' does not match the lengths [?, 8]}}
  %p = layout.packed [%n, 8] : !layout.desc<4x8>
  return
}

// -----

/// Divisibility facts: a positive multiple.
func.func @assume_zero(%x: index) -> index {
  // expected-error @+1 {{'layout.assume_multiple' op 'multiple' must be positive, got 0}}
  %y = layout.assume_multiple %x, 0 : index
  return %y : index
}

// -----

// expected-error @+1 {{'func.func' op argument 0's 'layout.multiple_of' applies to an index or integer argument, not 'f32'}}
func.func @multiple_of_float(%x: f32 {layout.multiple_of = 4 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument 0's 'layout.multiple_of' the multiple must be positive, got -4}}
func.func @multiple_of_negative(%x: index {layout.multiple_of = -4 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument 0's 'layout.stride_multiples' has 1 entries but 'memref<?x?xf32, strided<[?, 1], offset: ?>>' has rank 2}}
func.func @stride_multiples_rank(%m: memref<?x?xf32, strided<[?, 1], offset: ?>> {layout.stride_multiples = array<i64: 4>}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument 0's 'layout.offset_multiple' applies to a strided memref argument, not 'index'}}
func.func @offset_multiple_index(%x: index {layout.offset_multiple = 4 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown layout argument attribute 'layout.multiple'}}
func.func @unknown_fact(%x: index {layout.multiple = 4 : i64}) {
  return
}

// -----

/// a missing parameter: the message names it and the signature
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected 3 parameters: #layout.pad<length, left, right>; 'right' is missing}}
  %t = layout.transform %p [#layout.pad<4, 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<6>
  return
}

// -----

/// a malformed parameter
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected 3 parameters: #layout.pad<length, left, right>; parameter 'left': expected integer value}}
  %t = layout.transform %p [#layout.pad<4, x, 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<6>
  return
}

// -----

/// a missing comma
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected 2 parameters: #layout.offset<upper_length, offset>; expected ',' after 'upper_length'}}
  %t = layout.transform %p [#layout.offset<2 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<2>
  return
}

// -----

/// one parameter too many
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{expected 2 parameters: #layout.embed<upper_lengths, coefficients>, got more}}
  %t = layout.transform %p [#layout.embed<[2], [1], [3]> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<2>
  return
}

// -----

/// a misspelt transform: the nearest name
func.func @f() {
  %p = layout.packed [4] : !layout.desc<4>
  // expected-error @+1 {{unknown attribute `pass_thru` in dialect `layout`; did you mean `pass_through`?}}
  %t = layout.transform %p [#layout.pass_thru<4> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
  return
}

// -----

/// a missing parameter outside layout.transform (an alias)
// expected-error @+1 {{expected 4 parameters: #layout.swizzle<bits, base, shift, length>; 'shift' is missing}}
#bad = #layout.swizzle<3, 4>

// -----

/// Divisibility facts: a negative multiple (the i64 is read signed).
func.func @assume_negative(%x: index) -> index {
  // expected-error @+1 {{'layout.assume_multiple' op 'multiple' must be positive, got -4}}
  %y = layout.assume_multiple %x, -4 : index
  return %y : index
}

// -----

func.func @assume_minus_one(%x: index) -> index {
  // expected-error @+1 {{'layout.assume_multiple' op 'multiple' must be positive, got -1}}
  %y = layout.assume_multiple %x, -1 : index
  return %y : index
}

// -----

func.func @assume_int64_min(%x: index) -> index {
  // expected-error @+1 {{'layout.assume_multiple' op 'multiple' must be positive, got -9223372036854775808}}
  %y = layout.assume_multiple %x, -9223372036854775808 : index
  return %y : index
}

// -----

/// A constant run-time argument that breaks the transform's rule: the stage
/// with it written in is checked as a static one.
func.func @constant_arg_breaks_pad() {
  %cm2 = arith.constant -2 : index
  %p = layout.packed [8] : !layout.desc<8>
  // expected-error @+1 {{'layout.transform' op with its constant run-time arguments written in: transform 0 (#layout.pad<8, -2, 1>) 'left' must be non-negative, got -2}}
  %t = layout.transform %p [#layout.pad<8, ?, 1> : [0] -> [0]] args(%cm2) : !layout.desc<8> -> !layout.desc<?>
  return
}

// -----

/// A constant run-time argument in the range reserved for run-time values.
func.func @constant_arg_reserved() {
  %min = arith.constant -9223372036854775808 : index
  %p = layout.packed [8] : !layout.desc<8>
  // expected-error @+1 {{'layout.transform' op run-time operand 0 is the constant -9223372036854775808, in the range reserved for run-time values}}
  %t = layout.transform %p [#layout.offset<4, ?> : [0] -> [0]] args(%min) : !layout.desc<8> -> !layout.desc<4>
  return
}

// -----

/// A constant run-time length of a packed base that breaks its rule.
func.func @constant_packed_length() {
  %cm2 = arith.constant -2 : index
  // expected-error @+1 {{'layout.packed' op with its constant operands written in: 'lengths' entry 0 must be positive, got -2}}
  %p = layout.packed [%cm2, 4] : !layout.desc<?x4>
  return
}

// -----

/// A constant run-time stride of a naive base that breaks its rule.
func.func @constant_naive_stride(%n: index) {
  %cm1 = arith.constant -1 : index
  // expected-error @+1 {{'layout.naive' op with its constant operands written in: 'strides' entry 0 must be non-negative, got -1}}
  %p = layout.naive [%n, 4] strides [%cm1, 1] : !layout.desc<?x4>
  return
}

// -----

/// A constant run-time length in the range reserved for run-time values.
func.func @constant_packed_reserved() {
  %min = arith.constant -9223372036854775808 : index
  // expected-error @+1 {{'layout.packed' op run-time operand 0 is the constant -9223372036854775808, in the range reserved for run-time values}}
  %p = layout.packed [%min, 4] : !layout.desc<?x4>
  return
}
