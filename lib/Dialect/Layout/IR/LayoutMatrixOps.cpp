//===- LayoutMatrixOps.cpp - Matrix instructions on workgroup memory ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The verifier of layout.warpgroup_mma: what the op's own types and
// attributes can tell. That the descriptors match a hardware layout is
// proved by its lowering (WarpgroupMmaToNVVM), which has the chain.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::layout;

/// Whether `type` lives in workgroup memory (`#gpu.address_space<workgroup>`
/// or address space 3, as the NVVM lowering spells it).
static bool inWorkgroupMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto i = dyn_cast_or_null<IntegerAttr>(space))
    return i.getInt() == 3;
  if (!space)
    return false;
  std::string s;
  llvm::raw_string_ostream os(s);
  space.print(os);
  return StringRef(s).contains("workgroup");
}

/// Checks one operand: its buffer, descriptor, origin and dims.
static LogicalResult verifyOperand(WarpgroupMmaOp op, StringRef name,
                                   Value buffer, Value desc, ValueRange origin,
                                   ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> extents) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!inWorkgroupMemory(type))
    return op.emitOpError() << name
                            << " must be a workgroup-memory buffer (wgmma "
                               "reads its operands from shared memory), got "
                            << type;
  auto descType = cast<DescType>(desc.getType());
  unsigned rank = descType.getRank();
  if (origin.size() != rank)
    return op.emitOpError()
           << name << "'s origin takes " << rank
           << " indices (the descriptor's rank), got " << origin.size();
  if (dims.size() != 2 || dims[0] == dims[1] || dims[0] < 0 || dims[1] < 0 ||
      dims[0] >= int64_t(rank) || dims[1] >= int64_t(rank))
    return op.emitOpError()
           << name
           << "_dims takes two different top dimensions of its descriptor "
              "(rank "
           << rank << ")";
  ArrayRef<int64_t> lengths = descType.getLengths();
  for (int i = 0; i < 2; ++i)
    if (!ShapedType::isDynamic(lengths[dims[i]]) &&
        lengths[dims[i]] < extents[i])
      return op.emitOpError()
             << name << "'s descriptor is " << lengths[dims[i]]
             << " long along top dimension " << dims[i] << ", shorter than "
             << "the instruction's " << extents[i];
  return success();
}

LogicalResult WarpgroupMmaOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (shape.size() != 3 || shape[0] != 64 || shape[2] != 16 || shape[1] < 8 ||
      shape[1] > 256 || shape[1] % 8)
    return emitOpError()
           << "shape must be [64, N, 16] with N a multiple of 8 up to 256 "
              "(wgmma m64nNk16 with 16-bit inputs)";
  int64_t n = shape[1];
  auto accType = cast<VectorType>(getAcc().getType());
  if (accType.getNumElements() != n / 2)
    return emitOpError() << "the accumulator of a 64x" << n << " wgmma holds "
                         << n / 2 << " f32 per lane (vector<" << n / 2
                         << "xf32>), got " << accType;
  Type ea = cast<MemRefType>(getA().getType()).getElementType();
  Type eb = cast<MemRefType>(getB().getType()).getElementType();
  if (ea != eb)
    return emitOpError() << "A and B must have one element type, got " << ea
                         << " and " << eb;
  if (failed(verifyOperand(*this, "a", getA(), getADesc(), getAOrigin(),
                           getADims(), {64, 16})) ||
      failed(verifyOperand(*this, "b", getB(), getBDesc(), getBOrigin(),
                           getBDims(), {16, n})))
    return failure();
  return success();
}
