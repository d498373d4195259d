//===- TensorMapsHeaderCheck.cpp - TensorMaps.h compiles with cuda.h ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Built only where CMake finds the CUDA toolkit (unittests/CMakeLists.txt):
// TensorMaps.h compiles against that cuda.h, and its static_asserts hold
// (the CUtensorMap size and alignment, the data-type and swizzle numbers
// docs/tensor-maps.md uses). Its functions are not templates, so including
// the header type-checks them all. Nothing is linked or run: the driver
// calls run on the GPU machine, in bench/gemm/harness.cu.
//
//===----------------------------------------------------------------------===//

#include "layout/Runtime/TensorMaps.h"
