#!/usr/bin/env bash
# Writes what the compiler makes of every example kernel on every chip into
# a folder, so that two builds can be compared byte for byte (a refactoring
# must leave them identical):
#   <example>.<chip>.tiled.mlir   after -layout-tile-shared-memory and
#                                 -layout-xor-swizzle (with their remarks in
#                                 <example>.<chip>.remarks)
#   <example>.<chip>.{s,ptx}      the ISA (AMDGPU assembly or PTX) that
#                                 -layout-to-rocdl / -layout-to-nvvm makes
#   bash scripts/snapshot-kernels.sh DIR [layout-opt]
#   diff -r DIR1 DIR2
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: snapshot-kernels.sh DIR [layout-opt]}"
opt="${2:-$root/build/bin/layout-opt}"
mkdir -p "$out"
chips=(gfx90a gfx942 gfx950 gfx1100 sm_80 sm_90)
examples=(transpose.mlir transpose-tiles.mlir matmul.mlir conv.mlir reductions.mlir)
for example in "${examples[@]}"; do
  name="${example%.mlir}"
  for chip in "${chips[@]}"; do
    base="$out/$name.$chip"
    passes=(-layout-tile-shared-memory=chip="$chip" -layout-xor-swizzle=chip="$chip")
    if ! "$opt" "$root/examples/$example" "${passes[@]}" -o "$base.tiled.mlir" \
      2>"$base.remarks"; then
      echo "$example $chip: the tile pass failed (see $base.remarks)"
      continue
    fi
    case "$chip" in
    gfx*) pipeline=(-layout-to-rocdl="chip=$chip format=isa") ;;
    sm_*) pipeline=(-layout-to-nvvm="chip=$chip format=isa") ;;
    esac
    tmp="$(mktemp -d)"
    if "$opt" "$base.tiled.mlir" "${pipeline[@]}" \
      -layout-dump-binaries=dir="$tmp" -o /dev/null 2>"$base.lower.err"; then
      for f in "$tmp"/*; do
        [ -e "$f" ] && cp "$f" "$out/$name.$chip.$(basename "$f")"
      done
      rm -f "$base.lower.err"
    else
      echo "$example $chip: lowering failed (see $base.lower.err)"
    fi
    rm -rf "$tmp"
  done
done
ls "$out" | wc -l
