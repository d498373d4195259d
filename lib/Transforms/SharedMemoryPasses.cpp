//===- SharedMemoryPasses.cpp - Bank-conflict analysis and swizzling ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/TargetChip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTANALYZEBANKCONFLICTS
#define GEN_PASS_DEF_LAYOUTXORSWIZZLE
#include "layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Scores one access: its proved worst wave, or why it has none.
struct Score {
  std::optional<ConflictCount> count;
  std::string why;
};

Score scoreAccess(
    const Chip &chip, const SharedAccess &access, ProofSession &session,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides = {}) {
  ConflictProof proof = proveConflicts(chip, access, session, overrides);
  if (!proof.proved)
    return {std::nullopt, proof.why};
  return {proof.worst, ""};
}

/// The name of the kernel (gpu.func or func.func) around `op`.
std::string kernelName(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return func.getName().str();
  return "";
}

/// Emits `text` at `loc` through MLIR's remark engine when it takes the
/// category layout-bank-conflicts (layout-opt --remarks-filter=...
/// [--remark-format=yaml], with the metrics as arguments), else as a
/// diagnostic remark.
void emitLayoutRemark(Location loc, StringRef name, StringRef function,
                      const std::string &text,
                      ArrayRef<std::pair<StringRef, std::string>> metrics) {
  // An empty remark when the engine is off or filters this category out.
  if (auto remark = remark::analysis(loc, remark::RemarkOpts::name(name)
                                              .category("layout-bank-conflicts")
                                              .function(function))) {
    remark << text;
    for (auto &[key, value] : metrics)
      remark << remark::metric(key, value);
    return;
  }
  mlir::emitRemark(loc) << text;
}

/// The chips of the code in a module, resolved once per gpu.module.
struct ChipScopes {
  ChipScopes(StringRef option, StringRef pass) : option(option), pass(pass) {}

  StringRef option, pass;
  DenseMap<Operation *, FailureOr<Chip>> chips;
  bool failedAny = false;

  /// Checks a chip option before any access needs it (a module without
  /// workgroup accesses still rejects an unknown chip).
  bool checkOption(ModuleOp module) {
    if (option.empty())
      return true;
    llvm::Expected<Chip> chip = parseChip(option);
    if (chip)
      return true;
    module.emitError() << pass << ": " << llvm::toString(chip.takeError());
    return false;
  }

  /// The chip of the code at `op`, or nullptr (an error was emitted).
  const Chip *at(Operation *op) {
    Operation *scope = op->getParentOfType<gpu::GPUModuleOp>();
    if (!scope)
      scope = op->getParentOfType<ModuleOp>();
    auto it = chips.find(scope);
    if (it == chips.end())
      it = chips.try_emplace(scope, resolveChip(op, option, pass)).first;
    if (failed(it->second)) {
      failedAny = true;
      return nullptr;
    }
    return &*it->second;
  }
};

struct LayoutAnalyzeBankConflictsPass final
    : layout::impl::LayoutAnalyzeBankConflictsBase<
          LayoutAnalyzeBankConflictsPass> {
  using Base::Base;

  /// Per kernel: accesses, those with conflicts, their worst, proofs.
  struct Summary {
    Location loc;
    std::string chip;
    unsigned accesses = 0, conflicted = 0, proved = 0;
    unsigned worstExtra = 0;
  };

  void runOnOperation() override {
    ChipScopes scopes(chip, "-layout-analyze-bank-conflicts");
    if (!scopes.checkOption(getOperation()))
      return signalPassFailure();
    ProofSession session;
    llvm::MapVector<Operation *, Summary> summaries;
    getOperation().walk([&](Operation *op) {
      std::optional<SharedAccess> access = getSharedAccess(op);
      if (!access)
        return;
      const Chip *target = scopes.at(op);
      if (!target)
        return;
      ConflictProof proof = proveConflicts(*target, *access, session);
      Operation *kernel = op->getParentOfType<FunctionOpInterface>();
      Summary &sum = summaries
                         .try_emplace(kernel, Summary{kernel ? kernel->getLoc()
                                                             : op->getLoc(),
                                                      target->name})
                         .first->second;
      ++sum.accesses;
      sum.proved += proof.proved;
      bool conflicted = !proof.proved || proof.worst.extra() > 0;
      sum.conflicted += conflicted;
      sum.worstExtra = std::max(sum.worstExtra, proof.worst.extra());
      if (conflictsOnly && !conflicted)
        return;
      report(*target, *access, proof);
    });
    if (scopes.failedAny)
      return signalPassFailure();
    for (auto &[kernel, sum] : summaries) {
      if (!kernel)
        continue;
      std::string text = llvm::formatv(
          "bank conflicts on {0} in @{1}: {2} workgroup-memory {3}, {4} with "
          "conflicts or unproved, worst {5} extra cycles; {6} of {2} proved",
          sum.chip, cast<FunctionOpInterface>(kernel).getName(), sum.accesses,
          sum.accesses == 1 ? "access" : "accesses", sum.conflicted,
          sum.worstExtra, sum.proved);
      emitLayoutRemark(sum.loc, "BankConflictSummary",
                       cast<FunctionOpInterface>(kernel).getName(), text,
                       {{"Chip", sum.chip},
                        {"Accesses", std::to_string(sum.accesses)},
                        {"Conflicted", std::to_string(sum.conflicted)},
                        {"WorstExtraCycles", std::to_string(sum.worstExtra)},
                        {"Proved", std::to_string(sum.proved)}});
    }
  }

  void report(const Chip &target, const SharedAccess &access,
              const ConflictProof &proof) {
    std::string buffer = describeBuffer(access.memref);
    std::string kernel = kernelName(access.op);
    std::string dir = access.isWrite() ? "writes" : "reads";
    if (access.kind == SharedAccessKind::LdMatrix)
      dir = "ldmatrix reads";
    std::string text;
    if (!proof.proved)
      text = llvm::formatv("bank conflicts on {0}: {1}; {2}", target.name,
                           describeProof(proof), buffer)
                 .str();
    else
      text = llvm::formatv("bank conflicts on {0}: {1}{2} extra cycles "
                           "({3}-way; {4}-byte {5}, {6}); {7}; {8}",
                           target.name, proof.exact ? "" : "at most ",
                           proof.worst.extra(), proof.worst.maxWays,
                           access.accessBytes, dir, proof.phases,
                           describeProof(proof), buffer)
                 .str();
    emitLayoutRemark(
        access.op->getLoc(), "BankConflicts", kernel, text,
        {{"Chip", target.name},
         {"Kernel", kernel},
         {"Buffer", buffer},
         {"Access", access.op->getName().getStringRef().str()},
         {"Bytes", std::to_string(access.accessBytes)},
         {"ExtraCycles", proof.proved ? std::to_string(proof.worst.extra())
                                      : std::string("unknown")},
         {"Ways", std::to_string(proof.worst.maxWays)},
         {"Proved", proof.proved ? "true" : "false"},
         {"Exact", proof.proved && proof.exact ? "true" : "false"},
         {"Why", proof.why}});
  }
};

//===----------------------------------------------------------------------===//
// Swizzling
//===----------------------------------------------------------------------===//

/// The stages that put `col -> ((col / v) xor ((row / p) mod (c / v))) * v
/// + col mod v` on top of a descriptor of top lengths [lead..., r, c]: the
/// leading dimensions (pipeline stages) pass through.
std::vector<Stage> swizzleStages(ArrayRef<int64_t> lead, int64_t r, int64_t c,
                                 int64_t v, int64_t p) {
  int64_t blocks = c / v, groups = r / p;
  int64_t n = lead.size();
  std::vector<Stage> stages(3);
  for (auto [k, len] : llvm::enumerate(lead))
    for (Stage &s : stages)
      s.push_back(
          makeEntry(Transform::passThrough(len), {int64_t(k)}, {int64_t(k)}));
  stages[0].push_back(
      makeEntry(Transform::unmerge({groups, p}), {n}, {n, n + 1}));
  stages[0].push_back(
      makeEntry(Transform::unmerge({blocks, v}), {n + 1}, {n + 2, n + 3}));
  stages[1].push_back(makeEntry(Transform::xorTransform({groups, blocks}),
                                {n, n + 2}, {n, n + 2}));
  stages[1].push_back(makeEntry(Transform::passThrough(p), {n + 1}, {n + 1}));
  stages[1].push_back(makeEntry(Transform::passThrough(v), {n + 3}, {n + 3}));
  stages[2].push_back(
      makeEntry(Transform::merge({groups, p}), {n, n + 1}, {n}));
  stages[2].push_back(
      makeEntry(Transform::merge({blocks, v}), {n + 2, n + 3}, {n + 1}));
  return stages;
}

/// One CuTe `Swizzle<B, M, S>` of a linear offset u:
/// `u xor ((u >> S) & ((2^B - 1) << M))`.
struct LinearSwizzle {
  int64_t bits = 0, base = 0, shift = 0;
};

/// The stages that put the swizzles `terms`, one after the other, on the
/// row-major offset `u = row * c + col` of a descriptor of top lengths
/// [lead..., r, c], so that the xor may take row bits into column blocks
/// across rows shorter than the banks (a 64-byte row pair as one 128-byte
/// line); the leading dimensions pass through.
std::vector<Stage> linearSwizzleStages(ArrayRef<int64_t> lead, int64_t r,
                                       int64_t c,
                                       ArrayRef<LinearSwizzle> terms) {
  int64_t n = lead.size();
  std::vector<Stage> stages(terms.size() + 2);
  for (auto [k, len] : llvm::enumerate(lead))
    for (Stage &s : stages)
      s.push_back(
          makeEntry(Transform::passThrough(len), {int64_t(k)}, {int64_t(k)}));
  stages.front().push_back(
      makeEntry(Transform::merge({r, c}), {n, n + 1}, {n}));
  for (auto [i, t] : llvm::enumerate(terms))
    stages[i + 1].push_back(makeEntry(
        Transform::swizzle(t.bits, t.base, t.shift, r * c), {n}, {n}));
  stages.back().push_back(
      makeEntry(Transform::unmerge({r, c}), {n}, {n, n + 1}));
  return stages;
}

/// The most candidate layouts the swizzle search proves for one buffer.
constexpr int64_t kMaxProvedLayouts = 64;

bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int64_t log2Of(int64_t x) { return llvm::Log2_64(uint64_t(x)); }

/// One layout of the swizzle search: the column-block xor of swizzleStages
/// (v, p), or one or two linear swizzles of linearSwizzleStages.
struct Candidate {
  int64_t v = 0, p = 0;
  SmallVector<LinearSwizzle, 2> terms;

  std::vector<Stage> stages(ArrayRef<int64_t> lead, int64_t rows,
                            int64_t cols) const {
    return terms.empty() ? swizzleStages(lead, rows, cols, v, p)
                         : linearSwizzleStages(lead, rows, cols, terms);
  }
  std::string str(int64_t cols) const {
    if (terms.empty())
      return llvm::formatv("column blocks of {0} {1} xor (row / {2}) mod {3}",
                           v, v == 1 ? "element" : "elements", p, cols / v)
          .str();
    std::string what = "offset", names;
    for (auto [i, t] : llvm::enumerate(terms)) {
      what += llvm::formatv("{0} bits [{1}, {2}) xor bits [{3}, {4})",
                            i ? "," : "", t.base, t.base + t.bits,
                            t.base + t.shift, t.base + t.shift + t.bits);
      names += llvm::formatv("{0}Swizzle<{1}, {2}, {3}>", i ? " then " : "",
                             t.bits, t.base, t.shift);
    }
    return what + " (" + names + ")";
  }
};

/// A workgroup buffer, its accesses and the descriptor they go through.
struct Buffer {
  Value memref;
  SmallVector<SharedAccess> accesses;
  Value desc;
  SmallVector<OffsetOp> offsets;
};

/// Checks that every access indexes the 1-D buffer with layout.offset of
/// one descriptor; returns why not otherwise.
std::string collect(Buffer &buffer) {
  if (cast<MemRefType>(buffer.memref.getType()).getRank() != 1)
    return "the buffer is not 1-D (index it through a layout descriptor)";
  for (const SharedAccess &a : buffer.accesses) {
    auto off = a.indices.front().getDefiningOp<OffsetOp>();
    if (!off)
      return "an access does not index it with layout.offset";
    if (buffer.desc && off.getDesc() != buffer.desc)
      return "its accesses go through different descriptors";
    buffer.desc = off.getDesc();
    buffer.offsets.push_back(off);
  }
  return "";
}

struct LayoutXorSwizzlePass final
    : layout::impl::LayoutXorSwizzleBase<LayoutXorSwizzlePass> {
  using Base::Base;

  /// Total extra cycles of the buffer's accesses with `candidate` as the
  /// descriptor (or the current one), or std::nullopt if unscorable.
  /// With `sample`, a lower bound (sampleConflicts) instead of the proof.
  std::optional<int64_t> total(const Chip &model, const Buffer &buffer,
                               const Descriptor *candidate, std::string &why,
                               bool sample = false) {
    int64_t sum = 0;
    SmallVector<std::pair<Value, const Descriptor *>> overrides;
    if (candidate)
      overrides.push_back({buffer.desc, candidate});
    for (const SharedAccess &a : buffer.accesses) {
      Score s;
      if (sample || !proving)
        s.count = sampleConflicts(model, a, session, overrides, s.why);
      else
        s = scoreAccess(model, a, session, overrides);
      if (!s.count) {
        why = s.why;
        return std::nullopt;
      }
      sum += s.count->extra();
    }
    return sum;
  }

  void runOnOperation() override {
    ChipScopes scopes(chip, "-layout-xor-swizzle");
    if (!scopes.checkOption(getOperation()))
      return signalPassFailure();
    // The workgroup buffers and their accesses, in program order.
    llvm::MapVector<Value, Buffer> buffers;
    getOperation().walk([&](Operation *op) {
      if (std::optional<SharedAccess> a = getSharedAccess(op)) {
        Buffer &b = buffers[a->memref];
        b.memref = a->memref;
        b.accesses.push_back(*a);
      }
    });
    for (auto &[memref, buffer] : buffers) {
      const Chip *model = scopes.at(buffer.accesses.front().op);
      if (!model)
        continue;
      session = ProofSession();
      swizzle(*model, buffer);
    }
    if (scopes.failedAny)
      signalPassFailure();
  }

  /// The proofs of the buffer being swizzled (its IR is unchanged until
  /// the search ends).
  ProofSession session;
  /// Whether the buffer's conflicts are proved (else sampled).
  bool proving = true;

  void swizzle(const Chip &model, Buffer &buffer) {
    auto remark = [&]() {
      return mlir::emitRemark(buffer.memref.getLoc())
             << "workgroup buffer on " << model.name << ": ";
    };
    if (std::string why = collect(buffer); !why.empty()) {
      remark() << "not swizzled: " << why;
      return;
    }
    // A buffer laid out with explicit strides (a layout.naive base, as the
    // tile pass pads the rows of its second versions' buffers) keeps them.
    if (buffer.desc.getDefiningOp<NaiveOp>()) {
      remark() << "not swizzled: its descriptor is a layout.naive with "
                  "explicit strides, kept as they are";
      return;
    }
    std::string why;
    // Where the conflicts cannot be proved for every wave, block and
    // iteration, the search scores the first wave of block 0 in the first
    // iteration and the remark says so.
    proving = true;
    std::optional<int64_t> before = total(model, buffer, nullptr, why);
    std::string unproved;
    if (!before) {
      unproved = why;
      proving = false;
      before = total(model, buffer, nullptr, why);
    }
    if (!before) {
      remark() << "not swizzled: " << why;
      return;
    }
    if (*before == 0) {
      if (proving)
        remark() << "no bank conflicts, proved for every wave, block and "
                    "iteration; left as it is";
      else
        remark() << "no bank conflicts in the first wave of block 0 and the "
                    "first iteration (not proved for all: "
                 << unproved << "); left as it is";
      return;
    }
    llvm::Expected<Descriptor> d = traceDescriptor(buffer.desc);
    if (!d) {
      remark() << "not swizzled: " << llvm::toString(d.takeError());
      return;
    }
    ArrayRef<int64_t> lengths = d->getLengths();
    if (lengths.size() < 2) {
      remark() << "not swizzled: its descriptor has rank " << lengths.size()
               << ", the search handles rows x columns (after leading "
                  "dimensions such as pipeline stages)";
      return;
    }
    ArrayRef<int64_t> lead = lengths.drop_back(2);
    int64_t rows = lengths[lengths.size() - 2], cols = lengths.back();
    // Vector accesses must stay contiguous: v at least their width.
    int64_t elementBytes = std::max<int64_t>(
        1,
        cast<MemRefType>(buffer.memref.getType()).getElementTypeBitWidth() / 8);
    int64_t minV = 1;
    for (const SharedAccess &a : buffer.accesses)
      minV = std::max<int64_t>(minV, a.accessBytes / elementBytes);
    // The best xor swizzle: the first that reaches zero, else the one with
    // the fewest extra cycles. Column-block xors first, then linear
    // swizzles of the row-major offset.
    SmallVector<Candidate> candidates;
    for (int64_t v = minV; v <= cols; v *= 2) {
      if (cols % v || !isPowerOfTwo(cols / v))
        continue;
      for (int64_t p = 1; p <= rows; p *= 2)
        if (rows % p == 0)
          candidates.push_back({v, p, {}});
    }
    SmallVector<LinearSwizzle> linear;
    if (isPowerOfTwo(minV) && isPowerOfTwo(rows) && isPowerOfTwo(cols)) {
      int64_t total = log2Of(rows) + log2Of(cols);
      for (int64_t base = log2Of(minV); base < total; ++base)
        for (int64_t bits = 1; base + 2 * bits <= total; ++bits)
          for (int64_t shift = bits; base + shift + bits <= total; ++shift)
            linear.push_back({bits, base, shift});
    }
    for (const LinearSwizzle &t : linear)
      candidates.push_back({0, 0, {t}});
    // The best proved layout: the first in the search order with the
    // fewest extra cycles.
    std::optional<std::pair<int64_t, Candidate>> best; // extra, layout
    // The linear swizzles whose lower bound is below the conflicts of the
    // buffer as it is: the first terms of the two-term search.
    SmallVector<std::pair<int64_t, LinearSwizzle>> helpful;
    // A layout is proved (every wave, block and iteration) only when its
    // lower bound (the first wave of block 0, first iteration) beats the
    // best proved so far: the proof can only be higher.
    // Proofs cost a block's threads per case: at most this many layouts
    // are proved per buffer (the first ones whose bound is promising).
    int64_t proofsLeft = kMaxProvedLayouts;
    auto score = [&](const Candidate &cand,
                     std::optional<int64_t> *bound = nullptr) {
      Descriptor candidate = *d;
      for (const Stage &s : cand.stages(lead, rows, cols))
        if (llvm::Error e = candidate.addStage(s)) {
          llvm::consumeError(std::move(e));
          return;
        }
      std::string ignored;
      std::optional<int64_t> low =
          total(model, buffer, &candidate, ignored, /*sample=*/true);
      if (bound)
        *bound = low;
      if (!proving) {
        if (low && (!best || *low < best->first))
          best = {*low, cand};
        return;
      }
      if (!low || *low >= (best ? best->first : *before) || proofsLeft == 0)
        return;
      --proofsLeft;
      std::optional<int64_t> after = total(model, buffer, &candidate, why);
      if (after && (!best || *after < best->first))
        best = {*after, cand};
    };
    for (const Candidate &cand : candidates) {
      std::optional<int64_t> low;
      score(cand, &low);
      if (best && best->first == 0)
        break;
      if (low && *low < *before && cand.terms.size() == 1)
        helpful.push_back({*low, cand.terms.front()});
    }
    // Two linear terms (a GF(2) map that one xor window cannot express,
    // e.g. on 64 banks: row bits into both the 16-byte block and the row's
    // place in a 256-byte line), starting from the 8 best single terms.
    if (!best || best->first != 0) {
      llvm::stable_sort(helpful,
                        [](auto &x, auto &y) { return x.first < y.first; });
      helpful.resize(std::min<size_t>(helpful.size(), 8));
      for (auto &[extra, first] : helpful) {
        for (const LinearSwizzle &second : linear) {
          if (second.base == first.base && second.bits == first.bits &&
              second.shift == first.shift)
            continue;
          score({0, 0, {first, second}});
          if (best && best->first == 0)
            break;
        }
        if (best && best->first == 0)
          break;
      }
    }
    auto swizzleRemark = [&](const Candidate &cand, int64_t after) {
      remark() << "swizzled: " << rows << "x" << cols << " tile"
               << (lead.empty()
                       ? ""
                       : " (each of " + std::to_string(computeProduct(lead)) +
                             " pipeline stages)")
               << ", " << cand.str(cols) << "; bank conflicts " << *before
               << " -> " << after << " extra cycles"
               << (after ? " (no layout of the search reaches 0)" : "")
               << (proving ? ", proved for every wave, block and iteration"
                           : " in the first wave of block 0 and the first "
                             "iteration (not proved for all: " +
                                 unproved + ")");
    };
    if (best && best->first == 0) {
      apply(buffer, best->second.stages(lead, rows, cols));
      swizzleRemark(best->second, 0);
      return;
    }
    // No swizzle reaches zero: padding, where it does.
    if (pad(model, buffer, *d, *before, minV))
      return;
    if (best && best->first < *before) {
      apply(buffer, best->second.stages(lead, rows, cols));
      swizzleRemark(best->second, best->first);
      return;
    }
    remark() << "not swizzled: no xor swizzle of its " << rows << "x" << cols
             << " layout and no row padding reduces its " << *before
             << " extra cycles; left as it is";
  }

  /// Puts the swizzle stages on the descriptor and moves every access to it.
  void apply(Buffer &buffer, ArrayRef<Stage> stages) {
    OpBuilder b(buffer.desc.getContext());
    b.setInsertionPointAfterValue(buffer.desc);
    Value cur = buffer.desc;
    for (const Stage &s : stages)
      cur = TransformOp::create(b, buffer.desc.getLoc(), cur, s);
    for (OffsetOp off : buffer.offsets)
      off.getDescMutable().assign(cur);
  }

  /// The fallback: rows padded by `pad` elements, for a packed descriptor of
  /// a gpu.func workgroup attribution (whose size grows).
  bool pad(const Chip &model, Buffer &buffer, const Descriptor &d,
           int64_t before, int64_t minV) {
    auto base = buffer.desc.getDefiningOp<PackedOp>();
    auto arg = dyn_cast<BlockArgument>(buffer.memref);
    auto func = arg ? dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
                    : gpu::GPUFuncOp();
    if (!base || !func ||
        !llvm::is_contained(func.getWorkgroupAttributions(), arg) ||
        d.getRank() != 2)
      return false;
    int64_t rows = d.getLengths()[0], cols = d.getLengths()[1];
    // Padding by a multiple of the widest access keeps vector accesses
    // aligned.
    for (int64_t padding = minV; padding <= 16 * minV; padding += minV) {
      llvm::Expected<Descriptor> candidate = Descriptor::naive(
          {rows, cols}, {cols + padding, 1}, 0, rows * (cols + padding));
      if (!candidate) {
        llvm::consumeError(candidate.takeError());
        continue;
      }
      std::string why;
      std::optional<int64_t> after = total(model, buffer, &*candidate, why);
      if (!after || *after != 0)
        continue;
      OpBuilder b(base);
      int64_t space = rows * (cols + padding);
      auto naive = NaiveOp::create(b, base.getLoc(), base.getType(),
                                   b.getDenseI64ArrayAttr({rows, cols}),
                                   b.getDenseI64ArrayAttr({cols + padding, 1}),
                                   IntegerAttr(), b.getI64IntegerAttr(space));
      for (OffsetOp off : buffer.offsets)
        off.getDescMutable().assign(naive);
      if (base->use_empty())
        base->erase();
      auto type = cast<MemRefType>(arg.getType());
      if (type.getDimSize(0) < space)
        arg.setType(MemRefType::get({space}, type.getElementType(),
                                    type.getLayout(), type.getMemorySpace()));
      mlir::emitRemark(buffer.memref.getLoc())
          << "workgroup buffer on " << model.name
          << ": no xor swizzle removes its conflicts; padded rows by "
          << padding << " elements (buffer of " << space
          << " elements); bank conflicts " << before << " -> 0 extra cycles";
      return true;
    }
    return false;
  }
};

} // namespace
