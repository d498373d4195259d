#!/usr/bin/env python3
"""PyTorch's conv2d on bench/conv's layers: the anchor issue 39 names.

    python3 bench/conv/torch_conv.py [out dir] [layer]

Reads <out dir>/shapes.txt (build-kernels.sh; default bench/conv/out) and
times torch.nn.functional.conv2d on each layer as a PyTorch user runs it:
NHWC (channels_last) f16 input and weights, f16 output (f32 accumulation
inside cuDNN), torch.backends.cudnn.benchmark = True so cuDNN's fastest
engine for the shape is picked. Time: CUDA events around the replay of a
CUDA graph of 20 calls, per call, the median of 10 replays, best of two
rounds: the GPU's time, as the harness times the generated kernels and
cuDNN (20 launches back to back, Timer::batchedMedian). TFLOPS = 2 M N K / time with the harness's
M = N * Ho * Wo, N = K out channels, K = Y * X * C.

Every output element is compared with the same convolution computed in f32
(TF32 off) from the same f16 values: |got - want| <= 1e-2 max(1, |want|),
the harness's tolerance. Exit status 0 all pass, 3 a check failed.
"""

import statistics
import sys

import torch
import torch.nn.functional as F


def read_shapes(path):
    layers = []
    with open(path) as f:
        for line in f:
            v = line.split()
            if not v:
                continue
            name = v[0]
            (n, h, w, c, k, y, x, stride, pad, ho, wo, m, gn, gk) = map(
                int, v[1:15])
            layers.append(dict(name=name, n=n, h=h, w=w, c=c, k=k, y=y, x=x,
                               stride=stride, pad=pad, ho=ho, wo=wo, m=m,
                               gn=gn, gk=gk))
    return layers


def batched_median_ms(fn, warm=5, runs=10, batch=20):
    """Median milliseconds per call of `runs` replays of a CUDA graph of
    `batch` calls of fn, after `warm` eager warm-ups (cudnn.benchmark picks
    its engine there): the GPU's time per convolution without Python's
    per-call overhead, as the harness's Timer::batchedMedian times the
    generated kernels (20 launches back to back)."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(batch):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        graph.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / batch)
    return statistics.median(times)


def main(argv):
    out = argv[1] if len(argv) > 1 else "bench/conv/out"
    only = argv[2] if len(argv) > 2 else ""
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    print("| layer | M x N x K | torch conv2d ms | TFLOPS | check |")
    print("| --- | --- | --- | --- | --- |")
    ok_all = True
    gen = torch.Generator(device="cuda").manual_seed(20261127)
    seen = set()
    for l in read_shapes(out + "/shapes.txt"):
        if only and l["name"] != only:
            continue
        key = tuple(l[k] for k in ("n", "h", "w", "c", "k", "y", "x",
                                   "stride", "pad"))
        if key in seen:
            continue
        seen.add(key)
        x = torch.empty(l["n"], l["c"], l["h"], l["w"], device="cuda",
                        dtype=torch.float16).uniform_(-1, 1, generator=gen)
        w = torch.empty(l["k"], l["c"], l["y"], l["x"], device="cuda",
                        dtype=torch.float16).uniform_(-1, 1, generator=gen)
        x = x.contiguous(memory_format=torch.channels_last)
        w = w.contiguous(memory_format=torch.channels_last)

        def run():
            return F.conv2d(x, w, stride=l["stride"], padding=l["pad"])

        got = run()
        torch.cuda.synchronize()
        t = min(batched_median_ms(run) for _ in range(2))
        want = F.conv2d(x.float(), w.float(), stride=l["stride"],
                        padding=l["pad"])
        err = (got.float() - want).abs() / want.abs().clamp(min=1.0)
        bad = int((~(err <= 1e-2)).sum())
        ok_all &= bad == 0
        flops = 2.0 * l["m"] * l["gn"] * l["gk"]
        print(f"| {l['name']} | {l['m']} x {l['gn']} x {l['gk']} | {t:.4f} | "
              f"{flops / t / 1e9:.1f} | {'ok' if bad == 0 else 'FAIL'}: {bad} "
              f"of {got.numel()} bad (max rel {float(err.max()):.1e}) |",
              flush=True)
    return 0 if ok_all else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
