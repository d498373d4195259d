//===- Toolkits.cpp - Where the GPU toolkits are -------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "Toolkits.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <unistd.h>

using namespace mlir;
using llvm::SmallString;
using llvm::StringRef;
using llvm::Twine;

#ifndef LAYOUT_LLVM_TOOLS_DIR
#define LAYOUT_LLVM_TOOLS_DIR "/usr/lib/llvm-22/bin"
#endif

static bool exists(const Twine &path) { return llvm::sys::fs::exists(path); }

/// Finds the first directory of `candidates` that holds the AMDGPU device
/// libraries (ockl.bc).
static std::optional<std::string> findBitcodeDir() {
  // $LAYOUT_OPT_DEVICE_LIBS replaces the search (device libraries installed
  // somewhere else).
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("LAYOUT_OPT_DEVICE_LIBS")) {
    if (exists(*env + "/ockl.bc"))
      return *env;
    return std::nullopt;
  }
  for (const char *dir :
       {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
        "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode",
        "/opt/rocm/amdgcn/bitcode"})
    if (exists(Twine(dir) + "/ockl.bc"))
      return std::string(dir);
  return std::nullopt;
}

/// Finds ld.lld: next to the LLVM this project was built with, then on PATH.
static std::optional<std::string> findLld() {
  std::string beside = std::string(LAYOUT_LLVM_TOOLS_DIR) + "/ld.lld";
  if (exists(beside))
    return beside;
  for (StringRef name : {"ld.lld", "ld.lld-22"})
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(name))
      return *p;
  return std::nullopt;
}

/// The CUDA toolkit that -layout-to-nvvm hands gpu-module-to-binary, as its
/// cuda-path option documents: the option when given (it must hold
/// bin/ptxas), else $CUDA_PATH, else /usr/local/cuda, whichever has
/// bin/ptxas; else "" (MLIR's own search, ptxas on PATH). A given path must
/// hold bin/ptxas where the format needs it (bin, fatbin); PTX and LLVM IR
/// output need none. A ptxas missing everywhere is MLIR's error at
/// serialization, which names ptxas.
std::string layout::cudaToolkit(StringRef explicitPath, StringRef format,
                                std::string &error) {
  bool needsPtxas = format == "bin" || format == "fatbin";
  if (!explicitPath.empty()) {
    if (needsPtxas && !exists(explicitPath + "/bin/ptxas"))
      error =
          ("-layout-to-nvvm: cuda-path '" + explicitPath + "' has no bin/ptxas")
              .str();
    return explicitPath.str();
  }
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    if (exists(*env + "/bin/ptxas"))
      return *env;
  if (exists("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda";
  return "";
}

/// The ROCm directory for gpu-module-to-binary: `explicitPath` if given,
/// $ROCM_PATH if it is complete, else a cache directory of symlinks to
/// Debian's device libraries and ld.lld. On failure, `error` says what is
/// missing and how to get it.
std::string layout::rocmToolkit(StringRef explicitPath, std::string &error) {
  if (!explicitPath.empty()) {
    bool bitcode = exists(explicitPath + "/amdgcn/bitcode/ockl.bc");
    bool lld = exists(explicitPath + "/llvm/bin/ld.lld");
    if (!bitcode || !lld) {
      error = ("-layout-to-rocdl: rocm-path '" + explicitPath + "' has no " +
               (!bitcode ? "amdgcn/bitcode/ockl.bc (the AMDGPU device "
                           "libraries)"
                         : "") +
               (!bitcode && !lld ? " and no " : "") +
               (!lld ? "llvm/bin/ld.lld" : ""))
                  .str();
      return "";
    }
    return explicitPath.str();
  }
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("ROCM_PATH"))
    if (exists(*env + "/amdgcn/bitcode/ockl.bc") &&
        exists(*env + "/llvm/bin/ld.lld"))
      return *env;
  std::optional<std::string> bitcode = findBitcodeDir();
  std::optional<std::string> lld = findLld();
  if (!bitcode || !lld) {
    error = "-layout-to-rocdl: cannot find ";
    if (!bitcode)
      error += "the AMDGPU device libraries (amdgcn/bitcode/ockl.bc; Debian "
               "package rocm-device-libs)";
    if (!bitcode && !lld)
      error += " nor ";
    if (!lld)
      error += "the linker ld.lld (Debian package lld-22)";
    error += "; install them, or pass rocm-path=<dir> with amdgcn/bitcode "
             "and llvm/bin/ld.lld";
    return "";
  }
  SmallString<128> root;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, root);
  llvm::sys::path::append(root,
                          "layout-opt-rocm-" + std::to_string(::getuid()));
  SmallString<128> amdgcn(root), bin(root);
  llvm::sys::path::append(amdgcn, "amdgcn");
  llvm::sys::path::append(bin, "llvm", "bin");
  std::error_code ec;
  if ((ec = llvm::sys::fs::create_directories(amdgcn)) ||
      (ec = llvm::sys::fs::create_directories(bin))) {
    error = "-layout-to-rocdl cannot create " + root.str().str() + ": " +
            ec.message();
    return "";
  }
  auto link = [&](StringRef target, const Twine &at) {
    SmallString<128> path;
    at.toVector(path);
    SmallString<128> current;
    if (!llvm::sys::fs::real_path(path, current) && current == target)
      return std::error_code();
    llvm::sys::fs::remove(path);
    return llvm::sys::fs::create_link(target, path);
  };
  if ((ec = link(*bitcode, amdgcn + "/bitcode")) ||
      (ec = link(*lld, bin + "/ld.lld"))) {
    error = "-layout-to-rocdl cannot link the toolkit into " +
            root.str().str() + ": " + ec.message();
    return "";
  }
  return root.str().str();
}
