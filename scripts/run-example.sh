#!/usr/bin/env bash
# The main job: sets up everything (apt packages, build), compiles
# examples/transpose.mlir to an AMDGPU code object for gfx942 (after
# swizzling its workgroup tile against bank conflicts) and shows what the
# kernels use: LDS bytes, VGPRs and SGPRs, and no scratch.
#   bash scripts/run-example.sh [chip]      (default gfx942)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-$root/build}"
chip="${1:-gfx942}"
out="$BUILD_DIR/out"
mkdir -p "$out"
echo "== bank conflicts of examples/transpose.mlir on $chip, as written"
"$BUILD_DIR/bin/layout-opt" examples/transpose.mlir \
  -layout-analyze-bank-conflicts=chip="$chip" -o /dev/null 2>&1 \
  | grep -o 'remark: .*' | sort | uniq -c
echo
echo "== swizzled and compiled: $out/transpose.$chip.hsaco"
"$BUILD_DIR/bin/layout-opt" examples/transpose.mlir \
  -layout-xor-swizzle=chip="$chip" -layout-to-rocdl=chip="$chip" \
  -layout-dump-binaries=dir="$out" -o /dev/null 2>&1 \
  | grep -o 'remark: .*' | sort | uniq -c
echo
echo "== resource use (llvm-readelf --notes)"
/usr/lib/llvm-22/bin/llvm-readelf --notes "$out/transpose.$chip.hsaco" \
  | grep -E '^\s+\.(name|group_segment_fixed_size|private_segment_fixed_size|vgpr_count|sgpr_count|wavefront_size):' \
  | sed 's/^ *//'
echo
echo "== workgroup-memory instructions (llvm-objdump -d --mcpu=$chip)"
/usr/lib/llvm-22/bin/llvm-objdump -d --mcpu="$chip" "$out/transpose.$chip.hsaco" \
  | grep -oE '^\s+(ds_[a-z0-9_]+|scratch_[a-z0-9_]+)' | sort | uniq -c
