//===- Simulation.cpp - Bank conflicts with concrete values ---------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Brute force (simulateConflicts, for the test pass) and the swizzle
// search's cheap lower bound (sampleConflicts): every symbol at a concrete
// value, every lane of the block evaluated by the address interpreter and
// counted by the bank model.
//
//===----------------------------------------------------------------------===//

#include "ProofSupport.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::bank;

/// The counts of `accesses` (of one kernel) with every symbol at a concrete
/// value (`valueOf`), over the first `threads` threads of the block (all
/// when 0): the worst wave of each, or std::nullopt with `why[i]`. The
/// accesses share one evaluation per thread (`caches`, one map per thread),
/// so index computations they have in common are evaluated once.
static SmallVector<std::optional<ConflictCount>>
concreteCounts(const Chip &chip, ArrayRef<SharedAccess> accesses,
               DescriptorCache &descriptors,
               std::vector<DenseMap<Value, Sym>> &caches,
               ArrayRef<std::pair<Value, const Descriptor *>> overrides,
               std::function<int64_t(const SymbolInfo &, int64_t)> valueOf,
               int64_t threads, MutableArrayRef<std::string> why) {
  SmallVector<std::optional<ConflictCount>> counts(accesses.size());
  std::optional<ProofState> state;
  for (auto [i, access] : llvm::enumerate(accesses)) {
    AccessGeometry g;
    if (std::string problem = accessGeometry(access, g); !problem.empty()) {
      why[i] = problem;
      continue;
    }
    if (!state) {
      state.emplace(chip, g.block, descriptors);
      for (auto [desc, d] : overrides)
        state->overrides[desc] = d;
      state->concreteValue = valueOf;
    } else if (ArrayRef<int64_t>(state->block) != ArrayRef<int64_t>(g.block)) {
      why[i] = "its kernel's block size differs from the other accesses'";
      continue;
    }
    // A failure is this access's alone (failed values are not cached).
    state->fatal.clear();
    state->refine.clear();
    int64_t all = g.block[0] * g.block[1] * g.block[2];
    int64_t n = threads ? std::min(threads, all) : all;
    caches.resize(all);
    std::optional<SmallVector<LaneAddress>> lanes =
        evaluateBlock(*state, access, {}, g.strides, g.offset, g.elementBytes,
                      MutableArrayRef<DenseMap<Value, Sym>>(caches), n);
    if (!lanes || state->failed()) {
      why[i] = state->fatal.empty() ? "it depends on something not concrete"
                                    : state->fatal;
      continue;
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
    counts[i] = worst;
  }
  return counts;
}

SmallVector<std::optional<ConflictCount>> mlir::layout::simulateConflicts(
    const Chip &chip, ArrayRef<SharedAccess> accesses, ProofSession &session,
    ArrayRef<int64_t> blockId, const DenseMap<Operation *, int64_t> &iterations,
    const SimulationPoint &point, MutableArrayRef<std::string> why) {
  if (!session.simulation)
    session.simulation = std::make_shared<ProofSession::Simulation>();
  std::vector<DenseMap<Value, Sym>> &caches = session.simulation->threads;
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
  return concreteCounts(chip, accesses, session.descriptors, caches, {},
                        valueOf, 0, why);
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
    std::optional<ConflictCount> c = concreteCounts(
        chip, access, session.descriptors, caches, overrides,
        [extent = extent](const SymbolInfo &s, int64_t) -> int64_t {
          return s.kind == SymbolInfo::Kind::Extent     ? extent
                 : s.kind == SymbolInfo::Kind::GridSize ? 1
                                                        : 0;
        },
        chip.waveSize, why)[0];
    if (!c)
      return std::nullopt;
    if (!worst || c->worseThan(*worst))
      worst = c;
  }
  return worst;
}

std::optional<SampledWave>
mlir::layout::sampleFirstWave(const Chip &chip, const SharedAccess &access,
                              ArrayRef<Value> probes, ProofSession &session,
                              std::string &why) {
  AccessGeometry g;
  if (std::string problem = accessGeometry(access, g); !problem.empty()) {
    why = problem;
    return std::nullopt;
  }
  ProofState state(chip, g.block, session.descriptors);
  int64_t extent = kSampleExtents[0];
  state.concreteValue = [extent](const SymbolInfo &s, int64_t) -> int64_t {
    return s.kind == SymbolInfo::Kind::Extent     ? extent
           : s.kind == SymbolInfo::Kind::GridSize ? 1
                                                  : 0;
  };
  int64_t threads =
      std::min<int64_t>(chip.waveSize, g.block[0] * g.block[1] * g.block[2]);
  std::vector<DenseMap<Value, Sym>> caches(threads);
  SampledWave wave;
  std::optional<SmallVector<LaneAddress>> lanes =
      evaluateBlock(state, access, {}, g.strides, g.offset, g.elementBytes,
                    MutableArrayRef<DenseMap<Value, Sym>>(caches), threads,
                    probes, &wave.probes);
  if (!lanes || state.failed()) {
    why = state.fatal.empty() ? "it depends on something not concrete"
                              : state.fatal;
    return std::nullopt;
  }
  for (const LaneAddress &lane : *lanes)
    wave.bytes.push_back(lane.active ? std::optional<int64_t>(lane.bytes.c)
                                     : std::nullopt);
  wave.count =
      countConflicts(chip, access.kind, wave.bytes, access.accessBytes);
  return wave;
}
