"""layout_opt's tile GEMMs as PyTorch operators (issue 41, item 5).

`register(launchers)` registers two custom operators with torch.library,
so eager PyTorch, autograd-free inference code and `torch.compile` call
them like any aten operator:

    layout_opt::gemm(Tensor a, Tensor b) -> Tensor
        f16(a @ b) for 2-D f16 CUDA tensors (examples/tile_kernels.py's
        gemm_f16), f32 accumulation;
    layout_opt::gemm_bias_relu(Tensor a, Tensor b, Tensor bias, float alpha)
        -> Tensor
        f16(relu(alpha * a @ b + bias)), bias a row of N f32 values
        (gemm_f16_bias_relu).

Each launches the tile kernel on the tensors in place, on torch's current
stream (layout_opt.cuda.Launcher), after checking them; each has a fake
(meta) implementation giving the output's shape and dtype, which
torch.compile traces with. `TileLinear` is an nn.Module over the first.
(The attention kernel joins them once layout_opt has one.)

The launchers come from the compiler (`launchers_from_kernels()`: compiles
examples/tile_kernels.py for the GPU's chip, or reads the compile cache)
or from saved code objects (`launchers_from_dir(path)`: what
`python3 examples/torch_ops.py build OUT` writes here, for a machine
without the compiler):

    python3 examples/torch_ops.py build bench/python/out   # here
    python3 examples/torch_ops.py run bench/python/out     # the GPU machine

(`run` imports layout_opt from OUT/python, the package's Python files that
bench/python's build steps copy there, or from an installed wheel.)

`run` compares both operators with torch.matmul in f32 (TF32 off), eager
and under torch.compile; exit status 0 when every element is within
2e-2 max(1, |want|), 3 otherwise.

This file imports without PyTorch (register() then raises ImportError).
"""

import os
import sys

try:
    import torch
except ImportError:  # the examples are imported by tests that have no torch
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = {"gemm": "gemm_f16", "gemm_bias_relu": "gemm_f16_bias_relu"}


def _need_torch():
    if torch is None:
        raise ImportError("examples/torch_ops.py registers PyTorch operators "
                          "and needs PyTorch (import torch failed)")


def launchers_from_kernels(chip=None):
    """{operator: Launcher} compiled from examples/tile_kernels.py for
    `chip` (default: the GPU's), through the compile cache."""
    from layout_opt import cuda
    sys.path.insert(0, HERE)
    import tile_kernels
    chip = chip or cuda.chip()
    return {op: cuda.Launcher(getattr(tile_kernels, name).compile(chip))
            for op, name in KERNELS.items()}


def launchers_from_dir(path, chip="sm_90"):
    """{operator: Launcher} of the code objects `build` saved in `path`."""
    from layout_opt import cuda
    return {op: cuda.load(os.path.join(path, "%s.%s.json" % (name, chip)))
            for op, name in KERNELS.items()}


def register(launchers, namespace="layout_opt"):
    """Registers the operators `namespace`::gemm and ::gemm_bias_relu,
    launching `launchers` (launchers_from_kernels or _from_dir); returns
    them (torch.ops.<namespace>.gemm, ...)."""
    _need_torch()
    lib = torch.library

    @lib.custom_op(namespace + "::gemm", mutates_args=())
    def gemm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        c = a.new_empty((a.shape[0], b.shape[1]))
        launchers["gemm"](a, b, c)
        return c

    @gemm.register_fake
    def _(a, b):
        return a.new_empty((a.shape[0], b.shape[1]))

    @lib.custom_op(namespace + "::gemm_bias_relu", mutates_args=())
    def gemm_bias_relu(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor,
                       alpha: float) -> torch.Tensor:
        c = a.new_empty((a.shape[0], b.shape[1]))
        launchers["gemm_bias_relu"](a, b, c, alpha, bias)
        return c

    @gemm_bias_relu.register_fake
    def _(a, b, bias, alpha):
        return a.new_empty((a.shape[0], b.shape[1]))

    return gemm, gemm_bias_relu


def tile_linear(namespace="layout_opt"):
    """An nn.Module class: y = relu(alpha * x @ weight + bias) in f16, by
    the registered `namespace`::gemm_bias_relu (weight: in x out)."""
    _need_torch()
    op = getattr(torch.ops, namespace).gemm_bias_relu

    class TileLinear(torch.nn.Module):
        def __init__(self, weight, bias, alpha=1.0):
            super().__init__()
            self.weight = torch.nn.Parameter(weight, requires_grad=False)
            self.bias = torch.nn.Parameter(bias, requires_grad=False)
            self.alpha = float(alpha)

        def forward(self, x):
            return op(x, self.weight, self.bias, self.alpha)

    return TileLinear


def build(out):
    sys.path.insert(0, HERE)
    import tile_kernels
    os.makedirs(out, exist_ok=True)
    for name in KERNELS.values():
        path = getattr(tile_kernels, name).compile("sm_90").save(
            os.path.join(out, name + ".sm_90.json"))
        print(path)
    return 0


def check(name, got, want):
    err = (got.float() - want).abs()
    bad = int((~(err <= 2e-2 * want.abs().clamp(min=1))).sum())
    print("%-40s max error %.2e  %s" % (name, float(err.max()),
                                        "ok" if bad == 0 else "FAIL (%d)" % bad))
    return bad == 0


def run(out):
    _need_torch()
    torch.backends.cuda.matmul.allow_tf32 = False
    gemm, gemm_bias_relu = register(launchers_from_dir(out))
    ok = True
    for m, n, k in ((1000, 1032, 520), (256, 384, 192)):
        a = torch.rand(m, k, device="cuda").half() - 0.5
        b = torch.rand(k, n, device="cuda").half() - 0.5
        bias = torch.rand(n, device="cuda") - 0.5
        want = a.float() @ b.float()
        ok &= check("gemm %dx%dx%d" % (m, n, k), gemm(a, b), want)
        relu = torch.relu(0.5 * want + bias)
        ok &= check("gemm_bias_relu %dx%dx%d" % (m, n, k),
                    torch.ops.layout_opt.gemm_bias_relu(a, b, bias, 0.5),
                    relu)
        layer = tile_linear()(b, bias, 0.5).cuda()
        compiled = torch.compile(layer, fullgraph=True)
        ok &= check("TileLinear under torch.compile %dx%dx%d" % (m, n, k),
                    compiled(a), relu)
    print("all checks passed" if ok else "FAIL: a check failed")
    return 0 if ok else 3


def main(argv):
    if len(argv) != 3 or argv[1] not in ("build", "run"):
        sys.stderr.write(__doc__)
        return 2
    if argv[1] == "build":
        return build(argv[2])
    # The GPU machine: the package's Python files from the build step's
    # copy (bench/python/common.py), or an installed layout_opt.
    sys.path.insert(0, os.path.join(argv[2], "python"))
    return run(argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
