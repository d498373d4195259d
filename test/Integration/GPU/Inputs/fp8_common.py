"""What the FP8 CPU tests' generators (matmul_fp8_out.py,
matmul_fp8_block_scaled.py) share: MLIR dense literals and the host helper
that copies a global's bytes into a memref of an 8-bit float type."""


def mlir_array(rows, fmt):
    """A 2-D dense literal of `rows`, each element written by `fmt`."""
    return "[" + ", ".join("[" + ", ".join(fmt(x) for x in r) + "]"
                           for r in rows) + "]"


def signed_byte(code):
    """An unsigned byte as the i8 literal of the same bits."""
    return str(code - 256 if code > 127 else code)


def bytes_helper(name, type_):
    """func.func @NAME(memref<?x?xi8>) -> memref<?x?xTYPE>: the bytes copied
    into a new memref of the 8-bit float type."""
    return f"""/// Copies the bytes of a global into a new memref of {type_}.
func.func @{name}(%g: memref<?x?xi8>) -> memref<?x?x{type_}> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %g, %c0 : memref<?x?xi8>
  %c = memref.dim %g, %c1 : memref<?x?xi8>
  %m = memref.alloc(%r, %c) : memref<?x?x{type_}>
  scf.for %i = %c0 to %r step %c1 {{
    scf.for %j = %c0 to %c step %c1 {{
      %x = memref.load %g[%i, %j] : memref<?x?xi8>
      %v = arith.bitcast %x : i8 to {type_}
      memref.store %v, %m[%i, %j] : memref<?x?x{type_}>
    }}
  }}
  return %m : memref<?x?x{type_}>
}}"""
