// RUN: layout-opt %s -convert-layout-to-vector | FileCheck %s --check-prefix=NOTARGET
// RUN: layout-opt %s -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t/nv -o /dev/null \
// RUN:   && FileCheck %s --check-prefix=PTX < %t/nv/m.sm_90.ptx
// RUN: layout-opt %s -layout-to-rocdl="chip=gfx942 format=llvm" -layout-dump-binaries=dir=%t/amd -o /dev/null \
// RUN:   && llvm-dis %t/amd/m.gfx942.ll -o - | FileCheck %s --check-prefix=AMD

/// Atomic loads and stores keep their scope on the GPU (issue 14: every
/// scope was emitted as the system's): device is PTX .gpu / AMDGPU
/// "agent", block is .cta / "workgroup", system is .sys / no sync scope.
/// Without a target (the CPU lowering) every scope is the system's.

// NOTARGET-NOT: syncscope
// PTX-LABEL: .entry scopes(
// PTX-DAG: ld.acquire.gpu.global.b32
// PTX-DAG: ld.relaxed.cta.global.b32
// PTX-DAG: st.release.gpu.global.b32
// PTX-DAG: st.relaxed.sys.global.b32
// AMD-LABEL: define amdgpu_kernel void @scopes(
// AMD-DAG: load atomic i32, ptr addrspace(1) %{{.*}} syncscope("agent") acquire
// AMD-DAG: load atomic i32, ptr addrspace(1) %{{.*}} syncscope("workgroup") monotonic
// AMD-DAG: store atomic i32 %{{.*}}, ptr addrspace(1) %{{.*}} syncscope("agent") release
// AMD-DAG: store atomic i32 %{{.*}}, ptr addrspace(1) %{{.*}} monotonic

!p = !layout.partition_view<?xi32, tile = [1]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @scopes(%a: memref<?xi32, 1>, %b: memref<?xi32, 1>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %va = layout.view %a : memref<?xi32, 1> -> !layout.tensor_view<?xi32>
    %vb = layout.view %b : memref<?xi32, 1> -> !layout.tensor_view<?xi32>
    %pa = layout.partition %va tile [1] : !layout.tensor_view<?xi32> -> !p
    %pb = layout.partition %vb tile [1] : !layout.tensor_view<?xi32> -> !p
    %t = gpu.thread_id x
    %x = layout.load %pa[%t] masked atomic(acquire, device) : !p -> vector<1xi32>
    %y = layout.load %pa[%t] masked atomic(relaxed, block) : !p -> vector<1xi32>
    layout.store %x, %pb[%t] masked atomic(release, device) : vector<1xi32>, !p
    layout.store %y, %pb[%t] masked atomic(relaxed, system) : vector<1xi32>, !p
    gpu.return
  }
}
}
