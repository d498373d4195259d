// The GPU pipelines take the chip from the gpu.module's target attribute
// when no chip option is given (issue 38, item 4), attach no second target
// to it (one object per module), and refuse an option that disagrees with
// the target, or targets that disagree with each other, at the gpu.module.
// With neither an option nor a target they compile for gfx942 / sm_90
// (default-swizzle.mlir).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: layout-opt %t/amd.mlir -layout-to-rocdl="format=isa" -layout-dump-binaries=dir=%t/amd -o - | FileCheck %s --check-prefix=AMD-IR
// RUN: FileCheck %s --check-prefix=AMD-ISA < %t/amd/k.gfx90a.s
// RUN: ls %t/amd | FileCheck %s --check-prefix=AMD-FILES --implicit-check-not=.s
// RUN: layout-opt %t/amd.mlir -layout-to-rocdl="chip=gfx90a:xnack+ format=isa" -o /dev/null
// RUN: not layout-opt %t/amd.mlir -layout-to-rocdl="chip=gfx942 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD-DISAGREE
// RUN: layout-opt %t/nv.mlir -layout-to-nvvm="format=isa" -layout-dump-binaries=dir=%t/nv -o /dev/null
// RUN: FileCheck %s --check-prefix=NV-PTX < %t/nv/k.sm_80.ptx
// RUN: not layout-opt %t/nv.mlir -layout-to-nvvm="chip=sm_90 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NV-DISAGREE
// RUN: not layout-opt %t/two.mlir -layout-to-rocdl="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO

// AMD-IR: gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">,
// AMD-ISA: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// AMD-FILES: k.gfx90a.s
// AMD-DISAGREE: amd.mlir:2:3: error: -layout-to-rocdl: chip=gfx942 disagrees with the gpu.module's target chip 'gfx90a' (drop the option, or the target)
// NV-PTX: .target sm_80
// NV-DISAGREE: error: -layout-to-nvvm: chip=sm_90 disagrees with the gpu.module's target chip 'sm_80'
// TWO: two.mlir:7:3: error: -layout-to-rocdl: the gpu.module's target chip 'gfx942' differs from 'gfx90a', another gpu.module's; one run compiles for one chip (pick one with chip=...)
// TWO: two.mlir:2:3: note: the gpu.module whose target names 'gfx90a'

//--- amd.mlir
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    gpu.func @kernel(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

//--- nv.mlir
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_80">] {
    gpu.func @kernel(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

//--- two.mlir
module attributes {gpu.container_module} {
  gpu.module @a [#rocdl.target<chip = "gfx90a">] {
    gpu.func @kernel(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b [#rocdl.target<chip = "gfx942">] {
    gpu.func @kernel(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
