// RUN: layout-opt %s -split-input-file -layout-dynamic-shared-memory=chip=sm_90 | FileCheck %s
// RUN: not layout-opt %s -split-input-file -layout-dynamic-shared-memory=chip=sm_86 -o /dev/null 2>&1 | FileCheck --check-prefix=SM86 %s
// RUN: not layout-opt %s -split-input-file -layout-dynamic-shared-memory=chip=gfx942 -o /dev/null 2>&1 | FileCheck --check-prefix=GFX942 %s
// RUN: not layout-opt %s -layout-dynamic-shared-memory=chip=sm_99x -o /dev/null 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// RUN: layout-opt %s -split-input-file -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir=%t -o /dev/null \
// RUN:   && FileCheck --check-prefix=PTX %s < %t/m.sm_90.ptx

/// -layout-dynamic-shared-memory: workgroup buffers above the chip's static
/// limit (48 KiB on NVIDIA) become views of dynamic shared memory at
/// 128-byte aligned offsets, and the kernel exports the size its launcher
/// passes; within the limit nothing changes.

// CHECK-LABEL: gpu.module @m
// CHECK: llvm.mlir.global external constant @big_dynamic_shared_bytes(82176 : i32) {addr_space = 4 : i32, alignment = 4 : i64} : i32
// CHECK-NOT: small_dynamic_shared_bytes
// CHECK: gpu.func @big(%[[OUT:.*]]: memref<?xf32>) kernel
// CHECK-SAME: layout.dynamic_shared_memory_bytes = 82176 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[BASE]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
/// 65536 bytes of A, then B's 200 bytes rounded up to 128-byte multiples.
// CHECK: %[[C1:.*]] = arith.constant 65536 : index
// CHECK: %[[B:.*]] = memref.view %[[BASE]][%[[C1]]][] : {{.*}} to memref<100xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C2:.*]] = arith.constant 65792 : index
// CHECK: %[[C:.*]] = memref.view %[[BASE]][%[[C2]]][] : {{.*}} to memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: memref.load %[[B]]
// CHECK: gpu.func @small(%{{.*}}: memref<?xf32>) workgroup(%{{.*}} : memref<4096xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: gpu.dynamic_shared_memory

// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .visible .const .align 4 .u32 big_dynamic_shared_bytes = 82176;
// PTX-NOT: small_dynamic_shared_bytes
// PTX-LABEL: .entry big(
// PTX: mov.b32 %r{{[0-9]+}}, __dynamic_shmem__0;
// PTX: st.shared.b32 [%r{{[0-9]+}}+65792]
// PTX: ld.shared.b16 %rs{{[0-9]+}}, [%r{{[0-9]+}}+65536]
// PTX-LABEL: .entry small(

/// 82176 bytes are within sm_86's 99 KiB (101376 bytes): no error for @big.
// SM86-NOT: error
// GFX942: error: 'gpu.func' op needs 82176 bytes of workgroup memory; gfx942 allows 65536 bytes per block
// UNKNOWN: error: -layout-dynamic-shared-memory: unknown chip 'sm_99x' (known: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100 ... gfx1103, gfx1150 ... gfx1153, sm_50 ... sm_90a)
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @big(%out: memref<?xf32>)
      workgroup(%a: memref<16384xf32, #gpu.address_space<workgroup>>,
                %b: memref<100xf16, #gpu.address_space<workgroup>>,
                %c: memref<4096xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<16384xf32, #gpu.address_space<workgroup>>
    memref.store %v, %c[%t] : memref<4096xf32, #gpu.address_space<workgroup>>
    %h = memref.load %b[%t] : memref<100xf16, #gpu.address_space<workgroup>>
    %e = arith.extf %h : f16 to f32
    %s = arith.addf %v, %e : f32
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
  gpu.func @small(%out: memref<?xf32>)
      workgroup(%a: memref<4096xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<4096xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}

// -----

/// More than a block may have at all: 64 KiB + 48 KiB is above sm_86's
/// 99 KiB but within sm_90's 227 KiB.
// SM86: error: 'gpu.func' op needs 114688 bytes of workgroup memory; sm_86 allows 101376 bytes per block
// CHECK-LABEL: gpu.func @too_big_for_sm86
// CHECK-SAME: layout.dynamic_shared_memory_bytes = 114688
module attributes {gpu.container_module} {
gpu.module @m2 {
  gpu.func @too_big_for_sm86(%out: memref<?xf32>)
      workgroup(%a: memref<16384xf32, #gpu.address_space<workgroup>>,
                %b: memref<12288xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<16384xf32, #gpu.address_space<workgroup>>
    memref.store %v, %b[%t] : memref<12288xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%t] : memref<?xf32>
    gpu.return
  }
}
}
