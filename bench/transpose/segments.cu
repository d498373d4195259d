// Experiment (issue 5, odd shapes): does writing longer output-row segments
// per block, in consecutive iterations of one block, remove the cost of
// unaligned output rows? A 128x32 tile (input rows x columns) staged through
// a padded 32x129... tile, scalar accesses like the seed; each block handles
// K consecutive tiles down the input's rows, so it writes 128*K consecutive
// elements of each of its 32 output rows. Checks every element.
// Build: nvcc -O3 -arch=sm_90 -o out/segments segments.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

template <int K>
__global__ void tallLoop(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[128][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 32; // input column block
  for (int k = 0; k < K; ++k) {
    int y0 = (blockIdx.y * K + k) * 128; // input row block
    if (k)
      __syncthreads();
    for (int j = ty; j < 128; j += 8) {
      int r = y0 + j, c = x0 + tx;
      if (r < rows && c < cols)
        tile[j][tx] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    // Output rows x0.., columns y0..y0+127: lanes along the output row.
    for (int j = ty; j < 32; j += 8)
      for (int i = 0; i < 128; i += 32) {
        int orow = x0 + j, ocol = y0 + i + tx;
        if (orow < cols && ocol < rows)
          out[(size_t)orow * rows + ocol] = tile[i + tx][j];
      }
  }
}

// Sector-aligned output windows: for output row r the block writes output
// columns [y0 - m, y0 + 128 - m), where m is the misalignment (in elements)
// of (r, y0) to a 32-byte sector, so each warp store covers 4 whole
// sectors. The block loads input rows [y0 - 8, y0 + 128) (136 rows) so that
// every shifted window is in shared memory. Columns outside [0, rows) are
// skipped; the windows of consecutive blocks tile each output row exactly.
__global__ void skewAligned(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[136][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 128;
  bool full = y0 >= 8 && y0 + 128 <= rows && x0 + 32 <= cols;
  if (full) {
#pragma unroll
    for (int j = ty; j < 136; j += 8)
      tile[j][tx] = in[(size_t)(y0 - 8 + j) * cols + x0 + tx];
  } else {
    for (int j = ty; j < 136; j += 8) {
      int r = y0 - 8 + j, c = x0 + tx;
      if (r >= 0 && r < rows && c < cols)
        tile[j][tx] = in[(size_t)r * cols + c];
    }
  }
  __syncthreads();
  for (int j = ty; j < 32; j += 8) {
    int orow = x0 + j;
    if (orow >= cols)
      break;
    size_t base = (size_t)orow * rows;
    int m = (int)((base + y0) & 7); // elements past the sector start
#pragma unroll
    for (int i = 0; i < 128; i += 32) {
      int ocol = y0 - m + i + tx;
      if (ocol >= 0 && ocol < rows)
        out[base + ocol] = tile[8 - m + i + tx][j];
    }
  }
}

template <class F> float median(F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[10];
}

int main() {
  size_t big = (size_t)8192 * 8192 * 4;
  size_t room = (size_t)8193 * 8193 * 4; // the largest shape below
  float *a, *b;
  cudaMalloc(&a, room);
  cudaMalloc(&b, room);
  float mc = median([&] { cudaMemcpy(b, a, big, cudaMemcpyDeviceToDevice); });
  double mcGBs = 2.0 * big / (mc * 1e-3) / 1e9;
  printf("memcpy %.0f GB/s\n", mcGBs);
  int shapes[][2] = {{8191, 8193}, {8193, 8192}, {8192, 8192}};
  for (auto &s : shapes) {
    int rows = s[0], cols = s[1];
    size_t n = (size_t)rows * cols;
    std::vector<float> h(n), back(n);
    for (size_t i = 0; i < n; ++i)
      h[i] = (float)(int)(i % 1000003);
    cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice);
    auto run = [&](const char *name, auto kernel, int K, int extra = 0) {
      dim3 grid((cols + 31) / 32, (rows + extra + 128 * K - 1) / (128 * K));
      float ms =
          median([&] { kernel<<<grid, dim3(32, 8)>>>(a, b, rows, cols); });
      cudaMemcpy(back.data(), b, n * 4, cudaMemcpyDeviceToHost);
      bool ok = true;
      for (int i = 0; i < rows && ok; ++i)
        for (int j = 0; j < cols; ++j)
          if (back[(size_t)j * rows + i] != h[(size_t)i * cols + j]) {
            ok = false;
            break;
          }
      double gbs = 2.0 * n * 4 / (ms * 1e-3) / 1e9;
      printf("| %s | %dx%d | %.3f | %.0f | %.1f%% | %s |\n", name, rows, cols,
             ms, gbs, 100 * gbs / mcGBs, ok ? "all match" : "WRONG");
      cudaMemset(b, 0, n * 4);
    };
    run("tall 128x32, K=1", tallLoop<1>, 1);
    // One more block row when the shifted windows pass the last tile.
    run("skew, sector-aligned output windows", skewAligned, 1, 8);
    run("tall 128x32, K=2", tallLoop<2>, 2);
  }
  return 0;
}
