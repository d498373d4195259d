"""layout_opt.cuda's DeviceArray: a C-contiguous array in GPU memory that
the package allocates, copies to and from NumPy, and launches on in place
(its `__cuda_array_interface__` lets other libraries read it too)."""

import ctypes as _ctypes

import numpy as _np

from . import _arrays
from ._launch import _DEVICE


class DeviceArray:
    """A C-contiguous array in GPU memory: its shape, dtype and address."""

    def __init__(self, shape, dtype):
        lib = _cuda._ensure_context()
        self.shape = tuple(int(n) for n in shape)
        self.dtype = _np.dtype(dtype)
        self.nbytes = int(_np.prod(self.shape, dtype=_np.int64)) * \
            self.dtype.itemsize
        ptr = _ctypes.c_uint64()
        _cuda._check(lib.cuMemAlloc_v2(_ctypes.byref(ptr),
                                       max(self.nbytes, 1)), "cuMemAlloc")
        self.ptr = ptr.value

    @classmethod
    def from_host(cls, array):
        """A device copy of a NumPy array."""
        array = _np.ascontiguousarray(array)
        d = cls(array.shape, array.dtype)
        _cuda._check(_cuda._lib.cuMemcpyHtoD_v2(d.ptr, array.ctypes.data,
                                                d.nbytes), "cuMemcpyHtoD")
        return d

    def copy_to(self, array):
        """Copies this array into the C-contiguous NumPy array `array`."""
        if array.shape != self.shape or array.dtype != self.dtype or \
                not array.flags.c_contiguous:
            raise ValueError("copy_to needs a C-contiguous %s array of shape "
                             "%s" % (self.dtype, self.shape))
        _cuda._check(_cuda._lib.cuMemcpyDtoH_v2(array.ctypes.data, self.ptr,
                                                self.nbytes), "cuMemcpyDtoH")
        return array

    def to_host(self):
        """A NumPy copy of this array."""
        return self.copy_to(_np.empty(self.shape, self.dtype))

    @property
    def __cuda_array_interface__(self):
        """The array as CUDA Array Interface v3 describes it (no stream:
        its copies are synchronous), so other libraries read it in place
        (cupy.asarray, torch.as_tensor)."""
        return {"shape": self.shape, "typestr": self.dtype.str,
                "data": (self.ptr, False), "version": 3, "strides": None,
                "stream": None}

    def _memref_view(self):
        return _arrays.ArrayView(self.ptr, self.shape, None, self.dtype.name,
                                 None, _DEVICE, None, False,
                                 "DeviceArray")

    def free(self):
        """Releases the GPU memory (also when the array is collected)."""
        if self.ptr and _cuda._lib is not None:
            _cuda._lib.cuMemFree_v2(self.ptr)
        self.ptr = 0

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass


def copy_back(device, array):
    """Copies DeviceArray `device` into the NumPy array it was copied from."""
    if array.flags.c_contiguous:
        device.copy_to(array)
    else:
        array[...] = device.to_host()


# Last: cuda imports this module (see _launch.py).
from . import cuda as _cuda  # noqa: E402
