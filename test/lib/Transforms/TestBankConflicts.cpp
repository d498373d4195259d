//===- TestBankConflicts.cpp - Brute force against the conflict proof -----===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// -layout-test-bank-conflicts=chip=...: for every workgroup-memory access,
// the proof of -layout-analyze-bank-conflicts against brute force: every
// lane of every wave evaluated with concrete values (simulateConflicts) in
// several blocks (block ids 0, 1, 3 in x and 0, 2 in y), iterations (the
// first iterations of every loop around the access, up to 16 of a loop
// whose count is constant and 8 of another, all combinations up to
// iteration-points, 64 unless set) and run-time extents (3, 16, 1024,
// 1025: small and large, multiples of 16 and odd, so that the full-tile
// and the edge paths run, aligned and not; block ids y and extents only
// where the kernel reads them; the strides and offsets read through
// memref.extract_strided_metadata take the extent, and also, at 15, 1023
// and 1024, the extent plus the memref's ordinal, so that memrefs aligned
// differently run too; grids of 2^16 blocks). Where the kernel reads the
// grid's size, also extents 137 and 192 (strides 193), the last tile of a
// dimension cut by its edge and ending at it, and grids of one block at
// extents 137 and 1025. A simulated count above
// the proved one is an error: the proof would be unsound. Otherwise a
// remark gives both (equal where the worst case is among the simulated
// points) and how many points had an active lane (0: nothing was
// simulated, the guards turned every lane off).
//
// A test pass: it lives in test/lib and only layout-opt registers it.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/BankConflicts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace mlir::layout;

namespace {

struct TestBankConflictsPass
    : PassWrapper<TestBankConflictsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBankConflictsPass)
  TestBankConflictsPass() = default;
  TestBankConflictsPass(const TestBankConflictsPass &) {}
  StringRef getArgument() const final { return "layout-test-bank-conflicts"; }
  StringRef getDescription() const final {
    return "Check the bank-conflict proof against brute force (test pass)";
  }
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip")};
  Option<int64_t> iterationPoints{
      *this, "iteration-points",
      llvm::cl::desc("The most combinations of loop iterations simulated per "
                     "block and extent"),
      llvm::cl::init(64)};

  /// The iteration counts to simulate of the loops around `op`.
  static SmallVector<std::pair<Operation *, int64_t>> loops(Operation *op) {
    SmallVector<std::pair<Operation *, int64_t>> result;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      int64_t count = 8;
      auto lb = loop.getLowerBound().getDefiningOp<arith::ConstantIndexOp>();
      auto ub = loop.getUpperBound().getDefiningOp<arith::ConstantIndexOp>();
      auto step = loop.getStep().getDefiningOp<arith::ConstantIndexOp>();
      if (lb && ub && step && step.value() > 0)
        count = std::clamp<int64_t>(
            (ub.value() - lb.value() + step.value() - 1) / step.value(), 1, 16);
      result.push_back({loop, count});
    }
    return result;
  }

  /// What the brute force of one access found.
  struct Outcome {
    std::optional<ConflictCount> worst;
    std::string why;
    int64_t points = 0, active = 0;
  };

  /// The points to simulate for the accesses of `func`: block ids and
  /// extents only where the kernel reads them (a kernel without memref.dim
  /// or gpu.block_id y gains nothing from more).
  static void points(gpu::GPUFuncOp func, SmallVectorImpl<int64_t> &blockX,
                     SmallVectorImpl<int64_t> &blockY,
                     SmallVectorImpl<SimulationPoint> &settings) {
    bool readsExtent = false, readsBlockY = false, readsStrides = false,
         readsGrid = false;
    if (func)
      func.walk([&](Operation *o) {
        readsExtent |= isa<memref::DimOp>(o);
        readsStrides |= isa<memref::ExtractStridedMetadataOp>(o);
        readsGrid |= isa<gpu::GridDimOp>(o);
        if (auto b = dyn_cast<gpu::BlockIdOp>(o))
          readsBlockY |= b.getDimension() != gpu::Dimension::x;
      });
    blockX.assign({0, 1, 3});
    blockY.assign({0});
    SmallVector<int64_t> extents = {3};
    if (readsBlockY)
      blockY.push_back(2);
    if (readsExtent)
      extents.append({16, 1024, 1025});
    // Strides and offsets the extent (both memrefs aligned or neither),
    // or stepping by one from memref to memref (each alone).
    for (int64_t extent : extents)
      settings.push_back({extent, 0, 0});
    if (readsStrides)
      settings.append({{15, 0, 1}, {1023, 0, 1}, {1024, 0, 1}});
    // Code for the last tile of a dimension with unaligned strides (in
    // block y 2 of 64-element tiles, extent 137 cuts the tile at the
    // edge and 192 ends it there), and for grids of one block, which
    // leave tiles out.
    if (readsStrides && readsGrid)
      settings.append({{137, 0, 0},
                       {192, 1, 0},
                       {137, 0, 0, /*gridSize=*/1},
                       {1025, 0, 0, /*gridSize=*/1}});
  }

  /// Simulates `accesses`, which share their kernel and the loops around
  /// them (`around`), at every point, into `outcomes` (one per access).
  void simulate(const Chip &target, ProofSession &session,
                ArrayRef<SharedAccess> accesses,
                ArrayRef<std::pair<Operation *, int64_t>> around,
                MutableArrayRef<Outcome> outcomes) {
    int64_t combos = 1;
    for (auto &[loop, count] : around)
      combos *= count;
    combos = std::clamp<int64_t>(combos, 1, iterationPoints);
    SmallVector<int64_t> blockX, blockY;
    SmallVector<SimulationPoint> settings;
    points(accesses.front().op->getParentOfType<gpu::GPUFuncOp>(), blockX,
           blockY, settings);
    SmallVector<std::string> why(accesses.size());
    for (int64_t bx : blockX)
      for (int64_t by : blockY)
        for (const SimulationPoint &setting : settings)
          for (int64_t combo = 0; combo < combos; ++combo) {
            DenseMap<Operation *, int64_t> iterations;
            int64_t rest = combo;
            for (auto &[loop, count] : around) {
              iterations[loop] = rest % count;
              rest /= count;
            }
            SmallVector<std::optional<ConflictCount>> counts =
                simulateConflicts(target, accesses, session, {bx, by, 0},
                                  iterations, setting, why);
            for (auto [c, w, out] : llvm::zip_equal(counts, why, outcomes)) {
              if (!c) {
                out.why = w;
                continue;
              }
              ++out.points;
              // A wave with an active lane has a phase.
              if (c->phases)
                ++out.active;
              if (!out.worst || c->extra() > out.worst->extra())
                out.worst = c;
            }
          }
  }

  void runOnOperation() override {
    llvm::Expected<Chip> target = parseChip(chip);
    if (!target) {
      getOperation().emitError() << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    ProofSession session;
    // The accesses in walk order, and in groups of one kernel and the same
    // loops around: a group is simulated at the same points, each thread's
    // values shared by its accesses.
    SmallVector<SharedAccess> accesses;
    SmallVector<ConflictProof> proofs;
    std::map<SmallVector<Operation *>, SmallVector<size_t>> groups;
    getOperation().walk([&](Operation *op) {
      std::optional<SharedAccess> access = getSharedAccess(op);
      if (!access)
        return;
      proofs.push_back(proveConflicts(*target, *access, session));
      SmallVector<Operation *> key = {
          op->getParentOfType<gpu::GPUFuncOp>().getOperation()};
      for (auto &[loop, count] : loops(op))
        key.push_back(loop);
      groups[key].push_back(accesses.size());
      accesses.push_back(*access);
    });
    SmallVector<Outcome> outcomes(accesses.size());
    for (auto &[key, members] : groups) {
      SmallVector<SharedAccess> group;
      SmallVector<Outcome> found(members.size());
      for (size_t i : members)
        group.push_back(accesses[i]);
      simulate(*target, session, group, loops(group.front().op), found);
      for (auto [i, f] : llvm::zip_equal(members, found))
        outcomes[i] = std::move(f);
    }
    bool unsound = false;
    for (auto [access, proof, out] :
         llvm::zip_equal(accesses, proofs, outcomes)) {
      Operation *op = access.op;
      if (!out.worst) {
        op->emitRemark() << "brute force: not simulated (" << out.why
                         << "); proof: " << describeProof(proof);
        continue;
      }
      if (proof.proved && out.worst->extra() > proof.worst.extra()) {
        op->emitError() << "brute force: " << out.worst->extra()
                        << " extra cycles in a simulated wave, above the "
                           "proved "
                        << proof.worst.extra();
        unsound = true;
        continue;
      }
      op->emitRemark() << "brute force over " << out.points << " blocks, "
                       << "iterations and extents, " << out.active
                       << " with active lanes: " << out.worst->extra()
                       << " extra cycles; proof: "
                       << (proof.proved ? std::to_string(proof.worst.extra()) +
                                              (proof.exact ? "" : " (a bound)")
                                        : describeProof(proof));
    }
    if (unsound)
      signalPassFailure();
  }
};

} // namespace

namespace mlir {
namespace layout {
namespace test {
void registerTestBankConflictsPass() {
  PassRegistration<TestBankConflictsPass>();
}
} // namespace test
} // namespace layout
} // namespace mlir
