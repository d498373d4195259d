"""Compiled kernels as files: CodeObject, its save / load, and the compile
cache.

A saved code object is one JSON file: the format's name and version, the
package version that wrote it, the kernel's symbol, target, chip, binary
format, resources, its Signature (parameters, block, grid partition; None
for a kernel without one) and the binary (base64). Loading it needs only
the standard library and NumPy, so `layout_opt.cuda.load` works where the
compiler extension cannot be imported.

The compile cache keeps the same files in a directory: `LAYOUT_OPT_CACHE_DIR`
when set (an empty value turns the cache off), else ~/.cache/layout_opt.
An entry is named by the SHA-256 of what decides the binary: the traced
IR's text, the chip, the target and format, the kernel's Signature (which
partition is the grid: not in the IR), the package version and the
compiler extension's own bytes (a rebuilt compiler is a new key). A second
process compiling the same kernel reads the entry instead. Entries are
written to a temporary name and renamed, so a reader never sees half of
one; an entry that does not read back is compiled again and replaced,
with a warning saying so. Nothing is evicted: removing the directory
empties the cache.
"""

import base64 as _base64
import hashlib as _hashlib
import json as _json
import os as _os
import tempfile as _tempfile
import warnings as _warnings

FORMAT = "layout_opt code object"
FORMAT_VERSION = 1


def _package_version():
    try:
        from ._version import __version__
    except ImportError:  # the source tree, before a build generates it
        return "unbuilt"
    return __version__


class CodeObject:
    """A compiled kernel: `binary` (bytes: an AMDGPU code object, a cubin,
    or PTX / assembly text with format="isa"), `target`, `chip`, `format`,
    `kernel` (its symbol), `resources` (the kernel's resource use read
    from the code object; see layout_opt.code_object_resources) and
    `signature` (its parameters, block and grid, for launching by call;
    None where unknown). `save(path)` writes it; layout_opt.cuda.load
    reads it back as a launcher."""

    def __init__(self, binary, target, chip, kernel, resources=None,
                 signature=None, format="bin"):
        self.binary = bytes(binary)
        self.target = target
        self.chip = chip
        self.kernel = kernel
        self.resources = dict(resources or {})
        self.signature = signature
        self.format = format

    def __repr__(self):
        return "CodeObject(%s %s, %d bytes, %s)" % (
            self.kernel, self.chip, len(self.binary), self.resources)

    def to_json(self):
        """The file's text (see the module's docstring)."""
        return _json.dumps({
            "format": FORMAT, "version": FORMAT_VERSION,
            "package_version": _package_version(), "kernel": self.kernel,
            "target": self.target, "chip": self.chip,
            "binary_format": self.format, "resources": self.resources,
            "signature": None if self.signature is None
            else self.signature.to_dict(),
            "binary": _base64.b64encode(self.binary).decode()})

    def save(self, path):
        """Writes the code object to `path` (atomically: a temporary file
        renamed); returns `path`."""
        _write_atomically(path, self.to_json())
        return path


def code_object_from_json(text, where):
    """The CodeObject of to_json's text; ValueError naming `where` (the
    file) for anything else."""
    from ._launch import Signature
    try:
        d = _json.loads(text)
    except ValueError as e:
        raise ValueError("%s is not a saved code object: %s" % (where, e)) \
            from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError("%s is not a saved code object (no '%s' format "
                         "field)" % (where, FORMAT))
    if d.get("version") != FORMAT_VERSION:
        raise ValueError("%s is a code object of format version %r; this "
                         "layout_opt reads version %d"
                         % (where, d.get("version"), FORMAT_VERSION))
    try:
        signature = d["signature"] and Signature.from_dict(d["signature"])
        return CodeObject(_base64.b64decode(d["binary"], validate=True),
                          d["target"], d["chip"], d["kernel"],
                          d["resources"], signature, d["binary_format"])
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError("%s: a malformed code object (%s: %s)"
                         % (where, type(e).__name__, e)) from None


def load_code_object(path):
    """The CodeObject saved at `path`."""
    with open(path, "r") as f:
        return code_object_from_json(f.read(), path)


def _write_atomically(path, text):
    directory = _os.path.dirname(_os.path.abspath(path))
    fd, tmp = _tempfile.mkstemp(dir=directory, prefix=".tmp-",
                                suffix=".json")
    try:
        with _os.fdopen(fd, "w") as f:
            f.write(text)
        # mkstemp makes the file private; saved kernels are ordinary files.
        umask = _os.umask(0)
        _os.umask(umask)
        _os.chmod(tmp, 0o666 & ~umask)
        _os.replace(tmp, path)
    except BaseException:
        if _os.path.exists(tmp):
            _os.unlink(tmp)
        raise


def cache_dir():
    """The compile cache's directory (None: the cache is off)."""
    d = _os.environ.get("LAYOUT_OPT_CACHE_DIR")
    if d is not None:
        return d or None
    return _os.path.join(_os.path.expanduser("~"), ".cache", "layout_opt")


_compiler_digest = None


def _compiler_identity():
    """The SHA-256 of the compiler extension's file (once per process)."""
    global _compiler_digest
    if _compiler_digest is None:
        from . import _layout_opt
        with open(_layout_opt.__file__, "rb") as f:
            _compiler_digest = _hashlib.sha256(f.read()).hexdigest()
    return _compiler_digest


def cache_key(ir_text, chip, target, format, signature):
    """The cache entry name of a compile: the SHA-256 of its inputs and of
    the Signature the entry carries (its grid partition and parameter
    names are not in the IR)."""
    parts = [FORMAT_VERSION, _package_version(), _compiler_identity(),
             target, chip, format, signature.to_dict(), ir_text]
    return _hashlib.sha256(_json.dumps(parts).encode()).hexdigest()


def cached_compile(key, compile_fn):
    """The CodeObject of cache entry `key`, or compile_fn()'s, stored under
    `key` (when the cache is on)."""
    directory = cache_dir()
    if directory is None:
        return compile_fn()
    path = _os.path.join(directory, key + ".json")
    if _os.path.exists(path):
        try:
            return load_code_object(path)
        except (OSError, ValueError) as e:
            _warnings.warn("layout_opt compile cache: %s does not read back "
                           "(%s); compiling again" % (path, e))
    code = compile_fn()
    try:
        _os.makedirs(directory, exist_ok=True)
        code.save(path)
    except OSError as e:
        _warnings.warn("layout_opt compile cache: cannot write %s (%s); "
                       "set LAYOUT_OPT_CACHE_DIR to a writable directory, or "
                       "to an empty value to turn the cache off" % (path, e))
    return code
