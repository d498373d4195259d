// The GPU pipelines swizzle by default (issue 38): examples/transpose.mlir
// compiled with -layout-to-nvvm or -layout-to-rocdl alone gets, for each of
// its 9 workgroup buffers, the swizzle proved to remove its conflicts; with
// swizzle=false the layouts stay as written (no swizzle remark). A chip with
// target-id features compiles for the chip with those features.
// RUN: layout-opt %examples/transpose.mlir -layout-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLED -DCHIP=sm_90
// RUN: layout-opt %examples/transpose.mlir -layout-to-rocdl="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLED -DCHIP=gfx942
// RUN: layout-opt %examples/transpose.mlir -layout-to-nvvm="format=isa swizzle=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEPT --allow-empty
// RUN: rm -rf %t && layout-opt %examples/transpose.mlir -layout-to-rocdl="chip=gfx942:xnack+ format=isa" -layout-dump-binaries=dir=%t -o /dev/null 2>/dev/null \
// RUN:   && FileCheck %s --check-prefix=XNACK < %t/transpose.gfx942.s

// SWIZZLED-COUNT-9: remark: workgroup buffer on [[CHIP]]: swizzled: {{.*}} -> 0 extra cycles, proved for every wave, block and iteration
// SWIZZLED-NOT: remark: workgroup buffer

// KEPT-NOT: remark: workgroup buffer

// XNACK: .amdgcn_target "amdgcn-amd-amdhsa--gfx942:xnack+"
