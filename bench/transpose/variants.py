#!/usr/bin/env python3
"""Writes a scratch module of tile-program variants for bench/transpose.

The transposes of examples/transpose-tiles.mlir and the row statistics of
examples/reductions.mlir at other tile and block sizes, so one GPU run can
compare them with the examples' choices:

  variants.py OUT_DIR

writes OUT_DIR/variants.mlir (build-kernels.sh compiles it to
OUT_DIR/variants.sm_90.cubin) and OUT_DIR/variants.txt, one line per kernel
that the harness reads: `kind name type tile_cols tile_rows block_x block_y`.
"""
import os
import sys

TRANSPOSES = [
    # type, tile rows, tile cols, block (x, y)
    ("f16", 128, 128, (32, 8)),
    ("f16", 128, 128, (32, 16)),
    ("f16", 64, 128, (32, 8)),
    ("f16", 128, 64, (32, 8)),
    ("f16", 64, 64, (32, 8)),
    ("f16", 64, 64, (32, 4)),
    ("f16", 256, 64, (32, 8)),
    ("f32", 64, 64, (32, 8)),
    ("f32", 64, 64, (32, 16)),
    ("f32", 64, 64, (32, 4)),
    ("f32", 32, 128, (32, 8)),
    ("f32", 128, 64, (32, 8)),
    ("f32", 64, 128, (32, 8)),
    ("f32", 128, 32, (32, 8)),
]
ROW_STATS = [256, 512, 1024]


def transpose(t, r, c, bx, by):
    name = f"{t}_t{r}x{c}_b{bx}x{by}"
    p = f"!layout.partition_view<?x?x{t}, tile = [{r}, {c}]>"
    q = f"!layout.partition_view<?x?x{t}, tile = [{c}, {r}]>"
    tv = f"!layout.tensor_view<?x?x{t}>"
    text = f"""    gpu.func @{name}(%in: memref<?x?x{t}>, %out: memref<?x?x{t}>)
        kernel attributes {{known_block_size = array<i32: {bx}, {by}, 1>}} {{
      %vi = layout.view %in : memref<?x?x{t}> -> {tv}
      %vo = layout.view %out : memref<?x?x{t}> -> {tv}
      %pi = layout.partition %vi tile [{r}, {c}] : {tv} -> {p}
      %po = layout.partition %vo tile [{c}, {r}] : {tv} -> {q}
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %t = layout.load %pi[%by, %bx] masked : {p} -> vector<{r}x{c}x{t}>
      %u = vector.transpose %t, [1, 0] : vector<{r}x{c}x{t}> to vector<{c}x{r}x{t}>
      layout.store %u, %po[%bx, %by] masked : vector<{c}x{r}x{t}>, {q}
      gpu.return
    }}
"""
    return name, text


def row_stats(threads):
    name = f"row_stats_f32_b{threads}"
    rows = "!layout.partition_view<?x8192xf32, tile = [1, 8192]>"
    stat = "!layout.partition_view<?xf32, tile = [1]>"
    text = f"""    gpu.func @{name}(%a: memref<?x8192xf32>, %max: memref<?xf32>, %sum: memref<?xf32>)
        kernel attributes {{known_block_size = array<i32: {threads}, 1, 1>}} {{
      %va = layout.view %a : memref<?x8192xf32> -> !layout.tensor_view<?x8192xf32>
      %pa = layout.partition %va tile [1, 8192] : !layout.tensor_view<?x8192xf32> -> {rows}
      %vm = layout.view %max : memref<?xf32> -> !layout.tensor_view<?xf32>
      %pm = layout.partition %vm tile [1] : !layout.tensor_view<?xf32> -> {stat}
      %vs = layout.view %sum : memref<?xf32> -> !layout.tensor_view<?xf32>
      %ps = layout.partition %vs tile [1] : !layout.tensor_view<?xf32> -> {stat}
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %t = layout.load %pa[%bx, %c0] : {rows} -> vector<1x8192xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<1xf32>
      %m = vector.multi_reduction <maxnumf>, %t, %ninf [1] : vector<1x8192xf32> to vector<1xf32>
      layout.store %m, %pm[%bx] : vector<1xf32>, {stat}
      %z = arith.constant dense<0.0> : vector<1xf32>
      %s = vector.multi_reduction <add>, %t, %z [1] : vector<1x8192xf32> to vector<1xf32>
      layout.store %s, %ps[%bx] : vector<1xf32>, {stat}
      gpu.return
    }}
"""
    return name, text


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    funcs, lines = [], []
    for t, r, c, (bx, by) in TRANSPOSES:
        name, text = transpose(t, r, c, bx, by)
        funcs.append(text)
        lines.append(f"transpose {name} {t} {c} {r} {bx} {by}")
    for threads in ROW_STATS:
        name, text = row_stats(threads)
        funcs.append(text)
        lines.append(f"rowstats {name} f32 8192 1 {threads} 1")
    with open(os.path.join(out, "variants.mlir"), "w") as f:
        f.write("module attributes {gpu.container_module} {\n"
                "  gpu.module @variants {\n")
        f.write("\n".join(funcs))
        f.write("  }\n}\n")
    with open(os.path.join(out, "variants.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
