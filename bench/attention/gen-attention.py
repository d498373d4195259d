#!/usr/bin/env python3
"""Writes examples/attention.mlir: the flash-attention forward as tile
programs (issue 40), one kernel per head dimension d and query block BM.

    python3 bench/attention/gen-attention.py > OUT.mlir      # all kernels
    python3 bench/attention/gen-attention.py --example > examples/attention.mlir

Each kernel computes, for one block of BM query rows of one (batch, head)
(grid y: batch * heads * N / BM, the query blocks of every head), the FlashAttention-2
recurrence over key/value tiles of 64 rows in base 2: S = Q K^T scaled by
log2(e) / sqrt(d), the running row maximum m and row sum l, the
accumulator rescaled by alpha = exp2(m - m'), O / l stored as f16. Q, K, V
and O are [batch * heads * N, d] row-major f16 (heads folded into the rows),
N a multiple of 64 and of BM; -layout-tile-shared-memory compiles the loop
as a fragment program (FragmentProgram.h: the tiles stay in the matrix
instructions' registers, P is the second product's A by re-view). The
rows are d elements wide in the memref type (memref<?xdxf16>), so the
tiles' rows are statically 16-byte aligned and on sm_80 and later K's and
V's tiles are copied by cp.async one product ahead (FragmentCopies.h).
examples/tile_kernels.py writes the same kernels in Python (the op order
here follows it: python/tests/test_tile.py compares them).
"""

import math
import sys

# (d, BM, BN): head dimension, query block, key/value block.
KERNELS = [(64, 64, 64), (64, 128, 64), (64, 128, 128), (128, 64, 64),
           (128, 128, 64)]

HEADER = """// The flash-attention forward as tile programs (issue 40), written by
// bench/attention/gen-attention.py (see there; the bench's other head
// dimensions and blocks come from it too). One kernel per head dimension
// d and query block BM: attn_d<d>_bm<BM>(Q, K, V, O, N), grid (1, batch *
// heads * N / BM), 128 threads; Q, K, V, O [batch * heads * N, d] f16 (d in
// the type: K's and V's tiles go by cp.async on sm_80 and later); and
// attn_causal_d<d>_bm<BM>, the same with a causal mask. The same kernels in
// Python: examples/tile_kernels.py.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

module attributes {gpu.container_module} {
gpu.module @attention {"""


# The ops in the order examples/tile_kernels.py's attention() traces them
# (constants where it makes them), so that the two agree after
# canonicalization (python/tests/test_tile.py).
CAUSAL_SETUP = """    // Causal: keys up to the block's last query (the loop ends at the
    // diagonal tiles, rounded up: a key block may be longer than the query
    // block), then key <= query in the tiles that cross it.
    %bx = arith.remui %qi, %qtiles : index
    %c1b = arith.constant 1 : index
    %bx1 = arith.addi %bx, %c1b : index
    %cbm2 = arith.constant {bm} : index
    %qend = arith.muli %bx1, %cbm2 : index
    %cbn1 = arith.constant {bn1} : index
    %qend1 = arith.addi %qend, %cbn1 : index
    %cbn2 = arith.constant {bn} : index
    %end = arith.divui %qend1, %cbn2 : index
    %qstep = vector.step : vector<{bm}xindex>
    %cbm3 = arith.constant {bm} : index
    %q0p = arith.muli %bx, %cbm3 : index
    %q0v = vector.broadcast %q0p : index to vector<{bm}xindex>
    %qpos = arith.addi %qstep, %q0v : vector<{bm}xindex>
"""

CAUSAL_MASK = """      %kstep = vector.step : vector<{bn}xindex>
      %cbn3 = arith.constant {bn} : index
      %k0 = arith.muli %j, %cbn3 : index
      %k0v = vector.broadcast %k0 : index to vector<{bn}xindex>
      %kpos = arith.addi %kstep, %k0v : vector<{bn}xindex>
      %kb = vector.broadcast %kpos : vector<{bn}xindex> to vector<{bm}x{bn}xindex>
      %qcol = vector.shape_cast %qpos : vector<{bm}xindex> to vector<{bm}x1xindex>
      %qb = vector.broadcast %qcol : vector<{bm}x1xindex> to vector<{bm}x{bn}xindex>
      %keep = arith.cmpi ule, %kb, %qb : vector<{bm}x{bn}xindex>
      %ninfs = arith.constant dense<0xFF800000> : vector<{bm}x{bn}xf32>
      %s = arith.select %keep, %s0, %ninfs : vector<{bm}x{bn}xi1>, vector<{bm}x{bn}xf32>
"""


# ORDER "rev": each head's query blocks in reverse (the longest causal
# rows first within a head, so that the grid's last blocks are short ones;
# the heads stay in order, their K and V in L2 one after the other).
REVERSED = """    %qid = gpu.block_id y
    %cbmr = arith.constant {bm} : index
    %qtr = arith.divui %N, %cbmr : index
    %bxr = arith.remui %qid, %qtr : index
    %bhr = arith.subi %qid, %bxr : index
    %c1r = arith.constant 1 : index
    %lastr = arith.subi %qtr, %c1r : index
    %revr = arith.subi %lastr, %bxr : index
    %qi = arith.addi %bhr, %revr : index"""


# sm_90a (wgmma, the --hopper kernels): (d, BM, BN, threads, CTAs), one
# warpgroup of 128 threads per 64 query rows; CTAs > 0 asks ptxas for that
# many blocks per SM (nvvm.minctasm: it caps the registers to fit them).
# The loop attribute each ORDER asks for.
ATTRIBUTES = {"rotated": ' {layout.product_order = "rotated"}',
              "late": ' {layout.copy_release = "late"}',
              "ahead": ' {layout.copy_release = "ahead"}'}
# Each ORDER part's name suffix (an ORDER joins parts with "+").
SUFFIXES = {"rotated": "_rot", "late": "_late", "ahead": "_ahead",
            "rev": "_rev"}
# ORDER "rotated" asks for the last product one iteration late
# (layout.product_order: FlashAttention-3's overlap of P V with the next
# softmax; not the default, ptxas serializes it: bench/RESULTS.md).
# "late": the next K tiles copied at V's arrival (layout.copy_release).
# "ahead": K and V copied a whole iteration ahead into two stages.
HOPPER_KERNELS = [(64, 64, 128, 128, 0, ""), (64, 64, 128, 128, 0, "rotated"),
                  (64, 64, 128, 128, 3, ""), (64, 64, 64, 128, 4, ""),
                  (64, 128, 64, 256, 2, ""),
                  (128, 64, 128, 128, 0, ""),
                  (128, 64, 128, 128, 0, "late"),
                  (128, 64, 128, 128, 0, "rotated"),
                  (128, 64, 64, 128, 0, ""), (128, 128, 64, 256, 2, ""),
                  (128, 128, 128, 256, 0, "")]


def kernel(d, bm, bn=64, causal=False, dtype="f16", threads=128, ctas=0,
           order=""):
    qt = "!layout.partition_view<?x%dxf16, tile = [%d, %d]>" % (d, bm, d)
    kt = "!layout.partition_view<?x%dxf16, tile = [%d, %d]>" % (d, bn, d)
    tv = "!layout.tensor_view<?x%dxf16>" % d
    mt = "memref<?x%dxf16>" % d
    scale = math.log2(math.e) / math.sqrt(d)
    mask = CAUSAL_MASK.replace("{bm}", str(bm)).replace("{bn}", str(bn))
    setup = CAUSAL_SETUP.replace("{bm}", str(bm)).replace(
        "{bn1}", str(bn - 1)).replace("{bn}", str(bn))
    first = (REVERSED.replace("{bm}", str(bm)) if "rev" in order.split("+")
             else "    %qi = gpu.block_id y")
    text = f"""
  gpu.func @{name(d, bm, bn, causal, dtype, threads, ctas, order)}(%Q: {mt},
      %K: {mt}, %V: {mt}, %O: {mt}, %N: index) kernel
      attributes {{known_block_size = array<i32: {threads}, 1, 1>{", nvvm.minctasm = %d : i32" % ctas if ctas else ""}}} {{
    %vq = layout.view %Q : {mt} -> {tv}
    %vk = layout.view %K : {mt} -> {tv}
    %vv = layout.view %V : {mt} -> {tv}
    %vo = layout.view %O : {mt} -> {tv}
    %pq = layout.partition %vq tile [{bm}, {d}] : {tv} -> {qt}
    %pk = layout.partition %vk tile [{bn}, {d}] : {tv} -> {kt}
    %pv = layout.partition %vv tile [{bn}, {d}] : {tv} -> {kt}
    %po = layout.partition %vo tile [{bm}, {d}] : {tv} -> {qt}
    // This block's query tile (of all heads' rows), and its head's first
    // key/value tile.
{first}
    %cbm = arith.constant {bm} : index
    %qtiles = arith.divui %N, %cbm : index
    %cbn = arith.constant {bn} : index
    %kvtiles = arith.divui %N, %cbn : index
    %bh = arith.divui %qi, %qtiles : index
    %kv0 = arith.muli %bh, %kvtiles : index
{setup if causal else ""}    %ninf = arith.constant dense<0xFF800000> : vector<{bm}xf32>
    %zrow = arith.constant dense<0.0> : vector<{bm}xf32>
    %zo = arith.constant dense<0.0> : vector<{bm}x{d}xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %res:3 = scf.for %j = %c0 to {"%end" if causal else "%kvtiles"} step %c1
        iter_args(%m = %ninf, %l = %zrow, %o = %zo)
        -> (vector<{bm}xf32>, vector<{bm}xf32>, vector<{bm}x{d}xf32>) {{
      %kj = arith.addi %kv0, %j : index
      %cq = arith.constant 0 : index
      %tq = layout.load %pq[%qi, %cq] masked : {qt} -> vector<{bm}x{d}xf16>
      %ck = arith.constant 0 : index
      %tk = layout.load %pk[%kj, %ck] masked : {kt} -> vector<{bn}x{d}xf16>
      %zs = arith.constant dense<0.0> : vector<{bm}x{bn}xf32>
      %s{"0" if causal else ""} = vector.contract {{indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %tq, %tk, %zs
         : vector<{bm}x{d}xf16>, vector<{bn}x{d}xf16> into vector<{bm}x{bn}xf32>
{mask if causal else ""}      // The row maximum of the unscaled scores; P = exp2(S scale - m scale),
      // one fma per element (FlashAttention-2's scale_apply_exp2).
      %mn = vector.multi_reduction <maximumf>, %s, %m [1] : vector<{bm}x{bn}xf32> to vector<{bm}xf32>
      // log2(e) / sqrt({d})
      %scalerow = arith.constant dense<{scale!r}> : vector<{bm}xf32>
      %ms = arith.mulf %mn, %scalerow : vector<{bm}xf32>
      %nms = arith.negf %ms : vector<{bm}xf32>
      %mc = vector.shape_cast %nms : vector<{bm}xf32> to vector<{bm}x1xf32>
      %mb = vector.broadcast %mc : vector<{bm}x1xf32> to vector<{bm}x{bn}xf32>
      %scale = arith.constant dense<{scale!r}> : vector<{bm}x{bn}xf32>
      %sd = math.fma %s, %scale, %mb : vector<{bm}x{bn}xf32>
      %p = math.exp2 %sd : vector<{bm}x{bn}xf32>
      %dm = arith.subf %m, %mn : vector<{bm}xf32>
      %scalerow2 = arith.constant dense<{scale!r}> : vector<{bm}xf32>
      %dms = arith.mulf %dm, %scalerow2 : vector<{bm}xf32>
      %alpha = math.exp2 %dms : vector<{bm}xf32>
      %la = arith.mulf %l, %alpha : vector<{bm}xf32>
      %ln = vector.multi_reduction <add>, %p, %la [1] : vector<{bm}x{bn}xf32> to vector<{bm}xf32>
      %p16 = arith.truncf %p : vector<{bm}x{bn}xf32> to vector<{bm}x{bn}xf16>
      %cv = arith.constant 0 : index
      %tv = layout.load %pv[%kj, %cv] masked : {kt} -> vector<{bn}x{d}xf16>
      %ac = vector.shape_cast %alpha : vector<{bm}xf32> to vector<{bm}x1xf32>
      %ab = vector.broadcast %ac : vector<{bm}x1xf32> to vector<{bm}x{d}xf32>
      %oa = arith.mulf %o, %ab : vector<{bm}x{d}xf32>
      %o2 = vector.contract {{indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %p16, %tv, %oa
         : vector<{bm}x{bn}xf16>, vector<{bn}x{d}xf16> into vector<{bm}x{d}xf32>
      scf.yield %mn, %ln, %o2 : vector<{bm}xf32>, vector<{bm}xf32>, vector<{bm}x{d}xf32>
    }}{"".join(ATTRIBUTES.get(o, "") for o in order.split("+"))}
    // O / l as O * (1 / l): one approximate reciprocal per row (afn:
    // rcp.approx.f32 on NVIDIA), not a division per element
    // (FlashAttention-2's epilogue).
    %one = arith.constant dense<1.0> : vector<{bm}xf32>
    %linv = arith.divf %one, %res#1 fastmath<afn> : vector<{bm}xf32>
    %lc = vector.shape_cast %linv : vector<{bm}xf32> to vector<{bm}x1xf32>
    %lb = vector.broadcast %lc : vector<{bm}x1xf32> to vector<{bm}x{d}xf32>
    %out = arith.mulf %res#2, %lb : vector<{bm}x{d}xf32>
    %out16 = arith.truncf %out : vector<{bm}x{d}xf32> to vector<{bm}x{d}xf16>
    %co = arith.constant 0 : index
    layout.store %out16, %po[%qi, %co] masked : vector<{bm}x{d}xf16>, {qt}
    gpu.return
  }}"""
    # bf16: the same program on bf16 tiles (Q, K, V, P and O).
    return text if dtype == "f16" else text.replace("xf16", "x" + dtype)


def name(d, bm, bn=64, causal=False, dtype="f16", threads=128, ctas=0,
         order=""):
    """The kernel's name: attn[_causal]_d<d>_bm<BM>[_bn<BN>][_<dtype>]
    [_t<threads>][_c<CTAs>][_rot|_late|_ahead][_rev] (the defaults left out;
    _rot: the last product rotated, _late: the next K tiles copied at V's
    arrival, layout.copy_release = "late", _ahead: K and V a whole
    iteration ahead in two stages, _rev: each head's query blocks in
    reverse)."""
    return "attn%s_d%d_bm%d%s%s%s%s%s" % (
        "_causal" if causal else "", d, bm, "" if bn == 64 else "_bn%d" % bn,
        "" if dtype == "f16" else "_" + dtype,
        "" if threads == 128 else "_t%d" % threads,
        "_c%d" % ctas if ctas else "",
        "".join(SUFFIXES.get(o, "") for o in order.split("+")))


EXAMPLE = [(64, 64, 64)]

# The bench's variants (gen-attention.py --extra; the code-object test
# compiles the lists above only): (d, BM, BN, order) on mma.sync, and
# HOPPER_KERNELS' tuples.
MMA_EXTRA = [(64, 128, 64, 128, "rev"), (128, 128, 64, 128, "rev"),
             (128, 128, 64, 128, "late"), (128, 256, 64, 256, "")]
HOPPER_EXTRA = [(64, 128, 128, 256, 2, ""), (128, 128, 64, 256, 2, "ahead")]


def mma_kernels(extra=False):
    """The mma.sync kernels as (d, BM, BN, threads, order)."""
    return [k + (128, "") for k in KERNELS] + (MMA_EXTRA if extra else [])


def hopper_kernels(extra=False):
    return HOPPER_KERNELS + (HOPPER_EXTRA if extra else [])


def wanted(order, causal):
    """Whether a kernel of ORDER is written for this mask ("rev" reorders
    the causal blocks only)."""
    return "rev" not in order.split("+") or causal


def main():
    # --example: the two kernels of examples/attention.mlir (d 64, BM 64,
    # full and causal); the bench and the code-object test take all eight
    # (gfx942's default pipeline spends minutes in the swizzle search on
    # the d = 128 ones, too long for the fuzzer's corpus).
    # --hopper: the sm_90a kernels (HOPPER_KERNELS); --extra: the bench's
    # variants too (MMA_EXTRA, HOPPER_EXTRA).
    extra = "--extra" in sys.argv
    print(HEADER, end="")
    if "--hopper" in sys.argv:
        for causal in (False, True):
            for d, bm, bn, threads, ctas, order in hopper_kernels(extra):
                if wanted(order, causal):
                    print(kernel(d, bm, bn, causal, threads=threads,
                                 ctas=ctas, order=order))
        print("}\n}")
        return
    kernels = ([k + (128, "") for k in EXAMPLE] if "--example" in sys.argv
               else mma_kernels(extra))
    for causal in (False, True):
        for d, bm, bn, threads, order in kernels:
            if wanted(order, causal):
                print(kernel(d, bm, bn, causal, threads=threads, order=order))
    if "--example" not in sys.argv:
        # bf16 inputs: the query block 64 kernels, not causal.
        for d in (64, 128):
            print(kernel(d, 64, 64, False, "bf16"))
    print("}\n}")


if __name__ == "__main__":
    main()
