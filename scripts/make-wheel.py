"""Builds a wheel of the layout_opt package from the build tree, with the
standard library only (no setuptools, no network): the package directory
(its Python sources and the compiled _layout_opt extension) plus the
.dist-info that pip reads (METADATA with the version and the NumPy
dependency, WHEEL with the tags of the Python that runs this script,
RECORD with every file's sha256).

    python3 scripts/make-wheel.py --package-dir build/python/layout_opt \
        --version 0.4.0 --out build/dist

The extension links Debian's libMLIR.so (llvm-22), so the wheel installs on
machines with the Debian packages of scripts/install-deps.sh; docs/python.md
says how to install it into a virtual environment.
"""

import argparse
import base64
import hashlib
import os
import sys
import sysconfig
import zipfile

NAME = "layout_opt"
DIST = "layout-opt"


def digest(data):
    h = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(h).rstrip(b"=").decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package-dir", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    impl = "cp%d%d" % sys.version_info[:2]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    tag = "%s-%s-%s" % (impl, impl, plat)
    wheel = os.path.join(args.out, "%s-%s-%s.whl" % (NAME, args.version, tag))
    info = "%s-%s.dist-info" % (NAME, args.version)

    files = []
    for entry in sorted(os.listdir(args.package_dir)):
        path = os.path.join(args.package_dir, entry)
        if os.path.isfile(path) and (entry.endswith(".py") or
                                     entry.endswith(".so")):
            with open(path, "rb") as f:
                files.append(("%s/%s" % (NAME, entry), f.read()))
    if not any(n.endswith(".so") for n, _ in files):
        sys.exit("make-wheel: no compiled extension in " + args.package_dir)

    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: " + DIST,
        "Version: " + args.version,
        "Summary: GPU data layouts as an MLIR compiler layer: descriptors, "
        "the layout algebra, NumPy views, compilation to GPU code objects",
        "License: Apache-2.0 WITH LLVM-exception",
        "Requires-Python: >=3.9",
        "Requires-Dist: numpy",
        "",
        "The Python package of layout-opt (docs/python.md).",
        "",
    ]).encode()
    wheel_meta = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: layout-opt scripts/make-wheel.py",
        "Root-Is-Purelib: false",
        "Tag: " + tag,
        "",
    ]).encode()
    files.append((info + "/METADATA", metadata))
    files.append((info + "/WHEEL", wheel_meta))
    files.append((info + "/top_level.txt", (NAME + "\n").encode()))
    record = "".join("%s,%s,%d\n" % (n, digest(d), len(d)) for n, d in files)
    record += info + "/RECORD,,\n"
    files.append((info + "/RECORD", record.encode()))

    os.makedirs(args.out, exist_ok=True)
    tmp = wheel + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files:
            z.writestr(n, d)
    os.replace(tmp, wheel)
    print(wheel)


if __name__ == "__main__":
    main()
