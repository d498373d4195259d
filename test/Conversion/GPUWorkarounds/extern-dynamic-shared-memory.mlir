// RUN: layout-opt %s -split-input-file -layout-extern-dynamic-shared-memory | FileCheck %s

/// MLIR 22's -convert-gpu-to-nvvm declares the global behind
/// gpu.dynamic_shared_memory (a zero-length array in address space 3) with
/// internal linkage, which NVPTX demotes to a one-byte static .shared
/// variable; the pass makes it external (PTX's .extern .shared array).
/// Other globals keep their linkage: a shared array of known length, and a
/// zero-length array of another address space.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global external @__dynamic_shmem__0()
// CHECK-SAME: alignment = 16
// CHECK-SAME: !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_shared()
// CHECK: llvm.mlir.global internal @global_zero()
module {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @static_shared() {addr_space = 3 : i32} : !llvm.array<16 x i8>
  llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}

// -----

/// In a module with wgmma, the start of dynamic shared memory is aligned to
/// the 128-byte swizzle's 1024-byte pattern, as the buffers placed in it
/// are (at multiples of their own alignment from the start).
// CHECK-LABEL: module
// CHECK: llvm.mlir.global external @__dynamic_shmem__0()
// CHECK-SAME: alignment = 1024
module {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%acc: !llvm.struct<(f32, f32, f32, f32)>, %da: i64, %db: i64) -> !llvm.struct<(f32, f32, f32, f32)> {
    %d = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
  }
}
