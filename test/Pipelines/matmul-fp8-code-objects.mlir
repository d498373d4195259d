// FP8 GEMM tile programs (A M x K and B N x K, both K-major; nn_fp8 with B
// K x N, tn_bf8 with A K x M too; of f8E4M3FN / f8E5M2, or on gfx942
// f8E4M3FNUZ / f8E5M2FNUZ through the sed of the RUN lines; the kernels of
// Inputs/matmul-fp8-on-cpu.mlir, scaled epilogues too) distributed by
// -layout-tile-shared-memory{chip=...}, swizzled and compiled: the chip's
// FP8 matrix instructions in the code object, fragments read from LDS as
// 16-byte vectors (two K-packed MFMA K steps), no scratch and no spills; on
// sm_90 the FP8 mma.sync, called as its LLVM intrinsic, in PTX ISA 8.4
// (-layout-nvvm-ptx-version), and on sm_90a the FP8 warpgroup MMA
// (wgmma m64nNk32 .e4m3 / .e5m2), its K-major operands in TMA boxes where
// their rows allow, transposed in registers on their way into the buffer
// where their tile is not K-major.

// RUN: rm -rf %t/gfx942 && sed -e 's/^!fp8 = .*/!fp8 = f8E4M3FNUZ/' -e 's/^!bf8 = .*/!bf8 = f8E5M2FNUZ/' %s \
// RUN:   | layout-opt -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/kernels.gfx942.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/kernels.gfx942.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx950 && layout-opt %s -layout-to-rocdl=chip=gfx950 -layout-dump-binaries=dir=%t/gfx950 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx950/kernels.gfx950.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx950 %t/gfx950/kernels.gfx950.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/sm_90 && layout-opt %s -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/kernels.sm_90.ptx
// RUN: rm -rf %t/sm_90a && layout-opt %s -layout-to-nvvm="chip=sm_90a format=isa" -layout-dump-binaries=dir=%t/sm_90a -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=SM90A %s < %t/sm_90a/kernels.sm_90a.ptx
// RUN: layout-opt %s -layout-tile-shared-memory="chip=sm_90a remarks=true" -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK90A %s
// RUN: layout-opt %s -layout-tile-shared-memory="chip=sm_90 remarks=true" -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s

/// 64 x 64 x 32 block tiles on two waves of 32 x 64: 1 x 2 MFMAs per K
/// step, two K steps per tile, A's and B's fragments of both steps in one
/// ds_read_b128 each (no narrower fragment reads); the scaled epilogue
/// converts to f16 (gfx950: two at a time; scaled_bf8: bf16).
// NOTES: .group_segment_fixed_size: 4096
// NOTES: .name: nt_fp8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: nt_bf8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: nn_fp8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: tn_bf8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: scaled_fp8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: scaled_bf8
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// CDNA-LABEL: <nt_fp8>:
// CDNA-NOT: ds_read_b64
// CDNA-COUNT-3: ds_read_b128
// CDNA-NOT: ds_read_b64
// CDNA-COUNT-4: v_mfma_f32_32x32x16_fp8_fp8
// CDNA-LABEL: <nt_bf8>:
// CDNA-COUNT-4: v_mfma_f32_32x32x16_bf8_bf8
// CDNA-LABEL: <nn_fp8>:
// CDNA: ds_read_b128
// CDNA-COUNT-4: v_mfma_f32_32x32x16_fp8_fp8
// CDNA-LABEL: <tn_bf8>:
// CDNA: ds_read_b128
// CDNA-COUNT-4: v_mfma_f32_32x32x16_bf8_bf8
// CDNA-LABEL: <scaled_fp8>:
// CDNA-COUNT-4: v_mfma_f32_32x32x16_fp8_fp8
// CDNA: v_cvt_{{(pk_)?}}f16_f32
// CDNA-LABEL: <scaled_bf8>:
// CDNA-COUNT-4: v_mfma_f32_32x32x16_bf8_bf8

/// Per K tile, each warp's 32 x 32 wave tile is 2 x 4 instructions: 8 in
/// each of the 3 unrolled stages of the cp.async loop and 8 in the register
/// loop (unaligned rows), 32 per kernel; nn_fp8 and tn_bf8 transpose an
/// operand in registers, so they have the register loop only: 8.
// PTX: .version 8.4
// PTX-LABEL: .entry nt_fp8(
// PTX-COUNT-32: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX-LABEL: .entry nt_bf8(
// PTX-COUNT-32: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
// PTX-LABEL: .entry nn_fp8(
// PTX-COUNT-8: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .entry tn_bf8(
// PTX-COUNT-8: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .entry scaled_fp8(
// PTX-COUNT-32: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: cvt.rn.f16x2.f32
// PTX-LABEL: .entry scaled_bf8(
// PTX-COUNT-32: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
// PTX: cvt.rn.bf16x2.f32

/// The operands that are not K-major (nn_fp8's B, tn_bf8's A and B) reach
/// their K-fastest buffers transposed in registers; the remark says so.
// REMARK: remark: tile load of B (into registers, transposed there (its global rows run across its buffer's), then its workgroup buffer, one K tile ahead; mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 on 32x32 wave tiles (2x2 waves)) of 32x64xf8E4M3FN
// REMARK: remark: tile load of A (into registers, transposed there (its global rows run across its buffer's), then its workgroup buffer, one K tile ahead; mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 on 32x32 wave tiles (2x2 waves)) of 32x64xf8E5M2
// REMARK: remark: tile load of B (into registers, transposed there (its global rows run across its buffer's), then its workgroup buffer, one K tile ahead; mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 on 32x32 wave tiles (2x2 waves)) of 32x64xf8E5M2

/// sm_90a: one warpgroup's m64n64k32 per K tile; the K-major tiles (nt,
/// scaled) as TMA boxes (the ring's prologue issues two stages, A and B
/// each), the others (nn's B, tn's A and B) transposed in registers.
// SM90A-LABEL: .entry nt_fp8(
// SM90A-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.tile
// SM90A: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SM90A-LABEL: .entry nt_bf8(
// SM90A: cp.async.bulk.tensor.2d.shared::cluster.global.tile
// SM90A: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2
// SM90A-LABEL: .entry nn_fp8(
// SM90A-NOT: cp.async.bulk.tensor
// SM90A: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SM90A-LABEL: .entry tn_bf8(
// SM90A-NOT: cp.async.bulk.tensor
// SM90A: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2
// SM90A-LABEL: .entry scaled_fp8(
// SM90A: cp.async.bulk.tensor.2d.shared::cluster.global.tile
// SM90A: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SM90A-NOT: mma.sync.aligned
// REMARK90A: remark: tile load of B (into registers, transposed there (its global rows run across its buffer's), then its workgroup buffer, one K tile ahead; wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 on 64x64 wave tiles (1x1 waves)) of 32x64xf8E4M3FN
// REMARK90A: remark: tile load of A (into registers, transposed there (its global rows run across its buffer's), then its workgroup buffer, one K tile ahead; wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2 on 64x64 wave tiles (1x1 waves)) of 32x64xf8E5M2

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
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!bf8> -> !layout.partition_view<?x?x!bf8, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
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

}
