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
C float. `Kernel.launch` takes device arrays in place, nothing copied:
torch tensors, CuPy arrays, anything with `__cuda_array_interface__` or a
CUDA `__dlpack__`, and DeviceArray; it launches on `stream=`, else on
torch's current stream for torch tensors (layout_opt/_launch.py says
which stream, and how array streams are ordered). `run` copies NumPy
arrays to the GPU and back; Python ints pass as index values and floats
as f32 values. `Kernel.time` times launches with CUDA events (as
bench/common/timing.h does in C++).

`load(path)` reads a code object saved by a tile kernel
(`kernel.compile(chip).save(path)`) and returns a Launcher, which checks
each argument against the kernel's parameters and launches on the grid of
its partition; it needs no compiler.

A kernel that loads tiles with the TMA (sm_90a) exports
`<kernel>_tensor_maps`; `Kernel` reads it, and each launch encodes those
tensor maps from the memref arguments (cuTensorMapEncodeTiled) and passes
them after the usual parameters. docs/tensor-maps.md is the contract;
decode_tensor_map_specs, plan_tensor_map and find_tensor_map_argument
restate the C++ launcher's rule (layout/Runtime/TensorMapSpec.h) and need
no GPU.

This module and the ones it imports (_arrays, _launch, _code,
_device_array) only use ctypes and NumPy: `import layout_opt.cuda` works
where the package's C++ extension cannot be imported.
"""

import collections as _collections
import ctypes as _ctypes
import struct as _struct
import threading as _threading

import numpy as _np

from . import _arrays
from . import _launch
from ._code import load_code_object as _load_code_object
from ._device_array import DeviceArray, copy_back as _copy_back


class CudaError(RuntimeError):
    """A CUDA driver call failed, or no driver or GPU is present."""


_lib = None
_context = None
_load_error = None
# Whether _context is current in this thread (a context is current per
# thread; PyTorch's runtime makes it current lazily in each thread).
_thread = _threading.local()
# CUDA_ERROR_INVALID_CONTEXT: no context current in the calling thread.
_INVALID_CONTEXT = 201


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
        "cuStreamSynchronize": [c.c_void_p],
        "cuStreamWaitEvent": [c.c_void_p, c.c_void_p, c.c_uint],
        "cuPointerGetAttribute": [c.c_void_p, c.c_int, c.c_uint64],
        "cuDeviceGetAttribute": [c.POINTER(c.c_int), c.c_int, c.c_int],
        "cuModuleLoadData": [c.POINTER(c.c_void_p), c.c_void_p],
        "cuModuleUnload": [c.c_void_p],
        "cuModuleGetFunction": [c.POINTER(c.c_void_p), c.c_void_p,
                                c.c_char_p],
        "cuFuncGetAttribute": [c.POINTER(c.c_int), c.c_int, c.c_void_p],
        "cuFuncSetAttribute": [c.c_void_p, c.c_int, c.c_int],
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
        "cuGetErrorName": [c.c_int, c.POINTER(c.c_char_p)],
        "cuModuleGetGlobal_v2": [u64p, c.POINTER(c.c_size_t), c.c_void_p,
                                 c.c_char_p],
        # Enums are C ints.
        "cuTensorMapEncodeTiled": [
            c.c_void_p, c.c_int, c.c_uint, c.c_void_p, u64p, u64p,
            c.POINTER(c.c_uint32), c.POINTER(c.c_uint32), c.c_int, c.c_int,
            c.c_int, c.c_int],
        "cuTensorMapEncodeIm2col": [
            c.c_void_p, c.c_int, c.c_uint, c.c_void_p, u64p, u64p,
            c.POINTER(c.c_int), c.POINTER(c.c_int), c.c_uint32, c.c_uint32,
            c.POINTER(c.c_uint32), c.c_int, c.c_int, c.c_int, c.c_int],
    }
    for name, args in sigs.items():
        # Drivers before CUDA 12 lack the tensor-map encoders, which only
        # TMA kernels need (_encode_tensor_map says so).
        if name.startswith("cuTensorMapEncode") and not hasattr(lib, name):
            continue
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


def _error_name(result):
    """The name of a CUresult ("CUDA_ERROR_INVALID_VALUE")."""
    name = _ctypes.c_char_p()
    if _lib.cuGetErrorName(result, _ctypes.byref(name)) == 0 and name.value:
        return name.value.decode()
    return "CUresult %d" % result


def _ensure_context():
    """Initializes the driver and makes device 0's primary context current."""
    global _context
    lib = _driver()
    if _context is not None:
        if not getattr(_thread, "current", False):
            _check(lib.cuCtxSetCurrent(_context), "cuCtxSetCurrent")
            _thread.current = True
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
    _thread.current = True
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


def memref_arguments(shape, address):
    """The values a memref argument of `shape` at `address` is spread into:
    allocated pointer, aligned pointer, offset 0, the sizes and the
    row-major strides (in elements)."""
    return _launch.memref_values(_arrays.ArrayView(
        address, tuple(shape), None, "", None, None, None, False, ""))


def kernel_arguments(args):
    """The typed values (("ptr" | "i64" | "f32", value), ...) of a launch's
    arguments: device arrays (DeviceArray, torch tensors, CuPy arrays, any
    `__cuda_array_interface__` or CUDA `__dlpack__`) as memref
    descriptors, ints as index values, floats as f32 values. Raises,
    naming the argument, for arrays that are not C-contiguous, on another
    device or on the host."""
    read = _launch.read_arguments(list(args))
    return list(zip(read.kinds, read.values))


def _triple(v, what):
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise ValueError("%s must be 1 to 3 positive sizes, got %s"
                         % (what, v))
    return v + (1,) * (3 - len(v))


# Tensor maps (TMA). docs/tensor-maps.md is the contract; the C++ launcher
# (include/layout/Runtime/TensorMapSpec.h, TensorMaps.h) implements the same
# rule with the same messages. The driver's limits are those of
# cuTensorMapEncodeTiled (CUDA Driver API; cuda.h's comment on it):
# globalAddress 16-byte aligned, globalDim 1 to 2^32, byte strides multiples
# of 16 below 2^40, boxDim 1 to 256 with boxDim[0] * elementBytes a multiple
# of 16 and within the swizzle span, the map 64-byte aligned.

_TENSOR_MAPS_VERSION = 1
_MAX_RANK = 5
# CUtensorMapDataType (UINT8 = 0 .. TFLOAT32_FTZ = 12) -> element bytes; the
# packed 4- and 6-bit types are not encoded.
_ELEMENT_BYTES = (1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4)
_CUDA_ERROR_NOT_FOUND = 500


class TensorMapSpec(_collections.namedtuple(
        "TensorMapSpec", "argument rank data_type element_bytes swizzle "
        "oob_fill l2_promotion box im2col lower_corner upper_corner "
        "traversal", defaults=(False, (), (), ()))):
    """One map a kernel needs: its 16 words of `<kernel>_tensor_maps`
    decoded (docs/tensor-maps.md). `argument` is the kernel argument whose
    memref it covers; `box` has `rank` entries, innermost first (im2col:
    channels per pixel, pixels per column). An im2col map also has its
    bounding-box corners (rank - 2 each, innermost first) and traversal
    strides (rank, innermost first)."""


class MemRefArgument(_collections.namedtuple(
        "MemRefArgument", "aligned offset sizes strides")):
    """A memref argument as MLIR's calling convention passes it: aligned
    address, offset, sizes and strides in elements, outermost first."""


class TensorMapEncoding(_collections.namedtuple(
        "TensorMapEncoding", "usable global_address global_dim "
        "global_strides box_dim element_strides im2col",
        defaults=(False,))):
    """cuTensorMapEncodeTiled's arguments for one map, innermost dimension
    first (for an im2col map, cuTensorMapEncodeIm2col's: the spec gives its
    corners and box); usable False and every value 0 or empty where the map
    is not usable (128 zero bytes are passed for it)."""


_NOT_USABLE = TensorMapEncoding(False, 0, (), (), (), (), False)


def _decode_tensor_map_spec(w, i):
    at = "map %d: " % i
    if w[0] > 0xFFFFFFFF:
        raise ValueError(at + "argument %d is out of range" % w[0])
    rank = w[1]
    if not 1 <= rank <= _MAX_RANK:
        raise ValueError(at + "rank %d, the TMA takes 1 to 5" % rank)
    nbytes = _ELEMENT_BYTES[w[2]] if w[2] < len(_ELEMENT_BYTES) else 0
    if not nbytes:
        raise ValueError(at + "data type %d is not one this launcher encodes"
                         % w[2])
    if w[3] != nbytes:
        raise ValueError(at + "element bytes %d, data type %d has %d"
                         % (w[3], w[2], nbytes))
    for value, what, top in ((w[4], "swizzle", 3),
                             (w[5], "out-of-bounds fill", 1),
                             (w[6], "L2 promotion", 3)):
        if value > top:
            raise ValueError(at + "%s %d, expected %s" % (
                what, value, "0 or 1" if top == 1 else "0 to 3"))
    if w[12] > 1:
        raise ValueError(at + "mode %d, expected 0 (tiled) or 1 (im2col)"
                         % w[12])
    box_rank = 2 if w[12] else rank
    for j in range(_MAX_RANK):
        b, most = w[7 + j], 1024 if w[12] and j == 1 else 256
        if j < box_rank and not 1 <= b <= most:
            raise ValueError(at + "box[%d] = %d, the TMA takes 1 to %d"
                             % (j, b, most))
        if j >= box_rank and b != 0:
            raise ValueError(at + "box[%d] = %d past %s, expected 0" % (
                j, b, "the im2col box's 2 dimensions" if w[12]
                else "rank %d" % rank))
    inner = w[7] * nbytes
    if inner % 16:
        raise ValueError(at + "the box's inner dimension is %d bytes, not a "
                         "multiple of 16" % inner)
    span = 16 << w[4] if w[4] else 0
    if span and inner > span:
        raise ValueError(at + "the box's inner dimension is %d bytes, more "
                         "than the %d-byte swizzle span" % (inner, span))
    if w[12]:
        return _decode_im2col_words(w, at, rank, nbytes)
    for j in range(13, 16):
        if w[j]:
            raise ValueError(at + "reserved word %d is %d, expected 0"
                             % (j, w[j]))
    return TensorMapSpec(w[0], rank, w[2], nbytes, w[4], w[5], w[6],
                         tuple(w[7:7 + rank]))


def _decode_im2col_words(w, at, rank, nbytes):
    """The TensorMapSpec of an im2col map (word 12 = 1): corners in words
    13 and 14 (16-bit fields, innermost first), traversal strides in word
    15 (a byte each), as TensorMapSpec.h decodes them."""
    if rank < 3:
        raise ValueError(at + "an im2col map of rank %d, the TMA takes 3 to 5"
                         % rank)
    limit = {3: 32768, 4: 128, 5: 16}[rank]
    corners = ([], [])
    for j in range(3):
        for k in range(2):
            c = (w[13 + k] >> (16 * j)) & 0xFFFF
            c = c - 0x10000 if c & 0x8000 else c
            if (c != 0) if j >= rank - 2 else not -limit <= c < limit:
                raise ValueError(at + "im2col corner %d (word %d, field %d), "
                                 "a rank-%d map takes -%d to %d"
                                 % (c, 13 + k, j, rank, limit, limit - 1))
            if j < rank - 2:
                corners[k].append(c)
    if (w[13] | w[14]) >> 48:
        raise ValueError(at + "im2col corner words have bits past the 3 "
                         "fields")
    traversal = []
    for j in range(_MAX_RANK):
        t = (w[15] >> (8 * j)) & 0xFF
        if (not 1 <= t <= 8) if j < rank else t != 0:
            raise ValueError(at + "traversal stride %d of dimension %d, "
                             "expected 1 to 8 within the rank, 0 past it"
                             % (t, j))
        if j < rank:
            traversal.append(t)
    if w[15] >> 40:
        raise ValueError(at + "the traversal word has bits past the 5 "
                         "strides")
    return TensorMapSpec(w[0], rank, w[2], nbytes, w[4], w[5], w[6],
                         tuple(w[7:9]), True, tuple(corners[0]),
                         tuple(corners[1]), tuple(traversal))


def decode_tensor_map_specs(words):
    """The TensorMapSpecs of a kernel's `<kernel>_tensor_maps` words
    (version, n, then 16 words per map). Raises ValueError saying what is
    wrong: the version, n against the word count, or a map outside the
    TMA's limits."""
    words = [int(w) for w in words]
    if len(words) < 2:
        raise ValueError("%d words, fewer than the 2 of the header "
                         "(version, n)" % len(words))
    if words[0] != _TENSOR_MAPS_VERSION:
        raise ValueError("format version %d, this launcher reads version 1"
                         % words[0])
    n = words[1]
    if len(words) != 2 + 16 * n:
        raise ValueError("n = %d maps need 2 + 16 n words, the global has %d"
                         % (n, len(words)))
    return [_decode_tensor_map_spec(words[2 + 16 * i:18 + 16 * i], i)
            for i in range(n)]


def plan_tensor_map(spec, memref):
    """Whether the map of `spec` is usable on `memref` (a MemRefArgument,
    the launch's argument spec.argument), as a TensorMapEncoding: usable
    when the innermost stride is 1, aligned + offset * element_bytes is
    16-byte aligned and every other stride * element_bytes is a multiple of
    16 (what the kernel tests at run time). Raises ValueError naming the
    argument for a usable map outside the driver's limits (a size of 0 or
    above 2^32, a negative stride or one of 2^40 bytes or more) and for a
    memref of another rank than the map's."""
    at = "argument %d: " % spec.argument
    rank, nbytes = spec.rank, spec.element_bytes
    sizes, strides = [int(n) for n in memref.sizes], \
        [int(s) for s in memref.strides]
    if not 1 <= rank <= _MAX_RANK or len(sizes) != rank or \
            len(strides) != rank:
        raise ValueError(at + "the kernel's tensor map has rank %d, the "
                         "memref rank %d" % (rank, len(sizes)))
    if nbytes == 0:
        raise ValueError(at + "the kernel's tensor map has 0-byte elements")
    address = (int(memref.aligned) + int(memref.offset) * nbytes) % 2 ** 64
    usable = strides[-1] == 1 and address % 16 == 0 and \
        all(s * nbytes % 16 == 0 for s in strides[:-1])
    if not usable:
        return _NOT_USABLE
    for d, size in enumerate(sizes):
        if not 1 <= size <= 2 ** 32:
            raise ValueError(at + "size %d along dimension %d (the TMA takes "
                             "1 to 2^32)" % (size, d))
    for d, stride in enumerate(strides[:-1]):
        if not 0 <= stride * nbytes < 2 ** 40:
            raise ValueError(at + "stride %d of %d-byte elements along "
                             "dimension %d (the TMA takes byte strides from "
                             "0 to below 2^40)" % (stride, nbytes, d))
    return TensorMapEncoding(
        True, address, tuple(reversed(sizes)),
        tuple(s * nbytes for s in reversed(strides[:-1])),
        tuple(spec.box), tuple(spec.traversal) if spec.im2col else (1,) * rank,
        spec.im2col)


def find_tensor_map_argument(spec, index, arguments):
    """The MemRefArgument that map `index` (of `spec`) covers:
    arguments[a] is kernel argument a's MemRefArgument, or None where
    argument a is not a memref. Raises ValueError naming the argument when
    it is missing or not a memref."""
    at = "argument %d: tensor map %d covers it, but " % (spec.argument, index)
    if spec.argument >= len(arguments):
        raise ValueError(at + "the launch has %d arguments" % len(arguments))
    if arguments[spec.argument] is None:
        raise ValueError(at + "it is not a memref")
    return arguments[spec.argument]


def _memref_argument(view):
    """An argument's ArrayView as a MemRefArgument (None for a scalar)."""
    if view is None:
        return None
    return MemRefArgument(view.pointer, 0, view.shape,
                          _arrays.row_major_strides(view.shape))


class _TensorMapStorage:
    """128 bytes, 64-byte aligned (cuTensorMapEncodeTiled's requirement),
    zero until encoded; `address` is what kernelParams points at."""

    def __init__(self):
        self._buffer = (_ctypes.c_uint8 * (128 + 64))()
        base = _ctypes.addressof(self._buffer)
        self.address = base + (-base) % 64


def _encode_tensor_map(spec, index, arguments):
    """A _TensorMapStorage holding map `index` encoded for a launch whose
    MemRefArguments are `arguments` (zeros where it is not usable)."""
    plan = plan_tensor_map(spec, find_tensor_map_argument(spec, index,
                                                          arguments))
    storage = _TensorMapStorage()
    if not plan.usable:
        return storage
    lib = _driver()
    name = "cuTensorMapEncodeIm2col" if plan.im2col else \
        "cuTensorMapEncodeTiled"
    if getattr(lib, name, None) is None:
        raise CudaError("the CUDA driver has no %s (CUDA 12 or later is "
                        "needed for TMA kernels)" % name)
    u64s, u32s = _ctypes.c_uint64 * _MAX_RANK, _ctypes.c_uint32 * _MAX_RANK
    ints = _ctypes.c_int * 3
    common = (storage.address, spec.data_type, spec.rank,
              plan.global_address, u64s(*plan.global_dim),
              u64s(*plan.global_strides))
    tail = (u32s(*plan.element_strides), 0, spec.swizzle, spec.l2_promotion,
            spec.oob_fill)
    if plan.im2col:
        result = lib.cuTensorMapEncodeIm2col(
            *common, ints(*spec.lower_corner), ints(*spec.upper_corner),
            spec.box[0], spec.box[1], *tail)
    else:
        result = lib.cuTensorMapEncodeTiled(*common, u32s(*plan.box_dim),
                                            *tail)
    if result != 0:
        raise CudaError("argument %d: %s failed: %s"
                        % (spec.argument, name, _error_name(result)))
    return storage


class Kernel:
    """A kernel of a loaded cubin."""

    def __init__(self, cubin, name):
        lib = _ensure_context()
        # One byte more: a NUL after the image, which PTX text needs (the
        # driver compiles PTX when it loads it).
        self._cubin = _ctypes.create_string_buffer(bytes(cubin),
                                                   len(cubin) + 1)
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
        # The tensor maps it takes after its usual parameters
        # (docs/tensor-maps.md): a list of TensorMapSpec, empty for a
        # kernel without TMA loads.
        self.tensor_maps = self._read_tensor_maps()
        # The dynamic shared memory it needs: <kernel>_dynamic_shared_bytes,
        # which -layout-to-nvvm exports where the kernel's buffers go past
        # the static limit (0: none). Every launch passes at least this,
        # and the kernel is allowed it where it is above the default 48 KiB.
        self.dynamic_shared_bytes = self._read_dynamic_shared_bytes()
        self._packers, self._events = {}, []

    def _read_dynamic_shared_bytes(self):
        raw = self._read_global("_dynamic_shared_bytes")
        if raw is None:
            return 0
        if len(raw) != 4:
            raise ValueError("%s_dynamic_shared_bytes: %d bytes, not a 32-bit "
                             "count" % (self.name, len(raw)))
        bytes_ = _struct.unpack("<I", raw)[0]
        if bytes_ > 48 * 1024:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            _check(_lib.cuFuncSetAttribute(self._fn, 8, bytes_),
                   "cuFuncSetAttribute(%s, max dynamic shared bytes %d)"
                   % (self.name, bytes_))
        return bytes_

    def _read_global(self, suffix):
        """The bytes of the module's global <kernel><suffix>, or None where
        the module has no such global."""
        name = self.name + suffix
        at, size = _ctypes.c_uint64(), _ctypes.c_size_t()
        result = _lib.cuModuleGetGlobal_v2(
            _ctypes.byref(at), _ctypes.byref(size), self._module,
            name.encode())
        if result == _CUDA_ERROR_NOT_FOUND:
            return None
        _check(result, "cuModuleGetGlobal(%s)" % name)
        raw = _ctypes.create_string_buffer(size.value)
        if size.value:
            _check(_lib.cuMemcpyDtoH_v2(raw, at.value, size.value),
                   "cuMemcpyDtoH(%s)" % name)
        return raw.raw

    def _read_tensor_maps(self):
        name = self.name + "_tensor_maps"
        raw = self._read_global("_tensor_maps")
        if raw is None:
            return []
        if len(raw) % 8:
            raise ValueError("%s: %d bytes, not a whole number of 64-bit "
                             "words" % (name, len(raw)))
        words = _struct.unpack("<%dQ" % (len(raw) // 8), raw)
        try:
            return decode_tensor_map_specs(words)
        except ValueError as e:
            raise ValueError("%s: %s" % (name, e)) from None

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
        once for repeated launches: the usual parameters, then one
        128-byte tensor map per entry of `tensor_maps`, encoded from the
        memref argument it covers (zeros where the kernel will not use it;
        ValueError or CudaError naming the argument where it cannot be
        encoded)."""
        read = _launch.read_arguments(list(args))
        packer = _launch.Packer(read.kinds, len(self.tensor_maps))
        params = packer.pack(read.values)
        # The values and maps must outlive the array that points at them.
        params.holders = [packer, self._encode_maps(read.views, params,
                                                    packer.count)]
        return params

    def _encode_maps(self, views, params, first):
        """Encodes the kernel's tensor maps from the arguments' ArrayViews
        into params[first:]; returns their storage (keep it alive)."""
        if not self.tensor_maps:
            return []
        memrefs = [_memref_argument(v) for v in views]
        storages = [_encode_tensor_map(spec, i, memrefs)
                    for i, spec in enumerate(self.tensor_maps)]
        for i, storage in enumerate(storages):
            params[first + i] = storage.address
        return storages

    def launch(self, grid, block, args, shared=0, params=None, stream=None):
        """Launches (asynchronously) on device arrays, in place: `args` as
        kernel_arguments takes them. The stream: `stream=` (a handle, a
        torch.cuda.Stream, a CuPy stream), else torch's current stream
        when an argument is a torch tensor, else the arrays' CUDA Array
        Interface stream, else the legacy default stream. `params` from
        prepare(args) saves marshalling them again (then `stream=` or the
        default stream). `shared`: dynamic shared memory bytes (at least
        the kernel's dynamic_shared_bytes)."""
        grid, block = _triple(grid, "grid"), _triple(block, "block")
        shared = max(int(shared), self.dynamic_shared_bytes)
        if params is not None:
            handle = 0 if stream is None else _arrays.stream_handle(stream)
            _check(_lib.cuLaunchKernel(self._fn, *grid, *block, shared,
                                       handle, params, None),
                   "cuLaunchKernel(%s)" % self.name)
            return
        self._launch_values(grid, block, shared,
                            _launch.read_arguments(args, stream))

    def _launch_values(self, grid, block, shared, read):
        """cuLaunchKernel on read.stream with read_arguments' values,
        packed by this signature's Packer (made on its first launch)."""
        stream = read.stream
        _launch.order_after_array_streams(read.views, stream, self._events)
        self._launch_packed(grid, block, shared, tuple(read.kinds),
                            read.values, stream, read.views)

    def _launch_packed(self, grid, block, shared, kinds, values, stream,
                       views=()):
        """cuLaunchKernel on `stream` with `values` of `kinds`, packed by
        this signature's Packer (made on its first launch), the tensor maps
        encoded from `views`."""
        packer = self._packers.get(kinds)
        if packer is None:
            packer = self._packers[kinds] = _launch.Packer(
                kinds, len(self.tensor_maps))
        with packer.lock:
            params = packer.pack(values)
            maps = self._encode_maps(views, params, packer.count)
            args = (self._fn, grid[0], grid[1], grid[2], block[0], block[1],
                    block[2], shared, stream, params, None)
            result = _lib.cuLaunchKernel(*args)
            if result == _INVALID_CONTEXT:
                # A thread where the context is not current yet.
                _ensure_context()
                result = _lib.cuLaunchKernel(*args)
            _check(result, "cuLaunchKernel(%s)" % self.name)
            del maps

    def __call__(self, grid, block, args, shared=0, stream=None):
        """Launches and waits for the kernel to finish."""
        self.launch(grid, block, args, shared, stream=stream)
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
        shared = max(int(shared), self.dynamic_shared_bytes)
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
                _copy_back(d, a)
    finally:
        for d in device:
            if isinstance(d, DeviceArray):
                d.free()
    return args


def load(path):
    """The kernel a tile kernel saved at `path`
    (`kernel.compile(chip).save(path)`), as a Launcher: `launcher(*args,
    stream=None)` checks the arguments against the kernel's parameters
    and launches on the grid of its partition. Pure Python: the compiler
    extension is not needed. The code object is loaded on the GPU at the
    first launch."""
    return Launcher(_load_code_object(path))


Launcher = _launch.Launcher
