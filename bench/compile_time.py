#!/usr/bin/env python3
"""Compile-time benchmark of the layout dialect (issues 3 and 14): a chain
of N stages and a module of N `layout.offset` ops, each parsed (and
printed) alone and run through each of

    layout-opt -canonicalize
    layout-opt -convert-layout-to-affine
    layout-opt -layout-to-llvm

at sizes doubling up to 10^5, reporting wall time (best of --runs) and peak
resident memory (GNU time) and the growth factor between consecutive sizes
(2.0 per doubling is linear).

Usage: python3 bench/compile_time.py [--layout-opt build/bin/layout-opt]
           [--max 100000] [--runs 2]
"""

import argparse
import os
import subprocess
import tempfile


def chain_module(stages):
    """One descriptor of `stages` stages that canonicalization cannot
    collapse, in groups of five: a pad of dim 0, an xor and a rotate of the
    two dims, and an unmerge/merge pair of dim 1 that canonicalization
    composes away. One layout.offset and one layout.valid at the top."""
    lines = ["func.func @chain(%i: index, %j: index) -> (index, i1) {",
             "  %d0 = layout.packed [16, 8] : !layout.desc<16x8>"]
    rows = 16
    cur = 0

    def emit(t, src, dst):
        nonlocal cur
        lines.append("  %%d%d = layout.transform %%d%d [%s] : %s -> %s"
                     % (cur + 1, cur, t, src, dst))
        cur += 1

    desc = lambda *l: "!layout.desc<%s>" % "x".join(map(str, l))
    while cur < stages:
        kind = cur % 5
        if kind == 0:
            emit("#layout.pad<%d, 1, 1> : [0] -> [0], "
                 "#layout.pass_through<8> : [1] -> [1]" % rows,
                 desc(rows, 8), desc(rows + 2, 8))
            rows += 2
        elif kind == 1:
            emit("#layout.xor<[%d, 8]> : [0, 1] -> [0, 1]" % rows,
                 desc(rows, 8), desc(rows, 8))
        elif kind == 2:
            emit("#layout.rotate<[%d, 8]> : [0, 1] -> [0, 1]" % rows,
                 desc(rows, 8), desc(rows, 8))
        elif kind == 3:
            emit("#layout.pass_through<%d> : [0] -> [0], "
                 "#layout.unmerge<[2, 4]> : [1] -> [1, 2]" % rows,
                 desc(rows, 8), desc(rows, 2, 4))
        else:
            emit("#layout.pass_through<%d> : [0] -> [0], "
                 "#layout.merge<[2, 4]> : [1, 2] -> [1]" % rows,
                 desc(rows, 2, 4), desc(rows, 8))
    top = desc(rows, 2, 4) if cur % 5 == 4 else desc(rows, 8)
    idx = "%i, %j, %j" if cur % 5 == 4 else "%i, %j"
    lines.append("  %%o = layout.offset %%d%d[%s] : %s" % (cur, idx, top))
    lines.append("  %%v = layout.valid %%d%d[%s] : %s" % (cur, idx, top))
    lines.append("  return %o, %v : index, i1")
    lines.append("}")
    return "\n".join(lines) + "\n", cur


def offsets_module(n):
    """`n` layout.offset ops on a 3-stage descriptor (pad, xor, unmerge)."""
    lines = ["func.func @offsets(%i: index, %j: index, %k: index) -> index {",
             "  %p = layout.packed [32, 32] : !layout.desc<32x32>",
             "  %a = layout.transform %p [#layout.pad<32, 1, 1> : [0] -> [0], "
             "#layout.pass_through<32> : [1] -> [1]] "
             ": !layout.desc<32x32> -> !layout.desc<34x32>",
             "  %b = layout.transform %a [#layout.xor<[34, 32]> : [0, 1] -> [0, 1]] "
             ": !layout.desc<34x32> -> !layout.desc<34x32>",
             "  %c = layout.transform %b [#layout.pass_through<34> : [0] -> [0], "
             "#layout.unmerge<[4, 8]> : [1] -> [1, 2]] "
             ": !layout.desc<34x32> -> !layout.desc<34x4x8>",
             "  %acc0 = arith.constant 0 : index"]
    for n_ in range(n):
        lines.append("  %%o%d = layout.offset %%c[%%i, %%j, %%k] : "
                     "!layout.desc<34x4x8>" % n_)
        lines.append("  %%acc%d = arith.addi %%acc%d, %%o%d : index"
                     % (n_ + 1, n_, n_))
    lines.append("  return %%acc%d : index" % n)
    lines.append("}")
    return "\n".join(lines) + "\n"


PIPELINES = [
    ("parse", []),
    ("canonicalize", ["-canonicalize"]),
    ("to affine", ["-convert-layout-to-affine"]),
    ("to llvm", ["-layout-to-llvm"]),
]


def measure(layout_opt, path, flags, runs):
    best = None
    for _ in range(runs):
        r = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", layout_opt, path, *flags, "-o",
             os.devnull],
            capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("layout-opt failed:\n" + r.stderr)
        secs, kib = r.stderr.strip().splitlines()[-1].split()
        sample = (float(secs), int(kib))
        best = sample if best is None or sample[0] < best[0] else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--layout-opt", default="build/bin/layout-opt")
    ap.add_argument("--max", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    sizes = []
    n = args.max
    while n >= 1000 and len(sizes) < 4:
        sizes.insert(0, n)
        n //= 2

    print("| input | pipeline | size | time (s) | peak RSS (MiB) | time growth |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, make in [("chain of N stages", lambda n: chain_module(n)[0]),
                       ("N layout.offset ops", offsets_module)]:
        paths = {}
        try:
            for n in sizes:
                with tempfile.NamedTemporaryFile(
                        "w", suffix=".mlir", delete=False) as f:
                    f.write(make(n))
                    paths[n] = f.name
            for pipeline, flags in PIPELINES:
                prev = None
                for n in sizes:
                    secs, kib = measure(args.layout_opt, paths[n], flags,
                                        args.runs)
                    growth = ("" if prev is None or prev == 0
                              else "x%.2f" % (secs / prev))
                    print("| %s | %s | %d | %.2f | %.1f | %s |"
                          % (name, pipeline, n, secs, kib / 1024.0, growth),
                          flush=True)
                    prev = secs
        finally:
            for p in paths.values():
                os.unlink(p)


if __name__ == "__main__":
    main()
