// RUN: layout-opt %s -layout-tile-shared-memory="chip=sm_90 remarks" 2>&1 | FileCheck %s
// RUN: layout-opt %s -layout-tile-shared-memory="chip=gfx942 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// The loop asking for the late copy of K (layout.copy_release = "late"):
// K's next tiles start at V's arrival, two barriers per iteration.
// RUN: sed 's/^    }$/    } {layout.copy_release = "late"}/' %s | layout-opt -layout-tile-shared-memory="chip=sm_90 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: remark: in a fragment program: 1 staged tile(s) once before the loop, 2 per iteration; those in 2 groups, each copied by cp.async during the product before the one that reads it (layout.copy_release = "late"); 2 barriers per iteration
// Copies ahead (copies-ahead, or layout.copy_release = "ahead" on the
// loop): K's and V's buffers of two stages (2 x 64 x 64 elements), both
// groups of the first iteration copied before the loop; at the top of each
// iteration its stage ((j - lb) / step mod 2), the wait for its tiles, the
// iteration's one barrier, and every tile of the next iteration started into
// the other stage; no other wait or barrier until the loop ends.
// RUN: layout-opt %s -layout-tile-shared-memory="chip=sm_90 copies-ahead=true remarks" 2>&1 | FileCheck %s --check-prefix=AHEAD
// RUN: sed 's/^    }$/    } {layout.copy_release = "ahead"}/' %s | layout-opt -layout-tile-shared-memory="chip=sm_90 remarks" 2>&1 | FileCheck %s --check-prefix=AHEAD
// AHEAD: remark: in a fragment program: 1 staged tile(s) once before the loop, 2 per iteration; those in 2 groups, copied by cp.async a whole iteration ahead into two stages (copies ahead); 1 barrier per iteration
// AHEAD-LABEL: gpu.func @attn_max
// AHEAD-SAME: workgroup(%{{.*}} : memref<4096xf16, {{.*}}, %{{.*}} : memref<8192xf16, {{.*}}, %{{.*}} : memref<8192xf16,
// AHEAD: scf.if
// AHEAD: nvgpu.device_async_copy %arg1
// AHEAD: nvgpu.device_async_copy %arg2
// AHEAD: nvvm.cp.async.commit.group
// AHEAD: scf.for
// AHEAD: %[[N:.*]] = arith.divui
// AHEAD: %[[STAGE:.*]] = arith.remui %[[N]], %c2
// AHEAD-NEXT: nvvm.cp.async.wait.group 0
// AHEAD-NEXT: gpu.barrier
// AHEAD: arith.subi %{{.*}}, %[[STAGE]]
// AHEAD: scf.if
// AHEAD: nvgpu.device_async_copy %arg1
// AHEAD: nvgpu.device_async_copy %arg2
// AHEAD: nvvm.cp.async.commit.group
// AHEAD-NOT: gpu.barrier
// AHEAD-NOT: nvvm.cp.async.wait.group
// AHEAD: nvgpu.mma.sync
// AHEAD-NOT: gpu.barrier
// AHEAD: nvvm.cp.async.wait.group 0
// After the loop the block meets (no barrier followed the last reads of
// the stages: an enclosing loop's next prologue refills stage 0).
// AHEAD-NEXT: gpu.barrier
// How O goes out: pairs on mma.sync; element by element on gfx942 (MFMA's
// transposed products).
// RUN: layout-opt %s -layout-tile-shared-memory="chip=sm_90 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORES
// RUN: layout-opt %s -layout-tile-shared-memory="chip=gfx942 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORES-AMD
// STORES: remark: in a fragment program: the tile stored as each lane's pairs of consecutive columns (2-vectors)
// STORES-AMD: remark: in a fragment program: the tile stored element by element: the program computes the tiles' transposes

/// A loop of two contractions (issue 40's milestone: S = Q K^T, the row
/// maximum, O += f16(S - m) V) compiled as a fragment program on sm_90: the
/// remarks say how P reaches the second product (a re-view, no workgroup
/// memory) and how the row maximum is reduced (16 registers per row in each
/// lane, then xor 1, 2); in the loop P is never written to or read from
/// workgroup memory: the only ldmatrix reads are of the staged Q, K and V
/// (4 + 16 + 16 per warp: 16x64 wave tiles of m16n8k16, B's .x2 reads two
/// to an .x4). K and V (their
/// rows 16-byte aligned: layout.stride_multiples) are copied by cp.async one
/// product ahead (FragmentCopies.h): V's copy during S = Q K^T, the next K's
/// during the softmax and O += P V (started right after S, behind a third
/// barrier); three barriers per iteration. gfx942 has
/// no asynchronous copies: each thread loads the next group into registers.

// CHECK: remark: in a fragment program: 1 staged tile(s) once before the loop, 2 per iteration; those in 2 groups, each copied by cp.async during the product before the one that reads it, the first group's next tiles from right after product 1, its last reader; 3 barriers per iteration
// REGS: remark: in a fragment program: 1 staged tile(s) once before the loop, 2 per iteration; those in 2 groups, each loaded into registers during the product before the one that reads it; 2 barriers per iteration; not cp.async: gfx942 has no asynchronous copies into workgroup memory

// CHECK: remark: in a fragment program: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (16x8x16), 4 waves of 16x64 tiles; its lhs staged through workgroup memory as the instruction's A
// CHECK: remark: in a fragment program: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (16x8x16), 4 waves of 16x64 tiles; its lhs a re-view of the accumulator's registers as the instruction's A (0 shuffles, no workgroup memory)
// CHECK: remark: in a fragment program: row maximumf in registers: 16 registers per row in each lane, then gpu.shuffle xor 1, 2; no workgroup memory

// CHECK-LABEL: gpu.func @attn_max
// The first K tile's copies start; Q (loop-invariant) is staged once
// before the loop while they are in flight.
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: scf.for
// K arrived: wait, meet, start V's copies; then 4 K steps of 1 ldmatrix of
// Q, 4 .x4 of K (two n8 tiles each) and 8 mma.sync.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-5: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-5: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-5: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-5: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// K's last reader done: meet, start the next K tile's copies (if there is
// one), in flight during the softmax and P V.
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// The row maximum: two rows per lane, xor 1 and 2 each.
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// V arrived: wait for its copies (the next K's stay in flight), meet; P
// comes from registers: only V's 4 ldmatrix per K step.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-4: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-4: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-4: nvgpu.ldmatrix
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: layout.matrix_instruction = array<i64: 16, 8, 16>
// Nothing stays in flight after the loop.
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// O goes out as each lane's pairs of consecutive columns (mma.sync's C):
// one test that the tile is inside and aligned, then its 16 pairs as
// 2-vectors; else each pair tested.
// CHECK: scf.if
// CHECK-COUNT-16: vector.store {{.*}} : memref<?x?xf32>, vector<2xf32>
// CHECK-NEXT: } else {
// CHECK: gpu.return

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!p16 = !layout.partition_view<?x?xf16, tile = [64, 64]>
!p32 = !layout.partition_view<?x?xf32, tile = [64, 64]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @attn_max(%Q: memref<?x?xf16>,
      %K: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
      %V: memref<?x?xf16> {layout.stride_multiples = array<i64: 8, 1>},
      %O: memref<?x?xf32>) kernel
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
    gpu.return
  }
}
}
