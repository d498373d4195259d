// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory=chip=gfx942 -verify-diagnostics
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX1100
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory=chip=sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

/// FP8 tile contractions that -layout-tile-shared-memory cannot distribute
/// onto matrix instructions: each gets a diagnostic at the op. On gfx942
/// (-verify-diagnostics) the OCP encodings (its MFMAs read fp8 / bf8 as the
/// FNUZ ones) and a mix of two encodings; on gfx1100 and sm_80, which have
/// no FP8 matrix instruction (the FP8 mma.sync needs sm_89), the first.
// GFX1100: error: 'vector.contract' op in a tile program: gfx1100 has no matrix instruction with 'f8E4M3FN' inputs; 8-bit float tiles multiply on gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA), gfx950 (f8E4M3FN, f8E5M2 MFMA), sm_89 ... sm_90 (f8E4M3FN, f8E5M2 mma.sync), sm_90a (f8E4M3FN, f8E5M2 mma.sync, wgmma)
// SM80: error: 'vector.contract' op in a tile program: sm_80 has no matrix instruction with 'f8E4M3FN' inputs; 8-bit float tiles multiply on gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA), gfx950 (f8E4M3FN, f8E5M2 MFMA), sm_89 ... sm_90 (f8E4M3FN, f8E5M2 mma.sync), sm_90a (f8E4M3FN, f8E5M2 mma.sync, wgmma)

// -----

/// The OCP E4M3 on gfx942, whose fp8 MFMA reads E4M3FNUZ.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @ocp_on_gfx942(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 64]>
    %pb = layout.partition %vb tile [64, 64] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [64, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 64]> -> vector<64x64xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf8E4M3FN, tile = [64, 64]> -> vector<64x64xf8E4M3FN>
      // expected-error @+1 {{gfx942 has no matrix instruction with 'f8E4M3FN' inputs; 8-bit float tiles multiply on gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA)}}
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x64xf8E4M3FN>, vector<64x64xf8E4M3FN> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// E4M3 A times E5M2 B: vector.contract's own verifier refuses two
/// element types (and no instruction of the table mixes encodings).
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @mixed(%A: memref<?x?xf8E4M3FNUZ>, %B: memref<?x?xf8E5M2FNUZ>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FNUZ> -> !layout.tensor_view<?x?xf8E4M3FNUZ>
    %vb = layout.view %B : memref<?x?xf8E5M2FNUZ> -> !layout.tensor_view<?x?xf8E5M2FNUZ>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 64] : !layout.tensor_view<?x?xf8E4M3FNUZ> -> !layout.partition_view<?x?xf8E4M3FNUZ, tile = [64, 64]>
    %pb = layout.partition %vb tile [64, 64] : !layout.tensor_view<?x?xf8E5M2FNUZ> -> !layout.partition_view<?x?xf8E5M2FNUZ, tile = [64, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf8E4M3FNUZ, tile = [64, 64]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf8E4M3FNUZ, tile = [64, 64]> -> vector<64x64xf8E4M3FNUZ>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf8E5M2FNUZ, tile = [64, 64]> -> vector<64x64xf8E5M2FNUZ>
      // expected-error @+1 {{failed to verify that lhs and rhs have same element type}}
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x64xf8E4M3FNUZ>, vector<64x64xf8E5M2FNUZ> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}
