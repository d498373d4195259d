"""Runs the Python code blocks of a Markdown file and checks the values they
show: docs that run.

The ```python blocks of the file run in order as one program (a block may
use what an earlier one defined), in a scratch directory where `examples/`
is the repository's. A line `EXPR  # VALUE` whose VALUE is a Python literal
is checked: EXPR must equal VALUE (NumPy arrays element by element, NaN
equal to NaN). Other comments are prose. Prints "N blocks, M values
checked" and exits non-zero on the first failure, naming the block's line.

    python3 scripts/run-doc-blocks.py docs/python.md
"""

import ast
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def blocks(path):
    """(first line number, source) of each ```python block."""
    out, cur, start = [], None, 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if cur is None and line.strip() == "```python":
                cur, start = [], n + 1
            elif cur is not None and line.strip() == "```":
                out.append((start, "".join(cur)))
                cur = None
            elif cur is not None:
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


def main():
    path = os.path.abspath(sys.argv[1])
    found = blocks(path)
    scratch = tempfile.mkdtemp(prefix="doc-blocks-")
    os.symlink(os.path.join(ROOT, "examples"), os.path.join(scratch, "examples"))
    os.chdir(scratch)
    env, checked = {"__name__": "__doc__"}, 0
    for start, source in found:
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
                    got = eval(compile(ast.Expression(stmt.value), where,
                                       "eval"), env)
                    if not equal(got, *shown):
                        sys.exit("%s: %s is %r, the doc shows %r" % (
                            where, ast.get_source_segment(source, stmt),
                            got, shown[0]))
                    checked += 1
                else:
                    exec(compile(ast.Module([stmt], []), where, "exec"), env)
            except SystemExit:
                raise
            except Exception as e:  # noqa: BLE001
                sys.exit("%s: %s: %s" % (where, type(e).__name__, e))
    print("%d blocks, %d values checked" % (len(found), checked))


if __name__ == "__main__":
    main()
