//===- Toolkits.h - Where the GPU toolkits are ------------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The directories gpu-module-to-binary needs: the CUDA toolkit (ptxas) and a
// ROCm layout of the AMDGPU device libraries and ld.lld. Debian's
// rocm-device-libs and lld-22 are found without any setup and laid out the
// way gpu-module-to-binary expects in a cache directory of symlinks.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_PIPELINES_TOOLKITS_H
#define LAYOUT_LIB_PIPELINES_TOOLKITS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace layout {

/// The CUDA toolkit that -layout-to-nvvm hands gpu-module-to-binary, as its
/// cuda-path option documents: the option when given (it must hold
/// bin/ptxas), else $CUDA_PATH, else /usr/local/cuda, whichever has
/// bin/ptxas; else "" (MLIR's own search, ptxas on PATH). A given path must
/// hold bin/ptxas where the format needs it (bin, fatbin); PTX and LLVM IR
/// output need none. A ptxas missing everywhere is MLIR's error at
/// serialization, which names ptxas.
std::string cudaToolkit(llvm::StringRef explicitPath, llvm::StringRef format,
                        std::string &error);

/// The ROCm directory for gpu-module-to-binary: `explicitPath` if given,
/// $ROCM_PATH if it is complete, else a cache directory of symlinks to
/// Debian's device libraries and ld.lld. On failure, `error` says what is
/// missing and how to get it.
std::string rocmToolkit(llvm::StringRef explicitPath, std::string &error);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_PIPELINES_TOOLKITS_H
