// The flash-attention forwards of bench/attention/gen-attention.py (issue 40;
// examples/attention.mlir holds two of them),
// compiled as fragment programs: on gfx942 both products on v_mfma (the
// transposed products, P^T the second one's B by re-view), no scratch and no
// spills, and in each kernel's main loop (bench/loop_instructions.py --mix)
// only the K and V staging writes go to LDS (9 ds_write at d = 64, 16 at
// d = 128: K's 16-byte rows and V's transposing writes), never P or the row
// statistics; those move between lanes by ds_bpermute (gpu.shuffle xor 32),
// one per row statistic and row vector a lane holds (2 rows per lane at
// BM = 128). The products: S^T 64 x BM/2 per wave over d, O^T d x BM/2 over
// 64 keys, on 32x32x8: 32, 64, 64, 128 v_mfma per iteration. Without the
// XOR-swizzle search on gfx942 (swizzle=false): it takes minutes on these
// buffers (the transposing V^T buffer's search reaches no conflict-free
// layout and proves every candidate), and the swizzle changes addresses,
// not this mix. On sm_90 the loop's P never reaches shared
// memory either (checked on the IR by Transforms/fragment-program.mlir); the
// PTX has the mma.sync of both products and no local memory.

// RUN: %python %S/../../bench/attention/gen-attention.py > %t.mlir
// RUN: rm -rf %t/gfx942 && layout-opt %t.mlir -layout-tile-shared-memory=chip=gfx942 -layout-to-rocdl="chip=gfx942 swizzle=false" -layout-dump-binaries=dir=%t/gfx942 -o /dev/null 2>/dev/null \
// RUN:   && llvm-readelf --notes %t/gfx942/attention.gfx942.hsaco | FileCheck --check-prefix=NOTES %s
// RUN: rm -rf %t/isa && layout-opt %t.mlir -layout-tile-shared-memory=chip=gfx942 -layout-to-rocdl="chip=gfx942 format=isa swizzle=false" -layout-dump-binaries=dir=%t/isa -o /dev/null 2>/dev/null \
// RUN:   && %python %S/../../bench/loop_instructions.py --mix %t/isa/attention.gfx942.s | FileCheck --check-prefix=LOOP %s
// RUN: rm -rf %t/sm_90 && layout-opt %t.mlir -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/sm_90 -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/sm_90/attention.sm_90.ptx

// NOTES: .name: attn_d64_bm64
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: attn_d64_bm128
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: attn_d128_bm64
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .name: attn_d128_bm128
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0

// LOOP: | kernel | main loop | instructions | matrix | ds_read | ds_write | ds_bpermute | s_barrier | scratch |
// LOOP: | attn_d64_bm64 | {{[^|]+}} | {{[0-9]+}} | 32 | {{[0-9]+}} | 9 | 2 | 2 | 0 |
// LOOP: | attn_d64_bm128 | {{[^|]+}} | {{[0-9]+}} | 64 | {{[0-9]+}} | 9 | 4 | 2 | 0 |
// LOOP: | attn_d128_bm64 | {{[^|]+}} | {{[0-9]+}} | 64 | {{[0-9]+}} | 16 | 2 | 2 | 0 |
// LOOP: | attn_d128_bm128 | {{[^|]+}} | {{[0-9]+}} | 128 | {{[0-9]+}} | 16 | 4 | 2 | 0 |

/// K's, V's and Q's instruction tiles read by ldmatrix from a few base
/// registers and immediates (-layout-ldmatrix-steps): V's tiles 16 rows
/// apart are 2048 bytes apart.
// PTX-LABEL: .entry attn_d64_bm64
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{.*}}, [%r[[V:[0-9]+]]+0];
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{.*}}, [%r[[V]]+2048];
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: shfl.sync.bfly.b32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: .local
// PTX-LABEL: .entry attn_d128_bm128

/// The sm_90a kernels (gen-attention.py --hopper) on warpgroup MMA: S = Q K^T
/// by wgmma with both operands read through matrix descriptors (the first
/// K step from a zero accumulator: scale-d 0), O += P V by the register-A
/// wgmma (inline assembly: P's four .f16x2 registers, V's descriptor,
/// imm-trans-b 1 for V's N-major tile); no ldmatrix, no local memory.
// RUN: %python %S/../../bench/attention/gen-attention.py --hopper > %t.hopper.mlir
// RUN: rm -rf %t/sm_90a && layout-opt %t.hopper.mlir -layout-tile-shared-memory=chip=sm_90a -layout-to-nvvm="chip=sm_90a format=isa" -layout-dump-binaries=dir=%t/sm_90a -o /dev/null 2>/dev/null \
// RUN:   && FileCheck --check-prefix=WGMMA %s < %t/sm_90a/attention.sm_90a.ptx
// RUN: not grep -E "ldmatrix|\.local" %t/sm_90a/attention.sm_90a.ptx
// WGMMA-LABEL: .entry attn_d64_bm64_bn128(
// WGMMA-DAG: setp.ne.b32 p, 0, 0;
// WGMMA-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, {{ *}}1, 0, {{ *}}0;
// WGMMA-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// WGMMA-DAG: shfl.sync.bfly.b32
// WGMMA-DAG: ex2.approx
// WGMMA-LABEL: .entry attn_d64_bm64_c4(
