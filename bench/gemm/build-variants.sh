#!/usr/bin/env bash
# Builds variants of examples/matmul.mlir's 128x128 kernels for bench/gemm
# (tile and pipeline experiments), each into bench/gemm/out/<name>/ with the
# kernel names the harness knows, so that on the GPU machine
#   /tmp/h bench/gemm/out/<name> bench gemm_f16
# measures one against cuBLAS in the same run. Variants:
#   bk64     K steps of 64 (one LDS stage of 32 KiB: register prefetch)
#   bk32s1   K steps of 32, layout.pipeline_stages = 1 (register prefetch)
#   bk32s2   K steps of 32, 2 stages of asynchronous copies
#   bk32s3   K steps of 32, 3 stages (the pass's choice for K steps of 32)
#   *-short  the same with 32-bit shared-memory pointers (--nvptx-short-ptr)
#   t128-*   128 threads instead of 256 (4 warps of 64x64 wave tiles)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# $1: name, $2: threads, $3: K step (32 or 64), $4: stages (empty: the
# pass's choice), $5...: extra layout-opt flags.
variant() {
  local name=$1 threads=$2 bk=$3 stages=$4
  shift 4
  local src="$tmp/$name.mlir"
  sed -e "s/tile = \[128, 32\]/tile = [128, $bk]/; s/tile \[128, 32\]/tile [128, $bk]/" \
      -e "s/tile = \[32, 128\]/tile = [$bk, 128]/; s/tile \[32, 128\]/tile [$bk, 128]/" \
      -e "s/vector<128x32xf16>/vector<128x${bk}xf16>/g; s/vector<32x128xf16>/vector<${bk}x128xf16>/g" \
      -e "s/known_block_size = array<i32: 256, 1, 1>/known_block_size = array<i32: $threads, 1, 1>/" \
      "$root/examples/matmul.mlir" >"$src"
  if [ -n "$stages" ]; then
    sed -i "s/kind = #vector.kind<add>}/kind = #vector.kind<add>, layout.pipeline_stages = $stages : i64}/" "$src"
  fi
  mkdir -p "$here/out/$name"
  "$opt" "$src" -layout-tile-shared-memory=chip=sm_90 \
    -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
    -layout-dump-binaries=dir="$here/out/$name" -o /dev/null "$@" 2>/dev/null
  "$opt" "$src" -layout-tile-shared-memory=chip=sm_90 \
    -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" \
    -layout-dump-binaries=dir="$here/out/$name" -o /dev/null "$@" 2>/dev/null
  echo "$name: $(ls "$here/out/$name" | tr '\n' ' ')"
}

variant bk64 256 64 ""
variant bk32s1 256 32 1
variant bk32s2 256 32 2
variant bk32s3 256 32 3
variant bk64-short 256 64 "" --nvptx-short-ptr
variant bk32s3-short 256 32 3 --nvptx-short-ptr
variant t128-bk32s3 128 32 3
variant t128-bk32s2 128 32 2
variant t128-bk64 128 64 ""
variant t128-bk32s3-short 128 32 3 --nvptx-short-ptr
