"""Building IR from Python: the layout dialect and enough of arith, scf,
vector, gpu, func and memref to write kernels.

    import layout_opt as lo
    from layout_opt import ir

    m = lo.Module()
    with ir.InsertionPoint(m.body):
        f = ir.func.func("f", ir.function_type(["index"] * 2, ["index"]))
    entry = f.regions[0].add_block([ir.Type.parse("index")] * 2)
    with ir.InsertionPoint(entry):
        i, j = entry.arguments
        d = ir.layout.packed([4, 8], result="!layout.desc<4x8>")
        ir.func.return_([ir.layout.offset(d, [i, j])])
    print(m)

Each dialect's builders (ir.layout.naive, ir.arith.addi, ir.scf.for_, ...)
are generated from its ODS definitions when the package is built
(scripts/gen-python-builders.py): their parameters are the op's ODS
arguments, converted from Python values by their ODS kinds. Every
operation is verified by its dialect's verifier as it is built (an
operation with regions when the `with` of its body ends): a bad parameter
raises ValueError with the verifier's message. Types and attributes are
ir.Type / ir.Attribute, or their text (parsed and checked by the dialect);
a layout_opt.Transform is accepted where a transform attribute goes.
"""

from ._layout_opt import Attribute, Block, Operation, Region, Type, Value
from ._ir_runtime import InsertionPoint, current_block
from . import _ops_arith as arith
from . import _ops_func as func
from . import _ops_gpu as gpu
from . import _ops_layout as layout
from . import _ops_math as math
from . import _ops_memref as memref
from . import _ops_scf as scf
from . import _ops_vector as vector


def function_type(inputs, results):
    """The TypeAttr of a function type from its input and result types
    (Types or their text)."""
    return Attribute.parse("(%s) -> (%s)" % (", ".join(map(str, inputs)),
                                            ", ".join(map(str, results))))


__all__ = [
    "Attribute", "Block", "InsertionPoint", "Operation", "Region", "Type",
    "Value", "arith", "current_block", "func", "function_type", "gpu",
    "layout", "math", "memref", "scf", "vector",
]
