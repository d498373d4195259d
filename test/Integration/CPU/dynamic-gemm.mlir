// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: layout-opt %s -convert-layout-to-affine | FileCheck %s --check-prefix=IR

/// A GEMM whose sizes arrive at run time, through descriptors with `?`
/// lengths, strides and transform arguments, executed for several shapes.
///
/// A is M x K with a run-time leading dimension lda, padded on the right of M
/// to a multiple of 4 (`right_pad<?, ?>`) and cut into 4 x 8 tiles
/// (`unmerge<[?, 4]>`, `unmerge<[?, 8]>`): the loops walk the tiled index
/// space (mt, 4, kt, 8) and skip the padded rows through `layout.valid`.
/// B is `layout.packed [%k, %n]` (run-time strides: the suffix products),
/// C a naive M x N with a run-time ldc. The result is compared with a
/// reference GEMM that indexes the buffers directly (row * ld + col), so it
/// does not depend on the descriptors; the checksum sum C[i][j] * (i*N+j+1)
/// is NumPy's for the same inputs (A[i][k] = (7i + 3k) mod 11 - 5,
/// B[k][j] = (5k + 2j) mod 7 - 3).
///
/// The same run checks layout.upper of the run-time packed B (every offset
/// comes back to its row and column) and an incremental coordinate over
/// `merge<[?, ?]>` moved by 1 through the whole of B (the carry compares
/// with run-time lengths): both count mismatches.

// The lowering computes with the run-time values as symbols: A's offset
// (tm * 4 + r) * lda + tk * 8 + q, B's kk * n + j. A division by a run-time
// value is arith (the row of B's inverse), never a map (see LayoutToAffine's
// AffineAlgebra::divide).
// IR-DAG: #[[A:map[0-9]*]] = affine_map<(d0, d1, d2, d3)[s0] -> ((d0 * 4 + d1) * s0 + d2 * 8 + d3)>
// IR-DAG: #[[B:map[0-9]*]] = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
// IR-NOT: floordiv s
// IR-NOT: mod s
// IR-LABEL: func.func @gemm(
// IR-SAME: %[[M:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index, %[[LDA:[a-z0-9]+]]: index
// IR: affine.apply #[[A]]({{.*}})[%[[LDA]]]
// IR: affine.apply #[[B]]({{.*}})[%[[N]]]
// IR-LABEL: func.func @packed_inverse(
// IR-SAME: %{{[a-z0-9]+}}: index, %[[PN:[a-z0-9]+]]: index
// IR: arith.divsi %{{.*}}, %[[PN]] : index

// CHECK: gemm 5x3x16: 0 mismatches, 3 padded rows, checksum -39
// CHECK: gemm 8x7x8: 0 mismatches, 0 padded rows, checksum 28
// CHECK: gemm 3x2x24: 0 mismatches, 1 padded rows, checksum 402
// CHECK: gemm 13x9x40: 0 mismatches, 3 padded rows, checksum 1012
// CHECK: packed 16x3: 0 upper mismatches, 0 coordinate mismatches
// CHECK: packed 40x9: 0 upper mismatches, 0 coordinate mismatches


func.func @gemm(%m: index, %n: index, %k: index, %lda: index, %ldc: index)
    -> (i64, i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  // mt = ceil(m / 4), the padding mt * 4 - m, kt = k / 8.
  %m3 = arith.addi %m, %c3 : index
  %mt = arith.divui %m3, %c4 : index
  %mp = arith.muli %mt, %c4 : index
  %pad = arith.subi %mp, %m : index
  %kt = arith.divui %k, %c8 : index

  // The buffers, filled by direct indexing.
  %asize = arith.muli %m, %lda : index
  %bsize = arith.muli %k, %n : index
  %csize = arith.muli %m, %ldc : index
  // Offsets outside a buffer are counted as mismatches (and not used), so
  // that a wrong offset fails the test cleanly instead of corrupting memory.
  %oob = memref.alloca() : memref<1xi64>
  memref.store %zero, %oob[%c0] : memref<1xi64>
  %A = memref.alloc(%asize) : memref<?xi64>
  %B = memref.alloc(%bsize) : memref<?xi64>
  %C = memref.alloc(%csize) : memref<?xi64>
  scf.for %x = %c0 to %csize step %c1 {
    memref.store %zero, %C[%x] : memref<?xi64>
  }
  %c5i = arith.constant 5 : i64
  %c3i = arith.constant 3 : i64
  %c2i = arith.constant 2 : i64
  %c7i = arith.constant 7 : i64
  %c11i = arith.constant 11 : i64
  scf.for %i = %c0 to %m step %c1 {
    scf.for %kk = %c0 to %k step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %k64 = arith.index_cast %kk : index to i64
      %t0 = arith.muli %i64, %c7i : i64
      %t1 = arith.muli %k64, %c3i : i64
      %t2 = arith.addi %t0, %t1 : i64
      %t3 = arith.remsi %t2, %c11i : i64
      %v = arith.subi %t3, %c5i : i64
      %row = arith.muli %i, %lda : index
      %at = arith.addi %row, %kk : index
      memref.store %v, %A[%at] : memref<?xi64>
    }
  }
  scf.for %kk = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %k64 = arith.index_cast %kk : index to i64
      %j64 = arith.index_cast %j : index to i64
      %t0 = arith.muli %k64, %c5i : i64
      %t1 = arith.muli %j64, %c2i : i64
      %t2 = arith.addi %t0, %t1 : i64
      %t3 = arith.remsi %t2, %c7i : i64
      %v = arith.subi %t3, %c3i : i64
      %row = arith.muli %kk, %n : index
      %at = arith.addi %row, %j : index
      memref.store %v, %B[%at] : memref<?xi64>
    }
  }

  // The descriptors.
  %a0 = layout.naive [%m, %k] strides [%lda, 1] : !layout.desc<?x?>
  %a1 = layout.transform %a0 [#layout.right_pad<?, ?> : [0] -> [0],
                              #layout.pass_through<?> : [1] -> [1]]
        args(%m, %pad, %k) : !layout.desc<?x?> -> !layout.desc<?x?>
  %a = layout.transform %a1 [#layout.unmerge<[?, 4]> : [0] -> [0, 1],
                             #layout.unmerge<[?, 8]> : [1] -> [2, 3]]
       args(%mt, %kt) : !layout.desc<?x?> -> !layout.desc<?x4x?x8>
  %b = layout.packed [%k, %n] : !layout.desc<?x?>
  %c = layout.naive [%m, %n] strides [%ldc, 1] : !layout.desc<?x?>

  // C = A B over A's tiles, skipping the padded rows.
  %padded = scf.for %tm = %c0 to %mt step %c1 iter_args(%p0 = %zero) -> (i64) {
    %p1 = scf.for %r = %c0 to %c4 step %c1 iter_args(%pr = %p0) -> (i64) {
      %valid = layout.valid %a[%tm, %r, %c0, %c0] : !layout.desc<?x4x?x8>
      %next = scf.if %valid -> (i64) {
        %i0 = arith.muli %tm, %c4 : index
        %i = arith.addi %i0, %r : index
        scf.for %j = %c0 to %n step %c1 {
          %acc = scf.for %tk = %c0 to %kt step %c1 iter_args(%s0 = %zero) -> (i64) {
            %s1 = scf.for %q = %c0 to %c8 step %c1 iter_args(%s = %s0) -> (i64) {
              %ao = layout.offset %a[%tm, %r, %tk, %q] : !layout.desc<?x4x?x8>
              %kk0 = arith.muli %tk, %c8 : index
              %kk = arith.addi %kk0, %q : index
              %bo = layout.offset %b[%kk, %j] : !layout.desc<?x?>
              %aok = arith.cmpi ult, %ao, %asize : index
              %bok = arith.cmpi ult, %bo, %bsize : index
              %abok = arith.andi %aok, %bok : i1
              scf.if %abok {
              } else {
                %n0 = memref.load %oob[%c0] : memref<1xi64>
                %n1 = arith.addi %n0, %one : i64
                memref.store %n1, %oob[%c0] : memref<1xi64>
              }
              %aos = arith.select %aok, %ao, %c0 : index
              %bos = arith.select %bok, %bo, %c0 : index
              %av = memref.load %A[%aos] : memref<?xi64>
              %bv = memref.load %B[%bos] : memref<?xi64>
              %prod = arith.muli %av, %bv : i64
              %sum = arith.addi %s, %prod : i64
              scf.yield %sum : i64
            }
            scf.yield %s1 : i64
          }
          %co = layout.offset %c[%i, %j] : !layout.desc<?x?>
          %cok = arith.cmpi ult, %co, %csize : index
          scf.if %cok {
            memref.store %acc, %C[%co] : memref<?xi64>
          } else {
            %n0 = memref.load %oob[%c0] : memref<1xi64>
            %n1 = arith.addi %n0, %one : i64
            memref.store %n1, %oob[%c0] : memref<1xi64>
          }
        }
        scf.yield %pr : i64
      } else {
        %pr1 = arith.addi %pr, %one : i64
        scf.yield %pr1 : i64
      }
      scf.yield %next : i64
    }
    scf.yield %p1 : i64
  }

  // The reference, by direct indexing, and the checksum.
  %res:2 = scf.for %i = %c0 to %m step %c1 iter_args(%bad0 = %zero, %sum0 = %zero) -> (i64, i64) {
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%bad = %bad0, %sum = %sum0) -> (i64, i64) {
      %ref = scf.for %kk = %c0 to %k step %c1 iter_args(%s = %zero) -> (i64) {
        %arow = arith.muli %i, %lda : index
        %aat = arith.addi %arow, %kk : index
        %brow = arith.muli %kk, %n : index
        %bat = arith.addi %brow, %j : index
        %av = memref.load %A[%aat] : memref<?xi64>
        %bv = memref.load %B[%bat] : memref<?xi64>
        %prod = arith.muli %av, %bv : i64
        %s1 = arith.addi %s, %prod : i64
        scf.yield %s1 : i64
      }
      %crow = arith.muli %i, %ldc : index
      %cat = arith.addi %crow, %j : index
      %got = memref.load %C[%cat] : memref<?xi64>
      %ne = arith.cmpi ne, %got, %ref : i64
      %inc = arith.extui %ne : i1 to i64
      %bad1 = arith.addi %bad, %inc : i64
      %w0 = arith.muli %i, %n : index
      %w1 = arith.addi %w0, %j : index
      %w2 = arith.addi %w1, %c1 : index
      %w = arith.index_cast %w2 : index to i64
      %term = arith.muli %got, %w : i64
      %sum1 = arith.addi %sum, %term : i64
      scf.yield %bad1, %sum1 : i64, i64
    }
    scf.yield %r#0, %r#1 : i64, i64
  }
  %outside = memref.load %oob[%c0] : memref<1xi64>
  %bad = arith.addi %res#0, %outside : i64
  memref.dealloc %A : memref<?xi64>
  memref.dealloc %B : memref<?xi64>
  memref.dealloc %C : memref<?xi64>
  return %bad, %padded, %res#1 : i64, i64, i64
}

/// layout.upper of `packed [%k, %n]` at every offset, and an incremental
/// coordinate over its merge moved by 1: mismatch counts of each.
func.func @packed_inverse(%k: index, %n: index) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %b = layout.packed [%k, %n] : !layout.desc<?x?>
  %size = arith.muli %k, %n : index
  %up = scf.for %o = %c0 to %size step %c1 iter_args(%bad = %zero) -> (i64) {
    %u:2 = layout.upper %b[%o] : !layout.desc<?x?>
    %row = arith.muli %u#0, %n : index
    %lin = arith.addi %row, %u#1 : index
    %ne = arith.cmpi ne, %lin, %o : index
    %out = arith.cmpi uge, %u#1, %n : index
    %wrong = arith.ori %ne, %out : i1
    %inc = arith.extui %wrong : i1 to i64
    %bad1 = arith.addi %bad, %inc : i64
    scf.yield %bad1 : i64
  }
  %flat = layout.transform %b [#layout.merge<[?, ?]> : [0, 1] -> [0]]
          args(%k, %n) : !layout.desc<?x?> -> !layout.desc<?>
  %start = layout.make_coord %flat[%c0] : !layout.desc<?> -> !layout.coord<?, 3>
  %co:2 = scf.for %o = %c0 to %size step %c1 iter_args(%cur = %start, %bad = %zero) -> (!layout.coord<?, 3>, i64) {
    %off = layout.coord_offset %flat, %cur : !layout.desc<?>, !layout.coord<?, 3>
    %ne = arith.cmpi ne, %off, %o : index
    %inc = arith.extui %ne : i1 to i64
    %bad1 = arith.addi %bad, %inc : i64
    %moved = layout.move_coord %flat, %cur by [1] : !layout.desc<?>, !layout.coord<?, 3>
    scf.yield %moved, %bad1 : !layout.coord<?, 3>, i64
  }
  return %up, %co#1 : i64, i64
}

func.func @report_gemm(%m: index, %n: index, %k: index, %lda: index, %ldc: index) {
  %r:3 = func.call @gemm(%m, %n, %k, %lda, %ldc) : (index, index, index, index, index) -> (i64, i64, i64)
  %m64 = arith.index_cast %m : index to i64
  %n64 = arith.index_cast %n : index to i64
  %k64 = arith.index_cast %k : index to i64
  vector.print str "gemm "
  vector.print %m64 : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n64 : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %k64 : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %r#0 : i64 punctuation <no_punctuation>
  vector.print str " mismatches, "
  vector.print %r#1 : i64 punctuation <no_punctuation>
  vector.print str " padded rows, checksum "
  vector.print %r#2 : i64
  return
}

func.func @report_packed(%k: index, %n: index) {
  %r:2 = func.call @packed_inverse(%k, %n) : (index, index) -> (i64, i64)
  %k64 = arith.index_cast %k : index to i64
  %n64 = arith.index_cast %n : index to i64
  vector.print str "packed "
  vector.print %k64 : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %n64 : i64 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %r#0 : i64 punctuation <no_punctuation>
  vector.print str " upper mismatches, "
  vector.print %r#1 : i64 punctuation <no_punctuation>
  vector.print str " coordinate mismatches\n"
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c24 = arith.constant 24 : index
  %c25 = arith.constant 25 : index
  %c40 = arith.constant 40 : index
  %c41 = arith.constant 41 : index
  func.call @report_gemm(%c5, %c3, %c16, %c20, %c5) : (index, index, index, index, index) -> ()
  func.call @report_gemm(%c8, %c7, %c8, %c8, %c9) : (index, index, index, index, index) -> ()
  func.call @report_gemm(%c3, %c2, %c24, %c25, %c2) : (index, index, index, index, index) -> ()
  func.call @report_gemm(%c13, %c9, %c40, %c41, %c12) : (index, index, index, index, index) -> ()
  func.call @report_packed(%c16, %c3) : (index, index) -> ()
  func.call @report_packed(%c40, %c9) : (index, index) -> ()
  return
}
