#!/usr/bin/env bash
# Everything bench/conv does on the GPU machine (run from the repository
# root after bench/conv/build-kernels.sh [sm_90a]; the device tool carries
# bench/conv/out and bench/conv/out-sm90a). Builds the harness with cuDNN
# when the machine has it; PyTorch's conv2d (torch_conv.py) in the same run.
# Logs go to ${OUT:-/tmp/conv-logs}.
set -u
log="${OUT:-/tmp/conv-logs}"
mkdir -p "$log"
out=bench/conv/out
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm \
  --format=csv,noheader
nvcc --version | tail -2
dnn=()
for d in /usr/include /usr/local/cuda/include /usr/include/x86_64-linux-gnu; do
  if [ -f "$d/cudnn.h" ]; then
    dnn=(-DHAVE_CUDNN -lcudnn)
    echo "cuDNN header: $d/cudnn.h"
    break
  fi
done
[ ${#dnn[@]} = 0 ] && echo "cuDNN: no cudnn.h on this machine"
nvcc -O3 -arch=sm_90 -o /tmp/ch bench/conv/harness.cu -lcuda "${dnn[@]}" \
  || exit 1
/tmp/ch "$out" 2>"$log/harness-stderr.txt" | tee "$log/bench.txt"
rc=${PIPESTATUS[0]}
echo "harness rc=$rc"
cat "$log/harness-stderr.txt"
# sm_90a (build-kernels.sh sm_90a; carry bench/conv/out-sm90a too) and
# PyTorch's conv2d in the same run.
if [ -f bench/conv/out-sm90a/conv.sm_90a.cubin ]; then
  CONV_CHIP=sm_90a /tmp/ch bench/conv/out-sm90a \
    2>"$log/harness-sm90a-stderr.txt" | tee "$log/bench-sm90a.txt"
  echo "harness sm_90a rc=${PIPESTATUS[0]}"
fi
python3 bench/conv/torch_conv.py "$out" | tee "$log/torch.txt"
if command -v compute-sanitizer >/dev/null; then
  timeout 300 compute-sanitizer --tool memcheck --report-api-errors no \
    --print-limit 10 /tmp/ch "$out" r50_3x3_7 2>&1 | tail -15 \
    | tee "$log/memcheck.txt"
fi

# Shared-memory bank conflicts of the generated kernels (one layer).
if command -v ncu >/dev/null; then
  m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  m=$m,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_ldgsts.sum
  m=$m,gpu__time_duration.sum
  timeout 200 ncu --metrics "$m" -k regex:r50_ /tmp/ch "$out" r50_3x3_28 \
    2>&1 | grep -E "r50_|bank|inst_executed|duration" | tee "$log/ncu.txt"
fi
