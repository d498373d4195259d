//===- BankConflicts.cpp - Bank conflicts proved over a kernel ------------===//
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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Counting
//===----------------------------------------------------------------------===//

ConflictCount
mlir::layout::countConflicts(const Chip &chip, SharedAccessKind kind,
                             ArrayRef<std::optional<int64_t>> laneBytes,
                             unsigned accessBytes,
                             ArrayRef<unsigned> laneClass) {
  Chip::PhaseRule rule = chip.phaseRule(accessBytes, kind);
  ConflictCount count;
  // (bank, class, word) of every word a phase touches; the ways of a bank
  // are its distinct (class, word) pairs.
  SmallVector<std::tuple<int64_t, unsigned, int64_t>, 128> words;
  for (ArrayRef<unsigned> phase : rule.phases) {
    words.clear();
    for (unsigned lane : phase) {
      if (lane >= laneBytes.size() || !laneBytes[lane])
        continue;
      int64_t address = *laneBytes[lane];
      unsigned cls = laneClass.empty() ? 0 : laneClass[lane];
      int64_t begin = chip.wordOf(address);
      int64_t end = chip.wordOf(address + accessBytes - 1);
      for (int64_t w = begin; w <= end; ++w)
        words.push_back({Chip::bankOfWord(w, rule.numBanks), cls, w});
    }
    if (words.empty())
      continue;
    llvm::sort(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    unsigned ways = 0, run = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      run =
          i && std::get<0>(words[i]) == std::get<0>(words[i - 1]) ? run + 1 : 1;
      ways = std::max(ways, run);
    }
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
    SharedAccessKind kind =
        isWrite ? SharedAccessKind::Write : SharedAccessKind::Read;
    auto type = cast<MemRefType>(memref.getType());
    if (!isWorkgroup(type))
      return std::nullopt;
    unsigned bits;
    if (auto vt = dyn_cast<VectorType>(accessType))
      bits = vt.getNumElements() * vt.getElementTypeBitWidth();
    else
      bits = accessType.getIntOrFloatBitWidth();
    return SharedAccess{op, memref, SmallVector<Value>(indices),
                        std::max(1u, bits / 8), kind};
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
          access->kind = SharedAccessKind::LdMatrix;
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

std::string mlir::layout::describeBuffer(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())) {
      auto workgroup = func.getWorkgroupAttributions();
      auto *it = llvm::find(workgroup, arg);
      if (it != workgroup.end())
        return llvm::formatv("workgroup buffer {0} of @{1}",
                             it - workgroup.begin(), func.getName())
            .str();
      return llvm::formatv("argument {0} of @{1}", arg.getArgNumber(),
                           func.getName())
          .str();
    }
    return "a block argument";
  }
  Operation *def = memref.getDefiningOp();
  if (auto global = dyn_cast<memref::GetGlobalOp>(def))
    return "@" + global.getName().str();
  if (isa<memref::ViewOp, memref::SubViewOp, memref::ReinterpretCastOp,
          memref::CastOp>(def))
    return "a view of " + describeBuffer(def->getOperand(0));
  return "the result of '" + def->getName().getStringRef().str() + "'";
}

//===----------------------------------------------------------------------===//
// Symbolic addresses
//===----------------------------------------------------------------------===//

namespace {

/// c + sum_i k[i] * t_i: a value as an affine form in the free symbols t_i
/// (what differs between blocks and iterations); concrete when every k is 0.
struct Sym {
  int64_t c = 0;
  SmallVector<int64_t, 4> k;

  static Sym of(int64_t c) { return Sym{c, {}}; }
  bool concrete() const {
    return llvm::all_of(k, [](int64_t x) { return x == 0; });
  }
  int64_t coef(size_t i) const { return i < k.size() ? k[i] : 0; }
  bool operator==(const Sym &o) const {
    if (c != o.c)
      return false;
    for (size_t i = 0; i < std::max(k.size(), o.k.size()); ++i)
      if (coef(i) != o.coef(i))
        return false;
    return true;
  }
};

Sym combine(const Sym &a, const Sym &b, int64_t sign) {
  Sym r;
  r.c = sign > 0 ? wrappingAdd(a.c, b.c) : wrappingSub(a.c, b.c);
  r.k.resize(std::max(a.k.size(), b.k.size()), 0);
  for (size_t i = 0; i < r.k.size(); ++i)
    r.k[i] = sign > 0 ? wrappingAdd(a.coef(i), b.coef(i))
                      : wrappingSub(a.coef(i), b.coef(i));
  return r;
}

Sym scale(const Sym &a, int64_t f) {
  Sym r{wrappingMul(a.c, f), {}};
  for (int64_t x : a.k)
    r.k.push_back(wrappingMul(x, f));
  return r;
}

/// Something that differs between blocks or iterations.
struct SymbolInfo {
  /// Product: t_i * t_j of two other symbols, taken as a symbol of its own
  /// (the proof then covers every value it could take with the others: an
  /// upper bound).
  enum class Kind { BlockId, GridSize, Iteration, Extent, Argument, Product };
  Kind kind;
  /// The loop of an Iteration.
  Operation *loop = nullptr;
  std::string what;
  /// The values the symbol's index j takes: [0, count), or unbounded. For a
  /// loop, j is the iteration number; otherwise the value itself.
  std::optional<int64_t> count;
  /// Whether its values are never negative (all but kernel arguments).
  bool nonNegative = true;
  /// For a memref's strided metadata: the memref, and its ordinal among
  /// the memrefs the access reads metadata of (brute force gives each its
  /// own values, so that run-time versions for memrefs aligned differently
  /// run too).
  const void *metadataOf = nullptr;
  int64_t memrefOrdinal = 0;
  /// The split j = residue + modulus * t.
  int64_t modulus = 1;
  /// Whether t is always 0 (every value enumerated by residue).
  bool enumerated() const { return count && modulus >= *count; }
  /// The residues r to evaluate.
  int64_t residues() const {
    return count ? std::min(*count, modulus) : modulus;
  }
};

/// Everything one proof shares: the symbols, their splits, what the
/// evaluation asks for next, the traced descriptors.
struct ProofState {
  const Chip &chip;
  SmallVector<int64_t, 3> block;
  DescriptorCache &descriptors;
  DenseMap<Value, const Descriptor *> overrides;
  SmallVector<SymbolInfo> symbols;
  DenseMap<std::pair<const void *, int64_t>, unsigned> symbolIds;
  /// Set by an evaluation that needs a finer split: symbol -> factor.
  DenseMap<unsigned, int64_t> refine;
  /// Set when the proof cannot go on.
  std::string fatal;
  /// Brute force: every symbol takes this value instead (no splitting).
  std::function<int64_t(const SymbolInfo &, int64_t sub)> concreteValue;

  ProofState(const Chip &chip, ArrayRef<int64_t> block,
             DescriptorCache &descriptors)
      : chip(chip), block(block.begin(), block.end()),
        descriptors(descriptors) {}

  /// The id of the symbol of (owner, sub); `info` describes a new one (built
  /// only then: its text costs a location print).
  unsigned symbol(const void *owner, int64_t sub,
                  function_ref<SymbolInfo()> info) {
    auto [it, inserted] = symbolIds.try_emplace({owner, sub}, symbols.size());
    if (inserted)
      symbols.push_back(info());
    return it->second;
  }

  /// Asks that every symbol of `v` with a coefficient `d` does not divide
  /// be split finer, so that it does.
  void needMultiple(const Sym &v, int64_t d) {
    for (auto [i, x] : llvm::enumerate(v.k)) {
      if (x % d == 0)
        continue;
      int64_t g = std::gcd(x < 0 ? -x : x, d);
      int64_t &f = refine[i];
      f = std::lcm(std::max<int64_t>(f, 1), d / g);
    }
  }
  /// Asks that `v` be concrete: its finite symbols enumerated; a symbol with
  /// unboundedly many values stops the proof.
  void needConcrete(const Sym &v, StringRef opName) {
    for (auto [i, x] : llvm::enumerate(v.k)) {
      if (x == 0)
        continue;
      const SymbolInfo &s = symbols[i];
      if (!s.count) {
        if (fatal.empty())
          fatal = llvm::formatv("the address depends on {0} through '{1}', "
                                "which is not affine in it",
                                s.what, opName)
                      .str();
        continue;
      }
      int64_t &f = refine[i];
      f = std::max<int64_t>(f, llvm::divideCeil(*s.count, s.modulus));
    }
  }
  bool failed() const { return !fatal.empty() || !refine.empty(); }
};

/// Formulas.h's index algebra over Sym: the descriptors' own formulas on
/// symbolic coordinates. What needs a finer split or a concrete value asks
/// the ProofState and yields a placeholder (the evaluation is then redone).
struct SymAlgebra {
  using Value = Sym;
  struct Bool {
    std::optional<bool> value;
  };
  ProofState &state;
  StringRef opName;

  Value constant(int64_t c) { return Sym::of(c); }
  Value add(Value a, Value b) { return combine(a, b, 1); }
  Value sub(Value a, Value b) { return combine(a, b, -1); }
  Value mul(Value a, int64_t c) { return scale(a, c); }
  Value floorDiv(Value a, int64_t d) {
    if (!dividesAll(a, d)) {
      state.needMultiple(a, d);
      return Sym::of(0);
    }
    Sym r{layout::floorDiv(a.c, d), {}};
    for (int64_t x : a.k)
      r.k.push_back(x / d);
    return r;
  }
  Value floorMod(Value a, int64_t d) {
    if (!dividesAll(a, d)) {
      state.needMultiple(a, d);
      return Sym::of(0);
    }
    return Sym::of(layout::floorMod(a.c, d));
  }
  Value bitXor(Value a, Value b) {
    if (a.concrete() && b.concrete())
      return Sym::of(a.c ^ b.c);
    // (c + K t) xor x = (c xor x) + K t when every coefficient is a
    // multiple of 2^n > x >= 0: K t leaves the low n bits alone.
    if (!a.concrete() && !b.concrete()) {
      state.needConcrete(a, opName);
      return Sym::of(0);
    }
    const Sym &s = a.concrete() ? b : a;
    int64_t x = a.concrete() ? a.c : b.c;
    if (x < 0) {
      state.needConcrete(s, opName);
      return Sym::of(0);
    }
    int64_t span = int64_t(llvm::PowerOf2Ceil(uint64_t(x) + 1));
    if (!dividesAll(s, span)) {
      state.needMultiple(s, span);
      return Sym::of(0);
    }
    Sym r = s;
    r.c = s.c ^ x;
    return r;
  }
  Value select(Bool c, Value a, Value b) {
    if (c.value)
      return *c.value ? a : b;
    return a == b ? a : Sym::of(0);
  }
  Bool truth(bool b) { return {b}; }
  Bool compare(const Value &v, function_ref<bool(int64_t)> fn) {
    if (!v.concrete()) {
      state.needConcrete(v, opName);
      return {std::nullopt};
    }
    return {fn(v.c)};
  }
  Bool inRange(Value v, int64_t n) {
    return compare(v, [n](int64_t x) { return x >= 0 && x < n; });
  }
  Bool atLeast(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x >= c; });
  }
  Bool lessThan(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x < c; });
  }
  Bool equals(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x == c; });
  }
  Bool both(Bool a, Bool b) {
    if (a.value == false || b.value == false)
      return {false};
    if (a.value && b.value)
      return {true};
    return {std::nullopt};
  }
  Bool either(Bool a, Bool b) {
    if (a.value == true || b.value == true)
      return {true};
    if (a.value && b.value)
      return {false};
    return {std::nullopt};
  }

  static bool dividesAll(const Sym &v, int64_t d) {
    return llvm::all_of(v.k, [d](int64_t x) { return x % d == 0; });
  }
};

/// Evaluates the index computations of one thread in one case (one residue
/// per symbol): constants through each op's folder, thread ids concrete,
/// block ids, loop iterations, dynamic extents and scalar arguments as
/// symbols.
class AddressEvaluator {
public:
  AddressEvaluator(ProofState &state, ArrayRef<int64_t> threadId,
                   ArrayRef<int64_t> residues, DenseMap<Value, Sym> &cache)
      : state(state), threadId(threadId.begin(), threadId.end()),
        residues(residues.begin(), residues.end()), cache(cache) {}

  /// The value of `v`, or std::nullopt when the state failed (a split is
  /// asked for, or the proof stops).
  std::optional<Sym> eval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    std::optional<Sym> r = compute(v);
    if (!r || state.failed())
      return std::nullopt;
    cache[v] = *r;
    return r;
  }

private:
  std::optional<Sym> stop(const Twine &why) {
    if (state.fatal.empty())
      state.fatal = why.str();
    return std::nullopt;
  }

  /// The value of symbol `id` in this case: residue + modulus * t.
  Sym symbolValue(unsigned id) {
    const SymbolInfo &s = state.symbols[id];
    int64_t r = id < residues.size() ? residues[id] : 0;
    Sym v = Sym::of(r);
    if (!s.enumerated()) {
      v.k.assign(id + 1, 0);
      v.k[id] = s.modulus;
    }
    return v;
  }

  Sym symbolOf(const void *owner, int64_t sub,
               function_ref<SymbolInfo()> info) {
    unsigned id = state.symbol(owner, sub, info);
    if (state.concreteValue)
      return Sym::of(state.concreteValue(state.symbols[id], sub));
    return symbolValue(id);
  }

  std::optional<Sym> compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return blockArgument(arg);
    Operation *op = v.getDefiningOp();
    unsigned result = cast<OpResult>(v).getResultNumber();
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
      // The offset, sizes and strides of a memref are the same in every
      // thread (the tile pass's run-time alignment tests and the shifts of
      // its sector windows): a symbol each, as memref.dim's extents.
      if (result == 0)
        return stop("the address depends on a memref's base buffer");
      const void *source = meta.getSource().getAsOpaquePointer();
      return symbolOf(source, 1000 + result, [&] {
        SymbolInfo info{
            SymbolInfo::Kind::Extent, nullptr,
            llvm::formatv("strided metadata {0} of a memref", result).str(),
            std::nullopt};
        info.metadataOf = source;
        // Its memref's ordinal, or the next one for a new memref.
        llvm::SmallPtrSet<const void *, 4> seen;
        for (const SymbolInfo &s : state.symbols) {
          if (s.metadataOf == source) {
            info.memrefOrdinal = s.memrefOrdinal;
            return info;
          }
          if (s.metadataOf)
            seen.insert(s.metadataOf);
        }
        info.memrefOrdinal = seen.size();
        return info;
      });
    }
    std::optional<Sym> special;
    if (specialOp(op, special))
      return special;
    return generic(op, result);
  }

  std::optional<Sym> blockArgument(BlockArgument arg) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg != loop.getInductionVar())
        return stop("the address depends on a value carried by the loop at " +
                    locString(loop));
      std::optional<Sym> lb = eval(loop.getLowerBound());
      std::optional<Sym> step = eval(loop.getStep());
      if (!lb || !step)
        return std::nullopt;
      if (!step->concrete() || step->c <= 0)
        return stop("the step of the loop at " + locString(loop) +
                    " is not a positive constant");
      std::optional<int64_t> count;
      std::optional<Sym> ub = eval(loop.getUpperBound());
      if (!ub)
        return std::nullopt;
      if (lb->concrete() && ub->concrete())
        count = std::max<int64_t>(
            1, llvm::divideCeil(std::max<int64_t>(0, ub->c - lb->c), step->c));
      Sym j = symbolOf(loop, 0, [&] {
        return SymbolInfo{SymbolInfo::Kind::Iteration, loop,
                          "the iterations of the loop at " + locString(loop),
                          count};
      });
      return combine(*lb, scale(j, step->c), 1);
    }
    if (auto func = dyn_cast<gpu::GPUFuncOp>(parent)) {
      if (arg.getType().isIntOrIndex()) {
        return symbolOf(func, arg.getArgNumber(), [&] {
          SymbolInfo info{SymbolInfo::Kind::Argument, nullptr,
                          llvm::formatv("argument {0} of @{1}",
                                        arg.getArgNumber(), func.getName())
                              .str(),
                          std::nullopt};
          info.nonNegative = false;
          return info;
        });
      }
    }
    return stop("the address depends on a block argument of '" +
                parent->getName().getStringRef() + "'");
  }

  static std::string locString(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    op->getLoc().print(os);
    return s;
  }

  /// Ops the folders cannot evaluate: ids, sizes, extents, descriptors, and
  /// ops whose operands are symbolic. Returns false for the others.
  bool specialOp(Operation *op, std::optional<Sym> &out) {
    out = specialValue(op);
    return out || state.failed() || !unhandled;
  }

  std::optional<Sym> specialValue(Operation *op) {
    unhandled = false;
    auto dim = [](gpu::Dimension d) -> unsigned {
      return d == gpu::Dimension::x ? 0 : d == gpu::Dimension::y ? 1 : 2;
    };
    int64_t linear =
        threadId[0] +
        state.block[0] * (threadId[1] + state.block[1] * threadId[2]);
    if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
      return Sym::of(threadId[dim(t.getDimension())]);
    if (auto t = dyn_cast<gpu::BlockDimOp>(op))
      return Sym::of(state.block[dim(t.getDimension())]);
    if (isa<gpu::LaneIdOp>(op))
      return Sym::of(linear % state.chip.waveSize);
    if (isa<gpu::SubgroupIdOp>(op))
      return Sym::of(linear / state.chip.waveSize);
    if (isa<gpu::SubgroupSizeOp>(op))
      return Sym::of(state.chip.waveSize);
    if (auto b = dyn_cast<gpu::BlockIdOp>(op))
      return symbolOf(nullptr, dim(b.getDimension()), [&] {
        return SymbolInfo{
            SymbolInfo::Kind::BlockId, nullptr,
            ("block id " + stringifyDimension(b.getDimension())).str(),
            std::nullopt};
      });
    if (auto g = dyn_cast<gpu::GridDimOp>(op))
      return symbolOf(nullptr, 3 + dim(g.getDimension()), [&] {
        return SymbolInfo{
            SymbolInfo::Kind::GridSize, nullptr,
            ("grid size " + stringifyDimension(g.getDimension())).str(),
            std::nullopt};
      });
    if (auto d = dyn_cast<memref::DimOp>(op)) {
      std::optional<Sym> index = eval(d.getIndex());
      auto type = dyn_cast<MemRefType>(d.getSource().getType());
      if (!index)
        return std::nullopt;
      if (!index->concrete() || !type || index->c < 0 ||
          index->c >= type.getRank())
        return stop("memref.dim with an index that is not a constant in "
                    "range");
      if (!type.isDynamicDim(index->c))
        return Sym::of(type.getDimSize(index->c));
      return symbolOf(d.getSource().getAsOpaquePointer(), index->c, [&] {
        return SymbolInfo{
            SymbolInfo::Kind::Extent, nullptr,
            llvm::formatv("dimension {0} of a dynamic memref", index->c).str(),
            std::nullopt};
      });
    }
    if (auto off = dyn_cast<OffsetOp>(op))
      return descriptorFormula(off.getDesc(), off.getIndices(), false);
    if (auto valid = dyn_cast<ValidOp>(op))
      return descriptorFormula(valid.getDesc(), valid.getIndices(), true);
    bool isArith =
        op->getDialect() == op->getContext()->getLoadedDialect("arith");
    if (!isa<affine::AffineApplyOp>(op) &&
        !(isArith && op->getNumResults() == 1)) {
      unhandled = true;
      return std::nullopt;
    }
    // affine.apply and arith ops with a symbolic operand; concrete ones go
    // to their folders.
    SmallVector<Sym> operands;
    for (Value o : op->getOperands()) {
      std::optional<Sym> x = eval(o);
      if (!x)
        return std::nullopt;
      operands.push_back(*x);
    }
    if (llvm::all_of(operands, [](const Sym &s) { return s.concrete(); })) {
      unhandled = true;
      return std::nullopt;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
      return affineExpr(apply.getAffineMap().getResult(0), operands,
                        apply.getAffineMap().getNumDims(), op);
    return symbolicArith(op, operands);
  }

  std::optional<Sym> affineExpr(AffineExpr e, ArrayRef<Sym> operands,
                                unsigned numDims, Operation *op) {
    SymAlgebra a{state, op->getName().getStringRef()};
    std::function<std::optional<Sym>(AffineExpr)> walk =
        [&](AffineExpr x) -> std::optional<Sym> {
      if (auto c = dyn_cast<AffineConstantExpr>(x))
        return Sym::of(c.getValue());
      if (auto d = dyn_cast<AffineDimExpr>(x))
        return operands[d.getPosition()];
      if (auto s = dyn_cast<AffineSymbolExpr>(x))
        return operands[numDims + s.getPosition()];
      auto bin = cast<AffineBinaryOpExpr>(x);
      std::optional<Sym> l = walk(bin.getLHS()), r = walk(bin.getRHS());
      if (!l || !r)
        return std::nullopt;
      switch (bin.getKind()) {
      case AffineExprKind::Add:
        return a.add(*l, *r);
      case AffineExprKind::Mul:
        if (r->concrete())
          return a.mul(*l, r->c);
        if (l->concrete())
          return a.mul(*r, l->c);
        break;
      case AffineExprKind::FloorDiv:
      case AffineExprKind::CeilDiv:
      case AffineExprKind::Mod: {
        if (!r->concrete() || r->c <= 0)
          break;
        if (bin.getKind() == AffineExprKind::Mod)
          return a.floorMod(*l, r->c);
        if (bin.getKind() == AffineExprKind::FloorDiv)
          return a.floorDiv(*l, r->c);
        return a.sub(Sym::of(0), a.floorDiv(a.sub(Sym::of(0), *l), r->c));
      }
      default:
        break;
      }
      state.needConcrete(*l, op->getName().getStringRef());
      state.needConcrete(*r, op->getName().getStringRef());
      return std::nullopt;
    };
    std::optional<Sym> r = walk(e);
    if (state.failed())
      return std::nullopt;
    return r;
  }

  /// Whether `v` is never negative, for C division on symbolic values.
  bool nonNegative(const Sym &v) {
    if (v.c < 0)
      return false;
    for (auto [i, x] : llvm::enumerate(v.k))
      if (x < 0 || (x > 0 && !state.symbols[i].nonNegative))
        return false;
    return true;
  }

  /// a * b, both symbolic. A side whose symbols all have finitely many
  /// values is enumerated (exact); otherwise each t_i * t_j becomes a symbol
  /// of its own, free of t_i and t_j, so the proof covers a superset of the
  /// values (a bound): (a0 + A) (b0 + B) = a0 b0 + a0 B + b0 A + A B.
  std::optional<Sym> product(const Sym &a, const Sym &b, StringRef name) {
    auto bounded = [&](const Sym &v) {
      for (auto [i, x] : llvm::enumerate(v.k))
        if (x && !state.symbols[i].count)
          return false;
      return true;
    };
    if (bounded(a) || bounded(b)) {
      state.needConcrete(bounded(a) ? a : b, name);
      return std::nullopt;
    }
    Sym r = combine(scale(b, a.c), scale(a, b.c), 1);
    r.c = wrappingSub(r.c, wrappingMul(a.c, b.c));
    for (auto [i, ai] : llvm::enumerate(a.k)) {
      for (auto [j, bj] : llvm::enumerate(b.k)) {
        if (!ai || !bj)
          continue;
        auto [lo, hi] = std::minmax(i, j);
        Sym t = symbolOf(&productTag, int64_t(lo) << 32 | int64_t(hi), [&] {
          const SymbolInfo &si = state.symbols[lo], &sj = state.symbols[hi];
          SymbolInfo info{SymbolInfo::Kind::Product, nullptr,
                          "the product of " + si.what + " and " + sj.what,
                          std::nullopt};
          info.nonNegative = si.nonNegative && sj.nonNegative;
          return info;
        });
        r = combine(r, scale(t, wrappingMul(ai, bj)), 1);
      }
    }
    return r;
  }
  static inline const char productTag = 0;

  /// The arith ops an address computation uses, on a symbolic operand.
  std::optional<Sym> symbolicArith(Operation *op, ArrayRef<Sym> x) {
    StringRef name = op->getName().getStringRef();
    SymAlgebra a{state, name};
    auto constantRhs = [&]() -> std::optional<int64_t> {
      if (x.size() == 2 && x[1].concrete())
        return x[1].c;
      return std::nullopt;
    };
    auto done = [&](Sym s) -> std::optional<Sym> {
      if (state.failed())
        return std::nullopt;
      return s;
    };
    if (isa<arith::AddIOp>(op))
      return a.add(x[0], x[1]);
    if (isa<arith::SubIOp>(op))
      return a.sub(x[0], x[1]);
    if (isa<arith::MulIOp>(op)) {
      if (x[1].concrete())
        return a.mul(x[0], x[1].c);
      if (x[0].concrete())
        return a.mul(x[1], x[0].c);
      return product(x[0], x[1], name);
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(op))
      return x[0];
    if (isa<arith::SelectOp>(op) && x[0].concrete())
      return x[0].c ? x[1] : x[2];
    std::optional<int64_t> d = constantRhs();
    bool floorLike =
        isa<arith::FloorDivSIOp>(op) ||
        (isa<arith::DivSIOp, arith::DivUIOp>(op) && nonNegative(x[0]));
    bool modLike = isa<arith::RemSIOp, arith::RemUIOp>(op) && nonNegative(x[0]);
    if (d && *d > 0 && floorLike)
      return done(a.floorDiv(x[0], *d));
    if (d && *d > 0 && modLike)
      return done(a.floorMod(x[0], *d));
    if (d && *d >= 0 && *d < 62 && isa<arith::ShRUIOp, arith::ShRSIOp>(op) &&
        (isa<arith::ShRSIOp>(op) || nonNegative(x[0])))
      return done(a.floorDiv(x[0], int64_t(1) << *d));
    if (d && *d >= 0 && *d < 62 && isa<arith::ShLIOp>(op))
      return a.mul(x[0], int64_t(1) << *d);
    if (isa<arith::XOrIOp>(op))
      return done(a.bitXor(x[0], x[1]));
    // x & (2^n - 1) is x mod 2^n; x | y with y below the coefficients' low
    // zero bits is x xor y.
    const Sym *sym = x[0].concrete() ? &x[1] : &x[0];
    const Sym *mask = x[0].concrete() ? &x[0] : &x[1];
    if (x.size() == 2 && mask->concrete() && mask->c >= 0 &&
        isa<arith::AndIOp>(op) && llvm::isPowerOf2_64(uint64_t(mask->c) + 1))
      return done(a.floorMod(*sym, mask->c + 1));
    if (x.size() == 2 && mask->concrete() && mask->c >= 0 &&
        isa<arith::OrIOp>(op)) {
      int64_t span = int64_t(llvm::PowerOf2Ceil(uint64_t(mask->c) + 1));
      if (!SymAlgebra::dividesAll(*sym, span)) {
        state.needMultiple(*sym, span);
        return std::nullopt;
      }
      Sym r = *sym;
      r.c |= mask->c;
      return r;
    }
    // Anything else (compares, selects, min / max, products of symbols)
    // needs concrete operands.
    for (const Sym &s : x)
      state.needConcrete(s, name);
    return std::nullopt;
  }

  std::optional<Sym> generic(Operation *op, unsigned result) {
    if (!isMemoryEffectFree(op))
      return stop("the address depends on a loaded value ('" +
                  op->getName().getStringRef() + "')");
    SmallVector<Attribute> constants;
    for (Value o : op->getOperands()) {
      std::optional<Sym> x = eval(o);
      if (!x)
        return std::nullopt;
      if (!x->concrete()) {
        state.needConcrete(*x, op->getName().getStringRef());
        return std::nullopt;
      }
      Type type = o.getType();
      if (!type.isIntOrIndex())
        return stop("the address depends on '" + op->getName().getStringRef() +
                    "' of a value that is not an integer");
      constants.push_back(IntegerAttr::get(type, x->c));
    }
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(constants, folded)) ||
        folded.size() != op->getNumResults())
      return stop("the address depends on '" + op->getName().getStringRef() +
                  "', which does not fold to a constant");
    OpFoldResult r = folded[result];
    if (auto value = dyn_cast<Value>(r)) {
      if (value.getDefiningOp() == op)
        return stop("the address depends on '" + op->getName().getStringRef() +
                    "', which does not fold to a constant");
      return eval(value);
    }
    auto attr = dyn_cast_or_null<IntegerAttr>(cast<Attribute>(r));
    if (!attr)
      return stop("the address depends on '" + op->getName().getStringRef() +
                  "', which does not fold to an integer");
    if (attr.getType().isInteger(1))
      return Sym::of(attr.getValue().getZExtValue());
    return Sym::of(attr.getValue().getSExtValue());
  }

  const Descriptor *descriptor(Value desc) {
    if (const Descriptor *d = state.overrides.lookup(desc))
      return d;
    auto [it, inserted] = state.descriptors.try_emplace(desc);
    if (inserted) {
      llvm::Expected<Descriptor> d = traceDescriptor(desc);
      if (d)
        it->second.descriptor = std::move(*d);
      else
        it->second.why = llvm::toString(d.takeError());
    }
    if (!it->second.descriptor) {
      stop(it->second.why);
      return nullptr;
    }
    return &*it->second.descriptor;
  }

  std::optional<SmallVector<Sym>> coordinates(ValueRange indices) {
    SmallVector<Sym> coord;
    for (Value i : indices) {
      std::optional<Sym> x = eval(i);
      if (!x)
        return std::nullopt;
      coord.push_back(*x);
    }
    return coord;
  }

  /// layout.offset (or, with `valid`, layout.valid as 0 / 1) of `desc` at
  /// `indices`, by the descriptor's own formulas over symbolic values.
  std::optional<Sym> descriptorFormula(Value desc, ValueRange indices,
                                       bool valid) {
    const Descriptor *d = descriptor(desc);
    std::optional<SmallVector<Sym>> coord = coordinates(indices);
    if (!d || !coord)
      return std::nullopt;
    SymAlgebra a{state, valid ? "layout.valid" : "layout.offset"};
    SymAlgebra::Bool inside;
    Sym offset = formulas::offset(*d, a, ArrayRef<Sym>(*coord),
                                  valid ? &inside : nullptr);
    if (state.failed() || (valid && !inside.value))
      return std::nullopt;
    return valid ? Sym::of(*inside.value) : offset;
  }

  ProofState &state;
  SmallVector<int64_t, 3> threadId;
  SmallVector<int64_t> residues;
  /// The thread's values in this case (kept between proofs by the memo).
  DenseMap<Value, Sym> &cache;
  /// Set by specialValue for an op it leaves to the folders.
  bool unhandled = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// The proof
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kUnknownBlockSize =
    "the kernel's block size is unknown (set known_block_size on the "
    "gpu.func)";

/// The run-time extents sampleConflicts tries (odd and even, a prime).
constexpr int64_t kSampleExtents[] = {1024, 1025, 1031, 8191};

/// The most thread evaluations (cases, i.e. residue combinations, times
/// the block's threads) and the most lane evaluations of the counter a
/// proof may take; the threads' values of each case are kept for the next
/// proof of the access (another layout) up to kMaxKeptThreads.
constexpr int64_t kMaxThreadEvaluations = int64_t(1) << 19;
constexpr int64_t kMaxCountedLanes = int64_t(1) << 22;
constexpr int64_t kMaxKeptThreads = int64_t(1) << 16;

namespace {

/// The conditions of the scf.if ops around `op` (up to its gpu.func): the
/// value and whether `op` is in its then region.
SmallVector<std::pair<Value, bool>> guards(Operation *op) {
  SmallVector<std::pair<Value, bool>> result;
  for (Operation *cur = op; cur && !isa<gpu::GPUFuncOp>(cur);
       cur = cur->getParentOp()) {
    auto ifOp = dyn_cast_or_null<scf::IfOp>(cur->getParentOp());
    if (!ifOp)
      continue;
    bool inThen = ifOp.getThenRegion().isAncestor(cur->getParentRegion());
    result.push_back({ifOp.getCondition(), inThen});
  }
  return result;
}

/// One thread's address in one case, or nullopt if it does not access.
struct LaneAddress {
  bool active = true;
  Sym bytes;
};

/// Evaluates the byte address of every thread of the block in the case
/// `residues`; std::nullopt when the state failed.
std::optional<SmallVector<LaneAddress>> evaluateBlock(
    ProofState &state, const SharedAccess &access, ArrayRef<int64_t> residues,
    ArrayRef<int64_t> strides, int64_t offset, int64_t elementBytes,
    MutableArrayRef<DenseMap<Value, Sym>> caches, int64_t onlyThreads = 0) {
  SmallVector<std::pair<Value, bool>> conditions = guards(access.op);
  ArrayRef<int64_t> block = state.block;
  int64_t threads = block[0] * block[1] * block[2];
  if (onlyThreads)
    threads = std::min(threads, onlyThreads);
  SmallVector<LaneAddress> lanes;
  for (int64_t linear = 0; linear < threads; ++linear) {
    int64_t tid[3] = {linear % block[0], (linear / block[0]) % block[1],
                      linear / (block[0] * block[1])};
    AddressEvaluator eval(state, tid, residues, caches[linear]);
    LaneAddress lane;
    // A guard that is concrete and false turns the lane off; one that is
    // not known leaves it on (more lanes can only add conflicts).
    for (auto [cond, inThen] : conditions) {
      // A guard that cannot be evaluated is cached as not concrete.
      auto &known = caches[linear];
      std::optional<Sym> c;
      if (auto it = known.find(cond); it != known.end()) {
        c = it->second;
      } else {
        DenseMap<unsigned, int64_t> refine = state.refine;
        std::string fatal = state.fatal;
        c = eval.eval(cond);
        state.refine = std::move(refine);
        state.fatal = std::move(fatal);
        if (!c)
          known[cond] = Sym{0, {1}};
      }
      if (c && c->concrete() && bool(c->c & 1) != inThen)
        lane.active = false;
    }
    if (access.activeLanes &&
        linear % state.chip.waveSize >= int64_t(access.activeLanes))
      lane.active = false;
    Sym address = Sym::of(offset);
    for (auto [index, stride] : llvm::zip_equal(access.indices, strides)) {
      std::optional<Sym> i = eval.eval(index);
      if (!i)
        return std::nullopt;
      address = combine(address, scale(*i, stride), 1);
    }
    lane.bytes = scale(address, elementBytes);
    lanes.push_back(std::move(lane));
  }
  return lanes;
}

} // namespace

/// What every evaluation of an access needs: its kernel's block size and
/// its buffer's static strides, offset and element bytes.
struct AccessGeometry {
  SmallVector<int64_t, 3> block;
  SmallVector<int64_t> strides;
  int64_t offset = 0, elementBytes = 1;
};

/// The geometry of `access`, or why it has none.
static std::string accessGeometry(const SharedAccess &access,
                                  AccessGeometry &g) {
  std::optional<SmallVector<int64_t, 3>> block = knownBlockSize(access.op);
  if (!block)
    return kUnknownBlockSize.str();
  g.block = *block;
  auto type = cast<MemRefType>(access.memref.getType());
  if (failed(type.getStridesAndOffset(g.strides, g.offset)) ||
      ShapedType::isDynamic(g.offset) ||
      llvm::any_of(g.strides, ShapedType::isDynamic))
    return "the workgroup buffer's layout is not static";
  g.elementBytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  return "";
}

/// The worst wave of `lanes` (one case) over every value of the symbols'
/// t that repeats, into `proof`; false when there are too many.
static bool countCase(const Chip &chip, const SharedAccess &access,
                      const ProofState &state, ArrayRef<int64_t> residues,
                      ArrayRef<LaneAddress> lanes, ConflictProof &proof) {
  size_t numSymbols = state.symbols.size();
  // The period of each symbol's t: the bank of c + k t repeats when k t
  // moves by a multiple of numBanks * bankBytes (the widest rule's banks).
  int64_t line = int64_t(chip.numBanks) * chip.bankBytes;
  SmallVector<int64_t> period(numSymbols, 1);
  SmallVector<bool> periodic(numSymbols, false);
  for (size_t i = 0; i < numSymbols; ++i) {
    int64_t g = 0;
    for (const LaneAddress &l : lanes)
      if (l.active)
        g = std::gcd(g, std::abs(l.bytes.coef(i)));
    if (g == 0)
      continue;
    int64_t p = line / std::gcd(line, g);
    const SymbolInfo &s = state.symbols[i];
    // The t values of this residue: all of them when fewer than a period.
    if (s.count) {
      int64_t r = i < residues.size() ? residues[i] : 0;
      int64_t values = llvm::divideCeil(*s.count - r, s.modulus);
      if (values <= p) {
        period[i] = values;
        continue;
      }
    }
    period[i] = p;
    periodic[i] = true;
  }
  int64_t combos = 1;
  for (int64_t p : period)
    combos *= p;
  if (combos * int64_t(lanes.size()) > kMaxCountedLanes)
    return false;
  // Lanes whose forms differ in a periodic symbol's coefficient: distinct
  // classes (never the same word).
  SmallVector<unsigned> laneClass(lanes.size(), 0);
  {
    std::vector<SmallVector<int64_t, 4>> seen;
    for (auto [l, lane] : llvm::enumerate(lanes)) {
      SmallVector<int64_t, 4> key;
      for (size_t i = 0; i < numSymbols; ++i)
        key.push_back(periodic[i] ? lane.bytes.coef(i) : 0);
      auto it = llvm::find(seen, key);
      laneClass[l] = it - seen.begin();
      if (it == seen.end())
        seen.push_back(key);
    }
  }
  unsigned wave = chip.waveSize;
  SmallVector<int64_t> t(numSymbols, 0);
  for (int64_t combo = 0; combo < combos; ++combo) {
    int64_t rest = combo;
    for (size_t i = 0; i < numSymbols; ++i) {
      t[i] = rest % period[i];
      rest /= period[i];
    }
    for (size_t first = 0; first < lanes.size(); first += wave) {
      SmallVector<std::optional<int64_t>> bytes;
      SmallVector<unsigned> classes;
      bool mixed = false;
      for (size_t l = first; l < std::min(lanes.size(), first + wave); ++l) {
        const LaneAddress &lane = lanes[l];
        classes.push_back(laneClass[l]);
        if (!lane.active) {
          bytes.push_back(std::nullopt);
          continue;
        }
        int64_t b = lane.bytes.c;
        for (size_t i = 0; i < numSymbols; ++i)
          b = wrappingAdd(b, wrappingMul(lane.bytes.coef(i), t[i]));
        bytes.push_back(b);
        mixed |= laneClass[l] != laneClass[first];
      }
      ConflictCount c =
          countConflicts(chip, access.kind, bytes, access.accessBytes, classes);
      if (c.worseThan(proof.worst)) {
        proof.worst = c;
        proof.exact = !mixed;
      }
    }
  }
  return true;
}

/// One access's evaluations kept between proofs (ProofSession).
struct ProofSession::AccessMemo {
  SmallVector<SymbolInfo> symbols;
  DenseMap<std::pair<const void *, int64_t>, unsigned> symbolIds;
  /// Per case, per thread (case * threads + thread), for `symbols`' splits.
  std::vector<DenseMap<Value, Sym>> lanes;
  /// sampleConflicts' threads, per sampled extent.
  std::vector<std::vector<DenseMap<Value, Sym>>> sample;
  /// simulateConflicts' threads (cleared for each simulated point).
  std::vector<DenseMap<Value, Sym>> simulate;
};

/// The values fed by layout.offset / layout.valid of an overridden
/// descriptor: what a proof with other overrides must evaluate again.
static DenseSet<Value>
overriddenValues(ArrayRef<std::pair<Value, const Descriptor *>> overrides) {
  DenseSet<Value> result;
  SmallVector<Value> work;
  for (auto [desc, d] : overrides)
    for (Operation *user : desc.getUsers())
      if (isa<OffsetOp, ValidOp>(user))
        work.append(user->result_begin(), user->result_end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!result.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      work.append(user->result_begin(), user->result_end());
  }
  return result;
}

ConflictProof mlir::layout::proveConflicts(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides) {
  ConflictProof proof;
  Chip::PhaseRule rule = chip.phaseRule(access.accessBytes, access.kind);
  proof.phases = rule.description;
  if (access.activeLanes) {
    // Only the phases with an active lane count (ldmatrix .x1 / .x2).
    size_t active = llvm::count_if(rule.phases, [&](ArrayRef<unsigned> p) {
      return llvm::any_of(p,
                          [&](unsigned l) { return l < access.activeLanes; });
    });
    proof.phases = llvm::formatv("{0} phases of {1} lanes", active,
                                 rule.phases.front().size());
  }
  AccessGeometry g;
  if (std::string why = accessGeometry(access, g); !why.empty()) {
    proof.why = why;
    return proof;
  }
  ProofState state(chip, g.block, session.descriptors);
  for (auto [desc, d] : overrides)
    state.overrides[desc] = d;
  int64_t threads = g.block[0] * g.block[1] * g.block[2];
  proof.waves = llvm::divideCeil(threads, chip.waveSize);
  std::shared_ptr<ProofSession::AccessMemo> &memo = session.accesses[access.op];
  if (!memo)
    memo = std::make_shared<ProofSession::AccessMemo>();
  state.symbols = memo->symbols;
  state.symbolIds = memo->symbolIds;
  DenseSet<Value> stale = overriddenValues(overrides);
  for (DenseMap<Value, Sym> &lane : memo->lanes)
    for (Value v : stale)
      lane.erase(v);
  // Evaluate every case; a case that asks for a finer split restarts with
  // it (each split multiplies a symbol's modulus, so this ends).
  for (int attempt = 0; attempt < 16; ++attempt) {
    int64_t cases = 1;
    for (const SymbolInfo &s : state.symbols) {
      // cases * threads stays at most kMaxThreadEvaluations, so checking a
      // symbol's residues against it first keeps the product from
      // overflowing.
      if (s.residues() <= kMaxThreadEvaluations)
        cases *= s.residues();
      if (s.residues() > kMaxThreadEvaluations ||
          cases * threads > kMaxThreadEvaluations) {
        proof.why =
            llvm::formatv("it needs more than {0} cases of the block ids and "
                          "iterations ({1} threads each)",
                          kMaxThreadEvaluations / threads, threads)
                .str();
        memo->lanes.clear();
        return proof;
      }
    }
    ConflictProof result = proof;
    bool restart = false;
    SmallVector<int64_t> residues;
    // Each case's threads, kept for the next proof; or one set reused.
    bool keep = cases * threads <= kMaxKeptThreads;
    if (!keep)
      memo->lanes.clear();
    memo->lanes.resize((keep ? cases : 1) * threads);
    for (int64_t c = 0; c < cases && !restart; ++c) {
      MutableArrayRef<DenseMap<Value, Sym>> caches =
          MutableArrayRef<DenseMap<Value, Sym>>(memo->lanes)
              .slice((keep ? c : 0) * threads, threads);
      if (!keep)
        for (DenseMap<Value, Sym> &lane : caches)
          lane.clear();
      residues.assign(state.symbols.size(), 0);
      int64_t rest = c;
      for (auto [i, s] : llvm::enumerate(state.symbols)) {
        residues[i] = rest % s.residues();
        rest /= s.residues();
      }
      std::optional<SmallVector<LaneAddress>> lanes = evaluateBlock(
          state, access, residues, g.strides, g.offset, g.elementBytes, caches);
      if (!state.fatal.empty()) {
        // The next proof (another layout) starts afresh.
        memo->lanes.clear();
        proof.why = state.fatal;
        return proof;
      }
      if (!state.refine.empty()) {
        for (auto [i, f] : state.refine)
          state.symbols[i].modulus *= f;
        state.refine.clear();
        memo->lanes.clear();
        restart = true;
        break;
      }
      // Symbols first met in this case have one residue: nothing to redo.
      if (!lanes)
        continue;
      if (!countCase(chip, access, state, residues, *lanes, result)) {
        memo->lanes.clear();
        proof.why = "the addresses move with too many block ids and "
                    "iterations to enumerate one period";
        return proof;
      }
    }
    if (!keep)
      memo->lanes.clear();
    if (restart)
      continue;
    memo->symbols = state.symbols;
    memo->symbolIds = state.symbolIds;
    result.proved = true;
    for (const SymbolInfo &s : state.symbols) {
      result.symbols.push_back(s.what);
      // A product taken as a free symbol: the worst may not be reachable.
      if (s.kind == SymbolInfo::Kind::Product)
        result.exact = false;
    }
    // A bound of one way is what every access takes: exact.
    if (result.worst.maxWays <= 1)
      result.exact = true;
    return result;
  }
  proof.why = "the block ids and iterations need too many splits";
  return proof;
}

std::string mlir::layout::describeProof(const ConflictProof &proof) {
  if (!proof.proved)
    return "not proved: " + proof.why;
  return llvm::formatv("proved for all {0} {1}, all blocks and all "
                       "iterations",
                       proof.waves, proof.waves == 1 ? "wave" : "waves")
      .str();
}

/// The count of `access` with every symbol at a concrete value (`valueOf`),
/// over the first `threads` threads of the block (all when 0): the worst
/// wave. `caches` keeps the threads' values (one map per thread).
static std::optional<ConflictCount>
concreteCount(const Chip &chip, const SharedAccess &access,
              DescriptorCache &descriptors,
              std::vector<DenseMap<Value, Sym>> &caches,
              ArrayRef<std::pair<Value, const Descriptor *>> overrides,
              std::function<int64_t(const SymbolInfo &, int64_t)> valueOf,
              int64_t threads, std::string &why) {
  AccessGeometry g;
  if (std::string problem = accessGeometry(access, g); !problem.empty()) {
    why = problem;
    return std::nullopt;
  }
  ProofState state(chip, g.block, descriptors);
  for (auto [desc, d] : overrides)
    state.overrides[desc] = d;
  state.concreteValue = std::move(valueOf);
  int64_t all = g.block[0] * g.block[1] * g.block[2];
  threads = threads ? std::min(threads, all) : all;
  caches.resize(all);
  std::optional<SmallVector<LaneAddress>> lanes =
      evaluateBlock(state, access, {}, g.strides, g.offset, g.elementBytes,
                    MutableArrayRef<DenseMap<Value, Sym>>(caches), threads);
  if (!lanes || state.failed()) {
    why = state.fatal.empty() ? "it depends on something not concrete"
                              : state.fatal;
    return std::nullopt;
  }
  ConflictCount worst;
  for (size_t first = 0; first < lanes->size(); first += chip.waveSize) {
    SmallVector<std::optional<int64_t>> bytes;
    for (size_t l = first; l < std::min(lanes->size(), first + chip.waveSize);
         ++l)
      bytes.push_back((*lanes)[l].active
                          ? std::optional<int64_t>((*lanes)[l].bytes.c)
                          : std::nullopt);
    ConflictCount c =
        countConflicts(chip, access.kind, bytes, access.accessBytes);
    if (c.worseThan(worst))
      worst = c;
  }
  return worst;
}

std::optional<ConflictCount> mlir::layout::simulateConflicts(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    ArrayRef<int64_t> blockId, const DenseMap<Operation *, int64_t> &iterations,
    const SimulationPoint &point, std::string &why) {
  std::shared_ptr<ProofSession::AccessMemo> &memo = session.accesses[access.op];
  if (!memo)
    memo = std::make_shared<ProofSession::AccessMemo>();
  std::vector<DenseMap<Value, Sym>> &caches = memo->simulate;
  for (DenseMap<Value, Sym> &lane : caches)
    lane.clear();
  // Every symbol concrete: block ids, iterations, extents; scalar kernel
  // arguments 0.
  auto valueOf = [&](const SymbolInfo &s, int64_t sub) -> int64_t {
    switch (s.kind) {
    case SymbolInfo::Kind::BlockId:
      return sub < int64_t(blockId.size()) ? blockId[sub] : 0;
    case SymbolInfo::Kind::GridSize:
      return point.gridSize;
    case SymbolInfo::Kind::Iteration:
      return iterations.lookup(s.loop);
    case SymbolInfo::Kind::Extent:
      if (!s.metadataOf)
        return point.extent;
      return point.extent + point.strideDelta +
             point.memrefStep * s.memrefOrdinal;
    case SymbolInfo::Kind::Argument:
    case SymbolInfo::Kind::Product:
      return 0;
    }
    return 0;
  };
  return concreteCount(chip, access, session.descriptors, caches, {}, valueOf,
                       0, why);
}

std::optional<ConflictCount> mlir::layout::sampleConflicts(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides,
    std::string &why) {
  std::shared_ptr<ProofSession::AccessMemo> &memo = session.accesses[access.op];
  if (!memo)
    memo = std::make_shared<ProofSession::AccessMemo>();
  DenseSet<Value> stale = overriddenValues(overrides);
  for (auto &point : memo->sample)
    for (DenseMap<Value, Sym> &lane : point)
      for (Value v : stale)
        lane.erase(v);
  // Block 0, the first iteration, arguments 0 and a few run-time extents:
  // points every proof covers, so the worst is at most the proved count.
  std::optional<ConflictCount> worst;
  memo->sample.resize(std::size(kSampleExtents));
  for (auto [extent, caches] : llvm::zip_equal(kSampleExtents, memo->sample)) {
    std::optional<ConflictCount> c = concreteCount(
        chip, access, session.descriptors, caches, overrides,
        [extent = extent](const SymbolInfo &s, int64_t) -> int64_t {
          return s.kind == SymbolInfo::Kind::Extent     ? extent
                 : s.kind == SymbolInfo::Kind::GridSize ? 1
                                                        : 0;
        },
        chip.waveSize, why);
    if (!c)
      return std::nullopt;
    if (!worst || c->worseThan(*worst))
      worst = c;
  }
  return worst;
}
