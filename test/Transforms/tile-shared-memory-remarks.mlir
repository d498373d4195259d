// RUN: layout-opt %s -layout-tile-shared-memory="chip=gfx942 remarks=true" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="remark:"
// RUN: layout-opt %s -layout-tile-shared-memory="chip=gfx942 remarks=true assume-alignment=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: layout-opt %s -layout-tile-shared-memory=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: layout-opt %s -layout-tile-shared-memory=chip=gfx942 --remark-format=yaml --remarks-filter=layout-tiles --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml

/// -layout-tile-shared-memory says what it chose for each global access
/// (issue 38, item 10): with remarks=true as diagnostics, through the remark
/// engine's category layout-tiles always (and off otherwise, so that other
/// pipelines print nothing new). The widths below, worked out by hand from
/// ThreadMapping.h's rule (the widest vector up to 16 bytes that divides
/// the tile, keeps the view's static strides and offset aligned and gives
/// every thread the same number of vectors), and the elements each thread
/// moves (the tile's elements over the threads):
///
/// - @six: an 8x6 f32 tile: 4 elements do not divide 6, 2 do: 24 vectors of
///   8 bytes for 12 threads, 2 iterations.
/// - @stride34: rows 34 elements apart: a 4-element vector at row 1 would
///   start at element 34, not a multiple of 4; 2 keep it aligned: 8 x 16 =
///   128 vectors for 32 threads, 4 iterations.
/// - @small_f16: a 16x16 f16 tile has 256 elements for 256 threads: 8-, 4-
///   and 2-element vectors leave threads without one, so single elements,
///   1 iteration.
/// - @transpose: 32x32 f32, both sides 16 bytes (the load staged: its rows
///   run across the store's), 256 vectors for 256 threads; with
///   assume-alignment=8, 8-byte vectors: 512 for 256 threads, 2 iterations
///   of the load; the store's register blocks are 2 rows of 2 vectors.

// CHECK: [[#@LINE+40]]:7: remark: tile store of 8x6xf32: 12 threads, each moving 2 x f32 vectors (8 bytes) along dimension 1; consecutive threads on consecutive blocks, dimension order [1, 0], 2 iterations; 4 elements per thread; narrower than 16 bytes: the tile has 6 elements along dimension 1
// CHECK: [[#@LINE+38]]:12: remark: tile load (into registers, along the store's rows) of 8x6xf32: 12 threads, each moving 2 x f32 vectors (8 bytes) along dimension 1; {{.*}}, 2 iterations; 4 elements per thread; narrower than 16 bytes: the tile has 6 elements along dimension 1
// CHECK: remark: tile store of 8x32xf32: 32 threads, each moving 2 x f32 vectors (8 bytes) along dimension 1; {{.*}}, 4 iterations; 8 elements per thread; narrower than 16 bytes: its view's static stride along dimension 0 is 34 elements
// CHECK: remark: tile load (into registers, along the store's rows) of 8x32xf32: {{.*}} 2 x f32 vectors (8 bytes) {{.*}}; narrower than 16 bytes: its view's static stride along dimension 0 is 34 elements
// CHECK: remark: tile store of 16x16xf16: 256 threads, each moving single f16 elements along dimension 1; {{.*}}, 1 iteration; 1 element per thread; narrower than 16 bytes: 2-element vectors do not give the 256 threads equal parts of the tile
// CHECK: remark: tile load (into registers, along the store's rows) of 16x16xf16: 256 threads, each moving single f16 elements {{.*}}; narrower than 16 bytes: 2-element vectors do not give the 256 threads equal parts of the tile
// CHECK: remark: tile store (rows aligned only at run time get a second version, in sector-aligned windows) of 32x32xf32: 256 threads, each moving 4 x f32 vectors (16 bytes) along dimension 1; consecutive threads on consecutive blocks, dimension order [1, 0], 1 iteration; 4 elements per thread{{$}}
// CHECK: remark: tile load (staged through workgroup memory: its rows run across the store's) of 32x32xf32: 256 threads, each moving 4 x f32 vectors (16 bytes) along dimension 1; consecutive threads on consecutive blocks, dimension order [1, 0], 1 iteration; 4 elements per thread{{$}}

// ALIGN: remark: tile store (rows aligned only at run time {{.*}}) of 32x32xf32: 256 threads, each moving 2 x f32 vectors (8 bytes) along dimension 1, in blocks of 2 along dimension 0; {{.*}}, 1 iteration; 4 elements per thread; narrower than 16 bytes: assume-alignment is 8 bytes
// ALIGN: remark: tile load (staged {{.*}}) of 32x32xf32: 256 threads, each moving 2 x f32 vectors (8 bytes) along dimension 1; {{.*}}, 2 iterations; 4 elements per thread; narrower than 16 bytes: assume-alignment is 8 bytes

// QUIET-NOT: remark:

// YAML:      --- !Analysis
// YAML-NEXT: Pass:            layout-tiles
// YAML-NEXT: Name:            TileAccess
// YAML:      Function:        six
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark:          'tile store of 8x6xf32: 12 threads,
// YAML:        - VectorElements:  '2'
// YAML-NEXT:   - VectorBytes:     '8'
// YAML-NEXT:   - Iterations:      '2'
// YAML-NEXT:   - Why:             the tile has 6 elements along dimension 1

!p6 = !layout.partition_view<64x6xf32, tile = [8, 6]>
!p34 = !layout.partition_view<?x34xf32, tile = [8, 32]>
!pd = !layout.partition_view<?x?xf32, tile = [32, 32]>
!ph = !layout.partition_view<?x?xf16, tile = [16, 16]>
module attributes {gpu.container_module} {
  gpu.module @tiles {
    gpu.func @six(%in: memref<64x6xf32>, %out: memref<64x6xf32>)
        kernel attributes {known_block_size = array<i32: 12, 1, 1>} {
      %vi = layout.view %in : memref<64x6xf32> -> !layout.tensor_view<64x6xf32>
      %vo = layout.view %out : memref<64x6xf32> -> !layout.tensor_view<64x6xf32>
      %pi = layout.partition %vi tile [8, 6] : !layout.tensor_view<64x6xf32> -> !p6
      %po = layout.partition %vo tile [8, 6] : !layout.tensor_view<64x6xf32> -> !p6
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %t = layout.load %pi[%bx, %c0] : !p6 -> vector<8x6xf32>
      layout.store %t, %po[%bx, %c0] : vector<8x6xf32>, !p6
      gpu.return
    }
    gpu.func @stride34(%in: memref<?x34xf32>, %out: memref<?x34xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %vi = layout.view %in : memref<?x34xf32> -> !layout.tensor_view<?x34xf32>
      %vo = layout.view %out : memref<?x34xf32> -> !layout.tensor_view<?x34xf32>
      %pi = layout.partition %vi tile [8, 32] : !layout.tensor_view<?x34xf32> -> !p34
      %po = layout.partition %vo tile [8, 32] : !layout.tensor_view<?x34xf32> -> !p34
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %t = layout.load %pi[%bx, %c0] masked : !p34 -> vector<8x32xf32>
      layout.store %t, %po[%bx, %c0] masked : vector<8x32xf32>, !p34
      gpu.return
    }
    gpu.func @small_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
      %vo = layout.view %out : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
      %pi = layout.partition %vi tile [16, 16] : !layout.tensor_view<?x?xf16> -> !ph
      %po = layout.partition %vo tile [16, 16] : !layout.tensor_view<?x?xf16> -> !ph
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !ph -> vector<16x16xf16>
      layout.store %t, %po[%by, %bx] masked : vector<16x16xf16>, !ph
      gpu.return
    }
    gpu.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !pd
      %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !pd
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !pd -> vector<32x32xf32>
      %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
      layout.store %u, %po[%bx, %by] masked : vector<32x32xf32>, !pd
      gpu.return
    }
  }
}
