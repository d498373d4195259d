// Reductions written as tile programs: softmax statistics (the maximum and
// the sum of each row of a matrix), one row per block.
//
//   row_stats_f32: max[i] = max_j a[i, j], sum[i] = sum_j a[i, j] for a
//                  matrix of 8192 columns (the tile is a whole row, so the
//                  loads need no mask). Grid: (rows, 1, 1).
//
// -layout-tile-shared-memory stages the row once into workgroup memory
// with 16-byte coalesced reads (both reductions read that one copy), each
// thread folds a strided part of the row, and the threads' partial results
// are folded in levels of 16 through a second buffer.
//
// Compile (README):
//
//   layout-opt examples/reductions.mlir -layout-tile-shared-memory \
//     -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
//     -layout-dump-binaries=dir=out
!rows = !layout.partition_view<?x8192xf32, tile = [1, 8192]>
!stat = !layout.partition_view<?xf32, tile = [1]>
module attributes {gpu.container_module} {
  gpu.module @reductions {
    gpu.func @row_stats_f32(%a: memref<?x8192xf32>, %max: memref<?xf32>, %sum: memref<?xf32>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %va = layout.view %a : memref<?x8192xf32> -> !layout.tensor_view<?x8192xf32>
      %pa = layout.partition %va tile [1, 8192] : !layout.tensor_view<?x8192xf32> -> !rows
      %vm = layout.view %max : memref<?xf32> -> !layout.tensor_view<?xf32>
      %pm = layout.partition %vm tile [1] : !layout.tensor_view<?xf32> -> !stat
      %vs = layout.view %sum : memref<?xf32> -> !layout.tensor_view<?xf32>
      %ps = layout.partition %vs tile [1] : !layout.tensor_view<?xf32> -> !stat
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %t = layout.load %pa[%bx, %c0] : !rows -> vector<1x8192xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<1xf32>
      %m = vector.multi_reduction <maxnumf>, %t, %ninf [1] : vector<1x8192xf32> to vector<1xf32>
      layout.store %m, %pm[%bx] : vector<1xf32>, !stat
      %z = arith.constant dense<0.0> : vector<1xf32>
      %s = vector.multi_reduction <add>, %t, %z [1] : vector<1x8192xf32> to vector<1xf32>
      layout.store %s, %ps[%bx] : vector<1xf32>, !stat
      gpu.return
    }
  }
}
