"""What bench/python's scripts share: the build step's runtime copy of the
package, and its import on the GPU machine.

The GPU machine has no MLIR, so the build step (here) compiles the kernels
and saves them (`CodeObject.save`), and copies the package's Python files
(not its compiler extension) to OUT/python/layout_opt; the run step
imports that copy, which runs saved kernels only (layout_opt.cuda.load),
exactly what a user without the compiler gets.
"""

import glob
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("LAYOUT_OPT_BUILD", os.path.join(ROOT, "build"))


def build_path():
    """Puts the built package and examples/ on sys.path (the build step)."""
    sys.path.insert(0, os.path.join(BUILD, "python"))
    sys.path.insert(0, os.path.join(ROOT, "examples"))


def copy_runtime(out):
    """Copies the built package's Python files to OUT/python/layout_opt."""
    dst = os.path.join(out, "python", "layout_opt")
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    sources = glob.glob(os.path.join(BUILD, "python", "layout_opt", "*.py"))
    if not sources:
        raise SystemExit("no built package in %s: run scripts/build.sh first"
                         % BUILD)
    for f in sources:
        shutil.copy(f, dst)
    print("copied %d Python files of the package to %s" % (len(sources), dst))


def build_cubin(out, stem, text, chip="sm_90", ftz=False):
    """The build step of a bench whose kernels are MLIR `text`: writes
    OUT/<stem>.<chip>.mlir, compiles it for `chip` (-layout-to-nvvm, with
    its ftz option where `ftz`) into OUT/<stem>.<chip>.cubin and copies the
    package's Python files."""
    build_path()
    import layout_opt as lo
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "%s.%s.mlir" % (stem, chip)), "w") as f:
        f.write(text)
    cubin = lo.compile(lo.Module.parse(text), "nvvm", chip, ftz=ftz)
    name = "%s.%s.cubin" % (stem, chip)
    with open(os.path.join(out, name), "wb") as f:
        f.write(cubin)
    print("%s: %d bytes" % (name, len(cubin)))
    copy_runtime(out)


def load_timer():
    """bench/conv/torch_conv.py's batched_median_ms: CUDA events around a
    CUDA graph of calls, the median of several replays (the one timer the
    torch-anchored benches share)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "torch_conv", os.path.join(ROOT, "bench", "conv", "torch_conv.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.batched_median_ms


def import_runtime(out):
    """layout_opt from OUT/python (no compiler extension): its cuda
    module."""
    sys.path.insert(0, os.path.join(out, "python"))
    import layout_opt
    if layout_opt._EXTENSION_ERROR is None:
        raise SystemExit("%s has the compiler extension; the run step is "
                         "meant to use the runtime copy alone" % out)
    return layout_opt.cuda


def device_banner(cuda):
    import numpy as np
    print("device: %s (%s), Python %s, NumPy %s" % (
        cuda.device_name(), cuda.chip(), sys.version.split()[0],
        np.__version__))
    for name in ("torch", "cupy", "triton"):
        try:
            module = __import__(name)
            print("  %s %s" % (name, module.__version__))
        except ImportError as e:
            print("  %s: not importable (%s)" % (name, e))


def source_cuda():
    """layout_opt.cuda straight from the source tree (python/layout_opt),
    without the package's __init__ (which needs the generated _version.py):
    for the scripts that carry no build (bench/transpose, bench/gemm)."""
    import importlib
    import types
    package = types.ModuleType("layout_opt")
    package.__path__ = [os.path.join(ROOT, "python", "layout_opt")]
    package._EXTENSION_ERROR = "not loaded: layout_opt.cuda from the sources"
    sys.modules["layout_opt"] = package
    return importlib.import_module("layout_opt.cuda")


def start_run(out, needs):
    """The run step's start: layout_opt.cuda from OUT, the device, and the
    modules `needs` (names) imported; None (after saying why) when one is
    missing."""
    cuda = import_runtime(out)
    device_banner(cuda)
    for name in needs:
        try:
            __import__(name)
        except ImportError as e:
            print("FAIL: this run needs %s: %s" % (name, e))
            return None
    return cuda


def main(argv, doc, build, run):
    """`script build OUT` or `script run OUT`; the usage (`doc`) else."""
    if len(argv) != 3 or argv[1] not in ("build", "run"):
        sys.stderr.write(doc)
        return 2
    return build(argv[2]) if argv[1] == "build" else run(argv[2])
