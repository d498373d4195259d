// RUN: layout-opt %s -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Kernels whose scf.for loops hold barriers or matrix instructions, run on
/// the CPU by -layout-test-gpu-to-loops: a loop whose bounds are the same in
/// every thread of the block runs once per block as a host loop, its body
/// cut at its barriers and matrix instructions; its iter_args and results
/// are per-thread values. Each kernel's output is compared with values the
/// host computes independently with plain loops (small integers keep every
/// value exact).
///  - rotate: threads exchange data through workgroup memory in every
///    iteration of a K loop (bound from memref.dim); two iter_args, one
///    initialized from the thread id, one the previous iteration's read.
///  - triangle: nested uniform loops, the inner bound from the outer
///    induction variable, the outer bound from the block id; the inner
///    loop's init is the outer iter_arg and its result the outer yield's.
///  - mfma_k_loop, mma_sync_k_loop: a GEMM's K loop, fragments loaded per
///    lane from global memory with the ISA formulas (as matrix-on-cpu.mlir),
///    per-thread accumulators in iter_args.
///  - mfma_staged: a GEMM's K loop as distribution leaves it: tiles staged
///    in workgroup memory by all threads, a barrier, fragments read from
///    there, two MFMAs, a barrier.

// CHECK: rotate, 3 blocks x 5 iterations: 0 mismatches of 384
// CHECK: triangle, nested loops: 0 mismatches of 192
// CHECK: mfma 16x16x16 f16, K loop of 4: 0 mismatches of 2048
// CHECK: mma.sync m16n8k16 f16, K loop of 3: 0 mismatches of 256
// CHECK: mfma 32x32x8 f16, staged K loop of 4: 0 mismatches of 2048

module attributes {gpu.container_module} {
gpu.module @kernels {
  // in[b][kt][j]; thread t of block b, iteration kt: stores in[b][kt][t]
  // to wg[t], reads y = wg[(t + kt) % 64];
  // acc += y * (kt + 1) + prev, prev = y (acc starts at t, prev at 0).
  // out[b][t] = acc, out[b][64 + t] = prev.
  gpu.func @rotate(%in: memref<?x?x64xf32>, %out: memref<?x128xf32>)
      workgroup(%wg: memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %nk = memref.dim %in, %c1 : memref<?x?x64xf32>
    %ti = arith.index_cast %t : index to i64
    %tf = arith.sitofp %ti : i64 to f32
    %zero = arith.constant 0.0 : f32
    %r:2 = scf.for %kt = %c0 to %nk step %c1
        iter_args(%acc = %tf, %prev = %zero) -> (f32, f32) {
      %x = memref.load %in[%b, %kt, %t] : memref<?x?x64xf32>
      memref.store %x, %wg[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %s0 = arith.addi %t, %kt : index
      %s = arith.remui %s0, %c64 : index
      %y = memref.load %wg[%s] : memref<64xf32, #gpu.address_space<workgroup>>
      %kt1 = arith.addi %kt, %c1 : index
      %ki = arith.index_cast %kt1 : index to i64
      %kf = arith.sitofp %ki : i64 to f32
      %p = arith.mulf %y, %kf : f32
      %a1 = arith.addf %acc, %p : f32
      %a2 = arith.addf %a1, %prev : f32
      gpu.barrier
      scf.yield %a2, %y : f32, f32
    }
    %t64 = arith.addi %t, %c64 : index
    memref.store %r#0, %out[%b, %t] : memref<?x128xf32>
    memref.store %r#1, %out[%b, %t64] : memref<?x128xf32>
    gpu.return
  }

  // acc = t; for i < n + b: { a = acc; for j <= i: { thread t stores
  // t * i + j + b to wg[t]; a += wg[(t + i + j) % 64] }; acc = a - i }.
  gpu.func @triangle(%n: index, %out: memref<?x64xf32>)
      workgroup(%wg: memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %ti = arith.index_cast %t : index to i64
    %tf = arith.sitofp %ti : i64 to f32
    %ub = arith.addi %n, %b : index
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %tf) -> (f32) {
      %i1 = arith.addi %i, %c1 : index
      %inner = scf.for %j = %c0 to %i1 step %c1 iter_args(%a = %acc) -> (f32) {
        %ti2 = arith.muli %t, %i : index
        %v0 = arith.addi %ti2, %j : index
        %v1 = arith.addi %v0, %b : index
        %vi = arith.index_cast %v1 : index to i64
        %v = arith.sitofp %vi : i64 to f32
        memref.store %v, %wg[%t] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %s0 = arith.addi %t, %i : index
        %s1 = arith.addi %s0, %j : index
        %s = arith.remui %s1, %c64 : index
        %y = memref.load %wg[%s] : memref<64xf32, #gpu.address_space<workgroup>>
        %a2 = arith.addf %a, %y : f32
        gpu.barrier
        scf.yield %a2 : f32
      }
      %ii = arith.index_cast %i : index to i64
      %if = arith.sitofp %ii : i64 to f32
      %next = arith.subf %inner, %if : f32
      scf.yield %next : f32
    }
    memref.store %r, %out[%b, %t] : memref<?x64xf32>
    gpu.return
  }

  // v_mfma_f32_16x16x16_f16 in a K loop of 16-wide steps. D (32x64) = C +
  // A (32xK) * B (Kx64); block bx, wave w: columns 32bx + 16w + 0..15; two
  // accumulators for rows 0..15 and 16..31.
  // A: i = l%16, k = 4(l/16) + e; B: k = 4(l/16) + e, j = l%16;
  // C: i = 4(l/16) + e, j = l%16.
  gpu.func @mfma_k_loop(%a: memref<32x?xf16>, %b: memref<?x64xf16>,
                        %c: memref<32x64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %bx = gpu.block_id x
    %w = arith.divui %tid, %c64 : index
    %l = arith.remui %tid, %c64 : index
    %i = arith.remui %l, %c16 : index
    %i16 = arith.addi %i, %c16 : index
    %h = arith.divui %l, %c16 : index
    %k0 = arith.muli %h, %c4 : index
    %nb = arith.muli %bx, %c32 : index
    %nw = arith.muli %w, %c16 : index
    %n0 = arith.addi %nb, %nw : index
    %j = arith.addi %n0, %i : index
    %kdim = memref.dim %a, %c1 : memref<32x?xf16>
    %nk = arith.divui %kdim, %c16 : index
    %za = arith.constant dense<0.0> : vector<4xf16>
    %zc = arith.constant dense<0.0> : vector<4xf32>
    %cv0 = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zc) -> (vector<4xf32>) {
      %row = arith.addi %k0, %e : index
      %x = memref.load %c[%row, %j] : memref<32x64xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<4xf32>
      scf.yield %v2 : vector<4xf32>
    }
    %cv1 = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zc) -> (vector<4xf32>) {
      %row0 = arith.addi %k0, %e : index
      %row = arith.addi %row0, %c16 : index
      %x = memref.load %c[%row, %j] : memref<32x64xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<4xf32>
      scf.yield %v2 : vector<4xf32>
    }
    %acc:2 = scf.for %kt = %c0 to %nk step %c1
        iter_args(%x0 = %cv0, %x1 = %cv1) -> (vector<4xf32>, vector<4xf32>) {
      %kb = arith.muli %kt, %c16 : index
      %kk = arith.addi %kb, %k0 : index
      %av0 = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
        %k = arith.addi %kk, %e : index
        %x = memref.load %a[%i, %k] : memref<32x?xf16>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        scf.yield %v2 : vector<4xf16>
      }
      %av1 = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
        %k = arith.addi %kk, %e : index
        %x = memref.load %a[%i16, %k] : memref<32x?xf16>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        scf.yield %v2 : vector<4xf16>
      }
      %bv = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
        %k = arith.addi %kk, %e : index
        %x = memref.load %b[%k, %j] : memref<?x64xf16>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        scf.yield %v2 : vector<4xf16>
      }
      %d0 = amdgpu.mfma 16x16x16 %av0 * %bv + %x0 blgp = none
         : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d1 = amdgpu.mfma 16x16x16 %av1 * %bv + %x1 blgp = none
         : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d0, %d1 : vector<4xf32>, vector<4xf32>
    }
    scf.for %e = %c0 to %c4 step %c1 {
      %row0 = arith.addi %k0, %e : index
      %row1 = arith.addi %row0, %c16 : index
      %x = vector.extract %acc#0[%e] : f32 from vector<4xf32>
      %y = vector.extract %acc#1[%e] : f32 from vector<4xf32>
      memref.store %x, %c[%row0, %j] : memref<32x64xf32>
      memref.store %y, %c[%row1, %j] : memref<32x64xf32>
    }
    gpu.return
  }

  // mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 in a K loop of
  // 16-wide steps; D (16x16) = C + A (16xK) * B (Kx16), warp w: columns
  // 8w..8w+7. g = l/4, t = l%4. A vector<4x2xf16>, register r, half v:
  // row g + 8(r%2), col 2t + v + 8(r/2). B vector<2x2xf16>:
  // k = 2t + v + 8r, n = g. C vector<2x2xf32>: row g + 8r, col 2t + v.
  // The accumulator iter_arg is nvgpu's vector<2x2xf32>.
  gpu.func @mma_sync_k_loop(%a: memref<16x?xf16>, %b: memref<?x16xf16>,
                            %c: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %w = arith.divui %tid, %c32 : index
    %l = arith.remui %tid, %c32 : index
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %t2 = arith.muli %t, %c2 : index
    %n0 = arith.muli %w, %c8 : index
    %kdim = memref.dim %a, %c1 : memref<16x?xf16>
    %nk = arith.divui %kdim, %c16 : index
    %za = arith.constant dense<0.0> : vector<8xf16>
    %zb = arith.constant dense<0.0> : vector<4xf16>
    %zc = arith.constant dense<0.0> : vector<4xf32>
    %cf = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zc) -> (vector<4xf32>) {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %r8 = arith.muli %r, %c8 : index
      %row = arith.addi %g, %r8 : index
      %col0 = arith.addi %t2, %h : index
      %col = arith.addi %col0, %n0 : index
      %x = memref.load %c[%row, %col] : memref<16x16xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<4xf32>
      scf.yield %v2 : vector<4xf32>
    }
    %cv = vector.shape_cast %cf : vector<4xf32> to vector<2x2xf32>
    %acc = scf.for %kt = %c0 to %nk step %c1 iter_args(%x0 = %cv) -> (vector<2x2xf32>) {
      %kb = arith.muli %kt, %c16 : index
      %af = scf.for %e = %c0 to %c8 step %c1 iter_args(%v = %za) -> (vector<8xf16>) {
        %r = arith.divui %e, %c2 : index
        %h = arith.remui %e, %c2 : index
        %rm = arith.remui %r, %c2 : index
        %rd = arith.divui %r, %c2 : index
        %rm8 = arith.muli %rm, %c8 : index
        %rd8 = arith.muli %rd, %c8 : index
        %row = arith.addi %g, %rm8 : index
        %col0 = arith.addi %t2, %rd8 : index
        %col1 = arith.addi %col0, %h : index
        %col = arith.addi %col1, %kb : index
        %x = memref.load %a[%row, %col] : memref<16x?xf16>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<8xf16>
        scf.yield %v2 : vector<8xf16>
      }
      %bf = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %zb) -> (vector<4xf16>) {
        %r = arith.divui %e, %c2 : index
        %h = arith.remui %e, %c2 : index
        %r8 = arith.muli %r, %c8 : index
        %k0 = arith.addi %t2, %r8 : index
        %k1 = arith.addi %k0, %h : index
        %k = arith.addi %k1, %kb : index
        %n = arith.addi %g, %n0 : index
        %x = memref.load %b[%k, %n] : memref<?x16xf16>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        scf.yield %v2 : vector<4xf16>
      }
      %av = vector.shape_cast %af : vector<8xf16> to vector<4x2xf16>
      %bv = vector.shape_cast %bf : vector<4xf16> to vector<2x2xf16>
      %d = nvgpu.mma.sync (%av, %bv, %x0) {mmaShape = [16, 8, 16]}
         : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %d : vector<2x2xf32>
    }
    %df = vector.shape_cast %acc : vector<2x2xf32> to vector<4xf32>
    scf.for %e = %c0 to %c4 step %c1 {
      %r = arith.divui %e, %c2 : index
      %h = arith.remui %e, %c2 : index
      %r8 = arith.muli %r, %c8 : index
      %row = arith.addi %g, %r8 : index
      %col0 = arith.addi %t2, %h : index
      %col = arith.addi %col0, %n0 : index
      %x = vector.extract %df[%e] : f32 from vector<4xf32>
      memref.store %x, %c[%row, %col] : memref<16x16xf32>
    }
    gpu.return
  }

  // v_mfma_f32_32x32x8_f16, one wave, D (32x64) = C + A (32xK) * B (Kx64)
  // in a K loop of 8-wide steps: per step all threads copy the A tile
  // (32x8, 4 elements each) and the B tile (8x64, 8 each) into workgroup
  // memory; after a barrier each lane reads its fragments there, two MFMAs
  // (columns 0..31 and 32..63) accumulate; a barrier ends the step.
  // A: i = l%32, k = 4(l/32) + e; B: k = 4(l/32) + e, j = l%32;
  // C: i = 8(e/4) + 4(l/32) + e%4, j = l%32.
  gpu.func @mfma_staged(%a: memref<32x?xf16>, %b: memref<?x64xf16>,
                        %c: memref<32x64xf32>)
      workgroup(%sa: memref<32x8xf16, #gpu.address_space<workgroup>>,
                %sb: memref<8x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %l = gpu.thread_id x
    %i = arith.remui %l, %c32 : index
    %j1 = arith.addi %i, %c32 : index
    %hh = arith.divui %l, %c32 : index
    %k0 = arith.muli %hh, %c4 : index
    %kdim = memref.dim %a, %c1 : memref<32x?xf16>
    %nk = arith.divui %kdim, %c8 : index
    %za = arith.constant dense<0.0> : vector<4xf16>
    %zc = arith.constant dense<0.0> : vector<16xf32>
    %cv:2 = scf.for %e = %c0 to %c16 step %c1
        iter_args(%v = %zc, %u = %zc) -> (vector<16xf32>, vector<16xf32>) {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %k0 : index
      %row = arith.addi %row0, %r : index
      %x = memref.load %c[%row, %i] : memref<32x64xf32>
      %y = memref.load %c[%row, %j1] : memref<32x64xf32>
      %v2 = vector.insert %x, %v [%e] : f32 into vector<16xf32>
      %u2 = vector.insert %y, %u [%e] : f32 into vector<16xf32>
      scf.yield %v2, %u2 : vector<16xf32>, vector<16xf32>
    }
    %acc:2 = scf.for %kt = %c0 to %nk step %c1 iter_args(%a0 = %cv#0, %a1 = %cv#1)
        -> (vector<16xf32>, vector<16xf32>) {
      %kb = arith.muli %kt, %c8 : index
      %l4 = arith.muli %l, %c4 : index
      scf.for %e = %c0 to %c4 step %c1 {
        %idx = arith.addi %l4, %e : index
        %r = arith.divui %idx, %c8 : index
        %cc = arith.remui %idx, %c8 : index
        %k = arith.addi %kb, %cc : index
        %x = memref.load %a[%r, %k] : memref<32x?xf16>
        memref.store %x, %sa[%r, %cc] : memref<32x8xf16, #gpu.address_space<workgroup>>
      }
      %l8 = arith.muli %l, %c8 : index
      scf.for %e = %c0 to %c8 step %c1 {
        %idx = arith.addi %l8, %e : index
        %r = arith.divui %idx, %c64 : index
        %cc = arith.remui %idx, %c64 : index
        %k = arith.addi %kb, %r : index
        %x = memref.load %b[%k, %cc] : memref<?x64xf16>
        memref.store %x, %sb[%r, %cc] : memref<8x64xf16, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %fa = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za) -> (vector<4xf16>) {
        %k = arith.addi %k0, %e : index
        %x = memref.load %sa[%i, %k] : memref<32x8xf16, #gpu.address_space<workgroup>>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        scf.yield %v2 : vector<4xf16>
      }
      %fb:2 = scf.for %e = %c0 to %c4 step %c1 iter_args(%v = %za, %u = %za)
          -> (vector<4xf16>, vector<4xf16>) {
        %k = arith.addi %k0, %e : index
        %x = memref.load %sb[%k, %i] : memref<8x64xf16, #gpu.address_space<workgroup>>
        %y = memref.load %sb[%k, %j1] : memref<8x64xf16, #gpu.address_space<workgroup>>
        %v2 = vector.insert %x, %v [%e] : f16 into vector<4xf16>
        %u2 = vector.insert %y, %u [%e] : f16 into vector<4xf16>
        scf.yield %v2, %u2 : vector<4xf16>, vector<4xf16>
      }
      %d0 = amdgpu.mfma 32x32x8 %fa * %fb#0 + %a0 blgp = none
         : vector<4xf16>, vector<4xf16>, vector<16xf32>
      %d1 = amdgpu.mfma 32x32x8 %fa * %fb#1 + %a1 blgp = none
         : vector<4xf16>, vector<4xf16>, vector<16xf32>
      gpu.barrier
      scf.yield %d0, %d1 : vector<16xf32>, vector<16xf32>
    }
    scf.for %e = %c0 to %c16 step %c1 {
      %g = arith.divui %e, %c4 : index
      %r = arith.remui %e, %c4 : index
      %g8 = arith.muli %g, %c8 : index
      %row0 = arith.addi %g8, %k0 : index
      %row = arith.addi %row0, %r : index
      %x = vector.extract %acc#0[%e] : f32 from vector<16xf32>
      %y = vector.extract %acc#1[%e] : f32 from vector<16xf32>
      memref.store %x, %c[%row, %i] : memref<32x64xf32>
      memref.store %y, %c[%row, %j1] : memref<32x64xf32>
    }
    gpu.return
  }
}

func.func private @rotate_host(memref<?x?x64xf32>, memref<?x128xf32>, index, index, index)
func.func private @triangle_host(index, memref<?x64xf32>, index, index, index)
func.func private @mfma_k_loop_host(memref<32x?xf16>, memref<?x64xf16>, memref<32x64xf32>, index, index, index)
func.func private @mma_sync_k_loop_host(memref<16x?xf16>, memref<?x16xf16>, memref<16x16xf32>, index, index, index)
func.func private @mfma_staged_host(memref<32x?xf16>, memref<?x64xf16>, memref<32x64xf32>, index, index, index)

func.func @to_f32(%i: index) -> f32 {
  %n = arith.index_cast %i : index to i64
  %f = arith.sitofp %n : i64 to f32
  return %f : f32
}

/// The reference of @rotate, one thread after another.
func.func @rotate_ref(%in: memref<?x?x64xf32>, %want: memref<?x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %nb = memref.dim %in, %c0 : memref<?x?x64xf32>
  %nk = memref.dim %in, %c1 : memref<?x?x64xf32>
  scf.for %b = %c0 to %nb step %c1 {
    scf.for %t = %c0 to %c64 step %c1 {
      %tf = func.call @to_f32(%t) : (index) -> f32
      %r:2 = scf.for %kt = %c0 to %nk step %c1
          iter_args(%acc = %tf, %prev = %zero) -> (f32, f32) {
        %s0 = arith.addi %t, %kt : index
        %s = arith.remui %s0, %c64 : index
        %y = memref.load %in[%b, %kt, %s] : memref<?x?x64xf32>
        %kt1 = arith.addi %kt, %c1 : index
        %kf = func.call @to_f32(%kt1) : (index) -> f32
        %p = arith.mulf %y, %kf : f32
        %a1 = arith.addf %acc, %p : f32
        %a2 = arith.addf %a1, %prev : f32
        scf.yield %a2, %y : f32, f32
      }
      %t64 = arith.addi %t, %c64 : index
      memref.store %r#0, %want[%b, %t] : memref<?x128xf32>
      memref.store %r#1, %want[%b, %t64] : memref<?x128xf32>
    }
  }
  return
}

/// The reference of @triangle: what thread (t + i + j) % 64 stored.
func.func @triangle_ref(%n: index, %want: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %nb = memref.dim %want, %c0 : memref<?x64xf32>
  scf.for %b = %c0 to %nb step %c1 {
    scf.for %t = %c0 to %c64 step %c1 {
      %tf = func.call @to_f32(%t) : (index) -> f32
      %ub = arith.addi %n, %b : index
      %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %tf) -> (f32) {
        %i1 = arith.addi %i, %c1 : index
        %a = scf.for %j = %c0 to %i1 step %c1 iter_args(%x = %acc) -> (f32) {
          %s0 = arith.addi %t, %i : index
          %s1 = arith.addi %s0, %j : index
          %s = arith.remui %s1, %c64 : index
          %v0 = arith.muli %s, %i : index
          %v1 = arith.addi %v0, %j : index
          %v = arith.addi %v1, %b : index
          %vf = func.call @to_f32(%v) : (index) -> f32
          %x2 = arith.addf %x, %vf : f32
          scf.yield %x2 : f32
        }
        %if = func.call @to_f32(%i) : (index) -> f32
        %next = arith.subf %a, %if : f32
        scf.yield %next : f32
      }
      memref.store %r, %want[%b, %t] : memref<?x64xf32>
    }
  }
  return
}

/// Small integers: A[i][k] = (7i + 3k) mod 9 - 4, B[k][j] = (5k + 11j) mod 7
/// - 3, C[i][j] = (i + 2j) mod 5 - 2 (exact in f16 and f32).
func.func @value(%i: index, %j: index, %p: index, %q: index, %m: index,
                 %o: index) -> f32 {
  %x = arith.muli %i, %p : index
  %y = arith.muli %j, %q : index
  %s = arith.addi %x, %y : index
  %r = arith.remui %s, %m : index
  %v = arith.subi %r, %o : index
  %f = func.call @to_f32(%v) : (index) -> f32
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

/// An f16 copy of `a`.
func.func @to_f16(%a: memref<?x?xf32>) -> memref<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  %h = memref.alloc(%rows, %cols) : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.truncf %v : f32 to f16
      memref.store %t, %h[%i, %j] : memref<?x?xf16>
    }
  }
  return %h : memref<?x?xf16>
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
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c11 = arith.constant 11 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index

  // rotate: in[b][k][j] = (7b + 5k + 3j) mod 11 - 5, 3 blocks, 5 steps.
  %in = memref.alloc(%c3, %c5) : memref<?x?x64xf32>
  scf.for %b = %c0 to %c3 step %c1 {
    scf.for %k = %c0 to %c5 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %c7 = arith.constant 7 : index
        %x = arith.muli %b, %c7 : index
        %y = arith.muli %k, %c5 : index
        %z = arith.muli %j, %c3 : index
        %s0 = arith.addi %x, %y : index
        %s1 = arith.addi %s0, %z : index
        %r = arith.remui %s1, %c11 : index
        %v = arith.subi %r, %c5 : index
        %f = func.call @to_f32(%v) : (index) -> f32
        memref.store %f, %in[%b, %k, %j] : memref<?x?x64xf32>
      }
    }
  }
  %rot = memref.alloc(%c3) : memref<?x128xf32>
  %rotw = memref.alloc(%c3) : memref<?x128xf32>
  call @rotate_host(%in, %rot, %c3, %c1, %c1)
      : (memref<?x?x64xf32>, memref<?x128xf32>, index, index, index) -> ()
  call @rotate_ref(%in, %rotw) : (memref<?x?x64xf32>, memref<?x128xf32>) -> ()
  %rotd = memref.cast %rot : memref<?x128xf32> to memref<?x?xf32>
  %rotwd = memref.cast %rotw : memref<?x128xf32> to memref<?x?xf32>
  vector.print str "rotate, 3 blocks x 5 iterations"
  call @report(%rotd, %rotwd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  // triangle: n = 2, blocks 0..2 run 2..4 outer iterations.
  %tri = memref.alloc(%c3) : memref<?x64xf32>
  %triw = memref.alloc(%c3) : memref<?x64xf32>
  call @triangle_host(%c2, %tri, %c3, %c1, %c1)
      : (index, memref<?x64xf32>, index, index, index) -> ()
  call @triangle_ref(%c2, %triw) : (index, memref<?x64xf32>) -> ()
  %trid = memref.cast %tri : memref<?x64xf32> to memref<?x?xf32>
  %triwd = memref.cast %triw : memref<?x64xf32> to memref<?x?xf32>
  vector.print str "triangle, nested loops"
  call @report(%trid, %triwd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  // mfma_k_loop: 32x64, K = 64, 2 blocks of 2 waves.
  %a1, %b1, %c1m, %d1 = call @operands(%c32, %c64, %c64) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a1h = call @to_f16(%a1) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b1h = call @to_f16(%b1) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a1s = memref.cast %a1h : memref<?x?xf16> to memref<32x?xf16>
  %b1s = memref.cast %b1h : memref<?x?xf16> to memref<?x64xf16>
  %c1s = memref.cast %c1m : memref<?x?xf32> to memref<32x64xf32>
  call @mfma_k_loop_host(%a1s, %b1s, %c1s, %c2, %c1, %c1)
      : (memref<32x?xf16>, memref<?x64xf16>, memref<32x64xf32>, index, index, index) -> ()
  vector.print str "mfma 16x16x16 f16, K loop of 4"
  call @report(%c1m, %d1) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  // mma_sync_k_loop: 16x16, K = 48, 1 block of 2 warps.
  %a2, %b2, %c2m, %d2 = call @operands(%c16, %c16, %c48) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a2h = call @to_f16(%a2) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b2h = call @to_f16(%b2) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a2s = memref.cast %a2h : memref<?x?xf16> to memref<16x?xf16>
  %b2s = memref.cast %b2h : memref<?x?xf16> to memref<?x16xf16>
  %c2s = memref.cast %c2m : memref<?x?xf32> to memref<16x16xf32>
  call @mma_sync_k_loop_host(%a2s, %b2s, %c2s, %c1, %c1, %c1)
      : (memref<16x?xf16>, memref<?x16xf16>, memref<16x16xf32>, index, index, index) -> ()
  vector.print str "mma.sync m16n8k16 f16, K loop of 3"
  call @report(%c2m, %d2) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  // mfma_staged: 32x64, K = 32, 1 block of 1 wave.
  %a3, %b3, %c3m, %d3 = call @operands(%c32, %c64, %c32) : (index, index, index)
      -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a3h = call @to_f16(%a3) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b3h = call @to_f16(%b3) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a3s = memref.cast %a3h : memref<?x?xf16> to memref<32x?xf16>
  %b3s = memref.cast %b3h : memref<?x?xf16> to memref<?x64xf16>
  %c3s = memref.cast %c3m : memref<?x?xf32> to memref<32x64xf32>
  call @mfma_staged_host(%a3s, %b3s, %c3s, %c1, %c1, %c1)
      : (memref<32x?xf16>, memref<?x64xf16>, memref<32x64xf32>, index, index, index) -> ()
  vector.print str "mfma 32x32x8 f16, staged K loop of 4"
  call @report(%c3m, %d3) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
}
