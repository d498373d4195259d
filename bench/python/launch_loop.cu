// The C++ floor of bench/python/launch_overhead.py: the one-tile transpose
// that the Python script launches (the same cubin), launched with
// cuLaunchKernel in a loop, timed the way the script times its launchers:
//   - back to back: N launches, then cuCtxSynchronize; wall time / N;
//   - call to return: each cuLaunchKernel call timed alone (steady_clock),
//     the context synchronized every 256 calls (outside the timed calls)
//     so the launch queue never fills; the median.
// Every element of the result is checked against the transpose.
//
//   nvcc -O2 -o /tmp/launch_loop bench/python/launch_loop.cu -lcuda
//   /tmp/launch_loop OUT/tile_transpose_f32.sm_90.cubin [N]
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

static void check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "%s failed: %s\n", what, name ? name : "?");
  std::exit(1);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CUBIN [N]\n", argv[0]);
    return 2;
  }
  int n = argc > 2 ? std::atoi(argv[2]) : 20000;
  std::ifstream file(argv[1], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(file)), {});
  if (image.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  check(cuInit(0), "cuInit");
  CUdevice device;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  CUmodule module;
  check(cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
  CUfunction fn;
  check(cuModuleGetFunction(&fn, module, "tile_transpose_f32"),
        "cuModuleGetFunction");

  const int64_t m = 64;
  std::vector<float> host(m * m), back(m * m);
  for (int64_t i = 0; i < m * m; ++i)
    host[i] = float(i);
  CUdeviceptr in, out;
  check(cuMemAlloc(&in, m * m * 4), "cuMemAlloc");
  check(cuMemAlloc(&out, m * m * 4), "cuMemAlloc");
  check(cuMemcpyHtoD(in, host.data(), m * m * 4), "cuMemcpyHtoD");
  // Two memref<?x?xf32> descriptors: allocated, aligned, offset, sizes,
  // strides (MLIR's GPU calling convention).
  void *inPtr = reinterpret_cast<void *>(in);
  void *outPtr = reinterpret_cast<void *>(out);
  int64_t zero = 0, size = m, stride = m, one = 1;
  void *params[] = {&inPtr,  &inPtr,  &zero, &size, &size, &stride, &one,
                    &outPtr, &outPtr, &zero, &size, &size, &stride, &one};

  auto launch = [&] {
    return cuLaunchKernel(fn, 1, 1, 1, 32, 8, 1, 0, nullptr, params, nullptr);
  };
  for (int i = 0; i < 200; ++i)
    check(launch(), "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");

  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  for (int i = 0; i < n; ++i)
    check(launch(), "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  double backToBack =
      std::chrono::duration<double, std::micro>(clock::now() - t0).count() / n;

  std::vector<double> calls;
  calls.reserve(n);
  for (int i = 0; i < n; ++i) {
    auto a = clock::now();
    CUresult r = launch();
    auto b = clock::now();
    check(r, "cuLaunchKernel");
    calls.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    if (i % 256 == 255)
      check(cuCtxSynchronize(), "cuCtxSynchronize");
  }
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  std::nth_element(calls.begin(), calls.begin() + n / 2, calls.end());

  check(cuMemcpyDtoH(back.data(), out, m * m * 4), "cuMemcpyDtoH");
  int bad = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j)
      bad += back[j * m + i] != host[i * m + j];
  // One line the Python script parses.
  std::printf("cuLaunchKernel %.3f %.3f %d\n", backToBack, calls[n / 2], bad);
  return bad ? 3 : 0;
}
