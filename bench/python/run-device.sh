#!/usr/bin/env bash
# bench/python on the GPU machine, in one go (from the repository root, with
# bench/python/out carried from build.sh): launch overhead against Triton
# and a C++ loop, the kernels on torch tensors and CuPy arrays with a CUDA
# graph, and the torch.library operators. Logs go to ${OUT:-/tmp/python-logs};
# the exit status is the first failing step's (0: all passed).
set -u
out="${1:-bench/python/out}"
log="${OUT:-/tmp/python-logs}"
mkdir -p "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  | tee "$log/device.txt"
status=0
python3 bench/python/torch_tensors.py run "$out" 2>&1 | tee "$log/torch_tensors.txt"
s=${PIPESTATUS[0]}; [ "$status" -ne 0 ] || status=$s
python3 bench/python/launch_overhead.py run "$out" 2>&1 | tee "$log/launch_overhead.txt"
s=${PIPESTATUS[0]}; [ "$status" -ne 0 ] || status=$s
python3 examples/torch_ops.py run "$out" 2>&1 | tee "$log/torch_ops.txt"
s=${PIPESTATUS[0]}; [ "$status" -ne 0 ] || status=$s
echo "bench/python: exit status $status"
exit "$status"
