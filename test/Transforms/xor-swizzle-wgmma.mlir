// RUN: layout-opt %s -split-input-file -layout-xor-swizzle=chip=sm_90a -verify-diagnostics | FileCheck %s
// A workgroup buffer that layout.warpgroup_mma reads or
// layout.bulk_tensor_load writes keeps its descriptor: their lowerings
// derive the hardware's swizzle mode from it (and refuse a layout that
// matches none), so the swizzle search leaves it alone. The remark says
// what the bank model proved of those accesses (one wavefront per core
// matrix, per 128 bytes of a box: include/layout/Target/SharedWavefronts.h)
// and of the others.

/// The 128B swizzle mode (Swizzle<3,3,3> on f16 elements), read by wgmma:
/// proved conflict-free. A column written by 64 threads conflicts all the
/// same: row r's element 0 is at byte 128 r + 16 (r mod 8), bank 4 (r mod
/// 8), so the 32 rows of a warp meet 4 by 4 in 8 banks: 4-way, 3 extra
/// cycles, kept.

// CHECK-LABEL: gpu.func @column
// CHECK: %[[S:.*]] = layout.transform {{.*}}#layout.unmerge
// CHECK-NOT: layout.transform
// CHECK: layout.offset %[[S]]
gpu.module @k {
  // expected-remark @+1 {{not swizzled: its descriptor is kept for layout.warpgroup_mma, in the 128B swizzle mode: its 2 wgmma reads are proved conflict-free at every tile origin (one wavefront per core matrix, 8 rows of 16 bytes); 3 extra cycles of its other accesses are kept}}
  gpu.func @column(%out: memref<128x32xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %row = arith.remui %tid, %c64 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %w = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %s = layout.transform %w [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    %at = layout.offset %s[%row, %c0] : !layout.desc<64x64>
    %x = arith.constant 1.0 : f16
    memref.store %x, %a[%at] : memref<4096xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %d = layout.warpgroup_mma %acc, %a[%s : %c0, %c0], %a[%s : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    vector.store %d, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

/// Written by TMA and read by wgmma only, in the 128B mode: nothing else to
/// prove, proved conflict-free, left as it is.

// CHECK-LABEL: gpu.func @staged
gpu.module @k {
  // expected-remark @+1 {{no bank conflicts, proved for every wave, block and iteration; left as it is: its descriptor is kept for layout.bulk_tensor_load and layout.warpgroup_mma, in the 128B swizzle mode: its 2 wgmma reads and 1 TMA box write are proved conflict-free at every tile origin (one wavefront per 128 bytes of the box, 8 chunks of 16 bytes; one wavefront per core matrix, 8 rows of 16 bytes)}}
  gpu.func @staged(%A: memref<?x?xf16>, %out: memref<128x32xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %bars: memref<1xi64, #gpu.address_space<workgroup>> {llvm.align = 8 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %w = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %s = layout.transform %w [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    layout.bulk_tensor_load %A[%c0, %c0], %a[%s : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<1xi64, #gpu.address_space<workgroup>>
    layout.mbarrier_wait %bars[%c0] parity %c0 : memref<1xi64, #gpu.address_space<workgroup>>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %d = layout.warpgroup_mma %acc, %a[%s : %c0, %c0], %a[%s : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    vector.store %d, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

/// A packed (unswizzled) buffer read by wgmma matches no hardware mode: the
/// remark says why, and the descriptor stays (the lowering refuses it).

// CHECK-LABEL: gpu.func @packed
// CHECK-NOT: layout.transform
gpu.module @k {
  // expected-remark @+1 {{not swizzled: its descriptor is kept for layout.warpgroup_mma; wgmma reads of A: not proved: its descriptor cannot be read by wgmma: it matches no swizzle mode of wgmma}}
  gpu.func @packed(%out: memref<128x32xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    vector.store %d, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}
