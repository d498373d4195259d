// RUN: layout-opt %S/../../examples/pictures-kernel.mlir -layout-show="chip=sm_90 access=kernel" -o /dev/null | FileCheck %s --check-prefix=EXAMPLE
// RUN: layout-opt %s -layout-show="chip=sm_90 access=kernel" -o /dev/null 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: layout-opt %s -layout-show="chip=sm_90 access=kernel format=svg dir=%t" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=SVG < %t/rows-0.svg
// RUN: not layout-opt %s -layout-show="access=kernel" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCHIP

/// -layout-show access=kernel draws what a kernel's workgroup-memory
/// accesses do: per access indexed through a descriptor's layout.offset, the
/// lane of the first wave on each element it touches, and the wave's count
/// by the bank model. Worked out by hand (sm_90: 32 banks of 4 bytes, warps
/// of 32 lanes):
///
/// - examples/pictures-kernel.mlir, a 32 x 32 f32 tile, thread (x, y)
///   writing (y, x) and reading (x, y): the first warp is y = 0. It writes
///   row 0: lane l at offset l, bank l, one cycle. Row-major, it reads
///   column 0: lane l at offset 32 l, bank 0: 32 cycles (32-way). Xored
///   (column ^ row), lane l reads (l, 0) at column l, offset 33 l, bank l:
///   one cycle.
/// - @rows: 16 threads store 16-byte vectors into an 8 x 8 f32 tile, lane l
///   at (l / 2, 4 (l % 2)): lane l covers 4 elements, rows r get lanes 2r
///   and 2r + 1. Its bytes are 16 l: sm_90 serves 16-byte accesses 8 lanes
///   a phase, lanes 0-7 on bytes 0-127 (every bank once): 2 phases of one
///   cycle, no conflict.
/// - @guarded: a store only blocks other than block 0 make: the first
///   wave of block 0 does not access (said so, no lane drawn).
/// - @stages: a 2 x 8 x 8 descriptor is rank 3: not drawn, and said why.
/// - @indirect: the index comes from a load: not drawn, and said why.

// EXAMPLE-LABEL: @transpose_packed access #0, memref.store of 4 bytes (line 25)
// EXAMPLE-NEXT: !layout.desc<32x32>, 4-byte elements, sm_90: 32 banks of 4 bytes; the first wave of memref.store of 4 bytes: 1 cycles for 1 phase (no conflict)
// EXAMPLE: lanes:
// EXAMPLE-NEXT: {{^}}    0  1  2
// EXAMPLE-NEXT: {{^}} 0  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31{{$}}
// EXAMPLE-NEXT: {{^}} 1  .  .  .
// EXAMPLE-LABEL: @transpose_packed access #1, memref.load of 4 bytes (line 28)
// EXAMPLE-NEXT: the first wave of memref.load of 4 bytes: 32 cycles for 1 phase (32-way)
// EXAMPLE: banks:
// EXAMPLE-NEXT: {{^}}    0  1  2
// EXAMPLE-NEXT: {{^}} 0  0  1  2
// EXAMPLE: lanes:
// EXAMPLE-NEXT: {{^}}    0  1  2
// EXAMPLE-NEXT: {{^}} 0  0  .  .  .
// EXAMPLE-NEXT: {{^}} 1  1  .  .  .
// EXAMPLE: {{^}}31 31  .  .  .
// EXAMPLE-LABEL: @transpose_swizzled access #0, memref.store of 4 bytes (line 45)
// EXAMPLE-NEXT: the first wave of memref.store of 4 bytes: 1 cycles for 1 phase (no conflict)
// EXAMPLE-LABEL: @transpose_swizzled access #1, memref.load of 4 bytes (line 48)
// EXAMPLE-NEXT: the first wave of memref.load of 4 bytes: 1 cycles for 1 phase (no conflict)
// EXAMPLE: offsets:
// EXAMPLE-NEXT: {{^}}      0    1    2
// EXAMPLE-NEXT: {{^}} 0    0    1    2
// EXAMPLE-NEXT: {{^}} 1   33   32   35   34
// EXAMPLE: lanes:
// EXAMPLE-NEXT: {{^}}    0  1  2
// EXAMPLE-NEXT: {{^}} 0  0  .  .  .
// EXAMPLE-NEXT: {{^}} 1  1  .  .  .

// CHECK-LABEL: @rows access #0, vector.store of 16 bytes
// CHECK-NEXT: !layout.desc<8x8>, 4-byte elements, sm_90: 32 banks of 4 bytes; the first wave of vector.store of 16 bytes: 2 cycles for 2 phases (no conflict)
// CHECK: lanes:
// CHECK-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
// CHECK-NEXT: {{^}}0  0  0  0  0  1  1  1  1{{$}}
// CHECK-NEXT: {{^}}1  2  2  2  2  3  3  3  3{{$}}
// CHECK: {{^}}7 14 14 14 14 15 15 15 15{{$}}
// CHECK-LABEL: @guarded access #0, memref.store of 4 bytes
// CHECK-NEXT: the first wave of memref.store of 4 bytes: no lane accesses (guarded off in block 0, the first iteration, with run-time extents of 1024)
// CHECK: lanes:
// CHECK-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
// CHECK-NEXT: {{^}}0  .  .  .  .  .  .  .  .{{$}}
// CHECK-NOT: @stages
// CHECK-NOT: @indirect

// WARN: warning: not drawn: a picture needs a rank-2 descriptor, got rank 3
// WARN: warning: not drawn: its first wave cannot be evaluated: the address depends on a loaded value

// SVG: <text class="h" {{.*}}>!layout.desc&lt;8x8&gt;, 4-byte elements, sm_90: 32 banks of 4 bytes; the first wave of vector.store of 16 bytes: 2 cycles for 2 phases (no conflict)</text>
// SVG: <rect class="l" x="24" y="46"
// SVG-SAME: L0</text>

// NOCHIP: error: -layout-show: access=kernel needs chip=...

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows()
        workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      %tile = layout.packed [8, 8] : !layout.desc<8x8>
      %l = gpu.thread_id x
      %r = arith.divui %l, %c2 : index
      %h = arith.remui %l, %c2 : index
      %c = arith.muli %h, %c4 : index
      %o = layout.offset %tile[%r, %c] : !layout.desc<8x8>
      vector.store %v, %buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    gpu.func @guarded()
        workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [8, 8] : !layout.desc<8x8>
      %l = gpu.thread_id x
      %b = gpu.block_id x
      %later = arith.cmpi ne, %b, %c0 : index
      scf.if %later {
        %o = layout.offset %tile[%c0, %l] : !layout.desc<8x8>
        memref.store %f, %buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
    gpu.func @stages()
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [2, 8, 8] : !layout.desc<2x8x8>
      %l = gpu.thread_id x
      %o = layout.offset %tile[%c0, %c0, %l] : !layout.desc<2x8x8>
      memref.store %f, %buf[%o] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @indirect(%idx: memref<32xindex>)
        workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [8, 8] : !layout.desc<8x8>
      %l = gpu.thread_id x
      %i = memref.load %idx[%l] : memref<32xindex>
      %o = layout.offset %tile[%c0, %i] : !layout.desc<8x8>
      memref.store %f, %buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
