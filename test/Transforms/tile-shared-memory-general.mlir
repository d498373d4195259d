// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -verify-diagnostics -canonicalize -cse | FileCheck %s

// Tile programs beyond the evenly divided row-major ones (issue 17). Their
// values are checked on the CPU by
// test/Integration/GPU/random-tile-programs.test; this file checks the
// shape of the code.

// A tile the block does not divide: 40x48 f32 over 256 threads moves
// 16-byte vectors (12 per row, 480 in all), two iterations, the second
// guarded: thread t moves block t + 256 * i only while it is below 480.
// CHECK-LABEL: gpu.func @uneven_split
// CHECK-DAG: %[[C480:.*]] = arith.constant 480 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: scf.for %[[I:.*]] = %c0 to %c2 step %c1
// CHECK: %[[M:.*]] = arith.muli %[[I]], %[[C256]]
// CHECK: %[[B:.*]] = arith.addi %{{.*}}, %[[M]]
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[B]], %[[C480]]
// CHECK: scf.if %[[ACTIVE]]
// CHECK: vector.load {{.*}} : memref<40x48xf32>, vector<4xf32>
// CHECK: vector.store {{.*}} : memref<40x48xf32>, vector<4xf32>
!u = !layout.partition_view<40x48xf32, tile = [40, 48]>
gpu.module @m {
  gpu.func @uneven_split(%in: memref<40x48xf32>, %out: memref<40x48xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<40x48xf32> -> !layout.tensor_view<40x48xf32>
    %pi = layout.partition %vi tile [40, 48] : !layout.tensor_view<40x48xf32> -> !u
    %vo = layout.view %out : memref<40x48xf32> -> !layout.tensor_view<40x48xf32>
    %po = layout.partition %vo tile [40, 48] : !layout.tensor_view<40x48xf32> -> !u
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !u -> vector<40x48xf32>
    layout.store %t, %po[%c0, %c0] : vector<40x48xf32>, !u
    gpu.return
  }
}

// -----

// A transposed tile the block does not divide (30x30 over 256 threads, once
// an error): both phases take 8-byte vectors (15 per row, 450 in all) with a
// guarded second iteration.
// CHECK-LABEL: gpu.func @uneven_transpose
// CHECK-DAG: arith.constant 450 : index
// CHECK: vector.load {{.*}} : memref<30x30xf32>, vector<2xf32>
// CHECK: gpu.barrier
// CHECK: vector.store {{.*}} : memref<30x30xf32>, vector<2xf32>
!p = !layout.partition_view<30x30xf32, tile = [30, 30]>
gpu.module @m {
  gpu.func @uneven_transpose(%in: memref<30x30xf32>, %out: memref<30x30xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<30x30xf32> -> !layout.tensor_view<30x30xf32>
    %pi = layout.partition %vi tile [30, 30] : !layout.tensor_view<30x30xf32> -> !p
    %vo = layout.view %out : memref<30x30xf32> -> !layout.tensor_view<30x30xf32>
    %po = layout.partition %vo tile [30, 30] : !layout.tensor_view<30x30xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<30x30xf32>
    %u = vector.transpose %t, [1, 0] : vector<30x30xf32> to vector<30x30xf32>
    layout.store %u, %po[%c0, %c0] : vector<30x30xf32>, !p
    gpu.return
  }
}

// -----

// A column-major input (unit stride along dimension 0) copied to a
// row-major output: the tile is staged, its global reads are vectors along
// the columns, through memref.transpose (vector.load reads along the last
// dimension; on the column-major memref it was invalid IR).
// CHECK-LABEL: gpu.func @column_major
// CHECK: %[[T:.*]] = memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<?x?xf32, strided<[1, ?]>> to memref<?x?xf32, strided<[?, 1]>>
// CHECK: vector.load %[[T]][{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: vector.store {{.*}} : memref<?x?xf32>, vector<4xf32>
!c = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @column_major(%in: memref<?x?xf32, strided<[1, ?]>>, %out: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32, strided<[1, ?]>> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !c
    %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !c
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !c -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !c
    gpu.return
  }
}

// -----

// Two staged loads whose buffers' rows run along different store
// dimensions (once an error): the first sets the register blocks, the
// second is read element by element, with a remark.
// CHECK-LABEL: gpu.func @staged_loads_permuted_differently
// CHECK: gpu.barrier
// CHECK: vector.load {{.*}} : memref<512xf32, #gpu.address_space<workgroup>>, vector<1xf32>
!q = !layout.partition_view<8x8x8xf32, tile = [8, 8, 8]>
gpu.module @m {
  gpu.func @staged_loads_permuted_differently(%a: memref<8x8x8xf32>, %b: memref<8x8x8xf32>, %out: memref<8x8x8xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %va = layout.view %a : memref<8x8x8xf32> -> !layout.tensor_view<8x8x8xf32>
    %pa = layout.partition %va tile [8, 8, 8] : !layout.tensor_view<8x8x8xf32> -> !q
    %vb = layout.view %b : memref<8x8x8xf32> -> !layout.tensor_view<8x8x8xf32>
    %pb = layout.partition %vb tile [8, 8, 8] : !layout.tensor_view<8x8x8xf32> -> !q
    %vo = layout.view %out : memref<8x8x8xf32> -> !layout.tensor_view<8x8x8xf32>
    %po = layout.partition %vo tile [8, 8, 8] : !layout.tensor_view<8x8x8xf32> -> !q
    %c0 = arith.constant 0 : index
    %x = layout.load %pa[%c0, %c0, %c0] : !q -> vector<8x8x8xf32>
    // expected-remark @below {{its staged buffer is read element by element: its rows run along store dimension 1, another staged load's along 0}}
    %y = layout.load %pb[%c0, %c0, %c0] : !q -> vector<8x8x8xf32>
    %xt = vector.transpose %x, [2, 1, 0] : vector<8x8x8xf32> to vector<8x8x8xf32>
    %yt = vector.transpose %y, [1, 2, 0] : vector<8x8x8xf32> to vector<8x8x8xf32>
    %s = arith.addf %xt, %yt : vector<8x8x8xf32>
    layout.store %s, %po[%c0, %c0, %c0] : vector<8x8x8xf32>, !q
    gpu.return
  }
}

// -----

// Tile values used several times: one load stored twice, and a load added
// to its own transpose (two leaves of one load: one direct, one staged);
// the loads, the transpose and the add are erased once the stores are
// lowered.
// CHECK-LABEL: gpu.func @values_used_twice
// CHECK-NOT: layout.load
// CHECK-NOT: layout.store
// CHECK-NOT: vector.transpose
// CHECK: gpu.return
!s = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @values_used_twice(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !s
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !s
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = layout.load %pi[%c0, %c0] : !s -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !s
    layout.store %t, %po[%c1, %c1] : vector<32x32xf32>, !s
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    %s = arith.addf %t, %u : vector<32x32xf32>
    layout.store %s, %po[%c0, %c1] : vector<32x32xf32>, !s
    gpu.return
  }
}

// -----

// Row sums and row maxima of a tile (softmax statistics): each reduction
// stores its source tile into a workgroup buffer cooperatively (16-byte
// global reads and buffer writes), then 32 lanes per row each fold 8
// elements (consecutive lanes on consecutive elements), the row's first
// lane folds the 32 partial results, and the row results are stored
// cooperatively, combined with the accumulator.
// CHECK-LABEL: gpu.func @softmax_statistics
// CHECK-SAME: workgroup(%[[SRC:[a-z0-9]+]] : memref<8x256xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}, %[[ROWS:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}, %[[PART:[a-z0-9]+]] : memref<256xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}
// CHECK: vector.load %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[SRC]][%{{.*}}] {alignment = 16 : i64} : memref<8x256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c32
// CHECK: memref.load %[[SRC]][%[[ROW]], %[[LANE]]]
// CHECK: scf.for {{.*}} = %c1 to %c8 step %c1 iter_args
// CHECK: arith.maxnumf
// CHECK: memref.store %{{.*}}, %[[PART]]
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[ROWS]]
// CHECK: gpu.barrier
// CHECK: vector.load %[[ROWS]]
// CHECK: arith.maxnumf
// CHECK: vector.store %{{.*}} : memref<?xf32>
// The sum reads the same tile again (each reduction stores its own copy).
// CHECK: arith.addf
// CHECK: gpu.return
!in = !layout.partition_view<?x?xf32, tile = [8, 256]>
!out = !layout.partition_view<?xf32, tile = [8]>
gpu.module @m {
  gpu.func @softmax_statistics(%a: memref<?x?xf32>, %max: memref<?xf32>, %sum: memref<?xf32>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %va = layout.view %a : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [8, 256] : !layout.tensor_view<?x?xf32> -> !in
    %vm = layout.view %max : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pm = layout.partition %vm tile [8] : !layout.tensor_view<?xf32> -> !out
    %vs = layout.view %sum : memref<?xf32> -> !layout.tensor_view<?xf32>
    %ps = layout.partition %vs tile [8] : !layout.tensor_view<?xf32> -> !out
    %bx = gpu.block_id x
    %c0 = arith.constant 0 : index
    %t = layout.load %pa[%bx, %c0] masked padding(neg_inf) : !in -> vector<8x256xf32>
    %ninf = arith.constant dense<0xFF800000> : vector<8xf32>
    %m = vector.multi_reduction <maxnumf>, %t, %ninf [1] : vector<8x256xf32> to vector<8xf32>
    layout.store %m, %pm[%bx] masked : vector<8xf32>, !out
    %z = arith.constant dense<0.0> : vector<8xf32>
    %s = vector.multi_reduction <add>, %t, %z [1] : vector<8x256xf32> to vector<8xf32>
    layout.store %s, %ps[%bx] masked : vector<8xf32>, !out
    gpu.return
  }
}

// -----

// A transpose scaled per row: the scale is a 1-D tile broadcast along the
// rows and transposed (out[i][j] = in[j][i] * scale[i]). Along the store's
// rows the scale is one element repeated: each fragment loads one element
// and broadcasts it; the input is staged as in any transpose. A row
// broadcast (scale[j]) loads vectors along the rows.
// CHECK-LABEL: gpu.func @transpose_scaled_per_row
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<?xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK: arith.mulf %{{.*}} : vector<4xf32>
// CHECK: vector.load %{{.*}} : memref<?xf32>, vector<4xf32>
// CHECK: arith.addf %{{.*}} : vector<4xf32>
!t = !layout.partition_view<?x?xf32, tile = [64, 64]>
!v = !layout.partition_view<?xf32, tile = [64]>
gpu.module @m {
  gpu.func @transpose_scaled_per_row(%in: memref<?x?xf32>, %scale: memref<?xf32>, %bias: memref<?xf32>, %out: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [64, 64] : !layout.tensor_view<?x?xf32> -> !t
    %vs = layout.view %scale : memref<?xf32> -> !layout.tensor_view<?xf32>
    %ps = layout.partition %vs tile [64] : !layout.tensor_view<?xf32> -> !v
    %vb = layout.view %bias : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pb = layout.partition %vb tile [64] : !layout.tensor_view<?xf32> -> !v
    %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !t
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %x = layout.load %pi[%by, %bx] masked : !t -> vector<64x64xf32>
    %xt = vector.transpose %x, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %s = layout.load %ps[%bx] masked : !v -> vector<64xf32>
    %sb = vector.broadcast %s : vector<64xf32> to vector<64x64xf32>
    %sr = vector.transpose %sb, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %y = arith.mulf %xt, %sr : vector<64x64xf32>
    %c = layout.load %pb[%by] masked : !v -> vector<64xf32>
    %cb = vector.broadcast %c : vector<64xf32> to vector<64x64xf32>
    %z = arith.addf %y, %cb : vector<64x64xf32>
    layout.store %z, %po[%bx, %by] masked : vector<64x64xf32>, !t
    gpu.return
  }
}

// -----

// Shape casts that add or drop unit dimensions: row sums kept as a column
// (vector<8xf32> to vector<8x1xf32>) and stored into a 2-D view; the tile
// is read through a shape cast that drops its leading unit dimension.
// CHECK-LABEL: gpu.func @unit_shape_casts
// CHECK-NOT: vector.shape_cast
// CHECK: gpu.return
!in3 = !layout.partition_view<?x?x?xf32, tile = [1, 8, 128]>
!col = !layout.partition_view<?x?xf32, tile = [8, 1]>
gpu.module @m {
  gpu.func @unit_shape_casts(%a: memref<?x?x?xf32>, %sum: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %va = layout.view %a : memref<?x?x?xf32> -> !layout.tensor_view<?x?x?xf32>
    %pa = layout.partition %va tile [1, 8, 128] : !layout.tensor_view<?x?x?xf32> -> !in3
    %vs = layout.view %sum : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %ps = layout.partition %vs tile [8, 1] : !layout.tensor_view<?x?xf32> -> !col
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %c0 = arith.constant 0 : index
    %t = layout.load %pa[%by, %bx, %c0] masked : !in3 -> vector<1x8x128xf32>
    %t2 = vector.shape_cast %t : vector<1x8x128xf32> to vector<8x128xf32>
    %z = arith.constant dense<0.0> : vector<8xf32>
    %s = vector.multi_reduction <add>, %t2, %z [1] : vector<8x128xf32> to vector<8xf32>
    %c = vector.shape_cast %s : vector<8xf32> to vector<8x1xf32>
    layout.store %c, %ps[%bx, %by] masked : vector<8x1xf32>, !col
    gpu.return
  }
}

// -----

// A value used twice at every level (x^(2^24) as 24 squarings): each
// fragment evaluates every value once (the code grows with the chain, not
// with 2^24), and a splat constant shared with per-thread code stays for it.
// CHECK-LABEL: gpu.func @shared_values_evaluated_once
// CHECK-COUNT-24: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf32>
// CHECK: gpu.return
!sq = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @shared_values_evaluated_once(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 32, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !sq
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !sq
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a0 = layout.load %pi[%c0, %c0] : !sq -> vector<32x32xf32>
    %a1 = arith.mulf %a0, %a0 : vector<32x32xf32>
    %a2 = arith.mulf %a1, %a1 : vector<32x32xf32>
    %a3 = arith.mulf %a2, %a2 : vector<32x32xf32>
    %a4 = arith.mulf %a3, %a3 : vector<32x32xf32>
    %a5 = arith.mulf %a4, %a4 : vector<32x32xf32>
    %a6 = arith.mulf %a5, %a5 : vector<32x32xf32>
    %a7 = arith.mulf %a6, %a6 : vector<32x32xf32>
    %a8 = arith.mulf %a7, %a7 : vector<32x32xf32>
    %a9 = arith.mulf %a8, %a8 : vector<32x32xf32>
    %a10 = arith.mulf %a9, %a9 : vector<32x32xf32>
    %a11 = arith.mulf %a10, %a10 : vector<32x32xf32>
    %a12 = arith.mulf %a11, %a11 : vector<32x32xf32>
    %a13 = arith.mulf %a12, %a12 : vector<32x32xf32>
    %a14 = arith.mulf %a13, %a13 : vector<32x32xf32>
    %a15 = arith.mulf %a14, %a14 : vector<32x32xf32>
    %a16 = arith.mulf %a15, %a15 : vector<32x32xf32>
    %a17 = arith.mulf %a16, %a16 : vector<32x32xf32>
    %a18 = arith.mulf %a17, %a17 : vector<32x32xf32>
    %a19 = arith.mulf %a18, %a18 : vector<32x32xf32>
    %a20 = arith.mulf %a19, %a19 : vector<32x32xf32>
    %a21 = arith.mulf %a20, %a20 : vector<32x32xf32>
    %a22 = arith.mulf %a21, %a21 : vector<32x32xf32>
    %a23 = arith.mulf %a22, %a22 : vector<32x32xf32>
    %a24 = arith.mulf %a23, %a23 : vector<32x32xf32>
    %two = arith.constant dense<2.0> : vector<32x32xf32>
    %r = arith.addf %a24, %two : vector<32x32xf32>
    layout.store %r, %po[%c0, %c0] : vector<32x32xf32>, !sq
    %e = vector.extract %two[0, 0] : f32 from vector<32x32xf32>
    memref.store %e, %out[%c1, %c1] : memref<64x64xf32>
    gpu.return
  }
}
