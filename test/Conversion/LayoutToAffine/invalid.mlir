// RUN: layout-opt %s -convert-layout-to-affine -split-input-file -verify-diagnostics

/// A descriptor that arrives as a block argument cannot be traced.
func.func @block_argument(%d: !layout.desc<4>, %i: index) -> index {
  // expected-error @+1 {{'layout.offset' op cannot be lowered: the descriptor's origin cannot be traced: it is a block argument, not a layout.naive / layout.packed / layout.aligned chain}}
  %o = layout.offset %d[%i] : !layout.desc<4>
  return %o : index
}

// -----

/// Nor can one carried through scf.for's iter_args.
func.func @iter_args(%i: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = layout.packed [4] : !layout.desc<4>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%d = %p) -> (!layout.desc<4>) {
    scf.yield %d : !layout.desc<4>
  }
  // expected-error @+1 {{'layout.valid' op cannot be lowered: the descriptor's origin cannot be traced: it is produced by 'scf.for'}}
  %v = layout.valid %r[%i] : !layout.desc<4>
  %o = arith.index_cast %v : i1 to index
  return %o : index
}

// -----

/// layout.upper of an untraceable descriptor: its injectivity is unknown,
/// so it cannot be lowered either.
func.func @upper_block_argument(%d: !layout.desc<4x4>, %o: index) -> index {
  // expected-error @+1 {{'layout.upper' op cannot be lowered: the descriptor's origin cannot be traced: it is a block argument, not a layout.naive / layout.packed / layout.aligned chain}}
  %u:2 = layout.upper %d[%o] : !layout.desc<4x4>
  return %u#0 : index
}

// -----

/// A coordinate of an untraceable descriptor cannot be lowered either.
func.func @coord_of_argument(%d: !layout.desc<24>, %i: index) -> index {
  // expected-error @+1 {{'layout.make_coord' op cannot be lowered: the descriptor's origin cannot be traced: it is a block argument, not a layout.naive / layout.packed / layout.aligned chain}}
  %c = layout.make_coord %d[%i] : !layout.desc<24> -> !layout.coord<24, 1>
  // expected-error @+1 {{'layout.coord_offset' op cannot be lowered: the descriptor's origin cannot be traced}}
  %o = layout.coord_offset %d, %c : !layout.desc<24>, !layout.coord<24, 1>
  return %o : index
}

// -----

/// A cycle through an algebra op in a graph region (the module body) is
/// refused when traced, not followed forever.
%i = arith.constant 1 : index
%c = layout.coalesce %c : !layout.desc<4> -> !layout.desc<4>
// expected-error @+1 {{'layout.offset' op cannot be lowered: the descriptor's chain nests algebra ops more than 64 deep, or is a cycle}}
%o = layout.offset %c[%i] : !layout.desc<4>

// -----

/// So is a cycle of layout.transform ops.
%i = arith.constant 1 : index
%t = layout.transform %t [#layout.pass_through<4> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
// expected-error @+1 {{'layout.offset' op cannot be lowered: the descriptor's chain of layout.transform ops is a cycle}}
%o = layout.offset %t[%i] : !layout.desc<4>

// -----

/// The inverse of a base with run-time strides depends on their order.
func.func @upper_runtime_strides(%s: index, %o: index) -> index {
  %d = layout.naive [4, 8] strides [%s, 1] : !layout.desc<4x8>
  // expected-error @+1 {{'layout.upper' op cannot be lowered: the descriptor is not invertible: the base (lengths [4, 8], strides [?, 1]) has run-time arguments, and whether it is injective (and its inverse) depends on their values}}
  %u:2 = layout.upper %d[%o] : !layout.desc<4x8>
  return %u#0 : index
}

