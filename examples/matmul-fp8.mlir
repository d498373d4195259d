// FP8 matrix multiplies as tile programs (issue 42): A M x K and B N x K of
// E4M3 (C = A B^T, both operands K-major, as every FP8 matrix instruction
// reads them), 128x128 block tiles, K steps of 64, 256 threads, an f32
// accumulator, torch._scaled_mm's scales in the epilogue:
//
//   gemm_fp8_scaled   per-tensor scales, bf16 out: C = bf16(acc * sa * sb)
//   gemm_fp8_rowwise  one scale per row of A and per row of B (column of C)
//   gemm_fp8_out      FP8 out, saturating as cuBLASLt stores FP8: the scaled
//                     product clamped to +-448 (E4M3's largest finite value;
//                     arith.minimumf / maximumf keep NaN) before arith.truncf,
//                     which the compiler recognizes
//                     (layout/Transforms/Float8Truncation.h)
//
// The types are the OCP ones (gfx950, sm_89 and later); gfx942's MFMAs read
// f8E4M3FNUZ (largest finite 240): sed -e 's/f8E4M3FN\b/f8E4M3FNUZ/g'
// -e 's/448.0/240.0/g'. They are separate from examples/matmul.mlir, which
// every chip compiles (gfx90a and gfx1100 have no FP8 instructions).
// examples/tile_kernels.py writes the same kernels in Python; the CPU tests
// run their kind lane by lane (test/Integration/GPU/matmul-fp8-on-cpu-*.test,
// matmul-fp8-out-on-cpu-*.test), bench/gemm-fp8 on the H100. sm_90 runs
// the FP8 mma.sync, sm_90a the FP8 warpgroup MMA on TMA boxes (the
// tuned configurations, 128x256 tiles with K steps of 128, are in
// bench/gemm-fp8/fp8.py):
//   layout-opt examples/matmul-fp8.mlir -layout-to-nvvm=chip=sm_90a \
//     -layout-dump-binaries=dir=out -o /dev/null

!a = !layout.partition_view<?x?xf8E4M3FN, tile = [128, 64]>
!cbf = !layout.partition_view<?x?xbf16, tile = [128, 128]>
!c8 = !layout.partition_view<?x?xf8E4M3FN, tile = [128, 128]>
!rows = !layout.partition_view<?x?xf32, tile = [128, 1]>
!cols = !layout.partition_view<?xf32, tile = [128]>

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @matmul_fp8 {
  // C = bf16(A B^T * sa * sb).
  gpu.func @gemm_fp8_scaled(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                            %C: memref<?x?xbf16>, %sa: f32, %sb: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pb = layout.partition %vb tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xbf16> -> !cbf
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf8E4M3FN>, vector<128x64xf8E4M3FN> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %bsa = vector.broadcast %sa : f32 to vector<128x128xf32>
    %x = arith.mulf %acc, %bsa : vector<128x128xf32>
    %bsb = vector.broadcast %sb : f32 to vector<128x128xf32>
    %y = arith.mulf %x, %bsb : vector<128x128xf32>
    %o = arith.truncf %y : vector<128x128xf32> to vector<128x128xbf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xbf16>, !cbf
    gpu.return
  }

  // C = bf16(A B^T * row[i] * col[j]): row an M x 1 tensor of A's row
  // scales, col the N scales of B's rows.
  gpu.func @gemm_fp8_rowwise(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                             %C: memref<?x?xbf16>, %Row: memref<?x?xf32>,
                             %Col: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vr = layout.view %Row : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vl = layout.view %Col : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pb = layout.partition %vb tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xbf16> -> !cbf
    %pr = layout.partition %vr tile [128, 1] : !layout.tensor_view<?x?xf32> -> !rows
    %pl = layout.partition %vl tile [128] : !layout.tensor_view<?xf32> -> !cols
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf8E4M3FN>, vector<128x64xf8E4M3FN> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %row = layout.load %pr[%bm, %c0] masked : !rows -> vector<128x1xf32>
    %rows = vector.broadcast %row : vector<128x1xf32> to vector<128x128xf32>
    %col = layout.load %pl[%bn] masked : !cols -> vector<128xf32>
    %cols = vector.broadcast %col : vector<128xf32> to vector<128x128xf32>
    %x = arith.mulf %acc, %rows : vector<128x128xf32>
    %y = arith.mulf %x, %cols : vector<128x128xf32>
    %o = arith.truncf %y : vector<128x128xf32> to vector<128x128xbf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xbf16>, !cbf
    gpu.return
  }

  // C = e4m3(clamp(A B^T * scale, -448, 448)): FP8 out, saturating.
  gpu.func @gemm_fp8_out(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                         %C: memref<?x?xf8E4M3FN>, %scale: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %pa = layout.partition %va tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pb = layout.partition %vb tile [128, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !a
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf8E4M3FN> -> !c8
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !a
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1
        iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !a -> vector<128x64xf8E4M3FN>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %ta, %tb, %s
         : vector<128x64xf8E4M3FN>, vector<128x64xf8E4M3FN> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    %bs = vector.broadcast %scale : f32 to vector<128x128xf32>
    %x = arith.mulf %acc, %bs : vector<128x128xf32>
    %lo = arith.constant dense<-448.0> : vector<128x128xf32>
    %hi = arith.constant dense<448.0> : vector<128x128xf32>
    %clamped_lo = arith.maximumf %x, %lo : vector<128x128xf32>
    %clamped = arith.minimumf %clamped_lo, %hi : vector<128x128xf32>
    %o = arith.truncf %clamped : vector<128x128xf32> to vector<128x128xf8E4M3FN>
    layout.store %o, %pc[%bm, %bn] masked : vector<128x128xf8E4M3FN>, !c8
    gpu.return
  }
}
}
