// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s

/// The model's interpreter evaluates compares, selects and memref.dim. A
/// dynamic extent takes several sample values (1024, 1025, 1031, 8191) and
/// the worst case is reported.
///
/// @select: lanes read column 5 of row select(0 != 1, tx ^ 1, tx) = tx ^ 1:
/// 32 distinct rows of a 32x32 f32 tile, every lane in bank 5: 32-way.
/// @dynamic: lane tx reads word tx * (n mod 2 + 1): for an even sample n,
/// consecutive words (no conflict); for an odd one, every other word, 2-way.
/// The worst case over the samples is 2-way.

// CHECK: remark: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes)
// CHECK: remark: bank conflicts on sm_90: 1 extra cycles (2-way; 4-byte reads, 1 phases of 32 lanes)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @select(%out: memref<32xf32>)
        workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %tx = gpu.thread_id x
      %x = arith.xori %tx, %c1 : index
      %c0 = arith.constant 0 : index
      %is = arith.cmpi ne, %c0, %c1 : index
      %row = arith.select %is, %x, %tx : index
      %v = memref.load %tile[%row, %c5] : memref<32x32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tx] : memref<32xf32>
      gpu.return
    }
    gpu.func @dynamic(%in: memref<?xf32>, %out: memref<32xf32>)
        workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %n = memref.dim %in, %c0 : memref<?xf32>
      %m = arith.remui %n, %c2 : index
      %s = arith.addi %m, %c1 : index
      %i = arith.muli %tx, %s : index
      %v = memref.load %buf[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tx] : memref<32xf32>
      gpu.return
    }
  }
}
