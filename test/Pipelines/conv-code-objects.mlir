// The convolutions of examples/conv.mlir (implicit GEMM through im2col
// descriptor views), compiled for gfx942 and sm_90. The A operand's vectors
// along GEMM-K come from the inferred runs of C (VectorLength.h): 16-byte
// global loads on gfx942 (global_load_dwordx4; the element path loads
// global_load_ushort), and 16-byte asynchronous copies on sm_90
// (cp.async.cg ... 16, with a source size that zero-fills the padding; the
// element path loads ld.global.b16). No scratch, no spills.
// examples/conv.mlir is what bench/conv/gen-conv.py generates.

// RUN: %python %S/../../bench/conv/gen-conv.py examples | diff - %examples/conv.mlir
// RUN: rm -rf %t/gfx942 && layout-opt %examples/conv.mlir -layout-tile-shared-memory=chip=gfx942 -layout-xor-swizzle=chip=gfx942 -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/conv.gfx942.hsaco | FileCheck --check-prefix=NOTES %s \
// RUN:   && llvm-objdump -d --mcpu=gfx942 %t/gfx942/conv.gfx942.hsaco | FileCheck --check-prefix=CDNA3 %s
// RUN: rm -rf %t/sm_90 && layout-opt %examples/conv.mlir -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/conv.sm_90.ptx

// NOTES: .name: conv3x3_s1_p1
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: conv1x1
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: conv3x3_s2_p1
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: conv3x3_d2_p2
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0

// CDNA3-LABEL: <conv3x3_s1_p1>:
// CDNA3: global_load_dwordx4
// CDNA3: v_mfma_f32_32x32x8_f16
// CDNA3-NOT: global_load_ushort
// CDNA3-LABEL: <conv1x1>:

// PTX-LABEL: .entry conv3x3_s1_p1(
// PTX: cp.async.cg.shared.global [%r{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ld.global.b16
// PTX-LABEL: .entry conv1x1(
