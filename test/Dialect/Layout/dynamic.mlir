// RUN: layout-opt %s -allow-unregistered-dialect \
// RUN:   | layout-opt -allow-unregistered-dialect | FileCheck %s --check-prefix=ROUND
// RUN: layout-opt %s -allow-unregistered-dialect -canonicalize \
// RUN:   | FileCheck %s --check-prefix=CANON

/// Run-time lengths, strides and transform arguments: `?` in the types and
/// attributes, SSA operands in the base ops' lists and in args(...).

// ROUND-LABEL: func.func @round_trip(
// ROUND-SAME: %[[M:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index, %[[LDA:[a-z0-9]+]]: index
// ROUND: %[[A:.*]] = layout.naive [%[[M]], %[[K]]] strides [%[[LDA]], 1] : !layout.desc<?x?>
// ROUND: layout.transform %[[A]] [#layout.pad<?, 1, ?> : [0] -> [0], #layout.unmerge<[?, 8]> : [1] -> [1, 2]] args(%[[M]], %[[K]], %[[K]]) : !layout.desc<?x?> -> !layout.desc<?x?x8>
// ROUND: layout.packed [%[[M]], 4] : !layout.desc<?x4>
func.func @round_trip(%m: index, %k: index, %lda: index) {
  %a = layout.naive [%m, %k] strides [%lda, 1] : !layout.desc<?x?>
  %t = layout.transform %a [#layout.pad<?, 1, ?> : [0] -> [0],
                            #layout.unmerge<[?, 8]> : [1] -> [1, 2]]
       args(%m, %k, %k) : !layout.desc<?x?> -> !layout.desc<?x?x8>
  %p = layout.packed [%m, 4] : !layout.desc<?x4>
  return
}

/// Constant operands fold into the static lists (the types keep their
/// `?`), and a chain that becomes static folds like any other: the offset of
/// (1, 2) in packed [3, 4] through merge<[3, 4]> at 6 is 6.
// CANON-LABEL: func.func @fold_constants(
// CANON-SAME: %[[N:[a-z0-9]+]]: index
// CANON: %[[C6:.*]] = arith.constant 6 : index
// CANON: layout.naive [3, %[[N]]] strides [%[[N]], 1] : !layout.desc<?x?>
// CANON: layout.transform %{{.*}} [#layout.pass_through<3> : [0] -> [0], #layout.slice<?, 1, 2> : [1] -> [1]] args(%[[N]]) : !layout.desc<?x?> -> !layout.desc<?x?>
// CANON: return %[[C6]]
func.func @fold_constants(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %a = layout.naive [%c3, %n] strides [%n, %c1] : !layout.desc<?x?>
  %s = layout.transform %a [#layout.pass_through<?> : [0] -> [0],
                            #layout.slice<?, ?, 2> : [1] -> [1]]
       args(%c3, %n, %c1) : !layout.desc<?x?> -> !layout.desc<?x?>
  "test.use"(%s) : (!layout.desc<?x?>) -> ()
  %p = layout.packed [%c3, %c4] : !layout.desc<?x?>
  %m = layout.transform %p [#layout.merge<[?, ?]> : [0, 1] -> [0]]
       args(%c3, %c4) : !layout.desc<?x?> -> !layout.desc<?>
  %o = layout.offset %m[%c6] : !layout.desc<?>
  return %o : index
}
