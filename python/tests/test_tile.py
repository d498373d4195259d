"""layout_opt.tile: tile kernels written as Python functions (issue 20).

The kernels of examples/tile_kernels.py must build, after canonicalization,
exactly the hand-written gpu.funcs of examples/ that the lit tests run on
the CPU lane by lane and the benchmarks run on the H100; they compile for
AMD and NVIDIA chips, and the resources read from the code objects agree
with llvm-readelf's reading of the same objects."""

import importlib.util
import os
import re
import shutil
import subprocess

import pytest

import layout_opt as lo
from layout_opt import tile as lt

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")


def load_examples():
    spec = importlib.util.spec_from_file_location(
        "tile_kernels", os.path.join(EXAMPLES, "tile_kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kernels = load_examples()

# Python kernel -> the file of examples/ with its hand-written counterpart.
COUNTERPARTS = {
    "tile_transpose_f32": "transpose-tiles.mlir",
    "tile_transpose_scale_f16": "transpose-tiles.mlir",
    "gemm_f16": "matmul.mlir",
    "gemm_f16_t128_g8": "matmul.mlir",
    "gemm_f16_bias_relu": "matmul.mlir",
    "gemm_fp8_scaled": "matmul-fp8.mlir",
    "gemm_fp8_rowwise": "matmul-fp8.mlir",
    "gemm_fp8_out": "matmul-fp8.mlir",
    "attn_d64_bm64": "attention.mlir",
    "attn_causal_d64_bm64": "attention.mlir",
}


def func_text(module, name):
    """gpu.func @name of `module` after canonicalize,cse, with the aliases
    the printer made (#map, ...) replaced by what they stand for."""
    module.run("canonicalize,cse")
    text = str(module)
    aliases = dict(re.findall(r"^([#!][\w.]+) = (.*)$", text, re.M))
    start = text.index("gpu.func @%s(" % name)
    line_start = text.rindex("\n", 0, start) + 1
    indent = " " * (start - line_start)
    end = text.index("\n" + indent + "}", start)
    body = text[line_start:end]
    for alias in sorted(aliases, key=len, reverse=True):
        body = re.sub(re.escape(alias) + r"\b",
                      lambda _, a=alias: aliases[a], body)
    # Canonicalization hoists the constants to the top, in an order that
    # depends on where it met them; constants have no operands, so the
    # order carries nothing: sort them.
    lines = body.split("\n")
    n = 1
    while n < len(lines) and "= arith.constant " in lines[n]:
        n += 1
    return "\n".join([lines[0]] + sorted(lines[1:n]) + lines[n:])


@pytest.mark.parametrize("name", sorted(COUNTERPARTS))
def test_kernel_equals_its_hand_written_counterpart(name):
    kernel = getattr(kernels, name)
    path = os.path.join(EXAMPLES, COUNTERPARTS[name])
    expected = func_text(lo.Module.parse(open(path).read(), filename=path),
                         name)
    got = func_text(kernel.build(), name)
    assert got == expected


def test_a_different_kernel_is_not_equal():
    """The comparison can fail: the transpose without .T differs."""
    @lt.kernel(block=(32, 8, 1), grid="inp")
    def tile_transpose_f32(inp: lt.Partition("f32", tile=(64, 64)),
                           out: lt.Partition("f32", tile=(64, 64))):
        bx, by = lt.block_id("x"), lt.block_id("y")
        out[bx, by] = inp[by, bx]
    path = os.path.join(EXAMPLES, "transpose-tiles.mlir")
    expected = func_text(lo.Module.parse(open(path).read()),
                         "tile_transpose_f32")
    assert func_text(tile_transpose_f32.build(),
                     "tile_transpose_f32") != expected


def readelf_notes(binary, tmp_path):
    """Each kernel's metadata as llvm-readelf --notes prints it."""
    tool = shutil.which("llvm-readelf") or "/usr/lib/llvm-22/bin/llvm-readelf"
    if not os.path.exists(tool):
        pytest.skip("llvm-readelf is not installed")
    path = tmp_path / "kernel.hsaco"
    path.write_bytes(binary)
    text = subprocess.run([tool, "--notes", str(path)], check=True,
                          capture_output=True, text=True,
                          timeout=60).stdout
    out = {}
    # Each kernel is an item "  - ..." of amdhsa.kernels; its own keys are
    # indented by 4 (the arguments' by 8).
    for chunk in re.split(r"^  - ", text, flags=re.M)[1:]:
        fields = dict(re.findall(r"^(?:|    )\.(\w+):\s+(\S+)$", chunk,
                                 re.M))
        if "name" in fields:        # not amdhsa.version's items
            out[fields["name"]] = fields
    return out


@pytest.mark.parametrize("chip", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("name", ["tile_transpose_f32", "gemm_f16"])
def test_compile_for_amd_reports_the_code_objects_resources(chip, name,
                                                            tmp_path):
    code = getattr(kernels, name).compile(chip)
    assert code.binary[:4] == b"\x7fELF" and code.target == "rocdl"
    notes = readelf_notes(code.binary, tmp_path)[name]
    r = code.resources
    assert r["lds_bytes"] == int(notes["group_segment_fixed_size"]) > 0
    assert r["vgprs"] == int(notes["vgpr_count"]) > 0
    assert r["sgprs"] == int(notes["sgpr_count"])
    assert r["scratch_bytes"] == int(notes["private_segment_fixed_size"])
    assert r["wavefront_size"] == (64 if chip == "gfx942" else 32)


@pytest.mark.parametrize("name", sorted(COUNTERPARTS))
def test_compile_for_sm90(name):
    ptx = getattr(kernels, name).compile("sm_90", format="isa")
    text = ptx.binary.decode()
    assert ".target sm_90" in text and (".entry %s(" % name) in text
    assert ptx.resources == {}          # PTX: ptxas allocates later
    if name.startswith("gemm_fp8"):
        assert "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32" in text
    elif name.startswith("gemm"):
        assert "mma.sync.aligned.m16n8k16" in text
    if name == "gemm_fp8_out":
        assert "cvt.rn.satfinite.e4m3x2.f32" in text


def ptxas_available():
    return shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas")


@pytest.mark.skipif(not ptxas_available(), reason="needs CUDA's ptxas")
def test_cubin_resources():
    code = kernels.tile_transpose_f32.compile("sm_90")
    ptx = kernels.tile_transpose_f32.compile("sm_90", format="isa")
    declared = sum(int(n) for n in re.findall(
        r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx.binary.decode()))
    r = code.resources
    # The declared buffers, as the driver counts them (without the 1 KiB
    # CUDA reserves per block; python-launch.py compares with the driver).
    assert declared == 18720 and r["shared_bytes"] == declared
    assert 0 < r["registers"] <= 255


def test_resources_of_text_and_of_other_files():
    assert lo.code_object_resources(b".version 8.0\n") == {}
    with pytest.raises(ValueError, match="not a 64-bit little-endian ELF"):
        lo.code_object_resources(b"\x7fELF" + b"\0" * 8)
    # An ELF file of the host, not of a GPU.
    import sys
    with open(sys.executable, "rb") as f:
        host = f.read()
    with pytest.raises(ValueError, match="not a code object of a GPU"):
        lo.code_object_resources(host)
    # A code object cut short.
    hsaco = kernels.tile_transpose_f32.compile("gfx942").binary
    with pytest.raises(ValueError, match="not a readable code object"):
        lo.code_object_resources(hsaco[:len(hsaco) // 2])


def test_grid_is_the_index_space_of_the_named_partition():
    k = kernels.tile_transpose_f32
    assert k.grid((130, 70), (70, 130)) == (2, 3, 1)   # in: 3 x 2 tiles
    assert kernels.gemm_f16.grid((300, 64), (64, 257), (300, 257)) == \
        (3, 3, 1)


def test_ir_shows_the_module():
    ir = kernels.gemm_f16_bias_relu.ir
    assert "gpu.func @gemm_f16_bias_relu(" in ir
    assert "known_block_size = array<i32: 256, 1, 1>" in ir
    assert ir.count("layout.partition ") == 4
    assert "arith.maximumf" in ir and "scf.for" in ir


def trace(fn, block=(32, 8, 1), grid="a"):
    return lt.kernel(block=block, grid=grid)(fn).build()


def test_bad_kernels_raise_clear_errors():
    def no_annotation(a):
        pass
    with pytest.raises(TypeError, match="parameter 'a' needs an annotation"):
        lt.kernel(block=(32,), grid="a")(no_annotation)

    def f(a: lt.Partition("f32", tile=(8, 8)), s: float):
        pass
    with pytest.raises(ValueError, match="grid='s' must name a partition"):
        lt.kernel(block=(32,), grid="s")(f)

    def wrong_rank(a: lt.Partition("f32", tile=(8, 8))):
        a[lt.block_id("x")]
    with pytest.raises(ValueError, match="takes 2 indices, got 1"):
        trace(wrong_rank)

    def bad_dot(a: lt.Partition("f16", tile=(16, 16)),
                b: lt.Partition("f16", tile=(8, 16))):
        i = lt.block_id("x")
        lt.dot(a[i, i], b[i, i], lt.zeros((16, 16), "f32"))
    with pytest.raises(ValueError, match="does not accumulate"):
        trace(bad_dot)

    def bad_loop(a: lt.Partition("f32", tile=(8, 8))):
        lt.fori_loop(0, 4, lambda k, s: s.astype("f16"),
                     lt.zeros((8, 8), "f32"))
    with pytest.raises(ValueError, match="must return tiles of the types"):
        trace(bad_loop)

    def mixed(a: lt.Partition("f32", tile=(8, 8)),
              b: lt.Partition("f32", tile=(8, 4))):
        i = lt.block_id("x")
        a[i, i] + b[i, i]
    with pytest.raises(ValueError, match="do not combine elementwise"):
        trace(mixed)

    def returns(a: lt.Partition("f32", tile=(8, 8))):
        return a[0, 0]
    with pytest.raises(ValueError, match="returns nothing"):
        trace(returns)

    with pytest.raises(ValueError, match="element type must be one of"):
        lt.Partition("float32", tile=(8,))


def test_the_dialect_verifier_checks_what_the_front_end_builds():
    """A tile the dialect refuses (zero length) fails with the C++
    verifier's message naming the parameter."""
    with pytest.raises(ValueError, match=re.escape(
            "tile length 1 must be positive, got 0")):
        lt.Partition("f32", tile=(8, 0))


def test_launch_checks_its_arguments():
    import numpy as np
    a = np.zeros((70, 130), np.float32)
    b = np.zeros((130, 70), np.float32)
    with pytest.raises(TypeError, match="takes a 2-D float32 array"):
        kernels.tile_transpose_f32(a, b.astype(np.float64))
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        kernels.tile_transpose_f32(a)


def test_errors_name_what_was_wanted_and_what_came():
    """Issue 38, item 9: the dtype and shape wanted and got; a tile given
    as text is refused as the argument it is, not by int()."""
    import numpy as np
    a = np.zeros((70, 130), np.float32)
    b = np.zeros((130, 70), np.float32)
    with pytest.raises(TypeError, match=re.escape(
            "parameter 'out' takes a 2-D float32 array, got a 2-D float64 "
            "array of shape (130, 70)")):
        kernels.tile_transpose_f32(a, b.astype(np.float64))
    with pytest.raises(TypeError, match=re.escape(
            "parameter 'inp' takes a 2-D float32 array, got a 1-D float32 "
            "array of shape (9100,)")):
        kernels.tile_transpose_f32(a.reshape(-1), b)
    with pytest.raises(TypeError, match=re.escape(
            "parameter 'inp' takes a 2-D float32 array, got 3 (int)")):
        kernels.tile_transpose_f32(3, b)
    with pytest.raises(TypeError, match=re.escape(
            "lt.Partition's tile must be a list or tuple of ints, as "
            "tile=(64, 64), got '64x64'")):
        lt.Partition("f32", tile="64x64")
    with pytest.raises(TypeError, match=r"got \(64, 64\.0\) \(64\.0 is a "
                       r"float\)"):
        lt.Partition("f32", tile=(64, 64.0))
    with pytest.raises(TypeError, match="lt.Partition's shape must be"):
        lt.Partition("f32", tile=(8, 8), shape="100x100")
    assert lt.Partition("f32", tile=[8, 8], shape=[None, 64]).shape == \
        (None, 64)


def test_dot_of_f32_tiles_lowers_where_a_chip_has_an_instruction():
    """Issue 38, item 9: lt.dot on f32 tiles lowers to the chip's f32-input
    matrix instruction (tf32 mma.sync after cvt.rna.tf32.f32 on sm_80+,
    xf32 MFMA on gfx942, f32 MFMA on gfx950), and the pass's refusal on a
    chip without one names exactly the chips that have one."""
    @lt.kernel(block=(64, 1, 1), grid="c")
    def gemm_f32(a: lt.Partition("f32", tile=(32, 16)),
                 b: lt.Partition("f32", tile=(16, 32)),
                 c: lt.Partition("f32", tile=(32, 32))):
        bm, bn = lt.block_id("y"), lt.block_id("x")
        _, k_tiles = a.tiles
        c[bm, bn] = lt.fori_loop(
            0, k_tiles, lambda k, s: lt.dot(a[bm, k], b[k, bn], s),
            lt.zeros((32, 32), "f32"))
    sm90 = str(gemm_f32.lower("sm_90"))
    assert "mmaShape = [16, 8, 8], tf32Enabled" in sm90
    assert "nvvm.convert.float.to.tf32" in sm90
    assert re.search(r"amdgpu.mfma 32x32x4 .*reducePrecision",
                     str(gemm_f32.lower("gfx942")))
    gfx950 = str(gemm_f32.lower("gfx950"))
    assert "amdgpu.mfma 32x32x2" in gfx950
    assert "reducePrecision" not in gfx950
    for chip in ("gfx1100", "sm_75"):
        with pytest.raises(Exception) as e:
            gemm_f32.lower(chip)
        message = str(e.value)
        assert "%s has no matrix instruction with f32 inputs" % chip \
            in message
        assert ("f32 tiles multiply on gfx90a (f32 MFMA), gfx940, gfx941, "
                "gfx942 (xf32, f32 MFMA), gfx950 (f32 MFMA), sm_80 ... sm_90 "
                "(tf32 mma.sync), sm_90a (tf32 mma.sync)") in message

    def mixed(a: lt.Partition("f32", tile=(16, 16)),
              b: lt.Partition("f16", tile=(16, 16))):
        i = lt.block_id("x")
        lt.dot(a[i, i], b[i, i], lt.zeros((16, 16), "f32"))
    with pytest.raises(ValueError, match="got f32 and f16; f32 a and b "
                       "multiply on gfx90a ") as e:
        trace(mixed)
    assert ("gfx942 (xf32, f32 MFMA), gfx950 (f32 MFMA), sm_80 ... sm_90 "
            "(tf32 mma.sync), sm_90a (tf32 mma.sync) (elsewhere convert the "
            "tiles with .astype(\"f16\")") in str(e.value)
    assert "gfx1100" not in str(e.value)


def test_lower_remarks_say_what_was_chosen():
    """Kernel.lower(chip).remarks: each global access's mapping and each
    buffer's swizzle. A 64x64 f32 transpose on 256 threads: 16-byte vectors
    of 4 floats, 64 * 64 / 4 = 1024 vectors, 4 per thread for the staged
    load; the store moves register blocks of 4 x 4, 1024 / 4 = 256 blocks,
    one per thread: 64 * 64 / 256 = 16 elements per thread either way."""
    remarks = kernels.tile_transpose_f32.lower("gfx942").remarks
    load = [r for r in remarks if "tile load (staged" in r]
    store = [r for r in remarks if "tile store" in r]
    assert len(load) == 1 and len(store) == 1, remarks
    assert "of 64x64xf32: 256 threads, each moving 4 x f32 vectors (16 " \
        "bytes) along dimension 1;" in load[0]
    assert load[0].endswith(", 4 iterations; 16 elements per thread")
    assert ", in blocks of 4 along dimension 0;" in store[0]
    assert store[0].endswith(", 1 iteration; 16 elements per thread")
    assert any(": swizzled: 64x64 tile" in r for r in remarks)


def test_launch_without_a_gpu_is_a_clear_error():
    if lo.cuda.available():
        pytest.skip("a GPU is here: bench/transpose/python-launch.py runs it")
    import numpy as np
    a = np.zeros((70, 130), np.float32)
    b = np.zeros((130, 70), np.float32)
    with pytest.raises(lo.cuda.CudaError):
        kernels.tile_transpose_f32(a, b)


def test_traced_values_refuse_python_control_flow():
    """`if block_id == 0:` would be decided at trace time (and drop the
    branch silently): comparisons and truth values raise instead."""
    def branchy(a: lt.Partition("f32", tile=(8, 8))):
        if lt.block_id("x") == 0:
            a[0, 0] = lt.zeros((8, 8), "f32")
    with pytest.raises(TypeError, match="cannot drive Python control flow"):
        trace(branchy)

    def truthy(a: lt.Partition("f32", tile=(8, 8))):
        if a[0, 0]:
            pass
    with pytest.raises(TypeError, match="cannot drive Python control flow"):
        trace(truthy)


def test_integer_tiles_are_signed_and_indexes_unsigned():
    def ints(a: lt.Partition("i32", tile=(4, 8)),
             b: lt.Partition("i32", tile=(4, 8))):
        i = lt.block_id("x")
        b[i // 2, i % 2] = lt.minimum(lt.maximum(a[i, 0], -1), 7)
    text = str(trace(ints))
    assert "arith.maxsi" in text and "arith.minsi" in text
    assert "arith.divui" in text and "arith.remui" in text
    assert "dense<-1> : vector<4x8xi32>" in text

    def divide(a: lt.Partition("i32", tile=(4, 8))):
        a[0, 0] = a[0, 0] / 2
    with pytest.raises(TypeError, match="no true division"):
        trace(divide)

    def fraction(a: lt.Partition("i32", tile=(4, 8))):
        a[0, 0] = a[0, 0] * 0.5
    with pytest.raises(TypeError, match="is not an integer"):
        trace(fraction)


def test_non_finite_and_out_of_range_constants():
    def masks(a: lt.Partition("f32", tile=(4, 8)),
              h: lt.Partition("f16", tile=(4, 8))):
        a[0, 0] = lt.maximum(a[0, 0], float("-inf")) + float("nan")
        h[0, 0] = lt.full((4, 8), float("inf"), "f16")
    text = str(trace(masks))
    assert "dense<0xFF800000> : vector<4x8xf32>" in text
    assert "dense<0x7FC00000> : vector<4x8xf32>" in text
    assert "dense<0x7C00> : vector<4x8xf16>" in text

    def too_big(h: lt.Partition("f16", tile=(4, 8))):
        h[0, 0] = lt.full((4, 8), 1e6, "f16")
    with pytest.raises(ValueError, match="out of the range of f16"):
        lt.kernel(block=(32,), grid="h")(too_big).build()


def test_indices_and_bounds_must_be_integers():
    def fractional(a: lt.Partition("f32", tile=(8, 8))):
        a[1.7, 0]
    with pytest.raises(TypeError, match="a tile index must be an lt Index "
                       "or an int, got float"):
        trace(fractional)

    def bound(a: lt.Partition("f32", tile=(8, 8))):
        lt.fori_loop(0, 2.5, lambda k, s: s, lt.zeros((8, 8), "f32"))
    with pytest.raises(TypeError, match="a loop bound must be"):
        trace(bound)


def test_postponed_annotations():
    """A module with `from __future__ import annotations` keeps its
    annotations as text: the decorator evaluates them."""
    source = (
        "from __future__ import annotations\n"
        "from layout_opt import tile as lt\n"
        "@lt.kernel(block=(32, 8, 1), grid='inp')\n"
        "def copy(inp: lt.Partition('f32', tile=(64, 64)),\n"
        "         out: lt.Partition('f32', tile=(64, 64))):\n"
        "    out[0, 0] = inp[0, 0]\n")
    scope = {}
    exec(compile(source, "<postponed>", "exec"), scope)
    assert "gpu.func @copy(" in scope["copy"].ir


def test_a_kernel_runs_from_python_on_cuda_chips_only():
    import numpy as np
    a = np.zeros((70, 130), np.float32)
    b = np.zeros((130, 70), np.float32)
    with pytest.raises(ValueError, match="chip must be sm_"):
        kernels.tile_transpose_f32(a, b, chip="gfx942")


def test_scalars_combine_with_tiles_from_either_side():
    def scale(a: lt.Partition("f32", tile=(8, 8)), alpha: float):
        a[0, 0] = alpha * a[0, 0] + a[0, 0] * alpha - (-a[0, 0])
    text = str(trace(scale))
    assert text.count("vector.broadcast") == 2
    assert text.count("arith.mulf") == 2 and "arith.negf" in text


@pytest.mark.parametrize("chip,instruction,copies", [
    ("sm_90", "mma.sync.aligned.m16n8k16", "copied by cp.async"),
    ("sm_90a", "wgmma m64n64k16", "copied by cp.async"),
    ("gfx1100", "v_wmma_f32_16x16x16_f16", "loaded into registers")])
def test_attention_keeps_its_loop_in_registers(chip, instruction, copies):
    """The Python attention forward (the same IR as examples/attention.mlir,
    test_kernel_equals_its_hand_written_counterpart) is a fragment program
    on NVIDIA and AMD alike: P reaches the second product without
    workgroup memory, the row statistics go by shuffles, K and V one
    product ahead."""
    remarks = kernels.attn_causal_d64_bm64.lower(chip).remarks
    products = [r for r in remarks if "in a fragment program: " + instruction
                in r]
    assert len(products) == 2, remarks
    assert "no workgroup memory" in products[1]
    assert sum("row maximumf in registers" in r for r in remarks) == 1
    assert sum("row add in registers" in r for r in remarks) == 1
    # The causal mask: tested at the tile's ends, skipped off the diagonal.
    assert sum("a mask of 1 position compare(s)" in r for r in remarks) == 1
    # Q (its column index a constant the tracer makes in the loop) once
    # before the loop; K and V one product ahead.
    assert any("1 staged tile(s) once before the loop, 2 per iteration; "
               "those in 2 groups, each " + copies in r
               for r in remarks), remarks


def test_attention_ops_check_their_arguments():
    def bad_init(a: lt.Partition("f32", tile=(8, 8))):
        lt.row_max(lt.zeros((8, 8), "f32"), lt.zeros((4,), "f32"))
    with pytest.raises(ValueError, match="starts from a vector<8xf32> "
                       "\\(one value per row\\), got vector<4xf32>"):
        trace(bad_init)

    def bad_dot_t(a: lt.Partition("f16", tile=(16, 16)),
                  b: lt.Partition("f16", tile=(8, 16))):
        i = lt.block_id("x")
        lt.dot_t(a[i, i], b[i, i], lt.zeros((16, 16), "f32"))
    with pytest.raises(ValueError, match="does not accumulate"):
        trace(bad_dot_t)

    def bad_where(a: lt.Partition("f32", tile=(8, 8))):
        i = lt.block_id("x")
        lt.where(a[i, i], a[i, i], 0.0)
    with pytest.raises(ValueError, match="i1 condition"):
        trace(bad_where)

    def int_exp(a: lt.Partition("i32", tile=(8, 8))):
        lt.exp2(a[0, 0])
    with pytest.raises(TypeError, match="must be a float tile"):
        trace(int_exp)

    def flat_rows(a: lt.Partition("f32", tile=(8, 8))):
        lt.rows(a[0, 0], 8)
    with pytest.raises(ValueError, match="repeats a 1-D tile"):
        trace(flat_rows)


def test_reciprocal_marks_the_approximate_division():
    """lt.reciprocal is arith.divf of a splat 1; approx=True adds
    fastmath<afn> (the attention epilogue's rcp.approx on NVIDIA), the
    default keeps the correctly rounded division; integer tiles are
    refused."""
    def both(a: lt.Partition("f32", tile=(8, 8)),
             o: lt.Partition("f32", tile=(8, 8))):
        i = lt.block_id("x")
        o[i, 0] = lt.reciprocal(a[i, 0]) + lt.reciprocal(a[i, 0], approx=True)
    text = lt.kernel(block=(32, 1, 1), grid="a")(both).ir
    divs = [line for line in text.splitlines() if "arith.divf" in line]
    assert len(divs) == 2
    assert sum("fastmath<afn>" in line for line in divs) == 1

    def int_tile(a: lt.Partition("i32", tile=(8, 8))):
        lt.reciprocal(a[0, 0])
    with pytest.raises(TypeError, match="must be a float tile"):
        trace(int_tile)
