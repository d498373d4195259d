// RUN: cat %examples/transpose-tiles.mlir %s \
// RUN: | layout-opt -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx942 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: cat %examples/transpose-tiles.mlir %s \
// RUN: | layout-opt -layout-tile-shared-memory -layout-xor-swizzle=chip=sm_90 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: cat %examples/transpose-tiles.mlir %s \
// RUN: | layout-opt -layout-tile-shared-memory -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// The tile programs of examples/transpose-tiles.mlir, distributed by
/// -layout-tile-shared-memory (swizzled for gfx942 or sm_90, or not), run
/// on the CPU by -layout-test-gpu-to-loops. Every output element is
/// compared with its input element (values are distinct), and the output
/// starts at -1 so that a missing write counts. Shapes whose rows are
/// multiples of 4 (8 in f16) take the vector paths (their full tiles), odd
/// shapes the guarded element paths; 128x192 (f32) and 256x128 (f16) have
/// only full tiles; 131x135, 257x131 and 9x17x65 have whole tiles inside
/// the view with unaligned rows (the guarded paths too). The f32
/// transposes of odd shapes store with neighbour-owned windows when the
/// grid has every tile along the output's rows, and each block its own
/// tile otherwise: 131x135 runs with the grid the shape needs, with one and
/// two tiles fewer (those rows stay -1) and with one more; in 127x70 the
/// last tile's windows end before the row does (its tail).

// CHECK: f32 37x70, grid y 1: 0 mismatches of 2590
// CHECK: f32 128x192, grid y 2: 0 mismatches of 24576
// CHECK: f32 68x132, grid y 2: 0 mismatches of 8976
// CHECK: f32 131x135, grid y 3: 0 mismatches of 17685
// CHECK: f32 131x135, grid y 2: 0 mismatches of 17685
// CHECK: f32 131x135, grid y 1: 0 mismatches of 17685
// CHECK: f32 131x135, grid y 4: 0 mismatches of 17685
// CHECK: f32 127x70, grid y 2: 0 mismatches of 8890
// CHECK: f16 130x66: 0 mismatches of 8580
// CHECK: f16 256x128: 0 mismatches of 32768
// CHECK: f16 257x131: 0 mismatches of 33667
// CHECK: batched f32 3x70x36: 0 mismatches of 7560
// CHECK: permute f32 5x9x40: 0 mismatches of 1800
// CHECK: permute f32 8x16x64: 0 mismatches of 8192
// CHECK: permute f32 9x17x65: 0 mismatches of 9945
// CHECK: scale f16 37x70: 0 mismatches of 2590
// CHECK: scale f16 128x64: 0 mismatches of 8192
// CHECK: add transposed f32 37x70: 0 mismatches of 2590
// CHECK: add transposed f32 128x192: 0 mismatches of 24576

func.func private @tile_transpose_f32_host(memref<?x?xf32>, memref<?x?xf32>, index, index, index)
func.func private @tile_transpose_f16_host(memref<?x?xf16>, memref<?x?xf16>, index, index, index)
func.func private @tile_transpose_batched_f32_host(memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index)
func.func private @tile_permute_f32_host(memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index)
func.func private @tile_transpose_scale_f16_host(memref<?x?xf32>, memref<?x?xf16>, f32, index, index, index)
func.func private @tile_add_transposed_f32_host(memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index)

func.func @ceil64(%n: index) -> index {
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %a = arith.addi %n, %c63 : index
  %q = arith.divui %a, %c64 : index
  return %q : index
}

func.func @ceil128(%n: index) -> index {
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %a = arith.addi %n, %c127 : index
  %q = arith.divui %a, %c128 : index
  return %q : index
}


/// in[i, j] = i * cols + j + 1; out[j, i] = -1. The grid has `less` tiles
/// fewer and `more` tiles more than the input's rows need: out[j, i] must
/// be in[i, j] for the rows i of the tiles launched, and stay -1 elsewhere.
func.func @f32_2d(%rows: index, %cols: index, %less: index, %more: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %in = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %x1 = arith.addi %x, %c1 : index
      %xi = arith.index_cast %x1 : index to i64
      %xf = arith.sitofp %xi : i64 to f32
      memref.store %xf, %in[%i, %j] : memref<?x?xf32>
      memref.store %m1, %out[%j, %i] : memref<?x?xf32>
    }
  }
  %gx = call @ceil64(%cols) : (index) -> index
  %gy0 = call @ceil64(%rows) : (index) -> index
  %gy1 = arith.subi %gy0, %less : index
  %gy = arith.addi %gy1, %more : index
  call @tile_transpose_f32_host(%in, %out, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %c64 = arith.constant 64 : index
  %launched = arith.muli %gy, %c64 : index
  %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%b = %a) -> (i64) {
      %v = memref.load %in[%i, %j] : memref<?x?xf32>
      %written = arith.cmpi ult, %i, %launched : index
      %x = arith.select %written, %v, %m1 : f32
      %y = memref.load %out[%j, %i] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  %n = arith.muli %rows, %cols : index
  %ni = arith.index_cast %n : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  %gi = arith.index_cast %gy : index to i64
  vector.print str "f32 "
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ", grid y "
  vector.print %gi : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ni : i64
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

/// The same in f16, values modulo 2048 (exact in f16) but distinct within
/// any 2048 consecutive elements.
func.func @f16_2d(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  %m1 = arith.constant -1.0 : f16
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %in = memref.alloc(%rows, %cols) : memref<?x?xf16>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %c2048 : index
      %xi = arith.index_cast %xm : index to i64
      %xf = arith.sitofp %xi : i64 to f16
      memref.store %xf, %in[%i, %j] : memref<?x?xf16>
      memref.store %m1, %out[%j, %i] : memref<?x?xf16>
    }
  }
  %gx = call @ceil128(%cols) : (index) -> index
  %gy = call @ceil128(%rows) : (index) -> index
  call @tile_transpose_f16_host(%in, %out, %gx, %gy, %c1) : (memref<?x?xf16>, memref<?x?xf16>, index, index, index) -> ()
  %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<?x?xf16>
      %y = memref.load %out[%j, %i] : memref<?x?xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  %n = arith.muli %rows, %cols : index
  %ni = arith.index_cast %n : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  vector.print str "f16 "
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ni : i64
  memref.dealloc %in : memref<?x?xf16>
  memref.dealloc %out : memref<?x?xf16>
  return
}

/// in[b, i, j] distinct; batched: out[b, j, i] = in[b, i, j]; permute:
/// out[i, b, j] = in[b, i, j] (the kernel's [1, 0, 2]).
func.func @f32_3d(%nb: index, %rows: index, %cols: index, %permute: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %m1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %in = memref.alloc(%nb, %rows, %cols) : memref<?x?x?xf32>
  %ob = arith.select %permute, %rows, %nb : index
  %o1 = arith.select %permute, %nb, %cols : index
  %o2 = arith.select %permute, %cols, %rows : index
  %out = memref.alloc(%ob, %o1, %o2) : memref<?x?x?xf32>
  scf.for %b = %c0 to %ob step %c1 {
    scf.for %i = %c0 to %o1 step %c1 {
      scf.for %j = %c0 to %o2 step %c1 {
        memref.store %m1, %out[%b, %i, %j] : memref<?x?x?xf32>
      }
    }
  }
  scf.for %b = %c0 to %nb step %c1 {
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %bi = arith.muli %b, %rows : index
        %r = arith.addi %bi, %i : index
        %rr = arith.muli %r, %cols : index
        %x = arith.addi %rr, %j : index
        %xi = arith.index_cast %x : index to i64
        %xf = arith.sitofp %xi : i64 to f32
        memref.store %xf, %in[%b, %i, %j] : memref<?x?x?xf32>
      }
    }
  }
  scf.if %permute {
    // Tiles [4, 8, 32]: grid ceil(cols / 32) x ceil(rows / 8) x ceil(nb / 4).
    %c31 = arith.constant 31 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %a = arith.addi %cols, %c31 : index
    %gx = arith.divui %a, %c32 : index
    %b2 = arith.addi %rows, %c7 : index
    %gy = arith.divui %b2, %c8 : index
    %z = arith.addi %nb, %c3 : index
    %gz = arith.divui %z, %c4 : index
    func.call @tile_permute_f32_host(%in, %out, %gx, %gy, %gz) : (memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index) -> ()
  } else {
    %gx = func.call @ceil64(%cols) : (index) -> index
    %gy = func.call @ceil64(%rows) : (index) -> index
    func.call @tile_transpose_batched_f32_host(%in, %out, %gx, %gy, %nb) : (memref<?x?x?xf32>, memref<?x?x?xf32>, index, index, index) -> ()
  }
  %bad = scf.for %b = %c0 to %nb step %c1 iter_args(%a0 = %zero) -> (i64) {
    %n = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %a0) -> (i64) {
      %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %a) -> (i64) {
        %x = memref.load %in[%b, %i, %j] : memref<?x?x?xf32>
        %y = scf.if %permute -> f32 {
          %p = memref.load %out[%i, %b, %j] : memref<?x?x?xf32>
          scf.yield %p : f32
        } else {
          %q = memref.load %out[%b, %j, %i] : memref<?x?x?xf32>
          scf.yield %q : f32
        }
        %ne = arith.cmpf une, %x, %y : f32
        %inc = arith.select %ne, %one, %zero : i64
        %s = arith.addi %acc, %inc : i64
        scf.yield %s : i64
      }
      scf.yield %m : i64
    }
    scf.yield %n : i64
  }
  %t0 = arith.muli %nb, %rows : index
  %t = arith.muli %t0, %cols : index
  %ti = arith.index_cast %t : index to i64
  %bi = arith.index_cast %nb : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  scf.if %permute {
    vector.print str "permute f32 "
  } else {
    vector.print str "batched f32 "
  }
  vector.print %bi : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ti : i64
  memref.dealloc %in : memref<?x?x?xf32>
  memref.dealloc %out : memref<?x?x?xf32>
  return
}

/// out[j, i] = f16(in[i, j] * 0.5) with in[i, j] = (i * cols + j) mod 2048
/// (exact in f16 after the scaling); out starts at -1.
func.func @scale_f16(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  %half = arith.constant 0.5 : f32
  %m1 = arith.constant -1.0 : f16
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %in = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %c2048 : index
      %xi = arith.index_cast %xm : index to i64
      %xf = arith.sitofp %xi : i64 to f32
      memref.store %xf, %in[%i, %j] : memref<?x?xf32>
      memref.store %m1, %out[%j, %i] : memref<?x?xf16>
    }
  }
  %gx = call @ceil64(%cols) : (index) -> index
  %gy = call @ceil64(%rows) : (index) -> index
  call @tile_transpose_scale_f16_host(%in, %out, %half, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf16>, f32, index, index, index) -> ()
  %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<?x?xf32>
      %h = arith.mulf %x, %half : f32
      %e = arith.truncf %h : f32 to f16
      %y = memref.load %out[%j, %i] : memref<?x?xf16>
      %ne = arith.cmpf une, %e, %y : f16
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  %n = arith.muli %rows, %cols : index
  %ni = arith.index_cast %n : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  vector.print str "scale f16 "
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ni : i64
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf16>
  return
}

/// out[j, i] = a[i, j] + b[j, i] with a[i, j] = i * cols + j + 1 (< 2^15)
/// and b[j, i] = 65536 * ((j * rows + i) mod 127) (< 2^23): every sum is
/// exact in f32, and an element of a or b taken from a neighbour changes it.
func.func @add_transposed(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 65536.0 : f32
  %c127 = arith.constant 127 : index
  %m1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %a = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %b = memref.alloc(%cols, %rows) : memref<?x?xf32>
  %out = memref.alloc(%cols, %rows) : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %r = arith.muli %i, %cols : index
      %x = arith.addi %r, %j : index
      %x1 = arith.addi %x, %c1 : index
      %xi = arith.index_cast %x1 : index to i64
      %xf = arith.sitofp %xi : i64 to f32
      memref.store %xf, %a[%i, %j] : memref<?x?xf32>
      %q = arith.muli %j, %rows : index
      %y = arith.addi %q, %i : index
      %y1 = arith.remui %y, %c127 : index
      %yi = arith.index_cast %y1 : index to i64
      %yf = arith.sitofp %yi : i64 to f32
      %yb = arith.mulf %yf, %big : f32
      memref.store %yb, %b[%j, %i] : memref<?x?xf32>
      memref.store %m1, %out[%j, %i] : memref<?x?xf32>
    }
  }
  %gx = call @ceil64(%cols) : (index) -> index
  %gy = call @ceil64(%rows) : (index) -> index
  call @tile_add_transposed_f32_host(%a, %b, %out, %gx, %gy, %c1) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc2 = %acc) -> (i64) {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%j, %i] : memref<?x?xf32>
      %e = arith.addf %x, %y : f32
      %o = memref.load %out[%j, %i] : memref<?x?xf32>
      %ne = arith.cmpf une, %e, %o : f32
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %acc2, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  %n = arith.muli %rows, %cols : index
  %ni = arith.index_cast %n : index to i64
  %ri = arith.index_cast %rows : index to i64
  %ci = arith.index_cast %cols : index to i64
  vector.print str "add transposed f32 "
  vector.print %ri : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ci : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ni : i64
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c33 = arith.constant 33 : index
  %c36 = arith.constant 36 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c68 = arith.constant 68 : index
  %c70 = arith.constant 70 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c192 = arith.constant 192 : index
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  call @f32_2d(%c37, %c70, %c0, %c0) : (index, index, index, index) -> ()
  call @f32_2d(%c128, %c192, %c0, %c0) : (index, index, index, index) -> ()
  call @f32_2d(%c68, %c132, %c0, %c0) : (index, index, index, index) -> ()
  %c131 = arith.constant 131 : index
  %c135 = arith.constant 135 : index
  call @f32_2d(%c131, %c135, %c0, %c0) : (index, index, index, index) -> ()
  call @f32_2d(%c131, %c135, %c1, %c0) : (index, index, index, index) -> ()
  call @f32_2d(%c131, %c135, %c2, %c0) : (index, index, index, index) -> ()
  call @f32_2d(%c131, %c135, %c0, %c1) : (index, index, index, index) -> ()
  %c127 = arith.constant 127 : index
  call @f32_2d(%c127, %c70, %c0, %c0) : (index, index, index, index) -> ()
  %c130 = arith.constant 130 : index
  %c66 = arith.constant 66 : index
  %c256 = arith.constant 256 : index
  call @f16_2d(%c130, %c66) : (index, index) -> ()
  call @f16_2d(%c256, %c128) : (index, index) -> ()
  %c257 = arith.constant 257 : index
  call @f16_2d(%c257, %c131) : (index, index) -> ()
  call @f32_3d(%c3, %c70, %c36, %false) : (index, index, index, i1) -> ()
  call @f32_3d(%c5, %c9, %c40, %true) : (index, index, index, i1) -> ()
  call @f32_3d(%c8, %c16, %c64, %true) : (index, index, index, i1) -> ()
  %c17 = arith.constant 17 : index
  call @f32_3d(%c9, %c17, %c65, %true) : (index, index, index, i1) -> ()
  call @scale_f16(%c37, %c70) : (index, index) -> ()
  call @scale_f16(%c128, %c64) : (index, index) -> ()
  call @add_transposed(%c37, %c70) : (index, index) -> ()
  call @add_transposed(%c128, %c192) : (index, index) -> ()
  return
}
