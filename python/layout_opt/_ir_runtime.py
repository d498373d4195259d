"""What the generated op builders of layout_opt.ir call (one copy of each
conversion, whatever the op): the insertion point, locations, and Python
values as operands, attributes and types."""

import json as _json
import operator as _operator
import os as _os
import sys as _sys

from ._layout_opt import Attribute, Type, Value
from ._layout_opt import _create_operation

# ShapedType::kDynamic: a run-time entry of a DynamicIndexList.
DYNAMIC = -(2 ** 63)

_PACKAGE = _os.path.dirname(_os.path.abspath(__file__))
_stack = []


class InsertionPoint:
    """`with InsertionPoint(block):` makes the builders append their
    operations to `block`. On leaving, the operation that owns the block
    (a function, a loop) is verified, now that its body is complete."""

    def __init__(self, block):
        self.block = block

    def __enter__(self):
        _stack.append(self.block)
        return self.block

    def __exit__(self, kind, value, traceback):
        _stack.pop()
        if kind is None:
            owner = self.block.owner
            if owner is not None and owner.name != "builtin.module":
                owner.verify()
        return False


def current_block():
    """The block the builders append to."""
    if not _stack:
        raise ValueError("no insertion point: build operations inside "
                         "`with layout_opt.ir.InsertionPoint(block):`")
    return _stack[-1]


def caller_location():
    """(file, line, column) of the first caller outside this package."""
    frame = _sys._getframe(1)
    while frame is not None and \
            _os.path.dirname(_os.path.abspath(frame.f_code.co_filename)) \
            == _PACKAGE:
        frame = frame.f_back
    if frame is None:
        return None
    return (frame.f_code.co_filename, frame.f_lineno, 1)


def create(name, operands, attributes, result_types, num_regions, loc):
    """Creates `name` at the insertion point (layout_opt.ir's builders)."""
    if loc is None:
        loc = caller_location()
    return _create_operation(name, operands, attributes, result_types,
                             num_regions, current_block(), loc)


def value(v, name):
    """An operand: a Value."""
    if not isinstance(v, Value):
        raise TypeError("%s must be a Value, got %s" % (name, type(v).__name__))
    return v


def values(vs, name):
    """A variadic operand: a sequence of Values."""
    if isinstance(vs, Value):
        return [vs]
    return [value(v, name) for v in vs]


def type_of(t, name):
    """A Type, or its text parsed."""
    if isinstance(t, Type):
        return t
    if not isinstance(t, str):
        raise TypeError("%s must be a Type or its text, got %s"
                        % (name, type(t).__name__))
    try:
        return Type.parse(t)
    except ValueError as e:
        raise ValueError("%s: %s" % (name, e)) from None


def dynamic_index_list(entries, name):
    """MLIR's DynamicIndexList: ints stay static, Values become run-time
    entries (ShapedType::kDynamic in the static list)."""
    operands, statics = [], []
    for e in entries:
        if isinstance(e, Value):
            operands.append(e)
            statics.append(DYNAMIC)
        else:
            statics.append(_integer(e, name, "ints or Values (an entry is "
                                    "%r)" % (e,)))
    return operands, statics


def _ints(v, name):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError("%s must be a list of ints, got %s"
                        % (name, type(v).__name__))
    return [_integer(x, name, "a list of ints (an entry is %r)" % (x,))
            for x in v]


def _dense(ints, width):
    """The text of a dense integer array attribute."""
    return "array<i%d%s>" % (width, (": " + ", ".join(
        str(x) for x in ints)) if ints else "")


def _text(v, name):
    """The attribute text of a Python value in a generic position."""
    if isinstance(v, Attribute):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return "%d : i64" % v
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, int) and not isinstance(x, bool)
                     for x in v):
            return _dense(v, 64)
        return "[%s]" % ", ".join(_text(x, name) for x in v)
    if isinstance(v, Type):
        return str(v)
    # Text, or an object whose str() is IR (layout_opt.Transform).
    return str(v)


def attr(kind, v, name, extra=None):
    """An attribute of ODS kind `kind` from a Python value (an Attribute
    passes as it is); the dialect's parser and verifier check it, and a
    failure names the parameter."""
    if isinstance(v, Attribute):
        return v
    if kind in ("dense_i64", "dense_i32"):
        text = _dense(_ints(v, name), int(kind[-2:]))
    elif kind in ("i64", "i32", "index"):
        text = "%d : %s" % (_integer(v, name),
                            "index" if kind == "index" else kind)
    elif kind == "unit":
        if v is not True:
            raise TypeError("%s is a flag: pass True or leave it out" % name)
        text = "unit"
    elif kind == "bool":
        text = "true" if v else "false"
    elif kind == "str":
        text = _json.dumps(str(v))
    elif kind == "symbol":
        text = "@" + str(v).lstrip("@")
    elif kind == "type":
        text = str(v)
    elif kind in ("f32", "f64"):
        text = "%r : %s" % (float(v), kind)
    elif kind == "enum":
        cases, width = extra
        if isinstance(v, str):
            if v not in cases:
                raise ValueError("%s must be one of %s, got %r"
                                 % (name, ", ".join(sorted(cases)), v))
            v = cases[v]
        text = "%d : i%d" % (int(v), width)
    else:
        text = _text(v, name)
    try:
        return Attribute.parse(text)
    except ValueError as e:
        raise ValueError("%s: %s" % (name, e)) from None


# The builders of attributes and types (generated from their ODS parameters
# and assembly formats): each parameter is formatted as its directive or
# kind prints it, and the text is parsed, so the dialect's parser and
# verifier check the result.

def _integer(v, name, what="an int"):
    """An integer parameter: an int or any integer (NumPy's) that
    operator.index accepts, not a bool."""
    if not isinstance(v, bool):
        try:
            return _operator.index(v)
        except TypeError:
            pass
    raise TypeError("%s must be %s, got %r" % (name, what, v))


def _size(v, name):
    """An int, or None / '?' for a run-time value."""
    if v is None or (isinstance(v, str) and v == "?"):
        return "?"
    return str(_integer(v, name, "an int or None ('?')"))


def _sizes(v, name):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError("%s must be a list of ints, got %s"
                        % (name, type(v).__name__))
    return [_size(x, name) for x in v]


def _param(kind, v, name):
    if kind == "int":
        return str(_integer(v, name))
    if kind == "size":
        return _size(v, name)
    if kind == "type":
        return str(type_of(v, name))
    return "[%s]" % ", ".join(_sizes(v, name))


# The layout dialect's custom directives (LayoutDialect.cpp prints them).
DIRECTIVES = {
    # [a, ?, c]
    "IntList": lambda v, n: "[%s]" % ", ".join(_sizes(v[0], n[0])),
    # 3x?x5
    "DimList": lambda v, n: "x".join(_sizes(v[0], n[0])),
    # 4x?x8xf32
    "ShapeAndType": lambda v, n: "".join(
        d + "x" for d in _sizes(v[0], n[0])) + str(type_of(v[1], n[1])),
}


def build_def(kind, mnemonic, pieces, values):
    """An ir.Type (kind 'type') or ir.Attribute ('attr') from the pieces of
    its assembly format and the parameters' values."""
    text = mnemonic
    for piece in pieces:
        if piece[0] == "lit":
            lit = piece[1]
            text += {"<": "<", ">": ">", ",": ", ", "=": " = "}.get(
                lit, (" " + lit) if text[-1] not in "< " else lit)
        elif piece[0] == "param":
            text += _param(piece[1], values[piece[2]], piece[2])
        else:
            names = piece[2]
            text += DIRECTIVES[piece[1]]([values[n] for n in names], names)
    parse = Type.parse if kind == "type" else Attribute.parse
    return parse(text)
