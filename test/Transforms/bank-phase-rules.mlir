// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx90a -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CDNA3
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CDNA3
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx950 -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CDNA4
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s --check-prefixes=RDNA3
// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefixes=SM90

/// One test per phase rule of Chip::phaseRule (the sources are cited there).
/// 64 threads; the counts were worked out by hand from the rules.
///
/// @bank0_*: lane l accesses f32 element 64 l (256-byte stride): every lane
/// in bank 0 (banks 0-3 for 16 bytes), distinct words, so each phase of n
/// lanes is n-way and a wave's extra cycles are its lanes minus its phases.
/// That pins the phase sizes: gfx942 b32 2 x 32 (62), b64 4 x 16 (60), b128
/// 8 x 8 (56); gfx950 reads b32 1 x 64 (63), b64 2 x 32 (62), b128 4 x 16
/// (60), writes as gfx942; gfx1100 and sm_90 per wave32 1 x 32 (31), 2 x 16
/// (30), 4 x 8 (28).
///
/// @keyed_cdna3_*: 16-byte accesses at byte 16 (l & 3) + 64 bit4(l) +
/// 128 (l / 4). Lanes 4q..4q+3 fill 64 bytes; the quads of one 8-lane block
/// meet in one half of the bank line. In phases of 8 consecutive lanes
/// (writes; sm_90) every phase is 2-way; in gfx942's read phases, which
/// pair lanes 0-3 with 20-23 (l5, l3, l2 xor l4), the two quads of a phase
/// differ in bit 4, so in half of the line: 0 extra. gfx1100's reads pair
/// the same lanes.
///
/// @keyed_cdna4_*: byte 16 (l & 3) + 64 ((l >> 3) & 3) + 256 (l / 4):
/// gfx950's 16-lane read phases (l5, l2 xor l3 xor l4) take quads {0, 3, 5,
/// 6} and {1, 2, 4, 7}, whose (l >> 3) & 3 are 0, 1, 2, 3 each: four 64-byte
/// quarters of 64 banks, 0 extra. In 16 consecutive lanes two quads share a
/// quarter: 2-way.

// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 62 extra cycles (32-way; 4-byte reads, 2 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_read
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 62 extra cycles (32-way; 4-byte writes, 2 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_write
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 60 extra cycles (16-way; 8-byte reads, 4 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_read
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 60 extra cycles (16-way; 8-byte writes, 4 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_write
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 56 extra cycles (8-way; 16-byte reads, 8 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27, and the same + 32)); proved for all {{.*}} of @bank0_b128_read
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 56 extra cycles (8-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @bank0_b128_write
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 0 extra cycles (1-way; 16-byte reads, 8 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27, and the same + 32)); proved for all {{.*}} of @keyed_cdna3_read
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 8 extra cycles (2-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna3_write
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 8 extra cycles (2-way; 16-byte reads, 8 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27, and the same + 32)); proved for all {{.*}} of @keyed_cdna4_read
// CDNA3: bank conflicts on {{gfx90a|gfx942}}: 8 extra cycles (2-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna4_write

// CDNA4: bank conflicts on gfx950: 63 extra cycles (64-way; 4-byte reads, 1 phases of 64 lanes); proved for all {{.*}} of @bank0_b32_read
// CDNA4: bank conflicts on gfx950: 62 extra cycles (32-way; 4-byte writes, 2 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_write
// CDNA4: bank conflicts on gfx950: 62 extra cycles (32-way; 8-byte reads, 2 phases of 32 lanes); proved for all {{.*}} of @bank0_b64_read
// CDNA4: bank conflicts on gfx950: 60 extra cycles (16-way; 8-byte writes, 4 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_write
// CDNA4: bank conflicts on gfx950: 60 extra cycles (16-way; 16-byte reads, 4 phases of 16 lanes (lanes 0-3, 12-15, 20-23 and 24-27; 4-11, 16-19 and 28-31; and the same + 32)); proved for all {{.*}} of @bank0_b128_read
// CDNA4: bank conflicts on gfx950: 56 extra cycles (8-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @bank0_b128_write
// CDNA4: bank conflicts on gfx950: 0 extra cycles (1-way; 16-byte reads, 4 phases of 16 lanes (lanes 0-3, 12-15, 20-23 and 24-27; 4-11, 16-19 and 28-31; and the same + 32)); proved for all {{.*}} of @keyed_cdna3_read
// CDNA4: bank conflicts on gfx950: 8 extra cycles (2-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna3_write
// CDNA4: bank conflicts on gfx950: 0 extra cycles (1-way; 16-byte reads, 4 phases of 16 lanes (lanes 0-3, 12-15, 20-23 and 24-27; 4-11, 16-19 and 28-31; and the same + 32)); proved for all {{.*}} of @keyed_cdna4_read
// CDNA4: bank conflicts on gfx950: 8 extra cycles (2-way; 16-byte writes, 8 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna4_write

// RDNA3: bank conflicts on gfx1100: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_read
// RDNA3: bank conflicts on gfx1100: 31 extra cycles (32-way; 4-byte writes, 1 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_write
// RDNA3: bank conflicts on gfx1100: 30 extra cycles (16-way; 8-byte reads, 2 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_read
// RDNA3: bank conflicts on gfx1100: 30 extra cycles (16-way; 8-byte writes, 2 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_write
// RDNA3: bank conflicts on gfx1100: 28 extra cycles (8-way; 16-byte reads, 4 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27)); proved for all {{.*}} of @bank0_b128_read
// RDNA3: bank conflicts on gfx1100: 28 extra cycles (8-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @bank0_b128_write
// RDNA3: bank conflicts on gfx1100: 0 extra cycles (1-way; 16-byte reads, 4 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27)); proved for all {{.*}} of @keyed_cdna3_read
// RDNA3: bank conflicts on gfx1100: 4 extra cycles (2-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna3_write
// RDNA3: bank conflicts on gfx1100: 4 extra cycles (2-way; 16-byte reads, 4 phases of 8 lanes (lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27)); proved for all {{.*}} of @keyed_cdna4_read
// RDNA3: bank conflicts on gfx1100: 4 extra cycles (2-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna4_write

// SM90: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_read
// SM90: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte writes, 1 phases of 32 lanes); proved for all {{.*}} of @bank0_b32_write
// SM90: bank conflicts on sm_90: 30 extra cycles (16-way; 8-byte reads, 2 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_read
// SM90: bank conflicts on sm_90: 30 extra cycles (16-way; 8-byte writes, 2 phases of 16 lanes); proved for all {{.*}} of @bank0_b64_write
// SM90: bank conflicts on sm_90: 28 extra cycles (8-way; 16-byte reads, 4 phases of 8 lanes); proved for all {{.*}} of @bank0_b128_read
// SM90: bank conflicts on sm_90: 28 extra cycles (8-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @bank0_b128_write
// SM90: bank conflicts on sm_90: 4 extra cycles (2-way; 16-byte reads, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna3_read
// SM90: bank conflicts on sm_90: 4 extra cycles (2-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna3_write
// SM90: bank conflicts on sm_90: 4 extra cycles (2-way; 16-byte reads, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna4_read
// SM90: bank conflicts on sm_90: 4 extra cycles (2-way; 16-byte writes, 4 phases of 8 lanes); proved for all {{.*}} of @keyed_cdna4_write

module attributes {gpu.container_module} {
  gpu.module @rules {
    gpu.func @bank0_b32_read(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %v = memref.load %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      memref.store %v, %out[%l, %c0] : memref<64x4xf32>
      gpu.return
    }
    gpu.func @bank0_b32_write(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @bank0_b64_read(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %v = vector.load %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<2xf32>
      %c0 = arith.constant 0 : index
      vector.store %v, %out[%l, %c0] : memref<64x4xf32>, vector<2xf32>
      gpu.return
    }
    gpu.func @bank0_b64_write(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %f = arith.constant dense<1.0> : vector<2xf32>
      vector.store %f, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<2xf32>
      gpu.return
    }
    gpu.func @bank0_b128_read(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %v = vector.load %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %c0 = arith.constant 0 : index
      vector.store %v, %out[%l, %c0] : memref<64x4xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @bank0_b128_write(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %i = arith.muli %l, %c64 : index
      %f = arith.constant dense<1.0> : vector<4xf32>
      vector.store %f, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    gpu.func @keyed_cdna3_read(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %cs = arith.constant 4 : index
      %cm = arith.constant 1 : index
      %ch = arith.constant 16 : index
      %cq = arith.constant 32 : index
      %lo = arith.andi %l, %c3 : index
      %lo4 = arith.muli %lo, %c4 : index
      %hs = arith.shrui %l, %cs : index
      %h = arith.andi %hs, %cm : index
      %hh = arith.muli %h, %ch : index
      %q = arith.shrui %l, %c2 : index
      %qq = arith.muli %q, %cq : index
      %s = arith.addi %lo4, %hh : index
      %i = arith.addi %s, %qq : index
      %v = vector.load %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %c0 = arith.constant 0 : index
      vector.store %v, %out[%l, %c0] : memref<64x4xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @keyed_cdna3_write(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %cs = arith.constant 4 : index
      %cm = arith.constant 1 : index
      %ch = arith.constant 16 : index
      %cq = arith.constant 32 : index
      %lo = arith.andi %l, %c3 : index
      %lo4 = arith.muli %lo, %c4 : index
      %hs = arith.shrui %l, %cs : index
      %h = arith.andi %hs, %cm : index
      %hh = arith.muli %h, %ch : index
      %q = arith.shrui %l, %c2 : index
      %qq = arith.muli %q, %cq : index
      %s = arith.addi %lo4, %hh : index
      %i = arith.addi %s, %qq : index
      %f = arith.constant dense<1.0> : vector<4xf32>
      vector.store %f, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    gpu.func @keyed_cdna4_read(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %cs = arith.constant 3 : index
      %cm = arith.constant 3 : index
      %ch = arith.constant 16 : index
      %cq = arith.constant 64 : index
      %lo = arith.andi %l, %c3 : index
      %lo4 = arith.muli %lo, %c4 : index
      %hs = arith.shrui %l, %cs : index
      %h = arith.andi %hs, %cm : index
      %hh = arith.muli %h, %ch : index
      %q = arith.shrui %l, %c2 : index
      %qq = arith.muli %q, %cq : index
      %s = arith.addi %lo4, %hh : index
      %i = arith.addi %s, %qq : index
      %v = vector.load %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %c0 = arith.constant 0 : index
      vector.store %v, %out[%l, %c0] : memref<64x4xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @keyed_cdna4_write(%out: memref<64x4xf32>) workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %l = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %cs = arith.constant 3 : index
      %cm = arith.constant 3 : index
      %ch = arith.constant 16 : index
      %cq = arith.constant 64 : index
      %lo = arith.andi %l, %c3 : index
      %lo4 = arith.muli %lo, %c4 : index
      %hs = arith.shrui %l, %cs : index
      %h = arith.andi %hs, %cm : index
      %hh = arith.muli %h, %ch : index
      %q = arith.shrui %l, %c2 : index
      %qq = arith.muli %q, %cq : index
      %s = arith.addi %lo4, %hh : index
      %i = arith.addi %s, %qq : index
      %f = arith.constant dense<1.0> : vector<4xf32>
      vector.store %f, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
  }
}
