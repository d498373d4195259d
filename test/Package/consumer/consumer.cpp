//===- consumer.cpp - Uses layout-opt as a library ------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// What another compiler does with the package: evaluates a descriptor with
// the evaluator, loads the dialect, lowers layout.offset with
// populateLayoutToAffinePatterns, and runs a layout pass by name from the
// registry.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Evaluator/Descriptor.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const char *kSource = R"mlir(
func.func @offset(%i: index, %j: index, %k: index) -> index {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                            #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
       : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %o = layout.offset %t[%i, %j, %k] : !layout.desc<2x2x3>
  return %o : index
}
)mlir";

int main() {
  // The evaluator alone.
  llvm::Expected<layout::Descriptor> packed =
      layout::Descriptor::packed({2, 6});
  if (!packed) {
    llvm::errs() << llvm::toString(packed.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "evaluator: offset of [1, 5] in packed [2, 6] = "
               << packed->offset({1, 5}) << "\n";

  // The dialect and a populate entry point.
  DialectRegistry registry;
  registry.insert<layout::LayoutDialect, func::FuncDialect, arith::ArithDialect,
                  affine::AffineDialect, gpu::GPUDialect>();
  MLIRContext context(registry);
  // Patterns create ops of these dialects: a pass would list them as
  // dependent dialects; here they are loaded up front.
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kSource, &context);
  if (!module)
    return 1;
  RewritePatternSet patterns(&context);
  layout::populateLayoutToAffinePatterns(patterns);
  if (failed(applyPatternsGreedily(*module, std::move(patterns))))
    return 1;
  module->print(llvm::outs());

  // A pass by name, after registering the project's passes.
  layout::registerLayoutTransformsPasses();
  PassManager pm(&context);
  if (failed(
          parsePassPipeline("builtin.module(layout-tile-shared-memory)", pm))) {
    llvm::errs() << "cannot parse the pipeline\n";
    return 1;
  }
  if (failed(pm.run(*module)))
    return 1;
  llvm::outs() << "pass: layout-tile-shared-memory ran\n";
  return 0;
}
