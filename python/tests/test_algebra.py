"""CuTe's layout algebra from Python: the worked examples of CuTe's
layout-algebra documentation, and composition / complement / inverses
checked against a plain-Python evaluation of the layouts (colexicographic
index splitting, written here independently of the package)."""

import itertools
import random

import pytest

import layout_opt as lo


def leaves(text):
    """(size, stride) leaves of CuTe's notation, parsed here by hand."""
    shape, stride = text.split(":")
    nums = lambda s: [int(x) for x in s.replace("(", " ").replace(")", " ")
                      .replace(",", " ").split()]
    return list(zip(nums(shape), nums(stride)))


def evaluate(text, index):
    """The offset of a 1-D index: colexicographic over the leaves."""
    ls = leaves(text)
    offset = 0
    for k, (s, d) in enumerate(ls):
        c = index if k == len(ls) - 1 else index % s
        offset += c * d
        index //= s
    return offset


def size(text):
    n = 1
    for s, _ in leaves(text):
        n *= s
    return n


L = lo.Layout.parse


def test_doc_examples():
    assert str(lo.coalesce(L("(2,(1,6)):(1,(6,2))"))) == "12:1"
    assert str(lo.composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"))) == \
        "((2,2),3):((24,2),8)"
    assert str(lo.composition(L("(12,(4,8)):(59,(13,1))"),
                              [L("3:4"), L("8:2")])) == \
        "(3,(2,4)):(236,(26,1))"
    assert str(lo.complement(L("4:2"), 24)) == "(2,3):(1,8)"
    assert str(lo.complement(L("(2,2):(1,6)"), 24)) == "(3,2):(2,12)"
    assert str(lo.logical_divide(L("(4,2,3):(2,1,8)"), L("4:2"))) == \
        "((2,2),(2,3)):((4,1),(2,8))"
    tiler = [L("3:3"), L("(2,4):(1,8)")]
    a = L("(9,(4,8)):(59,(13,1))")
    assert str(lo.logical_divide(a, tiler)) == \
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
    assert str(lo.zipped_divide(a, tiler)) == \
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"
    assert str(lo.tiled_divide(a, tiler)) == \
        "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"
    assert str(lo.logical_product(L("(2,2):(4,1)"), L("6:1"))) == \
        "((2,2),(2,3)):((4,1),(2,8))"
    assert str(lo.blocked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)"))) == \
        "(6,(5,4)):(5,(1,30))"
    assert str(lo.raked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)"))) == \
        "((3,2),(4,5)):((10,5),(30,1))"
    assert str(lo.right_inverse(L("(2,4,6):(4,1,8)"))) == "(4,2,6):(2,1,8)"
    assert str(lo.left_inverse(L("4:2"))) == "(2,4):(0,1)"


def test_layout_of_ints():
    """Layout(size, stride) with ints is the one-mode layout, the same as
    with lists; bools and floats are refused."""
    assert lo.Layout(4, 2) == lo.Layout([4], [2])
    assert str(lo.Layout(4, 2)) == "4:2"
    assert [lo.Layout(4, 2)(i) for i in range(4)] == \
        [evaluate("4:2", i) for i in range(4)] == [0, 2, 4, 6]
    for bad in ((4.0, 2), (4, True), ("4", 2)):
        with pytest.raises(TypeError):
            lo.Layout(*bad)


def test_errors_name_the_condition():
    with pytest.raises(ValueError, match="stride divisibility"):
        lo.composition(L("(6,2):(8,2)"), L("3:4"))
    with pytest.raises(ValueError, match="has no complement"):
        lo.complement(L("(2,2):(1,1)"), 8)
    with pytest.raises(ValueError, match="not injective"):
        lo.left_inverse(L("(2,2):(1,1)"))
    with pytest.raises(ValueError, match="is not strided"):
        lo.Layout.of(lo.packed([4, 8]).transform([(lo.xor([4, 8]), [0, 1],
                                                   [0, 1])]))


def random_layout(rng):
    sizes = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 3))]
    strides = [rng.choice([0, 1, 2, 4, 6, 8, 12]) for _ in sizes]
    return lo.Layout(sizes, strides)


def test_composition_and_inverses_by_brute_force():
    rng = random.Random(7)
    composed = 0
    for _ in range(400):
        a, b = random_layout(rng), random_layout(rng)
        ta, tb = str(a), str(b)
        for i in range(a.size):
            assert a(i) == evaluate(ta, i)
        offsets = [evaluate(tb, i) for i in range(size(tb))]
        if max(offsets) >= size(ta) or len(set(offsets)) != len(offsets):
            continue
        try:
            c = lo.composition(a, b)
        except ValueError:
            continue
        composed += 1
        for i in range(size(tb)):
            assert evaluate(str(c), i) == evaluate(ta, evaluate(tb, i)), \
                (ta, tb, str(c))
        r = lo.right_inverse(a)
        for i in range(r.size):
            assert evaluate(ta, evaluate(str(r), i)) == i
    assert composed > 50


def test_descriptor_round_trip():
    a = L("((2,2),3):((24,2),8)")
    d = a.descriptor()
    assert d.lengths == [4, 3]
    for i, j in itertools.product(range(4), range(3)):
        assert d.offset([i, j]) == a.at([i, j]) == \
            evaluate(str(a), i + 4 * j)
    assert lo.Layout.of(d) == L("((2,2),3):((24,2),8)")
