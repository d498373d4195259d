//===- Passes.td - Transformation passes of layout-opt ----*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_PASSES_TD
#define LAYOUT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LayoutDumpBinaries : Pass<"layout-dump-binaries", "ModuleOp"> {
  let summary = "Write the objects of every gpu.binary to files";
  let description = [{
    For each object of each `gpu.binary` (what `gpu-module-to-binary`
    produces at the end of `-layout-to-rocdl` / `-layout-to-nvvm`), writes
    its bytes to `<dir>/<binary name>.<chip><ext>`: `.hsaco` for an AMDGPU
    code object, `.cubin` for a CUDA binary, `.s` / `.ptx` for assembly,
    `.ll` for LLVM IR. The IR is left unchanged.

    ```sh
    layout-opt kernel.mlir -layout-to-rocdl=chip=gfx942 \
        -layout-dump-binaries=dir=out -o /dev/null   # writes out/kernels.gfx942.hsaco
    ```
  }];
  let options = [
    Option<"dir", "dir", "std::string", [{"."}],
           "Directory to write the objects to (created if missing)">
  ];
}

def LayoutAnalyzeBankConflicts
    : Pass<"layout-analyze-bank-conflicts", "ModuleOp"> {
  let summary = "Report the bank conflicts of every workgroup-memory access";
  let description = [{
    For each load and store of workgroup memory in a kernel whose block
    size is known (`known_block_size`), computes the byte address of every
    lane of the first wave/warp (evaluating thread ids, arith/affine index
    math and `layout.offset` through the evaluator, at the first iteration
    of enclosing loops) and counts the bank conflicts with the target's
    rules (see BankConflicts.h for the model and its sources):

    | chip | banks | wave | phase |
    | --- | --- | --- | --- |
    | gfx90a, gfx942 | 32 x 4 B | 64 | 128 B: 32 lanes of 4 B, 8 lanes of 16 B |
    | gfx950 | 64 x 4 B | 64 | 256 B |
    | gfx1100 | 32 x 4 B | 32 | 128 B |
    | sm_90 | 32 x 4 B | 32 | 128 B: a warp of 4 B, quarter warps of 16 B |

    Each access gets a remark: `bank conflicts on <chip>: N extra cycles
    (K-way; B-byte accesses, P phases of L lanes)`. An access the model
    cannot evaluate gets a remark saying why.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"gfx942"}],
           "Target chip (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...)">
  ];
}

def LayoutXorSwizzle : Pass<"layout-xor-swizzle", "ModuleOp"> {
  let summary = "Swizzle workgroup buffers so that their accesses do not conflict";
  let description = [{
    For each 1-D workgroup buffer of a kernel whose accesses all index it
    with `layout.offset` of one 2-D descriptor `D` (rows x columns), tries
    the layouts

      `D(row, ((col / v) xor ((row / P) mod (C / v))) * v + col mod v)`

    (an `#layout.xor` of column blocks of `v` elements, `v` at least the
    widest vector access so that vector accesses stay contiguous, rows
    grouped by `P`), written as layout.transform stages over `D`, and keeps
    the first that the bank model (-layout-analyze-bank-conflicts) scores
    at zero extra cycles for every access. Every access moves to the new
    descriptor, so the buffer's contents are permuted consistently: the
    program's results do not change.

    When no swizzle reaches zero and `D` is a `layout.packed` base of a
    gpu.func workgroup attribution, pads the rows instead (growing the
    buffer) and says so in a remark. Buffers it cannot handle get a remark
    and are left as they are.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"gfx942"}],
           "Target chip (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...)">
  ];
  let dependentDialects = ["::mlir::layout::LayoutDialect"];
}

def LayoutTileSharedMemory : Pass<"layout-tile-shared-memory", "ModuleOp"> {
  let summary = "Distribute cooperative tile copies over a block's threads, "
                "staging them through workgroup memory where needed";
  let description = [{
    In a `gpu.func` kernel with a `known_block_size`, a `layout.load` or
    `layout.store` whose tile indices are the same in every thread of the
    block (they depend on block ids, kernel arguments and constants, not on
    thread ids) is cooperative: the tile is a block-level value and each
    thread moves a part of it. The pass lowers each cooperative store whose
    tile is computed from cooperative loads by `vector.transpose` ops,
    elementwise ops (`arith.mulf`, `arith.truncf`, ...), splat constants and
    broadcasts of scalars, each value used once, to per-thread code (the
    elementwise ops run on each thread's fragments):

    * Thread mapping: each global access moves vectors along the view's
      unit-stride dimension, consecutive lanes on consecutive vectors
      (coalesced). The vector is the widest (up to 16 bytes) that divides
      the tile, that the view's strides and offset keep aligned (dynamic
      ones are checked at run time) and that gives every thread the same
      number of vectors. Views through a descriptor move element by
      element.
    * Staging: when a load and the store want different fastest
      dimensions (a transpose), that load's tile goes through a new workgroup
      attribution indexed with `layout.offset` of a `layout.packed`
      descriptor: coalesced global reads write it, `gpu.barrier`, then each
      thread reads vectors along the buffer's rows, transposes a small
      block in registers and writes vectors along the destination's rows.
      Run `-layout-xor-swizzle` afterwards to choose the buffer's layout.
    * Edges: a tile entirely inside the view with aligned rows (tested once
      per tile, the same in every thread) moves with unguarded vectors.
      Otherwise a vector not entirely inside the view, or whose alignment
      fails at run time, moves element by element, each guarded; the
      load's padding value fills the elements outside.

    Other ops between the loads and the store, values used twice, atomic
    cooperative accesses, staged loads permuted differently from each
    other, and tiles that the block does not divide into equal parts get a
    diagnostic. Loads and stores whose indices depend on the thread stay
    per-thread accesses (-convert-layout-to-vector).

    ```mlir
    %t = layout.load %pin[%by, %bx] masked
       : !layout.partition_view<?x?xf32, tile = [64, 64]> -> vector<64x64xf32>
    %u = vector.transpose %t, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    layout.store %u, %pout[%bx, %by] masked
       : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    ```
  }];
  let options = [
    Option<"assumeAlignment", "assume-alignment", "int64_t", "16",
           "Alignment in bytes assumed of every global buffer's base "
           "(cudaMalloc / hipMalloc give 256); vectors are at most this wide">,
    Option<"chip", "chip", "std::string", [{""}],
           "Target whose matrix instructions tile contractions use (gfx90a, "
           "gfx942, gfx950, gfx11xx, sm_80 ... sm_90); -layout-to-rocdl and "
           "-layout-to-nvvm pass theirs">
  ];
  let dependentDialects = ["::mlir::layout::LayoutDialect",
                           "::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect"];
}

def LayoutDynamicSharedMemory
    : Pass<"layout-dynamic-shared-memory", "ModuleOp"> {
  let summary = "Move the workgroup buffers of kernels above the chip's "
                "static limit into dynamic shared memory";
  let description = [{
    NVIDIA chips let a block declare at most 48 KiB of shared memory
    statically; a block may use more (up to 227 KiB on sm_90) only as
    dynamic shared memory, whose size the launcher passes and opts in to
    (`cudaFuncAttributeMaxDynamicSharedMemorySize`). For each `gpu.func`
    kernel whose workgroup attributions exceed `chip`'s static limit, the
    pass replaces them with `memref.view`s of one `gpu.dynamic_shared_memory`
    at offsets aligned to 128 bytes (so every bank-conflict analysis and
    swizzle of a buffer still holds), records the byte count on the kernel
    as `layout.dynamic_shared_memory_bytes` and exports it from the GPU
    module as an i32 constant `<kernel>_dynamic_shared_bytes`, which a
    launcher reads from the code object (`cuModuleGetGlobal`). Kernels
    within the static limit, and chips without such an opt-in, are left as
    they are; a kernel above what a block may have at all gets an error.
    `-layout-to-nvvm` runs it before the conversion to NVVM.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"sm_90"}],
           "Target whose shared-memory limits apply (sm_80 ... sm_90)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // LAYOUT_TRANSFORMS_PASSES_TD
