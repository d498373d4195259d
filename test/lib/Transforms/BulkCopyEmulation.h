//===- BulkCopyEmulation.h - TMA copies and mbarriers on the CPU -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// For -layout-test-gpu-to-loops: rewrites a kernel's TMA box copies
// (layout.bulk_tensor_load) and mbarrier ops into host code before the
// kernel is cut into pieces. A box copy runs synchronously where it is
// issued: element by element from the source (zero outside it) to the
// destination's descriptor offset, then completes its bytes on the
// barrier. Each mbarrier is emulated in its own 64-bit word (phase parity,
// pending arrivals, expected arrivals, pending transaction bytes), with
// the PTX ISA's rules (9.7.13.15): a phase completes when its arrivals and
// its bytes are all in, then the next starts. A wait on a phase that has
// not completed stops the run with an error (cf.assert): on the GPU it
// would hang, and in the emulation's order of execution nothing can
// complete it later; an arrival beyond the expected count and bytes
// completed on a barrier that did not expect them stop it too.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_LIB_TRANSFORMS_BULKCOPYEMULATION_H
#define LAYOUT_TEST_LIB_TRANSFORMS_BULKCOPYEMULATION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {
namespace test {

/// Rewrites `kernel`'s layout.bulk_tensor_load and layout.mbarrier_* ops
/// into the synchronous host code above.
void emulateBulkCopies(gpu::GPUFuncOp kernel);

} // namespace test
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TEST_LIB_TRANSFORMS_BULKCOPYEMULATION_H
