// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -canonicalize -cse | FileCheck %s

// Static strides: the widths come from the layout alone (no run-time
// check). 32x32 f32 tile, 128 threads: 16-byte global loads along the
// input's rows (8 lanes per row, 2 iterations), 16-byte buffer writes; the
// read side takes 4x2 blocks (2-element buffer reads, 16-byte global
// stores along the output's rows) so that 128 threads divide the tile.

// CHECK-LABEL: gpu.func @static_transpose
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<1024xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// CHECK: %[[DESC:.*]] = layout.packed [32, 32] : !layout.desc<32x32>
// CHECK: scf.for
// CHECK:   %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK:   %[[O:.*]] = layout.offset %[[DESC]]
// CHECK:   vector.store %[[V]], %[[BUF]][%[[O]]] {alignment = 16 : i64} : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.load %[[BUF]][%{{.*}}] {alignment = 8 : i64} : memref<1024xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: vector.from_elements
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK: vector.from_elements
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK-NOT: layout.load
// CHECK: gpu.return
!p = !layout.partition_view<64x128xf32, tile = [32, 32]>
!q = !layout.partition_view<128x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @static_transpose(%in: memref<64x128xf32>, %out: memref<128x64xf32>)
      kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
    %vi = layout.view %in : memref<64x128xf32> -> !layout.tensor_view<64x128xf32>
    %vo = layout.view %out : memref<128x64xf32> -> !layout.tensor_view<128x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x128xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<128x64xf32> -> !q
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%bx, %by] : vector<32x32xf32>, !q
    gpu.return
  }
}

// -----

// Dynamic extents and strides, masked: run-time alignment checks of the
// row strides. Where the output's rows are aligned: a tile that lies
// inside the view with aligned rows (the same answer in every thread) runs
// unguarded 16-byte accesses; otherwise each vector is either one 16-byte
// access or four guarded element accesses (the padding value for those
// outside); input rows that are not aligned are read element by element,
// consecutive lanes on consecutive elements. Where the output's rows are
// not aligned, the second version: a padded buffer (72 x 65: 8 rows of the
// tile before, then the tile; the versions' buffers are views of the same
// bytes, one or the other runs) written element by element, and
// sector-aligned output windows (each shifted by the row's offset mod 8;
// each warp takes 8 rows, 32 positions at a time). Where the grid has
// every tile along the output's rows, each block writes positions [0, 64)
// of its windows, from 8 elements before its tile (the neighbour's head,
// from the buffer's first rows), and the last tile its tail; otherwise 72
// positions per row, its own tile only.

// CHECK-LABEL: gpu.func @dynamic_masked
// CHECK-SAME: workgroup(%[[S:.*]] : memref<18720xi8, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// CHECK: %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[B:.*]] = memref.view %[[S]][%c0][] : memref<18720xi8, #gpu.address_space<workgroup>> to memref<4680xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[A:.*]] = memref.view %[[S]][%c0][] : memref<18720xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[REM:.*]] = arith.remui %[[STRIDES]]#0, %c4
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %c0
// CHECK: %[[WDESC:.*]] = layout.naive [72, 64] strides [65, 1] space 4680
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[OSTRIDES:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK: %[[OREM:.*]] = arith.remui %[[OSTRIDES]]#0, %c4
// CHECK: %[[OALIGNED:.*]] = arith.cmpi eq, %[[OREM]], %c0
// CHECK: scf.if %[[OALIGNED]] {
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK: arith.cmpi ule
// CHECK: arith.cmpi ule
// CHECK: %[[WHOLE:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[WHOLE]] {
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.if
// CHECK:   vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK:   vector.store %{{.*}}, %[[A]][%{{.*}}] {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK:   scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:     vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK:   } else {
// CHECK:     scf.if %{{.*}} -> (f32) {
// CHECK:       memref.load %arg0
// CHECK:     } else {
// CHECK:       scf.yield %[[PAD]] : f32
// CHECK-COUNT-3: scf.if %{{.*}} -> (f32)
// CHECK:     vector.from_elements
// CHECK:   vector.store %{{.*}}, %[[A]]
// Input rows not aligned: 16 elements per thread, unguarded in whole tiles.
// CHECK: } else {
// CHECK: %[[W1:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[W1]] {
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c16
// CHECK-NOT: scf.if
// CHECK:   memref.load %arg0
// CHECK:   vector.store %{{.*}}, %[[A]][%{{.*}}] {alignment = 4 : i64}
// The second version's phase 1: the tile at buffer rows [8, 72), then
// (after the first tile) the 8 input rows before it at rows [0, 8).
// CHECK: vector.store %{{.*}}, %[[A]][%{{.*}}] {alignment = 4 : i64}
// CHECK: } else {
// CHECK: %[[NOTFIRST:.*]] = arith.cmpi ugt, %{{.*}}, %c0
// CHECK: %[[W2:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[W2]] {
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c16
// CHECK:   %[[R:.*]] = arith.divui %{{.*}}, %c64
// CHECK:   memref.load %arg0
// CHECK:   %[[R8:.*]] = arith.addi %[[R]], %c8
// CHECK:   layout.offset %[[WDESC]][%[[R8]], %{{.*}}]
// CHECK:   vector.store %{{.*}}, %[[B]][%{{.*}}] {alignment = 4 : i64}
// CHECK: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c2
// CHECK:   %[[H:.*]] = arith.divui %{{.*}}, %c64
// CHECK:   %[[HM8:.*]] = arith.addi %[[H]], %c-8
// CHECK:   %[[HROW:.*]] = arith.addi %{{.*}}, %[[HM8]]
// CHECK:   memref.load %arg0[%[[HROW]], %{{.*}}]
// CHECK:   layout.offset %[[WDESC]][%[[H]], %{{.*}}]
// CHECK:   vector.store %{{.*}}, %[[B]][%{{.*}}] {alignment = 4 : i64}
// CHECK: gpu.barrier
// CHECK: scf.if %[[OALIGNED]] {
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK:   vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK:   scf.if
// CHECK:     vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK:   } else {
// CHECK:     scf.if
// CHECK:       memref.store
// The second version's phase 2: position p of output row r stores element
// p - (offset of row r mod 8).
// CHECK: } else {
// CHECK: %[[ONOTFIRST:.*]] = arith.cmpi ugt, %block_id_y, %c0
// CHECK: %[[LAST:.*]] = arith.cmpi uge
// CHECK: %[[GRIDROWS:.*]] = arith.muli %grid_dim_y, %c64
// CHECK: %[[COVERED:.*]] = arith.cmpi ule, %{{.*}}, %[[GRIDROWS]]
// CHECK: scf.if %[[COVERED]] {
// CHECK: scf.for %{{.*}} = %c0 to %c8
// CHECK: scf.for %{{.*}} = %c0 to %c2
// CHECK:   %[[NQ:.*]] = arith.muli %{{.*}}, %c32
// CHECK:   %[[NP:.*]] = arith.addi %{{.*}}, %[[NQ]]
// CHECK:   %[[NSHIFT:.*]] = arith.remui %{{.*}}, %c8
// CHECK:   %[[AFTER:.*]] = arith.cmpi uge, %[[NP]], %[[NSHIFT]]
// CHECK:   %[[NIN:.*]] = arith.ori %[[AFTER]], %[[ONOTFIRST]]
// CHECK:   scf.if %[[NIN]]
// CHECK:     %[[NCOL:.*]] = arith.subi %[[NP]], %[[NSHIFT]]
// CHECK:     %[[NBUF:.*]] = arith.addi %[[NCOL]], %c8
// CHECK:     layout.offset %[[WDESC]][%[[NBUF]], %{{.*}}]
// CHECK:     vector.load %[[B]]
// CHECK:     memref.store %{{.*}}, %arg1
// CHECK: scf.if %[[LAST]] {
// CHECK:   %[[TP:.*]] = arith.addi %{{.*}}, %c64
// CHECK:   %[[TSHIFT:.*]] = arith.remui %{{.*}}, %c8
// CHECK:   %[[TEND:.*]] = arith.addi %[[TSHIFT]], %c64
// CHECK:   arith.cmpi ult, %[[TP]], %[[TEND]]
// CHECK:     memref.store %{{.*}}, %arg1
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %c8
// CHECK: scf.for %{{.*}} = %c0 to %c3
// CHECK:   %[[Q:.*]] = arith.muli %{{.*}}, %c32
// CHECK:   %[[P:.*]] = arith.addi %{{.*}}, %[[Q]]
// CHECK:   %[[ROW:.*]] = arith.muli %{{.*}}, %[[OSTRIDES]]#0
// CHECK:   %[[SHIFT:.*]] = arith.remui %{{.*}}, %c8
// CHECK:   scf.if
// CHECK:     arith.subi %[[P]], %[[SHIFT]]
// CHECK:     vector.load %[[B]]
// CHECK:     memref.store %{{.*}}, %arg1
!d = !layout.partition_view<?x?xf32, tile = [64, 64]>
gpu.module @m {
  gpu.func @dynamic_masked(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [64, 64] : !layout.tensor_view<?x?xf32> -> !d
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !d
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked padding(neg_inf) : !d -> vector<64x64xf32>
    %u = vector.transpose %t, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    layout.store %u, %po[%bx, %by] masked : vector<64x64xf32>, !d
    gpu.return
  }
}

// -----

// A row stride of 66 f16 elements (132 bytes) keeps only 4-byte vectors
// aligned: the loads use two elements, whatever the tile allows. The
// output's rows (64 elements) would allow 16-byte stores, but 256 threads
// share the 1024 elements 4 by 4: 8-byte stores.

// CHECK-LABEL: gpu.func @narrow_rows
// CHECK: vector.load %arg0[{{.*}}] {alignment = 4 : i64} : memref<64x66xf16>, vector<2xf16>
// CHECK: gpu.barrier
// CHECK: vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 8 : i64} : memref<66x64xf16>, vector<4xf16>
!n = !layout.partition_view<64x66xf16, tile = [32, 32]>
!o = !layout.partition_view<66x64xf16, tile = [32, 32]>
gpu.module @m {
  gpu.func @narrow_rows(%in: memref<64x66xf16>, %out: memref<66x64xf16>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x66xf16> -> !layout.tensor_view<64x66xf16>
    %vo = layout.view %out : memref<66x64xf16> -> !layout.tensor_view<66x64xf16>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x66xf16> -> !n
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<66x64xf16> -> !o
    %b = gpu.block_id x
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %b] masked : !n -> vector<32x32xf16>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf16> to vector<32x32xf16>
    layout.store %u, %po[%b, %c0] masked : vector<32x32xf16>, !o
    gpu.return
  }
}

// -----

// A permutation that keeps the contiguous dimension needs no buffer: each
// thread moves its vectors straight across, 8 lanes per 32-element row.

// CHECK-LABEL: gpu.func @keep_rows
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK:   %[[V:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<8x16x32xf32>, vector<4xf32>
// CHECK:   vector.store %[[V]], %arg1[{{.*}}] {alignment = 16 : i64} : memref<16x8x32xf32>, vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
!k = !layout.partition_view<8x16x32xf32, tile = [4, 8, 32]>
!l = !layout.partition_view<16x8x32xf32, tile = [8, 4, 32]>
gpu.module @m {
  gpu.func @keep_rows(%in: memref<8x16x32xf32>, %out: memref<16x8x32xf32>)
      kernel attributes {known_block_size = array<i32: 32, 4, 1>} {
    %vi = layout.view %in : memref<8x16x32xf32> -> !layout.tensor_view<8x16x32xf32>
    %vo = layout.view %out : memref<16x8x32xf32> -> !layout.tensor_view<16x8x32xf32>
    %pi = layout.partition %vi tile [4, 8, 32] : !layout.tensor_view<8x16x32xf32> -> !k
    %po = layout.partition %vo tile [8, 4, 32] : !layout.tensor_view<16x8x32xf32> -> !l
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%bx, %by, %c0] : !k -> vector<4x8x32xf32>
    %u = vector.transpose %t, [1, 0, 2] : vector<4x8x32xf32> to vector<8x4x32xf32>
    layout.store %u, %po[%by, %bx, %c0] : vector<8x4x32xf32>, !l
    gpu.return
  }
}

// -----

// Loads whose tile depends on the thread are per-thread accesses, left to
// -convert-layout-to-vector. (A cooperative tile in a kernel without a
// known block size is an error: tile-shared-memory-invalid.mlir.)

// CHECK-LABEL: gpu.func @per_thread
// CHECK: layout.load
// CHECK: layout.store
!s = !layout.partition_view<64x64xf32, tile = [1, 4]>
gpu.module @m {
  gpu.func @per_thread(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 16, 64, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [1, 4] : !layout.tensor_view<64x64xf32> -> !s
    %po = layout.partition %vo tile [1, 4] : !layout.tensor_view<64x64xf32> -> !s
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %t = layout.load %pi[%ty, %tx] : !s -> vector<1x4xf32>
    layout.store %t, %po[%ty, %tx] : vector<1x4xf32>, !s
    gpu.return
  }
}

// -----

// A view through a descriptor (here a column-major 16x16 layout of a 1-D
// buffer) moves element by element through layout.offset; the tile loop of
// a block-uniform scf.for is cooperative too, with a barrier before the
// buffer is written again.

// CHECK-LABEL: gpu.func @descriptor_view_in_loop
// CHECK: scf.for
// CHECK:   gpu.barrier
// CHECK:   layout.offset %{{.*}} : !layout.desc<16x16>
// CHECK:   memref.load %arg0[%{{.*}}] : memref<256xf32>
// CHECK:   gpu.barrier
// CHECK:   gpu.barrier
!x = !layout.partition_view<16x16xf32, tile = [16, 16]>
gpu.module @m {
  gpu.func @descriptor_view_in_loop(%in: memref<256xf32>, %out: memref<?x16xf32>)
      kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %p = layout.packed [16, 16] : !layout.desc<16x16>
    %f = layout.transform %p [#layout.pass_through<16> : [1] -> [0],
                              #layout.pass_through<16> : [0] -> [1]]
       : !layout.desc<16x16> -> !layout.desc<16x16>
    %vi = layout.view %in by %f : memref<256xf32>, !layout.desc<16x16> -> !layout.tensor_view<16x16xf32>
    %pi = layout.partition %vi tile [16, 16] : !layout.tensor_view<16x16xf32> -> !x
    %vo = layout.view %out : memref<?x16xf32> -> !layout.tensor_view<?x16xf32>
    %po = layout.partition %vo tile [16, 16] : !layout.tensor_view<?x16xf32> -> !layout.partition_view<?x16xf32, tile = [16, 16]>
    scf.for %i = %c0 to %c4 step %c1 {
      %t = layout.load %pi[%c0, %c0] : !x -> vector<16x16xf32>
      %u = vector.transpose %t, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
      layout.store %u, %po[%i, %c0] : vector<16x16xf32>, !layout.partition_view<?x16xf32, tile = [16, 16]>
    }
    gpu.return
  }
}

// -----

// Elementwise ops, splat constants and broadcasts of scalars between the
// loads and the store are applied to each thread's fragments; a store of a
// constant tile is a fill.

// CHECK-LABEL: gpu.func @scale_and_fill
// CHECK: %[[Z:.*]] = arith.constant dense<1.000000e+00> : vector<4xf16>
// CHECK: %[[V:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: %[[A:.*]] = vector.broadcast %arg2 : f32 to vector<4xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[V]], %[[A]] : vector<4xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[M]] : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %[[H]], %arg1[{{.*}}] {alignment = 8 : i64} : memref<64x64xf16>, vector<4xf16>
// CHECK: vector.store %[[Z]], %arg1[{{.*}}] {alignment = 8 : i64} : memref<64x64xf16>, vector<4xf16>
// CHECK-NOT: layout.
// CHECK: gpu.return
!f = !layout.partition_view<64x64xf32, tile = [32, 32]>
!h = !layout.partition_view<64x64xf16, tile = [32, 32]>
gpu.module @m {
  gpu.func @scale_and_fill(%in: memref<64x64xf32>, %out: memref<64x64xf16>, %alpha: f32)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %vo = layout.view %out : memref<64x64xf16> -> !layout.tensor_view<64x64xf16>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !f
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf16> -> !h
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = layout.load %pi[%c0, %c0] : !f -> vector<32x32xf32>
    %a = vector.broadcast %alpha : f32 to vector<32x32xf32>
    %s = arith.mulf %t, %a : vector<32x32xf32>
    %h = arith.truncf %s : vector<32x32xf32> to vector<32x32xf16>
    layout.store %h, %po[%c0, %c0] : vector<32x32xf16>, !h
    %one = arith.constant dense<1.0> : vector<32x32xf16>
    layout.store %one, %po[%c1, %c1] : vector<32x32xf16>, !h
    gpu.return
  }
}

// -----

// A load whose tile is one element wide along its unit-stride dimension has
// no rows to coalesce: it follows the store's mapping element by element,
// with no buffer.

// CHECK-LABEL: gpu.func @column_to_row
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: %[[X:.*]] = memref.load %arg0[%[[T:.*]], %[[B:.*]]] : memref<64x64xf32>
// CHECK: memref.store %[[X]], %arg1[%[[B]], %[[T]]] : memref<64x64xf32>
!q = !layout.partition_view<64x64xf32, tile = [64, 1]>
!r = !layout.partition_view<64x64xf32, tile = [1, 64]>
gpu.module @m {
  gpu.func @column_to_row(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [64, 1] : !layout.tensor_view<64x64xf32> -> !q
    %po = layout.partition %vo tile [1, 64] : !layout.tensor_view<64x64xf32> -> !r
    %b = gpu.block_id x
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %b] : !q -> vector<64x1xf32>
    %u = vector.transpose %t, [1, 0] : vector<64x1xf32> to vector<1x64xf32>
    layout.store %u, %po[%b, %c0] : vector<1x64xf32>, !r
    gpu.return
  }
}

// -----

// A view of a 1-D buffer through a strided descriptor indexes memory with
// the descriptor's strides, like a memref view: it vectorizes too (through
// the buffer reinterpreted with those strides).

// CHECK-LABEL: gpu.func @strided_descriptor_view
// CHECK: %[[R:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [64, 64], strides: [64, 1]
// CHECK: vector.load %[[R]][{{.*}}] {alignment = 16 : i64} : memref<64x64xf32, strided<[64, 1]>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
!s = !layout.partition_view<64x64xf32, tile = [64, 64]>
gpu.module @m {
  gpu.func @strided_descriptor_view(%in: memref<4096xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %d = layout.naive [64, 64] strides [64, 1] : !layout.desc<64x64>
    %vi = layout.view %in by %d : memref<4096xf32>, !layout.desc<64x64> -> !layout.tensor_view<64x64xf32>
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [64, 64] : !layout.tensor_view<64x64xf32> -> !s
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<64x64xf32> -> !s
    %t = layout.load %pi[%c0, %c0] : !s -> vector<64x64xf32>
    %u = vector.transpose %t, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    layout.store %u, %po[%c0, %c0] : vector<64x64xf32>, !s
    gpu.return
  }
}

// -----

// A subview with a run-time offset (issue 21: a pass ignoring the offset in
// its alignment test survived every test): 16-byte vectors of the input
// only where both the offset and the row stride are multiples of 4
// elements, whole tiles unguarded, others per vector under the same test.

// CHECK-LABEL: gpu.func @subview_offset
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[OREM:.*]] = arith.remui %[[OFF]], %c4
// CHECK: %[[OK1:.*]] = arith.cmpi eq, %[[OREM]], %c0
// CHECK: %[[SREM:.*]] = arith.remui %[[STR]]#0, %c4
// CHECK: %[[OK2:.*]] = arith.cmpi eq, %[[SREM]], %c0
// CHECK: %[[ALIGNED:.*]] = arith.andi %[[OK1]], %[[OK2]]
// CHECK: %[[IN:.*]] = arith.andi %[[ALIGNED]], %{{.*}}
// CHECK: %[[IN2:.*]] = arith.andi %[[IN]], %{{.*}}
// CHECK: %[[WHOLE:.*]] = arith.andi %{{.*}}, %[[IN2]]
// CHECK: scf.if %[[WHOLE]] {
// CHECK:   vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// The edge guard of a vector: its last element, 3 after its first, inside
// (issue 21: an off-by-one here was caught only by a crash).
// CHECK: } else {
// CHECK:   %[[LAST:.*]] = arith.addi %{{.*}}, %c3 : index
// CHECK:   %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[DIM0:.*]] : index
// CHECK:   %[[G1:.*]] = arith.andi %[[ALIGNED]], %[[ROWIN]]
// CHECK:   %[[LASTIN:.*]] = arith.cmpi ult, %[[LAST]], %[[DIM1:.*]] : index
// CHECK:   %[[G2:.*]] = arith.andi %[[G1]], %[[LASTIN]]
// CHECK:   scf.if %[[G2]] -> (vector<4xf32>) {
// CHECK:     vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
!s = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @subview_offset(%in: memref<?x?xf32, strided<[?, 1], offset: ?>>, %out: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !s -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !s
    gpu.return
  }
}
