// RUN: layout-opt %s -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Matrix instructions run on the CPU by -layout-test-gpu-to-loops, which
/// emulates each one lane by lane from the register layouts of the
/// matrix-instruction table (include/layout/Evaluator/MatrixInstructions.h).
/// Each kernel below gathers its fragments with the ISA document's formulas
/// written out here independently (AMD's matrix instruction calculator for
/// MFMA and WMMA, PTX ISA "Matrix Fragments for mma.m16n8k16" for
/// mma.sync), issues one instruction per wave, and scatters D back with the
/// same formulas. The host compares D with a reference matmul
/// (C + A * B in f32, plain loops); small integers keep every value exact.
/// A lane layout in the table that disagrees with the ISA makes the
/// product wrong and this test fail.

// CHECK: mfma 32x32x8 f16, 2 waves: 0 mismatches of 2048
// CHECK: mfma 16x16x16 bf16: 0 mismatches of 256
// CHECK: mfma 32x32x16 f16 (gfx950): 0 mismatches of 1024
// CHECK: wmma 16x16x16 f16 (gfx11): 0 mismatches of 256
// CHECK: wmma 16x16x16 f16, lanes 0 and 16 disagree on A: 16 NaN in row 0, 0 elsewhere
// CHECK: mma.sync m16n8k16 f16: 0 mismatches of 128

module attributes {gpu.container_module} {
gpu.module @kernels {
  // v_mfma_f32_32x32x8_f16, two waves: wave w computes columns 32w..32w+31.
  // A: i = l%32, k = 4(l/32) + e; B: k = 4(l/32) + e, j = l%32;
  // C: i = 8(e/4) + 4(l/32) + e%4, j = l%32.
  gpu.func @mfma_32x32x8_f16(%a: memref<32x8xf16>, %b: memref<8x64xf16>,
                             %c: memref<32x64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %w = arith.divui %tid, %c64 : index
    %l = arith.remui %tid, %c64 : index
    %i = arith.remui %l, %c32 : index
    %h = arith.divui %l, %c32 : index
    %k0 = arith.muli %h, %c4 : index
    %n0 = arith.muli %w, %c32 : index
    %j = arith.addi %n0, %i : index
    %za = arith.constant dense<0.0> : vector<4xf16>
    %zc = arith.constant dense<0.0> : vector<16xf32>
    %av = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %a[%i, %k] : memref<32x8xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
      scf.yield %v2 : vector<4xf16>
    }
    %bv = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %b[%k, %j] : memref<8x64xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
      scf.yield %v2 : vector<4xf16>
    }
    %cv = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %zc) -> (vector<16xf32>) {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %k0 : index
      %row = arith.addi %row0, %r : index
      %x = memref.load %c[%row, %j] : memref<32x64xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<16xf32>
      scf.yield %v2 : vector<16xf32>
    }
    %d = amdgpu.mfma 32x32x8 %av * %bv + %cv blgp = none
       : vector<4xf16>, vector<4xf16>, vector<16xf32>
    scf.for %e = %c0 to %c16 step %c1 {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %k0 : index
      %row = arith.addi %row0, %r : index
      %x = vector.extract %d[%e] : f32 from vector<16xf32>
      memref.store %x, %c[%row, %j] : memref<32x64xf32>
    }
    gpu.return
  }

  // v_mfma_f32_16x16x16_bf16 (gfx90a: ..16x16x16bf16_1k):
  // A: i = l%16, k = 4(l/16) + e; B: k = 4(l/16) + e, j = l%16;
  // C: i = 4(l/16) + e, j = l%16.
  gpu.func @mfma_16x16x16_bf16(%a: memref<16x16xbf16>, %b: memref<16x16xbf16>,
                               %c: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %l = gpu.thread_id x
    %i = arith.remui %l, %c16 : index
    %h = arith.divui %l, %c16 : index
    %k0 = arith.muli %h, %c4 : index
    %za = arith.constant dense<0.0> : vector<4xbf16>
    %zc = arith.constant dense<0.0> : vector<4xf32>
    %av = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xbf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %a[%i, %k] : memref<16x16xbf16>
      %v2 = vector.insert %x, %v [%e] : bf16 into vector<4xbf16>
      scf.yield %v2 : vector<4xbf16>
    }
    %bv = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xbf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %b[%k, %i] : memref<16x16xbf16>
      %v2 = vector.insert %x, %v [%e] : bf16 into vector<4xbf16>
      scf.yield %v2 : vector<4xbf16>
    }
    %cv = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zc) -> (vector<4xf32>) {
      %row = arith.addi %k0, %e : index
      %x = memref.load %c[%row, %i] : memref<16x16xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<4xf32>
      scf.yield %v2 : vector<4xf32>
    }
    %d = amdgpu.mfma 16x16x16 %av * %bv + %cv blgp = none
       : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
    scf.for %e = %c0 to %c4 step %c1 {
      %row = arith.addi %k0, %e : index
      %x = vector.extract %d[%e] : f32 from vector<4xf32>
      memref.store %x, %c[%row, %i] : memref<16x16xf32>
    }
    gpu.return
  }

  // gfx950 v_mfma_f32_32x32x16_f16: A: i = l%32, k = 8(l/32) + e;
  // B: k = 8(l/32) + e, j = l%32; C as 32x32x8.
  gpu.func @mfma_32x32x16_f16(%a: memref<32x16xf16>, %b: memref<16x32xf16>,
                              %c: memref<32x32xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %l = gpu.thread_id x
    %i = arith.remui %l, %c32 : index
    %h = arith.divui %l, %c32 : index
    %k0 = arith.muli %h, %c8 : index
    %r0 = arith.muli %h, %c4 : index
    %za = arith.constant dense<0.0> : vector<8xf16>
    %zc = arith.constant dense<0.0> : vector<16xf32>
    %av = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %za) -> (vector<8xf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %a[%i, %k] : memref<32x16xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<8xf16>
      scf.yield %v2 : vector<8xf16>
    }
    %bv = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %za) -> (vector<8xf16>) {
      %k = arith.addi %k0, %e : index
      %x = memref.load %b[%k, %i] : memref<16x32xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<8xf16>
      scf.yield %v2 : vector<8xf16>
    }
    %cv = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %zc) -> (vector<16xf32>) {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %r0 : index
      %row = arith.addi %row0, %r : index
      %x = memref.load %c[%row, %i] : memref<32x32xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<16xf32>
      scf.yield %v2 : vector<16xf32>
    }
    %d = amdgpu.mfma 32x32x16 %av * %bv + %cv blgp = none
       : vector<8xf16>, vector<8xf16>, vector<16xf32>
    scf.for %e = %c0 to %c16 step %c1 {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %r0 : index
      %row = arith.addi %row0, %r : index
      %x = vector.extract %d[%e] : f32 from vector<16xf32>
      memref.store %x, %c[%row, %i] : memref<32x32xf32>
    }
    gpu.return
  }

  // gfx11 v_wmma_f32_16x16x16_f16, wave32: A: i = l%16, k = e (lanes l and
  // l+16 hold copies); B: k = e, j = l%16; C: i = 2e + l/16, j = l%16.
  gpu.func @wmma_16x16x16_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                              %c: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %l = gpu.thread_id x
    %i = arith.remui %l, %c16 : index
    %h = arith.divui %l, %c16 : index
    %za = arith.constant dense<0.0> : vector<16xf16>
    %zc = arith.constant dense<0.0> : vector<8xf32>
    %av = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %za) -> (vector<16xf16>) {
      %x = memref.load %a[%i, %e] : memref<16x16xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<16xf16>
      scf.yield %v2 : vector<16xf16>
    }
    %bv = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %za) -> (vector<16xf16>) {
      %x = memref.load %b[%e, %i] : memref<16x16xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<16xf16>
      scf.yield %v2 : vector<16xf16>
    }
    %cv = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %zc) -> (vector<8xf32>) {
      %e2 = arith.muli %e, %c2 : index
      %row = arith.addi %e2, %h : index
      %x = memref.load %c[%row, %i] : memref<16x16xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<8xf32>
      scf.yield %v2 : vector<8xf32>
    }
    %d = amdgpu.wmma 16x16x16 %av * %bv + %cv
       : vector<16xf16>, vector<16xf16>, vector<8xf32>
    scf.for %e = %c0 to %c8 step %c1 {
      %e2 = arith.muli %e, %c2 : index
      %row = arith.addi %e2, %h : index
      %x = vector.extract %d[%e] : f32 from vector<8xf32>
      memref.store %x, %c[%row, %i] : memref<16x16xf32>
    }
    gpu.return
  }

  // The same, but lane 16 holds row 0 of A plus one, so its copy
  // disagrees with lane 0's: the emulation reads such an element as NaN,
  // which makes row 0 of D NaN.
  gpu.func @wmma_disagreeing_copies(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                              %c: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %l = gpu.thread_id x
    %i = arith.remui %l, %c16 : index
    %h = arith.divui %l, %c16 : index
    %za = arith.constant dense<0.0> : vector<16xf16>
    %zc = arith.constant dense<0.0> : vector<8xf32>
    %one = arith.constant 1.0 : f16
    %is16 = arith.cmpi eq, %l, %c16 : index
    %av = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %za) -> (vector<16xf16>) {
      %x0 = memref.load %a[%i, %e] : memref<16x16xf16>
      %x1 = arith.addf %x0, %one : f16
      %x = arith.select %is16, %x1, %x0 : f16
      %v2 = vector.insert %x, %v [%e] : f16 into vector<16xf16>
      scf.yield %v2 : vector<16xf16>
    }
    %bv = scf.for %e = %c0 to %c16 step %c1 iter_args(%v = %za) -> (vector<16xf16>) {
      %x = memref.load %b[%e, %i] : memref<16x16xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<16xf16>
      scf.yield %v2 : vector<16xf16>
    }
    %cv = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %zc) -> (vector<8xf32>) {
      %e2 = arith.muli %e, %c2 : index
      %row = arith.addi %e2, %h : index
      %x = memref.load %c[%row, %i] : memref<16x16xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<8xf32>
      scf.yield %v2 : vector<8xf32>
    }
    %d = amdgpu.wmma 16x16x16 %av * %bv + %cv
       : vector<16xf16>, vector<16xf16>, vector<8xf32>
    scf.for %e = %c0 to %c8 step %c1 {
      %e2 = arith.muli %e, %c2 : index
      %row = arith.addi %e2, %h : index
      %x = vector.extract %d[%e] : f32 from vector<8xf32>
      memref.store %x, %c[%row, %i] : memref<16x16xf32>
    }
    gpu.return
  }

  // mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (PTX ISA), g = l/4,
  // t = l%4. A vector<4x2xf16>, register r, half v: row g + 8(r%2),
  // col 2t + v + 8(r/2). B vector<2x2xf16>: k = 2t + v + 8r, n = g.
  // C vector<2x2xf32>: row g + 8r, col 2t + v.
  gpu.func @mma_sync_m16n8k16_f16(%a: memref<16x16xf16>, %b: memref<16x8xf16>,
                                  %c: memref<16x8xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %l = gpu.thread_id x
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %t2 = arith.muli %t, %c2 : index
    // Fragments are filled as flat vectors (element 2r + v is register r,
    // half v) and shape-cast to nvgpu's registers x halves.
    %za = arith.constant dense<0.0> : vector<8xf16>
    %zb = arith.constant dense<0.0> : vector<4xf16>
    %zc = arith.constant dense<0.0> : vector<4xf32>
    %af = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %za) -> (vector<8xf16>) {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %rm = arith.remui %r, %c2 : index
      %rd = arith.divui %r, %c2 : index
      %rm8 = arith.muli %rm, %c8 : index
      %rd8 = arith.muli %rd, %c8 : index
      %row = arith.addi %g, %rm8 : index
      %col0 = arith.addi %t2, %rd8 : index
      %col = arith.addi %col0, %h : index
      %x = memref.load %a[%row, %col] : memref<16x16xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<8xf16>
      scf.yield %v2 : vector<8xf16>
    }
    %bf = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zb) -> (vector<4xf16>) {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %r8 = arith.muli %r, %c8 : index
      %k0 = arith.addi %t2, %r8 : index
      %k = arith.addi %k0, %h : index
      %x = memref.load %b[%k, %g] : memref<16x8xf16>
      %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
      scf.yield %v2 : vector<4xf16>
    }
    %cf = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zc) -> (vector<4xf32>) {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %r8 = arith.muli %r, %c8 : index
      %row = arith.addi %g, %r8 : index
      %col = arith.addi %t2, %h : index
      %x = memref.load %c[%row, %col] : memref<16x8xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<4xf32>
      scf.yield %v2 : vector<4xf32>
    }
    %av = vector.shape_cast %af : vector<8xf16> to vector<4x2xf16>
    %bv = vector.shape_cast %bf : vector<4xf16> to vector<2x2xf16>
    %cv = vector.shape_cast %cf : vector<4xf32> to vector<2x2xf32>
    %d = nvgpu.mma.sync (%av, %bv, %cv) {mmaShape = [16, 8, 16]}
       : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %df = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
    scf.for %e = %c0 to %c4 step %c1 {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %r8 = arith.muli %r, %c8 : index
      %row = arith.addi %g, %r8 : index
      %col = arith.addi %t2, %h : index
      %x = vector.extract %df[%e] : f32 from vector<4xf32>
      memref.store %x, %c[%row, %col] : memref<16x8xf32>
    }
    gpu.return
  }
}

func.func private @mfma_32x32x8_f16_host(memref<32x8xf16>, memref<8x64xf16>, memref<32x64xf32>, index, index, index)
func.func private @mfma_16x16x16_bf16_host(memref<16x16xbf16>, memref<16x16xbf16>, memref<16x16xf32>, index, index, index)
func.func private @mfma_32x32x16_f16_host(memref<32x16xf16>, memref<16x32xf16>, memref<32x32xf32>, index, index, index)
func.func private @wmma_16x16x16_f16_host(memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>, index, index, index)
func.func private @wmma_disagreeing_copies_host(memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>, index, index, index)
func.func private @mma_sync_m16n8k16_f16_host(memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf32>, index, index, index)

/// Small integers: A[i][k] = (7i + 3k) mod 9 - 4, B[k][j] = (5k + 11j) mod 7
/// - 3, C[i][j] = (i + 2j) mod 5 - 2 (exact in f16, bf16 and f32).
func.func @value(%i: index, %j: index, %p: index, %q: index, %m: index,
                 %o: index) -> f32 {
  %x = arith.muli %i, %p : index
  %y = arith.muli %j, %q : index
  %s = arith.addi %x, %y : index
  %r = arith.remui %s, %m : index
  %v = arith.subi %r, %o : index
  %n = arith.index_cast %v : index to i64
  %f = arith.sitofp %n : i64 to f32
  return %f : f32
}

/// Fills a (f32) with `value` of (p, q, m, o).
func.func @fill(%a: memref<?x?xf32>, %p: index, %q: index, %m: index,
                %o: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %v = func.call @value(%i, %j, %p, %q, %m, %o)
         : (index, index, index, index, index, index) -> f32
      memref.store %v, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

/// A, B and C (f32, the values the kernels get), and the reference
/// D = C + A * B.
func.func @operands(%m: index, %n: index, %k: index)
    -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%k, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %d = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a, %c7, %c3, %c9, %c4) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill(%b, %c5, %c11, %c7, %c3) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill(%c, %c1, %c2, %c5, %c2) : (memref<?x?xf32>, index, index, index, index) -> ()
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %init = memref.load %c[%i, %j] : memref<?x?xf32>
      %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %kk] : memref<?x?xf32>
        %y = memref.load %b[%kk, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %d[%i, %j] : memref<?x?xf32>
    }
  }
  return %a, %b, %c, %d : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
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

func.func @to_bf16(%a: memref<?x?xf32>, %h: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.truncf %v : f32 to bf16
      memref.store %t, %h[%i, %j] : memref<?x?xbf16>
    }
  }
  return
}

/// Counts the elements of `got` that differ from `want` and prints
/// "<what>: N mismatches of M".
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

/// Prints "<what>: N NaN in row 0, M elsewhere" for `got`.
func.func @report_nan(%got: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %got, %c0 : memref<?x?xf32>
  %cols = memref.dim %got, %c1 : memref<?x?xf32>
  %nan:2 = scf.for %i = %c0 to %rows step %c1 iter_args(%n0 = %c0, %n1 = %c0) -> (index, index) {
    %r:2 = scf.for %j = %c0 to %cols step %c1 iter_args(%m0 = %n0, %m1 = %n1) -> (index, index) {
      %x = memref.load %got[%i, %j] : memref<?x?xf32>
      %isnan = arith.cmpf uno, %x, %x : f32
      %one = arith.select %isnan, %c1, %c0 : index
      %row0 = arith.cmpi eq, %i, %c0 : index
      %in0 = arith.select %row0, %one, %c0 : index
      %out0 = arith.select %row0, %c0, %one : index
      %m0n = arith.addi %m0, %in0 : index
      %m1n = arith.addi %m1, %out0 : index
      scf.yield %m0n, %m1n : index, index
    }
    scf.yield %r#0, %r#1 : index, index
  }
  vector.print str ": "
  vector.print %nan#0 : index punctuation <no_punctuation>
  vector.print str " NaN in row 0, "
  vector.print %nan#1 : index punctuation <no_punctuation>
  vector.print str " elsewhere\n"
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index

  %a1, %b1, %c1m, %d1 = call @operands(%c32, %c64, %c8) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a1h = memref.alloc() : memref<32x8xf16>
  %b1h = memref.alloc() : memref<8x64xf16>
  %a1d = memref.cast %a1h : memref<32x8xf16> to memref<?x?xf16>
  %b1d = memref.cast %b1h : memref<8x64xf16> to memref<?x?xf16>
  call @to_f16(%a1, %a1d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  call @to_f16(%b1, %b1d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  %c1s = memref.cast %c1m : memref<?x?xf32> to memref<32x64xf32>
  call @mfma_32x32x8_f16_host(%a1h, %b1h, %c1s, %c1, %c1, %c1)
      : (memref<32x8xf16>, memref<8x64xf16>, memref<32x64xf32>, index, index, index) -> ()
  vector.print str "mfma 32x32x8 f16, 2 waves"
  call @report(%c1m, %d1) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a2, %b2, %c2m, %d2 = call @operands(%c16, %c16, %c16) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a2h = memref.alloc() : memref<16x16xbf16>
  %b2h = memref.alloc() : memref<16x16xbf16>
  %a2d = memref.cast %a2h : memref<16x16xbf16> to memref<?x?xbf16>
  %b2d = memref.cast %b2h : memref<16x16xbf16> to memref<?x?xbf16>
  call @to_bf16(%a2, %a2d) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  call @to_bf16(%b2, %b2d) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  %c2s = memref.cast %c2m : memref<?x?xf32> to memref<16x16xf32>
  call @mfma_16x16x16_bf16_host(%a2h, %b2h, %c2s, %c1, %c1, %c1)
      : (memref<16x16xbf16>, memref<16x16xbf16>, memref<16x16xf32>, index, index, index) -> ()
  vector.print str "mfma 16x16x16 bf16"
  call @report(%c2m, %d2) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a3, %b3, %c3m, %d3 = call @operands(%c32, %c32, %c16) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a3h = memref.alloc() : memref<32x16xf16>
  %b3h = memref.alloc() : memref<16x32xf16>
  %a3d = memref.cast %a3h : memref<32x16xf16> to memref<?x?xf16>
  %b3d = memref.cast %b3h : memref<16x32xf16> to memref<?x?xf16>
  call @to_f16(%a3, %a3d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  call @to_f16(%b3, %b3d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  %c3s = memref.cast %c3m : memref<?x?xf32> to memref<32x32xf32>
  call @mfma_32x32x16_f16_host(%a3h, %b3h, %c3s, %c1, %c1, %c1)
      : (memref<32x16xf16>, memref<16x32xf16>, memref<32x32xf32>, index, index, index) -> ()
  vector.print str "mfma 32x32x16 f16 (gfx950)"
  call @report(%c3m, %d3) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a4, %b4, %c4m, %d4 = call @operands(%c16, %c16, %c16) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a4h = memref.alloc() : memref<16x16xf16>
  %b4h = memref.alloc() : memref<16x16xf16>
  %a4d = memref.cast %a4h : memref<16x16xf16> to memref<?x?xf16>
  %b4d = memref.cast %b4h : memref<16x16xf16> to memref<?x?xf16>
  call @to_f16(%a4, %a4d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  call @to_f16(%b4, %b4d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  %c4s = memref.cast %c4m : memref<?x?xf32> to memref<16x16xf32>
  call @wmma_16x16x16_f16_host(%a4h, %b4h, %c4s, %c1, %c1, %c1)
      : (memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>, index, index, index) -> ()
  vector.print str "wmma 16x16x16 f16 (gfx11)"
  call @report(%c4m, %d4) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @wmma_disagreeing_copies_host(%a4h, %b4h, %c4s, %c1, %c1, %c1)
      : (memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>, index, index, index) -> ()
  vector.print str "wmma 16x16x16 f16, lanes 0 and 16 disagree on A"
  %c4d = memref.cast %c4s : memref<16x16xf32> to memref<?x?xf32>
  call @report_nan(%c4d) : (memref<?x?xf32>) -> ()

  %a5, %b5, %c5m, %d5 = call @operands(%c16, %c8, %c16) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a5h = memref.alloc() : memref<16x16xf16>
  %b5h = memref.alloc() : memref<16x8xf16>
  %a5d = memref.cast %a5h : memref<16x16xf16> to memref<?x?xf16>
  %b5d = memref.cast %b5h : memref<16x8xf16> to memref<?x?xf16>
  call @to_f16(%a5, %a5d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  call @to_f16(%b5, %b5d) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  %c5s = memref.cast %c5m : memref<?x?xf32> to memref<16x8xf32>
  call @mma_sync_m16n8k16_f16_host(%a5h, %b5h, %c5s, %c1, %c1, %c1)
      : (memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf32>, index, index, index) -> ()
  vector.print str "mma.sync m16n8k16 f16"
  call @report(%c5m, %d5) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
}
