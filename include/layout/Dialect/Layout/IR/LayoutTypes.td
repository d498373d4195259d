//===- LayoutTypes.td - Types of the layout dialect -------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TYPES_TD
#define LAYOUT_TYPES_TD

include "layout/Dialect/Layout/IR/LayoutBase.td"

class Layout_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Layout_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Layout_DescType : Layout_Type<"Desc", "desc"> {
  let summary = "A tensor descriptor: top lengths mapped to element offsets";
  let description = [{
    A descriptor of rank `n >= 1` whose top (logical) index space is
    `[0, L0) x ... x [0, Ln-1)`. It maps each top coordinate to an element
    offset in a linear buffer (and a validity bit) through a chain of
    transform stages that starts at `layout.naive`, `layout.packed` or
    `layout.aligned`. Only the top lengths are part of the type; the chain is
    the SSA value's producer.

    The number of top coordinates, `prod L_i`, must fit in int64.

    ```mlir
    %p = layout.packed [2, 6] : !layout.desc<2x6>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "top lengths">:$lengths);
  let assemblyFormat = "`<` custom<DimList>($lengths) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The rank (number of top dimensions).
    unsigned getRank() const { return getLengths().size(); }
  }];
}

#endif // LAYOUT_TYPES_TD
