// RUN: layout-opt %s -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// nvgpu.ldmatrix on the CPU: -layout-test-gpu-to-loops runs it once per
/// warp from the PTX ISA's description of ldmatrix (matrix j's rows are the
/// 8 consecutive elements at the addresses of lanes 8j .. 8j + 7; lane l
/// gets row l/4, columns 2(l%4), 2(l%4)+1 of matrix j in register j, or
/// the transposed element pair with .trans), and nvgpu.mma.sync from the
/// register layouts of the matrix-instruction table. The kernel stages A
/// (16x32, M x K) and B (32x16, K x N) in workgroup memory, each both ways
/// round, loads the fragments with ldmatrix in a block-uniform K loop, and
/// multiplies them; each of its two warps computes 8 columns of D three
/// times:
///  1. A .x4 from M x K (lane address (m, k) = (l % 16, 8 (l / 16))),
///     B .x2 from N x K ((n, k) = (l % 8, 8 ((l / 8) % 2)));
///  2. A as in 1, B .x2.trans from K x N ((k, n) = (l % 16, 0));
///  3. A .x4.trans from K x M ((k, m) = (l % 8 + 8 (l / 16),
///     8 ((l / 8) % 2))), B as two .x1 from N x K ((n, k) = (l % 8, 0) and
///     (l % 8, 8)).
/// The host compares D with a reference matmul (small integers: exact).
/// A row address or an ldmatrix semantics that disagrees with the mma.sync
/// fragments makes the product wrong.

// CHECK: ldmatrix x4 A (M x K), x2 B (N x K): 0 mismatches of 256
// CHECK: ldmatrix x4 A (M x K), x2.trans B (K x N): 0 mismatches of 256
// CHECK: ldmatrix x4.trans A (K x M), 2 x1 B (N x K): 0 mismatches of 256

#wg = #gpu.address_space<workgroup>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @ldmatrix_mma(%a: memref<16x32xf16>, %b: memref<32x16xf16>,
                         %d1: memref<16x16xf32>, %d2: memref<16x16xf32>,
                         %d3: memref<16x16xf32>)
      workgroup(%sa: memref<16x32xf16, #wg>, %sat: memref<32x16xf16, #wg>,
                %sbt: memref<16x32xf16, #wg>, %sb: memref<32x16xf16, #wg>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %tid = gpu.thread_id x
    // Staging: A as M x K (%sa) and K x M (%sat), B as K x N (%sb) and
    // N x K (%sbt).
    scf.for %e = %tid to %c512 step %c64 {
      %i = arith.divui %e, %c32 : index
      %k = arith.remui %e, %c32 : index
      %x = memref.load %a[%i, %k] : memref<16x32xf16>
      memref.store %x, %sa[%i, %k] : memref<16x32xf16, #wg>
      memref.store %x, %sat[%k, %i] : memref<32x16xf16, #wg>
      %kb = arith.divui %e, %c16 : index
      %n = arith.remui %e, %c16 : index
      %y = memref.load %b[%kb, %n] : memref<32x16xf16>
      memref.store %y, %sb[%kb, %n] : memref<32x16xf16, #wg>
      memref.store %y, %sbt[%n, %kb] : memref<16x32xf16, #wg>
    }
    gpu.barrier
    %w = arith.divui %tid, %c32 : index
    %l = arith.remui %tid, %c32 : index
    %n0 = arith.muli %w, %c8 : index
    %l8 = arith.remui %l, %c8 : index
    %l16 = arith.remui %l, %c16 : index
    %h16 = arith.divui %l, %c16 : index
    %h8 = arith.divui %l, %c8 : index
    %h8m2 = arith.remui %h8, %c2 : index
    %col8 = arith.muli %h16, %c8 : index   // 8 (l / 16)
    %kb8 = arith.muli %h8m2, %c8 : index   // 8 ((l / 8) % 2)
    %n = arith.addi %n0, %l8 : index       // n0 + l % 8
    %kt = arith.addi %l8, %col8 : index    // l % 8 + 8 (l / 16)
    %z = arith.constant dense<0.0> : vector<2x2xf32>
    %zb = arith.constant dense<0.0> : vector<2x2xf16>
    %r:3 = scf.for %k0 = %c0 to %c32 step %c16
        iter_args(%acc1 = %z, %acc2 = %z, %acc3 = %z)
        -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
      // 1. A .x4 from M x K; B .x2 from N x K.
      %ka = arith.addi %k0, %col8 : index
      %fa = nvgpu.ldmatrix %sa[%l16, %ka] {numTiles = 4 : i32, transpose = false}
          : memref<16x32xf16, #wg> -> vector<4x2xf16>
      %kb = arith.addi %k0, %kb8 : index
      %fb1 = nvgpu.ldmatrix %sbt[%n, %kb] {numTiles = 2 : i32, transpose = false}
          : memref<16x32xf16, #wg> -> vector<2x2xf16>
      %e1 = nvgpu.mma.sync (%fa, %fb1, %acc1) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      // 2. B .x2.trans from K x N.
      %kr = arith.addi %k0, %l16 : index
      %fb2 = nvgpu.ldmatrix %sb[%kr, %n0] {numTiles = 2 : i32, transpose = true}
          : memref<32x16xf16, #wg> -> vector<2x2xf16>
      %e2 = nvgpu.mma.sync (%fa, %fb2, %acc2) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      // 3. A .x4.trans from K x M; B as two .x1 from N x K.
      %kat = arith.addi %k0, %kt : index
      %fat = nvgpu.ldmatrix %sat[%kat, %kb8] {numTiles = 4 : i32, transpose = true}
          : memref<32x16xf16, #wg> -> vector<4x2xf16>
      %k8 = arith.addi %k0, %c8 : index
      %lo = nvgpu.ldmatrix %sbt[%n, %k0] {numTiles = 1 : i32, transpose = false}
          : memref<16x32xf16, #wg> -> vector<1x2xf16>
      %hi = nvgpu.ldmatrix %sbt[%n, %k8] {numTiles = 1 : i32, transpose = false}
          : memref<16x32xf16, #wg> -> vector<1x2xf16>
      %lo2 = vector.extract %lo[0] : vector<2xf16> from vector<1x2xf16>
      %hi2 = vector.extract %hi[0] : vector<2xf16> from vector<1x2xf16>
      %fb3a = vector.insert %lo2, %zb [0] : vector<2xf16> into vector<2x2xf16>
      %fb3 = vector.insert %hi2, %fb3a [1] : vector<2xf16> into vector<2x2xf16>
      %e3 = nvgpu.mma.sync (%fat, %fb3, %acc3) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %e1, %e2, %e3 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
    }
    // D's fragment [PTX "Matrix Fragments for mma.m16n8k16"]: element
    // 2r + v of lane l is row l/4 + 8r, column 2(l%4) + v.
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %t2 = arith.muli %t, %c2 : index
    %col0 = arith.addi %n0, %t2 : index
    %f1 = vector.shape_cast %r#0 : vector<2x2xf32> to vector<4xf32>
    %f2 = vector.shape_cast %r#1 : vector<2x2xf32> to vector<4xf32>
    %f3 = vector.shape_cast %r#2 : vector<2x2xf32> to vector<4xf32>
    scf.for %e = %c0 to %c4 step %c1 {
      %rr = arith.divui %e, %c2 : index
      %v = arith.remui %e, %c2 : index
      %r8 = arith.muli %rr, %c8 : index
      %row = arith.addi %g, %r8 : index
      %col = arith.addi %col0, %v : index
      %x1 = vector.extract %f1[%e] : f32 from vector<4xf32>
      memref.store %x1, %d1[%row, %col] : memref<16x16xf32>
      %x2 = vector.extract %f2[%e] : f32 from vector<4xf32>
      memref.store %x2, %d2[%row, %col] : memref<16x16xf32>
      %x3 = vector.extract %f3[%e] : f32 from vector<4xf32>
      memref.store %x3, %d3[%row, %col] : memref<16x16xf32>
    }
    gpu.return
  }
}

func.func private @ldmatrix_mma_host(memref<16x32xf16>, memref<32x16xf16>,
    memref<16x16xf32>, memref<16x16xf32>, memref<16x16xf32>, index, index, index)

/// Small integers: A[i][k] = (7i + 3k) mod 9 - 4, B[k][j] = (5k + 11j) mod 7
/// - 3 (exact in f16 and, summed over K = 32, in f32).
func.func @fill(%a: memref<?x?xf32>, %p: index, %q: index, %m: index,
                %o: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %x = arith.muli %i, %p : index
      %y = arith.muli %j, %q : index
      %s = arith.addi %x, %y : index
      %r = arith.remui %s, %m : index
      %v = arith.subi %r, %o : index
      %n = arith.index_cast %v : index to i64
      %f = arith.sitofp %n : i64 to f32
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @fill_nan(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nan = arith.constant 0x7FC00000 : f32
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      memref.store %nan, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @to_f16(%a: memref<?x?xf32>, %h: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.truncf %v : f32 to f16
      memref.store %t, %h[%i, %j] : memref<?x?xf16>
    }
  }
  return
}

/// Counts the elements of `got` that differ from `want` and prints
/// ": N mismatches of M".
func.func @report(%got: memref<?x?xf32>, %want: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %got, %c0 : memref<?x?xf32>
  %cols = memref.dim %got, %c1 : memref<?x?xf32>
  %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> (index) {
    %r = scf.for %j = %c0 to %cols step %c1 iter_args(%m = %n) -> (index) {
      %x = memref.load %got[%i, %j] : memref<?x?xf32>
      %y = memref.load %want[%i, %j] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %one : index
      scf.yield %m2 : index
    }
    scf.yield %r : index
  }
  %total = arith.muli %rows, %cols : index
  vector.print str ": "
  vector.print %bad : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %total : index
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x32xf32>
  %b = memref.alloc() : memref<32x16xf32>
  %ad = memref.cast %a : memref<16x32xf32> to memref<?x?xf32>
  %bd = memref.cast %b : memref<32x16xf32> to memref<?x?xf32>
  call @fill(%ad, %c7, %c3, %c9, %c4) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill(%bd, %c5, %c11, %c7, %c3) : (memref<?x?xf32>, index, index, index, index) -> ()
  %ah = memref.alloc() : memref<16x32xf16>
  %bh = memref.alloc() : memref<32x16xf16>
  %ahd = memref.cast %ah : memref<16x32xf16> to memref<?x?xf16>
  %bhd = memref.cast %bh : memref<32x16xf16> to memref<?x?xf16>
  call @to_f16(%ad, %ahd) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  call @to_f16(%bd, %bhd) : (memref<?x?xf32>, memref<?x?xf16>) -> ()

  // The reference D = A * B.
  %want = memref.alloc() : memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<16x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x16xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %want[%i, %j] : memref<16x16xf32>
    }
  }
  %wantd = memref.cast %want : memref<16x16xf32> to memref<?x?xf32>

  // D1 .. D3 start as NaN: an element the kernel does not write mismatches.
  %d1 = memref.alloc() : memref<16x16xf32>
  %d2 = memref.alloc() : memref<16x16xf32>
  %d3 = memref.alloc() : memref<16x16xf32>
  %d1d = memref.cast %d1 : memref<16x16xf32> to memref<?x?xf32>
  %d2d = memref.cast %d2 : memref<16x16xf32> to memref<?x?xf32>
  %d3d = memref.cast %d3 : memref<16x16xf32> to memref<?x?xf32>
  call @fill_nan(%d1d) : (memref<?x?xf32>) -> ()
  call @fill_nan(%d2d) : (memref<?x?xf32>) -> ()
  call @fill_nan(%d3d) : (memref<?x?xf32>) -> ()
  call @ldmatrix_mma_host(%ah, %bh, %d1, %d2, %d3, %c1, %c1, %c1)
      : (memref<16x32xf16>, memref<32x16xf16>, memref<16x16xf32>,
         memref<16x16xf32>, memref<16x16xf32>, index, index, index) -> ()
  vector.print str "ldmatrix x4 A (M x K), x2 B (N x K)"
  call @report(%d1d, %wantd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  vector.print str "ldmatrix x4 A (M x K), x2.trans B (K x N)"
  call @report(%d2d, %wantd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  vector.print str "ldmatrix x4.trans A (K x M), 2 x1 B (N x K)"
  call @report(%d3d, %wantd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
}
