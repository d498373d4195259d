// GEMM tile programs for sm_90a experiments (bench/gemm): examples/matmul.mlir's
// gemm_f16_t128_k64 (128 x BN x 64 block tiles, grouped order, 3 stages in
// dynamic shared memory) with 256 threads, so that each of the two
// warpgroups holds a 64 x BN accumulator (wgmma m64nBNk16):
//   gemm_f16_wg128  BN = 128 (64 f32 accumulators per thread)
//   gemm_f16_wg256  BN = 256 (128 per thread; 3 stages of 48 KiB)
//   *_s4            the same with 4 stages (layout.pipeline_stages)
//   gemm_bf16_wg256  gemm_f16_wg256 on bf16 A, B and C (bf16-sm90a.cu)
//   gemm_f16_wg128_b2  wg128 with two blocks per SM (nvvm.minctasm = 2: at
//                   most 128 registers a thread, 2 x 96 KiB of stages), so
//                   that one block's epilogue overlaps the other's loop
//   gemm_f16_wg256_persistent  wg256 on a persistent grid (one block per
//                   SM, harness.cu): each block loops over the tiles in
//                   the grouped order, the K loop's ring (and its
//                   mbarriers) set up again for each tile
// Built by bench/gemm/build-wgmma.sh; measured with
//   GEMM_CHIP=sm_90a /tmp/h bench/gemm/out-wgmma bench

!a128k64 = !layout.partition_view<?x?xf16, tile = [128, 64]>
!b128k64 = !layout.partition_view<?x?xf16, tile = [64, 128]>
!b256k64 = !layout.partition_view<?x?xf16, tile = [64, 256]>
!c128 = !layout.partition_view<?x?xf16, tile = [128, 128]>
!c256 = !layout.partition_view<?x?xf16, tile = [128, 256]>
!a128k64bf = !layout.partition_view<?x?xbf16, tile = [128, 64]>
!b256k64bf = !layout.partition_view<?x?xbf16, tile = [64, 256]>
!c256bf = !layout.partition_view<?x?xbf16, tile = [128, 256]>

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @matmul {
  gpu.func @gemm_f16_wg128(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 128] : !layout.tensor_view<?x?xf16> -> !b128k64
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128k64 -> vector<64x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf16>, vector<64x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  gpu.func @gemm_f16_wg128_b2(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  nvvm.minctasm = 2 : i32,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 128] : !layout.tensor_view<?x?xf16> -> !b128k64
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128k64 -> vector<64x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf16>, vector<64x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }
  gpu.func @gemm_f16_wg256(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 256] : !layout.tensor_view<?x?xf16> -> !b256k64
    %pc = layout.partition %vc tile [128, 256] : !layout.tensor_view<?x?xf16> -> !c256
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64
    %zero = arith.constant dense<0.0> : vector<128x256xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x256xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b256k64 -> vector<64x256xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf16>, vector<64x256xf16> into vector<128x256xf32>
      scf.yield %r : vector<128x256xf32>
    }
    %o = arith.truncf %acc : vector<128x256xf32> to vector<128x256xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x256xf16>, !c256
    gpu.return
  }

  gpu.func @gemm_bf16_wg256(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vb = layout.view %B : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vc = layout.view %C : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xbf16> -> !a128k64bf
    %pb = layout.partition %vb tile [64, 256] : !layout.tensor_view<?x?xbf16> -> !b256k64bf
    %pc = layout.partition %vc tile [128, 256] : !layout.tensor_view<?x?xbf16> -> !c256bf
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64bf
    %zero = arith.constant dense<0.0> : vector<128x256xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x256xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64bf -> vector<128x64xbf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b256k64bf -> vector<64x256xbf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xbf16>, vector<64x256xbf16> into vector<128x256xf32>
      scf.yield %r : vector<128x256xf32>
    }
    %o = arith.truncf %acc : vector<128x256xf32> to vector<128x256xbf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x256xbf16>, !c256bf
    gpu.return
  }

  gpu.func @gemm_f16_wg128_s4(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 128] : !layout.tensor_view<?x?xf16> -> !b128k64
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128k64 -> vector<64x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>, layout.pipeline_stages = 4 : i64} %ta, %tb, %s
         : vector<128x64xf16>, vector<64x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  gpu.func @gemm_f16_wg256_s4(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 256] : !layout.tensor_view<?x?xf16> -> !b256k64
    %pc = layout.partition %vc tile [128, 256] : !layout.tensor_view<?x?xf16> -> !c256
    // Grouped order (Triton's GROUP_M): consecutive blocks walk 8 block rows
    // down one block column before moving right, so the A and B tiles they
    // share stay in L2.
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
    %tiles:2 = layout.index_space %pa : !a128k64
    %zero = arith.constant dense<0.0> : vector<128x256xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x256xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b256k64 -> vector<64x256xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>, layout.pipeline_stages = 4 : i64} %ta, %tb, %s
         : vector<128x64xf16>, vector<64x256xf16> into vector<128x256xf32>
      scf.yield %r : vector<128x256xf32>
    }
    %o = arith.truncf %acc : vector<128x256xf32> to vector<128x256xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x256xf16>, !c256
    gpu.return
  }
  gpu.func @gemm_f16_wg256_persistent(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  layout.dynamic_shared_memory} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf16> -> !a128k64
    %pb = layout.partition %vb tile [64, 256] : !layout.tensor_view<?x?xf16> -> !b256k64
    %pc = layout.partition %vc tile [128, 256] : !layout.tensor_view<?x?xf16> -> !c256
    %bx = gpu.block_id x
    %nb = gpu.grid_dim x
    // C's tiles: gy rows by gx columns, visited by tile id in the grouped
    // order of gemm_f16_wg256 (8 block rows down one column).
    %ct:2 = layout.index_space %pc : !c256
    %ntiles = arith.muli %ct#0, %ct#1 : index
    %span = arith.muli %ct#1, %c8 : index
    %tiles:2 = layout.index_space %pa : !a128k64
    scf.for %id = %bx to %ntiles step %nb {
      %group = arith.divui %id, %span : index
      %first = arith.muli %group, %c8 : index
      %left = arith.subi %ct#0, %first : index
      %size = arith.minui %left, %c8 : index
      %inGroup = arith.remui %id, %span : index
      %dm = arith.remui %inGroup, %size : index
      %bm = arith.addi %first, %dm : index
      %bn = arith.divui %inGroup, %size : index
      %zero = arith.constant dense<0.0> : vector<128x256xf32>
      %acc = scf.for %kt = %c0 to %tiles#1 step %c1
          iter_args(%s = %zero) -> (vector<128x256xf32>) {
        %ta = layout.load %pa[%bm, %kt] masked : !a128k64 -> vector<128x64xf16>
        %tb = layout.load %pb[%kt, %bn] masked : !b256k64 -> vector<64x256xf16>
        %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                              iterator_types = ["parallel", "parallel", "reduction"],
                              kind = #vector.kind<add>} %ta, %tb, %s
           : vector<128x64xf16>, vector<64x256xf16> into vector<128x256xf32>
        scf.yield %r : vector<128x256xf32>
      }
      %o = arith.truncf %acc : vector<128x256xf32> to vector<128x256xf16>
      layout.store %o, %pc[%bm, %bn] masked : vector<128x256xf16>, !c256
    }
    gpu.return
  }
}
}
