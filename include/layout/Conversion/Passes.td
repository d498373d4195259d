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
    maps; `layout.element_space_size` by its constant. A descriptor whose
    origin cannot be traced gets a diagnostic at the op.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // LAYOUT_CONVERSION_PASSES_TD
