// The transpose example compiled to AMDGPU code objects for every chip of
// the issue and to PTX / a cubin for sm_90, after -layout-xor-swizzle; each
// object is inspected: kernel symbols, LDS bytes (32x32 f32 = 4096, f16 =
// 2048), no scratch, workgroup-memory accesses of the element's width and
// the xor of the swizzle in the address math.

// RUN: rm -rf %t/gfx942 && layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=gfx942 -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/transpose.gfx942.hsaco | FileCheck -DWAVE=64 --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/transpose.gfx942.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx90a && layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=gfx90a -layout-to-rocdl=chip=gfx90a -layout-dump-binaries=dir=%t/gfx90a -o /dev/null \
// RUN:   && llvm-readelf --notes %t/gfx90a/transpose.gfx90a.hsaco | FileCheck -DWAVE=64 --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx90a %t/gfx90a/transpose.gfx90a.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx950 && layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=gfx950 -layout-to-rocdl=chip=gfx950 -layout-dump-binaries=dir=%t/gfx950 -o /dev/null \
// RUN:   && llvm-readelf --notes %t/gfx950/transpose.gfx950.hsaco | FileCheck -DWAVE=64 --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx950 %t/gfx950/transpose.gfx950.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx1100 && layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=gfx1100 -layout-to-rocdl=chip=gfx1100 -layout-dump-binaries=dir=%t/gfx1100 -o /dev/null \
// RUN:   && llvm-readelf --notes %t/gfx1100/transpose.gfx1100.hsaco | FileCheck -DWAVE=32 --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/transpose.gfx1100.hsaco | FileCheck --check-prefix=RDNA %s
// RUN: rm -rf %t/sm_90 && layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/transpose.sm_90.ptx

// NOTES: .group_segment_fixed_size: 4096
// NOTES: .name: transpose_f32
// NOTES: .private_segment_fixed_size: 0
// NOTES: .wavefront_size: [[WAVE]]
// NOTES: .group_segment_fixed_size: 2048
// NOTES: .name: transpose_f16
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 4096
// NOTES: .name: transpose_batched_f32
// NOTES: .private_segment_fixed_size: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx

// CDNA-LABEL: <transpose_f32>:
// CDNA-NOT: scratch_
// CDNA: v_xor_b32
// CDNA: ds_write_b32
// CDNA: s_barrier
// CDNA: ds_read_b32
// CDNA-LABEL: <transpose_f16>:
// CDNA-NOT: scratch_
// CDNA: ds_write_b16
// CDNA: ds_read_u16
// CDNA-LABEL: <transpose_skew_f32>:
// CDNA-NOT: scratch_
// CDNA: ds_write_b32
// CDNA: s_barrier
// CDNA: ds_read_b32
// CDNA-NOT: scratch_

// RDNA-LABEL: <transpose_f32>:
// RDNA-NOT: scratch_
// RDNA: v_xor_b32
// RDNA: ds_store_b32
// RDNA: s_barrier
// RDNA: ds_load_b32
// RDNA-NOT: scratch_

// PTX: .visible .entry transpose_f32(
// PTX: xor.b
// PTX: st.shared.b32
// PTX: bar.sync
// PTX: ld.shared.b32
// PTX: .visible .entry transpose_f16(
// PTX: st.shared.b16
// PTX: ld.shared.b16
