// The program and checks of matmul-fp8-on-cpu-*.test (one test per chip).
//
// The RUN lines set the two 8-bit float types with sed: the `!fp8` (E4M3)
// and `!bf8` (E5M2) aliases below, and the `%fnuz` flag of the reference's
// decoding (gfx942: f8E4M3FNUZ, f8E5M2FNUZ; gfx950 and sm_90: f8E4M3FN,
// f8E5M2).

/// FP8 GEMM tile programs (`vector.contract` of 8-bit float tiles into an
/// f32 accumulator; A M x K and B N x K, K-major as every FP8 instruction
/// reads them (nt); B K x N (nn); A K x M and B K x N (tn), the last two
/// transposed on their way into the workgroup buffers) distributed by
/// -layout-tile-shared-memory onto the chip's FP8 matrix instruction
/// (gfx942 / gfx950: v_mfma_f32_32x32x16_{fp8_fp8,bf8_bf8}; sm_90:
/// mma.sync m16n8k32 .e4m3 / .e5m2 called as its LLVM intrinsic; sm_90a:
/// wgmma m64n64k32 .e4m3 / .e5m2 from the swizzled buffers), run on
/// the CPU by -layout-test-gpu-to-loops, which emulates each instruction
/// lane by lane from the matrix-instruction table and decodes the 8-bit
/// floats with Float8.h. On the odd shape 67 x 45 x 100 (masked edges in
/// every dimension, K not a multiple of the K tile), and 67 x 45 x 128
/// (rows of 128 bytes: sm_90a's TMA boxes); C starts at -7 so a missing
/// store counts. nt_bf8 takes K tiles of 64 (several instruction K steps
/// per tile on every chip), the others 32.
///
/// Every element of C is compared with a reference computed on the host in
/// f64 from the inputs' bytes decoded by the bit formula written out below
/// (@decode: sign, exponent field, mantissa, the encoding's bias; nothing
/// from the code under test):
///
/// - "exact": every input byte has an exponent of [-2, 1] (|x| in
///   [2^-2, 2^2)), so every product is a multiple of 2^-10 below 2^4 and
///   every partial sum of K = 100 (or 128) of them is a multiple of 2^-10
///   below 2^11: exact in f32 in any order. C must equal the reference exactly.
/// - "all codes": the bytes run over all 256 codes (NaN and infinity codes
///   replaced by code ^ 0x40, a finite one), subnormals, zeros (and -0 in
///   the OCP encodings) and the largest finite values included, plus one
///   NaN code (FNUZ: 0x80; E4M3FN: 0x7F; E5M2: 0x7E) at A[1][3], which
///   makes row 1 of C NaN (45 elements). An element matches when both are
///   NaN or |C - reference| <= K * 2^-24 * sum_k |A[i][k] B[k][j]| (f32
///   accumulation of K products in any order stays within (K - 1) 2^-24 of
///   that sum).
/// - "scaled": @scaled_fp8 / @scaled_bf8 (the "exact" inputs) multiply the
///   accumulator by sa * sb, a scale per row of A and one per column of B
///   (torch._scaled_mm's per-tensor and row-wise scales) and store f16 /
///   bf16: compared bit for bit with the exact sum (an f32) put through
///   the same f32 multiplications in the same order and arith.truncf.

// CHECK: nt_fp8 67x45x100 exact: 0 mismatches of 3015, 0 NaN
// CHECK: nt_fp8 67x45x100 all codes: 0 mismatches of 3015, 45 NaN
// CHECK: nt_bf8 67x45x100 exact: 0 mismatches of 3015, 0 NaN
// CHECK: nt_bf8 67x45x100 all codes: 0 mismatches of 3015, 45 NaN
// CHECK: nn_fp8 67x45x100 exact: 0 mismatches of 3015, 0 NaN
// CHECK: nn_fp8 67x45x100 all codes: 0 mismatches of 3015, 45 NaN
// CHECK: tn_bf8 67x45x100 exact: 0 mismatches of 3015, 0 NaN
// CHECK: tn_bf8 67x45x100 all codes: 0 mismatches of 3015, 45 NaN
// CHECK: scaled_fp8 67x45x100 f16: 0 mismatches of 3015
// CHECK: scaled_bf8 67x45x100 bf16: 0 mismatches of 3015
// CHECK: nt_fp8 67x45x128 exact: 0 mismatches of 3015, 0 NaN
// CHECK: nt_bf8 67x45x128 all codes: 0 mismatches of 3015, 45 NaN
// CHECK: scaled_fp8 67x45x128 f16: 0 mismatches of 3015

!fp8 = f8E4M3FN
!bf8 = f8E5M2

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @nt_fp8(%A: memref<?x?x!fp8>, %B: memref<?x?x!fp8>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vb = layout.view %B : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!fp8, tile = [64, 32]> -> vector<64x32x!fp8>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!fp8, tile = [64, 32]> -> vector<64x32x!fp8>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32x!fp8>, vector<64x32x!fp8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
  gpu.func @nt_bf8(%A: memref<?x?x!bf8>, %B: memref<?x?x!bf8>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vb = layout.view %B : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 64] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 64]>
    %pb = layout.partition %vb tile [64, 64] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!bf8, tile = [64, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!bf8, tile = [64, 64]> -> vector<64x64x!bf8>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!bf8, tile = [64, 64]> -> vector<64x64x!bf8>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x64x!bf8>, vector<64x64x!bf8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
  // Operands that are not K-major (B K x N: nn; A K x M too: tn), which
  // every FP8 instruction needs: transposed on their way through the
  // workgroup buffers.
  gpu.func @nn_fp8(%A: memref<?x?x!fp8>, %B: memref<?x?x!fp8>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vb = layout.view %B : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pb : !layout.partition_view<?x?x!fp8, tile = [32, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!fp8, tile = [64, 32]> -> vector<64x32x!fp8>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?x!fp8, tile = [32, 64]> -> vector<32x64x!fp8>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32x!fp8>, vector<32x64x!fp8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
  gpu.func @tn_bf8(%A: memref<?x?x!bf8>, %B: memref<?x?x!bf8>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vb = layout.view %B : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 64] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [32, 64]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pb : !layout.partition_view<?x?x!bf8, tile = [32, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?x!bf8, tile = [32, 64]> -> vector<32x64x!bf8>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?x!bf8, tile = [32, 64]> -> vector<32x64x!bf8>
      %r = vector.contract {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x64x!bf8>, vector<32x64x!bf8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
  // The scaled epilogue (torch._scaled_mm's per-tensor and row-wise
  // scales): C = f16(acc * (sa * sb) * row[i] * col[j]), row[i] a scale
  // per row of A (an M x 1 tile), col[j] one per column of B (N).
  gpu.func @scaled_fp8(%A: memref<?x?x!fp8>, %B: memref<?x?x!fp8>, %C: memref<?x?xf16>, %sa: f32, %sb: f32,
                      %Row: memref<?x1xf32>, %Col: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vb = layout.view %B : memref<?x?x!fp8> -> !layout.tensor_view<?x?x!fp8>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vr = layout.view %Row : memref<?x1xf32> -> !layout.tensor_view<?x1xf32>
    %vl = layout.view %Col : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!fp8> -> !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 64]>
    %pr = layout.partition %vr tile [64, 1] : !layout.tensor_view<?x1xf32> -> !layout.partition_view<?x1xf32, tile = [64, 1]>
    %pl = layout.partition %vl tile [64] : !layout.tensor_view<?xf32> -> !layout.partition_view<?xf32, tile = [64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!fp8, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!fp8, tile = [64, 32]> -> vector<64x32x!fp8>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!fp8, tile = [64, 32]> -> vector<64x32x!fp8>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32x!fp8>, vector<64x32x!fp8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %row = layout.load %pr[%bm, %c0] masked : !layout.partition_view<?x1xf32, tile = [64, 1]> -> vector<64x1xf32>
    %col = layout.load %pl[%bn] masked : !layout.partition_view<?xf32, tile = [64]> -> vector<64xf32>
    %rows = vector.broadcast %row : vector<64x1xf32> to vector<64x64xf32>
    %cols = vector.broadcast %col : vector<64xf32> to vector<64x64xf32>
    %sab = arith.mulf %sa, %sb : f32
    %st = vector.broadcast %sab : f32 to vector<64x64xf32>
    %x = arith.mulf %acc, %st : vector<64x64xf32>
    %y = arith.mulf %x, %rows : vector<64x64xf32>
    %z = arith.mulf %y, %cols : vector<64x64xf32>
    %o = arith.truncf %z : vector<64x64xf32> to vector<64x64xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<64x64xf16>, !layout.partition_view<?x?xf16, tile = [64, 64]>
    gpu.return
  }
  // The scaled epilogue (torch._scaled_mm's per-tensor and row-wise
  // scales): C = bf16(acc * (sa * sb) * row[i] * col[j]), row[i] a scale
  // per row of A (an M x 1 tile), col[j] one per column of B (N).
  gpu.func @scaled_bf8(%A: memref<?x?x!bf8>, %B: memref<?x?x!bf8>, %C: memref<?x?xbf16>, %sa: f32, %sb: f32,
                      %Row: memref<?x1xf32>, %Col: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vb = layout.view %B : memref<?x?x!bf8> -> !layout.tensor_view<?x?x!bf8>
    %vc = layout.view %C : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vr = layout.view %Row : memref<?x1xf32> -> !layout.tensor_view<?x1xf32>
    %vl = layout.view %Col : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [64, 64]>
    %pr = layout.partition %vr tile [64, 1] : !layout.tensor_view<?x1xf32> -> !layout.partition_view<?x1xf32, tile = [64, 1]>
    %pl = layout.partition %vl tile [64] : !layout.tensor_view<?xf32> -> !layout.partition_view<?xf32, tile = [64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!bf8, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!bf8, tile = [64, 32]> -> vector<64x32x!bf8>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!bf8, tile = [64, 32]> -> vector<64x32x!bf8>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32x!bf8>, vector<64x32x!bf8> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %row = layout.load %pr[%bm, %c0] masked : !layout.partition_view<?x1xf32, tile = [64, 1]> -> vector<64x1xf32>
    %col = layout.load %pl[%bn] masked : !layout.partition_view<?xf32, tile = [64]> -> vector<64xf32>
    %rows = vector.broadcast %row : vector<64x1xf32> to vector<64x64xf32>
    %cols = vector.broadcast %col : vector<64xf32> to vector<64x64xf32>
    %sab = arith.mulf %sa, %sb : f32
    %st = vector.broadcast %sab : f32 to vector<64x64xf32>
    %x = arith.mulf %acc, %st : vector<64x64xf32>
    %y = arith.mulf %x, %rows : vector<64x64xf32>
    %z = arith.mulf %y, %cols : vector<64x64xf32>
    %o = arith.truncf %z : vector<64x64xf32> to vector<64x64xbf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<64x64xbf16>, !layout.partition_view<?x?xbf16, tile = [64, 64]>
    gpu.return
  }
}

/// The kernels as host functions (-layout-test-gpu-to-loops): the kernel's
/// arguments, then the grid.
func.func private @nt_fp8_host(memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf32>, index, index, index)
func.func private @nt_bf8_host(memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xf32>, index, index, index)
func.func private @nn_fp8_host(memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf32>, index, index, index)
func.func private @tn_bf8_host(memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xf32>, index, index, index)
func.func private @scaled_fp8_host(memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf16>, f32, f32, memref<?x1xf32>, memref<?xf32>, index, index, index)
func.func private @scaled_bf8_host(memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xbf16>, f32, f32, memref<?x1xf32>, memref<?xf32>, index, index, index)

/// Whether the types are the FNUZ encodings (set by the RUN line's sed).
func.func @fnuz() -> i1 {
  %fnuz = arith.constant false
  return %fnuz : i1
}

/// The format of E4M3 (%e5 false) or E5M2 (%e5 true): exponent bits,
/// mantissa bits, bias (OCP: 7, 15; FNUZ: 8, 16).
func.func @format(%e5: i1) -> (i64, i64, i64) {
  %fnuz = func.call @fnuz() : () -> i1
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c7 = arith.constant 7 : i64
  %c15 = arith.constant 15 : i64
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %ebits = arith.select %e5, %c5, %c4 : i64
  %mbits = arith.select %e5, %c2, %c3 : i64
  %ocp = arith.select %e5, %c15, %c7 : i64
  %extra = arith.select %fnuz, %c1, %c0 : i64
  %bias = arith.addi %ocp, %extra : i64
  return %ebits, %mbits, %bias : i64, i64, i64
}

/// 2^e as f64 (e in [-1022, 1023]): the exponent field of an f64 built on
/// the bits.
func.func @pow2(%e: i64) -> f64 {
  %c1023 = arith.constant 1023 : i64
  %c52 = arith.constant 52 : i64
  %x = arith.addi %e, %c1023 : i64
  %bits = arith.shli %x, %c52 : i64
  %r = arith.bitcast %bits : i64 to f64
  return %r : f64
}

/// Whether byte %b is a NaN or an infinity of the format: FNUZ: 0x80 only;
/// OCP E4M3: S.1111.111; OCP E5M2: S.11111.xx.
func.func @special(%b: i64, %e5: i1) -> i1 {
  %fnuz = func.call @fnuz() : () -> i1
  %ebits, %mbits, %bias = func.call @format(%e5) : (i1) -> (i64, i64, i64)
  %c1 = arith.constant 1 : i64
  %c0x7f = arith.constant 127 : i64
  %c0x80 = arith.constant 128 : i64
  %low = arith.andi %b, %c0x7f : i64
  %emask0 = arith.shli %c1, %ebits : i64
  %emask = arith.subi %emask0, %c1 : i64
  %e0 = arith.shrui %low, %mbits : i64
  %e = arith.andi %e0, %emask : i64
  %etop = arith.cmpi eq, %e, %emask : i64
  %all = arith.cmpi eq, %low, %c0x7f : i64
  // OCP E5M2: the top exponent; OCP E4M3: the top exponent and mantissa.
  %ocp = arith.select %e5, %etop, %all : i1
  %nz = arith.cmpi eq, %b, %c0x80 : i64
  %r = arith.select %fnuz, %nz, %ocp : i1
  return %r : i1
}

/// The value of byte %b (0 ... 255) in the format, in f64: (-1)^s * 2^(e -
/// bias) * (1 + f / 2^m) for an exponent field e > 0, (-1)^s * 2^(1 - bias)
/// * f / 2^m for e = 0; NaN for the NaN codes (FNUZ 0x80, OCP E4M3
/// S.1111.111, OCP E5M2 S.11111.{01,10,11}), +-infinity for E5M2's
/// S.11111.00.
func.func @decode(%b: i64, %e5: i1) -> f64 {
  %fnuz = func.call @fnuz() : () -> i1
  %ebits, %mbits, %bias = func.call @format(%e5) : (i1) -> (i64, i64, i64)
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c7 = arith.constant 7 : i64
  %c0x7f = arith.constant 127 : i64
  %s = arith.shrui %b, %c7 : i64
  %low = arith.andi %b, %c0x7f : i64
  %emask0 = arith.shli %c1, %ebits : i64
  %emask = arith.subi %emask0, %c1 : i64
  %mmask0 = arith.shli %c1, %mbits : i64
  %mmask = arith.subi %mmask0, %c1 : i64
  %e0 = arith.shrui %low, %mbits : i64
  %e = arith.andi %e0, %emask : i64
  %f = arith.andi %low, %mmask : i64
  %normal = arith.cmpi ne, %e, %c0 : i64
  // The significand as an integer and its scale: (2^m + f) * 2^(e - bias -
  // m), or f * 2^(1 - bias - m).
  %sig1 = arith.addi %mmask0, %f : i64
  %sig = arith.select %normal, %sig1, %f : i64
  %ee = arith.select %normal, %e, %c1 : i64
  %x0 = arith.subi %ee, %bias : i64
  %x = arith.subi %x0, %mbits : i64
  %scale = func.call @pow2(%x) : (i64) -> f64
  %sigi = arith.sitofp %sig : i64 to f64
  %mag = arith.mulf %sigi, %scale : f64
  %neg = arith.negf %mag : f64
  %isneg = arith.cmpi ne, %s, %c0 : i64
  %v = arith.select %isneg, %neg, %mag : f64
  %special = func.call @special(%b, %e5) : (i64, i1) -> i1
  %nan = arith.constant 0x7FF8000000000000 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %fzero = arith.cmpi eq, %f, %c0 : i64
  %ocp = arith.xori %fnuz, %e5 : i1
  %ocp5 = arith.andi %ocp, %e5 : i1
  %isinf = arith.andi %ocp5, %fzero : i1
  %sinf = arith.select %isneg, %ninf, %inf : f64
  %sv = arith.select %isinf, %sinf, %nan : f64
  %r = arith.select %special, %sv, %v : f64
  return %r : f64
}

/// The byte of an input from its hash %h: "exact" (%all false): sign, an
/// exponent of [-2, 1] and any mantissa; "all codes": %h mod 256, a NaN or
/// infinity code replaced by code ^ 0x40.
func.func @code(%h: index, %all: i1, %e5: i1) -> i64 {
  %ebits, %mbits, %bias = func.call @format(%e5) : (i1) -> (i64, i64, i64)
  %h64 = arith.index_cast %h : index to i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c4 = arith.constant 4 : i64
  %c7 = arith.constant 7 : i64
  %c64 = arith.constant 64 : i64
  %c256 = arith.constant 256 : i64
  %c0x40 = arith.constant 64 : i64
  %any = arith.remui %h64, %c256 : i64
  %special = func.call @special(%any, %e5) : (i64, i1) -> i1
  %fixed = arith.xori %any, %c0x40 : i64
  %allcode = arith.select %special, %fixed, %any : i64
  // exact: exponent field bias - 2 + h mod 4, mantissa (h / 4) mod 2^m,
  // sign (h / 64) mod 2.
  %eoff = arith.remui %h64, %c4 : i64
  %e0 = arith.subi %bias, %c2 : i64
  %e = arith.addi %e0, %eoff : i64
  %mm0 = arith.shli %c1, %mbits : i64
  %h4 = arith.divui %h64, %c4 : i64
  %f = arith.remui %h4, %mm0 : i64
  %h64s = arith.divui %h64, %c64 : i64
  %s = arith.remui %h64s, %c2 : i64
  %sb = arith.shli %s, %c7 : i64
  %eb = arith.shli %e, %mbits : i64
  %x0 = arith.ori %sb, %eb : i64
  %exact = arith.ori %x0, %f : i64
  %r = arith.select %all, %allcode, %exact : i64
  return %r : i64
}

/// The bytes of A[i][k] and B[k][j] (B stored N x K): hashes of the
/// coordinates, A[1][3] the format's NaN in the "all codes" mode.
func.func @a_code(%i: index, %k: index, %all: i1, %e5: i1) -> i64 {
  %c131 = arith.constant 131 : index
  %c31 = arith.constant 31 : index
  %c7 = arith.constant 7 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x0 = arith.muli %i, %c131 : index
  %x1 = arith.muli %k, %c31 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c7 : index
  %x2 = arith.addi %x0, %x1 : index
  %x = arith.addi %x2, %q : index
  %code = func.call @code(%x, %all, %e5) : (index, i1, i1) -> i64
  %fnuz = func.call @fnuz() : () -> i1
  %nfnuz = arith.constant 128 : i64
  %n4 = arith.constant 127 : i64
  %n5 = arith.constant 126 : i64
  %nocp = arith.select %e5, %n5, %n4 : i64
  %nan = arith.select %fnuz, %nfnuz, %nocp : i64
  %ri = arith.cmpi eq, %i, %c1 : index
  %rk = arith.cmpi eq, %k, %c3 : index
  %at0 = arith.andi %ri, %rk : i1
  %at = arith.andi %at0, %all : i1
  %r = arith.select %at, %nan, %code : i64
  return %r : i64
}
func.func @b_code(%k: index, %j: index, %all: i1, %e5: i1) -> i64 {
  %c29 = arith.constant 29 : index
  %c137 = arith.constant 137 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %x0 = arith.muli %k, %c29 : index
  %x1 = arith.muli %j, %c137 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c5 : index
  %x2 = arith.addi %x0, %x1 : index
  %x3 = arith.addi %x2, %q : index
  %x = arith.addi %x3, %c1 : index
  %code = func.call @code(%x, %all, %e5) : (index, i1, i1) -> i64
  return %code : i64
}

/// The reference of C[i][j] and its tolerance: sum_k A[i][k] B[k][j] in
/// f64 from the decoded bytes, and 0 ("exact") or K 2^-24 sum_k |A B|.
func.func @reference(%i: index, %j: index, %k: index, %all: i1, %e5: i1) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %sum:2 = scf.for %kk = %c0 to %k step %c1 iter_args(%t = %z, %u = %z) -> (f64, f64) {
    %ac = func.call @a_code(%i, %kk, %all, %e5) : (index, index, i1, i1) -> i64
    %bc = func.call @b_code(%kk, %j, %all, %e5) : (index, index, i1, i1) -> i64
    %x = func.call @decode(%ac, %e5) : (i64, i1) -> f64
    %y = func.call @decode(%bc, %e5) : (i64, i1) -> f64
    %p = arith.mulf %x, %y : f64
    %t2 = arith.addf %t, %p : f64
    %np = arith.negf %p : f64
    %ap = arith.maximumf %p, %np : f64
    %u2 = arith.addf %u, %ap : f64
    scf.yield %t2, %u2 : f64, f64
  }
  %k64 = arith.index_cast %k : index to i64
  %kf = arith.sitofp %k64 : i64 to f64
  %ulp = arith.constant 5.9604644775390625e-08 : f64
  %kt = arith.mulf %kf, %ulp : f64
  %tol0 = arith.mulf %kt, %sum#1 : f64
  %tol = arith.select %all, %tol0, %z : f64
  return %sum#0, %tol : f64, f64
}

/// Fills A (M x K, or K x M with %akm) and B (N x K, or K x N with %bkn)
/// with the bytes as 8-bit floats of type !fp8 (fill_fp8) or !bf8.
func.func @fill_fp8(%a: memref<?x?x!fp8>, %b: memref<?x?x!fp8>, %m: index, %n: index, %k: index, %all: i1, %akm: i1, %bkn: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e5 = arith.constant false
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %x = func.call @a_code(%i, %kk, %all, %e5) : (index, index, i1, i1) -> i64
      %x8 = arith.trunci %x : i64 to i8
      %v = arith.bitcast %x8 : i8 to !fp8
      scf.if %akm {
        memref.store %v, %a[%kk, %i] : memref<?x?x!fp8>
      } else {
        memref.store %v, %a[%i, %kk] : memref<?x?x!fp8>
      }
    }
  }
  scf.for %j = %c0 to %n step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %x = func.call @b_code(%kk, %j, %all, %e5) : (index, index, i1, i1) -> i64
      %x8 = arith.trunci %x : i64 to i8
      %v = arith.bitcast %x8 : i8 to !fp8
      scf.if %bkn {
        memref.store %v, %b[%kk, %j] : memref<?x?x!fp8>
      } else {
        memref.store %v, %b[%j, %kk] : memref<?x?x!fp8>
      }
    }
  }
  return
}
func.func @fill_bf8(%a: memref<?x?x!bf8>, %b: memref<?x?x!bf8>, %m: index, %n: index, %k: index, %all: i1, %akm: i1, %bkn: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e5 = arith.constant true
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %x = func.call @a_code(%i, %kk, %all, %e5) : (index, index, i1, i1) -> i64
      %x8 = arith.trunci %x : i64 to i8
      %v = arith.bitcast %x8 : i8 to !bf8
      scf.if %akm {
        memref.store %v, %a[%kk, %i] : memref<?x?x!bf8>
      } else {
        memref.store %v, %a[%i, %kk] : memref<?x?x!bf8>
      }
    }
  }
  scf.for %j = %c0 to %n step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %x = func.call @b_code(%kk, %j, %all, %e5) : (index, index, i1, i1) -> i64
      %x8 = arith.trunci %x : i64 to i8
      %v = arith.bitcast %x8 : i8 to !bf8
      scf.if %bkn {
        memref.store %v, %b[%kk, %j] : memref<?x?x!bf8>
      } else {
        memref.store %v, %b[%j, %kk] : memref<?x?x!bf8>
      }
    }
  }
  return
}

/// C filled with -7.
func.func @clear(%c: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

/// Counts the elements of C that miss the reference, and the NaN ones, and
/// prints them after the name the caller printed.
func.func @report(%c: memref<?x?xf32>, %m: index, %n: index, %k: index, %all: i1, %e5: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bad:2 = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0, %n0 = %c0) -> (index, index) {
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0, %n1 = %n0) -> (index, index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf32>
      %x = arith.extf %x0 : f32 to f64
      %y, %tol = func.call @reference(%i, %j, %k, %all, %e5) : (index, index, index, i1, i1) -> (f64, f64)
      %d = arith.subf %x, %y : f64
      %nd = arith.negf %d : f64
      %ad = arith.maximumf %d, %nd : f64
      %close = arith.cmpf ole, %ad, %tol : f64
      %xnan = arith.cmpf uno, %x, %x : f64
      %ynan = arith.cmpf uno, %y, %y : f64
      %bothnan = arith.andi %xnan, %ynan : i1
      %ok = arith.ori %close, %bothnan : i1
      %miss = arith.select %ok, %c0, %c1 : index
      %isnan = arith.select %xnan, %c1, %c0 : index
      %b2 = arith.addi %b1, %miss : index
      %n2 = arith.addi %n1, %isnan : index
      scf.yield %b2, %n2 : index, index
    }
    scf.yield %r#0, %r#1 : index, index
  }
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  scf.if %all {
    vector.print str " all codes: "
  } else {
    vector.print str " exact: "
  }
  vector.print %bad#0 : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index punctuation <no_punctuation>
  vector.print str ", "
  vector.print %bad#1 : index punctuation <no_punctuation>
  vector.print str " NaN\n"
  return
}

func.func @run_fp8(%m: index, %n: index, %k: index, %all: i1, %kn: i1) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %e5 = arith.constant false
  %akm0 = arith.constant false
  %knakm = arith.andi %akm0, %kn : i1
  %a = scf.if %knakm -> memref<?x?x!fp8> {
    %x = memref.alloc(%k, %m) : memref<?x?x!fp8>
    scf.yield %x : memref<?x?x!fp8>
  } else {
    %x = memref.alloc(%m, %k) : memref<?x?x!fp8>
    scf.yield %x : memref<?x?x!fp8>
  }
  %b = scf.if %kn -> memref<?x?x!fp8> {
    %x = memref.alloc(%k, %n) : memref<?x?x!fp8>
    scf.yield %x : memref<?x?x!fp8>
  } else {
    %x = memref.alloc(%n, %k) : memref<?x?x!fp8>
    scf.yield %x : memref<?x?x!fp8>
  }
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_fp8(%a, %b, %m, %n, %k, %all, %knakm, %kn) : (memref<?x?x!fp8>, memref<?x?x!fp8>, index, index, index, i1, i1, i1) -> ()
  call @clear(%c, %m, %n) : (memref<?x?xf32>, index, index) -> ()
  %gx = arith.ceildivui %n, %c64 : index
  %gy = arith.ceildivui %m, %c64 : index
  scf.if %kn {
    func.call @nn_fp8_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf32>, index, index, index) -> ()
    vector.print str "nn_fp8"
  } else {
    func.call @nt_fp8_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf32>, index, index, index) -> ()
    vector.print str "nt_fp8"
  }
  call @report(%c, %m, %n, %k, %all, %e5) : (memref<?x?xf32>, index, index, index, i1, i1) -> ()
  memref.dealloc %a : memref<?x?x!fp8>
  memref.dealloc %b : memref<?x?x!fp8>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_bf8(%m: index, %n: index, %k: index, %all: i1, %kn: i1) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %e5 = arith.constant true
  %akm0 = arith.constant true
  %knakm = arith.andi %akm0, %kn : i1
  %a = scf.if %knakm -> memref<?x?x!bf8> {
    %x = memref.alloc(%k, %m) : memref<?x?x!bf8>
    scf.yield %x : memref<?x?x!bf8>
  } else {
    %x = memref.alloc(%m, %k) : memref<?x?x!bf8>
    scf.yield %x : memref<?x?x!bf8>
  }
  %b = scf.if %kn -> memref<?x?x!bf8> {
    %x = memref.alloc(%k, %n) : memref<?x?x!bf8>
    scf.yield %x : memref<?x?x!bf8>
  } else {
    %x = memref.alloc(%n, %k) : memref<?x?x!bf8>
    scf.yield %x : memref<?x?x!bf8>
  }
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_bf8(%a, %b, %m, %n, %k, %all, %knakm, %kn) : (memref<?x?x!bf8>, memref<?x?x!bf8>, index, index, index, i1, i1, i1) -> ()
  call @clear(%c, %m, %n) : (memref<?x?xf32>, index, index) -> ()
  %gx = arith.ceildivui %n, %c64 : index
  %gy = arith.ceildivui %m, %c64 : index
  scf.if %kn {
    func.call @tn_bf8_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xf32>, index, index, index) -> ()
    vector.print str "tn_bf8"
  } else {
    func.call @nt_bf8_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xf32>, index, index, index) -> ()
    vector.print str "nt_bf8"
  }
  call @report(%c, %m, %n, %k, %all, %e5) : (memref<?x?xf32>, index, index, index, i1, i1) -> ()
  memref.dealloc %a : memref<?x?x!bf8>
  memref.dealloc %b : memref<?x?x!bf8>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// The scales of the scaled kernels: sa = 0.375, sb = 1.3 (rounded to
/// f32), row[i] = 0.5 + (i mod 11) / 16, col[j] = 2 - (j mod 13) / 32.
func.func @row_scale(%i: index) -> f32 {
  %c11 = arith.constant 11 : index
  %r = arith.remui %i, %c11 : index
  %r64 = arith.index_cast %r : index to i64
  %rf = arith.sitofp %r64 : i64 to f32
  %s16 = arith.constant 0.0625 : f32
  %half = arith.constant 0.5 : f32
  %x = arith.mulf %rf, %s16 : f32
  %v = arith.addf %half, %x : f32
  return %v : f32
}
func.func @col_scale(%j: index) -> f32 {
  %c13 = arith.constant 13 : index
  %r = arith.remui %j, %c13 : index
  %r64 = arith.index_cast %r : index to i64
  %rf = arith.sitofp %r64 : i64 to f32
  %s32 = arith.constant 0.03125 : f32
  %two = arith.constant 2.0 : f32
  %x = arith.mulf %rf, %s32 : f32
  %v = arith.subf %two, %x : f32
  return %v : f32
}

/// The scaled reference of C[i][j] in f32, from the "exact" inputs (whose
/// f64 sum is the f32 accumulator, exactly): the epilogue's multiplications
/// in the kernel's order, acc * (sa * sb) * row[i] * col[j], each rounded
/// to f32 as the kernel's are.
func.func @scaled_reference(%i: index, %j: index, %k: index, %sa: f32, %sb: f32, %e5: i1) -> f32 {
  %exact = arith.constant false
  %sum, %tol = func.call @reference(%i, %j, %k, %exact, %e5) : (index, index, index, i1, i1) -> (f64, f64)
  %acc = arith.truncf %sum : f64 to f32
  %sab = arith.mulf %sa, %sb : f32
  %r = func.call @row_scale(%i) : (index) -> f32
  %c = func.call @col_scale(%j) : (index) -> f32
  %x = arith.mulf %acc, %sab : f32
  %y = arith.mulf %x, %r : f32
  %z = arith.mulf %y, %c : f32
  return %z : f32
}

/// Prints the elements of the scaled C that differ from the reference
/// rounded to the output type (compared bit for bit), after the name.
func.func @report_scaled_f16(%c: memref<?x?xf16>, %m: index, %n: index, %k: index, %sa: f32, %sb: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e5 = arith.constant false
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x = memref.load %c[%i, %j] : memref<?x?xf16>
      %y0 = func.call @scaled_reference(%i, %j, %k, %sa, %sb, %e5) : (index, index, index, f32, f32, i1) -> f32
      %y = arith.truncf %y0 : f32 to f16
      %xb = arith.bitcast %x : f16 to i16
      %yb = arith.bitcast %y : f16 to i16
      %same = arith.cmpi eq, %xb, %yb : i16
      %miss = arith.select %same, %c0, %c1 : index
      %b2 = arith.addi %b1, %miss : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  vector.print str " f16: "
  vector.print %bad : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index
  return
}
func.func @report_scaled_bf16(%c: memref<?x?xbf16>, %m: index, %n: index, %k: index, %sa: f32, %sb: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e5 = arith.constant true
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x = memref.load %c[%i, %j] : memref<?x?xbf16>
      %y0 = func.call @scaled_reference(%i, %j, %k, %sa, %sb, %e5) : (index, index, index, f32, f32, i1) -> f32
      %y = arith.truncf %y0 : f32 to bf16
      %xb = arith.bitcast %x : bf16 to i16
      %yb = arith.bitcast %y : bf16 to i16
      %same = arith.cmpi eq, %xb, %yb : i16
      %miss = arith.select %same, %c0, %c1 : index
      %b2 = arith.addi %b1, %miss : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  vector.print str " bf16: "
  vector.print %bad : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index
  return
}

/// The scales as memrefs: row (M x 1) and col (N).
func.func @scales(%m: index, %n: index) -> (memref<?x1xf32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = memref.alloc(%m) : memref<?x1xf32>
  %col = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %m step %c1 {
    %v = func.call @row_scale(%i) : (index) -> f32
    memref.store %v, %row[%i, %c0] : memref<?x1xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %v = func.call @col_scale(%j) : (index) -> f32
    memref.store %v, %col[%j] : memref<?xf32>
  }
  return %row, %col : memref<?x1xf32>, memref<?xf32>
}

func.func @run_scaled_fp8(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %exact = arith.constant false
  %false = arith.constant false
  %sa = arith.constant 0.375 : f32
  %sb = arith.constant 1.3 : f32
  %a = memref.alloc(%m, %k) : memref<?x?x!fp8>
  %b = memref.alloc(%n, %k) : memref<?x?x!fp8>
  %c = memref.alloc(%m, %n) : memref<?x?xf16>
  call @fill_fp8(%a, %b, %m, %n, %k, %exact, %false, %false) : (memref<?x?x!fp8>, memref<?x?x!fp8>, index, index, index, i1, i1, i1) -> ()
  %row, %col = call @scales(%m, %n) : (index, index) -> (memref<?x1xf32>, memref<?xf32>)
  %init = arith.constant -7.0 : f16
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf16>
    }
  }
  %gx = arith.ceildivui %n, %c64 : index
  %gy = arith.ceildivui %m, %c64 : index
  call @scaled_fp8_host(%a, %b, %c, %sa, %sb, %row, %col, %gx, %gy, %c1) : (memref<?x?x!fp8>, memref<?x?x!fp8>, memref<?x?xf16>, f32, f32, memref<?x1xf32>, memref<?xf32>, index, index, index) -> ()
  vector.print str "scaled_fp8"
  call @report_scaled_f16(%c, %m, %n, %k, %sa, %sb) : (memref<?x?xf16>, index, index, index, f32, f32) -> ()
  memref.dealloc %a : memref<?x?x!fp8>
  memref.dealloc %b : memref<?x?x!fp8>
  memref.dealloc %c : memref<?x?xf16>
  memref.dealloc %row : memref<?x1xf32>
  memref.dealloc %col : memref<?xf32>
  return
}

func.func @run_scaled_bf8(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %exact = arith.constant false
  %false = arith.constant false
  %sa = arith.constant 0.375 : f32
  %sb = arith.constant 1.3 : f32
  %a = memref.alloc(%m, %k) : memref<?x?x!bf8>
  %b = memref.alloc(%n, %k) : memref<?x?x!bf8>
  %c = memref.alloc(%m, %n) : memref<?x?xbf16>
  call @fill_bf8(%a, %b, %m, %n, %k, %exact, %false, %false) : (memref<?x?x!bf8>, memref<?x?x!bf8>, index, index, index, i1, i1, i1) -> ()
  %row, %col = call @scales(%m, %n) : (index, index) -> (memref<?x1xf32>, memref<?xf32>)
  %init = arith.constant -7.0 : bf16
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xbf16>
    }
  }
  %gx = arith.ceildivui %n, %c64 : index
  %gy = arith.ceildivui %m, %c64 : index
  call @scaled_bf8_host(%a, %b, %c, %sa, %sb, %row, %col, %gx, %gy, %c1) : (memref<?x?x!bf8>, memref<?x?x!bf8>, memref<?x?xbf16>, f32, f32, memref<?x1xf32>, memref<?xf32>, index, index, index) -> ()
  vector.print str "scaled_bf8"
  call @report_scaled_bf16(%c, %m, %n, %k, %sa, %sb) : (memref<?x?xbf16>, index, index, index, f32, f32) -> ()
  memref.dealloc %a : memref<?x?x!bf8>
  memref.dealloc %b : memref<?x?x!bf8>
  memref.dealloc %c : memref<?x?xbf16>
  memref.dealloc %row : memref<?x1xf32>
  memref.dealloc %col : memref<?xf32>
  return
}

func.func @main() {
  %m = arith.constant 67 : index
  %n = arith.constant 45 : index
  %k = arith.constant 100 : index
  %exact = arith.constant false
  %all = arith.constant true
  %kmajor = arith.constant false
  %kn = arith.constant true
  call @run_fp8(%m, %n, %k, %exact, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_fp8(%m, %n, %k, %all, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_bf8(%m, %n, %k, %exact, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_bf8(%m, %n, %k, %all, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_fp8(%m, %n, %k, %exact, %kn) : (index, index, index, i1, i1) -> ()
  call @run_fp8(%m, %n, %k, %all, %kn) : (index, index, index, i1, i1) -> ()
  call @run_bf8(%m, %n, %k, %exact, %kn) : (index, index, index, i1, i1) -> ()
  call @run_bf8(%m, %n, %k, %all, %kn) : (index, index, index, i1, i1) -> ()
  call @run_scaled_fp8(%m, %n, %k) : (index, index, index) -> ()
  call @run_scaled_bf8(%m, %n, %k) : (index, index, index) -> ()
  // K = 128: A's and B's rows are 128 bytes, so on sm_90a the K-major
  // tiles arrive as TMA boxes (the kernels test the alignment at run time).
  %k128 = arith.constant 128 : index
  call @run_fp8(%m, %n, %k128, %exact, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_bf8(%m, %n, %k128, %all, %kmajor) : (index, index, index, i1, i1) -> ()
  call @run_scaled_fp8(%m, %n, %k128) : (index, index, index) -> ()
  return
}
}
