// Differential test of the lowering: random valid chains (every transform
// kind, up to 6 stages; see tools/layout-chain-gen) are compiled for the CPU
// and run; every in-bounds coordinate's offset and validity, and the
// inverse where the chain is invertible, must match the evaluator. Five
// seeds of %differential_count chains, each run twice: through the whole
// -layout-to-llvm pipeline (canonicalization first) and lowered before any
// canonicalization.

// RUN: for s in 1 2 3 4 5; do \
// RUN:   layout-chain-gen --seed $s --count %differential_count > %t.$s.mlir; \
// RUN:   layout-opt %t.$s.mlir -layout-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils; \
// RUN:   layout-opt %t.$s.mlir -convert-layout-to-affine -layout-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils; \
// RUN: done > %t.out
// Three more seeds whose chains take 40% of their lengths, strides and
// arguments as run-time values (`?` with SSA operands the compiled code
// computes with as symbols), checked against the evaluator at the static
// values.
// RUN: for s in 11 12 13; do \
// RUN:   layout-chain-gen --seed $s --count %differential_count \
// RUN:       --dynamic-percent 40 > %t.d$s.mlir; \
// RUN:   grep -q "(run-time values)" %t.d$s.mlir || echo "NO RUN-TIME VALUES"; \
// RUN:   layout-opt %t.d$s.mlir -layout-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils; \
// RUN:   layout-opt %t.d$s.mlir -convert-layout-to-affine -layout-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils; \
// RUN: done >> %t.out
// RUN: FileCheck %s --implicit-check-not=MISMATCH \
// RUN:     --implicit-check-not="NO RUN-TIME VALUES" < %t.out

// CHECK-COUNT-16: checked {{[1-9][0-9]*}} coordinates in {{[1-9][0-9]*}} chains: 0{{$}}
// CHECK-NOT: MISMATCH
