//===- layout-reduce.cpp - The test-case reducer for layout IR ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's reducer (mlirReduceMain) with the dialects and passes layout-opt
// knows (tools/common/Registration.h): it shrinks an input while a test
// script still calls it interesting (exits 1), for example while
// `layout-opt` still fails on it with the same message.
//
// MLIR's own reduction tree (-reduction-tree) erases ranges of ops, which
// inside a function leaves their users without operands, so it mostly
// removes whole functions. This tool adds `-layout-reduce-ops`: it tries
// to erase every op, inside functions and loops too, one at a time, the
// users of an op before the op itself, replacing the results of an erased
// op by `ub.poison` so that the IR stays valid; an erasure is kept when the
// result still verifies and the script still calls it interesting. It
// repeats until nothing more goes, so the result is 1-minimal: no single op
// can be removed. (It ends: each kept erasure removes an op that is not a
// ub.poison, and the poisons are not tried.)
//
//   layout-reduce bad.mlir -layout-reduce-ops='test=check.sh' -o small.mlir
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Reducer/Tester.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

using namespace mlir;

namespace {

/// The ops of `module` in the order they are tried: for each block, its ops
/// from the last to the first (users before what they use), each op before
/// the ops nested in it (a whole function or loop before its body).
void collectCandidates(Operation *op, SmallVectorImpl<Operation *> &out) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : llvm::reverse(block)) {
        // (A ub.poison stands for an erased op: erasing it would put
        // another in its place, and the loop would never end.)
        if (!nested.hasTrait<OpTrait::IsTerminator>() &&
            !isa<ub::PoisonOp>(nested))
          out.push_back(&nested);
        collectCandidates(&nested, out);
      }
}

/// Erases `op` from its module, its results replaced by ub.poison. Fails
/// (changing nothing) for a symbol that is still used, such as a called
/// function.
LogicalResult eraseWithPoison(Operation *op) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(op))
    if (!SymbolTable::symbolKnownUseEmpty(
            op, op->getParentWithTrait<OpTrait::SymbolTable>()))
      return failure();
  OpBuilder b(op);
  for (Value result : op->getResults()) {
    if (result.use_empty())
      continue;
    Value poison = ub::PoisonOp::create(b, op->getLoc(), result.getType());
    result.replaceAllUsesWith(poison);
  }
  op->erase();
  return success();
}

struct ReduceOpsPass final
    : PassWrapper<ReduceOpsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReduceOpsPass)

  ReduceOpsPass() = default;
  ReduceOpsPass(const ReduceOpsPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "layout-reduce-ops"; }
  StringRef getDescription() const final {
    return "Erase ops one at a time (results replaced by ub.poison) while "
           "the test script still calls the input interesting";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<ub::UBDialect>();
  }

  void runOnOperation() override {
    if (testScript.empty()) {
      getOperation().emitError()
          << "-layout-reduce-ops needs its 'test' option (the script)";
      return signalPassFailure();
    }
    std::vector<std::string> args(testArgs.begin(), testArgs.end());
    Tester tester(testScript, args);
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> current = module.clone();
    if (tester.isInteresting(*current).first != Tester::Interestingness::True) {
      module.emitError() << "-layout-reduce-ops: the input is not "
                            "interesting to the test script";
      return signalPassFailure();
    }
    // Try each op in turn on a copy; keep the copy where the op went.
    // Candidates are found by position, so that a copy's op is the one
    // tried; after a kept erasure the same position holds the next one.
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 0;; ++i) {
        SmallVector<Operation *> candidates;
        collectCandidates(*current, candidates);
        if (i >= candidates.size())
          break;
        OwningOpRef<ModuleOp> trial = current->clone();
        SmallVector<Operation *> trialOps;
        collectCandidates(*trial, trialOps);
        if (failed(eraseWithPoison(trialOps[i])) || failed(verify(*trial)))
          continue;
        if (tester.isInteresting(*trial).first != Tester::Interestingness::True)
          continue;
        current = std::move(trial);
        changed = true;
        --i; // the next candidate now has this position
      }
    }
    // The reduced body replaces the module's.
    module.getBody()->clear();
    module.getBody()->getOperations().splice(
        module.getBody()->end(), current->getBody()->getOperations());
  }

  Option<std::string> testScript{
      *this, "test",
      llvm::cl::desc("The interestingness script (exits 1 when interesting)")};
  ListOption<std::string> testArgs{*this, "test-arg",
                                   llvm::cl::desc("Arguments of the script")};
};

} // namespace

int main(int argc, char **argv) {
  mlir::layout::tools::registerPasses();
  PassRegistration<ReduceOpsPass>();
  DialectRegistry registry;
  mlir::layout::tools::registerDialects(registry);
  MLIRContext context(registry);
  return failed(mlirReduceMain(argc, argv, context));
}
