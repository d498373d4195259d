//===- AddressInterpreter.h - Addresses as affine forms in symbols -*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The interpreter behind the bank-conflict proof: it evaluates a kernel's
// index computations for one thread, with the thread ids concrete and what
// differs between blocks and iterations (block ids, loop iterations,
// run-time extents, scalar arguments) as *symbols*, each value an affine
// form c + sum_i k_i t_i (Sym). A division, remainder, mask or xor by a
// constant that a coefficient does not divide asks for a finer split of the
// symbol by residue (j = r + m t), so the form stays exact; a compare or
// select on a symbolic value asks for the symbol's values to be enumerated.
// Concrete values go through each op's own folder (the common arith ops
// evaluated directly, as their folders would). Brute force gives every
// symbol a concrete value instead (ProofState::concreteValue).
//
// Why not MLIR's ValueBoundsOpInterface or integer-range analysis: both
// bound a value over every thread at once (an interval, or a constraint
// set), while a bank conflict is a relation between the addresses of the
// lanes of one wave: two lanes conflict when their words differ and share
// a bank, which an interval of addresses cannot tell. The proof needs each
// lane's exact address as a function of the symbols, then counts banks
// lane by lane (BankModel.h); bounds would only say "somewhere in this
// range", which proves neither a conflict nor its absence.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_ADDRESSINTERPRETER_H
#define LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_ADDRESSINTERPRETER_H

#include "layout/Transforms/BankConflicts.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <numeric>
#include <string>

namespace mlir {
namespace layout {
namespace bank {

/// c + sum_i k[i] * t_i: a value as an affine form in the free symbols t_i
/// (what differs between blocks and iterations); concrete when every k is 0.
struct Sym {
  int64_t c = 0;
  SmallVector<int64_t, 8> k;

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

inline Sym combine(const Sym &a, const Sym &b, int64_t sign) {
  Sym r;
  r.c = sign > 0 ? wrappingAdd(a.c, b.c) : wrappingSub(a.c, b.c);
  r.k.resize(std::max(a.k.size(), b.k.size()), 0);
  for (size_t i = 0; i < r.k.size(); ++i)
    r.k[i] = sign > 0 ? wrappingAdd(a.coef(i), b.coef(i))
                      : wrappingSub(a.coef(i), b.coef(i));
  return r;
}

inline Sym scale(const Sym &a, int64_t f) {
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
  /// Whether each value met is the same in every thread of the block.
  DenseMap<Value, bool> threadUniform;
  /// Set while a guard is evaluated: its failures are discarded, so their
  /// explanations are not written.
  bool quiet = false;
  /// The static strides and offset of each memref type met (their
  /// computation builds affine expressions: once per type, not per thread).
  DenseMap<Type, std::optional<std::pair<SmallVector<int64_t>, int64_t>>>
      stridedLayouts;

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
        if (fatal.empty() && quiet)
          fatal = "?";
        else if (fatal.empty())
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

/// One thread's address in one case, or nullopt if it does not access.
struct LaneAddress {
  bool active = true;
  Sym bytes;
};

/// Evaluates the byte address of every thread of the block in the case
/// `residues`; std::nullopt when the state failed. With `probed`, also
/// the concrete value of each of `probes` in each thread (`probed[thread]`;
/// std::nullopt where it is not concrete), as the address sees them.
std::optional<SmallVector<LaneAddress>> evaluateBlock(
    ProofState &state, const SharedAccess &access, ArrayRef<int64_t> residues,
    ArrayRef<int64_t> strides, int64_t offset, int64_t elementBytes,
    MutableArrayRef<DenseMap<Value, Sym>> caches, int64_t onlyThreads = 0,
    ArrayRef<Value> probes = {},
    SmallVectorImpl<SmallVector<std::optional<int64_t>>> *probed = nullptr);

/// The bit width arith gives an integer or index value (index: 64, as the
/// arith folders fold it).
unsigned integerBitWidth(Type type);

/// The common arith ops of index computations (add, sub, mul, the
/// divisions and remainders, shifts, bitwise ops, min / max, cmpi, select
/// and the integer casts) on constant operands `x` (each at its type's
/// width), evaluated as the ops' folders evaluate them: the same widths,
/// wrapping and rounding. std::nullopt for another op and where the
/// folder may refuse (a division by zero, a signed overflow, a shift past
/// the width): the caller asks the folder then.
std::optional<APInt> foldIntegerOp(Operation *op, ArrayRef<APInt> x);

} // namespace bank
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_ADDRESSINTERPRETER_H
