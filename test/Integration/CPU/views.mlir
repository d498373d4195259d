// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Tensor views and partition views executed on the CPU: the examples of
/// the cuda::tiles partition_view seed, every padding kind, dynamic
/// extents, tiles that are not powers of two, masked stores that must not
/// touch anything outside the view, and views through a padded and an
/// xor-swizzled descriptor. Expected values are worked out by hand in the
/// comments.

/// Fills a 2-D f32 memref with row * cols + col + bias.
func.func @iota2d(%m: memref<?x?xf32>, %bias: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %xi = arith.index_cast %x : index to i64
      %xf = arith.sitofp %xi : i64 to f32
      %y = arith.addf %xf, %bias : f32
      memref.store %y, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

/// Fills a 1-D f32 memref with index + bias.
func.func @iota1d(%m: memref<?xf32>, %bias: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %xi = arith.index_cast %i : index to i64
    %xf = arith.sitofp %xi : i64 to f32
    %y = arith.addf %xf, %bias : f32
    memref.store %y, %m[%i] : memref<?xf32>
  }
  return
}

// CHECK-LABEL: seed 4x8 tile (1, 2)
// CHECK-NEXT: ( ( 20, 21 ), ( 28, 29 ) )
// CHECK-NEXT: index space: ( 2, 4 )
// CHECK-LABEL: seed store 100 * iota at (1, 3)
// CHECK-NEXT: ( ( 0, 1, 2, 3, 4, 5, 6, 7 ), ( 8, 9, 10, 11, 12, 13, 14, 15 ), ( 16, 17, 18, 19, 20, 21, 0, 100 ), ( 24, 25, 26, 27, 28, 29, 200, 300 ) )
func.func @seed_4x8() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloca() : memref<4x8xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %r = arith.muli %i, %c8 : index
      %x = arith.addi %r, %j : index
      %xi = arith.index_cast %x : index to i32
      memref.store %xi, %m[%i, %j] : memref<4x8xi32>
    }
  }
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  %pv = layout.partition %v tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  %r = layout.load %pv[%c1, %c2] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  vector.print str "seed 4x8 tile (1, 2)\n"
  vector.print %r : vector<2x2xi32>
  %n:2 = layout.index_space %pv : !layout.partition_view<4x8xi32, tile = [2, 2]>
  %nv = vector.from_elements %n#0, %n#1 : vector<2xindex>
  vector.print str "index space: "
  vector.print %nv : vector<2xindex>
  %a = arith.constant dense<[[0, 100], [200, 300]]> : vector<2x2xi32>
  layout.store %a, %pv[%c1, %c3] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  %c0_i32 = arith.constant 0 : i32
  %all = vector.transfer_read %m[%c0, %c0], %c0_i32 : memref<4x8xi32>, vector<4x8xi32>
  vector.print str "seed store 100 * iota at (1, 3)\n"
  vector.print %all : vector<4x8xi32>
  return
}

// CHECK-LABEL: seed 4x11 tile (0, 2) padding(nan)
// CHECK-NEXT: ( ( 8, 9, 10, nan ), ( 19, 20, 21, nan ) )
// CHECK-NEXT: zero: ( ( 8, 9, 10, 0 ), ( 19, 20, 21, 0 ) )
// CHECK-NEXT: neg_zero: ( ( 8, 9, 10, -0 ), ( 19, 20, 21, -0 ) )
// CHECK-NEXT: pos_inf: ( ( 8, 9, 10, inf ), ( 19, 20, 21, inf ) )
// CHECK-NEXT: neg_inf: ( ( 8, 9, 10, -inf ), ( 19, 20, 21, -inf ) )
// CHECK-NEXT: index space: ( 2, 3 )
func.func @seed_4x11() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %f = memref.alloca() : memref<4x11xf32>
  %fd = memref.cast %f : memref<4x11xf32> to memref<?x?xf32>
  call @iota2d(%fd, %zero) : (memref<?x?xf32>, f32) -> ()
  %v = layout.view %f : memref<4x11xf32> -> !layout.tensor_view<4x11xf32>
  %p = layout.partition %v tile [2, 4] : !layout.tensor_view<4x11xf32> -> !layout.partition_view<4x11xf32, tile = [2, 4]>
  %q = layout.load %p[%c0, %c2] masked padding(nan) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "seed 4x11 tile (0, 2) padding(nan)\n"
  vector.print %q : vector<2x4xf32>
  %z = layout.load %p[%c0, %c2] masked padding(zero) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "zero: "
  vector.print %z : vector<2x4xf32>
  %nz = layout.load %p[%c0, %c2] masked padding(neg_zero) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "neg_zero: "
  vector.print %nz : vector<2x4xf32>
  %pi = layout.load %p[%c0, %c2] masked padding(pos_inf) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "pos_inf: "
  vector.print %pi : vector<2x4xf32>
  %ni = layout.load %p[%c0, %c2] masked padding(neg_inf) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "neg_inf: "
  vector.print %ni : vector<2x4xf32>
  %n:2 = layout.index_space %p : !layout.partition_view<4x11xf32, tile = [2, 4]>
  %nv = vector.from_elements %n#0, %n#1 : vector<2xindex>
  vector.print str "index space: "
  vector.print %nv : vector<2xindex>
  return
}

/// A 4x11 view with dynamic extents cut into 3x5 tiles (2 x 3 of them):
/// tile (1, 2) holds rows 3..5 and columns 10..14, of which only (3, 10)
/// = 3 * 11 + 10 = 43 is inside. 7x1 tiles: tile (0, 5) is column 5:
/// 5, 16, 27, 38 and three paddings.
// CHECK-LABEL: dynamic 3x5
// CHECK-NEXT: index space: ( 2, 3 )
// CHECK-NEXT: ( ( 43, -1, -1, -1, -1 ), ( -1, -1, -1, -1, -1 ), ( -1, -1, -1, -1, -1 ) )
// CHECK-NEXT: 7x1: ( ( 5 ), ( 16 ), ( 27 ), ( 38 ), ( -inf ), ( -inf ), ( -inf ) )
func.func @dynamic() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %f = memref.alloca() : memref<4x11xf32>
  %fd = memref.cast %f : memref<4x11xf32> to memref<?x?xf32>
  call @iota2d(%fd, %zero) : (memref<?x?xf32>, f32) -> ()
  %v = layout.view %fd : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
  %p = layout.partition %v tile [3, 5] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [3, 5]>
  %n:2 = layout.index_space %p : !layout.partition_view<?x?xf32, tile = [3, 5]>
  %nv = vector.from_elements %n#0, %n#1 : vector<2xindex>
  vector.print str "dynamic 3x5\nindex space: "
  vector.print %nv : vector<2xindex>
  %t = layout.load %p[%c1, %c2] masked : !layout.partition_view<?x?xf32, tile = [3, 5]> -> vector<3x5xf32>
  %minus1 = arith.constant dense<-1.0> : vector<3x5xf32>
  %zeros = arith.constant dense<0.0> : vector<3x5xf32>
  // Show the padding as -1 so that it differs from the data.
  %isdata = arith.cmpf one, %t, %zeros : vector<3x5xf32>
  %shown = arith.select %isdata, %t, %minus1 : vector<3x5xi1>, vector<3x5xf32>
  vector.print %shown : vector<3x5xf32>
  %p7 = layout.partition %v tile [7, 1] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [7, 1]>
  %col = layout.load %p7[%c0, %c5] masked padding(neg_inf) : !layout.partition_view<?x?xf32, tile = [7, 1]> -> vector<7x1xf32>
  vector.print str "7x1: "
  vector.print %col : vector<7x1xf32>
  return
}

/// A 4x11 view inside a 6x13 buffer of -1 (a frame of one element around
/// it). A masked store of tile (1, 2) of 2x4 tiles writes rows 2..3 and
/// columns 8..10 of the view (buffer rows 3..4, columns 9..11); column 11
/// of the view would be buffer column 12, the frame, which must stay -1.
// CHECK-LABEL: masked store in a frame
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 )
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 )
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 )
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, 100, 101, 102, -1 )
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, 104, 105, 106, -1 )
// CHECK-NEXT: ( -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 )
func.func @masked_store_frame() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %minus1 = arith.constant -1.0 : f32
  %buf = memref.alloca() : memref<6x13xf32>
  %frame = arith.constant dense<-1.0> : vector<6x13xf32>
  vector.transfer_write %frame, %buf[%c0, %c0] : vector<6x13xf32>, memref<6x13xf32>
  %sub = memref.subview %buf[1, 1] [4, 11] [1, 1] : memref<6x13xf32> to memref<4x11xf32, strided<[13, 1], offset: 14>>
  %v = layout.view %sub : memref<4x11xf32, strided<[13, 1], offset: 14>> -> !layout.tensor_view<4x11xf32>
  %p = layout.partition %v tile [2, 4] : !layout.tensor_view<4x11xf32> -> !layout.partition_view<4x11xf32, tile = [2, 4]>
  %val = arith.constant dense<[[100.0, 101.0, 102.0, 103.0], [104.0, 105.0, 106.0, 107.0]]> : vector<2x4xf32>
  layout.store %val, %p[%c1, %c2] masked : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
  vector.print str "masked store in a frame\n"
  scf.for %i = %c0 to %c6 step %c1 {
    %row = vector.transfer_read %buf[%i, %c0], %minus1 : memref<6x13xf32>, vector<13xf32>
    vector.print %row : vector<13xf32>
  }
  return
}

/// A convolution-style view: a 4x4 image (values 1..16) padded by one on
/// each side is a 6x6 view; cut into 3x3 tiles, a masked load reads zeros
/// in the padding. Tile (0, 0): rows and columns 0..2, data only at
/// (1..2, 1..2) = image (0..1, 0..1) = 1, 2, 5, 6. Tile (1, 1): rows and
/// columns 3..5, data at (3..4, 3..4) = image (2..3, 2..3) = 11, 12, 15,
/// 16. A masked store of 7s into tile (1, 0) writes only the image
/// elements (2..3, 0..1) = buffer offsets 8, 9, 12, 13.
// CHECK-LABEL: padded descriptor
// CHECK-NEXT: ( ( 0, 0, 0 ), ( 0, 1, 2 ), ( 0, 5, 6 ) )
// CHECK-NEXT: ( ( 11, 12, 0 ), ( 15, 16, 0 ), ( 0, 0, 0 ) )
// CHECK-NEXT: after store: ( 1, 2, 3, 4, 5, 6, 7, 8, 7, 7, 11, 12, 7, 7, 15, 16 )
func.func @padded_descriptor() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %img = memref.alloca() : memref<16xf32>
  %imgd = memref.cast %img : memref<16xf32> to memref<?xf32>
  call @iota1d(%imgd, %one) : (memref<?xf32>, f32) -> ()
  %d = layout.packed [4, 4] : !layout.desc<4x4>
  %pd = layout.transform %d [#layout.pad<4, 1, 1> : [0] -> [0], #layout.pad<4, 1, 1> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<6x6>
  %v = layout.view %img by %pd : memref<16xf32>, !layout.desc<6x6> -> !layout.tensor_view<6x6xf32>
  %p = layout.partition %v tile [3, 3] : !layout.tensor_view<6x6xf32> -> !layout.partition_view<6x6xf32, tile = [3, 3]>
  %t00 = layout.load %p[%c0, %c0] masked : !layout.partition_view<6x6xf32, tile = [3, 3]> -> vector<3x3xf32>
  vector.print str "padded descriptor\n"
  vector.print %t00 : vector<3x3xf32>
  %t11 = layout.load %p[%c1, %c1] masked : !layout.partition_view<6x6xf32, tile = [3, 3]> -> vector<3x3xf32>
  vector.print %t11 : vector<3x3xf32>
  %sevens = arith.constant dense<7.0> : vector<3x3xf32>
  layout.store %sevens, %p[%c1, %c0] masked : vector<3x3xf32>, !layout.partition_view<6x6xf32, tile = [3, 3]>
  %all = vector.transfer_read %img[%c0], %one : memref<16xf32>, vector<16xf32>
  vector.print str "after store: "
  vector.print %all : vector<16xf32>
  return
}

/// A view through an xor-swizzled 8x8 tile: element (r, c) lives at
/// r * 8 + (c xor r). Tile (1, 1) of 2x4 tiles is rows 2..3, columns 4..7:
/// row 2: 16 + (4..7 xor 2) = 22, 23, 20, 21; row 3: 24 + (4..7 xor 3) =
/// 31, 30, 29, 28. Storing r * 10 + c into tile (0, 1) (rows 0..1,
/// columns 4..7) puts 4..7 at offsets 4..7 (row 0: c xor 0 = c) and
/// 14, 15, 16, 17 at offsets 8 + (4..7 xor 1) = 13, 12, 15, 14.
// CHECK-LABEL: xor-swizzled descriptor
// CHECK-NEXT: ( ( 22, 23, 20, 21 ), ( 31, 30, 29, 28 ) )
// CHECK-NEXT: row 0: ( 0, 1, 2, 3, 4, 5, 6, 7 )
// CHECK-NEXT: row 1: ( 8, 9, 10, 11, 15, 14, 17, 16 )
// CHECK-NEXT: read back: ( ( 4, 5, 6, 7 ), ( 14, 15, 16, 17 ) )
func.func @xor_descriptor() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloca() : memref<64xf32>
  %bufd = memref.cast %buf : memref<64xf32> to memref<?xf32>
  call @iota1d(%bufd, %zero) : (memref<?xf32>, f32) -> ()
  %d = layout.packed [8, 8] : !layout.desc<8x8>
  %x = layout.transform %d [#layout.xor<[8, 8]> : [0, 1] -> [0, 1]] : !layout.desc<8x8> -> !layout.desc<8x8>
  %v = layout.view %buf by %x : memref<64xf32>, !layout.desc<8x8> -> !layout.tensor_view<8x8xf32>
  %p = layout.partition %v tile [2, 4] : !layout.tensor_view<8x8xf32> -> !layout.partition_view<8x8xf32, tile = [2, 4]>
  %t = layout.load %p[%c1, %c1] : !layout.partition_view<8x8xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "xor-swizzled descriptor\n"
  vector.print %t : vector<2x4xf32>
  %val = arith.constant dense<[[4.0, 5.0, 6.0, 7.0], [14.0, 15.0, 16.0, 17.0]]> : vector<2x4xf32>
  layout.store %val, %p[%c0, %c1] : vector<2x4xf32>, !layout.partition_view<8x8xf32, tile = [2, 4]>
  %r0 = vector.transfer_read %buf[%c0], %zero : memref<64xf32>, vector<8xf32>
  %r1 = vector.transfer_read %buf[%c8], %zero : memref<64xf32>, vector<8xf32>
  vector.print str "row 0: "
  vector.print %r0 : vector<8xf32>
  vector.print str "row 1: "
  vector.print %r1 : vector<8xf32>
  %back = layout.load %p[%c0, %c1] : !layout.partition_view<8x8xf32, tile = [2, 4]> -> vector<2x4xf32>
  vector.print str "read back: "
  vector.print %back : vector<2x4xf32>
  return
}

/// A strided descriptor over a buffer: naive [3, 4] strides [1, 3] offset 2
/// maps (i, j) to 2 + i + 3 j. Tile (1, 1) of 2x2 tiles: (2, 2) -> 10,
/// (2, 3) -> 13, row 3 outside (padding nan).
// CHECK-LABEL: strided descriptor
// CHECK-NEXT: ( ( 10, 13 ), ( nan, nan ) )
func.func @strided_descriptor() {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloca() : memref<24xf32>
  %bufd = memref.cast %buf : memref<24xf32> to memref<?xf32>
  call @iota1d(%bufd, %zero) : (memref<?xf32>, f32) -> ()
  %d = layout.naive [3, 4] strides [1, 3] offset 2 space 24 : !layout.desc<3x4>
  %v = layout.view %buf by %d : memref<24xf32>, !layout.desc<3x4> -> !layout.tensor_view<3x4xf32>
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<3x4xf32> -> !layout.partition_view<3x4xf32, tile = [2, 2]>
  %t = layout.load %p[%c1, %c1] masked padding(nan) : !layout.partition_view<3x4xf32, tile = [2, 2]> -> vector<2x2xf32>
  vector.print str "strided descriptor\n"
  vector.print %t : vector<2x2xf32>
  return
}

/// Atomic accesses: a release store of a tile, then acquire and seq_cst
/// loads of it; a masked atomic load of an edge tile pads like any other.
// CHECK-LABEL: atomics
// CHECK-NEXT: ( ( 7, 8 ), ( 9, 10 ) )
// CHECK-NEXT: ( ( 7, 8 ), ( 9, 10 ) )
// CHECK-NEXT: edge: ( ( 4, 0 ), ( 9, 0 ) )
func.func @atomics() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloca() : memref<3x5xi64>
  %v = layout.view %m : memref<3x5xi64> -> !layout.tensor_view<3x5xi64>
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<3x5xi64> -> !layout.partition_view<3x5xi64, tile = [2, 2]>
  %val = arith.constant dense<[[7, 8], [9, 10]]> : vector<2x2xi64>
  layout.store %val, %p[%c0, %c0] atomic(release, device) : vector<2x2xi64>, !layout.partition_view<3x5xi64, tile = [2, 2]>
  %a = layout.load %p[%c0, %c0] atomic(acquire, device) : !layout.partition_view<3x5xi64, tile = [2, 2]> -> vector<2x2xi64>
  vector.print str "atomics\n"
  vector.print %a : vector<2x2xi64>
  %s = layout.load %p[%c0, %c0] atomic(seq_cst, system) : !layout.partition_view<3x5xi64, tile = [2, 2]> -> vector<2x2xi64>
  vector.print %s : vector<2x2xi64>
  %edgeval = arith.constant dense<[[4, 5], [9, 6]]> : vector<2x2xi64>
  layout.store %edgeval, %p[%c0, %c2] masked atomic(relaxed, block) : vector<2x2xi64>, !layout.partition_view<3x5xi64, tile = [2, 2]>
  %e = layout.load %p[%c0, %c2] masked atomic(relaxed, thread) : !layout.partition_view<3x5xi64, tile = [2, 2]> -> vector<2x2xi64>
  vector.print str "edge: "
  vector.print %e : vector<2x2xi64>
  return
}

func.func @main() {
  call @seed_4x8() : () -> ()
  call @seed_4x11() : () -> ()
  call @dynamic() : () -> ()
  call @masked_store_frame() : () -> ()
  call @padded_descriptor() : () -> ()
  call @xor_descriptor() : () -> ()
  call @strided_descriptor() : () -> ()
  call @atomics() : () -> ()
  return
}
