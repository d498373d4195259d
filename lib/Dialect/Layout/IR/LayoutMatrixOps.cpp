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
#include "mlir/IR/Matchers.h"

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
static LogicalResult verifyOperand(Operation *op, StringRef name, Value buffer,
                                   Value desc, ValueRange origin,
                                   ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> extents) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!inWorkgroupMemory(type))
    return op->emitOpError() << name
                             << " must be a workgroup-memory buffer (wgmma "
                                "reads its operands from shared memory), got "
                             << type;
  auto descType = cast<DescType>(desc.getType());
  unsigned rank = descType.getRank();
  if (origin.size() != rank)
    return op->emitOpError()
           << name << "'s origin takes " << rank
           << " indices (the descriptor's rank), got " << origin.size();
  if (dims.size() != 2 || dims[0] == dims[1] || dims[0] < 0 || dims[1] < 0 ||
      dims[0] >= int64_t(rank) || dims[1] >= int64_t(rank))
    return op->emitOpError()
           << name
           << "_dims takes two different top dimensions of its descriptor "
              "(rank "
           << rank << ")";
  ArrayRef<int64_t> lengths = descType.getLengths();
  for (int i = 0; i < 2; ++i)
    if (!ShapedType::isDynamic(lengths[dims[i]]) &&
        lengths[dims[i]] < extents[i])
      return op->emitOpError()
             << name << "'s descriptor is " << lengths[dims[i]]
             << " long along top dimension " << dims[i] << ", shorter than "
             << "the instruction's " << extents[i];
  return success();
}

/// Checks a wgmma's `shape` ([64, N, k], N a multiple of 8 up to 256) and
/// its accumulator (N / 2 f32 per lane); `inputs` names A's and B's type.
static LogicalResult verifyWgmmaShape(Operation *op, ArrayRef<int64_t> shape,
                                      int64_t k, Type inputs, Type acc) {
  if (shape.size() != 3 || shape[0] != 64 || shape[2] != k || shape[1] < 8 ||
      shape[1] > 256 || shape[1] % 8)
    return op->emitOpError()
           << "shape must be [64, N, " << k
           << "] with N a multiple of 8 up to 256 (wgmma m64nNk" << k
           << " with " << inputs << " inputs)";
  int64_t n = shape[1];
  auto accType = cast<VectorType>(acc);
  if (accType.getNumElements() != n / 2)
    return op->emitOpError()
           << "the accumulator of a 64x" << n << " wgmma holds " << n / 2
           << " f32 per lane (vector<" << n / 2 << "xf32>), got " << accType;
  return success();
}

LogicalResult WarpgroupMmaOp::verify() {
  Type ea = cast<MemRefType>(getA().getType()).getElementType();
  Type eb = cast<MemRefType>(getB().getType()).getElementType();
  if (ea != eb)
    return emitOpError() << "A and B must have one element type, got " << ea
                         << " and " << eb;
  // PTX ISA 9.7.15.2: K is 32 bytes of A's and B's elements.
  int64_t k = 256 / ea.getIntOrFloatBitWidth();
  if (failed(verifyWgmmaShape(*this, getShape(), k, ea, getAcc().getType())))
    return failure();
  int64_t n = getShape()[1];
  if (failed(verifyOperand(*this, "a", getA(), getADesc(), getAOrigin(),
                           getADims(), {64, k})) ||
      failed(verifyOperand(*this, "b", getB(), getBDesc(), getBOrigin(),
                           getBDims(), {k, n})))
    return failure();
  return success();
}

LogicalResult WarpgroupMmaRegAOp::verify() {
  Type ea = cast<VectorType>(getA().getType()).getElementType();
  Type eb = cast<MemRefType>(getB().getType()).getElementType();
  if (ea != eb)
    return emitOpError() << "A and B must have one element type, got " << ea
                         << " and " << eb;
  if (failed(verifyWgmmaShape(*this, getShape(), 16, ea, getAcc().getType())))
    return failure();
  return verifyOperand(*this, "b", getB(), getBDesc(), getBOrigin(), getBDims(),
                       {16, getShape()[1]});
}

//===----------------------------------------------------------------------===//
// Tensor-memory-accelerator copies and mbarriers
//===----------------------------------------------------------------------===//

/// PTX ISA 9.7.13.15.1: an mbarrier's arrival and transaction counts are
/// below 2^20.
static constexpr int64_t kMbarrierCountLimit = (int64_t(1) << 20) - 1;

/// Checks that `barriers` is a workgroup buffer of mbarriers, a constant
/// `index` one of them, and `value` (what `what` names) is in [1, 2^20).
static LogicalResult verifyMbarrier(Operation *op, Value barriers, Value index,
                                    std::optional<int64_t> value,
                                    StringRef what) {
  auto type = cast<MemRefType>(barriers.getType());
  if (!inWorkgroupMemory(type))
    return op->emitOpError() << "barriers must be a workgroup-memory buffer "
                                "of 64-bit mbarriers, got "
                             << type;
  APInt at;
  if (matchPattern(index, m_ConstantInt(&at)) && !type.isDynamicDim(0) &&
      (at.getSExtValue() < 0 || at.getSExtValue() >= type.getDimSize(0)))
    return op->emitOpError()
           << "barrier index " << at.getSExtValue() << " is outside the "
           << type.getDimSize(0) << " barriers of " << type;
  if (value && (*value < 1 || *value > kMbarrierCountLimit))
    return op->emitOpError()
           << what << " must be in [1, " << kMbarrierCountLimit
           << "] (PTX mbarrier counts), got " << *value;
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  return verifyMbarrier(*this, getBarriers(), getIndex(), getArrivals(),
                        "arrivals");
}

LogicalResult MbarrierArriveExpectTxOp::verify() {
  return verifyMbarrier(*this, getBarriers(), getIndex(), getBytes(), "bytes");
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyMbarrier(*this, getBarriers(), getIndex(), std::nullopt, "");
}

int64_t BulkTensorLoadOp::getBoxBytes() {
  int64_t elements = 1;
  for (int64_t e : getBox())
    elements *= e;
  auto type = cast<MemRefType>(getDest().getType());
  return elements * type.getElementTypeBitWidth() / 8;
}

/// The im2col form's operands and attributes (the tiled form has none of
/// them): filter offsets, corners and traversal strides per spatial
/// dimension, within cuTensorMapEncodeIm2col's ranges.
LogicalResult BulkTensorLoadOp::verifyIm2col() {
  int64_t rank = cast<MemRefType>(getSource().getType()).getRank();
  auto lower = getLowerCorner(), upper = getUpperCorner();
  auto strides = getTraversalStrides();
  if (!isIm2col()) {
    if (lower || upper || strides)
      return emitOpError() << "lower_corner, upper_corner and "
                              "traversal_strides belong to the im2col form "
                              "(im2col [offsets])";
    return success();
  }
  if (rank < 3)
    return emitOpError() << "im2col needs a source of rank 3 to 5 (N, "
                            "spatial dimensions, C), got rank "
                         << rank;
  size_t spatial = rank - 2;
  if (getOffsets().size() != spatial)
    return emitOpError() << "im2col takes " << spatial
                         << " filter offsets (one per spatial dimension), "
                            "got "
                         << getOffsets().size();
  if (!lower || !upper || !strides || lower->size() != spatial ||
      upper->size() != spatial || strides->size() != spatial)
    return emitOpError() << "im2col needs lower_corner, upper_corner and "
                            "traversal_strides of "
                         << spatial << " entries each";
  // cuTensorMapEncodeIm2col: 16-bit corners at rank 3, 8-bit at rank 4,
  // 5-bit at rank 5; traversal strides 1 to 8.
  int64_t bits = rank == 3 ? 16 : rank == 4 ? 8 : 5;
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  for (int64_t c : llvm::concat<const int64_t>(*lower, *upper))
    if (c < lo || c > hi)
      return emitOpError() << "a rank-" << rank << " im2col corner must be in ["
                           << lo << ", " << hi << "], got " << c;
  for (int64_t s : *strides)
    if (s < 1 || s > 8)
      return emitOpError() << "traversal strides must be in [1, 8], got " << s;
  return success();
}

LogicalResult BulkTensorLoadOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto dest = cast<MemRefType>(getDest().getType());
  int64_t rank = source.getRank();
  if (rank < 1 || rank > 5)
    return emitOpError() << "source must have rank 1 to 5 (a tensor map's), "
                            "got "
                         << source;
  if (getIndices().size() != size_t(rank))
    return emitOpError() << "takes " << rank << " source indices, got "
                         << getIndices().size();
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "copies " << source.getElementType()
                         << " elements into a buffer of "
                         << dest.getElementType();
  if (!inWorkgroupMemory(dest))
    return emitOpError() << "dest must be a workgroup-memory buffer, got "
                         << dest;
  if (source.getMemorySpace() && inWorkgroupMemory(source))
    return emitOpError() << "source must be in global memory, got " << source;
  ArrayRef<int64_t> box = getBox();
  if (failed(verifyIm2col()))
    return failure();
  int64_t boxRank = isIm2col() ? 2 : rank;
  if (box.size() != size_t(boxRank))
    return emitOpError() << "box takes " << boxRank << " extents"
                         << (isIm2col() ? " (pixels, channels)" : "")
                         << ", got " << box.size();
  for (auto [i, e] : llvm::enumerate(box)) {
    int64_t most = isIm2col() && i == 0 ? 1024 : 256;
    if (e < 1 || e > most)
      return emitOpError() << "box extents must be in [1, " << most
                           << "] (TMA), got " << e;
  }
  auto descType = cast<DescType>(getDesc().getType());
  int64_t descRank = descType.getRank();
  if (getOrigin().size() != size_t(descRank))
    return emitOpError() << "origin takes " << descRank
                         << " indices (the descriptor's rank), got "
                         << getOrigin().size();
  ArrayRef<int64_t> dims = getDestDims();
  if (dims.size() != size_t(boxRank))
    return emitOpError() << "dest_dims takes one descriptor dimension per "
                            "box dimension ("
                         << boxRank << "), got " << dims.size();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= descRank || llvm::count(dims, d) != 1)
      return emitOpError() << "dest_dims must be different top dimensions of "
                              "the descriptor (rank "
                           << descRank << ")";
    int64_t length = descType.getLengths()[d];
    if (!ShapedType::isDynamic(length) && length < box[i])
      return emitOpError() << "the descriptor is " << length
                           << " long along top dimension " << d
                           << ", shorter than the box's " << box[i];
  }
  if (getBoxBytes() > kMbarrierCountLimit)
    return emitOpError() << "box of " << getBoxBytes()
                         << " bytes exceeds an mbarrier's transaction count";
  return verifyMbarrier(*this, getBarriers(), getBarrier(), std::nullopt, "");
}
