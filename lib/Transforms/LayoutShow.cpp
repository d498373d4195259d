//===- LayoutShow.cpp - The -layout-show pass -----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/LayoutPicture.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTSHOW
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Whether `op` makes a descriptor that is the top of a chain: a base,
/// transform or algebra op with a user other than a transform or algebra
/// op (or no user at all).
bool isChainTop(Operation *op) {
  if (!isa<NaiveOp, PackedOp, AlignedOp, TransformOp>(op) && !isAlgebraOp(op))
    return false;
  Value v = op->getResult(0);
  if (v.use_empty())
    return true;
  return llvm::any_of(v.getUsers(), [](Operation *user) {
    return !isa<TransformOp>(user) && !isAlgebraOp(user);
  });
}

struct LayoutShowPass final : layout::impl::LayoutShowBase<LayoutShowPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<PictureOptions> options = makePictureOptions(
        chip, static_cast<int64_t>(elementBytes), access, format);
    if (!options) {
      module.emitError() << "-layout-show: "
                         << llvm::toString(options.takeError());
      return signalPassFailure();
    }
    if (!dir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
        module.emitError() << "-layout-show: cannot create directory '" << dir
                           << "': " << ec.message();
        return signalPassFailure();
      }
    }
    llvm::StringMap<unsigned> perFunction;
    bool failedAny = false;
    module.walk([&](Operation *op) {
      if (!isChainTop(op))
        return;
      auto func = op->getParentOfType<FunctionOpInterface>();
      std::string where = func ? func.getName().str() : "module";
      unsigned index = perFunction[where]++;
      llvm::Expected<Descriptor> d = traceDescriptor(op->getResult(0));
      if (!d) {
        op->emitWarning() << "not drawn: " << llvm::toString(d.takeError());
        return;
      }
      PictureOptions o = *options;
      o.title = "@" + where + " #" + std::to_string(index) + ", " +
                op->getName().getStringRef().str();
      llvm::Expected<std::string> picture = drawPicture(*d, o);
      if (!picture) {
        op->emitWarning() << "not drawn: "
                          << llvm::toString(picture.takeError());
        return;
      }
      if (dir.empty() || format == "text") {
        llvm::outs() << *picture << "\n";
        return;
      }
      // The file is named after the function, its characters outside
      // [A-Za-z0-9_.-] replaced, so that it stays inside `dir`.
      std::string name = where;
      for (char &ch : name)
        if (!llvm::isAlnum(ch) && ch != '_' && ch != '-' && ch != '.')
          ch = '_';
      if (name.empty() || name[0] == '.')
        name = "_" + name;
      SmallString<128> path(dir);
      llvm::sys::path::append(path, name + "-" + std::to_string(index) +
                                        (format == "svg" ? ".svg" : ".tex"));
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
      if (!ec) {
        os << *picture;
        os.close();
        ec = os.error();
        os.clear_error();
      }
      if (ec) {
        op->emitError() << "-layout-show: cannot write '" << path
                        << "': " << ec.message();
        failedAny = true;
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
