//===- Passes.td - Conversion passes of layout-opt --------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PASSES_TD
#define LAYOUT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLayoutToAffine : Pass<"convert-layout-to-affine"> {
  let summary = "Lower layout index ops to affine maps and arith ops";
  let description = [{
    Replaces every `layout.offset` by one `affine.apply` of the descriptor
    chain composed into a single simplified map (with `arith` ops between
    affine pieces for the transforms that are not affine: xor, swizzle,
    sunder); `layout.valid` by comparisons combined with `arith.andi` (one
    unsigned `ult` per two-sided pad bound); `layout.upper` by the inverse
    maps; `layout.element_space_size` by its constant. Coordinates
    (`!layout.coord`) become their hidden indices (a 1:N conversion, also
    through scf.for / scf.if): `layout.make_coord` computes every level,
    `layout.move_coord` by a constant step updates them with carries (no
    division) and by a dynamic step recomputes them, and `coord_offset` /
    `coord_valid` read them. A descriptor whose origin cannot be traced gets
    a diagnostic at the op.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertLayoutToVector : Pass<"convert-layout-to-vector"> {
  let summary = "Lower partition-view loads and stores to vector and memref ops";
  let description = [{
    Lowers `layout.load` / `layout.store` of a traceable partition:

    * views of a memref, and views of a buffer through a descriptor that is
      plainly strided (no stages left after canonicalization; the buffer is
      reinterpreted with the descriptor's strides), become one
      `vector.transfer_read` / `vector.transfer_write`; a masked access
      carries a `vector.create_mask` of the extents left in the tile and the
      padding value;
    * views through any other descriptor (pad, xor, merge, ...) become a
      loop over the tile's elements: `layout.offset` / `layout.valid` of the
      coordinate (lowered next by `-convert-layout-to-affine`), a scalar
      access guarded by the mask, and a staging buffer read or written as a
      whole vector;
    * atomic accesses become one `llvm.load` / `llvm.store` per element with
      the requested ordering (on the CPU every scope is the system scope).

    `layout.index_space` of dynamic extents becomes `ceildiv` of the
    extents. A partition or view whose origin cannot be traced gets a
    diagnostic at the access.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def LayoutBulkTensorToNVVM : Pass<"layout-bulk-tensor-to-nvvm"> {
  let summary = "Lower layout.bulk_tensor_load and the mbarrier ops to TMA "
                "copies and mbarriers, with tensor-map kernel parameters";
  let description = [{
    Each `layout.bulk_tensor_load` becomes `cp.async.bulk.tensor` (sm_90):
    the TMA swizzle mode is derived from the destination's layout
    descriptor (`matchTmaBox`, WarpgroupMma.h), which proves element by
    element that the unit writes where the descriptor says; the
    destination address is the buffer's plus `layout.offset` of the origin.
    The tensor map it reads is a new parameter of the kernel (one per
    source argument, box, swizzle and element type), passed by value
    (`__grid_constant__`), and the kernel exports what a launcher needs to
    encode it as the global `<kernel>_tensor_maps` (docs/tensor-maps.md).
    The `layout.mbarrier_*` ops become `mbarrier.init`,
    `mbarrier.arrive.expect_tx` and a `mbarrier.try_wait.parity` loop.

    A source that is not a memref argument of the kernel, a descriptor
    that matches no mode, a buffer whose base is not known aligned to the
    mode's pattern, and a kernel launched from the same module (its
    signature changes) get a diagnostic at the op. Runs before the layout
    ops are lowered (it emits `layout.offset`); `-layout-tensor-map-params`
    completes the parameters after the GPU-to-NVVM conversion.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LayoutTensorMapParams : Pass<"layout-tensor-map-params"> {
  let summary = "Pass the tensor-map parameters of TMA kernels by value";
  let description = [{
    After `-convert-gpu-to-nvvm`: the last `layout.tensor_map_params`
    arguments of each kernel (added by `-layout-bulk-tensor-to-nvvm`)
    become 128-byte, 64-byte-aligned by-value grid constants
    (`llvm.byval`, `nvvm.grid_constant`), PTX `.param .align 64 .b8 [128]`,
    whose generic address `cp.async.bulk.tensor` reads. (The GPU-to-NVVM
    conversion drops `llvm.byval` from `gpu.func` arguments, and the NVVM
    dialect accepts `nvvm.grid_constant` only on `llvm.func` kernels.)
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def LayoutExternDynamicSharedMemory
    : Pass<"layout-extern-dynamic-shared-memory"> {
  let summary = "Give the dynamic shared memory global external linkage";
  let description = [{
    A workaround of MLIR 22's `-convert-gpu-to-nvvm`, which declares the
    global behind `gpu.dynamic_shared_memory` (a zero-length array in address
    space 3) with internal linkage; the NVPTX back end demotes such a global
    to a one-byte static `.shared` variable. PTX's dynamic shared memory is
    an `.extern .shared` array of unknown size (PTX ISA, "State Spaces:
    Shared"), as clang emits for `extern __shared__` and flang since
    llvm/llvm-project#161940. This pass makes every zero-length array global
    of address space 3 external. Part of `-layout-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LayoutLowerVectorShapeCasts : Pass<"layout-lower-vector-shape-casts"> {
  let summary = "Lower n-D vector.shape_cast to element moves";
  let description = [{
    The matrix instructions' n-D operands (`nvgpu.mma.sync`'s registers x
    halves, `amdgpu.mfma` fragments) are built from flat fragments, and the
    GPU-to-LLVM conversions only convert 1-D shape casts: this applies
    upstream's shape-cast lowering patterns (and the strided-slice
    transforms they produce) before them. Part of `-layout-to-rocdl` and
    `-layout-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def LayoutBF16MmaSyncToNVVM : Pass<"layout-bf16-mma-sync-to-nvvm"> {
  let summary = "Lower bf16 nvgpu.mma.sync m16n8k16 to nvvm.mma.sync";
  let description = [{
    A workaround of MLIR 22's `-convert-nvgpu-to-nvvm`, which does not lower
    bf16 `nvgpu.mma.sync` ("failed to deduce operand PTX types") although
    PTX has `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`. Register r
    of A (`vector<4x2xbf16>`) and B (`vector<2x2xbf16>`) becomes one 32-bit
    register of two bf16, low half first (PTX ISA, the mma.m16n8k16
    fragments), as nvgpu packs f16; C and D are four f32. Part of
    `-layout-to-nvvm`, before the nvgpu conversion.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def LayoutFloat8TruncToNVVM : Pass<"layout-float8-truncf-to-nvvm"> {
  let summary = "Lower saturating arith.truncf to 8-bit floats to "
                "cvt.rn.satfinite";
  let description = [{
    MLIR 22 lowers no `arith.truncf` to an 8-bit float for NVIDIA chips
    (LLVM IR has no 8-bit float type; ArithToAMDGPU is AMD's). PTX converts
    two f32 at a time with `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (PTX ISA
    7.8, sm_89 and later), which saturates: past the largest finite value
    the result is the largest finite value of the same sign, NaN stays NaN.
    So only the saturating truncation of `layout/Transforms/Float8Truncation.h`
    (the input clamped to +-maxFinite with `arith.maximumf` /
    `arith.minimumf`) lowers: each pair of elements of the clamped value
    becomes one `nvvm.convert.f32x2.to.f8x2` of the unclamped one (the
    clamp is the instruction's own; what is left of it is dead). Any other
    truncation to an 8-bit float gets the diagnostic of
    `checkFloat8Truncation` for the gpu.module's target chip (sm_90 without
    one). Part of `-layout-to-nvvm`, before the GPU-to-NVVM conversion.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def LayoutExp2ToNVVM : Pass<"layout-exp2-to-nvvm",
                             "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower f32 math.exp2 to ex2.approx.ftz.f32 where the target "
                "flushes subnormals";
  let description = [{
    In a gpu.module whose `#nvvm.target` carries the `ftz` flag, every
    `math.exp2` of f32 (scalar or vector, element by element) becomes PTX's
    `ex2.approx.ftz.f32` (PTX ISA 9.7.4.11, "ex2": maximum relative error
    2^-22 in the full range; `.ftz` flushes subnormal inputs and results to
    sign-preserving zero). MLIR 22 keeps the flag on the target but does not
    use it: the GPU-to-NVVM conversion calls libdevice's `__nv_exp2f`,
    whose non-FTZ branch is `ex2.approx.f32` plus the handling of subnormal
    results (ptxas: a compare and two predicated multiplies per element,
    a third of the instructions of an attention kernel's softmax; the FTZ
    branch, which Triton's libdevice linking selects, is the bare
    instruction). Without the flag the pass changes nothing. Part of
    `-layout-to-nvvm` (whose `ftz` option attaches targets with the flag),
    before the GPU-to-NVVM conversion.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def LayoutLdMatrixSteps : Pass<"layout-ldmatrix-steps",
                                "::mlir::gpu::GPUModuleOp"> {
  let summary = "Read a buffer's ldmatrix tiles from a few base registers "
                "and immediates";
  let description = [{
    A fragment reads a swizzled workgroup buffer with one `nvgpu.ldmatrix`
    per instruction tile, each at `layout.offset` of a descriptor whose xor
    hides the constant step between tiles; each address then stays a
    register of its own across the loop (LLVM hoists every sum, and NVPTX
    forms `[reg+imm]` only within a block). This pass evaluates, for every
    thread of a kernel with `known_block_size`, the element offset each
    such ldmatrix of a buffer reads (thread ids, constants, arith and
    `layout.offset` of traced descriptors; an ldmatrix whose offset depends
    on anything else, such as a loop's iteration, is left alone), and where
    another's is, in every thread, the first's with low bits flipped and a
    constant added (`(first ^ flip) + add`: a step of whole swizzle
    periods is a plain add, a step inside one flips the xor's bits), reads
    it as PTX `ldmatrix [base + imm]` (inline PTX, as the NVVM dialect's
    wgmma ops are) from `first ^ flip`: one register per distinct flip,
    the adds as immediates (FlashAttention-2's `LDSM [R+0x...]`). Part of
    `-layout-to-nvvm`, after the swizzle is chosen and before the layout
    lowering.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def LayoutNVVMPtxVersion : Pass<"layout-nvvm-ptx-version",
                                 "::mlir::gpu::GPUModuleOp"> {
  let summary = "Raise a gpu.module's PTX ISA version to what its matrix "
                "instructions need";
  let description = [{
    Matrix instructions that no MLIR 22 op issues are calls of their LLVM
    intrinsic (`llvm.call_intrinsic`, the matrix instruction table's
    `op.llvmIntrinsic`: the FP8 `mma.sync` m16n8k32), and some need a newer
    PTX ISA than the NVPTX back end's default for the chip (the table's
    `minimumPtxVersion`: 8.4 for the FP8 `mma.sync`, PTX ISA, `mma`;
    without it the back end cannot select the intrinsic). This pass raises
    the `+ptxXY` feature of the gpu.module's `#nvvm.target` to the largest
    such version its calls need; a module without them is left as it is.
    Part of `-layout-to-nvvm`, after the target is attached.
  }];
}

def LayoutWarpgroupMmaToNVVM : Pass<"layout-warpgroup-mma-to-nvvm"> {
  let summary = "Lower layout.warpgroup_mma to wgmma.mma_async with matrix "
                "descriptors derived from the operands' layouts";
  let description = [{
    Each `layout.warpgroup_mma` becomes `nvvm.wgmma.mma_async` (sm_90a):
    the swizzle mode, majorness and leading / stride byte offsets of A's
    and B's shared-memory matrix descriptors are read off the operands'
    layout descriptors (`matchWgmmaOperand`, WarpgroupMma.h), which proves
    element by element that the hardware's canonical layout reads what the
    descriptor says; the start address is the buffer's address plus
    `layout.offset` of the origin. A descriptor that matches no swizzle
    mode, a run-time descriptor, or a buffer whose base is not known to be
    aligned to the mode's 256, 512 or 1024 bytes gets a diagnostic at the
    op. The accumulator crosses as the LLVM struct the NVVM op takes. MLIR
    22's `nvgpu.warpgroup.mma` is not used: it takes only the 128-byte
    swizzle, K-major A with K-major B, and descriptors built from a TMA
    tensor map (docs/hopper.md).

    Runs before the layout ops are lowered (it emits `layout.offset`).
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // LAYOUT_CONVERSION_PASSES_TD
