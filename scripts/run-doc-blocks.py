"""Runs the code blocks of Markdown files: docs that run.

Each fenced block runs by its language, in a scratch directory where
`examples/` is the repository's and `build/` the build tree (PATH starts
with build/bin and /usr/lib/llvm-22/bin):

  python  the file's ```python blocks run in order as one program (a block
          may use what an earlier one defined). A line `EXPR  # VALUE`
          whose VALUE is a Python literal is checked: EXPR must equal VALUE
          (NumPy arrays element by element, NaN equal to NaN).
  mlir    the block is a whole file: `layout-opt` must parse and verify it;
          after `<!-- doc-test: pipeline: ARGS -->` it must also compile
          with those passes (`layout-opt block.mlir ARGS`), the pipeline
          the text says it goes through.
  sh      run with `bash -e`.
  json    parsed.
  text, or no language: diagrams and shown output, not run.

A block preceded by `<!-- doc-test: skip: REASON -->` is not run (the
setup commands that the test command itself runs, CUDA host code, editor
settings); any other language needs that. Prints "N blocks: R run, M values
checked, S skipped, T text" and exits non-zero on the first failure,
naming the file and line.

    python3 scripts/run-doc-blocks.py README.md docs/*.md
    python3 scripts/run-doc-blocks.py --only python docs/python.md
"""

import ast
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def blocks(path):
    """(first line number, language, source, skip reason) of each fenced
    block."""
    out, cur, start, lang, skip, pending = [], None, 0, "", None, None
    header = pipeline = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            stripped = line.strip()
            if cur is None:
                m = re.match(r"<!-- doc-test: skip: (.+?) -->", stripped)
                d = re.match(r"<!-- doc-test: declarations: (\S+) -->", stripped)
                q = re.match(r"<!-- doc-test: pipeline: (.+?) -->", stripped)
                if m:
                    pending = m.group(1)
                elif q:
                    pipeline = q.group(1)
                elif d:
                    header = d.group(1)
                elif stripped.startswith("```"):
                    cur, start, lang = [], n + 1, stripped[3:].strip()
                    skip, pending = pending, None
                    if header:
                        lang, skip, header = "declarations:" + header, None, None
                    if pipeline and lang == "mlir":
                        lang, pipeline = "mlir:" + pipeline, None
                elif stripped:
                    pending = None if not stripped.startswith("<!--") else pending
            elif stripped == "```":
                out.append((start, lang, "".join(cur), skip))
                cur = None
            else:
                cur.append(line)
    return out


def shown_literal(line):
    """The literal of a trailing `# LITERAL` comment (`nan` allowed), as
    (value, has_nan), or None when the comment is prose."""
    m = re.search(r"#\s*(.+?)\s*$", line)
    if not m:
        return None
    text = m.group(1)
    has_nan = re.search(r"\bnan\b", text) is not None
    try:
        value = ast.literal_eval(re.sub(r"\bnan\b", "None", text))
    except (SyntaxError, ValueError):
        return None
    return value, has_nan


def equal(got, want, has_nan):
    import numpy as np
    if isinstance(got, np.ndarray) or has_nan:
        w = np.array([[float("nan") if x is None else x for x in row]
                      if isinstance(row, list) else
                      (float("nan") if row is None else row) for row in want]
                     if isinstance(want, list) else want, dtype=float)
        g = np.asarray(got, dtype=float)
        return g.shape == w.shape and bool(np.all((g == w) |
                                                  (np.isnan(g) & np.isnan(w))))
    if isinstance(got, tuple) and isinstance(want, list):
        want = tuple(want)
    return got == want


def run_python(path, start, source, env):
    """Runs one python block statement by statement; returns the number of
    values checked."""
    checked = 0
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        sys.exit("%s:%d: %s" % (path, start + (e.lineno or 1) - 1, e))
    for stmt in tree.body:
        where = "%s:%d" % (path, start + stmt.lineno - 1)
        shown = None
        if isinstance(stmt, ast.Expr):
            shown = shown_literal(lines[stmt.end_lineno - 1])
        try:
            if shown:
                got = eval(compile(ast.Expression(stmt.value), where, "eval"),
                           env)
                if not equal(got, *shown):
                    sys.exit("%s: %s is %r, the doc shows %r" % (
                        where, ast.get_source_segment(source, stmt), got,
                        shown[0]))
                checked += 1
            else:
                exec(compile(ast.Module([stmt], []), where, "exec"), env)
        except SystemExit:
            raise
        except Exception as e:  # noqa: BLE001
            sys.exit("%s: %s: %s" % (where, type(e).__name__, e))
    return checked


def check_declarations(path, start, header, source):
    """A block of C++ declarations (after `<!-- doc-test: declarations:
    HEADER -->`): every function and struct it names is in HEADER."""
    with open(os.path.join(ROOT, header)) as f:
        text = f.read()
    code = re.sub(r"//.*", "", source)
    names = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", code))
    names |= set(re.findall(r"\bstruct\s+(\w+)", code))
    names -= {"const", "sizeof", "if", "return"}
    missing = sorted(n for n in names if not re.search(r"\b%s\b" % n, text))
    if missing:
        sys.exit("%s:%d: declared in the doc but not in %s: %s" % (
            path, start, header, ", ".join(missing)))


def run_tool(path, start, lang, source, scratch):
    import json
    import subprocess
    where = "%s:%d" % (path, start)
    if lang == "json":
        try:
            json.loads(source)
        except ValueError as e:
            sys.exit("%s: %s" % (where, e))
        return
    if lang.split(":", 1)[0] == "mlir":
        name = os.path.join(scratch, "block.mlir")
        with open(name, "w") as f:
            f.write(source)
        passes = lang.split(":", 1)[1].split() if ":" in lang else []
        cmd = ["layout-opt", name] + passes + ["-o", os.devnull]
    else:
        cmd = ["bash", "-e", "-c", source]
    try:
        p = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True,
                           timeout=600)
    except subprocess.TimeoutExpired:
        sys.exit("%s: the %s block ran past 600 s" % (where, lang))
    if p.returncode:
        sys.exit("%s: the %s block failed (exit %d):\n%s%s" % (
            where, lang, p.returncode, p.stdout[-3000:], p.stderr[-3000:]))


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--only", help="run only blocks of this language")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    files = [os.path.abspath(f) for f in args.files]
    scratch = tempfile.mkdtemp(prefix="doc-blocks-")
    os.symlink(os.path.join(ROOT, "examples"), os.path.join(scratch, "examples"))
    os.symlink(os.path.abspath(args.build), os.path.join(scratch, "build"))
    os.environ["PATH"] = os.pathsep.join([
        os.path.join(os.path.abspath(args.build), "bin"),
        "/usr/lib/llvm-22/bin", os.environ.get("PATH", "")])
    os.chdir(scratch)
    total = ran = checked = skipped = text = 0
    for path in files:
        env = {"__name__": "__doc__"}
        for start, lang, source, skip in blocks(path):
            if args.only and lang != args.only:
                continue
            total += 1
            if skip:
                skipped += 1
                print("%s:%d: %s block not run: %s" % (
                    os.path.relpath(path, ROOT), start, lang, skip))
            elif lang in ("", "text"):
                text += 1
            elif lang == "python":
                checked += run_python(path, start, source, env)
                ran += 1
            elif lang.startswith("declarations:"):
                check_declarations(path, start, lang.split(":", 1)[1], source)
                ran += 1
            elif lang in ("mlir", "sh", "json") or lang.startswith("mlir:"):
                run_tool(path, start, lang, source, scratch)
                ran += 1
            else:
                sys.exit("%s:%d: no runner for a %s block: annotate it with "
                         "<!-- doc-test: skip: REASON -->" % (path, start, lang))
    os.chdir(ROOT)
    shutil.rmtree(scratch, ignore_errors=True)
    print("%d blocks: %d run, %d values checked, %d skipped, %d text" % (
        total, ran, checked, skipped, text))


if __name__ == "__main__":
    main()
