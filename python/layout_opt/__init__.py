"""layout-opt from Python: build layouts, check them on NumPy arrays, compile.

    import layout_opt as lo
    d = lo.packed([2, 6]).transform([(lo.pass_through(2), [0], [0]),
                                     (lo.unmerge([2, 3]), [1], [1, 2])])
    d.offset([1, 1, 2])              # 11
    print(d)                         # the descriptor as layout dialect IR

Transforms, descriptors and their evaluation come from the C++ evaluator
(the same code the compiler's folders use). Views and partitions evaluate
tile loads and stores on NumPy arrays, so a layout can be checked before it
is compiled. Modules parse, build, run pipelines and compile to GPU code
objects; `layout_opt.cuda` runs the compiled kernels on an NVIDIA GPU.
Errors raise: ValueError for bad arguments, MLIRError (a RuntimeError) with
the diagnostics' text for IR that does not parse, verify or lower.
"""

import importlib as _importlib

from ._version import __version__  # noqa: F401

try:
    _importlib.import_module(__name__ + "._layout_opt")
except ImportError as e:
    # Where the compiler extension cannot be imported (its LLVM libraries
    # missing, another Python), the package still runs saved kernels:
    # layout_opt.cuda needs ctypes and NumPy only.
    _EXTENSION_ERROR = "%s: %s" % (type(e).__name__, e)
else:
    _EXTENSION_ERROR = None

if _EXTENSION_ERROR is None:
    from ._api import *  # noqa: F401,F403
    from ._api import __all__  # noqa: F401
else:
    from . import cuda  # noqa: F401
    __all__ = ["cuda"]

    def __getattr__(name):
        raise AttributeError(
            "layout_opt.%s needs the compiler extension, which cannot be "
            "imported here (%s); this install runs saved kernels only "
            "(layout_opt.cuda.load)" % (name, _EXTENSION_ERROR))
