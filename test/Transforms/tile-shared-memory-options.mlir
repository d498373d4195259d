// RUN: not layout-opt %s -layout-tile-shared-memory=assume-alignment=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not layout-opt %s -layout-tile-shared-memory=assume-alignment=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not layout-opt %s -layout-tile-shared-memory=assume-alignment=-16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: layout-opt %s -layout-tile-shared-memory=assume-alignment=4 | FileCheck %s --check-prefix=FOUR
// RUN: layout-opt %s -layout-tile-shared-memory=assume-alignment=16 | FileCheck %s --check-prefix=SIXTEEN

/// -layout-tile-shared-memory's assume-alignment is a power of two of
/// bytes (issue 14: 0, 3 and -16 were accepted silently); with 4 the f32
/// rows move element by element, with 16 as 16-byte vectors.
// ZERO: error: -layout-tile-shared-memory: assume-alignment must be a power of two (bytes), got 0
// THREE: error: -layout-tile-shared-memory: assume-alignment must be a power of two (bytes), got 3
// NEG: error: -layout-tile-shared-memory: assume-alignment must be a power of two (bytes), got -16
// FOUR-LABEL: gpu.func @copy
// FOUR-NOT: vector<4xf32>
// FOUR: memref.load %{{.*}} : memref<?x?xf32>
// FOUR-NOT: vector<4xf32>
// SIXTEEN-LABEL: gpu.func @copy
// SIXTEEN: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>

!p = !layout.partition_view<?x?xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @copy(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !p
    gpu.return
  }
}
