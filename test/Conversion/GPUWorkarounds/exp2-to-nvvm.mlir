// RUN: layout-opt %s -split-input-file -layout-exp2-to-nvvm | FileCheck %s
// The pipeline: a gpu.module's own target with the flag (@ftz), and one the
// pipeline attaches (@plain) with ftz=true and without.
// RUN: rm -rf %t && layout-opt %s -split-input-file -layout-to-nvvm="chip=sm_90 format=isa ftz=true" -layout-dump-binaries=dir=%t/ftz -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX-FTZ < %t/ftz/ftz.sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX-FTZ < %t/ftz/plain.sm_90.ptx
// RUN: layout-opt %s -split-input-file -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/plain -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX-FTZ < %t/plain/ftz.sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/plain/plain.sm_90.ptx

/// A target with the ftz flag: f32 exp2, scalar and vector (element by
/// element, in row-major order), becomes ex2.approx.ftz.f32; f64 stays.
// CHECK-LABEL: gpu.module @ftz
// CHECK-LABEL: gpu.func @f
// CHECK-SAME: (%[[X:[^:]*]]: f32, %[[V:[^:]*]]: vector<2x2xf32>, %[[D:[^:]*]]: f64
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK: %[[V00:.*]] = vector.extract %[[V]][0, 0]
// CHECK: %[[E00:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[V00]]
// CHECK: %[[V01:.*]] = vector.extract %[[V]][0, 1]
// CHECK: %[[E01:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[V01]]
// CHECK: %[[V10:.*]] = vector.extract %[[V]][1, 0]
// CHECK: %[[E10:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[V10]]
// CHECK: %[[V11:.*]] = vector.extract %[[V]][1, 1]
// CHECK: %[[E11:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[V11]]
// CHECK: vector.from_elements %[[E00]], %[[E01]], %[[E10]], %[[E11]] : vector<2x2xf32>
// CHECK: math.exp2 %[[D]] : f64
// CHECK-NOT: math.exp2 {{.*}} : f32
// The pipeline with ftz=true: the instruction, not libdevice's branch.
// PTX-FTZ: ex2.approx.ftz.f32
// PTX-FTZ-NOT: ex2.approx.f32
// Without: libdevice's __nv_exp2f, ex2.approx.f32 with its subnormal
// handling.
// PTX: ex2.approx.f32
// PTX-NOT: ex2.approx.ftz.f32
module attributes {gpu.container_module} {
  gpu.module @ftz [#nvvm.target<chip = "sm_90", flags = {ftz}>] {
    gpu.func @f(%x: f32, %v: vector<2x2xf32>, %d: f64, %out: memref<6xf32>, %outd: memref<1xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %y = math.exp2 %x : f32
      %w = math.exp2 %v : vector<2x2xf32>
      %e = math.exp2 %d : f64
      memref.store %y, %out[%c0] : memref<6xf32>
      %w0 = vector.extract %w[0, 0] : f32 from vector<2x2xf32>
      %w3 = vector.extract %w[1, 1] : f32 from vector<2x2xf32>
      memref.store %w0, %out[%c1] : memref<6xf32>
      memref.store %w3, %out[%c2] : memref<6xf32>
      memref.store %e, %outd[%c0] : memref<1xf64>
      gpu.return
    }
  }
}

// -----

/// No ftz flag (and no target): unchanged.
// CHECK-LABEL: gpu.module @plain
// CHECK: math.exp2 %{{.*}} : f32
// CHECK-NOT: llvm.inline_asm
module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @g(%x: f32, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %y = math.exp2 %x : f32
      memref.store %y, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
