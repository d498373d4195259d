// The program and checks of attention-on-cpu-*.test (one test per chip).

/// Issue 40's first milestone (docs/attention-plan.md, section 3.2): a
/// loop of two contractions whose tiles never leave the registers,
/// distributed by -layout-tile-shared-memory as a fragment program and run
/// on the CPU by -layout-test-gpu-to-loops (each matrix instruction and
/// gpu.shuffle emulated lane by lane). Per key/value tile j:
///   S = Q K_j^T (a constant-zero accumulator),
///   m = max(m, rowmax(S))          (a row reduction in registers),
///   O += f16(S - broadcast(m)) V_j (the accumulator S, after elementwise
///                                   ops and truncf, is the A operand),
/// then O and m are stored. No exp (that is the next milestone): Q, K and V
/// are small integers, so S, S - m (in f16) and O are exact and every
/// element is compared exactly with a host reference that runs the same
/// recurrence tile by tile. Query rows 77, 128 and 200 (masked loads and
/// stores at the edge), keys 128 and 192, d = 64; one block of 64 query
/// rows per grid column, 128 threads.
///
/// Then the flash-attention forward (attn_softmax: exp2 of scaled scores,
/// the running row sum, the accumulator rescaled by alpha, O / l in f16)
/// and its causal form over ragged keys (attn_causal: positions from
/// vector.step broadcast onto S, key < N and key <= query, the loop ending
/// at the diagonal tile), compared with softmax(Q K^T / 8) V computed in
/// f32 with exp on the host within 4e-3 (1 + |ref|); attn_softmax_d128
/// is attn_softmax at head dimension 128 (d in the memref type), against
/// softmax(Q K^T / sqrt(128)) V.
///
/// The K and V tiles are copied one product ahead (FragmentCopies.h): on
/// sm_90 attn_softmax and attn_causal by cp.async (their K and V rows are
/// declared 16-byte aligned), attn_max through registers (its rows are
/// aligned only at run time), as on every AMD target.

// CHECK: attn_max 77x128: O 0 mismatches of 4928, m 0 mismatches of 77
// CHECK: attn_max 128x192: O 0 mismatches of 8192, m 0 mismatches of 128
// CHECK: attn_max 200x192: O 0 mismatches of 12800, m 0 mismatches of 200
// CHECK: attn_softmax 77x128: O 0 outside the tolerance of 4928
// CHECK: attn_softmax 200x192: O 0 outside the tolerance of 12800
// CHECK: attn_causal 77x77: O 0 outside the tolerance of 4928
// CHECK: attn_causal 200x200: O 0 outside the tolerance of 12800
// CHECK: attn_softmax_d128 77x192: O 0 outside the tolerance of 9856

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

!tv16 = !layout.tensor_view<?x?xf16>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!tv128 = !layout.tensor_view<?x128xf16>
!p128 = !layout.partition_view<?x128xf16, tile = [64, 128]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
!prow = !layout.partition_view<?xf32, tile = [64]>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @attn_max(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>,
                     %O: memref<?x?xf32>, %M: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !tv16
    %vk = layout.view %K : memref<?x?xf16> -> !tv16
    %vv = layout.view %V : memref<?x?xf16> -> !tv16
    %vo = layout.view %O : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vm = layout.view %M : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pq = layout.partition %vq tile [64, 64] : !tv16 -> !p16
    %pk = layout.partition %vk tile [64, 64] : !tv16 -> !p16
    %pv = layout.partition %vv tile [64, 64] : !tv16 -> !p16
    %po = layout.partition %vo tile [64, 64] : !layout.tensor_view<?x?xf32> -> !p32
    %pm = layout.partition %vm tile [64] : !layout.tensor_view<?xf32> -> !prow
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %res:2 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %o = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %p = arith.subf %s, %mb : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %o
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %o2 : vector<64xf32>, vector<64x64xf32>
    }
    layout.store %res#1, %po[%bm, %c0] masked : vector<64x64xf32>, !p32
    layout.store %res#0, %pm[%bm] masked : vector<64xf32>, !prow
    gpu.return
  }

  // The flash-attention forward (FlashAttention-2's recurrence, in base 2):
  // scores scaled by log2(e) / sqrt(d), the running row maximum m and row
  // sum l, the accumulator rescaled by alpha = exp2(m - m') each tile, and
  // O / l stored as f16.
  gpu.func @attn_softmax(%Q: memref<?x?xf16>,
      %K: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
      %V: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
                         %O: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !tv16
    %vk = layout.view %K : memref<?x?xf16> -> !tv16
    %vv = layout.view %V : memref<?x?xf16> -> !tv16
    %vo = layout.view %O : memref<?x?xf16> -> !tv16
    %pq = layout.partition %vq tile [64, 64] : !tv16 -> !p16
    %pk = layout.partition %vk tile [64, 64] : !tv16 -> !p16
    %pv = layout.partition %vv tile [64, 64] : !tv16 -> !p16
    %po = layout.partition %vo tile [64, 64] : !tv16 -> !p16
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zrow = arith.constant dense<0.0> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // log2(e) / sqrt(64)
    %scale = arith.constant dense<0.180336880> : vector<64x64xf32>
    %res:3 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zero) -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s0 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %s = arith.mulf %s0, %scale : vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %d = arith.subf %s, %mb : vector<64x64xf32>
      %p = math.exp2 %d : vector<64x64xf32>
      %dm = arith.subf %m, %mn : vector<64xf32>
      %alpha = math.exp2 %dm : vector<64xf32>
      %la = arith.mulf %l, %alpha : vector<64xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<64x64xf32> to vector<64xf32>
      %ac = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
      %ab = vector.broadcast %ac : vector<64x1xf32> to vector<64x64xf32>
      %oa = arith.mulf %o, %ab : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %ln, %o2 : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
    }
    %lc = vector.shape_cast %res#1 : vector<64xf32> to vector<64x1xf32>
    %lb = vector.broadcast %lc : vector<64x1xf32> to vector<64x64xf32>
    %out = arith.divf %res#2, %lb : vector<64x64xf32>
    %out16 = arith.truncf %out : vector<64x64xf32> to vector<64x64xf16>
    layout.store %out16, %po[%bm, %c0] masked : vector<64x64xf16>, !p16
    gpu.return
  }

  // attn_softmax with d = 128 (the rows in the type: 16-byte aligned).
  gpu.func @attn_softmax_d128(%Q: memref<?x128xf16>,
      %K: memref<?x128xf16>,
      %V: memref<?x128xf16>,
                         %O: memref<?x128xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x128xf16> -> !tv128
    %vk = layout.view %K : memref<?x128xf16> -> !tv128
    %vv = layout.view %V : memref<?x128xf16> -> !tv128
    %vo = layout.view %O : memref<?x128xf16> -> !tv128
    %pq = layout.partition %vq tile [64, 128] : !tv128 -> !p128
    %pk = layout.partition %vk tile [64, 128] : !tv128 -> !p128
    %pv = layout.partition %vv tile [64, 128] : !tv128 -> !p128
    %po = layout.partition %vo tile [64, 128] : !tv128 -> !p128
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p128
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zrow = arith.constant dense<0.0> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %zo = arith.constant dense<0.0> : vector<64x128xf32>
    // log2(e) / sqrt(128)
    %scale = arith.constant dense<0.127517431> : vector<64x64xf32>
    %res:3 = scf.for %j = %c0 to %kv#0 step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zo) -> (vector<64xf32>, vector<64xf32>, vector<64x128xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p128 -> vector<64x128xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p128 -> vector<64x128xf16>
      %s0 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x128xf16>, vector<64x128xf16> into vector<64x64xf32>
      %s = arith.mulf %s0, %scale : vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %d = arith.subf %s, %mb : vector<64x64xf32>
      %p = math.exp2 %d : vector<64x64xf32>
      %dm = arith.subf %m, %mn : vector<64xf32>
      %alpha = math.exp2 %dm : vector<64xf32>
      %la = arith.mulf %l, %alpha : vector<64xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<64x64xf32> to vector<64xf32>
      %ac = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
      %ab = vector.broadcast %ac : vector<64x1xf32> to vector<64x128xf32>
      %oa = arith.mulf %o, %ab : vector<64x128xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p128 -> vector<64x128xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x128xf16> into vector<64x128xf32>
      scf.yield %mn, %ln, %o2 : vector<64xf32>, vector<64xf32>, vector<64x128xf32>
    }
    %lc = vector.shape_cast %res#1 : vector<64xf32> to vector<64x1xf32>
    %lb = vector.broadcast %lc : vector<64x1xf32> to vector<64x128xf32>
    %out = arith.divf %res#2, %lb : vector<64x128xf32>
    %out16 = arith.truncf %out : vector<64x128xf32> to vector<64x128xf16>
    layout.store %out16, %po[%bm, %c0] masked : vector<64x128xf16>, !p128
    gpu.return
  }

  // The same with a causal mask over ragged keys (key < N, key <= query).
  gpu.func @attn_causal(%Q: memref<?x?xf16>,
      %K: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
      %V: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
                         %O: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %vq = layout.view %Q : memref<?x?xf16> -> !tv16
    %vk = layout.view %K : memref<?x?xf16> -> !tv16
    %vv = layout.view %V : memref<?x?xf16> -> !tv16
    %vo = layout.view %O : memref<?x?xf16> -> !tv16
    %pq = layout.partition %vq tile [64, 64] : !tv16 -> !p16
    %pk = layout.partition %vk tile [64, 64] : !tv16 -> !p16
    %pv = layout.partition %vv tile [64, 64] : !tv16 -> !p16
    %po = layout.partition %vo tile [64, 64] : !tv16 -> !p16
    %bm = gpu.block_id x
    %kv:2 = layout.index_space %pk : !p16
    // Keys: N (ragged, masked loads read zeros past it); the causal loop
    // stops after the diagonal tile.
    %n = memref.dim %K, %c0 : memref<?x?xf16>
    %c64 = arith.constant 64 : index
    %bm1 = arith.addi %bm, %c1 : index
    %last = arith.minui %kv#0, %bm1 : index
    %q0 = arith.muli %bm, %c64 : index
    %step = vector.step : vector<64xindex>
    %q0v = vector.broadcast %q0 : index to vector<64xindex>
    %qpos = arith.addi %step, %q0v : vector<64xindex>
    %qcol = vector.shape_cast %qpos : vector<64xindex> to vector<64x1xindex>
    %nv = vector.broadcast %n : index to vector<64x64xindex>
    %ninfs = arith.constant dense<0xFF800000> : vector<64x64xf32>
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    %zrow = arith.constant dense<0.0> : vector<64xf32>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // log2(e) / sqrt(64)
    %scale = arith.constant dense<0.180336880> : vector<64x64xf32>
    %res:3 = scf.for %j = %c0 to %last step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zero) -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
      %tq = layout.load %pq[%bm, %c0] masked : !p16 -> vector<64x64xf16>
      %tk = layout.load %pk[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %s0 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %tq, %tk, %zero
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %s1 = arith.mulf %s0, %scale : vector<64x64xf32>
      // Key j * 64 + c of column c: kept if < N and <= the query's row.
      %k0 = arith.muli %j, %c64 : index
      %k0v = vector.broadcast %k0 : index to vector<64xindex>
      // The key positions as the constant the canonicalizer makes of a
      // vector.step (an arithmetic sequence), the query positions as the step.
      %kstep = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : vector<64xindex>
      %kpos = arith.addi %kstep, %k0v : vector<64xindex>
      %kb = vector.broadcast %kpos : vector<64xindex> to vector<64x64xindex>
      %qb = vector.broadcast %qcol : vector<64x1xindex> to vector<64x64xindex>
      %past = arith.cmpi ule, %kb, %qb : vector<64x64xindex>
      %inside = arith.cmpi ult, %kb, %nv : vector<64x64xindex>
      %keep = arith.andi %past, %inside : vector<64x64xi1>
      %s = arith.select %keep, %s1, %ninfs : vector<64x64xi1>, vector<64x64xf32>
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
      %mc = vector.shape_cast %mn : vector<64xf32> to vector<64x1xf32>
      %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
      %d = arith.subf %s, %mb : vector<64x64xf32>
      %p = math.exp2 %d : vector<64x64xf32>
      %dm = arith.subf %m, %mn : vector<64xf32>
      %alpha = math.exp2 %dm : vector<64xf32>
      %la = arith.mulf %l, %alpha : vector<64xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<64x64xf32> to vector<64xf32>
      %ac = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
      %ab = vector.broadcast %ac : vector<64x1xf32> to vector<64x64xf32>
      %oa = arith.mulf %o, %ab : vector<64x64xf32>
      %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
      %tv = layout.load %pv[%j, %c0] masked : !p16 -> vector<64x64xf16>
      %o2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %tv, %oa
         : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      scf.yield %mn, %ln, %o2 : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
    }
    %lc = vector.shape_cast %res#1 : vector<64xf32> to vector<64x1xf32>
    %lb = vector.broadcast %lc : vector<64x1xf32> to vector<64x64xf32>
    %out = arith.divf %res#2, %lb : vector<64x64xf32>
    %out16 = arith.truncf %out : vector<64x64xf32> to vector<64x64xf16>
    layout.store %out16, %po[%bm, %c0] masked : vector<64x64xf16>, !p16
    gpu.return
  }
}

func.func private @attn_max_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, memref<?xf32>, index, index, index)
func.func private @attn_softmax_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @attn_softmax_d128_host(memref<?x128xf16>, memref<?x128xf16>, memref<?x128xf16>, memref<?x128xf16>, index, index, index)
func.func private @attn_causal_host(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, index, index, index)

/// Small integers in [-2, 2]. K mixes key and column (n c mod 7,
/// n^2 + c mod 11), so that the scores of a row's keys differ and its
/// maximum sits in one column: a butterfly that misses a lane group
/// misses it.
func.func @q_value(%i: index, %c: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %x = arith.muli %i, %c7 : index
  %y = arith.muli %c, %c3 : index
  %cc = arith.muli %c, %c : index
  %q = arith.divui %cc, %c7 : index
  %s0 = arith.addi %x, %y : index
  %s = arith.addi %s0, %q : index
  %r = arith.remui %s, %c5 : index
  %n = arith.index_cast %r : index to i64
  %two = arith.constant 2 : i64
  %v = arith.subi %n, %two : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
func.func @k_value(%n: index, %c: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %nc = arith.muli %n, %c : index
  %a = arith.remui %nc, %c7 : index
  %nn = arith.muli %n, %n : index
  %nnc = arith.addi %nn, %c : index
  %b = arith.remui %nnc, %c11 : index
  %n3 = arith.muli %n, %c3 : index
  %s0 = arith.addi %a, %b : index
  %s = arith.addi %s0, %n3 : index
  %r = arith.remui %s, %c5 : index
  %i = arith.index_cast %r : index to i64
  %two = arith.constant 2 : i64
  %v = arith.subi %i, %two : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
func.func @v_value(%n: index, %c: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c13 = arith.constant 13 : index
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %x = arith.muli %n, %c3 : index
  %y = arith.muli %c, %c13 : index
  %s0 = arith.addi %x, %y : index
  %s = arith.addi %s0, %c2 : index
  %r = arith.remui %s, %c5 : index
  %i = arith.index_cast %r : index to i64
  %two = arith.constant 2 : i64
  %v = arith.subi %i, %two : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}

/// Fills a rows x cols f16 matrix with `fn`'s values (0: Q, 1: K, 2: V).
func.func @fill(%a: memref<?x?xf16>, %which: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf16>
  %cols = memref.dim %a, %c1 : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %c = %c0 to %cols step %c1 {
      %isq = arith.cmpi eq, %which, %c0 : index
      %isk = arith.cmpi eq, %which, %c1 : index
      %v = scf.if %isq -> (f32) {
        %x = func.call @q_value(%i, %c) : (index, index) -> f32
        scf.yield %x : f32
      } else {
        %y = scf.if %isk -> (f32) {
          %x = func.call @k_value(%i, %c) : (index, index) -> f32
          scf.yield %x : f32
        } else {
          %x = func.call @v_value(%i, %c) : (index, index) -> f32
          scf.yield %x : f32
        }
        scf.yield %y : f32
      }
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %a[%i, %c] : memref<?x?xf16>
    }
  }
  return
}

/// The reference: for each query row and each tile of 64 keys, S of the
/// tile, m = max(m, max S), O += (S - m) V (S - m rounded to f16, as the
/// kernel's truncf does: exact here).
func.func @reference(%nq: index, %nk: index, %d: index, %o: memref<?x?xf32>, %mref: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %nq step %c1 {
    scf.for %c = %c0 to %d step %c1 {
      memref.store %zero, %o[%i, %c] : memref<?x?xf32>
    }
    %mfinal = scf.for %t = %c0 to %nk step %c64 iter_args(%m = %ninf) -> (f32) {
      %mt = scf.for %jj = %c0 to %c64 step %c1 iter_args(%mx = %m) -> (f32) {
        %j = arith.addi %t, %jj : index
        %dot = scf.for %c = %c0 to %d step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = func.call @q_value(%i, %c) : (index, index) -> f32
          %y = func.call @k_value(%j, %c) : (index, index) -> f32
          %pr = arith.mulf %x, %y : f32
          %a2 = arith.addf %acc, %pr : f32
          scf.yield %a2 : f32
        }
        memref.store %dot, %s[%jj] : memref<64xf32>
        %mx2 = arith.maximumf %mx, %dot : f32
        scf.yield %mx2 : f32
      }
      scf.for %c = %c0 to %d step %c1 {
        %old = memref.load %o[%i, %c] : memref<?x?xf32>
        %sum = scf.for %jj = %c0 to %c64 step %c1 iter_args(%acc = %old) -> (f32) {
          %j = arith.addi %t, %jj : index
          %sv = memref.load %s[%jj] : memref<64xf32>
          %p = arith.subf %sv, %mt : f32
          %v = func.call @v_value(%j, %c) : (index, index) -> f32
          %pr = arith.mulf %p, %v : f32
          %a2 = arith.addf %acc, %pr : f32
          scf.yield %a2 : f32
        }
        memref.store %sum, %o[%i, %c] : memref<?x?xf32>
      }
      scf.yield %mt : f32
    }
    memref.store %mfinal, %mref[%i] : memref<?xf32>
  }
  memref.dealloc %s : memref<64xf32>
  return
}

func.func @run_attn_max(%nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %d = arith.constant 64 : index
  %q = memref.alloc(%nq, %d) : memref<?x?xf16>
  %k = memref.alloc(%nk, %d) : memref<?x?xf16>
  %v = memref.alloc(%nk, %d) : memref<?x?xf16>
  %o = memref.alloc(%nq, %d) : memref<?x?xf32>
  %m = memref.alloc(%nq) : memref<?xf32>
  %ro = memref.alloc(%nq, %d) : memref<?x?xf32>
  %rm = memref.alloc(%nq) : memref<?xf32>
  call @fill(%q, %c0) : (memref<?x?xf16>, index) -> ()
  call @fill(%k, %c1) : (memref<?x?xf16>, index) -> ()
  call @fill(%v, %c2) : (memref<?x?xf16>, index) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %nq step %c1 {
    memref.store %init, %m[%i] : memref<?xf32>
    scf.for %c = %c0 to %d step %c1 {
      memref.store %init, %o[%i, %c] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %nq, %c64 : index
  call @attn_max_host(%q, %k, %v, %o, %m, %gx, %c1, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, memref<?xf32>, index, index, index) -> ()
  call @reference(%nq, %nk, %d, %ro, %rm) : (index, index, index, memref<?x?xf32>, memref<?xf32>) -> ()
  %badO = scf.for %i = %c0 to %nq step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %c = %c0 to %d step %c1 iter_args(%b1 = %b0) -> (index) {
      %x = memref.load %o[%i, %c] : memref<?x?xf32>
      %y = memref.load %ro[%i, %c] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b2 = arith.addi %b1, %one : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  %badM = scf.for %i = %c0 to %nq step %c1 iter_args(%b0 = %c0) -> (index) {
    %x = memref.load %m[%i] : memref<?xf32>
    %y = memref.load %rm[%i] : memref<?xf32>
    %ne = arith.cmpf une, %x, %y : f32
    %one = arith.select %ne, %c1, %c0 : index
    %b2 = arith.addi %b0, %one : index
    scf.yield %b2 : index
  }
  %total = arith.muli %nq, %d : index
  vector.print str "attn_max "
  vector.print %nq : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %nk : index punctuation <no_punctuation>
  vector.print str ": O "
  vector.print %badO : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %total : index punctuation <no_punctuation>
  vector.print str ", m "
  vector.print %badM : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %nq : index
  memref.dealloc %q : memref<?x?xf16>
  memref.dealloc %k : memref<?x?xf16>
  memref.dealloc %v : memref<?x?xf16>
  memref.dealloc %o : memref<?x?xf32>
  memref.dealloc %m : memref<?xf32>
  memref.dealloc %ro : memref<?x?xf32>
  memref.dealloc %rm : memref<?xf32>
  return
}

/// softmax(Q K^T / sqrt(d)) V for every query row i in f32 (exp, not
/// exp2: an independent formula), into %o's row i; with %causal over keys
/// j <= i only.
func.func @softmax_reference(%nq: index, %nk: index, %d: index, %o: memref<?x?xf32>, %causal: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  // 1 / sqrt(d)
  %di = arith.index_cast %d : index to i64
  %df = arith.uitofp %di : i64 to f32
  %eighth = math.rsqrt %df : f32
  %s = memref.alloc(%nk) : memref<?xf32>
  scf.for %i = %c0 to %nq step %c1 {
    // Causal: the keys up to the query's position.
    %i1 = arith.addi %i, %c1 : index
    %upto = arith.minui %i1, %nk : index
    %kend = arith.select %causal, %upto, %nk : index
    %mx = scf.for %j = %c0 to %kend step %c1 iter_args(%m = %ninf) -> (f32) {
      %dot = scf.for %c = %c0 to %d step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = func.call @q_value(%i, %c) : (index, index) -> f32
        %y = func.call @k_value(%j, %c) : (index, index) -> f32
        %pr = arith.mulf %x, %y : f32
        %a2 = arith.addf %acc, %pr : f32
        scf.yield %a2 : f32
      }
      %sc = arith.mulf %dot, %eighth : f32
      memref.store %sc, %s[%j] : memref<?xf32>
      %m2 = arith.maximumf %m, %sc : f32
      scf.yield %m2 : f32
    }
    %l = scf.for %j = %c0 to %kend step %c1 iter_args(%acc = %zero) -> (f32) {
      %sv = memref.load %s[%j] : memref<?xf32>
      %dd = arith.subf %sv, %mx : f32
      %e = math.exp %dd : f32
      memref.store %e, %s[%j] : memref<?xf32>
      %a2 = arith.addf %acc, %e : f32
      scf.yield %a2 : f32
    }
    scf.for %c = %c0 to %d step %c1 {
      %sum = scf.for %j = %c0 to %kend step %c1 iter_args(%acc = %zero) -> (f32) {
        %e = memref.load %s[%j] : memref<?xf32>
        %v = func.call @v_value(%j, %c) : (index, index) -> f32
        %pr = arith.mulf %e, %v : f32
        %a2 = arith.addf %acc, %pr : f32
        scf.yield %a2 : f32
      }
      %r = arith.divf %sum, %l : f32
      memref.store %r, %o[%i, %c] : memref<?x?xf32>
    }
  }
  memref.dealloc %s : memref<?xf32>
  return
}

/// Runs @attn_softmax and counts the elements of O farther than
/// 4e-3 (1 + |ref|) from the reference: P is rounded to f16 (2^-11
/// relative) before it multiplies V, and O to f16 when stored.
func.func @run_attn_softmax(%nq: index, %nk: index, %causal: i1, %d: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %wide = arith.cmpi eq, %d, %c128 : index
  %q = memref.alloc(%nq, %d) : memref<?x?xf16>
  %k = memref.alloc(%nk, %d) : memref<?x?xf16>
  %v = memref.alloc(%nk, %d) : memref<?x?xf16>
  %o = memref.alloc(%nq, %d) : memref<?x?xf16>
  %ro = memref.alloc(%nq, %d) : memref<?x?xf32>
  call @fill(%q, %c0) : (memref<?x?xf16>, index) -> ()
  call @fill(%k, %c1) : (memref<?x?xf16>, index) -> ()
  call @fill(%v, %c2) : (memref<?x?xf16>, index) -> ()
  %init = arith.constant -7.0 : f16
  scf.for %i = %c0 to %nq step %c1 {
    scf.for %c = %c0 to %d step %c1 {
      memref.store %init, %o[%i, %c] : memref<?x?xf16>
    }
  }
  %gx = arith.ceildivui %nq, %c64 : index
  scf.if %causal {
    func.call @attn_causal_host(%q, %k, %v, %o, %gx, %c1, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  } else {
    scf.if %wide {
      %q2 = memref.cast %q : memref<?x?xf16> to memref<?x128xf16>
      %k2 = memref.cast %k : memref<?x?xf16> to memref<?x128xf16>
      %v2 = memref.cast %v : memref<?x?xf16> to memref<?x128xf16>
      %o2 = memref.cast %o : memref<?x?xf16> to memref<?x128xf16>
      func.call @attn_softmax_d128_host(%q2, %k2, %v2, %o2, %gx, %c1, %c1) : (memref<?x128xf16>, memref<?x128xf16>, memref<?x128xf16>, memref<?x128xf16>, index, index, index) -> ()
    } else {
      func.call @attn_softmax_host(%q, %k, %v, %o, %gx, %c1, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
    }
  }
  call @softmax_reference(%nq, %nk, %d, %ro, %causal) : (index, index, index, memref<?x?xf32>, i1) -> ()
  %tol = arith.constant 4.0e-3 : f32
  %one = arith.constant 1.0 : f32
  %bad = scf.for %i = %c0 to %nq step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %c = %c0 to %d step %c1 iter_args(%b1 = %b0) -> (index) {
      %x16 = memref.load %o[%i, %c] : memref<?x?xf16>
      %x = arith.extf %x16 : f16 to f32
      %y = memref.load %ro[%i, %c] : memref<?x?xf32>
      %diff = arith.subf %x, %y : f32
      %ad = math.absf %diff : f32
      %ay = math.absf %y : f32
      %bound0 = arith.addf %ay, %one : f32
      %bound = arith.mulf %bound0, %tol : f32
      // NaN counts as a violation.
      %ok = arith.cmpf ole, %ad, %bound : f32
      %one_i = arith.select %ok, %c0, %c1 : index
      %b2 = arith.addi %b1, %one_i : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  %total = arith.muli %nq, %d : index
  scf.if %causal {
    vector.print str "attn_causal "
  } else {
    scf.if %wide {
      vector.print str "attn_softmax_d128 "
    } else {
      vector.print str "attn_softmax "
    }
  }
  vector.print %nq : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %nk : index punctuation <no_punctuation>
  vector.print str ": O "
  vector.print %bad : index punctuation <no_punctuation>
  vector.print str " outside the tolerance of "
  vector.print %total : index
  memref.dealloc %q : memref<?x?xf16>
  memref.dealloc %k : memref<?x?xf16>
  memref.dealloc %v : memref<?x?xf16>
  memref.dealloc %o : memref<?x?xf16>
  memref.dealloc %ro : memref<?x?xf32>
  return
}

func.func @main() {
  %c77 = arith.constant 77 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c200 = arith.constant 200 : index
  call @run_attn_max(%c77, %c128) : (index, index) -> ()
  call @run_attn_max(%c128, %c192) : (index, index) -> ()
  call @run_attn_max(%c200, %c192) : (index, index) -> ()
  %false = arith.constant false
  %true = arith.constant true
  %c64 = arith.constant 64 : index
  call @run_attn_softmax(%c77, %c128, %false, %c64) : (index, index, i1, index) -> ()
  call @run_attn_softmax(%c200, %c192, %false, %c64) : (index, index, i1, index) -> ()
  call @run_attn_softmax(%c77, %c77, %true, %c64) : (index, index, i1, index) -> ()
  call @run_attn_softmax(%c200, %c200, %true, %c64) : (index, index, i1, index) -> ()
  call @run_attn_softmax(%c77, %c192, %false, %c128) : (index, index, i1, index) -> ()
  return
}
}
