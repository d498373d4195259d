//===- Simplify.h - Rewrites of stages that keep their meaning --*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The algebra behind the dialect's canonicalization, on the evaluator's own
// types so that it is unit-tested by brute force against `Descriptor`:
// identity entries become pass_throughs, two consecutive stages compose into
// one where the composition is a transform of the table, and a stage over a
// strided base folds into a strided base where it is plainly strided.
//
// Every rewrite keeps the offset and the validity of every in-bounds top
// coordinate (0 <= idx_i < len_i) and the element space size; coordinates
// outside the top lengths are outside the contract.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_EVALUATOR_SIMPLIFY_H
#define LAYOUT_EVALUATOR_SIMPLIFY_H

#include "layout/Evaluator/Descriptor.h"

#include <optional>
#include <vector>

namespace mlir {
namespace layout {

/// What `layout.naive` spells: lengths, strides, base offset, element space.
struct StridedBase {
  llvm::SmallVector<int64_t, 4> lengths;
  llvm::SmallVector<int64_t, 4> strides;
  int64_t offset = 0;
  int64_t space = 0;

  /// The base of `d` (any base kind), or std::nullopt if `d` has stages.
  static std::optional<StridedBase> of(const Descriptor &d);
  /// The least element space of these lengths, strides and offset.
  int64_t minimalSpace() const;
  /// The descriptor (always valid for a StridedBase built by this file).
  llvm::Expected<Descriptor> descriptor() const;
};

/// Rewrites the entries of `stage` (applied to a descriptor whose top lengths
/// are `lengths`) that compute the identity on their in-bounds domain: those
/// whose upper length is the lower length become `pass_through`s, the others
/// `#layout.offset<U, 0>` (a restriction). Returns std::nullopt when no entry
/// changes.
std::optional<Stage> simplifyIdentityEntries(llvm::ArrayRef<int64_t> lengths,
                                             const Stage &stage);

/// Whether `stage` is the identity: every entry a pass_through of a dim onto
/// itself.
bool isIdentityStage(const Stage &stage);

/// Composes `first` (applied to top lengths `lengths`) and then `second`
/// into one stage, or std::nullopt. Each entry of `second` must consume
/// either only dims that `first` passes through, or exactly the upper dims of
/// one entry of `first`, in order, with a composition in the table:
/// unmerge then merge of the same lengths (a pass_through), merge then
/// unmerge (pass_throughs), offset/slice of offset/slice, offset/slice of a
/// pad (a slice inside the unpadded range, a smaller pad around it), pad of
/// pad, xor of the same xor (pass_throughs). The result passes
/// Descriptor::checkStage.
std::optional<Stage> composeStages(llvm::ArrayRef<int64_t> lengths,
                                   const Stage &first, const Stage &second);

/// Folds `stage` into the strided base `base` when every entry is plainly
/// strided (pass_through, unmerge, embed, offset, slice, freeze,
/// replicate, and a merge of dims whose strides nest), or std::nullopt. The
/// element space is kept.
std::optional<StridedBase> foldIntoStrides(const StridedBase &base,
                                           const Stage &stage);

/// A chain of stages simplified by every rewrite above, in one pass over
/// it (time linear in its length, amortized): each stage's identity entries
/// are rewritten, identity stages dropped, each stage composed with the one
/// below while the table allows, and then the bottom stages folded into
/// `base` while they are plainly strided.
struct SimplifiedChain {
  /// The new strided base, when a stage folded into it.
  std::optional<StridedBase> base;
  /// The stages left above the base.
  std::vector<Stage> stages;
  /// Whether anything changed.
  bool changed = false;
};

/// Simplifies `stages`, applied in order to a descriptor whose top lengths
/// are `lengths`; `base` is that descriptor's strided base when it is one
/// (its stages can then fold into it), std::nullopt otherwise. Every stage
/// must pass Descriptor::checkStage.
SimplifiedChain simplifyChain(llvm::ArrayRef<int64_t> lengths,
                              std::optional<StridedBase> base,
                              llvm::ArrayRef<Stage> stages);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_EVALUATOR_SIMPLIFY_H
