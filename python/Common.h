//===- Common.h - Shared pieces of the Python extension --------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The process's MLIR context, the diagnostics collector, the MLIRError
// exception and the Python-owned module, shared by the extension's files
// (LayoutOptModule.cpp: evaluator and modules; IRCore.cpp: building IR).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_PYTHON_COMMON_H
#define LAYOUT_PYTHON_COMMON_H

#include "layout-c/Layout.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "layout/Conversion/Passes.h"
#include "layout/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace layout_python {

namespace py = pybind11;
using namespace mlir;
using namespace mlir::layout;

/// Raised for every MLIR diagnostic error (parse, verify, pass failures).
struct MLIRError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One MLIR context for the process, with every dialect, extension and
/// translation, and the passes registered once.
inline MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    registry.insert<LayoutDialect>();
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  static std::once_flag passes;
  std::call_once(passes, [] {
    registerAllPasses();
    layoutRegisterPasses();
  });
  return *ctx;
}

/// Collects the diagnostics emitted while it lives.
struct Diagnostics {
  explicit Diagnostics(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          std::string s;
          llvm::raw_string_ostream os(s);
          // file:line:col, as compilers print it, where the location has
          // them (Module.parse's filename names the file).
          Location loc = d.getLocation();
          if (auto f = dyn_cast<FileLineColLoc>(loc))
            os << f.getFilename().getValue() << ":" << f.getLine() << ":"
               << f.getColumn() << ": ";
          else
            os << loc << ": ";
          switch (d.getSeverity()) {
          case DiagnosticSeverity::Error:
            os << "error: ";
            break;
          case DiagnosticSeverity::Warning:
            os << "warning: ";
            break;
          case DiagnosticSeverity::Remark:
            os << "remark: ";
            break;
          case DiagnosticSeverity::Note:
            os << "note: ";
            break;
          }
          os << d.str();
          (d.getSeverity() == DiagnosticSeverity::Remark ? remarks : errors)
              .push_back(s);
          return success();
        }) {}
  std::string message(const std::string &what) const {
    std::string msg = what;
    for (const std::string &e : errors)
      msg += "\n" + e;
    return msg;
  }
  /// MLIRError: IR that does not parse, verify or lower.
  [[noreturn]] void raise(const std::string &what) {
    throw MLIRError(message(what));
  }
  /// ValueError: a bad argument of a builder (a type, an attribute, an
  /// operation that does not verify).
  [[noreturn]] void raiseValue(const std::string &what) {
    throw std::invalid_argument(message(what));
  }
  std::vector<std::string> errors, remarks;
  ScopedDiagnosticHandler handler;
};

/// An MLIR module owned by Python.
struct PyModule {
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> remarks;

  static PyModule parse(const std::string &text, const std::string &filename) {
    MLIRContext &ctx = context();
    Diagnostics diags(ctx);
    PyModule m;
    m.module = parseSourceString<ModuleOp>(text, &ctx, filename);
    if (!m.module)
      diags.raise("cannot parse the module");
    return m;
  }

  std::string str() {
    std::string s;
    llvm::raw_string_ostream os(s);
    module->print(os);
    return s;
  }

  /// Runs a textual pass pipeline ("canonicalize,convert-layout-to-affine"
  /// or "builtin.module(...)").
  void run(const std::string &pipeline) {
    MLIRContext &ctx = context();
    Diagnostics diags(ctx);
    PassManager pm(&ctx, ModuleOp::getOperationName());
    // The pass manager is anchored on the module: a pipeline spelled
    // "builtin.module(...)" is the same as its contents.
    llvm::StringRef spec = llvm::StringRef(pipeline).trim();
    if (spec.starts_with("builtin.module(") && spec.ends_with(")"))
      spec = spec.drop_front(strlen("builtin.module(")).drop_back();
    std::string error;
    llvm::raw_string_ostream es(error);
    if (failed(parsePassPipeline(spec, pm, es)))
      throw std::invalid_argument("invalid pass pipeline '" + pipeline +
                                  "': " + error);
    if (failed(pm.run(*module)))
      diags.raise("the pipeline '" + pipeline + "' failed");
    remarks = diags.remarks;
  }

  /// Compiles a copy with -layout-to-rocdl / -layout-to-nvvm and returns
  /// the first object's bytes (`ftz`: -layout-to-nvvm's ftz option).
  py::bytes compile(const std::string &target, const std::string &chip,
                    const std::string &format, bool ftz) {
    std::string pipeline;
    if (target == "rocdl" && ftz)
      throw std::invalid_argument("ftz is an option of target 'nvvm'");
    if (target == "rocdl")
      pipeline = "layout-to-rocdl{chip=" + chip + " format=" + format + "}";
    else if (target == "nvvm")
      pipeline = "layout-to-nvvm{chip=" + chip + " format=" + format +
                 (ftz ? " ftz=true" : "") + "}";
    else
      throw std::invalid_argument("target must be 'rocdl' or 'nvvm', got '" +
                                  target + "'");
    PyModule copy;
    copy.module = module->clone();
    copy.run(pipeline);
    std::string bytes;
    bool found = false;
    copy.module->walk([&](gpu::BinaryOp binary) {
      if (found)
        return;
      for (Attribute attr : binary.getObjects()) {
        bytes = cast<gpu::ObjectAttr>(attr).getObject().getValue().str();
        found = true;
        return;
      }
    });
    if (!found)
      throw MLIRError("the module has no gpu.module to compile");
    return py::bytes(bytes);
  }
};

/// Adds the IR-building classes (Type, Attribute, Value, Operation, Block,
/// Region) and functions to the extension (IRCore.cpp).
void bindIRCore(py::module_ &m);

/// Adds code_object_resources (CodeObjects.cpp).
void bindCodeObjects(py::module_ &m);

} // namespace layout_python

#endif // LAYOUT_PYTHON_COMMON_H
