// RUN: layout-opt %s -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx942 -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck -DCHIP=gfx942 --check-prefix=AFTER %s
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx90a -layout-analyze-bank-conflicts=chip=gfx90a -o /dev/null 2>&1 | FileCheck -DCHIP=gfx90a --check-prefix=AFTER %s
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx950 -layout-analyze-bank-conflicts=chip=gfx950 -o /dev/null 2>&1 | FileCheck -DCHIP=gfx950 --check-prefix=AFTER %s
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx1100 -layout-analyze-bank-conflicts=chip=gfx1100 -o /dev/null 2>&1 | FileCheck -DCHIP=gfx1100 --check-prefix=AFTER %s
// RUN: layout-opt %s -layout-xor-swizzle=chip=sm_90 -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck -DCHIP=sm_90 --check-prefix=AFTER %s
// RUN: layout-opt %s -layout-xor-swizzle=chip=gfx942 2>/dev/null | FileCheck %s --check-prefix=IR

/// The 32x32 f32 tile of a transpose, indexed through a layout descriptor:
/// unswizzled, its column reads conflict (62 extra cycles on gfx942, see
/// bank-conflicts.mlir); -layout-xor-swizzle rewrites the descriptor so that
/// no access of the buffer conflicts, on every target.

// BEFORE: remark: bank conflicts on gfx942: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes)
// BEFORE: remark: bank conflicts on gfx942: 62 extra cycles (32-way; 4-byte reads, 2 phases of 32 lanes)

// AFTER: remark: workgroup buffer on [[CHIP]]: swizzled: 32x32 tile, column blocks of 1 element xor (row / 1) mod 32; bank conflicts {{[1-9][0-9]*}} -> 0 extra cycles
// AFTER: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 4-byte writes
// AFTER: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 4-byte reads

/// The descriptor gains the stages of (row, col) -> (row, col xor row) and
/// both accesses move to it.
// IR: %[[P:.*]] = layout.packed [32, 32] : !layout.desc<32x32>
// IR-NEXT: %[[A:.*]] = layout.transform %[[P]] [#layout.unmerge<[32, 1]> : [0] -> [0, 1], #layout.unmerge<[32, 1]> : [1] -> [2, 3]] : !layout.desc<32x32> -> !layout.desc<32x1x32x1>
// IR-NEXT: %[[B:.*]] = layout.transform %[[A]] [#layout.xor<[32, 32]> : [0, 2] -> [0, 2], #layout.pass_through<1> : [1] -> [1], #layout.pass_through<1> : [3] -> [3]] : !layout.desc<32x1x32x1> -> !layout.desc<32x1x32x1>
// IR-NEXT: %[[C:.*]] = layout.transform %[[B]] [#layout.merge<[32, 1]> : [0, 1] -> [0], #layout.merge<[32, 1]> : [2, 3] -> [1]] : !layout.desc<32x1x32x1> -> !layout.desc<32x32>
// IR: layout.offset %[[C]][%{{.*}}, %{{.*}}] : !layout.desc<32x32>
// IR: gpu.barrier
// IR: layout.offset %[[C]][%{{.*}}, %{{.*}}] : !layout.desc<32x32>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %sx = arith.addi %x0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %v = memref.load %in[%sy, %sx] : memref<1024x1024xf32>
        %o = layout.offset %tile[%r, %tx] : !layout.desc<32x32>
        memref.store %v, %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %dx = arith.addi %y0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %o = layout.offset %tile[%tx, %r] : !layout.desc<32x32>
        %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%dy, %dx] : memref<1024x1024xf32>
      }
      gpu.return
    }
  }
}
