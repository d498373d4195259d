#!/usr/bin/env python3
"""Counts the instructions of each kernel's innermost loop in an AMDGPU
assembly file (the lines between a loop's label and the branch back to it)
and how many of them are multiplies-high (the core of a division by a
constant) and 64-bit multiply-adds.

With --mix: for each kernel, the loop with the most matrix instructions
(its main loop) and its mix: v_mfma / v_wmma, LDS reads and writes,
ds_bpermute (cross-lane moves), barriers, scratch accesses.

Usage: python3 bench/loop_instructions.py [--mix] kernels.s"""
import re
import sys


def loops(text):
    kernel = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^([A-Za-z_][\w.]*):", line)
        if m and not m.group(1).startswith("."):
            kernel = m.group(1)
        m = re.match(r"^(\.LBB\d+_\d+):", line)
        if not m or kernel is None:
            continue
        label = m.group(1)
        body = []
        for other in lines[i + 1:]:
            if re.search(r"s_cbranch_\w+\s+" + re.escape(label) + r"\b", other) \
                    or re.search(r"s_branch\s+" + re.escape(label) + r"\b", other):
                yield kernel, label, body
                break
            if re.match(r"^\S", other) and not other.startswith(".LBB"):
                break
            body.append(other)


MIX = (("matrix", ("v_mfma", "v_wmma", "v_smfmac")), ("ds_read", ("ds_read",)),
       ("ds_write", ("ds_write",)), ("ds_bpermute", ("ds_bpermute",)),
       ("s_barrier", ("s_barrier",)), ("scratch", ("scratch_", "buffer_store_dword off")))


def instructions(body):
    insts = [l.strip() for l in body
             if l.strip() and not l.strip().startswith((";", "."))]
    return [l for l in insts if not re.match(r"^\.LBB", l)]


def mix(text):
    print("| kernel | main loop | instructions | " +
          " | ".join(name for name, _ in MIX) + " |")
    print("| --- " * (3 + len(MIX)) + "|")
    best = {}
    for kernel, label, body in loops(text):
        insts = instructions(body)
        counts = [sum(1 for l in insts if l.startswith(prefixes))
                  for _, prefixes in MIX]
        # The most matrix instructions; among loops with as many, the
        # innermost (fewest instructions: a forward block that a slow path
        # branches back into, as a 64-bit division's, is no loop).
        key = (counts[0], -len(insts))
        if kernel not in best or key > best[kernel][3]:
            best[kernel] = (label, len(insts), counts, key)
    for kernel, (label, n, counts, _) in best.items():
        print("| %s | %s | %d | %s |" % (kernel, label, n,
                                         " | ".join(map(str, counts))))


def main():
    args = [a for a in sys.argv[1:] if a != "--mix"]
    text = open(args[0]).read()
    if "--mix" in sys.argv:
        return mix(text)
    print("| kernel | loop | instructions per iteration | v_mul_hi | v_mad_u64_u32 |")
    print("| --- | --- | --- | --- | --- |")
    for kernel, label, body in loops(text):
        insts = instructions(body)
        mulhi = sum(1 for l in insts if l.startswith("v_mul_hi"))
        mad = sum(1 for l in insts if l.startswith("v_mad_u64_u32"))
        print("| %s | %s | %d | %d | %d |" % (kernel, label, len(insts),
                                             mulhi, mad))


if __name__ == "__main__":
    main()
