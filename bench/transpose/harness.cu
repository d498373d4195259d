// bench/transpose/harness.cu: measures the transposes that layout-opt
// generates (examples/transpose.mlir through -layout-to-nvvm, loaded as
// cubins with the driver API) against, in the same run:
//   - cudaMemcpy device to device (the physical limit),
//   - the seed's kernel: a 32x(32+1) padded shared tile, block 32x8,
//     written here in CUDA C++ from the seed's description,
//   - a naive transpose (coalesced reads, strided writes).
// Every output element of every kernel is compared with a host transpose.
// With out/reductions.sm_90.cubin (examples/reductions.mlir) it also times
// the row max and row sum of an 8192x8192 f32 matrix, checked row by row;
// with out/variants.txt and out/variants.sm_90.cubin (VARIANTS=1
// build-kernels.sh) the tile programs at other tile and block sizes.
//
// Build and run on the GPU machine (bench/transpose/run-device.sh does it
// all, ncu included):
//   nvcc -O3 -arch=sm_90 -o out/harness harness.cu -lcuda
//   out/harness out            # bench: a markdown table
//   out/harness out ncu        # one launch of each generated kernel, for ncu
//
// Bandwidth = (bytes read + bytes written) / time, median of 20 runs after
// 3 warm-ups, timed with CUDA events.

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../common/timing.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(e));                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_CU(x)                                                            \
  do {                                                                         \
    CUresult e = (x);                                                          \
    if (e != CUDA_SUCCESS) {                                                   \
      const char *s;                                                           \
      cuGetErrorString(e, &s);                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, s);                   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// The seed's kernel: 32x33 padded tile, 32x8 threads, 4 rows per thread.
template <class T>
__global__ void seedPadded(const T *in, T *out, int rows, int cols) {
  __shared__ T tile[32][33];
  size_t batch = (size_t)blockIdx.z * rows * cols;
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] =
          in[batch + (size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols)
      out[batch + (size_t)(y + j) * rows + x] =
          tile[threadIdx.x][threadIdx.y + j];
}

// Naive: coalesced reads, writes strided by `rows`.
template <class T>
__global__ void naive(const T *in, T *out, int rows, int cols) {
  size_t batch = (size_t)blockIdx.z * rows * cols;
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows)
      out[batch + (size_t)x * rows + y + j] =
          in[batch + (size_t)(y + j) * cols + x];
}

using bench::Timer;

// A kernel of the generated module, launched with memref descriptors
// (allocated ptr, aligned ptr, offset, sizes, strides) per argument.
struct Generated {
  CUfunction fn;
  unsigned tile = 32;     // columns of the input per block
  unsigned tileY = 0;     // rows of the input per block (default: tile)
  unsigned blockY = 8;    // threads: 32 x blockY
  unsigned extraRows = 0; // the grid covers rows + extraRows input rows
  void launch(void *in, void *out, int64_t batch, int64_t rows, int64_t cols) {
    std::vector<int64_t> scalars;
    std::vector<void *> ptrs = {in, in, out, out};
    // Storage that outlives the launch.
    static int64_t s[2][8];
    static void *p[4];
    for (int i = 0; i < 4; ++i)
      p[i] = ptrs[i];
    std::vector<void *> args;
    for (int m = 0; m < 2; ++m) {
      args.push_back(&p[2 * m]);
      args.push_back(&p[2 * m + 1]);
      int n = 0;
      s[m][n++] = 0; // offset
      if (batch > 1) {
        s[m][n++] = batch;
        s[m][n++] = m == 0 ? rows : cols;
        s[m][n++] = m == 0 ? cols : rows;
        s[m][n++] = rows * cols;
        s[m][n++] = m == 0 ? cols : rows;
        s[m][n++] = 1;
      } else {
        s[m][n++] = m == 0 ? rows : cols;
        s[m][n++] = m == 0 ? cols : rows;
        s[m][n++] = m == 0 ? cols : rows;
        s[m][n++] = 1;
      }
      for (int i = 0; i < n; ++i)
        args.push_back(&s[m][i]);
    }
    unsigned ty = tileY ? tileY : tile;
    unsigned gx = (cols + tile - 1) / tile,
             gy = (rows + extraRows + ty - 1) / ty;
    CHECK_CU(cuLaunchKernel(fn, gx, gy, batch, 32, blockY, 1, 0, nullptr,
                            args.data(), nullptr));
  }
};

static double memcpyGBs = 0;

template <class T>
bool check(const std::vector<T> &in, const std::vector<T> &out, int64_t batch,
           int64_t rows, int64_t cols) {
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        if (memcmp(&out[b * rows * cols + j * rows + i],
                   &in[b * rows * cols + i * cols + j], sizeof(T)) != 0)
          return false;
  return true;
}

template <class T>
void runCase(const char *type, int64_t batch, int64_t rows, int64_t cols,
             std::vector<std::pair<std::string, Generated>> generated,
             bool ncuMode) {
  size_t n = batch * rows * cols, bytes = n * sizeof(T);
  std::vector<T> host(n), back(n);
  for (size_t i = 0; i < n; ++i) {
    uint16_t bits = (uint16_t)(i * 2654435761u >> 7);
    if constexpr (sizeof(T) == 2)
      memcpy(&host[i], &bits, 2);
    else
      host[i] = (T)(int32_t)(i % 1000003);
  }
  T *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, bytes));
  CHECK_CUDA(cudaMalloc(&dout, bytes));
  CHECK_CUDA(cudaMemcpy(din, host.data(), bytes, cudaMemcpyHostToDevice));
  Timer timer;
  char shape[64];
  if (batch > 1)
    snprintf(shape, sizeof shape, "[%lld, %lld, %lld]", (long long)batch,
             (long long)rows, (long long)cols);
  else
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows,
             (long long)cols);
  auto report = [&](const std::string &name, float ms) {
    CHECK_CUDA(cudaMemcpy(back.data(), dout, bytes, cudaMemcpyDeviceToHost));
    bool ok = check(host, back, batch, rows, cols);
    double gbs = 2.0 * bytes / (ms * 1e-3) / 1e9;
    printf("| %s | %s %s | %.3f | %.0f | %.1f%% | %s |\n", name.c_str(), type,
           shape, ms, gbs, 100.0 * gbs / memcpyGBs, ok ? "all match" : "WRONG");
    CHECK_CUDA(cudaMemset(dout, 0, bytes));
  };
  dim3 block(32, 8, 1), grid((cols + 31) / 32, (rows + 31) / 32, batch);
  if (ncuMode) {
    seedPadded<T><<<grid, block>>>(din, dout, rows, cols);
    CHECK_CUDA(cudaDeviceSynchronize());
  } else {
    report("naive", timer.median([&] {
      naive<T><<<grid, block>>>(din, dout, rows, cols);
    }));
    report("seed 32x33 padded (CUDA C++)", timer.median([&] {
      seedPadded<T><<<grid, block>>>(din, dout, rows, cols);
    }));
  }
  for (auto &entry : generated) {
    const std::string &name = entry.first;
    Generated &g = entry.second;
    if (ncuMode) {
      g.launch(din, dout, batch, rows, cols);
      CHECK_CUDA(cudaDeviceSynchronize());
      continue;
    }
    report(name, timer.median([&] { g.launch(din, dout, batch, rows, cols); }));
  }
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
}

// The fused tile programs of examples/transpose-tiles.mlir, f32 8192x8192:
// out16[j, i] = f16(in[i, j] * 0.5), and out[j, i] = a[i, j] + b[j, i].
// Bandwidth counts every byte read and written (6 and 12 per element).
static void fusedCases(CUmodule tiles) {
  const int64_t n = 8192;
  size_t count = n * n;
  std::vector<float> a(count), b(count), back(count);
  std::vector<__half> back16(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = (float)(int32_t)(i % 1000003);
    b[i] = (float)(int32_t)((i * 7) % 999983);
  }
  float *da, *db, *dout;
  __half *dout16;
  CHECK_CUDA(cudaMalloc(&da, count * 4));
  CHECK_CUDA(cudaMalloc(&db, count * 4));
  CHECK_CUDA(cudaMalloc(&dout, count * 4));
  CHECK_CUDA(cudaMalloc(&dout16, count * 2));
  CHECK_CUDA(cudaMemcpy(da, a.data(), count * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), count * 4, cudaMemcpyHostToDevice));
  // A 2-D memref descriptor: allocated, aligned, offset, sizes, strides.
  struct Desc {
    void *alloc, *aligned;
    int64_t offset = 0, size0 = n, size1 = n, stride0 = n, stride1 = 1;
  };
  auto push = [](std::vector<void *> &args, Desc &d) {
    for (void *p : {(void *)&d.alloc, (void *)&d.aligned, (void *)&d.offset,
                    (void *)&d.size0, (void *)&d.size1, (void *)&d.stride0,
                    (void *)&d.stride1})
      args.push_back(p);
  };
  CUfunction scale, add;
  CHECK_CU(cuModuleGetFunction(&scale, tiles, "tile_transpose_scale_f16"));
  CHECK_CU(cuModuleGetFunction(&add, tiles, "tile_add_transposed_f32"));
  Timer timer;
  {
    Desc in{da, da}, out{dout16, dout16};
    float alpha = 0.5f;
    std::vector<void *> args;
    push(args, in);
    push(args, out);
    args.push_back(&alpha);
    float ms = timer.median([&] {
      CHECK_CU(cuLaunchKernel(scale, n / 64, n / 64, 1, 32, 8, 1, 0, nullptr,
                              args.data(), nullptr));
    });
    CHECK_CUDA(
        cudaMemcpy(back16.data(), dout16, count * 2, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int64_t i = 0; i < n && ok; ++i)
      for (int64_t j = 0; j < n; ++j) {
        __half e = __float2half(a[i * n + j] * 0.5f);
        if (memcmp(&e, &back16[j * n + i], 2) != 0) {
          ok = false;
          break;
        }
      }
    double gbs = 6.0 * count / (ms * 1e-3) / 1e9;
    printf("| layout-opt tile program: f16(in^T * alpha) | f32 -> f16 "
           "8192x8192 | %.3f | %.0f | %.1f%% | %s |\n",
           ms, gbs, 100.0 * gbs / memcpyGBs, ok ? "all match" : "WRONG");
  }
  {
    Desc x{da, da}, y{db, db}, out{dout, dout};
    std::vector<void *> args;
    push(args, x);
    push(args, y);
    push(args, out);
    float ms = timer.median([&] {
      CHECK_CU(cuLaunchKernel(add, n / 64, n / 64, 1, 32, 8, 1, 0, nullptr,
                              args.data(), nullptr));
    });
    CHECK_CUDA(
        cudaMemcpy(back.data(), dout, count * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int64_t i = 0; i < n && ok; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (back[j * n + i] != a[i * n + j] + b[j * n + i]) {
          ok = false;
          break;
        }
    double gbs = 12.0 * count / (ms * 1e-3) / 1e9;
    printf("| layout-opt tile program: a^T + b | f32 8192x8192 | %.3f | %.0f "
           "| %.1f%% | %s |\n",
           ms, gbs, 100.0 * gbs / memcpyGBs, ok ? "all match" : "WRONG");
  }
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dout));
  CHECK_CUDA(cudaFree(dout16));
}

// Row max and row sum of an f32 matrix of 8192 columns (softmax
// statistics), one row per block of `threads` threads: every result checked
// (integer values: the sums are exact in any order). Bandwidth counts the
// bytes read, against memcpy's read + write bandwidth.
static void rowStats(CUfunction f, unsigned threads, const char *name) {
  const int64_t rows = 8192, cols = 8192;
  size_t count = rows * cols;
  std::vector<float> a(count);
  for (size_t i = 0; i < count; ++i)
    a[i] = (float)((int64_t)((i * 2654435761u) % 2001) - 1000);
  float *da, *dmax, *dsum;
  CHECK_CUDA(cudaMalloc(&da, count * 4));
  CHECK_CUDA(cudaMalloc(&dmax, rows * 4));
  CHECK_CUDA(cudaMalloc(&dsum, rows * 4));
  CHECK_CUDA(cudaMemcpy(da, a.data(), count * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dmax, 0, rows * 4));
  CHECK_CUDA(cudaMemset(dsum, 0, rows * 4));
  // memref<?x8192xf32>, then two memref<?xf32>.
  struct Desc2 {
    void *alloc, *aligned;
    int64_t offset = 0, size0 = rows, size1 = cols, stride0 = cols, stride1 = 1;
  } in{da, da};
  struct Desc1 {
    void *alloc, *aligned;
    int64_t offset = 0, size = rows, stride = 1;
  } mx{dmax, dmax}, sm{dsum, dsum};
  std::vector<void *> args;
  for (void *p : {(void *)&in.alloc, (void *)&in.aligned, (void *)&in.offset,
                  (void *)&in.size0, (void *)&in.size1, (void *)&in.stride0,
                  (void *)&in.stride1})
    args.push_back(p);
  for (Desc1 *d : {&mx, &sm})
    for (void *p : {(void *)&d->alloc, (void *)&d->aligned, (void *)&d->offset,
                    (void *)&d->size, (void *)&d->stride})
      args.push_back(p);
  Timer timer;
  float ms = timer.median([&] {
    CHECK_CU(cuLaunchKernel(f, rows, 1, 1, threads, 1, 1, 0, nullptr,
                            args.data(), nullptr));
  });
  std::vector<float> gotMax(rows), gotSum(rows);
  CHECK_CUDA(cudaMemcpy(gotMax.data(), dmax, rows * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(gotSum.data(), dsum, rows * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int64_t i = 0; i < rows && ok; ++i) {
    float m = a[i * cols];
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) {
      m = std::max(m, a[i * cols + j]);
      s += a[i * cols + j];
    }
    ok = gotMax[i] == m && gotSum[i] == (float)s;
  }
  double gbs = 4.0 * count / (ms * 1e-3) / 1e9;
  printf("| %s (%u threads) | f32 8192x8192 | %.3f | %.0f | %.1f%% (read) | "
         "%s |\n",
         name, threads, ms, gbs, 100.0 * gbs / memcpyGBs,
         ok ? "all match" : "WRONG");
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(dmax));
  CHECK_CUDA(cudaFree(dsum));
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "out";
  bool ncuMode = argc > 2 && std::string(argv[2]) == "ncu";
  CHECK_CUDA(cudaFree(nullptr)); // creates the primary context
  CUmodule swz, plain, tiles, tilesPlain;
  CHECK_CU(cuModuleLoad(&swz, (dir + "/transpose.sm_90.cubin").c_str()));
  CHECK_CU(cuModuleLoad(&plain,
                        (dir + "/unswizzled/transpose.sm_90.cubin").c_str()));
  // The tile programs (examples/transpose-tiles.mlir) after
  // -layout-tile-shared-memory.
  CHECK_CU(cuModuleLoad(&tiles, (dir + "/tiles.sm_90.cubin").c_str()));
  CHECK_CU(cuModuleLoad(&tilesPlain,
                        (dir + "/unswizzled/tiles.sm_90.cubin").c_str()));
  auto get = [](CUmodule m, const char *name, unsigned tile = 32,
                unsigned tileY = 0) {
    CUfunction f;
    CHECK_CU(cuModuleGetFunction(&f, m, name));
    return Generated{f, tile, tileY};
  };
  // transpose_skew_f32: 128x32 tiles, one more block row for the windows.
  auto skew = [&] {
    Generated g = get(swz, "transpose_skew_f32", 32, 128);
    g.extraRows = 8;
    return g;
  };
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

  // The physical limit: a device-to-device copy of the f32 8192x8192 size.
  {
    size_t bytes = (size_t)8192 * 8192 * 4;
    void *a, *b;
    CHECK_CUDA(cudaMalloc(&a, bytes));
    CHECK_CUDA(cudaMalloc(&b, bytes));
    CHECK_CUDA(cudaMemset(a, 1, bytes));
    Timer t;
    float ms = t.median(
        [&] { CHECK_CUDA(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    memcpyGBs = 2.0 * bytes / (ms * 1e-3) / 1e9;
    if (!ncuMode) {
      printf("device: %s\n\n", prop.name);
      printf("| kernel | shape | ms | GB/s | of memcpy | check |\n");
      printf("| --- | --- | --- | --- | --- | --- |\n");
      printf(
          "| cudaMemcpy device to device | f32 8192x8192 bytes | %.3f | %.0f "
          "| 100.0%% | - |\n",
          ms, memcpyGBs);
    }
    // The same-bytes anchor of the f16 8192x8192 transposes: memcpy of
    // half as many bytes (its fixed costs weigh more), against the f32
    // anchor.
    float ms16 = t.median([&] {
      CHECK_CUDA(cudaMemcpy(b, a, bytes / 2, cudaMemcpyDeviceToDevice));
    });
    double gbs16 = 2.0 * (bytes / 2) / (ms16 * 1e-3) / 1e9;
    if (!ncuMode)
      printf(
          "| cudaMemcpy device to device | f16 8192x8192 bytes | %.3f | %.0f "
          "| %.1f%% | - |\n",
          ms16, gbs16, 100.0 * gbs16 / memcpyGBs);
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
  }

  runCase<float>(
      "f32", 1, 8192, 8192,
      {{"layout-opt, xor-swizzled tile", get(swz, "transpose_f32")},
       {"layout-opt, unswizzled tile", get(plain, "transpose_f32")},
       {"layout-opt wide (64x64, 2/thread), swizzled",
        get(swz, "transpose_wide_f32", 64)},
       {"layout-opt wide (64x64, 2/thread), unswizzled",
        get(plain, "transpose_wide_f32", 64)},
       {"layout-opt tall (128x32), swizzled",
        get(swz, "transpose_tall_f32", 32, 128)},
       {"layout-opt tile program (64x64), swizzled",
        get(tiles, "tile_transpose_f32", 64)},
       {"layout-opt tile program (64x64), unswizzled",
        get(tilesPlain, "tile_transpose_f32", 64)},
       {"layout-opt skew (sector-aligned windows), swizzled", skew()}},
      ncuMode);
  runCase<__half>("f16", 1, 8192, 8192,
                  {{"layout-opt, xor-swizzled tile", get(swz, "transpose_f16")},
                   {"layout-opt, unswizzled tile", get(plain, "transpose_f16")},
                   {"layout-opt wide (64x64, 2/thread), swizzled",
                    get(swz, "transpose_wide_f16", 64)},
                   {"layout-opt wide (64x64, 2/thread), unswizzled",
                    get(plain, "transpose_wide_f16", 64)},
                   {"layout-opt wide4 (128x128, 4/thread), swizzled",
                    get(swz, "transpose_wide4_f16", 128)},
                   {"layout-opt wide4 (128x128, 4/thread), unswizzled",
                    get(plain, "transpose_wide4_f16", 128)},
                   {"layout-opt tile program (128x128), swizzled",
                    get(tiles, "tile_transpose_f16", 128)},
                   {"layout-opt tile program (128x128), unswizzled",
                    get(tilesPlain, "tile_transpose_f16", 128)}},
                  ncuMode);
  runCase<float>(
      "f32", 8, 4096, 4096,
      {{"layout-opt, xor-swizzled tile", get(swz, "transpose_batched_f32")},
       {"layout-opt tile program (1x64x64), swizzled",
        get(tiles, "tile_transpose_batched_f32", 64)}},
      ncuMode);
  runCase<float>(
      "f32", 1, 8191, 8193,
      {{"layout-opt, xor-swizzled tile", get(swz, "transpose_f32")},
       {"layout-opt wide (64x64, 2/thread), swizzled",
        get(swz, "transpose_wide_f32", 64)},
       {"layout-opt tall (128x32), swizzled",
        get(swz, "transpose_tall_f32", 32, 128)},
       {"layout-opt tall256 (256x32), swizzled",
        get(swz, "transpose_tall256_f32", 32, 256)},
       {"layout-opt tile program (64x64), swizzled",
        get(tiles, "tile_transpose_f32", 64)},
       {"layout-opt skew (sector-aligned windows), swizzled", skew()}},
      ncuMode);
  runCase<float>(
      "f32", 1, 8193, 8192,
      {{"layout-opt, xor-swizzled tile", get(swz, "transpose_f32")},
       {"layout-opt tall (128x32), swizzled",
        get(swz, "transpose_tall_f32", 32, 128)},
       {"layout-opt tall256 (256x32), swizzled",
        get(swz, "transpose_tall256_f32", 32, 256)},
       {"layout-opt skew (sector-aligned windows), swizzled", skew()}},
      ncuMode);
  if (!ncuMode)
    fusedCases(tiles);
  // Softmax statistics (examples/reductions.mlir): row max and row sum.
  CUmodule reductions;
  if (!ncuMode &&
      cuModuleLoad(&reductions, (dir + "/reductions.sm_90.cubin").c_str()) ==
          CUDA_SUCCESS) {
    CUfunction f;
    CHECK_CU(cuModuleGetFunction(&f, reductions, "row_stats_f32"));
    rowStats(f, 256, "layout-opt tile program: row max and row sum");
  }
  // Optional: variants of the tile programs at other tile and block sizes
  // (bench/transpose/variants.py writes out/variants.mlir, compiled to
  // out/variants.sm_90.cubin, and out/variants.txt, which lists them).
  CUmodule variants;
  FILE *list = fopen((dir + "/variants.txt").c_str(), "r");
  if (!ncuMode && list &&
      cuModuleLoad(&variants, (dir + "/variants.sm_90.cubin").c_str()) ==
          CUDA_SUCCESS) {
    char kind[32], name[128], type[16];
    unsigned cols, rows, bx, by;
    while (fscanf(list, "%31s %127s %15s %u %u %u %u", kind, name, type, &cols,
                  &rows, &bx, &by) == 7) {
      CUfunction f;
      CHECK_CU(cuModuleGetFunction(&f, variants, name));
      std::string label = std::string("variant ") + name;
      if (std::string(kind) == "rowstats") {
        rowStats(f, bx, label.c_str());
        continue;
      }
      Generated g{f, cols, rows, by};
      if (std::string(type) == "f16") {
        runCase<__half>("f16", 1, 8192, 8192, {{label, g}}, false);
        continue;
      }
      for (auto shape : {std::pair<int64_t, int64_t>{8192, 8192},
                         std::pair<int64_t, int64_t>{8191, 8193},
                         std::pair<int64_t, int64_t>{8193, 8192}})
        runCase<float>("f32", 1, shape.first, shape.second, {{label, g}},
                       false);
    }
  }
  if (list)
    fclose(list);
  return 0;
}
