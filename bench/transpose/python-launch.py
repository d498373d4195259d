#!/usr/bin/env python3
"""The tile-program transpose launched from Python (issue 20) on the GPU
machine: layout_opt.cuda (ctypes over the CUDA driver, loaded from the
sources: the package's C++ extension is not built there) loads
out/python/tiles.sm_90.cubin, which build-kernels.sh compiled through the
Python package (layout_opt.Module.parse, .run, .compile), launches
tile_transpose_f32 on NumPy arrays, checks every element against NumPy's
transpose, and times it with CUDA events as bench/common/timing.h does
(median of 20 launches after 3 warm-ups). run-device.sh runs it right
after the C++ harness, whose table has the same kernel from
out/tiles.sm_90.cubin.

Then the kernels written as Python functions (examples/tile_kernels.py,
layout_opt.tile; out/python/decorated/, compiled by build-kernels.sh): the
transpose against the same kernel compiled from examples/ by layout-opt,
both launched here in the same run; the fused-epilogue transpose; the GEMMs
against a NumPy reference, and the grouped GEMM timed against
examples/matmul.mlir's through layout-opt (out/matmul.sm_90.cubin). The
registers and shared memory the driver reports must equal what
layout_opt.code_object_resources read from each cubin (resources.json).

    python3 bench/transpose/python-launch.py bench/transpose/out
"""

import json
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
import common  # noqa: E402

cuda = common.source_cuda()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "out")
    cubin = open(os.path.join(out, "python", "tiles.sm_90.cubin"), "rb").read()
    kernel = cuda.Kernel(cubin, "tile_transpose_f32")
    print("device: %s, %s (Python %s, NumPy %s)" % (
        cuda.device_name(), cuda.chip(), sys.version.split()[0],
        np.__version__))
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
    failed += decorated(out, rng)
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


def grid_of(shape, tile):
    """One block per tile of `shape`, the last dimension on x."""
    counts = [-(-n // t) for n, t in zip(shape, tile)][::-1]
    return tuple(counts) + (1,) * (3 - len(counts))


def decorated(out, rng):
    """The kernels of examples/tile_kernels.py; the number of failures."""
    here_ = os.path.join(out, "python", "decorated")
    resources = json.load(open(os.path.join(here_, "resources.json")))
    failed = 0
    print("\n## Kernels written as Python functions (layout_opt.tile)\n")
    print("| cubin | kernel | driver registers / shared bytes | read from "
          "the cubin |")
    print("| --- | --- | --- | --- |")
    kernels = {}
    for cubin_name in sorted(resources):
        cubin = open(os.path.join(out, cubin_name), "rb").read()
        for name in sorted(resources[cubin_name]):
            k = cuda.Kernel(cubin, name)
            if cubin_name.startswith("python/decorated/"):
                kernels[name] = k
            read = resources[cubin_name][name]
            driver = {"registers": k.registers(),
                      "shared_bytes": k.shared_bytes()}
            same = driver == read
            failed += not same
            print("| %s | %s | %d / %d | %d / %d%s |" % (
                cubin_name, name, driver["registers"],
                driver["shared_bytes"], read["registers"],
                read["shared_bytes"], "" if same else " (DIFFERENT)"))

    # The transpose: the Python function's kernel and the one compiled
    # from examples/transpose-tiles.mlir by layout-opt, same launches.
    cpp = cuda.Kernel(open(os.path.join(out, "tiles.sm_90.cubin"),
                           "rb").read(), "tile_transpose_f32")
    print("\n| kernel | shape | ms | GB/s | check |")
    print("| --- | --- | --- | --- | --- |")
    for rows, cols in ((8192, 8192), (8191, 8193), (37, 70)):
        a = rng.standard_normal((rows, cols), dtype=np.float32)
        b = np.full((cols, rows), -1.0, np.float32)
        da = cuda.DeviceArray.from_host(a)
        grid, block = grid_of(a.shape, (64, 64)), (32, 8, 1)
        pair = (("Python function", kernels["tile_transpose_f32"]),
                ("examples/ via layout-opt", cpp))
        checks, times = {}, {}
        for label, k in pair:
            db = cuda.DeviceArray.from_host(b)
            k(grid, block, (da, db))
            bad = int(np.count_nonzero(db.to_host() != a.T))
            failed += bad != 0
            checks[label] = "%d of %d elements right" % (a.size - bad, a.size)
            db.free()
        # Timed in the order A B B A, each the mean of its two medians, so
        # neither kernel always runs first.
        db = cuda.DeviceArray.from_host(b)
        for label, k in pair + pair[::-1]:
            times.setdefault(label, []).append(
                k.time(grid, block, (da, db)))
        db.free()
        for label, _ in pair:
            ms = sum(times[label]) / 2
            print("| tile_transpose_f32 (%s) | f32 %dx%d | %.3f | %.0f | %s |"
                  % (label, rows, cols, ms, 2.0 * a.nbytes / (ms * 1e-3) / 1e9,
                     checks[label]))
        da.free()

    # The fused epilogue: out = f16(in^T * alpha), exact in IEEE arithmetic.
    a = rng.standard_normal((1000, 777), dtype=np.float32)
    b = np.zeros((777, 1000), np.float16)
    alpha = 0.37
    cuda.run(open(os.path.join(here_, "tile_transpose_scale_f16.sm_90.cubin"),
                  "rb").read(), "tile_transpose_scale_f16",
             grid_of(a.shape, (64, 64)), (32, 8, 1), (a, b, alpha))
    want = (a.T * np.float32(alpha)).astype(np.float16)
    bad = int(np.count_nonzero(b != want))
    failed += bad != 0
    print("\ntile_transpose_scale_f16, f32 1000x777 -> f16: %d of %d elements "
          "equal to NumPy's f16(a.T * alpha)" % (b.size - bad, b.size))

    # The GEMMs against NumPy (f16 inputs, f64 reference), edges masked.
    m, n, k_ = 1000, 1100, 520
    A = (rng.random((m, k_)) * 2 - 1).astype(np.float16)
    B = (rng.random((k_, n)) * 2 - 1).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    for name, extra, want in (
            ("gemm_f16_t128_g8", (), ref),
            ("gemm_f16_bias_relu", (0.5, bias),
             np.maximum(0.5 * ref + bias, 0.0))):
        C = np.full((m, n), np.nan, np.float16)
        block = (128, 1, 1) if name.endswith("g8") else (256, 1, 1)
        cuda.run(open(os.path.join(here_, name + ".sm_90.cubin"), "rb").read(),
                 name, grid_of((m, n), (128, 128)), block, (A, B, C) + extra)
        err = np.abs(C.astype(np.float64) - want)
        bad = int(np.count_nonzero(~(err <= 2e-3 + 2e-3 * np.abs(want))))
        failed += bad != 0
        print("%s, %dx%dx%d: %d of %d elements within 2e-3 (relative and "
              "absolute) of NumPy's, max error %.2e" % (
                  name, m, n, k_, C.size - bad, C.size, float(np.nanmax(err))))

    # The grouped GEMM at 4096^3: the Python function's kernel and
    # examples/matmul.mlir's through layout-opt, same launches.
    size = 4096
    A = (rng.random((size, size)) * 2 - 1).astype(np.float16)
    B = (rng.random((size, size)) * 2 - 1).astype(np.float16)
    C = np.zeros((size, size), np.float16)
    dA, dB, dC = (cuda.DeviceArray.from_host(x) for x in (A, B, C))
    cpp_gemm = cuda.Kernel(open(os.path.join(out, "matmul.sm_90.cubin"),
                                "rb").read(), "gemm_f16_t128_g8")
    print("\n| kernel | shape | ms | TFLOPS |")
    print("| --- | --- | --- | --- |")
    results = []
    for label, k in (("Python function", kernels["gemm_f16_t128_g8"]),
                     ("examples/ via layout-opt", cpp_gemm)):
        grid = grid_of((size, size), (128, 128))
        k(grid, (128, 1, 1), (dA, dB, dC))
        results.append(dC.to_host())
        ms = k.time(grid, (128, 1, 1), (dA, dB, dC))
        print("| gemm_f16_t128_g8 (%s) | f16 %d^3 | %.3f | %.0f |"
              % (label, size, ms, 2.0 * size ** 3 / (ms * 1e-3) / 1e12))
    same = bool(np.array_equal(results[0], results[1]))
    failed += not same
    print("\nthe two 4096^3 results are %s" % (
        "bitwise equal" if same else "DIFFERENT"))
    for x in (dA, dB, dC):
        x.free()
    return failed


if __name__ == "__main__":
    sys.exit(main())
