// RUN: cat %examples/transpose.mlir %s \
// RUN: | layout-opt -layout-xor-swizzle=chip=gfx942 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: cat %examples/transpose.mlir %s \
// RUN: | layout-opt -layout-xor-swizzle=chip=gfx950 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: cat %examples/transpose.mlir %s \
// RUN: | layout-opt -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// The kernels of examples/transpose.mlir, swizzled for gfx942 or gfx950 or
/// not swizzled, run on the CPU by -layout-test-gpu-to-loops (blocks and
/// threads become loops, the barrier the boundary between two loop nests).
/// Shapes that are not multiples of the 32x32 tile exercise the masked
/// edges; every output element is compared with its input element. The
/// full tiles check that the swizzled tile is a permutation of its 1024
/// slots: a layout that sent two elements to one slot would lose one.

// CHECK: f32 37x70: 0 mismatches of 2590
// CHECK: f16 33x65: 0 mismatches of 2145
// CHECK: batched f32 3x40x33: 0 mismatches of 3960
// CHECK: wide f32 37x70: 0 mismatches of 2590
// CHECK: wide f32 128x192: 0 mismatches of 24576
// CHECK: wide f16 130x66: 0 mismatches of 8580
// CHECK: wide4 f16 130x66: 0 mismatches of 8580
// CHECK: wide4 f16 256x128 (vector path): 0 mismatches of 32768
// CHECK: tall f32 131x37: 0 mismatches of 4847
// CHECK: tall256 f32 131x37: 0 mismatches of 4847
// CHECK: skew f32 131x37: 0 mismatches of 4847
// CHECK: skew f32 37x131: 0 mismatches of 4847
// CHECK: skew f32 300x45: 0 mismatches of 13500
// CHECK: skew f32 257x64: 0 mismatches of 16448

/// The host functions -layout-test-gpu-to-loops makes of the kernels.
func.func private @transpose_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @transpose_f16_host(memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @transpose_batched_f32_host(memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index)
func.func private @transpose_wide_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @transpose_wide_f16_host(memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @transpose_wide4_f16_host(memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @transpose_tall_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @transpose_tall256_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @transpose_skew_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)

/// in[i, j] = i * cols + j + 1 (f32); out starts at -1.
func.func @fill(%m: memref<?x?xf32>, %first: f32, %step: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %xi = arith.index_cast %x : index to i64
      %xf = arith.sitofp %xi : i64 to f32
      %y = arith.mulf %xf, %step : f32
      %z = arith.addf %y, %first : f32
      memref.store %z, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

/// Mismatches of out[j, i] against in[i, j].
func.func @count(%in: memref<?x?xf32>, %out: memref<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %rows = memref.dim %in, %c0 : memref<?x?xf32>
  %cols = memref.dim %in, %c1 : memref<?x?xf32>
  %n = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<?x?xf32>
      %y = memref.load %out[%j, %i] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  return %n : i64
}

func.func @f32_case() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc() : memref<37x70xf32>
  %out = memref.alloc() : memref<70x37xf32>
  %ind = memref.cast %in : memref<37x70xf32> to memref<?x?xf32>
  %outd = memref.cast %out : memref<70x37xf32> to memref<?x?xf32>
  call @fill(%ind, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  call @fill(%outd, %minus1, %zero) : (memref<?x?xf32>, f32, f32) -> ()
  // Grid: ceil(70 / 32) x ceil(37 / 32).
  call @transpose_f32_host(%ind, %outd, %c3, %c2, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @count(%ind, %outd) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "f32 37x70: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 2590\n"
  memref.dealloc %in : memref<37x70xf32>
  memref.dealloc %out : memref<70x37xf32>
  return
}

func.func @f16_case() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in32 = memref.alloc() : memref<33x65xf32>
  %in32d = memref.cast %in32 : memref<33x65xf32> to memref<?x?xf32>
  call @fill(%in32d, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  %in = memref.alloc() : memref<33x65xf16>
  %out = memref.alloc() : memref<65x33xf16>
  %c33 = arith.constant 33 : index
  %c65 = arith.constant 65 : index
  // f16 holds the integers up to 2048 exactly: 1 .. 2145 would not, so
  // the values are kept modulo 2048.
  %m2048 = arith.constant 2048.0 : f32
  scf.for %i = %c0 to %c33 step %c1 {
    scf.for %j = %c0 to %c65 step %c1 {
      %x = memref.load %in32[%i, %j] : memref<33x65xf32>
      %r = arith.remf %x, %m2048 : f32
      %h = arith.truncf %r : f32 to f16
      memref.store %h, %in[%i, %j] : memref<33x65xf16>
      %neg = arith.truncf %minus1 : f32 to f16
      memref.store %neg, %out[%j, %i] : memref<65x33xf16>
    }
  }
  %ind = memref.cast %in : memref<33x65xf16> to memref<?x?xf16>
  %outd = memref.cast %out : memref<65x33xf16> to memref<?x?xf16>
  call @transpose_f16_host(%ind, %outd, %c3, %c2, %c1) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  %zero64 = arith.constant 0 : i64
  %one64 = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c33 step %c1 iter_args(%a = %zero64) -> (i64) {
    %m = scf.for %j = %c0 to %c65 step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<33x65xf16>
      %y = memref.load %out[%j, %i] : memref<65x33xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one64, %zero64 : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  vector.print str "f16 33x65: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 2145\n"
  return
}

func.func @batched_case() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c33 = arith.constant 33 : index
  %c40 = arith.constant 40 : index
  %in = memref.alloc() : memref<3x40x33xf32>
  %out = memref.alloc() : memref<3x33x40xf32>
  %minus1 = arith.constant -1.0 : f32
  scf.for %b = %c0 to %c3 step %c1 {
    scf.for %i = %c0 to %c40 step %c1 {
      scf.for %j = %c0 to %c33 step %c1 {
        %bi = arith.muli %b, %c40 : index
        %r = arith.addi %bi, %i : index
        %rr = arith.muli %r, %c33 : index
        %x = arith.addi %rr, %j : index
        %xi = arith.index_cast %x : index to i64
        %xf = arith.sitofp %xi : i64 to f32
        memref.store %xf, %in[%b, %i, %j] : memref<3x40x33xf32>
        memref.store %minus1, %out[%b, %j, %i] : memref<3x33x40xf32>
      }
    }
  }
  %ind = memref.cast %in : memref<3x40x33xf32> to memref<?x?x?xf32>
  %outd = memref.cast %out : memref<3x33x40xf32> to memref<?x?x?xf32>
  // Grid: ceil(33 / 32) x ceil(40 / 32) x 3.
  call @transpose_batched_f32_host(%ind, %outd, %c2, %c2, %c3) : (memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index) -> ()
  %zero64 = arith.constant 0 : i64
  %one64 = arith.constant 1 : i64
  %bad = scf.for %b = %c0 to %c3 step %c1 iter_args(%a0 = %zero64) -> (i64) {
    %n = scf.for %i = %c0 to %c40 step %c1 iter_args(%a = %a0) -> (i64) {
      %m = scf.for %j = %c0 to %c33 step %c1 iter_args(%acc = %a) -> (i64) {
        %x = memref.load %in[%b, %i, %j] : memref<3x40x33xf32>
        %y = memref.load %out[%b, %j, %i] : memref<3x33x40xf32>
        %ne = arith.cmpf une, %x, %y : f32
        %inc = arith.select %ne, %one64, %zero64 : i64
        %s = arith.addi %acc, %inc : i64
        scf.yield %s : i64
      }
      scf.yield %m : i64
    }
    scf.yield %n : i64
  }
  vector.print str "batched f32 3x40x33: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 3960\n"
  return
}

/// The wide kernels: edge tiles (37x70, odd extents: the masked path), full
/// tiles of even extents (128x192: the vector path), and both (130x66 f16).
func.func @wide_f32(%rows: index, %cols: index, %total: i64) {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf32>
  call @fill(%in, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  call @fill(%out, %minus1, %zero) : (memref<?x?xf32>, f32, f32) -> ()
  %gx0 = arith.addi %cols, %c63 : index
  %gx = arith.divui %gx0, %c64 : index
  %gy0 = arith.addi %rows, %c63 : index
  %gy = arith.divui %gy0, %c64 : index
  call @transpose_wide_f32_host(%in, %out, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @count(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "wide f32 "
  vector.print %rows : index punctuation <no_punctuation>
  vector.print str "x"
  vector.print %cols : index punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %total : i64
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

func.func @wide_f16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c66 = arith.constant 66 : index
  %c130 = arith.constant 130 : index
  %in = memref.alloc() : memref<130x66xf16>
  %out = memref.alloc() : memref<66x130xf16>
  %m2048 = arith.constant 2048 : index
  %minus1 = arith.constant -1.0 : f16
  scf.for %i = %c0 to %c130 step %c1 {
    scf.for %j = %c0 to %c66 step %c1 {
      %r = arith.muli %i, %c66 : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %m2048 : index
      %xi = arith.index_cast %xm : index to i64
      %h = arith.sitofp %xi : i64 to f16
      memref.store %h, %in[%i, %j] : memref<130x66xf16>
      memref.store %minus1, %out[%j, %i] : memref<66x130xf16>
    }
  }
  %ind = memref.cast %in : memref<130x66xf16> to memref<?x?xf16>
  %outd = memref.cast %out : memref<66x130xf16> to memref<?x?xf16>
  // Grid: ceil(66 / 64) x ceil(130 / 64).
  call @transpose_wide_f16_host(%ind, %outd, %c2, %c3, %c1) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  %zero64 = arith.constant 0 : i64
  %one64 = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c130 step %c1 iter_args(%a = %zero64) -> (i64) {
    %m = scf.for %j = %c0 to %c66 step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<130x66xf16>
      %y = memref.load %out[%j, %i] : memref<66x130xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one64, %zero64 : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  vector.print str "wide f16 130x66: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 8580\n"
  return
}

func.func @wide4_f16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c66 = arith.constant 66 : index
  %c130 = arith.constant 130 : index
  %in = memref.alloc() : memref<130x66xf16>
  %out = memref.alloc() : memref<66x130xf16>
  %m2048 = arith.constant 2048 : index
  %minus1 = arith.constant -1.0 : f16
  scf.for %i = %c0 to %c130 step %c1 {
    scf.for %j = %c0 to %c66 step %c1 {
      %r = arith.muli %i, %c66 : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %m2048 : index
      %xi = arith.index_cast %xm : index to i64
      %h = arith.sitofp %xi : i64 to f16
      memref.store %h, %in[%i, %j] : memref<130x66xf16>
      memref.store %minus1, %out[%j, %i] : memref<66x130xf16>
    }
  }
  %ind = memref.cast %in : memref<130x66xf16> to memref<?x?xf16>
  %outd = memref.cast %out : memref<66x130xf16> to memref<?x?xf16>
  // Grid: ceil(66 / 128) x ceil(130 / 128).
  call @transpose_wide4_f16_host(%ind, %outd, %c1, %c2, %c1) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  %zero64 = arith.constant 0 : i64
  %one64 = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c130 step %c1 iter_args(%a = %zero64) -> (i64) {
    %m = scf.for %j = %c0 to %c66 step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<130x66xf16>
      %y = memref.load %out[%j, %i] : memref<66x130xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one64, %zero64 : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  vector.print str "wide4 f16 130x66: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 8580\n"
  return
}

func.func @wide4_f16_full() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c128x = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %in = memref.alloc() : memref<256x128xf16>
  %out = memref.alloc() : memref<128x256xf16>
  %m2048 = arith.constant 2048 : index
  %minus1 = arith.constant -1.0 : f16
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c128x step %c1 {
      %r = arith.muli %i, %c128x : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %m2048 : index
      %xi = arith.index_cast %xm : index to i64
      %h = arith.sitofp %xi : i64 to f16
      memref.store %h, %in[%i, %j] : memref<256x128xf16>
      memref.store %minus1, %out[%j, %i] : memref<128x256xf16>
    }
  }
  %ind = memref.cast %in : memref<256x128xf16> to memref<?x?xf16>
  %outd = memref.cast %out : memref<128x256xf16> to memref<?x?xf16>
  // Grid: 1 x 2 full tiles.
  call @transpose_wide4_f16_host(%ind, %outd, %c1, %c2, %c1) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  %zero64 = arith.constant 0 : i64
  %one64 = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c256 step %c1 iter_args(%a = %zero64) -> (i64) {
    %m = scf.for %j = %c0 to %c128x step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<256x128xf16>
      %y = memref.load %out[%j, %i] : memref<128x256xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one64, %zero64 : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  vector.print str "wide4 f16 256x128 (vector path): "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 32768\n"
  return
}

/// The tall kernel: 128x32 tiles; 131x37 has partial tiles on both sides.
func.func @tall_f32() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c131 = arith.constant 131 : index
  %c37 = arith.constant 37 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc(%c131, %c37) : memref<?x?xf32>
  %out = memref.alloc(%c37, %c131) : memref<?x?xf32>
  call @fill(%in, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  call @fill(%out, %minus1, %zero) : (memref<?x?xf32>, f32, f32) -> ()
  // Grid: ceil(37 / 32) x ceil(131 / 128).
  call @transpose_tall_f32_host(%in, %out, %c2, %c2, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @count(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "tall f32 131x37: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 4847\n"
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

func.func @tall256_f32() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c131 = arith.constant 131 : index
  %c37 = arith.constant 37 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc(%c131, %c37) : memref<?x?xf32>
  %out = memref.alloc(%c37, %c131) : memref<?x?xf32>
  call @fill(%in, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  call @fill(%out, %minus1, %zero) : (memref<?x?xf32>, f32, f32) -> ()
  // Grid: ceil(37 / 32) x ceil(131 / 256).
  call @transpose_tall256_f32_host(%in, %out, %c2, %c1, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @count(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "tall256 f32 131x37: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 4847\n"
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

/// The skew kernel on rows x cols: the windows of its output rows start at
/// every misalignment; 257x64 has a whole interior tile (the unguarded
/// path) whose windows are misaligned too.
func.func @skew_f32(%rows: index, %cols: index) {
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c135 = arith.constant 135 : index
  %c128 = arith.constant 128 : index
  %plus1 = arith.constant 1.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf32>
  call @fill(%in, %plus1, %plus1) : (memref<?x?xf32>, f32, f32) -> ()
  call @fill(%out, %minus1, %zero) : (memref<?x?xf32>, f32, f32) -> ()
  // Grid: ceil(cols / 32) x ceil((rows + 8) / 128).
  %a = arith.addi %cols, %c31 : index
  %gx = arith.divui %a, %c32 : index
  %b = arith.addi %rows, %c135 : index
  %gy = arith.divui %b, %c128 : index
  call @transpose_skew_f32_host(%in, %out, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = call @count(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  %n = arith.muli %rows, %cols : index
  %ni = arith.index_cast %n : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  vector.print str "skew f32 "
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ni : i64
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

func.func @main() {
  call @f32_case() : () -> ()
  call @f16_case() : () -> ()
  call @batched_case() : () -> ()
  %c37 = arith.constant 37 : index
  %c70 = arith.constant 70 : index
  %n1 = arith.constant 2590 : i64
  call @wide_f32(%c37, %c70, %n1) : (index, index, i64) -> ()
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %n2 = arith.constant 24576 : i64
  call @wide_f32(%c128, %c192, %n2) : (index, index, i64) -> ()
  call @wide_f16() : () -> ()
  call @wide4_f16() : () -> ()
  call @wide4_f16_full() : () -> ()
  call @tall_f32() : () -> ()
  call @tall256_f32() : () -> ()
  %c131 = arith.constant 131 : index
  %c37b = arith.constant 37 : index
  %c300 = arith.constant 300 : index
  %c45 = arith.constant 45 : index
  %c257 = arith.constant 257 : index
  %c64 = arith.constant 64 : index
  call @skew_f32(%c131, %c37b) : (index, index) -> ()
  call @skew_f32(%c37b, %c131) : (index, index) -> ()
  call @skew_f32(%c300, %c45) : (index, index) -> ()
  call @skew_f32(%c257, %c64) : (index, index) -> ()
  return
}
