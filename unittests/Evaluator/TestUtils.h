//===- TestUtils.h - Helpers shared by the evaluator's tests ----*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_UNITTESTS_EVALUATOR_TESTUTILS_H
#define LAYOUT_UNITTESTS_EVALUATOR_TESTUTILS_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/MatrixInstructions.h"

#include "gtest/gtest.h"

namespace mlir {
namespace layout {

/// The descriptor, or a test failure with the evaluator's message (and a
/// placeholder descriptor so that the test can go on).
inline Descriptor unwrap(llvm::Expected<Descriptor> d) {
  if (!d) {
    ADD_FAILURE() << llvm::toString(d.takeError());
    return *Descriptor::packed({1});
  }
  return std::move(*d);
}

/// The table's instruction of `mnemonic`, or a test failure (and the
/// table's first instruction).
inline const MatrixInstruction &
matrixInstructionNamed(llvm::StringRef mnemonic) {
  for (const MatrixInstruction &inst : getMatrixInstructions())
    if (inst.mnemonic == mnemonic)
      return inst;
  ADD_FAILURE() << "no instruction " << mnemonic.str();
  return getMatrixInstructions().front();
}

} // namespace layout
} // namespace mlir

#endif // LAYOUT_UNITTESTS_EVALUATOR_TESTUTILS_H
