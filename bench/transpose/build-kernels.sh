#!/usr/bin/env bash
# Compiles examples/transpose.mlir to sm_90 cubins for bench/transpose
# (on the machine with Debian's MLIR; the GPU machine only builds the CUDA
# harness): out/transpose.sm_90.cubin is swizzled by -layout-xor-swizzle,
# out/unswizzled/transpose.sm_90.cubin is the plain 32x32 tile.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
opt="${LAYOUT_OPT:-$root/build/bin/layout-opt}"
out="$here/out"
mkdir -p "$out/unswizzled"
"$opt" "$root/examples/transpose.mlir" -layout-xor-swizzle=chip=sm_90 \
  -layout-to-nvvm=chip=sm_90 -layout-dump-binaries=dir="$out" -o /dev/null
"$opt" "$root/examples/transpose.mlir" \
  -layout-to-nvvm=chip=sm_90 -layout-dump-binaries=dir="$out/unswizzled" \
  -o /dev/null
"$opt" "$root/examples/transpose.mlir" -layout-xor-swizzle=chip=sm_90 \
  -layout-to-nvvm="chip=sm_90 format=isa" -layout-dump-binaries=dir="$out" \
  -o /dev/null
# The tile programs of examples/transpose-tiles.mlir, distributed by
# -layout-tile-shared-memory: out/tiles.sm_90.cubin (swizzled) and
# out/unswizzled/tiles.sm_90.cubin.
"$opt" "$root/examples/transpose-tiles.mlir" -layout-tile-shared-memory \
  -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
  -layout-dump-binaries=dir="$out" -o /dev/null
"$opt" "$root/examples/transpose-tiles.mlir" -layout-tile-shared-memory \
  -layout-to-nvvm=chip=sm_90 -layout-dump-binaries=dir="$out/unswizzled" \
  -o /dev/null
"$opt" "$root/examples/transpose-tiles.mlir" -layout-tile-shared-memory \
  -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm="chip=sm_90 format=isa" \
  -layout-dump-binaries=dir="$out" -o /dev/null

# The row statistics of examples/reductions.mlir: out/reductions.sm_90.cubin.
"$opt" "$root/examples/reductions.mlir" -layout-tile-shared-memory \
  -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
  -layout-dump-binaries=dir="$out" -o /dev/null
# With VARIANTS=1: the tile and block sizes of bench/transpose/variants.py,
# out/variants.sm_90.cubin and the list out/variants.txt.
if [ "${VARIANTS:-0}" = 1 ]; then
  python3 "$here/variants.py" "$out"
  "$opt" "$out/variants.mlir" -layout-tile-shared-memory \
    -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
    -layout-dump-binaries=dir="$out" -o /dev/null
else
  rm -f "$out/variants.txt" "$out/variants.sm_90.cubin"
fi
# The same tile programs compiled through the Python package (issue 20):
# out/python/tiles.sm_90.cubin from the text of examples/transpose-tiles.mlir
# (Module.parse, .run, .compile), and out/python/decorated/<kernel>.sm_90.cubin
# from the Python functions of examples/tile_kernels.py (layout_opt.tile),
# with the resources read from each cubin (resources.json) for
# python-launch.py to compare with the driver's. out/matmul.sm_90.cubin is
# examples/matmul.mlir through layout-opt, the C++ path of the same GEMMs.
mkdir -p "$out/python/decorated"
"$opt" "$root/examples/matmul.mlir" -layout-tile-shared-memory=chip=sm_90 \
  -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \
  -layout-dump-binaries=dir="$out" -o /dev/null
PYTHONPATH="${LAYOUT_PYTHONPATH:-$root/build/python}:$root/examples" \
  /usr/bin/python3 - "$root/examples/transpose-tiles.mlir" "$out/python" \
  "$out" <<'PY'
import json
import sys
import layout_opt as lo
import tile_kernels
m = lo.Module.parse(open(sys.argv[1]).read(), filename=sys.argv[1])
m.run("layout-tile-shared-memory,layout-xor-swizzle{chip=sm_90}")
open(sys.argv[2] + "/tiles.sm_90.cubin", "wb").write(
    lo.compile(m, target="nvvm", chip="sm_90"))
# What code_object_resources reads: for each decorated kernel's cubin, and
# for the multi-kernel cubins layout-opt made (one kernel without shared
# memory among them), for python-launch.py to compare with the driver.
resources = {}
for k in tile_kernels.KERNELS:
    code = k.compile("sm_90")
    name = "python/decorated/%s.sm_90.cubin" % k.name
    open("%s/%s" % (sys.argv[3], name), "wb").write(code.binary)
    resources[name] = {k.name: code.resources}
for name in ("tiles.sm_90.cubin", "matmul.sm_90.cubin"):
    resources[name] = lo.code_object_resources(
        open("%s/%s" % (sys.argv[3], name), "rb").read())
json.dump(resources, open(sys.argv[2] + "/decorated/resources.json", "w"),
          indent=1, sort_keys=True)
PY
ls -l "$out" "$out/unswizzled" "$out/python" "$out/python/decorated"
