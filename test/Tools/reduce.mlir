// RUN: printf '#!/bin/sh\nif %layout_tools_dir/layout-opt "$1" -convert-layout-to-affine 2>&1 | grep -q "cannot be lowered: the descriptor.s origin cannot be traced"; then exit 1; fi\nexit 0\n' > %t.interesting.sh
// RUN: chmod +x %t.interesting.sh
// RUN: layout-reduce %s -layout-reduce-ops='test=%t.interesting.sh' -o %t.reduced.mlir
// RUN: FileCheck %s < %t.reduced.mlir
// RUN: grep -c "func.func" %t.reduced.mlir | FileCheck %s --check-prefix=ONE
// MLIR's reduction tree still works, at the granularity of whole functions.
// RUN: layout-reduce %s -reduction-tree='traversal-mode=0 test=%t.interesting.sh' -o %t.tree.mlir
// RUN: grep -c "func.func" %t.tree.mlir | FileCheck %s --check-prefix=ONE
// An input that is not interesting is refused.
// RUN: printf '#!/bin/sh\nexit 0\n' > %t.never.sh
// RUN: chmod +x %t.never.sh
// RUN: not layout-reduce %s -layout-reduce-ops='test=%t.never.sh' -o %t.none.mlir 2>&1 | FileCheck %s --check-prefix=BORING

/// layout-reduce shrinks a file on which -convert-layout-to-affine fails
/// (a layout.offset of a descriptor that is a block argument) to the one
/// op that fails, keeping the failure: the interestingness script exits 1
/// while layout-opt still gives the same message. -layout-reduce-ops erases
/// the two other functions, then every op of the failing one but the
/// offset (the arithmetic, the other descriptor, the loads, the store); the
/// value it returns becomes a ub.poison (which is not tried again: erasing a
/// poison would put another in its place, forever).

// CHECK-NOT: @fine
// CHECK-NOT: @also_fine
// CHECK: func.func @failing
// CHECK-NEXT: layout.offset %arg0
// CHECK-NEXT: %[[P:.*]] = ub.poison : f32
// CHECK-NEXT: return %[[P]] : f32
// CHECK-NEXT: }
// ONE: {{^1$}}
// BORING: the input is not interesting to the test script

func.func @fine(%i: index, %j: index, %m: memref<16xf32>) -> f32 {
  %p = layout.packed [4, 4] : !layout.desc<4x4>
  %t = layout.transform %p [#layout.xor<[4, 4]> : [0, 1] -> [0, 1]] : !layout.desc<4x4> -> !layout.desc<4x4>
  %o = layout.offset %t[%i, %j] : !layout.desc<4x4>
  %v = memref.load %m[%o] : memref<16xf32>
  return %v : f32
}

func.func @failing(%d: !layout.desc<4x4>, %i: index, %j: index, %m: memref<16xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = arith.addi %i, %c1 : index
  %b = arith.muli %a, %c2 : index
  %p = layout.packed [4, 4] : !layout.desc<4x4>
  %o1 = layout.offset %p[%b, %j] : !layout.desc<4x4>
  %v1 = memref.load %m[%o1] : memref<16xf32>
  %o = layout.offset %d[%i, %j] : !layout.desc<4x4>
  %v = memref.load %m[%o] : memref<16xf32>
  %s = arith.addf %v, %v1 : f32
  memref.store %s, %m[%c1] : memref<16xf32>
  return %s : f32
}

func.func @also_fine(%x: index) -> index {
  %c3 = arith.constant 3 : index
  %y = arith.muli %x, %c3 : index
  return %y : index
}
