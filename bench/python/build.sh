#!/usr/bin/env bash
# Everything bench/python needs from the compiler, here (the GPU machine has
# no MLIR): the saved kernels and the package's Python files in
# ${1:-bench/python/out}, for run-device.sh. Run from the repository root
# after scripts/build.sh.
set -euo pipefail
out="${1:-bench/python/out}"
py=/usr/bin/python3
"$py" bench/python/launch_overhead.py build "$out"
"$py" bench/python/torch_tensors.py build "$out"
PYTHONPATH=build/python "$py" examples/torch_ops.py build "$out"
