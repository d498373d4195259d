#!/usr/bin/env bash
# Regenerates docs/generated/ (the dialect, op, attribute and type reference)
# from the ODS definitions. Run after editing any .td file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$root/build}"
cmake --build "$BUILD_DIR" --target LayoutDocGen
mkdir -p "$root/docs/generated"
cp "$BUILD_DIR"/include/layout/Dialect/Layout/IR/Layout{Dialect,Ops,Attrs,Types}.md "$root/docs/generated/"
echo "docs/generated/ updated"
