#!/usr/bin/env bash
# Everything bench/gemm does on the GPU machine, in one go (run from the
# repository root after bench/gemm/build-kernels.sh made bench/gemm/out here;
# the device tool carries bench/gemm/out). Logs go to ${OUT:-/tmp/gemm-logs}.
set -u
log="${OUT:-/tmp/gemm-logs}"
mkdir -p "$log"
out=bench/gemm/out
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm \
  --format=csv,noheader
nvidia-smi | head -12
nvcc --version | tail -2
nvcc -O3 -arch=sm_90 -o /tmp/h bench/gemm/harness.cu -lcuda -lcublas || exit 1
command -v cuobjdump >/dev/null && cuobjdump -sass "$out/matmul.sm_90.cubin" \
  >"$log/sass.txt"

# The benchmark: all kernels, all shapes. rc 3: some check failed (the table
# is complete); any other: a CUDA error lost the context (or the harness
# crashed), so run the kernels one by one to get the rest.
/tmp/h "$out" bench 2>&1 | tee "$log/bench.txt"
rc=${PIPESTATUS[0]}
echo "harness rc=$rc"
if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
  for k in gemm_f16 gemm_f16_t128 gemm_f16_t128_g8 gemm_f16_t128_k64 gemm_f16_64 \
    gemm_f16_bias_relu; do
    /tmp/h "$out" bench "$k" 2>&1 | tee -a "$log/bench-per-kernel.txt"
  done
fi

# Small odd shapes, correctness only, and memcheck on one of them.
for s in 64x64x32 129x130x33 259x261x67 1x1x1; do
  timeout 60 /tmp/h "$out" check "$s" 2>&1 | grep -v '^gemm_f16.*registers' \
    | tee -a "$log/check-small.txt"
done
if command -v compute-sanitizer >/dev/null; then
  # API errors are not reported: the harness looks up each kernel's
  # <kernel>_dynamic_shared_bytes, which only kernels above the static
  # shared-memory limit export (the others' lookups fail by design).
  timeout 120 compute-sanitizer --tool memcheck --report-api-errors no \
    --print-limit 10 \
    /tmp/h "$out" check 259x261x67 2>&1 | tail -40 | tee "$log/memcheck.txt"
fi

# Shared-memory counters, one launch of each generated kernel at 4096^3.
if command -v ncu >/dev/null; then
  m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  m=$m,smsp__inst_executed_op_shared_ld.sum
  m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  m=$m,smsp__inst_executed_op_shared_st.sum
  m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  m=$m,gpu__time_duration.sum
  timeout 200 ncu --metrics "$m" -k regex:gemm_f16 /tmp/h "$out" ncu 2>&1 \
    | tee "$log/ncu.txt"
else
  echo "ncu not found"
fi

# Which kernels cuBLAS runs (names and times) at an aligned and the odd shape.
if command -v ncu >/dev/null; then
  for s in 4096x4096x4096 4095x4097x4099; do
    timeout 120 ncu --metrics gpu__time_duration.sum /tmp/h "$out" check "$s" \
      gemm_f16_bias_relu 2>&1 | grep -E '^  [A-Za-z_].*\(|duration' \
      | tee -a "$log/ncu-cublas-kernels.txt"
  done
fi
