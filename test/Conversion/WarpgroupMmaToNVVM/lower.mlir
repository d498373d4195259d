// RUN: layout-opt %s -layout-warpgroup-mma-to-nvvm | FileCheck %s
//
// A (64 x 64 f16, rows of 128 bytes, the 128B xor) and B (16 x 128, N
// contiguous in two 64-element atoms, the 128B xor): the matrix descriptors
// read off their layout descriptors. A: K-major, 128B (layout type 1 << 62),
// SBO 1024 (64 << 32), LBO 16 (1 << 16) = 4611686293305360384. B: MN-major,
// LBO 2048 (the atoms 16 rows x 128 bytes apart: 128 << 16), SBO 1024 =
// 4611686293313683456. B is transposed (imm-trans-b: layout row). The
// accumulator is zero: scale-d 0 (D = A * B), no registers loaded.
// CHECK-LABEL: gpu.func @mma
// CHECK: layout.offset
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK: arith.constant 4611686293313683456 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK-SAME: <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NOT: layout.warpgroup_mma
module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @mma(%out: memref<64x128xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %b: memref<2048xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    // A: 64 x 64 f16, rows of 128 bytes, 128B swizzle (Swizzle<3, 3, 3> on element offsets).
    %pa = layout.packed [64, 64] : !layout.desc<64x64>
    %da = layout.transform %pa [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %sa = layout.transform %da [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %ta = layout.transform %sa [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    // B: 16 x 128 (K x N) f16, N contiguous: two atoms of 64 along N, 128B swizzle.
    %pb = layout.packed [2, 16, 64] : !layout.desc<2x16x64>
    %db = layout.transform %pb [#layout.merge<[2, 16, 64]> : [0, 1, 2] -> [0]] : !layout.desc<2x16x64> -> !layout.desc<2048>
    %sb = layout.transform %db [#layout.swizzle<3, 3, 3, 2048> : [0] -> [0]] : !layout.desc<2048> -> !layout.desc<2048>
    %ub = layout.transform %sb [#layout.unmerge<[2, 16, 64]> : [0] -> [0, 1, 2]] : !layout.desc<2048> -> !layout.desc<2x16x64>
    %tb = layout.transform %ub [#layout.pass_through<16> : [1] -> [0], #layout.merge<[2, 64]> : [0, 2] -> [1]] : !layout.desc<2x16x64> -> !layout.desc<16x128>
    %acc = arith.constant dense<0.0> : vector<64xf32>
    %d = layout.warpgroup_mma %acc, %a[%ta : %c0, %c16], %b[%tb : %c0, %c0] {shape = array<i64: 64, 128, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 0, 1>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<2048xf16, #gpu.address_space<workgroup>>, !layout.desc<16x128>, vector<64xf32>
    %tid = gpu.thread_id x
    vector.store %d, %out[%tid, %c0] : memref<64x128xf32>, vector<64xf32>
    gpu.return
  }
}

// An 8-bit A and B (64 x 64 f8E4M3FN, rows of 64 bytes, the 64B xor:
// Swizzle<2, 4, 3> on byte offsets), both K-major: m64n64k32 .e4m3, A row
// and B col (no transpose). Each descriptor: 64B (layout type 2 << 62), SBO
// 512 (32 << 32), LBO 16 (1 << 16) = -9223371899415756800 as an i64.
// CHECK-LABEL: gpu.func @fp8
// CHECK: arith.constant -9223371899415756800 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK-SAME: <m = 64, n = 64, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NOT: layout.warpgroup_mma
gpu.module @k8 {
  gpu.func @fp8(%out: memref<64x32xf32>) workgroup(%a: memref<4096xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %pa = layout.packed [64, 64] : !layout.desc<64x64>
    %da = layout.transform %pa [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %sa = layout.transform %da [#layout.swizzle<2, 4, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %ta = layout.transform %sa [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    %d = layout.warpgroup_mma %acc, %a[%ta : %c0, %c0], %a[%ta : %c0, %c0] {shape = array<i64: 64, 64, 32>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    %tid = gpu.thread_id x
    vector.store %d, %out[%tid, %c0] : memref<64x32xf32>, vector<32xf32>
    gpu.return
  }
}
}

// The register-A form (layout.warpgroup_mma_reg_a): A as each lane's 8 f16
// (four .f16x2 registers), B the MN-major 16 x 128 tile of @mma (LBO 2048, SBO
// 1024, 128B), as inline PTX: the 64 accumulators tied in and out, the
// registers, B's descriptor, scale-d from a register (1: the accumulator
// is loaded, not zero), imm-trans-b 1.
// CHECK-LABEL: gpu.func @register_a
// CHECK: arith.constant 4611686293313683456 : i64
// CHECK: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK: %[[SCALE:.*]] = arith.constant 1 : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $133, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, $1,
// CHECK-SAME: $63}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;\0A}", "=f,
// CHECK-SAME: ,0,1,2,
// CHECK-SAME: ,63,r,r,r,r,l,r"
// CHECK-NOT: layout.warpgroup_mma_reg_a
gpu.module @ra {
  gpu.func @register_a(%out: memref<128x64xf32>, %in: memref<128x8xf16>, %c: memref<128x64xf32>) workgroup(%b: memref<2048xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %pb = layout.packed [2, 16, 64] : !layout.desc<2x16x64>
    %db = layout.transform %pb [#layout.merge<[2, 16, 64]> : [0, 1, 2] -> [0]] : !layout.desc<2x16x64> -> !layout.desc<2048>
    %sb = layout.transform %db [#layout.swizzle<3, 3, 3, 2048> : [0] -> [0]] : !layout.desc<2048> -> !layout.desc<2048>
    %ub = layout.transform %sb [#layout.unmerge<[2, 16, 64]> : [0] -> [0, 1, 2]] : !layout.desc<2048> -> !layout.desc<2x16x64>
    %tb = layout.transform %ub [#layout.pass_through<16> : [1] -> [0], #layout.merge<[2, 64]> : [0, 2] -> [1]] : !layout.desc<2x16x64> -> !layout.desc<16x128>
    %tid = gpu.thread_id x
    %a = vector.load %in[%tid, %c0] : memref<128x8xf16>, vector<8xf16>
    %acc = vector.load %c[%tid, %c0] : memref<128x64xf32>, vector<64xf32>
    %d = layout.warpgroup_mma_reg_a %acc, %a, %b[%tb : %c0, %c0] {shape = array<i64: 64, 128, 16>, b_dims = array<i64: 0, 1>} : vector<8xf16>, memref<2048xf16, #gpu.address_space<workgroup>>, !layout.desc<16x128>, vector<64xf32>
    vector.store %d, %out[%tid, %c0] : memref<128x64xf32>, vector<64xf32>
    gpu.return
  }
}
