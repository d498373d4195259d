// The workgroup buffers that -layout-tile-shared-memory creates for the
// tile programs of examples/transpose-tiles.mlir, on every chip of issue 5:
// as created (plain row-major) their 128-bit column-block reads conflict;
// -layout-xor-swizzle finds for each buffer an xor that keeps 128-bit
// accesses (column blocks of at least 4 f32 / 8 f16) with 0 extra cycles,
// and no access conflicts afterwards.

// RUN: layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-analyze-bank-conflicts=chip=gfx90a -layout-xor-swizzle=chip=gfx90a -layout-analyze-bank-conflicts=chip=gfx90a -o /dev/null 2>&1 | FileCheck %s -DCHIP=gfx90a
// RUN: layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-analyze-bank-conflicts=chip=gfx942 -layout-xor-swizzle=chip=gfx942 -layout-analyze-bank-conflicts=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s -DCHIP=gfx942
// RUN: layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-analyze-bank-conflicts=chip=gfx950 -layout-xor-swizzle=chip=gfx950 -layout-analyze-bank-conflicts=chip=gfx950 -o /dev/null 2>&1 | FileCheck %s -DCHIP=gfx950
// RUN: layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-analyze-bank-conflicts=chip=gfx1100 -layout-xor-swizzle=chip=gfx1100 -layout-analyze-bank-conflicts=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s -DCHIP=gfx1100
// RUN: layout-opt %examples/transpose-tiles.mlir -layout-tile-shared-memory -layout-analyze-bank-conflicts=chip=sm_90 -layout-xor-swizzle=chip=sm_90 -layout-analyze-bank-conflicts=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s -DCHIP=sm_90

// Before: the f32 transpose's buffer writes are free, its reads conflict.
// CHECK: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 16-byte writes
// CHECK: remark: bank conflicts on [[CHIP]]: {{[1-9][0-9]*}} extra cycles ({{[0-9]+}}-way; 16-byte reads
// The swizzle of each buffer (f32, f16, batched f32).
// CHECK: remark: workgroup buffer on [[CHIP]]: swizzled: 64x64 tile, column blocks of {{4|8|16}} elements xor (row / {{[0-9]+}}) mod {{[0-9]+}}; bank conflicts {{[1-9][0-9]*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on [[CHIP]]: swizzled: 128x128 tile, column blocks of {{8|16}} elements xor (row / {{[0-9]+}}) mod {{[0-9]+}}; bank conflicts {{[1-9][0-9]*}} -> 0 extra cycles
// CHECK: remark: workgroup buffer on [[CHIP]]: swizzled: 64x64 tile, column blocks of {{4|8|16}} elements xor (row / {{[0-9]+}}) mod {{[0-9]+}}; bank conflicts {{[1-9][0-9]*}} -> 0 extra cycles
// After: every access of every buffer is free.
// CHECK: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 16-byte writes
// CHECK: remark: bank conflicts on [[CHIP]]: 0 extra cycles (1-way; 16-byte reads
// CHECK-NOT: remark: bank conflicts on [[CHIP]]: {{[1-9]}}
