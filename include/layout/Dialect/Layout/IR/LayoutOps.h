//===- LayoutOps.h - Ops of the layout dialect ------------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H

#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.h.inc"

namespace mlir {
namespace layout {

/// Traces a descriptor value back through its `layout.transform` producers to
/// its base (`layout.naive`, `layout.packed`, `layout.aligned`) and returns
/// the evaluator's form of the whole chain. Fails, saying why, when the origin
/// cannot be traced (a block argument, an op of another dialect) or when an
/// op of the chain is invalid.
///
/// A chain with run-time values (`?` lengths, strides or arguments) is
/// traced only when `runTime` is given: its values are appended to it, and
/// the descriptor holds the n-th as dynamicSlot(n) (Transform.h). Without
/// it such a chain is refused, so that the analyses and folders that need
/// static values see only static descriptors.
llvm::Expected<Descriptor>
traceDescriptor(Value desc, SmallVectorImpl<Value> *runTime = nullptr);

/// The inverse of traceDescriptor for a static descriptor: `d` as IR at
/// `b`'s insertion point, its base op (`layout.packed`, `layout.aligned` or
/// `layout.naive` with its offset and an explicit space, as `d` has them)
/// and one `layout.transform` per stage. Returns the last value.
Value buildDescriptor(OpBuilder &b, Location loc, const Descriptor &d);

/// `stages` as IR on the descriptor `desc`, at `b`'s insertion point: one
/// `layout.transform` per stage (buildDescriptor's chain). Returns the last
/// value (`desc` when there are none).
Value buildStages(OpBuilder &b, Location loc, Value desc,
                  ArrayRef<Stage> stages);

/// Whether a descriptor type's lengths `type` hold the lengths `computed`:
/// equal, except that a `?` in the type may stand for a static length.
bool isCompatibleLengths(ArrayRef<int64_t> computed, ArrayRef<int64_t> type);

/// Whether `op` is an op of the layout algebra (layout.compose, ...).
bool isAlgebraOp(Operation *op);

/// The result of an op of the layout algebra, from its traced operands: the
/// descriptor of CuTe's result with each mode coalesced, or why not.
llvm::Expected<Descriptor> algebraDescriptor(Operation *op);

/// The `layout.view` that produces a tensor view value, or why it cannot be
/// traced (a block argument, another op).
llvm::Expected<ViewOp> traceView(Value tensorView);

/// The `layout.partition` that produces a partition view value, or why not.
llvm::Expected<PartitionOp> tracePartition(Value partition);

namespace detail {
/// Writes into `entries` (a `layout.transform`'s stage) each run-time
/// argument whose operand, `args[n]` for the n-th, is a constant; `kept`
/// receives the operands that stay run-time values, in order. A constant in
/// the range reserved for run-time values (isDynamic) stays one. Returns
/// whether any was written in. The canonicalizer folds with it and the
/// verifier checks the stage it gives.
bool writeConstantArgs(Stage &entries, ValueRange args,
                       SmallVectorImpl<Value> &kept);

/// The error of an op's inferReturnTypes at `loc`, prefixed as the op's own
/// errors are ("'layout.partition' op ..."). Without a location the caller
/// asked for no report (MLIR's emitOptionalError convention): the
/// diagnostic is inactive.
InFlightDiagnostic inferError(MLIRContext *ctx, std::optional<Location> loc,
                              StringRef opName);

/// Checks, before an op's inferReturnTypes reads them, that it has at least
/// `minOperands` operands and each attribute of `attrs` (an attribute of
/// the wrong kind reaches the adaptor as null): reports the first one
/// missing through inferError.
LogicalResult checkInferInputs(MLIRContext *ctx, std::optional<Location> loc,
                               StringRef opName, ValueRange operands,
                               size_t minOperands,
                               ArrayRef<std::pair<StringRef, Attribute>> attrs);
} // namespace detail

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
