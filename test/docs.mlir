// The checked-in reference in docs/generated/ matches what ODS generates
// (run scripts/update-docs.sh after editing a .td file).
// RUN: diff %S/../docs/generated/LayoutDialect.md %layout_obj_root/include/layout/Dialect/Layout/IR/LayoutDialect.md
// RUN: diff %S/../docs/generated/LayoutOps.md %layout_obj_root/include/layout/Dialect/Layout/IR/LayoutOps.md
// RUN: diff %S/../docs/generated/LayoutAttrs.md %layout_obj_root/include/layout/Dialect/Layout/IR/LayoutAttrs.md
// RUN: diff %S/../docs/generated/LayoutTypes.md %layout_obj_root/include/layout/Dialect/Layout/IR/LayoutTypes.md
// RUN: diff %S/../docs/generated/ConversionPasses.md %layout_obj_root/include/layout/Conversion/ConversionPasses.md
// RUN: diff %S/../docs/generated/TransformsPasses.md %layout_obj_root/include/layout/Transforms/TransformsPasses.md
// RUN: grep -c "layout.transform" %S/../docs/generated/LayoutOps.md | FileCheck %s
// CHECK: {{[1-9][0-9]*}}
