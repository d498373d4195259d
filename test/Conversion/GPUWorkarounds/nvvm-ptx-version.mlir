// RUN: layout-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(layout-nvvm-ptx-version))' | FileCheck %s

/// A call of the FP8 mma.sync intrinsic (the table's minimumPtxVersion: 84)
/// raises the target's +ptx80 to +ptx84, keeping its other features.
// CHECK-LABEL: gpu.module @fp8
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+foo,+ptx84">
gpu.module @fp8 [#nvvm.target<chip = "sm_90", features = "+ptx80,+foo">] {
  llvm.func @f(%a: i32, %c: f32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %r = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"(%a, %a, %a, %a, %a, %a, %c, %c, %c, %c) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32)>
  }
}

// -----

/// A target without a PTX version gets one; one above 8.4 keeps its own.
// CHECK-LABEL: gpu.module @default
// CHECK-SAME: #nvvm.target<chip = "sm_89", features = "+ptx84">
gpu.module @default [#nvvm.target<chip = "sm_89">] {
  llvm.func @f(%a: i32, %c: f32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %r = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e5m2.f32"(%a, %a, %a, %a, %a, %a, %c, %c, %c, %c) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32)>
  }
}
// CHECK-LABEL: gpu.module @newer
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+ptx86">
gpu.module @newer [#nvvm.target<chip = "sm_90", features = "+ptx86">] {
  llvm.func @f(%a: i32, %c: f32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %r = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"(%a, %a, %a, %a, %a, %a, %c, %c, %c, %c) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32)>
  }
}

// -----

/// Without such calls (another intrinsic) the target is left alone.
// CHECK-LABEL: gpu.module @none
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+ptx80">
gpu.module @none [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  llvm.func @f(%x: f32) -> f32 {
    %r = llvm.call_intrinsic "llvm.fabs.f32"(%x) : (f32) -> f32
    llvm.return %r : f32
  }
}
