"""Tests of the layout_opt Python package (run by the README's test command
through lit: test/Python/pytest.test)."""

import itertools
import os

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import layout_opt as lo

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def all_coords(lengths):
    return list(itertools.product(*[range(n) for n in lengths]))


# --- the contract's worked values (design/dialect.md) ----------------------

def test_seed_values():
    m = lo.naive([4, 5], [10, 1]).transform([(lo.merge([4, 5]), [0, 1], [0])])
    assert m.offset([13]) == 23  # (2, 3)
    u = lo.packed([24]).transform([(lo.unmerge([3, 4, 2]), [0], [0, 1, 2])])
    assert u.offset([1, 3, 0]) == 14
    e = lo.packed([15]).transform([(lo.embed([2, 3], [12, 1]), [0], [0, 1])])
    assert e.offset([1, 2]) == 14
    o = lo.packed([64]).transform([(lo.offset(48, 16), [0], [0])])
    assert o.offset([5]) == 21
    p = lo.packed([3]).transform([(lo.pad(3, 1, 1), [0], [0])])
    assert [p.offset([i]) for i in range(5)] == [-1, 0, 1, 2, 3]
    assert [p.valid([i]) for i in range(5)] == [False, True, True, True, False]
    assert lo.naive([3, 4], [8, 1]).offset([1, 2]) == 10
    assert lo.packed([3, 4]).offset([1, 2]) == 6
    assert lo.aligned([4, 5], 8).element_space_size == 32
    v = lo.packed([2, 6]).transform([(lo.pass_through(2), [0], [0]),
                                     (lo.unmerge([2, 3]), [1], [1, 2])])
    assert v.lengths == [2, 2, 3]
    assert v.offset([1, 1, 2]) == 11
    assert v.upper(11) == [1, 1, 2]


def test_str_is_ir():
    v = lo.packed([2, 6]).transform([(lo.pass_through(2), [0], [0]),
                                     (lo.unmerge([2, 3]), [1], [1, 2])])
    text = str(v)
    assert "layout.packed [2, 6] : !layout.desc<2x6>" in text
    assert ("#layout.unmerge<[2, 3]> : [1] -> [1, 2]] : !layout.desc<2x6> "
            "-> !layout.desc<2x2x3>") in text
    assert str(lo.swizzle(3, 4, 3, 1024)) == "#layout.swizzle<3, 4, 3, 1024>"


# --- offsets against NumPy's own strided views ----------------------------

@pytest.mark.parametrize("seed", range(20))
def test_naive_matches_as_strided(seed):
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    lengths = [int(x) for x in rng.integers(1, 6, rank)]
    strides = [int(x) for x in rng.integers(0, 9, rank)]
    d = lo.naive(lengths, strides)
    base = np.arange(d.element_space_size, dtype=np.int64)
    view = as_strided(base, shape=lengths,
                      strides=[s * base.itemsize for s in strides])
    for c in all_coords(lengths):
        assert view[c] == base[d.offset(list(c))]
    coords = np.array(all_coords(lengths), dtype=np.int64).reshape(
        lengths + [rank])
    np.testing.assert_array_equal(d.offsets(coords), view)


def test_transpose_matches_numpy():
    a = np.arange(12).reshape(3, 4)
    t = lo.packed([3, 4]).transform([(lo.pass_through(3), [0], [1]),
                                     (lo.pass_through(4), [1], [0])])
    coords = np.stack(np.meshgrid(np.arange(4), np.arange(3), indexing="ij"),
                      axis=-1)
    np.testing.assert_array_equal(a.reshape(-1)[t.offsets(coords)], a.T)


def test_vectorized_offsets_and_validity():
    p = lo.packed([4, 4]).transform([(lo.pad(4, 1, 1), [0], [0]),
                                     (lo.pad(4, 1, 1), [1], [1])])
    coords = np.array([[0, 0], [1, 1], [4, 4], [5, 2]])
    np.testing.assert_array_equal(p.offsets(coords), [-5, 0, 15, 17])
    np.testing.assert_array_equal(p.valids(coords),
                                  [False, True, True, False])


# --- views and partitions over NumPy (the partition_view seed) ------------

def test_partition_seed_load():
    x = np.arange(32, dtype=np.int32).reshape(4, 8)
    p = lo.view(x).partition([2, 2])
    assert p.index_space == (2, 4)
    np.testing.assert_array_equal(p.load(1, 2), [[20, 21], [28, 29]])


def test_partition_seed_masked_nan():
    x = np.arange(44, dtype=np.float32).reshape(4, 11)
    p = lo.view(x).partition([2, 4])
    assert p.index_space == (2, 3)
    got = p.load(0, 2, padding="nan")
    np.testing.assert_array_equal(got[:, :3], [[8, 9, 10], [19, 20, 21]])
    assert np.isnan(got[:, 3]).all()
    assert (p.load(0, 2, padding="neg_inf")[:, 3] == -np.inf).all()
    with pytest.raises(ValueError, match="partly outside"):
        p.load(0, 2)


@pytest.mark.parametrize("kind,check", [
    ("zero", lambda v: v == 0 and not np.signbit(v)),
    ("neg_zero", lambda v: v == 0 and np.signbit(v)),
    ("nan", np.isnan),
    ("pos_inf", np.isposinf),
    ("neg_inf", np.isneginf),
])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_every_padding_kind(kind, check, dtype):
    """Each padding kind reads as its IEEE value outside the view, the sign
    of zero included (issue 21: pos_inf read as -inf survived every test),
    and leaves the elements inside alone."""
    x = np.arange(1, 45, dtype=dtype).reshape(4, 11)
    got = lo.view(x).partition([3, 4]).load(1, 2, padding=kind)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got[:1, :3], x[3:, 8:])
    inside = np.zeros(got.shape, dtype=bool)
    inside[:1, :3] = True
    outside = got[~inside]
    assert outside.size == 9
    assert all(check(v) for v in outside), (kind, outside)


def test_partition_seed_store():
    x = np.arange(32, dtype=np.int32).reshape(4, 8)
    p = lo.view(x).partition([2, 2])
    p.store(100 * np.arange(4, dtype=np.int32).reshape(2, 2), 1, 3)
    np.testing.assert_array_equal(x[2:, 6:], [[0, 100], [200, 300]])
    assert x[2, 5] == 21 and x[1, 7] == 15


def test_view_through_padded_descriptor():
    img = np.arange(1, 17, dtype=np.float32)
    d = lo.packed([4, 4]).transform([(lo.pad(4, 1, 1), [0], [0]),
                                     (lo.pad(4, 1, 1), [1], [1])])
    p = lo.view(img, d).partition([3, 3])
    np.testing.assert_array_equal(p.load(0, 0, padding="zero"),
                                  [[0, 0, 0], [0, 1, 2], [0, 5, 6]])
    p.store(np.full((3, 3), 7, dtype=np.float32), 1, 0, masked=True)
    np.testing.assert_array_equal(img, [1, 2, 3, 4, 5, 6, 7, 8, 7, 7, 11, 12,
                                        7, 7, 15, 16])


def test_view_through_xor_descriptor():
    buf = np.arange(64, dtype=np.int64)
    d = lo.packed([8, 8]).transform([(lo.xor([8, 8]), [0, 1], [0, 1])])
    p = lo.view(buf, d).partition([2, 4])
    np.testing.assert_array_equal(p.load(1, 1),
                                  [[22, 23, 20, 21], [31, 30, 29, 28]])


# --- modules ----------------------------------------------------------------

def test_module_round_trip():
    text = open(os.path.join(ROOT, "examples", "descriptors.mlir")).read()
    once = str(lo.Module.parse(text))
    assert str(lo.Module.parse(once)) == once
    assert "layout.transform" in once


def test_build_and_lower_a_function():
    v = lo.packed([2, 6]).transform([(lo.pass_through(2), [0], [0]),
                                     (lo.unmerge([2, 3]), [1], [1, 2])])
    m = lo.Module()
    m.add_descriptor_function("view", v)
    assert "layout.offset" in str(m)
    m.run("convert-layout-to-affine")
    text = str(m)
    assert "affine_map<(d0, d1, d2) -> (d0 * 6 + d1 * 3 + d2)>" in text
    assert "layout.offset" not in text


def test_compile_gfx942_is_elf():
    text = open(os.path.join(ROOT, "examples", "transpose.mlir")).read()
    obj = lo.compile(lo.Module.parse(text), target="rocdl", chip="gfx942")
    assert obj[:4] == b"\x7fELF"
    ptx = lo.compile(lo.Module.parse(text), target="nvvm", chip="sm_90",
                     format="isa")
    assert b".visible .entry transpose_f32" in ptx


EXP2 = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: f32, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %y = math.exp2 %x : f32
      memref.store %y, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}"""


def test_compile_ftz_flushes_exp2():
    # ftz=True: -layout-to-nvvm's ftz option, exp2 as the bare
    # ex2.approx.ftz.f32; by default libdevice's ex2.approx.f32 path.
    fast = lo.compile(lo.Module.parse(EXP2), target="nvvm", chip="sm_90",
                      format="isa", ftz=True)
    plain = lo.compile(lo.Module.parse(EXP2), target="nvvm", chip="sm_90",
                       format="isa")
    assert b"ex2.approx.ftz.f32" in fast and b"ex2.approx.f32" not in fast
    assert b"ex2.approx.f32" in plain and b"ex2.approx.ftz.f32" not in plain
    with pytest.raises(ValueError, match="ftz is an option of target"):
        lo.compile(lo.Module.parse(EXP2), target="rocdl", ftz=True)


def test_tile_program_compiles_to_128_bit_lds_accesses():
    # The tile programs: -layout-tile-shared-memory (also part of the
    # pipelines) distributes them; the swizzle reaches zero conflicts, and
    # the PTX moves the tile through shared memory 16 bytes at a time.
    text = open(os.path.join(ROOT, "examples", "transpose-tiles.mlir")).read()
    m = lo.Module.parse(text)
    m.run("layout-tile-shared-memory,layout-xor-swizzle{chip=sm_90}")
    assert "layout.load" not in str(m)
    swizzled = [r for r in m.remarks if ": swizzled:" in r]
    assert len(swizzled) == 5
    assert all("-> 0 extra cycles" in r for r in swizzled)
    # The padded buffers of the f32 copies' versions for unaligned rows keep
    # their layout.
    padded = [r for r in m.remarks if "is a layout.naive" in r]
    assert len(padded) == 2
    ptx = lo.compile(m, target="nvvm", chip="sm_90", format="isa")
    entry = ptx[ptx.index(b".visible .entry tile_transpose_f32"):]
    entry = entry[:entry.index(b"ret;")]
    assert b"ld.shared.v4.b32" in entry and b"st.shared.v4.b32" in entry
    assert b"bar.sync" in entry


def test_remarks_are_kept():
    text = open(os.path.join(ROOT, "examples", "transpose.mlir")).read()
    m = lo.Module.parse(text)
    m.run("layout-xor-swizzle{chip=gfx942}")
    assert any("swizzled" in r for r in m.remarks)


# --- bad input raises, never crashes ---------------------------------------

def test_bad_input_raises():
    with pytest.raises(ValueError, match="must be positive"):
        lo.packed([0])
    with pytest.raises(ValueError, match="'left' must be non-negative"):
        lo.pad(4, -1, 0)
    with pytest.raises(ValueError, match="power of two"):
        lo.xor([4, 3])
    d = lo.packed([3, 4])
    with pytest.raises(ValueError, match="expected 2 indices, got 3"):
        d.offset([1, 2, 3])
    with pytest.raises(ValueError, match="last dimension is the rank 2"):
        d.offsets(np.zeros((4, 3), dtype=np.int64))
    with pytest.raises(ValueError):
        d.transform([(lo.pass_through(3), [0], [0])])  # dim 1 not consumed
    with pytest.raises(ValueError, match="each entry"):
        d.transform([(lo.pass_through(3), [0])])
    with pytest.raises(ValueError, match="not injective"):
        lo.packed([4]).transform([(lo.modulo(2, 4), [0], [0])]).upper(1)
    with pytest.raises(ValueError, match="tile has 1 lengths"):
        lo.view(np.zeros((4, 4))).partition([2])
    with pytest.raises(ValueError, match="padding"):
        lo.view(np.zeros((4, 4))).partition([3, 3]).load(1, 1, padding="x")
    with pytest.raises(ValueError, match="floating-point"):
        lo.view(np.zeros((4, 4), dtype=np.int32)).partition([3, 3]).load(
            1, 1, padding="nan")
    with pytest.raises(lo.MLIRError, match="error"):
        lo.Module.parse("func.func @f( {")
    with pytest.raises(lo.MLIRError, match="has 1 transforms but"):
        lo.Module.parse('%p = layout.packed [4] : !layout.desc<4>\n'
                        '%t = "layout.transform"(%p) <{transforms = '
                        '[#layout.pass_through<4>], lower_dims = [], '
                        'upper_dims = [array<i64: 0>]}> : (!layout.desc<4>) '
                        '-> !layout.desc<4>')
    with pytest.raises(ValueError, match="does not refer to a registered"):
        lo.Module().run("not-a-pass")
    text = open(os.path.join(ROOT, "examples", "transpose.mlir")).read()
    with pytest.raises(lo.MLIRError, match="unknown AMDGPU chip 'gfx9999'"):
        lo.compile(lo.Module.parse(text), chip="gfx9999")
    with pytest.raises(ValueError, match="target must be"):
        lo.compile(lo.Module.parse(text), target="spirv")
    with pytest.raises(lo.MLIRError, match="no gpu.module"):
        lo.compile(lo.Module())


# --- issue 14: no silent conversion of bad numbers ---------------------------

def test_indices_and_lengths_must_be_integers():
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    p = lo.view(a).partition([2, 8])
    # NumPy integers are integers; floats and bools are not (1.5 was read
    # as tile 1, rows 2-3 of the view, before).
    np.testing.assert_array_equal(p.load(np.int64(1), 0), a[2:4, :])
    with pytest.raises(TypeError, match="tile index must be an integer"):
        p.load(1.5, 0)
    with pytest.raises(TypeError, match="tile index must be an integer, got the bool"):
        p.load(True, 0)
    with pytest.raises(TypeError, match="tile index"):
        p.store(np.zeros((2, 8), dtype=np.float32), 0, 0.0)
    with pytest.raises(TypeError, match="tile length must be an integer"):
        lo.view(a).partition([2.0, 8])
    with pytest.raises(TypeError, match="tile length must be an integer, got the bool"):
        lo.view(a).partition([True, 8])
    # The same rules in every function of the extension.
    for bad in (True, 2.0, "2"):
        with pytest.raises(TypeError):
            lo.pass_through(bad)
        with pytest.raises(TypeError):
            lo.packed([2, bad])
        with pytest.raises(TypeError):
            lo.packed([2, 3]).offset([1, bad])
    assert lo.pass_through(np.int32(3)).upper_lengths == [3]
    with pytest.raises(OverflowError, match="does not fit in int64"):
        lo.pass_through(2**63)
    with pytest.raises(OverflowError, match="does not fit in int64"):
        lo.packed([2, 3]).offset([1, 2**64 + 1])


def test_coordinate_arrays_must_be_int64_integers():
    d = lo.packed([4, 8])
    coords = np.array([[1, 2], [3, 7]])
    np.testing.assert_array_equal(d.offsets(coords), [10, 31])
    np.testing.assert_array_equal(d.offsets(coords.astype(np.uint8)), [10, 31])
    # A uint64 of 2^63 wrapped to -2^63 before.
    with pytest.raises(OverflowError, match="9223372036854775808"):
        d.offsets(np.array([[2**63, 0]], dtype=np.uint64))
    with pytest.raises(TypeError, match="dtype float64"):
        d.offsets(coords.astype(np.float64))
    with pytest.raises(TypeError, match="dtype bool"):
        d.valids(np.ones((2, 2), dtype=bool))


def test_descriptor_function_names():
    m = lo.Module()
    m.add_descriptor_function("f", lo.packed([2, 3]))
    with pytest.raises(ValueError, match="needs a name"):
        m.add_descriptor_function("", lo.packed([2, 3]))
    with pytest.raises(ValueError, match="already has a symbol named 'f'"):
        m.add_descriptor_function("f", lo.packed([4]))
    assert str(m).count("func.func") == 1


def test_tile_size_is_bounded():
    with pytest.raises(ValueError, match="more than 65536 elements"):
        lo.view(np.zeros((4, 4))).partition([2**20, 2**20])


def _brute_run(d):
    """The longest run of the last dimension, found by trying every divisor
    of its length over every coordinate (VectorLength.h's promise)."""
    lengths = d.lengths
    coords = list(itertools.product(*[range(n) for n in lengths]))
    n = lengths[-1]
    for length in range(n, 1, -1):
        if n % length:
            continue
        first = [0] * len(lengths)
        second = first[:-1] + [1]
        stride = d.offset(second) - d.offset(first)
        ok = True
        for c in coords:
            if c[-1] % length:
                continue
            for i in range(1, length):
                at = list(c[:-1]) + [c[-1] + i]
                if (d.valid(at) != d.valid(list(c)) or
                        d.offset(at) != d.offset(list(c)) + i * stride):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return (length, stride)
    return (1, 0)


def test_vector_run_against_brute_force():
    # im2col of an NHWC input (N=1, H=4, W=5, C=8), 3x3, pad 1, stride 1.
    x = lo.packed([1, 4, 5, 8])
    p = x.transform([(lo.pass_through(1), [0], [0]), (lo.pad(4, 1, 1), [1], [1]),
                     (lo.pad(5, 1, 1), [2], [2]), (lo.pass_through(8), [3], [3])])
    e = p.transform([(lo.pass_through(1), [0], [0]),
                     (lo.embed([3, 4], [1, 1]), [1], [1, 2]),
                     (lo.embed([3, 5], [1, 1]), [2], [3, 4]),
                     (lo.pass_through(8), [3], [5])])
    a = e.transform([(lo.merge([1, 4, 5]), [0, 2, 4], [0]),
                     (lo.merge([3, 3, 8]), [1, 3, 5], [1])])
    assert a.vector_run() == (8, 1) == _brute_run(a)
    assert a.offset_divisor(8) % 8 == 0
    # A pad of 3 on the last dim leaves nothing.
    q = lo.packed([2, 8]).transform([(lo.pass_through(2), [0], [0]),
                                     (lo.pad(8, 3, 1), [1], [1])])
    assert q.vector_run() == (1, 0) == _brute_run(q)
    with pytest.raises(ValueError):
        a.offset_divisor(0)


# --- issue 38: values the evaluator would take for something else ----------

RESERVED = -2**63  # Transform.h's kDynamic: a run-time value ('?') in the IR


def test_reserved_values_are_refused():
    # Each turned into a run-time '?' before (the descriptor printed an
    # undefined args(%dyn0), and offset([3]) gave 0).
    cases = [
        (lambda: lo.pass_through(RESERVED), "'length'"),
        (lambda: lo.pad(4, RESERVED, 0), "'left'"),
        (lambda: lo.pad(4, 0, RESERVED), "'right'"),
        (lambda: lo.left_pad(4, RESERVED), "'left'"),
        (lambda: lo.right_pad(RESERVED, 1), "'length'"),
        (lambda: lo.offset(4, RESERVED), "'offset'"),
        (lambda: lo.slice(8, RESERVED, 4), "'begin'"),
        (lambda: lo.modulo(RESERVED, 4), "'modulus'"),
        (lambda: lo.freeze(RESERVED), "'value'"),
        (lambda: lo.freeze(RESERVED + 5), "'value'"),  # a numbered slot
        (lambda: lo.embed([2, 3], [RESERVED, 1]), "'coefficients' entry 0"),
        (lambda: lo.unmerge([4, RESERVED]), "'upper_lengths' entry 1"),
        (lambda: lo.packed([RESERVED, 4]), "'lengths' entry 0"),
        (lambda: lo.naive([4], [RESERVED]), "'strides' entry 0"),
    ]
    for make, name in cases:
        with pytest.raises(ValueError) as info:
            make()
        message = str(info.value)
        assert name in message, message
        assert "reserved for run-time values" in message, message
        assert str(RESERVED)[:10] in message, message
    # The first value past the reserved range is an ordinary (invalid)
    # negative number, refused by the evaluator's own check.
    with pytest.raises(ValueError, match="'value' must be non-negative"):
        lo.freeze(RESERVED + 2**16)


def test_coordinates_must_be_inside_the_lengths():
    d = lo.packed([2, 3, 4])
    assert d.offset([1, 2, 3]) == 1 * 12 + 2 * 4 + 3
    # Evaluated before: the offset([-1, 0, 0]) of a 2x2x3 descriptor
    # gave -6 with valid() True, and huge indices wrapped.
    for bad, index, length in (([-1, 0, 0], 0, 2), ([0, 3, 0], 1, 3),
                               ([0, 0, 2**62], 2, 4), ([0, 0, -2**63], 2, 4)):
        for method in (d.offset, d.valid):
            with pytest.raises(IndexError) as info:
                method(bad)
            message = str(info.value)
            assert ("index %d of the coordinate is %d" % (index, bad[index])
                    in message), message
            assert "length %d" % length in message, message
    with pytest.raises(IndexError, match="index 1 of the coordinate is 3"):
        d.offsets(np.array([[0, 0, 0], [1, 3, 0]]))
    with pytest.raises(IndexError, match="index 0 of the coordinate is -1"):
        d.valids(np.array([[-1, 0, 0]]))
    # A padded descriptor's top lengths include the padding.
    p = lo.packed([4]).transform([(lo.pad(4, 1, 1), [0], [0])])
    assert [p.valid([i]) for i in range(6)] == [False] + [True] * 4 + [False]
    with pytest.raises(IndexError, match="outside the length 6"):
        p.valid([6])
