// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx90a -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx950 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX1100
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90

/// The design's hand-written kernels (design/examples/transpose-prototype.mlir)
/// on a 32x32 f32 tile with 32x8 threads; the counts are worked out by hand:
///
/// * writes tile[r][tx]: a row of consecutive words, no conflict anywhere;
/// * reads tile[tx][r] of the plain 32x32 tile: lane i reads word 32 i + r,
///   all in bank r of 32: 32-way. A wave64 (gfx942) has two phases of 32
///   lanes, each 31 extra cycles: 62. gfx950's 64 banks put rows i and
///   i + 1 in two halves: bank (32 i + r) mod 64 takes 2 values for 32
///   lanes, and lanes 32..63 read column r + 1: 16-way, 15 extra cycles in
///   its one phase of 64 lanes. A warp or a wave32: 31.
/// * the 32x33 padded tile and the xor tile (col ^ row) do not conflict,
///   except the padded one's reads on gfx950: a wave64 reads rows tx of
///   columns r and r + 1, words 33 tx + r and 33 tx + r + 1, which meet
///   modulo 64 banks once: 2-way, 1 extra cycle. gfx950 serves writes
///   with 32 banks in halves of 32 lanes (Chip.h), so its writes, one row
///   per half-wave, do not conflict.

// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 0 extra cycles (1-way; 4-byte reads, 2 phases of 32 lanes)
// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 0 extra cycles (1-way; 4-byte reads, 2 phases of 32 lanes)
// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX942: remark: bank conflicts on {{gfx942|gfx90a}}: 62 extra cycles (32-way; 4-byte reads, 2 phases of 32 lanes)

// GFX950: remark: bank conflicts on gfx950: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX950: remark: bank conflicts on gfx950: 1 extra cycles (2-way; 4-byte reads, 1 phases of 64 lanes)
// GFX950: remark: bank conflicts on gfx950: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX950: remark: bank conflicts on gfx950: 0 extra cycles (1-way; 4-byte reads, 1 phases of 64 lanes)
// GFX950: remark: bank conflicts on gfx950: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// GFX950: remark: bank conflicts on gfx950: 15 extra cycles (16-way; 4-byte reads, 1 phases of 64 lanes)

// GFX1100-COUNT-5: remark: bank conflicts on gfx1100: 0 extra cycles (1-way; 4-byte {{reads|writes}}, 1 phases of 32 lanes)
// GFX1100: remark: bank conflicts on gfx1100: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes)

// SM90-COUNT-5: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte {{reads|writes}}, 1 phases of 32 lanes)
// SM90: remark: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes)

// GFX942-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 
// GFX950-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 
// GFX1100-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 
// SM90-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose_pad(%in: memref<8192x8192xf32>, %out: memref<8192x8192xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %sx = arith.addi %x0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %v = memref.load %in[%sy, %sx] : memref<8192x8192xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %dx = arith.addi %y0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %v = memref.load %tile[%tx, %r] : memref<32x33xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%dy, %dx] : memref<8192x8192xf32>
      }
      gpu.return
    }
    gpu.func @transpose_xor(%in: memref<8192x8192xf32>, %out: memref<8192x8192xf32>)
        workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %sx = arith.addi %x0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %v = memref.load %in[%sy, %sx] : memref<8192x8192xf32>
        %col = arith.xori %tx, %r : index
        memref.store %v, %tile[%r, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %dx = arith.addi %y0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %col = arith.xori %r, %tx : index
        %v = memref.load %tile[%tx, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%dy, %dx] : memref<8192x8192xf32>
      }
      gpu.return
    }
    gpu.func @transpose_conflict(%in: memref<8192x8192xf32>, %out: memref<8192x8192xf32>)
        workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %sx = arith.addi %x0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %v = memref.load %in[%sy, %sx] : memref<8192x8192xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %dx = arith.addi %y0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %v = memref.load %tile[%tx, %r] : memref<32x32xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%dy, %dx] : memref<8192x8192xf32>
      }
      gpu.return
    }
  }
}
