//===- BankConflicts.cpp - A static model of shared-memory banks ----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/BankConflicts.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Formulas.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

unsigned BankModel::lanesPerPhase(unsigned accessBytes) const {
  unsigned bytesPerPhase = numBanks * bankBytes;
  unsigned lanes = std::max(1u, bytesPerPhase / std::max(1u, accessBytes));
  return std::min(lanes, waveSize);
}

std::optional<BankModel> mlir::layout::getBankModel(StringRef chip) {
  // CDNA2/CDNA3: "the LDS has 32 banks, each 4 bytes wide" (AMD Instinct
  // MI200 / MI300 CDNA ISA reference guides, chapter "Data Share
  // Operations"); a wave64 ds_read_b32 is served in two halves of 32 lanes
  // and a ds_read_b128 in 8 phases of 8 lanes (AMD GPUOpen, "LDS bank
  // conflicts", and design/references.md).
  if (chip == "gfx90a" || chip == "gfx940" || chip == "gfx941" ||
      chip == "gfx942")
    return BankModel{chip, 32, 4, 64,
                     "AMD CDNA2/CDNA3 ISA guides: LDS of 32 banks x 4 bytes, "
                     "wave64"};
  // CDNA4 (gfx950) doubles the LDS banks to 64 (AMD CDNA4 ISA reference
  // guide, "LDS": 160 KiB, 64 banks x 4 bytes).
  if (chip == "gfx950")
    return BankModel{chip, 64, 4, 64,
                     "AMD CDNA4 ISA guide: LDS of 64 banks x 4 bytes, wave64"};
  // RDNA3 (gfx11): wave32, LDS of 32 banks x 4 bytes per CU (AMD RDNA3
  // ISA reference guide, "Local Data Share").
  if (chip.starts_with("gfx11") || chip.starts_with("gfx10") ||
      chip.starts_with("gfx12"))
    return BankModel{chip, 32, 4, 32,
                     "AMD RDNA ISA guides: LDS of 32 banks x 4 bytes, wave32"};
  // NVIDIA since Maxwell, including sm_90: 32 banks of 4 bytes, a warp of
  // 32 lanes; 64-bit accesses are served per half warp and 128-bit ones
  // per quarter warp (CUDA C++ Programming Guide, "Shared Memory" of the
  // compute capability 5.x-9.x sections).
  if (chip.starts_with("sm_"))
    return BankModel{chip, 32, 4, 32,
                     "CUDA C++ Programming Guide: 32 banks x 4 bytes, warp "
                     "of 32 lanes"};
  return std::nullopt;
}

ConflictCount mlir::layout::countConflicts(const BankModel &model,
                                           ArrayRef<int64_t> laneBytes,
                                           unsigned accessBytes) {
  ConflictCount count;
  unsigned perPhase = model.lanesPerPhase(accessBytes);
  for (size_t first = 0; first < laneBytes.size(); first += perPhase) {
    // bank -> distinct words touched in this phase.
    llvm::DenseMap<int64_t, std::set<int64_t>> words;
    for (size_t lane = first;
         lane < std::min(laneBytes.size(), first + perPhase); ++lane) {
      int64_t begin = floorDiv(laneBytes[lane], model.bankBytes);
      int64_t end =
          floorDiv(laneBytes[lane] + accessBytes - 1, model.bankBytes);
      for (int64_t w = begin; w <= end; ++w)
        words[floorMod(w, model.numBanks)].insert(w);
    }
    unsigned ways = 1;
    for (auto &[bank, set] : words)
      ways = std::max<unsigned>(ways, set.size());
    ++count.phases;
    count.cycles += ways;
    count.maxWays = std::max(count.maxWays, ways);
  }
  return count;
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

static bool isWorkgroup(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(space))
    return intSpace.getInt() == 3;
  return false;
}

std::optional<SharedAccess> mlir::layout::getSharedAccess(Operation *op) {
  auto make = [&](Value memref, ValueRange indices, Type accessType,
                  bool isWrite) -> std::optional<SharedAccess> {
    auto type = cast<MemRefType>(memref.getType());
    if (!isWorkgroup(type))
      return std::nullopt;
    unsigned bits;
    if (auto vt = dyn_cast<VectorType>(accessType))
      bits = vt.getNumElements() * vt.getElementTypeBitWidth();
    else
      bits = accessType.getIntOrFloatBitWidth();
    return SharedAccess{op, memref, SmallVector<Value>(indices),
                        std::max(1u, bits / 8), isWrite};
  };
  return llvm::TypeSwitch<Operation *, std::optional<SharedAccess>>(op)
      .Case([&](memref::LoadOp load) {
        return make(load.getMemRef(), load.getIndices(), load.getType(), false);
      })
      .Case([&](memref::StoreOp store) {
        return make(store.getMemRef(), store.getIndices(),
                    store.getValueToStore().getType(), true);
      })
      .Case([&](vector::LoadOp load) {
        return make(load.getBase(), load.getIndices(), load.getType(), false);
      })
      .Case([&](vector::StoreOp store) {
        return make(store.getBase(), store.getIndices(),
                    store.getValueToStore().getType(), true);
      })
      .Case([&](nvgpu::LdMatrixOp load) -> std::optional<SharedAccess> {
        // PTX ldmatrix .m8n8 .b16: each lane's address starts one 16-byte
        // row of an 8x8 matrix; only the first 8 * numTiles lanes'
        // addresses are read.
        std::optional<SharedAccess> access =
            make(load.getSrcMemref(), load.getIndices(),
                 load.getSrcMemref().getType().getElementType(), false);
        if (access) {
          access->accessBytes = 16;
          access->activeLanes = 8 * load.getNumTiles();
        }
        return access;
      })
      .Case([&](nvgpu::DeviceAsyncCopyOp copy) {
        // PTX cp.async: each lane writes its dstElements to shared memory
        // (the zero-filled ones included).
        auto type = cast<MemRefType>(copy.getDst().getType());
        return make(copy.getDst(), copy.getDstIndices(),
                    VectorType::get({copy.getDstElements().getSExtValue()},
                                    type.getElementType()),
                    true);
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::string mlir::layout::blockSizeProblem(ArrayRef<int32_t> known) {
  int64_t threads = 1;
  for (int32_t n : known) {
    if (n < 1)
      return llvm::formatv("known_block_size entries must be at least 1, "
                           "got {0}",
                           n)
          .str();
    // Each factor is at least 1, so the running product stays below
    // kMaxBlockThreads * 2^31 and cannot overflow.
    threads *= n;
    if (threads > kMaxBlockThreads)
      return llvm::formatv("known_block_size asks for more than {0} threads "
                           "per block (the most any supported chip allows)",
                           kMaxBlockThreads)
          .str();
  }
  return "";
}

std::optional<SmallVector<int64_t, 3>>
mlir::layout::knownBlockSize(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  if (!func)
    return std::nullopt;
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || !blockSizeProblem(*known).empty())
    return std::nullopt;
  SmallVector<int64_t, 3> size(known->begin(), known->end());
  size.resize(3, 1);
  return size;
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

std::optional<int64_t> IndexInterpreter::fail(const Twine &msg) {
  if (why.empty())
    why = msg.str();
  return std::nullopt;
}

std::optional<int64_t> IndexInterpreter::eval(Value v) {
  if (auto it = cache.find(v); it != cache.end())
    return it->second;
  std::optional<int64_t> result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // The induction variable of an scf.for: its first iteration.
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return fail("the address depends on a block argument that is not a "
                  "loop induction variable");
    result = eval(loop.getLowerBound());
  } else {
    result = evalArith(v.getDefiningOp());
  }
  if (!result)
    return fail("the address could not be evaluated");
  cache[v] = *result;
  return result;
}

/// arith ops on integers and indices, with their own semantics (wrapping,
/// truncating or floor division, unsigned compares); other ops go to
/// evalOther.
std::optional<int64_t> IndexInterpreter::evalArith(Operation *op) {
  auto bin = [&](auto fn) -> std::optional<int64_t> {
    std::optional<int64_t> a = eval(op->getOperand(0));
    std::optional<int64_t> b = eval(op->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  };
  auto pos = [&](auto fn) {
    return [fn](int64_t a, int64_t b) -> std::optional<int64_t> {
      if (b <= 0)
        return std::nullopt;
      return fn(a, b);
    };
  };
  auto unwrap = [](std::optional<std::optional<int64_t>> r) {
    return r ? *r : std::nullopt;
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::ConstantOp c) -> std::optional<int64_t> {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return i.getValue().getSExtValue();
        return std::nullopt;
      })
      .Case([&](arith::AddIOp) {
        return bin([](int64_t a, int64_t b) { return wrappingAdd(a, b); });
      })
      .Case([&](arith::SubIOp) {
        return bin([](int64_t a, int64_t b) { return wrappingSub(a, b); });
      })
      .Case([&](arith::MulIOp) {
        return bin([](int64_t a, int64_t b) { return wrappingMul(a, b); });
      })
      .Case([&](arith::FloorDivSIOp) {
        return unwrap(
            bin(pos([](int64_t a, int64_t b) { return floorDiv(a, b); })));
      })
      .Case<arith::DivSIOp, arith::RemSIOp>([&](Operation *) {
        // C semantics: truncating division and remainder.
        bool rem = isa<arith::RemSIOp>(op);
        return unwrap(
            bin([rem](int64_t a, int64_t b) -> std::optional<int64_t> {
              if (b == 0 || (a == INT64_MIN && b == -1))
                return std::nullopt;
              return rem ? a % b : a / b;
            }));
      })
      .Case<arith::DivUIOp, arith::RemUIOp>([&](Operation *) {
        bool rem = isa<arith::RemUIOp>(op);
        return unwrap(
            bin([rem](int64_t a, int64_t b) -> std::optional<int64_t> {
              if (b == 0)
                return std::nullopt;
              uint64_t ua = a, ub = b;
              return static_cast<int64_t>(rem ? ua % ub : ua / ub);
            }));
      })
      .Case([&](arith::XOrIOp) {
        return bin([](int64_t a, int64_t b) { return a ^ b; });
      })
      .Case([&](arith::AndIOp) {
        return bin([](int64_t a, int64_t b) { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return bin([](int64_t a, int64_t b) { return a | b; });
      })
      .Case([&](arith::ShLIOp) {
        return unwrap(bin([](int64_t a, int64_t b) -> std::optional<int64_t> {
          if (b < 0 || b > 62)
            return std::nullopt;
          return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
        }));
      })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([&](Operation *) {
        return unwrap(bin([](int64_t a, int64_t b) -> std::optional<int64_t> {
          if (b < 0 || b > 62)
            return std::nullopt;
          return a >> b;
        }));
      })
      .Case([&](arith::MinSIOp) {
        return bin([](int64_t a, int64_t b) { return std::min(a, b); });
      })
      .Case([&](arith::MaxSIOp) {
        return bin([](int64_t a, int64_t b) { return std::max(a, b); });
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(
          [&](Operation *) { return eval(op->getOperand(0)); })
      .Default([&](Operation *other) { return evalOther(other); });
}

/// Compares and selects, memref.dim, affine.apply, the gpu ids and sizes,
/// and layout.offset.
std::optional<int64_t> IndexInterpreter::evalOther(Operation *op) {
  auto gpuDim = [](gpu::Dimension d) {
    return d == gpu::Dimension::x ? 0 : d == gpu::Dimension::y ? 1 : 2;
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        std::optional<int64_t> a = eval(cmp.getLhs());
        std::optional<int64_t> b = eval(cmp.getRhs());
        if (!a || !b)
          return std::nullopt;
        uint64_t ua = *a, ub = *b;
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq:
          return *a == *b;
        case arith::CmpIPredicate::ne:
          return *a != *b;
        case arith::CmpIPredicate::slt:
          return *a < *b;
        case arith::CmpIPredicate::sle:
          return *a <= *b;
        case arith::CmpIPredicate::sgt:
          return *a > *b;
        case arith::CmpIPredicate::sge:
          return *a >= *b;
        case arith::CmpIPredicate::ult:
          return ua < ub;
        case arith::CmpIPredicate::ule:
          return ua <= ub;
        case arith::CmpIPredicate::ugt:
          return ua > ub;
        case arith::CmpIPredicate::uge:
          return ua >= ub;
        }
        return std::nullopt;
      })
      .Case([&](arith::SelectOp sel) -> std::optional<int64_t> {
        std::optional<int64_t> c = eval(sel.getCondition());
        if (!c)
          return std::nullopt;
        return eval(*c ? sel.getTrueValue() : sel.getFalseValue());
      })
      .Case([&](memref::DimOp dim) -> std::optional<int64_t> {
        std::optional<int64_t> k = eval(dim.getIndex());
        auto type = dyn_cast<MemRefType>(dim.getSource().getType());
        if (!k || !type || *k < 0 || *k >= type.getRank())
          return std::nullopt;
        if (!type.isDynamicDim(*k))
          return type.getDimSize(*k);
        return dynamicExtent;
      })
      .Case([&](affine::AffineApplyOp apply) -> std::optional<int64_t> {
        // MLIR's own folding of the map on constant operands.
        Builder b(apply.getContext());
        SmallVector<Attribute> operands;
        for (Value operand : apply.getMapOperands()) {
          std::optional<int64_t> x = eval(operand);
          if (!x)
            return std::nullopt;
          operands.push_back(b.getIndexAttr(*x));
        }
        SmallVector<Attribute> results;
        if (failed(apply.getAffineMap().constantFold(operands, results)))
          return std::nullopt;
        auto folded = dyn_cast_or_null<IntegerAttr>(results.front());
        if (!folded)
          return std::nullopt;
        return folded.getInt();
      })
      .Case([&](gpu::ThreadIdOp t) -> std::optional<int64_t> {
        return threadId[gpuDim(t.getDimension())];
      })
      .Case([&](gpu::BlockIdOp) -> std::optional<int64_t> { return 0; })
      .Case([&](gpu::BlockDimOp d) -> std::optional<int64_t> {
        return blockSize[gpuDim(d.getDimension())];
      })
      .Case([&](OffsetOp off) -> std::optional<int64_t> {
        SmallVector<int64_t> coord;
        for (Value i : off.getIndices()) {
          std::optional<int64_t> x = eval(i);
          if (!x)
            return std::nullopt;
          coord.push_back(*x);
        }
        if (const Descriptor *d = overrides.lookup(off.getDesc()))
          return d->offset(coord);
        llvm::Expected<Descriptor> d = traceDescriptor(off.getDesc());
        if (!d) {
          (void)fail(llvm::toString(d.takeError()));
          return std::nullopt;
        }
        return d->offset(coord);
      })
      .Default([&](Operation *other) -> std::optional<int64_t> {
        return fail("the address depends on '" +
                    other->getName().getStringRef() +
                    "', which the model does not evaluate");
      });
}

std::optional<SmallVector<int64_t>> mlir::layout::laneAddresses(
    const SharedAccess &access, ArrayRef<int64_t> blockSize, unsigned waveSize,
    int64_t dynamicExtent, std::string &why,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides) {
  auto type = cast<MemRefType>(access.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    why = "the workgroup buffer's layout is not static";
    return std::nullopt;
  }
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t threads = blockSize[0] * blockSize[1] * blockSize[2];
  int64_t lanes = std::min<int64_t>(waveSize, threads);
  if (access.activeLanes)
    lanes = std::min<int64_t>(lanes, access.activeLanes);
  SmallVector<int64_t> bytes;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    int64_t tid[3] = {lane % blockSize[0], (lane / blockSize[0]) % blockSize[1],
                      lane / (blockSize[0] * blockSize[1])};
    IndexInterpreter interp(blockSize, tid, dynamicExtent);
    for (auto [desc, d] : overrides)
      interp.overrideDescriptor(desc, d);
    int64_t linear = offset;
    for (auto [index, stride] : llvm::zip_equal(access.indices, strides)) {
      std::optional<int64_t> i = interp.eval(index);
      if (!i) {
        why = interp.why;
        return std::nullopt;
      }
      linear += *i * stride;
    }
    bytes.push_back(linear * elementBytes);
  }
  return bytes;
}
