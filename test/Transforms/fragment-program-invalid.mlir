// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory=chip=sm_90 -verify-diagnostics
// RUN: not layout-opt %S/../Integration/GPU/Inputs/attention-on-cpu.mlir -layout-tile-shared-memory=chip=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

/// Fragment programs (loops of several tile contractions, FragmentProgram.h)
/// that -layout-tile-shared-memory cannot keep in registers: each gets a
/// diagnostic at the op, never invalid IR.
// SM75: error: 'scf.for' op in a fragment program (a loop of several tile contractions): no matrix instruction of sm_75 with 'f16' inputs keeps the loop in registers

// -----

/// The carried O starts from a loaded tile.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %init = layout.load %po[%bm, %c0] masked : !p32 -> vector<64x64xf32>
    // expected-error @+1 {{a carried tile must start from a splat constant}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %init) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// A carried vector of 32 rows in a loop of 64-row tiles.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %ninf32 = arith.constant dense<0xFF800000> : vector<32xf32>
    // expected-error @+1 {{a carried vector must be a 64 x N tile or a vector of 64 rows (the contractions' rows), got 'vector<32xf32>'}}
    %res:3 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero, %x = %ninf32) -> (vector<64xf32>, vector<64x64xf32>, vector<32xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2, %x : vector<64xf32>, vector<64x64xf32>, vector<32xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// K scaled in registers before the product.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      // expected-error @+1 {{a loaded tile must be an operand (A or B) of the loop's contractions}}
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tk2 = arith.addf %tk, %tk : vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk2, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// P as the second product's B.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      // expected-error @+1 {{B must be a loaded tile (a B computed in registers is not supported yet)}}
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %p16, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// P read as (k, m).
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      // expected-error @+1 {{A must be a loaded tile or a 64 x K tile of the program (m x k, not transposed)}}
      %o2 = vector.contract {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// A reduction over the rows (a column statistic).
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      // expected-error @+1 {{a reduction must fold the columns of a 64 x N tile of f32 or i32 into its rows}}
      %mn = vector.multi_reduction <maximumf>, %s, %m [0] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// The row vector broadcast as a row (along the columns' dimension).
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      // expected-error @+1 {{a broadcast must repeat a 64 x 1 row vector across the columns of a tile}}
      %mb = vector.broadcast %mn : vector<64xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// S transposed in registers.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      // expected-error @+1 {{only contractions, loads, elementwise ops, splats, row reductions and their broadcasts may compute tiles}}
      %st = vector.transpose %s, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      %p = arith.subf %st, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// S minus a tile loaded before the loop.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %bias = layout.load %po[%bm, %c0] masked : !p32 -> vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      // expected-error @+1 {{the operands of an elementwise op must be tiles of its shape or splats (broadcast row vectors explicitly)}}
      %p = arith.subf %s, %bias : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// O stored under an scf.if.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    %t = arith.cmpi eq, %bm, %c0 : index
    scf.if %t {
      // expected-error @+1 {{a tile the loop computes may only be used by ops next to the loop}}
      layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    }
    gpu.return
  }
}
}

// -----

/// O stored in the loop.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      // expected-error @+1 {{a tile of the program must be stored after the loop with a cooperative, non-atomic layout.store}}
      layout.store %o2, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// Positions shaped 1 x 64 and broadcast over the rows.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %pos = vector.step : vector<64xindex>
      %pc = vector.shape_cast %pos : vector<64xindex> to vector<1x64xindex>
      // expected-error @+1 {{positions must be broadcast onto a 64 x N tile from N columns or 64 x 1 rows}}
      %pb = vector.broadcast %pc : vector<1x64xindex> to vector<64x64xindex>
      %pf = arith.index_cast %pb : vector<64x64xindex> to vector<64x64xi32>
      %pg = arith.sitofp %pf : vector<64x64xi32> to vector<64x64xf32>
      %p0 = arith.subf %s, %mb : vector<64x64xf32>
      %p = arith.addf %p0, %pg : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// Positions added to the row maximum.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %pos = vector.step : vector<64xindex>
      %pi = arith.index_cast %pos : vector<64xindex> to vector<64xi32>
      %pf = arith.sitofp %pi : vector<64xi32> to vector<64xf32>
      // expected-error @+1 {{positions combine only with positions and splats}}
      %px = arith.addf %pf, %mn : vector<64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// Six warps: the rows cannot be split among them.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{keeps the loop in registers; mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (16x8x16): 64 rows over 6 waves are not whole 16-row instruction tiles}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// A block-scaled FP8 GEMM (one product per K tile, scaled before it is
/// added) whose K tile of 48 does not divide the 128-wide scale blocks: the
/// scale index (kt * 48) / 128 changes within a tile, which one scale per
/// product cannot cover.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @k_tile_straddles(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xf32>, %SA: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 48] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 48]>
    %pb = layout.partition %vb tile [64, 48] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 48]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 48]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 48]> -> vector<64x48xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 48]> -> vector<64x48xf8E4M3FN>
      %p = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %zero
         : vector<64x48xf8E4M3FN>, vector<64x48xf8E4M3FN> into vector<64x64xf32>
      %c48 = arith.constant 48 : index
      %c128 = arith.constant 128 : index
      %k0 = arith.muli %kt, %c48 : index
      %kb = arith.divui %k0, %c128 : index
      // expected-error @+1 {{'memref.load' op in a fragment program (a loop of several tile contractions): the index (iv * 48) / 128 changes within an iteration's K tile of 48 elements (a block of 128 is not a whole number of tiles): one scale per product cannot cover it; make the K tile divide the block}}
      %sa = memref.load %SA[%bm, %kb] : memref<?x?xf32>
      %scale = vector.broadcast %sa : f32 to vector<64x64xf32>
      %scaled = arith.mulf %p, %scale : vector<64x64xf32>
      %next = arith.addf %s, %scaled : vector<64x64xf32>
      scf.yield %next : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}

// -----

/// A scale read at a thread-dependent index: not one value of the tile.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @per_thread_scale(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xf32>, %SA: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 32]> -> vector<64x32xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 32]> -> vector<64x32xf8E4M3FN>
      %p = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %zero
         : vector<64x32xf8E4M3FN>, vector<64x32xf8E4M3FN> into vector<64x64xf32>
      %tid = gpu.thread_id x
      // expected-error @+1 {{'memref.load' op in a fragment program (a loop of several tile contractions): a scalar memref.load beside the tile ops must read at block-uniform indices}}
      %sa = memref.load %SA[%tid, %kt] : memref<?x?xf32>
      %scale = vector.broadcast %sa : f32 to vector<64x64xf32>
      %scaled = arith.mulf %p, %scale : vector<64x64xf32>
      %next = arith.addf %s, %scaled : vector<64x64xf32>
      scf.yield %next : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}

// -----

/// An order of products the pass does not know.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{layout.product_order takes "rotated" or "program", got "sideways"}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.product_order = "sideways"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// The rotated order asked for where the products are mma.sync (sm_90):
/// only wgmma runs a product while the warpgroup computes on.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{layout.product_order = "rotated", but its products are not wgmma with cp.async copies}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.product_order = "rotated"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// A copy release the pass does not know.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{layout.copy_release takes "early", "late" or "ahead", got "soon"}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.copy_release = "soon"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// Copies ahead asked for where the tiles cannot be copied by cp.async (the
/// rows' alignment known only at run time: no layout.stride_multiples).
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{in a fragment program: layout.copy_release = "ahead", but its tiles cannot be copied by cp.async: a tile's rows keep its vectors aligned only at run time}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.copy_release = "ahead"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}

// -----

/// Copies ahead asked for where no staged tile changes in the loop.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>, %O: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vk = layout.view %K : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vv = layout.view %V : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x?xf16> -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{in a fragment program: layout.copy_release = "ahead", but it stages no tile that changes in the loop}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%c0, %c0] masked : !p16 -> vector<64x64xf16>
      %tv = layout.load %pv[%c0, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.copy_release = "ahead"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    gpu.return
  }
}
}
