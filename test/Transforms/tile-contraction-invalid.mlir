// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory=chip=gfx942 -verify-diagnostics
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory=chip=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

/// Tile contractions that -layout-tile-shared-memory cannot distribute onto
/// matrix instructions: each gets a diagnostic at the op, never invalid IR.
// NOCHIP: error: 'vector.contract' op in a tile program needs the target: run -layout-tile-shared-memory with chip=... (-layout-to-rocdl and -layout-to-nvvm pass theirs)
// SM75: error: 'vector.contract' op in a tile program: sm_75 has no matrix instruction with 'f16' inputs and an f32 accumulator

// -----

/// C transposed: not a matmul's maps.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @not_matmul(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{must be a matrix multiply: maps (m, k) or (k, m), (k, n) or (n, k), (m, n), iterators parallel, parallel, reduction, kind add}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #nm], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// An f16 accumulator.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @f16_acc(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf16>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf16>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{the accumulator must be a vector of f32 (the matrix instructions accumulate in f32), got 'vector<64x64xf16>'}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf16>
      scf.yield %r : vector<64x64xf16>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf16>, !layout.partition_view<?x?xf16, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// f64 inputs: no matrix instruction here takes them.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @f64_inputs(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf64> -> !layout.tensor_view<?x?xf64>
    %vb = layout.view %B : memref<?x?xf64> -> !layout.tensor_view<?x?xf64>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf64> -> !layout.partition_view<?x?xf64, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf64> -> !layout.partition_view<?x?xf64, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf64, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf64, tile = [64, 32]> -> vector<64x32xf64>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf64, tile = [32, 64]> -> vector<32x64xf64>
      // expected-error @+1 {{A and B must have one element type, f16, bf16, f32 or an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ), got 'f64' and 'f64'}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf64>, vector<32x64xf64> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// A block tile the waves cannot divide into 32x32 or 16x16 wave tiles.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @indivisible(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [40, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [40, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [40, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [40, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [40, 32]>
    %zero = arith.constant dense<0.0> : vector<40x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<40x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [40, 32]> -> vector<40x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{the block tile 40x64x32 (BM x BN x BK) cannot be divided among the 256 threads' waves: each wave tile must be a multiple of the instruction's M x N and BK of its K, for one of v_mfma_f32_32x32x8_f16 (32x32x8, wave 64) v_mfma_f32_16x16x16_f16 (16x16x16, wave 64)}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<40x32xf16>, vector<32x64xf16> into vector<40x64xf32>
      scf.yield %r : vector<40x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<40x64xf32>, !layout.partition_view<?x?xf32, tile = [40, 64]>
    gpu.return
  }
}
}

// -----

/// A wave tile attribute that does not fit.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @bad_wave_tile(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{into wave tiles of 16x16}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s {layout.wave_tile = array<i64: 16, 16>}
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// An A operand that is not a cooperative load.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @per_thread_lhs(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %tid = gpu.thread_id x
      %ta = layout.load %pa[%tid, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      // expected-error @+1 {{its A must be a cooperative, non-atomic layout.load in the loop body, used only here}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// A loop bound that depends on the thread.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @thread_bound(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %ub = gpu.thread_id x
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @+1 {{around a tile contraction must have block-uniform bounds}}
    %acc = scf.for %kt = %c0 to %ub step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// An epilogue that is not elementwise.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @transposed_epilogue(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %tr = vector.transpose %acc, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    // expected-error @+1 {{after a tile contraction: the stored tile must be computed from the accumulated tile by elementwise ops, splat constants, broadcasts of scalars and broadcast bias rows or columns, each used once}}
    layout.store %tr, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// A tile index computed in the loop body: the pipeline cannot load the next tile ahead.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @computed_index(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %kk = arith.addi %kt, %c0 : index
      // expected-error @+1 {{in a tile contraction: its tile indices must be the loop's induction variable or defined outside the loop (the software pipeline loads the next K tile one step ahead)}}
      %ta = layout.load %pa[%bm, %kk] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s 
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// Several pipeline stages need asynchronous copies, which CDNA3 lacks.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @stages_on_gfx942(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) kernel
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
      // expected-error @+1 {{in a tile program: layout.pipeline_stages = 2 needs asynchronous copies, but gfx942 has no asynchronous copies into workgroup memory (1 stage: register prefetch)}}
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 2 : i64} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// A broadcast epilogue operand that is not a bias row or column loaded by
/// a layout.load (here a row built from two copies of a 32-element tile).
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @bias_in_loop(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %R: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vr = layout.view %R : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [64, 32]>
    %pb = layout.partition %vb tile [32, 64] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 64]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %pr = layout.partition %vr tile [32] : !layout.tensor_view<?xf32> -> !layout.partition_view<?xf32, tile = [32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [64, 32]> -> vector<64x32xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [32, 64]> -> vector<32x64xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32xf16>, vector<32x64xf16> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %row = layout.load %pr[%bn] masked : !layout.partition_view<?xf32, tile = [32]> -> vector<32xf32>
    %half = vector.broadcast %row : vector<32xf32> to vector<2x32xf32>
    %wide = vector.shape_cast %half : vector<2x32xf32> to vector<64xf32>
    // expected-error @+1 {{after a tile contraction: a broadcast tile must be a bias row (N or 1 x N elements) or column (M x 1) loaded once with a cooperative, non-atomic layout.load next to the loop and used once}}
    %rows = vector.broadcast %wide : vector<64xf32> to vector<64x64xf32>
    %sum = arith.addf %acc, %rows : vector<64x64xf32>
    layout.store %sum, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}
}

// -----

/// A convolution whose A view goes through a descriptor the pass cannot
/// trace (chosen at run time).
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @conv_untraced(%in: memref<1512xf16>, %wt: memref<10x108xf16>, %out: memref<40x10xf32>, %c: i1) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = layout.packed [40, 108] : !layout.desc<40x108>
    %y = layout.naive [40, 108] strides [1, 40] : !layout.desc<40x108>
    %d = arith.select %c, %x, %y : !layout.desc<40x108>
    %va = layout.view %in by %d : memref<1512xf16>, !layout.desc<40x108> -> !layout.tensor_view<40x108xf16>
    %vb = layout.view %wt : memref<10x108xf16> -> !layout.tensor_view<10x108xf16>
    %vc = layout.view %out : memref<40x10xf32> -> !layout.tensor_view<40x10xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<40x108xf16> -> !layout.partition_view<40x108xf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<10x108xf16> -> !layout.partition_view<10x108xf16, tile = [32, 16]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<40x10xf32> -> !layout.partition_view<40x10xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %t:2 = layout.index_space %pa : !layout.partition_view<40x108xf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %t#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      // expected-error @+1 {{cannot be distributed: the descriptor's origin cannot be traced: it is produced by 'arith.select', not by a layout.naive / layout.packed / layout.aligned chain}}
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<40x108xf16, tile = [32, 16]> -> vector<32x16xf16>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<10x108xf16, tile = [32, 16]> -> vector<32x16xf16>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xf16>, vector<32x16xf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<40x10xf32, tile = [32, 32]>
    gpu.return
  }
}
}
