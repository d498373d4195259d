// bench/common/timing.h: the CUDA-event timer the H100 harnesses share
// (bench/transpose, bench/gemm): the median of repeated launches after
// warm-ups.

#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace bench {

/// Exits with the error (and a FAIL line on stdout) when `e` is one.
inline void checkCuda(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return;
  fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  printf("FAIL: CUDA error %s in %s\n", cudaGetErrorString(e), what);
  exit(1);
}

struct Timer {
  cudaEvent_t a, b;
  Timer() {
    checkCuda(cudaEventCreate(&a), "cudaEventCreate");
    checkCuda(cudaEventCreate(&b), "cudaEventCreate");
  }
  /// Median milliseconds of `runs` calls after `warm` warm-ups, each call
  /// alone between two events.
  float median(const std::function<void()> &fn, int warm = 3, int runs = 20) {
    return batchedMedian(fn, warm, runs, 1);
  }
  /// Median milliseconds per launch of `runs` batches of `batch` calls
  /// back to back between two events, after `warm` warm-ups: the GPU's
  /// time per kernel without the gap of one launch's host overhead, which
  /// `median` counts (a few microseconds from C++, more from Python; the
  /// way to compare kernels of some tens of microseconds launched from
  /// different hosts, e.g. bench/conv against PyTorch's CUDA graphs).
  float batchedMedian(const std::function<void()> &fn, int warm = 5,
                      int runs = 10, int batch = 20) {
    for (int i = 0; i < warm; ++i)
      fn();
    checkCuda(cudaDeviceSynchronize(), "warm-up");
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
      checkCuda(cudaEventRecord(a), "cudaEventRecord");
      for (int j = 0; j < batch; ++j)
        fn();
      checkCuda(cudaEventRecord(b), "cudaEventRecord");
      checkCuda(cudaEventSynchronize(b), "timed launches");
      float t;
      checkCuda(cudaEventElapsedTime(&t, a, b), "cudaEventElapsedTime");
      ms.push_back(t / batch);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

} // namespace bench
