// RUN: layout-opt %s -layout-bulk-tensor-to-nvvm | FileCheck %s
//
// Two boxes into a two-stage buffer laid out for wgmma's 128B mode (rows of
// 64 f16 = 128 bytes, the xor Swizzle<3, 3, 3> on element offsets): the TMA
// swizzle is read off the descriptor (CUtensorMapSwizzle 3 = 128B), and
// both copies of argument 0 with the same box share one tensor-map
// parameter; argument 1's box of 64 x 32 rows of a plain packed buffer
// (64-byte rows, no xor) is copied unswizzled (0). The export (version 1,
// 2 maps): argument, rank, CUtensorMapDataType (6 f16, 9 bf16), element
// bytes, swizzle, OOB fill, L2 promotion, the box innermost first.
// CHECK: llvm.mlir.global external constant @k_tensor_maps(dense<[1, 2, 0, 2, 6, 2, 3, 0, 3, 64, 128, 0, 0, 0, 0, 0, 0, 0, 1, 2, 9, 2, 0, 0, 3, 32, 64, 0, 0, 0, 0, 0, 0, 0]>
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xbf16>, %[[MA:.*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[MB:.*]]: !llvm.ptr {llvm.align = 64 : i64})
// CHECK-SAME: layout.tensor_map_params = 2
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: layout.offset
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MA]], %{{.*}}, box[%[[K:.*]], %[[M:.*]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MA]], %{{.*}}, box
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MB]], %{{.*}}, box
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: layout.bulk_tensor_load
// CHECK-NOT: layout.mbarrier
!bars = memref<2xi64, #gpu.address_space<workgroup>>
!buf = memref<16384xf16, #gpu.address_space<workgroup>>
!bbuf = memref<2048xbf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%A: memref<?x?xf16>, %B: memref<?x?xbf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bbuf: !bbuf {llvm.align = 128 : i64}, %bars: !bars) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // Two stages of 128 x 64 f16, rows of 128 bytes, the 128B xor.
    %p = layout.packed [2, 128, 64] : !layout.desc<2x128x64>
    %m = layout.transform %p [#layout.merge<[2, 128, 64]> : [0, 1, 2] -> [0]] : !layout.desc<2x128x64> -> !layout.desc<16384>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 16384> : [0] -> [0]] : !layout.desc<16384> -> !layout.desc<16384>
    %d = layout.transform %s [#layout.unmerge<[2, 128, 64]> : [0] -> [0, 1, 2]] : !layout.desc<16384> -> !layout.desc<2x128x64>
    %bd = layout.packed [64, 32] : !layout.desc<64x32>
    layout.mbarrier_init %bars[%c0] arrivals 1 : !bars
    layout.mbarrier_arrive_expect_tx %bars[%c0] bytes 36864 : !bars
    layout.bulk_tensor_load %A[%c128, %c64], %buf[%d : %c0, %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 1, 2>} : memref<?x?xf16>, !buf, !layout.desc<2x128x64>, !bars
    layout.bulk_tensor_load %A[%c0, %c128], %buf[%d : %c1, %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 1, 2>} : memref<?x?xf16>, !buf, !layout.desc<2x128x64>, !bars
    layout.bulk_tensor_load %B[%c0, %c0], %bbuf[%bd : %c0, %c0], %bars[%c0] {box = array<i64: 64, 32>, dest_dims = array<i64: 0, 1>} : memref<?x?xbf16>, !bbuf, !layout.desc<64x32>, !bars
    layout.mbarrier_wait %bars[%c0] parity %c0 : !bars
    gpu.return
  }
}
}
