//===- LayoutOps.td - Ops of the layout dialect -----------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_OPS_TD
#define LAYOUT_OPS_TD

include "layout/Dialect/Layout/IR/LayoutBase.td"
include "layout/Dialect/Layout/IR/LayoutAttrs.td"
include "layout/Dialect/Layout/IR/LayoutTypes.td"
include "layout/Dialect/Layout/IR/LayoutEnums.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Ops whose result type their operands and attributes determine: builders
// (C++ without a result type, Python's layout_opt.ir without `result=`)
// get it from `inferReturnTypes(context, location, adaptor, types)`, which
// each op defines (upstream's InferTypeOpAdaptor form). An op that has its
// types already is checked by its verifier, whose messages name the
// parameter: refineReturnTypes accepts the types it is given, so the
// interface adds no second, generic message.
def Layout_InfersResultType : TraitList<[
  DeclareOpInterfaceMethods<InferTypeOpInterface, ["refineReturnTypes"]>,
  NativeOpTrait<"InferTypeOpAdaptor", [], [{
    static ::llvm::LogicalResult
    inferReturnTypes(::mlir::MLIRContext *context,
                     std::optional<::mlir::Location> location, Adaptor adaptor,
                     ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes);
  }], [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      return $cppClass::inferReturnTypes(context, location, adaptor,
                                         inferredReturnTypes);
    }
    ::llvm::LogicalResult $cppClass::refineReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &returnTypes) {
      if (!returnTypes.empty())
        return ::mlir::success();
      return inferReturnTypes(context, location, operands, attributes,
                              properties, regions, returnTypes);
    }
  }]>
]>;

//===----------------------------------------------------------------------===//
// Descriptor constructors
//===----------------------------------------------------------------------===//

def Layout_NaiveOp : Layout_Op<"naive", [Pure, AttrSizedOperandSegments,
    Layout_InfersResultType]> {
  let summary = "A strided descriptor from lengths and strides";
  let description = [{
    The base of a descriptor: `offset = off + sum idx_i * stride_i`, element
    space `= off + 1 + sum (len_i - 1) * stride_i` unless `space` gives a
    larger one (the buffer the view lives in). Lengths are positive, strides
    and the offset non-negative; the lengths must match the result type.
    CK Tile's `make_naive_tensor_descriptor`; the `offset` and `space`
    clauses (both optional, default `0` and the least space) are what
    canonicalization needs to normalize a slice or an aligned base back to
    strides without changing `layout.element_space_size`.

    ```mlir
    // offset of (1, 2) is 10; element space 21.
    %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
    // Columns 2..4 of a 3x8 row-major buffer: offset of (1, 2) is 12.
    %s = layout.naive [3, 3] strides [8, 1] offset 2 space 24
         : !layout.desc<3x3>
    ```

    A length or a stride may be a run-time `index` value (its type's length
    is then `?`); the offset and the space are static. Constant operands
    fold into the static lists.

    ```mlir
    // An M x K row-major matrix with a run-time leading dimension.
    %a = layout.naive [%m, %k] strides [%lda, 1] : !layout.desc<?x?>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamic_lengths,
                       DenseI64ArrayAttr:$lengths,
                       Variadic<Index>:$dynamic_strides,
                       DenseI64ArrayAttr:$strides,
                       OptionalAttr<I64Attr>:$offset,
                       OptionalAttr<I64Attr>:$space);
  let results = (outs Layout_DescType:$result);
  let assemblyFormat = [{
    custom<DynamicIndexList>($dynamic_lengths, $lengths)
    `strides` custom<DynamicIndexList>($dynamic_strides, $strides)
    (`offset` $offset^)? (`space` $space^)?
    attr-dict `:` qualified(type($result))
  }];
  let builders = [
    // A static base.
    OpBuilder<(ins "::mlir::Type":$result,
                   "::mlir::DenseI64ArrayAttr":$lengths,
                   "::mlir::DenseI64ArrayAttr":$strides,
                   "::mlir::IntegerAttr":$offset, "::mlir::IntegerAttr":$space),
    [{
      build($_builder, $_state, result, ::mlir::ValueRange(), lengths,
            ::mlir::ValueRange(), strides, offset, space);
    }]>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The descriptor this op builds (verified ops only).
    ::llvm::Expected<::mlir::layout::Descriptor> getDescriptor();
  }];
}

def Layout_PackedOp : Layout_Op<"packed", [Pure,
    Layout_InfersResultType]> {
  let summary = "A packed row-major descriptor";
  let description = [{
    Row-major with no gaps: `stride_i = prod_{j>i} len_j`, element space
    `= prod len_i`. CK Tile's `make_naive_tensor_descriptor_packed`.

    ```mlir
    // offset of (1, 2) is 6; element space 12.
    %p = layout.packed [3, 4] : !layout.desc<3x4>
    ```

    A length may be a run-time `index` value (`?` in the type); the strides
    are then the products of the lengths at run time.

    ```mlir
    %b = layout.packed [%k, %n] : !layout.desc<?x?>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamic_lengths,
                       DenseI64ArrayAttr:$lengths);
  let results = (outs Layout_DescType:$result);
  let assemblyFormat = [{
    custom<DynamicIndexList>($dynamic_lengths, $lengths)
    attr-dict `:` qualified(type($result))
  }];
  let builders = [
    // A static base.
    OpBuilder<(ins "::mlir::Type":$result,
                   "::mlir::DenseI64ArrayAttr":$lengths),
    [{ build($_builder, $_state, result, ::mlir::ValueRange(), lengths); }]>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Layout_AlignedOp : Layout_Op<"aligned", [Pure,
    Layout_InfersResultType]> {
  let summary = "A row-major descriptor with rows aligned to `align` elements";
  let description = [{
    Row-major, with the row stride of the last dimension rounded up to a
    multiple of `align`: `stride_{n-1} = 1`,
    `stride_{n-2} = roundup(len_{n-1}, align)`,
    `stride_i = stride_{i+1} * len_{i+1}` below; element space
    `= prod_{i<n-1} len_i * roundup(len_{n-1}, align)`. CK Tile's
    `make_naive_tensor_descriptor_aligned`.

    ```mlir
    // strides [8, 1]; element space 32.
    %a = layout.aligned [4, 5] align 8 : !layout.desc<4x5>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$lengths, I64Attr:$align);
  let results = (outs Layout_DescType:$result);
  let assemblyFormat =
      "$lengths `align` $align attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Layout_TransformOp : Layout_Op<"transform", [Pure,
    Layout_InfersResultType]> {
  let summary = "Adds one stage of transforms to a descriptor";
  let description = [{
    CK Tile's `transform_tensor_descriptor`. Each entry is
    `transform : [old top dims] -> [new top dims]`; the transforms run side
    by side. Every old top dim is consumed exactly once (a kept dim needs a
    `#layout.pass_through`), the new top dims are exactly `0..n-1`, each
    transform's lower lengths fit the old dims it consumes, and the result
    type's lengths are the transforms' upper lengths. A transform with no
    lower dims (replicate) or no upper dims (freeze) writes `[]` on that side.

    The offset of a new top coordinate is the source's offset of the old top
    coordinate that the transforms compute from it (their
    `calculate_lower_index`); it is valid when the old coordinate is valid and
    every transform reports it valid.

    ```mlir
    // A [2, 6] tensor seen as [2, 2, 3]: offset of (1, 1, 2) is 11.
    %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                              #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
         : !layout.desc<2x6> -> !layout.desc<2x2x3>
    ```
 
    An argument of a transform whose kind takes sizes (pass_through, the
    pads, embed, merge, unmerge, replicate, freeze, offset, slice, modulo)
    may be `?`: its value is the next operand of `args(...)`, in the order
    the `?`s appear. Checks that need the value wait for run time; the
    lowering computes with it (affine maps with symbols).

    ```mlir
    // A run-time K cut into K / 32 tiles of 32.
    %t = layout.transform %a [#layout.pass_through<?> : [0] -> [0],
                              #layout.unmerge<[?, 32]> : [1] -> [1, 2]]
         args(%m, %kt) : !layout.desc<?x?> -> !layout.desc<?x?x32>
    ```
  }];
  let arguments = (ins Layout_DescType:$source, ArrayAttr:$transforms,
                       ArrayAttr:$lower_dims, ArrayAttr:$upper_dims,
                       Variadic<Index>:$args);
  let results = (outs Layout_DescType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    // One stage over `source`; the result type comes from the stage (which
    // must pass Descriptor::checkStage).
    OpBuilder<(ins "::mlir::Value":$source,
                   "::llvm::ArrayRef<::mlir::layout::StageEntry>":$stage)>
  ];
  let extraClassDeclaration = [{
    /// The stage's entries in the evaluator's form (verified ops only).
    ::mlir::layout::Stage getStageEntries();
  }];
}

//===----------------------------------------------------------------------===//
// Layout algebra (CuTe's), on strided descriptors
//===----------------------------------------------------------------------===//

class Layout_AlgebraOp<string mnemonic, string summaryText, string doc>
    : Layout_Op<mnemonic, [Pure]> {
  let summary = summaryText;
  let description = doc # [{

    The operands are descriptors whose chains are strided (a naive, packed
    or aligned base without offset, then pass_through, merge, unmerge,
    embed, replicate, and offset / slice / freeze at 0): CuTe layouts whose
    top-level modes are the descriptor's dims. The algebra follows CuTe's
    definitions and its colexicographic order (docs/algebra.md says where
    the dialect differs); the result is the descriptor of CuTe's result with
    each mode coalesced: a naive base over the leaves and a stage of merges
    (canonicalization rewrites the op to it). The verifier checks the result
    type and CuTe's conditions when the operands can be traced.
  }];
  let results = (outs Layout_DescType:$result);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

class Layout_AlgebraBinaryOp<string mnemonic, string summaryText, string doc>
    : Layout_AlgebraOp<mnemonic, summaryText, doc> {
  let arguments = (ins Layout_DescType:$layout,
                       Variadic<Layout_DescType>:$tiler);
  let assemblyFormat =
      "$layout `,` $tiler attr-dict `:` functional-type(operands, results)";
}

class Layout_AlgebraUnaryOp<string mnemonic, string summaryText, string doc>
    : Layout_AlgebraOp<mnemonic, summaryText, doc> {
  let arguments = (ins Layout_DescType:$layout);
  let assemblyFormat = [{
    $layout attr-dict `:` qualified(type($layout)) `->` qualified(type($result))
  }];
}

def Layout_ComposeOp : Layout_AlgebraBinaryOp<"compose",
    "CuTe's composition A o B", [{
    `layout.compose %a, %b` is the layout with B's shape whose offset at c is
    A's offset at the 1-D index B(c) (function composition where B is
    injective or has one mode; CuTe distributes over B's modes). With two or
    more tiler operands it composes mode by mode: mode i of A with the i-th.

    ```mlir
    // (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
    %c = layout.compose %a, %b
         : (!layout.desc<6x2>, !layout.desc<4x3>) -> !layout.desc<4x3>
    ```
  }]>;

def Layout_LogicalDivideOp : Layout_AlgebraBinaryOp<"logical_divide",
    "CuTe's logical divide A / B = A o (B, complement(B, size(A)))", [{
    With one tiler operand, a rank-2 result: the tile B's elements of A, then
    the tiles. With two or more, mode i of A is divided by the i-th.
  }]>;

def Layout_ZippedDivideOp : Layout_AlgebraBinaryOp<"zipped_divide",
    "CuTe's zipped divide: ((tiles), (rests, other modes))", [{
    With two or more tiler operands (one per leading mode of A), the by-mode
    logical divide regrouped as two modes: every tile mode, then every rest
    mode and A's modes beyond the tiler. With one, the logical divide.
  }]>;

def Layout_TiledDivideOp : Layout_AlgebraBinaryOp<"tiled_divide",
    "CuTe's tiled divide: ((tiles), rest_0, rest_1, ...)", [{
    With two or more tiler operands, the by-mode logical divide regrouped
    as the tile modes in one mode, then each rest mode and A's modes beyond
    the tiler. With one, the tile A o B, then each mode of A o B*.
  }]>;

def Layout_LogicalProductOp : Layout_AlgebraBinaryOp<"logical_product",
    "CuTe's logical product (A, complement(A, size(A) cosize(B)) o B)", [{
    With one tiler operand, a rank-2 result: A, then A repeated as B lays
    out its copies. With two or more, mode i of A times the i-th.
  }]>;

def Layout_BlockedProductOp : Layout_AlgebraBinaryOp<"blocked_product",
    "CuTe's blocked product", [{
    The logical product of A and B padded to the same rank, zipped mode by
    mode as (A_i, B*_i) and each mode coalesced: A's tile is the block. One
    tiler operand.
  }]>;

def Layout_RakedProductOp : Layout_AlgebraBinaryOp<"raked_product",
    "CuTe's raked product", [{
    As the blocked product, zipped as (B*_i, A_i): A's elements are raked
    across the copies. One tiler operand.
  }]>;

def Layout_ComplementOp : Layout_AlgebraOp<"complement",
    "CuTe's complement of a layout within [0, size)", [{
    The ordered layout whose image, with A's, fills [0, size) (rounded up to
    a multiple of A's extent); its rank is the number of its coalesced
    modes.

    ```mlir
    // complement(4:2, 24) = (2,3):(1,8)
    %c = layout.complement %a, 24 : !layout.desc<4> -> !layout.desc<2x3>
    ```
  }]> {
  let arguments = (ins Layout_DescType:$layout, I64Attr:$size);
  let assemblyFormat = [{
    $layout `,` $size attr-dict `:` qualified(type($layout)) `->` qualified(type($result))
  }];
}

def Layout_CoalesceOp : Layout_AlgebraUnaryOp<"coalesce",
    "CuTe's coalesce: the flat layout of the same 1-D function", [{
    Merges consecutive modes that continue each other and drops modes of
    size 1; the result's rank is the number of modes left.
  }]>;

def Layout_RightInverseOp : Layout_AlgebraUnaryOp<"right_inverse",
    "CuTe's right inverse: R with A(R(i)) = i, as large as can be", [{
    A rank-1 descriptor of the offsets 0, 1, ... that A reaches in a row.
  }]>;

def Layout_LeftInverseOp : Layout_AlgebraUnaryOp<"left_inverse",
    "CuTe's left inverse: L with L(A(i)) = i", [{
    A rank-1 descriptor over A's offsets giving back A's 1-D index (the
    offsets A does not reach map anywhere). A must be injective but for
    modes of stride 0, and each of its sorted strides must divide the next.
  }]>;

//===----------------------------------------------------------------------===//
// Index ops
//===----------------------------------------------------------------------===//

class Layout_IndexOp<string mnemonic, list<Trait> traits = []>
    : Layout_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins Layout_DescType:$desc, Variadic<Index>:$indices);
  let assemblyFormat =
      "$desc `[` $indices `]` attr-dict `:` qualified(type($desc))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Layout_OffsetOp : Layout_IndexOp<"offset"> {
  let summary = "The element offset of a top coordinate";
  let description = [{
    Evaluates the descriptor at a top coordinate (one index per top dim):
    runs its stages from the top down to the base and returns the element
    offset. The offset of an invalid coordinate (see `layout.valid`) is
    unspecified but never traps. Folds to a constant when the indices are
    constants and the descriptor's chain is known.

    ```mlir
    %off = layout.offset %t[%i, %j, %k] : !layout.desc<2x2x3>
    ```
  }];
  let results = (outs Index:$result);
}

def Layout_ValidOp : Layout_IndexOp<"valid"> {
  let summary = "Whether a top coordinate is valid (not padding)";
  let description = [{
    True when every transform on the coordinate's path reports it valid
    (only the pads and sunder can be invalid), e.g. for `#layout.pad<3, 1, 1>`
    valid exactly for upper coordinates 1..3. Folds like `layout.offset`.

    ```mlir
    %ok = layout.valid %t[%i, %j, %k] : !layout.desc<2x2x3>
    ```
  }];
  let results = (outs I1:$result);
}

def Layout_ElementSpaceSizeOp : Layout_Op<"element_space_size", [Pure]> {
  let summary = "The number of elements the descriptor's buffer must hold";
  let description = [{
    The element space size of the descriptor's base (transforms do not change
    the buffer): `1 + sum (len_i - 1) * stride_i` for `layout.naive`,
    `prod len_i` for `layout.packed`, `len_0 * stride_0` for
    `layout.aligned`. Folds to a constant whenever the chain is known and
    static; with run-time lengths or strides, `-convert-layout-to-affine`
    computes it from them (`layout.packed [%n, 4]` holds `%n * 4`).

    ```mlir
    %n = layout.element_space_size %t : !layout.desc<2x2x3>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc);
  let results = (outs Index:$result);
  let assemblyFormat = "$desc attr-dict `:` qualified(type($desc))";
  let hasFolder = 1;
}

def Layout_UpperOp : Layout_Op<"upper",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "The inverse: the top coordinate that lands on an offset";
  let description = [{
    Returns the valid, in-bounds top coordinate whose offset is `offset`
    (rocRoller's Split, the inverse of Join). Only for descriptors that are
    injective on their valid domain: a base with nested strides and no
    replicate, no modulo by less than its upper length, no overlapping embed
    (the verifier names the transform otherwise). For sunder, the coordinates
    of the pieces that are not selected are 0. The result for an offset that
    no valid coordinate reaches is unspecified. Folds for a constant offset.

    ```mlir
    %u:3 = layout.upper %t[%off] : !layout.desc<2x2x3>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc, Index:$offset);
  let results = (outs Variadic<Index>:$indices);
  let assemblyFormat =
      "$desc `[` $offset `]` attr-dict `:` qualified(type($desc))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Incremental coordinates
//===----------------------------------------------------------------------===//

def Layout_MakeCoordOp : Layout_Op<"make_coord", [Pure]> {
  let summary = "A coordinate with every hidden index of a descriptor";
  let description = [{
    The coordinate at top index `indices` of `desc`: every level of the
    chain computed once (CK Tile's make_tensor_coordinate). The result type
    carries the number of hidden indices, inferred from the descriptor.

    ```mlir
    %c = layout.make_coord %d[%i, %j] : !layout.desc<4x6> -> !layout.coord<4x6, 5>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc, Variadic<Index>:$indices);
  let results = (outs Layout_CoordType:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Layout_MoveCoordOp : Layout_Op<"move_coord", [Pure,
    AllTypesMatch<["coord", "result"]>]> {
  let summary = "Moves a coordinate by a step, updating its hidden indices";
  let description = [{
    CK Tile's move_tensor_coordinate: the top index moves by the step (one
    entry per top dim) and every stage updates its lower index
    (update_lower_index; docs/coordinates.md): affine transforms add the
    step's linear part, merges add the step's digits with one carry each,
    and modulo, xor, rotate, swizzle and sunder are recomputed. A static
    step (`by [...]`) lowers to adds, compares and selects, with no division;
    a dynamic one (`[%s...]`) recomputes the coordinate.

    ```mlir
    %c1 = layout.move_coord %d, %c by [0, 1] : !layout.desc<4x6>, !layout.coord<4x6, 5>
    %c2 = layout.move_coord %d, %c[%s, %t] : !layout.desc<4x6>, !layout.coord<4x6, 5>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc, Layout_CoordType:$coord,
                       Variadic<Index>:$steps,
                       OptionalAttr<DenseI64ArrayAttr>:$static_steps);
  let results = (outs Layout_CoordType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Layout_CoordOffsetOp : Layout_Op<"coord_offset", [Pure]> {
  let summary = "The element offset of a coordinate";
  let description = [{
    The offset of the coordinate's top index: its base index times the
    base strides (no stage is evaluated again).

    ```mlir
    %o = layout.coord_offset %d, %c : !layout.desc<4x6>, !layout.coord<4x6, 5>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc, Layout_CoordType:$coord);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $desc `,` $coord attr-dict `:` qualified(type($desc)) `,`
    qualified(type($coord))
  }];
  let hasVerifier = 1;
}

def Layout_CoordValidOp : Layout_Op<"coord_valid", [Pure]> {
  let summary = "Whether a coordinate is valid";
  let description = [{
    `layout.valid` of the coordinate's top index, from its hidden indices.

    ```mlir
    %v = layout.coord_valid %d, %c : !layout.desc<4x6>, !layout.coord<4x6, 5>
    ```
  }];
  let arguments = (ins Layout_DescType:$desc, Layout_CoordType:$coord);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $desc `,` $coord attr-dict `:` qualified(type($desc)) `,`
    qualified(type($coord))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Views and partitions
//===----------------------------------------------------------------------===//

def Layout_ViewOp : Layout_Op<"view", [Pure,
    Layout_InfersResultType]> {
  let summary = "A tensor view of a memref, or of a 1-D buffer through a descriptor";
  let description = [{
    Without `by`, the view of a memref through its own strides: the view's
    shape and element type are the memref's (dynamic extents stay dynamic,
    and come from the memref at run time).

    With `by %desc`, the view of a 1-D buffer through any descriptor: the
    element at coordinate `c` is `buffer[offset(c)]`, and coordinates where
    the descriptor is invalid (a pad) are masked by masked accesses, which
    makes a padded descriptor plus a masked load an implicit zero padding.
    The view's shape is the descriptor's top lengths. The buffer must hold
    at least `element_space_size` elements; the verifier checks it when the
    buffer's length is static and the descriptor can be traced.

    ```mlir
    %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
    %w = layout.view %buf by %t : memref<12xf32>, !layout.desc<2x2x3>
         -> !layout.tensor_view<2x2x3xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Optional<Layout_DescType>:$desc);
  let results = (outs Layout_TensorViewType:$result);
  let assemblyFormat = [{
    $source (`by` $desc^)? attr-dict `:` type($source)
    (`,` qualified(type($desc))^)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Layout_PartitionOp : Layout_Op<"partition", [Pure,
    Layout_InfersResultType]> {
  let summary = "Cuts a tensor view into tiles";
  let description = [{
    `cuda::tiles::partition_view`: tile `I` of the result holds the view's
    elements `I * tile + J`, `J` in `[0, tile)`. The tile has one positive
    length per dimension of the view; it need not divide the extents (the
    edge tiles are then partly out of bounds, and need masked accesses).

    ```mlir
    %pv = layout.partition %v tile [2, 2]
          : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
    ```
  }];
  let arguments = (ins Layout_TensorViewType:$view, DenseI64ArrayAttr:$tile);
  let results = (outs Layout_PartitionViewType:$result);
  let assemblyFormat = [{
    $view `tile` $tile attr-dict `:` qualified(type($view)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Layout_IndexSpaceOp : Layout_Op<"index_space",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "The number of tiles per dimension of a partition";
  let description = [{
    `ceil(extent_k / tile_k)` for each dimension `k`: the tile indices `I`
    with `I_k * tile_k < extent_k`, i.e. the tiles that are in bounds or
    partly out of bounds. Folds to constants for static extents.

    ```mlir
    %nt:2 = layout.index_space %pv : !layout.partition_view<4x8xi32, tile = [2, 2]>
    ```
  }];
  let arguments = (ins Layout_PartitionViewType:$partition);
  let results = (outs Variadic<Index>:$counts);
  let assemblyFormat = "$partition attr-dict `:` qualified(type($partition))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Layout_LoadOp : Layout_Op<"load", [MemoryEffects<[MemRead]>,
    Layout_InfersResultType]> {
  let summary = "Loads one tile of a partition";
  let description = [{
    Element `J` of the result is element `I * tile + J` of the view, for the
    tile index `I` given by the indices. The result is a vector of the tile's
    shape and the view's element type.

    * Unmasked, every element of the tile must be in bounds and valid
      (otherwise the behaviour is undefined, as in the seed). Where a static
      extent is not a multiple of the tile, the last tile reaches past the
      view's end: an unmasked access is an error unless its index there is
      a constant naming a tile inside the view. Run-time extents are the
      user's promise.
    * `masked`: elements outside the view's extents, and elements at
      invalid descriptor coordinates (a pad), are not read and take the
      padding value: `padding(zero)` (the default), `neg_zero`, `nan`,
      `pos_inf` or `neg_inf`; only `zero` for integer elements. `padding`
      needs `masked`.
    * `atomic(order, scope)`: every element is read by one atomic load of
      that memory order (`relaxed`, `acquire` or `seq_cst`) and scope
      (`thread`, `block`, `device`, `system`).

    ```mlir
    %r = layout.load %pv[%c1, %c2] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
    %q = layout.load %pf[%c0, %c2] masked padding(nan)
         : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
    %s = layout.load %pv[%c0, %c0] atomic(acquire, device)
         : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
    ```
  }];
  let arguments = (ins Layout_PartitionViewType:$partition,
                       Variadic<Index>:$indices,
                       UnitAttr:$masked,
                       OptionalAttr<Layout_Padding>:$padding,
                       OptionalAttr<Layout_MemoryOrder>:$order,
                       OptionalAttr<Layout_Scope>:$scope);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $partition `[` $indices `]` (`masked` $masked^)?
    (`padding` `(` $padding^ `)`)? (`atomic` `(` $order^ `,` $scope `)`)?
    attr-dict `:` qualified(type($partition)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Layout_StoreOp : Layout_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stores one tile of a partition";
  let description = [{
    Element `J` of the value is stored to element `I * tile + J` of the
    view. The value must be a vector of the tile's shape and the view's
    element type.

    * Unmasked, every element of the tile must be in bounds and valid; as
      for `layout.load`, an unmasked store of a tile that may reach past a
      static extent is an error.
    * `masked`: nothing is written outside the view's extents or at invalid
      descriptor coordinates.
    * `atomic(order, scope)`: one atomic store per element, of memory order
      `relaxed`, `release` or `seq_cst`.

    ```mlir
    layout.store %r, %pv[%c1, %c3] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
    layout.store %q, %pf[%c0, %c2] masked : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$value,
                       Layout_PartitionViewType:$partition,
                       Variadic<Index>:$indices,
                       UnitAttr:$masked,
                       OptionalAttr<Layout_MemoryOrder>:$order,
                       OptionalAttr<Layout_Scope>:$scope);
  let assemblyFormat = [{
    $value `,` $partition `[` $indices `]` (`masked` $masked^)?
    (`atomic` `(` $order^ `,` $scope `)`)?
    attr-dict `:` type($value) `,` qualified(type($partition))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Divisibility facts
//===----------------------------------------------------------------------===//

def Layout_AssumeMultipleOp : Layout_Op<"assume_multiple",
    [Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "States that a run-time index is a multiple of a constant";
  let description = [{
    The result is `value`, which the program promises is a multiple of
    `multiple` (> 0), as Triton's `tt.divisibility` and CuTe's static
    strides state. Nothing checks it at run time (as with
    `memref.assume_alignment`); the lowering drops the op.

    The facts feed the passes that would otherwise test at run time
    (layout/Dialect/Layout/Utils/Divisibility.h): a memref made by
    `memref.reinterpret_cast` or `memref.subview` from such values, or a
    function argument with `layout.stride_multiples` /
    `layout.offset_multiple` (memrefs) or `layout.multiple_of` (indices),
    gets the tile pass's 16-byte vectors without its run-time alignment
    test. Canonicalization folds `x mod N` of a known multiple of N to 0.

    ```mlir
    %ld4 = layout.assume_multiple %ld, 4 : index
    ```
  }];
  let arguments = (ins Index:$value, I64Attr:$multiple);
  let results = (outs Index:$result);
  let assemblyFormat = "$value `,` $multiple attr-dict `:` type($value)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Matrix instructions on workgroup-memory operands
//===----------------------------------------------------------------------===//

def Layout_WarpgroupMmaOp : Layout_Op<"warpgroup_mma",
    [MemoryEffects<[MemRead]>, AttrSizedOperandSegments,
     AllTypesMatch<["acc", "result"]>]> {
  let summary = "One warpgroup's matrix multiply-accumulate whose A and B "
                "are tiles of workgroup buffers laid out by descriptors";
  let description = [{
    Hopper's warpgroup MMA (`wgmma.mma_async` m64nNk16 for f16 / bf16,
    m64nNk32 for the 8-bit floats e4m3 / e5m2; sm_90a) as a layout op: the
    128 threads of a warpgroup (4 consecutive warps starting at a multiple
    of 4) compute `D = A * B + C` with f32 accumulation, where A is the 64
    x K (M x K) tile of workgroup buffer `a` whose element (m, k)
    is at `layout.offset %a_desc[origin + m e_M + k e_K]` (the descriptor's
    top coordinate `a_origin` moved by m along top dimension `a_dims[0]`
    and k along `a_dims[1]`), and B the K x N tile of `b` likewise
    (`b_dims` = [K dimension, N dimension]). C and D are the lanes'
    fragments in the register layout of the table of matrix instructions
    (`vector<N/2 x f32>`, MatrixInstructions.h, family Wgmma). `shape` is
    [64, N, K] with K 32 bytes of elements (16 or 32). 8-bit A and B must be
    K-major (PTX ISA 9.7.15.5.1: the transposed forms are for 16-bit types
    only); the lowering refuses other layouts.

    The buffers' layouts stay descriptors: the lowering to NVVM
    (`-layout-warpgroup-mma-to-nvvm`) derives the hardware's swizzle mode,
    majorness and the leading / stride byte offsets of wgmma's matrix
    descriptors from them and proves, element by element for every origin a
    multiple of (64 or N, 16) in every leading coordinate, that the
    hardware's canonical layout reads what the descriptor says; a layout
    that matches no hardware mode is refused there. The origins the program
    passes must be such multiples (the op's promise, as an unmasked
    access's bounds are). Each thread passes the same origins.

    ```mlir
    %d = layout.warpgroup_mma %c, %a[%da : %s, %m0, %k0], %b[%db : %s, %k0, %n0]
         {shape = array<i64: 64, 128, 16>, a_dims = array<i64: 1, 2>,
          b_dims = array<i64: 1, 2>}
         : memref<24576xf16, #gpu.address_space<workgroup>>, !layout.desc<3x128x64>,
           memref<24576xf16, #gpu.address_space<workgroup>>, !layout.desc<3x64x128>,
           vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       MemRefRankOf<[F16, BF16, F8E4M3FN, F8E5M2], [1]>:$a,
                       Layout_DescType:$a_desc, Variadic<Index>:$a_origin,
                       MemRefRankOf<[F16, BF16, F8E4M3FN, F8E5M2], [1]>:$b,
                       Layout_DescType:$b_desc, Variadic<Index>:$b_origin,
                       DenseI64ArrayAttr:$shape,
                       DenseI64ArrayAttr:$a_dims,
                       DenseI64ArrayAttr:$b_dims);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `[` $a_desc `:` $a_origin `]` `,`
    $b `[` $b_desc `:` $b_origin `]` attr-dict `:` type($a) `,`
    qualified(type($a_desc)) `,` type($b) `,` qualified(type($b_desc)) `,`
    type($acc)
  }];
  let hasVerifier = 1;
}

def Layout_WarpgroupMmaRegAOp : Layout_Op<"warpgroup_mma_reg_a",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "One warpgroup's matrix multiply-accumulate with A in the "
                "lanes' registers and B a tile of a workgroup buffer";
  let description = [{
    The register-A form of Hopper's warpgroup MMA (`wgmma.mma_async
    .m64nNk16` with A as four `.f16x2` / `.bf16x2` registers, PTX ISA
    9.7.15.5.1.1.1; sm_90a): as `layout.warpgroup_mma`, but each lane
    passes its 8 elements of the 64 x 16 A tile in `a`, in the register
    layout of the table of matrix instructions (`wgmmaRegisterAForm`,
    MatrixInstructions.h: warp w of the warpgroup holds rows 16 w .. 16 w +
    15 as mma.sync m16n8k16's A does). This is how a tile computed in
    registers (attention's P, from the accumulator of S = Q K^T) becomes
    the A of the next product without a round trip through workgroup
    memory (FlashAttention-3). B and its descriptor are as in
    `layout.warpgroup_mma` (`b_dims` = [K dimension, N dimension]); C and
    D are `vector<N/2 x f32>`. `shape` is [64, N, 16]; f16 and bf16 only.

    MLIR 22's `nvvm.wgmma.mma_async` has no register-A form, so
    `-layout-warpgroup-mma-to-nvvm` emits the PTX instruction as inline
    assembly.

    ```mlir
    %d = layout.warpgroup_mma_reg_a %c, %a, %b[%db : %k0, %n0]
         {shape = array<i64: 64, 64, 16>, b_dims = array<i64: 0, 1>}
         : vector<8xf16>, memref<8192xf16, #gpu.address_space<workgroup>>,
           !layout.desc<128x64>, vector<32xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       VectorOfLengthAndType<[8], [F16, BF16]>:$a,
                       MemRefRankOf<[F16, BF16], [1]>:$b,
                       Layout_DescType:$b_desc, Variadic<Index>:$b_origin,
                       DenseI64ArrayAttr:$shape,
                       DenseI64ArrayAttr:$b_dims);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `,` $b `[` $b_desc `:` $b_origin `]` attr-dict `:`
    type($a) `,` type($b) `,` qualified(type($b_desc)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Layout_BulkTensorLoadOp : Layout_Op<"bulk_tensor_load",
    [AttrSizedOperandSegments]> {
  let summary = "A box of a global memref copied by the tensor memory "
                "accelerator into a workgroup buffer laid out by a descriptor";
  let description = [{
    Hopper's TMA tile copy (`cp.async.bulk.tensor`, sm_90) as a layout op,
    issued by one thread: the box of `box` elements of `source` (a kernel
    argument: the launcher encodes its tensor map, docs/tensor-maps.md)
    starting at `indices` is copied into workgroup buffer `dest`, element x
    of the box (x_d < box[d]) going to `layout.offset %desc[origin + sum_d
    x_d e(dest_dims[d])]`; box elements outside the memref read as zero.
    The copy completes asynchronously on mbarrier `barriers[barrier]`
    (`layout.mbarrier_wait`), adding the box's bytes to its transaction
    count: a program announces them first (`layout.mbarrier_arrive_expect_tx`).

    The buffer's layout stays a descriptor: the lowering to NVVM
    (`-layout-bulk-tensor-to-nvvm`) derives the TMA swizzle mode from it
    (the widest whose rows the box's contiguous run fills, WarpgroupMma.h)
    and proves, element by element for every origin a multiple of the box
    along `dest_dims` (any other coordinate), that the hardware writes
    where the descriptor says; a layout that matches no mode is refused
    there. The source's last dimension must have unit stride.

    With `im2col [offsets]` the copy is TMA's im2col mode (PTX ISA 5.5.4;
    `cuTensorMapEncodeIm2col`) over a rank-3 to 5 source laid out N, spatial
    dimensions, C: `box` is [pixels, channels] and `dest_dims` their two
    descriptor dimensions. The filter origin starts at the spatial `indices`
    of image `indices[0]` and walks the bounding box from `lower_corner` to
    dim - 1 + `upper_corner` (per spatial dimension, outermost first) in
    steps of `traversal_strides`, the last spatial dimension fastest, then
    the next image; box row p is the pixel at the p-th position shifted by
    `offsets` (the filter position), channels from the last index. Pixels
    outside the source read as zero (Im2col.h states the rule; the CPU
    emulation follows it).

    ```mlir
    layout.bulk_tensor_load %A[%m0, %k0], %buf[%desc : %s, %c0, %c0],
        %bars[%s] {box = array<i64: 128, 64>, dest_dims = array<i64: 1, 2>}
        : memref<?x?xf16>, memref<24576xf16, #gpu.address_space<workgroup>>,
          !layout.desc<3x128x64>, memref<3xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       Variadic<Index>:$offsets,
                       MemRefRankOf<[AnyType], [1]>:$dest,
                       Layout_DescType:$desc, Variadic<Index>:$origin,
                       MemRefRankOf<[I64], [1]>:$barriers, Index:$barrier,
                       DenseI64ArrayAttr:$box,
                       DenseI64ArrayAttr:$dest_dims,
                       OptionalAttr<DenseI64ArrayAttr>:$lower_corner,
                       OptionalAttr<DenseI64ArrayAttr>:$upper_corner,
                       OptionalAttr<DenseI64ArrayAttr>:$traversal_strides);
  let assemblyFormat = [{
    $source `[` $indices `]` (`im2col` `[` $offsets^ `]`)? `,`
    $dest `[` $desc `:` $origin `]` `,`
    $barriers `[` $barrier `]` attr-dict `:` type($source) `,` type($dest)
    `,` qualified(type($desc)) `,` type($barriers)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes the box moves (out-of-bounds elements included): what its
    /// completion adds to the barrier's transaction count.
    int64_t getBoxBytes();
    /// Whether the copy is TMA's im2col mode (it has filter offsets).
    bool isIm2col() { return !getOffsets().empty(); }
    LogicalResult verifyIm2col();
  }];
}

def Layout_MbarrierInitOp : Layout_Op<"mbarrier_init"> {
  let summary = "Initializes an mbarrier of a workgroup buffer";
  let description = [{
    `mbarrier.init` (PTX ISA 9.7.13.15): barrier `barriers[index]` (a 64-bit
    word of workgroup memory) starts in phase 0 expecting `arrivals`
    arrivals and no transactions. One thread initializes; a block barrier
    (`gpu.barrier`) must separate it from the barrier's other uses.
  }];
  let arguments = (ins MemRefRankOf<[I64], [1]>:$barriers, Index:$index,
                       I64Attr:$arrivals);
  let assemblyFormat = [{
    $barriers `[` $index `]` `arrivals` $arrivals attr-dict `:`
    type($barriers)
  }];
  let hasVerifier = 1;
}

def Layout_MbarrierArriveExpectTxOp : Layout_Op<"mbarrier_arrive_expect_tx"> {
  let summary = "Arrives on an mbarrier, announcing asynchronous bytes";
  let description = [{
    `mbarrier.arrive.expect_tx` (PTX ISA 9.7.13.15): adds `bytes` to the
    current phase's expected transaction count, then arrives once. The phase
    completes when every expected arrival has come and the copies that
    complete on it (`layout.bulk_tensor_load`) have moved those bytes.
  }];
  let arguments = (ins MemRefRankOf<[I64], [1]>:$barriers, Index:$index,
                       I64Attr:$bytes);
  let assemblyFormat = [{
    $barriers `[` $index `]` `bytes` $bytes attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def Layout_MbarrierWaitOp : Layout_Op<"mbarrier_wait"> {
  let summary = "Waits until an mbarrier's phase of a given parity completes";
  let description = [{
    `mbarrier.try_wait.parity` in a loop (PTX ISA 9.7.13.15.16): returns once
    the phase of barrier `barriers[index]` whose parity is `parity` (0 or 1:
    the phase count mod 2) has completed. Waiting on a phase that never
    completes hangs; the CPU emulation (`-layout-test-gpu-to-loops`) stops
    with an error there instead.
  }];
  let arguments = (ins MemRefRankOf<[I64], [1]>:$barriers, Index:$index,
                       Index:$parity);
  let assemblyFormat = [{
    $barriers `[` $index `]` `parity` $parity attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

#endif // LAYOUT_OPS_TD
