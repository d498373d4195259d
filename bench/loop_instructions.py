#!/usr/bin/env python3
"""Counts the instructions of each kernel's innermost loop in an AMDGPU
assembly file (the lines between a loop's label and the branch back to it)
and how many of them are multiplies-high (the core of a division by a
constant) and 64-bit multiply-adds.

Usage: python3 bench/loop_instructions.py kernels.s"""
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


def main():
    text = open(sys.argv[1]).read()
    print("| kernel | loop | instructions per iteration | v_mul_hi | v_mad_u64_u32 |")
    print("| --- | --- | --- | --- | --- |")
    for kernel, label, body in loops(text):
        insts = [l.strip() for l in body
                 if l.strip() and not l.strip().startswith((";", "."))]
        insts = [l for l in insts if not re.match(r"^\.LBB", l)]
        mulhi = sum(1 for l in insts if l.startswith("v_mul_hi"))
        mad = sum(1 for l in insts if l.startswith("v_mad_u64_u32"))
        print("| %s | %s | %d | %d | %d |" % (kernel, label, len(insts),
                                             mulhi, mad))


if __name__ == "__main__":
    main()
