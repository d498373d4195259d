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

def LayoutShow : Pass<"layout-show", "ModuleOp"> {
  let summary = "Draw every rank-2 descriptor: offsets, banks and lanes";
  let description = [{
    Draws each descriptor at the top of a chain (a `layout.naive`,
    `layout.packed`, `layout.aligned`, `layout.transform` or algebra op whose
    result is not only consumed by further layout.transform or algebra ops)
    as a grid of its top coordinates. Each cell shows:

    - the element offset;
    - with `chip`, the workgroup-memory bank;
    - with `access`, which lane of the chip's first wave reads the cell,
      and the cycles and ways of that read by the bank model
      (`countConflicts`, the model of `-layout-analyze-bank-conflicts`).

    With `access=kernel` (and a `chip`), it draws what the kernels really
    do instead: for each workgroup-memory access of a `gpu.func` kernel
    with a `known_block_size` whose index is a descriptor's `layout.offset`
    (a `memref`/`vector` load or store, `nvgpu.ldmatrix`, a `cp.async`
    copy), the descriptor's grid with the lane of the first wave that
    touches each element (every element of a lane's vector), and the
    wave's cycles and ways. The lanes' addresses come from the address
    interpreter of `-layout-analyze-bank-conflicts`, in block 0, the first
    loop iteration, scalar arguments 0 and run-time extents of 1024 (a wave
    whose guards are all false there says "no lane accesses"); the
    element size is the buffer's. An access whose descriptor is not rank 2
    or whose first wave cannot be evaluated gets a warning that says why.

    The descriptor is evaluated by the evaluator. Text goes to stdout. SVG
    (cells coloured by bank) and LaTeX (TikZ, as CuTe's `print_latex`) are
    written to `<dir>/<function>-<k>.svg` / `.tex` when `dir` is given, and
    to stdout otherwise. The IR is left unchanged.

    A descriptor that is not rank 2, or that cannot be traced, gets a
    warning that names why it is not drawn.

    ```sh
    layout-opt examples/pictures.mlir         -layout-show="chip=sm_90 access=columns" -o /dev/null
    layout-opt examples/pictures-kernel.mlir  -layout-show="chip=sm_90 access=kernel" -o /dev/null
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{""}],
           "Chip whose banks are drawn (gfx90a, gfx942, gfx950, gfx11xx, "
           "sm_50 ... sm_90a); empty: offsets only">,
    Option<"elementBytes", "element-bytes", "int64_t", "4",
           "Bytes per element: 1, 2, 4, 8 or 16">,
    Option<"access", "access", "std::string", [{"none"}],
           "The wave access drawn: none, rows (lane l at (l / cols, "
           "l % cols)), columns (lane l at (l % rows, l / rows)) or kernel "
           "(each workgroup-memory access of the kernels indexed through a "
           "descriptor, as its first wave evaluates; needs chip)">,
    Option<"format", "format", "std::string", [{"text"}],
           "text, svg or latex">,
    Option<"dir", "dir", "std::string", [{""}],
           "Directory for svg / latex files (created if missing); empty: "
           "stdout">
  ];
}

def LayoutAnalyzeBankConflicts
    : Pass<"layout-analyze-bank-conflicts", "ModuleOp"> {
  let summary = "Report the bank conflicts of every workgroup-memory access";
  let description = [{
    For each load and store of workgroup memory (`memref`/`vector`
    loads and stores, `nvgpu.ldmatrix`, `nvgpu.device_async_copy`) in a
    kernel whose block size is known (`known_block_size`), proves the worst
    bank-conflict count over every wave of the block, every block and every
    loop iteration (BankConflicts.h): every thread is evaluated (constants
    through the ops' folders, `layout.offset` through the descriptor's own
    formulas), and what differs between blocks and iterations (block ids,
    loop iterations, dynamic extents, scalar arguments) is kept symbolic,
    split by residue where a division, remainder or xor needs it, and
    enumerated over one period of the banks. The chip's phase rules
    (include/layout/Target/Chip.h, each cited) say which lanes are served
    together:

    | chip | banks | wave | 4 B | 8 B | 16 B read | 16 B write |
    | --- | --- | --- | --- | --- | --- | --- |
    | gfx90a, gfx942 | 32 x 4 B | 64 | 2 x 32 | 4 x 16 | 8 x 8: 0-3 with 20-23, ... | 8 x 8 consecutive |
    | gfx950 | 64 x 4 B (writes 32) | 64 | 1 x 64 | 2 x 32 | 4 x 16: 0-3, 12-15, 20-23, 24-27, ... | 8 x 8 consecutive |
    | gfx1100 | 32 x 4 B | 32 | 1 x 32 | 2 x 16 | 4 x 8: 0-3 with 20-23, ... | 4 x 8 consecutive |
    | sm_90 | 32 x 4 B | 32 | 1 x 32 | 2 x 16 | 4 x 8 | 4 x 8 (ldmatrix: 8 lanes per matrix) |

    On sm_90a the accesses of the hardware units count too: the operand
    reads of `layout.warpgroup_mma` and the box writes of
    `layout.bulk_tensor_load`, at the buffer descriptor's addresses for
    every tile origin the op may take (every multiple of its tile), cut
    into wavefronts of 16-byte chunks (include/layout/Target/
    SharedWavefronts.h: one per wgmma core matrix of 8 rows of 16 bytes,
    one per 128 bytes of a TMA box, the model's assumption where NVIDIA
    documents none), each counted by the same bank model. A descriptor that
    matches no hardware swizzle mode, or a base not aligned to the mode's
    256 / 512 / 1024 bytes, is not proved and the remark says why (the
    lowerings refuse it), with what the descriptor's chunks would cost.

    Each access gets a remark: `bank conflicts on <chip>: N extra cycles
    (K-way; B-byte reads, <phases>); proved for all W waves, all blocks and
    all iterations; <buffer>` ("at most N" where lanes that move
    differently between iterations were counted apart), or `not proved:
    <why>` (an address that depends on a loaded value, a loop-carried
    value, ...). Accesses with the same location (the versions of one
    access that -layout-tile-shared-memory emits for aligned and unaligned
    tiles) and the same result share one remark, which says how many of
    the location's accesses it covers. Each kernel gets a summary. Every
    access's threads are evaluated once per case and not kept, and the
    proofs together take at most `max-evaluations` thread evaluations: a
    proof that would need more is not started and its remark says what it
    needed and what was left. With `--remark-format=yaml`
    (and a `--remarks-filter`), layout-opt writes them as structured
    remarks (name BankConflicts / BankConflictSummary, category
    layout-bank-conflicts, with Chip, Kernel, Buffer, ExtraCycles, Proved,
    ... as arguments).

    The chip is the gpu.module's target (`#rocdl.target<chip = ...>`,
    `#nvvm.target<chip = ...>`) or the `chip` option; an option that
    disagrees with the target, and no chip at all, are errors.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{""}],
           "Target chip (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...); "
           "default: the gpu.module's target">,
    Option<"conflictsOnly", "conflicts-only", "bool", "false",
           "Report only accesses with conflicts or without a proof (and the "
           "per-kernel summaries)">,
    Option<"maxEvaluations", "max-evaluations", "int64_t", "16777216",
           "The most thread evaluations (cases times the block's threads) "
           "the pass spends on all its proofs; an access whose proof would "
           "go past what is left is reported unproved with the numbers "
           "(0: no bound)">
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
    the first that the bank model (-layout-analyze-bank-conflicts) proves
    at zero extra cycles for every access, wave, block and iteration (a
    layout whose conflicts cannot be proved is never chosen). Every access moves to the new
    descriptor, so the buffer's contents are permuted consistently: the
    program's results do not change.

    When no swizzle reaches zero and `D` is a `layout.packed` base of a
    gpu.func workgroup attribution, pads the rows instead (growing the
    buffer) and says so in a remark. Buffers it cannot handle get a remark
    and are left as they are. A buffer that `layout.warpgroup_mma` reads or
    `layout.bulk_tensor_load` writes keeps its descriptor (their lowerings
    derive the hardware's swizzle mode from it); its remark says whether
    the bank model proved those accesses conflict-free, and what it found
    of the others.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{""}],
           "Target chip (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...); "
           "default: the gpu.module's target">
  ];
  let dependentDialects = ["::mlir::layout::LayoutDialect"];
}

def LayoutTileSharedMemory : Pass<"layout-tile-shared-memory", "ModuleOp"> {
  let summary = "Distribute cooperative tile copies over a block's threads, "
                "staging them through workgroup memory where needed";
  let description = [{
    In a `gpu.func` kernel, a `layout.load` or `layout.store` whose tile
    indices are the same in every thread of the block (they depend on block
    ids, kernel arguments and constants, not on thread ids) is cooperative:
    the tile is a block-level value and each thread moves a part of it. The
    kernel needs a `known_block_size`; a cooperative access in a kernel
    without one is an error. The pass lowers each cooperative store whose
    tile is computed from cooperative loads by `vector.transpose` ops,
    elementwise ops (`arith.mulf`, `arith.truncf`, ...), splat constants,
    broadcasts of scalars, `vector.broadcast`s of tiles (a row or column
    repeated along new or unit dimensions: a per-row scale) and
    `vector.shape_cast`s that add or drop unit dimensions to per-thread
    code (the elementwise ops run on each thread's fragments; a broadcast
    tile that is constant along the store's rows is read one element per
    fragment). A tile value may be used several times, by
    one store's expression or by several stores, but only by such
    expressions:

    * Thread mapping: each global access moves vectors along the view's
      unit-stride dimension (whichever it is: a column-major view moves
      along its columns), consecutive lanes on consecutive vectors
      (coalesced). The vector is the widest (up to 16 bytes) that divides
      the tile, that the view's strides and offset keep aligned (dynamic
      ones are checked at run time) and that gives every thread the same
      number of vectors; when no width does, the widest that divides the
      tile, and the threads' last iteration is partial (guarded). Views
      through a descriptor move vectors along its runs where they allow,
      else element by element.
    * Staging: when a load and the store want different fastest
      dimensions (a transpose), that load's tile goes through a new workgroup
      attribution indexed with `layout.offset` of a `layout.packed`
      descriptor: coalesced global reads write it, `gpu.barrier`, then each
      thread reads vectors along the buffer's rows, transposes a small
      block in registers and writes vectors along the destination's rows.
      Run `-layout-xor-swizzle` afterwards to choose the buffer's layout.
      Workgroup buffers are aligned to 128 bytes (`llvm.align`), as
      -layout-dynamic-shared-memory places them. A staged
      load whose buffer rows run along another store dimension than the
      first staged load's, and not along the store's rows, is read element
      by element (with a remark).
    * Edges: a tile entirely inside the view with aligned rows (tested once
      per tile, the same in every thread) moves with unguarded vectors.
      Otherwise a vector not entirely inside the view, or whose alignment
      fails at run time, moves element by element, each guarded; the
      load's padding value fills the elements outside.

    * Reductions: a `vector.multi_reduction` of a tile value (row sums,
      row maxima) stores its source cooperatively into a workgroup buffer;
      after a barrier, up to 32 consecutive lanes per kept coordinate each
      fold a strided part of its reduced elements and the group's first
      lane folds their partial results into a buffer over the kept tile,
      which a cooperative load then reads (combined with the accumulator)
      for the stores that use the result.

    With `remarks=true` (or `--remarks-filter=layout-tiles`), each global
    load and store of a distributed copy gets a remark with the mapping
    chosen: the threads, the vector width and dimension, the iterations,
    the elements per thread, and why the vectors are narrower than 16
    bytes when they are (the tile's extent, the view's static strides or
    offset, assume-alignment, a load that allows less, or widths that
    would not split the tile evenly). A contraction's remarks say the same
    of A's and B's copies (registers, cp.async, TMA boxes, or TMA boxes
    with cp.async, and their stages) and of C's stores (each lane's
    fragment elements, its pairs, or the tile's rows through a C buffer),
    each with the matrix instruction and the wave tile; a reduction's say
    how its lanes read the staged source tile. On a chip with TMA
    (sm_90a), a contraction whose wgmma operands are staged by `cp.async`
    or register prefetch instead of TMA boxes gets a remark saying why
    (remark OperandCopies).

    Other ops between the loads and the store (shape casts that regroup
    dimensions among them), other uses of tile values, reductions to a
    scalar, and atomic cooperative accesses get a diagnostic. Loads and stores whose indices depend on the thread stay
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
           "Alignment in bytes assumed of every global buffer's base, a power "
           "of two (cudaMalloc / hipMalloc give 256); vectors are at most "
           "this wide">,
    Option<"chip", "chip", "std::string", [{""}],
           "Target whose matrix instructions tile contractions use (gfx90a, "
           "gfx942, gfx950, gfx11xx, sm_80 ... sm_90); -layout-to-rocdl and "
           "-layout-to-nvvm pass theirs">,
    Option<"remarks", "remarks", "bool", "false",
           "Remark, for each global tile access (copies, contractions, "
           "reductions), the thread mapping and vector width chosen and why "
           "the vectors are narrower than 16 bytes where they are, and why "
           "wgmma operands are not staged by TMA where a chip has it (always "
           "sent to the remark engine's category layout-tiles: "
           "--remarks-filter=layout-tiles)">,
    Option<"rotateProducts", "rotate-products", "bool", "false",
           "Issue a fragment program's last product (attention's P V) one "
           "iteration late, after the next iteration's first product, where "
           "wgmma allows (FlashAttention-3's overlap of P V with the next "
           "softmax); a loop's layout.product_order attribute (\"rotated\" "
           "or \"program\") decides for that loop">,
    Option<"copiesAhead", "copies-ahead", "bool", "false",
           "Copy a fragment program's loop-variant tiles (attention's K and "
           "V) by cp.async a whole iteration ahead, into two stages, with "
           "one barrier per iteration, where they fit; a loop's "
           "layout.copy_release attribute (\"ahead\", \"early\" or "
           "\"late\") decides for that loop">
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
    Option<"chip", "chip", "std::string", [{""}],
           "Target whose shared-memory limits apply (sm_80 ... sm_90); "
           "default: the gpu.module's target, else sm_90">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // LAYOUT_TRANSFORMS_PASSES_TD
