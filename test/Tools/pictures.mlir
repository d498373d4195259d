// RUN: layout-opt %s -layout-show="chip=sm_90 access=columns" -o /dev/null | FileCheck %s
// RUN: layout-opt %s -layout-show -o /dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: layout-opt %s -layout-show -o /dev/null 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not layout-opt %s -layout-show="access=diagonal" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACCESS
// RUN: not layout-opt %s -layout-show="element-bytes=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not layout-opt %s -layout-show="format=png" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not layout-opt %s -layout-show="chip=sm_9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: layout-opt %S/../../examples/pictures.mlir -layout-show="chip=sm_90 access=columns format=svg dir=%t" -o /dev/null
// RUN: diff %t/conflicted-0.svg %S/../../docs/images/conflicted-0.svg
// RUN: diff %t/swizzled-0.svg %S/../../docs/images/swizzled-0.svg
// RUN: layout-opt %s -layout-show="chip=sm_90 format=latex" -o /dev/null | FileCheck %s --check-prefix=LATEX

/// -layout-show draws each chain's top descriptor. The banks and conflicts
/// are worked out by hand: a 32 x 4 f32 tile read down column 0 by a warp
/// (lane l at row l) has offsets 4 l, banks 4 l mod 32, so rows l and
/// l + 8 share a bank (4-way: 4 cycles for sm_90's single phase of 32
/// lanes); with rows 5 elements apart the banks are 5 l mod 32, all
/// distinct.
/// The docs' pictures (docs/pictures.md) are drawn here and compared with
/// the files in docs/images, so they cannot go stale.

// CHECK-LABEL: @packed #0, layout.packed
// CHECK-NEXT: !layout.desc<32x4>, 4-byte elements, sm_90: 32 banks of 4 bytes; a wave reading down columns: 4 cycles for 1 phase (4-way)
// CHECK-NEXT: offsets:
// CHECK-NEXT: {{^}}     0   1   2   3{{$}}
// CHECK-NEXT: {{^}} 0   0   1   2   3{{$}}
// CHECK-NEXT: {{^}} 1   4   5   6   7{{$}}
// CHECK: {{^}}31 124 125 126 127{{$}}
// CHECK-NEXT: banks:
// CHECK-NEXT: {{^}}    0  1  2  3{{$}}
// CHECK-NEXT: {{^}} 0  0  1  2  3{{$}}
// CHECK-NEXT: {{^}} 1  4  5  6  7{{$}}
// CHECK: {{^}} 8  0  1  2  3{{$}}
// CHECK: lanes:
// CHECK-NEXT: {{^}}    0  1  2  3{{$}}
// CHECK-NEXT: {{^}} 0  0  .  .  .{{$}}
// CHECK-NEXT: {{^}} 1  1  .  .  .{{$}}
// CHECK-LABEL: @padded #0, layout.naive
// CHECK-NEXT: !layout.desc<32x4>, 4-byte elements, sm_90: 32 banks of 4 bytes; a wave reading down columns: 1 cycles for 1 phase (no conflict)
// CHECK: banks:
// CHECK-NEXT: {{^}}    0  1  2  3{{$}}
// CHECK-NEXT: {{^}} 0  0  1  2  3{{$}}
// CHECK-NEXT: {{^}} 1  5  6  7  8{{$}}
// WARN: warning: not drawn: a picture needs a rank-2 descriptor, got rank 3

// PLAIN: !layout.desc<32x4>, 4-byte elements{{$}}
// PLAIN-NEXT: offsets:
// PLAIN-NOT: banks:

// ACCESS: error: -layout-show: access must be none, rows, columns or kernel, got 'diagonal'
// BYTES: error: -layout-show: element-bytes must be 1, 2, 4, 8 or 16, got 3
// FORMAT: error: -layout-show: format must be text, svg or latex, got 'png'
// CHIP: error: -layout-show: unknown chip 'sm_9'

// LATEX: \begin{tikzpicture}
// LATEX: \node[fill={rgb,255:red,{{[0-9]+}};green,{{[0-9]+}};blue,{{[0-9]+}}}] at (0,0) {0};
// LATEX: \end{tikzpicture}

func.func @packed() -> !layout.desc<32x4> {
  %d = layout.packed [32, 4] : !layout.desc<32x4>
  return %d : !layout.desc<32x4>
}

func.func @padded() -> (!layout.desc<32x4>, !layout.desc<32x2x2>) {
  %d = layout.naive [32, 4] strides [5, 1] : !layout.desc<32x4>
  %t = layout.transform %d [#layout.pass_through<32> : [0] -> [0], #layout.unmerge<[2, 2]> : [1] -> [1, 2]] : !layout.desc<32x4> -> !layout.desc<32x2x2>
  return %d, %t : !layout.desc<32x4>, !layout.desc<32x2x2>
}
