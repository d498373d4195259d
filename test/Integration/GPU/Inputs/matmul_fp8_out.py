#!/usr/bin/env python3
"""The FP8-output GEMM tile programs of matmul-fp8-out-on-cpu-*.test and
their NumPy reference.

`program FAMILY` writes the MLIR: two kernels (E4M3 A, B, C and E5M2 A, B,
C of the family: ocp = f8E4M3FN / f8E5M2, fnuz = f8E4M3FNUZ / f8E5M2FNUZ)
computing C = sat(acc * sa * row[i]) with the saturating truncation of
layout/Transforms/Float8Truncation.h (arith.maximumf / arith.minimumf with
-+ the largest finite value, then arith.truncf), and a host main that runs
them on fixed inputs and prints every byte of C.

`kernels FAMILY` writes the two kernels alone (for the code-object test).

`check FAMILY` reads that output and compares every byte with a reference
computed here: the inputs decoded from their bytes by the bit formula
below, the exact sum over K, the two f32 multiplications in NumPy float32
(in the kernel's order), then rounded to the nearest code, ties to the
even code, saturating past the largest finite value (and at infinity);
NaN stays NaN. Nothing comes from the code under test.

The inputs put C at the edges: "tie" rows hold x + h and x - h where x is a
code of B's column and h half its ulp (exact midpoints), "one-hot" rows x
itself (the largest finite value exactly, subnormals), scaled by powers of
two into the subnormals and past the largest finite value; other rows are
random sums scaled by non-dyadic factors; one row has a NaN input and one a
scale of 2^127 (infinite products in f32). Every accumulation is exact in
f32 in any order (checked below), so a mismatch is the conversion's.
"""

import math
import random
import sys

import numpy as np

from fp8_common import bytes_helper, mlir_array, signed_byte

M, N, K = 67, 45, 100
SA = 0.5

FAMILIES = {
    "ocp": [("e4m3", "f8E4M3FN", 4, 3, 7, False),
            ("e5m2", "f8E5M2", 5, 2, 15, False)],
    "fnuz": [("e4m3", "f8E4M3FNUZ", 4, 3, 8, True),
             ("e5m2", "f8E5M2FNUZ", 5, 2, 16, True)],
}


class Format:
    def __init__(self, name, type_, ebits, mbits, bias, fnuz):
        self.name, self.type, self.ebits, self.mbits = name, type_, ebits, mbits
        self.bias, self.fnuz = bias, fnuz
        # Every code's value; the largest finite one.
        self.values = [self.decode(c) for c in range(256)]
        finite = [c for c in range(128) if np.isfinite(self.values[c])]
        self.max_code = max(finite, key=lambda c: self.values[c])
        self.max = self.values[self.max_code]

    def is_nan(self, code):
        if self.fnuz:
            return code == 0x80
        low = code & 0x7F
        e = low >> self.mbits
        f = low & ((1 << self.mbits) - 1)
        top = (1 << self.ebits) - 1
        if self.ebits == 4:  # OCP E4M3: S.1111.111 only
            return e == top and f == (1 << self.mbits) - 1
        return e == top and f != 0  # OCP E5M2: S.11111.{01,10,11}

    def decode(self, code):
        if self.is_nan(code):
            return float("nan")
        s = -1.0 if code & 0x80 else 1.0
        low = code & 0x7F
        e = low >> self.mbits
        f = low & ((1 << self.mbits) - 1)
        if not self.fnuz and self.ebits == 5 and e == 31:
            return s * float("inf")
        if e == 0:
            return s * f * 2.0 ** (1 - self.bias - self.mbits)
        return s * ((1 << self.mbits) + f) * 2.0 ** (e - self.bias - self.mbits)

    def encode_saturating(self, x):
        """The code of x: nearest, ties to the even code; past the largest
        finite value (infinity too) the largest of x's sign; NaN: None."""
        if np.isnan(x):
            return None
        negative = x < 0 or (x == 0 and np.signbit(x))
        a = min(abs(x), self.max)
        # Non-negative finite codes in value order are 0 ... max_code.
        best = None
        for c in range(self.max_code + 1):
            v = self.values[c]
            if best is None or abs(v - a) < abs(self.values[best] - a) or (
                    abs(v - a) == abs(self.values[best] - a) and c % 2 == 0):
                best = c
        if not negative:
            return best
        if best == 0 and self.fnuz:
            return 0  # no negative zero
        return best | 0x80

    def nan_code(self):
        return 0x80 if self.fnuz else (0x7F if self.ebits == 4 else 0x7E)


def exact_code(rng, f):
    """A random code of exponent -2 ... 1 (|x| in [1/4, 4))."""
    e = f.bias - 2 + rng.randrange(4)
    return (rng.randrange(2) << 7) | (e << f.mbits) | rng.randrange(1 << f.mbits)


def half_ulp_code(f, code):
    """The code of half the ulp of code's value, of its sign, or 0."""
    low = code & 0x7F
    e = low >> f.mbits
    if e == 0:
        return 0
    h = 2.0 ** (e - f.bias - f.mbits - 1)
    for c in range(1, 128):
        if f.values[c] == h:
            return c | (code & 0x80)
    return 0


def row_kind(i):
    if i == 3:
        return "nan"
    if i == 9:
        return "inf"
    return ["tie+", "tie-", "onehot", "random", "random", "random"][i % 6]


def inputs(f):
    """A (M x K), B (N x K) codes and the row scales."""
    rng = random.Random(42 + f.ebits + 100 * f.fnuz)
    positive = list(range(1, f.max_code + 1))
    b = [[0] * K for _ in range(N)]
    for j in range(N):
        c = positive[round(j * (len(positive) - 1) / (N - 1))]
        if j % 2:
            c |= 0x80
        b[j][0] = c
        b[j][1] = half_ulp_code(f, c)
        for k in range(2, K):
            b[j][k] = exact_code(rng, f)
    one = f.values.index(1.0)
    a = [[0] * K for _ in range(M)]
    row = []
    for i in range(M):
        kind = row_kind(i)
        if kind.startswith("tie"):
            a[i][0] = one
            a[i][1] = one | (0x80 if kind == "tie-" else 0)
        elif kind == "onehot":
            a[i][0] = one
        else:
            for k in range(2, K):
                a[i][k] = exact_code(rng, f)
        if kind == "nan":
            a[i][5] = f.nan_code()
        if kind in ("tie+", "tie-", "onehot"):
            scale = 2.0 ** ((i // 6) % 9 - 5)
        elif kind == "inf":
            scale = 2.0 ** 127
        else:
            scale = (1 + (i % 7) / 7) * 2.0 ** ((i % 17) - 8)
        row.append(float(np.float32(scale)))
    return a, b, row


def lowest_bit(p):
    """The largest power of two dividing the nonzero float p."""
    m, e = math.frexp(abs(p))
    n = int(m * 2 ** 53)
    return 2.0 ** (e - 53 + ((n & -n).bit_length() - 1))


def assert_exact_in_f32(products):
    """Every partial sum of `products` (in any order) is an f32: all are
    multiples of the least of their lowest bits, g, and the sum of their
    magnitudes is below 2^24 g."""
    nonzero = [p for p in products if p != 0]
    if not nonzero or not all(math.isfinite(p) for p in nonzero):
        return
    g = min(lowest_bit(p) for p in nonzero)
    assert sum(abs(p) for p in nonzero) < 2.0 ** 24 * g


def reference(f):
    a, b, row = inputs(f)
    av = np.array([[f.values[c] for c in r] for r in a])
    bv = np.array([[f.values[c] for c in r] for r in b])
    with np.errstate(invalid="ignore", over="ignore"):
        acc = av @ bv.T  # exact in f64: few significant bits
        for i in range(M):
            for j in range(N):
                assert_exact_in_f32(av[i] * bv[j])
        scaled = np.float32(acc) * np.float32(SA)
        z = scaled * np.array(row, dtype=np.float32)[:, None]
    codes = [[f.encode_saturating(float(z[i, j])) for j in range(N)]
             for i in range(M)]
    return z, codes


def program(family, kernels_only=False):
    out = []
    out.append("module attributes {gpu.container_module} {")
    out.append("gpu.module @kernels {")
    for spec in FAMILIES[family]:
        f = Format(*spec)
        t = f.type
        mx = f"{f.max:.1f}"
        out.append(KERNEL.replace("@NAME", "@out_" + f.name).replace("!T", t)
                   .replace("MAXF", mx))
    out.append("}")
    if kernels_only:
        print("\n".join(out + ["}"]))
        return
    for spec in FAMILIES[family]:
        f = Format(*spec)
        a, b, row = inputs(f)
        t = f.type
        n = f.name
        out.append(f'memref.global "private" constant @a_{n} : memref<{M}x{K}xi8> = dense<{mlir_array(a, signed_byte)}>')
        out.append(f'memref.global "private" constant @b_{n} : memref<{N}x{K}xi8> = dense<{mlir_array(b, signed_byte)}>')
        out.append(f'memref.global "private" constant @row_{n} : memref<{M}x1xf32> = dense<{mlir_array([[r] for r in row], lambda x: repr(x) if x < 1e30 else "1.7014118346046923e+38")}>')
        out.append(HOST.replace("BYTES_HELPER", bytes_helper("bytes_NAME", "!T")).replace("NAME", n).replace("!T", t).replace("SA", repr(SA))
                   .replace("MM", str(M)).replace("NN", str(N)).replace("KK", str(K)))
    out.append("func.func @main() {")
    for spec in FAMILIES[family]:
        out.append(f"  call @run_{spec[0]}() : () -> ()")
    out.append("  return\n}")
    out.append("}")
    print("\n".join(out))


def check(family):
    lines = sys.stdin.read().split("\n")
    for spec in FAMILIES[family]:
        f = Format(*spec)
        z, codes = reference(f)
        start = lines.index("out_" + f.name)
        got = [[int(x) for x in lines[start + 1 + i].split()] for i in range(M)]
        bad = nan = saturated = at_max = ties = subnormal = 0
        for i in range(M):
            for j in range(N):
                want, have = codes[i][j], got[i][j]
                x = float(z[i, j])
                if want is None:
                    nan += 1
                    ok = f.is_nan(have)
                else:
                    ok = have == want
                    a = abs(x)
                    if a > f.max:
                        saturated += 1
                    elif a == f.max:
                        at_max += 1
                    elif 0 < a < f.values[1 << f.mbits]:
                        subnormal += 1
                    # x exactly between two neighbouring codes
                    vals = sorted(v for v in f.values[:f.max_code + 1])
                    for lo, hi in zip(vals, vals[1:]):
                        if lo < a < hi and a - lo == hi - a:
                            ties += 1
                bad += not ok
        print(f"out_{f.name} {f.type} {M}x{N}x{K}: {bad} mismatches of {M * N}; "
              f"{saturated} saturated, {at_max} largest finite, {ties} ties, {subnormal} subnormal, {nan} NaN")


KERNEL = """  gpu.func @NAME(%A: memref<?x?x!T>, %B: memref<?x?x!T>, %C: memref<?x?x!T>, %sa: f32, %Row: memref<?x1xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %va = layout.view %A : memref<?x?x!T> -> !layout.tensor_view<?x?x!T>
    %vb = layout.view %B : memref<?x?x!T> -> !layout.tensor_view<?x?x!T>
    %vc = layout.view %C : memref<?x?x!T> -> !layout.tensor_view<?x?x!T>
    %vr = layout.view %Row : memref<?x1xf32> -> !layout.tensor_view<?x1xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!T> -> !layout.partition_view<?x?x!T, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!T> -> !layout.partition_view<?x?x!T, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?x!T> -> !layout.partition_view<?x?x!T, tile = [64, 64]>
    %pr = layout.partition %vr tile [64, 1] : !layout.tensor_view<?x1xf32> -> !layout.partition_view<?x1xf32, tile = [64, 1]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!T, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!T, tile = [64, 32]> -> vector<64x32x!T>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!T, tile = [64, 32]> -> vector<64x32x!T>
      %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %s
         : vector<64x32x!T>, vector<64x32x!T> into vector<64x64xf32>
      scf.yield %r : vector<64x64xf32>
    }
    %row = layout.load %pr[%bm, %c0] masked : !layout.partition_view<?x1xf32, tile = [64, 1]> -> vector<64x1xf32>
    %rows = vector.broadcast %row : vector<64x1xf32> to vector<64x64xf32>
    %st = vector.broadcast %sa : f32 to vector<64x64xf32>
    %x = arith.mulf %acc, %st : vector<64x64xf32>
    %y = arith.mulf %x, %rows : vector<64x64xf32>
    %lo = arith.constant dense<-MAXF> : vector<64x64xf32>
    %hi = arith.constant dense<MAXF> : vector<64x64xf32>
    %clamped_lo = arith.maximumf %y, %lo : vector<64x64xf32>
    %clamped = arith.minimumf %clamped_lo, %hi : vector<64x64xf32>
    %o = arith.truncf %clamped : vector<64x64xf32> to vector<64x64x!T>
    layout.store %o, %pc[%bm, %bn] masked : vector<64x64x!T>, !layout.partition_view<?x?x!T, tile = [64, 64]>
    gpu.return
  }"""

HOST = """func.func private @out_NAME_host(memref<?x?x!T>, memref<?x?x!T>, memref<?x?x!T>, f32, memref<?x1xf32>, index, index, index)
BYTES_HELPER
func.func @run_NAME() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = arith.constant MM : index
  %n = arith.constant NN : index
  %ga = memref.get_global @a_NAME : memref<MMxKKxi8>
  %gb = memref.get_global @b_NAME : memref<NNxKKxi8>
  %gr = memref.get_global @row_NAME : memref<MMx1xf32>
  %da = memref.cast %ga : memref<MMxKKxi8> to memref<?x?xi8>
  %db = memref.cast %gb : memref<NNxKKxi8> to memref<?x?xi8>
  %row = memref.cast %gr : memref<MMx1xf32> to memref<?x1xf32>
  %a = call @bytes_NAME(%da) : (memref<?x?xi8>) -> memref<?x?x!T>
  %b = call @bytes_NAME(%db) : (memref<?x?xi8>) -> memref<?x?x!T>
  %c = memref.alloc(%m, %n) : memref<?x?x!T>
  // C starts at the code 0x55, so that a missing store counts.
  %init0 = arith.constant 85 : i8
  %init = arith.bitcast %init0 : i8 to !T
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?x!T>
    }
  }
  %sa = arith.constant SA : f32
  call @out_NAME_host(%a, %b, %c, %sa, %row, %c1, %c2, %c1) : (memref<?x?x!T>, memref<?x?x!T>, memref<?x?x!T>, f32, memref<?x1xf32>, index, index, index) -> ()
  vector.print str "out_NAME\\n"
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %c[%i, %j] : memref<?x?x!T>
      %x = arith.bitcast %v : !T to i8
      %u = arith.extui %x : i8 to i32
      vector.print %u : i32 punctuation <no_punctuation>
      vector.print str " "
    }
    vector.print str "\\n"
  }
  memref.dealloc %a : memref<?x?x!T>
  memref.dealloc %b : memref<?x?x!T>
  memref.dealloc %c : memref<?x?x!T>
  return
}"""

if __name__ == "__main__":
    {"program": program, "check": check,
     "kernels": lambda family: program(family, kernels_only=True)}[sys.argv[1]](sys.argv[2])
