//===- WorkgroupBuffers.h - What a workgroup buffer's base promises -*- C++
//-*-//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The one reader of a workgroup attribution's `llvm.align` (the alignment
// a buffer asks of its base: wgmma's and TMA's swizzled buffers follow
// their pattern's 256 to 1024 bytes), for the passes that place buffers
// (WorkgroupMemory.h) and those that rely on the placement (the wgmma and
// TMA lowerings).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_WORKGROUPBUFFERS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_WORKGROUPBUFFERS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace layout {

/// The `llvm.align` that workgroup attribution `index` of `func` asks for,
/// or 0 when it asks for none.
int64_t askedAttributionAlignment(gpu::GPUFuncOp func, unsigned index);

/// The alignment in bytes that `memref`'s base is known to have: a
/// workgroup attribution's `llvm.align`, a memref.view of one at a constant
/// byte shift; 1 when unknown.
int64_t knownBaseAlignment(Value memref);

/// The byte address (an index) of element `element` of workgroup buffer
/// `buffer` (elements of `elementBytes` bytes from its aligned base), as
/// the lowerings that hand shared addresses to the hardware compute it.
Value workgroupByteAddress(OpBuilder &b, Location loc, Value buffer,
                           Value element, int64_t elementBytes);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_WORKGROUPBUFFERS_H
