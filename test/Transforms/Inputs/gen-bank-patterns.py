#!/usr/bin/env python3
"""Random workgroup-memory access patterns for the bank-conflict proof.

Prints a module of N kernels (seeded, so reproducible), each with one load
of a workgroup buffer at an index built from thread ids, block ids, a loop
induction variable and a run-time extent through the arith ops address code
uses (add, mul by a constant, div/rem by a constant, xor/and with a constant,
mul of a lane value by a block id). bank-conflicts-random.test runs
-layout-test-bank-conflicts on it: brute force (every lane of several blocks,
iterations and extents) must never exceed the proved count.
"""
import random
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 16

rng = random.Random(SEED)


def kernel(k):
    lines = []
    counter = [0]

    def fresh():
        counter[0] += 1
        return f"%v{counter[0]}"

    def const(c):
        name = fresh()
        lines.append(f"      {name} = arith.constant {c} : index")
        return name

    def binop(op, a, b):
        name = fresh()
        lines.append(f"      {name} = arith.{op} {a}, {b} : index")
        return name

    block = rng.choice([(32, 1), (64, 1), (32, 4), (16, 16), (128, 1)])
    elem, ty = rng.choice([(4, "f32"), (2, "f16"), (8, "f64")])
    vec = rng.choice([1, 1, 2, 4]) if elem < 8 else 1
    leaves = ["%tx", "%ty", "%bx", "%by", "%i", "%n"]

    def expr(depth):
        if depth == 0 or rng.random() < 0.25:
            return rng.choice(leaves)
        kind = rng.randrange(7)
        a = expr(depth - 1)
        if kind == 0:
            return binop("addi", a, expr(depth - 1))
        if kind == 1:
            return binop("muli", a, const(rng.choice([1, 2, 3, 4, 8, 17, 32, 33, 64])))
        if kind == 2:
            return binop("divui", a, const(rng.choice([2, 4, 8, 3])))
        if kind == 3:
            return binop("remui", a, const(rng.choice([2, 4, 8, 16, 32, 5])))
        if kind == 4:
            return binop("xori", a, const(rng.randrange(64)))
        if kind == 5:
            return binop("andi", a, const(rng.choice([1, 3, 7, 15, 31, 63, 12])))
        # A lane value times a block id (affine in the block id).
        return binop("muli", rng.choice(["%tx", "%ty"]), rng.choice(["%bx", "%by"]))

    size = 4096
    body = expr(rng.randrange(1, 5))
    cvec = const(vec)
    scaled = binop("muli", body, cvec)
    csize = const(size - vec)
    index = binop("remui", scaled, csize)
    vt = f"vector<{vec}x{ty}>"
    load = (f"      %x = vector.load %buf[{index}] : memref<{size}x{ty}, "
            f"#gpu.address_space<workgroup>>, {vt}")
    trip = rng.choice(["%c4", "%c3", "%n"])
    out = [
        f"    gpu.func @k{k}(%in: memref<?xf32>, %out: memref<{vt}>)",
        f"        workgroup(%buf: memref<{size}x{ty}, #gpu.address_space<workgroup>>) kernel",
        f"        attributes {{known_block_size = array<i32: {block[0]}, {block[1]}, 1>}} {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        "      %c3 = arith.constant 3 : index",
        "      %c4 = arith.constant 4 : index",
        "      %tx = gpu.thread_id x",
        "      %ty = gpu.thread_id y",
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        "      %n = memref.dim %in, %c0 : memref<?xf32>",
        f"      scf.for %i = %c0 to {trip} step %c1 {{",
    ]
    out += ["  " + line for line in lines]
    out.append("  " + load)
    out.append(f"        memref.store %x, %out[] : memref<{vt}>")
    out += ["      }", "      gpu.return", "    }"]
    return "\n".join(out)


print("module attributes {gpu.container_module} {")
print("  gpu.module @random {")
for k in range(N):
    print(kernel(k))
print("  }")
print("}")
