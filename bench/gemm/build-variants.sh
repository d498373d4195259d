#!/usr/bin/env bash
# Builds variants of examples/matmul.mlir's 128x128 kernels for bench/gemm
# (tile and pipeline experiments), each into bench/gemm/out/<name>/ with the
# kernel names the harness knows, so that on the GPU machine
#   /tmp/h bench/gemm/out/<name> bench gemm_f16
# measures one against cuBLAS in the same run. Variants (name: threads, K
# step, stages; the 48 KiB static limit holds 3 stages of K steps of 32,
# more go to dynamic shared memory, see -layout-dynamic-shared-memory):
#   t128-bk32s3   128 threads, K steps of 32, 3 stages (the pass's default)
#   t128-bk32s4   4 stages (64 KiB)
#   t128-bk32s5   5 stages (80 KiB)
#   t128-bk64s3   K steps of 64, 3 stages (96 KiB)
#   t128-bk64s4   K steps of 64, 4 stages (128 KiB: 1 block per SM)
# (Earlier variants, in bench/RESULTS.md: 256 threads, K steps of 64 with
# register prefetch, 1 and 2 stages, 32-bit shared pointers.)
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
      -e "s/vector<128x32x\(b\?f16\)>/vector<128x${bk}x\1>/g; s/vector<32x128x\(b\?f16\)>/vector<${bk}x128x\1>/g" \
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

variant t128-bk32s3 128 32 3
variant t128-bk32s4 128 32 4
variant t128-bk32s5 128 32 5
variant t128-bk64s3 128 64 3
variant t128-bk64s4 128 64 4
