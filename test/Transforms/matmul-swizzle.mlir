// RUN: layout-opt %examples/matmul.mlir -layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s

/// The A and B buffers of the GEMM tile programs on sm_90: three pipeline
/// stages each (the stage is the descriptor's leading dimension; the
/// swizzle acts within a stage), filled with 16-byte cp.async copies (A
/// K-fastest, B N-fastest) and read with ldmatrix .x4 / .x2.trans; the bank model counts ldmatrix's 16-byte rows per 8-lane
/// phase, and the swizzle it picks leaves no conflict on either buffer,
/// reads and writes (ncu on the H100 agrees: bench/RESULTS.md).

// gemm_f16, gemm_f16_t128 (its B read by twice the ldmatrix.x2.trans per
// wave before the swizzle), gemm_f16_64, gemm_f16_scale_relu, gemm_bf16:
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 896 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 64x32 tile (each of 3 pipeline stages), {{.*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x64 tile (each of 3 pipeline stages), {{.*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 128x32 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 2) mod 4; bank conflicts 384 -> 0 extra cycles
// CHECK: remark: workgroup buffer on sm_90: swizzled: 32x128 tile (each of 3 pipeline stages), column blocks of 8 elements xor (row / 1) mod 16; bank conflicts 448 -> 0 extra cycles
// CHECK-NOT: extra cycles
