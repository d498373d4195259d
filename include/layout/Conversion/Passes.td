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

#endif // LAYOUT_CONVERSION_PASSES_TD
