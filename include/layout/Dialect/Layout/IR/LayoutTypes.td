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

def Layout_TensorViewType : Layout_Type<"TensorView", "tensor_view"> {
  let summary = "A tensor of elements in memory, seen through a layout";
  let description = [{
    A view of `n >= 1` dimensions with static or dynamic (`?`) extents and
    an element type. The view maps each in-bounds coordinate to an element
    of memory: through a memref's own strides, or through a descriptor over
    a 1-D buffer (`layout.view`). Only the shape and the element type are
    part of the type; where the elements live is the SSA value's producer,
    which analyses trace as they trace descriptors.

    ```mlir
    %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "extents">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<ShapeAndType>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
  }];
}

def Layout_PartitionViewType : Layout_Type<"PartitionView", "partition_view"> {
  let summary = "A tensor view cut into tiles of a static shape";
  let description = [{
    `cuda::tiles::partition_view`: the view's index space cut into tiles of
    `tile` elements (any positive lengths, one per dimension). Tile `I`
    holds the view's elements `I * tile + J` for `J` in `[0, tile)`; the
    tiles that overlap the view, `ceil(extent_k / tile_k)` per dimension,
    form the partition's index space (`layout.index_space`).

    ```mlir
    !layout.partition_view<4x8xi32, tile = [2, 2]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "extents">:$shape,
                        "::mlir::Type":$elementType,
                        ArrayRefParameter<"int64_t", "tile lengths">:$tile);
  let assemblyFormat = [{
    `<` custom<ShapeAndType>($shape, $elementType) `,` `tile` `=`
    custom<IntList>($tile) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    /// The vector type of one tile.
    ::mlir::VectorType getTileType() const {
      return ::mlir::VectorType::get(getTile(), getElementType());
    }
    /// The view this partition cuts.
    TensorViewType getViewType() const {
      return TensorViewType::get(getContext(), getShape(), getElementType());
    }
  }];
}

def Layout_CoordType : Layout_Type<"Coord", "coord"> {
  let summary = "A coordinate of a descriptor with all its hidden indices";
  let description = [{
    CK Tile's tensor_coordinate: a top coordinate of a descriptor of top
    lengths `L0x...` together with every hidden index of the descriptor's
    chain (each stage's lower index, down to the base coordinate), so that
    `layout.move_coord` can update it without recomputing merges. The
    second parameter is the number of hidden indices it carries (the sum
    of the ranks of every level, top and base included);
    `layout.make_coord` infers it from the descriptor. Lowered, a
    coordinate is that many `index` values (also through `scf.for`
    iter_args).

    ```mlir
    %c = layout.make_coord %d[%i] : !layout.desc<24>   // !layout.coord<24, 4>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "top lengths">:$lengths,
                        "int64_t":$hidden);
  let assemblyFormat = "`<` custom<DimList>($lengths) `,` $hidden `>`";
  let extraClassDeclaration = [{
    unsigned getRank() const { return getLengths().size(); }
  }];
}

#endif // LAYOUT_TYPES_TD
