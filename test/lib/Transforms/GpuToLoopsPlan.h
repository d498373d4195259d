//===- GpuToLoopsPlan.h - How a kernel runs as host loops ---------*- C++
//-*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The analysis half of -layout-test-gpu-to-loops: a kernel body cut into
// pieces that every thread of a block finishes before any thread starts
// the next one, and which values cross from one piece to another and how.
//
// A body (the kernel's, or the body of a block-uniform scf.for) is cut at
// its `gpu.barrier`s, at its wave-collective ops (matrix instructions and
// nvgpu.ldmatrix: a piece of their own, run once per wave) and at its
// block-uniform `scf.for`s that hold a barrier or a wave-collective op (a
// piece of their own, run once per block as a host loop whose body is the
// pieces of the loop's body), and at its block-uniform `scf.if`s that hold
// one (a piece of their own: a host if whose branches are the pieces of
// the if's; a kernel versioned on a uniform test).
// A value a piece uses from another piece is
//  - mapped directly when uniform (kernel arguments, workgroup and private
//    attributions, induction variables of the uniform loops),
//  - recomputed in the using piece when pure,
//  - else kept per thread in host memory (`keptValues`); a uniform loop's
//    iter_args are always kept, and its results live in its iter_args'
//    memory (`storageOf`); a uniform if's results are kept.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_LIB_TRANSFORMS_GPUTOLOOPSPLAN_H
#define LAYOUT_TEST_LIB_TRANSFORMS_GPUTOLOOPSPLAN_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <memory>
#include <vector>

namespace mlir {
namespace layout {
namespace test {

struct Piece;
using Pieces = std::vector<std::unique_ptr<Piece>>;

/// Part of a body that every thread of the block runs before any thread
/// runs the next part.
struct Piece {
  enum class Kind {
    /// Ops run by each thread in turn.
    Threads,
    /// One wave-collective op (a matrix instruction, nvgpu.ldmatrix), run
    /// per wave.
    Wave,
    /// One block-uniform scf.for, run once per block as a host loop.
    Loop,
    /// One block-uniform scf.if, run once per block as a host if.
    If,
  };
  Kind kind = Kind::Threads;
  /// Threads: the ops, in order (the body's scf.yield included). Wave,
  /// Loop: the one op.
  SmallVector<Operation *> ops;
  /// Threads: the uniform loop right after this piece, whose iter_args
  /// this piece initializes from the loop's init operands.
  scf::ForOp initializes;
  /// Loop: the pieces of its body. If: those of its then and else blocks.
  Pieces body;
  Pieces elseBody;
  /// Threads: values of other pieces read from per-thread host memory, and
  /// pure ops of other pieces recomputed here (operands first).
  llvm::SetVector<Value> loads;
  llvm::SetVector<Operation *> recomputed;

  Operation *op() const { return ops.front(); }
  bool empty() const { return ops.empty() && !initializes; }
};

/// The pieces of one kernel and the values that cross between them.
class KernelPlan {
public:
  explicit KernelPlan(gpu::GPUFuncOp kernel) : kernel(kernel) {}

  /// Cuts the kernel into pieces and plans the values; a diagnostic and
  /// failure for what cannot run as loops.
  LogicalResult build();

  const Pieces &pieces() const { return top; }
  /// Values kept per thread, each with its own host buffer.
  const llvm::SetVector<Value> &keptValues() const { return kept; }
  /// The kept value whose buffer holds `v` (`v` itself, or the iter_arg of
  /// a uniform loop's result), or null when `v` is not in host memory.
  Value storageOf(Value v) const;
  /// Whether `v` is the same in every thread of a block.
  bool isUniform(Value v);

private:
  LogicalResult split(Block &block, Pieces &out);
  LogicalResult addLoop(scf::ForOp loop, Pieces &out);
  LogicalResult addIf(scf::IfOp ifOp, Pieces &out);
  void plan(Pieces &pieces);
  void planWave(Piece &piece);
  /// Makes `v`, used by `user`, available there.
  void need(Piece &user, Value v);
  /// The piece whose op defines `v` (for a block argument of a uniform
  /// loop's body, the loop's piece); null for the kernel's arguments.
  Piece *holder(Value v) const;
  bool isLoopPiece(Operation *op) const;
  bool isInductionVar(Value v) const;
  LogicalResult checkKept();

  gpu::GPUFuncOp kernel;
  Pieces top;
  DenseMap<Operation *, Piece *> pieceOf;
  llvm::SetVector<Value> kept;
  DenseMap<Value, bool> uniform;
};

} // namespace test
} // namespace layout
} // namespace mlir

#endif // LAYOUT_TEST_LIB_TRANSFORMS_GPUTOLOOPSPLAN_H
