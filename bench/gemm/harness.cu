// bench/gemm/harness.cu: measures the GEMM kernels that layout-opt generates
// from examples/matmul.mlir (through -layout-tile-shared-memory,
// -layout-xor-swizzle and -layout-to-nvvm; loaded as a cubin with the driver
// API) against cuBLAS in the same run:
//   gemm_f16             C = f16(A * B), 128x128 block tile, BK 32
//   gemm_f16_t128        128x128 with 128 threads (64x64 wave tiles)
//   gemm_f16_t128_g8     the same, blocks walked in groups of 8 block rows
//   gemm_f16_64          the same with 64x64 block tiles
//   gemm_f16_bias_relu   C = f16(relu(alpha * A * B + bias[j])), 128x128
// and, on shapes whose A or B rows are not 16-byte aligned, operand
// packing: pad_rows_f16 copies A and B into zero-padded rows of a multiple
// of 8 elements and gemm_f16_t128 runs on the copies (timed together).
// A is M x K, B is K x N, C is M x N, all f16 and row-major; f32 accumulate.
//
// The anchor is cublasGemmEx with f16 A/B/C and CUBLAS_COMPUTE_32F on the
// same row-major buffers: cuBLAS is column-major, so it computes
// C^T = B^T A^T (m = N, n = M, ldb = N, lda = K, ldc = N). For
// gemm_f16_bias_relu the reference is cuBLAS with that alpha, then the bias
// and relu on the host (the bias adds one more f16 rounding, far inside the
// tolerance); its cuBLAS time is the plain alpha-scaled GEMM (cuBLAS has no
// bias or relu without cuBLASLt epilogues).
//
// Every element of every generated kernel's C is compared with cuBLAS's C:
//   |x - y| <= 2e-2 * max(1, |y|)
// Both sides accumulate in f32 and round to f16 once: the rounding alone
// gives up to one f16 ulp of difference (2^-10 relative, ~1e-3), and the
// summation order over K (cuBLAS may split K) adds f32 rounding, ~1e-4
// absolute for K <= 8192 with inputs in [-1, 1]. With |y| ~ sqrt(K/9) ~ 21
// to 30 this tolerance is ~20x what correct kernels can differ by, while a
// lost, doubled or misplaced 32-wide K step (std ~1.9) or a wrong element
// (unrelated value of std ~20) is far over it. C is filled with NaN (0xFFFF)
// before each kernel, so elements never written show up as NaN.
// To tell a kernel's error from cuBLAS's, each check also compares both with
// an exact f64 reference on ~256 x 256 sampled elements (edges included) and
// on every element over tolerance (the first 4096).
//
// Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -arch=sm_90 -o /tmp/h bench/gemm/harness.cu -lcuda -lcublas
//   /tmp/h bench/gemm/out              # all shapes, markdown table
//   /tmp/h bench/gemm/out bench gemm_f16_64     # one kernel only
//   /tmp/h bench/gemm/out check 200x136x72      # correctness only, any shape
//   /tmp/h bench/gemm/out ncu          # one launch of each kernel at 4096^3
// Time: median of 20 runs after 3 warm-ups, CUDA events around each launch.
// A kernel that exports <kernel>_tensor_maps (TMA loads, sm_90a) also takes
// one CUtensorMap per map after its usual parameters (docs/tensor-maps.md):
// include/layout/Runtime/TensorMaps.h encodes them from the A, B, C (bias)
// memrefs once per (kernel, shape, buffers), outside the timed launches.

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../../include/layout/Runtime/TensorMaps.h"
#include "../common/random.h"
#include "../common/timing.h"

#include <algorithm>
#include <cmath>
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
      printf("FAIL: CUDA error %s at %s:%d\n", cudaGetErrorString(e),          \
             __FILE__, __LINE__);                                              \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_CU(x)                                                            \
  do {                                                                         \
    CUresult e = (x);                                                          \
    if (e != CUDA_SUCCESS) {                                                   \
      const char *s = "?";                                                     \
      cuGetErrorString(e, &s);                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, s);                   \
      printf("FAIL: CUDA driver error %s at %s:%d\n", s, __FILE__, __LINE__);  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_CUBLAS(x)                                                        \
  do {                                                                         \
    cublasStatus_t e = (x);                                                    \
    if (e != CUBLAS_STATUS_SUCCESS) {                                          \
      fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__,         \
              (int)e);                                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const double kRelTol = 2e-2;
static const float kAlpha = 1.5f; // gemm_f16_bias_relu's alpha

// gemm_f16_bias_relu's bias row: bias[j] = ((37 j) mod 17 - 8) / 8.
static float biasAt(int64_t j) { return (float)((37 * j) % 17 - 8) / 8.0f; }
// The bias-relu epilogue on a value of column j.
static double biasRelu(double y, int64_t j) {
  return std::max(y + (double)biasAt(j), 0.0);
}

using bench::Timer;

namespace rt = mlir::layout::runtime;

// A memref descriptor of rank 1 or 2 (row-major): allocated, aligned,
// offset, sizes, strides.
struct Desc {
  void *alloc, *aligned;
  int64_t offset = 0, sizes[2], strides[2];
  unsigned rank;
  Desc(void *p, int64_t rows, int64_t cols)
      : alloc(p), aligned(p), sizes{rows, cols}, strides{cols, 1}, rank(2) {}
  Desc(void *p, int64_t n)
      : alloc(p), aligned(p), sizes{n}, strides{1}, rank(1) {}
  void push(std::vector<void *> &args) {
    for (void *p : {(void *)&alloc, (void *)&aligned, (void *)&offset})
      args.push_back(p);
    for (unsigned d = 0; d < rank; ++d)
      args.push_back(&sizes[d]);
    for (unsigned d = 0; d < rank; ++d)
      args.push_back(&strides[d]);
  }
  // What a tensor map covering this memref is encoded from.
  rt::MemRefArgument view() const {
    return {(uint64_t)(uintptr_t)aligned, offset,
            std::vector<int64_t>(sizes, sizes + rank),
            std::vector<int64_t>(strides, strides + rank)};
  }
};

struct Kernel {
  std::string name;
  unsigned bm, bn; // the block tile: grid (ceil(N / bn), ceil(M / bm))
  // C = f16(relu(alpha * A * B + bias)): an alpha and a bias row argument.
  bool biasRelu;
  CUfunction fn;
  // The block size: the kernel's .maxntid (its known_block_size).
  int threads = 256;
  // Dynamic shared memory bytes: the code object's
  // <kernel>_dynamic_shared_bytes, which -layout-to-nvvm exports for a
  // kernel whose buffers exceed the 48 KiB static limit (0: none).
  unsigned dynamicSmem = 0;
  // The tensor maps it takes after its usual parameters: the code object's
  // <kernel>_tensor_maps (docs/tensor-maps.md; none: no TMA loads).
  std::vector<rt::TensorMapSpec> tensorMaps;
};

// A kernel argument: a memref, or an f32 (gemm_f16_bias_relu's alpha).
struct Arg {
  Desc memref;
  bool isF32 = false;
  float f32 = 0;
  Arg(Desc d) : memref(d) {}
  Arg(float x) : memref(nullptr, 0), isF32(true), f32(x) {}
};

// One launch of a kernel, made once per (kernel, shape, buffers) and run
// as often as needed (the timed loops run it): its parameters (each memref
// expanded, then the kernel's tensor maps, each encoded here from the
// memref it covers, or zeros where the kernel will not use it). Not
// copyable: `params` points into it.
// The device's multiprocessors (persistent kernels launch one block each).
static int numSMs() {
  static int n = [] {
    int v = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    return v;
  }();
  return n;
}

struct Launch {
  const Kernel &k;
  unsigned gx, gy;
  std::vector<Arg> args;
  std::vector<CUtensorMap> maps;
  std::vector<void *> params;
  Launch(const Kernel &k, int64_t rows, int64_t cols, std::vector<Arg> a)
      : k(k), gx((unsigned)((cols + k.bn - 1) / k.bn)),
        gy((unsigned)((rows + k.bm - 1) / k.bm)), args(std::move(a)) {
    // A persistent kernel (its name says so) loops over the tiles itself:
    // one block per SM, at most one per tile.
    if (k.name.find("_persistent") != std::string::npos) {
      gx = std::min<unsigned>(gx * gy, (unsigned)numSMs());
      gy = 1;
    }
    std::vector<rt::MemRefArgument> views(args.size());
    std::vector<const rt::MemRefArgument *> memrefs(args.size(), nullptr);
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].isF32) {
        params.push_back(&args[i].f32);
        continue;
      }
      args[i].memref.push(params);
      views[i] = args[i].memref.view();
      memrefs[i] = &views[i];
    }
    std::string e = rt::encodeTensorMaps(k.tensorMaps, memrefs, maps);
    if (!e.empty()) {
      printf("FAIL: %s: tensor maps: %s\n", k.name.c_str(), e.c_str());
      exit(1);
    }
    for (CUtensorMap &m : maps)
      params.push_back(&m);
  }
  Launch(const Launch &) = delete;
  Launch &operator=(const Launch &) = delete;
  void operator()() {
    CHECK_CU(cuLaunchKernel(k.fn, gx, gy, 1, k.threads, 1, 1, k.dynamicSmem,
                            nullptr, params.data(), nullptr));
  }
};

// `k` on row-major A (M x K), B (K x N), C (M x N). `Kp` and `Np` (default
// K and N): the row lengths of A and B when they are padded copies (A is
// M x Kp, B is Kp x Np; C stays M x N).
static Launch gemmLaunch(const Kernel &k, __half *A, __half *B, __half *C,
                         float *bias, int64_t M, int64_t N, int64_t K,
                         int64_t Kp = 0, int64_t Np = 0) {
  Kp = Kp ? Kp : K;
  Np = Np ? Np : N;
  std::vector<Arg> args = {Desc(A, M, Kp), Desc(B, Kp, Np), Desc(C, M, N)};
  if (k.biasRelu) {
    args.push_back(kAlpha);
    args.push_back(Desc(bias, N)); // memref<?xf32>
  }
  return Launch(k, M, N, std::move(args));
}

// pad_rows_f16 of examples/matmul.mlir (16 x 256 tiles; its .maxntid
// threads): copies the rows x cols `src` into the drows x dcols `dst`
// (drows >= rows, dcols >= cols), zero-filling the rest.
static Kernel pad = {"pad_rows_f16", 16, 256, false, nullptr};
static Launch padLaunch(__half *src, int64_t rows, int64_t cols, __half *dst,
                        int64_t drows, int64_t dcols) {
  return Launch(pad, drows, dcols,
                {Desc(src, rows, cols), Desc(dst, drows, dcols)});
}

// Row-major C = alpha * A * B through column-major cuBLAS: C^T = B^T A^T.
// C is f16 (cType CUDA_R_16F, the anchor) or f32 (CUDA_R_32F: the
// bias-relu reference, which rounds to f16 once after the epilogue as the
// kernel does; rounding alpha * A * B to f16 first costs up to half an f16
// ulp of a value that the bias may cancel).
static void cublasGemm(cublasHandle_t h, const __half *A, const __half *B,
                       void *C, int64_t M, int64_t N, int64_t K, float alpha,
                       cudaDataType cType = CUDA_R_16F) {
  float beta = 0.0f;
  CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)N, (int)M, (int)K,
                            &alpha, B, CUDA_R_16F, (int)N, A, CUDA_R_16F,
                            (int)K, &beta, C, cType, (int)N, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}

// f16 bits -> float, by table.
static std::vector<float> halfTable() {
  std::vector<float> t(65536);
  for (uint32_t i = 0; i < 65536; ++i) {
    __half_raw r;
    r.x = (unsigned short)i;
    t[i] = __half2float(__half(r));
  }
  return t;
}
static const std::vector<float> &h2f() {
  static std::vector<float> t = halfTable();
  return t;
}

struct CheckResult {
  bool ok;
  int64_t bad, nan, exact;
  double maxAbs, maxRel;
  std::vector<size_t> badIdx; // the first kMaxFlagged elements over tolerance
};
static const size_t kMaxFlagged = 4096;

// Compares every element; on failure prints where the bad elements are.
static CheckResult check(const std::vector<uint16_t> &got,
                         const std::vector<uint16_t> &want, int64_t M,
                         int64_t N, const Kernel &k, const char *shape) {
  const std::vector<float> &t = h2f();
  CheckResult r{true, 0, 0, 0, 0.0, 0.0, {}};
  int64_t shown = 0;
  int64_t minI = M, maxI = -1, minJ = N, maxJ = -1;
  std::vector<char> rows(M, 0), cols(N, 0);
  int64_t badEdge = 0, badInterior = 0, badZero = 0;
  // Bad counts by position inside the block tile, in 16x8 mma pieces.
  int64_t piecesN = (k.bn + 7) / 8;
  std::vector<int64_t> byPiece(((k.bm + 15) / 16) * piecesN, 0);
  std::vector<int64_t> byRowMod(k.bm, 0), byColMod(k.bn, 0);
  int64_t fullTilesM = M / k.bm, fullTilesN = N / k.bn;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      size_t idx = (size_t)i * N + j;
      float x = t[got[idx]];
      float y = t[want[idx]];
      if (got[idx] == want[idx] || x == y)
        ++r.exact;
      double d = std::fabs((double)x - (double)y);
      bool isNan = std::isnan(x);
      if (isNan)
        ++r.nan;
      double tol = kRelTol * std::max(1.0, std::fabs((double)y));
      if (!isNan) {
        r.maxAbs = std::max(r.maxAbs, d);
        r.maxRel = std::max(r.maxRel, d / std::max(1.0, std::fabs((double)y)));
      }
      if (isNan || !(d <= tol)) {
        ++r.bad;
        if (r.badIdx.size() < kMaxFlagged)
          r.badIdx.push_back(idx);
        if (shown < 8) {
          printf("    mismatch %s %s C[%lld, %lld]: got %g want %g\n",
                 k.name.c_str(), shape, (long long)i, (long long)j, x, y);
          ++shown;
        }
        minI = std::min(minI, i);
        maxI = std::max(maxI, i);
        minJ = std::min(minJ, j);
        maxJ = std::max(maxJ, j);
        rows[i] = 1;
        cols[j] = 1;
        if (i / k.bm >= fullTilesM || j / k.bn >= fullTilesN)
          ++badEdge;
        else
          ++badInterior;
        if (x == 0.0f)
          ++badZero;
        byPiece[((i % k.bm) / 16) * piecesN + (j % k.bn) / 8]++;
        byRowMod[i % k.bm]++;
        byColMod[j % k.bn]++;
      }
    }
  r.ok = r.bad == 0;
  if (!r.ok) {
    auto count = [](const std::vector<char> &v) {
      return (size_t)std::count(v.begin(), v.end(), 1);
    };
    auto nonzero = [](const std::vector<int64_t> &v) {
      return (size_t)(v.size() - std::count(v.begin(), v.end(), 0));
    };
    printf("    FAIL %s %s: %lld of %lld elements over tolerance (%lld NaN = "
           "never written or NaN, %lld zero); rows %lld..%lld (%zu distinct), "
           "cols %lld..%lld (%zu distinct); %lld in full %ux%u tiles, %lld in "
           "edge tiles\n",
           k.name.c_str(), shape, (long long)r.bad, (long long)(M * N),
           (long long)r.nan, (long long)badZero, (long long)minI,
           (long long)maxI, count(rows), (long long)minJ, (long long)maxJ,
           count(cols), (long long)badInterior, k.bm, k.bn, (long long)badEdge);
    printf("    bad elements by 16x8 piece of the %ux%u block tile "
           "(row piece, col piece): ",
           k.bm, k.bn);
    int n = 0;
    for (size_t p = 0; p < byPiece.size(); ++p) {
      if (!byPiece[p])
        continue;
      if (n++ == 64) {
        printf("...");
        break;
      }
      printf("(%lld,%lld):%lld ", (long long)(p / piecesN),
             (long long)(p % piecesN), (long long)byPiece[p]);
    }
    printf("\n    distinct (row mod %u) bad: %zu, distinct (col mod %u) bad: "
           "%zu\n",
           k.bm, nonzero(byRowMod), k.bn, nonzero(byColMod));
  }
  return r;
}

// An exact reference (f64 products and sums of the f16 inputs) for a grid of
// sampled rows x columns and for single elements: it tells whether a
// difference from cuBLAS is the kernel's error or cuBLAS's.
struct Exact {
  const std::vector<uint16_t> &a, &b;
  int64_t M, N, K;
  std::vector<int64_t> rows, cols;
  std::vector<double> grid; // rows.size() x cols.size()
  Exact(const std::vector<uint16_t> &a, const std::vector<uint16_t> &b,
        int64_t M, int64_t N, int64_t K)
      : a(a), b(b), M(M), N(N), K(K) {
    const std::vector<float> &t = h2f();
    auto pick = [](int64_t n, uint64_t seed) {
      std::vector<int64_t> v;
      if (n <= 256) {
        for (int64_t i = 0; i < n; ++i)
          v.push_back(i);
        return v;
      }
      // 0, n-1 (edges), the last full-tile boundary region, and random ones.
      for (int64_t x :
           {(int64_t)0, n - 1, (n / 128) * 128 - 1, (n / 128) * 128})
        if (x >= 0 && x < n)
          v.push_back(x);
      uint64_t s = seed;
      while (v.size() < 256) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v.push_back((int64_t)((s >> 33) % (uint64_t)n));
      }
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      return v;
    };
    rows = pick(M, 11);
    cols = pick(N, 13);
    std::vector<double> bt(cols.size() * K), ar(K);
    for (size_t c = 0; c < cols.size(); ++c)
      for (int64_t k = 0; k < K; ++k)
        bt[c * K + k] = t[b[(size_t)k * N + cols[c]]];
    grid.resize(rows.size() * cols.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      for (int64_t k = 0; k < K; ++k)
        ar[k] = t[a[(size_t)rows[r] * K + k]];
      for (size_t c = 0; c < cols.size(); ++c) {
        double sum = 0;
        const double *bp = &bt[c * K];
        for (int64_t k = 0; k < K; ++k)
          sum += ar[k] * bp[k];
        grid[r * cols.size() + c] = sum;
      }
    }
  }
  double at(int64_t i, int64_t j) const {
    const std::vector<float> &t = h2f();
    double sum = 0;
    for (int64_t k = 0; k < K; ++k)
      sum += (double)t[a[(size_t)i * K + k]] * (double)t[b[(size_t)k * N + j]];
    return sum;
  }
};

// Max |x - exact| of `c` (and of cuBLAS's `ref`) over the sampled grid, and
// over the flagged elements; for bias-relu kernels exact =
// max(alpha * exact + bias[j], 0) (`ref` is then the epilogue's reference).
static std::string adjudicate(const Exact &e, const std::vector<uint16_t> &c,
                              const std::vector<uint16_t> &ref, bool relu,
                              const std::vector<size_t> &flagged,
                              int64_t flaggedTotal) {
  const std::vector<float> &t = h2f();
  auto want = [&](double x, size_t idx) {
    return relu ? biasRelu(kAlpha * x, (int64_t)(idx % e.N)) : x;
  };
  auto refv = [&](size_t idx) { return (double)t[ref[idx]]; };
  double kGrid = 0, cGrid = 0;
  for (size_t r = 0; r < e.rows.size(); ++r)
    for (size_t q = 0; q < e.cols.size(); ++q) {
      size_t idx = (size_t)e.rows[r] * e.N + e.cols[q];
      double x = want(e.grid[r * e.cols.size() + q], idx);
      double dk = std::fabs(t[c[idx]] - x), dc = std::fabs(refv(idx) - x);
      kGrid = std::isnan(dk) ? INFINITY : std::max(kGrid, dk);
      cGrid = std::max(cGrid, dc);
    }
  char buf[512];
  int n = snprintf(buf, sizeof buf,
                   "vs f64 on %zux%zu sampled elements: kernel max |err| "
                   "%.3g, cuBLAS max |err| %.3g",
                   e.rows.size(), e.cols.size(), kGrid, cGrid);
  if (!flagged.empty()) {
    double kF = 0, cF = 0;
    int64_t kWorse = 0;
    for (size_t idx : flagged) {
      double x = want(e.at(idx / e.N, idx % e.N), idx);
      double dk = std::fabs(t[c[idx]] - x), dc = std::fabs(refv(idx) - x);
      if (std::isnan(dk))
        dk = INFINITY;
      kF = std::max(kF, dk);
      cF = std::max(cF, dc);
      kWorse += dk > dc;
    }
    snprintf(buf + n, sizeof buf - n,
             "; on the %zu flagged elements checked (of %lld): kernel max "
             "|err| %.3g, cuBLAS max |err| %.3g, kernel farther from f64 on "
             "%lld",
             flagged.size(), (long long)flaggedTotal, kF, cF,
             (long long)kWorse);
  }
  return buf;
}

static std::vector<std::string> accuracy;

struct Row {
  std::string kernel, shape;
  float ms;
  double tflops, ofCublas;
  std::string check;
};

static std::vector<Row> table;
static std::vector<std::string> failures;

static void runShape(cublasHandle_t h, std::vector<Kernel> &kernels, int64_t M,
                     int64_t N, int64_t K, const std::string &mode,
                     uint64_t seed) {
  bool ncu = mode == "ncu", checkOnly = mode == "check";
  char shape[64];
  snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)M, (long long)N,
           (long long)K);
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  std::vector<uint16_t> ha(na), hb(nb), ref(nc), refScaled, back(nc);
  bench::fillUniformHalf(ha, seed);
  bench::fillUniformHalf(hb, seed * 31 + 7);
  __half *A, *B, *C, *Cref;
  CHECK_CUDA(cudaMalloc(&A, na * 2));
  CHECK_CUDA(cudaMalloc(&B, nb * 2));
  CHECK_CUDA(cudaMalloc(&C, nc * 2));
  CHECK_CUDA(cudaMalloc(&Cref, nc * 2));
  CHECK_CUDA(cudaMemcpy(A, ha.data(), na * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(B, hb.data(), nb * 2, cudaMemcpyHostToDevice));
  std::vector<float> hbias(N);
  for (int64_t j = 0; j < N; ++j)
    hbias[j] = biasAt(j);
  float *bias;
  CHECK_CUDA(cudaMalloc(&bias, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(bias, hbias.data(), N * sizeof(float),
                        cudaMemcpyHostToDevice));
  double flop = 2.0 * M * N * K;
  Timer timer;

  if (ncu) {
    for (Kernel &k : kernels) {
      gemmLaunch(k, A, B, C, bias, M, N, K)();
      CHECK_CUDA(cudaDeviceSynchronize());
      printf("ncu mode: launched %s once at %s\n", k.name.c_str(), shape);
    }
  } else {
    // The reference, then cuBLAS's time.
    cublasGemm(h, A, B, Cref, M, N, K, 1.0f);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(ref.data(), Cref, nc * 2, cudaMemcpyDeviceToHost));
    float cublasMs = 0;
    if (!checkOnly) {
      cublasMs =
          timer.median([&] { cublasGemm(h, A, B, Cref, M, N, K, 1.0f); });
      table.push_back({"cuBLAS cublasGemmEx (f16, compute 32F)", shape,
                       cublasMs, flop / (cublasMs * 1e-3) / 1e12, 100.0,
                       "reference"});
    }
    Exact exact(ha, hb, M, N, K);
    // Checks `back` (k's C) against `want` and against the exact product,
    // prints and records both; returns the table's check column.
    auto verdict = [&](const Kernel &k, const std::vector<uint16_t> &want,
                       bool relu) -> std::string {
      CheckResult r = check(back, want, M, N, k, shape);
      char buf[256];
      snprintf(buf, sizeof buf,
               "%s: max abs err %.3g, max rel err %.3g, "
               "%lld over tol, %.2f%% bit-equal",
               r.ok ? "pass" : "**FAIL**", r.maxAbs, r.maxRel, (long long)r.bad,
               100.0 * r.exact / (double)nc);
      printf("  check %s %s: %s\n", k.name.c_str(), shape, buf);
      std::string adj = adjudicate(exact, back, want, relu, r.badIdx, r.bad);
      printf("    %s\n", adj.c_str());
      accuracy.push_back("| " + k.name + " | " + shape + " | " + adj + " |");
      if (!r.ok) {
        printf("  *** FAIL: %s at %s does not match cuBLAS ***\n",
               k.name.c_str(), shape);
        failures.push_back(k.name + " " + shape);
      }
      return buf;
    };
    bool needScaled = false;
    for (Kernel &k : kernels)
      needScaled |= k.biasRelu;
    if (needScaled) {
      // f16(relu(alpha * A * B + bias)), alpha * A * B from cuBLAS in f32.
      float *C32;
      CHECK_CUDA(cudaMalloc(&C32, nc * sizeof(float)));
      cublasGemm(h, A, B, C32, M, N, K, kAlpha, CUDA_R_32F);
      CHECK_CUDA(cudaDeviceSynchronize());
      std::vector<float> c32(nc);
      CHECK_CUDA(cudaMemcpy(c32.data(), C32, nc * sizeof(float),
                            cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(C32));
      refScaled.resize(nc);
      for (size_t idx = 0; idx < nc; ++idx) {
        __half y = __float2half_rn(
            std::max(c32[idx] + biasAt((int64_t)(idx % N)), 0.0f));
        memcpy(&refScaled[idx], &y, 2);
      }
    }
    for (Kernel &k : kernels) {
      CHECK_CUDA(cudaMemset(C, 0xFF, nc * 2)); // NaN sentinel
      Launch launch = gemmLaunch(k, A, B, C, bias, M, N, K);
      launch();
      CUresult e = cuCtxSynchronize();
      if (e != CUDA_SUCCESS) {
        const char *s = "?";
        cuGetErrorString(e, &s);
        printf("FAIL: %s at %s: launch error %s (the context is lost; "
               "rerun the other kernels with a kernel filter)\n",
               k.name.c_str(), shape, s);
        exit(2);
      }
      CHECK_CUDA(cudaMemcpy(back.data(), C, nc * 2, cudaMemcpyDeviceToHost));
      std::string buf = verdict(k, k.biasRelu ? refScaled : ref, k.biasRelu);
      if (checkOnly)
        continue;
      float ms = timer.median([&] { launch(); });
      double tf = flop / (ms * 1e-3) / 1e12;
      table.push_back(
          {"layout-opt " + k.name, shape, ms, tf, 100.0 * cublasMs / ms, buf});
    }
    // Rows that are not 16-byte aligned: operand packing. pad_rows_f16
    // copies A and B into zero-padded rows of a multiple of 8 elements, and
    // gemm_f16_t128 / gemm_f16_t128_k64 run on the copies (their
    // asynchronous pipelines); the time is that of all three kernels.
    for (Kernel &gemm : kernels) {
      if (!pad.fn || !(K % 8 || N % 8) ||
          (gemm.name != "gemm_f16_t128" && gemm.name != "gemm_f16_t128_k64"))
        continue;
      int64_t Kp = (K + 7) / 8 * 8, Np = (N + 7) / 8 * 8;
      __half *Ap, *Bp;
      CHECK_CUDA(cudaMalloc(&Ap, (size_t)M * Kp * 2));
      CHECK_CUDA(cudaMalloc(&Bp, (size_t)Kp * Np * 2));
      Launch padA = padLaunch(A, M, K, Ap, M, Kp),
             padB = padLaunch(B, K, N, Bp, Kp, Np),
             onPadded = gemmLaunch(gemm, Ap, Bp, C, bias, M, N, K, Kp, Np);
      auto packed = [&] {
        padA();
        padB();
        onPadded();
      };
      std::string name = "pad_rows_f16 (A, B) + " + gemm.name;
      CHECK_CUDA(cudaMemset(C, 0xFF, nc * 2));
      packed();
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(back.data(), C, nc * 2, cudaMemcpyDeviceToHost));
      Kernel shown = gemm;
      shown.name = name;
      std::string buf = verdict(shown, ref, false);
      if (!checkOnly) {
        float ms = timer.median(packed);
        table.push_back({"layout-opt " + name, shape, ms,
                         flop / (ms * 1e-3) / 1e12, 100.0 * cublasMs / ms,
                         buf});
      }
      CHECK_CUDA(cudaFree(Ap));
      CHECK_CUDA(cudaFree(Bp));
    }
  }
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  CHECK_CUDA(cudaFree(C));
  CHECK_CUDA(cudaFree(Cref));
  CHECK_CUDA(cudaFree(bias));
}

// Looks `k` up in `mod` (false: not there) with what launching it needs:
// its block size, dynamic shared memory and tensor maps.
static bool loadKernel(CUmodule mod, Kernel &k) {
  if (cuModuleGetFunction(&k.fn, mod, k.name.c_str()) != CUDA_SUCCESS)
    return false;
  CHECK_CU(cuFuncGetAttribute(&k.threads,
                              CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k.fn));
  CUdeviceptr sizeAt;
  size_t sizeBytes = 0;
  std::string sizeName = k.name + "_dynamic_shared_bytes";
  if (cuModuleGetGlobal(&sizeAt, &sizeBytes, mod, sizeName.c_str()) ==
          CUDA_SUCCESS &&
      sizeBytes == sizeof(unsigned)) {
    CHECK_CU(cuMemcpyDtoH(&k.dynamicSmem, sizeAt, sizeof(unsigned)));
    CHECK_CU(cuFuncSetAttribute(k.fn,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                (int)k.dynamicSmem));
  }
  std::string e = rt::readTensorMapSpecs(mod, k.name, k.tensorMaps);
  if (!e.empty()) {
    printf("FAIL: %s: %s\n", k.name.c_str(), e.c_str());
    exit(1);
  }
  return true;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "bench/gemm/out";
  std::string mode = argc > 2 ? argv[2] : "bench";
  std::string filter = argc > 3 ? argv[3] : "";
  if (mode != "bench" && mode != "ncu" && mode != "check") {
    fprintf(
        stderr,
        "usage: %s DIR [bench [KERNEL]|ncu [KERNEL]|check MxNxK [KERNEL]]\n",
        argv[0]);
    return 1;
  }
  // Issue 39's shapes: square, unaligned, a short K and a short M.
  std::vector<std::vector<int64_t>> shapes = {{4096, 4096, 4096},
                                              {8192, 8192, 8192},
                                              {4095, 4097, 4099},
                                              {8192, 8192, 512},
                                              {512, 8192, 8192}};
  if (mode == "ncu")
    shapes = {{4096, 4096, 4096}};
  if (mode == "check") {
    long long m, n, k;
    if (argc < 4 || sscanf(argv[3], "%lldx%lldx%lld", &m, &n, &k) != 3) {
      fprintf(stderr, "check needs a shape MxNxK\n");
      return 1;
    }
    shapes = {{m, n, k}};
    filter = argc > 4 ? argv[4] : "";
  }

  // Line-buffered, so that what was printed survives a crash in a pipe.
  setvbuf(stdout, nullptr, _IOLBF, 0);
  CHECK_CUDA(cudaFree(nullptr)); // creates the primary context
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  CUmodule mod;
  // The chip the cubin was built for: bench/gemm/out holds sm_90, out-sm90a
  // sm_90a (GEMM_CHIP=sm_90a).
  const char *chipEnv = getenv("GEMM_CHIP");
  std::string cubin =
      dir + "/matmul." + (chipEnv ? chipEnv : "sm_90") + ".cubin";
  CHECK_CU(cuModuleLoad(&mod, cubin.c_str()));
  std::vector<Kernel> kernels = {
      {"gemm_f16", 128, 128, false, nullptr},
      {"gemm_f16_t128", 128, 128, false, nullptr},
      {"gemm_f16_t128_g8", 128, 128, false, nullptr},
      {"gemm_f16_t128_k64", 128, 128, false, nullptr},
      {"gemm_f16_64", 64, 64, false, nullptr},
      {"gemm_f16_bias_relu", 128, 128, true, nullptr},
      // bench/gemm/matmul-wgmma.mlir (sm_90a experiments; skipped where the
      // cubin lacks them).
      {"gemm_f16_wg128", 128, 128, false, nullptr},
      {"gemm_f16_wg256", 128, 256, false, nullptr},
      {"gemm_f16_wg128_s4", 128, 128, false, nullptr},
      {"gemm_f16_wg256_s4", 128, 256, false, nullptr},
      {"gemm_f16_wg128_b2", 128, 128, false, nullptr},
      {"gemm_f16_wg256_persistent", 128, 256, false, nullptr}};
  // The packing kernel, where the cubin has it.
  if (!loadKernel(mod, pad))
    pad.fn = nullptr;
  std::vector<Kernel> chosen;
  for (Kernel &k : kernels) {
    if (!filter.empty() && k.name != filter)
      continue;
    if (!loadKernel(mod, k)) {
      if (!filter.empty())
        CHECK_CU(cuModuleGetFunction(&k.fn, mod, k.name.c_str()));
      continue; // not in this cubin
    }
    int regs = 0, smem = 0;
    CHECK_CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.fn));
    CHECK_CU(
        cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k.fn));
    int blocks = 0;
    CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, k.fn, k.threads, k.dynamicSmem));
    printf("%s: %d registers, %d bytes static shared, %u bytes dynamic "
           "shared, %d blocks/SM of %d threads",
           k.name.c_str(), regs, smem, k.dynamicSmem, blocks, k.threads);
    printf(k.tensorMaps.empty() ? "\n" : ", %zu tensor maps\n",
           k.tensorMaps.size());
    chosen.push_back(k);
  }
  if (chosen.empty()) {
    fprintf(stderr, "no kernel named %s\n", filter.c_str());
    return 1;
  }
  int clockKHz = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  printf("device: %s, %d SMs, %d MHz (max SM clock)\n", prop.name,
         prop.multiProcessorCount, clockKHz / 1000);
  printf("tolerance: |x - y| <= %.0e * max(1, |y|), y = cuBLAS; alpha of "
         "bias_relu = %g, bias[j] = ((37 j) mod 17 - 8) / 8\n\n",
         kRelTol, kAlpha);

  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  uint64_t seed = 20261123;
  for (auto &s : shapes)
    runShape(h, chosen, s[0], s[1], s[2], mode, seed);

  if (mode == "bench") {
    printf("\n| kernel | M x N x K | ms | TFLOPS | of cuBLAS | check |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (Row &r : table)
      printf("| %s | %s | %.3f | %.1f | %.1f%% | %s |\n", r.kernel.c_str(),
             r.shape.c_str(), r.ms, r.tflops, r.ofCublas, r.check.c_str());
  }
  if (mode != "ncu") {
    printf("\n| kernel | M x N x K | exact (f64) reference |\n| --- | --- | "
           "--- |\n");
    for (auto &a : accuracy)
      printf("%s\n", a.c_str());
    if (failures.empty()) {
      printf("\nALL CHECKS PASSED\n");
    } else {
      printf("\n*** FAIL: %zu kernel/shape pairs do not match cuBLAS:",
             failures.size());
      for (auto &f : failures)
        printf(" [%s]", f.c_str());
      printf(" ***\n");
    }
  }
  CHECK_CUBLAS(cublasDestroy(h));
  return failures.empty() ? 0 : 3;
}
