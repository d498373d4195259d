#!/usr/bin/env bash
# Regenerates docs/generated/ (the dialect, op, attribute, type and pass reference)
# from the ODS definitions. Run after editing any .td file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$root/build}"
cmake --build "$BUILD_DIR" --target LayoutDocGen LayoutConversionPassDocGen LayoutTransformsPassDocGen
mkdir -p "$root/docs/generated"
cp "$BUILD_DIR"/include/layout/Dialect/Layout/IR/Layout{Dialect,Ops,Attrs,Types}.md "$root/docs/generated/"
cp "$BUILD_DIR"/include/layout/Conversion/ConversionPasses.md "$root/docs/generated/"
cp "$BUILD_DIR"/include/layout/Transforms/TransformsPasses.md "$root/docs/generated/"
echo "docs/generated/ updated"
