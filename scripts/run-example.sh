#!/usr/bin/env bash
# The main job: sets up everything (apt packages, build), compiles the two
# transpose examples and the GEMM example to AMDGPU code objects for gfx942
# and shows what the kernels use: LDS bytes, VGPRs and SGPRs, no scratch,
# the workgroup-memory and matrix instructions.
#   examples/transpose.mlir:        kernels written per thread with layout
#                                   descriptors, swizzled by
#                                   -layout-xor-swizzle
#   examples/transpose-tiles.mlir:  tile programs (layout.load, transpose,
#                                   layout.store) that
#                                   -layout-tile-shared-memory distributes and
#                                   stages through workgroup memory
#   examples/matmul.mlir:           GEMM tile programs (vector.contract in a
#                                   K loop) on the chip's matrix instructions
#   bash scripts/run-example.sh [chip]      (default gfx942)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-$root/build}"
opt="$BUILD_DIR/bin/layout-opt"
chip="${1:-gfx942}"
out="$BUILD_DIR/out"
mkdir -p "$out"

show() { # $1: the code object
  echo
  echo "== resource use (llvm-readelf --notes $1)"
  /usr/lib/llvm-22/bin/llvm-readelf --notes "$1" \
    | grep -E '^\s+\.(name|group_segment_fixed_size|private_segment_fixed_size|vgpr_count|sgpr_count|wavefront_size):' \
    | sed 's/^ *//'
  echo
  echo "== workgroup-memory and matrix instructions (llvm-objdump -d --mcpu=$chip)"
  /usr/lib/llvm-22/bin/llvm-objdump -d --mcpu="$chip" "$1" \
    | grep -oE '^\s+(ds_[a-z0-9_]+|scratch_[a-z0-9_]+|v_(mfma|wmma)[a-z0-9_]+)' \
    | sort | uniq -c
}

compile() { # $1: the example; then extra passes. Swizzles and compiles it
            # for $chip into $out and prints the remarks.
  local example=$1
  shift
  "$opt" "examples/$example" "$@" -layout-xor-swizzle=chip="$chip" \
    -layout-to-rocdl=chip="$chip" -layout-dump-binaries=dir="$out" \
    -o /dev/null 2>&1 | grep -o 'remark: .*' | sort | uniq -c
}

echo "== bank conflicts of examples/transpose.mlir on $chip, as written"
"$opt" examples/transpose.mlir \
  -layout-analyze-bank-conflicts=chip="$chip" -o /dev/null 2>&1 \
  | grep -o 'remark: .*' | sort | uniq -c
echo
echo "== swizzled and compiled: $out/transpose.$chip.hsaco"
compile transpose.mlir
show "$out/transpose.$chip.hsaco"

echo
echo "== examples/transpose-tiles.mlir: distributed, swizzled and compiled: $out/tiles.$chip.hsaco"
compile transpose-tiles.mlir -layout-tile-shared-memory
show "$out/tiles.$chip.hsaco"

echo
echo "== examples/matmul.mlir: GEMM tile programs on $chip's matrix instructions: $out/matmul.$chip.hsaco"
compile matmul.mlir -layout-tile-shared-memory=chip="$chip"
show "$out/matmul.$chip.hsaco"
