"""Run compiled kernels on an NVIDIA GPU through the CUDA driver API.

    import layout_opt as lo
    cubin = lo.Module.parse(text).compile("nvvm", chip="sm_90")
    out = lo.cuda.run(cubin, "tile_transpose_f32", grid=(gx, gy, 1),
                      block=(32, 8, 1), args=(a, b))   # b updated in place

The driver (libcuda.so.1) is loaded with ctypes when first needed, so this
module imports everywhere and needs nothing beyond NumPy; on a machine
without the driver or a GPU, every call that needs one raises CudaError
saying so (`available()` tells beforehand).

Kernel arguments follow MLIR's GPU calling convention (the one
-layout-to-nvvm produces): a memref argument is its descriptor, spread
into (allocated pointer, aligned pointer, offset, sizes..., strides...)
with sizes and strides in elements; an `index` is an int64 and an `f32` a
C float. `run` passes NumPy arrays that way (copied to the GPU and back),
Python ints as index values and Python floats as f32 values; `Kernel`
launches with device arrays already on the GPU and times launches with
CUDA events (as bench/common/timing.h does in C++).

This module only uses ctypes and NumPy, so it can also be loaded from its
file alone on a machine where the package's C++ extension is not built.
"""

import ctypes as _ctypes

import numpy as _np


class CudaError(RuntimeError):
    """A CUDA driver call failed, or no driver or GPU is present."""


_lib = None
_context = None
_load_error = None


def _driver():
    """The loaded libcuda, with its argument types declared (once)."""
    global _lib, _load_error
    if _lib is not None:
        return _lib
    if _load_error is not None:
        raise CudaError(_load_error)
    try:
        lib = _ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        _load_error = ("no CUDA driver: libcuda.so.1 cannot be loaded (%s); "
                       "kernels run only where an NVIDIA GPU and its driver "
                       "are installed" % e)
        raise CudaError(_load_error) from None
    c = _ctypes
    u64p = c.POINTER(c.c_uint64)
    sigs = {
        "cuInit": [c.c_uint],
        "cuDeviceGetCount": [c.POINTER(c.c_int)],
        "cuDeviceGet": [c.POINTER(c.c_int), c.c_int],
        "cuDeviceGetName": [c.c_char_p, c.c_int, c.c_int],
        "cuDevicePrimaryCtxRetain": [c.POINTER(c.c_void_p), c.c_int],
        "cuCtxSetCurrent": [c.c_void_p],
        "cuCtxSynchronize": [],
        "cuModuleLoadData": [c.POINTER(c.c_void_p), c.c_void_p],
        "cuModuleUnload": [c.c_void_p],
        "cuModuleGetFunction": [c.POINTER(c.c_void_p), c.c_void_p,
                                c.c_char_p],
        "cuFuncGetAttribute": [c.POINTER(c.c_int), c.c_int, c.c_void_p],
        "cuMemAlloc_v2": [u64p, c.c_size_t],
        "cuMemFree_v2": [c.c_uint64],
        "cuMemcpyHtoD_v2": [c.c_uint64, c.c_void_p, c.c_size_t],
        "cuMemcpyDtoH_v2": [c.c_void_p, c.c_uint64, c.c_size_t],
        "cuLaunchKernel": [c.c_void_p, c.c_uint, c.c_uint, c.c_uint,
                           c.c_uint, c.c_uint, c.c_uint, c.c_uint,
                           c.c_void_p, c.POINTER(c.c_void_p), c.c_void_p],
        "cuEventCreate": [c.POINTER(c.c_void_p), c.c_uint],
        "cuEventRecord": [c.c_void_p, c.c_void_p],
        "cuEventSynchronize": [c.c_void_p],
        "cuEventElapsedTime": [c.POINTER(c.c_float), c.c_void_p, c.c_void_p],
        "cuEventDestroy_v2": [c.c_void_p],
        "cuGetErrorString": [c.c_int, c.POINTER(c.c_char_p)],
    }
    for name, args in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = c.c_int
    _lib = lib
    return lib


def _check(result, what):
    if result == 0:
        return
    message = _ctypes.c_char_p()
    text = "error %d" % result
    if _lib.cuGetErrorString(result, _ctypes.byref(message)) == 0 and \
            message.value:
        text = message.value.decode()
    raise CudaError("%s failed: %s" % (what, text))


def _ensure_context():
    """Initializes the driver and makes device 0's primary context current."""
    global _context
    lib = _driver()
    if _context is not None:
        return lib
    _check(lib.cuInit(0), "cuInit")
    count = _ctypes.c_int()
    _check(lib.cuDeviceGetCount(_ctypes.byref(count)), "cuDeviceGetCount")
    if count.value == 0:
        raise CudaError("no CUDA device: the driver sees no GPU")
    device = _ctypes.c_int()
    _check(lib.cuDeviceGet(_ctypes.byref(device), 0), "cuDeviceGet")
    ctx = _ctypes.c_void_p()
    _check(lib.cuDevicePrimaryCtxRetain(_ctypes.byref(ctx), device),
           "cuDevicePrimaryCtxRetain")
    _check(lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    _context = ctx
    return lib


def available():
    """Whether a CUDA driver and at least one GPU are present."""
    try:
        _ensure_context()
        return True
    except CudaError:
        return False


def device_name():
    """The name of device 0 ("NVIDIA H100 80GB HBM3")."""
    lib = _ensure_context()
    device = _ctypes.c_int()
    _check(lib.cuDeviceGet(_ctypes.byref(device), 0), "cuDeviceGet")
    name = _ctypes.create_string_buffer(256)
    _check(lib.cuDeviceGetName(name, 256, device), "cuDeviceGetName")
    return name.value.decode()


def chip():
    """Device 0's chip as the compiler names it ("sm_90" for an H100):
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR (75, 76)."""
    lib = _ensure_context()
    device = _ctypes.c_int()
    _check(lib.cuDeviceGet(_ctypes.byref(device), 0), "cuDeviceGet")
    cc = []
    for attribute in (75, 76):
        v = _ctypes.c_int()
        _check(lib.cuDeviceGetAttribute(_ctypes.byref(v), attribute, device),
               "cuDeviceGetAttribute")
        cc.append(v.value)
    return "sm_%d%d" % tuple(cc)


class DeviceArray:
    """A C-contiguous array in GPU memory: its shape, dtype and address."""

    def __init__(self, shape, dtype):
        lib = _ensure_context()
        self.shape = tuple(int(n) for n in shape)
        self.dtype = _np.dtype(dtype)
        self.nbytes = int(_np.prod(self.shape, dtype=_np.int64)) * \
            self.dtype.itemsize
        ptr = _ctypes.c_uint64()
        _check(lib.cuMemAlloc_v2(_ctypes.byref(ptr), max(self.nbytes, 1)),
               "cuMemAlloc")
        self.ptr = ptr.value

    @classmethod
    def from_host(cls, array):
        """A device copy of a NumPy array."""
        array = _np.ascontiguousarray(array)
        d = cls(array.shape, array.dtype)
        _check(_lib.cuMemcpyHtoD_v2(d.ptr, array.ctypes.data, d.nbytes),
               "cuMemcpyHtoD")
        return d

    def copy_to(self, array):
        """Copies this array into the C-contiguous NumPy array `array`."""
        if array.shape != self.shape or array.dtype != self.dtype or \
                not array.flags.c_contiguous:
            raise ValueError("copy_to needs a C-contiguous %s array of shape "
                             "%s" % (self.dtype, self.shape))
        _check(_lib.cuMemcpyDtoH_v2(array.ctypes.data, self.ptr, self.nbytes),
               "cuMemcpyDtoH")
        return array

    def to_host(self):
        """A NumPy copy of this array."""
        return self.copy_to(_np.empty(self.shape, self.dtype))

    def free(self):
        """Releases the GPU memory (also when the array is collected)."""
        if self.ptr and _lib is not None:
            _lib.cuMemFree_v2(self.ptr)
        self.ptr = 0

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass


def memref_arguments(shape, address):
    """The values a memref argument of `shape` at `address` is spread into:
    allocated pointer, aligned pointer, offset 0, the sizes and the
    row-major strides (in elements)."""
    strides = []
    step = 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= int(n)
    return [("ptr", address), ("ptr", address), ("i64", 0)] + \
        [("i64", int(n)) for n in shape] + [("i64", s) for s in strides]


def kernel_arguments(args):
    """The typed values (("ptr" | "i64" | "f32", value), ...) of a launch's
    arguments: DeviceArrays as memref descriptors, ints as index values,
    floats as f32 values."""
    values = []
    for a in args:
        if isinstance(a, DeviceArray):
            values += memref_arguments(a.shape, a.ptr)
        elif isinstance(a, (bool, _np.bool_)):
            raise TypeError("a bool is not a kernel argument (pass an int)")
        elif isinstance(a, (int, _np.integer)):
            values.append(("i64", int(a)))
        elif isinstance(a, (float, _np.floating)):
            values.append(("f32", float(a)))
        else:
            raise TypeError("a kernel argument must be a DeviceArray, an int "
                            "(index) or a float (f32), got %s"
                            % type(a).__name__)
    return values


def _triple(v, what):
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise ValueError("%s must be 1 to 3 positive sizes, got %s"
                         % (what, v))
    return v + (1,) * (3 - len(v))


class Kernel:
    """A kernel of a loaded cubin."""

    def __init__(self, cubin, name):
        lib = _ensure_context()
        self._cubin = _ctypes.create_string_buffer(bytes(cubin), len(cubin))
        module = _ctypes.c_void_p()
        _check(lib.cuModuleLoadData(_ctypes.byref(module), self._cubin),
               "cuModuleLoadData")
        self._module = module
        fn = _ctypes.c_void_p()
        result = lib.cuModuleGetFunction(_ctypes.byref(fn), module,
                                         name.encode())
        if result != 0:
            raise CudaError("the code object has no kernel '%s'" % name)
        self._fn = fn
        self.name = name

    def _attribute(self, attribute):
        n = _ctypes.c_int()
        _check(_lib.cuFuncGetAttribute(_ctypes.byref(n), attribute, self._fn),
               "cuFuncGetAttribute")
        return n.value

    def registers(self):
        """Registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS)."""
        return self._attribute(4)

    def shared_bytes(self):
        """Static shared memory per block, in bytes
        (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)."""
        return self._attribute(1)

    def prepare(self, args):
        """The kernel parameter array of `args` (kernel_arguments), made
        once for repeated launches."""
        holders = []
        for kind, v in kernel_arguments(args):
            if kind == "ptr":
                holders.append(_ctypes.c_void_p(v))
            elif kind == "i64":
                holders.append(_ctypes.c_int64(v))
            else:
                holders.append(_ctypes.c_float(v))
        params = (_ctypes.c_void_p * len(holders))(
            *[_ctypes.cast(_ctypes.pointer(h), _ctypes.c_void_p)
              for h in holders])
        # The values must outlive the array that points at them.
        params.holders = holders
        return params

    def launch(self, grid, block, args, shared=0, params=None):
        """Launches on the default stream (asynchronous); `params` from
        prepare(args) saves marshalling them again."""
        grid, block = _triple(grid, "grid"), _triple(block, "block")
        if params is None:
            params = self.prepare(args)
        _check(_lib.cuLaunchKernel(self._fn, *grid, *block, int(shared), None,
                                   params, None),
               "cuLaunchKernel(%s)" % self.name)

    def __call__(self, grid, block, args, shared=0):
        """Launches and waits for the kernel to finish."""
        self.launch(grid, block, args, shared)
        synchronize()

    def time(self, grid, block, args, shared=0, warm=3, runs=20):
        """The median milliseconds of `runs` launches after `warm` warm-ups,
        each between two CUDA events (the arguments marshalled once, so
        the events enclose the launch call alone)."""
        params = self.prepare(args)
        for _ in range(warm):
            self.launch(grid, block, args, shared, params)
        synchronize()
        start, end = _ctypes.c_void_p(), _ctypes.c_void_p()
        _check(_lib.cuEventCreate(_ctypes.byref(start), 0), "cuEventCreate")
        _check(_lib.cuEventCreate(_ctypes.byref(end), 0), "cuEventCreate")
        times = []
        # Nothing but the launch call between the two records: the sizes
        # are checked, and the driver's functions looked up, before.
        g, b = _triple(grid, "grid"), _triple(block, "block")
        record, launch, fn = _lib.cuEventRecord, _lib.cuLaunchKernel, self._fn
        try:
            for _ in range(runs):
                _check(record(start, None), "cuEventRecord")
                result = launch(fn, g[0], g[1], g[2], b[0], b[1], b[2],
                                shared, None, params, None)
                _check(record(end, None), "cuEventRecord")
                _check(result, "cuLaunchKernel(%s)" % self.name)
                _check(_lib.cuEventSynchronize(end), "cuEventSynchronize")
                ms = _ctypes.c_float()
                _check(_lib.cuEventElapsedTime(_ctypes.byref(ms), start, end),
                       "cuEventElapsedTime")
                times.append(ms.value)
        finally:
            _lib.cuEventDestroy_v2(start)
            _lib.cuEventDestroy_v2(end)
        times.sort()
        return times[len(times) // 2]


def synchronize():
    """Waits for every launch to finish (and reports its error)."""
    lib = _ensure_context()
    _check(lib.cuCtxSynchronize(), "cuCtxSynchronize")


def run(cubin, name, grid, block, args, shared=0):
    """Launches kernel `name` of `cubin` on NumPy arrays: each array is
    copied to the GPU, passed as a memref, and copied back into the same
    array after the kernel ends; ints pass as index values, floats as f32.
    Returns `args`."""
    kernel = Kernel(cubin, name)
    device = [DeviceArray.from_host(a) if isinstance(a, _np.ndarray) else a
              for a in args]
    try:
        kernel(grid, block, device, shared)
        for a, d in zip(args, device):
            if isinstance(a, _np.ndarray):
                if a.flags.c_contiguous:
                    d.copy_to(a)
                else:
                    a[...] = d.to_host()
    finally:
        for d in device:
            if isinstance(d, DeviceArray):
                d.free()
    return args
