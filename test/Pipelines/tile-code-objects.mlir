// The tile programs of examples/transpose-tiles.mlir, distributed by
// -layout-tile-shared-memory and swizzled, compiled for every chip of
// issue 5: kernel symbols, LDS bytes (a 64x64 f32 buffer is 16384 bytes,
// f16 128x128 32768; the permutation that keeps rows needs none; the 2-D
// copies with f32 outputs share those bytes with the second version's
// padded buffer for unaligned output rows: 64x65 = 16640 bytes, and 72x65
// = 18720 for the transpose whose windows take the neighbour's head; f16
// outputs and the 3-D batched copy have none), no scratch, and
// 128-bit workgroup-memory accesses on both sides of the transposes (the
// f32-to-f16 one reads 2 x 64 bits: 8 f16 per store, 2 f32 per row read).

// RUN: rm -rf %t/gfx942 && layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx942 -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/tiles.gfx942.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/tiles.gfx942.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx90a && layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx90a -layout-to-rocdl=chip=gfx90a -layout-dump-binaries=dir=%t/gfx90a -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx90a/tiles.gfx90a.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx90a %t/gfx90a/tiles.gfx90a.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx950 && layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx950 -layout-to-rocdl=chip=gfx950 -layout-dump-binaries=dir=%t/gfx950 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx950/tiles.gfx950.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx950 %t/gfx950/tiles.gfx950.hsaco | FileCheck --check-prefix=CDNA %s
// RUN: rm -rf %t/gfx1100 && layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx1100 -layout-to-rocdl=chip=gfx1100 -layout-dump-binaries=dir=%t/gfx1100 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx1100/tiles.gfx1100.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/tiles.gfx1100.hsaco | FileCheck --check-prefix=RDNA %s
// RUN: rm -rf %t/sm_90 && layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/tiles.sm_90.ptx

// NOTES: .group_segment_fixed_size: 18720
// NOTES: .name: tile_transpose_f32
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 32768
// NOTES: .name: tile_transpose_f16
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: tile_transpose_batched_f32
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 0
// NOTES: .name: tile_permute_f32
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 16384
// NOTES: .name: tile_transpose_scale_f16
// NOTES: .private_segment_fixed_size: 0
// NOTES: .group_segment_fixed_size: 16640
// NOTES: .name: tile_add_transposed_f32
// NOTES: .private_segment_fixed_size: 0

// CDNA-LABEL: <tile_transpose_f32>:
// CDNA-NOT: scratch_
// CDNA: global_load_dwordx4
// CDNA: ds_write_b128
// CDNA: s_barrier
// CDNA: ds_read_b128
// CDNA: global_store_dwordx4
// CDNA-LABEL: <tile_transpose_f16>:
// CDNA-NOT: scratch_
// CDNA: ds_write_b128
// CDNA: ds_read_b128
// CDNA-LABEL: <tile_permute_f32>:
// CDNA-NOT: ds_
// CDNA-NOT: scratch_
// CDNA-LABEL: <tile_transpose_scale_f16>:
// CDNA-NOT: scratch_
// CDNA: ds_write_b128
// CDNA: ds_read2_b64
// CDNA: global_store_dwordx4
// CDNA-LABEL: <tile_add_transposed_f32>:
// CDNA-NOT: scratch_
// CDNA: ds_write_b128
// CDNA: ds_read_b128
// CDNA-NOT: scratch_

// RDNA-LABEL: <tile_transpose_f32>:
// RDNA-NOT: scratch_
// RDNA: global_load_b128
// RDNA: ds_store_b128
// RDNA: s_barrier
// RDNA: ds_load_b128
// RDNA: global_store_b128
// RDNA-NOT: scratch_

// PTX: .visible .entry tile_transpose_f32(
// PTX: ld.global.v4
// PTX: st.shared.v4.b32
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX: st.global.v4
