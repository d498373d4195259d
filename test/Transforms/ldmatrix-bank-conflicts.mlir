// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: layout-opt %s -layout-xor-swizzle=chip=sm_90 -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: layout-opt %s -layout-xor-swizzle=chip=sm_90 2>/dev/null | FileCheck %s --check-prefix=IR

/// nvgpu.ldmatrix in the bank model: each lane reads one 16-byte row at its
/// address, in phases of 8 lanes (one 8x8 matrix per phase), like any
/// 16-byte access on NVIDIA; .x1 / .x2 read the addresses of lanes 0-7 /
/// 0-15 only, so the others are not counted.
///
/// A 64x32 f16 tile (64-byte rows) behind a packed descriptor, filled with
/// 16-byte writes (8 lanes write two whole rows: no conflict), then read
/// with the mma.sync m16n8k16 fragment loads of the matrix-instruction
/// table: A .x4 (row l % 16, column 8 (l / 16)) and B .x2 from N x K (row
/// l % 8, column 8 ((l / 8) % 2), lanes 16-31 repeating lanes 0-15). Each
/// phase reads rows 0-7 at one column; row r starts at byte 64 r, so rows
/// 0, 2, 4, 6 all meet in banks 0-3 and rows 1, 3, 5, 7 in banks 16-19:
/// 4-way, 3 extra cycles per phase; .x4 has 4 phases (12), .x2 2 (6; 12 if
/// lanes 16-31 counted).
///
/// -layout-xor-swizzle keeps column blocks of 8 elements (the 16-byte rows
/// stay whole) and xors them with (row / 2) mod 4, which puts the 8 rows of
/// every phase in 8 different 16-byte bank groups: 0 extra cycles.

// BEFORE: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 16-byte writes, 4 phases of 8 lanes)
// BEFORE: remark: bank conflicts on sm_90: 12 extra cycles (4-way; 16-byte ldmatrix reads, 4 phases of 8 lanes)
// BEFORE: remark: bank conflicts on sm_90: 6 extra cycles (4-way; 16-byte ldmatrix reads, 2 phases of 8 lanes)
// BEFORE-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 

// AFTER: remark: workgroup buffer on sm_90: swizzled: 64x32 tile, column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 18 -> 0 extra cycles
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 16-byte writes, 4 phases of 8 lanes)
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 16-byte ldmatrix reads, 4 phases of 8 lanes)
// AFTER: remark: bank conflicts on sm_90: 0 extra cycles (1-way; 16-byte ldmatrix reads, 2 phases of 8 lanes)
// AFTER-NOT: remark: bank conflicts on {{[a-z0-9_]+}}: 

/// Both ldmatrix ops move to the swizzled descriptor.
// IR: layout.xor<[32, 4]>
// IR: %[[S:.*]] = layout.transform {{.*}} -> !layout.desc<64x32>
// IR: vector.store
// IR: %[[A:.*]] = layout.offset %[[S]]
// IR-NEXT: nvgpu.ldmatrix %{{.*}}[%[[A]]] {numTiles = 4 : i32, transpose = false}
// IR: %[[B:.*]] = layout.offset %[[S]]
// IR-NEXT: nvgpu.ldmatrix %{{.*}}[%[[B]]] {numTiles = 2 : i32, transpose = false}

#wg = #gpu.address_space<workgroup>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fragments(%in: memref<2048xf16>, %out: memref<128x8xf16>)
        workgroup(%buf: memref<2048xf16, #wg>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %tile = layout.packed [64, 32] : !layout.desc<64x32>
      %tid = gpu.thread_id x
      // Chunk c (8 elements) is row c / 4, columns 8 (c % 4) ...
      scf.for %c = %tid to %c256 step %c128 {
        %row = arith.divui %c, %c4 : index
        %cb = arith.remui %c, %c4 : index
        %col = arith.muli %cb, %c8 : index
        %g = arith.muli %c, %c8 : index
        %v = vector.load %in[%g] : memref<2048xf16>, vector<8xf16>
        %o = layout.offset %tile[%row, %col] : !layout.desc<64x32>
        vector.store %v, %buf[%o] : memref<2048xf16, #wg>, vector<8xf16>
      }
      gpu.barrier
      %w = arith.divui %tid, %c32 : index
      %l = arith.remui %tid, %c32 : index
      %r0 = arith.muli %w, %c16 : index
      %l16 = arith.remui %l, %c16 : index
      %h16 = arith.divui %l, %c16 : index
      %l8 = arith.remui %l, %c8 : index
      %h8 = arith.divui %l, %c8 : index
      %h8m2 = arith.remui %h8, %c2 : index
      %ca = arith.muli %h16, %c8 : index
      %cb8 = arith.muli %h8m2, %c8 : index
      %ra = arith.addi %r0, %l16 : index
      %rb = arith.addi %r0, %l8 : index
      %z = arith.constant dense<0.0> : vector<2xf16>
      %acc = scf.for %k0 = %c0 to %c32 step %c16 iter_args(%s = %z) -> (vector<2xf16>) {
        // A: .x4, lane address (l % 16, k0 + 8 (l / 16)).
        %ka = arith.addi %k0, %ca : index
        %oa = layout.offset %tile[%ra, %ka] : !layout.desc<64x32>
        %fa = nvgpu.ldmatrix %buf[%oa] {numTiles = 4 : i32, transpose = false}
            : memref<2048xf16, #wg> -> vector<4x2xf16>
        // B: .x2 from N x K, lane address (l % 8, k0 + 8 ((l / 8) % 2)).
        %kb = arith.addi %k0, %cb8 : index
        %ob = layout.offset %tile[%rb, %kb] : !layout.desc<64x32>
        %fb = nvgpu.ldmatrix %buf[%ob] {numTiles = 2 : i32, transpose = false}
            : memref<2048xf16, #wg> -> vector<2x2xf16>
        %a0 = vector.extract %fa[0] : vector<2xf16> from vector<4x2xf16>
        %b0 = vector.extract %fb[0] : vector<2xf16> from vector<2x2xf16>
        %p = arith.mulf %a0, %b0 : vector<2xf16>
        %s2 = arith.addf %s, %p : vector<2xf16>
        scf.yield %s2 : vector<2xf16>
      }
      %wide = vector.broadcast %acc : vector<2xf16> to vector<4x2xf16>
      %flat = vector.shape_cast %wide : vector<4x2xf16> to vector<8xf16>
      vector.store %flat, %out[%tid, %c0] : memref<128x8xf16>, vector<8xf16>
      gpu.return
    }
  }
}
