// The GEMM tile programs of matmul-on-cpu.mlir with 64-row block tiles and
// 128 threads (one warpgroup), so that on sm_90a they are distributed onto
// warpgroup MMA (wgmma m64n32k16: A and B read from their staging buffers
// in the hardware's swizzle modes, 32B, 64B and 128B here). Generated from
// matmul-on-cpu.mlir (its M extents doubled); the host code, fill values,
// reference and checks are that file's. Every element of C is compared with
// the reference matmul.
// CHECK: nn_f16 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16 136x72x88: 0 mismatches of 9792
// CHECK: tn_f16 67x45x33: 0 mismatches of 3015
// CHECK: tn_f16 130x70x200: 0 mismatches of 9100
// CHECK: tn_f16 136x72x88: 0 mismatches of 9792
// CHECK: nt_f16 67x45x33: 0 mismatches of 3015
// CHECK: nt_f16 130x70x200: 0 mismatches of 9100
// CHECK: nt_f16 136x72x88: 0 mismatches of 9792
// CHECK: tt_f16 67x45x33: 0 mismatches of 3015
// CHECK: tt_f16 130x70x200: 0 mismatches of 9100
// CHECK: tt_f16 136x72x88: 0 mismatches of 9792
// CHECK: nn_bf16 67x45x33: 0 mismatches of 3015
// CHECK: nn_bf16 130x70x200: 0 mismatches of 9100
// CHECK: nn_bf16 136x72x88: 0 mismatches of 9792
// CHECK: tt_bf16 67x45x33: 0 mismatches of 3015
// CHECK: tt_bf16 130x70x200: 0 mismatches of 9100
// CHECK: tt_bf16 136x72x88: 0 mismatches of 9792
// CHECK: nn_f16_relu 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_relu 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_relu 136x72x88: 0 mismatches of 9792
// CHECK: nn_f16_k32 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_k32 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_k32 136x72x88: 0 mismatches of 9792

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @nn_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 16]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 16]> -> vector<64x16xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x16xf16>, vector<16x32xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @tn_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [16, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 64]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [16, 64]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?xf16, tile = [16, 64]> -> vector<16x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<16x64xf16>, vector<16x32xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @nt_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 16]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 16]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 16]> -> vector<64x16xf16>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x16xf16>, vector<32x16xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @tt_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [16, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 64]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [16, 64]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?xf16, tile = [16, 64]> -> vector<16x64xf16>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %r = vector.contract {indexing_maps = [#km, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<16x64xf16>, vector<32x16xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @nn_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vb = layout.view %B : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 16] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [64, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xbf16, tile = [64, 16]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xbf16, tile = [64, 16]> -> vector<64x16xbf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xbf16, tile = [16, 32]> -> vector<16x32xbf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x16xbf16>, vector<16x32xbf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @tt_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vb = layout.view %B : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [16, 64] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [16, 64]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [32, 16]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xbf16, tile = [16, 64]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?xbf16, tile = [16, 64]> -> vector<16x64xbf16>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xbf16, tile = [32, 16]> -> vector<32x16xbf16>
      %r = vector.contract {indexing_maps = [#km, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<16x64xbf16>, vector<32x16xbf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
  gpu.func @nn_f16_relu(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [64, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 16]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 16]> -> vector<64x16xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x16xf16>, vector<16x32xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    %al = vector.broadcast %alpha : f32 to vector<64x32xf32>
    %scaled = arith.mulf %acc, %al : vector<64x32xf32>
    %zeros = arith.constant dense<0.0> : vector<64x32xf32>
    %relu = arith.maximumf %scaled, %zeros : vector<64x32xf32>
    %o = arith.truncf %relu : vector<64x32xf32> to vector<64x32xf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<64x32xf16>, !layout.partition_view<?x?xf16, tile = [64, 32]>
    gpu.return
  }
  gpu.func @nn_f16_k32(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 32]>
    %pc = layout.partition %vc tile [64, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 32]> -> vector<32x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x32xf16> into vector<64x32xf32>
      scf.yield %r : vector<64x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x32xf32>, !layout.partition_view<?x?xf32, tile = [64, 32]>
    gpu.return
  }
}

func.func private @nn_f16_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @tn_f16_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @nt_f16_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @tt_f16_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @nn_bf16_host(memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @tt_bf16_host(memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>, f32, index, index, index)
func.func private @nn_f16_relu_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, f32, index, index, index)
func.func private @nn_f16_k32_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index)

/// A[i][k] = (131 i + 31 k + floor(k^2 / 7)) mod 9 - 4 and
/// B[k][j] = (29 k + 137 j + floor(k^2 / 5) + 1) mod 9 - 4: small integers,
/// exact in f16, bf16 and f32 (and every sum of products in f32). The k^2
/// terms keep K tiles apart (their periods in k, 63 and 45, share no
/// multiple with a tile's 16 or 32 below K = 720), so a K loop that
/// multiplied one tile twice and another never would be caught.
func.func @a_value(%i: index, %k: index) -> f32 {
  %c131 = arith.constant 131 : index
  %c31 = arith.constant 31 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c4 = arith.constant 4 : index
  %x = arith.muli %i, %c131 : index
  %y = arith.muli %k, %c31 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c7 : index
  %s0 = arith.addi %x, %y : index
  %s = arith.addi %s0, %q : index
  %r = arith.remui %s, %c9 : index
  %n = arith.index_cast %r : index to i64
  %n4 = arith.constant 4 : i64
  %v = arith.subi %n, %n4 : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
func.func @b_value(%k: index, %j: index) -> f32 {
  %c29 = arith.constant 29 : index
  %c137 = arith.constant 137 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %x = arith.muli %k, %c29 : index
  %y = arith.muli %j, %c137 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c5 : index
  %s0 = arith.addi %x, %y : index
  %s1 = arith.addi %s0, %q : index
  %s = arith.addi %s1, %c1 : index
  %r = arith.remui %s, %c9 : index
  %n = arith.index_cast %r : index to i64
  %n4 = arith.constant 4 : i64
  %v = arith.subi %n, %n4 : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}

/// Fills A (M x K, or K x M when %at) and B (K x N, or N x K when %bt).
func.func @fill_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %n: index, %k: index, %at: i1, %bt: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %v = func.call @a_value(%i, %kk) : (index, index) -> f32
      %h = arith.truncf %v : f32 to f16
      scf.if %at {
        memref.store %h, %a[%kk, %i] : memref<?x?xf16>
      } else {
        memref.store %h, %a[%i, %kk] : memref<?x?xf16>
      }
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = func.call @b_value(%kk, %j) : (index, index) -> f32
      %h = arith.truncf %v : f32 to f16
      scf.if %bt {
        memref.store %h, %b[%j, %kk] : memref<?x?xf16>
      } else {
        memref.store %h, %b[%kk, %j] : memref<?x?xf16>
      }
    }
  }
  return
}

/// Fills A (M x K, or K x M when %at) and B (K x N, or N x K when %bt).
func.func @fill_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %m: index, %n: index, %k: index, %at: i1, %bt: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %v = func.call @a_value(%i, %kk) : (index, index) -> f32
      %h = arith.truncf %v : f32 to bf16
      scf.if %at {
        memref.store %h, %a[%kk, %i] : memref<?x?xbf16>
      } else {
        memref.store %h, %a[%i, %kk] : memref<?x?xbf16>
      }
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = func.call @b_value(%kk, %j) : (index, index) -> f32
      %h = arith.truncf %v : f32 to bf16
      scf.if %bt {
        memref.store %h, %b[%j, %kk] : memref<?x?xbf16>
      } else {
        memref.store %h, %b[%kk, %j] : memref<?x?xbf16>
      }
    }
  }
  return
}

/// The reference C[i][j] = sum_k A[i][k] * B[k][j] in f32, with the
/// epilogue f16(relu(2 x)) when %epi (returned as f32).
func.func @reference(%i: index, %j: index, %k: index, %epi: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %z) -> (f32) {
    %x = func.call @a_value(%i, %kk) : (index, index) -> f32
    %y = func.call @b_value(%kk, %j) : (index, index) -> f32
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    scf.yield %s : f32
  }
  %r = scf.if %epi -> (f32) {
    %two = arith.constant 2.0 : f32
    %d = arith.mulf %sum, %two : f32
    %m = arith.maximumf %d, %z : f32
    %h = arith.truncf %m : f32 to f16
    %e = arith.extf %h : f16 to f32
    scf.yield %e : f32
  } else {
    scf.yield %sum : f32
  }
  return %r : f32
}

func.func @report(%mismatches: index, %m: index, %n: index, %k: index) {
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  vector.print str ": "
  vector.print %mismatches : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index
  return
}

/// Counts the elements of C that differ from the reference.
func.func @check_f32(%c: memref<?x?xf32>, %m: index, %n: index, %k: index, %epi: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf32>
      %x = arith.addf %x0, %zero : f32
      %y = func.call @reference(%i, %j, %k, %epi) : (index, index, index, i1) -> f32
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b2 = arith.addi %b1, %one : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  return %bad : index
}

/// Counts the elements of C that differ from the reference.
func.func @check_f16(%c: memref<?x?xf16>, %m: index, %n: index, %k: index, %epi: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf16>
      %x = arith.extf %x0 : f16 to f32
      %y = func.call @reference(%i, %j, %k, %epi) : (index, index, index, i1) -> f32
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b2 = arith.addi %b1, %one : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  return %bad : index
}

func.func @run_nn_f16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant false
  %bt = arith.constant false
  %epi = arith.constant false
  %a = memref.alloc(%m, %k) : memref<?x?xf16>
  %b = memref.alloc(%k, %n) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @nn_f16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_f16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_tn_f16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant true
  %bt = arith.constant false
  %epi = arith.constant false
  %a = memref.alloc(%k, %m) : memref<?x?xf16>
  %b = memref.alloc(%k, %n) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @tn_f16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "tn_f16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_nt_f16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant false
  %bt = arith.constant true
  %epi = arith.constant false
  %a = memref.alloc(%m, %k) : memref<?x?xf16>
  %b = memref.alloc(%n, %k) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @nt_f16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nt_f16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_tt_f16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant true
  %bt = arith.constant true
  %epi = arith.constant false
  %a = memref.alloc(%k, %m) : memref<?x?xf16>
  %b = memref.alloc(%n, %k) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @tt_f16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "tt_f16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_nn_bf16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant false
  %bt = arith.constant false
  %epi = arith.constant false
  %a = memref.alloc(%m, %k) : memref<?x?xbf16>
  %b = memref.alloc(%k, %n) : memref<?x?xbf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_bf16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xbf16>, memref<?x?xbf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @nn_bf16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_bf16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xbf16>
  memref.dealloc %b : memref<?x?xbf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_tt_bf16(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant true
  %bt = arith.constant true
  %epi = arith.constant false
  %a = memref.alloc(%k, %m) : memref<?x?xbf16>
  %b = memref.alloc(%n, %k) : memref<?x?xbf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_bf16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xbf16>, memref<?x?xbf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @tt_bf16_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "tt_bf16"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xbf16>
  memref.dealloc %b : memref<?x?xbf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_nn_f16_relu(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant false
  %bt = arith.constant false
  %epi = arith.constant true
  %a = memref.alloc(%m, %k) : memref<?x?xf16>
  %b = memref.alloc(%k, %n) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf16>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f16
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf16>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @nn_f16_relu_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, f32, index, index, index) -> ()
  %bad = call @check_f16(%c, %m, %n, %k, %epi) : (memref<?x?xf16>, index, index, index, i1) -> index
  vector.print str "nn_f16_relu"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf16>
  return
}

func.func @run_nn_f16_k32(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant false
  %bt = arith.constant false
  %epi = arith.constant false
  %a = memref.alloc(%m, %k) : memref<?x?xf16>
  %b = memref.alloc(%k, %n) : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c64 : index
  %alpha = arith.constant 2.0 : f32
  call @nn_f16_k32_host(%a, %b, %c, %alpha, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_f16_k32"
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf16>
  memref.dealloc %b : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// The bias row and column: row[j] = (j mod 7) - 3, col[i] = (i mod 5) - 2.
func.func @bias_row(%j: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %r = arith.remui %j, %c7 : index
  %v = arith.subi %r, %c3 : index
  %i = arith.index_cast %v : index to i64
  %f = arith.sitofp %i : i64 to f32
  return %f : f32
}

func.func @bias_col(%i: index) -> f32 {
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %r = arith.remui %i, %c5 : index
  %v = arith.subi %r, %c2 : index
  %x = arith.index_cast %v : index to i64
  %f = arith.sitofp %x : i64 to f32
  return %f : f32
}

/// Counts the elements of C that differ from f16(relu(2 * A * B + row[j] +
/// col[i])), the sum from the reference.
func.func @check_bias(%c: memref<?x?xf16>, %m: index, %n: index, %k: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %no = arith.constant false
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf16>
      %x = arith.extf %x0 : f16 to f32
      %sum = func.call @reference(%i, %j, %k, %no) : (index, index, index, i1) -> f32
      %br = func.call @bias_row(%j) : (index) -> f32
      %bc = func.call @bias_col(%i) : (index) -> f32
      %d = arith.mulf %sum, %two : f32
      %e = arith.addf %d, %br : f32
      %g = arith.addf %e, %bc : f32
      %h = arith.maximumf %g, %zero : f32
      %t = arith.truncf %h : f32 to f16
      %y = arith.extf %t : f16 to f32
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b2 = arith.addi %b1, %one : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  return %bad : index
}


func.func @main() {
  %c33 = arith.constant 33 : index
  %c45 = arith.constant 45 : index
  %c67 = arith.constant 67 : index
  %c70 = arith.constant 70 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  // Every row a multiple of 16 bytes in every majorness: the TMA path,
  // with partial tiles along M, N and K.
  %c136 = arith.constant 136 : index
  %c72 = arith.constant 72 : index
  %c88 = arith.constant 88 : index
  call @run_nn_f16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_nn_f16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_nn_f16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_tn_f16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_tn_f16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_tn_f16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_nt_f16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_nt_f16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_nt_f16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_tt_f16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_tt_f16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_tt_f16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_nn_bf16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_nn_bf16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_nn_bf16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_tt_bf16(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_tt_bf16(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_tt_bf16(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_nn_f16_relu(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_nn_f16_relu(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_nn_f16_relu(%c136, %c72, %c88) : (index, index, index) -> ()
  call @run_nn_f16_k32(%c67, %c45, %c33) : (index, index, index) -> ()
  call @run_nn_f16_k32(%c130, %c70, %c200) : (index, index, index) -> ()
  call @run_nn_f16_k32(%c136, %c72, %c88) : (index, index, index) -> ()
  return
}
}
