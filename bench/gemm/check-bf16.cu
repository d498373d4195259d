// bench/gemm/check-bf16.cu: runs examples/matmul.mlir's gemm_bf16 (bf16 A
// and B, f32 C; on sm_90 its mma.sync is rewritten to nvvm.mma.sync with
// i32-packed bf16 operands) on odd shapes and compares every element of C
// with a host matmul in double precision of the same bf16 inputs.
//   nvcc -O3 -arch=sm_90 -o /tmp/cb bench/gemm/check-bf16.cu -lcuda
//   /tmp/cb bench/gemm/out     # prints one line per shape, FAIL on error

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static void check(CUresult e, const char *what) {
  if (e == CUDA_SUCCESS)
    return;
  const char *s = "?";
  cuGetErrorString(e, &s);
  printf("FAIL: %s: %s\n", what, s);
  exit(1);
}

// A 2-D memref descriptor: allocated, aligned, offset, sizes, strides.
struct Desc {
  void *alloc, *aligned;
  int64_t offset, size0, size1, stride0, stride1;
};

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "bench/gemm/out";
  cudaFree(nullptr);
  CUmodule mod;
  check(cuModuleLoad(&mod, (dir + "/matmul.sm_90.cubin").c_str()), "load");
  CUfunction fn;
  check(cuModuleGetFunction(&fn, mod, "gemm_bf16"), "gemm_bf16");
  int shapes[][3] = {
      {67, 45, 33}, {130, 70, 200}, {259, 261, 67}, {512, 512, 512}};
  int failures = 0;
  for (auto &s : shapes) {
    int M = s[0], N = s[1], K = s[2];
    std::vector<__nv_bfloat16> a(size_t(M) * K), b(size_t(K) * N);
    uint64_t x = 12345;
    auto next = [&] {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return float((x >> 40) % 17) / 4.0f - 2.0f; // exact in bf16
    };
    for (auto &v : a)
      v = __float2bfloat16(next());
    for (auto &v : b)
      v = __float2bfloat16(next());
    void *da, *db, *dc;
    cudaMalloc(&da, a.size() * 2);
    cudaMalloc(&db, b.size() * 2);
    cudaMalloc(&dc, size_t(M) * N * 4);
    cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    cudaMemset(dc, 0xff, size_t(M) * N * 4); // NaN: unwritten shows
    Desc A{da, da, 0, M, K, K, 1}, B{db, db, 0, K, N, N, 1},
        C{dc, dc, 0, M, N, N, 1};
    std::vector<void *> args;
    for (Desc *d : {&A, &B, &C})
      for (void *p : {(void *)&d->alloc, (void *)&d->aligned,
                      (void *)&d->offset, (void *)&d->size0, (void *)&d->size1,
                      (void *)&d->stride0, (void *)&d->stride1})
        args.push_back(p);
    check(cuLaunchKernel(fn, (N + 127) / 128, (M + 127) / 128, 1, 256, 1, 1, 0,
                         nullptr, args.data(), nullptr),
          "launch");
    check(cuCtxSynchronize(), "sync");
    std::vector<float> c(size_t(M) * N);
    cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost);
    int64_t bad = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = 0;
        for (int k = 0; k < K; ++k)
          want += double(__bfloat162float(a[size_t(i) * K + k])) *
                  double(__bfloat162float(b[size_t(k) * N + j]));
        bad += !(c[size_t(i) * N + j] == float(want)); // exact: small values
      }
    printf("gemm_bf16 %dx%dx%d: %lld mismatches of %d\n", M, N, K,
           (long long)bad, M * N);
    failures += bad != 0;
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
  }
  printf(failures ? "FAIL\n" : "ALL CHECKS PASSED\n");
  return failures ? 3 : 0;
}
