//===- ThreadMapping.cpp - Which thread moves which part of a tile --------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "ThreadMapping.h"

#include "layout/Dialect/Layout/Utils/TileAccess.h"
#include "layout/Evaluator/VectorLength.h"
#include "layout/Transforms/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

Value tiles::indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

LogicalResult tiles::divisionError(Operation *op, ArrayRef<int64_t> tile,
                                   int64_t threads) {
  InFlightDiagnostic d = op->emitOpError();
  d << "cooperative tile of ";
  llvm::interleave(tile, d, "x");
  d << " elements: a block of " << threads
    << " threads does not divide it into equal parts";
  return failure();
}

//===----------------------------------------------------------------------===//
// Block uniformity
//===----------------------------------------------------------------------===//

bool BlockUniformity::allUniform(ValueRange indices) {
  return llvm::all_of(indices, [&](Value i) { return isUniform(i); });
}

bool BlockUniformity::isCooperative(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return allUniform(load.getIndices());
  if (auto store = dyn_cast<StoreOp>(op))
    return allUniform(store.getIndices());
  return false;
}

bool BlockUniformity::isUniform(Value v, unsigned depth) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  if (depth > 64)
    return false;
  bool uniform = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(parent))
      uniform = arg.getOwner() == &func.getBody().front();
    else if (auto loop = dyn_cast<scf::ForOp>(parent))
      uniform = v == loop.getInductionVar() &&
                isUniform(loop.getLowerBound(), depth + 1) &&
                isUniform(loop.getUpperBound(), depth + 1) &&
                isUniform(loop.getStep(), depth + 1);
  } else {
    Operation *op = v.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp>(op))
      uniform = false;
    else if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
                 memref::DimOp>(op) ||
             (isMemoryEffectFree(op) && op->getNumRegions() == 0))
      uniform = llvm::all_of(op->getOperands(),
                             [&](Value o) { return isUniform(o, depth + 1); });
  }
  memo[v] = uniform;
  return uniform;
}

//===----------------------------------------------------------------------===//
// Mappings
//===----------------------------------------------------------------------===//

Mapping Mapping::unitWidths(ArrayRef<int64_t> tile,
                            SmallVector<int64_t> order) {
  return Mapping{llvm::to_vector(tile), SmallVector<int64_t>(tile.size(), 1),
                 std::move(order)};
}

int64_t Mapping::blocks() const {
  int64_t n = 1;
  for (auto [length, w] : llvm::zip_equal(tile, width))
    n *= length / w;
  return n;
}

bool Mapping::divides() const {
  for (auto [length, w] : llvm::zip_equal(tile, width))
    if (length % w)
      return false;
  return true;
}

bool Mapping::fits(int64_t threads) const {
  return divides() && blocks() % threads == 0;
}

int64_t Mapping::iterations(int64_t threads) const {
  return llvm::divideCeil(blocks(), threads);
}

int64_t Mapping::fitWidth(int64_t dim, int64_t max, int64_t threads,
                          bool uneven) {
  for (int64_t w = max; w >= 1; w /= 2) {
    width[dim] = w;
    if (fits(threads))
      return w;
  }
  if (uneven)
    for (int64_t w = max; w >= 1; w /= 2) {
      width[dim] = w;
      if (divides())
        return w;
    }
  width[dim] = 1;
  return 0;
}

/// The block that thread `tid` moves at iteration `iter`.
static Value blockIndex(OpBuilder &b, Location loc, Value tid, Value iter,
                        int64_t threads) {
  return arith::AddIOp::create(
      b, loc, tid,
      arith::MulIOp::create(b, loc, iter, indexConstant(b, loc, threads)));
}

SmallVector<Value> Mapping::blockOrigin(OpBuilder &b, Location loc, Value tid,
                                        Value iter, int64_t threads) const {
  Value block = blockIndex(b, loc, tid, iter, threads);
  SmallVector<Value> origin(tile.size());
  for (auto [i, k] : llvm::enumerate(order)) {
    int64_t count = tile[k] / width[k];
    Value digit = block;
    if (i + 1 < order.size()) {
      digit =
          arith::RemUIOp::create(b, loc, block, indexConstant(b, loc, count));
      block =
          arith::DivUIOp::create(b, loc, block, indexConstant(b, loc, count));
    }
    origin[k] = width[k] == 1
                    ? digit
                    : arith::MulIOp::create(b, loc, digit,
                                            indexConstant(b, loc, width[k]))
                          .getResult();
  }
  return origin;
}

Value Mapping::active(OpBuilder &b, Location loc, Value tid, Value iter,
                      int64_t threads) const {
  if (blocks() % threads == 0)
    return {};
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                               blockIndex(b, loc, tid, iter, threads),
                               indexConstant(b, loc, blocks()));
}

SmallVector<int64_t> tiles::fastestFirst(int64_t rank, int64_t first,
                                         int64_t second) {
  SmallVector<int64_t> order{first};
  if (second >= 0 && second != first)
    order.push_back(second);
  for (int64_t k = rank - 1; k >= 0; --k)
    if (!llvm::is_contained(order, k))
      order.push_back(k);
  return order;
}

SmallVector<Value> tiles::shifted(OpBuilder &b, Location loc, ValueRange base,
                                  int64_t dim, int64_t step) {
  SmallVector<Value> r(base);
  if (step)
    r[dim] = arith::AddIOp::create(b, loc, r[dim], indexConstant(b, loc, step));
  return r;
}

Value tiles::linearThreadId(OpBuilder &b, Location loc,
                            ArrayRef<int64_t> block) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  int64_t stride = block[0];
  for (auto [dim, n] : {std::pair{gpu::Dimension::y, block[1]},
                        std::pair{gpu::Dimension::z, block[2]}}) {
    if (n == 1)
      continue;
    Value t = gpu::ThreadIdOp::create(b, loc, dim);
    tid = arith::AddIOp::create(
        b, loc, tid,
        arith::MulIOp::create(b, loc, t, indexConstant(b, loc, stride)));
    stride *= n;
  }
  return tid;
}

//===----------------------------------------------------------------------===//
// Vector widths of global accesses
//===----------------------------------------------------------------------===//

int64_t tiles::elementBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

bool tiles::vectorizable(Type t) {
  // Power-of-two bytes: a vector of i24 would be packed into 12 bytes while
  // memref elements of it lie 4 bytes apart.
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits >= 8 && bits % 8 == 0 && llvm::isPowerOf2_32(bits / 8);
}

int64_t tiles::widestVector(Type t, int64_t maxBytes) {
  if (!vectorizable(t))
    return 1;
  return llvm::bit_floor(
      uint64_t(std::max<int64_t>(1, maxBytes / elementBytes(t))));
}

GlobalSide GlobalSide::of(LoadOp load) {
  return GlobalSide{load,
                    load.getPartition(),
                    llvm::to_vector(load.getIndices()),
                    load.getMasked(),
                    load.getPadding(),
                    load.getPartition().getType().getTile(),
                    load.getType().getElementType()};
}

GlobalSide GlobalSide::of(StoreOp store) {
  return GlobalSide{store,
                    store.getPartition(),
                    llvm::to_vector(store.getIndices()),
                    store.getMasked(),
                    std::nullopt,
                    store.getPartition().getType().getTile(),
                    store.getValue().getType().getElementType()};
}

LogicalResult GlobalSide::analyze(int64_t alignBytes, std::string &why) {
  FailureOr<TracedView> traced = traceTileView(op, partition, why);
  if (failed(traced))
    return failure();
  int64_t rank = tile.size();
  contiguous = rank - 1;
  maxWidth = 1;
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout =
      traced->stridedLayout();
  if (!layout) {
    if (traced->descriptor)
      vectorsThroughDescriptor(*traced, alignBytes);
    else
      narrowWhy = "its view's layout is neither strided nor a descriptor";
    return success();
  }
  ArrayRef<int64_t> strides = layout->first;
  int64_t offset = layout->second;
  auto unit = llvm::find(strides, 1);
  if (unit == strides.end()) {
    narrowWhy = "no dimension of its view has unit stride";
    return success();
  }
  contiguous = unit - strides.begin();
  unitStride = true;
  if (!vectorizable(elementType)) {
    narrowWhy = "its elements are not a power of two of whole bytes";
    return success();
  }
  int64_t width = widestVector(elementType, std::min<int64_t>(16, alignBytes));
  if (width < widestVector(elementType, 16))
    narrowWhy = llvm::formatv("assume-alignment is {0} bytes", alignBytes);
  // Why `width` elements do not keep the vectors aligned (empty: they do).
  auto misaligned = [&]() -> std::string {
    auto divides = [&](int64_t x) {
      return ShapedType::isDynamic(x) || x % width == 0;
    };
    if (tile[contiguous] % width)
      return llvm::formatv("the tile has {0} elements along dimension {1}",
                           tile[contiguous], contiguous);
    if (!divides(offset))
      return llvm::formatv("its view's static offset is {0} elements", offset);
    for (auto [k, stride] : llvm::enumerate(strides))
      if (int64_t(k) != contiguous && !divides(stride))
        return llvm::formatv("its view's static stride along dimension {0} "
                             "is {1} elements",
                             k, stride);
    return "";
  };
  for (std::string problem = misaligned(); width > 1 && !problem.empty();
       problem = misaligned()) {
    if (narrowWhy.empty())
      narrowWhy = problem;
    width /= 2;
  }
  maxWidth = width;
  return success();
}

void GlobalSide::vectorsThroughDescriptor(const TracedView &traced,
                                          int64_t alignBytes) {
  const Descriptor &d = *traced.descriptor;
  auto scalar = [&](const Twine &why) {
    narrowWhy = why.str();
    if (vectorizable(elementType))
      op->emitRemark() << "moves element by element through its view's "
                          "descriptor: "
                       << why;
  };
  if (!traced.contiguousSource)
    return scalar("the buffer's elements are not contiguous");
  int64_t offset = traced.sourceOffset;
  // Run-time lengths, strides and arguments count through their known
  // multiples (layout.assume_multiple, layout.multiple_of).
  auto known = [&](int64_t slot) { return knownSlotMultiple(traced, slot); };
  VectorRun run = lastDimRun(d, known);
  if (run.length < 2 || run.stride != 1)
    return scalar(explainLastDimRun(d, known));
  contiguous = tile.size() - 1;
  unitStride = true;
  if (!vectorizable(elementType))
    return;
  // The widest vector that divides the run and the tile, and whose first
  // elements all lie on multiples of it (offsetDivisor); a dynamic buffer
  // offset is tested at run time (GlobalAccess::alignment).
  int64_t width = widestVector(elementType, std::min<int64_t>(16, alignBytes));
  auto fits = [&] {
    int64_t divisor = offsetDivisor(d, width, known);
    return run.length % width == 0 && tile[contiguous] % width == 0 &&
           divisor % width == 0 &&
           (ShapedType::isDynamic(offset) || offset % width == 0);
  };
  if (width < widestVector(elementType, 16))
    narrowWhy = llvm::formatv("assume-alignment is {0} bytes", alignBytes);
  if (width > 1 && !fits() && narrowWhy.empty())
    narrowWhy = llvm::formatv(
        "its descriptor's runs of {0} elements, the tile's {1} elements along "
        "the last dimension and the descriptor's offsets allow no wider one",
        run.length, tile[contiguous]);
  while (width > 1 && !fits())
    width /= 2;
  maxWidth = width;
  if (width == 1)
    scalar(llvm::formatv("runs of {0} elements along the last dimension, "
                         "but no vector of them divides the tile ({1}) and "
                         "starts aligned",
                         run.length, tile[contiguous])
               .str());
}

AccessChoice AccessChoice::of(StringRef role, const Mapping &m,
                              int64_t contiguous, Type elementType,
                              int64_t threads, StringRef narrowWhy) {
  AccessChoice c;
  c.role = role.str();
  c.tile.assign(m.tile.begin(), m.tile.end());
  c.elementType = elementType;
  c.threads = threads;
  c.contiguous = contiguous;
  c.vectorElements = m.width[contiguous];
  c.iterations = m.iterations(threads);
  c.elementsPerThread = c.iterations;
  llvm::raw_string_ostream os(c.arrangement);
  for (auto [k, w] : llvm::enumerate(m.width)) {
    c.elementsPerThread *= w;
    if (int64_t(k) != contiguous && w > 1)
      os << ", in blocks of " << w << " along dimension " << k;
  }
  os << "; consecutive threads on consecutive blocks, dimension order [";
  llvm::interleaveComma(m.order, os);
  os << "], " << c.iterations
     << (c.iterations == 1 ? " iteration" : " iterations");
  if (m.blocks() % threads)
    os << " (the last one partial)";
  c.narrowWhy = narrowWhy.str();
  return c;
}

std::string tiles::describeChoice(const AccessChoice &c) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << c.threads << " threads, each moving ";
  if (c.vectorElements == 1)
    os << "single " << c.elementType << " elements";
  else
    os << c.vectorElements << " x " << c.elementType << " vectors ("
       << c.vectorElements * elementBytes(c.elementType) << " bytes)";
  os << " along dimension " << c.contiguous << c.arrangement << "; "
     << c.elementsPerThread
     << (c.elementsPerThread == 1 ? " element" : " elements") << " per thread";
  return text;
}

void tiles::remarkAccess(Location loc, StringRef function,
                         const AccessChoice &c, bool diagnostic) {
  int64_t bytes = c.vectorElements * elementBytes(c.elementType);
  std::string tile;
  llvm::raw_string_ostream os(tile);
  llvm::interleave(c.tile, os, "x");
  os << "x" << c.elementType;
  std::string text =
      llvm::formatv("tile {0} of {1}: {2}", c.role, tile, describeChoice(c))
          .str();
  bool narrow = bytes < 16 && !c.narrowWhy.empty();
  if (narrow)
    text += "; narrower than 16 bytes: " + c.narrowWhy;
  SmallVector<std::pair<StringRef, std::string>> metrics{
      {"Access", c.role},
      {"Tile", tile},
      {"Threads", std::to_string(c.threads)},
      {"Dimension", std::to_string(c.contiguous)},
      {"ElementsPerThread", std::to_string(c.elementsPerThread)}};
  metrics.append(c.metrics.begin(), c.metrics.end());
  metrics.append({{"VectorElements", std::to_string(c.vectorElements)},
                  {"VectorBytes", std::to_string(bytes)}});
  if (c.iterations)
    metrics.push_back({"Iterations", std::to_string(c.iterations)});
  metrics.push_back({"Why", narrow ? c.narrowWhy : std::string()});
  emitLayoutRemark(loc, "TileAccess", "layout-tiles", function, text, metrics,
                   diagnostic);
}

void tiles::remarkAccess(Operation *op, const AccessChoice &choice,
                         bool diagnostic) {
  std::string function;
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    function = func.getName().str();
  remarkAccess(op->getLoc(), function, choice, diagnostic);
}
