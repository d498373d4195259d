// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -canonicalize -cse | FileCheck %s
// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

/// Divisibility facts (issue 18): a view whose row stride and offset are
/// run-time values gets 16-byte vectors only where both are multiples of 4
/// elements, tested at run time; a fact that says so removes the test.
/// Each case is the same masked 32x32 f32 copy with 32x8 threads.

// Facts on both memref arguments: no run-time test at all, every tile
// moves in 16-byte vectors (inside the view, whole tiles unguarded).
// CHECK-LABEL: gpu.func @both_facts
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: gpu.return
!s = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @both_facts(
      %in: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 4, 1>, layout.offset_multiple = 4 : i64},
      %out: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 8, 1>, layout.offset_multiple = 0 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !s -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !s
    gpu.return
  }
}

// -----

// The row stride known, the offset not: only the offset is tested.
// CHECK-LABEL: gpu.func @stride_fact
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: arith.remui %[[OFF]], %c4
// CHECK-NOT: arith.remui %[[STR]]#0
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
!s = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @stride_fact(
      %in: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 12, 1>},
      %out: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 8, 1>, layout.offset_multiple = 0 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !s -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !s
    gpu.return
  }
}

// -----

// A fact too weak for the vector (a multiple of 2, not of 4) keeps the test.
// CHECK-LABEL: gpu.func @weak_fact
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: arith.remui %[[STR]]#0, %c4
!s = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @weak_fact(
      %in: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 2, 1>, layout.offset_multiple = 4 : i64},
      %out: memref<?x?xf32, strided<[?, 1], offset: ?>>
           {layout.stride_multiples = array<i64: 8, 1>, layout.offset_multiple = 0 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !s -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !s
    gpu.return
  }
}

// -----

// A memref made from a flat buffer with a run-time leading dimension
// stated a multiple of 4 (layout.assume_multiple), at offset 0, and a
// subview of it at a column that is a multiple of 8: no test.
// CHECK-LABEL: gpu.func @assumed
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x64xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: gpu.return
!s = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @assumed(%buf: memref<?xf32>, %m: index, %n: index, %ld: index, %col: index,
                    %out: memref<?x?xf32, strided<[?, 1], offset: ?>>
                          {layout.stride_multiples = array<i64: 8, 1>, layout.offset_multiple = 0 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %ld4 = layout.assume_multiple %ld, 4 : index
    %col8 = layout.assume_multiple %col, 8 : index
    %c0 = arith.constant 0 : index
    %a = memref.reinterpret_cast %buf to offset: [%c0], sizes: [%m, %n], strides: [%ld4, 1]
         : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %sub = memref.subview %a[0, %col8] [%m, 64] [1, 1]
           : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x64xf32, strided<[?, 1], offset: ?>>
    %vi = layout.view %sub : memref<?x64xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x64xf32>
    %vo = layout.view %out : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x64xf32> -> !layout.partition_view<?x64xf32, tile = [32, 32]>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !s
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !layout.partition_view<?x64xf32, tile = [32, 32]> -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !s
    gpu.return
  }
}

// -----

// Views through descriptors with run-time lengths and strides (issue 18):
// a naive base with run-time strides is a strided memref (its operands in
// the reinterpret_cast), so the facts of the leading dimensions remove the
// alignment test as for a memref argument.
// CHECK-LABEL: gpu.func @strided_facts
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg2, %arg3], strides: [%arg4, 1]
// CHECK: vector.load %reinterpret_cast[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %reinterpret_cast_0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: gpu.return
!p = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @strided_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index, %n: index,
      %lda: index {layout.multiple_of = 4 : i64}, %ldo: index {layout.multiple_of = 8 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %da = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %do = layout.naive [%n, %m] strides [%ldo, 1] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%bx, %by] masked : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

// A run-time right pad on the columns goes through the descriptor: its
// runs are what the run-time length, the pad and the row stride are known
// to be multiples of (4 each), so 16-byte vectors move through the
// descriptor's offsets on both sides (the packed output's row length
// n + pad is a multiple of 4 through the addi).
// CHECK-LABEL: gpu.func @padded_facts
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.return
!p = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @padded_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index,
      %n: index {layout.multiple_of = 4 : i64}, %pad: index {layout.multiple_of = 4 : i64},
      %lda: index {layout.multiple_of = 4 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %d0 = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %da = layout.transform %d0 [#layout.pass_through<?> : [0] -> [0],
                                #layout.right_pad<?, ?> : [1] -> [1]]
          args(%m, %n, %pad) : !layout.desc<?x?> -> !layout.desc<?x?>
    %np = arith.addi %n, %pad : index
    %do = layout.packed [%m, %np] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

// Without the facts nothing is known of the run-time lengths: element by
// element, with a remark that names the length and the ops that state one.
// CHECK-LABEL: gpu.func @padded_no_facts
// CHECK-NOT: vector<4xf32>
// CHECK: gpu.return
// REMARK: remark: moves element by element through its view's descriptor: the last dimension has runs of 1 with stride 0; the base dim 1 it comes from has a run-time length known to be a multiple of 1 (layout.assume_multiple or layout.multiple_of state more)
// REMARK: remark: moves element by element through its view's descriptor: the last dimension has runs of 1 with stride 0; the base dim 1 it comes from has a run-time length known to be a multiple of 1
!p = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @padded_no_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index,
      %n: index, %pad: index, %lda: index)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %d0 = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %da = layout.transform %d0 [#layout.pass_through<?> : [0] -> [0],
                                #layout.right_pad<?, ?> : [1] -> [1]]
          args(%m, %n, %pad) : !layout.desc<?x?> -> !layout.desc<?x?>
    %np = arith.addi %n, %pad : index
    %do = layout.packed [%m, %np] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !p
    gpu.return
  }
}
