// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -canonicalize -cse | FileCheck %s

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
