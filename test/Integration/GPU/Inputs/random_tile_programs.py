#!/usr/bin/env python3
"""Random tile programs, distributed by -layout-tile-shared-memory and run on
the CPU, compared element by element with NumPy.

Each program is one `gpu.func` kernel with a random `known_block_size`: a
cooperative `layout.store` of a tile expression over cooperative
`layout.load`s of random shapes (odd ones included), element types (f32, f16,
i8), storage orders (row-major, column-major, any permutation of strides,
through `memref.transpose`), transposes, elementwise ops, splat constants and
scalar kernel arguments. The generator keeps the expression it printed and
evaluates it with NumPy on the same inputs (the reference is computed from
the undistributed program, not by the code under test). The host code fills
the inputs from constant globals, runs the kernel's `_host` function (made by
-layout-test-gpu-to-loops), and counts, for every output element, whether it
differs from the NumPy result, also a global constant; the output starts at a
value no program computes, so a missing write counts.

Programs are batched into modules (one pipeline and one mlir-runner per
batch, a random chip per batch for -layout-xor-swizzle) run in parallel.
Prints one line per failing program (with the file to reproduce it) and ends
with "tile programs: N right, N wrong (N in S s)".

  random_tile_programs.py --count 300 --seed 1 --tools build/bin \
      --llvm-tools /usr/lib/llvm-22/bin --runner-utils .../libmlir_c_runner_utils.so
"""

import argparse
import concurrent.futures
import itertools
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

CHIPS = ["gfx90a", "gfx942", "gfx950", "gfx1100", "sm_90", None]
# Thread counts per block, as (x, y, z).
BLOCKS = [(32, 1, 1), (64, 1, 1), (32, 4, 1), (128, 1, 1), (32, 8, 1),
          (16, 16, 1), (256, 1, 1), (64, 2, 2)]
TYPES = {
    "f32": (np.float32, "f32"),
    "f16": (np.float16, "f16"),
    "i8": (np.int8, "i8"),
}


def is_float(t):
    return t != "i8"


def literal(t, x):
    """An MLIR literal of value x in element type t."""
    return f"{float(x)}" if is_float(t) else f"{int(x)}"


def dense(t, array):
    """A dense<...> literal of `array` (nested lists)."""
    def rec(a):
        if a.ndim == 0:
            return literal(t, a.item())
        return "[" + ", ".join(rec(x) for x in a) + "]"
    return f"dense<{rec(array)}>"


def shape_str(shape):
    return "x".join(str(s) for s in shape)


class Storage:
    """How a buffer lies in memory: storage dimension j holds logical
    dimension order[j] (row-major storage), with lo[j] / hi[j] elements of
    padding before / after (a subview: strides larger than the extents and
    a run-time offset)."""

    def __init__(self, order, lo, hi):
        self.order, self.lo, self.hi = order, lo, hi

    def resolve(self, extents):
        """Padding -1 (after) rounds the storage dimension up to a multiple
        of 8 elements."""
        for j, o in enumerate(self.order):
            if self.hi[j] < 0:
                self.hi[j] = -(extents[o] + self.lo[j]) % 8

    def padded(self):
        return any(self.lo) or any(self.hi)

    def shape(self, extents):
        return [extents[o] + a + b
                for o, a, b in zip(self.order, self.lo, self.hi)]

    def embed(self, logical, fill):
        """The storage array holding `logical`, `fill` in the padding."""
        store = np.full(self.shape(list(logical.shape)), fill,
                        dtype=logical.dtype)
        region = tuple(slice(a, a + logical.shape[o])
                       for o, a in zip(self.order, self.lo))
        store[region] = np.transpose(logical, self.order)
        return store


def memref_type(rank, t, storage):
    """The type of the logical view of `storage`: the one memref.subview
    (dynamic offsets) and memref.transpose infer."""
    dyn = "x".join("?" for _ in range(rank))
    order = storage.order
    if order == list(range(rank)) and not storage.padded():
        return f"memref<{dyn}x{t}>"
    strides = ["1" if order[rank - 1] == i else "?" for i in range(rank)]
    offset = ", offset: ?" if storage.padded() else ""
    return f"memref<{dyn}x{t}, strided<[{', '.join(strides)}]{offset}>>"


class Program:
    """One random tile program and its NumPy reference."""

    def __init__(self, rng, index, uneven):
        self.index = index
        self.rng = rng
        self.rank = rng.choice([2, 2, 3])
        self.block = rng.choice(BLOCKS)
        threads = self.block[0] * self.block[1] * self.block[2]
        # The output tile: powers of two (and, when uneven splits are
        # allowed, any size) with at most 4096 elements.
        while True:
            if uneven and rng.random() < 0.4:
                tile = [rng.randint(1, 48) for _ in range(self.rank)]
            else:
                tile = [rng.choice([1, 2, 4, 8, 16, 32, 64])
                        for _ in range(self.rank)]
            n = int(np.prod(tile))
            if n <= 4096 and n >= 2 and (uneven or n % threads == 0):
                break
        # Output extents: a few tiles, often not whole ones.
        self.extents = []
        for s in tile:
            tiles = rng.randint(1, 3)
            e = s * tiles - rng.choice([0, 0, rng.randint(0, s - 1)])
            self.extents.append(max(1, e))
        if self.rank == 2 and rng.random() < 0.15:
            # Square: a load may then be used transposed and not.
            tile = [tile[0], tile[0]]
            self.extents = [self.extents[0], self.extents[0]]
        self.tile = tile
        # A reduction program stores a vector.multi_reduction of the tile
        # expression over some of its dimensions (the block reads the tile
        # at index 0 along them).
        self.reduced = []
        if self.rank >= 2 and rng.random() < 0.3:
            count = rng.choice([1, 1, self.rank - 1])
            self.reduced = sorted(rng.sample(range(self.rank), count))
        self.kept = [d for d in range(self.rank) if d not in self.reduced]
        self.out_rank = len(self.kept)
        self.out_tile = [self.tile[d] for d in self.kept]
        self.out_extents = [self.extents[d] for d in self.kept]
        # The grid: the tiles the output needs, now and then one fewer along
        # a dimension (its tiles stay unwritten) or one more (wholly outside
        # the output: nothing to store).
        self.launched = [(e + t - 1) // t
                         for e, t in zip(self.out_extents, self.out_tile)]
        r = rng.random()
        if r < 0.15:
            d = rng.randrange(self.out_rank)
            if self.launched[d] > 1:
                self.launched[d] -= 1
        elif r < 0.25:
            self.launched[rng.randrange(self.out_rank)] += 1
        self.out_type = rng.choice(list(TYPES))
        self.out_storage = self.random_order(self.out_rank)
        self.out_storage.resolve(self.out_extents)
        # Float programs keep every value an integer of at most 2048 in
        # magnitude (exact in f16): retried until they do.
        while True:
            self.inputs = []  # (type, perm, storage order, array)
            self.bcast = {}  # input -> (kept output dimensions, extend)
            self.scalars = []  # (type, value)
            self.expr = self.gen_expr(self.out_type, depth=0)
            if not any(e[0] == "load" for e in self.walk(self.expr)):
                # At least one load: a store of constants only is not a
                # tile program of interest.
                self.expr = ("binop", self.out_type,
                             self.pick_binop(self.out_type), self.expr,
                             self.gen_load(self.out_type))
            if self.reduced:
                t = self.out_type
                kinds = (["add", "maxnumf", "minnumf", "maximumf"]
                         if is_float(t) else
                         ["add", "maxsi", "minsi", "and", "or", "xor"])
                acc = self.rng.randint(-3, 3)
                self.expr = ("reduce", t, self.rng.choice(kinds),
                             self.expr, acc)
            if self.exact(self.expr):
                break
        self.expected = self.reference()

    def random_order(self, rank=None):
        rank = self.rank if rank is None else rank
        r = self.rng.random()
        if r < 0.5:
            order = list(range(rank))
        elif r < 0.8:  # column-major: the first dimension is contiguous
            order = list(range(rank))[::-1]
        else:
            order = list(range(rank))
            self.rng.shuffle(order)
        lo = [0] * rank
        hi = [0] * rank
        if self.rng.random() < 0.6:
            # Padding; often enough to make the strides and the offset
            # multiples of 8 elements, so that rows whose length is not
            # still take the vector paths (and their edge tests).
            for j in range(rank):
                lo[j] = self.rng.choice([0, 0, 0, 1, 3, 8])
                hi[j] = self.rng.choice([-1, -1, 0, 1, 2, 5])
        return Storage(order, lo, hi)

    def walk(self, e):
        yield e
        if e[0] in ("binop", "unop", "cast"):
            for sub in e[3:]:
                yield from self.walk(sub)
        if e[0] == "reduce":
            yield from self.walk(e[3])

    def pick_binop(self, t):
        if is_float(t):
            return self.rng.choice(["addf", "subf", "mulf", "maximumf",
                                    "minimumf"])
        return self.rng.choice(["addi", "subi", "muli", "maxsi", "minsi",
                                "xori"])

    def gen_load(self, t):
        perm = list(range(self.rank))
        if self.rng.random() < 0.6:
            self.rng.shuffle(perm)
        # The loaded array's shape: dimension perm[i] is output dimension i.
        shape = [0] * self.rank
        for i, p in enumerate(perm):
            shape[p] = self.extents[i]
        dtype = TYPES[t][0]
        lo, hi = (-4, 4) if is_float(t) else (-128, 127)
        array = np.array(
            [self.rng.randint(lo, hi) for _ in range(int(np.prod(shape)))],
            dtype=dtype).reshape(shape)
        k = len(self.inputs)
        storage = self.random_order()
        storage.resolve(shape)
        self.inputs.append((t, perm, storage, array))
        return ("load", t, k, perm, False)

    def gen_broadcast(self, t):
        """A load repeated along some output dimensions by
        vector.broadcast: of a lower rank (the output's trailing
        dimensions), or with unit tile dimensions that it stretches; or a
        load with an extra unit dimension that vector.shape_cast drops."""
        rank = self.rank
        mode = self.rng.choice(["extend", "stretch", "cast"])
        if mode == "extend":
            kept = list(range(self.rng.randint(1, rank - 1), rank))
            shape = [self.extents[d] for d in kept]
        elif mode == "stretch":
            kept = sorted(self.rng.sample(range(rank),
                                          self.rng.randint(1, rank - 1)))
            shape = [self.extents[d] if d in kept else self.rng.randint(1, 3)
                     for d in range(rank)]
        else:
            # A unit dimension at `at`, dropped by vector.shape_cast.
            kept = list(range(rank))
            at = self.rng.randint(0, rank)
            shape = list(self.extents)
            shape.insert(at, self.rng.randint(1, 3))
            mode = ("cast", at)
        dtype = TYPES[t][0]
        lo, hi = (-4, 4) if is_float(t) else (-128, 127)
        array = np.array(
            [self.rng.randint(lo, hi) for _ in range(int(np.prod(shape)))],
            dtype=dtype).reshape(shape)
        storage = self.random_order(len(shape))
        storage.resolve(shape)
        k = len(self.inputs)
        self.inputs.append((t, list(range(len(shape))), storage, array))
        self.bcast[k] = (kept, mode)
        return ("bcast", t, k)

    def bcast_tile(self, k, tile, idx, zero):
        """The tile and indices of broadcast input k's load, for output
        tile `tile` at indices `idx` (`zero`: index 0)."""
        kept, mode = self.bcast[k]
        if mode == "extend":
            return [tile[d] for d in kept], [idx[d] for d in kept]
        if mode == "stretch":
            return ([tile[d] if d in kept else 1 for d in range(self.rank)],
                    [idx[d] if d in kept else zero for d in range(self.rank)])
        at = mode[1]
        ltile, lidx = list(tile), list(idx)
        ltile.insert(at, 1)
        lidx.insert(at, zero)
        return ltile, lidx

    def bcast_shape(self, k, ltile):
        """The shape the broadcast of input k's block starts from (the
        shape_cast's result for a dropped unit dimension)."""
        mode = self.bcast[k][1]
        if isinstance(mode, tuple):
            return ltile[:mode[1]] + ltile[mode[1] + 1:]
        return ltile

    def reuse_load(self, k):
        """Load k used again: with its own permutation or another one that
        gives the output's shape (square tiles), through a transpose of its
        own or the same value."""
        t, perm, _, array = self.inputs[k]
        ltile = [0] * self.rank
        for i, p in enumerate(perm):
            ltile[p] = self.tile[i]
        valid = [list(q) for q in itertools.permutations(range(self.rank))
                 if all(array.shape[q[i]] == self.extents[i] and
                        ltile[q[i]] == self.tile[i]
                        for i in range(self.rank))]
        use = self.rng.choice(valid)
        same_value = use == perm and self.rng.random() < 0.5
        return ("load", t, k, use, same_value)

    def gen_expr(self, t, depth):
        r = self.rng.random()
        if depth >= 3 or r < 0.35:
            r2 = self.rng.random()
            if r2 < 0.8 or depth == 0:
                reusable = [k for k, inp in enumerate(self.inputs)
                            if inp[0] == t and k not in self.bcast]
                if self.rng.random() < 0.15:
                    return self.gen_broadcast(t)
                if reusable and self.rng.random() < 0.3:
                    return self.reuse_load(self.rng.choice(reusable))
                return self.gen_load(t)
            if r2 < 0.9:
                lo, hi = (-3, 3) if is_float(t) else (-100, 100)
                return ("splat", t, self.rng.randint(lo, hi))
            k = len(self.scalars)
            lo, hi = (-3, 3) if is_float(t) else (-100, 100)
            self.scalars.append((t, self.rng.randint(lo, hi)))
            return ("scalar", t, k)
        if r < 0.5 and depth < 2:
            if t == "f16":
                return ("cast", t, "extf_trunc",
                        self.gen_expr("f32", depth + 1))
            if t == "f32":
                return ("cast", t, "extf", self.gen_expr("f16", depth + 1))
        if r < 0.6:
            op = "negf" if is_float(t) else "noti"
            return ("unop", t, op, self.gen_expr(t, depth + 1))
        return ("binop", t, self.pick_binop(t), self.gen_expr(t, depth + 1),
                self.gen_expr(t, depth + 1))

    # -- NumPy reference ---------------------------------------------------

    def tiles(self):
        """The output tile indices (one block each)."""
        counts = [(e + t - 1) // t
                  for e, t in zip(self.out_extents, self.out_tile)]
        return list(itertools.product(*(range(c) for c in counts)))

    def source_tile(self, T):
        """The tile index of the loads in the block of output tile T (0
        along reduced dimensions)."""
        it = iter(T)
        return tuple(0 if d in self.reduced else next(it)
                     for d in range(self.rank))

    def exact(self, e):
        """Whether every float value of `e` is an integer within 2048 (and
        a float sum's partial sums too, in any order)."""
        source = e[3] if e[0] == "reduce" else e
        for sub in self.walk(source):
            if is_float(sub[1]):
                for T in self.tiles():
                    v = self.evaluate(sub, self.source_tile(T))
                    if not np.all(np.abs(v.astype(np.float64)) <= 2048):
                        return False
        if e[0] == "reduce" and is_float(e[1]):
            for T in self.tiles():
                v = self.evaluate(e[3], self.source_tile(T))
                bound = np.sum(np.abs(v.astype(np.float64)),
                               axis=tuple(self.reduced)) + abs(e[4])
                if not np.all(bound <= 2048):
                    return False
        return True

    def reduce(self, e, T):
        """The reduction node e in the block of output tile T."""
        _, t, kind, sub, acc = e
        dtype = TYPES[t][0]
        v = self.evaluate(sub, self.source_tile(T))
        axes = tuple(self.reduced)
        with np.errstate(over="ignore"):
            if kind == "add":
                r = np.sum(v.astype(np.float64 if is_float(t) else np.int64),
                           axis=axes) + acc
            elif kind in ("maxnumf", "maximumf", "maxsi"):
                r = np.maximum(np.max(v, axis=axes), acc)
            elif kind in ("minnumf", "minsi"):
                r = np.minimum(np.min(v, axis=axes), acc)
            else:
                f = {"and": np.bitwise_and, "or": np.bitwise_or,
                     "xor": np.bitwise_xor}[kind]
                r = f(f.reduce(v, axis=axes), np.int8(acc))
            if not is_float(t):
                return (np.asarray(r).astype(np.int64) & 0xFF).astype(
                    np.uint8).view(np.int8)
            return np.asarray(r).astype(dtype)

    def sentinel(self):
        """The output's value before the kernel runs."""
        return 3000 if is_float(self.out_type) else -97

    def reference(self):
        """The output: each launched block's tile value, stored where it is
        inside the output's extents; the sentinel where no block stores."""
        out = np.full(self.out_extents, self.sentinel(),
                      dtype=TYPES[self.out_type][0])
        for T in self.tiles():
            if any(i >= n for i, n in zip(T, self.launched)):
                continue
            if self.expr[0] == "reduce":
                value = self.reduce(self.expr, T)
            else:
                value = self.evaluate(self.expr, T)
            region = tuple(slice(i * t, min((i + 1) * t, e))
                           for i, t, e in zip(T, self.out_tile,
                                              self.out_extents))
            out[region] = value[tuple(slice(0, r.stop - r.start)
                                      for r in region)]
        return out

    def evaluate(self, e, T):
        """The tile value of `e` in the block of output tile T, as the
        program defines it: a load reads the tile at its own indices
        (padding 0 outside the input), a transpose permutes it."""
        kind, t = e[0], e[1]
        dtype = TYPES[t][0]
        shape = tuple(self.tile)
        if kind == "load":
            _, perm, _, array = self.inputs[e[2]]
            ltile = [0] * self.rank
            lidx = [0] * self.rank
            for i, p in enumerate(perm):
                ltile[p] = self.tile[i]
                lidx[p] = T[i]
            block = np.zeros(ltile, dtype=array.dtype)
            region = tuple(slice(i * t, min((i + 1) * t, n))
                           for i, t, n in zip(lidx, ltile, array.shape))
            block[tuple(slice(0, max(0, r.stop - r.start)) for r in region)] = \
                array[region]
            return np.transpose(block, e[3]).astype(dtype)
        if kind == "bcast":
            _, _, _, array = self.inputs[e[2]]
            ltile, lidx = self.bcast_tile(e[2], self.tile, T, 0)
            block = np.zeros(ltile, dtype=array.dtype)
            region = tuple(slice(i * t, min((i + 1) * t, n))
                           for i, t, n in zip(lidx, ltile, array.shape))
            block[tuple(slice(0, max(0, r.stop - r.start)) for r in region)] = \
                array[region]
            return np.broadcast_to(block.reshape(
                self.bcast_shape(e[2], ltile)), shape).astype(dtype)
        if kind == "splat":
            return np.full(shape, e[2], dtype=dtype)
        if kind == "scalar":
            return np.full(shape, self.scalars[e[2]][1], dtype=dtype)
        if kind == "cast":
            return self.evaluate(e[3], T).astype(dtype)
        if kind == "unop":
            x = self.evaluate(e[3], T)
            return (-x if e[2] == "negf" else ~x).astype(dtype)
        a, b = self.evaluate(e[3], T), self.evaluate(e[4], T)
        with np.errstate(over="ignore"):
            f = {
                "addf": np.add, "subf": np.subtract, "mulf": np.multiply,
                "maximumf": np.maximum, "minimumf": np.minimum,
                "addi": np.add, "subi": np.subtract, "muli": np.multiply,
                "maxsi": np.maximum, "minsi": np.minimum,
                "xori": np.bitwise_xor,
            }[e[2]]
            return f(a, b).astype(dtype)

    # -- MLIR --------------------------------------------------------------

    def name(self):
        return f"p{self.index}"

    def kernel(self):
        n = self.name()
        rank = self.rank
        args = []
        for k, (t, perm, order, array) in enumerate(self.inputs):
            args.append(f"%in{k}: {memref_type(array.ndim, t, order)}")
        orank = self.out_rank
        args.append(f"%out: {memref_type(orank, self.out_type, self.out_storage)}")
        for k, (t, _) in enumerate(self.scalars):
            args.append(f"%s{k}: {t}")
        bx, by, bz = self.block
        lines = [f"    gpu.func @{n}({', '.join(args)})",
                 f"        kernel attributes {{known_block_size = array<i32: {bx}, {by}, {bz}>}} {{"]
        ids = ["%bx", "%by", "%bz"][:orank]
        # Output dimension orank-1 is block x, orank-2 block y, orank-3
        # block z; the loads' reduced dimensions take index 0.
        for d in ["x", "y", "z"][:orank]:
            lines.append(f"      %b{d} = gpu.block_id {d}")
        lines.append("      %c0 = arith.constant 0 : index")
        out_idx = [ids[orank - 1 - i] for i in range(orank)]
        kept_idx = iter(out_idx)
        src_idx = ["%c0" if d in self.reduced else next(kept_idx)
                   for d in range(rank)]

        def partition(value, mtype, t, tile, name):
            dyn = "x".join("?" for _ in range(len(tile)))
            pv = f"!layout.partition_view<{dyn}x{t}, tile = [{', '.join(map(str, tile))}]>"
            lines.append(f"      %v{name} = layout.view {value} : {mtype} -> !layout.tensor_view<{dyn}x{t}>")
            lines.append(f"      %p{name} = layout.partition %v{name} tile [{', '.join(map(str, tile))}] : !layout.tensor_view<{dyn}x{t}> -> {pv}")
            return pv

        counter = [0]

        def fresh():
            counter[0] += 1
            return f"%x{counter[0]}"

        vshape = shape_str(self.tile)
        loaded = {}  # input -> its load's value
        transposed = {}  # (input, permutation) -> a transpose of it

        def emit(e):
            kind, t = e[0], e[1]
            vt = f"vector<{vshape}x{t}>"
            if kind == "load":
                k, use, same_value = e[2], e[3], e[4]
                _, perm, order, _ = self.inputs[k]
                ltile = [0] * rank
                lidx = [None] * rank
                for i, p in enumerate(perm):
                    ltile[p] = self.tile[i]
                    lidx[p] = src_idx[i]
                if k not in loaded:
                    pv = partition(f"%in{k}", memref_type(rank, t, order), t,
                                   ltile, f"in{k}")
                    x = fresh()
                    lines.append(f"      {x} = layout.load %pin{k}[{', '.join(lidx)}] masked : {pv} -> vector<{shape_str(ltile)}x{t}>")
                    loaded[k] = x
                x = loaded[k]
                if use == list(range(rank)):
                    return x
                if same_value and (k, tuple(use)) in transposed:
                    return transposed[(k, tuple(use))]
                y = fresh()
                lines.append(f"      {y} = vector.transpose {x}, [{', '.join(map(str, use))}] : vector<{shape_str(ltile)}x{t}> to {vt}")
                transposed[(k, tuple(use))] = y
                return y
            if kind == "bcast":
                k = e[2]
                _, _, order, array = self.inputs[k]
                ltile, lidx = self.bcast_tile(k, self.tile, src_idx, "%c0")
                pv = partition(f"%in{k}", memref_type(array.ndim, t, order),
                               t, ltile, f"in{k}")
                x, y = fresh(), fresh()
                lt = f"vector<{shape_str(ltile)}x{t}>"
                lines.append(f"      {x} = layout.load %pin{k}[{', '.join(lidx)}] masked : {pv} -> {lt}")
                op = ("shape_cast" if isinstance(self.bcast[k][1], tuple)
                      else "broadcast")
                lines.append(f"      {y} = vector.{op} {x} : {lt} to {vt}")
                return y
            if kind == "splat":
                x = fresh()
                lines.append(f"      {x} = arith.constant dense<{literal(t, e[2])}> : {vt}")
                return x
            if kind == "scalar":
                x = fresh()
                lines.append(f"      {x} = vector.broadcast %s{e[2]} : {t} to {vt}")
                return x
            if kind == "cast":
                a = emit(e[3])
                src = e[3][1]
                x = fresh()
                if e[2] == "extf":
                    lines.append(f"      {x} = arith.extf {a} : vector<{vshape}x{src}> to {vt}")
                else:
                    lines.append(f"      {x} = arith.truncf {a} : vector<{vshape}x{src}> to {vt}")
                return x
            if kind == "unop":
                a = emit(e[3])
                x = fresh()
                if e[2] == "negf":
                    lines.append(f"      {x} = arith.negf {a} : {vt}")
                else:
                    ones = fresh()
                    lines.append(f"      {ones} = arith.constant dense<-1> : {vt}")
                    lines.append(f"      {x} = arith.xori {a}, {ones} : {vt}")
                return x
            a, b = emit(e[3]), emit(e[4])
            x = fresh()
            lines.append(f"      {x} = arith.{e[2]} {a}, {b} : {vt}")
            return x

        if self.expr[0] == "reduce":
            _, t, kind, sub, acc = self.expr
            src = emit(sub)
            oshape = shape_str(self.out_tile)
            a = fresh()
            lines.append(f"      {a} = arith.constant dense<{literal(t, acc)}> : vector<{oshape}x{t}>")
            value = fresh()
            lines.append(f"      {value} = vector.multi_reduction <{kind}>, {src}, {a} [{', '.join(map(str, self.reduced))}] : vector<{vshape}x{t}> to vector<{oshape}x{t}>")
        else:
            value = emit(self.expr)
        pv = partition("%out", memref_type(orank, self.out_type, self.out_storage),
                       self.out_type, self.out_tile, "out")
        lines.append(f"      layout.store {value}, %pout[{', '.join(out_idx)}] masked : vector<{shape_str(self.out_tile)}x{self.out_type}>, {pv}")
        lines.append("      gpu.return")
        lines.append("    }")
        return "\n".join(lines)

    def host(self):
        """The host function that runs the program and counts mismatches
        over the whole output storage (the padding must keep its
        sentinel), and the globals it reads."""
        n = self.name()
        orank = self.out_rank
        globals_ = []
        arg_types = [memref_type(a.ndim, t, st)
                     for t, _, st, a in self.inputs]
        arg_types.append(memref_type(orank, self.out_type, self.out_storage))
        arg_types += [t for t, _ in self.scalars]
        arg_types += ["index"] * 3
        consts = set()

        def c(v):
            consts.add(v)
            return f"%c{v}"

        body = []
        counter = [0]

        def fresh():
            counter[0] += 1
            return f"%h{counter[0]}"

        def constant(name, t, array):
            gtype = f"memref<{shape_str(array.shape)}x{t}>"
            # 64-byte aligned: the pass assumes 16-byte aligned buffers
            # (assume-alignment), as cudaMalloc and hipMalloc give.
            globals_.append(f"memref.global \"private\" constant @{n}_{name} : {gtype} = {dense(t, array)} {{alignment = 64 : i64}}")
            g = fresh()
            body.append(f"  {g} = memref.get_global @{n}_{name} : {gtype}")
            return g, gtype

        def dyn(rank):
            return "x".join("?" for _ in range(rank))

        def view(storage_value, t, st, extents):
            """The logical view of a storage memref<?x...>."""
            rank = len(extents)
            v = storage_value
            if st.padded():
                sub = fresh()
                offs = ", ".join(c(a) for a in st.lo)
                sizes = ", ".join(c(extents[o]) for o in st.order)
                ones = ", ".join("1" for _ in range(rank))
                stype = memref_type(rank, t, Storage(list(range(rank)), st.lo, st.hi))
                body.append(f"  {sub} = memref.subview {v}[{offs}] [{sizes}] [{ones}] : memref<{dyn(rank)}x{t}> to {stype}")
                v, vtype = sub, stype
            else:
                vtype = f"memref<{dyn(rank)}x{t}>"
            if st.order != list(range(rank)):
                tr = fresh()
                src = [st.order.index(i) for i in range(rank)]
                dvars = ", ".join(f"d{i}" for i in range(rank))
                res = ", ".join(f"d{j}" for j in src)
                body.append(f"  {tr} = memref.transpose {v} ({dvars}) -> ({res}) : {vtype} to {memref_type(rank, t, st)}")
                v = tr
            return v

        args = []
        for k, (t, perm, st, array) in enumerate(self.inputs):
            junk = 999 if is_float(t) else 77
            g, gtype = constant(f"in{k}", t, st.embed(array, junk))
            cast = fresh()
            body.append(f"  {cast} = memref.cast {g} : {gtype} to memref<{dyn(array.ndim)}x{t}>")
            args.append(view(cast, t, st, list(array.shape)))
        t = self.out_type
        st = self.out_storage
        odyn = dyn(orank)
        sentinel = self.sentinel()
        init, itype = constant("init", t, st.embed(
            np.full(self.out_extents, sentinel, dtype=TYPES[t][0]), sentinel))
        expect, etype = constant("expect", t, st.embed(self.expected, sentinel))
        shape = st.shape(self.out_extents)
        out = fresh()
        body.append(f"  {out} = memref.alloc({', '.join(c(x) for x in shape)}) : memref<{odyn}x{t}>")
        body.append(f"  memref.copy {init}, {out} : {itype} to memref<{odyn}x{t}>")
        args.append(view(out, t, st, self.out_extents))
        for st_, v in self.scalars:
            x = fresh()
            body.append(f"  {x} = arith.constant {literal(st_, v)} : {st_}")
            args.append(x)
        grid = [self.launched[orank - 1 - i] if i < orank else 1
                for i in range(3)]
        args += [c(g) for g in grid]
        body.append(f"  func.call @{n}_host({', '.join(args)}) : ({', '.join(arg_types)}) -> ()")
        count = fresh()
        zero, one = fresh(), fresh()
        body.append(f"  {zero} = arith.constant 0 : i64")
        body.append(f"  {one} = arith.constant 1 : i64")
        body.append(f"  {count} = memref.alloca() : memref<i64>")
        body.append(f"  memref.store {zero}, {count}[] : memref<i64>")
        ivs = [fresh() for _ in shape]
        for d, iv in enumerate(ivs):
            body.append("  " * d + f"  scf.for {iv} = {c(0)} to {c(shape[d])} step {c(1)} {{")
        ind = "  " * len(shape) + "  "
        a, b, ne, sel, u, w = (fresh() for _ in range(6))
        idx = ", ".join(ivs)
        body.append(f"{ind}{a} = memref.load {out}[{idx}] : memref<{odyn}x{t}>")
        body.append(f"{ind}{b} = memref.load {expect}[{idx}] : {etype}")
        if is_float(t):
            body.append(f"{ind}{ne} = arith.cmpf une, {a}, {b} : {t}")
        else:
            body.append(f"{ind}{ne} = arith.cmpi ne, {a}, {b} : {t}")
        body.append(f"{ind}{sel} = arith.select {ne}, {one}, {zero} : i64")
        body.append(f"{ind}{u} = memref.load {count}[] : memref<i64>")
        body.append(f"{ind}{w} = arith.addi {u}, {sel} : i64")
        body.append(f"{ind}memref.store {w}, {count}[] : memref<i64>")
        for d in reversed(range(len(shape))):
            body.append("  " * d + "  }")
        bad, total = fresh(), fresh()
        body.append(f"  {bad} = memref.load {count}[] : memref<i64>")
        body.append(f"  {total} = arith.constant {int(np.prod(shape))} : i64")
        body.append(f"  vector.print str \"{n}: \"")
        body.append(f"  vector.print {bad} : i64 punctuation <no_punctuation>")
        body.append("  vector.print str \" mismatches of \"")
        body.append(f"  vector.print {total} : i64")
        body.append(f"  memref.dealloc {out} : memref<{odyn}x{t}>")
        body.append("  return")
        body.append("}")
        head = [f"  %c{v} = arith.constant {v} : index" for v in sorted(consts)]
        decl = f"func.func private @{n}_host({', '.join(arg_types)})"
        return "\n".join(globals_), "\n".join(
            [decl, f"func.func @run_{n}() {{"] + head + body)

    def output_elements(self):
        return int(np.prod(self.out_storage.shape(self.out_extents)))

    def describe(self):
        reduced = f" reduced over {self.reduced}" if self.reduced else ""
        return (f"{self.name()}: tile {shape_str(self.tile)} of "
                f"{shape_str(self.extents)}{reduced} {self.out_type}, block "
                f"{shape_str(self.block)}, {len(self.inputs)} loads")


def module(programs):
    kernels = "\n\n".join(p.kernel() for p in programs)
    hosts = [p.host() for p in programs]
    parts = ["module attributes {gpu.container_module} {",
             "  gpu.module @programs {", kernels, "  }", "}"]
    text = "\n".join(parts) + "\n"
    text += "\n".join(g for g, _ in hosts) + "\n"
    text += "\n\n".join(h for _, h in hosts) + "\n"
    text += "func.func @main() {\n"
    text += "".join(f"  func.call @run_{p.name()}() : () -> ()\n"
                    for p in programs)
    text += "  return\n}\n"
    return text


def run_batch(args, batch, chip, path):
    text = module(batch)
    with open(path, "w") as f:
        f.write(text)
    passes = ["-layout-tile-shared-memory"]
    if chip:
        passes.append(f"-layout-xor-swizzle=chip={chip}")
    passes += ["-layout-test-gpu-to-loops", "-layout-to-llvm"]
    opt = subprocess.run([os.path.join(args.tools, "layout-opt"), path] + passes,
                         capture_output=True, text=True, timeout=args.timeout)
    if opt.returncode:
        return None, f"layout-opt failed on {path} (chip {chip}):\n{opt.stderr[-3000:]}"
    run = subprocess.run(
        [os.path.join(args.llvm_tools, "mlir-runner"), "-e", "main",
         "-entry-point-result=void", f"-shared-libs={args.runner_utils}"],
        input=opt.stdout, capture_output=True, text=True, timeout=args.timeout)
    if run.returncode:
        return None, f"mlir-runner failed on {path} (chip {chip}):\n{run.stderr[-3000:]}"
    return run.stdout, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--tools", required=True, help="directory of layout-opt")
    ap.add_argument("--llvm-tools", required=True,
                    help="directory of mlir-runner")
    ap.add_argument("--runner-utils", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds per batch and tool")
    ap.add_argument("--even-only", action="store_true",
                    help="only tiles the block divides evenly")
    ap.add_argument("--keep", default=None,
                    help="directory for the generated modules (default: a "
                         "temporary one, kept when a program fails)")
    args = ap.parse_args()
    start = time.time()
    rng = random.Random(args.seed)
    programs = [Program(random.Random(rng.getrandbits(64)), i,
                        not args.even_only)
                for i in range(args.count)]
    batches = [programs[i:i + args.batch]
               for i in range(0, len(programs), args.batch)]
    chips = [rng.choice(CHIPS) for _ in batches]
    workdir = args.keep or tempfile.mkdtemp(prefix="tile-programs-")
    os.makedirs(workdir, exist_ok=True)
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_batch, args, b, chip,
                               os.path.join(workdir, f"batch{i}.mlir"))
                   for i, (b, chip) in enumerate(zip(batches, chips))]
        for i, (batch, chip, fut) in enumerate(zip(batches, chips, futures)):
            try:
                out, error = fut.result()
            except subprocess.TimeoutExpired as e:
                out, error = None, f"timed out: {e}"
            if error:
                print(f"FAIL batch {i}: {error}")
                for p in batch:
                    print(f"  in it: {p.describe()}")
                failed += len(batch)
                continue
            results = {}
            for line in out.splitlines():
                name, _, rest = line.partition(": ")
                results[name] = rest.strip()
            for p in batch:
                want = f"0 mismatches of {p.output_elements()}"
                got = results.get(p.name())
                if got == want:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {p.describe()} (chip {chip}): {got or 'no output'}; "
                          f"module {os.path.join(workdir, f'batch{i}.mlir')}")
    if not failed and not args.keep:
        for f in os.listdir(workdir):
            os.remove(os.path.join(workdir, f))
        os.rmdir(workdir)
    print(f"tile programs: {passed} right, {failed} wrong "
          f"({args.count} in {time.time() - start:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
