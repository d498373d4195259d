// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: layout-opt %s -layout-xor-swizzle=chip=sm_90 -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx942 -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER942
// RUN: layout-opt %s -layout-test-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BRUTE

/// Accesses that are conflict-free in the first iteration of a loop or in
/// block 0 and conflicted elsewhere. A model that looks at block 0 in the
/// first iteration only reports 0 for both; the proof covers every block
/// and iteration.
///
/// @loop: 32 lanes read column 0 of row select(i == 0, 0, tx) of a 32x32
/// f32 tile: in iteration 0 every lane reads word 0 (a broadcast), from
/// iteration 1 on each lane reads its own row of column 0: all 32 words in
/// bank 0, 32-way, 31 extra cycles.
///
/// @blocks: row (bx * tx) mod 32: block 0 reads word 0 only; block 1 reads
/// 32 rows, 32-way; block 2 16 distinct rows, 16-way. The worst is block 1
/// (and every odd block).
///
/// @product: row (bx * n * tx) mod 32 with n a run-time extent: a product
/// of two symbols with unboundedly many values. The proof takes bx * n as a
/// symbol of its own, split by its residue mod 32: where it is odd, each
/// lane reads its own row of column 0, 32-way (block 0 reads row 0 only, a
/// broadcast). The count is a bound ("at most"): the proof does not know
/// which residues bx * n can reach. The test pass checks the proof against
/// brute force (BRUTE).
///
/// The xor swizzle (col xor row) moves row r's column 0 to bank r: both
/// reach 0 in every block and iteration, and the remarks say it was proved.

// BEFORE: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte writes, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @loop
// BEFORE: remark: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @loop
// BEFORE: remark: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @blocks
// BEFORE: remark: bank conflicts on sm_90: at most 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @product
// BEFORE: remark: bank conflicts on sm_90 in @loop: 2 workgroup-memory accesses, 1 with conflicts or unproved, worst 31 extra cycles; 2 of 2 proved
// BEFORE: remark: bank conflicts on sm_90 in @blocks: 1 workgroup-memory access, 1 with conflicts or unproved, worst 31 extra cycles; 1 of 1 proved
// BEFORE: remark: bank conflicts on sm_90 in @product: 1 workgroup-memory access, 1 with conflicts or unproved, worst 31 extra cycles; 1 of 1 proved

// AFTER: remark: workgroup buffer on sm_90: swizzled: 32x32 tile, column blocks of 1 element xor (row / 1) mod 32; bank conflicts 31 -> 0 extra cycles
// AFTER: remark: workgroup buffer on sm_90: swizzled: 32x32 tile, column blocks of 1 element xor (row / 1) mod 32; bank conflicts 31 -> 0 extra cycles
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte writes, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @loop
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @loop
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @blocks
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @product

// BRUTE-NOT: error
// BRUTE: remark: brute force over 3 blocks, iterations and extents, 3 with active lanes: 0 extra cycles; proof: 0
// BRUTE: remark: brute force over 12 blocks, iterations and extents, 12 with active lanes: 31 extra cycles; proof: 31
// BRUTE: remark: brute force over 3 blocks, iterations and extents, 3 with active lanes: 31 extra cycles; proof: 31
// BRUTE: remark: brute force over 12 blocks, iterations and extents, 12 with active lanes: 31 extra cycles; proof: 31 (a bound)
// BRUTE-NOT: error

/// gfx942: one wave64 in two phases of 32 lanes; the same rows.
// AFTER942: swizzled: {{.*}}; bank conflicts 62 -> 0 extra cycles
// AFTER942: swizzled: {{.*}}; bank conflicts 62 -> 0 extra cycles
// AFTER942: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 4-byte reads, 2 phases of 32 lanes); proved for all 1 wave, all blocks and all iterations; workgroup buffer 0 of @loop
// AFTER942: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 4-byte reads, 2 phases of 32 lanes); proved for all 1 wave, all blocks and all iterations; workgroup buffer 0 of @blocks

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop(%out: memref<64x4xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tid = gpu.thread_id x
      %tx = arith.remui %tid, %c32 : index
      %w = layout.offset %tile[%c0, %tx] : !layout.desc<32x32>
      memref.store %f, %buf[%w] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %first = arith.cmpi eq, %i, %c0 : index
        %row = arith.select %first, %c0, %tx : index
        %o = layout.offset %tile[%row, %c0] : !layout.desc<32x32>
        %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%tid, %i] : memref<64x4xf32>
      }
      gpu.return
    }
    gpu.func @blocks(%out: memref<?x64xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %tx = arith.remui %tid, %c32 : index
      %bx = gpu.block_id x
      %p = arith.muli %bx, %tx : index
      %row = arith.remui %p, %c32 : index
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %o = layout.offset %tile[%row, %c0] : !layout.desc<32x32>
      %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%bx, %tid] : memref<?x64xf32>
      gpu.return
    }
    gpu.func @product(%out: memref<?x?xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %tx = arith.remui %tid, %c32 : index
      %bx = gpu.block_id x
      %n = memref.dim %out, %c0 : memref<?x?xf32>
      %p = arith.muli %bx, %n : index
      %s = arith.muli %p, %tx : index
      %row = arith.remui %s, %c32 : index
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %o = layout.offset %tile[%row, %c0] : !layout.desc<32x32>
      %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%bx, %tid] : memref<?x?xf32>
      gpu.return
    }
  }
}
