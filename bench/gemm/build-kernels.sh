#!/usr/bin/env bash
# Compiles examples/matmul.mlir to an sm_90 cubin and its PTX for bench/gemm
# (on the machine with Debian's MLIR; the GPU machine only builds the CUDA
# harness):
#   out/matmul.sm_90.cubin  gemm_f16, gemm_f16_t128, gemm_f16_t128_g8,
#                           gemm_f16_t128_k64 (dynamic shared memory),
#                           gemm_f16_64, gemm_f16_bias_relu, gemm_bf16,
#                           pad_rows_f16
#   out/matmul.sm_90.ptx    the same module as PTX (format=isa)
# Pipeline: -layout-tile-shared-memory (the contraction distributed onto the
# chip's matrix instructions), -layout-xor-swizzle, -layout-to-nvvm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
out="$here/out"
mkdir -p "$out"

# layout-opt may be relinked by a concurrent build: retry once after 30 s
# when it cannot be run (missing, text file busy, ...).
run() {
  if ! "$opt" "$@"; then
    echo "build-kernels.sh: layout-opt failed; retrying in 30 s" >&2
    sleep 30
    "$opt" "$@"
  fi
}

passes=(-layout-tile-shared-memory=chip=sm_90 -layout-xor-swizzle=chip=sm_90)
run "$root/examples/matmul.mlir" "${passes[@]}" -layout-to-nvvm=chip=sm_90 \
  -layout-dump-binaries=dir="$out" -o /dev/null
run "$root/examples/matmul.mlir" "${passes[@]}" \
  -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir="$out" \
  -o /dev/null
ls -l "$out"
