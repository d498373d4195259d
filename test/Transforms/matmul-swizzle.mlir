// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s
// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx942 -layout-xor-swizzle=chip=gfx942 -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD -DCHIP=gfx942
// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx90a -layout-xor-swizzle=chip=gfx90a -layout-analyze-bank-conflicts=chip=gfx90a -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD -DCHIP=gfx90a
// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx1100 -layout-xor-swizzle=chip=gfx1100 -layout-analyze-bank-conflicts=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD -DCHIP=gfx1100
// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=gfx950 -layout-xor-swizzle=chip=gfx950 -layout-analyze-bank-conflicts=chip=gfx950 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CDNA4

/// The A and B buffers of the GEMM tile programs on sm_90: three pipeline
/// stages each (the stage is the descriptor's leading dimension; the
/// swizzle acts within a stage), filled with 16-byte cp.async copies (A
/// K-fastest, B N-fastest) and read with ldmatrix .x4 / .x2.trans; the bank model counts ldmatrix's 16-byte rows per 8-lane
/// phase, and the swizzle it picks leaves no conflict on either buffer,
/// reads and writes (ncu on the H100 agrees: bench/RESULTS.md).

// gemm_f16, gemm_f16_t128 and gemm_f16_t128_g8 (their B read by twice the
// ldmatrix.x2.trans per wave before the swizzle), gemm_f16_64,
// gemm_f16_bias_relu, gemm_bf16:
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 896 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 896 -> 0 extra cycles
// gemm_f16_t128_k64 (K steps of 64, layout.dynamic_shared_memory): 3
// stages of 32 KiB, above the 48 KiB static limit (without the attribute
// the pass would keep 1 stage).
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x64 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 8; bank conflicts 1792 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 64x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 1792 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 64x32 tile (each of 3 pipeline stages), {{.*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x64 tile (each of 3 pipeline stages), {{.*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK-NOT: extra cycles

/// gfx942, gfx90a (32 banks, wave64) and gfx1100 (32 banks, wave32): both
/// buffers K-fastest. A is written with 16-byte vectors and read with 16-byte
/// fragments (two MFMA K steps per read, K packing); B, whose global rows run
/// along N, is transposed in registers and written along K with 4- or 8-byte
/// vectors. The column-block xor serves A; B needs rows paired into one
/// 128-byte line, which the linear Swizzle<3, 3, 3> of the row-major offset
/// does. Every access of every kernel then has no conflict.
// AMD-COUNT-6: remark: workgroup buffer on [[CHIP]]: swizzled: {{.*}}x32 tile, column blocks of 8 elements xor (row / 2) mod 4; bank conflicts {{[0-9]+}} -> 0 extra cycles
// AMD-NOT: no layout of the search reaches 0
// AMD-NOT: bank conflicts on [[CHIP]]: {{[1-9]}}
// AMD: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 16-byte reads
// AMD-NOT: bank conflicts on [[CHIP]]: {{[1-9]}}
// AMD-NOT: no layout of the search reaches 0

/// gfx950 (64 banks for reads, 32 for writes): A as on gfx942; B's
/// transposed writes and 16-byte reads need row bits in two places, which
/// takes two linear swizzles (the two-term search). No conflict anywhere,
/// proved for every wave, block and iteration.
// CDNA4: remark: workgroup buffer on gfx950: swizzled: 128x32 tile, column blocks of 8 elements xor (row / 4) mod 4; bank conflicts 48 -> 0 extra cycles
// CDNA4: remark: workgroup buffer on gfx950: swizzled: 128x32 tile, offset bits {{.*}} (Swizzle<{{.*}}> then Swizzle<{{.*}}>); bank conflicts {{[0-9]+}} -> 0 extra cycles, proved for every wave, block and iteration
// CDNA4-NOT: no layout of the search reaches 0
// CDNA4-NOT: bank conflicts on gfx950: {{[1-9]}}
