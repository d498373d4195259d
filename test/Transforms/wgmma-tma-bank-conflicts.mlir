// RUN: layout-opt %s -split-input-file -layout-analyze-bank-conflicts=chip=sm_90a -o /dev/null 2>&1 | FileCheck %s

/// The accesses of the hardware units in the bank model
/// (include/layout/Target/SharedWavefronts.h): layout.warpgroup_mma's operand
/// reads, one wavefront per core matrix (8 rows of 16 bytes), and
/// layout.bulk_tensor_load's box writes, one wavefront per 128 bytes of the
/// box in the order TMA writes it, each wavefront counted by the bank model
/// like 8 lanes of 16-byte accesses. Their addresses are the buffer
/// descriptor's at every tile origin the op may take (every multiple of its
/// tile: here 4 K steps of 16 for the 64 x 16 A tile and the 64 x 16 B
/// tile, one origin for the 64 x 64 box).

/// A 64 x 64 f16 buffer in the 128B swizzle mode (CuTe Swizzle<3,4,3> on
/// bytes, <3,3,3> on f16 elements: 16-byte chunk c of 128-byte row r is at
/// chunk c xor (r mod 8)), 1024-byte aligned. A (K-major: rows of M) and B
/// (K-major: rows of N) read 64 x 16 tiles, 16 core matrices each (8 row
/// groups x 2 chunks); the 8 rows of a core matrix are at chunks c xor 0 ..
/// c xor 7 of their rows: all 8 chunk positions of 128 bytes, all 32 banks,
/// 1 cycle. The 64 x 64 box is 8192 bytes, 64 wavefronts, each one whole
/// 128-byte row permuted: 1 cycle.

// CHECK: remark: bank conflicts on sm_90a: 0 extra cycles (1-way; TMA box writes in the 128B swizzle mode, 64 wavefronts per box (one wavefront per 128 bytes of the box, 8 chunks of 16 bytes)); proved for the one origin of its box in the buffer's descriptor (every stage the op may take), all blocks and all iterations; workgroup buffer 0 of @swizzled
// CHECK: remark: bank conflicts on sm_90a: 0 extra cycles (1-way; wgmma reads of A in the 128B swizzle mode, 16 wavefronts per instruction (one wavefront per core matrix, 8 rows of 16 bytes)); proved for all 4 origins of its 64 x 16 tile in the buffer's descriptor (every stage and K step the op may take), all blocks and all iterations; workgroup buffer 0 of @swizzled{{$}}
// CHECK: remark: bank conflicts on sm_90a: 0 extra cycles (1-way; wgmma reads of B in the 128B swizzle mode, 16 wavefronts per instruction (one wavefront per core matrix, 8 rows of 16 bytes)); proved for all 4 origins of its 64 x 16 tile in the buffer's descriptor (every stage and K step the op may take), all blocks and all iterations; workgroup buffer 0 of @swizzled
// CHECK: remark: bank conflicts on sm_90a in @swizzled: 3 workgroup-memory accesses, 0 with conflicts or unproved, worst 0 extra cycles; 3 of 3 proved

#wg = #gpu.address_space<workgroup>
gpu.module @k {
  gpu.func @swizzled(%A: memref<?x?xf16>, %out: memref<128x32xf32>)
      workgroup(%buf: memref<4096xf16, #wg> {llvm.align = 1024 : i64},
                %bars: memref<1xi64, #wg> {llvm.align = 8 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %d = layout.transform %s [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, memref<4096xf16, #wg>, !layout.desc<64x64>, memref<1xi64, #wg>
    layout.mbarrier_wait %bars[%c0] parity %c0 : memref<1xi64, #wg>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %r = layout.warpgroup_mma %acc, %buf[%d : %c0, %c0], %buf[%d : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #wg>, !layout.desc<64x64>, memref<4096xf16, #wg>, !layout.desc<64x64>, vector<32xf32>
    vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

/// The same buffer without the swizzle (a packed 64 x 64 f16 tile: rows of
/// 128 bytes). TMA writes it in its mode "none" (rows contiguous): each
/// wavefront is one whole row, 1 cycle. wgmma cannot read it: its core
/// matrices are not 128 contiguous bytes (the interleave mode's) but 8
/// chunks 128 bytes apart, and no swizzle mode matches; the lowering
/// refuses it, and the analysis says why. Counted as the descriptor says,
/// by hand: core matrix (i, j) of the A tile at K step s is rows 8i .. 8i + 7
/// at bytes 128 r + 32 s + 16 j; all 8 chunks lie in the same 4 banks
/// (4 (8 s + 4 j) .. + 3, mod 32) in 8 different words each: 8-way, 8
/// cycles per wavefront. 16 wavefronts: 128 cycles for 16 phases, 112 extra.

// CHECK: remark: bank conflicts on sm_90a: 0 extra cycles (1-way; TMA box writes unswizzled (swizzle mode none), 64 wavefronts per box (one wavefront per 128 bytes of the box, 8 chunks of 16 bytes)); proved for the one origin
// CHECK: remark: bank conflicts on sm_90a: not proved: its descriptor cannot be read by wgmma: it matches no swizzle mode of wgmma (128B: element (1, 0) of the tile at (0, 0) is at byte 128; the hardware reads byte 144; {{.*}}) (-layout-warpgroup-mma-to-nvvm refuses it); workgroup buffer 0 of @unswizzled; counted as its descriptor says: 112 extra cycles (8-way; wgmma reads of A, 16 wavefronts per instruction (one wavefront per core matrix, 8 rows of 16 bytes))
// CHECK: remark: bank conflicts on sm_90a in @unswizzled: 3 workgroup-memory accesses, 2 with conflicts or unproved, worst 112 extra cycles; 1 of 3 proved

#wg = #gpu.address_space<workgroup>
gpu.module @k {
  gpu.func @unswizzled(%A: memref<?x?xf16>, %out: memref<128x32xf32>)
      workgroup(%buf: memref<4096xf16, #wg> {llvm.align = 1024 : i64},
                %bars: memref<1xi64, #wg> {llvm.align = 8 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %d = layout.packed [64, 64] : !layout.desc<64x64>
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, memref<4096xf16, #wg>, !layout.desc<64x64>, memref<1xi64, #wg>
    layout.mbarrier_wait %bars[%c0] parity %c0 : memref<1xi64, #wg>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %r = layout.warpgroup_mma %acc, %buf[%d : %c0, %c0], %buf[%d : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #wg>, !layout.desc<64x64>, memref<4096xf16, #wg>, !layout.desc<64x64>, vector<32xf32>
    vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

/// A buffer in a hardware mode whose base is not aligned to the mode's
/// pattern (PTX 9.7.15.5.1: the pattern repeats every 8 rows of the swizzle
/// width, 256 / 512 / 1024 bytes for 32B / 64B / 128B, and follows the
/// absolute address): the hardware would read and write elsewhere than the
/// descriptor says, so nothing is proved and the lowerings refuse it. The
/// 128B buffer above at 128 bytes; a 32B one (64 x 16 f16: rows of 32
/// bytes, Swizzle<1,3,3> on elements) at 128, which needs 256.

// CHECK: remark: bank conflicts on sm_90a: not proved: its buffer must start at a multiple of 1024 bytes for the 128B swizzle (its pattern follows the address), but its base is known aligned only to 128 (the lowering refuses it) (wgmma reads of A); workgroup buffer 0 of @misaligned
// CHECK: remark: bank conflicts on sm_90a: not proved: its buffer must start at a multiple of 256 bytes for the 32B swizzle (its pattern follows the address), but its base is known aligned only to 128 (the lowering refuses it) (wgmma reads of A); workgroup buffer 1 of @misaligned
// CHECK: remark: bank conflicts on sm_90a in @misaligned: 4 workgroup-memory accesses, 4 with conflicts or unproved, worst 0 extra cycles; 0 of 4 proved

#wg = #gpu.address_space<workgroup>
gpu.module @k {
  gpu.func @misaligned(%out: memref<128x32xf32>)
      workgroup(%buf: memref<4096xf16, #wg> {llvm.align = 128 : i64},
                %narrow: memref<1024xf16, #wg> {llvm.align = 128 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %d = layout.transform %s [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    %p2 = layout.packed [64, 16] : !layout.desc<64x16>
    %m2 = layout.transform %p2 [#layout.merge<[64, 16]> : [0, 1] -> [0]] : !layout.desc<64x16> -> !layout.desc<1024>
    %s2 = layout.transform %m2 [#layout.swizzle<1, 3, 3, 1024> : [0] -> [0]] : !layout.desc<1024> -> !layout.desc<1024>
    %d2 = layout.transform %s2 [#layout.unmerge<[64, 16]> : [0] -> [0, 1]] : !layout.desc<1024> -> !layout.desc<64x16>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %r = layout.warpgroup_mma %acc, %buf[%d : %c0, %c0], %buf[%d : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #wg>, !layout.desc<64x64>, memref<4096xf16, #wg>, !layout.desc<64x64>, vector<32xf32>
    %r2 = layout.warpgroup_mma %r, %narrow[%d2 : %c0, %c0], %narrow[%d2 : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<1024xf16, #wg>, !layout.desc<64x16>, memref<1024xf16, #wg>, !layout.desc<64x16>, vector<32xf32>
    vector.store %r2, %out[%tid, %c0] : memref<128x32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

/// A box whose rows match no TMA mode where the descriptor puts them: 64 x
/// 32 f16 boxes (rows of 64 bytes) into the 128B-swizzled 64 x 64 buffer
/// (the 128B mode writes rows of 128 bytes; the 64B and none modes put the
/// elements elsewhere). The lowering refuses it and the analysis says why.
/// Counted as the descriptor says, by hand: a wavefront is 128 bytes of the
/// box, two 64-byte box rows r and r + 1 (r even), whose 4 chunks lie at
/// chunk positions {0, 1, 2, 3} (or {4, .., 7} for the box at column 32)
/// xor r mod 8 and xor (r + 1) mod 8 of their 128-byte rows: r mod 8 and
/// (r + 1) mod 8 agree in bit 2, so both rows take the same 4 positions,
/// 2-way, 2 cycles per wavefront; 4096 bytes are 32 wavefronts, 32 extra.

// CHECK: remark: bank conflicts on sm_90a: not proved: its box cannot be written by TMA where the descriptor says: it matches no swizzle mode of TMA (128B: the box's rows are 64 bytes, not 128; {{.*}}) (-layout-bulk-tensor-to-nvvm refuses it); workgroup buffer 0 of @box_mismatch; counted as its descriptor says: 32 extra cycles (2-way; TMA box writes, 32 wavefronts per box
// CHECK: remark: bank conflicts on sm_90a in @box_mismatch: 1 workgroup-memory access, 1 with conflicts or unproved, worst 32 extra cycles; 0 of 1 proved

#wg = #gpu.address_space<workgroup>
gpu.module @k {
  gpu.func @box_mismatch(%A: memref<?x?xf16>)
      workgroup(%buf: memref<4096xf16, #wg> {llvm.align = 1024 : i64},
                %bars: memref<1xi64, #wg> {llvm.align = 8 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %m = layout.transform %p [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %d = layout.transform %s [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 32>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, memref<4096xf16, #wg>, !layout.desc<64x64>, memref<1xi64, #wg>
    gpu.return
  }
}
