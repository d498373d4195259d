// RUN: layout-opt %s -layout-bulk-tensor-to-nvvm | FileCheck %s
// TMA's im2col mode: the box of 64 pixels of 64 channels of an NHWC input
// becomes cp.async.bulk.tensor in im2col mode, its coordinates and filter
// offsets innermost first (c, w, h, n; w, h), the offsets 16-bit; the
// exported map says im2col (word 12 = 1), its corners W then H as 16-bit
// fields (words 13, 14: lower -1, -1; upper W -2, H -1) and its traversal strides a byte each, C first
// (word 15: C 1, W 1, H 2, N 1 = 0x01020101 = 16908545).

// CHECK: llvm.mlir.global external constant @k_tensor_maps(dense<[1, 1, 0, 4, 6, 2, 3, 0, 3, 64, 64, 0, 0, 0, 1, 4294967295, 4294967294, 16908545]>
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: %{{.*}}: memref<32x14x14x256xf16>, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64})
// CHECK: %[[OW:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[OH:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] im2col[%[[OW]], %[[OH]]] {mode = #nvvm.tma_load_mode<im2col>}
!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<4096xf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @k(%x: memref<32x14x14x256xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m1 = arith.constant -1 : index
    // 64 x 64 f16, rows of 128 bytes, the 128B xor.
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %dd = layout.transform %s [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    layout.mbarrier_init %bars[%c0] arrivals 1 : !bars
    layout.bulk_tensor_load %x[%c1, %m1, %m1, %c0] im2col[%c2, %c1], %buf[%dd : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>, lower_corner = array<i64: -1, -1>, upper_corner = array<i64: -1, -2>, traversal_strides = array<i64: 2, 1>} : memref<32x14x14x256xf16>, !buf, !layout.desc<64x64>, !bars
    gpu.return
  }
}
