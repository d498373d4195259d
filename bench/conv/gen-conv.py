#!/usr/bin/env python3
"""Convolutions as tile programs: the one place their MLIR is written.

A forward convolution is the GEMM tile program of examples/matmul.mlir whose
A operand is the input seen through the im2col descriptor chain (CK Tile's
implicit GEMM, seed 001): pad H and W, embed (Y, Ho) and (X, Wo) with
stride and dilation, merge GEMM-M = (N, Ho, Wo) and GEMM-K = (Y, X, C). B
is the weights as GEMM-N x GEMM-K (KYXC: each output channel's filter is
one row), C the output as GEMM-M x GEMM-N (NHWK). The same program with A a
plain M x K memref is the GEMM of the same M, N, K: the descriptor chain is
the only difference (`kernel(..., gemm=True)`).

NCHW input pairs with KCYX weights (GEMM-K = (C, Y, X)); its last GEMM-K
dimension runs along W through the padding, so its A tile moves element by
element (the tile pass says why in a remark).

    gen-conv.py examples            examples/conv.mlir
    gen-conv.py cpu-test [wgmma]    the CPU execution test (stdout): every
                                    case against a direct convolution
    gen-conv.py bench [chip]        the kernels of bench/conv (stdout);
                                    chip sm_90 (default) or sm_90a
    gen-conv.py bench-shapes [chip] their launch table, for the harness
"""

import sys
from dataclasses import dataclass, field


@dataclass
class Conv:
    name: str
    n: int
    h: int
    w: int
    c: int
    k: int
    y: int = 3
    x: int = 3
    stride: tuple = (1, 1)
    dilation: tuple = (1, 1)
    # (top, bottom, left, right)
    pad: tuple = (1, 1, 1, 1)
    layout: str = "nhwc"
    out: str = "f16"
    # Block tile BM x BN x BK and threads.
    tile: tuple = (128, 128, 32)
    threads: int = 128
    # Extra attributes of the contraction (pipeline stages, wave tiles).
    contract_attrs: dict = field(default_factory=dict)
    # Extra attributes of the gpu.func (layout.dynamic_shared_memory).
    func_attrs: dict = field(default_factory=dict)
    # The input as an N x H x W x C memref collapsed to one dimension in the
    # kernel (what TMA's im2col mode reads: its tensor map covers the NHWC
    # memref), instead of a 1-D memref argument.
    nhwc_arg: bool = False

    def __post_init__(self):
        for v in (self.n, self.h, self.w, self.c, self.k, self.y, self.x):
            if v < 1:
                raise ValueError(f"{self.name}: sizes must be positive")
        if self.ho < 1 or self.wo < 1:
            raise ValueError(f"{self.name}: the filter does not fit the input")
        if self.nhwc_arg and self.layout != "nhwc":
            raise ValueError(f"{self.name}: an NHWC memref argument needs the "
                             "nhwc layout")

    @property
    def hp(self):
        return self.h + self.pad[0] + self.pad[1]

    @property
    def wp(self):
        return self.w + self.pad[2] + self.pad[3]

    @property
    def ho(self):
        return (self.hp - self.dilation[0] * (self.y - 1) - 1) // self.stride[0] + 1

    @property
    def wo(self):
        return (self.wp - self.dilation[1] * (self.x - 1) - 1) // self.stride[1] + 1

    @property
    def gemm_m(self):
        return self.n * self.ho * self.wo

    @property
    def gemm_n(self):
        return self.k

    @property
    def gemm_k(self):
        return self.y * self.x * self.c

    @property
    def input_type(self):
        """The kernel's input argument type."""
        if self.nhwc_arg:
            return f"memref<{self.n}x{self.h}x{self.w}x{self.c}xf16>"
        return f"memref<{self.input_elements}xf16>"

    @property
    def input_elements(self):
        return self.n * self.h * self.w * self.c

    def flops(self):
        return 2 * self.gemm_m * self.gemm_n * self.gemm_k


def desc(shape):
    return "!layout.desc<" + "x".join(map(str, shape)) + ">"


def im2col(cv: Conv, buf: str, indent: str):
    """The descriptor chain of the A operand and the view of `buf`."""
    n, h, w, c, y, x = cv.n, cv.h, cv.w, cv.c, cv.y, cv.x
    pt, pb, pl, pr = cv.pad
    (sh, sw), (dh, dw) = cv.stride, cv.dilation
    hp, wp, ho, wo = cv.hp, cv.wp, cv.ho, cv.wo
    m, k = cv.gemm_m, cv.gemm_k
    if cv.layout == "nhwc":
        base, dims = [n, h, w, c], {"n": 0, "h": 1, "w": 2, "c": 3}
    elif cv.layout == "nchw":
        base, dims = [n, c, h, w], {"n": 0, "c": 1, "h": 2, "w": 3}
    else:
        raise ValueError(f"{cv.name}: layout {cv.layout}")
    padded = list(base)
    padded[dims["h"]], padded[dims["w"]] = hp, wp
    entries = []
    for d in sorted(dims, key=dims.get):
        i = dims[d]
        if d == "h":
            entries.append(f"#layout.pad<{h}, {pt}, {pb}> : [{i}] -> [{i}]")
        elif d == "w":
            entries.append(f"#layout.pad<{w}, {pl}, {pr}> : [{i}] -> [{i}]")
        else:
            entries.append(f"#layout.pass_through<{base[i]}> : [{i}] -> [{i}]")
    # Embed: (Y, Ho) from H, (X, Wo) from W; the other dims pass through.
    # Upper dims in the order n, c, y, ho, x, wo (one index each).
    order = ["n", "c", "y", "ho", "x", "wo"]
    up = {d: i for i, d in enumerate(order)}
    lengths = {"n": n, "c": c, "y": y, "ho": ho, "x": x, "wo": wo}
    emb = []
    for d in sorted(dims, key=dims.get):
        i = dims[d]
        if d == "h":
            emb.append(f"#layout.embed<[{y}, {ho}], [{dh}, {sh}]> : [{i}] -> [{up['y']}, {up['ho']}]")
        elif d == "w":
            emb.append(f"#layout.embed<[{x}, {wo}], [{dw}, {sw}]> : [{i}] -> [{up['x']}, {up['wo']}]")
        else:
            emb.append(f"#layout.pass_through<{base[i]}> : [{i}] -> [{up[d]}]")
    kdims = ["y", "x", "c"] if cv.layout == "nhwc" else ["c", "y", "x"]
    mdims = ["n", "ho", "wo"]
    embedded = [lengths[d] for d in order]
    merges = [
        f"#layout.merge<[{', '.join(str(lengths[d]) for d in mdims)}]> : "
        f"[{', '.join(str(up[d]) for d in mdims)}] -> [0]",
        f"#layout.merge<[{', '.join(str(lengths[d]) for d in kdims)}]> : "
        f"[{', '.join(str(up[d]) for d in kdims)}] -> [1]",
    ]
    t = indent
    return "\n".join([
        f"{t}// im2col ({cv.layout.upper()}): pad H and W, embed (Y, Ho) and (X, Wo),",
        f"{t}// merge GEMM-M = (N, Ho, Wo) and GEMM-K = ({', '.join(d.upper() for d in kdims)}).",
        f"{t}%x = layout.packed [{', '.join(map(str, base))}] : {desc(base)}",
        f"{t}%xp = layout.transform %x [{', '.join(entries)}]",
        f"{t}    : {desc(base)} -> {desc(padded)}",
        f"{t}%xe = layout.transform %xp [{', '.join(emb)}]",
        f"{t}    : {desc(padded)} -> {desc(embedded)}",
        f"{t}%im2col = layout.transform %xe [{', '.join(merges)}]",
        f"{t}    : {desc(embedded)} -> {desc([m, k])}",
        f"{t}%va = layout.view {buf} by %im2col : memref<{cv.input_elements}xf16>, {desc([m, k])}",
        f"{t}    -> !layout.tensor_view<{m}x{k}xf16>",
    ])


def kernel(cv: Conv, gemm=False):
    """The tile program of `cv` (or, with gemm, its GEMM)."""
    m, n, k = cv.gemm_m, cv.gemm_n, cv.gemm_k
    bm, bn, bk = cv.tile
    ot = cv.out
    name = cv.name + ("_gemm" if gemm else "")
    t = "    "
    pa = f"!layout.partition_view<{m}x{k}xf16, tile = [{bm}, {bk}]>"
    pb = f"!layout.partition_view<{n}x{k}xf16, tile = [{bn}, {bk}]>"
    pc = f"!layout.partition_view<{m}x{n}x{ot}, tile = [{bm}, {bn}]>"
    a_type = f"memref<{m}x{k}xf16>" if gemm else cv.input_type
    if gemm:
        view_a = f"{t}%va = layout.view %in : {a_type} -> !layout.tensor_view<{m}x{k}xf16>"
    elif cv.nhwc_arg:
        view_a = "\n".join([
            f"{t}%flat = memref.collapse_shape %in [[0, 1, 2, 3]] : {a_type} "
            f"into memref<{cv.input_elements}xf16>",
            im2col(cv, "%flat", t)])
    else:
        view_a = im2col(cv, "%in", t)
    attrs = "".join(f", {key} = {val}" for key, val in cv.contract_attrs.items())
    fattrs = "".join(f", {key}" + ("" if val is None else f" = {val}")
                     for key, val in cv.func_attrs.items())
    acc = f"vector<{bm}x{bn}xf32>"
    store = [f"{t}layout.store %acc, %pc[%bm, %bn] masked : {acc}, {pc}"]
    if ot != "f32":
        store = [
            f"{t}%o = arith.truncf %acc : {acc} to vector<{bm}x{bn}x{ot}>",
            f"{t}layout.store %o, %pc[%bm, %bn] masked : vector<{bm}x{bn}x{ot}>, {pc}",
        ]
    what = ("GEMM of the same M x N x K as " + cv.name) if gemm else (
        f"N={cv.n} {cv.h}x{cv.w}x{cv.c} -> {cv.k}, {cv.y}x{cv.x}, stride "
        f"{cv.stride}, dilation {cv.dilation}, pad {cv.pad}, {cv.layout}")
    return "\n".join([
        f"  // {name}: {what}; M x N x K = {m} x {n} x {k}.",
        f"  gpu.func @{name}(%in: {a_type}, %wt: memref<{n}x{k}xf16>,",
        f"      %out: memref<{m}x{n}x{ot}>) kernel",
        f"      attributes {{known_block_size = array<i32: {cv.threads}, 1, 1>{fattrs}}} {{",
        f"{t}%c0 = arith.constant 0 : index",
        f"{t}%c1 = arith.constant 1 : index",
        view_a,
        f"{t}%vb = layout.view %wt : memref<{n}x{k}xf16> -> !layout.tensor_view<{n}x{k}xf16>",
        f"{t}%vc = layout.view %out : memref<{m}x{n}x{ot}> -> !layout.tensor_view<{m}x{n}x{ot}>",
        f"{t}%pa = layout.partition %va tile [{bm}, {bk}] : !layout.tensor_view<{m}x{k}xf16> -> {pa}",
        f"{t}%pb = layout.partition %vb tile [{bn}, {bk}] : !layout.tensor_view<{n}x{k}xf16> -> {pb}",
        f"{t}%pc = layout.partition %vc tile [{bm}, {bn}] : !layout.tensor_view<{m}x{n}x{ot}> -> {pc}",
        f"{t}%bm = gpu.block_id y",
        f"{t}%bn = gpu.block_id x",
        f"{t}%tiles:2 = layout.index_space %pa : {pa}",
        f"{t}%zero = arith.constant dense<0.0> : {acc}",
        f"{t}%acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> ({acc}) {{",
        f"{t}  %ta = layout.load %pa[%bm, %kt] masked : {pa} -> vector<{bm}x{bk}xf16>",
        f"{t}  %tb = layout.load %pb[%bn, %kt] masked : {pb} -> vector<{bn}x{bk}xf16>",
        f"{t}  %r = vector.contract {{indexing_maps = [#mk, #nk, #mn],",
        f"{t}                        iterator_types = [\"parallel\", \"parallel\", \"reduction\"],",
        f"{t}                        kind = #vector.kind<add>{attrs}}} %ta, %tb, %s",
        f"{t}     : vector<{bm}x{bk}xf16>, vector<{bn}x{bk}xf16> into {acc}",
        f"{t}  scf.yield %r : {acc}",
        f"{t}}}",
        *store,
        f"{t}gpu.return",
        "  }",
    ])


MAPS = """#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>"""


def module(kernels, name="conv", host=""):
    """The kernels in a gpu.module, `host` after it in the outer module."""
    body = "\n\n".join(kernels)
    return (f"{MAPS}\n\nmodule attributes {{gpu.container_module}} {{\n"
            f"gpu.module @{name} {{\n{body}\n}}\n{host}}}\n")


#===-----------------------------------------------------------------------===#
# examples/conv.mlir
#===-----------------------------------------------------------------------===#

EXAMPLES = [
    Conv("conv3x3_s1_p1", 32, 56, 56, 64, 64),
    Conv("conv1x1", 32, 56, 56, 256, 64, 1, 1, pad=(0, 0, 0, 0)),
    Conv("conv3x3_s2_p1", 32, 56, 56, 128, 128, stride=(2, 2)),
    Conv("conv3x3_d2_p2", 32, 28, 28, 128, 128, dilation=(2, 2),
         pad=(2, 2, 2, 2)),
]


def examples():
    header = """// Convolutions as tile programs (implicit GEMM through im2col descriptor
// views), f16 with f32 accumulation. Generated by bench/conv/gen-conv.py
// (`gen-conv.py examples > examples/conv.mlir`; a lit test keeps the two
// equal): the kernels are the GEMM tile program of examples/matmul.mlir
// with the A view through the im2col chain (pad, embed, merge) of an NHWC
// input; B is the KYXC weights as GEMM-N x GEMM-K rows. Padding reads as
// zeros through the descriptor's validity (masked loads).
//
// -layout-tile-shared-memory infers the runs of GEMM-K (C elements with
// unit stride, VectorLength.h) and loads A as 16-byte vectors, one
// validity test per vector; on sm_90 as asynchronous copies that
// zero-fill the padding:
//   layout-opt examples/conv.mlir -layout-tile-shared-memory=chip=sm_90 \\
//     -layout-xor-swizzle=chip=sm_90 -layout-to-nvvm=chip=sm_90 \\
//     -layout-dump-binaries=dir=out -o /dev/null
// Launch: grid (ceil(K / 128), ceil(N * Ho * Wo / 128)), 128 threads; the
// input is one NHWC buffer, the output N*Ho*Wo x K (NHWK).
"""
    return header + "\n" + module([kernel(cv) for cv in EXAMPLES])


#===-----------------------------------------------------------------------===#
# The CPU execution test
#===-----------------------------------------------------------------------===#

CPU_TILE = dict(tile=(32, 32, 16), threads=64, out="f32")
CPU_CASES = [
    # The issue's odd shape: N=2, H=7, W=9, C=12, K=10, 3x3, stride 2, pad 1
    # (runs of 12: 4-vectors).
    Conv("s2_p1", 2, 7, 9, 12, 10, stride=(2, 2), **CPU_TILE),
    Conv("s1_p1", 2, 5, 6, 16, 20, **CPU_TILE),
    Conv("k1x1", 2, 5, 7, 24, 12, 1, 1, pad=(0, 0, 0, 0), **CPU_TILE),
    Conv("d2_p2", 1, 7, 8, 8, 6, dilation=(2, 2), pad=(2, 2, 2, 2), **CPU_TILE),
    # Asymmetric padding and strides, a 3x2 filter.
    Conv("asym", 2, 6, 9, 8, 7, 3, 2, stride=(2, 1), pad=(0, 2, 1, 0), **CPU_TILE),
    # NCHW input, KCYX weights: element by element.
    Conv("nchw", 2, 7, 9, 12, 10, stride=(2, 2), layout="nchw", **CPU_TILE),
]

CPU_HELPERS = """
/// in(n, c, h, w) = (7 n + 5 c + 3 h + 11 w + floor(c^2 / 3)) mod 7 - 3 and
/// wt(ko, c, y, x) = (3 ko + 13 c + 5 y + 2 x + 1) mod 5 - 2: small
/// integers, exact in f16 and in every f32 sum the tests make.
func.func @in_value(%n: index, %c: index, %h: index, %w: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %a = arith.muli %n, %c7 : index
  %b = arith.muli %c, %c5 : index
  %d = arith.muli %h, %c3 : index
  %e = arith.muli %w, %c11 : index
  %cc = arith.muli %c, %c : index
  %q = arith.divui %cc, %c3 : index
  %s0 = arith.addi %a, %b : index
  %s1 = arith.addi %s0, %d : index
  %s2 = arith.addi %s1, %e : index
  %s = arith.addi %s2, %q : index
  %r = arith.remui %s, %c7 : index
  %i = arith.index_cast %r : index to i64
  %three = arith.constant 3 : i64
  %v = arith.subi %i, %three : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
func.func @wt_value(%ko: index, %c: index, %y: index, %x: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c13 = arith.constant 13 : index
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %a = arith.muli %ko, %c3 : index
  %b = arith.muli %c, %c13 : index
  %d = arith.muli %y, %c5 : index
  %e = arith.muli %x, %c2 : index
  %s0 = arith.addi %a, %b : index
  %s1 = arith.addi %s0, %d : index
  %s2 = arith.addi %s1, %e : index
  %s = arith.addi %s2, %c1 : index
  %r = arith.remui %s, %c5 : index
  %i = arith.index_cast %r : index to i64
  %two = arith.constant 2 : i64
  %v = arith.subi %i, %two : i64
  %f = arith.sitofp %v : i64 to f32
  return %f : f32
}
"""


def cpu_run(cv: Conv):
    """Host code of one case: fill, launch, compare with a direct
    convolution (loops over the filter, bounds tested explicitly)."""
    m, n, k = cv.gemm_m, cv.gemm_n, cv.gemm_k
    bm, bn, _ = cv.tile
    pt, _, pl, _ = cv.pad
    (sh, sw), (dh, dw) = cv.stride, cv.dilation
    nchw = cv.layout == "nchw"
    # Input element (n, c, h, w) at its buffer index; weight (ko, c, y, x)
    # at its GEMM-K column.
    in_index = (f"((%n * {cv.c} + %c) * {cv.h} + %h) * {cv.w} + %w" if nchw
                else f"((%n * {cv.h} + %h) * {cv.w} + %w) * {cv.c} + %c")
    wt_col = (f"(%c * {cv.y} + %y) * {cv.x} + %x" if nchw
              else f"(%y * {cv.x} + %x) * {cv.c} + %c")

    def index_expr(expr, out):
        # A small affine.apply over the named values.
        names = sorted(set(t for t in ["%n", "%c", "%h", "%w", "%y", "%x"] if t in expr))
        dims = ", ".join(f"d{i}" for i in range(len(names)))
        body = expr
        for i, nm in enumerate(names):
            body = body.replace(nm, f"d{i}")
        return (f"{out} = affine.apply affine_map<({dims}) -> ({body})>"
                f"({', '.join(names)})")

    in_arg = (f"%in4 = memref.expand_shape %in [[0, 1, 2, 3]] output_shape "
              f"[{cv.n}, {cv.h}, {cv.w}, {cv.c}] : memref<{cv.input_elements}xf16> "
              f"into {cv.input_type}" if cv.nhwc_arg else "")
    return f"""
func.func @run_{cv.name}() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = memref.alloc() : memref<{cv.input_elements}xf16>
  %wt = memref.alloc() : memref<{n}x{k}xf16>
  %out = memref.alloc() : memref<{m}x{n}xf32>
  %N = arith.constant {cv.n} : index
  %C = arith.constant {cv.c} : index
  %H = arith.constant {cv.h} : index
  %W = arith.constant {cv.w} : index
  %K = arith.constant {cv.k} : index
  %Y = arith.constant {cv.y} : index
  %X = arith.constant {cv.x} : index
  scf.for %n = %c0 to %N step %c1 {{
    scf.for %c = %c0 to %C step %c1 {{
      scf.for %h = %c0 to %H step %c1 {{
        scf.for %w = %c0 to %W step %c1 {{
          %v = func.call @in_value(%n, %c, %h, %w) : (index, index, index, index) -> f32
          %v16 = arith.truncf %v : f32 to f16
          {index_expr(in_index, "%at")}
          memref.store %v16, %in[%at] : memref<{cv.input_elements}xf16>
        }}
      }}
    }}
  }}
  scf.for %ko = %c0 to %K step %c1 {{
    scf.for %c = %c0 to %C step %c1 {{
      scf.for %y = %c0 to %Y step %c1 {{
        scf.for %x = %c0 to %X step %c1 {{
          %v = func.call @wt_value(%ko, %c, %y, %x) : (index, index, index, index) -> f32
          %v16 = arith.truncf %v : f32 to f16
          {index_expr(wt_col, "%col")}
          memref.store %v16, %wt[%ko, %col] : memref<{n}x{k}xf16>
        }}
      }}
    }}
  }}
  %M = arith.constant {m} : index
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %M step %c1 {{
    scf.for %j = %c0 to %K step %c1 {{
      memref.store %init, %out[%i, %j] : memref<{m}x{n}xf32>
    }}
  }}
  %gx = arith.constant {-(-n // bn)} : index
  %gy = arith.constant {-(-m // bm)} : index
  {in_arg}
  call @{cv.name}_host({"%in4" if cv.nhwc_arg else "%in"}, %wt, %out, %gx, %gy, %c1)
    : ({cv.input_type}, memref<{n}x{k}xf16>, memref<{m}x{n}xf32>, index, index, index) -> ()
  // The direct convolution: out[(n, ho, wo), ko] = sum over (y, x, c) of
  // in(n, c, ho * s - pad + y * d, wo * s - pad + x * d) * wt(ko, c, y, x),
  // zero outside the input.
  %Ho = arith.constant {cv.ho} : index
  %Wo = arith.constant {cv.wo} : index
  %zero = arith.constant 0.0 : f32
  %bad = scf.for %n = %c0 to %N step %c1 iter_args(%b0 = %c0) -> (index) {{
   %b1 = scf.for %ho = %c0 to %Ho step %c1 iter_args(%b2 = %b0) -> (index) {{
    %b3 = scf.for %wo = %c0 to %Wo step %c1 iter_args(%b4 = %b2) -> (index) {{
     %b5 = scf.for %ko = %c0 to %K step %c1 iter_args(%b6 = %b4) -> (index) {{
      %sum = scf.for %y = %c0 to %Y step %c1 iter_args(%s0 = %zero) -> (f32) {{
       %s1 = scf.for %x = %c0 to %X step %c1 iter_args(%s2 = %s0) -> (f32) {{
        %s3 = scf.for %c = %c0 to %C step %c1 iter_args(%s4 = %s2) -> (f32) {{
          %hi = affine.apply affine_map<(a, b) -> (a * {sh} + b * {dh} - {pt})>(%ho, %y)
          %wi = affine.apply affine_map<(a, b) -> (a * {sw} + b * {dw} - {pl})>(%wo, %x)
          %h0 = arith.cmpi sge, %hi, %c0 : index
          %h1 = arith.cmpi slt, %hi, %H : index
          %w0 = arith.cmpi sge, %wi, %c0 : index
          %w1 = arith.cmpi slt, %wi, %W : index
          %hh = arith.andi %h0, %h1 : i1
          %ww = arith.andi %w0, %w1 : i1
          %inside = arith.andi %hh, %ww : i1
          %p = scf.if %inside -> (f32) {{
            %a = func.call @in_value(%n, %c, %hi, %wi) : (index, index, index, index) -> f32
            %b = func.call @wt_value(%ko, %c, %y, %x) : (index, index, index, index) -> f32
            %ab = arith.mulf %a, %b : f32
            scf.yield %ab : f32
          }} else {{
            scf.yield %zero : f32
          }}
          %s5 = arith.addf %s4, %p : f32
          scf.yield %s5 : f32
        }}
        scf.yield %s3 : f32
       }}
       scf.yield %s1 : f32
      }}
      %row = affine.apply affine_map<(a, b, c) -> ((a * {cv.ho} + b) * {cv.wo} + c)>(%n, %ho, %wo)
      %got = memref.load %out[%row, %ko] : memref<{m}x{n}xf32>
      %ne = arith.cmpf une, %got, %sum : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b7 = arith.addi %b6, %one : index
      scf.yield %b7 : index
     }}
     scf.yield %b5 : index
    }}
    scf.yield %b3 : index
   }}
   scf.yield %b1 : index
  }}
  vector.print str "{cv.name} {cv.layout} {m}x{n}x{k}: "
  vector.print %bad : index punctuation <no_punctuation>
  vector.print str " mismatches of {m * n}\\n"
  memref.dealloc %in : memref<{cv.input_elements}xf16>
  memref.dealloc %wt : memref<{n}x{k}xf16>
  memref.dealloc %out : memref<{m}x{n}xf32>
  return
}}
"""


# Block tiles that warpgroup MMA takes on sm_90a (one warpgroup, M tiles
# of 64): the cp.async ring of 3 stages and of 4 (wgmma batches in
# flight), and the ring of TMA boxes for B with cp.async for A (asked
# for), over 9 and 18 K tiles, so that the rings wrap several times; the
# im2col A tile has no TMA box.
WGMMA_TILE = dict(tile=(64, 32, 16), threads=128, out="f32")
WGMMA_CASES = [
    # The input as an NHWC memref: A by TMA's im2col mode (asked for, so
    # that a plan that cannot take it fails), B by tiled boxes; one M tile
    # past the 60 rows, and a strided, dilated, unevenly padded one over
    # two M tiles (the second past the rows, wrapping into a third image).
    Conv("wg_im2col_s1_p1", 2, 5, 6, 16, 20, nhwc_arg=True,
         contract_attrs={"layout.operand_copies": '"tma"'}, **WGMMA_TILE),
    Conv("wg_im2col_s2_d2", 3, 9, 11, 32, 10, stride=(2, 2),
         dilation=(2, 1), pad=(2, 1, 1, 2), nhwc_arg=True,
         contract_attrs={"layout.pipeline_stages": "4 : i64",
                         "layout.operand_copies": '"tma"'}, **WGMMA_TILE),
    Conv("wg_s1_p1", 2, 5, 6, 16, 20, **WGMMA_TILE),
    Conv("wg_s1_p1_s4", 2, 5, 6, 16, 20,
         contract_attrs={"layout.pipeline_stages": "4 : i64"}, **WGMMA_TILE),
    Conv("wg_s2_p1_mixed", 2, 7, 9, 32, 10, stride=(2, 2),
         contract_attrs={"layout.pipeline_stages": "4 : i64",
                         "layout.operand_copies": '"tma+cp.async"'},
         **WGMMA_TILE),
]


def cpu_test(cases="all"):
    cases = {"all": CPU_CASES, "wgmma": WGMMA_CASES}[cases]
    decls = "\n".join(
        f"func.func private @{cv.name}_host({cv.input_type}, "
        f"memref<{cv.gemm_n}x{cv.gemm_k}xf16>, memref<{cv.gemm_m}x{cv.gemm_n}xf32>, "
        f"index, index, index)" for cv in cases)
    runs = "".join(cpu_run(cv) for cv in cases)
    calls = "\n".join(f"  call @run_{cv.name}() : () -> ()" for cv in cases)
    host = (decls + "\n" + CPU_HELPERS + runs +
            f"\nfunc.func @main() {{\n{calls}\n  return\n}}\n")
    return module([kernel(cv) for cv in cases], "convs", host)


#===-----------------------------------------------------------------------===#
# bench/conv: ResNet-50's 3x3 layers and a 1x1 layer, N = 32
#===-----------------------------------------------------------------------===#

# name, H = W, C, K, filter
BENCH_LAYERS = [
    ("r50_3x3_56", 56, 64, 64, 3),
    ("r50_3x3_28", 28, 128, 128, 3),
    ("r50_3x3_14", 14, 256, 256, 3),
    ("r50_3x3_7", 7, 512, 512, 3),
    ("r50_1x1_56", 56, 64, 256, 1),
]

# Block tiles (BM, BN, BK), threads and (optionally) pipeline stages per
# chip. sm_90 (mma.sync): one configuration per layer. sm_90a (warpgroup
# MMA, TMA for the weights): the configurations measured against each
# other, each named <layer>_<BM>x<BN>x<BK>w<threads>[s<stages>].
BENCH_TILES = {
    "sm_90": {
        "r50_3x3_56": [((128, 64, 32), 128)],
        "r50_3x3_28": [((128, 128, 32), 128)],
        "r50_3x3_14": [((128, 128, 32), 128)],
        "r50_3x3_7": [((128, 128, 32), 128)],
        "r50_1x1_56": [((128, 128, 32), 128)],
    },
    "sm_90a": {
        "r50_3x3_56": [((128, 64, 64), 128), ((128, 64, 64), 128, 5),
                       ((64, 64, 64), 128, 6)],
        "r50_3x3_28": [((64, 128, 64), 128), ((64, 128, 64), 128, 4),
                       ((64, 128, 64), 128, 6)],
        "r50_3x3_14": [((64, 128, 64), 128, 4), ((64, 128, 64), 128, 5),
                       ((64, 128, 64), 128, 6), ((64, 64, 64), 128, 6)],
        "r50_3x3_7": [((64, 128, 64), 128, 4), ((64, 128, 64), 128, 5),
                      ((64, 128, 64), 128, 6), ((64, 64, 64), 128, 8),
                      ((64, 128, 128), 128, 3)],
        "r50_1x1_56": [((64, 128, 64), 128, 2), ((128, 64, 64), 128, 2)],
    },
}


# sm_90a: each configuration reads the input as an NHWC memref (the A
# tiles are TMA im2col boxes); the last session's best configuration per
# layer also with a 1-D input (A by cp.async), named <...>_flat, to compare
# the two in one run.
BENCH_FLAT = {
    "sm_90a": {"r50_3x3_56": ((128, 64, 64), 128),
               "r50_3x3_28": ((64, 128, 64), 128),
               "r50_3x3_14": ((64, 128, 64), 128, 4),
               "r50_3x3_7": ((64, 128, 64), 128, 4),
               "r50_1x1_56": ((64, 128, 64), 128, 2)},
}


def bench_cases(chip="sm_90"):
    if chip not in BENCH_TILES:
        raise SystemExit(f"gen-conv.py: no bench tiles for chip '{chip}' "
                         f"(known: {', '.join(BENCH_TILES)})")
    out = []
    for name, hw, c, k, f in BENCH_LAYERS:
        pad = 1 if f == 3 else 0
        configs = [(c, chip == "sm_90a") for c in BENCH_TILES[chip][name]]
        if name in BENCH_FLAT.get(chip, {}):
            configs.append((BENCH_FLAT[chip][name], False))
        for (tile, threads, *stages), nhwc in configs:
            label = name
            if len(configs) > 1:
                label += f"_{tile[0]}x{tile[1]}x{tile[2]}w{threads}"
                label += f"s{stages[0]}" if stages else ""
                label += "" if nhwc or chip != "sm_90a" else "_flat"
            # Stages over 48 KiB need dynamic shared memory.
            count = stages[0] if stages else 3
            big = count * (tile[0] + tile[1]) * tile[2] * 2 > 48 * 1024
            out.append(Conv(label, 32, hw, hw, c, k, f, f, pad=(pad,) * 4,
                            tile=tile, threads=threads,
                            contract_attrs={"layout.pipeline_stages":
                                            f"{stages[0]} : i64"}
                            if stages else {},
                            func_attrs={"layout.dynamic_shared_memory": None}
                            if big else {}, nhwc_arg=nhwc))
    return out


def bench(chip="sm_90"):
    ks = []
    for cv in bench_cases(chip):
        ks.append(kernel(cv))
        ks.append(kernel(cv, gemm=True))
    return "// Generated by bench/conv/gen-conv.py bench.\n" + module(ks)


def bench_shapes(chip="sm_90"):
    # One line per kernel: name N H W C K Y X stride pad Ho Wo M Ngemm Kgemm
    # BM BN threads, and the input's rank (1, or 4: an NHWC memref).
    lines = []
    for cv in bench_cases(chip):
        lines.append(" ".join(map(str, [
            cv.name, cv.n, cv.h, cv.w, cv.c, cv.k, cv.y, cv.x, cv.stride[0],
            cv.pad[0], cv.ho, cv.wo, cv.gemm_m, cv.gemm_n, cv.gemm_k,
            cv.tile[0], cv.tile[1], cv.threads, 4 if cv.nhwc_arg else 1])))
    return "\n".join(lines) + "\n"


def main(argv):
    what = argv[1] if len(argv) > 1 else ""
    outputs = {"examples": examples, "cpu-test": cpu_test, "bench": bench,
               "bench-shapes": bench_shapes}
    if what not in outputs:
        sys.stderr.write(__doc__)
        return 2
    args = argv[2:3] if what.startswith("bench") or what == "cpu-test" else []
    sys.stdout.write(outputs[what](*args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
