//===- LayoutCoords.cpp - Incremental coordinates -------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::layout;

/// Checks that `coord` belongs to `desc`: same top lengths and, where the
/// chain is known, as many hidden indices as it has.
static LogicalResult verifyCoord(Operation *op, Value desc, CoordType coord) {
  auto descType = cast<DescType>(desc.getType());
  if (descType.getLengths() != coord.getLengths())
    return op->emitOpError()
           << "coordinate type " << coord
           << " does not have the descriptor's lengths (" << descType << ")";
  SmallVector<Value> runTime; // (the structure is all that is asked)
  llvm::Expected<Descriptor> d = traceDescriptor(desc, &runTime);
  if (!d) {
    llvm::consumeError(d.takeError());
    return success();
  }
  int64_t hidden = d->getNumHiddenIndices();
  if (coord.getHidden() != hidden)
    return op->emitOpError()
           << "coordinate type " << coord << " carries " << coord.getHidden()
           << " hidden indices but the descriptor's chain has " << hidden;
  return success();
}

LogicalResult MakeCoordOp::verify() {
  DescType type = getDesc().getType();
  if (getIndices().size() != type.getRank())
    return emitOpError() << "expects " << type.getRank()
                         << " indices (the rank of " << type << "), got "
                         << getIndices().size();
  return verifyCoord(*this, getDesc(), getType());
}

LogicalResult MoveCoordOp::verify() {
  unsigned rank = getDesc().getType().getRank();
  if (std::optional<ArrayRef<int64_t>> steps = getStaticSteps()) {
    if (!getSteps().empty())
      return emitOpError() << "takes a static or a dynamic step, not both";
    if (steps->size() != rank)
      return emitOpError() << "static step has " << steps->size()
                           << " entries but the descriptor has rank " << rank;
  } else if (getSteps().size() != rank) {
    return emitOpError() << "expects " << rank << " step values, got "
                         << getSteps().size();
  }
  return verifyCoord(*this, getDesc(), getCoord().getType());
}

ParseResult MoveCoordOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand desc, coord;
  SmallVector<OpAsmParser::UnresolvedOperand> steps;
  Type descType, coordType;
  if (parser.parseOperand(desc) || parser.parseComma() ||
      parser.parseOperand(coord))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("by"))) {
    SmallVector<int64_t> values;
    if (layout::detail::parseIntegerList(parser, values))
      return failure();
    result.addAttribute(getStaticStepsAttrName(result.name),
                        parser.getBuilder().getDenseI64ArrayAttr(values));
  } else if (parser.parseOperandList(steps, OpAsmParser::Delimiter::Square)) {
    return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(descType) || parser.parseComma() ||
      parser.parseType(coordType) ||
      parser.resolveOperand(desc, descType, result.operands) ||
      parser.resolveOperand(coord, coordType, result.operands) ||
      parser.resolveOperands(steps, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addTypes(coordType);
  return success();
}

void MoveCoordOp::print(OpAsmPrinter &p) {
  p << " " << getDesc() << ", " << getCoord();
  if (std::optional<ArrayRef<int64_t>> steps = getStaticSteps())
    p << " by " << formatIntList(*steps);
  else
    p << "[" << getSteps() << "]";
  p.printOptionalAttrDict((*this)->getAttrs(), {getStaticStepsAttrName()});
  p << " : ";
  p.printType(getDesc().getType());
  p << ", ";
  p.printType(getCoord().getType());
}

LogicalResult CoordOffsetOp::verify() {
  return verifyCoord(*this, getDesc(), getCoord().getType());
}

LogicalResult CoordValidOp::verify() {
  return verifyCoord(*this, getDesc(), getCoord().getType());
}
