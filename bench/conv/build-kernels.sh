#!/usr/bin/env bash
# Compiles the bench/conv kernels to a cubin (on the machine with Debian's
# MLIR; the GPU machine only builds the CUDA harness):
#   build-kernels.sh          sm_90 (mma.sync, cp.async) into out/
#   build-kernels.sh sm_90a   sm_90a (warpgroup MMA, TMA) into out-sm90a/
#                             (the harness: CONV_CHIP=sm_90a)
# Each directory gets
#   conv-bench.mlir      gen-conv.py bench <chip>: for each layer (and tile
#                        configuration) its convolution tile program and
#                        the GEMM of the same M, N, K
#   conv.<chip>.cubin, conv.<chip>.ptx
#   shapes.txt           gen-conv.py bench-shapes <chip>: the harness's table
#   remarks.txt          the passes' remarks
# Pipeline: -layout-tile-shared-memory, -layout-xor-swizzle, -layout-to-nvvm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
chip="${1:-sm_90}"
case "$chip" in
  sm_90) out="$here/out" ;;
  sm_90a) out="$here/out-sm90a" ;;
  *) echo "build-kernels.sh: chip sm_90 or sm_90a, not '$chip'" >&2; exit 2 ;;
esac
mkdir -p "$out"
python3 "$here/gen-conv.py" bench "$chip" >"$out/conv-bench.mlir"
python3 "$here/gen-conv.py" bench-shapes "$chip" >"$out/shapes.txt"
passes=(-layout-tile-shared-memory=chip=$chip -layout-xor-swizzle=chip=$chip)
"$opt" "$out/conv-bench.mlir" "${passes[@]}" -layout-to-nvvm=chip=$chip \
  -layout-dump-binaries=dir="$out" -o /dev/null 2>"$out/remarks.txt"
"$opt" "$out/conv-bench.mlir" "${passes[@]}" \
  -layout-to-nvvm="chip=$chip format=isa" -layout-dump-binaries=dir="$out" \
  -o /dev/null 2>/dev/null
ls -l "$out"
