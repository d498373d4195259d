"""The compile cache and saved code objects (issue 41, item 3): a second
process compiles nothing, and a saved kernel loads and launches where the
compiler extension cannot be imported (both in subprocesses, as a user
meets them)."""

import os
import shutil
import subprocess
import sys
import warnings

import pytest

import layout_opt as lo
from layout_opt import _code, cuda
from layout_opt import tile as lt

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
PACKAGE = os.path.dirname(os.path.dirname(lo.__file__))
PTXAS = shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas")


def python(script, cache, *args):
    """Runs `script` in a new Python (the package of this test on its
    path, `cache` as the compile cache) and returns its stdout."""
    env = dict(os.environ, LAYOUT_OPT_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([PACKAGE, HERE,
                                           os.path.join(ROOT, "examples")]))
    done = subprocess.run([sys.executable, "-c", script] + list(args),
                          env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


COUNT_COMPILES = """
import hashlib, sys
from layout_opt import tile as lt
import tile_kernels
calls = []
real = lt._compile_module
def counting(*args):
    calls.append(args[1:])
    return real(*args)
lt._compile_module = counting
code = tile_kernels.tile_transpose_f32.compile(sys.argv[1])
print(len(calls), hashlib.sha256(code.binary).hexdigest(), code.resources)
"""


def test_a_second_process_compiles_nothing(tmp_path):
    first = python(COUNT_COMPILES, tmp_path, "gfx942").split(" ", 2)
    second = python(COUNT_COMPILES, tmp_path, "gfx942").split(" ", 2)
    assert first[0] == "1" and second[0] == "0"
    assert first[1:] == second[1:]          # the same binary and resources
    assert "'lds_bytes': 18720" in second[2]
    assert len(os.listdir(tmp_path)) == 1
    # Another chip is another entry, compiled.
    assert python(COUNT_COMPILES, tmp_path, "gfx90a").startswith("1 ")
    assert len(os.listdir(tmp_path)) == 2


def transpose_kernel(scale=None, grid="inp"):
    """A fresh Kernel object (nothing in memory), the transpose or a
    scaled one (other IR)."""
    @lt.kernel(block=(32, 8, 1), grid=grid)
    def cached_transpose(inp: lt.Partition("f32", tile=(64, 64)),
                         out: lt.Partition("f32", tile=(64, 64))):
        bx, by = lt.block_id("x"), lt.block_id("y")
        t = inp[by, bx].T
        out[bx, by] = t if scale is None else t * scale
    return cached_transpose


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    monkeypatch.setenv("LAYOUT_OPT_CACHE_DIR", str(tmp_path / "cache"))
    calls = []
    real = lt._compile_module

    def counting(module, target, chip, format):
        calls.append(chip)
        return real(module, target, chip, format)
    monkeypatch.setattr(lt, "_compile_module", counting)
    return calls


def test_what_the_cache_is_keyed_by(compiles, monkeypatch, tmp_path):
    a = transpose_kernel().compile("gfx942")
    b = transpose_kernel().compile("gfx942")
    assert compiles == ["gfx942"] and a.binary == b.binary
    assert b.signature == transpose_kernel().signature()
    transpose_kernel().compile("gfx942", format="isa")
    transpose_kernel(2.0).compile("gfx942")            # other IR
    assert compiles == ["gfx942"] * 3
    # The same IR launched on the grid of `out`: another signature, so
    # another entry (its launches must not take the grid of `inp`).
    by_out = transpose_kernel(grid="out")
    assert by_out.ir == transpose_kernel().ir
    assert by_out.compile("gfx942").signature.grid_from == "out"
    assert compiles == ["gfx942"] * 4
    monkeypatch.setattr(_code, "_package_version", lambda: "99.0.0")
    transpose_kernel().compile("gfx942")
    assert compiles == ["gfx942"] * 5
    # An empty LAYOUT_OPT_CACHE_DIR turns the cache off.
    monkeypatch.setenv("LAYOUT_OPT_CACHE_DIR", "")
    transpose_kernel().compile("gfx942")
    transpose_kernel().compile("gfx942")
    assert compiles == ["gfx942"] * 7


def test_a_broken_entry_is_compiled_again_with_a_warning(compiles, tmp_path):
    good = transpose_kernel().compile("gfx942")
    [entry] = os.listdir(tmp_path / "cache")
    (tmp_path / "cache" / entry).write_text('{"format": "layout_opt co')
    with pytest.warns(UserWarning, match="does not read back"):
        again = transpose_kernel().compile("gfx942")
    assert again.binary == good.binary and len(compiles) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        transpose_kernel().compile("gfx942")      # repaired: no warning
    assert len(compiles) == 2


def test_default_directory(monkeypatch):
    monkeypatch.delenv("LAYOUT_OPT_CACHE_DIR")
    monkeypatch.setenv("HOME", "/home/someone")
    assert _code.cache_dir() == "/home/someone/.cache/layout_opt"


def test_saved_code_objects_read_back(tmp_path):
    code = transpose_kernel().compile("gfx942")
    path = code.save(str(tmp_path / "k.json"))
    back = _code.load_code_object(path)
    assert (back.binary, back.target, back.chip, back.kernel, back.format,
            back.resources) == (code.binary, "rocdl", "gfx942",
                                "cached_transpose", "bin", code.resources)
    assert back.signature == code.signature
    # Only NVIDIA cubins launch from layout_opt.cuda.
    with pytest.raises(ValueError, match="'cached_transpose' is a gfx942 "
                       "code object; layout_opt.cuda launches NVIDIA cubins "
                       "and PTX"):
        cuda.load(path)
    (tmp_path / "bad.json").write_text("[]")
    with pytest.raises(ValueError, match="bad.json is not a saved code "
                       "object"):
        cuda.load(str(tmp_path / "bad.json"))
    text = code.to_json().replace('"version": 1', '"version": 7')
    (tmp_path / "v7.json").write_text(text)
    with pytest.raises(ValueError, match="format version 7; this layout_opt "
                       "reads version 1"):
        cuda.load(str(tmp_path / "v7.json"))


RUNTIME_ONLY = """
import sys

class NoCompiler:
    '''Refuses the compiler extension, as where its libraries are missing.'''
    def find_spec(self, name, path=None, target=None):
        if name == "layout_opt._layout_opt":
            raise ImportError("blocked for the test: no LLVM here")
        return None

sys.meta_path.insert(0, NoCompiler())
import numpy as np
import layout_opt as lo
import fake_cuda
assert lo.__all__ == ["cuda"], lo.__all__
try:
    lo.tile
except AttributeError as e:
    print("refused:", e)
from layout_opt import cuda

class Patch:
    def setattr(self, obj, name, value):
        setattr(obj, name, value)
driver = fake_cuda.install(Patch(), cuda)
launch = cuda.load(sys.argv[1])
a = np.arange(70 * 130, dtype=np.float32).reshape(70, 130)
b = np.zeros((130, 70), np.float32)
driver.register(a), driver.register(b)
launch(fake_cuda.HostCAI(a), fake_cuda.HostCAI(b))
assert (b == a.T).all()
name, grid, block, shared, stream, slots = driver.launches[0]
print(name, grid, block, driver.loaded[0][:4])
print(sorted(m for m in sys.modules if m.startswith("layout_opt")))
"""




def test_a_saved_kernel_launches_without_the_compiler_extension(tmp_path):
    """The code object saved here (a real sm_90 cubin where ptxas is,
    else a stand-in binary with the kernel's real signature) loads in a
    Python that cannot import the extension, and launches on the fake
    driver with every element right."""
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    try:
        import tile_kernels
    finally:
        sys.path.pop(0)
    kernel = tile_kernels.tile_transpose_f32
    if PTXAS:
        code = kernel.compile("sm_90")
    else:
        import fake_cuda
        code = _code.CodeObject(fake_cuda.BINARY, "nvvm", "sm_90",
                                kernel.name, {}, kernel.signature())
    path = code.save(str(tmp_path / "transpose.sm_90.json"))
    out = python(RUNTIME_ONLY, tmp_path / "cache", path).splitlines()
    assert out[0].startswith("refused: layout_opt.tile needs the compiler "
                             "extension, which cannot be imported here "
                             "(ImportError: blocked for the test")
    assert out[1] == "tile_transpose_f32 (3, 2, 1) (32, 8, 1) %r" % (
        code.binary[:4],)
    # Nothing of the compiler was imported.
    assert out[2] == str(["layout_opt", "layout_opt._arrays",
                          "layout_opt._code", "layout_opt._device_array",
                          "layout_opt._launch", "layout_opt._version",
                          "layout_opt.cuda"])
