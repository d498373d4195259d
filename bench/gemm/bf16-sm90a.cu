// bench/gemm/bf16-sm90a.cu: issue 39's "bf16 within 5% of f16" on sm_90a.
// Runs bench/gemm/matmul-wgmma.mlir's gemm_bf16_wg256 and gemm_f16_wg256
// (TMA, wgmma; their tensor maps encoded by include/layout/Runtime) and
// cuBLAS (cublasGemmEx, same types, f32 compute) on the same values (small
// multiples of 1/4, exact in both types, so every sum is exact in f32 and
// every C element must equal cuBLAS's bit for bit), and times each.
//   nvcc -O3 -arch=sm_90 -I include -o /tmp/bf bench/gemm/bf16-sm90a.cu \
//     -lcuda -lcublas
//   /tmp/bf bench/gemm/out-wgmma
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../common/timing.h"
#include "layout/Runtime/TensorMaps.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace rt = mlir::layout::runtime;

static void check(bool ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    exit(1);
  }
}

struct Desc {
  void *alloc, *aligned;
  int64_t offset, size0, size1, stride0, stride1;
};

// Runs `name` (128x256 tiles, 256 threads) on A (M x K), B (K x N) into C:
// the median ms of `runs` timed launches after 3 warm-ups
// (bench/common/timing.h).
static float runKernel(CUmodule mod, const char *name, void *a, void *b,
                       void *c, int M, int N, int K, int runs) {
  CUfunction fn;
  check(cuModuleGetFunction(&fn, mod, name) == CUDA_SUCCESS, name);
  CUdeviceptr sizeAt;
  size_t sizeBytes;
  unsigned smem = 0;
  std::string sizeName = std::string(name) + "_dynamic_shared_bytes";
  if (cuModuleGetGlobal(&sizeAt, &sizeBytes, mod, sizeName.c_str()) ==
      CUDA_SUCCESS)
    cuMemcpyDtoH(&smem, sizeAt, sizeof(unsigned));
  cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  std::vector<rt::TensorMapSpec> specs;
  std::string e = rt::readTensorMapSpecs(mod, name, specs);
  check(e.empty(), e.c_str());
  Desc d[3] = {
      {a, a, 0, M, K, K, 1}, {b, b, 0, K, N, N, 1}, {c, c, 0, M, N, N, 1}};
  std::vector<void *> params;
  std::vector<rt::MemRefArgument> views(3);
  std::vector<const rt::MemRefArgument *> memrefs(3);
  for (int i = 0; i < 3; ++i) {
    for (void *p :
         {(void *)&d[i].alloc, (void *)&d[i].aligned, (void *)&d[i].offset,
          (void *)&d[i].size0, (void *)&d[i].size1, (void *)&d[i].stride0,
          (void *)&d[i].stride1})
      params.push_back(p);
    views[i] = {uint64_t(d[i].aligned),
                0,
                {d[i].size0, d[i].size1},
                {d[i].stride0, d[i].stride1}};
    memrefs[i] = &views[i];
  }
  std::vector<CUtensorMap> maps;
  e = rt::encodeTensorMaps(specs, memrefs, maps);
  check(e.empty(), e.c_str());
  for (CUtensorMap &m : maps)
    params.push_back(&m);
  auto launch = [&] {
    check(cuLaunchKernel(fn, (N + 255) / 256, (M + 127) / 128, 1, 256, 1, 1,
                         smem, nullptr, params.data(), nullptr) == CUDA_SUCCESS,
          "launch");
  };
  return bench::Timer().median(launch, 3, runs);
}

// cuBLAS on row-major A, B: C^T = B^T A^T in its column-major terms.
static float runCublas(cublasHandle_t h, cudaDataType t, void *a, void *b,
                       void *c, int M, int N, int K, int runs) {
  float one = 1, zero = 0;
  auto call = [&] {
    check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, t, N, a,
                       t, K, &zero, c, t, N, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
          "cublasGemmEx");
  };
  return bench::Timer().median(call, 3, runs);
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "bench/gemm/out-wgmma";
  cudaFree(nullptr);
  CUmodule mod;
  check(cuModuleLoad(&mod, (dir + "/matmul.sm_90a.cubin").c_str()) ==
            CUDA_SUCCESS,
        "load the cubin");
  cublasHandle_t h;
  cublasCreate(&h);
  int failures = 0;
  printf("| kernel | M x N x K | ms | TFLOPS | C vs cuBLAS |\n| --- | --- | "
         "--- | --- | --- |\n");
  for (int n : {4096, 8192}) {
    int M = n, N = n, K = n;
    size_t na = size_t(M) * K, nb = size_t(K) * N, nc = size_t(M) * N;
    std::vector<float> fa(na), fb(nb);
    uint64_t x = 12345;
    auto next = [&] {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return float((x >> 40) % 17) / 4.0f - 2.0f;
    };
    for (float &v : fa)
      v = next();
    for (float &v : fb)
      v = next();
    for (int bf = 0; bf < 2; ++bf) {
      std::vector<uint16_t> ha(na), hb(nb);
      for (size_t i = 0; i < na; ++i) {
        if (bf) {
          __nv_bfloat16 v = __float2bfloat16(fa[i]);
          memcpy(&ha[i], &v, 2);
        } else {
          __half v = __float2half(fa[i]);
          memcpy(&ha[i], &v, 2);
        }
      }
      for (size_t i = 0; i < nb; ++i) {
        if (bf) {
          __nv_bfloat16 v = __float2bfloat16(fb[i]);
          memcpy(&hb[i], &v, 2);
        } else {
          __half v = __float2half(fb[i]);
          memcpy(&hb[i], &v, 2);
        }
      }
      void *a, *b, *c, *r;
      cudaMalloc(&a, na * 2);
      cudaMalloc(&b, nb * 2);
      cudaMalloc(&c, nc * 2);
      cudaMalloc(&r, nc * 2);
      cudaMemcpy(a, ha.data(), na * 2, cudaMemcpyHostToDevice);
      cudaMemcpy(b, hb.data(), nb * 2, cudaMemcpyHostToDevice);
      const char *name = bf ? "gemm_bf16_wg256" : "gemm_f16_wg256";
      float kms = runKernel(mod, name, a, b, c, M, N, K, 20);
      float cms =
          runCublas(h, bf ? CUDA_R_16BF : CUDA_R_16F, a, b, r, M, N, K, 20);
      check(cudaDeviceSynchronize() == cudaSuccess, "sync");
      std::vector<uint16_t> hc(nc), hr(nc);
      cudaMemcpy(hc.data(), c, nc * 2, cudaMemcpyDeviceToHost);
      cudaMemcpy(hr.data(), r, nc * 2, cudaMemcpyDeviceToHost);
      size_t diff = 0;
      for (size_t i = 0; i < nc; ++i)
        diff += hc[i] != hr[i];
      double flops = 2.0 * M * N * K;
      printf("| cuBLAS %s | %dx%dx%d | %.3f | %.1f | reference |\n",
             bf ? "bf16" : "f16", M, N, K, cms, flops / cms / 1e9);
      printf("| layout-opt %s | %dx%dx%d | %.3f | %.1f | %zu of %zu "
             "differ |\n",
             name, M, N, K, kms, flops / kms / 1e9, diff, nc);
      failures += diff != 0;
      cudaFree(a);
      cudaFree(b);
      cudaFree(c);
      cudaFree(r);
    }
  }
  printf(failures ? "FAIL\n" : "ALL CHECKS PASSED\n");
  return failures ? 3 : 0;
}
