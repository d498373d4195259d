// The flash-attention forward as tile programs (issue 40), written by
// bench/attention/gen-attention.py (see there; the bench's other head
// dimensions and blocks come from it too). One kernel per head dimension
// d and query block BM: attn_d<d>_bm<BM>(Q, K, V, O, N), grid (1, batch *
// heads * N / BM), 128 threads; Q, K, V, O [batch * heads * N, d] f16 (d in
// the type: K's and V's tiles go by cp.async on sm_80 and later); and
// attn_causal_d<d>_bm<BM>, the same with a causal mask. The same kernels in
// Python: examples/tile_kernels.py.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @attention {
  gpu.func @attn_d64_bm64(%Q: memref<?x64xf16>,
      %K: memref<?x64xf16>, %V: memref<?x64xf16>, %O: memref<?x64xf16>, %N: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %vq = layout.view %Q : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vk = layout.view %K : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vv = layout.view %V : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vo = layout.view %O : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    // This block's query tile (of all heads' rows), and its head's first
    // key/value tile.
    %qi = gpu.block_id y
    %cbm = arith.constant 64 : index
    %qtiles = arith.divui %N, %cbm : index
    %cbn = arith.constant 64 : index
    %kvtiles = arith.divui %N, %cbn : index
    %bh = arith.divui %qi, %qtiles : index
    %kv0 = arith.muli %bh, %kvtiles : index
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zrow = arith.constant dense<0.0> : vector<64xf32>
    %zo = arith.constant dense<0.0> : vector<64x64xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %res:3 = scf.for %j = %c0 to %kvtiles step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zo)
        -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
      %kj = arith.addi %kv0, %j : index
      %cq = arith.constant 0 : index
      %tq = layout.load %pq[%qi, %cq] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %ck = arith.constant 0 : index
      %tk = layout.load %pk[%kj, %ck] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %zs = arith.constant dense<0.0> : vector<64x64xf32>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zs
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      // The row maximum of the unscaled scores; P = exp2(S scale - m scale),
      // one fma per element (FlashAttention-2's scale_apply_exp2).
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      // log2(e) / sqrt(64)
      %scalerow = arith.constant dense<0.18033688011112042> : vector<64xf32>
      %ms = arith.mulf %mn, %scalerow : vector<64xf32>
      %nms = arith.negf %ms : vector<64xf32>
      %mc = vector.shape_cast %nms : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %scale = arith.constant dense<0.18033688011112042> : vector<64x64xf32>
      %sd = math.fma %s, %scale, %mb : vector<64x64xf32>
      %p = math.exp2 %sd : vector<64x64xf32>
      %dm = arith.subf %m, %mn : vector<64xf32>
      %scalerow2 = arith.constant dense<0.18033688011112042> : vector<64xf32>
      %dms = arith.mulf %dm, %scalerow2 : vector<64xf32>
      %alpha = math.exp2 %dms : vector<64xf32>
      %la = arith.mulf %l, %alpha : vector<64xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<64x64xf32> to vector<64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %cv = arith.constant 0 : index
      %tv = layout.load %pv[%kj, %cv] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %ac = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
      %ab = vector.broadcast %ac : vector<64x1xf32> to vector<64x64xf32>
      %oa = arith.mulf %o, %ab : vector<64x64xf32>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %ln, %o2 : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
    }
    // O / l as O * (1 / l): one approximate reciprocal per row (afn:
    // rcp.approx.f32 on NVIDIA), not a division per element
    // (FlashAttention-2's epilogue).
    %one = arith.constant dense<1.0> : vector<64xf32>
    %linv = arith.divf %one, %res#1 fastmath<afn> : vector<64xf32>
    %lc = vector.shape_cast %linv : vector<64xf32> to vector<64x1xf32>
    %lb = vector.broadcast %lc : vector<64x1xf32> to vector<64x64xf32>
    %out = arith.mulf %res#2, %lb : vector<64x64xf32>
    %out16 = arith.truncf %out : vector<64x64xf32> to vector<64x64xf16>
    %co = arith.constant 0 : index
    layout.store %out16, %po[%qi, %co] masked : vector<64x64xf16>, !layout.partition_view<?x64xf16, tile = [64, 64]>
    gpu.return
  }

  gpu.func @attn_causal_d64_bm64(%Q: memref<?x64xf16>,
      %K: memref<?x64xf16>, %V: memref<?x64xf16>, %O: memref<?x64xf16>, %N: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %vq = layout.view %Q : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vk = layout.view %K : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vv = layout.view %V : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %vo = layout.view %O : memref<?x64xf16> -> !layout.tensor_view<?x64xf16>
    %pq = layout.partition %vq tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %pk = layout.partition %vk tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %pv = layout.partition %vv tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x64xf16> -> !layout.partition_view<?x64xf16, tile = [64, 64]>
    // This block's query tile (of all heads' rows), and its head's first
    // key/value tile.
    %qi = gpu.block_id y
    %cbm = arith.constant 64 : index
    %qtiles = arith.divui %N, %cbm : index
    %cbn = arith.constant 64 : index
    %kvtiles = arith.divui %N, %cbn : index
    %bh = arith.divui %qi, %qtiles : index
    %kv0 = arith.muli %bh, %kvtiles : index
    // Causal: keys up to the block's last query (the loop ends at the
    // diagonal tiles, rounded up: a key block may be longer than the query
    // block), then key <= query in the tiles that cross it.
    %bx = arith.remui %qi, %qtiles : index
    %c1b = arith.constant 1 : index
    %bx1 = arith.addi %bx, %c1b : index
    %cbm2 = arith.constant 64 : index
    %qend = arith.muli %bx1, %cbm2 : index
    %cbn1 = arith.constant 63 : index
    %qend1 = arith.addi %qend, %cbn1 : index
    %cbn2 = arith.constant 64 : index
    %end = arith.divui %qend1, %cbn2 : index
    %qstep = vector.step : vector<64xindex>
    %cbm3 = arith.constant 64 : index
    %q0p = arith.muli %bx, %cbm3 : index
    %q0v = vector.broadcast %q0p : index to vector<64xindex>
    %qpos = arith.addi %qstep, %q0v : vector<64xindex>
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zrow = arith.constant dense<0.0> : vector<64xf32>
    %zo = arith.constant dense<0.0> : vector<64x64xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %res:3 = scf.for %j = %c0 to %end step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zo)
        -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
      %kj = arith.addi %kv0, %j : index
      %cq = arith.constant 0 : index
      %tq = layout.load %pq[%qi, %cq] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %ck = arith.constant 0 : index
      %tk = layout.load %pk[%kj, %ck] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %zs = arith.constant dense<0.0> : vector<64x64xf32>
      %s0 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zs
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %kstep = vector.step : vector<64xindex>
      %cbn3 = arith.constant 64 : index
      %k0 = arith.muli %j, %cbn3 : index
      %k0v = vector.broadcast %k0 : index to vector<64xindex>
      %kpos = arith.addi %kstep, %k0v : vector<64xindex>
      %kb = vector.broadcast %kpos : vector<64xindex> to vector<64x64xindex>
      %qcol = vector.shape_cast %qpos : vector<64xindex> to vector<64x1xindex>
      %qb = vector.broadcast %qcol : vector<64x1xindex> to vector<64x64xindex>
      %keep = arith.cmpi ule, %kb, %qb : vector<64x64xindex>
      %ninfs = arith.constant dense<0xFF800000> : vector<64x64xf32>
      %s = arith.select %keep, %s0, %ninfs : vector<64x64xi1>, vector<64x64xf32>
      // The row maximum of the unscaled scores; P = exp2(S scale - m scale),
      // one fma per element (FlashAttention-2's scale_apply_exp2).
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      // log2(e) / sqrt(64)
      %scalerow = arith.constant dense<0.18033688011112042> : vector<64xf32>
      %ms = arith.mulf %mn, %scalerow : vector<64xf32>
      %nms = arith.negf %ms : vector<64xf32>
      %mc = vector.shape_cast %nms : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %scale = arith.constant dense<0.18033688011112042> : vector<64x64xf32>
      %sd = math.fma %s, %scale, %mb : vector<64x64xf32>
      %p = math.exp2 %sd : vector<64x64xf32>
      %dm = arith.subf %m, %mn : vector<64xf32>
      %scalerow2 = arith.constant dense<0.18033688011112042> : vector<64xf32>
      %dms = arith.mulf %dm, %scalerow2 : vector<64xf32>
      %alpha = math.exp2 %dms : vector<64xf32>
      %la = arith.mulf %l, %alpha : vector<64xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<64x64xf32> to vector<64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %cv = arith.constant 0 : index
      %tv = layout.load %pv[%kj, %cv] masked : !layout.partition_view<?x64xf16, tile = [64, 64]> -> vector<64x64xf16>
      %ac = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
      %ab = vector.broadcast %ac : vector<64x1xf32> to vector<64x64xf32>
      %oa = arith.mulf %o, %ab : vector<64x64xf32>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %ln, %o2 : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
    }
    // O / l as O * (1 / l): one approximate reciprocal per row (afn:
    // rcp.approx.f32 on NVIDIA), not a division per element
    // (FlashAttention-2's epilogue).
    %one = arith.constant dense<1.0> : vector<64xf32>
    %linv = arith.divf %one, %res#1 fastmath<afn> : vector<64xf32>
    %lc = vector.shape_cast %linv : vector<64xf32> to vector<64x1xf32>
    %lb = vector.broadcast %lc : vector<64x1xf32> to vector<64x64xf32>
    %out = arith.mulf %res#2, %lb : vector<64x64xf32>
    %out16 = arith.truncf %out : vector<64x64xf32> to vector<64x64xf16>
    %co = arith.constant 0 : index
    layout.store %out16, %po[%qi, %co] masked : vector<64x64xf16>, !layout.partition_view<?x64xf16, tile = [64, 64]>
    gpu.return
  }
}
}
