"""Arrays as memref arguments: the one place a kernel argument becomes a view.

`as_array_view(obj, stream)` reads any array a launch accepts, without
copying it, as an ArrayView (address, shape, strides in elements, element
type, where it lives):

- a NumPy array (on the host: the launcher copies it to the GPU and back);
- a torch.Tensor (duck-typed: torch is never imported here; a tensor is an
  instance of `sys.modules["torch"].Tensor`), read through `data_ptr()`,
  `shape`, `stride()`, `dtype` and `device`, the cheapest route and the
  only one for bfloat16 (whose `__cuda_array_interface__` PyTorch refuses);
- an object with `__cuda_array_interface__` (versions 0 to 3: CuPy, Numba,
  the package's DeviceArray), whose v3 `stream` is kept for the launch to
  order after (ArrayView.stream);
- an object with `__dlpack__` / `__dlpack_device__` on a CUDA device, read
  through its DLPack capsule (DLManagedTensor, with ctypes). The capsule is
  asked for with the launch's stream (the protocol's `stream=`: the producer
  orders its pending work before that stream) and is not consumed: its
  destructor frees it, while the object itself keeps the memory alive.

Nothing here needs the CUDA driver; the device of a
`__cuda_array_interface__` pointer is unknown here (ArrayView.device None)
and the launcher asks the driver.
"""

import collections as _collections
import ctypes as _ctypes
import sys as _sys

import numpy as _np

# The kernels' element types and the NumPy names of the arrays that match.
ELEMENT_NAMES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "f64": "float64", "i8": "int8", "i16": "int16",
                 "i32": "int32", "i64": "int64"}
_ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
             "int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1,
             "uint16": 2, "uint32": 4, "uint64": 8, "bool": 1,
             "complex64": 8, "complex128": 16}
# __cuda_array_interface__ typestr kinds (NumPy's array interface).
_TYPESTR_KINDS = {"f": "float", "i": "int", "u": "uint", "c": "complex"}
# DLDataTypeCode: kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLBool.
_DLPACK_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 6: "bool"}
# DLDeviceType values (dlpack.h).
_DLPACK_CPU, _DLPACK_CUDA, _DLPACK_CUDA_MANAGED = 1, 2, 13
_DLPACK_DEVICES = {1: "kDLCPU", 2: "kDLCUDA", 3: "kDLCUDAHost",
                   4: "kDLOpenCL", 7: "kDLVulkan", 8: "kDLMetal",
                   10: "kDLROCM", 13: "kDLCUDAManaged"}


class ArrayView(_collections.namedtuple(
        "ArrayView", "pointer shape strides dtype host device stream torch "
        "kind")):
    """An array argument read in place: `pointer` its first element's
    address, `shape`, `strides` in elements (None: C-contiguous), `dtype`
    a NumPy-style name ("float32", "bfloat16"), `host` the NumPy array
    where it lives on the host (else None), `device` the CUDA device
    ordinal (None: unknown, the driver is asked), `stream` the v3
    `__cuda_array_interface__` stream to order after (None: none given),
    `torch` whether it is a torch.Tensor, `kind` what it is, for
    messages."""


def describe(view):
    """'a 2-D float64 array of shape (4, 4)' (NumPy), or the same with where
    the array lives ('... torch.Tensor on CUDA device 0')."""
    text = "a %d-D %s array of shape %s" % (len(view.shape), view.dtype,
                                            view.shape)
    if view.host is not None:
        return text
    where = "" if view.device is None else " on CUDA device %d" % view.device
    return "%s (%s%s)" % (text, view.kind, where)


def c_contiguous(shape, strides):
    """Whether `strides` (elements; None: C-contiguous) are those of a
    row-major array of `shape`. Dimensions of one element may have any
    stride (PyTorch gives them arbitrary ones), and an empty array is
    contiguous."""
    if strides is None or 0 in shape:
        return True
    step = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1 and s != step:
            return False
        step *= n
    return True


_STRIDES = {}


def row_major_strides(shape):
    """The strides (in elements) of a C-contiguous array of `shape` (a
    tuple; remembered for the shapes of the last launches)."""
    strides = _STRIDES.get(shape)
    if strides is None:
        strides = [1] * len(shape)
        step = 1
        for d in range(len(shape) - 1, -1, -1):
            strides[d] = step
            step *= int(shape[d])
        strides = tuple(strides)
        if len(_STRIDES) > 256:
            _STRIDES.clear()
        _STRIDES[shape] = strides
    return strides


def _element_strides(byte_strides, itemsize, kind):
    if byte_strides is None:
        return None
    out = []
    for s in byte_strides:
        if s % itemsize:
            raise ValueError("%s has a stride of %d bytes, not a whole number "
                             "of %d-byte elements" % (kind, s, itemsize))
        out.append(s // itemsize)
    return tuple(out)


def torch_module(args):
    """`sys.modules["torch"]` when one of `args` is a torch.Tensor, else
    None (torch is never imported here)."""
    torch = _sys.modules.get("torch")
    if torch is None:
        return None
    tensor = getattr(torch, "Tensor", None)
    if tensor is not None and any(isinstance(a, tensor) for a in args):
        return torch
    return None


_TORCH_DTYPES = {}


def _from_torch(t):
    dtype = _TORCH_DTYPES.get(t.dtype)
    if dtype is None:
        text = str(t.dtype)
        dtype = _TORCH_DTYPES[t.dtype] = \
            text[6:] if text.startswith("torch.") else text
    if not t.is_cuda:
        return ArrayView(0, tuple(t.shape), tuple(t.stride()), dtype, None,
                         None, None, True,
                         "torch.Tensor on %s" % t.device.type)
    # get_device(): the CUDA ordinal, without making a torch.device.
    return ArrayView(t.data_ptr(), tuple(t.shape), tuple(t.stride()), dtype,
                     None, t.get_device(), None, True, "torch.Tensor")


def _typestr_dtype(typestr):
    """The NumPy-style name of an array interface typestr ('<f4'
    'float32'); ValueError for big-endian or unknown ones."""
    if len(typestr) < 3 or typestr[0] not in "<|=>":
        raise ValueError("typestr %r is not an array interface type"
                         % (typestr,))
    if typestr[0] == ">" and typestr[2:] != "1":
        raise ValueError("typestr %r is big-endian; CUDA kernels read "
                         "little-endian values" % typestr)
    if typestr[1:] == "b1":
        return "bool"
    kind = _TYPESTR_KINDS.get(typestr[1])
    if kind is None or not typestr[2:].isdigit():
        raise ValueError("typestr %r is not a number type this launcher "
                         "passes" % typestr)
    return "%s%d" % (kind, int(typestr[2:]) * 8)


def _from_cuda_array_interface(obj, cai):
    kind = type(obj).__module__.split(".")[0] + "." + type(obj).__name__
    version = cai.get("version")
    if version not in (0, 1, 2, 3):
        raise ValueError("%s has __cuda_array_interface__ version %r; this "
                         "launcher reads versions 0 to 3" % (kind, version))
    if cai.get("mask") is not None:
        raise ValueError("%s is a masked array (__cuda_array_interface__ "
                         "mask); kernels take unmasked arrays" % kind)
    dtype = _typestr_dtype(cai["typestr"])
    shape = tuple(int(n) for n in cai["shape"])
    strides = cai.get("strides")
    strides = _element_strides(
        None if strides is None else tuple(int(s) for s in strides),
        _ITEMSIZE[dtype], kind)
    stream = cai.get("stream") if version >= 3 else None
    if stream == 0:
        # The protocol forbids 0 (ambiguous between the legacy and the
        # per-thread default stream).
        raise ValueError("%s has __cuda_array_interface__ stream 0, which "
                         "the protocol (v3) disallows" % kind)
    return ArrayView(int(cai["data"][0]), shape, strides, dtype, None, None,
                     stream, False, kind)


class _DLDevice(_ctypes.Structure):
    _fields_ = [("device_type", _ctypes.c_int32),
                ("device_id", _ctypes.c_int32)]


class _DLDataType(_ctypes.Structure):
    _fields_ = [("code", _ctypes.c_uint8), ("bits", _ctypes.c_uint8),
                ("lanes", _ctypes.c_uint16)]


class DLTensor(_ctypes.Structure):
    """dlpack.h's DLTensor."""
    _fields_ = [("data", _ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", _ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", _ctypes.POINTER(_ctypes.c_int64)),
                ("strides", _ctypes.POINTER(_ctypes.c_int64)),
                ("byte_offset", _ctypes.c_uint64)]


class DLManagedTensor(_ctypes.Structure):
    """dlpack.h's DLManagedTensor (the unversioned capsule, "dltensor")."""
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", _ctypes.c_void_p),
                ("deleter", _ctypes.c_void_p)]


_capsule_pointer = _ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = _ctypes.c_void_p
_capsule_pointer.argtypes = [_ctypes.py_object, _ctypes.c_char_p]


def _dlpack_stream(stream):
    """The `stream=` of __dlpack__ for a launch on `stream` (a CUstream
    value): the protocol says 1 for the legacy default stream, which the
    driver's NULL stream is."""
    return 1 if not stream else stream


def _from_dlpack(obj, stream):
    kind = type(obj).__module__.split(".")[0] + "." + type(obj).__name__
    device_type, device_id = obj.__dlpack_device__()
    if device_type not in (_DLPACK_CUDA, _DLPACK_CUDA_MANAGED):
        name = _DLPACK_DEVICES.get(int(device_type), "device type %d"
                                   % device_type)
        return ArrayView(0, (), None, "?", None, None, None, False,
                         "%s on %s" % (kind, name))
    capsule = obj.__dlpack__(stream=_dlpack_stream(stream))
    try:
        address = _capsule_pointer(capsule, b"dltensor")
    except ValueError:
        raise ValueError("%s.__dlpack__() did not return a 'dltensor' "
                         "capsule" % kind) from None
    t = DLManagedTensor.from_address(address).dl_tensor
    if t.dtype.lanes != 1:
        raise ValueError("%s has %d-lane DLPack elements; kernels take "
                         "scalars" % (kind, t.dtype.lanes))
    code = _DLPACK_CODES.get(t.dtype.code)
    if code is None:
        raise ValueError("%s has DLPack type code %d, not a number type this "
                         "launcher passes" % (kind, t.dtype.code))
    dtype = "bool" if code == "bool" else "%s%d" % (code, t.dtype.bits)
    shape = tuple(t.shape[d] for d in range(t.ndim))
    strides = None if not t.strides else \
        tuple(t.strides[d] for d in range(t.ndim))
    return ArrayView((t.data or 0) + t.byte_offset, shape, strides, dtype,
                     None, t.device.device_id, None, False, kind)


def as_array_view(obj, stream=None):
    """`obj` as an ArrayView, or None where it is no array (a scalar, or
    anything else). `stream` is the launch's stream, which a DLPack producer
    orders its work before. ValueError where an array's interface is
    malformed (a masked array, strides between elements, stream 0)."""
    if isinstance(obj, _np.ndarray):
        strides = _element_strides(obj.strides, obj.itemsize, "the array")
        return ArrayView(obj.ctypes.data, obj.shape, strides, obj.dtype.name,
                         obj, None, None, False, "numpy.ndarray")
    torch = _sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        return _from_torch(obj)
    view = getattr(obj, "_memref_view", None)
    if view is not None:
        return view()
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cuda_array_interface(obj, cai)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return _from_dlpack(obj, stream)
    return None


def stream_handle(stream):
    """A CUstream value from what a caller passes as `stream=`: an int
    (0 the legacy default stream), a torch.cuda.Stream (`cuda_stream`), a
    CuPy stream (`ptr`), or an object with `__cuda_stream__` (returning
    (version, handle))."""
    if isinstance(stream, bool):
        raise TypeError("stream= takes a stream or its handle, got a bool")
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError("stream= handle %d is negative" % stream)
        return stream
    for attr in ("cuda_stream", "ptr"):
        handle = getattr(stream, attr, None)
        if isinstance(handle, int):
            return handle
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        return int(protocol()[1])
    raise TypeError("stream= takes an int handle, a torch.cuda.Stream, a "
                    "CuPy stream or an object with __cuda_stream__, got %s"
                    % type(stream).__name__)


def torch_current_stream(torch, device=0):
    """torch's current stream on `device`, as a CUstream value (the one
    PyTorch launches on, and captures in a CUDA graph)."""
    raw = getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                  None)
    if raw is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream
