//===- LayoutBase.td - The layout dialect -----------------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_BASE_TD
#define LAYOUT_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Layout_Dialect : Dialect {
  let name = "layout";
  let cppNamespace = "::mlir::layout";
  let summary = "Coordinate transforms, tensor descriptors and tensor views";
  let description = [{
    The `layout` dialect is a compiler layer for the index arithmetic that GPU
    kernels spend their cleverness on: how a logical coordinate becomes a
    memory offset, how a tensor is cut into tiles, and how a tile is staged
    through shared memory without bank conflicts.

    What belongs here:

    * *Coordinate transforms* (`#layout.pass_through`, `#layout.pad`,
      `#layout.embed`, `#layout.merge`, `#layout.unmerge`, ... the kinds of
      Composable Kernel's CK Tile, rocRoller's coordinate graph and CuTe's
      swizzle). Each maps an *upper* coordinate to a *lower* coordinate.
    * *Descriptors* (`!layout.desc`): a base strided layout
      (`layout.naive`, `layout.packed`, `layout.aligned`) followed by stages
      of transforms (`layout.transform`). A descriptor maps a top coordinate
      to an element offset and a validity bit.
    * Index ops on descriptors (`layout.offset`, `layout.valid`,
      `layout.upper`, `layout.element_space_size`).
    * *Views* (`!layout.tensor_view`, `layout.view`): a memref, or a buffer
      through a descriptor; *partitions* (`!layout.partition_view`,
      `layout.partition`) cut a view into tiles that `layout.load` and
      `layout.store` access as vectors, masked (with a padding value) or
      atomically (cuda::tiles::partition_view).

    Design guidelines:

    * Descriptors are pure SSA values built from constants: their structure is
      static, their coordinates are dynamic. Every analysis may trace a
      descriptor back to its base.
    * The semantics of every transform live in one C++ evaluator
      (`layout/Evaluator`); folders, the inverse, lowerings' tests and the
      Python bindings all call it.
    * All arithmetic is 64-bit signed on element offsets (`index`); verifiers
      reject descriptors whose element space or intermediate bounds overflow.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  // parseAttribute wraps the generated parser to name the expected
  // parameter and the nearest transform (LayoutDialect.cpp).
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasRegionArgAttrVerify = 1;
}

class Layout_Op<string mnemonic, list<Trait> traits = []>
    : Op<Layout_Dialect, mnemonic, traits>;

#endif // LAYOUT_BASE_TD
