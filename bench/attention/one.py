#!/usr/bin/env python3
"""One launch each of a layout-opt attention kernel and FA2 (sdpa flash) on
the same inputs, for a profiler (ncu) to compare:

    ncu --clock-control none --kernel-name regex:'attn|flash' \\
        python3 bench/attention/one.py bench/attention/out attn_d64_bm128 4096 64

Arguments: the bench's build directory, the kernel, N, d (batch 4, 32
heads; causal when the kernel's name says so), and optionally the chip of
its cubin (sm_90, the default, or sm_90a for the wgmma kernels; the
threads per block are 128, or those of the name's _t<threads>)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import common  # noqa: E402


def main(out, name, n, d, chip="sm_90"):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    cuda = common.import_runtime(out)
    with open(os.path.join(out, "attention.%s.cubin" % chip), "rb") as f:
        kernel = cuda.Kernel(f.read(), name)
    batch, heads = 4, 32
    bm = int(name.split("_bm")[1].split("_")[0])
    found = re.search(r"_t(\d+)", name)
    threads = int(found.group(1)) if found else 128
    causal = "causal" in name
    q, k, v = (torch.randn((batch, heads, n, d), device="cuda",
                           dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    args = [t.view(batch * heads * n, d) for t in (q, k, v, o)] + [n]
    kernel.launch((1, batch * heads * n // bm, 1), (threads, 1, 1), args)
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
        F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
         *sys.argv[5:6])
