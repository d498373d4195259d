// RUN: layout-opt %s -layout-analyze-bank-conflicts -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: layout-opt %s -layout-analyze-bank-conflicts --remark-format=yaml --remarks-filter=layout-bank-conflicts --remarks-output-file=%t.yaml -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: layout-opt %s -layout-xor-swizzle -layout-analyze-bank-conflicts -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not layout-opt %s -layout-xor-swizzle=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=DISAGREE

/// No chip option: each gpu.module's target names the chip (gfx950 for
/// @amd, sm_90 for @nv), for the analysis and for the swizzle alike. An
/// option that disagrees with a target is an error.
///
/// --remark-format=yaml: with MLIR's remark engine on for the category
/// layout-bank-conflicts, the remarks go to the YAML file with their
/// metrics as arguments (a program reads the chip, the extra cycles, the
/// ways, whether it was proved and why not) and not to the terminal.

// TEXT: 75:7: remark: bank conflicts on gfx950: 0 extra cycles (1-way; 4-byte writes, 2 phases of 32 lanes); proved for all 1 wave, all blocks and all iterations; workgroup buffer 0 of @column
// TEXT: 78:12: remark: bank conflicts on gfx950: 15 extra cycles (16-way; 4-byte reads, 1 phases of 64 lanes); proved for all 1 wave, all blocks and all iterations; workgroup buffer 0 of @column
// TEXT: remark: bank conflicts on gfx950: not proved: the address depends on a loaded value ('memref.load'); workgroup buffer 0 of @indirect
// TEXT: remark: bank conflicts on sm_90: 31 extra cycles (32-way; 4-byte reads, 1 phases of 32 lanes); proved for all 2 waves, all blocks and all iterations; workgroup buffer 0 of @column

// QUIET-NOT: remark

// YAML:      --- !Analysis
// YAML-NEXT: Pass:            layout-bank-conflicts
// YAML-NEXT: Name:            BankConflicts
// YAML-NEXT: DebugLoc:        { File: '{{.*}}bank-conflicts-remarks.mlir',{{ *}}
// YAML-NEXT:                    Line: 75, Column: 7 }
// YAML-NEXT: Function:        column
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark:          'bank conflicts on gfx950: 0 extra cycles
// YAML-NEXT:   - Chip:            gfx950
// YAML-NEXT:   - Kernel:          column
// YAML-NEXT:   - Buffer:          'workgroup buffer 0 of @column'
// YAML-NEXT:   - Access:          memref.store
// YAML-NEXT:   - Bytes:           '4'
// YAML-NEXT:   - ExtraCycles:     '0'
// YAML-NEXT:   - Ways:            '1'
// YAML-NEXT:   - Proved:          'true'
// YAML-NEXT:   - Exact:           'true'
// YAML-NEXT:   - Why:             ''
// YAML:        - Remark:          'bank conflicts on gfx950: 15 extra cycles
// YAML:        - ExtraCycles:     '15'
// YAML-NEXT:   - Ways:            '16'
// YAML-NEXT:   - Proved:          'true'
// YAML:        Function:        indirect
// YAML:        - ExtraCycles:     unknown
// YAML-NEXT:   - Ways:            '0'
// YAML-NEXT:   - Proved:          'false'
// YAML-NEXT:   - Exact:           'false'
// YAML-NEXT:   - Why:             'the address depends on a loaded value (''memref.load'')'
// YAML:        - Chip:            sm_90
// YAML:        - ExtraCycles:     '31'
// YAML-NEXT:   - Ways:            '32'

// SWIZZLE: remark: workgroup buffer on gfx950: swizzled: 32x32 tile, {{.*}}; bank conflicts 15 -> 0 extra cycles, proved for every wave, block and iteration
// SWIZZLE: remark: workgroup buffer on gfx950: not swizzled: an access does not index it with layout.offset
// SWIZZLE: remark: workgroup buffer on sm_90: swizzled: 32x32 tile, {{.*}}; bank conflicts 31 -> 0 extra cycles, proved for every wave, block and iteration
// SWIZZLE: remark: bank conflicts on gfx950 in @column: 2 workgroup-memory accesses, 0 with conflicts or unproved, worst 0 extra cycles; 2 of 2 proved
// SWIZZLE: remark: bank conflicts on sm_90 in @column: 2 workgroup-memory accesses, 0 with conflicts or unproved, worst 0 extra cycles; 2 of 2 proved

// DISAGREE: error: {{.*}}gfx942{{.*}}gfx950

module attributes {gpu.container_module} {
  gpu.module @amd [#rocdl.target<chip = "gfx950">] {
    gpu.func @column(%out: memref<64xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tid = gpu.thread_id x
      %tx = arith.remui %tid, %c32 : index
      %w = layout.offset %tile[%c0, %tx] : !layout.desc<32x32>
      memref.store %f, %buf[%w] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = layout.offset %tile[%tx, %c0] : !layout.desc<32x32>
      %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
    gpu.func @indirect(%out: memref<64xf32>, %idx: memref<64xindex>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %i = memref.load %idx[%tid] : memref<64xindex>
      %v = memref.load %buf[%i] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @nv [#nvvm.target<chip = "sm_90">] {
    gpu.func @column(%out: memref<64xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %f = arith.constant 1.0 : f32
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tid = gpu.thread_id x
      %tx = arith.remui %tid, %c32 : index
      %w = layout.offset %tile[%c0, %tx] : !layout.desc<32x32>
      memref.store %f, %buf[%w] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = layout.offset %tile[%tx, %c0] : !layout.desc<32x32>
      %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
