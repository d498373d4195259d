// The program and checks of matmul-f32-on-cpu-*.test (one test per chip).

/// f32 GEMM tile programs (`vector.contract` on f32 tiles) distributed by
/// -layout-tile-shared-memory onto the chip's f32-input matrix instruction
/// (sm_90: tf32 mma.sync m16n8k8 after cvt.rna.tf32.f32; gfx942: xf32 MFMA
/// 32x32x4; gfx950: full-precision f32 MFMA 32x32x2), run on the CPU by
/// -layout-test-gpu-to-loops, which emulates each instruction lane by lane
/// from the matrix-instruction table, with the precision the instruction
/// gives its inputs. A (M x K) and B (K x N), row-major (nn) or stored
/// transposed (tt), on the odd shape M x N x K = 67x45x37 (masked edges in
/// every dimension); C starts at -7 so a missing store counts.
///
/// Every element of C is compared with two references computed on the host
/// in f64 (plain loops, nothing from the code under test): "tf32" with the
/// inputs rounded to 10 explicit mantissa bits, "f32" with the inputs as
/// they are. An element matches when |C - reference| <= 1e-3: C is at most
/// 37 * 4 = 148, so f32 accumulation in any order stays within
/// 37 * 148 * 2^-24 < 3.3e-4 of the exact sum, while the inputs carry
/// 4200 ... 7999 units of 2^-23 below the tf32 grid (rounding adds 4097 ...
/// 193 of them, about 3e-4 per operand on average), so the two references
/// differ by about 0.02 per element and cannot both match. The tf32 chips
/// must match the tf32 reference everywhere and the f32 one nowhere, the
/// f32 chip the other way round.
///
/// The rounding of the reference is written out from how the inputs are
/// built: A[i][k] = 1 + m / 1024 + f / 2^23 with m = (131 i + 31 k +
/// floor(k^2 / 7)) mod 1000 and f = 4200 + (37 i + 11 k) mod 3800, a value
/// of [1, 2) (f32 ulp 2^-23, tf32 ulp 2^-10) whose 13 bits below the tf32
/// grid are f > 4096 = half a tf32 ulp (never a tie), so that rounded to
/// nearest (cvt.rna, or xf32's nearest even) it is 1 + (m + 1) / 1024.
/// B[k][j] likewise with m = (29 k + 137 j + floor(k^2 / 5) + 1) mod 1000
/// and f = 4200 + (13 k + 53 j) mod 3800. Truncating the inputs (a tf32
/// mma.sync fed without the conversion) gives 1 + m / 1024: neither.

// TF32: nn_f32 67x45x37: tf32 reference 0 mismatches, f32 reference 3015 mismatches of 3015
// TF32: tt_f32 67x45x37: tf32 reference 0 mismatches, f32 reference 3015 mismatches of 3015
// F32: nn_f32 67x45x37: tf32 reference 3015 mismatches, f32 reference 0 mismatches of 3015
// F32: tt_f32 67x45x37: tf32 reference 3015 mismatches, f32 reference 0 mismatches of 3015

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

/// The kernels as host functions (-layout-test-gpu-to-loops): the kernel's
/// arguments, then the grid.
func.func private @nn_f32_host(memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @tt_f32_host(memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index)

/// The (m, f) of an input (see the file comment): (m, f) = (x mod 1000,
/// 4200 + y mod 3800).
func.func @value(%x: index, %y: index) -> (f32, f64) {
  %c1000 = arith.constant 1000 : index
  %c3800 = arith.constant 3800 : index
  %c4200 = arith.constant 4200 : index
  %mi = arith.remui %x, %c1000 : index
  %fy = arith.remui %y, %c3800 : index
  %fi = arith.addi %fy, %c4200 : index
  %m64 = arith.index_cast %mi : index to i64
  %f64i = arith.index_cast %fi : index to i64
  %mf = arith.sitofp %m64 : i64 to f64
  %ff = arith.sitofp %f64i : i64 to f64
  %one = arith.constant 1.0 : f64
  %ulp10 = arith.constant 9.765625e-04 : f64
  %ulp23 = arith.constant 1.1920928955078125e-07 : f64
  // 1 + m / 1024 + f / 2^23: exact in f64 and in f32 (24 significant bits).
  %hi = arith.mulf %mf, %ulp10 : f64
  %lo = arith.mulf %ff, %ulp23 : f64
  %s0 = arith.addf %one, %hi : f64
  %s = arith.addf %s0, %lo : f64
  %v = arith.truncf %s : f64 to f32
  // Rounded to nearest on the tf32 grid: 1 + (m + 1) / 1024.
  %mp = arith.addf %mf, %one : f64
  %hr = arith.mulf %mp, %ulp10 : f64
  %r = arith.addf %one, %hr : f64
  return %v, %r : f32, f64
}
func.func @a_value(%i: index, %k: index) -> (f32, f64) {
  %c131 = arith.constant 131 : index
  %c31 = arith.constant 31 : index
  %c7 = arith.constant 7 : index
  %c37 = arith.constant 37 : index
  %c11 = arith.constant 11 : index
  %x0 = arith.muli %i, %c131 : index
  %x1 = arith.muli %k, %c31 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c7 : index
  %x2 = arith.addi %x0, %x1 : index
  %x = arith.addi %x2, %q : index
  %y0 = arith.muli %i, %c37 : index
  %y1 = arith.muli %k, %c11 : index
  %y = arith.addi %y0, %y1 : index
  %v, %r = func.call @value(%x, %y) : (index, index) -> (f32, f64)
  return %v, %r : f32, f64
}
func.func @b_value(%k: index, %j: index) -> (f32, f64) {
  %c29 = arith.constant 29 : index
  %c137 = arith.constant 137 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c53 = arith.constant 53 : index
  %x0 = arith.muli %k, %c29 : index
  %x1 = arith.muli %j, %c137 : index
  %kk = arith.muli %k, %k : index
  %q = arith.divui %kk, %c5 : index
  %x2 = arith.addi %x0, %x1 : index
  %x3 = arith.addi %x2, %q : index
  %x = arith.addi %x3, %c1 : index
  %y0 = arith.muli %k, %c13 : index
  %y1 = arith.muli %j, %c53 : index
  %y = arith.addi %y0, %y1 : index
  %v, %r = func.call @value(%x, %y) : (index, index) -> (f32, f64)
  return %v, %r : f32, f64
}

/// Fills A (M x K, or K x M when %at) and B (K x N, or N x K when %bt).
func.func @fill(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index, %k: index, %at: i1, %bt: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %v, %r = func.call @a_value(%i, %kk) : (index, index) -> (f32, f64)
      scf.if %at {
        memref.store %v, %a[%kk, %i] : memref<?x?xf32>
      } else {
        memref.store %v, %a[%i, %kk] : memref<?x?xf32>
      }
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v, %r = func.call @b_value(%kk, %j) : (index, index) -> (f32, f64)
      scf.if %bt {
        memref.store %v, %b[%j, %kk] : memref<?x?xf32>
      } else {
        memref.store %v, %b[%kk, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

/// The references (tf32, f32) of C[i][j]: sum_k A[i][k] * B[k][j] in f64
/// with the inputs rounded to tf32, and as they are.
func.func @reference(%i: index, %j: index, %k: index) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %sum:2 = scf.for %kk = %c0 to %k step %c1 iter_args(%t = %z, %f = %z) -> (f64, f64) {
    %x, %xr = func.call @a_value(%i, %kk) : (index, index) -> (f32, f64)
    %y, %yr = func.call @b_value(%kk, %j) : (index, index) -> (f32, f64)
    %pr = arith.mulf %xr, %yr : f64
    %t2 = arith.addf %t, %pr : f64
    %xf = arith.extf %x : f32 to f64
    %yf = arith.extf %y : f32 to f64
    %p = arith.mulf %xf, %yf : f64
    %f2 = arith.addf %f, %p : f64
    scf.yield %t2, %f2 : f64, f64
  }
  return %sum#0, %sum#1 : f64, f64
}

/// 1 when |x - y| > 1e-3, else 0.
func.func @differs(%x: f64, %y: f64) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tol = arith.constant 1.0e-3 : f64
  %d = arith.subf %x, %y : f64
  %nd = arith.negf %d : f64
  %a = arith.maximumf %d, %nd : f64
  %ok = arith.cmpf ole, %a, %tol : f64
  %r = arith.select %ok, %c0, %c1 : index
  return %r : index
}

/// Counts the elements of C that differ from each reference and prints the
/// counts.
func.func @report(%c: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bad:2 = scf.for %i = %c0 to %m step %c1 iter_args(%t0 = %c0, %f0 = %c0) -> (index, index) {
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%t1 = %t0, %f1 = %f0) -> (index, index) {
      %x0 = memref.load %c[%i, %j] : memref<?x?xf32>
      %x = arith.extf %x0 : f32 to f64
      %yt, %yf = func.call @reference(%i, %j, %k) : (index, index, index) -> (f64, f64)
      %dt = func.call @differs(%x, %yt) : (f64, f64) -> index
      %df = func.call @differs(%x, %yf) : (f64, f64) -> index
      %t2 = arith.addi %t1, %dt : index
      %f2 = arith.addi %f1, %df : index
      scf.yield %t2, %f2 : index, index
    }
    scf.yield %r#0, %r#1 : index, index
  }
  vector.print str " "
  vector.print %m : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k : index punctuation <no_punctuation>
  vector.print str ": tf32 reference "
  vector.print %bad#0 : index punctuation <no_punctuation>
  vector.print str " mismatches, f32 reference "
  vector.print %bad#1 : index punctuation <no_punctuation>
  vector.print str " mismatches of "
  %t = arith.muli %m, %n : index
  vector.print %t : index
  return
}

func.func @run_nn_f32(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %at = arith.constant false
  %bt = arith.constant false
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%k, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @nn_f32_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  vector.print str "nn_f32"
  call @report(%c, %m, %n, %k) : (memref<?x?xf32>, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_tt_f32(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %at = arith.constant true
  %bt = arith.constant true
  %a = memref.alloc(%k, %m) : memref<?x?xf32>
  %b = memref.alloc(%n, %k) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a, %b, %m, %n, %k, %at, %bt) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index, i1, i1) -> ()
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  %gx = arith.ceildivui %n, %c32 : index
  %gy = arith.ceildivui %m, %c32 : index
  call @tt_f32_host(%a, %b, %c, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  vector.print str "tt_f32"
  call @report(%c, %m, %n, %k) : (memref<?x?xf32>, index, index, index) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @main() {
  %m = arith.constant 67 : index
  %n = arith.constant 45 : index
  %k = arith.constant 37 : index
  call @run_nn_f32(%m, %n, %k) : (index, index, index) -> ()
  call @run_tt_f32(%m, %n, %k) : (index, index, index) -> ()
  return
}
}
