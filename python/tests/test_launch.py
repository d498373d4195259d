"""Launches on device arrays without a GPU (issue 41): torch tensors, CUDA
Array Interface and DLPack objects over host memory, launched through a
fake driver that runs the kernel's arithmetic on the memref descriptors
the launcher passed (fake_cuda.py). Every launch's result is compared with
NumPy; every refused argument is refused before anything is launched,
with a message naming it, what was wanted and what came."""

import importlib.util
import os
import re

import numpy as np
import pytest

import layout_opt as lo
from layout_opt import _launch, cuda
from layout_opt import tile as lt

import fake_cuda

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load_examples():
    spec = importlib.util.spec_from_file_location(
        "tile_kernels", os.path.join(ROOT, "examples", "tile_kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kernels = load_examples()
RNG = np.random.default_rng(41)


def launcher(kernel):
    """A Launcher of `kernel` whose binary the fake driver accepts."""
    return cuda.Launcher(lo.tile.CodeObject(
        fake_cuda.BINARY, "nvvm", "sm_90", kernel.name, {},
        kernel.signature()))


@pytest.fixture
def driver(monkeypatch):
    return fake_cuda.install(monkeypatch, cuda)


def transpose_arrays(driver, m=70, n=130):
    a = RNG.standard_normal((m, n)).astype(np.float32)
    b = np.full((n, m), -1, np.float32)
    driver.register(a), driver.register(b)
    return a, b


def test_cuda_array_interface_arrays_are_used_in_place(driver):
    a, b = transpose_arrays(driver)
    launcher(kernels.tile_transpose_f32)(fake_cuda.HostCAI(a),
                                         fake_cuda.HostCAI(b))
    assert (b == a.T).all()
    [(name, grid, block, shared, stream, slots)] = driver.launches
    # 70 x 130 in 64 x 64 tiles: 2 x 3, the last dimension on x.
    assert (name, grid, block, stream) == ("tile_transpose_f32", (3, 2, 1),
                                           (32, 8, 1), 0)
    # The memref descriptors point at the arrays themselves: no copies.
    assert slots[:7] == [a.ctypes.data, a.ctypes.data, 0, 70, 130, 130, 1]
    assert slots[7:] == [b.ctypes.data, b.ctypes.data, 0, 130, 70, 70, 1]
    assert not [c for c in driver.calls if c[0] == "sync"]


def test_omitted_strides_and_older_versions(driver):
    a, b = transpose_arrays(driver, 33, 5)
    launcher(kernels.tile_transpose_f32)(
        fake_cuda.HostCAI(a, strides="none", version=2),
        fake_cuda.HostCAI(b, strides="none", version=0))
    assert (b == a.T).all()


def test_each_signature_is_marshalled_once(driver, monkeypatch):
    made = []
    real = _launch.Packer

    def counting(*args):
        made.append(args)
        return real(*args)
    monkeypatch.setattr(_launch, "Packer", counting)
    run = launcher(kernels.tile_transpose_f32)
    for m, n in ((70, 130), (64, 64), (5, 300)):
        a, b = transpose_arrays(driver, m, n)
        run(fake_cuda.HostCAI(a), fake_cuda.HostCAI(b))
        assert (b == a.T).all()
    assert len(made) == 1 and len(run.kernel._packers) == 1


def test_a_scalar_and_a_gemm_epilogue(driver):
    m, n, k = 40, 48, 24
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float16)
    b = RNG.uniform(-1, 1, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    bias = RNG.uniform(-1, 1, n).astype(np.float32)
    for x in (a, b, c, bias):
        driver.register(x)
    launcher(kernels.gemm_f16_bias_relu)(
        fake_cuda.HostCAI(a), fake_cuda.HostCAI(b), fake_cuda.HostCAI(c),
        0.5, fake_cuda.HostCAI(bias))
    want = np.maximum(0.5 * (a.astype(np.float32) @ b.astype(np.float32))
                      + bias, 0)
    assert np.abs(c.astype(np.float32) - want).max() < 2e-2
    assert c.max() > 0


def refused(driver, error, pattern, *args, kernel=None):
    """The launch raises `error` matching `pattern`, and nothing was
    launched."""
    with pytest.raises(error, match=pattern):
        launcher(kernel or kernels.tile_transpose_f32)(*args)
    assert driver.launches == []


def test_arguments_are_checked_before_the_launch(driver):
    a, b = transpose_arrays(driver)
    cai = fake_cuda.HostCAI
    wide = b.astype(np.float64)
    driver.register(wide)
    refused(driver, TypeError, re.escape(
        "parameter 'out' takes a 2-D float32 array, got a 2-D float64 array "
        "of shape (130, 70) (fake_cuda.HostCAI)"), cai(a), cai(wide))
    flat = a.reshape(-1)
    refused(driver, TypeError, re.escape(
        "parameter 'inp' takes a 2-D float32 array, got a 1-D float32 array "
        "of shape (9100,)"), cai(flat), cai(b))
    refused(driver, TypeError, re.escape(
        "parameter 'inp' takes a 2-D float32 array, got 3 (int)"), 3, cai(b))
    refused(driver, TypeError, "takes 2 arguments, got 1", cai(a))
    # A transposed view: the right shape, strides (1, 130).
    refused(driver, ValueError, re.escape(
        "parameter 'out' takes a C-contiguous array (strides (70, 1) in "
        "elements), got strides (1, 130): make it contiguous first"),
        cai(a), cai(a.T))
    # Strides that are not whole elements.
    refused(driver, ValueError, "stride of 6 bytes, not a whole number of "
            "4-byte elements", cai(a), cai(b, strides=(6, 4)))
    refused(driver, ValueError, "typestr '>f4' is big-endian",
            cai(a), cai(b, typestr=">f4"))
    refused(driver, ValueError, "stream 0, which the protocol",
            cai(a, stream=0), cai(b))


def test_device_memory_is_checked_with_the_driver(driver):
    a, b = transpose_arrays(driver)
    other = np.zeros_like(b)
    driver.register(other, device=1)
    refused(driver, ValueError, re.escape(
        "parameter 'out' is on CUDA device 1; layout_opt.cuda launches on "
        "device 0"), fake_cuda.HostCAI(a), fake_cuda.HostCAI(other))
    stray = np.zeros_like(b)  # never registered: host memory
    refused(driver, ValueError, "parameter 'out': address 0x[0-9a-f]+ is not "
            "memory the CUDA driver knows \\(cuPointerGetAttribute: "
            "CUDA_ERROR_INVALID_VALUE\\)", fake_cuda.HostCAI(a),
            fake_cuda.HostCAI(stray))


def test_array_streams_order_the_launch(driver):
    a, b = transpose_arrays(driver)
    cai = fake_cuda.HostCAI
    run = launcher(kernels.tile_transpose_f32)
    # CuPy's case: the arrays' stream is the launch's; nothing to wait for.
    run(cai(a, stream=0x55), cai(b, stream=0x55))
    assert driver.calls == [("launch", 0x55)]
    # Another stream for `out`: an event there, waited for by the launch
    # stream, before the launch (CAI v3: no host synchronization).
    driver.calls.clear()
    run(cai(a, stream=0x55), cai(b, stream=0x66))
    assert driver.calls == [("record", 0x66), ("wait", 0x55),
                            ("launch", 0x55)]
    # An explicit stream= wins; both arrays' streams are waited for.
    driver.calls.clear()
    run(cai(a, stream=0x55), cai(b, stream=0x66), stream=0x99)
    assert driver.calls == [("record", 0x55), ("wait", 0x99),
                            ("record", 0x66), ("wait", 0x99),
                            ("launch", 0x99)]
    # The legacy default stream (1) is the NULL stream.
    driver.calls.clear()
    run(cai(a, stream=1), cai(b), stream=0)
    assert driver.calls == [("launch", 0)]
    assert (b == a.T).all()


def test_stream_objects():
    import types
    assert _launch._arrays.stream_handle(
        types.SimpleNamespace(cuda_stream=0x12)) == 0x12   # torch
    assert _launch._arrays.stream_handle(
        types.SimpleNamespace(ptr=0x34)) == 0x34           # CuPy
    with pytest.raises(TypeError, match="stream= takes"):
        _launch._arrays.stream_handle("s")
    with pytest.raises(TypeError, match="a bool"):
        _launch._arrays.stream_handle(True)


def test_dlpack_capsules_are_read(driver):
    a, b = transpose_arrays(driver)
    dl = fake_cuda.HostDLPack
    # byte_offset carries the data pointer (data + 64 bytes = the array).
    x, y = dl(a, offset=64), dl(b, strides=False)
    launcher(kernels.tile_transpose_f32)(x, y)
    assert (b == a.T).all()
    assert driver.launches[0][5][:2] == [a.ctypes.data, a.ctypes.data]
    # The legacy default stream is asked for as 1 (the protocol's value).
    assert x.streams == [1] and y.streams == [1]
    launcher(kernels.tile_transpose_f32)(x, y, stream=0x99)
    assert x.streams[-1] == 0x99 and driver.launches[-1][4] == 0x99


def test_dlpack_refusals(driver):
    a, b = transpose_arrays(driver)
    dl = fake_cuda.HostDLPack
    refused(driver, ValueError, re.escape(
        "parameter 'inp' is a fake_cuda.HostDLPack on kDLCPU: kernels take "
        "CUDA arrays (or NumPy arrays, which are copied)"),
        dl(a, device_type=1), dl(b))
    refused(driver, ValueError, "parameter 'out' is on CUDA device 3",
            dl(a), dl(b, device_id=3))
    refused(driver, TypeError, re.escape(
        "parameter 'out' takes a 2-D float32 array, got a 2-D bfloat32 "
        "array"), dl(a), dl(b, code=4))
    refused(driver, ValueError, re.escape(
        "parameter 'out' takes a C-contiguous array (strides (70, 1) in "
        "elements), got strides (1, 130)"), dl(a), dl(a.T))


def test_torch_tensors_go_on_torchs_current_stream(driver, monkeypatch):
    torch = fake_cuda.install_fake_torch(monkeypatch, current_stream=0x7777)
    a, b = transpose_arrays(driver)
    ta, tb = torch.Tensor(a), torch.Tensor(b)
    launcher(kernels.tile_transpose_f32)(ta, tb)
    assert (b == a.T).all()
    assert driver.launches[-1][4] == 0x7777 and torch.asked == [0]
    # stream= wins over torch's.
    launcher(kernels.tile_transpose_f32)(ta, tb, stream=0x99)
    assert driver.launches[-1][4] == 0x99
    refused_after = len(driver.launches)
    with pytest.raises(ValueError, match=re.escape(
            "parameter 'out' is a torch.Tensor on cpu: kernels take CUDA "
            "arrays")):
        launcher(kernels.tile_transpose_f32)(ta, torch.Tensor(b, "cpu"))
    with pytest.raises(ValueError, match="parameter 'inp' is on CUDA device "
                       "1"):
        launcher(kernels.tile_transpose_f32)(torch.Tensor(a, "cuda:1"), tb)
    with pytest.raises(TypeError, match=re.escape(
            "takes a 2-D float32 array, got a 2-D bfloat16 array of shape "
            "(130, 70) (torch.Tensor on CUDA device 0)")):
        launcher(kernels.tile_transpose_f32)(
            ta, torch.Tensor(np.zeros((130, 70), np.uint16)))
    assert len(driver.launches) == refused_after


def test_repeated_torch_launches_skip_the_reading_not_the_checks(
        driver, monkeypatch):
    # The second call on tensors like the first's (same dtypes, shapes,
    # strides, device) launches from the memo: new pointers, torch's
    # stream of the moment, the same result. Anything else is read and
    # checked again: a transposed (non-contiguous) view, another dtype.
    torch = fake_cuda.install_fake_torch(monkeypatch, current_stream=0x7777)
    run = launcher(kernels.tile_transpose_f32)
    a, b = transpose_arrays(driver)
    run(torch.Tensor(a), torch.Tensor(b))
    assert run._memo is not None
    a2, b2 = transpose_arrays(driver)
    torch.stream = 0x5555
    read = []
    original = lo._launch.read_arguments
    monkeypatch.setattr(lo._launch, "read_arguments",
                        lambda *x, **k: read.append(x) or
                        pytest.fail("read again"))
    run(torch.Tensor(a2), torch.Tensor(b2))
    assert (b2 == a2.T).all() and not read
    assert driver.launches[-1][4] == 0x5555
    monkeypatch.setattr(lo._launch, "read_arguments", original)
    before = len(driver.launches)
    c = np.zeros((130, 70), np.float32)
    driver.register(c)
    with pytest.raises(ValueError, match="takes a C-contiguous array"):
        run(torch.Tensor(a), torch.Tensor(c.T.copy().T))
    with pytest.raises(TypeError, match="got a 2-D bfloat16 array"):
        run(torch.Tensor(a), torch.Tensor(np.zeros((130, 70), np.uint16)))
    assert len(driver.launches) == before


def test_numpy_arrays_are_copied_there_and_back(driver):
    a = RNG.standard_normal((70, 130)).astype(np.float32)
    b = np.zeros((130, 70), np.float16)
    launcher(kernels.tile_transpose_scale_f16)(a, b, 0.25)
    assert (b == (a.T * np.float32(0.25)).astype(np.float16)).all()
    slots = driver.launches[0][5]
    assert slots[0] != a.ctypes.data            # a device copy
    assert fake_cuda.f32_slot(slots[14]) == 0.25
    # The copies done before the launch, which waits before copying back.
    assert driver.calls == [("sync", 0), ("launch", 0), ("sync", 0)]
    # The device copies are freed.
    assert len(driver.devices) == 0


def test_a_tile_kernel_call_compiles_once_and_launches(driver, monkeypatch,
                                                       tmp_path):
    monkeypatch.setenv("LAYOUT_OPT_CACHE_DIR", str(tmp_path))
    compiled = []

    def fake_compile(module, target, chip, format):
        compiled.append((target, chip, format))
        return fake_cuda.BINARY
    monkeypatch.setattr(lt, "_compile_module", fake_compile)

    @lt.kernel(block=(32, 8, 1), grid="inp")
    def transpose_f32(inp: lt.Partition("f32", tile=(64, 64)),
                      out: lt.Partition("f32", tile=(64, 64))):
        bx, by = lt.block_id("x"), lt.block_id("y")
        out[bx, by] = inp[by, bx].T

    fake_cuda.KERNELS["transpose_f32"] = fake_cuda.run_transpose
    try:
        for _ in range(3):
            a, b = transpose_arrays(driver)
            transpose_f32(fake_cuda.HostCAI(a), fake_cuda.HostCAI(b))
            assert (b == a.T).all()
    finally:
        del fake_cuda.KERNELS["transpose_f32"]
    # The GPU's chip (compute capability 9.0), compiled once.
    assert compiled == [("nvvm", "sm_90", "bin")]
    assert len(driver.launches) == 3 and len(driver.loaded) == 1


def test_kernel_arguments_read_every_kind_of_array(driver):
    a = np.zeros((3, 5), np.float32)
    driver.register(a)
    want = cuda.memref_arguments((3, 5), a.ctypes.data)
    assert cuda.kernel_arguments([fake_cuda.HostCAI(a), 2]) == \
        want + [("i64", 2)]
    assert cuda.kernel_arguments([fake_cuda.HostDLPack(a)]) == want
    many = np.zeros((1,) * 9, np.float32)
    driver.register(many)
    with pytest.raises(ValueError, match="^argument 1 has 9 dimensions; "
                       "memref arguments from Python have at most 8$"):
        cuda.kernel_arguments([2, fake_cuda.HostCAI(many)])


def test_device_array_has_the_cuda_array_interface(driver):
    d = cuda.DeviceArray((4, 6), np.float16)
    assert d.__cuda_array_interface__ == {
        "shape": (4, 6), "typestr": "<f2", "data": (d.ptr, False),
        "version": 3, "strides": None, "stream": None}
    assert cuda.kernel_arguments([d])[:4] == [
        ("ptr", d.ptr), ("ptr", d.ptr), ("i64", 0), ("i64", 4)]


def test_signature_grid_is_the_partition_index_space():
    """The launcher's grid (pure Python, for layout_opt.cuda.load) against
    the evaluator's partition_index_space."""
    sig = kernels.gemm_f16.signature()
    for extents in [(1, 1), (128, 128), (129, 127), (1000, 4097), (5, 300)]:
        space = lo._api._partition_index_space(list(extents), [128, 128])
        assert sig.grid(extents) == (space[1], space[0], 1)
    assert kernels.gemm_f16.grid((300, 64), (64, 257), (300, 257)) == \
        (3, 3, 1)


def test_ptx_is_loaded_as_text(driver):
    """A PTX code object (format "isa") reaches the driver NUL-terminated,
    as cuModuleLoadData needs text."""
    ptx = b"//\n// Generated by LLVM NVPTX Back-End\n.version 8.0\n"
    code = lo.tile.CodeObject(ptx, "nvvm", "sm_90", "tile_transpose_f32",
                              {}, kernels.tile_transpose_f32.signature(),
                              "isa")
    a, b = transpose_arrays(driver)
    cuda.Launcher(code)(fake_cuda.HostCAI(a), fake_cuda.HostCAI(b))
    assert driver.texts == [ptx] and (b == a.T).all()


def test_the_torch_example_imports_without_torch():
    """examples/torch_ops.py is imported by tools that have no torch; it
    says what it needs when asked to register."""
    import sys
    if "torch" in sys.modules:
        pytest.skip("torch is here")
    spec = importlib.util.spec_from_file_location(
        "torch_ops", os.path.join(ROOT, "examples", "torch_ops.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.KERNELS == {"gemm": "gemm_f16",
                              "gemm_bias_relu": "gemm_f16_bias_relu"}
    with pytest.raises(ImportError, match="needs PyTorch"):
        module.register({})


def test_a_memref_no_array_passes_is_named(driver):
    def flags(m: lt.Partition("i1", tile=(8,)),
              out: lt.Partition("f32", tile=(8,))):
        out[0] = out[0]
    k = lt.Kernel(flags, (32, 1, 1), "out", None)
    a = np.zeros(8, np.bool_)
    b = np.zeros(8, np.float32)
    with pytest.raises(TypeError, match=re.escape(
            "parameter 'm' is a memref of i1, which no Python array passes "
            "(bf16, f16, f32, f64, i16, i32, i64, i8)")):
        launcher(k)(a, b)


@pytest.mark.parametrize("kind", ["torch", "cai"])
def test_a_launch_from_another_thread_makes_the_context_current(
        driver, monkeypatch, kind):
    """A context is current per thread: a launch from a thread where it is
    not yet makes it current there (torch tensors: at the launch, which
    fails and is retried; CAI arrays: when the driver is asked where they
    live), and launches."""
    import threading
    torch = fake_cuda.install_fake_torch(monkeypatch)
    wrap = torch.Tensor if kind == "torch" else fake_cuda.HostCAI
    a, b = transpose_arrays(driver)
    run = launcher(kernels.tile_transpose_f32)
    run(wrap(a), wrap(b))                                # loads the module
    driver.current = {threading.get_ident()}
    errors = []

    def other():
        try:
            b[...] = 0
            run(wrap(a), wrap(b))
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors == [] and (b == a.T).all()
    assert len(driver.current) == 2 and len(driver.launches) == 2
