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

/// The host functions -layout-test-gpu-to-loops makes of the kernels.
func.func private @transpose_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @transpose_f16_host(memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @transpose_batched_f32_host(memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index)

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

func.func @main() {
  call @f32_case() : () -> ()
  call @f16_case() : () -> ()
  call @batched_case() : () -> ()
  return
}
