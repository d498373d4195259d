// RUN: layout-opt %s -layout-extern-dynamic-shared-memory | FileCheck %s

/// MLIR 22's -convert-gpu-to-nvvm declares the global behind
/// gpu.dynamic_shared_memory (a zero-length array in address space 3) with
/// internal linkage, which NVPTX demotes to a one-byte static .shared
/// variable; the pass makes it external (PTX's .extern .shared array).
/// Other globals keep their linkage: a shared array of known length, and a
/// zero-length array of another address space.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global external @__dynamic_shmem__0()
// CHECK-SAME: !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_shared()
// CHECK: llvm.mlir.global internal @global_zero()
module {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @static_shared() {addr_space = 3 : i32} : !llvm.array<16 x i8>
  llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
