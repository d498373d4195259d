// RUN: layout-opt %s -layout-xor-swizzle=chip=sm_90a -verify-diagnostics | FileCheck %s
// A workgroup buffer that layout.warpgroup_mma reads keeps its descriptor:
// wgmma reads it in a hardware swizzle mode (or its lowering refuses it),
// so the swizzle search leaves it alone even where its other accesses
// conflict (here a column written by 64 threads).

// CHECK-LABEL: gpu.func @column
// CHECK: %[[P:.*]] = layout.packed [64, 64]
// CHECK-NOT: layout.transform
// CHECK: layout.offset %[[P]]
gpu.module @k {
  // expected-remark @+1 {{not swizzled: layout.warpgroup_mma reads it in the hardware swizzle mode its descriptor has; 31 extra cycles of its other accesses are kept}}
  gpu.func @column(%out: memref<128x32xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %row = arith.remui %tid, %c64 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %at = layout.offset %p[%row, %c0] : !layout.desc<64x64>
    %x = arith.constant 1.0 : f16
    memref.store %x, %a[%at] : memref<4096xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    vector.store %d, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}
