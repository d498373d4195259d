// RUN: layout-opt %s -layout-tile-shared-memory=chip=sm_90a -verify-diagnostics -o /dev/null
// RUN: sed 's/layout.product_order = "rotated"/layout.product_order = "program"/' %s | layout-opt -layout-tile-shared-memory=chip=sm_90a -o /dev/null

/// The rotated order (layout.product_order = "rotated", FragmentRotation)
/// asked for where the deferred product's result is read before the next
/// iteration's first product: the carried O (here scaled by the previous
/// row maximum before S = Q K^T) would not exist yet. In program order the
/// same loop compiles (second RUN).
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p = !layout.partition_view<?x64xf16, tile = [64, 64]>
!po = !layout.partition_view<?x64xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%Q: memref<?x64xf16>, %K: memref<?x64xf16>, %V: memref<?x64xf16>, %O: memref<?x64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vk = layout.view %K : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vv = layout.view %V : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vo = layout.view %O : memref<?x64xf32> -> !layout.tensor_view<?x64xf32>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x64xf16> -> !p
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x64xf16> -> !p
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x64xf16> -> !p
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x64xf32> -> !po
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{layout.product_order = "rotated", but the iter_arg of the last product's result is used before the first product}}
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %mc = vector.shape_cast %m : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %oa = arith.subf %o, %mb : vector<64x64xf32>
      %tq = layout.load %pq[%bm, %c0] masked : !p -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p -> vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %p16 = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    } {layout.product_order = "rotated"}
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !po
    gpu.return
  }
}
}
