// The GEMM tile programs of examples/matmul.mlir, distributed onto each
// chip's matrix instructions by -layout-tile-shared-memory{chip=...},
// swizzled and compiled: matrix instructions, fragment reads of 128 bits
// from LDS (ldmatrix .x4 for A and .x2.trans for the N-fastest B
// buffer on sm_90), LDS bytes (A 128x64 + B 64x128 f16 buffers: 32768
// bytes; 64x64x32 tiles: 8192), no scratch and no spills.

// RUN: rm -rf %t/gfx942 && layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx942 -layout-xor-swizzle=chip=gfx942 -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/matmul.gfx942.hsaco | FileCheck --check-prefixes=NOTES,NOTES-CDNA %s \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/matmul.gfx942.hsaco | FileCheck --check-prefix=CDNA3 %s
// RUN: rm -rf %t/gfx90a && layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx90a -layout-xor-swizzle=chip=gfx90a -layout-to-rocdl=chip=gfx90a -layout-dump-binaries=dir=%t/gfx90a -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx90a/matmul.gfx90a.hsaco | FileCheck --check-prefixes=NOTES,NOTES-CDNA %s \
// RUN:   && llvm-objdump -d --mcpu=gfx90a %t/gfx90a/matmul.gfx90a.hsaco | FileCheck --check-prefix=CDNA2 %s
// RUN: rm -rf %t/gfx950 && layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx950 -layout-xor-swizzle=chip=gfx950 -layout-to-rocdl=chip=gfx950 -layout-dump-binaries=dir=%t/gfx950 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx950/matmul.gfx950.hsaco | FileCheck --check-prefixes=NOTES,NOTES-CDNA %s \
// RUN:   && llvm-objdump -d --mcpu=gfx950 %t/gfx950/matmul.gfx950.hsaco | FileCheck --check-prefix=CDNA4 %s
// RUN: rm -rf %t/gfx1100 && layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx1100 -layout-xor-swizzle=chip=gfx1100 -layout-to-rocdl=chip=gfx1100 -layout-dump-binaries=dir=%t/gfx1100 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx1100/matmul.gfx1100.hsaco | FileCheck --check-prefixes=NOTES,NOTES-RDNA3 %s \
// RUN:   && llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/matmul.gfx1100.hsaco | FileCheck --check-prefix=RDNA3 %s
// RUN: rm -rf %t/sm_90 && layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/matmul.sm_90.ptx

// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: gemm_f16
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: gemm_f16_t128
// 128 threads of 64x64 wave tiles: no spill on CDNA; on RDNA3 its 16x16
// WMMA accumulators and operands exceed 256 VGPRs (a known limit of that
// kernel there, bench/RESULTS.md).
// NOTES-CDNA: .private_segment_fixed_size: 0
// NOTES-CDNA: .vgpr_spill_count: 0
// NOTES-RDNA3: .private_segment_fixed_size: {{[1-9]}}
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: gemm_f16_t128_g8
// NOTES-CDNA: .private_segment_fixed_size: 0
// NOTES-CDNA: .vgpr_spill_count: 0
// NOTES-RDNA3: .private_segment_fixed_size: {{[1-9]}}
// K steps of 64: one 32 KiB stage (register prefetch) on AMD; no spill on
// CDNA (292 VGPRs and AGPRs on gfx942), RDNA3 spills as for gemm_f16_t128.
// NOTES: .group_segment_fixed_size: 32768
// NOTES: .name: gemm_f16_t128_k64
// NOTES-CDNA: .private_segment_fixed_size: 0
// NOTES-CDNA: .vgpr_spill_count: 0
// NOTES-RDNA3: .private_segment_fixed_size: {{[1-9]}}
// NOTES: .group_segment_fixed_size: 8192
// NOTES: .name: gemm_f16_64
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: gemm_f16_bias_relu
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: gemm_bf16
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0

// On gfx942 and gfx90a, A and B fragments of two MFMA K steps read as one 16-byte
// vector (K packing), A written with 16-byte vectors, B (N-fastest rows)
// transposed in registers into 4-byte column pairs.
// CDNA3-LABEL: <gemm_f16>:
// CDNA3-DAG: ds_write_b128
// CDNA3-DAG: ds_write_b32
// CDNA3-DAG: ds_read_b128
// CDNA3: v_mfma_f32_32x32x8_f16
// CDNA3: s_cbranch
// CDNA3-NOT: scratch_
// CDNA3-LABEL: <gemm_bf16>:
// CDNA3: v_mfma_f32_32x32x8_bf16
// CDNA2-LABEL: <gemm_f16>:
// CDNA2-DAG: ds_write_b32
// CDNA2-DAG: ds_read_b128
// CDNA2: v_mfma_f32_32x32x8f16
// CDNA2-NOT: scratch_
// CDNA4-LABEL: <gemm_f16>:
// CDNA4: ds_read_b128
// CDNA4: v_mfma_f32_32x32x16_f16
// CDNA4-NOT: scratch_
// RDNA3-LABEL: <gemm_f16>:
// RDNA3: ds_load_b128
// RDNA3: v_wmma_f32_16x16x16_f16
// RDNA3-NOT: scratch_
// RDNA3-LABEL: <gemm_f16_t128>:

// sm_90: three LDS stages filled by 16-byte cp.async (zero-filling at the
// edges), waited for by group; the unaligned version of the loop keeps
// register prefetch.
// gemm_f16_t128_k64 (layout.dynamic_shared_memory): 3 stages of 32 KiB in
// dynamic shared memory (an .extern array), its size exported for the
// launcher; the others keep static shared memory.
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .visible .const .align 4 .u32 gemm_f16_t128_k64_dynamic_shared_bytes = 98304;
// PTX-NOT: _dynamic_shared_bytes
// PTX-LABEL: .entry gemm_f16(
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// PTX: cp.async.commit_group
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX: cp.async.wait_group 1;
// PTX-NEXT: bar.sync 0;
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: cp.async.wait_group 0;
// PTX-LABEL: .entry gemm_f16_64(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// bf16: nvgpu.mma.sync rewritten to nvvm.mma.sync (MLIR 22's nvgpu-to-nvvm
// does not lower bf16).
// PTX-LABEL: .entry gemm_bf16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
