//===- layout-opt.cpp - The layout-opt driver -----------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass registered, plus
// the layout dialect and its passes, and (in a build with tests) the test
// passes of test/lib (tools/common/Registration.h).
//
// Two additions to mlir-opt: `--version` names the project's version, and
// the operation that MLIR prints in a diagnostic's "see current operation"
// note has its long string literals elided (a gpu.binary's object holds
// kilobytes of escaped ELF bytes, which MLIR's --mlir-elide-* options do not
// cover: they elide elements attributes and resources only).
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#ifndef LAYOUT_OPT_VERSION
#error "LAYOUT_OPT_VERSION (the CMake project's VERSION) is not defined"
#endif

using namespace mlir;

/// The longest string literal a note keeps whole; a longer one keeps this
/// many characters of its text and says how many it elided.
static constexpr size_t kMaxNoteStringLength = 64;

/// `text` with each string literal longer than kMaxNoteStringLength
/// characters cut after that many (never inside an escape such as `\7F`), or
/// nothing when none is that long.
static std::optional<std::string> elideLongStrings(StringRef text) {
  std::string out;
  bool changed = false;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '"') {
      out += text[i++];
      continue;
    }
    // The literal's text is [i + 1, end); `cut` is where the kept part ends.
    size_t end = i + 1, cut = 0;
    while (end < text.size() && text[end] != '"') {
      size_t step = 1;
      if (text[end] == '\\')
        step = end + 2 < text.size() && llvm::isHexDigit(text[end + 1]) &&
                       llvm::isHexDigit(text[end + 2])
                   ? 3
                   : 2;
      if (!cut && end - i - 1 + step > kMaxNoteStringLength)
        cut = end;
      end = std::min(end + step, text.size());
    }
    if (!cut) {
      out += text.substr(i, end + 1 - i);
    } else {
      out += text.substr(i, cut - i);
      out += "\"... (";
      out += std::to_string(end - cut);
      out += " more characters elided)";
      changed = true;
    }
    i = end + 1;
  }
  if (!changed)
    return std::nullopt;
  return out;
}

/// Registers, on `ctx`, a diagnostic handler that re-emits a diagnostic whose
/// notes hold long string literals with them elided (elideLongStrings). It
/// must run before the tool's printing handler (handlers run newest first),
/// so it is registered when the gpu dialect (whose objects hold such
/// strings) or the layout dialect is loaded, which happens while parsing or
/// running passes: after MlirOptMain registered its handlers. Registered
/// twice, the second sees notes already short and passes them on.
static void registerNoteEliding(MLIRContext *ctx) {
  ctx->getDiagEngine().registerHandler([ctx](Diagnostic &diag) {
    SmallVector<std::optional<std::string>> notes;
    bool any = false;
    for (Diagnostic &note : diag.getNotes()) {
      notes.push_back(elideLongStrings(note.str()));
      any |= notes.back().has_value();
    }
    if (!any)
      return failure();
    Diagnostic shorter(diag.getLocation(), diag.getSeverity());
    shorter << diag.str();
    for (auto [note, elided] : llvm::zip_equal(diag.getNotes(), notes))
      shorter.attachNote(note.getLocation()) << (elided ? *elided : note.str());
    ctx->getDiagEngine().emit(std::move(shorter));
    return success();
  });
}

int main(int argc, char **argv) {
  mlir::layout::tools::registerPasses();
  DialectRegistry registry;
  mlir::layout::tools::registerDialects(registry);
  registry.addExtension(
      +[](MLIRContext *ctx, gpu::GPUDialect *) { registerNoteEliding(ctx); });
  registry.addExtension(+[](MLIRContext *ctx, layout::LayoutDialect *) {
    registerNoteEliding(ctx);
  });
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "layout-opt version " LAYOUT_OPT_VERSION "\n";
  });
  return asMainReturnCode(MlirOptMain(
      argc, argv, "layout-opt: MLIR optimizer with the layout dialect\n",
      registry));
}
