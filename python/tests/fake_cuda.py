"""A CUDA driver, device arrays and torch tensors made of host memory, for
testing launches without a GPU.

FakeDriver answers the driver calls layout_opt.cuda makes. Its "device
memory" is host memory (NumPy arrays), so a pointer a launch passes can be
read back; and a launch of a kernel it knows (KERNELS) runs that kernel's
arithmetic in NumPy on the memref descriptors the launcher marshalled: a
wrong pointer, size, stride or scalar gives a wrong result, not just a
wrong record.

HostCAI, HostDLPack and a fake `torch` module (install_fake_torch) wrap
NumPy arrays in the protocols a launch reads: `__cuda_array_interface__`
v3, `__dlpack__` / `__dlpack_device__` (a real DLManagedTensor capsule),
and torch.Tensor's data_ptr / shape / stride / dtype / device.
"""

import ctypes
import struct
import types

import numpy as np


def memref(slots, at, rank, dtype):
    """The NumPy array a memref argument at slots[at:] describes
    (allocated, aligned, offset, sizes, strides), and the next slot."""
    aligned, offset = slots[at + 1], slots[at + 2]
    sizes = slots[at + 3:at + 3 + rank]
    strides = slots[at + 3 + rank:at + 3 + 2 * rank]
    itemsize = np.dtype(dtype).itemsize
    span = (sum((n - 1) * s for n, s in zip(sizes, strides)) + 1) \
        if all(sizes) else 0
    buf = (ctypes.c_char * (span * itemsize)).from_address(
        aligned + offset * itemsize)
    flat = np.frombuffer(buf, dtype)
    array = np.lib.stride_tricks.as_strided(
        flat, sizes, [s * itemsize for s in strides])
    return array, at + 3 + 2 * rank


def f32_slot(slot):
    return struct.unpack("<f", struct.pack("<q", slot)[:4])[0]


def run_transpose(slots, grid):
    a, at = memref(slots, 0, 2, np.float32)
    b, _ = memref(slots, at, 2, np.float32)
    b[...] = a.T


def run_transpose_scale(slots, grid):
    a, at = memref(slots, 0, 2, np.float32)
    b, at = memref(slots, at, 2, np.float16)
    b[...] = (a.T * np.float32(f32_slot(slots[at]))).astype(np.float16)


def run_gemm_bias_relu(slots, grid):
    a, at = memref(slots, 0, 2, np.float16)
    b, at = memref(slots, at, 2, np.float16)
    c, at = memref(slots, at, 2, np.float16)
    alpha = np.float32(f32_slot(slots[at]))
    bias, _ = memref(slots, at + 1, 1, np.float32)
    acc = a.astype(np.float32) @ b.astype(np.float32)
    c[...] = np.maximum(acc * alpha + bias, 0).astype(np.float16)


# What a fake code object holds (FakeDriver records its first 16 bytes).
BINARY = b"not a cubin: a FakeDriver module"

KERNELS = {"tile_transpose_f32": run_transpose,
           "tile_transpose_scale_f16": run_transpose_scale,
           "gemm_f16_bias_relu": run_gemm_bias_relu}


class FakeDriver:
    """libcuda's calls layout_opt.cuda makes, over host memory. `devices`
    maps an allocation's base address to (NumPy buffer, device ordinal):
    cuPointerGetAttribute answers from it. `launches` records (kernel,
    grid, block, shared, stream, slots); `calls` every stream call."""

    def __init__(self):
        self.devices, self.launches, self.calls = {}, [], []
        self.modules, self.loaded, self.texts = {}, [], []
        self.compute = True
        # Threads where the context was made current (None: not checked:
        # every thread has it).
        self.current = None

    # Memory.
    def register(self, array, device=0):
        """Makes NumPy `array`'s memory device memory of `device`."""
        self.devices[array.ctypes.data] = (array, device)
        return array.ctypes.data

    def cuMemAlloc_v2(self, ptr, n):
        buf = np.zeros(max(int(n), 1), np.uint8)
        ptr._obj.value = self.register(buf)
        return 0

    def cuMemFree_v2(self, ptr):
        self.devices.pop(ptr, None)
        return 0

    def cuMemcpyHtoD_v2(self, dst, src, n):
        ctypes.memmove(dst, src, n)
        return 0

    def cuMemcpyDtoH_v2(self, dst, src, n):
        ctypes.memmove(dst, src, n)
        return 0

    def cuPointerGetAttribute(self, out, attribute, ptr):
        assert attribute == 9  # CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        for base, (buf, device) in self.devices.items():
            if base <= ptr < base + max(buf.nbytes, 1):
                out._obj.value = device
                return 0
        return 1  # CUDA_ERROR_INVALID_VALUE

    # Modules and kernels.
    def cuModuleLoadData(self, module, image):
        handle = 0x1000 + len(self.loaded)
        self.loaded.append(ctypes.string_at(image, 16))
        self.texts.append(ctypes.string_at(image))   # up to the first NUL
        module._obj.value = handle
        return 0

    def cuModuleGetFunction(self, fn, module, name):
        handle = 0x5000 + len(self.modules)
        self.modules[handle] = name.decode()
        fn._obj.value = handle
        return 0

    def cuModuleGetGlobal_v2(self, at, size, module, name):
        return 500  # CUDA_ERROR_NOT_FOUND: no tensor maps, no dynamic smem

    def cuFuncSetAttribute(self, fn, attribute, value):
        return 0

    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, shared, stream,
                       params, extra):
        import threading
        if self.current is not None and \
                threading.get_ident() not in self.current:
            return 201  # CUDA_ERROR_INVALID_CONTEXT
        n = len(params)
        slots = [ctypes.c_int64.from_address(params[i]).value
                 for i in range(n)]
        name = self.modules.get(getattr(fn, "value", fn), "?")
        self.launches.append((name, (gx, gy, gz), (bx, by, bz), shared,
                              stream, slots))
        self.calls.append(("launch", stream))
        if self.compute and name in KERNELS:
            KERNELS[name](slots, (gx, gy, gz))
        return 0

    # Streams and events.
    def cuEventCreate(self, event, flags):
        event._obj.value = 0xE0E0
        return 0

    def cuEventRecord(self, event, stream):
        self.calls.append(("record", stream))
        return 0

    def cuStreamWaitEvent(self, stream, event, flags):
        self.calls.append(("wait", stream))
        return 0

    def cuStreamSynchronize(self, stream):
        self.calls.append(("sync", stream))
        return 0

    def cuCtxSynchronize(self):
        self.calls.append(("sync", None))
        return 0

    # The context and the device.
    def cuCtxSetCurrent(self, context):
        import threading
        if self.current is not None:
            self.current.add(threading.get_ident())
        return 0

    def cuDeviceGet(self, device, ordinal):
        device._obj.value = ordinal
        return 0

    def cuDeviceGetAttribute(self, value, attribute, device):
        value._obj.value = {75: 9, 76: 0}[attribute]
        return 0

    def cuGetErrorString(self, result, text):
        return 1

    def cuGetErrorName(self, result, text):
        text._obj.value = b"CUDA_ERROR_INVALID_VALUE"
        return 0


def install(monkeypatch, cuda):
    """A FakeDriver as layout_opt.cuda's driver, its context current."""
    driver = FakeDriver()
    monkeypatch.setattr(cuda, "_lib", driver)
    monkeypatch.setattr(cuda, "_context", ctypes.c_void_p(1))
    return driver


class HostCAI:
    """A NumPy array behind `__cuda_array_interface__` (v3): `stream`,
    `version`, `strides` (None: the array's own; "none": C-contiguous
    omitted) and `typestr` can be overridden."""

    def __init__(self, array, stream=None, version=3, strides=None,
                 typestr=None):
        self.array = array
        self.stream, self.version = stream, version
        self.strides, self.typestr = strides, typestr

    @property
    def __cuda_array_interface__(self):
        d = {"shape": self.array.shape,
             "typestr": self.typestr or self.array.dtype.str,
             "data": (self.array.ctypes.data, False),
             "version": self.version,
             "strides": None if self.strides == "none" else
             (self.strides or self.array.strides)}
        if self.version >= 3:
            d["stream"] = self.stream
        return d


# dlpack.h's structs, written here again on purpose: the producer of the
# tests does not share layout_opt/_arrays.py's definitions, so a field out
# of place there reads wrong values here instead of agreeing with itself.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_DLTENSOR = b"dltensor"
# dlpack.h's type codes of NumPy kinds.
_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


class HostDLPack:
    """A NumPy array behind `__dlpack__` / `__dlpack_device__`: a real
    DLManagedTensor in a "dltensor" capsule, on (`device_type`,
    `device_id`) (2: kDLCUDA). The offset of the data is passed as
    byte_offset (`offset` bytes), strides in elements (None: omitted, a
    compact array). `streams` records each `stream=` asked for."""

    def __init__(self, array, device_type=2, device_id=0, offset=0,
                 strides=True, code=None):
        self.array, self.device = array, (device_type, device_id)
        self.offset, self.with_strides, self.code = offset, strides, code
        self.streams, self._keep = [], []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        a = self.array
        shape = (ctypes.c_int64 * a.ndim)(*a.shape)
        strides = (ctypes.c_int64 * a.ndim)(
            *[s // a.itemsize for s in a.strides])
        t = _DLManagedTensor()
        t.dl_tensor.data = a.ctypes.data - self.offset
        t.dl_tensor.byte_offset = self.offset
        t.dl_tensor.device = _DLDevice(*self.device)
        t.dl_tensor.ndim = a.ndim
        t.dl_tensor.dtype = _DLDataType(
            self.code if self.code is not None else _CODES[a.dtype.kind],
            a.itemsize * 8, 1)
        t.dl_tensor.shape = shape
        if self.with_strides:
            t.dl_tensor.strides = strides
        self._keep.append((shape, strides, t))
        return _capsule_new(ctypes.addressof(t), _DLTENSOR, None)


def install_fake_torch(monkeypatch, current_stream=0x7777):
    """A `torch` module in sys.modules with a Tensor class over NumPy
    arrays (FakeTensor(array, device="cuda:0")) and a current stream."""
    import sys
    torch = types.ModuleType("torch")

    class Tensor:
        def __init__(self, array, device="cuda:0"):
            self.array = array
            kind, _, index = device.partition(":")
            self.device = types.SimpleNamespace(
                type=kind, index=int(index) if index else None)
            self.dtype = "torch." + ("bfloat16" if array.dtype.name ==
                                     "uint16" else array.dtype.name)

        @property
        def is_cuda(self):
            return self.device.type == "cuda"

        def get_device(self):
            return self.device.index if self.is_cuda else -1

        def data_ptr(self):
            return self.array.ctypes.data

        @property
        def shape(self):
            return self.array.shape

        def stride(self):
            return tuple(s // self.array.itemsize
                         for s in self.array.strides)

    torch.Tensor = Tensor
    torch.stream = current_stream
    torch.asked = []

    def raw(device):
        torch.asked.append(device)
        return torch.stream
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=raw)
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch
