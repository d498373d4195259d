#!/usr/bin/env python3
"""Keeps every COUNT-th kernel of an MLIR file, from the FIRST-th (0-based):

    select-kernels.py FILE FIRST COUNT > PART.mlir

A kernel is the text from a line starting "  gpu.func @" to the next line
that is exactly "  }" (the examples' layout); everything outside the
kernels is kept. A slow whole-file test (a proof over every kernel of an
example) splits into COUNT tests this way, each under the time limit; their
kernels together are the file's. Fails when FILE has no kernel there."""
import sys


def main(path, first, count):
    out, index, keep, kept = [], -1, True, 0
    inside = False
    for line in open(path):
        if line.startswith("  gpu.func @"):
            index += 1
            inside = True
            keep = index % count == first
            kept += keep
        if not inside or keep:
            out.append(line)
        if inside and line.rstrip("\n") == "  }":
            inside = False
    if not kept:
        sys.exit("select-kernels.py: no kernel %d mod %d in %s" %
                 (first, count, path))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
