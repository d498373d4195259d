// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// layout.element_space_size of descriptors with run-time lengths and
/// strides (issue 38), executed on the CPU for several values. Each size is
/// printed next to one more than the largest offset of any coordinate (every
/// coordinate walked through layout.offset), which a least-space base must
/// equal, and checked against the sizes computed here by hand:
///
///   packed [%n, 4]:                         4 n
///   packed [%n, %m, 3] merged into one dim: 3 n m
///   naive [%n, 8] strides [%ld, 1] offset 3: 3 + 1 + (n - 1) ld + 7

// CHECK: packed [5, 4]: 20 = 20
// CHECK-NEXT: packed [1, 4]: 4 = 4
// CHECK-NEXT: merged packed [2, 5, 3]: 30 = 30
// CHECK-NEXT: merged packed [3, 1, 3]: 9 = 9
// CHECK-NEXT: naive [4, 8] strides [10, 1] offset 3: 41 = 41
// CHECK-NEXT: naive [2, 8] strides [8, 1] offset 3: 19 = 19

/// Prints "<size> = <largest offset + 1>".
func.func @report(%size: index, %top: index) {
  %s = arith.index_cast %size : index to i64
  %t = arith.index_cast %top : index to i64
  vector.print %s : i64 punctuation <no_punctuation>
  vector.print str " = "
  vector.print %t : i64
  return
}

func.func @packed(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = layout.packed [%n, 4] : !layout.desc<?x4>
  %size = layout.element_space_size %d : !layout.desc<?x4>
  %top = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> index {
    %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> index {
      %o = layout.offset %d[%i, %j] : !layout.desc<?x4>
      %o1 = arith.addi %o, %c1 : index
      %m = arith.maxsi %b, %o1 : index
      scf.yield %m : index
    }
    scf.yield %r : index
  }
  call @report(%size, %top) : (index, index) -> ()
  return
}

func.func @merged(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %d = layout.packed [%n, %m, 3] : !layout.desc<?x?x3>
  %t = layout.transform %d [#layout.merge<[?, ?, 3]> : [0, 1, 2] -> [0]] args(%n, %m) : !layout.desc<?x?x3> -> !layout.desc<?>
  %size = layout.element_space_size %t : !layout.desc<?>
  %nm = arith.muli %n, %m : index
  %count = arith.muli %nm, %c3 : index
  %top = scf.for %i = %c0 to %count step %c1 iter_args(%a = %c0) -> index {
    %o = layout.offset %t[%i] : !layout.desc<?>
    %o1 = arith.addi %o, %c1 : index
    %x = arith.maxsi %a, %o1 : index
    scf.yield %x : index
  }
  call @report(%size, %top) : (index, index) -> ()
  return
}

func.func @naive(%n: index, %ld: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d = layout.naive [%n, 8] strides [%ld, 1] offset 3 : !layout.desc<?x8>
  %size = layout.element_space_size %d : !layout.desc<?x8>
  %top = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> index {
    %r = scf.for %j = %c0 to %c8 step %c1 iter_args(%b = %a) -> index {
      %o = layout.offset %d[%i, %j] : !layout.desc<?x8>
      %o1 = arith.addi %o, %c1 : index
      %x = arith.maxsi %b, %o1 : index
      scf.yield %x : index
    }
    scf.yield %r : index
  }
  call @report(%size, %top) : (index, index) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  vector.print str "packed [5, 4]: "
  call @packed(%c5) : (index) -> ()
  vector.print str "packed [1, 4]: "
  call @packed(%c1) : (index) -> ()
  vector.print str "merged packed [2, 5, 3]: "
  call @merged(%c2, %c5) : (index, index) -> ()
  vector.print str "merged packed [3, 1, 3]: "
  call @merged(%c3, %c1) : (index, index) -> ()
  vector.print str "naive [4, 8] strides [10, 1] offset 3: "
  call @naive(%c4, %c10) : (index, index) -> ()
  vector.print str "naive [2, 8] strides [8, 1] offset 3: "
  call @naive(%c2, %c8) : (index, index) -> ()
  return
}
