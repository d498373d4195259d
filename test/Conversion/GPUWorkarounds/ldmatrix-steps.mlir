// RUN: layout-opt %s -split-input-file -layout-ldmatrix-steps | FileCheck %s

/// A 64 x 64 f16 buffer in the 128-byte xor swizzle (16-byte chunk c of row
/// r at chunk c ^ (r % 8)), read by one warp's ldmatrix .x4 at four
/// instruction tiles: lane l points at row l % 16, column 8 (l / 16) of the
/// tile. Every thread's offsets (evaluated for all 32 lanes) make the
/// tile 16 rows down the first tile's address plus 2048 bytes (two whole
/// swizzle periods: an immediate), the tile 16 columns right the first's
/// with bit 4 of its element offset flipped (the xor's chunk bit 1), and the
/// tile at (32, 16) both. A read whose rows are 2 l % 16 is no such step
/// of the first and stays an nvgpu.ldmatrix.
// CHECK-LABEL: gpu.func @tiles
// CHECK: %[[R0:.*]] = layout.offset %[[D:.*]][%[[ROW:.*]], %[[COL:.*]]] : !layout.desc<64x64>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4+0];", "=r,=r,=r,=r,r"
// CHECK: %[[R1:.*]] = layout.offset %[[D]][%[[ROW]], %[[COL]]]
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4+2048];"
// CHECK: %[[R2:.*]] = layout.offset %[[D]][%[[ROW]], %[[COL]]]
// CHECK: %[[F2:.*]] = arith.xori %[[R2]], %c16
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4+0];"
// CHECK: %[[R3:.*]] = layout.offset %[[D]][%[[ROW]], %[[COL]]]
// CHECK: %[[F3:.*]] = arith.xori %[[R3]], %c16
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4+4096];"
// CHECK: nvgpu.ldmatrix
// CHECK-NOT: nvgpu.ldmatrix
gpu.module @k {
  gpu.func @tiles(%out: memref<5x32x8xf16>) workgroup(%buf: memref<4096xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %u = layout.transform %p [#layout.pass_through<64> : [0] -> [0], #layout.unmerge<[8, 8]> : [1] -> [1, 2]] : !layout.desc<64x64> -> !layout.desc<64x8x8>
    %x = layout.transform %u [#layout.xor<[64, 8]> : [0, 1] -> [0, 1], #layout.pass_through<8> : [2] -> [2]] : !layout.desc<64x8x8> -> !layout.desc<64x8x8>
    %d = layout.transform %x [#layout.pass_through<64> : [0] -> [0], #layout.merge<[8, 8]> : [1, 2] -> [1]] : !layout.desc<64x8x8> -> !layout.desc<64x64>
    %lane = gpu.thread_id x
    %row = arith.remui %lane, %c16 : index
    %half = arith.divui %lane, %c16 : index
    %col = arith.muli %half, %c8 : index
    %row16 = arith.addi %row, %c16 : index
    %col16 = arith.addi %col, %c16 : index
    %row32 = arith.addi %row, %c32 : index
    %o0 = layout.offset %d[%row, %col] : !layout.desc<64x64>
    %v0 = nvgpu.ldmatrix %buf[%o0] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %o1 = layout.offset %d[%row16, %col] : !layout.desc<64x64>
    %v1 = nvgpu.ldmatrix %buf[%o1] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %o2 = layout.offset %d[%row, %col16] : !layout.desc<64x64>
    %v2 = nvgpu.ldmatrix %buf[%o2] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %o3 = layout.offset %d[%row32, %col16] : !layout.desc<64x64>
    %v3 = nvgpu.ldmatrix %buf[%o3] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %twice = arith.muli %lane, %c2 : index
    %rowx = arith.remui %twice, %c16 : index
    %o4 = layout.offset %d[%rowx, %col] : !layout.desc<64x64>
    %v4 = nvgpu.ldmatrix %buf[%o4] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %s0 = vector.shape_cast %v0 : vector<4x2xf16> to vector<8xf16>
    %s1 = vector.shape_cast %v1 : vector<4x2xf16> to vector<8xf16>
    %s2 = vector.shape_cast %v2 : vector<4x2xf16> to vector<8xf16>
    %s3 = vector.shape_cast %v3 : vector<4x2xf16> to vector<8xf16>
    %s4 = vector.shape_cast %v4 : vector<4x2xf16> to vector<8xf16>
    vector.store %s0, %out[%c0, %lane, %c0] : memref<5x32x8xf16>, vector<8xf16>
    vector.store %s1, %out[%c1, %lane, %c0] : memref<5x32x8xf16>, vector<8xf16>
    vector.store %s2, %out[%c2, %lane, %c0] : memref<5x32x8xf16>, vector<8xf16>
    vector.store %s3, %out[%c3, %lane, %c0] : memref<5x32x8xf16>, vector<8xf16>
    vector.store %s4, %out[%c4, %lane, %c0] : memref<5x32x8xf16>, vector<8xf16>
    gpu.return
  }
}

// -----

/// Offsets that depend on a loop's iteration are not evaluated: the reads
/// stay as they are.
// CHECK-LABEL: gpu.func @loop
// CHECK-COUNT-2: nvgpu.ldmatrix
// CHECK-NOT: llvm.inline_asm
gpu.module @k2 {
  gpu.func @loop(%out: memref<32x8xf16>, %n: index) workgroup(%buf: memref<4096xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %lane = gpu.thread_id x
    %row = arith.remui %lane, %c16 : index
    %z = arith.constant dense<0.0> : vector<4x2xf16>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4x2xf16>) {
      %col = arith.muli %i, %c16 : index
      %o0 = layout.offset %p[%row, %col] : !layout.desc<64x64>
      %v0 = nvgpu.ldmatrix %buf[%o0] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %row16 = arith.addi %row, %c16 : index
      %o1 = layout.offset %p[%row16, %col] : !layout.desc<64x64>
      %v1 = nvgpu.ldmatrix %buf[%o1] {numTiles = 4 : i32, transpose = false} : memref<4096xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %s = arith.addf %v0, %v1 : vector<4x2xf16>
      %t = arith.addf %acc, %s : vector<4x2xf16>
      scf.yield %t : vector<4x2xf16>
    }
    %f = vector.shape_cast %r : vector<4x2xf16> to vector<8xf16>
    vector.store %f, %out[%lane, %c0] : memref<32x8xf16>, vector<8xf16>
    gpu.return
  }
}
