// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory=chip=sm_90 -verify-diagnostics

/// layout.pipeline_stages on sm_90: out of range, asked of an operand that
/// cannot be copied asynchronously (A stored K x M is transposed into its
/// K-fastest buffer through registers), more stages than the 227 KiB a
/// block may opt in to hold.

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @zero_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pb : !layout.partition_view<?x?xf16, tile = [32, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#0 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{layout.pipeline_stages takes an integer from 1 (register prefetch) to 8, got 0 : i64}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 0 : i64} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @float_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pb : !layout.partition_view<?x?xf16, tile = [32, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#0 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{layout.pipeline_stages takes an integer from 1 (register prefetch) to 8, got 2.000000e+00 : f32}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 2.0 : f32} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @transposed_a(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pb : !layout.partition_view<?x?xf16, tile = [32, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#0 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{in a tile program: layout.pipeline_stages = 3 needs asynchronous copies, but A is not copied as 4-, 8- or 16-byte vectors straight into its buffer (its rows run across the buffer's, or its view does not allow such vectors) (1 stage: register prefetch)}}
      %r = vector.contract {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 3 : i64} %ta, %tb, %s
         : vector<32x64xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @too_many_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [128, 128] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [128, 128]>
    %pb = layout.partition %vb tile [128, 128] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [128, 128]>
    %pc = layout.partition %vc tile [128, 128] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [128, 128]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pb : !layout.partition_view<?x?xf16, tile = [128, 128]>
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    %acc = scf.for %kt = %c0 to %t#0 step %c1 iter_args(%s = %zero) -> (vector<128x128xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [128, 128]> -> vector<128x128xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [128, 128]> -> vector<128x128xf16>
      // expected-error @+1 {{in a tile program: layout.pipeline_stages = 4 needs 262144 bytes of workgroup memory (A and B tiles of 65536 bytes per stage); sm_90 allows 232448 bytes per block (49152 statically, the rest as dynamic shared memory)}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 4 : i64} %ta, %tb, %s
         : vector<128x128xf16>, vector<128x128xf16> into vector<128x128xf32>
      scf.yield %r : vector<128x128xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<128x128xf32>, !layout.partition_view<?x?xf32, tile = [128, 128]>
    gpu.return
  }
}
}

