//===- SharedMemoryPasses.cpp - Bank-conflict analysis and swizzling ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
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

/// Scores one access: its conflicts, or why it cannot be scored.
struct Score {
  std::optional<ConflictCount> count;
  std::string why;
};

Score scoreAccess(
    const BankModel &model, const SharedAccess &access,
    ArrayRef<std::pair<Value, const Descriptor *>> overrides = {}) {
  std::optional<SmallVector<int64_t, 3>> block = knownBlockSize(access.op);
  if (!block)
    return {std::nullopt, "the kernel's block size is unknown (set "
                          "known_block_size on the gpu.func)"};
  // Addresses may depend on run-time extents: the worst over the samples.
  std::optional<ConflictCount> worst;
  for (int64_t extent : kDynamicExtentSamples) {
    std::string why;
    std::optional<SmallVector<int64_t>> lanes =
        laneAddresses(access, *block, model.waveSize, extent, why, overrides);
    if (!lanes)
      return {std::nullopt, why};
    ConflictCount c = countConflicts(model, *lanes, access.accessBytes);
    if (!worst || c.extra() > worst->extra())
      worst = c;
  }
  return {worst, ""};
}

std::string describe(const BankModel &model, const SharedAccess &access,
                     const ConflictCount &c) {
  return llvm::formatv("bank conflicts on {0}: {1} extra cycles ({2}-way; "
                       "{3}-byte {4}, {5} phases of {6} lanes)",
                       model.chip, c.extra(), c.maxWays, access.accessBytes,
                       access.isWrite ? "writes" : "reads", c.phases,
                       model.lanesPerPhase(access.accessBytes))
      .str();
}

struct LayoutAnalyzeBankConflictsPass final
    : layout::impl::LayoutAnalyzeBankConflictsBase<
          LayoutAnalyzeBankConflictsPass> {
  using Base::Base;
  void runOnOperation() override {
    std::optional<BankModel> model = getBankModel(chip);
    if (!model) {
      mlir::emitError(getOperation().getLoc())
          << "-layout-analyze-bank-conflicts: unknown chip '" << chip
          << "' (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...)";
      return signalPassFailure();
    }
    getOperation().walk([&](Operation *op) {
      std::optional<SharedAccess> access = getSharedAccess(op);
      if (!access)
        return;
      Score s = scoreAccess(*model, *access);
      if (!s.count) {
        op->emitRemark() << "bank conflicts on " << model->chip
                         << ": not analyzable: " << s.why;
        return;
      }
      op->emitRemark() << describe(*model, *access, *s.count);
    });
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
  std::optional<int64_t> total(const BankModel &model, const Buffer &buffer,
                               const Descriptor *candidate, std::string &why) {
    int64_t sum = 0;
    SmallVector<std::pair<Value, const Descriptor *>> overrides;
    if (candidate)
      overrides.push_back({buffer.desc, candidate});
    for (const SharedAccess &a : buffer.accesses) {
      Score s = scoreAccess(model, a, overrides);
      if (!s.count) {
        why = s.why;
        return std::nullopt;
      }
      sum += s.count->extra();
    }
    return sum;
  }

  void runOnOperation() override {
    std::optional<BankModel> model = getBankModel(chip);
    if (!model) {
      mlir::emitError(getOperation().getLoc())
          << "-layout-xor-swizzle: unknown chip '" << chip
          << "' (gfx90a, gfx942, gfx950, gfx1100, sm_90, ...)";
      return signalPassFailure();
    }
    // The workgroup buffers and their accesses, in program order.
    llvm::MapVector<Value, Buffer> buffers;
    getOperation().walk([&](Operation *op) {
      if (std::optional<SharedAccess> a = getSharedAccess(op)) {
        Buffer &b = buffers[a->memref];
        b.memref = a->memref;
        b.accesses.push_back(*a);
      }
    });
    for (auto &[memref, buffer] : buffers)
      swizzle(*model, buffer);
  }

  void swizzle(const BankModel &model, Buffer &buffer) {
    auto remark = [&]() {
      return mlir::emitRemark(buffer.memref.getLoc())
             << "workgroup buffer on " << model.chip << ": ";
    };
    if (std::string why = collect(buffer); !why.empty()) {
      remark() << "not swizzled: " << why;
      return;
    }
    std::string why;
    std::optional<int64_t> before = total(model, buffer, nullptr, why);
    if (!before) {
      remark() << "not swizzled: " << why;
      return;
    }
    if (*before == 0) {
      remark() << "no bank conflicts; left as it is";
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
    std::optional<std::pair<int64_t, Candidate>> best; // extra, layout
    // The linear swizzles that reduce the conflicts, with their extra
    // cycles: the first terms of the two-term search.
    SmallVector<std::pair<int64_t, LinearSwizzle>> helpful;
    auto score = [&](const Candidate &cand) -> std::optional<int64_t> {
      Descriptor candidate = *d;
      for (const Stage &s : cand.stages(lead, rows, cols))
        if (llvm::Error e = candidate.addStage(s)) {
          llvm::consumeError(std::move(e));
          return std::nullopt;
        }
      std::optional<int64_t> after = total(model, buffer, &candidate, why);
      if (after && (!best || *after < best->first))
        best = {*after, cand};
      return after;
    };
    for (const Candidate &cand : candidates) {
      std::optional<int64_t> after = score(cand);
      if (after && *after == 0)
        break;
      if (after && *after < *before && cand.terms.size() == 1)
        helpful.push_back({*after, cand.terms.front()});
    }
    // Two linear terms (a GF(2) map that one xor window cannot express,
    // e.g. on 64 banks: row bits into both the 16-byte block and the row's
    // place in a 256-byte line), starting from the 8 best single terms.
    if (best && best->first != 0) {
      llvm::stable_sort(helpful,
                        [](auto &x, auto &y) { return x.first < y.first; });
      helpful.resize(std::min<size_t>(helpful.size(), 8));
      for (auto &[extra, first] : helpful) {
        for (const LinearSwizzle &second : linear) {
          if (second.base == first.base && second.bits == first.bits &&
              second.shift == first.shift)
            continue;
          std::optional<int64_t> after = score({0, 0, {first, second}});
          if (after && *after == 0)
            break;
        }
        if (best->first == 0)
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
               << (after ? " (no layout of the search reaches 0)" : "");
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
  bool pad(const BankModel &model, Buffer &buffer, const Descriptor &d,
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
          << "workgroup buffer on " << model.chip
          << ": no xor swizzle removes its conflicts; padded rows by "
          << padding << " elements (buffer of " << space
          << " elements); bank conflicts " << before << " -> 0 extra cycles";
      return true;
    }
    return false;
  }
};

} // namespace
