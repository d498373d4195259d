#!/usr/bin/env python3
"""The block-scaled FP8 GEMM tile program of
matmul-fp8-block-scaled-on-cpu-*.test and its NumPy reference.

DeepSeek-V3's recipe: a scale per (128-row block of A, 128-wide K block)
and per (128-row block of B (N x K), 128-wide K block); each K tile's
partial product is multiplied by sa * sb of its blocks and added to the
running accumulator inside the loop:

    acc = 0; for kt: acc = acc + (A_kt B_kt^T) * (sa[i / 128][kb] * sb[j / 128][kb])

with kb = kt / (128 / BK) (BK = 32: four K tiles per scale block). The
kernel writes it as a fragment program (FragmentProgram.h): the product
of the K tile into a zero accumulator, the scales read with memref.load
at block-uniform indices, broadcast, arith.mulf, arith.addf.

`program FAMILY` writes the MLIR (kernel and host main printing C's f32
bit patterns), `kernels FAMILY` the kernel alone; `check FAMILY` recomputes C here: the inputs decoded from
their bytes by the bit formula below, each K tile's sum exactly (the
inputs keep it exact in f32), then the f32 operations of the loop in
NumPy float32 in the kernel's order; C must match bit for bit.
"""

import math
import random
import sys

import numpy as np

from fp8_common import bytes_helper, mlir_array, signed_byte

M, N, K = 200, 136, 300
BK, BLOCK = 32, 128

# The encodings: MLIR type, exponent bits, mantissa bits, bias.
FAMILIES = {"ocp": ("f8E4M3FN", 4, 3, 7), "fnuz": ("f8E4M3FNUZ", 4, 3, 8),
            "ocp-e5m2": ("f8E5M2", 5, 2, 15),
            "fnuz-e5m2": ("f8E5M2FNUZ", 5, 2, 16)}


def decode(code, mbits, bias):
    """The value of a finite, non-NaN code (the inputs use no others)."""
    s = -1.0 if code & 0x80 else 1.0
    e = (code & 0x7F) >> mbits
    f = code & ((1 << mbits) - 1)
    if e == 0:
        return s * f * 2.0 ** (1 - bias - mbits)
    return s * ((1 << mbits) + f) * 2.0 ** (e - bias - mbits)


def inputs(family):
    """A (M x K) and B (N x K) codes of exponent -2 ... 1, the scales."""
    _, ebits, mbits, bias = FAMILIES[family]
    rng = random.Random(7)

    def code():
        e = bias - 2 + rng.randrange(4)
        return (rng.randrange(2) << 7) | (e << mbits) | rng.randrange(1 << mbits)

    a = [[code() for _ in range(K)] for _ in range(M)]
    b = [[code() for _ in range(K)] for _ in range(N)]
    kb = -(-K // BLOCK)
    sa = [[float(np.float32(rng.uniform(0.01, 3.0))) for _ in range(kb)]
          for _ in range(-(-M // BLOCK))]
    sb = [[float(np.float32(rng.uniform(0.01, 3.0))) for _ in range(kb)]
          for _ in range(-(-N // BLOCK))]
    return a, b, sa, sb


def reference(family):
    _, ebits, mbits, bias = FAMILIES[family]
    a, b, sa, sb = inputs(family)
    av = np.array([[decode(c, mbits, bias) for c in r] for r in a])
    bv = np.array([[decode(c, mbits, bias) for c in r] for r in b])
    acc = np.zeros((M, N), dtype=np.float32)
    for kt in range(-(-K // BK)):
        ks = slice(kt * BK, min(K, (kt + 1) * BK))
        p = av[:, ks] @ bv[:, ks].T  # exact: multiples of 2^-10 below 2^11
        assert np.all(np.float32(p) == p)
        kb = kt // (BLOCK // BK)
        sab = (np.array([sa[i // BLOCK][kb] for i in range(M)], dtype=np.float32)[:, None]
               * np.array([sb[j // BLOCK][kb] for j in range(N)], dtype=np.float32)[None, :])
        acc = acc + np.float32(p) * sab
    return acc


def program(family):
    t = FAMILIES[family][0]
    a, b, sa, sb = inputs(family)
    print(KERNEL.replace("!T", t))
    print(f'memref.global "private" constant @a : memref<{M}x{K}xi8> = dense<{mlir_array(a, signed_byte)}>')
    print(f'memref.global "private" constant @b : memref<{N}x{K}xi8> = dense<{mlir_array(b, signed_byte)}>')
    print(f'memref.global "private" constant @sa : memref<{len(sa)}x{len(sa[0])}xf32> = dense<{mlir_array(sa, repr)}>')
    print(f'memref.global "private" constant @sb : memref<{len(sb)}x{len(sb[0])}xf32> = dense<{mlir_array(sb, repr)}>')
    print(HOST.replace("BYTES_HELPER", bytes_helper("bytes", "!T")).replace("!T", t).replace("MM", str(M)).replace("NN", str(N)).replace("KK", str(K))
          .replace("SAT", f"{len(sa)}x{len(sa[0])}").replace("SBT", f"{len(sb)}x{len(sb[0])}")
          .replace("GX", str(-(-N // 64))).replace("GY", str(-(-M // 64))))
    print("}")


def check(family):
    want = reference(family).view(np.uint32)
    lines = sys.stdin.read().split("\n")
    start = lines.index("block_scaled")
    got = np.array([[int(x) for x in lines[start + 1 + i].split()] for i in range(M)],
                   dtype=np.uint64).astype(np.uint32)
    bad = int(np.sum(got != want))
    print(f"block_scaled {FAMILIES[family][0]} {M}x{N}x{K}: {bad} mismatches of {M * N}")


KERNEL = """module attributes {gpu.container_module} {
gpu.module @kernels {
  // C = sum over K tiles kt of (A_kt B_kt^T) * sa[bm / 2][kb] * sb[bn / 2][kb]:
  // 64 x 64 block tiles, so 128-row scale blocks are two block rows; K tiles
  // of 32, so kb = kt / 4.
  gpu.func @block_scaled(%A: memref<?x?x!T>, %B: memref<?x?x!T>, %C: memref<?x?xf32>,
                         %SA: memref<?x?xf32>, %SB: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %va = layout.view %A : memref<?x?x!T> -> !layout.tensor_view<?x?x!T>
    %vb = layout.view %B : memref<?x?x!T> -> !layout.tensor_view<?x?x!T>
    %vc = layout.view %C : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %pa = layout.partition %va tile [64, 32] : !layout.tensor_view<?x?x!T> -> !layout.partition_view<?x?x!T, tile = [64, 32]>
    %pb = layout.partition %vb tile [64, 32] : !layout.tensor_view<?x?x!T> -> !layout.partition_view<?x?x!T, tile = [64, 32]>
    %pc = layout.partition %vc tile [64, 64] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [64, 64]>
    %bm = gpu.block_id y
    %bn = gpu.block_id x
    %mb = arith.divui %bm, %c2 : index
    %nb = arith.divui %bn, %c2 : index
    %tiles:2 = layout.index_space %pa : !layout.partition_view<?x?x!T, tile = [64, 32]>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %acc = scf.for %kt = %c0 to %tiles#1 step %c1 iter_args(%s = %zero) -> (vector<64x64xf32>) {
      %ta = layout.load %pa[%bm, %kt] masked : !layout.partition_view<?x?x!T, tile = [64, 32]> -> vector<64x32x!T>
      %tb = layout.load %pb[%bn, %kt] masked : !layout.partition_view<?x?x!T, tile = [64, 32]> -> vector<64x32x!T>
      %p = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ta, %tb, %zero
         : vector<64x32x!T>, vector<64x32x!T> into vector<64x64xf32>
      %kb = arith.divui %kt, %c4 : index
      %sa = memref.load %SA[%mb, %kb] : memref<?x?xf32>
      %sb = memref.load %SB[%nb, %kb] : memref<?x?xf32>
      %sab = arith.mulf %sa, %sb : f32
      %scale = vector.broadcast %sab : f32 to vector<64x64xf32>
      %scaled = arith.mulf %p, %scale : vector<64x64xf32>
      %next = arith.addf %s, %scaled : vector<64x64xf32>
      scf.yield %next : vector<64x64xf32>
    }
    layout.store %acc, %pc[%bm, %bn] masked : vector<64x64xf32>, !layout.partition_view<?x?xf32, tile = [64, 64]>
    gpu.return
  }
}"""

HOST = """func.func private @block_scaled_host(memref<?x?x!T>, memref<?x?x!T>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index)
BYTES_HELPER
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.constant GX : index
  %gy = arith.constant GY : index
  %m = arith.constant MM : index
  %n = arith.constant NN : index
  %ga = memref.get_global @a : memref<MMxKKxi8>
  %gb = memref.get_global @b : memref<NNxKKxi8>
  %gsa = memref.get_global @sa : memref<SATxf32>
  %gsb = memref.get_global @sb : memref<SBTxf32>
  %da = memref.cast %ga : memref<MMxKKxi8> to memref<?x?xi8>
  %db = memref.cast %gb : memref<NNxKKxi8> to memref<?x?xi8>
  %sa = memref.cast %gsa : memref<SATxf32> to memref<?x?xf32>
  %sb = memref.cast %gsb : memref<SBTxf32> to memref<?x?xf32>
  %a = call @bytes(%da) : (memref<?x?xi8>) -> memref<?x?x!T>
  %b = call @bytes(%db) : (memref<?x?xi8>) -> memref<?x?x!T>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  // C starts at -7, so that a missing store counts.
  %init = arith.constant -7.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %init, %c[%i, %j] : memref<?x?xf32>
    }
  }
  call @block_scaled_host(%a, %b, %c, %sa, %sb, %gx, %gy, %c1) : (memref<?x?x!T>, memref<?x?x!T>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index, index) -> ()
  vector.print str "block_scaled\\n"
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %c[%i, %j] : memref<?x?xf32>
      %x = arith.bitcast %v : f32 to i32
      %u = arith.extui %x : i32 to i64
      vector.print %u : i64 punctuation <no_punctuation>
      vector.print str " "
    }
    vector.print str "\\n"
  }
  memref.dealloc %a : memref<?x?x!T>
  memref.dealloc %b : memref<?x?x!T>
  memref.dealloc %c : memref<?x?xf32>
  return
}"""

def kernels(family):
    print(KERNEL.replace("!T", FAMILIES[family][0]) + "\n}")


if __name__ == "__main__":
    {"program": program, "check": check, "kernels": kernels}[sys.argv[1]](sys.argv[2])
