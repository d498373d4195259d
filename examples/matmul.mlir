// Matrix multiplies as tile programs (f16 and bf16): each kernel loads an A tile (BM x BK)
// and a B tile (BK x BN) per K step from partition views, multiplies them
// with vector.contract into an f32 accumulator carried by the scf.for, and
// stores the C tile after an epilogue of elementwise ops. Dynamic M, N, K:
// the loads and the store are masked.
//
// The 128x128 kernels step K by 32: on sm_90 the pass then keeps 3 LDS
// stages filled by asynchronous copies (48 KiB, the static limit).
// gemm_f16_t128 runs 128 threads (4 waves of 64x64 wave tiles): on the
// H100, 340 TFLOPS at 4096^3 against 244 for gemm_f16 (256 threads) and
// 242 for the earlier K steps of 64 with register prefetch
// (bench/RESULTS.md).
//
// -layout-tile-shared-memory{chip=...} distributes them onto the chip's
// matrix instructions (docs/gpu.md, "Matrix multiplies"):
//   layout-opt examples/matmul.mlir -layout-tile-shared-memory=chip=sm_90 \
//     -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
//     -layout-dump-binaries=dir=out -o /dev/null
// bench/gemm measures them on an H100 against cuBLAS; the CPU tests run
// them lane by lane (test/Integration/GPU/matmul-on-cpu.mlir). The FP8
// GEMMs (scaled, row-wise scaled, FP8 out) are in examples/matmul-fp8.mlir:
// every chip compiles this file, and gfx90a and gfx1100 have no FP8
// instructions.

!a128 = !layout.partition_view<?x?xf16, tile = [128, 32]>
!b128 = !layout.partition_view<?x?xf16, tile = [32, 128]>
!c128 = !layout.partition_view<?x?xf16, tile = [128, 128]>
!a128k64 = !layout.partition_view<?x?xf16, tile = [128, 64]>
!b128k64 = !layout.partition_view<?x?xf16, tile = [64, 128]>
!a64 = !layout.partition_view<?x?xf16, tile = [64, 32]>
!b64 = !layout.partition_view<?x?xf16, tile = [32, 64]>
!c64 = !layout.partition_view<?x?xf16, tile = [64, 64]>

!abf = !layout.partition_view<?x?xbf16, tile = [128, 32]>
!bbf = !layout.partition_view<?x?xbf16, tile = [32, 128]>
!cf32 = !layout.partition_view<?x?xf32, tile = [128, 128]>
!bias128 = !layout.partition_view<?xf32, tile = [128]>
!pad16 = !layout.partition_view<?x?xf16, tile = [16, 256]>

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @matmul {
  // C = f16(A * B): 128x128 block tiles, K steps of 32, 256 threads (8 waves
  // of 64x32 wave tiles).
  gpu.func @gemm_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 32] : !layout.tensor_view<?x?xf16> -> !a128
    %pb = layout.partition %vb tile [32, 128] : !layout.tensor_view<?x?xf16> -> !b128
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a128
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128 -> vector<128x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128 -> vector<32x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x32xf16>, vector<32x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  // The same with 128 threads: 4 waves of 64x64 wave tiles (half the
  // fragment reads per matrix instruction; 245 registers on sm_90, 2 blocks
  // per SM). On gfx1100 it spills (64x64 wave tiles of 16x16 WMMA
  // accumulators and operands exceed 256 VGPRs); the others fit.
  gpu.func @gemm_f16_t128(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 32] : !layout.tensor_view<?x?xf16> -> !a128
    %pb = layout.partition %vb tile [32, 128] : !layout.tensor_view<?x?xf16> -> !b128
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a128
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128 -> vector<128x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128 -> vector<32x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x32xf16>, vector<32x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  // gemm_f16_t128 with its blocks walked in groups of 8 block rows.
  gpu.func @gemm_f16_t128_g8(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [128, 32] : !layout.tensor_view<?x?xf16> -> !a128
    %pb = layout.partition %vb tile [32, 128] : !layout.tensor_view<?x?xf16> -> !b128
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
    %tiles:2 = layout.index_space %pa : !a128
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128 -> vector<128x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128 -> vector<32x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x32xf16>, vector<32x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %o = arith.truncf %acc : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  // gemm_f16_t128_g8 with K steps of 64. Its launcher passes dynamic shared
  // memory (layout.dynamic_shared_memory), so on sm_90 the pass keeps 3
  // stages of 32 KiB (96 KiB, above the 48 KiB static limit; 2 blocks per
  // SM) and -layout-to-nvvm exports the size as
  // gemm_f16_t128_k64_dynamic_shared_bytes. Chips without the opt-in
  // (AMD) keep what fits their workgroup memory.
  gpu.func @gemm_f16_t128_k64(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                     %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>,
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

  // 64x64 block tiles, K steps of 32 (more blocks for small problems, fewer
  // registers).
  gpu.func @gemm_f16_64(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                        %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !a64
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !b64
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf16> -> !c64
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a64
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a64 -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b64 -> vector<32x64xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %o = arith.truncf %acc : vector<64x64xf32> to vector<64x64xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<64x64xf16>, !c64
    gpu.return
  }

  // A fused epilogue: C = f16(relu(alpha * A * B + bias)), the bias a row of
  // N f32 values added to every row of C (each lane loads the bias of its
  // columns of C once, after the loop).
  gpu.func @gemm_f16_bias_relu(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                               %C: memref<?x?xf16>, %alpha: f32,
                               %Bias: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vbias = layout.view %Bias : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pa = layout.partition %va tile [128, 32] : !layout.tensor_view<?x?xf16> -> !a128
    %pb = layout.partition %vb tile [32, 128] : !layout.tensor_view<?x?xf16> -> !b128
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf16> -> !c128
    %pbias = layout.partition %vbias tile [128] : !layout.tensor_view<?xf32> -> !bias128
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a128
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a128 -> vector<128x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !b128 -> vector<32x128xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x32xf16>, vector<32x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %row = layout.load %pbias[%bn] masked : !bias128 -> vector<128xf32>
    %rows = vector.broadcast %row : vector<128xf32> to vector<128x128xf32>
    %al = vector.broadcast %alpha : f32 to vector<128x128xf32>
    %scaled = arith.mulf %acc, %al : vector<128x128xf32>
    %biased = arith.addf %scaled, %rows : vector<128x128xf32>
    %zeros = arith.constant dense<0.0> : vector<128x128xf32>
    %relu = arith.maximumf %biased, %zeros : vector<128x128xf32>
    %o = arith.truncf %relu : vector<128x128xf32> to vector<128x128xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf16>, !c128
    gpu.return
  }

  // bf16 inputs, f32 output: C = A * B.
  gpu.func @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vb = layout.view %B : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [128, 32] : !layout.tensor_view<?x?xbf16> -> !abf
    %pb = layout.partition %vb tile [32, 128] : !layout.tensor_view<?x?xbf16> -> !bbf
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf32> -> !cf32
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !abf
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !abf -> vector<128x32xbf16>
      %tb = layout.load %pb[%kt, %bn] masked : !bbf -> vector<32x128xbf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x32xbf16>, vector<32x128xbf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<128x128xf32>, !cf32
    gpu.return
  }

  // Operand packing for unaligned shapes: copies a matrix into a larger one
  // (the grid covers Dst), zero-filling the rest (masked loads past the
  // source's edges read 0): rows padded to a multiple of 8 elements (16
  // bytes), and B's K rows too. A GEMM on padded A (M x K') and B (K' x N')
  // computes the same C (the extra K columns and rows are 0, the extra N
  // columns are never stored), with 16-byte rows for the asynchronous
  // pipeline; bench/gemm times both copies with the GEMM.
  gpu.func @pad_rows_f16(%Src: memref<?x?xf16>, %Dst: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %vs = layout.view %Src : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vd = layout.view %Dst : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %ps = layout.partition %vs tile [16, 256] : !layout.tensor_view<?x?xf16> -> !pad16
    %pd = layout.partition %vd tile [16, 256] : !layout.tensor_view<?x?xf16> -> !pad16
    %r = gpu.block_id y
    %c = gpu.block_id x
    %t = layout.load %ps[%r, %c] masked : !pad16 -> vector<16x256xf16>
    layout.store %t, %pd[%r, %c] masked : vector<16x256xf16>, !pad16
    gpu.return
  }
}
}
