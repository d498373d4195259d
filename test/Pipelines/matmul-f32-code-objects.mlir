// f32 GEMM tile programs (Inputs/matmul-f32-on-cpu.mlir's kernels)
// distributed by -layout-tile-shared-memory{chip=...} and compiled: the
// chip's f32-input matrix instruction in the code object (tf32 mma.sync
// after cvt.rna.tf32.f32 on sm_90, xf32 MFMA on gfx942, the f32 MFMA on
// gfx90a and gfx950); and the refusal, naming the chips that
// have one, on chips that have none.

// RUN: rm -rf %t/gfx942 && layout-opt %s -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/kernels.gfx942.hsaco | FileCheck --check-prefix=GFX942 %s
// RUN: rm -rf %t/gfx90a && layout-opt %s -layout-to-rocdl=chip=gfx90a -layout-dump-binaries=dir=%t/gfx90a -o /dev/null 2>/dev/null \
// RUN:   && llvm-objdump -d --mcpu=gfx90a %t/gfx90a/kernels.gfx90a.hsaco | FileCheck --check-prefix=GFX90A %s
// RUN: rm -rf %t/gfx950 && layout-opt %s -layout-to-rocdl=chip=gfx950 -layout-dump-binaries=dir=%t/gfx950 -o /dev/null 2>/dev/null \
// RUN:   && llvm-objdump -d --mcpu=gfx950 %t/gfx950/kernels.gfx950.hsaco | FileCheck --check-prefix=GFX950 %s
// RUN: rm -rf %t/sm_90 && layout-opt %s -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/kernels.sm_90.ptx
// RUN: layout-opt %s -layout-tile-shared-memory=chip=sm_90a | FileCheck --check-prefix=SM90A %s
// RUN: not layout-opt %s -layout-tile-shared-memory=chip=gfx1100 -o /dev/null 2>&1 | FileCheck --check-prefix=NONE -DCHIP=gfx1100 %s
// RUN: not layout-opt %s -layout-tile-shared-memory=chip=sm_75 -o /dev/null 2>&1 | FileCheck --check-prefix=NONE -DCHIP=sm_75 %s

// GFX942-COUNT-2: v_mfma_f32_32x32x4_xf32
// GFX90A-COUNT-2: v_mfma_f32_32x32x2f32
// GFX950-COUNT-2: v_mfma_f32_32x32x2_f32

/// Each A and B element goes through cvt.rna.tf32.f32 before the mma.
// PTX: cvt.rna.tf32.f32
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

/// sm_90a: tf32 mma.sync too (the table has no tf32 wgmma).
// SM90A: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// SM90A: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>

// NONE: error: 'vector.contract' op in a tile program: [[CHIP]] has no matrix instruction with f32 inputs; f32 tiles multiply on gfx90a (f32 MFMA), gfx940, gfx941, gfx942 (xf32, f32 MFMA), gfx950 (f32 MFMA), sm_80 ... sm_90 (tf32 mma.sync), sm_90a (tf32 mma.sync) (or convert the tiles to f16 or bf16 with arith.truncf)

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @nn_f32(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vb = layout.view %B : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [16, 32]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf32, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf32, tile = [32, 16]> -> vector<32x16xf32>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf32, tile = [16, 32]> -> vector<16x32xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xf32>, vector<16x32xf32> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }
  gpu.func @tt_f32(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vb = layout.view %B : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [16, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [16, 32]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 16]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf32, tile = [16, 32]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#0 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%kt, %bm] masked : !layout.partition_view<?x?xf32, tile = [16, 32]> -> vector<16x32xf32>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf32, tile = [32, 16]> -> vector<32x16xf32>
      %r = vector.contract {indexing_maps = [#km, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<16x32xf32>, vector<32x16xf32> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }
}
}
