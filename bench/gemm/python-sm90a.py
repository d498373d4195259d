#!/usr/bin/env python3
"""The Python tile GEMMs of examples/tile_kernels.py on sm_90a, launched from
Python with their TMA tensor maps (issue 39, item 4: both launchers).

    python3 bench/gemm/python-sm90a.py build OUT   # here: the Python package
    python3 bench/gemm/python-sm90a.py run OUT     # the GPU machine

`build` compiles gemm_f16 and gemm_f16_bias_relu with `Kernel.compile
("sm_90a")` into OUT/<kernel>.sm_90a.cubin. `run` loads layout_opt.cuda from
its file (ctypes over the CUDA driver; the compiler is not needed), launches
each kernel on NumPy data copied to the GPU (`DeviceArray`), its tensor maps
encoded by `Kernel.prepare` from the kernel's exported specs, and compares
every element with NumPy (f32 products of the same f16 values; |got -
want| <= 2e-2 max(1, |want|): f16 output rounding plus the order of the
f32 sums). Shapes: rows of 16-byte multiples (the TMA loop) and odd ones
(the launcher passes zero maps and the kernel takes its register loop).
Exit status 0 when every check passes, 3 otherwise.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
KERNELS = ("gemm_f16", "gemm_f16_bias_relu")
SHAPES = ((1000, 1032, 520), (4096, 4096, 4096), (1001, 1030, 517))


def build(out):
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    import tile_kernels
    os.makedirs(out, exist_ok=True)
    for name in KERNELS:
        code = getattr(tile_kernels, name).compile("sm_90a", format="bin")
        path = os.path.join(out, name + ".sm_90a.cubin")
        with open(path, "wb") as f:
            f.write(code.binary)
        print("%s: %d bytes, %s" % (path, len(code.binary), code.resources))
    return 0


def load_cuda():
    sys.path.insert(0, os.path.join(ROOT, "bench", "python"))
    import common
    return common.source_cuda()


def run(out):
    cuda = load_cuda()
    print("device: %s (%s)" % (cuda.device_name(), cuda.chip()))
    rng = np.random.default_rng(20261127)
    ok = True
    for name in KERNELS:
        with open(os.path.join(out, name + ".sm_90a.cubin"), "rb") as f:
            kernel = cuda.Kernel(f.read(), name)
        for m, n, k in SHAPES:
            a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
            b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
            want = a.astype(np.float32) @ b.astype(np.float32)
            args_host = [a, b]
            extra = []
            if name == "gemm_f16_bias_relu":
                alpha = 0.5
                bias = rng.uniform(-1, 1, n).astype(np.float32)
                want = np.maximum(alpha * want + bias, 0)
                extra = [alpha, cuda.DeviceArray.from_host(bias)]
            da, db = (cuda.DeviceArray.from_host(x) for x in args_host)
            dc = cuda.DeviceArray((m, n), np.float16)
            args = [da, db, dc] + extra
            grid = ((n + 127) // 128, (m + 127) // 128)
            params = kernel.prepare(args)
            maps = sum(1 for _ in kernel.tensor_maps)
            kernel.launch(grid, (kernel_block(name), 1, 1), args,
                          params=params)
            cuda.synchronize()
            got = dc.to_host().astype(np.float32)
            err = np.abs(got - want) / np.maximum(1, np.abs(want))
            bad = int((~(err <= 2e-2)).sum())
            ok &= bad == 0
            ms = kernel.time(grid, (kernel_block(name), 1, 1), args)
            print("%s %dx%dx%d: %d tensor maps, %.3f ms, %.1f TFLOPS, %s "
                  "(%d of %d bad, max rel %.1e)" % (
                      name, m, n, k, maps, ms, 2.0 * m * n * k / ms / 1e9,
                      "ok" if bad == 0 else "FAIL", bad, got.size,
                      float(err.max())))
    return 0 if ok else 3


def kernel_block(name):
    # The examples' @lt.kernel(block=(256, 1, 1)) of both kernels.
    return 256


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(ROOT, "bench", "python"))
    import common
    sys.exit(common.main(sys.argv, __doc__, build, run))
