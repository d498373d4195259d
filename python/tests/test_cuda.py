"""layout_opt.cuda without a GPU: a clear error, and the kernel arguments
spelled as MLIR's GPU calling convention spreads them (the values a C++
harness passes: bench/transpose/harness.cu). The launches themselves run
on the lent GPU machine (bench/transpose/python-launch.py)."""

import inspect

import numpy as np
import pytest

import layout_opt as lo
from layout_opt import cuda


def test_public_names_are_documented():
    for name, obj in vars(cuda).items():
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        assert (inspect.getdoc(obj) or "").strip(), name
        if inspect.isclass(obj) and obj.__module__ == cuda.__name__:
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and callable(member):
                    assert (inspect.getdoc(member) or "").strip(), \
                        "%s.%s" % (name, attr)


@pytest.mark.skipif(cuda.available(), reason="a GPU is present")
def test_without_a_gpu_every_launch_says_so():
    with pytest.raises(cuda.CudaError, match="no CUDA (driver|device)"):
        cuda.Kernel(b"\0", "k")
    with pytest.raises(cuda.CudaError, match="no CUDA (driver|device)"):
        cuda.run(b"\0", "k", (1, 1, 1), (1, 1, 1), (np.zeros(4),))
    with pytest.raises(cuda.CudaError, match="no CUDA (driver|device)"):
        cuda.DeviceArray((4,), np.float32)
    assert issubclass(cuda.CudaError, RuntimeError)


def test_memref_arguments_are_the_descriptor():
    # memref<3x5xf32> at 0x1000: allocated, aligned, offset, sizes, strides.
    assert cuda.memref_arguments((3, 5), 0x1000) == [
        ("ptr", 0x1000), ("ptr", 0x1000), ("i64", 0),
        ("i64", 3), ("i64", 5), ("i64", 5), ("i64", 1)]
    # Rank 3: strides 4 * 5, 5, 1.
    assert cuda.memref_arguments((2, 4, 5), 8)[-3:] == [
        ("i64", 20), ("i64", 5), ("i64", 1)]
    assert cuda.memref_arguments((7,), 8) == [
        ("ptr", 8), ("ptr", 8), ("i64", 0), ("i64", 7), ("i64", 1)]


def test_scalar_arguments():
    assert cuda.kernel_arguments([3, np.int32(4), 2.5, np.float32(1)]) == [
        ("i64", 3), ("i64", 4), ("f32", 2.5), ("f32", 1.0)]
    with pytest.raises(TypeError, match="bool"):
        cuda.kernel_arguments([True])
    with pytest.raises(TypeError, match="DeviceArray"):
        cuda.kernel_arguments(["x"])
    with pytest.raises(TypeError, match="DeviceArray"):
        cuda.kernel_arguments([np.zeros(3)])


def test_package_exposes_it():
    assert lo.cuda is cuda
