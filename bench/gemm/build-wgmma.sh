#!/usr/bin/env bash
# Compiles bench/gemm/matmul-wgmma.mlir and examples/matmul.mlir for sm_90a
# (warpgroup MMA) into bench/gemm/out-wgmma/ and bench/gemm/out-sm90a/:
#   GEMM_CHIP=sm_90a /tmp/h bench/gemm/out-sm90a bench
#   GEMM_CHIP=sm_90a /tmp/h bench/gemm/out-wgmma bench
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
for pair in "$root/examples/matmul.mlir:out-sm90a" "$here/matmul-wgmma.mlir:out-wgmma"; do
  src="${pair%%:*}" out="$here/${pair##*:}"
  mkdir -p "$out"
  for format in bin isa; do
    "$opt" "$src" -layout-to-nvvm="chip=sm_90a format=$format" \
      -layout-dump-binaries=dir="$out" -o /dev/null 2>/dev/null
  done
  ls -l "$out"
done
