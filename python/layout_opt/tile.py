"""Tile kernels written as Python functions (issue 20).

    import layout_opt as lo
    from layout_opt import tile as lt

    @lt.kernel(block=(32, 8, 1), grid="inp")
    def transpose(inp: lt.Partition("f32", tile=(64, 64)),
                  out: lt.Partition("f32", tile=(64, 64))):
        bx, by = lt.block_id("x"), lt.block_id("y")
        out[bx, by] = inp[by, bx].T

    print(transpose.ir)                         # the gpu.func tile program
    code = transpose.compile(chip="gfx942")     # .binary and .resources
    transpose(a, b)                             # torch / CuPy / NumPy arrays

The decorated function is traced (run once on placeholders) each time the
kernel is built: for `.ir` (then cached), `build()`, `lower()` and
`compile()`; keep it free of side effects. Each parameter annotated with
`Partition` is a memref argument of the kernel, viewed
(`layout.view`) and cut into tiles (`layout.partition`); `float` and `int`
parameters are `f32` and `index` arguments. Inside, `p[i, j]` loads tile
(i, j) of partition p (`layout.load ... masked`: elements outside the
tensor read as zero), `p[i, j] = t` stores it (masked), and tiles combine
with Python operators into `arith` / `vector` ops on whole tiles. The tile
program is cooperative: every thread of the block runs it, and
`-layout-tile-shared-memory` distributes each op onto the threads (shared
memory staging, vector widths, matrix instructions), as for the
hand-written programs of examples/.

The grid is the index space of one partition (`grid="name"`), its last
dimension on x: block (x, y, z) handles tile (..., z, y, x).
"""

import inspect as _inspect
import math as _math
import operator as _operator
import re as _re

import numpy as _np

from . import _code
from . import _launch
from . import ir as _ir
from ._code import CodeObject
from ._layout_opt import Module as _Module
from ._layout_opt import chips_with_f32_inputs as _chips_with_f32_inputs
from ._layout_opt import code_object_resources as _code_object_resources

_FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64,
                 "f8E4M3FN": 8, "f8E5M2": 8, "f8E4M3FNUZ": 8, "f8E5M2FNUZ": 8}
# The 8-bit floats the matrix instructions multiply (issue 42): the OCP
# pair on gfx950 and sm_89+, the FNUZ pair on gfx942.
_FLOAT8 = ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ")
_INT_TYPES = {"i1", "i8", "i16", "i32", "i64", "index"}
# CuTe-style operand maps of a matrix multiply: C[m, n] += A[m, k] * B[k, n].
_MATMUL_MAPS = ("[affine_map<(m, n, k) -> (m, k)>, "
                "affine_map<(m, n, k) -> (k, n)>, "
                "affine_map<(m, n, k) -> (m, n)>]")
_MATMUL_ITERATORS = ('[#vector.iterator_type<parallel>, '
                     '#vector.iterator_type<parallel>, '
                     '#vector.iterator_type<reduction>]')


def _element(dtype):
    if dtype not in _FLOAT_WIDTHS and dtype not in _INT_TYPES:
        raise ValueError("element type must be one of %s, got %r" % (
            ", ".join(sorted(set(_FLOAT_WIDTHS) | _INT_TYPES)), dtype))
    return dtype


def _extents(value, what, example, none_ok=False):
    """`value` (a list or tuple of ints; None too where `none_ok`) as a
    tuple. A string, a number or a float gets a TypeError about the
    argument, not int()'s."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError("%s must be a list or tuple of ints, as %s, got %r"
                        % (what, example, value))
    out = []
    for v in value:
        if v is None and none_ok:
            out.append(None)
        elif isinstance(v, bool) or not isinstance(v, (int, _np.integer)):
            raise TypeError("%s must be a list or tuple of ints, as %s, got "
                            "%r (%r is a %s)" % (what, example, value, v,
                                                 type(v).__name__))
        else:
            out.append(int(v))
    return tuple(out)


def _shape_text(shape):
    return "x".join("?" if d is None else str(int(d)) for d in shape)


# --- Parameter annotations ---------------------------------------------------

class Partition:
    """Annotates a kernel parameter as a tensor cut into tiles: a memref of
    `dtype` (extents `shape`, None for a run-time extent; by default all
    run-time, of the tile's rank), partitioned into `tile`."""

    def __init__(self, dtype, tile, shape=None):
        self.dtype = _element(dtype)
        self.tile = _extents(tile, "lt.Partition's tile", "tile=(64, 64)")
        self.shape = _extents(shape, "lt.Partition's shape",
                              "shape=(None, 1024) (None: a run-time extent)",
                              none_ok=True) if shape is not None else \
            (None,) * len(self.tile)
        if len(self.shape) != len(self.tile):
            raise ValueError("shape %s and tile %s have different ranks"
                             % (self.shape, self.tile))
        # The dialect checks the tile now, at the annotation's line.
        self.partition_type()

    def memref_type(self):
        return "memref<%sx%s>" % (_shape_text(self.shape), self.dtype)

    def partition_type(self):
        return _ir.layout.partition_view_type(self.shape, self.dtype,
                                              self.tile)

    def __repr__(self):
        return "Partition(%r, tile=%s)" % (self.dtype, self.tile)


class Scalar:
    """Annotates a kernel parameter as a scalar of `dtype` ("f32",
    "index", ...); `float` means Scalar("f32"), `int` Scalar("index")."""

    def __init__(self, dtype):
        self.dtype = _element(dtype)

    def __repr__(self):
        return "Scalar(%r)" % self.dtype


def _annotation(param):
    a = param.annotation
    if a is float:
        return Scalar("f32")
    if a is int:
        return Scalar("index")
    if isinstance(a, (Partition, Scalar)):
        return a
    raise TypeError("kernel parameter '%s' needs an annotation: "
                    "lt.Partition(dtype, tile=...), lt.Scalar(dtype), float "
                    "or int" % param.name)


# --- Values of a tile program --------------------------------------------------

def _type_text(value):
    return str(value.type)


_VECTOR = _re.compile(r"vector<((?:\d+x)+)(.+)>")


def _vector_parts(type_text):
    """(shape, element type) of a vector type's text; ((), the type) for a
    scalar."""
    m = _VECTOR.fullmatch(type_text)
    if not m:
        return (), type_text
    return tuple(int(d) for d in m.group(1)[:-1].split("x")), m.group(2)


def _element_of(type_text):
    """The element type of a vector type's text (or the scalar itself)."""
    return _vector_parts(type_text)[1]


def _binary(op, a, b, unsigned=False):
    """The arith op `op` (add, sub, mul, div, rem, max, min) of two values of
    one type, float or integer; integer division, remainder and extrema are
    signed, or unsigned for indexes (`unsigned`)."""
    t = _element_of(_type_text(a))
    if t in _FLOAT_WIDTHS:
        if op == "rem":
            raise TypeError("%% is for integers, not %s" % t)
        name = {"add": "addf", "sub": "subf", "mul": "mulf", "div": "divf",
                "max": "maximumf", "min": "minimumf"}[op]
    else:
        s = "u" if unsigned else "s"
        name = {"add": "addi", "sub": "subi", "mul": "muli",
                "div": "div%si" % s, "rem": "rem%si" % s,
                "max": "max%si" % s, "min": "min%si" % s}[op]
    return getattr(_ir.arith, name)(a, b)


class _Traced:
    """A value of the program being traced: it has no value yet, so it
    cannot decide Python control flow or comparisons."""

    def _refuse(self, *_):
        raise TypeError("a traced %s has no value while the kernel is traced: "
                        "it cannot drive Python control flow or comparisons "
                        "(use lt.fori_loop, lt.maximum, lt.minimum)"
                        % type(self).__name__)

    __bool__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __hash__ = object.__hash__


class _Arithmetic(_Traced):
    """+ - * of indexes and of tiles: each class's _op(op, other,
    reverse)."""

    def __add__(self, x):
        return self._op("add", x)

    def __radd__(self, x):
        return self._op("add", x, True)

    def __sub__(self, x):
        return self._op("sub", x)

    def __rsub__(self, x):
        return self._op("sub", x, True)

    def __mul__(self, x):
        return self._op("mul", x)

    def __rmul__(self, x):
        return self._op("mul", x, True)


def _index_value(x, what="an index"):
    """The index Value of an Index or a Python integer (a constant)."""
    if isinstance(x, Index):
        return x.value
    if isinstance(x, bool):
        raise TypeError("%s must be an lt Index or an int, got a bool" % what)
    try:
        v = _operator.index(x)
    except TypeError:
        raise TypeError("%s must be an lt Index or an int, got %s"
                        % (what, type(x).__name__)) from None
    return _index_constant(v)


class Index(_Arithmetic):
    """An `index` value (block ids, tile counts, loop counters). Operators
    build `arith` ops; // and % are unsigned (tile indices are never
    negative)."""

    def __init__(self, value):
        self.value = value

    def _other(self, x):
        return _index_value(x, "an index operand")

    def _op(self, op, x, reverse=False):
        other = self._other(x)
        a, b = (other, self.value) if reverse else (self.value, other)
        return Index(_binary(op, a, b, unsigned=True))

    def __floordiv__(self, x):
        return self._op("div", x)

    def __rfloordiv__(self, x):
        return self._op("div", x, True)

    def __mod__(self, x):
        return self._op("rem", x)

    def __rmod__(self, x):
        return self._op("rem", x, True)


def _index_constant(v):
    return _ir.arith.constant(_ir.Attribute.parse("%d : index" % v))


def _float_literal(value, element):
    """The literal of a float constant of type `element`: the number, or
    for inf and NaN its bit pattern (MLIR's hexadecimal float form)."""
    value = float(value)
    if _math.isfinite(value):
        narrow = {"f16": _np.float16, "f32": _np.float32}.get(element)
        with _np.errstate(over="ignore"):
            overflow = narrow is not None and not _np.isfinite(narrow(value))
        if overflow:
            raise ValueError("%r is out of the range of %s" % (value, element))
        if element == "bf16" and abs(value) > 3.3895313892515355e38:
            raise ValueError("%r is out of the range of bf16" % value)
        return repr(value)
    if element == "f16":
        return "0x%04X" % int(_np.float16(value).view(_np.uint16))
    bits32 = int(_np.float32(value).view(_np.uint32))
    if element == "bf16":
        return "0x%04X" % (bits32 >> 16)
    if element == "f32":
        return "0x%08X" % bits32
    return "0x%016X" % int(_np.float64(value).view(_np.uint64))


def _splat(value, vector_type):
    """A vector of `vector_type` holding the Python number `value`."""
    element = _element_of(vector_type)
    if isinstance(value, bool):
        raise TypeError("a tile constant must be a number, got a bool")
    if element in _FLOAT_WIDTHS:
        literal = _float_literal(value, element)
    else:
        if isinstance(value, float) and not value.is_integer():
            raise TypeError("%r is not an integer: %s tiles hold integers"
                            % (value, element))
        literal = str(int(value))
    return _ir.arith.constant(_ir.Attribute.parse(
        "dense<%s> : %s" % (literal, vector_type)))


class ScalarValue(_Traced):
    """A scalar kernel argument; in an operation with a tile it is
    broadcast to the tile's shape (`vector.broadcast`)."""

    def __init__(self, value):
        self.value = value


class Tile(_Arithmetic):
    """A tile: a vector value of the program. Operators build elementwise
    `arith` ops; a ScalarValue or a Python number is broadcast to the
    tile's shape first."""

    def __init__(self, value):
        self.value = value

    @property
    def type(self):
        return _type_text(self.value)

    @property
    def shape(self):
        return _vector_parts(self.type)[0]

    @property
    def dtype(self):
        return _element_of(self.type)

    def _other(self, x):
        if isinstance(x, Tile):
            if x.type != self.type:
                raise ValueError("tiles of types %s and %s do not combine "
                                 "elementwise" % (self.type, x.type))
            return x.value
        if isinstance(x, ScalarValue):
            return _ir.vector.broadcast(x.value, result=self.type)
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return _splat(x, self.type)
        raise TypeError("a tile combines with a tile, a scalar argument or "
                        "a number, got %s" % type(x).__name__)

    def _op(self, op, x, reverse=False):
        if op == "div" and self.dtype not in _FLOAT_WIDTHS:
            raise TypeError("/ divides float tiles; %s tiles have no true "
                            "division" % self.dtype)
        other = self._other(x)
        a, b = (other, self.value) if reverse else (self.value, other)
        return Tile(_binary(op, a, b))

    def __neg__(self):
        if self.dtype in _FLOAT_WIDTHS:
            return Tile(_ir.arith.negf(self.value))
        return self._op("sub", 0, True)

    def __truediv__(self, x):
        return self._op("div", x)

    def __rtruediv__(self, x):
        return self._op("div", x, True)

    @property
    def T(self):
        """The transpose of a 2-D tile."""
        if len(self.shape) != 2:
            raise ValueError(".T transposes 2-D tiles; use "
                             "lt.transpose(tile, permutation) for %s"
                             % self.type)
        return transpose(self, (1, 0))

    def astype(self, dtype):
        """The tile converted to float type `dtype` (arith.truncf or
        arith.extf)."""
        dtype = _element(dtype)
        src = self.dtype
        if src == dtype:
            return self
        if src not in _FLOAT_WIDTHS or dtype not in _FLOAT_WIDTHS:
            raise TypeError("astype converts between float types, got %s "
                            "to %s" % (src, dtype))
        result = "vector<%sx%s>" % (_shape_text(self.shape), dtype)
        wider = _FLOAT_WIDTHS[dtype] > _FLOAT_WIDTHS[src]
        return Tile((_ir.arith.extf if wider else _ir.arith.truncf)(
            self.value, result=result))


class PartitionView:
    """A partitioned tensor inside a tile program. `p[i, j]` loads tile
    (i, j) masked, `p[i, j] = tile` stores it masked; `p.load` /
    `p.store` take the other options of layout.load / layout.store."""

    def __init__(self, value, annotation):
        self.value = value
        self.annotation = annotation

    def _indices(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        if len(index) != len(self.annotation.tile):
            raise ValueError("a tile of a rank-%d partition takes %d "
                             "indices, got %d" % (
                                 len(self.annotation.tile),
                                 len(self.annotation.tile), len(index)))
        return [_index_value(i, "a tile index") for i in index]

    @property
    def tile(self):
        """The tile's lengths."""
        return self.annotation.tile

    @property
    def tile_type(self):
        return "vector<%sx%s>" % (_shape_text(self.annotation.tile),
                                  self.annotation.dtype)

    def load(self, *index, masked=True, padding=None):
        """Tile `index` (layout.load); outside the tensor, masked elements
        read as `padding` (zero by default)."""
        return Tile(_ir.layout.load(self.value, self._indices(index),
                                    masked=masked or None, padding=padding))

    def store(self, tile, *index, masked=True):
        """Stores `tile` at tile `index` (layout.store); masked, elements
        outside the tensor are not written."""
        if not isinstance(tile, Tile):
            raise TypeError("only a tile can be stored, got %s"
                            % type(tile).__name__)
        _ir.layout.store(tile.value, self.value, self._indices(index),
                         masked=masked or None)

    def __getitem__(self, index):
        return self.load(*(index if isinstance(index, tuple) else (index,)))

    def __setitem__(self, index, tile):
        self.store(tile, *(index if isinstance(index, tuple) else (index,)))

    @property
    def tiles(self):
        """The number of tiles along each dimension (layout.index_space)."""
        return tuple(Index(v) for v in _ir.layout.index_space(self.value))


# --- Operations of a tile program ----------------------------------------------

def block_id(dim):
    """The block's index along "x", "y" or "z" (gpu.block_id)."""
    return Index(_ir.gpu.block_id(_dimension(dim)))


def grid_dim(dim):
    """The number of blocks along "x", "y" or "z" (gpu.grid_dim)."""
    return Index(_ir.gpu.grid_dim(_dimension(dim)))


def _dimension(dim):
    if dim not in ("x", "y", "z"):
        raise ValueError("a dimension is 'x', 'y' or 'z', got %r" % (dim,))
    return _ir.Attribute.parse("#gpu<dim %s>" % dim)


def zeros(shape, dtype):
    """A tile of zeros."""
    return full(shape, 0, dtype)


def full(shape, value, dtype):
    """A tile holding `value` everywhere (arith.constant)."""
    return Tile(_splat(value, "vector<%sx%s>" % (_shape_text(shape),
                                                 _element(dtype))))


def broadcast(x, shape):
    """`x` (a ScalarValue or an Index, or a tile of the trailing
    dimensions) repeated to `shape` (vector.broadcast)."""
    if isinstance(x, Tile):
        value, dtype = x.value, x.dtype
    elif isinstance(x, (ScalarValue, Index)):
        value, dtype = x.value, _type_text(x.value)
    else:
        raise TypeError("broadcast takes a tile, a scalar argument or an "
                        "index, got %s" % type(x).__name__)
    return Tile(_ir.vector.broadcast(
        value, result="vector<%sx%s>" % (_shape_text(shape), dtype)))


def transpose(tile, permutation):
    """The tile with its dimensions permuted (vector.transpose): result
    dimension i is dimension permutation[i] of `tile`."""
    shape = tile.shape
    perm = [int(p) for p in permutation]
    if sorted(perm) != list(range(len(shape))):
        raise ValueError("%s is not a permutation of the %d dimensions of %s"
                         % (perm, len(shape), tile.type))
    result = "vector<%sx%s>" % (_shape_text([shape[p] for p in perm]),
                                tile.dtype)
    return Tile(_ir.vector.transpose(tile.value, perm, result=result))


def _extremum(op, a, b):
    if isinstance(a, Index) or isinstance(b, Index):
        x, y = (a, b) if isinstance(a, Index) else (b, a)
        return x._op(op, y)
    if isinstance(a, Tile):
        return a._op(op, b)
    if isinstance(b, Tile):
        return b._op(op, a, True)
    raise TypeError("%simum takes tiles or indexes, got %s and %s" % (
        op, type(a).__name__, type(b).__name__))


def maximum(a, b):
    """Elementwise maximum of tiles (arith.maximumf / maxsi), or of
    indexes (arith.maxui); a number is broadcast."""
    return _extremum("max", a, b)


def minimum(a, b):
    """Elementwise minimum of tiles (arith.minimumf / minsi), or of
    indexes (arith.minui); a number is broadcast."""
    return _extremum("min", a, b)


def dot(a, b, acc):
    """acc + a @ b for tiles a (M x K), b (K x N) and acc (M x N)
    (vector.contract): the pass maps it onto the chip's matrix
    instructions. a and b are both f16, both bf16 or both f32 (tf32
    mma.sync on sm_80 ... sm_90a, xf32 MFMA on gfx942, f32 MFMA on gfx90a
    and gfx950; compiling for another chip fails naming these), or both
    of one 8-bit float (f8E4M3FN, f8E5M2 on gfx950 and sm_89+; f8E4M3FNUZ,
    f8E5M2FNUZ on gfx942), which the instructions read K-major: lt.dot_t's
    b (N x K) as it is, lt.dot's b (K x N) transposed on its way."""
    return _contract("dot", a, b, acc, _MATMUL_MAPS)


def _contract(name, a, b, acc, maps):
    """acc + a @ b (maps: b is K x N) or acc + a @ b^T (b is N x K), the
    vector.contract of lt.dot and lt.dot_t, after checking the tiles."""
    for t, what in ((a, "a"), (b, "b"), (acc, "acc")):
        if not isinstance(t, Tile) or len(t.shape) != 2:
            raise ValueError("%s takes 2-D tiles; %s is %s" % (
                name, what,
                t.type if isinstance(t, Tile) else type(t).__name__))
    if a.dtype != b.dtype or a.dtype not in ("f16", "bf16", "f32") + _FLOAT8:
        raise ValueError(
            "%s takes a and b both f16, both bf16, both f32 or both of one "
            "8-bit float (the matrix instructions layout-opt maps it onto), "
            "got %s and %s%s"
            % (name, a.dtype, b.dtype, "; f32 a and b multiply on "
               + _chips_with_f32_inputs() + " (elsewhere convert the tiles "
               "with .astype(\"f16\") or .astype(\"bf16\"); the "
               "accumulator stays f32)" if "f32" in (a.dtype, b.dtype)
               else ""))
    (m, k), (m2, n2) = a.shape, acc.shape
    k2, n = b.shape if maps == _MATMUL_MAPS else b.shape[::-1]
    if k != k2 or (m, n) != (m2, n2):
        raise ValueError("%s of %s and %s does not accumulate into %s"
                         % (name, a.type, b.type, acc.type))
    return Tile(_ir.vector.contract(
        a.value, b.value, acc.value, maps, _MATMUL_ITERATORS,
        kind="#vector.kind<add>", result=acc.type))


def fori_loop(lower, upper, body, init):
    """An scf.for from `lower` to `upper` (ints or Indexes, step 1) whose
    iterations carry `init` (a tile, or a tuple of tiles): `body(i, *carried)`
    returns the next carried values. Returns the last ones."""
    single = isinstance(init, Tile)
    carried = (init,) if single else tuple(init)
    if not carried or not all(isinstance(t, Tile) for t in carried):
        raise TypeError("fori_loop carries a tile or a tuple of tiles")
    bounds = [_index_value(b, "a loop bound") for b in (lower, upper, 1)]
    loop = _ir.scf.for_(*bounds, [t.value for t in carried],
                        results=[t.type for t in carried])
    block = loop.regions[0].add_block(
        [_ir.Type.parse("index")] + [t.value.type for t in carried])
    with _ir.InsertionPoint(block):
        args = block.arguments
        out = body(Index(args[0]), *[Tile(v) for v in args[1:]])
        out = (out,) if isinstance(out, Tile) else tuple(out)
        if len(out) != len(carried) or any(
                not isinstance(o, Tile) or o.type != c.type
                for o, c in zip(out, carried)):
            raise ValueError("the loop body must return tiles of the types "
                             "it carries (%s)" % ", ".join(
                                 t.type for t in carried))
        _ir.scf.yield_([o.value for o in out])
    results = [Tile(v) for v in loop.results]
    return results[0] if single else tuple(results)


# --- Kernels ---------------------------------------------------------------------

def target_of(chip):
    """'rocdl' for gfx chips, 'nvvm' for sm_ chips."""
    if chip.startswith("gfx"):
        return "rocdl"
    if chip.startswith("sm_"):
        return "nvvm"
    raise ValueError("chip must be gfx... (AMDGPU) or sm_... (NVIDIA), got %r"
                     % (chip,))


class Kernel:
    """A tile program traced from a Python function (see kernel())."""

    def __init__(self, fn, block, grid, name):
        self.fn = fn
        self.name = name or fn.__name__
        if not _re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", self.name):
            raise ValueError("kernel name %r is not a symbol name"
                             % self.name)
        self.block = tuple(int(b) for b in block) + (1,) * (3 - len(block))
        if len(self.block) != 3 or any(b < 1 for b in self.block):
            raise ValueError("block must be 1 to 3 positive sizes, got %s"
                             % (block,))
        self.params = [(p.name, _annotation(p)) for p in
                       _inspect.signature(
                           fn, eval_str=True).parameters.values()]
        names = [n for n, a in self.params if isinstance(a, Partition)]
        if grid not in names:
            raise ValueError("grid=%r must name a partition parameter of "
                             "'%s' (%s)" % (grid, self.name, ", ".join(names)))
        self.grid_from = grid
        self._text = None
        self._code, self._launchers = {}, {}

    def build(self):
        """A new layout_opt.Module holding the kernel's tile program."""
        m = _Module.parse("module attributes {gpu.container_module} {}")
        with _ir.InsertionPoint(m.body):
            gm = _ir.gpu.module(self.name + "_module")
        with _ir.InsertionPoint(gm.regions[0].add_block()):
            types = [a.memref_type() if isinstance(a, Partition) else a.dtype
                     for _, a in self.params]
            f = _ir.gpu.func(
                _ir.function_type(types, []),
                known_block_size="array<i32: %d, %d, %d>" % self.block,
                attributes={"sym_name": '"%s"' % self.name,
                            "gpu.kernel": "unit"})
            entry = f.regions[0].add_block(
                [_ir.Type.parse(t) for t in types])
            with _ir.InsertionPoint(entry):
                args = entry.arguments
                # The views first, then the partitions (as examples/ writes
                # them), then the function's body.
                views = {}
                for (name, a), v in zip(self.params, args):
                    if isinstance(a, Partition):
                        views[name] = _ir.layout.view(v)
                values = []
                for (name, a), v in zip(self.params, args):
                    if isinstance(a, Partition):
                        values.append(PartitionView(_ir.layout.partition(
                            views[name], list(a.tile)), a))
                    else:
                        values.append(Index(v) if a.dtype == "index"
                                      else ScalarValue(v))
                out = self.fn(*values)
                if out is not None:
                    raise ValueError("a tile kernel returns nothing (it "
                                     "stores its results), got %s"
                                     % type(out).__name__)
                _ir.gpu.return_()
        return m

    @property
    def ir(self):
        """The module's text (the tile program, before any pass)."""
        if self._text is None:
            self._text = str(self.build())
        return self._text

    def lower(self, chip):
        """The module after the tile passes for `chip`
        (-layout-tile-shared-memory, -layout-xor-swizzle). Its `remarks`
        say what they chose: each global access's thread mapping and
        vector width, each workgroup buffer's swizzle."""
        m = self.build()
        m.run("layout-tile-shared-memory{chip=%s remarks=true},"
              "layout-xor-swizzle{chip=%s}" % (chip, chip))
        return m

    def compile(self, chip, format="bin"):
        """The CodeObject for `chip` (gfx942, sm_90, ...): -layout-to-rocdl /
        -layout-to-nvvm, which run the tile passes themselves (lower()'s
        passes; the pipelines swizzle by default). Kept in memory and in
        the compile cache on disk (layout_opt/_code.py: keyed by the IR,
        the chip, the format, the package and the compiler), so a second
        process compiles nothing; `.save(path)` writes it for
        layout_opt.cuda.load."""
        code = self._code.get((chip, format))
        if code is None:
            target = target_of(chip)
            key = _code.cache_key(self.ir, chip, target, format,
                                  self.signature())
            code = _code.cached_compile(
                key, lambda: self._compile(chip, target, format))
            self._code[(chip, format)] = code
        return code

    def _compile(self, chip, target, format):
        binary = _compile_module(self.build(), target, chip, format)
        return CodeObject(binary, target, chip, self.name,
                          _code_object_resources(binary).get(self.name, {}),
                          self.signature(), format)

    def signature(self):
        """What the compiled kernel takes (layout_opt._launch.Signature):
        its parameters, block and grid partition."""
        return _launch.Signature(self.name, [
            (n, a.dtype, a.shape, a.tile) if isinstance(a, Partition)
            else (n, a.dtype, None, None) for n, a in self.params],
            self.block, self.grid_from)

    def grid(self, *args):
        """The launch grid for these arguments (arrays or shapes): the
        index space of the `grid` partition, its last dimension on x."""
        for (name, a), arg in zip(self.params, args):
            if name == self.grid_from:
                return self.signature().grid(getattr(arg, "shape", arg))
        raise ValueError("'%s' takes %d arguments, got %d"
                         % (self.name, len(self.params), len(args)))

    def __call__(self, *args, chip=None, stream=None):
        """Runs the kernel on the CUDA GPU, compiled for `chip` (the GPU's
        own, sm_XY, when not given; once, then from memory or the compile
        cache). Device arrays (torch tensors, CuPy arrays, DeviceArray,
        `__cuda_array_interface__` / CUDA `__dlpack__` objects) are used in
        place and the launch is asynchronous on `stream=`, or torch's
        current stream for torch tensors (layout_opt.cuda.Launcher); NumPy
        arrays are copied to the GPU and back. Arguments are checked
        against the parameters first. Raises layout_opt.cuda.CudaError
        where there is no GPU."""
        launcher = self._launchers.get(chip)
        if launcher is None:
            launcher = self._launcher(chip, args, stream)
        return launcher(*args, stream=stream)

    def _launcher(self, chip, args, stream):
        from . import cuda
        if chip is not None and target_of(chip) != "nvvm":
            raise ValueError("a kernel runs from Python on a CUDA GPU: chip "
                             "must be sm_..., got %r" % chip)
        sig = self.signature()
        if len(args) != len(sig.params):
            raise TypeError("'%s' takes %d arguments, got %d"
                            % (self.name, len(sig.params), len(args)))
        # The arguments are checked before a GPU or a compile is needed.
        _launch.read_arguments(args, stream, sig.params, allow_host=True)
        cuda._ensure_context()
        launcher = cuda.Launcher(self.compile(chip or cuda.chip()))
        self._launchers[chip] = launcher
        return launcher


def _compile_module(module, target, chip, format):
    """The compiler's entry point: `module` lowered and compiled (the
    compile cache's tests count its calls)."""
    return module.compile(target, chip, format)


def kernel(block, grid, name=None):
    """Decorates a Python function over partitions as a tile kernel:
    `block` is the block size (the gpu.func's known_block_size), `grid`
    names the partition whose tiles the blocks take (one block per tile,
    the last dimension on x), `name` the kernel's symbol (default: the
    function's name)."""
    def wrap(fn):
        return Kernel(fn, block, grid, name)
    return wrap


# The softmax math, row reductions, positions and masks, dot_t.
from ._tile_ops import (arange, dot_t, exp2, fma, less, less_equal,  # noqa
                        reciprocal, row_max, row_sum, rows, where)

__all__ = [
    "CodeObject", "Index", "Kernel", "Partition", "PartitionView", "Scalar",
    "ScalarValue", "Tile", "arange", "block_id", "broadcast", "dot", "dot_t",
    "exp2", "fma", "fori_loop", "full", "grid_dim", "kernel", "less",
    "less_equal", "maximum", "minimum", "reciprocal", "row_max", "row_sum",
    "rows",
    "target_of", "transpose", "where", "zeros",
]
