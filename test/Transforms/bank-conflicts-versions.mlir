// The analysis of a 32x32 transpose with run-time extents after the tile
// pass (issue 38, item 5). -layout-tile-shared-memory writes 8 versions of
// the buffer write (at the load: vectors or elements, tile inside or not,
// rows aligned or not) and 14 of the buffer's column reads (at the store:
// register blocks, sector windows), 22 accesses for 2 source lines.
// Versions with the same result share one remark, which says how many of
// the location's accesses it covers: 2 + 6 of the 8 writes, 8 + 6 of the
// 14 reads.
//
// The counts are checked against brute force (the third run line: the
// test pass evaluates every lane of every wave at concrete blocks,
// iterations and extents, no symbols): the 8 element-by-element column reads of the plain
// row-major buffer are 8-way, 14 extra cycles (2 phases of 32 lanes on
// gfx942), everything else 0.
//
// The 22 proofs take 116224 thread evaluations in all (454 cases of 256
// threads): with max-evaluations a little above it every access is proved
// (a test that fails if the proofs grow more expensive); with less, the
// analysis does not start the proofs it cannot finish and says so.
//
// RUN: layout-opt %s -layout-tile-shared-memory=chip=gfx942 -layout-analyze-bank-conflicts="chip=gfx942 max-evaluations=120000" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: layout-opt %s -layout-tile-shared-memory=chip=gfx942 -layout-analyze-bank-conflicts="chip=gfx942 max-evaluations=50000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET --implicit-check-not=remark
// RUN: layout-opt %s -layout-tile-shared-memory=chip=gfx942 -layout-test-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BRUTE

// CHECK: :[[#LOAD:]]:12: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 16-byte writes, 8 phases of 8 lanes); proved for all 4 waves, all blocks and all iterations; a view of workgroup buffer 0 of @tile_transpose_32 (the same for 2 of the 8 accesses at this location)
// CHECK: :[[#LOAD]]:12: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes); proved {{.*}} (the same for 6 of the 8 accesses at this location)
// CHECK: :[[#LOAD+2]]:7: remark: bank conflicts on gfx942: 14 extra cycles (8-way; 4-byte reads, 2 phases of 32 lanes); proved for all 4 waves, all blocks and all iterations; {{.*}} (the same for 8 of the 14 accesses at this location)
// CHECK: :[[#LOAD+2]]:7: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 4-byte reads, 2 phases of 32 lanes); proved {{.*}} (the same for 6 of the 14 accesses at this location)
// CHECK: remark: bank conflicts on gfx942 in @tile_transpose_32: 22 workgroup-memory accesses, 8 with conflicts or unproved, worst 14 extra cycles; 22 of 22 proved

// The proofs that cost 64 cases of 256 threads come last in each group of
// reads and are the ones given up on.
// BUDGET: remark: {{.*}} 16-byte writes{{.*}} (the same for 2 of the 8 accesses at this location)
// BUDGET: remark: {{.*}} 4-byte writes{{.*}} (the same for 6 of the 8 accesses at this location)
// BUDGET: remark: bank conflicts on gfx942: 14 extra cycles {{.*}} (the same for 8 of the 14 accesses at this location)
// BUDGET: remark: bank conflicts on gfx942: 0 extra cycles {{.*}} (the same for 2 of the 14 accesses at this location)
// BUDGET: remark: bank conflicts on gfx942: not proved: gave up: it needs 16384 thread evaluations (64 cases of the block ids, iterations and run-time values, 256 threads each), more than was left of the analysis's budget of 50000 (max-evaluations); {{.*}} (the same for 3 of the 14 accesses at this location)
// BUDGET: remark: bank conflicts on gfx942: not proved: gave up: it needs 2048 thread evaluations (8 cases of {{.*}} (the same for 1 of the 14 accesses at this location)
// BUDGET: remark: bank conflicts on gfx942 in @tile_transpose_32: 22 workgroup-memory accesses, 12 with conflicts or unproved, worst 14 extra cycles; 18 of 22 proved

// BRUTE-COUNT-8: active lanes: 14 extra cycles; proof: 14
// BRUTE-NOT: active lanes: {{[1-9]}}

!in2 = !layout.partition_view<?x?xf32, tile = [32, 32]>
module attributes {gpu.container_module} {
  gpu.module @tiles {
    gpu.func @tile_transpose_32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %vi = layout.view %in : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %vo = layout.view %out : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
      %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !in2
      %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !in2
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : !in2 -> vector<32x32xf32>
      %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
      layout.store %u, %po[%bx, %by] masked : vector<32x32xf32>, !in2
      gpu.return
    }
  }
}
