// RUN: layout-opt %s -convert-layout-to-vector -split-input-file -verify-diagnostics

/// A partition that arrives as a block argument cannot be traced to its view.
func.func @partition_argument(%p: !layout.partition_view<4x8xi32, tile = [2, 2]>, %i: index) -> vector<2x2xi32> {
  // expected-error @+1 {{'layout.load' op cannot be lowered: the partition view's origin cannot be traced: it is a block argument, not a 'layout.partition'}}
  %r = layout.load %p[%i, %i] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return %r : vector<2x2xi32>
}

// -----

/// Nor can a view that arrives as a block argument.
func.func @view_argument(%v: !layout.tensor_view<4x8xi32>, %x: vector<2x2xi32>, %i: index) {
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  // expected-error @+1 {{'layout.store' op cannot be lowered: the tensor view's origin cannot be traced: it is a block argument, not a 'layout.view'}}
  layout.store %x, %p[%i, %i] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

// -----

/// Nor a descriptor that arrives as a block argument.
func.func @desc_argument(%buf: memref<64xf32>, %d: !layout.desc<8x8>, %i: index) -> vector<2x2xf32> {
  %v = layout.view %buf by %d : memref<64xf32>, !layout.desc<8x8> -> !layout.tensor_view<8x8xf32>
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<8x8xf32> -> !layout.partition_view<8x8xf32, tile = [2, 2]>
  // expected-error @+1 {{'layout.load' op cannot be lowered: the descriptor's origin cannot be traced: it is a block argument, not a layout.naive / layout.packed / layout.aligned chain}}
  %r = layout.load %p[%i, %i] : !layout.partition_view<8x8xf32, tile = [2, 2]> -> vector<2x2xf32>
  return %r : vector<2x2xf32>
}

// -----

/// An atomic access to a memref whose memory space is not an LLVM address
/// space.
func.func @atomic_space(%m: memref<8xi32, #gpu.address_space<workgroup>>, %i: index) -> vector<4xi32> {
  %v = layout.view %m : memref<8xi32, #gpu.address_space<workgroup>> -> !layout.tensor_view<8xi32>
  %p = layout.partition %v tile [4] : !layout.tensor_view<8xi32> -> !layout.partition_view<8xi32, tile = [4]>
  // expected-error @+1 {{'layout.load' op cannot be lowered: an atomic access needs a memref whose memory space is an integer (an LLVM address space)}}
  %t = layout.load %p[%i] atomic(acquire, block) : !layout.partition_view<8xi32, tile = [4]> -> vector<4xi32>
  return %t : vector<4xi32>
}

// -----

/// A store through a view that is not injective (a replicate stage: the 4
/// rows of the tile are one row of memory) is undefined behaviour in
/// cuda::tiles, masked or not; a load through it is a broadcast and lowers.
func.func @store_replicated(%buf: memref<8xf32>, %t: vector<4x8xf32>, %i: index) -> vector<4x8xf32> {
  %d = layout.packed [8] : !layout.desc<8>
  %r = layout.transform %d [#layout.replicate<[4]> : [] -> [0], #layout.pass_through<8> : [0] -> [1]] : !layout.desc<8> -> !layout.desc<4x8>
  %v = layout.view %buf by %r : memref<8xf32>, !layout.desc<4x8> -> !layout.tensor_view<4x8xf32>
  %p = layout.partition %v tile [4, 8] : !layout.tensor_view<4x8xf32> -> !layout.partition_view<4x8xf32, tile = [4, 8]>
  // expected-error @+1 {{'layout.store' op cannot be lowered: a store through a view whose descriptor is not injective: several tile elements could write one memory element (stage 1, #layout.replicate<[4]> : [] -> [0] is not injective: every upper coordinate maps to the same (empty) lower coordinate)}}
  layout.store %t, %p[%i, %i] masked : vector<4x8xf32>, !layout.partition_view<4x8xf32, tile = [4, 8]>
  %x = layout.load %p[%i, %i] masked : !layout.partition_view<4x8xf32, tile = [4, 8]> -> vector<4x8xf32>
  return %x : vector<4x8xf32>
}
