"""Launches: arguments checked, marshalled once per signature, on a stream.

A launch reads each array argument in place (_arrays.as_array_view), checks
it against the kernel's parameter where the kernel's Signature is known
(element type, rank, static extents) and always for what the memref
calling convention needs (C-contiguous, on the context's CUDA device),
then writes the values into a parameter buffer laid out once per
signature (a Packer: one 8-byte slot per value, kernelParams pointing at
them) and calls cuLaunchKernel on the launch's stream:

- `stream=` when given (an int handle, a torch.cuda.Stream, a CuPy stream);
- else torch's current stream when an argument is a torch.Tensor (so the
  launch orders with the surrounding PyTorch work and is captured by
  torch.cuda.graph);
- else the `__cuda_array_interface__` (v3) stream of the first array that
  gives one (CuPy's current stream);
- else the legacy default stream (0).

An array whose v3 `stream` is another stream is ordered before the launch
as the protocol asks (an event recorded on its stream, which the launch
stream waits for: no host synchronization). Work after the launch is the
caller's to order: on the launch stream it follows the kernel (torch's
and CuPy's own operations, by the rules above, go on that stream unless
`stream=` named another). NumPy arrays are copied to the GPU and back
(Launcher only; the call then waits for the launch stream).
"""

import collections as _collections
import ctypes as _ctypes
import sys as _sys
import json as _json
import operator as _operator
import struct as _struct
import threading as _threading

import numpy as _np

from . import _arrays

# CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_EVENT_DISABLE_TIMING.
_POINTER_DEVICE_ORDINAL = 9
_EVENT_DISABLE_TIMING = 2
# The device whose primary context layout_opt.cuda makes current.
_DEVICE = 0


class Param(_collections.namedtuple("Param", "name dtype shape tile")):
    """A kernel parameter: a memref of `dtype` with extents `shape` (None:
    a run-time extent) cut into `tile` (a partition), or a scalar of
    `dtype` ("f32", "index") when `tile` is None."""


class Signature:
    """What a compiled tile kernel takes and how it is launched: its
    symbol `name`, its Params, the block size and the partition whose
    index space is the grid."""

    def __init__(self, name, params, block, grid_from):
        self.name = name
        self.params = [Param(p[0], p[1], tuple(p[2]) if p[2] is not None
                             else None, tuple(p[3]) if p[3] is not None
                             else None) for p in params]
        self.block = tuple(block)
        self.grid_from = grid_from
        self._grid_index = [p.name for p in self.params].index(grid_from)
        self._grids = {}

    def to_dict(self):
        """The signature as JSON values."""
        return {"name": self.name, "block": list(self.block),
                "grid": self.grid_from,
                "params": [[p.name, p.dtype, p.shape and list(p.shape),
                            p.tile and list(p.tile)] for p in self.params]}

    @classmethod
    def from_dict(cls, d):
        """The signature of to_dict's values."""
        return cls(d["name"], d["params"], d["block"], d["grid"])

    def __eq__(self, other):
        return isinstance(other, Signature) and \
            self.to_dict() == other.to_dict()

    def __repr__(self):
        return "Signature(%s)" % _json.dumps(self.to_dict())

    def grid(self, shape):
        """The grid of a launch whose `grid` partition has extents
        `shape`: its index space (ceil(extent / tile), as
        layout.index_space computes it), the last dimension on x."""
        tile = self.params[self._grid_index].tile
        shape = tuple(shape)
        if len(shape) != len(tile):
            raise ValueError("'%s' takes a %d-D array, got extents %s"
                             % (self.grid_from, len(tile), tuple(shape)))
        grid = self._grids.get(shape)
        if grid is None:
            counts = [-(-int(n) // t) for n, t in zip(shape, tile)]
            counts.reverse()
            if len(counts) > 3:
                raise ValueError("a grid has at most 3 dimensions; %s has %d"
                                 % (self.grid_from, len(counts)))
            grid = tuple(counts) + (1,) * (3 - len(counts))
            if len(self._grids) > 256:
                self._grids.clear()
            self._grids[tuple(shape)] = grid
        return grid


class Packer:
    """The kernel parameter buffer of one argument signature, laid out
    once: `kinds` lists each value's type ("ptr", "i64", "f32"), each in an
    8-byte slot of one buffer; `params` (void *[n + maps]) points at the
    slots, then at `maps` tensor maps. pack(values) writes the values."""

    def __init__(self, kinds, maps=0):
        codes = {"ptr": "Q", "i64": "q", "f32": "f4x"}
        self.struct = _struct.Struct("<" + "".join(codes[k] for k in kinds))
        self.buffer = _ctypes.create_string_buffer(max(self.struct.size, 8))
        base = _ctypes.addressof(self.buffer)
        self.params = (_ctypes.c_void_p * (len(kinds) + maps))(
            *[base + 8 * i for i in range(len(kinds))])
        self.count = len(kinds)
        # One launch at a time fills the buffer (the driver copies the
        # values when cuLaunchKernel is called).
        self.lock = _threading.Lock()

    def pack(self, values):
        """Writes `values` into the buffer; returns `params`."""
        self.struct.pack_into(self.buffer, 0, *values)
        return self.params


def _where(param, index):
    """How messages name an argument: its parameter, or its position."""
    return "parameter '%s'" % param.name if param else "argument %d" % index


# The value types of a memref argument of each rank: allocated and aligned
# pointers, offset, sizes, strides (ranks 0 to 8; PyTorch's limit is 25,
# layout_opt's tiles have at most 3 dimensions).
_MEMREF_KINDS = [("ptr", "ptr") + ("i64",) * (1 + 2 * r) for r in range(9)]


def check_array(view, param=None, arg=None, index=0):
    """Raises, naming the argument (its parameter, or position `index`),
    where `view` is not what `param` (a Param; None: any memref) takes:
    TypeError for the element type or rank, ValueError for a static
    extent, strides that are not C-contiguous, or memory off the CPU and
    the CUDA device. Returns the row-major strides (what is passed)."""
    if view is not None and view.host is None and view.pointer == 0 and \
            " on " in view.kind:
        raise ValueError("%s is a %s: kernels take CUDA arrays (or NumPy "
                         "arrays, which are copied)"
                         % (_where(param, index), view.kind))
    if param is not None:
        want = _arrays.ELEMENT_NAMES.get(param.dtype)
        if want is None:
            raise TypeError("%s is a memref of %s, which no Python array "
                            "passes (%s)" % (_where(param, index), param.dtype,
                                            ", ".join(sorted(
                                                _arrays.ELEMENT_NAMES))))
        if view is None or view.dtype != want or \
                len(view.shape) != len(param.shape):
            raise TypeError("%s takes a %d-D %s array, got %s" % (
                _where(param, index), len(param.shape), want,
                _arrays.describe(view) if view is not None else "%r (%s)" % (
                    arg, type(arg).__name__)))
        for d, n in zip(param.shape, view.shape):
            if d is not None and d != n:
                raise ValueError("%s takes a %s array of shape %s, got %s"
                                 % (_where(param, index), want, param.shape,
                                    _arrays.describe(view)))
    strides = _arrays.row_major_strides(view.shape)
    if view.strides is not None and view.strides != strides \
            and not _arrays.c_contiguous(view.shape, view.strides):
        raise ValueError(
            "%s takes a C-contiguous array (strides %s in elements), got "
            "strides %s: make it contiguous first (.contiguous() in "
            "PyTorch, cupy.ascontiguousarray, numpy.ascontiguousarray)"
            % (_where(param, index), tuple(strides), view.strides))
    return strides


def _pointer_device(pointer, what):
    lib = _cuda._ensure_context()
    ordinal = _ctypes.c_int()
    result = lib.cuPointerGetAttribute(_ctypes.byref(ordinal),
                                       _POINTER_DEVICE_ORDINAL, pointer)
    if result != 0:
        raise ValueError("%s: address 0x%x is not memory the CUDA driver "
                         "knows (cuPointerGetAttribute: %s)"
                         % (what, pointer, _cuda._error_name(result)))
    return ordinal.value


def check_device(view, what):
    """Raises ValueError where device memory `view` is on another device
    than the context's (the driver is asked where the array does not
    say); `what` names the argument."""
    if view.host is not None or view.pointer == 0:
        return
    device = view.device
    if device is None:
        device = _pointer_device(view.pointer, what)
    if device != _DEVICE:
        raise ValueError("%s is on CUDA device %d; layout_opt.cuda launches "
                         "on device %d" % (what, device, _DEVICE))


def scalar_value(param, arg, what):
    """The typed value ("i64" | "f32", value) of a scalar argument."""
    if param.dtype == "index":
        if isinstance(arg, (bool, _np.bool_)):
            raise TypeError("%s takes an int (index), got a bool" % what)
        try:
            v = _operator.index(arg)
        except TypeError:
            raise TypeError("%s takes an int (index), got %r (%s)"
                            % (what, arg, type(arg).__name__)) from None
        if not -2 ** 63 <= v < 2 ** 63:
            raise ValueError("%s takes a 64-bit index, got %d" % (what, v))
        return ("i64", v)
    if param.dtype == "f32":
        if isinstance(arg, (bool, _np.bool_)) or \
                not isinstance(arg, (int, float)) and \
                not hasattr(arg, "__float__"):
            raise TypeError("%s takes a float (f32), got %r (%s)"
                            % (what, arg, type(arg).__name__))
        return ("f32", float(arg))
    raise TypeError("%s (%s) cannot be passed from Python" % (what,
                                                              param.dtype))


def _untyped_scalar(a):
    """The typed value of a scalar argument of a kernel without a
    Signature: an int is an index, a float an f32."""
    if isinstance(a, (bool, _np.bool_)):
        raise TypeError("a bool is not a kernel argument (pass an int)")
    if isinstance(a, int) or hasattr(a, "__index__"):
        return ("i64", _operator.index(a))
    if isinstance(a, float) or hasattr(a, "__float__"):
        return ("f32", float(a))
    raise TypeError("a kernel argument must be a device array (DeviceArray, "
                    "__cuda_array_interface__, __dlpack__), an int (index) "
                    "or a float (f32), got %s" % type(a).__name__)


def _memref(view, strides, values, kinds):
    """Appends the memref of a C-contiguous `view` to `values` and its
    types to `kinds`: allocated and aligned pointer, offset 0, sizes, and
    `strides` (row-major, in elements)."""
    values += (view.pointer, view.pointer, 0)
    values += view.shape
    values += strides
    kinds += _MEMREF_KINDS[len(view.shape)]


def memref_values(view):
    """The typed values of a memref argument for a C-contiguous `view`."""
    values, kinds = [], []
    _memref(view, _arrays.row_major_strides(view.shape), values, kinds)
    return list(zip(kinds, values))


class Arguments(_collections.namedtuple(
        "Arguments", "values kinds views stream")):
    """A launch's arguments read (read_arguments): the values in the
    parameter buffer and their `kinds` ("ptr", "i64", "f32"), each
    argument's ArrayView (None for a scalar) and the launch's stream."""


def _read_array(view, param, arg, index, allow_host, values, kinds):
    """Checks an array argument and appends its memref's values."""
    strides = check_array(view, param, arg, index)
    if len(view.shape) >= len(_MEMREF_KINDS):
        raise ValueError("%s has %d dimensions; memref arguments from "
                         "Python have at most %d" % (
                             _where(param, index), len(view.shape),
                             len(_MEMREF_KINDS) - 1))
    if view.host is not None and not allow_host:
        raise TypeError("%s is a NumPy array, on the host: launches take "
                        "device arrays (copy it with DeviceArray.from_host, "
                        "or call the kernel, which copies NumPy arrays)"
                        % _where(param, index))
    _memref(view, strides, values, kinds)


def read_arguments(args, stream=None, params=None, allow_host=False):
    """The Arguments of a launch on `args`: see the module's docstring
    for the stream (`stream` is the caller's `stream=`). `params`
    (Params) are checked where given (else ints pass as indexes, floats as
    f32); NumPy arrays are refused unless `allow_host`. Raises, naming
    the argument, before anything is launched."""
    torch = _arrays.torch_module(args)
    if stream is not None:
        stream = _arrays.stream_handle(stream)
    elif torch is not None:
        stream = _arrays.torch_current_stream(torch, _DEVICE)
    values, kinds, views = [], [], []
    for i, a in enumerate(args):
        param = params[i] if params is not None else None
        if param is not None and param.tile is None:
            kind, value = scalar_value(param, a, _where(param, i))
        else:
            view = _arrays.as_array_view(a, stream)
            if view is not None or param is not None:
                _read_array(view, param, a, i, allow_host, values, kinds)
                views.append(view)
                continue
            kind, value = _untyped_scalar(a)
        values.append(value)
        kinds.append(kind)
        views.append(None)
    for i, view in enumerate(views):
        if view is not None and view.device != _DEVICE:
            check_device(view, _where(params and params[i], i))
    if stream is None:
        stream = next((v.stream for v in views if v is not None and
                       v.stream is not None), 0)
    return Arguments(values, kinds, views, stream)


def _same_stream(a, b):
    # CU_STREAM_LEGACY (1) is the NULL stream's legacy default stream.
    return (a if a != 1 else 0) == (b if b != 1 else 0)


def order_after_array_streams(views, stream, event_holder):
    """Makes `stream` wait for the v3 `__cuda_array_interface__` stream of
    each array that names another one (cuEventRecord there,
    cuStreamWaitEvent here), as the protocol asks of a consumer.
    `event_holder` (a list) keeps the one event this needs."""
    lib = _cuda._lib
    for v in views:
        if v is None or v.stream is None or _same_stream(v.stream, stream):
            continue
        if not event_holder:
            event = _ctypes.c_void_p()
            _cuda._check(lib.cuEventCreate(_ctypes.byref(event),
                                           _EVENT_DISABLE_TIMING),
                         "cuEventCreate")
            event_holder.append(event)
        event = event_holder[0]
        _cuda._check(lib.cuEventRecord(event, v.stream), "cuEventRecord")
        _cuda._check(lib.cuStreamWaitEvent(stream, event, 0),
                     "cuStreamWaitEvent")


class Launcher:
    """A compiled tile kernel ready to launch (`load`, or a tile kernel's
    call): `code` its CodeObject (binary, chip, signature), a cubin or PTX
    (format "isa", which the driver compiles when it loads it)."""

    def __init__(self, code):
        if code.signature is None:
            raise ValueError("the code object of '%s' has no signature (its "
                             "parameters): only tile kernels' code objects "
                             "launch by call" % code.kernel)
        if code.target != "nvvm":
            raise ValueError("'%s' is a %s code object; layout_opt.cuda "
                             "launches NVIDIA cubins and PTX"
                             % (code.kernel, code.chip))
        self.code = code
        self.signature = code.signature
        self._kernel = None
        self._memo = None

    @property
    def kernel(self):
        """The loaded Kernel (the code object loaded on the first use)."""
        if self._kernel is None:
            self._kernel = _cuda.Kernel(self.code.binary, self.code.kernel)
        return self._kernel

    def __call__(self, *args, stream=None):
        """Launches on `args` (one per parameter): device arrays in place,
        asynchronously on the stream Kernel.launch picks; NumPy arrays
        copied to the GPU and back (the call then waits for the kernel).
        Raises TypeError / ValueError naming the argument that does not
        match its parameter, before anything is launched."""
        sig = self.signature
        if len(args) != len(sig.params):
            raise TypeError("'%s' takes %d arguments, got %d"
                            % (sig.name, len(sig.params), len(args)))
        if stream is None and self._memo is not None and \
                self._memo.launch(self.kernel, sig, args):
            return
        read = read_arguments(args, stream, sig.params, allow_host=True)
        hosts = None
        for v in read.views:
            if v is not None and v.host is not None:
                hosts = [v.host if v is not None else None
                         for v in read.views]
                copies = [None if h is None else
                          _cuda.DeviceArray.from_host(h) for h in hosts]
                args = [c if c is not None else a
                        for c, a in zip(copies, args)]
                read = read_arguments(args, read.stream, sig.params)
                # A copy from pageable memory may still be in flight when
                # cuMemcpyHtoD returns; the launch stream may not wait for
                # the legacy stream (a non-blocking stream of PyTorch's).
                _cuda._check(_cuda._lib.cuStreamSynchronize(0),
                             "cuStreamSynchronize")
                break
        kernel = self.kernel
        grid = sig.grid(read.views[sig._grid_index].shape)
        kernel._launch_values(grid, sig.block, kernel.dynamic_shared_bytes,
                              read)
        if hosts is None and stream is None:
            self._memo = _TorchMemo.of(args, read, grid, kernel)
        if hosts is not None:
            _cuda._check(_cuda._lib.cuStreamSynchronize(read.stream),
                         "cuStreamSynchronize")
            for c, h in zip(copies, hosts):
                if c is not None:
                    _cuda._copy_back(c, h)
                    c.free()


class _TorchMemo:
    """The last launch of a Launcher on torch CUDA tensors alone, read and
    checked: a later call on tensors of the same types, dtypes, shapes,
    strides and device passes every check the same way, so it launches
    with the same values but the tensors' pointers, on torch's current
    stream, without reading the arguments again (issue 41, item 4: the
    per-call path is the key's comparison and cuLaunchKernel)."""

    __slots__ = ("types", "key", "values", "pointers", "kinds", "grid",
                 "torch")

    @staticmethod
    def _key(args):
        return tuple((a.dtype, a.shape, a.stride(), a.get_device())
                     for a in args)

    @classmethod
    def of(cls, args, read, grid, kernel):
        """The memo of a launch just made, or None where the fast path
        would not repeat it (not all torch CUDA tensors, tensor maps)."""
        torch = _sys.modules.get("torch")
        if torch is None or kernel.tensor_maps or not args or not all(
                isinstance(a, torch.Tensor) and a.is_cuda for a in args):
            return None
        memo = cls()
        memo.types = tuple(type(a) for a in args)
        memo.key = cls._key(args)
        memo.values = list(read.values)
        memo.kinds = tuple(read.kinds)
        # Each tensor's memref starts with its two pointers.
        memo.pointers = []
        at = 0
        for view in read.views:
            memo.pointers.append(at)
            at += len(_MEMREF_KINDS[len(view.shape)])
        memo.grid, memo.torch = grid, torch
        return memo

    def launch(self, kernel, sig, args):
        """Launches `args` as the memo's launch went, where they match
        it; returns whether it did."""
        if tuple(type(a) for a in args) != self.types or \
                self._key(args) != self.key:
            return False
        values = list(self.values)
        for at, a in zip(self.pointers, args):
            values[at] = values[at + 1] = a.data_ptr()
        kernel._launch_packed(
            self.grid, sig.block, kernel.dynamic_shared_bytes, self.kinds,
            values, _arrays.torch_current_stream(self.torch, _DEVICE))
        return True


# Last: cuda imports this module, and its functions are used here only at
# call time (either module may be imported first).
from . import cuda as _cuda  # noqa: E402
