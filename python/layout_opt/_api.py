"""The package's API where the compiler extension imports (layout_opt's
__init__ re-exports it; see there)."""


import operator as _operator

import numpy as _np

from ._layout_opt import (  # noqa: F401
    Descriptor,
    Layout,
    blocked_product,
    code_object_resources,
    coalesce,
    complement,
    composition,
    left_inverse,
    logical_divide,
    logical_product,
    raked_product,
    right_inverse,
    tiled_divide,
    zipped_divide,
    MLIRError,
    Module,
    Transform,
    aligned,
    embed,
    freeze,
    left_pad,
    merge,
    modulo,
    naive,
    offset,
    pad,
    packed,
    pass_through,
    replicate,
    right_pad,
    rotate,
    slice,
    sunder,
    swizzle,
    unmerge,
)
from ._layout_opt import xor  # noqa: F401
from ._layout_opt import check_partition_tile as _check_partition_tile
from ._layout_opt import partition_index_space as _partition_index_space
from ._layout_opt import partition_tile_origin as _partition_tile_origin
from ._layout_opt import _module_body
from . import cuda  # noqa: F401
from . import ir  # noqa: F401
from . import tile  # noqa: F401

Module.body = property(
    _module_body,
    doc="The module's body block: `with layout_opt.ir.InsertionPoint("
        "module.body):` builds operations into it.")

__all__ = [
    "cuda", "ir", "tile", "Descriptor", "Layout", "MLIRError", "Module",
    "Partition", "Transform", "code_object_resources",
    "View", "blocked_product", "coalesce", "complement", "composition",
    "left_inverse", "logical_divide", "logical_product", "raked_product",
    "right_inverse", "tiled_divide", "zipped_divide",
    "aligned", "compile", "embed", "freeze", "left_pad", "merge", "modulo",
    "naive", "offset", "pad", "packed", "pass_through", "replicate",
    "right_pad", "rotate", "slice", "sunder", "swizzle", "unmerge", "view",
    "xor",
]

_PADDING = {
    "zero": 0.0,
    "neg_zero": -0.0,
    "nan": float("nan"),
    "pos_inf": float("inf"),
    "neg_inf": float("-inf"),
}


def _index(value, what):
    """`value` as a Python int: an int or a NumPy integer (anything with
    __index__). A bool or a float raises TypeError instead of being
    truncated (1.5 is not tile 1)."""
    if isinstance(value, (bool, _np.bool_)):
        raise TypeError("%s must be an integer, got the bool %r"
                        % (what, value))
    try:
        return _operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, got %r (%s)"
                        % (what, value, type(value).__name__)) from None


class View:
    """A tensor view (layout.view): a NumPy array through its own strides,
    or a 1-D buffer through a descriptor."""

    def __init__(self, array, descriptor=None):
        self.array = array
        self.descriptor = descriptor
        if descriptor is None:
            self.shape = tuple(array.shape)
        else:
            if array.ndim != 1:
                raise ValueError("the buffer of a view through a descriptor "
                                 "must be 1-D, got %d-D" % array.ndim)
            if array.shape[0] < descriptor.element_space_size:
                raise ValueError(
                    "buffer of %d elements is smaller than the descriptor's "
                    "element space (%d elements)"
                    % (array.shape[0], descriptor.element_space_size))
            self.shape = tuple(descriptor.lengths)

    def partition(self, tile):
        """The view cut into tiles (layout.partition)."""
        return Partition(self, tile)

    def _inside(self, coords):
        """Whether each coordinate (..., rank) is inside the view and valid."""
        inside = _np.all((coords >= 0) & (coords < _np.array(self.shape)),
                        axis=-1)
        if self.descriptor is not None:
            # Clipped into the lengths (valids refuses the others, which
            # `inside` already excludes).
            clipped = _np.clip(coords, 0, _np.array(self.shape) - 1)
            inside &= self.descriptor.valids(clipped)
        return inside

    def _flat(self, coords):
        """Flat indices into the array of coordinates that are inside."""
        if self.descriptor is not None:
            return self.descriptor.offsets(coords)
        return _np.ravel_multi_index(tuple(_np.moveaxis(coords, -1, 0)),
                                    self.shape)


def view(array, descriptor=None):
    """layout.view of a NumPy array (its own strides) or of a 1-D buffer
    through a descriptor."""
    return View(_np.asarray(array) if descriptor is not None else array,
                descriptor)


class Partition:
    """A partition view (layout.partition): tile I holds the view's elements
    I * tile + J, J in [0, tile)."""

    def __init__(self, view_, tile):
        tile = tuple(_index(t, "a tile length") for t in tile)
        _check_partition_tile(len(view_.shape), list(tile))
        self.view = view_
        self.tile = tile

    @property
    def index_space(self):
        """Tiles per dimension: ceil(extent / tile)."""
        return tuple(_partition_index_space(list(self.view.shape),
                                           list(self.tile)))

    def _coords(self, index):
        if len(index) != len(self.tile):
            raise ValueError("expected %d tile indices, got %d"
                             % (len(self.tile), len(index)))
        origin = _partition_tile_origin(
            [_index(i, "a tile index") for i in index], list(self.tile))
        grids = _np.meshgrid(*[_np.arange(t) + o
                              for o, t in zip(origin, self.tile)],
                            indexing="ij")
        return _np.stack(grids, axis=-1).astype(_np.int64)

    def load(self, *index, padding=None):
        """Tile `index` as a NumPy array. With `padding` (zero, neg_zero,
        nan, pos_inf, neg_inf), a masked load: elements outside the view or
        at invalid descriptor coordinates read the padding value. Without
        it every element must be inside the view."""
        coords = self._coords(index)
        inside = self.view._inside(coords)
        dtype = self.view.array.dtype
        if padding is None:
            if not inside.all():
                raise ValueError("tile %s is partly outside the view; use a "
                                 "masked load (padding=...)" % (index,))
            fill = 0
        else:
            if padding not in _PADDING:
                raise ValueError("padding must be one of %s, got %r"
                                 % (sorted(_PADDING), padding))
            if padding != "zero" and not _np.issubdtype(dtype, _np.floating):
                raise ValueError("padding(%s) needs a floating-point view"
                                 % padding)
            fill = _PADDING[padding]
        out = _np.full(self.tile, fill, dtype=dtype)
        flat = self.view._flat(_np.where(inside[..., None], coords, 0))
        out[inside] = self.view.array.reshape(-1)[flat[inside]]
        return out

    def store(self, value, *index, masked=False):
        """Stores `value` (the tile's shape) at tile `index`; masked, nothing
        is written outside the view or at invalid coordinates."""
        value = _np.asarray(value)
        if value.shape != self.tile:
            raise ValueError("value of shape %s does not match the tile %s"
                             % (value.shape, self.tile))
        coords = self._coords(index)
        inside = self.view._inside(coords)
        if not masked and not inside.all():
            raise ValueError("tile %s is partly outside the view; use "
                             "masked=True" % (index,))
        flat = self.view._flat(_np.where(inside[..., None], coords, 0))
        target = self.view.array.reshape(-1)
        if not _np.shares_memory(target, self.view.array):
            raise ValueError("the array must be contiguous to be stored to")
        target[flat[inside]] = value[inside]


def compile(module, target="rocdl", chip="gfx942", format="bin", ftz=False):
    """Compiles a module's gpu.modules with -layout-to-rocdl (AMDGPU code
    object) or -layout-to-nvvm (cubin; format="isa" for PTX) and returns the
    first object's bytes. ftz (nvvm): -layout-to-nvvm's ftz option, f32
    subnormals flushed where the target's flag is honored (exp2)."""
    return module.compile(target, chip, format, ftz)
