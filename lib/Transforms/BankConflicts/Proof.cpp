//===- Proof.cpp - Bank conflicts proved for every wave -------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// proveConflicts: every case (a residue of each symbol) of every thread of
// the block evaluated by the address interpreter, then the worst wave over
// one period of each symbol's free part, counted by the bank model.
//
//===----------------------------------------------------------------------===//

#include "ProofSupport.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <set>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::bank;

std::string bank::accessGeometry(const SharedAccess &access,
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

DenseSet<Value> bank::overriddenValues(
    ArrayRef<std::pair<Value, const Descriptor *>> overrides) {
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

/// The phase rule of `access` as a remark says it.
static std::string describePhases(const Chip &chip,
                                  const SharedAccess &access) {
  Chip::PhaseRule rule = chip.phaseRule(access.accessBytes, access.kind);
  if (!access.activeLanes)
    return rule.description;
  // Only the phases with an active lane count (ldmatrix .x1 / .x2).
  size_t active = llvm::count_if(rule.phases, [&](ArrayRef<unsigned> p) {
    return llvm::any_of(p, [&](unsigned l) { return l < access.activeLanes; });
  });
  return llvm::formatv("{0} phases of {1} lanes", active,
                       rule.phases.front().size());
}

/// The cases (residue combinations) of `symbols`, or std::nullopt with
/// `why` when there are more than the thread evaluations allow.
static std::optional<int64_t> countCases(ArrayRef<SymbolInfo> symbols,
                                         int64_t threads, std::string &why) {
  int64_t cases = 1;
  for (const SymbolInfo &s : symbols) {
    // cases * threads stays at most kMaxThreadEvaluations, so checking a
    // symbol's residues against it first keeps the product from
    // overflowing.
    if (s.residues() <= kMaxThreadEvaluations)
      cases *= s.residues();
    if (s.residues() > kMaxThreadEvaluations ||
        cases * threads > kMaxThreadEvaluations) {
      why = llvm::formatv("it needs more than {0} cases of the block ids and "
                          "iterations ({1} threads each)",
                          kMaxThreadEvaluations / threads, threads)
                .str();
      return std::nullopt;
    }
  }
  return cases;
}

/// Why a proof of `cases` cases of `threads` threads each gives up on the
/// session's budget (without what was left, so that the remarks of the
/// accesses given up on alike merge).
static std::string describeBudget(const ProofSession &session, int64_t cases,
                                  int64_t threads) {
  return llvm::formatv("gave up: it needs {0} thread evaluations ({1} cases "
                       "of the block ids, iterations and run-time values, "
                       "{2} threads each), more than was left of the "
                       "analysis's budget of {3} (max-evaluations)",
                       cases * threads, cases, threads, session.initialBudget)
      .str();
}

ConflictProof mlir::layout::proveConflicts(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides) {
  ConflictProof proof;
  proof.phases = describePhases(chip, access);
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
    std::optional<int64_t> counted =
        countCases(state.symbols, threads, proof.why);
    if (!counted) {
      memo->lanes.clear();
      return proof;
    }
    int64_t cases = *counted;
    // The session's budget: a proof that cannot end within it does not
    // start (later, cheaper accesses still get theirs).
    if (session.evaluationBudget >= 0 &&
        cases * threads > session.evaluationBudget) {
      memo->lanes.clear();
      proof.why = describeBudget(session, cases, threads);
      return proof;
    }
    session.evaluationBudget -=
        session.evaluationBudget >= 0 ? cases * threads : 0;
    ConflictProof result = proof;
    bool restart = false;
    SmallVector<int64_t> residues;
    // Each case's threads, kept for the next proof; or one set reused.
    bool keep = session.keepThreads && cases * threads <= kMaxKeptThreads;
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
