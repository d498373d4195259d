// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: layout-opt %examples/transpose.mlir -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 -layout-dump-binaries=dir=%t -o /dev/null \
// RUN:   && llvm-readelf -h %t/transpose.sm_90.cubin | FileCheck %s

/// With ptxas (CUDA) installed, -layout-to-nvvm ends in a cubin: an ELF
/// for the CUDA machine.
// CHECK: Class: ELF64
// CHECK: Machine: NVIDIA CUDA architecture
