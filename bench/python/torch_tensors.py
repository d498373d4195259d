#!/usr/bin/env python3
"""layout_opt kernels on torch tensors and CuPy arrays, in place, compared
with PyTorch (issue 41, "done when"), with one CUDA graph capture and
replay.

    python3 bench/python/torch_tensors.py build bench/python/out   # here
    python3 bench/python/torch_tensors.py run bench/python/out     # GPU

`build` compiles for sm_90 the tile kernels of examples/tile_kernels.py
(the transpose, the transpose with a scaled f16 epilogue, the GEMM with
bias and relu), saves them (CodeObject.save: OUT/<kernel>.sm_90.json),
compiles examples/conv.mlir (the implicit-GEMM convolutions, one cubin:
OUT/conv.sm_90.cubin, their shapes from bench/conv/gen-conv.py in
OUT/conv.json) and copies the package's Python files to OUT/python.

`run` imports that copy (no compiler) and calls each kernel on torch
tensors and on CuPy arrays (nothing copied: the kernels read and write
the tensors' memory): tile kernels through layout_opt.cuda.load's
launchers, the convolutions through Kernel.launch. Every element is
compared with PyTorch computing the same thing in f32 from the same
values (TF32 off): the transposes exactly, the GEMM within
2e-2 max(1, |want|) (f16 output rounding and the order of the f32 sums),
the convolutions within 1e-2 max(1, |want|) (bench/conv's tolerance).
Then: a launch on a side stream after PyTorch work there (torch's current
stream), and a CUDA graph that captures a transpose and a GEMM launch
(nothing runs while capturing) and replays them on new inputs.

Exit status 0 when every check passes, 3 otherwise, 4 when torch is
missing.
"""

import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TILE_KERNELS = ("tile_transpose_f32", "tile_transpose_scale_f16",
                "gemm_f16_bias_relu")


def build(out):
    common.build_path()
    import layout_opt as lo
    import tile_kernels
    os.makedirs(out, exist_ok=True)
    for name in TILE_KERNELS:
        code = getattr(tile_kernels, name).compile("sm_90")
        code.save(os.path.join(out, name + ".sm_90.json"))
        print("%s: %d bytes, %s" % (name, len(code.binary), code.resources))
    with open(os.path.join(common.ROOT, "examples", "conv.mlir")) as f:
        cubin = lo.compile(lo.Module.parse(f.read()), "nvvm", "sm_90")
    with open(os.path.join(out, "conv.sm_90.cubin"), "wb") as f:
        f.write(cubin)
    spec = importlib.util.spec_from_file_location(
        "gen_conv", os.path.join(common.ROOT, "bench", "conv", "gen-conv.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    convs = [dict(name=c.name, n=c.n, h=c.h, w=c.w, c=c.c, k=c.k, y=c.y,
                  x=c.x, stride=list(c.stride), dilation=list(c.dilation),
                  pad=list(c.pad), ho=c.ho, wo=c.wo, tile=list(c.tile),
                  threads=c.threads, nhwc_arg=c.nhwc_arg)
             for c in gen.EXAMPLES]
    with open(os.path.join(out, "conv.json"), "w") as f:
        json.dump(convs, f, indent=1)
    print("conv.sm_90.cubin: %d bytes, %d kernels" % (len(cubin), len(convs)))
    common.copy_runtime(out)
    return 0


class Report:
    """The table's rows; `ok` until a check fails."""

    def __init__(self):
        self.ok = True
        print("| kernel | arrays | shape | max error | check |")
        print("| --- | --- | --- | ---: | --- |")

    def check(self, kernel, arrays, shape, got, want, tol):
        """Compares torch tensors `got` and `want` (f32): |got - want| <=
        tol * max(1, |want|) everywhere (tol 0: equal)."""
        import torch
        got, want = got.float(), want.float()
        err = (got - want).abs()
        bound = tol * torch.clamp(want.abs(), min=1)
        bad = int((~(err <= bound)).sum())
        self.ok &= bad == 0
        print("| %s | %s | %s | %.2e | %s |" % (
            kernel, arrays, shape, float(err.max()) if err.numel() else 0.0,
            "ok" if bad == 0 else "FAIL (%d of %d)" % (bad, got.numel())))


def as_library(library, tensor):
    """`tensor`'s values in a new array of `library` ("torch" or "cupy"),
    and a torch view of that array's memory (to compare with)."""
    import torch
    if library == "torch":
        t = tensor.clone()
        return t, t
    import cupy
    c = cupy.asarray(tensor).copy()
    return c, torch.as_tensor(c, device="cuda")


def tile_checks(cuda, out, report, library):
    import torch
    load = {n: cuda.load(os.path.join(out, n + ".sm_90.json"))
            for n in TILE_KERNELS}
    gen = torch.Generator(device="cuda").manual_seed(41)
    for m, n in ((1000, 1030), (37, 70)):
        x = torch.randn(m, n, device="cuda", generator=gen)
        a, a_t = as_library(library, x)
        b, b_t = as_library(library, torch.full((n, m), -1.0, device="cuda"))
        load["tile_transpose_f32"](a, b)
        torch.cuda.synchronize()
        report.check("tile_transpose_f32", library, (m, n), b_t, x.T, 0)
        h, h_t = as_library(library, torch.zeros((n, m), dtype=torch.float16,
                                                  device="cuda"))
        load["tile_transpose_scale_f16"](a, h, 0.5)
        torch.cuda.synchronize()
        report.check("tile_transpose_scale_f16", library, (m, n), h_t,
                     (x.T * 0.5).half(), 0)
    for m, n, k in ((1000, 1032, 520), (1001, 1030, 517),
                    (4096, 4096, 4096)):
        a0 = torch.rand(m, k, device="cuda", generator=gen).half() * 2 - 1
        b0 = torch.rand(k, n, device="cuda", generator=gen).half() * 2 - 1
        bias0 = torch.rand(n, device="cuda", generator=gen) * 2 - 1
        a, _ = as_library(library, a0)
        b, _ = as_library(library, b0)
        bias, _ = as_library(library, bias0)
        c, c_t = as_library(library, torch.zeros((m, n), dtype=torch.float16,
                                                  device="cuda"))
        load["gemm_f16_bias_relu"](a, b, c, 0.5, bias)
        torch.cuda.synchronize()
        want = torch.relu(0.5 * (a0.float() @ b0.float()) + bias0)
        report.check("gemm_f16_bias_relu", library, (m, n, k), c_t, want,
                     2e-2)


def conv_checks(cuda, out, report, library):
    import torch
    import torch.nn.functional as F
    with open(os.path.join(out, "conv.sm_90.cubin"), "rb") as f:
        cubin = f.read()
    with open(os.path.join(out, "conv.json")) as f:
        convs = json.load(f)
    gen = torch.Generator(device="cuda").manual_seed(39)
    for cv in convs:
        kernel = cuda.Kernel(cubin, cv["name"])
        nhwc = torch.rand(cv["n"], cv["h"], cv["w"], cv["c"], device="cuda",
                          generator=gen).half() * 2 - 1
        kyxc = torch.rand(cv["k"], cv["y"], cv["x"], cv["c"], device="cuda",
                          generator=gen).half() * 2 - 1
        m = cv["n"] * cv["ho"] * cv["wo"]
        # The kernel's input: the NHWC memref, or it collapsed to 1-D.
        x, _ = as_library(library, nhwc if cv["nhwc_arg"]
                          else nhwc.reshape(-1))
        w, _ = as_library(library, kyxc.reshape(cv["k"], -1))
        o, o_t = as_library(library, torch.zeros(
            (m, cv["k"]), dtype=torch.float16, device="cuda"))
        bm, bn = cv["tile"][0], cv["tile"][1]
        grid = (-(-cv["k"] // bn), -(-m // bm), 1)
        kernel.launch(grid, (cv["threads"], 1, 1), [x, w, o],
                      shared=kernel.dynamic_shared_bytes)
        torch.cuda.synchronize()
        top, bottom, left, right = cv["pad"]
        padded = F.pad(nhwc.permute(0, 3, 1, 2).float(),
                       (left, right, top, bottom))
        want = F.conv2d(padded, kyxc.permute(0, 3, 1, 2).float(),
                        stride=cv["stride"], dilation=cv["dilation"])
        want = want.permute(0, 2, 3, 1).reshape(m, cv["k"])
        report.check(cv["name"], library, "N%d %dx%dx%d -> %d" % (
            cv["n"], cv["h"], cv["w"], cv["c"], cv["k"]), o_t, want, 1e-2)


def stream_and_graph_checks(cuda, out, report):
    import torch
    transpose = cuda.load(os.path.join(out, "tile_transpose_f32.sm_90.json"))
    gemm = cuda.load(os.path.join(out, "gemm_f16_bias_relu.sm_90.json"))
    # Torch's current stream: the launch orders after PyTorch's work there.
    x = torch.randn(512, 300, device="cuda")
    y = torch.full((300, 512), -1.0, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        x2 = x * 2 + 1
        transpose(x2, y)
    side.synchronize()
    report.check("tile_transpose_f32, side stream", "torch", (512, 300), y,
                 (x * 2 + 1).T, 0)
    # A CUDA graph: captured on torch's capture stream, replayed on new
    # values; nothing runs while capturing.
    a0 = torch.rand(256, 192, device="cuda").half() - 0.5
    b0 = torch.rand(192, 384, device="cuda").half() - 0.5
    bias = torch.rand(384, device="cuda") - 0.5
    c = torch.zeros(256, 384, dtype=torch.float16, device="cuda")
    gx = torch.randn(200, 130, device="cuda")
    gy = torch.zeros(130, 200, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):          # warm up (loads the modules)
        transpose(gx, gy)
        gemm(a0, b0, c, 0.5, bias)
    torch.cuda.synchronize()
    gy.fill_(-1)
    c.fill_(-1)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        transpose(gx, gy)
        gemm(a0, b0, c, 0.5, bias)
    torch.cuda.synchronize()
    untouched = bool((gy == -1).all()) and bool((c == -1).all())
    print("| captured launches ran while capturing? | torch | | | %s |"
          % ("ok (no)" if untouched else "FAIL (yes)"))
    report.ok &= untouched
    for step in range(2):
        gx.copy_(torch.randn(200, 130, device="cuda"))
        a0.copy_(torch.rand(256, 192, device="cuda").half() - 0.5)
        graph.replay()
        torch.cuda.synchronize()
        report.check("graph replay %d: tile_transpose_f32" % step, "torch",
                     (200, 130), gy, gx.T, 0)
        want = torch.relu(0.5 * (a0.float() @ b0.float()) + bias)
        report.check("graph replay %d: gemm_f16_bias_relu" % step, "torch",
                     (256, 384, 192), c, want, 2e-2)


def run(out):
    cuda = common.start_run(out, ("torch",))
    if cuda is None:
        return 4
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    libraries = ["torch"]
    try:
        import cupy  # noqa: F401
        libraries.append("cupy")
    except ImportError as e:
        print("FAIL: CuPy is not importable (%s): its rows are missing" % e)
    print()
    report = Report()
    for library in libraries:
        tile_checks(cuda, out, report, library)
        conv_checks(cuda, out, report, library)
    stream_and_graph_checks(cuda, out, report)
    ok = report.ok and len(libraries) == 2
    print()
    print("all checks passed" if ok else "FAIL: a check failed (see above)")
    return 0 if ok else 3


if __name__ == "__main__":
    sys.exit(common.main(sys.argv, __doc__, build, run))
