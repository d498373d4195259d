#!/usr/bin/env python3
"""Mutation testing of layout-opt: are deliberate bugs caught by the tests?

Each mutant in bench/mutation/mutants.json (file, an exact substring that
occurs once in it, its replacement, the tests expected to catch it) is
applied in a scratch copy of the repository, built incrementally there and
tested with lit (a time limit per test); the copy is restored after each.
A mutant is

  caught    a test failed cleanly (FileCheck, a wrong value, a verifier
            error: no crash in the failing output),
  crash     only by a crash (a stack dump or a signal in the failing
            output),
  timeout   only by a test that ran past its limit,
  survived  every test passed,
  no-build  it did not compile (a mistake in the list, not in the tests).

Usage (the scratch copy's first build is a full one, ~25 minutes on 2
cores; later runs reuse it):

  python3 scripts/mutation-test.py                  # every mutant
  python3 scripts/mutation-test.py --only a,b       # some
  python3 scripts/mutation-test.py --all-tests      # the whole suite each
  python3 scripts/mutation-test.py --resume         # go on after a stop

Each result is also appended to WORK/results.jsonl as it is known. With
--resume, a mutant whose (file, find, replace, tests) and tree (the HEAD
commit and the working tree's diff) match a recorded result is not run
again, so a run too long for one sitting can be finished in several.

It prints a markdown table and the line "N caught, N crash, N timeout,
N survived, N no-build" and writes the table to --report (default
bench/mutation/last-run.md). The score counts clean catches only.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = "/usr/lib/llvm-22/bin/lit"
CRASH_MARKS = ("Stack dump", "PLEASE submit a bug report", "Segmentation fault",
               "Aborted", "core dumped", "signal")


def run(cmd, cwd, timeout=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def prepare(work):
    """A scratch copy of the tracked files at HEAD plus the working tree's
    changes, configured and built once."""
    src = os.path.join(work, "src")
    if not os.path.isdir(src):
        os.makedirs(work, exist_ok=True)
        rc, out = run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, src],
                      ROOT)
        if rc:
            sys.exit("mutation-test: git clone failed:\n" + out)
    # The tree under test: the working tree's tracked files.
    rc, files = run(["git", "ls-files"], ROOT)
    for f in files.split():
        a, b = os.path.join(ROOT, f), os.path.join(src, f)
        if os.path.isfile(a):
            os.makedirs(os.path.dirname(b), exist_ok=True)
            if not os.path.exists(b) or open(a, "rb").read() != open(b, "rb").read():
                # A new mtime: the copy must look newer than the objects built
                # from what it replaces (copy2 kept the source's older mtime,
                # and ninja then kept stale objects).
                shutil.copy(a, b)
    build = os.path.join(src, "build")
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        rc, out = run(["cmake", "-G", "Ninja", "-S", src, "-B", build,
                       "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_COMPILER=gcc",
                       "-DCMAKE_CXX_COMPILER=g++",
                       "-DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir"], src)
        if rc:
            sys.exit("mutation-test: configure failed:\n" + out)
    print("mutation-test: building the scratch copy (unmutated)...",
          file=sys.stderr, flush=True)
    rc, out = run(["cmake", "--build", build], src)
    if rc:
        sys.exit("mutation-test: the unmutated copy does not build:\n" + out[-4000:])
    return src, build


def cell(text):
    """A markdown table cell: a `|` inside it would end the cell."""
    return str(text).replace("|", "\\|")


def tree_id():
    """HEAD and a hash of the working tree's changes: the tree under test."""
    _, head = run(["git", "rev-parse", "HEAD"], ROOT)
    _, diff = run(["git", "diff", "HEAD"], ROOT)
    return head.strip()[:12] + "+" + hashlib.sha1(diff.encode()).hexdigest()[:8]


def mutant_key(m, tree, all_tests):
    body = json.dumps([m["file"], m["find"], m["replace"], m["tests"],
                       all_tests, tree])
    return hashlib.sha1(body.encode()).hexdigest()


def lit(build, tests, limit):
    paths = [os.path.join(build, "test", t) for t in tests]
    rc, out = run([LIT, "-v", "--timeout=%d" % limit] + paths, build)
    failed = [l.split("::", 1)[1].split("(")[0].strip()
              for l in out.splitlines() if l.startswith("FAIL: ")]
    timed = [l.split("::", 1)[1].split("(")[0].strip()
             for l in out.splitlines() if l.startswith("TIMEOUT: ")]
    return rc, failed, timed, out


def classify(rc, failed, timed, out):
    if failed:
        crashed = any(m in out for m in CRASH_MARKS)
        return ("crash" if crashed else "caught"), failed
    if timed:
        return "timeout", timed
    if rc:
        return "caught", ["(lit exit %d)" % rc]
    return "survived", []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mutants",
                    default=os.path.join(ROOT, "bench", "mutation", "mutants.json"))
    ap.add_argument("--work", default="/tmp/layout-mutation")
    ap.add_argument("--only", default="")
    ap.add_argument("--all-tests", action="store_true",
                    help="run the whole lit suite for every mutant")
    ap.add_argument("--limit", type=int, default=300,
                    help="seconds per test")
    ap.add_argument("--resume", action="store_true",
                    help="reuse results recorded for this tree in "
                         "WORK/results.jsonl")
    ap.add_argument("--report",
                    default=os.path.join(ROOT, "bench", "mutation", "last-run.md"))
    args = ap.parse_args()
    mutants = json.load(open(args.mutants))
    if args.only:
        keep = set(args.only.split(","))
        mutants = [m for m in mutants if m["id"] in keep]
    # Check the list before spending a build on it.
    for m in mutants:
        text = open(os.path.join(ROOT, m["file"])).read()
        n = text.count(m["find"])
        if n != 1:
            sys.exit("mutation-test: %s: 'find' occurs %d times in %s"
                     % (m["id"], n, m["file"]))
    tree = tree_id()
    journal = os.path.join(args.work, "results.jsonl")
    done = {}
    if args.resume and os.path.isfile(journal):
        for line in open(journal):
            r = json.loads(line)
            done[r["key"]] = r
    src, build = prepare(args.work)
    rows, counts = [], {}
    for m in mutants:
        key = mutant_key(m, tree, args.all_tests)
        if key in done:
            r = done[key]
            kind, by, seconds = r["kind"], r["by"], r["seconds"]
            counts[kind] = counts.get(kind, 0) + 1
            row = "| %s | %s | %s | %s | %s | %.0f s |" % (
                m["id"], m["area"], cell(m["why"]), kind,
                ", ".join(by) if by else "-", seconds)
            rows.append(row)
            print(row + " (recorded)", flush=True)
            continue
        path = os.path.join(src, m["file"])
        original = open(path).read()
        start = time.time()
        try:
            open(path, "w").write(original.replace(m["find"], m["replace"], 1))
            rc, out = run(["cmake", "--build", build], src)
            if rc:
                kind, by = "no-build", [out.splitlines()[-1][:80] if out else ""]
            else:
                tests = ["."] if args.all_tests else m["tests"]
                kind, by = classify(*lit(build, tests, args.limit))
        finally:
            open(path, "w").write(original)
        seconds = time.time() - start
        counts[kind] = counts.get(kind, 0) + 1
        row = "| %s | %s | %s | %s | %s | %.0f s |" % (
            m["id"], m["area"], cell(m["why"]), kind,
            ", ".join(by) if by else "-", seconds)
        rows.append(row)
        print(row, flush=True)
        with open(journal, "a") as f:
            f.write(json.dumps({"key": key, "id": m["id"], "tree": tree,
                                "kind": kind, "by": by,
                                "seconds": seconds}) + "\n")
    # The copy back as it was: rebuild so that the next run starts clean.
    run(["cmake", "--build", build], src)
    total = len(mutants)
    summary = ", ".join("%d %s" % (counts.get(k, 0), k)
                        for k in ("caught", "crash", "timeout", "survived",
                                  "no-build"))
    score = 100.0 * counts.get("caught", 0) / max(1, total - counts.get("no-build", 0))
    table = ["| mutant | area | the bug | result | caught by | time |",
             "| --- | --- | --- | --- | --- | --- |"] + rows
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w") as f:
        f.write("# Mutation testing, last run\n\n")
        f.write("`python3 scripts/mutation-test.py%s` on %s, tree %s\n\n"
                % (" --all-tests" if args.all_tests else "",
                   time.strftime("%Y-%m-%d"), tree))
        f.write("\n".join(table) + "\n\n")
        f.write("%s; %.1f%% caught cleanly\n" % (summary, score))
    print(summary + "; %.1f%% caught cleanly" % score)
    return 0 if counts.get("survived", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
