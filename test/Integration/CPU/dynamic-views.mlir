// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Tensor and partition views through descriptors with run-time lengths,
/// strides and transform arguments (issue 18), executed on the CPU for
/// several shapes. The view's extents are the descriptor's top lengths
/// computed from its operands (`layout.index_space` and the masks use
/// them). Every expected value is computed here by indexing the buffers
/// directly (row * ld + col), independently of the descriptors:
///
///   strided: a copy through `naive [%m, %n] strides [%lda, 1]` into
///     `naive [%m, %n] strides [%ldo, 1]`, 4 x 8 tiles. out[i * ldo + j]
///     must be in[i * lda + j] for j < n, and the gap columns [n, ldo) must
///     keep their -1 (a store past the view's extent counts).
///   padded: a load through the same input right-padded by a run-time %p
///     (`right_pad<?, ?>` args(%n, %p)) into a packed m x (n + p) buffer:
///     out[i][j] = in[i * lda + j] for j < n, the padding value 0 in the
///     padded columns (invalid coordinates of the descriptor).

// CHECK: strided 5x7 lda 9 ldo 11: tiles ( 2, 1 ), 0 mismatches of 55
// CHECK: strided 8x16 lda 16 ldo 20: tiles ( 2, 2 ), 0 mismatches of 160
// CHECK: strided 13x3 lda 4 ldo 3: tiles ( 4, 1 ), 0 mismatches of 39
// CHECK: padded 5x7 pad 3 lda 9: tiles ( 2, 2 ), 0 mismatches of 50
// CHECK: padded 8x12 pad 4 lda 12: tiles ( 2, 2 ), 0 mismatches of 128
// CHECK: padded 3x1 pad 6 lda 2: tiles ( 1, 1 ), 0 mismatches of 21

!p = !layout.partition_view<?x?xf32, tile = [4, 8]>

/// Fills `buf` with x + 1 at flat index x.
func.func @iota(%buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = memref.dim %buf, %c0 : memref<?xf32>
  scf.for %x = %c0 to %size step %c1 {
    %x1 = arith.addi %x, %c1 : index
    %xi = arith.index_cast %x1 : index to i64
    %xf = arith.sitofp %xi : i64 to f32
    memref.store %xf, %buf[%x] : memref<?xf32>
  }
  return
}

/// Fills `buf` with `v`.
func.func @fill(%buf: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = memref.dim %buf, %c0 : memref<?xf32>
  scf.for %x = %c0 to %size step %c1 {
    memref.store %v, %buf[%x] : memref<?xf32>
  }
  return
}

/// 1 when a != b, else 0, added to `acc`.
func.func @count(%acc: i64, %a: f32, %b: f32) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %ne = arith.cmpf une, %a, %b : f32
  %inc = arith.select %ne, %one, %zero : i64
  %s = arith.addi %acc, %inc : i64
  return %s : i64
}

func.func @print_tiles(%tm: index, %tn: index) {
  %a = arith.index_cast %tm : index to i64
  %b = arith.index_cast %tn : index to i64
  vector.print str ": tiles ( "
  vector.print %a : i64 punctuation <no_punctuation>
  vector.print str ", "
  vector.print %b : i64 punctuation <no_punctuation>
  vector.print str " ), "
  return
}

func.func @print_result(%bad: i64, %total: index) {
  %t = arith.index_cast %total : index to i64
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %t : i64
  return
}

func.func @strided(%m: index, %n: index, %lda: index, %ldo: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m1 = arith.constant -1.0 : f32
  %sa = arith.muli %m, %lda : index
  %so = arith.muli %m, %ldo : index
  %in = memref.alloc(%sa) : memref<?xf32>
  %out = memref.alloc(%so) : memref<?xf32>
  call @iota(%in) : (memref<?xf32>) -> ()
  call @fill(%out, %m1) : (memref<?xf32>, f32) -> ()

  %da = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
  %do = layout.naive [%m, %n] strides [%ldo, 1] : !layout.desc<?x?>
  %va = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
  %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
  %pa = layout.partition %va tile [4, 8] : !layout.tensor_view<?x?xf32> -> !p
  %po = layout.partition %vo tile [4, 8] : !layout.tensor_view<?x?xf32> -> !p
  %tiles:2 = layout.index_space %pa : !p
  scf.for %ti = %c0 to %tiles#0 step %c1 {
    scf.for %tj = %c0 to %tiles#1 step %c1 {
      %t = layout.load %pa[%ti, %tj] masked : !p -> vector<4x8xf32>
      layout.store %t, %po[%ti, %tj] masked : vector<4x8xf32>, !p
    }
  }

  // Every element of `out`: in[i * lda + j] inside the view, -1 in the gap.
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%a = %zero) -> (i64) {
    %r = scf.for %j = %c0 to %ldo step %c1 iter_args(%b = %a) -> (i64) {
      %inside = arith.cmpi ult, %j, %n : index
      %ia0 = arith.muli %i, %lda : index
      %ia = arith.addi %ia0, %j : index
      %expect = scf.if %inside -> (f32) {
        %v = memref.load %in[%ia] : memref<?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %m1 : f32
      }
      %io0 = arith.muli %i, %ldo : index
      %io = arith.addi %io0, %j : index
      %got = memref.load %out[%io] : memref<?xf32>
      %s = func.call @count(%b, %expect, %got) : (i64, f32, f32) -> i64
      scf.yield %s : i64
    }
    scf.yield %r : i64
  }
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %li = arith.index_cast %lda : index to i64
  %oi = arith.index_cast %ldo : index to i64
  vector.print str "strided "
  vector.print %mi : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ni : i64 punctuation <no_punctuation>
  vector.print str " lda "
  vector.print %li : i64 punctuation <no_punctuation>
  vector.print str " ldo "
  vector.print %oi : i64 punctuation <no_punctuation>
  call @print_tiles(%tiles#0, %tiles#1) : (index, index) -> ()
  call @print_result(%bad, %so) : (i64, index) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func @padded(%m: index, %n: index, %pad: index, %lda: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %f0 = arith.constant 0.0 : f32
  %m1 = arith.constant -1.0 : f32
  %np = arith.addi %n, %pad : index
  %sa = arith.muli %m, %lda : index
  %so = arith.muli %m, %np : index
  %in = memref.alloc(%sa) : memref<?xf32>
  %out = memref.alloc(%so) : memref<?xf32>
  call @iota(%in) : (memref<?xf32>) -> ()
  call @fill(%out, %m1) : (memref<?xf32>, f32) -> ()

  %d0 = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
  %da = layout.transform %d0 [#layout.pass_through<?> : [0] -> [0],
                              #layout.right_pad<?, ?> : [1] -> [1]]
        args(%m, %n, %pad) : !layout.desc<?x?> -> !layout.desc<?x?>
  %do = layout.packed [%m, %np] : !layout.desc<?x?>
  %va = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
  %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
  %pa = layout.partition %va tile [4, 8] : !layout.tensor_view<?x?xf32> -> !p
  %po = layout.partition %vo tile [4, 8] : !layout.tensor_view<?x?xf32> -> !p
  %tiles:2 = layout.index_space %pa : !p
  scf.for %ti = %c0 to %tiles#0 step %c1 {
    scf.for %tj = %c0 to %tiles#1 step %c1 {
      %t = layout.load %pa[%ti, %tj] masked : !p -> vector<4x8xf32>
      layout.store %t, %po[%ti, %tj] masked : vector<4x8xf32>, !p
    }
  }

  // out[i][j] = in[i * lda + j] for j < n, 0 in the padded columns.
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%a = %zero) -> (i64) {
    %r = scf.for %j = %c0 to %np step %c1 iter_args(%b = %a) -> (i64) {
      %inside = arith.cmpi ult, %j, %n : index
      %ia0 = arith.muli %i, %lda : index
      %ia = arith.addi %ia0, %j : index
      %expect = scf.if %inside -> (f32) {
        %v = memref.load %in[%ia] : memref<?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %f0 : f32
      }
      %io0 = arith.muli %i, %np : index
      %io = arith.addi %io0, %j : index
      %got = memref.load %out[%io] : memref<?xf32>
      %s = func.call @count(%b, %expect, %got) : (i64, f32, f32) -> i64
      scf.yield %s : i64
    }
    scf.yield %r : i64
  }
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %pi = arith.index_cast %pad : index to i64
  %li = arith.index_cast %lda : index to i64
  vector.print str "padded "
  vector.print %mi : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ni : i64 punctuation <no_punctuation>
  vector.print str " pad "
  vector.print %pi : i64 punctuation <no_punctuation>
  vector.print str " lda "
  vector.print %li : i64 punctuation <no_punctuation>
  call @print_tiles(%tiles#0, %tiles#1) : (index, index) -> ()
  call @print_result(%bad, %so) : (i64, index) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  call @strided(%c5, %c7, %c9, %c11) : (index, index, index, index) -> ()
  call @strided(%c8, %c16, %c16, %c20) : (index, index, index, index) -> ()
  call @strided(%c13, %c3, %c4, %c3) : (index, index, index, index) -> ()
  call @padded(%c5, %c7, %c3, %c9) : (index, index, index, index) -> ()
  call @padded(%c8, %c12, %c4, %c12) : (index, index, index, index) -> ()
  call @padded(%c3, %c1, %c6, %c2) : (index, index, index, index) -> ()
  return
}
