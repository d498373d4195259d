"""layout_opt.cuda without a GPU: a clear error, and the kernel arguments
spelled as MLIR's GPU calling convention spreads them (the values a C++
harness passes: bench/transpose/harness.cu). The launches themselves run
on the lent GPU machine (bench/transpose/python-launch.py)."""

import inspect
import re

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


# Tensor maps (docs/tensor-maps.md, the contract): the same cases as the
# C++ launcher's unittests/Runtime/TensorMapSpecTest.cpp, worked out by hand
# from the doc's formulas and the driver's limits.

def map_words(argument, box, data_type=6, nbytes=2, swizzle=3, l2=2):
    """One map's 16 words: argument, rank, data type, element bytes,
    swizzle, OOB fill, L2 promotion, the box (innermost first), reserved."""
    return [argument, len(box), data_type, nbytes, swizzle, 0, l2] + \
        [box[j] if j < len(box) else 0 for j in range(5)] + [0] * 4


def global_words(*maps):
    return [1, len(maps)] + [w for m in maps for w in m]


def spec(argument, box, data_type=6, nbytes=2):
    return cuda.TensorMapSpec(argument, len(box), data_type, nbytes, 3, 0, 0,
                              tuple(box))


def memref(aligned, offset, sizes, strides):
    return cuda.MemRefArgument(aligned, offset, sizes, strides)


def test_tensor_map_words_decode():
    specs = cuda.decode_tensor_map_specs(global_words(
        map_words(0, [64, 128]), map_words(1, [32, 8], 9, 2, 2, 0)))
    assert specs == [cuda.TensorMapSpec(0, 2, 6, 2, 3, 0, 2, (64, 128)),
                     cuda.TensorMapSpec(1, 2, 9, 2, 2, 0, 0, (32, 8))]
    # Rank 5, f32, no swizzle: every box word is read.
    [s] = cuda.decode_tensor_map_specs(
        global_words(map_words(4, [4, 3, 2, 1, 256], 7, 4, 0)))
    assert (s.argument, s.rank, s.box) == (4, 5, (4, 3, 2, 1, 256))
    assert cuda.decode_tensor_map_specs([1, 0]) == []


def test_tensor_map_version_and_count():
    words = global_words(map_words(0, [64, 128]))
    with pytest.raises(ValueError, match="^format version 2, this launcher "
                       "reads version 1$"):
        cuda.decode_tensor_map_specs([2] + words[1:])
    with pytest.raises(ValueError, match=r"^n = 2 maps need 2 \+ 16 n words, "
                       "the global has 18$"):
        cuda.decode_tensor_map_specs([1, 2] + words[2:])
    with pytest.raises(ValueError, match="^n = 0 maps"):
        cuda.decode_tensor_map_specs([1, 0] + words[2:])
    with pytest.raises(ValueError, match="fewer than the 2"):
        cuda.decode_tensor_map_specs([1])


def test_tensor_map_each_map_checked():
    def error(m):
        with pytest.raises(ValueError) as e:
            cuda.decode_tensor_map_specs(global_words(map_words(0, [64, 8]),
                                                      m))
        return str(e.value)
    assert error(map_words(1, [])) == "map 1: rank 0, the TMA takes 1 to 5"
    assert "rank 6" in error(map_words(1, [8, 1, 1, 1, 1, 1]))
    assert "box[1] = 0" in error(map_words(1, [64, 0]))
    assert "box[1] = 257" in error(map_words(1, [64, 257]))
    past = map_words(1, [64, 8])
    past[7 + 2] = 4
    assert "box[2] = 4 past rank 2" in error(past)
    assert "8 bytes, not a multiple" in error(map_words(1, [4, 8]))
    assert "256 bytes, more than the 128-byte swizzle span" in \
        error(map_words(1, [128, 8]))
    assert "more than the 32-byte swizzle span" in \
        error(map_words(1, [64, 8], 6, 2, 1))
    assert "element bytes 4, data type 6 has 2" in \
        error(map_words(1, [64, 8], 6, 4))
    assert "data type 13" in error(map_words(1, [64, 8], 13, 1))
    assert "swizzle 4" in error(map_words(1, [64, 8], 6, 2, 4))
    reserved = map_words(1, [64, 8])
    reserved[15] = 1
    assert error(reserved).startswith("map 1: reserved word 15")
    # At the limits: a 32-byte inner box with the 32-byte swizzle, 256
    # elements unswizzled.
    assert len(cuda.decode_tensor_map_specs(global_words(
        map_words(0, [16, 8], 6, 2, 1), map_words(1, [256, 8], 6, 2, 0)))) == 2


def test_tensor_map_row_major_is_usable():
    # 256 x 512 f16 at 0x10000: rows of 1024 bytes.
    e = cuda.plan_tensor_map(spec(0, [64, 128]),
                             memref(0x10000, 0, [256, 512], [512, 1]))
    assert e == cuda.TensorMapEncoding(True, 0x10000, (512, 256), (1024,),
                                       (64, 128), (1, 1))
    # An offset of 8 f16 moves the address by 16 bytes: still usable.
    e = cuda.plan_tensor_map(spec(0, [64, 128]),
                             memref(0x10000, 8, [256, 504], [512, 1]))
    assert e.usable and e.global_address == 0x10010
    # Rank 3, f32, strides not those of a packed array.
    e = cuda.plan_tensor_map(spec(2, [4, 2, 1], 7, 4),
                             memref(0x2000, 0, [2, 3, 8], [100, 12, 1]))
    assert (e.global_dim, e.global_strides) == ((8, 3, 2), (48, 400))
    e = cuda.plan_tensor_map(spec(0, [16], 7, 4), memref(0x40, 0, [100], [1]))
    assert e == cuda.TensorMapEncoding(True, 0x40, (100,), (), (16,), (1,))


def test_tensor_map_im2col_words():
    # The same map as TensorMapSpecTest.Im2colWords: 32 x 7 x 7 x 512 f16,
    # corners W -1, H -1 (lower) and W -2, H -1 (upper) as 16-bit fields,
    # traversal strides C 1, W 1, H 2, N 1 a byte each.
    w = map_words(2, [64, 64])
    w[1], w[12], w[13], w[14], w[15] = 4, 1, 0xffffffff, 0xfffffffe, \
        0x01020101
    [s] = cuda.decode_tensor_map_specs(global_words(w))
    assert s == cuda.TensorMapSpec(2, 4, 6, 2, 3, 0, 2, (64, 64), True,
                                   (-1, -1), (-2, -1), (1, 1, 2, 1))
    e = cuda.plan_tensor_map(s, memref(0x10000, 0, [32, 7, 7, 512],
                                       [7 * 7 * 512, 7 * 512, 512, 1]))
    assert e == cuda.TensorMapEncoding(
        True, 0x10000, (512, 7, 7, 32), (1024, 7 * 1024, 7 * 7 * 1024),
        (64, 64), (1, 1, 2, 1), True)
    for word, value, message in (
            (13, 0x00c8ffff, "-128 to 127"),
            (15, 0x01000101, "traversal stride 0"),
            (13, 0xffffffff | 1 << 32, "corner 1 (word 13, field 2)"),
            (12, 2, "mode 2")):
        bad = list(w)
        bad[word] = value
        with pytest.raises(ValueError, match=re.escape(message)):
            cuda.decode_tensor_map_specs(global_words(bad))
    bad = list(w)
    bad[1], bad[15] = 2, 0x0101
    with pytest.raises(ValueError, match="im2col map of rank 2"):
        cuda.decode_tensor_map_specs(global_words(bad))


def test_tensor_map_unaligned_is_not_usable():
    not_usable = cuda.TensorMapEncoding(False, 0, (), (), (), ())
    s = spec(0, [64, 128])
    # 4095 f16 per row: 8190 bytes, not a multiple of 16; 4104 is.
    assert cuda.plan_tensor_map(
        s, memref(0x10000, 0, [4095, 4095], [4095, 1])) == not_usable
    assert cuda.plan_tensor_map(
        s, memref(0x10000, 0, [4095, 4095], [4104, 1])).usable
    # 8 bytes off the 16-byte grid, by the offset or the pointer.
    assert cuda.plan_tensor_map(
        s, memref(0x10000, 4, [256, 512], [512, 1])) == not_usable
    assert cuda.plan_tensor_map(
        s, memref(0x10008, 0, [256, 512], [512, 1])) == not_usable
    # A transposed view: innermost stride 256.
    assert cuda.plan_tensor_map(
        s, memref(0x10000, 0, [512, 256], [1, 256])) == not_usable
    # Not usable, so a size of 0 is no error.
    assert cuda.plan_tensor_map(
        s, memref(0x10000, 0, [0, 3], [3, 1])) == not_usable


def test_tensor_map_usable_out_of_limits_names_the_argument():
    with pytest.raises(ValueError, match=r"^argument 1: size 0 along "
                       r"dimension 0 \(the TMA takes 1 to 2\^32\)$"):
        cuda.plan_tensor_map(spec(1, [64, 128]),
                             memref(0x10000, 0, [0, 64], [64, 1]))
    big = 2 ** 32
    assert cuda.plan_tensor_map(spec(1, [64, 128]), memref(
        0x10000, 0, [2, big], [big, 1])).global_dim == (big, 2)
    with pytest.raises(ValueError, match="^argument 1: size 4294967304 along "
                       "dimension 1"):
        cuda.plan_tensor_map(spec(1, [64, 128]),
                             memref(0x10000, 0, [2, big + 8], [big + 8, 1]))
    # f16 byte strides: 2^40 - 16 is the largest, 2^40 too far.
    s = 2 ** 39 - 8
    assert cuda.plan_tensor_map(spec(0, [64, 128]), memref(
        0x10000, 0, [2, 64], [s, 1])).global_strides == (2 ** 40 - 16,)
    with pytest.raises(ValueError, match=r"^argument 0: stride 549755813888 "
                       "of 2-byte elements along dimension 0"):
        cuda.plan_tensor_map(spec(0, [64, 128]),
                             memref(0x10000, 0, [2, 64], [s + 8, 1]))
    # -16 bytes is 0 mod 16: usable for the kernel, refused by the driver.
    with pytest.raises(ValueError, match="^argument 0: stride -8 "):
        cuda.plan_tensor_map(spec(0, [64, 128]),
                             memref(0x10000, 0, [2, 64], [-8, 1]))
    with pytest.raises(ValueError, match="^argument 3: the kernel's tensor "
                       "map has rank 2, the memref rank 1$"):
        cuda.plan_tensor_map(spec(3, [64, 128]), memref(0x10000, 0, [64], [1]))


def test_tensor_map_argument_must_be_a_memref():
    a = memref(0x100, 0, [4, 8], [8, 1])
    assert cuda.find_tensor_map_argument(spec(0, [8, 4]), 0, [a, None]) is a
    with pytest.raises(ValueError, match="^argument 1: tensor map 1 covers "
                       "it, but it is not a memref$"):
        cuda.find_tensor_map_argument(spec(1, [8, 4]), 1, [a, None])
    with pytest.raises(ValueError, match="^argument 5: tensor map 0 covers "
                       "it, but the launch has 2 arguments$"):
        cuda.find_tensor_map_argument(spec(5, [8, 4]), 0, [a, None])


class FakeDeviceArray(cuda.DeviceArray):
    """A DeviceArray at a made-up address, no GPU memory behind it."""

    def __init__(self, shape, ptr):
        self.shape, self.dtype = tuple(shape), np.dtype(np.float16)
        self.ptr = ptr

    def free(self):
        self.ptr = 0


def test_prepare_passes_the_maps_after_the_usual_parameters():
    import ctypes
    kernel = cuda.Kernel.__new__(cuda.Kernel)
    # The map covers argument 0, whose rows of 4095 f16 are not 16-byte
    # multiples: not usable, so 128 zero bytes, 64-byte aligned, and no
    # driver call.
    kernel.tensor_maps = [spec(0, [64, 128])]
    a = FakeDeviceArray((3, 4095), 0x10000)
    params = kernel.prepare([a, 7])
    assert len(params) == 7 + 1 + 1
    assert ctypes.c_int64.from_address(params[7]).value == 7
    assert params[8] % 64 == 0
    assert ctypes.string_at(params[8], 128) == bytes(128)
    # A usable map on an empty array is refused before any driver call.
    with pytest.raises(ValueError, match="^argument 0: size 0 along "
                       "dimension 0"):
        kernel.prepare([FakeDeviceArray((0, 64), 0x10000), 7])
    kernel.tensor_maps = [spec(1, [64, 128])]
    with pytest.raises(ValueError, match="^argument 1: tensor map 0 covers "
                       "it, but it is not a memref$"):
        kernel.prepare([a, 7])


class FakeDriver:
    """The driver calls a loaded Kernel makes, on a made-up module whose
    globals are `globals_` (name -> bytes); records attribute settings and
    launches."""

    def __init__(self, globals_):
        self.globals, self.attributes, self.launches = globals_, [], []

    def cuModuleGetGlobal_v2(self, at, size, module, name):
        import ctypes
        raw = self.globals.get(name.decode())
        if raw is None:
            return 500  # CUDA_ERROR_NOT_FOUND
        self._raw = ctypes.create_string_buffer(raw, len(raw))
        at._obj.value = ctypes.addressof(self._raw)
        size._obj.value = len(raw)
        return 0

    def cuMemcpyDtoH_v2(self, dst, src, n):
        import ctypes
        ctypes.memmove(dst, src, n)
        return 0

    def cuFuncSetAttribute(self, fn, attribute, value):
        self.attributes.append((attribute, value))
        return 0

    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, shared, stream,
                       params, extra):
        self.launches.append(shared)
        return 0


def loaded_kernel(monkeypatch, globals_):
    driver = FakeDriver(globals_)
    monkeypatch.setattr(cuda, "_lib", driver)
    kernel = cuda.Kernel.__new__(cuda.Kernel)
    kernel.name, kernel._fn, kernel._module = "k", None, None
    kernel.tensor_maps, kernel._packers, kernel._events = [], {}, []
    return kernel, driver


def test_dynamic_shared_bytes_are_read_allowed_and_passed(monkeypatch):
    import struct
    # 96 KiB: above the default 48 KiB, so the kernel is allowed it
    # (attribute 8, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), and
    # every launch passes at least it.
    kernel, driver = loaded_kernel(
        monkeypatch, {"k_dynamic_shared_bytes": struct.pack("<I", 98304)})
    kernel.dynamic_shared_bytes = kernel._read_dynamic_shared_bytes()
    assert kernel.dynamic_shared_bytes == 98304
    assert driver.attributes == [(8, 98304)]
    kernel.launch((1,), (128,), [])
    kernel.launch((1,), (128,), [], shared=131072)
    assert driver.launches == [98304, 131072]
    # 40 KiB: within the default, no attribute.
    kernel, driver = loaded_kernel(
        monkeypatch, {"k_dynamic_shared_bytes": struct.pack("<I", 40960)})
    assert kernel._read_dynamic_shared_bytes() == 40960
    assert driver.attributes == []
    # None exported: 0. A malformed count is refused.
    kernel, driver = loaded_kernel(monkeypatch, {})
    assert kernel._read_dynamic_shared_bytes() == 0
    kernel, driver = loaded_kernel(
        monkeypatch, {"k_dynamic_shared_bytes": bytes(8)})
    with pytest.raises(ValueError, match="^k_dynamic_shared_bytes: 8 bytes, "
                       "not a 32-bit count$"):
        kernel._read_dynamic_shared_bytes()


class FakeEncoder:
    """cuTensorMapEncodeIm2col on no GPU: records what the launcher asks."""

    def __init__(self):
        self.calls = []

    def cuTensorMapEncodeIm2col(self, storage, data_type, rank, address,
                                dims, strides, lower, upper, channels,
                                pixels, element_strides, interleave, swizzle,
                                l2, oob):
        self.calls.append((data_type, rank, address, list(dims)[:rank],
                           list(strides)[:rank - 1], list(lower)[:rank - 2],
                           list(upper)[:rank - 2], channels, pixels,
                           list(element_strides)[:rank], swizzle))
        return 0


def test_prepare_encodes_an_im2col_map(monkeypatch):
    # The NHWC input of a 3x3 convolution: its im2col map is encoded with
    # the corners, box and traversal strides the kernel exported.
    encoder = FakeEncoder()
    monkeypatch.setattr(cuda, "_lib", encoder)
    kernel = cuda.Kernel.__new__(cuda.Kernel)
    kernel.tensor_maps = [cuda.TensorMapSpec(
        0, 4, 6, 2, 3, 0, 2, (64, 64), True, (-1, -1), (-2, -1),
        (1, 1, 2, 1))]
    x = FakeDeviceArray((32, 7, 7, 512), 0x20000)
    params = kernel.prepare([x])
    assert len(params) == 11 + 1
    assert encoder.calls == [(6, 4, 0x20000, [512, 7, 7, 32],
                              [1024, 7 * 1024, 7 * 7 * 1024], [-1, -1],
                              [-2, -1], 64, 64, [1, 1, 2, 1], 3)]
