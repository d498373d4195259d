"""The package's surface: a version, docstrings on every public name, only
the API public, and locations that name the parsed file."""

import inspect
import re

import pytest

import layout_opt as lo


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", lo.__version__)


def test_only_the_api_is_public():
    public = {n for n in dir(lo) if not n.startswith("_")}
    assert public == set(lo.__all__)


def documented(obj):
    """A docstring beyond pybind11's signature line."""
    doc = inspect.getdoc(obj) or ""
    lines = [l for l in doc.splitlines() if l.strip()]
    if lines and re.match(r"^\w+\(.*\) -> ", lines[0]):
        lines = lines[1:]
    return bool(lines)


@pytest.mark.parametrize("name", sorted(lo.__all__))
def test_every_public_name_has_a_docstring(name):
    obj = getattr(lo, name)
    assert documented(obj), name
    if inspect.isclass(obj):
        for attr, member in vars(obj).items():
            if attr.startswith("_"):
                continue
            target = member
            if isinstance(member, (staticmethod, classmethod)):
                target = member.__func__
            assert documented(target), "%s.%s" % (name, attr)


def test_parse_names_the_file():
    with pytest.raises(lo.MLIRError, match=r"kernel\.mlir:1:"):
        lo.Module.parse("func.func @f( {", filename="kernel.mlir")
    m = lo.Module.parse("func.func @f() { return }", filename="k.mlir")
    assert "func.func @f()" in str(m)
