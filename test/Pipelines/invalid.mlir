// RUN: not layout-opt %s -layout-to-rocdl=chip=gfx9999 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROCDL
// RUN: not layout-opt %s -layout-to-nvvm=chip=sm_9x -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: not layout-opt %s -layout-to-rocdl="chip=gfx942 format=elf" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not layout-opt %s -layout-to-rocdl="chip=gfx942 rocm-path=%t.none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROCMPATH
// RUN: env LAYOUT_OPT_DEVICE_LIBS=%t.none not layout-opt %s -layout-to-rocdl=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLIBS
// RUN: not layout-opt %s -layout-analyze-bank-conflicts=chip=gfx1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYZE
// RUN: not layout-opt %s -layout-xor-swizzle=chip=sm -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not layout-opt %s -layout-to-nvvm="chip=sm_90 O=7" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLEVEL
// RUN: not layout-opt %s -layout-to-nvvm="chip=sm_90 cuda-path=%t.none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUDAPATH
// RUN: not layout-opt %s -layout-tile-shared-memory=assume-alignment=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALIGN3
// RUN: not layout-opt %s -layout-tile-shared-memory=assume-alignment=-16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALIGNNEG
// RUN: not layout-opt %s -layout-to-rocdl=chip=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROCDL-CUDA
// RUN: not layout-opt %s -layout-to-nvvm=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM-AMD
// RUN: not layout-opt %s -layout-to-rocdl=chip=gfx942:xnack -o /dev/null 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not layout-opt %s -layout-to-nvvm=chip=sm_90:xnack+ -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM-FEATURE

// ROCDL: error: -layout-to-rocdl: unknown AMDGPU chip 'gfx9999' (known: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, gfx1150 ... gfx1153){{$}}
// NVVM: error: -layout-to-nvvm: unknown CUDA chip 'sm_9x' (known: sm_50 ... sm_90a){{$}}
// FORMAT: error: -layout-to-rocdl: format must be bin, isa, llvm or fatbin, got 'elf'
// ROCMPATH: error: -layout-to-rocdl: rocm-path '{{.*}}.none' has no amdgcn/bitcode/ockl.bc (the AMDGPU device libraries) and no llvm/bin/ld.lld
// NOLIBS: error: -layout-to-rocdl: cannot find the AMDGPU device libraries (amdgcn/bitcode/ockl.bc; Debian package rocm-device-libs); install them, or pass rocm-path=<dir> with amdgcn/bitcode and llvm/bin/ld.lld
// ANALYZE: error: -layout-analyze-bank-conflicts: unknown chip 'gfx1' (known: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, gfx1150 ... gfx1153, sm_50 ... sm_90a)
// OLEVEL: error: -layout-to-nvvm: O must be 0, 1, 2 or 3, got 7
// CUDAPATH: error: -layout-to-nvvm: cuda-path '{{.*}}.none' has no bin/ptxas
// ALIGN3: error: -layout-tile-shared-memory: assume-alignment must be a power of two (bytes), got 3
// ALIGNNEG: error: -layout-tile-shared-memory: assume-alignment must be a power of two (bytes), got -16
// SWIZZLE: error: -layout-xor-swizzle: unknown chip 'sm' (known: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, gfx1150 ... gfx1153, sm_50 ... sm_90a)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @empty() kernel {
      gpu.return
    }
  }
}

/// A chip of the other backend is named as such, with this backend's list.
// ROCDL-CUDA: error: -layout-to-rocdl: 'sm_90' is a CUDA chip (-layout-to-nvvm compiles for it); AMDGPU chips: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, gfx1150 ... gfx1153{{$}}
// NVVM-AMD: error: -layout-to-nvvm: 'gfx942' is an AMDGPU chip (-layout-to-rocdl compiles for it); CUDA chips: sm_50 ... sm_90a{{$}}
/// A target-id feature needs its + or -; CUDA chips have none.
// FEATURE: error: -layout-to-rocdl: chip 'gfx942:xnack': target-id feature 'xnack' must be a name followed by + or - (as in gfx942:sramecc+:xnack-)
// NVVM-FEATURE: error: -layout-to-nvvm: 'sm_90:xnack+': CUDA chips take no target-id features
