#!/usr/bin/env bash
# Everything bench/transpose does on the GPU machine, in one go (run from
# the repository root after bench/transpose/build-kernels.sh made
# bench/transpose/out here; the device tool carries bench/transpose/out).
# Logs go to ${OUT:-/tmp/transpose-logs}.
set -u
log="${OUT:-/tmp/transpose-logs}"
mkdir -p "$log"
cd bench/transpose
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm \
  --format=csv,noheader | tee "$log/device.txt"
nvcc -O3 -arch=sm_90 -o /tmp/harness harness.cu -lcuda || exit 1
/tmp/harness out 2>&1 | tee "$log/bench.txt"
# The same tile program compiled and launched from Python (issue 20).
python3 python-launch.py out 2>&1 | tee "$log/python.txt"
if command -v ncu >/dev/null; then
  m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  m=$m,smsp__inst_executed_op_shared_ld.sum
  m=$m,smsp__inst_executed_op_shared_st.sum,gpu__time_duration.sum
  timeout 300 ncu --metrics "$m" -k regex:'tile_|skew' /tmp/harness out ncu \
    2>&1 | tee "$log/ncu.txt" | grep -E '^  [a-z_]+.*\(|bank|wavefronts|inst_executed|duration' | head -150
fi
