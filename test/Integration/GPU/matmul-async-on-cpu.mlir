// RUN: layout-opt %s -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// The sm_90 K loop of asynchronous copies (cp.async into 3 LDS stages; 2
/// with layout.pipeline_stages; unrolled by the stages, or with computed
/// stage indices when the loop body holds other ops), versioned on the
/// operands' alignment: rows padded to multiples of 8 elements take it,
/// with zero-filled partial vectors at the K and N edges (K = 33: one
/// element of the last vector; N = 45: five), rows of odd length take the
/// register-prefetch loop. -layout-test-gpu-to-loops runs the copies
/// synchronously (it checks what is copied where, not the waits) and
/// emulates mma.sync and ldmatrix lane by lane; every element of C is
/// compared with a reference matmul on the host. Operands are subviews
/// starting at element (1, 8) of their allocations (a dynamic offset).

// CHECK: nn_f16 pad 8 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16 pad 8 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16 pad 1 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16 pad 1 130x70x200: 0 mismatches of 9100
// CHECK: nt_f16 pad 8 67x45x33: 0 mismatches of 3015
// CHECK: nt_f16 pad 8 130x70x200: 0 mismatches of 9100
// CHECK: nt_f16 pad 1 67x45x33: 0 mismatches of 3015
// CHECK: nt_f16 pad 1 130x70x200: 0 mismatches of 9100
// CHECK: nn_bf16 pad 8 67x45x33: 0 mismatches of 3015
// CHECK: nn_bf16 pad 8 130x70x200: 0 mismatches of 9100
// CHECK: nn_bf16 pad 1 67x45x33: 0 mismatches of 3015
// CHECK: nn_bf16 pad 1 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_s2 pad 8 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_s2 pad 8 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_s2 pad 1 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_s2 pad 1 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_generic pad 8 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_generic pad 8 130x70x200: 0 mismatches of 9100
// CHECK: nn_f16_generic pad 1 67x45x33: 0 mismatches of 3015
// CHECK: nn_f16_generic pad 1 130x70x200: 0 mismatches of 9100

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @nn_f16(%A: memref<?x?xf16, strided<[?, 1], offset: ?>>, %B: memref<?x?xf16, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xf16>, vector<16x32xf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }

  gpu.func @nt_f16(%A: memref<?x?xf16, strided<[?, 1], offset: ?>>, %B: memref<?x?xf16, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xf16>, vector<32x16xf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }

  gpu.func @nn_bf16(%A: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %B: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xbf16>
    %vb = layout.view %B : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xbf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xbf16> -> !layout.partition_view<?x?xbf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xbf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xbf16, tile = [32, 16]> -> vector<32x16xbf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xbf16, tile = [16, 32]> -> vector<16x32xbf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xbf16>, vector<16x32xbf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }

  gpu.func @nn_f16_s2(%A: memref<?x?xf16, strided<[?, 1], offset: ?>>, %B: memref<?x?xf16, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, layout.pipeline_stages = 2 : i64} %ta, %tb, %s
         : vector<32x16xf16>, vector<16x32xf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }

  gpu.func @nn_f16_generic(%A: memref<?x?xf16, strided<[?, 1], offset: ?>>, %B: memref<?x?xf16, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vb = layout.view %B : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !layout.tensor_view<?x?xf16>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [32, 16] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 16]>
    %pb = layout.partition %vb tile [16, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [16, 32]>
    %pc = layout.partition %vc tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?xf16, tile = [32, 16]>
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<32x32xf32>) {
      %unused = arith.addi %kt, %c1 : index
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?xf16, tile = [32, 16]> -> vector<32x16xf16>
      %tb = layout.load %pb[%kt, %bn] masked : !layout.partition_view<?x?xf16, tile = [16, 32]> -> vector<16x32xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<32x16xf16>, vector<16x32xf16> into vector<32x32xf32>
      scf.yield %r : vector<32x32xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<32x32xf32>, !layout.partition_view<?x?xf32, tile = [32, 32]>
    gpu.return
  }

}

func.func private @nn_f16_host(memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index)
func.func private @nt_f16_host(memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index)
func.func private @nn_bf16_host(memref<?x?xbf16, strided<[?, 1], offset: ?>>, memref<?x?xbf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index)
func.func private @nn_f16_s2_host(memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index)
func.func private @nn_f16_generic_host(memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index)

func.func @a_value(%i: index, %k: index) -> f32 {
  %c131 = arith.constant 131 : index
  %c31 = arith.constant 31 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c4 = arith.constant 4 : index
  %x = arith.muli %i, %c131 : index
  %y = arith.muli %k, %c31 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c7 : index
  %s0 = arith.addi %x, %y : index
  %s = arith.addi %s0, %q : index
  %r = arith.remui %s, %c9 : index
  %n = arith.index_cast %r : index to i64
  %n4 = arith.constant 4 : i64
  %v = arith.subi %n, %n4 : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
func.func @b_value(%k: index, %j: index) -> f32 {
  %c29 = arith.constant 29 : index
  %c137 = arith.constant 137 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %x = arith.muli %k, %c29 : index
  %y = arith.muli %j, %c137 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c5 : index
  %s0 = arith.addi %x, %y : index
  %s1 = arith.addi %s0, %q : index
  %s = arith.addi %s1, %c1 : index
  %r = arith.remui %s, %c9 : index
  %n = arith.index_cast %r : index to i64
  %n4 = arith.constant 4 : i64
  %v = arith.subi %n, %n4 : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}


/// Fills A (M x K) and B (K x N, or N x K when %bt).
func.func @fill_f16(%a: memref<?x?xf16, strided<[?, 1], offset: ?>>, %b: memref<?x?xf16, strided<[?, 1], offset: ?>>, %m: index, %n: index, %k: index, %bt: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %v = func.call @a_value(%i, %kk) : (index, index) -> f32
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %a[%i, %kk] : memref<?x?xf16, strided<[?, 1], offset: ?>>
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = func.call @b_value(%kk, %j) : (index, index) -> f32
      %h = arith.truncf %v : f32 to f16
      scf.if %bt {
        memref.store %h, %b[%j, %kk] : memref<?x?xf16, strided<[?, 1], offset: ?>>
      } else {
        memref.store %h, %b[%kk, %j] : memref<?x?xf16, strided<[?, 1], offset: ?>>
      }
    }
  }
  return
}

/// Fills A (M x K) and B (K x N, or N x K when %bt).
func.func @fill_bf16(%a: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %b: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %m: index, %n: index, %k: index, %bt: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %v = func.call @a_value(%i, %kk) : (index, index) -> f32
      %h = arith.truncf %v : f32 to bf16
      memref.store %h, %a[%i, %kk] : memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = func.call @b_value(%kk, %j) : (index, index) -> f32
      %h = arith.truncf %v : f32 to bf16
      scf.if %bt {
        memref.store %h, %b[%j, %kk] : memref<?x?xbf16, strided<[?, 1], offset: ?>>
      } else {
        memref.store %h, %b[%kk, %j] : memref<?x?xbf16, strided<[?, 1], offset: ?>>
      }
    }
  }
  return
}

/// The reference C[i][j] = sum_k A[i][k] * B[k][j] in f32, with the
/// epilogue f16(relu(2 x)) when %epi (returned as f32).
func.func @reference(%i: index, %j: index, %k: index, %epi: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %z) -> (f32) {
    %x = func.call @a_value(%i, %kk) : (index, index) -> f32
    %y = func.call @b_value(%kk, %j) : (index, index) -> f32
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    scf.yield %s : f32
  }
  %r = scf.if %epi -> (f32) {
    %two = arith.constant 2.0 : f32
    %d = arith.mulf %sum, %two : f32
    %m = arith.maximumf %d, %z : f32
    %h = arith.truncf %m : f32 to f16
    %e = arith.extf %h : f16 to f32
    scf.yield %e : f32
  } else {
    scf.yield %sum : f32
  }
  return %r : f32
}

func.func @report(%mismatches: index, %m: index, %n: index, %k: index) {
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  vector.print str ": "
  vector.print %mismatches : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index
  return
}

/// Counts the elements of C that differ from the reference.
func.func @check_f32(%c: memref<?x?xf32>, %m: index, %n: index, %k: index, %epi: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%b0 = %c0) -> (index) {
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%b1 = %b0) -> (index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf32>
      %x = arith.addf %x0, %zero : f32
      %y = func.call @reference(%i, %j, %k, %epi) : (index, index, index, i1) -> f32
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b2 = arith.addi %b1, %one : index
      scf.yield %b2 : index
    }
    scf.yield %r : index
  }
  return %bad : index
}


/// nn_f16 on M x N x K with rows of A and B padded to `%pad`-element
/// multiples plus 8 (so aligned when %pad is 8, and not when it is 1), the
/// operands starting at element (1, 8) of their allocations.
func.func @run_nn_f16(%m: index, %n: index, %k: index, %pad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bt = arith.constant false
  %epi = arith.constant false
  %kr = arith.ceildivui %k, %pad : index
  %kp = arith.muli %kr, %pad : index
  %lda = arith.addi %kp, %c8 : index
  %nr = arith.ceildivui %n, %pad : index
  %np = arith.muli %nr, %pad : index
  %nk = arith.addi %np, %c8 : index
  %ldb = arith.select %bt, %lda, %nk : index
  %brows = arith.select %bt, %n, %k : index
  %bcols = arith.select %bt, %k, %n : index
  %m1 = arith.addi %m, %c1 : index
  %b1 = arith.addi %brows, %c1 : index
  %af = memref.alloc(%m1, %lda) : memref<?x?xf16>
  %bf = memref.alloc(%b1, %ldb) : memref<?x?xf16>
  %a = memref.subview %af[1, 8] [%m, %k] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %b = memref.subview %bf[1, 8] [%brows, %bcols] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %bt) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, index, index, index, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nn_f16_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_f16 pad "
  vector.print %pad : index punctuation <no_punctuation>
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %af : memref<?x?xf16>
  memref.dealloc %bf : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// nt_f16 on M x N x K with rows of A and B padded to `%pad`-element
/// multiples plus 8 (so aligned when %pad is 8, and not when it is 1), the
/// operands starting at element (1, 8) of their allocations.
func.func @run_nt_f16(%m: index, %n: index, %k: index, %pad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bt = arith.constant true
  %epi = arith.constant false
  %kr = arith.ceildivui %k, %pad : index
  %kp = arith.muli %kr, %pad : index
  %lda = arith.addi %kp, %c8 : index
  %nr = arith.ceildivui %n, %pad : index
  %np = arith.muli %nr, %pad : index
  %nk = arith.addi %np, %c8 : index
  %ldb = arith.select %bt, %lda, %nk : index
  %brows = arith.select %bt, %n, %k : index
  %bcols = arith.select %bt, %k, %n : index
  %m1 = arith.addi %m, %c1 : index
  %b1 = arith.addi %brows, %c1 : index
  %af = memref.alloc(%m1, %lda) : memref<?x?xf16>
  %bf = memref.alloc(%b1, %ldb) : memref<?x?xf16>
  %a = memref.subview %af[1, 8] [%m, %k] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %b = memref.subview %bf[1, 8] [%brows, %bcols] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %bt) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, index, index, index, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nt_f16_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nt_f16 pad "
  vector.print %pad : index punctuation <no_punctuation>
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %af : memref<?x?xf16>
  memref.dealloc %bf : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// nn_bf16 on M x N x K with rows of A and B padded to `%pad`-element
/// multiples plus 8 (so aligned when %pad is 8, and not when it is 1), the
/// operands starting at element (1, 8) of their allocations.
func.func @run_nn_bf16(%m: index, %n: index, %k: index, %pad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bt = arith.constant false
  %epi = arith.constant false
  %kr = arith.ceildivui %k, %pad : index
  %kp = arith.muli %kr, %pad : index
  %lda = arith.addi %kp, %c8 : index
  %nr = arith.ceildivui %n, %pad : index
  %np = arith.muli %nr, %pad : index
  %nk = arith.addi %np, %c8 : index
  %ldb = arith.select %bt, %lda, %nk : index
  %brows = arith.select %bt, %n, %k : index
  %bcols = arith.select %bt, %k, %n : index
  %m1 = arith.addi %m, %c1 : index
  %b1 = arith.addi %brows, %c1 : index
  %af = memref.alloc(%m1, %lda) : memref<?x?xbf16>
  %bf = memref.alloc(%b1, %ldb) : memref<?x?xbf16>
  %a = memref.subview %af[1, 8] [%m, %k] [1, 1] : memref<?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %b = memref.subview %bf[1, 8] [%brows, %bcols] [1, 1] : memref<?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_bf16(%a, %b, %m, %n, %k, %bt) : (memref<?x?xbf16, strided<[?, 1], offset: ?>>, memref<?x?xbf16, strided<[?, 1], offset: ?>>, index, index, index, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nn_bf16_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xbf16, strided<[?, 1], offset: ?>>, memref<?x?xbf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_bf16 pad "
  vector.print %pad : index punctuation <no_punctuation>
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %af : memref<?x?xbf16>
  memref.dealloc %bf : memref<?x?xbf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// nn_f16_s2 on M x N x K with rows of A and B padded to `%pad`-element
/// multiples plus 8 (so aligned when %pad is 8, and not when it is 1), the
/// operands starting at element (1, 8) of their allocations.
func.func @run_nn_f16_s2(%m: index, %n: index, %k: index, %pad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bt = arith.constant false
  %epi = arith.constant false
  %kr = arith.ceildivui %k, %pad : index
  %kp = arith.muli %kr, %pad : index
  %lda = arith.addi %kp, %c8 : index
  %nr = arith.ceildivui %n, %pad : index
  %np = arith.muli %nr, %pad : index
  %nk = arith.addi %np, %c8 : index
  %ldb = arith.select %bt, %lda, %nk : index
  %brows = arith.select %bt, %n, %k : index
  %bcols = arith.select %bt, %k, %n : index
  %m1 = arith.addi %m, %c1 : index
  %b1 = arith.addi %brows, %c1 : index
  %af = memref.alloc(%m1, %lda) : memref<?x?xf16>
  %bf = memref.alloc(%b1, %ldb) : memref<?x?xf16>
  %a = memref.subview %af[1, 8] [%m, %k] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %b = memref.subview %bf[1, 8] [%brows, %bcols] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %bt) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, index, index, index, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nn_f16_s2_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_f16_s2 pad "
  vector.print %pad : index punctuation <no_punctuation>
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %af : memref<?x?xf16>
  memref.dealloc %bf : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

/// nn_f16_generic on M x N x K with rows of A and B padded to `%pad`-element
/// multiples plus 8 (so aligned when %pad is 8, and not when it is 1), the
/// operands starting at element (1, 8) of their allocations.
func.func @run_nn_f16_generic(%m: index, %n: index, %k: index, %pad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bt = arith.constant false
  %epi = arith.constant false
  %kr = arith.ceildivui %k, %pad : index
  %kp = arith.muli %kr, %pad : index
  %lda = arith.addi %kp, %c8 : index
  %nr = arith.ceildivui %n, %pad : index
  %np = arith.muli %nr, %pad : index
  %nk = arith.addi %np, %c8 : index
  %ldb = arith.select %bt, %lda, %nk : index
  %brows = arith.select %bt, %n, %k : index
  %bcols = arith.select %bt, %k, %n : index
  %m1 = arith.addi %m, %c1 : index
  %b1 = arith.addi %brows, %c1 : index
  %af = memref.alloc(%m1, %lda) : memref<?x?xf16>
  %bf = memref.alloc(%b1, %ldb) : memref<?x?xf16>
  %a = memref.subview %af[1, 8] [%m, %k] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %b = memref.subview %bf[1, 8] [%brows, %bcols] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill_f16(%a, %b, %m, %n, %k, %bt) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, index, index, index, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nn_f16_generic_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @check_f32(%c, %m, %n, %k, %epi) : (memref<?x?xf32>, index, index, index, i1) -> index
  vector.print str "nn_f16_generic pad "
  vector.print %pad : index punctuation <no_punctuation>
  call @report(%bad, %m, %n, %k) : (index, index, index, index) -> ()
  memref.dealloc %af : memref<?x?xf16>
  memref.dealloc %bf : memref<?x?xf16>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @main() {
  %c33 = arith.constant 33 : index
  %c45 = arith.constant 45 : index
  %c67 = arith.constant 67 : index
  %c70 = arith.constant 70 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  %p8 = arith.constant 8 : index
  %p1 = arith.constant 1 : index
  call @run_nn_f16(%c67, %c45, %c33, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16(%c130, %c70, %c200, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16(%c67, %c45, %c33, %p1) : (index, index, index, index) -> ()
  call @run_nn_f16(%c130, %c70, %c200, %p1) : (index, index, index, index) -> ()
  call @run_nt_f16(%c67, %c45, %c33, %p8) : (index, index, index, index) -> ()
  call @run_nt_f16(%c130, %c70, %c200, %p8) : (index, index, index, index) -> ()
  call @run_nt_f16(%c67, %c45, %c33, %p1) : (index, index, index, index) -> ()
  call @run_nt_f16(%c130, %c70, %c200, %p1) : (index, index, index, index) -> ()
  call @run_nn_bf16(%c67, %c45, %c33, %p8) : (index, index, index, index) -> ()
  call @run_nn_bf16(%c130, %c70, %c200, %p8) : (index, index, index, index) -> ()
  call @run_nn_bf16(%c67, %c45, %c33, %p1) : (index, index, index, index) -> ()
  call @run_nn_bf16(%c130, %c70, %c200, %p1) : (index, index, index, index) -> ()
  call @run_nn_f16_s2(%c67, %c45, %c33, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16_s2(%c130, %c70, %c200, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16_s2(%c67, %c45, %c33, %p1) : (index, index, index, index) -> ()
  call @run_nn_f16_s2(%c130, %c70, %c200, %p1) : (index, index, index, index) -> ()
  call @run_nn_f16_generic(%c67, %c45, %c33, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16_generic(%c130, %c70, %c200, %p8) : (index, index, index, index) -> ()
  call @run_nn_f16_generic(%c67, %c45, %c33, %p1) : (index, index, index, index) -> ()
  call @run_nn_f16_generic(%c130, %c70, %c200, %p1) : (index, index, index, index) -> ()
  return
}
}

