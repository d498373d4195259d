//===- AddressInterpreter.cpp - Addresses as affine forms in symbols ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "AddressInterpreter.h"
#include "SymAlgebra.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/DescriptorFormulas.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::bank;

namespace {

/// Evaluates the index computations of one thread in one case (one residue
/// per symbol): constants through each op's folder, thread ids concrete,
/// block ids, loop iterations, dynamic extents and scalar arguments as
/// symbols.
class AddressEvaluator {
public:
  AddressEvaluator(ProofState &state, ArrayRef<int64_t> threadId,
                   ArrayRef<int64_t> residues, DenseMap<Value, Sym> &cache,
                   DenseMap<Value, Sym> &uniform)
      : state(state), threadId(threadId.begin(), threadId.end()),
        residues(residues.begin(), residues.end()), cache(cache),
        uniform(uniform) {}

  /// The value of `v`, or std::nullopt when the state failed (a split is
  /// asked for, or the proof stops). Values that no thread id feeds are
  /// evaluated once for all the threads of the case (`uniform`).
  std::optional<Sym> eval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    bool shared = isThreadUniform(v);
    if (shared)
      if (auto it = uniform.find(v); it != uniform.end())
        return it->second;
    std::optional<Sym> r = compute(v);
    if (!r || state.failed())
      return std::nullopt;
    (shared ? uniform : cache)[v] = *r;
    return r;
  }

  /// The value of `v` where it can be evaluated now, else std::nullopt,
  /// the state left as it was: the failure's explanation and the splits
  /// it asks for are discarded (guards, probes, a loop's upper bound).
  std::optional<Sym> evalIfKnown(Value v) {
    DenseMap<unsigned, int64_t> refine = state.refine;
    std::string fatal = state.fatal;
    bool quiet = state.quiet;
    state.quiet = true;
    std::optional<Sym> r = eval(v);
    if (state.failed())
      r = std::nullopt;
    state.quiet = quiet;
    state.refine = std::move(refine);
    state.fatal = std::move(fatal);
    return r;
  }

  /// Whether `v` is the same in every thread of the block: no thread or
  /// lane id feeds it, and it is no result of an op with regions (memoized
  /// in the state).
  bool isThreadUniform(Value v) {
    auto [it, inserted] = state.threadUniform.try_emplace(v, false);
    if (!inserted)
      return it->second;
    bool result = false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *parent = arg.getOwner()->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        result = arg == loop.getInductionVar() &&
                 isThreadUniform(loop.getLowerBound()) &&
                 isThreadUniform(loop.getUpperBound()) &&
                 isThreadUniform(loop.getStep());
      else
        result = isa<gpu::GPUFuncOp>(parent);
    } else {
      Operation *op = v.getDefiningOp();
      result = !isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(op) &&
               op->getNumRegions() == 0 &&
               llvm::all_of(op->getOperands(),
                            [&](Value o) { return isThreadUniform(o); });
    }
    state.threadUniform[v] = result;
    return result;
  }

private:
  std::optional<Sym> stop(const Twine &why) {
    if (state.fatal.empty())
      state.fatal = state.quiet ? std::string("?") : why.str();
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
      if (std::optional<Sym> known = typedMetadata(meta, result))
        return known;
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

  /// Run-time extent `dim` of `memref` (memref.dim).
  Sym extentSymbol(Value memref, int64_t dim) {
    return symbolOf(memref.getAsOpaquePointer(), dim, [&] {
      return SymbolInfo{
          SymbolInfo::Kind::Extent, nullptr,
          llvm::formatv("dimension {0} of a dynamic memref", dim).str(),
          std::nullopt};
    });
  }

  /// What the memref's type fixes of strided metadata result `result`: a
  /// static offset, size or stride (an identity layout's offset 0 and last
  /// stride 1). std::nullopt where the value is a symbol of its own.
  std::optional<Sym> typedMetadata(memref::ExtractStridedMetadataOp meta,
                                   unsigned result) {
    auto type = dyn_cast<MemRefType>(meta.getSource().getType());
    if (!type)
      return std::nullopt;
    auto [it, inserted] = state.stridedLayouts.try_emplace(type);
    if (inserted) {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (succeeded(type.getStridesAndOffset(strides, offset)))
        it->second.emplace(std::move(strides), offset);
    }
    if (!it->second)
      return std::nullopt;
    int64_t rank = type.getRank();
    int64_t value = result == 1         ? it->second->second
                    : result < 2 + rank ? type.getDimSize(result - 2)
                                        : it->second->first[result - 2 - rank];
    if (ShapedType::isDynamic(value))
      return std::nullopt;
    return Sym::of(value);
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
      // The upper bound only counts the iterations: one that cannot be
      // evaluated (a division of an argument: a rotated loop's stage
      // read from its induction variable) leaves their number unbounded,
      // which the proof covers too.
      std::optional<int64_t> count;
      std::optional<Sym> ub = evalIfKnown(loop.getUpperBound());
      if (ub && lb->concrete() && ub->concrete())
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
      return extentSymbol(d.getSource(), index->c);
    }
    if (auto off = dyn_cast<OffsetOp>(op))
      return descriptorFormula(off.getDesc(), off.getIndices(), false);
    if (auto valid = dyn_cast<ValidOp>(op))
      return descriptorFormula(valid.getDesc(), valid.getIndices(), true);
    bool isArith = isa_and_nonnull<arith::ArithDialect>(op->getDialect());
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
    if (std::optional<Sym> fast = concreteArith(op))
      return fast;
    if (state.failed())
      return std::nullopt;
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

  /// The common arith ops of index computations on concrete operands,
  /// evaluated as their folders evaluate them (foldIntegerOp) without
  /// building attributes: brute force evaluates every thread of many
  /// blocks, and attributes cost most of that. std::nullopt where the
  /// folder decides (another op, or one it may refuse).
  std::optional<Sym> concreteArith(Operation *op) {
    if (op->getNumResults() != 1 ||
        !isa<arith::ArithDialect>(op->getDialect()) ||
        !op->getResult(0).getType().isIntOrIndex())
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(c.getValue());
      if (!attr)
        return std::nullopt;
      return fromAPInt(attr.getValue());
    }
    SmallVector<APInt, 3> x;
    for (Value o : op->getOperands()) {
      if (!o.getType().isIntOrIndex())
        return std::nullopt;
      std::optional<Sym> v = eval(o);
      if (!v || !v->concrete())
        return std::nullopt;
      x.push_back(APInt(integerBitWidth(o.getType()), uint64_t(v->c),
                        /*isSigned=*/true, /*implicitTrunc=*/true));
    }
    std::optional<APInt> r = foldIntegerOp(op, x);
    if (!r)
      return std::nullopt;
    return fromAPInt(*r);
  }

  /// A folded integer as the evaluator keeps it: i1 zero-extended, the
  /// others sign-extended (as generic() reads a folder's attribute).
  static Sym fromAPInt(const APInt &v) {
    return Sym::of(v.getBitWidth() == 1 ? int64_t(v.getZExtValue())
                                        : v.getSExtValue());
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
  /// The case's values that are the same in every thread.
  DenseMap<Value, Sym> &uniform;
  /// Set by specialValue for an op it leaves to the folders.
  bool unhandled = false;
};

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

} // namespace

std::optional<SmallVector<LaneAddress>> bank::evaluateBlock(
    ProofState &state, const SharedAccess &access, ArrayRef<int64_t> residues,
    ArrayRef<int64_t> strides, int64_t offset, int64_t elementBytes,
    MutableArrayRef<DenseMap<Value, Sym>> caches, int64_t onlyThreads,
    ArrayRef<Value> probes,
    SmallVectorImpl<SmallVector<std::optional<int64_t>>> *probed) {
  SmallVector<std::pair<Value, bool>> conditions = guards(access.op);
  ArrayRef<int64_t> block = state.block;
  int64_t threads = block[0] * block[1] * block[2];
  if (onlyThreads)
    threads = std::min(threads, onlyThreads);
  SmallVector<LaneAddress> lanes;
  DenseMap<Value, Sym> uniform;
  for (int64_t linear = 0; linear < threads; ++linear) {
    int64_t tid[3] = {linear % block[0], (linear / block[0]) % block[1],
                      linear / (block[0] * block[1])};
    AddressEvaluator eval(state, tid, residues, caches[linear], uniform);
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
        c = eval.evalIfKnown(cond);
        if (!c)
          (eval.isThreadUniform(cond) ? uniform : known)[cond] = Sym{0, {1}};
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
        break;
      address = combine(address, scale(*i, stride), 1);
    }
    // A fatal problem ends the case; a finer split asked for by one thread
    // still lets the others ask for theirs, so that one restart takes them
    // all.
    if (!state.fatal.empty())
      return std::nullopt;
    if (!state.refine.empty())
      continue;
    lane.bytes = scale(address, elementBytes);
    lanes.push_back(std::move(lane));
    if (probed) {
      // Probes that are not concrete are left out, their failures with them.
      SmallVector<std::optional<int64_t>> &values = probed->emplace_back();
      for (Value probe : probes) {
        std::optional<Sym> v = eval.evalIfKnown(probe);
        values.push_back(v && v->concrete() ? std::optional<int64_t>(v->c)
                                            : std::nullopt);
      }
    }
  }
  if (state.failed())
    return std::nullopt;
  return lanes;
}
