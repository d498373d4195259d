//===- LayoutAttrs.td - Transform attributes --------------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// One attribute per coordinate transform. `U` = upper lengths, `L` = lower
// lengths, `u` = upper coordinate, `l` = lower coordinate; division and
// modulo are floor division and the non-negative remainder.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_ATTRS_TD
#define LAYOUT_ATTRS_TD

include "layout/Dialect/Layout/IR/LayoutBase.td"

def Layout_TransformAttrInterface : AttrInterface<"TransformAttrInterface"> {
  let cppNamespace = "::mlir::layout";
  let description = [{
    A coordinate transform: maps an upper coordinate (its upper dims) to a
    lower coordinate (its lower dims). Implemented by every `#layout.*`
    transform attribute; `getTransform()` returns the evaluator's form, which
    holds the semantics (lengths, formulas, validity, inverse).
  }];
  let methods = [
    InterfaceMethod<"Returns the evaluator's form of this transform.",
      "::mlir::layout::Transform", "getTransform">,
    InterfaceMethod<[{
        Vector-length inference (CK Tile's
        calculate_upper_dimension_safe_vector_length_strides): the
        guaranteed runs {length, stride} of the upper dims, given those of
        the lower dims (layout/Evaluator/VectorLength.h).
      }],
      "void", "getUpperVectorRuns",
      (ins "::llvm::ArrayRef<::mlir::layout::VectorRun>":$lower,
           "::llvm::ArrayRef<int64_t>":$lowerLengths,
           "::llvm::SmallVectorImpl<::mlir::layout::VectorRun> &":$upper),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        ::mlir::layout::upperRuns($_attr.getTransform(), lower, lowerLengths,
                                  upper);
      }]>,
  ];
}

// A scalar argument of a transform: an integer, or `?` for a run-time value
// (an SSA operand of `layout.transform`; only the kinds whose
// TransformKindInfo::runTime is set verify with one).
def Layout_Size : AttrParameter<"int64_t", "an integer or '?'"> {
  let parser = "::mlir::layout::detail::parseSize($_parser)";
  let printer = "::mlir::layout::detail::printSize($_printer, $_self)";
}

// The C++ type of an attribute parameter given as a record.
class Layout_ParameterType<AttrOrTypeParameter parameter> {
  string type = parameter.cppType;
}

// The attribute of the transform kind `name` (the row `name` of
// include/layout/Evaluator/TransformKinds.def, whose mnemonic must be
// `attrMnemonic`). A def gives its parameters, in the order of the kind's
// arguments, and its assembly format; `getTransform()` and `verify()` are
// generated here and go through the evaluator.
class Layout_TransformAttr<string name, string attrMnemonic>
    : AttrDef<Layout_Dialect, name,
              [DeclareAttrInterfaceMethods<Layout_TransformAttrInterface>]> {
  let mnemonic = attrMnemonic;
  let genVerifyDecl = 1;

  // `type name, ...` and `name, ...` of the parameters, as ODS declares
  // verify().
  list<int> parameterIndices = !range(!size(parameters));
  string parameterNames = !interleave(
      !foreach(i, parameterIndices, !getdagname(parameters, i)), ", ");
  string typedParameters = !interleave(
      !foreach(i, parameterIndices,
          !if(!initialized(!getdagarg<AttrOrTypeParameter>(parameters, i)),
              Layout_ParameterType<
                  !getdagarg<AttrOrTypeParameter>(parameters, i)>.type,
              !getdagarg<string>(parameters, i))
          # " " # !getdagname(parameters, i)), ", ");

  let extraClassDeclaration = [{
    /// This attribute's row of TransformKinds.def.
    static constexpr ::mlir::layout::TransformKind transformKind =
        ::mlir::layout::TransformKind::}] # name # [{;
    /// The names of the parameters, in order (the parse diagnostics show
    /// them as `#layout.<mnemonic><...>`).
    static constexpr ::llvm::StringLiteral parameterList = "}]
        # parameterNames # [{";
  }];
  let extraClassDefinition = [{
    static_assert(::mlir::layout::detail::matchesTransformKind<$cppClass>(),
                  "the mnemonic or the parameters of $cppClass differ from "
                  "its row of TransformKinds.def");

    ::mlir::layout::Transform $cppClass::getTransform() const {
      return ::mlir::layout::detail::transformOf<$cppClass>(*this);
    }

    ::llvm::LogicalResult $cppClass::verify(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError, }]
        # typedParameters # [{) {
      return ::mlir::layout::detail::verifyTransform(
          emitError, ::mlir::layout::Transform::make(transformKind, {}]
          # parameterNames # [{}));
    }
  }];
}

def Layout_PassThroughAttr : Layout_TransformAttr<"PassThrough", "pass_through"> {
  let summary = "Identity on one dimension of length L";
  let description = [{
    One lower dim, one upper dim of length `L`; `l = u`. Always valid. Keeps a
    dimension unchanged through a stage.

    ```mlir
    #layout.pass_through<4> : [0] -> [0]
    ```
  }];
  let parameters = (ins Layout_Size:$length);
  let assemblyFormat = "`<` $length `>`";
}

def Layout_PadAttr : Layout_TransformAttr<"Pad", "pad"> {
  let summary = "Pads a dimension of length L on both sides";
  let description = [{
    One lower dim of length `L`, one upper dim of length `left + L + right`;
    `l = u - left`, valid when `left <= u < left + L`. Pads are non-negative.
    CK Tile's `make_pad_transform`.

    ```mlir
    // upper 0..4 -> lower -1, 0, 1, 2, 3; valid only for 1..3.
    #layout.pad<3, 1, 1>
    ```
  }];
  let parameters = (ins Layout_Size:$length, Layout_Size:$left, Layout_Size:$right);
  let assemblyFormat = "`<` $length `,` $left `,` $right `>`";
}

def Layout_LeftPadAttr : Layout_TransformAttr<"LeftPad", "left_pad"> {
  let summary = "Pads a dimension of length L on the left";
  let description = [{
    One lower dim of length `L`, one upper dim of length `left + L`;
    `l = u - left`, valid when `u >= left`.

    ```mlir
    #layout.left_pad<3, 2>
    ```
  }];
  let parameters = (ins Layout_Size:$length, Layout_Size:$left);
  let assemblyFormat = "`<` $length `,` $left `>`";
}

def Layout_RightPadAttr : Layout_TransformAttr<"RightPad", "right_pad"> {
  let summary = "Pads a dimension of length L on the right";
  let description = [{
    One lower dim of length `L`, one upper dim of length `L + right`;
    `l = u`, valid when `u < L`. Pad a length that a tile does not divide
    with it before cutting it into tiles.

    ```mlir
    #layout.right_pad<11, 1>
    ```
  }];
  let parameters = (ins Layout_Size:$length, Layout_Size:$right);
  let assemblyFormat = "`<` $length `,` $right `>`";
}

def Layout_EmbedAttr : Layout_TransformAttr<"Embed", "embed"> {
  let summary = "Strided embedding of n upper dims into one lower dim";
  let description = [{
    One lower dim, `n` upper dims of lengths `U`; `l = sum u_i * c_i`. Always
    valid. Coefficients are non-negative; the lower dim must hold the span
    `1 + sum (U_i - 1) * c_i`. rocRoller's Join (its strides are the
    coefficients).

    ```mlir
    // upper (1, 2) -> lower 14.
    #layout.embed<[2, 3], [12, 1]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$upper_lengths,
                        ArrayRefParameter<"int64_t">:$coefficients);
  let assemblyFormat =
      "`<` custom<IntList>($upper_lengths) `,` custom<IntList>($coefficients) `>`";
}

def Layout_MergeAttr : Layout_TransformAttr<"Merge", "merge"> {
  let summary = "Merges n lower dims into one upper dim (mixed radix)";
  let description = [{
    `n` lower dims of lengths `L`, one upper dim of length `prod L`;
    mixed-radix split: `l_i = (u / prod_{j>i} L_j) mod L_i` for `i > 0` and
    `l_0 = u / prod_{j>0} L_j` (the most significant digit is not reduced).
    rocRoller's Tile.

    ```mlir
    // upper 13 -> lower (2, 3).
    #layout.merge<[4, 5]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$lower_lengths);
  let assemblyFormat = "`<` custom<IntList>($lower_lengths) `>`";
}

def Layout_UnmergeAttr : Layout_TransformAttr<"Unmerge", "unmerge"> {
  let summary = "Splits one lower dim into n upper dims (row-major)";
  let description = [{
    One lower dim of length `prod U`, `n` upper dims of lengths `U`;
    `l = sum u_i * prod_{j>i} U_j`. rocRoller's Flatten (its sizes are the
    upper lengths).

    ```mlir
    // upper (1, 3, 0) -> lower 14.
    #layout.unmerge<[3, 4, 2]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$upper_lengths);
  let assemblyFormat = "`<` custom<IntList>($upper_lengths) `>`";
}

def Layout_ReplicateAttr : Layout_TransformAttr<"Replicate", "replicate"> {
  let summary = "Broadcasts: n upper dims that consume no lower dim";
  let description = [{
    No lower dim, `n` upper dims of lengths `U`: every upper coordinate maps
    to the empty lower coordinate (a broadcast). Written `[] -> [...]` in a
    stage.

    ```mlir
    #layout.replicate<[5]> : [] -> [0]
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$upper_lengths);
  let assemblyFormat = "`<` custom<IntList>($upper_lengths) `>`";
}

def Layout_FreezeAttr : Layout_TransformAttr<"Freeze", "freeze"> {
  let summary = "Fixes one lower dim to a constant; no upper dim";
  let description = [{
    One lower dim of length `L`, no upper dim; `l = v` with `0 <= v < L`.
    Written `[...] -> []` in a stage.

    ```mlir
    #layout.freeze<2> : [0] -> []
    ```
  }];
  let parameters = (ins Layout_Size:$value);
  let assemblyFormat = "`<` $value `>`";
}

def Layout_OffsetAttr : Layout_TransformAttr<"Offset", "offset"> {
  let summary = "Translates one dim by a constant";
  let description = [{
    One lower dim, one upper dim of length `U`; `l = u + off`, with
    `U + off <= L`.

    ```mlir
    // upper 5 -> lower 21.
    #layout.offset<48, 16>
    ```
  }];
  let parameters = (ins Layout_Size:$upper_length, Layout_Size:$offset);
  let assemblyFormat = "`<` $upper_length `,` $offset `>`";
}

def Layout_SliceAttr : Layout_TransformAttr<"Slice", "slice"> {
  let summary = "Takes the sub-range [begin, end) of a dim of length L";
  let description = [{
    One lower dim of length `L`, one upper dim of length `end - begin`;
    `l = u + begin`, with `0 <= begin < end <= L`.

    ```mlir
    #layout.slice<10, 2, 7>
    ```
  }];
  let parameters = (ins Layout_Size:$length, Layout_Size:$begin, Layout_Size:$end);
  let assemblyFormat = "`<` $length `,` $begin `,` $end `>`";
}

def Layout_ModuloAttr : Layout_TransformAttr<"Modulo", "modulo"> {
  let summary = "Wraps one dim cyclically";
  let description = [{
    One lower dim (of length at least `m`), one upper dim of length `U`;
    `l = u mod m`, `m > 0`. Not injective when `m < U`.

    ```mlir
    #layout.modulo<4, 16>
    ```
  }];
  let parameters = (ins Layout_Size:$modulus, Layout_Size:$upper_length);
  let assemblyFormat = "`<` $modulus `,` $upper_length `>`";
}

def Layout_XorAttr : Layout_TransformAttr<"Xor", "xor"> {
  let summary = "CK Tile's XOR swizzle of a 2-D coordinate";
  let description = [{
    Two lower dims, two upper dims of lengths `[L0, L1]`; `l0 = u0`,
    `l1 = u1 xor (u0 mod L1)`. `L1` must be a power of two (the transform is
    then a bijection). Removes shared-memory bank conflicts of column
    accesses.

    ```mlir
    #layout.xor<[32, 32]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$lengths);
  let assemblyFormat = "`<` custom<IntList>($lengths) `>`";
}

def Layout_RotateAttr : Layout_TransformAttr<"Rotate", "rotate"> {
  let summary = "Cyclic shift of a row by its row index";
  let description = [{
    Two lower dims, two upper dims of lengths `[L0, L1]`; `l0 = u0`,
    `l1 = (u1 + u0) mod L1` (CK's `cyclic_shift`). A bijection for any `L1`.

    ```mlir
    #layout.rotate<[4, 6]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$lengths);
  let assemblyFormat = "`<` custom<IntList>($lengths) `>`";
}

def Layout_SwizzleAttr : Layout_TransformAttr<"Swizzle", "swizzle"> {
  let summary = "CuTe's Swizzle<B, M, S> on one dim of length L";
  let description = [{
    One lower dim, one upper dim of length `L`;
    `l = u xor ((u >> S) & (((1 << B) - 1) << M))` (a negative `S` shifts
    left). Requires `|S| >= B` (the source and target bits are disjoint, so
    the swizzle is its own inverse) and `L` a multiple of `2^(B + M)` (the
    swizzled bits stay inside `L`). Hopper's 128-byte TMA swizzle on byte
    addresses is `<3, 4, 3>`.

    ```mlir
    #layout.swizzle<3, 4, 3, 1024>
    ```
  }];
  let parameters = (ins Layout_Size:$bits, Layout_Size:$base, Layout_Size:$shift,
                        Layout_Size:$length);
  let assemblyFormat = "`<` $bits `,` $base `,` $shift `,` $length `>`";
}

def Layout_SunderAttr : Layout_TransformAttr<"Sunder", "sunder"> {
  let summary = "rocRoller's Sunder: a switch picks one of k pieces";
  let description = [{
    One lower dim of length `sum N_j`, `k + 1` upper dims of lengths
    `(N0, ..., Nk-1, k)`: the last upper coordinate `s` picks a piece and
    `l = u_s + sum_{j<s} N_j`; valid when `u_s < N_s`. The other upper
    coordinates are ignored (the inverse sets them to 0).

    ```mlir
    // Stream-K (6 iterations) + data-parallel (10 iterations).
    #layout.sunder<[6, 10]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$pieces);
  let assemblyFormat = "`<` custom<IntList>($pieces) `>`";
}

#endif // LAYOUT_ATTRS_TD
