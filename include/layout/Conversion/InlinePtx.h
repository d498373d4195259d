//===- InlinePtx.h - PTX the NVVM dialect lacks, as inline asm --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// One way the NVIDIA lowerings write an instruction MLIR 22 has no op for
// (ldmatrix from [reg+imm], wgmma's register-A form, ex2.approx.ftz.f32):
// an llvm.inline_asm of PTX `text` with LLVM's `constraints`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_INLINEPTX_H
#define LAYOUT_CONVERSION_INLINEPTX_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace layout {

/// The llvm.inline_asm of PTX `text` on `operands` with result `type` (a
/// literal struct for several); `sideEffects` keeps it in place and alive
/// (memory reads, asynchronous instructions), otherwise it is pure.
inline LLVM::InlineAsmOp createInlinePtx(OpBuilder &b, Location loc, Type type,
                                         ValueRange operands, StringRef text,
                                         StringRef constraints,
                                         bool sideEffects) {
  return LLVM::InlineAsmOp::create(
      b, loc, type, operands, text, constraints, sideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

} // namespace layout
} // namespace mlir

#endif // LAYOUT_CONVERSION_INLINEPTX_H
