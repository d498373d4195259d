// bench/transpose/unaligned.cu: the experiment behind the odd-shape notes
// in bench/RESULTS.md. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o out/unaligned unaligned.cu && out/unaligned
// Which side of an unaligned transpose is slow? The seed's kernel on
// shapes whose input rows, output rows, or both are not 128-byte aligned.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
__global__ void seed(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols)
      out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void copy(const float *in, float *out, size_t n, int shift) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
int main() {
  float *a, *b;
  size_t cap = (size_t)8200 * 8200;
  cudaMalloc(&a, cap * 4 + 256);
  cudaMalloc(&b, cap * 4 + 256);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int shapes[][2] = {{8192, 8192}, {8192, 8193}, {8193, 8192},
                     {8191, 8193}, {8192, 8200}, {8200, 8192}};
  for (auto &s : shapes) {
    int rows = s[0], cols = s[1];
    dim3 g((cols + 31) / 32, (rows + 31) / 32), bl(32, 8);
    std::vector<float> t;
    for (int r = 0; r < 23; ++r) {
      cudaEventRecord(e0);
      seed<<<g, bl>>>(a, b, rows, cols);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r >= 3)
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    double gbs = 2.0 * rows * (double)cols * 4 / (t[t.size() / 2] * 1e-3) / 1e9;
    printf("seed %dx%d: %.3f ms %.0f GB/s\n", rows, cols, t[t.size() / 2], gbs);
  }
  // Copies of 8191*8193 floats at aligned and unaligned (+4 B) addresses.
  size_t n = (size_t)8191 * 8193;
  for (int shiftIn = 0; shiftIn <= 1; ++shiftIn)
    for (int shiftOut = 0; shiftOut <= 1; ++shiftOut) {
      std::vector<float> t;
      for (int r = 0; r < 23; ++r) {
        cudaEventRecord(e0);
        copy<<<(n + 255) / 256, 256>>>(a + shiftIn, b + shiftOut, n, 0);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r >= 3)
          t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      printf("copy in+%d out+%d: %.0f GB/s\n", shiftIn * 4, shiftOut * 4,
             2.0 * n * 4 / (t[t.size() / 2] * 1e-3) / 1e9);
    }
}
