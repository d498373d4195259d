"""Tile kernels written in Python (layout_opt.tile): the transposes of
examples/transpose-tiles.mlir, the GEMMs of examples/matmul.mlir (the FP8
ones of examples/matmul-fp8.mlir) and the
attention forwards of examples/attention.mlir, one Python function each. After canonicalization each builds exactly the
hand-written gpu.func of the same name (python/tests/test_tile.py checks
it), and compiles for AMD and NVIDIA chips alike:

    PYTHONPATH=build/python python3 examples/tile_kernels.py          # IR
    PYTHONPATH=build/python python3 examples/tile_kernels.py gfx942   # resources

bench/transpose/python-launch.py runs the transpose and the GEMM on the
H100 from these definitions (bench/RESULTS.md).
"""

import math
import sys

from layout_opt import tile as lt


# out[j, i] = in[i, j], 64x64 tiles; block (x, y) takes tile (y, x) of in.
@lt.kernel(block=(32, 8, 1), grid="inp")
def tile_transpose_f32(inp: lt.Partition("f32", tile=(64, 64)),
                       out: lt.Partition("f32", tile=(64, 64))):
    bx, by = lt.block_id("x"), lt.block_id("y")
    out[bx, by] = inp[by, bx].T


# A fused elementwise epilogue: out[j, i] = f16(in[i, j] * alpha).
@lt.kernel(block=(32, 8, 1), grid="inp")
def tile_transpose_scale_f16(inp: lt.Partition("f32", tile=(64, 64)),
                             out: lt.Partition("f16", tile=(64, 64)),
                             alpha: float):
    bx, by = lt.block_id("x"), lt.block_id("y")
    out[bx, by] = (inp[by, bx].T * alpha).astype("f16")


def block_matmul(a, b, bm, bn, b_nk=False):
    """The f32 product of A's row of tiles bm and B's column of tiles bn:
    a loop over the K tiles carrying the accumulator (a helper traced into
    each kernel that calls it). With b_nk, B is given N x K (C = A B^T,
    both operands K-major, as the FP8 instructions read them)."""
    _, k_tiles = a.tiles
    if b_nk:
        def step(k, s):
            return lt.dot_t(a[bm, k], b[bn, k], s)
        n = b.tile[0]
    else:
        def step(k, s):
            return lt.dot(a[bm, k], b[k, bn], s)
        n = b.tile[1]
    return lt.fori_loop(0, k_tiles, step, lt.zeros((a.tile[0], n), "f32"))


# C = f16(A * B): 128x128 block tiles, K steps of 32, 256 threads; the tile
# pass maps lt.dot onto the chip's matrix instructions (MFMA, WMMA,
# mma.sync) through shared memory.
@lt.kernel(block=(256, 1, 1), grid="c")
def gemm_f16(a: lt.Partition("f16", tile=(128, 32)),
             b: lt.Partition("f16", tile=(32, 128)),
             c: lt.Partition("f16", tile=(128, 128))):
    bm, bn = lt.block_id("y"), lt.block_id("x")
    acc = block_matmul(a, b, bm, bn)
    c[bm, bn] = acc.astype("f16")


# gemm_f16 with 128 threads (4 waves of 64x64 wave tiles) and its blocks
# walked in groups of 8 block rows (Triton's GROUP_M), so the A and B tiles
# consecutive blocks share stay in L2: index arithmetic on block ids.
@lt.kernel(block=(128, 1, 1), grid="c")
def gemm_f16_t128_g8(a: lt.Partition("f16", tile=(128, 32)),
                     b: lt.Partition("f16", tile=(32, 128)),
                     c: lt.Partition("f16", tile=(128, 128))):
    bx, by = lt.block_id("x"), lt.block_id("y")
    gx, gy = lt.grid_dim("x"), lt.grid_dim("y")
    block = by * gx + bx
    span = gx * 8
    first = block // span * 8
    size = lt.minimum(gy - first, 8)
    in_group = block % span
    bm = first + in_group % size
    bn = in_group // size
    acc = block_matmul(a, b, bm, bn)
    c[bm, bn] = acc.astype("f16")


# A GEMM with a fused epilogue: C = f16(relu(alpha * A * B + bias)), the
# bias a row of N values added to every row of C.
@lt.kernel(block=(256, 1, 1), grid="c")
def gemm_f16_bias_relu(a: lt.Partition("f16", tile=(128, 32)),
                       b: lt.Partition("f16", tile=(32, 128)),
                       c: lt.Partition("f16", tile=(128, 128)),
                       alpha: float,
                       bias: lt.Partition("f32", tile=(128,))):
    bm, bn = lt.block_id("y"), lt.block_id("x")
    acc = block_matmul(a, b, bm, bn)
    rows = lt.broadcast(bias[bn], (128, 128))
    c[bm, bn] = lt.maximum(acc * alpha + rows, 0.0).astype("f16")


# FP8 GEMMs (issue 42): A M x K and B N x K of E4M3 (f8E4M3FN on gfx950 and
# sm_89+), 128x128 block tiles, K steps of 64, 256 threads. torch._scaled_mm's
# per-tensor scales: C = bf16(A B^T * scale_a * scale_b).
@lt.kernel(block=(256, 1, 1), grid="c")
def gemm_fp8_scaled(a: lt.Partition("f8E4M3FN", tile=(128, 64)),
                    b: lt.Partition("f8E4M3FN", tile=(128, 64)),
                    c: lt.Partition("bf16", tile=(128, 128)),
                    scale_a: float, scale_b: float):
    bm, bn = lt.block_id("y"), lt.block_id("x")
    acc = block_matmul(a, b, bm, bn, b_nk=True)
    c[bm, bn] = (acc * scale_a * scale_b).astype("bf16")


# Its row-wise scales: one per row of A (an M x 1 tile) and one per row of
# B, that is per column of C (an N tile).
@lt.kernel(block=(256, 1, 1), grid="c")
def gemm_fp8_rowwise(a: lt.Partition("f8E4M3FN", tile=(128, 64)),
                     b: lt.Partition("f8E4M3FN", tile=(128, 64)),
                     c: lt.Partition("bf16", tile=(128, 128)),
                     scale_a: lt.Partition("f32", tile=(128, 1)),
                     scale_b: lt.Partition("f32", tile=(128,))):
    bm, bn = lt.block_id("y"), lt.block_id("x")
    acc = block_matmul(a, b, bm, bn, b_nk=True)
    rows = lt.broadcast(scale_a[bm, 0], (128, 128))
    cols = lt.broadcast(scale_b[bn], (128, 128))
    c[bm, bn] = (acc * rows * cols).astype("bf16")


# FP8 out, saturating as cuBLASLt stores FP8: the scaled product clamped to
# +-448 (E4M3's largest finite value; NaN stays NaN) before the
# conversion, which the compiler turns into the chip's saturating
# conversion (layout/Transforms/Float8Truncation.h).
@lt.kernel(block=(256, 1, 1), grid="c")
def gemm_fp8_out(a: lt.Partition("f8E4M3FN", tile=(128, 64)),
                 b: lt.Partition("f8E4M3FN", tile=(128, 64)),
                 c: lt.Partition("f8E4M3FN", tile=(128, 128)),
                 scale: float):
    bm, bn = lt.block_id("y"), lt.block_id("x")
    acc = block_matmul(a, b, bm, bn, b_nk=True)
    clamped = lt.minimum(lt.maximum(acc * scale, -448.0), 448.0)
    c[bm, bn] = clamped.astype("f8E4M3FN")


def attention(d, bm, bn=64, causal=False):
    """The flash-attention forward of examples/attention.mlir (issue 40;
    bench/attention/gen-attention.py writes the same kernels by hand): one
    block of `bm` query rows of one (batch, head) per block, Q, K, V and O
    [batch * heads * N, d] f16 (d in the type, so that K's and V's tiles go
    by cp.async on sm_80+), key/value tiles of `bn` rows; FlashAttention-2's
    recurrence in base 2, the loop kept in the matrix instructions'
    registers by the tile pass (P is the second product's operand by
    re-view, the row statistics are reduced by shuffles)."""
    scale = math.log2(math.e) / math.sqrt(d)
    qt = lt.Partition("f16", tile=(bm, d), shape=(None, d))
    kt = lt.Partition("f16", tile=(bn, d), shape=(None, d))
    name = "attn%s_d%d_bm%d%s" % ("_causal" if causal else "", d, bm,
                                  "" if bn == 64 else "_bn%d" % bn)

    def attn(q: qt, k: kt, v: kt, o: qt, n: int):
        # This block's query tile (of all heads' rows), and its head's
        # first key/value tile.
        qi = lt.block_id("y")
        qtiles = n // bm
        kvtiles = n // bn
        kv0 = qi // qtiles * kvtiles
        end = kvtiles
        if causal:
            # Keys up to the block's last query (the loop ends at the
            # diagonal tiles, rounded up: a key block may be longer than
            # the query block), then key <= query in the tiles that cross
            # it.
            bx = qi % qtiles
            end = ((bx + 1) * bm + (bn - 1)) // bn
            queries = lt.arange(bm) + lt.broadcast(bx * bm, (bm,))

        def step(j, m, l, acc):
            kj = kv0 + j
            s = lt.dot_t(q[qi, 0], k[kj, 0], lt.zeros((bm, bn), "f32"))
            if causal:
                keys = lt.arange(bn) + lt.broadcast(j * bn, (bn,))
                keep = lt.less_equal(lt.broadcast(keys, (bm, bn)),
                                     lt.rows(queries, bn))
                s = lt.where(keep, s, -math.inf)
            # The row maximum of the unscaled scores; P = exp2(S scale -
            # m scale), one fma per element.
            m_new = lt.row_max(s, m)
            p = lt.exp2(lt.fma(s, scale, lt.rows(-(m_new * scale), bn)))
            alpha = lt.exp2((m - m_new) * scale)
            l_new = lt.row_sum(p, l * alpha)
            acc = lt.dot(p.astype("f16"), v[kj, 0], acc * lt.rows(alpha, d))
            return m_new, l_new, acc

        _, l, acc = lt.fori_loop(0, end, step, (
            lt.full((bm,), -math.inf, "f32"), lt.zeros((bm,), "f32"),
            lt.zeros((bm, d), "f32")))
        # O / l as O * (1 / l): one approximate reciprocal per row, not a
        # division per element (FlashAttention-2's epilogue).
        o[qi, 0] = (acc * lt.rows(lt.reciprocal(l, approx=True), d)
                    ).astype("f16")

    return lt.kernel(block=(128, 1, 1), grid="o", name=name)(attn)


attn_d64_bm64 = attention(64, 64)
attn_causal_d64_bm64 = attention(64, 64, causal=True)

KERNELS = [tile_transpose_f32, tile_transpose_scale_f16, gemm_f16,
           gemm_f16_t128_g8, gemm_f16_bias_relu, attn_d64_bm64,
           attn_causal_d64_bm64]


def main(argv):
    if len(argv) < 2:
        for k in KERNELS:
            print(k.ir)
        return 0
    for chip in argv[1:]:
        for k in KERNELS:
            code = k.compile(chip, format="bin" if chip.startswith("gfx")
                             else "isa")
            print("%s %s: %d bytes, %s" % (chip, k.name, len(code.binary),
                                           code.resources))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
