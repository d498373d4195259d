// RUN: printf '#!/bin/sh\nif %layout_tools_dir/layout-opt "$1" -convert-layout-to-affine 2>&1 | grep -q "cannot be lowered: the descriptor.s origin cannot be traced"; then exit 1; fi\nexit 0\n' > %t.interesting.sh
// RUN: chmod +x %t.interesting.sh
// RUN: layout-reduce %s -reduction-tree='traversal-mode=0 test=%t.interesting.sh' -o %t.reduced.mlir
// RUN: FileCheck %s < %t.reduced.mlir
// RUN: grep -c "func.func" %t.reduced.mlir | FileCheck %s --check-prefix=ONE

/// layout-reduce shrinks a file on which -convert-layout-to-affine fails
/// (a layout.offset of a descriptor that is a block argument) to the
/// function that fails, keeping the failure: the interestingness script
/// exits 1 while layout-opt still gives the same message. The two other
/// functions go. (MLIR's reduction tree erases whole ops at the top level;
/// the ops inside the failing function all feed its side effects and stay.)

// CHECK-NOT: @fine
// CHECK-NOT: @also_fine
// CHECK: func.func @failing
// CHECK: layout.offset %arg0
// ONE: {{^1$}}

func.func @fine(%i: index, %j: index, %m: memref<16xf32>) -> f32 {
  %p = layout.packed [4, 4] : !layout.desc<4x4>
  %t = layout.transform %p [#layout.xor<[4, 4]> : [0, 1] -> [0, 1]] : !layout.desc<4x4> -> !layout.desc<4x4>
  %o = layout.offset %t[%i, %j] : !layout.desc<4x4>
  %v = memref.load %m[%o] : memref<16xf32>
  return %v : f32
}

func.func @failing(%d: !layout.desc<4x4>, %i: index, %j: index, %m: memref<16xf32>) {
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
  return
}

func.func @also_fine(%x: index) -> index {
  %c3 = arith.constant 3 : index
  %y = arith.muli %x, %c3 : index
  return %y : index
}
