// bench/conv/harness.cu: the convolution tile programs of bench/conv on an
// H100, against the generated GEMM of the same M, N, K (the same tile
// program with A a plain M x K matrix: the im2col of the same input, made
// by a copy kernel here) and cuDNN, in the same process.
//
//   harness <out dir>            all layers: a markdown table
//   harness <out dir> <layer>    one layer
//
// <out dir> holds conv.<chip>.cubin and shapes.txt (build-kernels.sh);
// <chip> is $CONV_CHIP, sm_90 when unset (bench/conv/out-sm90a holds the
// sm_90a kernels: CONV_CHIP=sm_90a). A kernel that exports
// <kernel>_tensor_maps (TMA loads) gets its maps encoded from its memref
// arguments by include/layout/Runtime/TensorMaps.h (docs/tensor-maps.md).
// Every output element of every kernel (conv, GEMM, cuDNN) is compared
// with a direct convolution computed on the GPU in f32 from the same f16
// inputs (refConv below, no descriptor). Exit status: 0 all checks pass,
// 3 some check failed (the table is still complete), 1 a CUDA error.

#include "../../include/layout/Runtime/TensorMaps.h"
#include "../common/random.h"
#include "../common/timing.h"

#include <cuda.h>
#include <cuda_fp16.h>
#ifdef HAVE_CUDNN
#include <cudnn.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK_CU(x)                                                            \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = nullptr;                                                \
      cuGetErrorString(r_, &s_);                                               \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,                \
              s_ ? s_ : "?");                                                  \
      printf("FAIL: CUDA driver error in %s\n", #x);                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#ifdef HAVE_CUDNN
#define CHECK_DNN(x)                                                           \
  do {                                                                         \
    cudnnStatus_t s_ = (x);                                                    \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                          \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,                \
              cudnnGetErrorString(s_));                                        \
      printf("FAIL: cuDNN error in %s\n", #x);                                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#endif

using bench::checkCuda;
namespace rt = mlir::layout::runtime;

// One line of shapes.txt (gen-conv.py bench-shapes).
struct Dims {
  int64_t n, h, w, c, k, y, x, stride, pad, ho, wo, M, N, K, bm, bn, threads;
  // The conv kernel's input: 1 (a 1-D memref) or 4 (N x H x W x C, whose
  // im2col tensor map the kernel may take).
  int64_t inputRank = 1;
};
struct Layer : Dims {
  std::string name;
};

static std::vector<Layer> readShapes(const std::string &path) {
  std::ifstream f(path);
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path.c_str());
    exit(1);
  }
  std::vector<Layer> out;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream s(line);
    Layer l;
    if (s >> l.name >> l.n >> l.h >> l.w >> l.c >> l.k >> l.y >> l.x >>
        l.stride >> l.pad >> l.ho >> l.wo >> l.M >> l.N >> l.K >> l.bm >>
        l.bn >> l.threads) {
      if (!(s >> l.inputRank))
        l.inputRank = 1;
      out.push_back(l);
    }
  }
  return out;
}

// The direct convolution, NHWC input, KYXC weights, output [M, K] (NHWK):
// one thread per output element, f32 sums of f16 products.
__global__ void refConv(const __half *in, const __half *wt, float *out,
                        Dims l) {
  int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (idx >= l.M * l.N)
    return;
  int64_t m = idx / l.N, ko = idx % l.N;
  int64_t wo = m % l.wo, ho = (m / l.wo) % l.ho, n = m / (l.wo * l.ho);
  float sum = 0.0f;
  for (int64_t y = 0; y < l.y; ++y) {
    int64_t hi = ho * l.stride - l.pad + y;
    if (hi < 0 || hi >= l.h)
      continue;
    for (int64_t x = 0; x < l.x; ++x) {
      int64_t wi = wo * l.stride - l.pad + x;
      if (wi < 0 || wi >= l.w)
        continue;
      const __half *a = in + ((n * l.h + hi) * l.w + wi) * l.c;
      const __half *b = wt + ko * l.K + (y * l.x + x) * l.c;
      for (int64_t c = 0; c < l.c; ++c)
        sum += __half2float(a[c]) * __half2float(b[c]);
    }
  }
  out[idx] = sum;
}

// The GEMM anchor's A: the im2col of the input, M x K row-major.
__global__ void im2col(const __half *in, __half *a, Dims l) {
  int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (idx >= l.M * l.K)
    return;
  int64_t m = idx / l.K, kk = idx % l.K;
  int64_t c = kk % l.c, x = (kk / l.c) % l.x, y = kk / (l.c * l.x);
  int64_t wo = m % l.wo, ho = (m / l.wo) % l.ho, n = m / (l.wo * l.ho);
  int64_t hi = ho * l.stride - l.pad + y, wi = wo * l.stride - l.pad + x;
  bool inside = hi >= 0 && hi < l.h && wi >= 0 && wi < l.w;
  a[idx] = inside ? in[((n * l.h + hi) * l.w + wi) * l.c + c] : __float2half(0);
}

// Memref descriptors: 1-D (allocated, aligned, offset, size, stride) and
// 2-D (allocated, aligned, offset, sizes, strides), int64 scalars.
struct MemRef {
  void *ptr;
  int64_t offset = 0, sizes[4], strides[4];
  int rank;
  static MemRef of1(void *p, int64_t n) {
    MemRef m{p, 0, {n}, {1}, 1};
    return m;
  }
  static MemRef of2(void *p, int64_t rows, int64_t cols) {
    MemRef m{p, 0, {rows, cols}, {cols, 1}, 2};
    return m;
  }
  static MemRef of4(void *p, int64_t n, int64_t h, int64_t w, int64_t c) {
    MemRef m{p, 0, {n, h, w, c}, {h * w * c, w * c, c, 1}, 4};
    return m;
  }
  rt::MemRefArgument view() const {
    rt::MemRefArgument v;
    v.aligned = reinterpret_cast<uint64_t>(ptr);
    v.offset = offset;
    v.sizes.assign(sizes, sizes + rank);
    v.strides.assign(strides, strides + rank);
    return v;
  }
  void push(std::vector<void *> &args) {
    args.push_back(&ptr);
    args.push_back(&ptr);
    args.push_back(&offset);
    for (int i = 0; i < rank; ++i)
      args.push_back(&sizes[i]);
    for (int i = 0; i < rank; ++i)
      args.push_back(&strides[i]);
  }
};

struct Kernel {
  std::string name;
  CUfunction fn = nullptr;
  unsigned dynamicSmem = 0;
  int regs = 0;
  // <kernel>_tensor_maps (none: no TMA loads).
  std::vector<rt::TensorMapSpec> tensorMaps;
};

static Kernel load(CUmodule mod, const std::string &name) {
  Kernel k;
  k.name = name;
  CHECK_CU(cuModuleGetFunction(&k.fn, mod, name.c_str()));
  std::string e = rt::readTensorMapSpecs(mod, name, k.tensorMaps);
  if (!e.empty()) {
    printf("FAIL: %s: %s\n", name.c_str(), e.c_str());
    exit(1);
  }
  CUdeviceptr at;
  size_t bytes;
  std::string sizeName = name + "_dynamic_shared_bytes";
  if (cuModuleGetGlobal(&at, &bytes, mod, sizeName.c_str()) == CUDA_SUCCESS &&
      bytes == sizeof(unsigned)) {
    CHECK_CU(cuMemcpyDtoH(&k.dynamicSmem, at, sizeof(unsigned)));
    CHECK_CU(cuFuncSetAttribute(k.fn,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                (int)k.dynamicSmem));
  }
  cuFuncGetAttribute(&k.regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.fn);
  return k;
}

// One launch of `k` on a, b, c, made once and run as often as needed: the
// memrefs expanded, then the kernel's tensor maps encoded from the memrefs
// they cover. Not copyable: `params` points into it.
struct Launch {
  const Kernel &k;
  unsigned gx, gy, threads;
  MemRef m[3];
  std::vector<CUtensorMap> maps;
  std::vector<void *> params;
  Launch(const Kernel &k, const Layer &l, MemRef a, MemRef b, MemRef c)
      : k(k), gx((unsigned)((l.N + l.bn - 1) / l.bn)),
        gy((unsigned)((l.M + l.bm - 1) / l.bm)), threads((unsigned)l.threads),
        m{a, b, c} {
    std::vector<rt::MemRefArgument> views;
    std::vector<const rt::MemRefArgument *> memrefs;
    for (MemRef &x : m) {
      x.push(params);
      views.push_back(x.view());
    }
    for (const rt::MemRefArgument &v : views)
      memrefs.push_back(&v);
    std::string e = rt::encodeTensorMaps(k.tensorMaps, memrefs, maps);
    if (!e.empty()) {
      printf("FAIL: %s: tensor maps: %s\n", k.name.c_str(), e.c_str());
      exit(1);
    }
    for (CUtensorMap &map : maps)
      params.push_back(&map);
  }
  Launch(const Launch &) = delete;
  Launch &operator=(const Launch &) = delete;
  void operator()() {
    CHECK_CU(cuLaunchKernel(k.fn, gx, gy, 1, threads, 1, 1, k.dynamicSmem,
                            nullptr, params.data(), nullptr));
  }
};

// |got - want| <= tol * max(1, |want|) for every element (f16 output of f32
// sums: 2^-11 relative rounding, plus the order of the f32 sums).
static const double kRelTol = 1e-2;

struct Check {
  int64_t bad = 0;
  double maxRel = 0;
};

static Check compare(const std::vector<__half> &got,
                     const std::vector<float> &want, const char *what) {
  Check r;
  int shown = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double x = __half2float(got[i]), y = want[i];
    double d = std::fabs(x - y) / std::max(1.0, std::fabs(y));
    if (!(d <= kRelTol)) {
      if (shown++ < 5)
        printf("    mismatch %s [%zu]: got %g want %g\n", what, i, x, y);
      ++r.bad;
    }
    if (d == d)
      r.maxRel = std::max(r.maxRel, d);
  }
  return r;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <out dir> [layer]\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  std::string only = argc > 2 ? argv[2] : "";
  std::vector<Layer> layers = readShapes(dir + "/shapes.txt");
  checkCuda(cudaFree(nullptr), "context");
  CUmodule mod;
  const char *chipEnv = getenv("CONV_CHIP");
  std::string chip = chipEnv ? chipEnv : "sm_90";
  CHECK_CU(cuModuleLoad(&mod, (dir + "/conv." + chip + ".cubin").c_str()));
  printf("kernels: %s/conv.%s.cubin\n", dir.c_str(), chip.c_str());
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, 0), "properties");
  printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
#ifdef HAVE_CUDNN
  cudnnHandle_t dnn;
  CHECK_DNN(cudnnCreate(&dnn));
  printf("cuDNN %zu\n", cudnnGetVersion());
#else
  printf("cuDNN: not available on this machine (no cudnn.h)\n");
#endif
  printf("\n| layer | N HxWxC -> K, filter, stride | M x N x K | conv ms | "
         "conv TFLOPS | GEMM TFLOPS | conv / GEMM | cuDNN TFLOPS | conv / "
         "cuDNN | check (max rel. err: conv, GEMM, cuDNN) |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  bool allOk = true;
  bench::Timer timer;
  for (const Layer &l : layers) {
    if (!only.empty() && l.name != only)
      continue;
    Kernel conv = load(mod, l.name), gemm = load(mod, l.name + "_gemm");
    size_t inElems = l.n * l.h * l.w * l.c, wElems = l.N * l.K,
           outElems = l.M * l.N, aElems = l.M * l.K;
    std::vector<uint16_t> hIn(inElems), hW(wElems);
    bench::fillUniformHalf(hIn, 20261123);
    bench::fillUniformHalf(hW, 20261123ull * 31 + 7);
    __half *in, *wt, *a, *outConv, *outGemm, *outDnn;
    float *ref;
    checkCuda(cudaMalloc(&in, inElems * 2), "malloc");
    checkCuda(cudaMalloc(&wt, wElems * 2), "malloc");
    checkCuda(cudaMalloc(&a, aElems * 2), "malloc");
    checkCuda(cudaMalloc(&outConv, outElems * 2), "malloc");
    checkCuda(cudaMalloc(&outGemm, outElems * 2), "malloc");
    checkCuda(cudaMalloc(&outDnn, outElems * 2), "malloc");
    checkCuda(cudaMalloc(&ref, outElems * 4), "malloc");
    checkCuda(cudaMemcpy(in, hIn.data(), inElems * 2, cudaMemcpyHostToDevice),
              "copy");
    checkCuda(cudaMemcpy(wt, hW.data(), wElems * 2, cudaMemcpyHostToDevice),
              "copy");
    // Outputs start as NaN so that an element no kernel writes counts.
    checkCuda(cudaMemset(outConv, 0xff, outElems * 2), "memset");
    checkCuda(cudaMemset(outGemm, 0xff, outElems * 2), "memset");
    checkCuda(cudaMemset(outDnn, 0xff, outElems * 2), "memset");
    refConv<<<(unsigned)((outElems + 255) / 256), 256>>>(in, wt, ref, l);
    im2col<<<(unsigned)((aElems + 255) / 256), 256>>>(in, a, l);
    // (Dims: the kernels take the layer's sizes by value.)
    checkCuda(cudaDeviceSynchronize(), "reference");

    MemRef mIn = l.inputRank == 4 ? MemRef::of4(in, l.n, l.h, l.w, l.c)
                                  : MemRef::of1(in, inElems),
           mA = MemRef::of2(a, l.M, l.K), mW = MemRef::of2(wt, l.N, l.K),
           mConv = MemRef::of2(outConv, l.M, l.N),
           mGemm = MemRef::of2(outGemm, l.M, l.N);
    Launch launchConv(conv, l, mIn, mW, mConv),
        launchGemm(gemm, l, mA, mW, mGemm);
    auto runConv = [&] { launchConv(); };
    auto runGemm = [&] { launchGemm(); };
    runConv();
    runGemm();
    checkCuda(cudaDeviceSynchronize(), "first launches");
    // Timed alternately, twice, keeping each one's best median (clocks
    // and L2 state drift between runs); batches of 20 launches back to
    // back (Timer::batchedMedian), as torch_conv.py times PyTorch.
    float tConv = 1e30f, tGemm = 1e30f;
    for (int rep = 0; rep < 2; ++rep) {
      tConv = std::min(tConv, timer.batchedMedian(runConv));
      tGemm = std::min(tGemm, timer.batchedMedian(runGemm));
    }
    double flops = 2.0 * l.M * l.N * l.K;
    double tfConv = flops / tConv / 1e9, tfGemm = flops / tGemm / 1e9;

    double tfDnn = 0;
#ifdef HAVE_CUDNN
    {
      cudnnTensorDescriptor_t xd, yd;
      cudnnFilterDescriptor_t wd;
      cudnnConvolutionDescriptor_t cd;
      CHECK_DNN(cudnnCreateTensorDescriptor(&xd));
      CHECK_DNN(cudnnCreateTensorDescriptor(&yd));
      CHECK_DNN(cudnnCreateFilterDescriptor(&wd));
      CHECK_DNN(cudnnCreateConvolutionDescriptor(&cd));
      CHECK_DNN(cudnnSetTensor4dDescriptor(
          xd, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, l.n, l.c, l.h, l.w));
      CHECK_DNN(cudnnSetFilter4dDescriptor(
          wd, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, l.k, l.c, l.y, l.x));
      CHECK_DNN(cudnnSetConvolution2dDescriptor(
          cd, l.pad, l.pad, l.stride, l.stride, 1, 1, CUDNN_CROSS_CORRELATION,
          CUDNN_DATA_FLOAT));
      CHECK_DNN(cudnnSetConvolutionMathType(cd, CUDNN_TENSOR_OP_MATH));
      CHECK_DNN(cudnnSetTensor4dDescriptor(
          yd, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, l.n, l.k, l.ho, l.wo));
      int found = 0;
      cudnnConvolutionFwdAlgoPerf_t perf[16];
      CHECK_DNN(cudnnFindConvolutionForwardAlgorithm(dnn, xd, wd, cd, yd, 16,
                                                     &found, perf));
      // Find's own times include first-call costs (and ranked a CUDA-core
      // algorithm first for one layer): time every algorithm it ran, with
      // its math type, as the generated kernels are timed, and keep the
      // fastest.
      float one = 1.0f, zero = 0.0f;
      float tDnn = 1e30f;
      int bestAlgo = -1;
      for (int i = 0; i < found; ++i) {
        if (perf[i].status != CUDNN_STATUS_SUCCESS)
          continue;
        CHECK_DNN(cudnnSetConvolutionMathType(cd, perf[i].mathType));
        size_t ws = 0;
        CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(dnn, xd, wd, cd, yd,
                                                          perf[i].algo, &ws));
        void *work = nullptr;
        if (ws)
          checkCuda(cudaMalloc(&work, ws), "workspace");
        auto runDnn = [&] {
          CHECK_DNN(cudnnConvolutionForward(dnn, &one, xd, in, wd, wt, cd,
                                            perf[i].algo, work, ws, &zero, yd,
                                            outDnn));
        };
        float t = 1e30f;
        for (int rep = 0; rep < 2; ++rep)
          t = std::min(t, timer.batchedMedian(runDnn));
        fprintf(stderr, "%s: cuDNN algo %d math %d workspace %zu: %.4f ms\n",
                l.name.c_str(), (int)perf[i].algo, (int)perf[i].mathType, ws,
                t);
        if (t < tDnn) {
          tDnn = t;
          bestAlgo = i;
        }
        if (work)
          cudaFree(work);
      }
      // The output checked below is the last algorithm's; rerun the best.
      if (bestAlgo >= 0) {
        CHECK_DNN(cudnnSetConvolutionMathType(cd, perf[bestAlgo].mathType));
        size_t ws = 0;
        CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(
            dnn, xd, wd, cd, yd, perf[bestAlgo].algo, &ws));
        void *work = nullptr;
        if (ws)
          checkCuda(cudaMalloc(&work, ws), "workspace");
        checkCuda(cudaMemset(outDnn, 0xff, outElems * 2), "memset");
        CHECK_DNN(cudnnConvolutionForward(dnn, &one, xd, in, wd, wt, cd,
                                          perf[bestAlgo].algo, work, ws, &zero,
                                          yd, outDnn));
        checkCuda(cudaDeviceSynchronize(), "cuDNN");
        if (work)
          cudaFree(work);
      }
      tfDnn = bestAlgo >= 0 ? flops / tDnn / 1e9 : 0;
      cudnnDestroyTensorDescriptor(xd);
      cudnnDestroyTensorDescriptor(yd);
      cudnnDestroyFilterDescriptor(wd);
      cudnnDestroyConvolutionDescriptor(cd);
    }
#endif
    std::vector<float> want(outElems);
    std::vector<__half> got(outElems);
    checkCuda(
        cudaMemcpy(want.data(), ref, outElems * 4, cudaMemcpyDeviceToHost),
        "copy back");
    checkCuda(
        cudaMemcpy(got.data(), outConv, outElems * 2, cudaMemcpyDeviceToHost),
        "copy back");
    Check cConv = compare(got, want, (l.name + " conv").c_str());
    checkCuda(
        cudaMemcpy(got.data(), outGemm, outElems * 2, cudaMemcpyDeviceToHost),
        "copy back");
    Check cGemm = compare(got, want, (l.name + " GEMM").c_str());
    Check cDnn;
#ifdef HAVE_CUDNN
    checkCuda(
        cudaMemcpy(got.data(), outDnn, outElems * 2, cudaMemcpyDeviceToHost),
        "copy back");
    cDnn = compare(got, want, (l.name + " cuDNN").c_str());
#endif
    bool ok = cConv.bad == 0 && cGemm.bad == 0 && cDnn.bad == 0;
    allOk &= ok;
    char dnnCols[64] = "n/a | n/a";
    if (tfDnn > 0)
      snprintf(dnnCols, sizeof dnnCols, "%.1f | %.1f%%", tfDnn,
               100.0 * tfConv / tfDnn);
    printf(
        "| %s | %lld %lldx%lldx%lld -> %lld, %lldx%lld, %lld | %lld x %lld x "
        "%lld | %.3f | %.1f | %.1f | %.1f%% | %s | %s: %lld of %zu bad "
        "(%.1e, %.1e, %.1e) |\n",
        l.name.c_str(), (long long)l.n, (long long)l.h, (long long)l.w,
        (long long)l.c, (long long)l.k, (long long)l.y, (long long)l.x,
        (long long)l.stride, (long long)l.M, (long long)l.N, (long long)l.K,
        tConv, tfConv, tfGemm, 100.0 * tfConv / tfGemm, dnnCols,
        ok ? "ok" : "FAIL", (long long)(cConv.bad + cGemm.bad + cDnn.bad),
        outElems, cConv.maxRel, cGemm.maxRel, cDnn.maxRel);
    int im2colMaps = 0;
    for (const rt::TensorMapSpec &spec : conv.tensorMaps)
      im2colMaps += spec.im2col;
    fprintf(stderr,
            "%s: conv %d registers, %u dynamic shared, %zu tensor maps (%d "
            "im2col); GEMM %d, %u\n",
            l.name.c_str(), conv.regs, conv.dynamicSmem, conv.tensorMaps.size(),
            im2colMaps, gemm.regs, gemm.dynamicSmem);
    fflush(stdout);
    for (void *p : {(void *)in, (void *)wt, (void *)a, (void *)outConv,
                    (void *)outGemm, (void *)outDnn, (void *)ref})
      cudaFree(p);
  }
  return allOk ? 0 : 3;
}
