//===- LayoutShow.cpp - The -layout-show pass -----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Draws the descriptors of a module (LayoutPicture.h): every chain top with
// a generic wave access, or, with access=kernel, every workgroup-memory
// access of a kernel whose index is a descriptor's layout.offset, with
// what its first wave touches as the bank-conflict analysis's address
// interpreter evaluates it (sampleFirstWave).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/LayoutPicture.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

/// The layout.offset that indexes `access`: the first one found through
/// the arith and affine.apply ops of its indices (null: none).
OffsetOp indexingOffset(const SharedAccess &access) {
  SmallVector<Value> work(access.indices.begin(), access.indices.end());
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(v).second)
      continue;
    if (auto off = dyn_cast<OffsetOp>(def))
      return off;
    if (isa<affine::AffineApplyOp>(def) ||
        isa_and_nonnull<arith::ArithDialect>(def->getDialect()))
      work.append(def->operand_begin(), def->operand_end());
  }
  return OffsetOp();
}

/// "vector.load of 16 bytes", and " (line 12)" with `line`.
std::string describeAccess(const SharedAccess &access, bool line) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << access.op->getName() << " of " << access.accessBytes << " byte"
     << (access.accessBytes == 1 ? "" : "s");
  if (auto loc = dyn_cast<FileLineColLoc>(access.op->getLoc()); loc && line)
    os << " (line " << loc.getLine() << ")";
  return s;
}

/// The picture of `access` (indexed by `off`) in `options`, or why not.
llvm::Expected<std::string> drawKernelAccess(const SharedAccess &access,
                                             OffsetOp off,
                                             PictureOptions options,
                                             ProofSession &session) {
  llvm::Expected<Descriptor> d = traceDescriptor(off.getDesc());
  if (!d)
    return d.takeError();
  std::string why;
  std::optional<SampledWave> wave =
      sampleFirstWave(*options.chip, access, {off.getResult()}, session, why);
  if (!wave)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "its first wave cannot be evaluated: " +
                                       why);
  Type et = cast<MemRefType>(access.memref.getType()).getElementType();
  if (!et.isIntOrFloat() || et.getIntOrFloatBitWidth() % 8)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "its buffer's elements are not whole "
                                   "bytes of an integer or float");
  int64_t bytes = et.getIntOrFloatBitWidth() / 8;
  KernelAccessPicture k;
  k.elements = std::max<int64_t>(1, access.accessBytes / bytes);
  for (auto [l, probe] : llvm::enumerate(wave->probes))
    k.laneOffsets.push_back(wave->bytes[l] ? probe[0] : std::nullopt);
  k.count = wave->count;
  k.what = describeAccess(access, /*line=*/false);
  options.elementBytes = bytes;
  options.kernelAccess = std::move(k);
  return drawPicture(*d, options);
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
    failedAny = false;
    if (options->access == PictureAccess::Kernel)
      return showKernelAccesses(module, *options);
    llvm::StringMap<unsigned> perFunction;
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
      show(op, where, index, drawPicture(*d, o));
    });
    if (failedAny)
      signalPassFailure();
  }

  /// access=kernel: each workgroup-memory access of a kernel with a known
  /// block size (knownBlockSize) whose index is a descriptor's layout.offset.
  void showKernelAccesses(ModuleOp module, const PictureOptions &options) {
    if (!options.chip) {
      module.emitError() << "-layout-show: access=kernel needs chip=... (the "
                            "banks and the wave of the kernel's accesses)";
      return signalPassFailure();
    }
    ProofSession session;
    session.keepThreads = false;
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      std::string where = func.getName().str();
      unsigned index = 0;
      func.walk([&](Operation *op) {
        std::optional<SharedAccess> access = getSharedAccess(op);
        OffsetOp off =
            access && knownBlockSize(op) ? indexingOffset(*access) : OffsetOp();
        if (!off)
          return;
        PictureOptions o = options;
        o.title = "@" + where + " access #" + std::to_string(index) + ", " +
                  describeAccess(*access, /*line=*/true);
        show(op, where, index++,
             drawKernelAccess(*access, off, std::move(o), session));
      });
    });
    if (failedAny)
      signalPassFailure();
  }

  /// Prints `picture` of `op` (picture `index` of `where`) to stdout or
  /// writes it to `dir`; a warning where it could not be drawn.
  void show(Operation *op, StringRef where, unsigned index,
            llvm::Expected<std::string> picture) {
    if (!picture) {
      op->emitWarning() << "not drawn: " << llvm::toString(picture.takeError());
      return;
    }
    if (dir.empty() || format == "text") {
      llvm::outs() << *picture << "\n";
      return;
    }
    // The file is named after the function, its characters outside
    // [A-Za-z0-9_.-] replaced, so that it stays inside `dir`.
    std::string name = where.str();
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
  }

  bool failedAny = false;
};

} // namespace
