#!/usr/bin/env python3
"""Checks the diagnostics of

    layout-opt K.mlir [-layout-tile-shared-memory] -layout-xor-swizzle
        -layout-test-bank-conflicts -layout-analyze-bank-conflicts

(read from stdin) for what issue 16 asks of every kernel in examples/: every
workgroup-memory access is proved conflict-free ("0 extra cycles ...; proved
for all ...") by the analysis, the brute-force simulation of the test pass
(every lane of every wave of several blocks, iterations and extents) finds 0
at the same access; accesses that no simulated block reaches (edge paths
of kernels whose static shapes never take them) are counted apart, every swizzled buffer reaches 0 and no kernel summary
names a conflicted or unproved access. The wgmma operand reads and TMA box
writes (sm_90a), which no thread addresses, are proved by the wavefront model
at every tile origin and have no brute force. Prints one summary line; exits
1 with the offending lines otherwise.
"""

import collections
import re
import sys

DIAG = re.compile(r"^(?P<loc>[^ ]+:\d+:\d+): (?P<kind>remark|error|warning): "
                  r"(?P<text>.*)$")
ANALYSIS = re.compile(r"^bank conflicts on (?P<chip>[\w]+): (?P<text>.*)$")
BRUTE = re.compile(r"^brute force over \d+ blocks, iterations and extents, "
                   r"(?P<active>\d+) with active lanes: (?P<sim>\d+) extra "
                   r"cycles; proof: (?P<proof>.*)$")
SUMMARY = re.compile(r"^bank conflicts on \w+ in @(?P<kernel>\w+): "
                     r"(?P<n>\d+) workgroup-memory access(es)?, "
                     r"(?P<bad>\d+) with conflicts or unproved, worst "
                     r"(?P<worst>\d+) extra cycles; (?P<proved>\d+) of "
                     r"(?P<total>\d+) proved$")
# The versions of one access (the same location and result) share a remark.
VERSIONS = re.compile(r" \(the same for (?P<n>\d+) of the \d+ accesses at "
                      r"this location\)$")
# The accesses of the hardware units (wgmma operand reads, TMA box writes),
# counted by the wavefront model over every tile origin: no brute force.
HARDWARE = re.compile(r"\d+-way; (wgmma reads of [AB]|TMA box writes)")
SWIZZLED = re.compile(r"swizzled: .*; bank conflicts \d+ -> (?P<after>\d+) "
                      r"extra cycles")


def main():
    problems = []
    proved = collections.Counter()  # location -> proved-zero analysis remarks
    brute = collections.Counter()  # location -> brute force 0, proof 0
    kernels = accesses = swizzled = inactive = hardware = 0
    for line in sys.stdin:
        line = line.rstrip("\n")
        m = DIAG.match(line)
        if not m:
            continue
        loc, kind, text = m["loc"], m["kind"], m["text"]
        if kind != "remark":
            problems.append(line)
            continue
        if s := SUMMARY.match(text):
            kernels += 1
            if s["bad"] != "0" or s["worst"] != "0" or \
                    s["proved"] != s["total"]:
                problems.append(line)
            continue
        if a := ANALYSIS.match(text):
            v = VERSIONS.search(text)
            n = int(v["n"]) if v else 1
            accesses += n
            if not re.match(r"0 extra cycles \(1-way;.*\); proved for all ",
                            a["text"]):
                problems.append(line)
            elif HARDWARE.search(a["text"]):
                hardware += n
            else:
                proved[loc] += n
            continue
        if b := BRUTE.match(text):
            if b["sim"] != "0" or b["proof"] != "0":
                problems.append(line)
            else:
                brute[loc] += 1
                inactive += b["active"] == "0"
            continue
        if w := SWIZZLED.search(text):
            swizzled += 1
            if w["after"] != "0" or "proved for every wave" not in text:
                problems.append(line)
    if proved != brute:
        problems.append("analysis and brute force differ at: " + ", ".join(
            sorted(set(proved.keys()) ^ set(brute.keys())) or
            [k for k in proved if proved[k] != brute[k]]))
    if not kernels or not accesses:
        problems.append("no kernel summary or access remark in the input")
    if problems:
        print("\n".join(problems))
        return 1
    line = (f"{kernels} kernels, {accesses} accesses proved 0 extra cycles, "
            f"brute force 0 at every one ({inactive} never reached); "
            f"{swizzled} buffers swizzled to 0")
    if hardware:
        line += (f"; {hardware} of the accesses wgmma reads and TMA writes, "
                 f"proved by the wavefront model at every tile origin")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
