//===- DumpBinaries.cpp - Write gpu.binary objects to files ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTDUMPBINARIES
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;

namespace {

/// The chip of a target attribute, or "object".
std::string chipOf(Attribute target) {
  if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target))
    return rocdl.getChip().str();
  if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
    return nvvm.getChip().str();
  return "object";
}

/// The file extension of an object of `target` in `format`.
StringRef extensionOf(Attribute target, gpu::CompilationTarget format) {
  bool amd = isa<ROCDL::ROCDLTargetAttr>(target);
  switch (format) {
  case gpu::CompilationTarget::Offload:
    return ".ll";
  case gpu::CompilationTarget::Assembly:
    return amd ? ".s" : ".ptx";
  case gpu::CompilationTarget::Binary:
    return amd ? ".hsaco" : ".cubin";
  case gpu::CompilationTarget::Fatbin:
    return amd ? ".hsaco" : ".fatbin";
  }
  return ".bin";
}

struct LayoutDumpBinariesPass final
    : layout::impl::LayoutDumpBinariesBase<LayoutDumpBinariesPass> {
  using Base::Base;
  void runOnOperation() override {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getOperation().emitError()
          << "cannot create directory '" << dir << "': " << ec.message();
      return signalPassFailure();
    }
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        SmallString<128> path(dir);
        llvm::sys::path::append(
            path, binary.getName() + "." + chipOf(object.getTarget()) +
                      extensionOf(object.getTarget(), object.getFormat()));
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
        if (ec) {
          binary.emitError()
              << "cannot write '" << path << "': " << ec.message();
          signalPassFailure();
          return;
        }
        os << object.getObject().getValue();
      }
    });
  }
};

} // namespace
