//===- TensorMaps.h - Encode a kernel's TMA tensor maps ---------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The driver half of the tensor-map launch ABI (docs/tensor-maps.md, the
// contract): reads a kernel's `<kernel>_tensor_maps` from a loaded CUmodule
// and encodes one CUtensorMap per map with cuTensorMapEncodeTiled from the
// memref arguments of a launch. The decisions (is a map usable, with which
// dimensions, strides and box) are TensorMapSpec.h's, which needs no CUDA.
// Header-only; needs <cuda.h> (CUDA 12 or later) and -lcuda.
//
//   std::vector<TensorMapSpec> specs;              // once per kernel
//   if (std::string e = readTensorMapSpecs(module, "gemm", specs); !e.empty())
//     fail(e);
//   std::vector<CUtensorMap> maps;                 // once per launch's memrefs
//   if (std::string e = encodeTensorMaps(specs, memrefsByArgument, maps);
//       !e.empty())
//     fail(e);                                     // "argument 1: ..."
//   // kernelParams: the usual parameters, then &maps[0], &maps[1], ...
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_RUNTIME_TENSORMAPS_H
#define LAYOUT_RUNTIME_TENSORMAPS_H

// By its own directory: the benchmark harnesses include this header by a
// relative path, without -I include.
#include "TensorMapSpec.h"

#include <cuda.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if CUDA_VERSION < 12000
#error "TensorMaps.h needs CUDA 12 or later (cuTensorMapEncodeTiled)"
#endif

namespace mlir {
namespace layout {
namespace runtime {

static_assert(sizeof(CUtensorMap) == kTensorMapBytes,
              "a CUtensorMap is 128 bytes");
static_assert(alignof(CUtensorMap) >= kTensorMapAlignment,
              "cuTensorMapEncodeTiled needs 64-byte aligned storage");

// The numbers docs/tensor-maps.md and TensorMapSpec.h use are cuda.h's.
static_assert(CU_TENSOR_MAP_NUM_QWORDS * 8 == kTensorMapBytes, "16 words");
static_assert(CU_TENSOR_MAP_DATA_TYPE_UINT8 == kTensorMapUInt8 &&
                  CU_TENSOR_MAP_DATA_TYPE_INT32 == kTensorMapInt32 &&
                  CU_TENSOR_MAP_DATA_TYPE_INT64 == kTensorMapInt64 &&
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT16 == kTensorMapFloat16 &&
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 == kTensorMapFloat32 &&
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT64 == kTensorMapFloat64 &&
                  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 == kTensorMapBFloat16 &&
                  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ == 12,
              "CUtensorMapDataType");
static_assert(tensorMapElementBytes(CU_TENSOR_MAP_DATA_TYPE_FLOAT64) == 8 &&
                  tensorMapElementBytes(CU_TENSOR_MAP_DATA_TYPE_INT32) == 4 &&
                  tensorMapElementBytes(CU_TENSOR_MAP_DATA_TYPE_UINT16) == 2,
              "element bytes");
static_assert(CU_TENSOR_MAP_SWIZZLE_32B == 1 && CU_TENSOR_MAP_SWIZZLE_128B == 3,
              "CUtensorMapSwizzle");

/// The name of a CUresult ("CUDA_ERROR_INVALID_VALUE").
inline std::string cuResultName(CUresult result) {
  const char *name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUresult " + std::to_string(int(result));
  return name;
}

/// Reads and decodes `<kernel>_tensor_maps` of `module` into `specs`: empty
/// when the kernel exports no such global (it has no TMA loads). Returns ""
/// or the error, prefixed with the global's name.
[[nodiscard]] inline std::string
readTensorMapSpecs(CUmodule module, const std::string &kernel,
                   std::vector<TensorMapSpec> &specs) {
  specs.clear();
  std::string name = tensorMapsGlobalName(kernel);
  CUdeviceptr at = 0;
  size_t bytes = 0;
  CUresult result = cuModuleGetGlobal(&at, &bytes, module, name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return "";
  if (result != CUDA_SUCCESS)
    return name + ": cuModuleGetGlobal failed: " + cuResultName(result);
  if (bytes % 8)
    return name + ": " + std::to_string(bytes) +
           " bytes, not a whole number of 64-bit words";
  std::vector<unsigned char> raw(bytes);
  if (bytes && (result = cuMemcpyDtoH(raw.data(), at, bytes)) != CUDA_SUCCESS)
    return name + ": cuMemcpyDtoH failed: " + cuResultName(result);
  // Little-endian words, whatever the host's byte order.
  std::vector<uint64_t> words(bytes / 8, 0);
  for (size_t i = 0; i < bytes; ++i)
    words[i / 8] |= uint64_t(raw[i]) << (8 * (i % 8));
  std::string error = decodeTensorMapSpecs(words.data(), words.size(), specs);
  return error.empty() ? error : name + ": " + error;
}

/// Fills `map` for `spec` on `memref` (kernel argument spec.argument): with
/// cuTensorMapEncodeTiled where the map is usable, with zeros where it is
/// not (planTensorMap decides). Returns "" or "argument a: ..." (a limit of
/// the driver, or the CUresult of a failed encode), never encoding a map
/// the driver would fault on.
[[nodiscard]] inline std::string encodeTensorMap(const TensorMapSpec &spec,
                                                 const MemRefArgument &memref,
                                                 CUtensorMap &map) {
  std::memset(&map, 0, sizeof(map));
  TensorMapEncoding e;
  std::string error = planTensorMap(spec, memref, e);
  if (!error.empty() || !e.usable)
    return error;
  std::string at = "argument " + std::to_string(spec.argument) + ": ";
  if (reinterpret_cast<uintptr_t>(&map) % kTensorMapAlignment)
    return at + "the CUtensorMap's storage is not 64-byte aligned";
  cuuint64_t globalDim[kMaxTensorMapRank], globalStrides[kMaxTensorMapRank];
  cuuint32_t boxDim[kMaxTensorMapRank], elementStrides[kMaxTensorMapRank];
  for (unsigned j = 0; j < kMaxTensorMapRank; ++j) {
    globalDim[j] = e.globalDim[j];
    globalStrides[j] = j + 1 < kMaxTensorMapRank ? e.globalStrides[j] : 0;
    boxDim[j] = e.boxDim[j];
    elementStrides[j] = e.elementStrides[j];
  }
  void *address = reinterpret_cast<void *>(uintptr_t(e.globalAddress));
  CUresult result =
      e.im2col
          ? cuTensorMapEncodeIm2col(
                &map, CUtensorMapDataType(spec.dataType), spec.rank, address,
                globalDim, globalStrides, e.lowerCorner, e.upperCorner,
                e.channelsPerPixel, e.pixelsPerColumn, elementStrides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(spec.swizzle),
                CUtensorMapL2promotion(spec.l2Promotion),
                CUtensorMapFloatOOBfill(spec.oobFill))
          : cuTensorMapEncodeTiled(
                &map, CUtensorMapDataType(spec.dataType), spec.rank, address,
                globalDim, globalStrides, boxDim, elementStrides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(spec.swizzle),
                CUtensorMapL2promotion(spec.l2Promotion),
                CUtensorMapFloatOOBfill(spec.oobFill));
  if (result != CUDA_SUCCESS) {
    std::memset(&map, 0, sizeof(map));
    return at +
           (e.im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled") +
           " failed: " + cuResultName(result);
  }
  return "";
}

/// Encodes one map per spec into `maps` (in export order, the order the
/// kernel takes them after its usual parameters): arguments[a] is kernel
/// argument a's memref, or null where argument a is not a memref. Returns ""
/// or the first error ("argument a: ...").
[[nodiscard]] inline std::string
encodeTensorMaps(const std::vector<TensorMapSpec> &specs,
                 const std::vector<const MemRefArgument *> &arguments,
                 std::vector<CUtensorMap> &maps) {
  maps.assign(specs.size(), CUtensorMap());
  for (size_t i = 0; i < specs.size(); ++i) {
    const MemRefArgument *memref = nullptr;
    std::string error = findTensorMapArgument(specs[i], i, arguments, memref);
    if (error.empty())
      error = encodeTensorMap(specs[i], *memref, maps[i]);
    if (!error.empty())
      return error;
  }
  return "";
}

} // namespace runtime
} // namespace layout
} // namespace mlir

#endif // LAYOUT_RUNTIME_TENSORMAPS_H
