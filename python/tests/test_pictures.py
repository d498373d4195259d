"""Descriptor.show: the pictures of -layout-show from Python. The banks are
worked out by hand: rows 5 elements apart put column 0 of a 32 x 4 f32 tile
in banks 5 l mod 32 on sm_90 (32 banks of 4 bytes), all distinct."""

import pytest

import layout_opt as lo


def test_text_picture_banks_and_lanes():
    d = lo.naive([32, 4], [5, 1])
    text = d.show(chip="sm_90", access="columns")
    assert ("a wave reading down columns: 1 cycles for 1 phase "
            "(no conflict)") in text
    banks = text.split("banks:\n")[1].split("lanes:\n")[0].splitlines()
    # Row r, column 0: bank 5 r mod 32.
    for r in range(32):
        cells = banks[1 + r].split()
        assert int(cells[0]) == r
        assert int(cells[1]) == (5 * r) % 32


def test_conflicts_counted():
    text = lo.packed([32, 4]).show(chip="sm_90", access="columns")
    assert "4 cycles for 1 phase (4-way)" in text


def test_svg_and_latex():
    svg = lo.packed([4, 4]).show(chip="gfx942", format="svg")
    assert svg.startswith("<svg") and svg.count("<rect") == 16
    tex = lo.packed([2, 2]).show(format="latex")
    assert "\\begin{tikzpicture}" in tex and tex.count("\\node") == 4


def test_bad_arguments():
    with pytest.raises(ValueError, match="rank-2"):
        lo.packed([8]).show()
    with pytest.raises(ValueError, match="access must be"):
        lo.packed([4, 4]).show(chip="sm_90", access="diagonal")
    # A descriptor alone has no kernel access to draw (-layout-show draws
    # those of a module's kernels).
    with pytest.raises(ValueError, match="access=kernel draws the accesses"):
        lo.packed([4, 4]).show(chip="sm_90", access="kernel")
    with pytest.raises(ValueError, match="unknown chip"):
        lo.packed([4, 4]).show(chip="sm_9")
    with pytest.raises(ValueError, match="format must be"):
        lo.packed([4, 4]).show(format="png")
