//===- XorSwizzle.cpp - The swizzle search of workgroup buffers -----------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// For one workgroup buffer whose accesses all index it through layout.offset
// of one descriptor: the candidate layouts (column-block xors, CuTe-style
// linear swizzles of the row-major offset, pairs of them), each scored by a
// cheap lower bound (sampleConflicts) and, where that beats the best so far,
// proved (proveConflicts); the first layout proved conflict-free goes on
// the descriptor, else row padding where that reaches zero, else the best.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/XorSwizzle.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Target/BankModel.h"
#include "layout/Transforms/BankConflicts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::layout;

SmallVector<WorkgroupBufferAccesses>
mlir::layout::collectWorkgroupBuffers(Operation *root) {
  llvm::MapVector<Value, WorkgroupBufferAccesses> buffers;
  root->walk([&](Operation *op) {
    if (std::optional<SharedAccess> a = getSharedAccess(op)) {
      WorkgroupBufferAccesses &b = buffers[a->memref];
      b.memref = a->memref;
      b.accesses.push_back(*a);
    }
    for (HardwareSharedAccess &h : getHardwareSharedAccesses(op)) {
      WorkgroupBufferAccesses &b = buffers[h.memref];
      b.memref = h.memref;
      b.hardware.push_back(std::move(h));
    }
  });
  SmallVector<WorkgroupBufferAccesses> result;
  for (auto &[memref, b] : buffers)
    result.push_back(std::move(b));
  return result;
}

std::vector<Stage> mlir::layout::swizzleStages(ArrayRef<int64_t> lead,
                                               int64_t r, int64_t c, int64_t v,
                                               int64_t p) {
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

std::vector<Stage>
mlir::layout::linearSwizzleStages(ArrayRef<int64_t> lead, int64_t r, int64_t c,
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

/// The most candidate layouts the swizzle search proves for one buffer.
constexpr int64_t kMaxProvedLayouts = 64;
/// The most candidate layouts whose lower bound it samples for one buffer
/// (each sample walks the buffer's accesses): the two-term linear search
/// alone has 8 x |linear| candidates, which took minutes on the transposing
/// V^T buffers of the attention kernels on gfx942. The search keeps the
/// best layout found when the budget runs out, and says so.
constexpr int64_t kMaxSampledLayouts = 256;

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
struct Buffer : WorkgroupBufferAccesses {
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

/// The search for one buffer: its state from the conflicts as it is to the
/// layout chosen.
class SwizzleSearch {
public:
  SwizzleSearch(const Chip &model, const WorkgroupBufferAccesses &accesses)
      : model(model) {
    buffer.memref = accesses.memref;
    buffer.accesses = accesses.accesses;
    buffer.hardware = accesses.hardware;
  }

  void run() {
    if (!measure() || !shape())
      return;
    makeCandidates();
    search();
    finish();
  }

private:
  InFlightDiagnostic remark() {
    return mlir::emitRemark(buffer.memref.getLoc())
           << "workgroup buffer on " << model.name << ": ";
  }

  /// Total extra cycles of the buffer's accesses with `candidate` as the
  /// descriptor (or the current one), or std::nullopt if unscorable.
  /// With `sample`, a lower bound (sampleConflicts) instead of the proof.
  std::optional<int64_t> total(const Descriptor *candidate, std::string &why,
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

  /// The buffer's descriptor and its conflicts as it is (`before`); false
  /// (with the remark) where nothing is to be done.
  bool measure() {
    if (!buffer.hardware.empty())
      return keepForHardware();
    if (std::string why = collect(buffer); !why.empty()) {
      remark() << "not swizzled: " << why;
      return false;
    }
    // A buffer laid out with explicit strides (a layout.naive base, as the
    // tile pass pads the rows of its second versions' buffers) keeps them.
    if (buffer.desc.getDefiningOp<NaiveOp>()) {
      remark() << "not swizzled: its descriptor is a layout.naive with "
                  "explicit strides, kept as they are";
      return false;
    }
    std::string why;
    // Where the conflicts cannot be proved for every wave, block and
    // iteration, the search scores the first wave of block 0 in the first
    // iteration and the remark says so.
    proving = true;
    before = total(nullptr, why);
    if (!before) {
      unproved = why;
      proving = false;
      before = total(nullptr, why);
    }
    if (!before) {
      remark() << "not swizzled: " << why;
      return false;
    }
    if (*before == 0) {
      if (proving)
        remark() << "no bank conflicts, proved for every wave, block and "
                    "iteration; left as it is";
      else
        remark() << "no bank conflicts in the first wave of block 0 and the "
                    "first iteration (not proved for all: "
                 << unproved << "); left as it is";
      return false;
    }
    return true;
  }

  /// What the bank model proved of the buffer's hardware accesses (wgmma
  /// reads, TMA writes: SharedWavefronts.h), in words; `clean` is whether
  /// every one is proved conflict-free.
  std::string hardwareNote(bool &clean) {
    SmallVector<std::string> modes, models, units;
    int64_t reads = 0, writes = 0;
    std::string problem;
    for (const HardwareSharedAccess &h : buffer.hardware) {
      HardwareAccessProof p = proveHardwareConflicts(model, h, session);
      ++(h.isWrite() ? writes : reads);
      auto add = [](SmallVector<std::string> &to, const std::string &x) {
        if (!x.empty() && !llvm::is_contained(to, x))
          to.push_back(x);
      };
      add(modes, p.mode);
      add(models, p.model);
      add(units, h.op->getName().getStringRef().str());
      if (!problem.empty() || (p.proof.proved && !p.proof.worst.extra()))
        continue;
      problem = h.describe() + ": " +
                (p.proof.proved ? llvm::formatv("{0} extra cycles ({1}-way)",
                                                p.proof.worst.extra(),
                                                p.proof.worst.maxWays)
                                      .str()
                                : describeHardwareProof(h, p));
    }
    clean = problem.empty();
    std::string who = llvm::join(units, " and ");
    if (!clean)
      return "its descriptor is kept for " + who + "; " + problem;
    auto plural = [](int64_t n, StringRef what) {
      return std::to_string(n) + " " + what.str() + (n == 1 ? "" : "s");
    };
    std::string counted = reads ? plural(reads, "wgmma read") : "";
    if (writes)
      counted += (reads ? " and " : "") + plural(writes, "TMA box write");
    return llvm::formatv("its descriptor is kept for {0}, in the {1} "
                         "swizzle mode: its {2} are proved conflict-free at "
                         "every tile origin ({3})",
                         who, llvm::join(modes, " / "), counted,
                         llvm::join(models, "; "))
        .str();
  }

  /// A buffer that wgmma reads or TMA writes keeps its descriptor: their
  /// lowerings derive the hardware's swizzle mode from it and would refuse
  /// another layout. Says what the bank model proved of those accesses and
  /// of the others; false (nothing to search).
  bool keepForHardware() {
    bool clean = true;
    std::string note = hardwareNote(clean), others;
    if (!buffer.accesses.empty()) {
      std::string why = collect(buffer);
      if (why.empty())
        before = total(nullptr, why);
      if (!before)
        others = "its other accesses are not proved: " + why;
      else if (*before)
        others = std::to_string(*before) +
                 " extra cycles of its other accesses are kept";
      else
        others = "its other accesses have no bank conflicts, proved";
      clean &= before && *before == 0;
    }
    if (clean)
      remark() << "no bank conflicts, proved for every wave, block and "
                  "iteration; left as it is: "
               << note << (others.empty() ? "" : "; " + others);
    else
      remark() << "not swizzled: " << note
               << (others.empty() ? "" : "; " + others);
    return false;
  }

  /// The descriptor's rows x columns (after leading dimensions) and the
  /// narrowest column block the vector accesses allow.
  bool shape() {
    llvm::Expected<Descriptor> traced = traceDescriptor(buffer.desc);
    if (!traced) {
      remark() << "not swizzled: " << llvm::toString(traced.takeError());
      return false;
    }
    d = std::move(*traced);
    ArrayRef<int64_t> lengths = d->getLengths();
    if (lengths.size() < 2) {
      remark() << "not swizzled: its descriptor has rank " << lengths.size()
               << ", the search handles rows x columns (after leading "
                  "dimensions such as pipeline stages)";
      return false;
    }
    lead.assign(lengths.begin(), lengths.end() - 2);
    rows = lengths[lengths.size() - 2];
    cols = lengths.back();
    // Vector accesses must stay contiguous: v at least their width.
    elementBytes = std::max<int64_t>(
        1,
        cast<MemRefType>(buffer.memref.getType()).getElementTypeBitWidth() / 8);
    for (const SharedAccess &a : buffer.accesses)
      minV = std::max<int64_t>(minV, a.accessBytes / elementBytes);
    return true;
  }

  /// The search order: column-block xors first, then linear swizzles of
  /// the row-major offset.
  void makeCandidates() {
    for (int64_t v = minV; v <= cols; v *= 2) {
      if (cols % v || !isPowerOfTwo(cols / v))
        continue;
      for (int64_t p = 1; p <= rows; p *= 2)
        if (rows % p == 0)
          candidates.push_back({v, p, {}});
    }
    if (isPowerOfTwo(minV) && isPowerOfTwo(rows) && isPowerOfTwo(cols)) {
      int64_t bitsAll = log2Of(rows) + log2Of(cols);
      for (int64_t base = log2Of(minV); base < bitsAll; ++base)
        for (int64_t bits = 1; base + 2 * bits <= bitsAll; ++bits)
          for (int64_t shift = bits; base + shift + bits <= bitsAll; ++shift)
            linear.push_back({bits, base, shift});
    }
    for (const LinearSwizzle &t : linear)
      candidates.push_back({0, 0, {t}});
  }

  /// Scores `cand`: its lower bound (into `bound`), and its proof where the
  /// bound beats the best proved so far (the proof can only be higher).
  void score(const Candidate &cand, std::optional<int64_t> *bound = nullptr) {
    if (samplesLeft == 0)
      return;
    --samplesLeft;
    Descriptor candidate = *d;
    for (const Stage &s : cand.stages(lead, rows, cols))
      if (llvm::Error e = candidate.addStage(s)) {
        llvm::consumeError(std::move(e));
        return;
      }
    std::string ignored;
    std::optional<int64_t> low = total(&candidate, ignored, /*sample=*/true);
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
    std::optional<int64_t> after = total(&candidate, ignored);
    if (after && (!best || *after < best->first))
      best = {*after, cand};
  }

  bool reachedZero() const { return best && best->first == 0; }

  /// The best xor swizzle: the first that reaches zero, else the one with
  /// the fewest extra cycles.
  void search() {
    // The linear swizzles whose lower bound is below the conflicts of the
    // buffer as it is: the first terms of the two-term search.
    SmallVector<std::pair<int64_t, LinearSwizzle>> helpful;
    for (const Candidate &cand : candidates) {
      std::optional<int64_t> low;
      score(cand, &low);
      if (reachedZero() || samplesLeft == 0)
        return;
      if (low && *low < *before && cand.terms.size() == 1)
        helpful.push_back({*low, cand.terms.front()});
    }
    // Two linear terms (a GF(2) map that one xor window cannot express,
    // e.g. on 64 banks: row bits into both the 16-byte block and the row's
    // place in a 256-byte line), starting from the 8 best single terms.
    llvm::stable_sort(helpful,
                      [](auto &x, auto &y) { return x.first < y.first; });
    helpful.resize(std::min<size_t>(helpful.size(), 8));
    for (auto &[extra, first] : helpful) {
      for (const LinearSwizzle &second : linear) {
        if (second.base == first.base && second.bits == first.bits &&
            second.shift == first.shift)
          continue;
        score({0, 0, {first, second}});
        if (reachedZero() || samplesLeft == 0)
          return;
      }
    }
  }

  /// Applies the best layout (or padding, where no swizzle reaches zero and
  /// padding does) and says so.
  void finish() {
    auto swizzleRemark = [&](const Candidate &cand, int64_t after) {
      remark() << "swizzled: " << rows << "x" << cols << " tile"
               << (lead.empty()
                       ? ""
                       : " (each of " + std::to_string(computeProduct(lead)) +
                             " pipeline stages)")
               << ", " << cand.str(cols) << "; bank conflicts " << *before
               << " -> " << after << " extra cycles"
               << (!after             ? ""
                   : samplesLeft == 0 ? " (the search stopped after " +
                                            std::to_string(kMaxSampledLayouts) +
                                            " layouts without reaching 0)"
                                      : " (no layout of the search reaches 0)")
               << (proving ? ", proved for every wave, block and iteration"
                           : " in the first wave of block 0 and the first "
                             "iteration (not proved for all: " +
                                 unproved + ")");
    };
    if (reachedZero()) {
      apply(best->second.stages(lead, rows, cols));
      swizzleRemark(best->second, 0);
      return;
    }
    // No swizzle reaches zero: padding, where it does.
    if (pad())
      return;
    if (best && best->first < *before) {
      apply(best->second.stages(lead, rows, cols));
      swizzleRemark(best->second, best->first);
      return;
    }
    remark() << "not swizzled: no xor swizzle of its " << rows << "x" << cols
             << " layout and no row padding reduces its " << *before
             << " extra cycles; left as it is";
  }

  /// Puts the swizzle stages on the descriptor and moves every access to it.
  void apply(ArrayRef<Stage> stages) {
    OpBuilder b(buffer.desc.getContext());
    b.setInsertionPointAfterValue(buffer.desc);
    Value cur = buildStages(b, buffer.desc.getLoc(), buffer.desc, stages);
    for (OffsetOp off : buffer.offsets)
      off.getDescMutable().assign(cur);
  }

  /// The fallback: rows padded (the bank model's paddedRowLength, by a
  /// multiple of the widest access, which keeps vector accesses aligned) to
  /// the first length whose conflicts are proved zero, for a packed
  /// descriptor of a gpu.func workgroup attribution (whose size grows).
  bool pad() {
    auto base = buffer.desc.getDefiningOp<PackedOp>();
    auto arg = dyn_cast<BlockArgument>(buffer.memref);
    auto func = arg ? dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
                    : gpu::GPUFuncOp();
    if (!base || !func ||
        !llvm::is_contained(func.getWorkgroupAttributions(), arg) ||
        d->getRank() != 2)
      return false;
    int64_t rows = d->getLengths()[0], cols = d->getLengths()[1];
    auto type = cast<MemRefType>(arg.getType());
    std::optional<Descriptor> padded;
    auto conflictFree = [&](int64_t row) {
      // Unpadded rows are the layout as it is, which has conflicts.
      if (row == cols)
        return false;
      llvm::Expected<Descriptor> candidate =
          Descriptor::naive({rows, cols}, {row, 1}, 0, rows * row);
      if (!candidate) {
        llvm::consumeError(candidate.takeError());
        return false;
      }
      std::string why;
      std::optional<int64_t> after = total(&*candidate, why);
      if (!after || *after != 0)
        return false;
      padded = std::move(*candidate);
      return true;
    };
    std::optional<int64_t> row =
        paddedRowLength(cols, elementBytes, minV, conflictFree);
    if (!row)
      return false;
    OpBuilder b(base);
    int64_t space = padded->getElementSpaceSize();
    Value naive = buildDescriptor(b, base.getLoc(), *padded);
    // The offsets see the type they saw (a packed type may say `?`).
    naive.setType(base.getType());
    for (OffsetOp off : buffer.offsets)
      off.getDescMutable().assign(naive);
    if (base->use_empty())
      base->erase();
    if (type.getDimSize(0) < space)
      arg.setType(MemRefType::get({space}, type.getElementType(),
                                  type.getLayout(), type.getMemorySpace()));
    mlir::emitRemark(buffer.memref.getLoc())
        << "workgroup buffer on " << model.name
        << ": no xor swizzle removes its conflicts; padded rows by "
        << *row - cols << " elements (buffer of " << space
        << " elements); bank conflicts " << *before << " -> 0 extra cycles";
    return true;
  }

  const Chip &model;
  Buffer buffer;
  /// The proofs of the buffer (its IR is unchanged until the search ends).
  ProofSession session;
  /// Whether the buffer's conflicts are proved (else sampled), and why not.
  bool proving = true;
  std::string unproved;
  /// The extra cycles of the buffer as it is.
  std::optional<int64_t> before;
  /// Its descriptor, and the rows x columns after leading dimensions.
  std::optional<Descriptor> d;
  SmallVector<int64_t> lead;
  int64_t rows = 0, cols = 0;
  /// The narrowest column block the vector accesses allow, in elements,
  /// and the bytes of an element.
  int64_t minV = 1, elementBytes = 1;
  SmallVector<Candidate> candidates;
  SmallVector<LinearSwizzle> linear;
  /// The best proved layout: the first in the search order with the
  /// fewest extra cycles (extra, layout).
  std::optional<std::pair<int64_t, Candidate>> best;
  /// Proofs cost a block's threads per case: at most this many layouts are
  /// proved per buffer (the first ones whose bound is promising).
  int64_t proofsLeft = kMaxProvedLayouts;
  /// Samples cost every access per layout: at most this many per buffer.
  int64_t samplesLeft = kMaxSampledLayouts;
};

} // namespace

void mlir::layout::swizzleWorkgroupBuffer(
    const Chip &chip, const WorkgroupBufferAccesses &buffer) {
  SwizzleSearch(chip, buffer).run();
}
