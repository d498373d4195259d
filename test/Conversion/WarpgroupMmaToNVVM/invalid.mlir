// RUN: layout-opt %s -split-input-file -verify-diagnostics -layout-warpgroup-mma-to-nvvm
// Operands wgmma cannot read as laid out, and ops malformed on their own.

// A row-major 64 x 64 tile without the xor: no swizzle mode reads it.
gpu.module @k {
  gpu.func @unswizzled(%out: memref<64xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{a cannot be read by wgmma: it matches no swizzle mode of wgmma (128B: element (1, 0) of the tile at (0, 0) is at byte 128; the hardware reads byte 144; 64B: element (1, 0) of the tile at (0, 0) is at byte 128; the hardware reads byte 64; 32B: element (1, 0) of the tile at (0, 0) is at byte 128; the hardware reads byte 32)}}
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

// The right layout, but the buffer is aligned to 128 bytes only.
gpu.module @k {
  gpu.func @misaligned(%out: memref<64xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}) kernel {
    %c0 = arith.constant 0 : index
    %pa = layout.packed [64, 64] : !layout.desc<64x64>
    %da = layout.transform %pa [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %sa = layout.transform %da [#layout.swizzle<3, 3, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %ta = layout.transform %sa [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{a's buffer must start at a multiple of 1024 bytes for the 128B swizzle (its pattern follows the address), but its base is known aligned only to 128}}
    %d = layout.warpgroup_mma %acc, %a[%ta : %c0, %c0], %a[%ta : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @bad_shape(%out: memref<64xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{shape must be [64, N, 16] with N a multiple of 8 up to 256}}
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 32>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @bad_acc(%out: memref<64xf32>) workgroup(%a: memref<4096xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<64xf32>
    // expected-error @+1 {{the accumulator of a 64x64 wgmma holds 32 f32 per lane (vector<32xf32>), got 'vector<64xf32>'}}
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @global_operand(%g: memref<4096xf16>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{a must be a workgroup-memory buffer (wgmma reads its operands from shared memory)}}
    %d = layout.warpgroup_mma %acc, %g[%p : %c0, %c0], %g[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf16>, !layout.desc<64x64>, memref<4096xf16>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

// 8-bit floats: K is 32 elements (32 bytes).
gpu.module @k {
  gpu.func @fp8_k16(%out: memref<64xf32>) workgroup(%a: memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{shape must be [64, N, 32] with N a multiple of 8 up to 256 (wgmma m64nNk32 with 'f8E4M3FN' inputs)}}
    %d = layout.warpgroup_mma %acc, %a[%p : %c0, %c0], %a[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 1, 0>} : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

// An 8-bit B whose N dimension is the contiguous one (a layout wgmma reads
// for f16 with imm-trans-b): refused, 8-bit operands are K-major only.
gpu.module @k {
  gpu.func @fp8_mn_major(%out: memref<64xf32>) workgroup(%a: memref<4096xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel {
    %c0 = arith.constant 0 : index
    %pa = layout.packed [64, 64] : !layout.desc<64x64>
    %da = layout.transform %pa [#layout.merge<[64, 64]> : [0, 1] -> [0]] : !layout.desc<64x64> -> !layout.desc<4096>
    %sa = layout.transform %da [#layout.swizzle<2, 4, 3, 4096> : [0] -> [0]] : !layout.desc<4096> -> !layout.desc<4096>
    %ta = layout.transform %sa [#layout.unmerge<[64, 64]> : [0] -> [0, 1]] : !layout.desc<4096> -> !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{b cannot be read by wgmma: its 'f8E4M3FN' tile is N-major, and wgmma reads 8-bit operands K-major only}}
    %d = layout.warpgroup_mma %acc, %a[%ta : %c0, %c0], %a[%ta : %c0, %c0] {shape = array<i64: 64, 64, 32>, a_dims = array<i64: 0, 1>, b_dims = array<i64: 0, 1>} : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

// The register-A form: its accumulator must be N / 2 f32 per lane.
gpu.module @k {
  gpu.func @reg_a_acc(%out: memref<64xf32>, %a: vector<8xf16>) workgroup(%b: memref<4096xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @+1 {{the accumulator of a 64x64 wgmma holds 32 f32 per lane (vector<32xf32>), got 'vector<16xf32>'}}
    %d = layout.warpgroup_mma_reg_a %acc, %a, %b[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, b_dims = array<i64: 1, 0>} : vector<8xf16>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<16xf32>
    gpu.return
  }
}

// -----

// The register-A form: A's registers and B's buffer of different types.
gpu.module @k {
  gpu.func @reg_a_types(%out: memref<64xf32>, %a: vector<8xbf16>) workgroup(%b: memref<4096xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{A and B must have one element type, got 'bf16' and 'f16'}}
    %d = layout.warpgroup_mma_reg_a %acc, %a, %b[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, b_dims = array<i64: 1, 0>} : vector<8xbf16>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}

// -----

// The register-A form: B laid out row-major without the xor, which no
// swizzle mode of wgmma reads.
gpu.module @k {
  gpu.func @reg_a_unswizzled(%out: memref<64xf32>, %a: vector<8xf16>) workgroup(%b: memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [64, 64] : !layout.desc<64x64>
    %acc = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @+1 {{b cannot be read by wgmma: it matches no swizzle mode of wgmma}}
    %d = layout.warpgroup_mma_reg_a %acc, %a, %b[%p : %c0, %c0] {shape = array<i64: 64, 64, 16>, b_dims = array<i64: 1, 0>} : vector<8xf16>, memref<4096xf16, #gpu.address_space<workgroup>>, !layout.desc<64x64>, vector<32xf32>
    gpu.return
  }
}
