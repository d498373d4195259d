"""The Triton anchor of bench/gemm (issue 39): an f16 GEMM of the Triton
tutorial's form (grouped tile order, f32 accumulation), autotuned over the
configurations below, timed against torch.matmul (cuBLAS) in the same
process, every element compared with torch.matmul's result.

    python3 bench/gemm/triton_gemm.py            # the bench shapes
    python3 bench/gemm/triton_gemm.py 4096x4096x4096

Prints one markdown row per (kernel, shape): time (median of
triton.testing.do_bench), TFLOPS, and the largest difference from cuBLAS.
Runs only on the GPU machine (PyTorch, Triton 3.6).
"""

import sys

import torch
import triton
import triton.language as tl


def configs():
    out = []
    for bm, bn, bk, stages, warps in [(128, 256, 64, 3, 8), (256, 128, 64, 3, 8),
                                      (128, 256, 64, 4, 8), (128, 128, 64, 4, 4),
                                      (128, 128, 64, 5, 8), (64, 256, 64, 4, 4)]:
        out.append(triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8},
                                 num_stages=stages, num_warps=warps))
    return out


@triton.autotune(configs=configs(), key=["M", "N", "K"])
@triton.jit
def gemm_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    group = pid // per_group
    first_m = group * GROUP
    size_m = min(tiles_m - first_m, GROUP)
    pm = first_m + (pid % per_group) % size_m
    pn = (pid % per_group) // size_m
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        ta = tl.load(pa, mask=rk[None, :] < left, other=0.0)
        tb = tl.load(pb, mask=rk[:, None] < left, other=0.0)
        acc = tl.dot(ta, tb, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    pc = c + cm[:, None] * scm + cn[None, :] * scn
    tl.store(pc, acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))


def triton_gemm(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    gemm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                      b.stride(1), c.stride(0), c.stride(1))
    return c


def main():
    shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[1:]] or [
        (4096, 4096, 4096), (8192, 8192, 8192), (4095, 4097, 4099),
        (8192, 8192, 512), (512, 8192, 8192)]
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__,
          "triton", triton.__version__)
    print("| kernel | M x N x K | ms | TFLOPS | max abs diff from cuBLAS |")
    print("| --- | --- | --- | --- | --- |")
    torch.manual_seed(0)
    for M, N, K in shapes:
        a = torch.rand((M, K), device="cuda", dtype=torch.float16) * 2 - 1
        b = torch.rand((K, N), device="cuda", dtype=torch.float16) * 2 - 1
        ref = torch.matmul(a, b)
        out = triton_gemm(a, b)
        diff = (out.float() - ref.float()).abs().max().item()
        flops = 2.0 * M * N * K
        for name, fn in [("torch.matmul (cuBLAS)", lambda: torch.matmul(a, b)),
                         ("Triton (tutorial form, autotuned: %s)"
                          % gemm_kernel.best_config, lambda: triton_gemm(a, b))]:
            ms = triton.testing.do_bench(fn, warmup=25, rep=200)
            print("| %s | %dx%dx%d | %.3f | %.1f | %s |" % (
                name, M, N, K, ms, flops / ms / 1e9,
                "reference" if "torch" in name else "%.4g" % diff))


if __name__ == "__main__":
    main()
