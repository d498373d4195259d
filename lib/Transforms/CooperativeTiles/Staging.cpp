//===- Staging.cpp - Workgroup buffers that tiles are staged through ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The staging buffers of Staging.h: their shape and allocation, phase 1 of
// a staged leaf (stageLeaf, with its run-time versions), and the reads,
// writes and asynchronous copies of staged blocks.
//
//===----------------------------------------------------------------------===//

#include "Staging.h"

#include "layout/Target/BankModel.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::tiles;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value tiles::addAlignedWorkgroupBuffer(gpu::GPUFuncOp func,
                                       ArrayRef<int64_t> shape,
                                       Type elementType, Location loc) {
  auto type =
      MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                      gpu::AddressSpaceAttr::get(func.getContext(),
                                                 gpu::AddressSpace::Workgroup));
  Value buffer = func.addWorkgroupAttribution(type, loc);
  func.setWorkgroupAttributionAttr(
      func.getNumWorkgroupAttributions() - 1,
      LLVM::LLVMDialect::getAlignAttrName(),
      IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                       kWorkgroupBufferAlignment));
  return buffer;
}

llvm::MaybeAlign tiles::workgroupAccessAlignment(int64_t bytes) {
  return llvm::MaybeAlign(llvm::MinAlign(bytes, kMaxWorkgroupAccessAlignment));
}

FailureOr<StagingMapping> tiles::stagingMapping(const Leaf &leaf,
                                                int64_t threads, bool transpose,
                                                bool uneven) {
  const GlobalSide &src = leaf.side;
  int64_t rank = src.tile.size();
  int64_t across = leaf.bufDims.empty() ? -1 : leaf.bufDims.back();
  transpose = transpose && across >= 0 && across != src.contiguous &&
              vectorizable(src.elementType);
  StagingMapping s{
      Mapping::unitWidths(src.tile,
                          transpose ? fastestFirst(rank, across, src.contiguous)
                                    : fastestFirst(rank, src.contiguous)),
      0, 0};
  s.width = s.mapping.fitWidth(src.contiguous, src.maxWidth, threads, uneven);
  if (!s.width)
    return divisionError(leaf.load, src.tile, threads);
  if (transpose) {
    s.across = across;
    s.depth = std::max<int64_t>(
        1, s.mapping.fitWidth(across, widestVector(src.elementType, 16),
                              threads, uneven));
  }
  s.iterations = s.mapping.iterations(threads);
  return s;
}

namespace {
/// The shape of `leaf`'s staging buffer of `stages` stages, and its strides
/// when `padRows` pads its rows (empty: packed).
struct StagingShape {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> strides;

  StagingShape(const Leaf &leaf, int64_t stages, bool padRows) {
    if (stages > 1)
      shape.push_back(stages);
    for (int64_t k : leaf.bufDims)
      shape.push_back(leaf.side.tile[k] + (k == leaf.haloDim ? leaf.halo : 0));
    int64_t rank = shape.size();
    if (!padRows || rank < 2)
      return;
    // Row-major with each row padded to an odd number of banks (the bank
    // model's rule, met within 7 elements of any length).
    strides.assign(rank, 1);
    std::optional<int64_t> row =
        paddedRowLength(shape[rank - 1], elementBytes(leaf.side.elementType));
    assert(row && "no odd-word row length within the padding steps");
    strides[rank - 2] = row.value_or(shape[rank - 1]);
    for (int64_t k = rank - 3; k >= 0; --k)
      strides[k] = strides[k + 1] * shape[k + 1];
  }
  int64_t elements() const {
    return strides.empty() ? ShapedType::getNumElements(shape)
                           : strides[0] * shape[0];
  }
};
} // namespace

int64_t tiles::stagingBufferElements(const Leaf &leaf, int64_t stages,
                                     bool padRows) {
  return StagingShape(leaf, stages, padRows).elements();
}

int64_t tiles::versionedStagingBytes(const Leaf &leaf, const Leaf &window) {
  return std::max(stagingBufferElements(leaf, 1, /*padRows=*/false),
                  stagingBufferElements(window, 1, /*padRows=*/true)) *
         elementBytes(leaf.side.elementType);
}

void tiles::allocateStagingBuffer(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b,
                                  int64_t stages, bool padRows, Value storage) {
  const GlobalSide &src = leaf.side;
  Location loc = leaf.load.getLoc();
  leaf.stages = stages;
  StagingShape layout(leaf, stages, padRows);
  ArrayRef<int64_t> shape = layout.shape;
  int64_t space = layout.elements();
  if (storage) {
    // A view of the bytes, at the kernel's start.
    OpBuilder eb = OpBuilder::atBlockBegin(&func.getBody().front());
    auto type =
        MemRefType::get({space}, src.elementType, MemRefLayoutAttrInterface(),
                        cast<MemRefType>(storage.getType()).getMemorySpace());
    leaf.buffer = memref::ViewOp::create(
        eb, loc, type, storage, indexConstant(eb, loc, 0), ValueRange());
  } else {
    leaf.buffer =
        addAlignedWorkgroupBuffer(func, {space}, src.elementType, loc);
  }
  // A packed descriptor, or a naive one whose rows are padded (valid by
  // construction: its space holds every row).
  leaf.desc = buildDescriptor(
      b, loc,
      llvm::cantFail(layout.strides.empty()
                         ? Descriptor::packed(shape)
                         : Descriptor::naive(shape, layout.strides, 0, space)));
}

void tiles::writeStagedBlock(OpBuilder &b, Location loc, const Leaf &leaf,
                             ArrayRef<Value> origin, Value v, int64_t width,
                             Value stage) {
  const GlobalSide &src = leaf.side;
  if (src.contiguous == leaf.bufDims.back()) {
    Value offset =
        OffsetOp::create(b, loc, leaf.desc, leaf.bufCoord(origin, stage));
    vector::StoreOp::create(
        b, loc, v, leaf.buffer, offset, /*nontemporal=*/false,
        workgroupAccessAlignment(width * elementBytes(src.elementType)));
    return;
  }
  for (int64_t i = 0; i < width; ++i) {
    Value offset = OffsetOp::create(
        b, loc, leaf.desc,
        leaf.bufCoord(shifted(b, loc, origin, src.contiguous, i), stage));
    memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, v, i),
                            leaf.buffer, offset);
  }
}

//===----------------------------------------------------------------------===//
// Phase 1 of a staged leaf
//===----------------------------------------------------------------------===//

namespace {

/// Emits `then` under `cond` and `otherwise` in the else branch.
void ifElse(OpBuilder &b, Location loc, Value cond,
            function_ref<void(OpBuilder &)> then,
            function_ref<void(OpBuilder &)> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  OpBuilder eb = ifOp.getElseBodyBuilder();
  then(tb);
  otherwise(eb);
}

/// Phase 1 element by element into `target`'s buffer (the leaf's, or its
/// second version's): consecutive lanes on consecutive elements along the
/// load's rows of `src` (read through `elements`), and the neighbouring
/// tile's last `target.halo` rows before the tile where it keeps them.
void stageElements(OpBuilder &sb, Location loc, const GlobalSide &src,
                   const Leaf &target, const GlobalAccess &elements, Value tid,
                   int64_t threads) {
  int64_t rank = src.tile.size();
  Mapping m = Mapping::unitWidths(src.tile, fastestFirst(rank, src.contiguous));
  auto tile = [&](OpBuilder &ib, bool inside) {
    forEachBlock(ib, loc, m, tid, threads,
                 [&](OpBuilder &lb, ArrayRef<Value> origin) {
                   writeStagedBlock(
                       lb, loc, target,
                       shifted(lb, loc, origin, target.haloDim, target.halo),
                       elements.load(lb, origin, inside), 1);
                 });
  };
  if (!target.halo) {
    ifInside(sb, loc, elements.tileInside(sb), tile);
    return;
  }
  // The neighbouring tile's last `halo` rows go before the tile (none
  // before the first tile; inside the view when the tile is).
  SmallVector<int64_t> extents(src.tile);
  extents[target.haloDim] = target.halo;
  Mapping h = Mapping::unitWidths(extents, fastestFirst(rank, src.contiguous));
  Value notFirst = arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::ugt,
                                         src.indices[target.haloDim],
                                         indexConstant(sb, loc, 0));
  ifInside(sb, loc, elements.tileInside(sb), [&](OpBuilder &ib, bool inside) {
    tile(ib, inside);
    scf::IfOp::create(ib, loc, notFirst, [&](OpBuilder &tb, Location) {
      forEachBlock(
          tb, loc, h, tid, threads, [&](OpBuilder &lb, ArrayRef<Value> origin) {
            writeStagedBlock(
                lb, loc, target, origin,
                elements.load(
                    lb, shifted(lb, loc, origin, target.haloDim, -target.halo),
                    inside),
                1);
          });
      scf::YieldOp::create(tb, loc);
    });
  });
}

/// The buffers of a staged leaf, at `b`: its own, and with a second
/// `version`, that version's padded one in the same bytes.
void allocateLeafBuffers(gpu::GPUFuncOp func, Leaf &leaf, OpBuilder &b,
                         const StagingVersion &version) {
  if (!version.windowLeaf) {
    allocateStagingBuffer(func, leaf, b);
    return;
  }
  // The versions run one or the other in every block: their buffers share
  // the bytes, through views (separate buffers to the swizzle search). The
  // second is read along its columns at run-time offsets, which the search
  // cannot see: its rows are padded instead.
  Value storage = addAlignedWorkgroupBuffer(
      func, {versionedStagingBytes(leaf, *version.windowLeaf)},
      IntegerType::get(func.getContext(), 8), leaf.load.getLoc());
  allocateStagingBuffer(func, leaf, b, 1, false, storage);
  allocateStagingBuffer(func, *version.windowLeaf, b, /*stages=*/1,
                        /*padRows=*/true, storage);
}

} // namespace

LogicalResult tiles::stageLeaf(gpu::GPUFuncOp func, Leaf &leaf,
                               ArrayRef<int64_t> block,
                               const StagingVersion &version) {
  int64_t threads = block[0] * block[1] * block[2];
  FailureOr<StagingMapping> staging =
      stagingMapping(leaf, threads, /*transpose=*/false, /*uneven=*/true);
  if (failed(staging))
    return failure();
  const GlobalSide &src = leaf.side;
  Location loc = leaf.load.getLoc();
  OpBuilder b(leaf.load);
  std::string why;
  FailureOr<GlobalAccess> in =
      GlobalAccess::create(b, src, staging->width, why);
  if (failed(in))
    return leaf.load.emitOpError() << "cannot be distributed: " << why;
  // Element by element, for loads whose rows are unaligned at run time.
  std::optional<GlobalAccess> elements;
  if (in->alignment() || version.windowLeaf) {
    FailureOr<GlobalAccess> one = GlobalAccess::create(b, src, 1, why);
    if (failed(one))
      return leaf.load.emitOpError() << "cannot be distributed: " << why;
    elements = std::move(*one);
  }
  // In a loop, every thread must have read the previous tile's buffer.
  if (leaf.load->getParentOp() != func)
    gpu::BarrierOp::create(b, loc);
  allocateLeafBuffers(func, leaf, b, version);
  Value tid = linearThreadId(b, loc, block);
  auto vectors = [&](OpBuilder &vb) {
    ifInside(vb, loc, in->tileInside(vb), [&](OpBuilder &ib, bool inside) {
      forEachBlock(ib, loc, staging->mapping, tid, threads,
                   [&](OpBuilder &lb, ArrayRef<Value> origin) {
                     writeStagedBlock(lb, loc, leaf, origin,
                                      in->load(lb, origin, inside),
                                      staging->width);
                   });
    });
  };
  // Consecutive lanes on consecutive elements along the load's rows.
  auto scalars = [&](OpBuilder &sb, const Leaf &target) {
    stageElements(sb, loc, src, target, *elements, tid, threads);
  };
  // The first version: vectors where the load's rows are aligned.
  auto first = [&](OpBuilder &fb) {
    if (Value aligned = in->alignment(); aligned && staging->width > 1)
      ifElse(fb, loc, aligned, vectors,
             [&](OpBuilder &eb) { scalars(eb, leaf); });
    else
      vectors(fb);
  };
  if (!version.windowLeaf) {
    first(b);
    return success();
  }
  // The store's rows decide which version's buffer phase 2 reads.
  Value storeAligned = stridesMultipleOf(
      b, loc, version.storeMemref, version.storeContiguous, version.storeWidth);
  ifElse(b, loc, storeAligned, first,
         [&](OpBuilder &eb) { scalars(eb, *version.windowLeaf); });
  return success();
}

//===----------------------------------------------------------------------===//
// Reads, writes and copies of staged blocks
//===----------------------------------------------------------------------===//

Value tiles::readStagedVector(OpBuilder &b, Location loc, const Leaf &leaf,
                              ArrayRef<Value> storeCoord, int64_t width) {
  Value offset = OffsetOp::create(
      b, loc, leaf.desc, leaf.bufCoord(leaf.fromStore(b, loc, storeCoord)));
  Type elementType = leaf.side.elementType;
  return vector::LoadOp::create(
      b, loc, VectorType::get({width}, elementType), leaf.buffer, offset,
      /*nontemporal=*/false,
      workgroupAccessAlignment(width * elementBytes(elementType)));
}

FailureOr<GlobalAccess> tiles::tileAccess(OpBuilder &b, const Leaf &leaf,
                                          ArrayRef<Value> indices,
                                          int64_t width) {
  GlobalSide side = leaf.side;
  side.indices.assign(indices.begin(), indices.end());
  std::string why;
  FailureOr<GlobalAccess> in = GlobalAccess::create(b, side, width, why);
  if (failed(in))
    return LoadOp(leaf.load).emitOpError() << "cannot be distributed: " << why;
  return in;
}

FailureOr<SmallVector<Value>>
tiles::loadStagedTile(OpBuilder &b, Location loc, const Leaf &leaf,
                      ArrayRef<Value> indices, const StagingMapping &staging,
                      Value tid, int64_t threads) {
  FailureOr<GlobalAccess> in = tileAccess(b, leaf, indices, staging.width);
  if (failed(in))
    return failure();
  auto blocks = [&](OpBuilder &lb, bool inside) {
    SmallVector<Value> values;
    for (int64_t it = 0; it < staging.iterations; ++it) {
      SmallVector<Value> origin = staging.mapping.blockOrigin(
          lb, loc, tid, indexConstant(lb, loc, it), threads);
      for (int64_t r = 0; r < staging.depth; ++r)
        values.push_back(in->load(
            lb, r ? shifted(lb, loc, origin, staging.across, r) : origin,
            inside));
    }
    return values;
  };
  Value whole = in->tileInside(b);
  if (!whole)
    return blocks(b, true);
  auto ifOp = scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &tb, Location) {
        scf::YieldOp::create(tb, loc, blocks(tb, true));
      },
      [&](OpBuilder &eb, Location) {
        scf::YieldOp::create(eb, loc, blocks(eb, false));
      });
  return SmallVector<Value>(ifOp.getResults());
}

void tiles::storeStagedTile(OpBuilder &b, Location loc, const Leaf &leaf,
                            const StagingMapping &staging, Value tid,
                            int64_t threads, ValueRange values, Value stage) {
  Type et = leaf.side.elementType;
  for (int64_t it = 0; it < staging.iterations; ++it) {
    SmallVector<Value> origin = staging.mapping.blockOrigin(
        b, loc, tid, indexConstant(b, loc, it), threads);
    ValueRange rows = values.slice(it * staging.depth, staging.depth);
    if (staging.depth == 1) {
      writeStagedBlock(b, loc, leaf, origin, rows.front(), staging.width,
                       stage);
      continue;
    }
    // Transposed in registers: element j of every row is one vector along
    // the buffer's rows.
    for (int64_t j = 0; j < staging.width; ++j) {
      SmallVector<Value> column;
      for (Value row : rows)
        column.push_back(vector::ExtractOp::create(b, loc, row, j));
      Value v = vector::FromElementsOp::create(
          b, loc, VectorType::get({staging.depth}, et), column);
      Value at = OffsetOp::create(
          b, loc, leaf.desc,
          leaf.bufCoord(j ? shifted(b, loc, origin, leaf.side.contiguous, j)
                          : origin,
                        stage));
      vector::StoreOp::create(
          b, loc, v, leaf.buffer, at, /*nontemporal=*/false,
          workgroupAccessAlignment(staging.depth * elementBytes(et)));
    }
  }
}

bool tiles::copiesAsync(const Leaf &leaf, const GlobalAccess &access) {
  return access.copiesAsync() && leaf.bufDims.back() == leaf.side.contiguous;
}

LogicalResult tiles::copyStagedTileAsync(
    OpBuilder &b, Location loc, const Leaf &leaf, ArrayRef<Value> indices,
    const StagingMapping &staging, Value tid, int64_t threads, Value stage) {
  FailureOr<GlobalAccess> in = tileAccess(b, leaf, indices, staging.width);
  if (failed(in))
    return failure();
  ifInside(b, loc, in->tileInside(b), [&](OpBuilder &ib, bool inside) {
    for (int64_t it = 0; it < staging.iterations; ++it) {
      SmallVector<Value> origin = staging.mapping.blockOrigin(
          ib, loc, tid, indexConstant(ib, loc, it), threads);
      Value at =
          OffsetOp::create(ib, loc, leaf.desc, leaf.bufCoord(origin, stage));
      in->copyAsync(ib, origin, inside, leaf.buffer, at);
    }
  });
  return success();
}
