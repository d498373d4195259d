#!/usr/bin/env python3
"""The tile-program transpose launched from Python (issue 20) on the GPU
machine: layout_opt.cuda (ctypes over the CUDA driver, loaded from its file
alone: the package's C++ extension is not built there) loads
out/python/tiles.sm_90.cubin, which build-kernels.sh compiled through the
Python package (layout_opt.Module.parse, .run, .compile), launches
tile_transpose_f32 on NumPy arrays, checks every element against NumPy's
transpose, and times it with CUDA events as bench/common/timing.h does
(median of 20 launches after 3 warm-ups). run-device.sh runs it right
after the C++ harness, whose table has the same kernel from
out/tiles.sm_90.cubin.

    python3 bench/transpose/python-launch.py bench/transpose/out
"""

import importlib.util
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "layout_opt_cuda",
    os.path.join(here, "..", "..", "python", "layout_opt", "cuda.py"))
cuda = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cuda)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "out")
    cubin = open(os.path.join(out, "python", "tiles.sm_90.cubin"), "rb").read()
    kernel = cuda.Kernel(cubin, "tile_transpose_f32")
    print("device: %s (Python %s, NumPy %s)" % (
        cuda.device_name(), sys.version.split()[0], np.__version__))
    print()
    print("| kernel | shape | ms | GB/s | check |")
    print("| --- | --- | --- | --- | --- |")
    failed = 0
    rng = np.random.default_rng(2026)
    for rows, cols in ((8192, 8192), (8191, 8193), (37, 70)):
        a = rng.standard_normal((rows, cols), dtype=np.float32)
        b = np.full((cols, rows), -1.0, np.float32)
        da = cuda.DeviceArray.from_host(a)
        db = cuda.DeviceArray.from_host(b)
        grid = ((cols + 63) // 64, (rows + 63) // 64, 1)
        block = (32, 8, 1)
        kernel(grid, block, (da, db))
        got = db.to_host()
        bad = int(np.count_nonzero(got != a.T))
        failed += bad != 0
        ms = kernel.time(grid, block, (da, db))
        gbs = 2.0 * a.nbytes / (ms * 1e-3) / 1e9
        print("| tile_transpose_f32 (Python launch) | f32 %dx%d | %.3f | %.0f "
              "| %s |" % (rows, cols, ms, gbs,
                          "%d of %d elements right" % (a.size - bad, a.size)))
        da.free()
        db.free()
    # The same kernel through the one-call NumPy interface.
    a = rng.standard_normal((130, 66), dtype=np.float32)
    b = np.zeros((66, 130), np.float32)
    cuda.run(cubin, "tile_transpose_f32", (2, 3, 1), (32, 8, 1), (a, b))
    bad = int(np.count_nonzero(b != a.T))
    failed += bad != 0
    print("\nlayout_opt.cuda.run on NumPy arrays, f32 130x66: %d of %d "
          "elements right" % (a.size - bad, a.size))
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
