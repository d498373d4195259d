// RUN: rm -rf %t && mkdir -p %t
// RUN: layout-opt %s -layout-to-rocdl="chip=gfx942 format=isa" -layout-dump-binaries=dir=%t -o /dev/null \
// RUN:   && FileCheck %s < %t/walk.gfx942.s

/// A loop that walks a merged dimension (8x7x5 merged into 280, odd lengths
/// so that no division is a shift), 64 elements per step, once with an
/// incremental coordinate and once recomputing the offset from the index.
/// In the gfx942 ISA the incremental loop has no division sequence (no
/// v_mul_hi: the carries are compares and selects); the recomputing loop
/// has one per merged digit. bench/RESULTS.md counts the instructions.

// CHECK-LABEL: walk_incremental:
// CHECK: [[LOOP:\.LBB0_[0-9]+]]:
// CHECK-NOT: v_mul_hi
// CHECK: s_cbranch_scc{{[01]}} [[LOOP]]
// CHECK-LABEL: walk_recompute:
// CHECK: [[LOOP2:\.LBB1_[0-9]+]]:
// CHECK: v_mul_hi
// CHECK: s_cbranch_scc{{[01]}} [[LOOP2]]

module attributes {gpu.container_module} {
  gpu.module @walk {
    gpu.func @walk_incremental(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %p = layout.naive [8, 7, 5] strides [1000, 50, 3] : !layout.desc<8x7x5>
      %m = layout.transform %p [#layout.merge<[8, 7, 5]> : [0, 1, 2] -> [0]] : !layout.desc<8x7x5> -> !layout.desc<280>
      %c = layout.make_coord %m[%tx] : !layout.desc<280> -> !layout.coord<280, 4>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %c) -> (!layout.coord<280, 4>) {
        %o = layout.coord_offset %m, %cur : !layout.desc<280>, !layout.coord<280, 4>
        %v = memref.load %in[%o] : memref<?xf32>
        %d = arith.addi %i, %tx : index
        memref.store %v, %out[%d] : memref<?xf32>
        %next = layout.move_coord %m, %cur by [64] : !layout.desc<280>, !layout.coord<280, 4>
        scf.yield %next : !layout.coord<280, 4>
      }
      gpu.return
    }
    gpu.func @walk_recompute(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tx = gpu.thread_id x
      %p = layout.naive [8, 7, 5] strides [1000, 50, 3] : !layout.desc<8x7x5>
      %m = layout.transform %p [#layout.merge<[8, 7, 5]> : [0, 1, 2] -> [0]] : !layout.desc<8x7x5> -> !layout.desc<280>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%top = %tx) -> (index) {
        %o = layout.offset %m[%top] : !layout.desc<280>
        %v = memref.load %in[%o] : memref<?xf32>
        %d = arith.addi %i, %tx : index
        memref.store %v, %out[%d] : memref<?xf32>
        %next = arith.addi %top, %c64 : index
        scf.yield %next : index
      }
      gpu.return
    }
  }
}
