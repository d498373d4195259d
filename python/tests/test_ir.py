"""layout_opt.ir: every layout dialect op built from Python round-trips
through the printer and the parser, and bad parameters raise ValueError
with the C++ verifier's message (issue 20)."""

import re

import pytest

import layout_opt as lo
from layout_opt import ir

D = "!layout.desc<%s>"


def function(m, name, inputs):
    """func @name(inputs) with an entry block, and that block."""
    with ir.InsertionPoint(m.body):
        f = ir.func.func(name, ir.function_type(inputs, []))
    return f, f.regions[0].add_block([ir.Type.parse(t) for t in inputs])


def every_op():
    """A module that uses each of the 35 layout ops; the set of op names
    it holds."""
    m = lo.Module()
    f, entry = function(m, "every_op", ["index", "index", "memref<64xf32>",
                                        "memref<4x11xf32>", "vector<32xf32>",
                                        "memref<4096xf16, "
                                        "#gpu.address_space<workgroup>>",
                                        "memref<128x64xf16>",
                                        "memref<2xi64, "
                                        "#gpu.address_space<workgroup>>",
                                        "vector<8xf16>"])
    built = set()
    with ir.InsertionPoint(entry):
        i, j, buf, mem, acc, wg, gsrc, bars, regs = entry.arguments
        packed = ir.layout.packed([2, 6], result=D % "2x6")
        naive = ir.layout.naive([i, 8], [8, 1], offset=1, result=D % "?x8")
        aligned = ir.layout.aligned([4, 5], 8, result=D % "4x5")
        t = ir.layout.transform(
            packed, [lo.pass_through(2), lo.unmerge([2, 3])], [[0], [1]],
            [[0], [1, 2]], result=D % "2x2x3")
        off = ir.layout.offset(t, [i, j, i])
        ir.layout.valid(t, [i, j, i])
        ir.layout.element_space_size(t)
        ir.layout.upper(t, off)
        mul = ir.layout.assume_multiple(i, 4)
        flat = ir.layout.packed([24], result=D % "24")
        coord = ir.layout.make_coord(flat, [mul], result="!layout.coord<24, 1>")
        moved = ir.layout.move_coord(flat, coord, static_steps=[5],
                                     result="!layout.coord<24, 1>")
        ir.layout.coord_offset(flat, moved)
        ir.layout.coord_valid(flat, moved)
        # The algebra, on CuTe's documented examples
        # (test/Dialect/Layout/algebra.mlir).
        a = ir.layout.packed([6, 2], result=D % "6x2")
        b = ir.layout.packed([4, 3], result=D % "4x3")
        ir.layout.compose(a, [b], result=D % "4x3")
        s2 = ir.layout.naive([4], [2], result=D % "4")
        ir.layout.complement(s2, 24, result=D % "2x3")
        n = ir.layout.naive([2, 6, 1], [1, 2, 6], result=D % "2x6x1")
        c = ir.layout.transform(n, [lo.pass_through(2), lo.merge([6, 1])],
                                [[0], [1, 2]], [[0], [1]], result=D % "2x6")
        ir.layout.coalesce(c, result=D % "12")
        big = ir.layout.naive([4, 2, 3], [2, 1, 8], result=D % "4x2x3")
        ir.layout.logical_divide(big, [s2], result=D % "4x6")
        n3 = ir.layout.naive([9, 8, 4], [59, 1, 13], result=D % "9x8x4")
        m932 = ir.layout.transform(n3, [lo.pass_through(9), lo.merge([8, 4])],
                                   [[0], [1, 2]], [[0], [1]],
                                   result=D % "9x32")
        t0 = ir.layout.naive([3], [3], result=D % "3")
        t1 = ir.layout.naive([4, 2], [8, 1], result=D % "4x2")
        t1m = ir.layout.transform(t1, [lo.merge([4, 2])], [[0, 1]], [[0]],
                                  result=D % "8")
        ir.layout.zipped_divide(m932, [t0, t1m], result=D % "24x12")
        ir.layout.tiled_divide(m932, [t0, t1m], result=D % "24x3x4")
        a1 = ir.layout.naive([2, 2], [4, 1], result=D % "2x2")
        b1 = ir.layout.naive([6], [1], result=D % "6")
        ir.layout.logical_product(a1, [b1], result=D % "4x6")
        a2 = ir.layout.naive([2, 5], [5, 1], result=D % "2x5")
        b2 = ir.layout.naive([3, 4], [1, 3], result=D % "3x4")
        ir.layout.blocked_product(a2, [b2], result=D % "6x20")
        ir.layout.raked_product(a2, [b2], result=D % "6x20")
        ir.layout.right_inverse(b1, result=D % "6")
        ir.layout.left_inverse(b1, result=D % "6")
        v8 = ir.layout.packed([8, 8], result=D % "8x8")
        view = ir.layout.view(buf, v8, result="!layout.tensor_view<8x8xf32>")
        mview = ir.layout.view(mem, result="!layout.tensor_view<4x11xf32>")
        part = ir.layout.partition(
            mview, [2, 4],
            result="!layout.partition_view<4x11xf32, tile = [2, 4]>")
        ir.layout.index_space(part)
        tile = ir.layout.load(part, [i, j], masked=True, padding="nan",
                              result="vector<2x4xf32>")
        ir.layout.store(tile, part, [i, j], masked=True)
        ir.layout.partition(view, [4, 4],
                            result="!layout.partition_view<8x8xf32, "
                                   "tile = [4, 4]>")
        p64 = ir.layout.packed([64, 64], result=D % "64x64")
        ir.layout.warpgroup_mma(acc, wg, p64, wg, p64, [64, 64, 16], [0, 1],
                                [1, 0], a_origin=[i, j], b_origin=[j, i],
                                result="vector<32xf32>")
        ir.layout.warpgroup_mma_reg_a(acc, regs, wg, p64, [64, 64, 16], [1, 0],
                                      b_origin=[j, i], result="vector<32xf32>")
        ir.layout.mbarrier_init(bars, i, 1)
        ir.layout.mbarrier_arrive_expect_tx(bars, i, 8192)
        ir.layout.bulk_tensor_load(gsrc, wg, p64, bars, i, [64, 64], [0, 1],
                                   indices=[i, j], origin=[i, j])
        ir.layout.mbarrier_wait(bars, i, j)
        ir.func.return_()
    for line in str(m).splitlines():
        built.update(re.findall(r"\blayout\.([a-z_]+)\b", line))
    return m, built


def test_every_layout_op_round_trips():
    m, built = every_op()
    ops = {n for n in ir.layout.__all__
           if not n.endswith(("_attr", "_type"))}
    assert len(ops) == 35
    # Every op of the dialect (from ODS) was built.
    assert ops <= built, sorted(ops - built)
    text = str(m)
    again = lo.Module.parse(text)
    assert str(again) == text
    # Canonical text: the custom assembly formats, not the generic form.
    assert "layout.naive [%arg0, 8] strides [8, 1] offset 1" in text
    assert "layout.load %" in text and "masked padding(nan)" in text


def test_builders_come_from_ods():
    # Parameters in ODS order; the DynamicIndexList pair is one parameter.
    import inspect
    params = list(inspect.signature(ir.layout.naive).parameters)
    assert params[:4] == ["lengths", "strides", "offset", "space"]
    assert "dynamic_lengths" not in params
    assert "layout.naive" in ir.layout.naive.__doc__
    # Enough of the other dialects for kernels.
    for name, dialect in [("addi", ir.arith), ("constant", ir.arith),
                          ("for_", ir.scf), ("yield_", ir.scf),
                          ("transpose", ir.vector), ("contract", ir.vector),
                          ("block_id", ir.gpu), ("thread_id", ir.gpu),
                          ("func", ir.gpu), ("return_", ir.func)]:
        assert callable(getattr(dialect, name)), name


def test_invalid_parameters_raise_the_verifiers_message():
    m = lo.Module()
    _, entry = function(m, "bad", ["index", "memref<4x11xf32>"])
    with ir.InsertionPoint(entry):
        # The evaluator's check, as layout-opt reports it.
        with pytest.raises(ValueError, match="strides"):
            ir.layout.naive([3, 4], [1], result=D % "3x4")
        with pytest.raises(ValueError, match="'left' must be non-negative"):
            ir.Attribute.parse("#layout.pad<8, -1, 2>")
        with pytest.raises(ValueError, match="right_pad"):
            ir.layout.transform(ir.layout.packed([4], result=D % "4"),
                                ["#layout.right_pad<4, -3>"], [[0]], [[0]],
                                result=D % "1")
        # A type that does not parse names the parameter.
        with pytest.raises(ValueError, match="result"):
            ir.layout.packed([4], result="!layout.desc<4x")
        with pytest.raises(TypeError, match="lengths"):
            ir.layout.packed(["4"], result=D % "4")
        view = ir.layout.view(entry.arguments[1],
                              result="!layout.tensor_view<4x11xf32>")
        part = ir.layout.partition(
            view, [2, 4],
            result="!layout.partition_view<4x11xf32, tile = [2, 4]>")
        i = entry.arguments[0]
        with pytest.raises(ValueError, match="padding must be one of"):
            ir.layout.load(part, [i, i], padding="maybe",
                           result="vector<2x4xf32>")
        # The dialect's own verifier: the tile and the vector disagree.
        with pytest.raises(ValueError, match="'layout.load' op"):
            ir.layout.load(part, [i, i], result="vector<4x4xf32>")
        ir.func.return_()
    # Nothing invalid was left in the module.
    m.run("canonicalize")


def test_results_are_inferred_where_the_op_can():
    m = lo.Module()
    _, entry = function(m, "infer", ["index", "index"])
    with ir.InsertionPoint(entry):
        i, j = entry.arguments
        s = ir.arith.addi(i, j)                 # SameOperandsAndResultType
        assert str(s.type) == "index"
        c = ir.arith.constant(ir.Attribute.parse("4 : index"))
        assert str(c.type) == "index"
        d = ir.layout.packed([2, 6], result=D % "2x6")
        parts = ir.layout.upper(d, s)           # InferTypeOpInterface
        assert [str(p.type) for p in parts] == ["index", "index"]
        # The descriptor, view, partition and load ops infer theirs from
        # their operands and attributes (the verifier's rules).
        assert str(ir.layout.packed([4, i]).type) == D % "4x?"
        t = ir.layout.transform(d, [lo.pass_through(2), lo.unmerge([2, 3])],
                                [[0], [1]], [[0], [1, 2]])
        assert str(t.type) == D % "2x2x3"
        with pytest.raises(ValueError, match=re.escape(
                "'layout.transform' op old top dimension 0 is not consumed")):
            ir.layout.transform(d, [lo.unmerge([2, 3])], [[1]], [[0, 1]])
        # An op that infers nothing says so.
        with pytest.raises(ValueError, match="does not infer"):
            ir.layout.compose(d, [d])
        ir.func.return_()


def test_views_partitions_and_loads_infer_their_types():
    m = lo.Module()
    _, entry = function(m, "views", ["memref<?x8xf16>", "index",
                                     "memref<64xf32>"])
    with ir.InsertionPoint(entry):
        a, i, buf = entry.arguments
        v = ir.layout.view(a)
        assert str(v.type) == "!layout.tensor_view<?x8xf16>"
        p = ir.layout.partition(v, [4, 8])
        assert str(p.type) == "!layout.partition_view<?x8xf16, tile = [4, 8]>"
        assert str(ir.layout.load(p, [i, i], masked=True).type) == \
            "vector<4x8xf16>"
        d = ir.layout.packed([8, 8])
        assert str(ir.layout.view(buf, d).type) == \
            "!layout.tensor_view<8x8xf32>"
        with pytest.raises(ValueError, match=re.escape(
                "'layout.partition' op tile has 1 lengths but the view has "
                "rank 2")):
            ir.layout.partition(v, [4])
        # A type given is checked by the verifier, with its message.
        with pytest.raises(ValueError, match=re.escape(
                "does not match the tile 'vector<4x8xf16>'")):
            ir.layout.load(p, [i, i], result="vector<8x4xf16>")
        ir.func.return_()


def test_insertion_point_is_required():
    with pytest.raises(ValueError, match="no insertion point"):
        ir.layout.packed([4], result=D % "4")


def test_errors_name_the_python_line():
    m = lo.Module()
    _, entry = function(m, "loc", [])
    with ir.InsertionPoint(entry):
        with pytest.raises(ValueError, match=r"test_ir\.py:\d+:1: error"):
            ir.layout.naive([3, 4], [1], result=D % "3x4")
        ir.func.return_()


# One set of valid parameters per attribute and type builder (generated
# from ODS), with the text the dialect prints for it (written here by hand
# from the dialect's syntax, docs/generated/): the test fails when the
# dialect gains one not listed here, or a builder puts a parameter in the
# wrong place.
DEF_SAMPLES = {
    "coord_type": (([24, None], 2), "!layout.coord<24x?, 2>"),
    "desc_type": (([4, None, 8],), "!layout.desc<4x?x8>"),
    "partition_view_type": (([None, 64], "f16", [16, 32]),
                            "!layout.partition_view<?x64xf16, tile = [16, 32]>"),
    "tensor_view_type": (([3, None], "f32"), "!layout.tensor_view<3x?xf32>"),
    "embed_attr": (([2, 3], [12, 1]), "#layout.embed<[2, 3], [12, 1]>"),
    "freeze_attr": ((3,), "#layout.freeze<3>"),
    "left_pad_attr": ((8, 2), "#layout.left_pad<8, 2>"),
    "merge_attr": (([4, None],), "#layout.merge<[4, ?]>"),
    "modulo_attr": ((4, 16), "#layout.modulo<4, 16>"),
    "offset_attr": ((8, 3), "#layout.offset<8, 3>"),
    "pad_attr": ((8, 1, 2), "#layout.pad<8, 1, 2>"),
    "pass_through_attr": ((None,), "#layout.pass_through<?>"),
    "replicate_attr": (([2, 3],), "#layout.replicate<[2, 3]>"),
    "right_pad_attr": ((8, 3), "#layout.right_pad<8, 3>"),
    "rotate_attr": (([4, 8],), "#layout.rotate<[4, 8]>"),
    "slice_attr": ((16, 2, 10), "#layout.slice<16, 2, 10>"),
    "sunder_attr": (([3, 5],), "#layout.sunder<[3, 5]>"),
    "swizzle_attr": ((1, 2, 3, 8), "#layout.swizzle<1, 2, 3, 8>"),
    "unmerge_attr": (([4, 2],), "#layout.unmerge<[4, 2]>"),
    "xor_attr": (([8, 8],), "#layout.xor<[8, 8]>"),
}


def test_every_attribute_and_type_builder_round_trips():
    built = {n for n in ir.layout.__all__ if n.endswith(("_attr", "_type"))}
    assert built == set(DEF_SAMPLES)
    for name, (args, text) in DEF_SAMPLES.items():
        x = getattr(ir.layout, name)(*args)
        assert str(x) == text, name
        parse = ir.Type.parse if name.endswith("_type") else \
            ir.Attribute.parse
        assert parse(text) == x, name
    # NumPy integers are integers.
    import numpy as np
    assert str(ir.layout.desc_type([np.int64(4), 8])) == "!layout.desc<4x8>"


def test_attribute_and_type_builders_raise_the_verifiers_message():
    with pytest.raises(ValueError, match=re.escape(
            "tile has 1 lengths but the view has rank 2")):
        ir.layout.partition_view_type([4, 4], "f32", [4])
    with pytest.raises(ValueError, match=re.escape(
            "L (4) must be a multiple of 2^(B + M) = 8")):
        ir.layout.swizzle_attr(1, 2, 3, 4)
    with pytest.raises(ValueError, match=re.escape(
            "'#layout.slice' 'begin' (6) must not be greater than 'end' (2)")):
        ir.layout.slice_attr(8, 6, 2)
    with pytest.raises(TypeError, match="lower_lengths must be an int"):
        ir.layout.merge_attr([4, "x"])
    with pytest.raises(ValueError, match=re.escape(
            "elementType: cannot parse the type 'not_a_type'")):
        ir.layout.tensor_view_type([4], "not_a_type")


def test_attributes_of_the_wrong_kind_are_errors_not_crashes():
    """Inference reads the attributes: one of the wrong kind (dropped to
    null by the op's properties) is reported, with result= or without."""
    m = lo.Module()
    _, entry = function(m, "wrong_kinds", ["memref<?x8xf32>"])
    with ir.InsertionPoint(entry):
        (a,) = entry.arguments
        p = ir.layout.packed([2, 6])
        v = ir.layout.view(a)
        ints = ir.Attribute.parse("[1, 2]")
        for build, what in (
                (lambda: ir.layout.transform(p, 5, [[0], [1]], [[0], [1]]),
                 "transforms"),
                (lambda: ir.layout.transform(
                    p, [lo.pass_through(2), lo.pass_through(6)], 3,
                    [[0], [1]]), "lower_dims"),
                (lambda: ir.layout.partition(v, ints), "tile"),
                (lambda: ir.layout.aligned(ints, 4), "lengths")):
            with pytest.raises(ValueError, match=re.escape(
                    "requires attribute '%s'" % what)):
                build()
        ir.func.return_()
