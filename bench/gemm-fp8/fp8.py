#!/usr/bin/env python3
"""FP8 GEMMs with scales (issue 42) against torch._scaled_mm (cuBLASLt),
on one GPU.

    python3 bench/gemm-fp8/fp8.py build bench/gemm-fp8/out   # here
    python3 bench/gemm-fp8/fp8.py run bench/gemm-fp8/out     # GPU

`build` writes the tile programs below (C = bf16(A B^T scaled), A M x K
and B N x K e4m3 row-major, both K-contiguous: torch._scaled_mm's layout)
and compiles them for sm_90 (-layout-to-nvvm: mma.sync m16n8k32 e4m3,
cp.async stages) into OUT/fp8.sm_90.cubin and for sm_90a (wgmma m64nNk32
e4m3 from TMA boxes in an mbarrier ring, grouped block order) into
OUT/fp8.sm_90a.cubin, with the package's Python files. Two scalings: per tensor (two f32 scalars) and row-wise (a scale
per row of A, M x 1, and per column of B, N).

`run`: M = N = K = 4096 and 8192, A and B from torch.randn cast to
float8_e4m3fn, scales from torch.rand + 0.5. Every element is compared with
torch._scaled_mm's: |got - want| <= 2^-7 |want| + 2^-7 max|want| (both
accumulate in f32 in different orders and round to bf16, 2^-8 relative).
Time: bench/conv/torch_conv.py's batched_median_ms (CUDA events around a
CUDA graph of 20 calls, median of 10 replays). TFLOPS = 2 M N K / time.
Exit status 0 when every check passes, 3 otherwise.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "python"))
import common  # noqa: E402

# Per chip: (block rows and columns, K tile, threads, pipeline stages or 0
# for the planner's). sm_90: mma.sync m16n8k32 with cp.async stages;
# sm_90a: wgmma m64nNk32 from TMA boxes (one warpgroup per 64 rows).
CONFIGS = {
    "sm_90": [(128, 128, 64, 256, 0), (128, 128, 128, 256, 0),
              (128, 256, 64, 256, 0)],
    "sm_90a": [(128, 256, 128, 256, 0), (128, 256, 64, 256, 4),
               (128, 128, 128, 256, 4), (256, 128, 128, 256, 0)],
}

HEADER = """#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
gpu.module @fp8 {"""


def kernel_name(bm, bn, bk, threads, stages, rowwise):
    return "fp8_%s_%dx%dx%d_t%d%s" % ("rowwise" if rowwise else "tensor", bm,
                                      bn, bk, threads,
                                      "_s%d" % stages if stages else "")


# The block's tile in Triton's grouped order (GROUP_M = 8): consecutive
# blocks walk 8 block rows down one block column, so that the A and B tiles
# they share stay in L2 (as bench/gemm/matmul-wgmma.mlir).
GROUPED = """    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %c8 = arith.constant 8 : index
    %id0 = arith.muli %by, %gx : index
    %id = arith.addi %id0, %bx : index
    %span = arith.muli %gx, %c8 : index
    %group = arith.divui %id, %span : index
    %first = arith.muli %group, %c8 : index
    %left = arith.subi %gy, %first : index
    %size = arith.minui %left, %c8 : index
    %inGroup = arith.remui %id, %span : index
    %dm = arith.remui %inGroup, %size : index
    %bm = arith.addi %first, %dm : index
    %bn = arith.divui %inGroup, %size : index
"""


def kernel(bm, bn, bk, threads, stages, rowwise, chip):
    """C = bf16(A B^T * scales): the K loop of one block tile, then the
    scaled epilogue. sm_90a kernels take the grouped block order and
    dynamic shared memory (their stages pass 48 KiB)."""
    a = "!layout.partition_view<?x?xf8E4M3FN, tile = [%d, %d]>" % (bm, bk)
    b = "!layout.partition_view<?x?xf8E4M3FN, tile = [%d, %d]>" % (bn, bk)
    c = "!layout.partition_view<?x?xbf16, tile = [%d, %d]>" % (bm, bn)
    tv = "!layout.tensor_view<?x?xf8E4M3FN>"
    name = kernel_name(bm, bn, bk, threads, stages, rowwise)
    hopper = chip == "sm_90a"
    attrs = "layout.dynamic_shared_memory, " if hopper else ""
    order = GROUPED if hopper else """    %bm = gpu.block_id y
    %bn = gpu.block_id x
"""
    stage_attr = (", layout.pipeline_stages = %d : i64" % stages
                  if stages else "")
    scales = ("%Row: memref<?x1xf32>, %Col: memref<?xf32>" if rowwise
              else "%sa: f32, %sb: f32")
    if rowwise:
        epilogue = f"""    %vr = layout.view %Row : memref<?x1xf32> -> !layout.tensor_view<?x1xf32>
    %vl = layout.view %Col : memref<?xf32> -> !layout.tensor_view<?xf32>
    %pr = layout.partition %vr tile [{bm}, 1] : !layout.tensor_view<?x1xf32> -> !layout.partition_view<?x1xf32, tile = [{bm}, 1]>
    %pl = layout.partition %vl tile [{bn}] : !layout.tensor_view<?xf32> -> !layout.partition_view<?xf32, tile = [{bn}]>
    %row = layout.load %pr[%bm, %c0] masked : !layout.partition_view<?x1xf32, tile = [{bm}, 1]> -> vector<{bm}x1xf32>
    %col = layout.load %pl[%bn] masked : !layout.partition_view<?xf32, tile = [{bn}]> -> vector<{bn}xf32>
    %rows = vector.broadcast %row : vector<{bm}x1xf32> to vector<{bm}x{bn}xf32>
    %cols = vector.broadcast %col : vector<{bn}xf32> to vector<{bm}x{bn}xf32>
    %y = arith.mulf %acc, %rows : vector<{bm}x{bn}xf32>
    %z = arith.mulf %y, %cols : vector<{bm}x{bn}xf32>
"""
    else:
        epilogue = f"""    %sab = arith.mulf %sa, %sb : f32
    %st = vector.broadcast %sab : f32 to vector<{bm}x{bn}xf32>
    %z = arith.mulf %acc, %st : vector<{bm}x{bn}xf32>
"""
    return f"""
  gpu.func @{name}(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
      %C: memref<?x?xbf16>, {scales}) kernel
      attributes {{{attrs}known_block_size = array<i32: {threads}, 1, 1>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?xf8E4M3FN> -> {tv}
    %vb = layout.view %B : memref<?x?xf8E4M3FN> -> {tv}
    %vc = layout.view %C : memref<?x?xbf16> -> !layout.tensor_view<?x?xbf16>
    %pa = layout.partition %va tile [{bm}, {bk}] : {tv} -> {a}
    %pb = layout.partition %vb tile [{bn}, {bk}] : {tv} -> {b}
    %pc = layout.partition %vc tile [{bm}, {bn}] : !layout.tensor_view<?x?xbf16> -> {c}
{order}    %tiles:2 = layout.index_space %pa : {a}
    %zero = arith.constant dense<0.0> : vector<{bm}x{bn}xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<{bm}x{bn}xf32>) {{
      %ta = layout.load %pa[%bm, %kt] masked : {a} -> vector<{bm}x{bk}xf8E4M3FN>
      %tb = layout.load %pb[%bn, %kt] masked : {b} -> vector<{bn}x{bk}xf8E4M3FN>
      %r = vector.contract {{indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>{stage_attr}}} %ta, %tb, %s
         : vector<{bm}x{bk}xf8E4M3FN>, vector<{bn}x{bk}xf8E4M3FN> into vector<{bm}x{bn}xf32>
      scf.yield %r : vector<{bm}x{bn}xf32>
    }}
{epilogue}    %o = arith.truncf %z : vector<{bm}x{bn}xf32> to vector<{bm}x{bn}xbf16>
    layout.store %o, %pc[%bm, %bn] masked : vector<{bm}x{bn}xbf16>, {c}
    gpu.return
  }}"""


def program(chip):
    parts = [HEADER]
    for cfg in CONFIGS[chip]:
        for rowwise in (False, True):
            parts.append(kernel(*cfg, rowwise, chip))
    parts.append("}\n}\n")
    return "\n".join(parts)


def build(out):
    for chip in CONFIGS:
        common.build_cubin(out, "fp8", program(chip), chip)
    return 0


def check(got, want, report):
    w = want.float()
    err = (got.float() - w).abs()
    bound = w.abs() * 2.0 ** -7 + float(w.abs().max()) * 2.0 ** -7
    bad = int((~(err <= bound)).sum())
    report.append(bad == 0)
    return "%s: %d of %d off _scaled_mm (max rel %.1e)" % (
        "ok" if bad == 0 else "FAIL", bad, got.numel(),
        float((err / w.abs().clamp_min(1e-3)).max()))


def run(out):
    cuda = common.start_run(out, ["torch"])
    if cuda is None:
        return 3
    import torch
    timed = common.load_timer()
    cubins = {}
    for chip in CONFIGS:
        with open(os.path.join(out, "fp8.%s.cubin" % chip), "rb") as f:
            cubins[chip] = f.read()
    gen = torch.Generator(device="cuda").manual_seed(42)
    report = []
    print("| M=N=K | scaling | contender | ms | TFLOPS | check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in (4096, 8192):
        a = torch.randn((n, n), device="cuda", generator=gen).to(
            torch.float8_e4m3fn)
        b = torch.randn((n, n), device="cuda", generator=gen).to(
            torch.float8_e4m3fn)                     # N x K, row-major
        flops = 2.0 * n * n * n
        for rowwise in (False, True):
            if rowwise:
                sa = torch.rand((n, 1), device="cuda", generator=gen) + 0.5
                sb = torch.rand((1, n), device="cuda", generator=gen) + 0.5
            else:
                sa = torch.rand((), device="cuda", generator=gen) + 0.5
                sb = torch.rand((), device="cuda", generator=gen) + 0.5

            def theirs():
                return torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb,
                                        out_dtype=torch.bfloat16)
            want = theirs()
            tag = "row-wise" if rowwise else "per tensor"
            t = timed(theirs)
            print("| %d | %s | torch._scaled_mm (cuBLASLt) | %.3f | %.1f | "
                  "reference |" % (n, tag, t, flops / t / 1e9), flush=True)
            for chip, bm, bn, bk, threads, stages in [
                    (chip,) + cfg for chip in CONFIGS
                    for cfg in CONFIGS[chip]]:
                name = kernel_name(bm, bn, bk, threads, stages, rowwise)
                kernel = cuda.Kernel(cubins[chip], name)
                c = torch.empty((n, n), device="cuda", dtype=torch.bfloat16)
                args = [a.view(torch.uint8), b.view(torch.uint8), c]
                if rowwise:
                    args += [sa.contiguous(), sb.reshape(n).contiguous()]
                else:
                    args += [float(sa), float(sb)]

                def ours(kernel=kernel, args=args):
                    kernel.launch((n // bn, n // bm, 1), (threads, 1, 1),
                                  args)
                ours()
                torch.cuda.synchronize()
                got = check(c, want, report)
                t = timed(ours)
                print("| %d | %s | layout-opt %s %s (%s e4m3) | %.3f | "
                      "%.1f | %s |" % (n, tag, chip, name,
                                       "wgmma" if chip == "sm_90a"
                                       else "mma.sync", t, flops / t / 1e9,
                                       got), flush=True)
    print("checks: %d passed, %d failed" % (sum(report),
                                             len(report) - sum(report)))
    return 0 if all(report) else 3


if __name__ == "__main__":
    sys.exit(common.main(sys.argv, __doc__, build, run))
