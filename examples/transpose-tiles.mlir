// Transposes written as tile programs: each kernel loads one tile of the
// input, permutes it with vector.transpose and stores it into the output.
// The loads and stores are cooperative (their tile indices are the same in
// every thread of the block), and -layout-tile-shared-memory turns each
// copy into per-thread code: coalesced 128-bit global reads, a workgroup
// buffer written through a layout descriptor, a barrier, 128-bit reads of
// the buffer transposed in registers, coalesced 128-bit global writes.
// Edge tiles are masked; any shape works.
//
//   tile_transpose_f32:         out[j, i] = in[i, j], 64x64 tiles
//   tile_transpose_f16:         the same in f16, 128x128 tiles (16-byte
//                               accesses on both sides of the buffer)
//   tile_transpose_batched_f32: out[b, j, i] = in[b, i, j] (grid z = b)
//   tile_permute_f32:           out[j, i, k] = in[i, j, k]: the contiguous
//                               dimension stays, no buffer is needed
//   tile_transpose_scale_f16:   out[j, i] = f16(in[i, j] * alpha): elementwise
//                               ops on the tile (a mixed-precision transpose)
//   tile_add_transposed_f32:    out[j, i] = a[i, j] + b[j, i]: a goes through
//                               the buffer, b straight to the registers
//
// Compile (README):
//
//   layout-opt examples/transpose-tiles.mlir -layout-tile-shared-memory \
//     -layout-xor-swizzle=chip=gfx942 -layout-to-rocdl=chip=gfx942 \
//     -layout-dump-binaries=dir=out
!in2 = !layout.partition_view<?x?xf32, tile = [64, 64]>
!in2h = !layout.partition_view<?x?xf16, tile = [128, 128]>
!in3 = !layout.partition_view<?x?x?xf32, tile = [1, 64, 64]>
!pm3 = !layout.partition_view<?x?x?xf32, tile = [4, 8, 32]>
module attributes {gpu.container_module} {
  gpu.module @tiles {
    gpu.func @tile_transpose_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %pi = layout.partition %vi tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !in2 -> vector<64x64xf32>
      %u = vector.transpose %t, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      layout.store %u, %po[%bx, %by] masked : vector<64x64xf32>, !in2
      gpu.return
    }

    gpu.func @tile_transpose_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
      %vo = layout.view %out : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
      %pi = layout.partition %vi tile [128, 128] : !layout.tensor_view<?x?xf16> -> !in2h
      %po = layout.partition %vo tile [128, 128] : !layout.tensor_view<?x?xf16> -> !in2h
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !in2h -> vector<128x128xf16>
      %u = vector.transpose %t, [1, 0] : vector<128x128xf16> to vector<128x128xf16>
      layout.store %u, %po[%bx, %by] masked : vector<128x128xf16>, !in2h
      gpu.return
    }

    gpu.func @tile_transpose_batched_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?x?xf32> -> !layout.tensor_view<?x?x?xf32>
      %vo = layout.view %out : memref<?x?x?xf32> -> !layout.tensor_view<?x?x?xf32>
      %pi = layout.partition %vi tile [1, 64, 64] : !layout.tensor_view<?x?x?xf32> -> !in3
      %po = layout.partition %vo tile [1, 64, 64] : !layout.tensor_view<?x?x?xf32> -> !in3
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %t = layout.load %pi[%bz, %by, %bx] masked : !in3 -> vector<1x64x64xf32>
      %u = vector.transpose %t, [0, 2, 1] : vector<1x64x64xf32> to vector<1x64x64xf32>
      layout.store %u, %po[%bz, %bx, %by] masked : vector<1x64x64xf32>, !in3
      gpu.return
    }

    gpu.func @tile_permute_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?x?xf32> -> !layout.tensor_view<?x?x?xf32>
      %vo = layout.view %out : memref<?x?x?xf32> -> !layout.tensor_view<?x?x?xf32>
      %pi = layout.partition %vi tile [4, 8, 32] : !layout.tensor_view<?x?x?xf32> -> !pm3
      %po = layout.partition %vo tile [8, 4, 32] : !layout.tensor_view<?x?x?xf32> -> !layout.partition_view<?x?x?xf32, tile = [8, 4, 32]>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %t = layout.load %pi[%bz, %by, %bx] masked : !pm3 -> vector<4x8x32xf32>
      %u = vector.transpose %t, [1, 0, 2] : vector<4x8x32xf32> to vector<8x4x32xf32>
      layout.store %u, %po[%by, %bz, %bx] masked : vector<8x4x32xf32>, !layout.partition_view<?x?x?xf32, tile = [8, 4, 32]>
      gpu.return
    }

    gpu.func @tile_transpose_scale_f16(%in: memref<?x?xf32>, %out: memref<?x?xf16>, %alpha: f32)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vo = layout.view %out : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
      %pi = layout.partition %vi tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 64]>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !in2 -> vector<64x64xf32>
      %u = vector.transpose %t, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      %a = vector.broadcast %alpha : f32 to vector<64x64xf32>
      %s = arith.mulf %u, %a : vector<64x64xf32>
      %h = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
      layout.store %h, %po[%bx, %by] masked : vector<64x64xf16>, !layout.partition_view<?x?xf16, tile = [64, 64]>
      gpu.return
    }

    gpu.func @tile_add_transposed_f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %va = layout.view %a : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vb = layout.view %b : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %pa = layout.partition %va tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %pb = layout.partition %vb tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !in2
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x = layout.load %pa[%by, %bx] masked : !in2 -> vector<64x64xf32>
      %y = layout.load %pb[%bx, %by] masked : !in2 -> vector<64x64xf32>
      %xt = vector.transpose %x, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      %s = arith.addf %xt, %y : vector<64x64xf32>
      layout.store %s, %po[%bx, %by] masked : vector<64x64xf32>, !in2
      gpu.return
    }
  }
}
