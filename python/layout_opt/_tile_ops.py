"""Tile ops of layout_opt.tile beyond arithmetic (issue 40): the math of
a softmax, row reductions and their broadcasts, positions and masks, and
the product with a K-contiguous B. With them a flash-attention forward is
a Python function (examples/tile_kernels.py); the tile pass keeps its
loop in the matrix instructions' registers (docs/gpu.md, "Fragment
programs"). Re-exported by layout_opt.tile; use them as lt.exp2, ...
"""

from . import ir as _ir
from .tile import _FLOAT_WIDTHS, Tile, _contract, _shape_text

# C[m, n] += A[m, k] * B[n, k]: both operands K-contiguous (Q K^T).
_MATMUL_NT_MAPS = ("[affine_map<(m, n, k) -> (m, k)>, "
                   "affine_map<(m, n, k) -> (n, k)>, "
                   "affine_map<(m, n, k) -> (m, n)>]")

# arith.cmpi / arith.cmpf predicates: (signed, unsigned) and ordered.
_CMPI = {"le": ("sle", "ule"), "lt": ("slt", "ult")}
_CMPF = {"le": "ole", "lt": "olt"}


def _tile(x, what):
    if not isinstance(x, Tile):
        raise TypeError("%s must be a tile, got %s" % (what,
                                                      type(x).__name__))
    return x


def _operand(x, like, what):
    """`x` (a tile of `like`'s type, a scalar argument or a number) as a
    value of `like`'s type."""
    if isinstance(x, Tile):
        if x.type != like.type:
            raise ValueError("%s is %s, not %s" % (what, x.type, like.type))
        return x.value
    return like._other(x)


def _float_tile(x, what):
    _tile(x, what)
    if x.dtype not in _FLOAT_WIDTHS:
        raise TypeError("%s must be a float tile, got %s" % (what, x.type))
    return x


def exp2(x):
    """2 ** x elementwise (math.exp2) of a float tile."""
    x = _float_tile(x, "exp2's argument")
    return Tile(_ir.math.exp2(x.value))


def reciprocal(x, approx=False):
    """1 / x elementwise (arith.divf of a splat 1) of a float tile. With
    `approx`, the division is marked fastmath<afn>: the target may use its
    approximate reciprocal (rcp.approx.f32 on NVIDIA, as FlashAttention-2's
    fast-math build and Triton's default division do) instead of the
    correctly rounded one."""
    x = _float_tile(x, "reciprocal's argument")
    one = _operand(1.0, x, "reciprocal's 1")
    if not approx:
        return Tile(_ir.arith.divf(one, x.value))
    return Tile(_ir.arith.divf(one, x.value, fastmath=_ir.Attribute.parse(
        "#arith.fastmath<afn>")))


def fma(a, b, c):
    """a * b + c elementwise with one rounding (math.fma): a is a float
    tile, b and c tiles of its type, scalar arguments or numbers."""
    a = _float_tile(a, "fma's a")
    return Tile(_ir.math.fma(a.value, _operand(b, a, "fma's b"),
                             _operand(c, a, "fma's c")))


def _row_reduction(kind, x, init, name):
    x = _tile(x, name + "'s tile")
    if len(x.shape) != 2:
        raise ValueError("%s reduces the rows of a 2-D tile, got %s"
                         % (name, x.type))
    row_type = "vector<%dx%s>" % (x.shape[0], x.dtype)
    init = _tile(init, name + "'s init")
    if init.type != row_type:
        raise ValueError("%s of %s starts from a %s (one value per row), "
                         "got %s" % (name, x.type, row_type, init.type))
    return Tile(_ir.vector.multi_reduction(
        "#vector.kind<%s>" % kind, x.value, init.value, [1],
        result=row_type))


def row_max(x, init):
    """The maximum of each row of a 2-D float tile and of `init` (a tile
    of one value per row): vector.multi_reduction <maximumf> over the
    columns."""
    return _row_reduction("maximumf", _float_tile(x, "row_max's tile"),
                          init, "row_max")


def row_sum(x, init):
    """The sum of each row of a 2-D tile plus `init` (one value per row):
    vector.multi_reduction <add> over the columns."""
    return _row_reduction("add", x, init, "row_sum")


def rows(x, n):
    """A tile of one value per row (M) repeated across `n` columns: M x n
    (vector.shape_cast to M x 1, then vector.broadcast)."""
    x = _tile(x, "rows' argument")
    if len(x.shape) != 1:
        raise ValueError("rows repeats a 1-D tile of row values, got %s"
                         % x.type)
    m, dtype = x.shape[0], x.dtype
    column = _ir.vector.shape_cast(x.value,
                                   result="vector<%dx1x%s>" % (m, dtype))
    return Tile(_ir.vector.broadcast(
        column, result="vector<%dx%dx%s>" % (m, int(n), dtype)))


def arange(n):
    """The positions 0, 1, ..., n - 1 as an index tile (vector.step)."""
    return Tile(_ir.vector.step(result="vector<%dxindex>" % int(n)))


def _compare(which, a, b):
    a = _tile(a, "a comparison's lhs")
    other = _operand(b, a, "a comparison's rhs")
    shape = "vector<%sxi1>" % _shape_text(a.shape)
    if a.dtype in _FLOAT_WIDTHS:
        return Tile(_ir.arith.cmpf(_CMPF[which], a.value, other,
                                   result=shape))
    signed, unsigned = _CMPI[which]
    pred = unsigned if a.dtype == "index" else signed
    return Tile(_ir.arith.cmpi(pred, a.value, other, result=shape))


def less_equal(a, b):
    """a <= b elementwise: an i1 tile (arith.cmpi, unsigned for index
    tiles and signed for integers as in the rest of lt; arith.cmpf ole for
    floats)."""
    return _compare("le", a, b)


def less(a, b):
    """a < b elementwise, as less_equal."""
    return _compare("lt", a, b)


def where(cond, a, b):
    """a where cond holds, else b (arith.select): cond an i1 tile; a a
    tile of cond's shape, b a tile of a's type, a scalar argument or a
    number."""
    cond, a = _tile(cond, "where's condition"), _tile(a, "where's a")
    if cond.dtype != "i1" or cond.shape != a.shape:
        raise ValueError("where takes an i1 condition of the values' shape "
                         "(%s), got %s" % (_shape_text(a.shape), cond.type))
    return Tile(_ir.arith.select(cond.value, a.value,
                                 _operand(b, a, "where's b")))


def dot_t(a, b, acc):
    """acc + a @ b^T for tiles a (M x K), b (N x K) and acc (M x N): both
    operands K-contiguous (attention's Q K^T), as lt.dot otherwise."""
    return _contract("dot_t", a, b, acc, _MATMUL_NT_MAPS)


__all__ = ["arange", "dot_t", "exp2", "fma", "less", "less_equal", "rows",
           "row_max", "row_sum", "where"]
