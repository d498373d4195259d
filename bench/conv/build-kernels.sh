#!/usr/bin/env bash
# Compiles the bench/conv kernels to an sm_90 cubin (on the machine with
# Debian's MLIR; the GPU machine only builds the CUDA harness):
#   out/conv-bench.mlir  gen-conv.py bench: for each layer its convolution
#                        tile program and the GEMM of the same M, N, K
#   out/conv.sm_90.cubin, out/conv.sm_90.ptx
#   out/shapes.txt       gen-conv.py bench-shapes: the harness's table
# Pipeline: -layout-tile-shared-memory, -layout-xor-swizzle, -layout-to-nvvm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
out="$here/out"
mkdir -p "$out"
python3 "$here/gen-conv.py" bench >"$out/conv-bench.mlir"
python3 "$here/gen-conv.py" bench-shapes >"$out/shapes.txt"
passes=(-layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90)
"$opt" "$out/conv-bench.mlir" "${passes[@]}" -layout-to-nvvm=chip=sm_90 \
  -layout-dump-binaries=dir="$out" -o /dev/null 2>"$out/remarks.txt"
"$opt" "$out/conv-bench.mlir" "${passes[@]}" \
  -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir="$out" \
  -o /dev/null 2>/dev/null
ls -l "$out"
