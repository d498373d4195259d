#!/usr/bin/env bash
# The main job: sets up everything (apt packages, build) and runs layout-opt
# on examples/descriptors.mlir, showing the IR and its folded offsets.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-$root/build}"
example="${1:-$root/examples/descriptors.mlir}"
echo "== $example, verified and printed by layout-opt"
"$BUILD_DIR/bin/layout-opt" "$example"
echo
echo "== the same after -canonicalize: every offset of a constant coordinate is folded"
"$BUILD_DIR/bin/layout-opt" -canonicalize "$example"
