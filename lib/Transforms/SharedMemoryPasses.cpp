//===- SharedMemoryPasses.cpp - Bank-conflict analysis and swizzling ------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Transforms/BankConflicts.h"
#include "layout/Transforms/Passes.h"
#include "layout/Transforms/Remarks.h"
#include "layout/Transforms/TargetChip.h"
#include "layout/Transforms/XorSwizzle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

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

/// The remark category of the bank-conflict analysis.
constexpr llvm::StringLiteral kCategory = "layout-bank-conflicts";

/// The name of the kernel (gpu.func or func.func) around `op`.
std::string kernelName(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return func.getName().str();
  return "";
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

  /// One access's remark, before those of the same location and text are
  /// merged.
  struct Report {
    Location loc;
    std::string kernel, text;
    SmallVector<std::pair<StringRef, std::string>> metrics;
    /// False for accesses conflicts-only leaves out (still counted among
    /// their location's accesses).
    bool shown = true;
    /// Which of an op's accesses this is where it makes several (a
    /// layout.warpgroup_mma reads A and B): versions are counted per slot.
    std::string slot;
  };

  void runOnOperation() override {
    ChipScopes scopes(chip, "-layout-analyze-bank-conflicts");
    if (!scopes.checkOption(getOperation()))
      return signalPassFailure();
    ProofSession session;
    // Each access is proved once: nothing to keep between proofs.
    session.keepThreads = false;
    session.evaluationBudget = session.initialBudget =
        maxEvaluations > 0 ? int64_t(maxEvaluations) : -1;
    llvm::MapVector<Operation *, Summary> summaries;
    std::vector<Report> reports;
    getOperation().walk([&](Operation *op) {
      std::optional<SharedAccess> access = getSharedAccess(op);
      SmallVector<HardwareSharedAccess, 2> hardware =
          getHardwareSharedAccesses(op);
      if (!access && hardware.empty())
        return;
      const Chip *target = scopes.at(op);
      if (!target)
        return;
      Operation *kernel = op->getParentOfType<FunctionOpInterface>();
      Summary &sum = summaries
                         .try_emplace(kernel, Summary{kernel ? kernel->getLoc()
                                                             : op->getLoc(),
                                                      target->name})
                         .first->second;
      if (access) {
        ConflictProof proof = proveConflicts(*target, *access, session);
        count(sum, proof, reports, report(*target, *access, proof));
      }
      // The wgmma operand reads and TMA box writes (SharedWavefronts.h).
      for (const HardwareSharedAccess &h : hardware) {
        HardwareAccessProof proof = proveHardwareConflicts(*target, h, session);
        count(sum, proof.proof, reports, report(*target, h, proof));
      }
    });
    if (scopes.failedAny)
      return signalPassFailure();
    emitMerged(reports);
    for (auto &[kernel, sum] : summaries) {
      if (!kernel)
        continue;
      std::string text = llvm::formatv(
          "bank conflicts on {0} in @{1}: {2} workgroup-memory {3}, {4} with "
          "conflicts or unproved, worst {5} extra cycles; {6} of {2} proved",
          sum.chip, cast<FunctionOpInterface>(kernel).getName(), sum.accesses,
          sum.accesses == 1 ? "access" : "accesses", sum.conflicted,
          sum.worstExtra, sum.proved);
      emitLayoutRemark(sum.loc, "BankConflictSummary", kCategory,
                       cast<FunctionOpInterface>(kernel).getName(), text,
                       {{"Chip", sum.chip},
                        {"Accesses", std::to_string(sum.accesses)},
                        {"Conflicted", std::to_string(sum.conflicted)},
                        {"WorstExtraCycles", std::to_string(sum.worstExtra)},
                        {"Proved", std::to_string(sum.proved)}});
    }
  }

  /// Adds one access's proof to its kernel's summary and its report to
  /// `reports`.
  void count(Summary &sum, const ConflictProof &proof,
             std::vector<Report> &reports, Report r) {
    ++sum.accesses;
    sum.proved += proof.proved;
    bool conflicted = !proof.proved || proof.worst.extra() > 0;
    sum.conflicted += conflicted;
    sum.worstExtra = std::max(sum.worstExtra, proof.worst.extra());
    r.shown = !conflictsOnly || conflicted;
    reports.push_back(std::move(r));
  }

  /// Emits `reports` in order, one remark per location and text: the
  /// versions of one access (copies with the same location) that share a
  /// result share a remark, which says how many of the location's accesses
  /// it covers (metric Versions).
  static void emitMerged(ArrayRef<Report> reports) {
    using Key = std::pair<Location, StringRef>;
    llvm::MapVector<Key, unsigned> groups;
    std::map<std::pair<const void *, std::string>, unsigned> atLocation;
    auto slot = [](const Report &r) {
      return std::make_pair(r.loc.getAsOpaquePointer(), r.slot);
    };
    DenseMap<Key, const Report *> first;
    for (const Report &r : reports) {
      ++atLocation[slot(r)];
      if (!r.shown)
        continue;
      Key key{r.loc, r.text};
      ++groups[key];
      first.try_emplace(key, &r);
    }
    for (auto &[key, count] : groups) {
      const Report &r = *first.lookup(key);
      unsigned all = atLocation[slot(r)];
      std::string text = r.text;
      if (all > 1)
        text += llvm::formatv(" (the same for {0} of the {1} accesses at "
                              "this location)",
                              count, all)
                    .str();
      SmallVector<std::pair<StringRef, std::string>> metrics = r.metrics;
      metrics.push_back({"Versions", std::to_string(count)});
      emitLayoutRemark(r.loc, "BankConflicts", kCategory, r.kernel, text,
                       metrics);
    }
  }

  /// The report of a hardware access: the count of its wavefronts (also
  /// where the lowering refuses it, counted as its descriptor says).
  static Report report(const Chip &target, const HardwareSharedAccess &access,
                       const HardwareAccessProof &hw) {
    const ConflictProof &proof = hw.proof;
    std::string buffer = describeBuffer(access.memref);
    std::string kernel = kernelName(access.op);
    std::string counted;
    if (hw.origins)
      counted =
          llvm::formatv("{0} extra cycles ({1}-way; {2})", proof.worst.extra(),
                        proof.worst.maxWays, describeHardwareAccess(access, hw))
              .str();
    std::string text;
    if (proof.proved)
      text = llvm::formatv("bank conflicts on {0}: {1}; {2}; {3}", target.name,
                           counted, describeHardwareProof(access, hw), buffer)
                 .str();
    else if (hw.origins)
      text = llvm::formatv("bank conflicts on {0}: {1}; {2}; counted as its "
                           "descriptor says: {3}",
                           target.name, describeHardwareProof(access, hw),
                           buffer, counted)
                 .str();
    else
      text = llvm::formatv("bank conflicts on {0}: {1} ({2}); {3}", target.name,
                           describeHardwareProof(access, hw), access.describe(),
                           buffer)
                 .str();
    Report r{access.op->getLoc(),
             kernel,
             text,
             {{"Chip", target.name},
              {"Kernel", kernel},
              {"Buffer", buffer},
              {"Access", access.op->getName().getStringRef().str()},
              {"Unit", access.describe()},
              {"Mode", hw.mode},
              {"Model", hw.model},
              {"Wavefronts", std::to_string(hw.wavefronts)},
              {"Origins", std::to_string(hw.origins)},
              {"ExtraCycles", hw.origins ? std::to_string(proof.worst.extra())
                                         : std::string("unknown")},
              {"Ways", std::to_string(proof.worst.maxWays)},
              {"Proved", proof.proved ? "true" : "false"},
              {"Exact", proof.proved ? "true" : "false"},
              {"Why", proof.why}}};
    r.slot = access.describe();
    return r;
  }

  static Report report(const Chip &target, const SharedAccess &access,
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
    return Report{
        access.op->getLoc(),
        kernel,
        text,
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
         {"Why", proof.why}}};
  }
};

//===----------------------------------------------------------------------===//
// Swizzling
//===----------------------------------------------------------------------===//

/// A thin pass around swizzleWorkgroupBuffer (XorSwizzle.h): every
/// workgroup buffer of the module, on the chip of its gpu.module.
struct LayoutXorSwizzlePass final
    : layout::impl::LayoutXorSwizzleBase<LayoutXorSwizzlePass> {
  using Base::Base;

  void runOnOperation() override {
    ChipScopes scopes(chip, "-layout-xor-swizzle");
    if (!scopes.checkOption(getOperation()))
      return signalPassFailure();
    for (WorkgroupBufferAccesses &buffer :
         collectWorkgroupBuffers(getOperation())) {
      const Chip *model = scopes.at(buffer.firstOp());
      if (!model)
        continue;
      swizzleWorkgroupBuffer(*model, buffer);
    }
    if (scopes.failedAny)
      signalPassFailure();
  }
};

} // namespace
