//===- HardwareAccesses.cpp - Bank conflicts of wgmma and TMA -------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// proveHardwareConflicts: the wgmma operand reads of layout.warpgroup_mma
// and the TMA box writes of layout.bulk_tensor_load, whose addresses no
// thread computes. Their addresses are the buffer descriptor's at every
// tile origin the op may take (the ops promise multiples of the tile; the
// same origins the lowerings' matchWgmmaOperand / matchTmaBox prove the
// hardware's layout at), cut into the wavefronts of SharedWavefronts.h and
// counted by the bank model.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/WorkgroupBuffers.h"
#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Target/SharedWavefronts.h"
#include "layout/Transforms/BankConflicts.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::layout;

SmallVector<HardwareSharedAccess, 2>
mlir::layout::getHardwareSharedAccesses(Operation *op) {
  SmallVector<HardwareSharedAccess, 2> result;
  // One wgmma operand read: `dims` are its (M or N, K) descriptor dims.
  auto wgmmaRead = [&](HardwareSharedAccess::Unit unit, Value buffer,
                       Value desc, int64_t mnDim, int64_t kDim,
                       int64_t extent) {
    result.push_back({op, unit, buffer, desc, mnDim, kDim, extent, {}, {}});
  };
  if (auto mma = dyn_cast<WarpgroupMmaOp>(op)) {
    ArrayRef<int64_t> a = mma.getADims(), b = mma.getBDims();
    wgmmaRead(HardwareSharedAccess::Unit::WgmmaA, mma.getA(), mma.getADesc(),
              a[0], a[1], 64);
    wgmmaRead(HardwareSharedAccess::Unit::WgmmaB, mma.getB(), mma.getBDesc(),
              b[1], b[0], mma.getShape()[1]);
  } else if (auto mma = dyn_cast<WarpgroupMmaRegAOp>(op)) {
    // A comes from the lanes' registers: B is the only wgmma read.
    ArrayRef<int64_t> b = mma.getBDims();
    wgmmaRead(HardwareSharedAccess::Unit::WgmmaB, mma.getB(), mma.getBDesc(),
              b[1], b[0], mma.getShape()[1]);
  } else if (auto copy = dyn_cast<BulkTensorLoadOp>(op)) {
    result.push_back({op, HardwareSharedAccess::Unit::Tma, copy.getDest(),
                      copy.getDesc(), 0, 0, 0,
                      SmallVector<int64_t, 4>(copy.getDestDims()),
                      SmallVector<int64_t, 4>(copy.getBox())});
  }
  return result;
}

/// The bytes of an element of `access`'s buffer (at least 1).
static int64_t elementBytesOf(const HardwareSharedAccess &access) {
  auto type = cast<MemRefType>(access.memref.getType());
  return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

std::string HardwareSharedAccess::describe() const {
  switch (unit) {
  case Unit::WgmmaA:
    return "wgmma reads of A";
  case Unit::WgmmaB:
    return "wgmma reads of B";
  case Unit::Tma:
    return "TMA box writes";
  }
  return "";
}

/// The proofs of the hardware accesses met so far, by what they depend on:
/// the many copies of an op in one kernel (K steps unrolled, versions) share
/// one.
struct ProofSession::HardwareMemo {
  using Key =
      std::tuple<std::string, const void *, const void *, int, int64_t, int64_t,
                 int64_t, SmallVector<int64_t, 4>, SmallVector<int64_t, 4>>;
  std::map<Key, HardwareAccessProof> proofs;
};

namespace {

/// An operand tile or box of one origin as rows of contiguous bytes: where
/// each 16-byte chunk is, or why the descriptor has no such chunk there.
struct ChunkWalker {
  const Descriptor &d;
  int64_t eb, offset, stride;
  std::string why;

  /// The byte address of the 16-byte chunk starting at `top`, whose
  /// elements run along `dim`; -1 (with `why`) where they are not 16
  /// contiguous bytes of the buffer.
  int64_t chunk(const SmallVector<int64_t, 4> &first, int64_t dim) {
    if (!why.empty())
      return -1;
    int64_t perChunk = kSharedChunkBytes / eb;
    int64_t start = -1;
    SmallVector<int64_t, 4> top(first);
    auto at = [&](ArrayRef<int64_t> c) {
      return llvm::make_range(c.begin(), c.end());
    };
    for (int64_t e = 0; e < perChunk; ++e, ++top[dim]) {
      if (!d.valid(top)) {
        why = llvm::formatv("element ({0:$[, ]}) is not in its descriptor",
                            at(top))
                  .str();
        return -1;
      }
      int64_t bytes = (offset + d.offset(top) * stride) * eb;
      if (e == 0) {
        start = bytes;
      } else if (bytes != start + e * eb) {
        why = llvm::formatv("the 16 bytes from element ({0:$[, ]}) on are not "
                            "contiguous",
                            at(first))
                  .str();
        return -1;
      }
    }
    return start;
  }
};

/// The wavefronts of `access` at `origin` (majorness `major` for wgmma).
std::optional<SmallVector<SharedWavefront>>
wavefrontsAt(const HardwareSharedAccess &access, ChunkWalker &walk,
             ArrayRef<int64_t> origin, OperandMajor major) {
  SmallVector<int64_t, 4> top(origin.begin(), origin.end());
  SmallVector<SharedWavefront> result;
  if (access.unit == HardwareSharedAccess::Unit::Tma) {
    // The box in the unit's order (last dimension fastest), chunk by chunk.
    ArrayRef<int64_t> box = access.box;
    int64_t elements = 1;
    for (int64_t e : box)
      elements *= e;
    int64_t perChunk = kSharedChunkBytes / walk.eb;
    result = tmaWriteWavefronts(elements * walk.eb, [&](int64_t q) {
      for (int64_t i = box.size() - 1, rest = q * perChunk; i >= 0; --i) {
        top[access.destDims[i]] = origin[access.destDims[i]] + rest % box[i];
        rest /= box[i];
      }
      return walk.chunk(top, access.destDims.back());
    });
  } else {
    // Rows along the strided dimension, chunks along the contiguous one.
    bool kMajor = major == OperandMajor::K;
    int64_t rowDim = kMajor ? access.mnDim : access.kDim;
    int64_t colDim = kMajor ? access.kDim : access.mnDim;
    int64_t k = wgmmaK(walk.eb);
    int64_t rows = kMajor ? access.mnExtent : k;
    int64_t rowBytes = (kMajor ? k : access.mnExtent) * walk.eb;
    result = wgmmaReadWavefronts(rows, rowBytes, [&](int64_t r, int64_t j) {
      top[rowDim] = origin[rowDim] + r;
      top[colDim] = origin[colDim] + j * (kSharedChunkBytes / walk.eb);
      return walk.chunk(top, colDim);
    });
  }
  if (!walk.why.empty())
    return std::nullopt;
  return result;
}

/// The hardware mode `access` is read or written in, into `proof` (mode,
/// refused), and wgmma's majorness; false (with proof.why) where there is
/// nothing to count.
bool matchMode(const HardwareSharedAccess &access, const Descriptor &d,
               int64_t eb, HardwareAccessProof &proof, OperandMajor &major) {
  int64_t alignment = 0;
  if (access.unit == HardwareSharedAccess::Unit::Tma) {
    llvm::Expected<SharedSwizzle> mode =
        matchTmaBox(d, access.destDims, access.box, eb);
    if (!mode) {
      proof.refused = "its box cannot be written by TMA where the "
                      "descriptor says: " +
                      llvm::toString(mode.takeError()) +
                      " (-layout-bulk-tensor-to-nvvm refuses it)";
    } else {
      proof.mode = sharedSwizzleMode(*mode).name.str();
      alignment = std::max<int64_t>(128, sharedSwizzleMode(*mode).alignment);
    }
  } else {
    llvm::Expected<WgmmaOperandLayout> layout =
        matchWgmmaOperand(d, access.mnDim, access.kDim, access.mnExtent, eb);
    if (!layout) {
      proof.refused = "its descriptor cannot be read by wgmma: " +
                      llvm::toString(layout.takeError()) +
                      " (-layout-warpgroup-mma-to-nvvm refuses it)";
      // Count what the descriptor says, read along its contiguous dimension.
      SmallVector<int64_t, 4> o(d.getLengths().size(), 0), k(o), mn(o);
      ++k[access.kDim];
      ++mn[access.mnDim];
      if (d.offset(k) - d.offset(o) == 1)
        major = OperandMajor::K;
      else if (d.offset(mn) - d.offset(o) == 1)
        major = OperandMajor::MN;
      else {
        proof.proof.why = proof.refused;
        return false;
      }
    } else {
      major = layout->major;
      proof.mode = sharedSwizzleMode(layout->swizzle).name.str();
      alignment = sharedSwizzleMode(layout->swizzle).alignment;
    }
  }
  int64_t have = knownBaseAlignment(access.memref);
  if (alignment && have % alignment) {
    // The hardware's swizzle follows the absolute address: from another
    // phase it reads and writes elsewhere than the descriptor says.
    proof.refused =
        llvm::formatv(
            "its buffer must start at a multiple of {0} bytes for the {1} "
            "swizzle (its pattern follows the address), but its base is known "
            "aligned only to {2} (the lowering refuses it)",
            alignment, proof.mode, have)
            .str();
    proof.proof.why = proof.refused;
    return false;
  }
  return true;
}

/// Counts every origin of `access` into `proof`.
void countOrigins(const Chip &chip, const HardwareSharedAccess &access,
                  const Descriptor &d, int64_t eb, OperandMajor major,
                  int64_t offset, int64_t stride, HardwareAccessProof &proof) {
  bool tma = access.unit == HardwareSharedAccess::Unit::Tma;
  ArrayRef<int64_t> lengths = d.getLengths();
  auto origins = tma ? tmaBoxOrigins(lengths, access.destDims, access.box)
                     : wgmmaOperandOrigins(lengths, access.mnDim, access.kDim,
                                           access.mnExtent, wgmmaK(eb));
  if (int64_t(origins.size()) > kMaxSharedTileOrigins) {
    proof.proof.why = llvm::formatv("its descriptor holds more than {0} tile "
                                    "origins",
                                    kMaxSharedTileOrigins)
                          .str();
    return;
  }
  ChunkWalker walk{d, eb, offset, stride, ""};
  SharedAccessKind kind =
      tma ? SharedAccessKind::Write : SharedAccessKind::Read;
  for (const auto &origin : origins) {
    std::optional<SmallVector<SharedWavefront>> fronts =
        wavefrontsAt(access, walk, origin, major);
    if (!fronts) {
      proof.proof.why =
          (proof.refused.empty() ? "" : proof.refused + "; ") +
          llvm::formatv("at the tile origin ({0:$[, ]}) {1}",
                        llvm::make_range(origin.begin(), origin.end()),
                        walk.why)
              .str();
      return;
    }
    proof.wavefronts = fronts->size();
    ConflictCount c = countWavefronts(chip, kind, *fronts);
    if (c.worseThan(proof.proof.worst) || !proof.origins)
      proof.proof.worst = c;
    ++proof.origins;
  }
  // Counted at every origin: proved, unless the hardware cannot take it.
  proof.proof.proved = proof.refused.empty();
  proof.proof.why = proof.refused;
  proof.proof.exact = true;
}

/// Proves `access` (no memo).
HardwareAccessProof prove(const Chip &chip, const HardwareSharedAccess &access,
                          ProofSession &session) {
  HardwareAccessProof proof;
  bool tma = access.unit == HardwareSharedAccess::Unit::Tma;
  proof.model = (tma ? tmaWavefrontModel() : wgmmaWavefrontModel()).str();
  if (tma ? !chip.tensorMemoryAccess : !chip.warpgroupMma) {
    proof.proof.why =
        llvm::formatv("{0} has no {1}", chip.name,
                      tma ? "TMA (sm_90 and later)" : "wgmma (sm_90a)")
            .str();
    return proof;
  }
  auto it = session.descriptors.find(access.desc);
  if (it == session.descriptors.end()) {
    TracedDescriptor traced;
    if (llvm::Expected<Descriptor> d = traceDescriptor(access.desc))
      traced.descriptor = std::move(*d);
    else
      traced.why = llvm::toString(d.takeError());
    it = session.descriptors.try_emplace(access.desc, std::move(traced)).first;
  }
  if (!it->second.descriptor) {
    proof.proof.why = "its descriptor cannot be traced: " + it->second.why;
    return proof;
  }
  const Descriptor &d = *it->second.descriptor;
  auto type = cast<MemRefType>(access.memref.getType());
  int64_t eb = elementBytesOf(access);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (d.isDynamic() || failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || ShapedType::isDynamic(strides[0])) {
    proof.proof.why = "its buffer or descriptor has run-time lengths";
    return proof;
  }
  OperandMajor major = OperandMajor::K;
  if (!matchMode(access, d, eb, proof, major))
    return proof;
  countOrigins(chip, access, d, eb, major, offset, strides[0], proof);
  return proof;
}

} // namespace

HardwareAccessProof
mlir::layout::proveHardwareConflicts(const Chip &chip,
                                     const HardwareSharedAccess &access,
                                     ProofSession &session) {
  if (!session.hardware)
    session.hardware = std::make_shared<ProofSession::HardwareMemo>();
  ProofSession::HardwareMemo::Key key{chip.name,
                                      access.memref.getAsOpaquePointer(),
                                      access.desc.getAsOpaquePointer(),
                                      int(access.unit),
                                      access.mnDim,
                                      access.kDim,
                                      access.mnExtent,
                                      access.destDims,
                                      access.box};
  auto [it, inserted] = session.hardware->proofs.try_emplace(key);
  if (inserted)
    it->second = prove(chip, access, session);
  return it->second;
}

std::string
mlir::layout::describeHardwareAccess(const HardwareSharedAccess &access,
                                     const HardwareAccessProof &proof) {
  std::string what = access.describe();
  if (proof.mode == "none")
    what += " unswizzled (swizzle mode none)";
  else if (!proof.mode.empty())
    what += " in the " + proof.mode + " swizzle mode";
  return llvm::formatv(
      "{0}, {1} wavefronts per {2} ({3})", what, proof.wavefronts,
      access.unit == HardwareSharedAccess::Unit::Tma ? "box" : "instruction",
      proof.model);
}

std::string
mlir::layout::describeHardwareProof(const HardwareSharedAccess &access,
                                    const HardwareAccessProof &proof) {
  if (!proof.proof.proved)
    return "not proved: " + proof.proof.why;
  bool tma = access.unit == HardwareSharedAccess::Unit::Tma;
  int64_t eb = elementBytesOf(access);
  std::string tile =
      tma ? "box"
          : llvm::formatv("{0} x {1} tile", access.mnExtent, wgmmaK(eb)).str();
  std::string origins =
      proof.origins == 1
          ? std::string("the one origin")
          : llvm::formatv("all {0} origins", proof.origins).str();
  return llvm::formatv("proved for {0} of its {1} in the buffer's "
                       "descriptor (every {2} the op may take), all blocks "
                       "and all iterations",
                       origins, tile, tma ? "stage" : "stage and K step");
}
