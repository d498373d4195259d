//===- GPUWorkarounds.cpp - Passes around gaps of MLIR 22's GPU lowering ===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Six passes the GPU pipelines run around upstream conversions (a seventh,
// -layout-ldmatrix-steps, is in LdMatrixSteps.cpp), each for a
// gap of MLIR 22 that is named in its description (Passes.td): the dynamic
// shared memory global's linkage, n-D shape casts, bf16 mma.sync, the PTX
// version of the matrix instructions called as LLVM intrinsics, saturating
// truncations to 8-bit floats on NVIDIA chips, the target's ftz flag for
// exp2.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/InlinePtx.h"
#include "layout/Conversion/Passes.h"
#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Evaluator/WarpgroupMma.h"
#include "layout/Transforms/Float8Truncation.h"
#include "layout/Transforms/TargetChip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTEXTERNDYNAMICSHAREDMEMORY
#define GEN_PASS_DEF_LAYOUTLOWERVECTORSHAPECASTS
#define GEN_PASS_DEF_LAYOUTBF16MMASYNCTONVVM
#define GEN_PASS_DEF_LAYOUTNVVMPTXVERSION
#define GEN_PASS_DEF_LAYOUTFLOAT8TRUNCTONVVM
#define GEN_PASS_DEF_LAYOUTEXP2TONVVM
#include "layout/Conversion/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;

namespace {

/// Gives the global behind gpu.dynamic_shared_memory external linkage.
/// MLIR 22's gpu-to-nvvm declares it internal, which the NVPTX back end
/// demotes to a one-byte static `.shared` variable; PTX's dynamic shared
/// memory is an `.extern .shared` array of unknown size (PTX ISA, "State
/// Spaces: Shared"), as clang emits for `extern __shared__` and flang
/// since llvm/llvm-project#161940. In a module with wgmma, its alignment is
/// raised to the widest swizzle pattern's (1024 bytes).
struct ExternDynamicSharedMemoryPass final
    : layout::impl::LayoutExternDynamicSharedMemoryBase<
          ExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    // wgmma's buffers placed in dynamic shared memory sit at multiples of
    // their swizzle pattern's alignment from its start
    // (layoutWorkgroupBuffers): the start must have the widest.
    bool wgmma = false;
    getOperation()->walk([&](NVVM::WgmmaMmaAsyncOp) {
      wgmma = true;
      return WalkResult::interrupt();
    });
    uint64_t align =
        layout::sharedSwizzleMode(layout::SharedSwizzle::B128).alignment;
    getOperation()->walk([&](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      if (wgmma && global.getAlignment().value_or(0) < align)
        global.setAlignment(align);
    });
  }
};

/// Lowers n-D vector.shape_cast to element moves: the matrix instructions'
/// n-D operands (nvgpu.mma.sync's registers x halves) are built from flat
/// fragments, and the GPU conversions only convert 1-D shape casts.
struct LowerVectorShapeCastsPass final
    : layout::impl::LayoutLowerVectorShapeCastsBase<LowerVectorShapeCastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Rewrites bf16 `nvgpu.mma.sync` m16n8k16 into `nvvm.mma.sync` with
/// i32-packed operands: MLIR 22's nvgpu-to-nvvm conversion does not lower
/// bf16 ("failed to deduce operand PTX types"), while PTX has
/// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32. Register r of A
/// (vector<4x2xbf16>) and B (vector<2x2xbf16>) is one 32-bit register of
/// two bf16, low half first (PTX ISA, mma.m16n8k16 fragments), as nvgpu
/// packs f16.
struct BF16MmaSyncToNVVMPass final
    : layout::impl::LayoutBF16MmaSyncToNVVMBase<BF16MmaSyncToNVVMPass> {

  /// The 32-bit registers of a (registers x 2) bf16 vector.
  static SmallVector<Value> registers(OpBuilder &b, Location loc, Value v) {
    auto type = cast<VectorType>(v.getType());
    auto pair = VectorType::get({1}, b.getI32Type());
    SmallVector<Value> regs;
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      Value row = vector::ExtractOp::create(b, loc, v, r);
      Value packed = vector::BitCastOp::create(b, loc, pair, row);
      regs.push_back(vector::ExtractOp::create(b, loc, packed, 0));
    }
    return regs;
  }

  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> ops;
    getOperation()->walk([&](nvgpu::MmaSyncOp op) {
      if (op.getMatrixA().getType().getElementType().isBF16() &&
          op.getMmaShapeAsArray() == std::array<int64_t, 3>{16, 8, 16})
        ops.push_back(op);
    });
    for (nvgpu::MmaSyncOp op : ops) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      SmallVector<Value> c;
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t v = 0; v < 2; ++v)
          c.push_back(vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                                ArrayRef<int64_t>{r, v}));
      Type f32 = b.getF32Type();
      auto result =
          LLVM::LLVMStructType::getLiteral(&getContext(), {f32, f32, f32, f32});
      auto mma = NVVM::MmaOp::create(
          b, loc, result, registers(b, loc, op.getMatrixA()),
          registers(b, loc, op.getMatrixB()), c, ArrayRef<int64_t>{16, 8, 16},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                        NVVM::MMATypes::bf16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      SmallVector<Value> d;
      for (int64_t i = 0; i < 4; ++i)
        d.push_back(LLVM::ExtractValueOp::create(b, loc, mma, i));
      op.replaceAllUsesWith(Value(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(op.getType()), d)));
      op.erase();
    }
  }
};

/// Raises the +ptxXY feature of a gpu.module's #nvvm.target to the
/// largest minimumPtxVersion of the table's instructions it calls as LLVM
/// intrinsics (the FP8 mma.sync: 8.4).
struct NVVMPtxVersionPass final
    : layout::impl::LayoutNVVMPtxVersionBase<NVVMPtxVersionPass> {
  /// The PTX version `features` asks for with +ptxXY (0: none).
  static int64_t askedVersion(StringRef features) {
    int64_t version = 0;
    SmallVector<StringRef> parts;
    features.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      int64_t v = 0;
      if (part.consume_front("+ptx") && !part.getAsInteger(10, v))
        version = std::max(version, v);
    }
    return version;
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    int64_t needed = 0;
    module.walk([&](LLVM::CallIntrinsicOp call) {
      if (const layout::MatrixInstruction *inst =
              layout::findMatrixInstructionByIntrinsic(call.getIntrin()))
        needed = std::max(needed, inst->minimumPtxVersion);
    });
    ArrayAttr targets = module.getTargetsAttr();
    if (!needed || !targets)
      return;
    SmallVector<Attribute> raised;
    for (Attribute attr : targets) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm || askedVersion(nvvm.getFeatures()) >= needed) {
        raised.push_back(attr);
        continue;
      }
      SmallVector<StringRef> kept;
      SmallVector<StringRef> parts;
      nvvm.getFeatures().split(parts, ',', -1, /*KeepEmpty=*/false);
      for (StringRef part : parts)
        if (!part.starts_with("+ptx"))
          kept.push_back(part);
      std::string ptx = "+ptx" + std::to_string(needed);
      kept.push_back(ptx);
      raised.push_back(NVVM::NVVMTargetAttr::get(
          &getContext(), nvvm.getO(), nvvm.getTriple(), nvvm.getChip(),
          llvm::join(kept, ","), nvvm.getFlags(), nvvm.getLink(),
          nvvm.getVerifyTarget()));
    }
    module.setTargetsAttr(ArrayAttr::get(&getContext(), raised));
  }
};

/// Lowers each saturating arith.truncf to an 8-bit float (Float8Truncation.h)
/// to nvvm.convert.f32x2.to.f8x2 <rn, satfinite> of the unclamped input, two
/// elements at a time; any other truncation to an 8-bit float fails with
/// checkFloat8Truncation's diagnostic.
struct Float8TruncToNVVMPass final
    : layout::impl::LayoutFloat8TruncToNVVMBase<Float8TruncToNVVMPass> {

  /// The 8-bit codes of `x`'s elements (f32 scalars) as i8, cvt'd in pairs:
  /// the i16 of cvt holds its `a` in the high byte, `b` in the low one
  /// (PTX ISA, "cvt"), so a pair (x0, x1) is cvt(a = x1, b = x0) read as
  /// vector<2xi8>.
  static SmallVector<Value> convert(OpBuilder &b, Location loc,
                                    ArrayRef<Value> x, Type f8) {
    auto pair = VectorType::get({2}, b.getI8Type());
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    SmallVector<Value> codes;
    for (size_t i = 0; i < x.size(); i += 2) {
      Value hi = i + 1 < x.size() ? x[i + 1] : zero;
      Value cvt = NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, pair, hi, x[i], NVVM::FPRoundingMode::RN,
          NVVM::SaturationMode::SATFINITE, /*relu=*/false, f8);
      for (size_t j = i; j < std::min(x.size(), i + 2); ++j)
        codes.push_back(vector::ExtractOp::create(b, loc, cvt, j - i));
    }
    return codes;
  }

  void runOnOperation() override {
    SmallVector<arith::TruncFOp> truncs;
    getOperation()->walk([&](arith::TruncFOp op) {
      if (layout::truncatesToFloat8(op))
        truncs.push_back(op);
    });
    for (arith::TruncFOp op : truncs) {
      Value x = layout::saturatedTruncationSource(op);
      if (!x || !getElementTypeOrSelf(x.getType()).isF32()) {
        FailureOr<layout::Chip> chip = layout::resolveChip(
            op, "", "-layout-float8-truncf-to-nvvm", "sm_90");
        if (succeeded(chip))
          (void)layout::checkFloat8Truncation(op, *chip);
        return signalPassFailure();
      }
      Type f8 = getElementTypeOrSelf(op.getType());
      layout::replaceFloat8Truncation(
          op, x, [&](OpBuilder &b, Location loc, ArrayRef<Value> elements) {
            return convert(b, loc, elements, f8);
          });
    }
  }
};

/// math.exp2 of f32 as ex2.approx.ftz.f32 (inline PTX, element by element)
/// in a gpu.module whose #nvvm.target has the ftz flag.
struct Exp2ToNVVMPass final
    : layout::impl::LayoutExp2ToNVVMBase<Exp2ToNVVMPass> {
  static Value ex2(OpBuilder &b, Location loc, Value x) {
    return layout::createInlinePtx(b, loc, b.getF32Type(), ValueRange{x},
                                   "ex2.approx.ftz.f32 $0, $1;", "=f,f",
                                   /*sideEffects=*/false)
        .getResult(0);
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || llvm::none_of(targets, [](Attribute t) {
          auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
          return nvvm && nvvm.hasFtz();
        }))
      return;
    SmallVector<math::Exp2Op> ops;
    module.walk([&](math::Exp2Op op) {
      if (getElementTypeOrSelf(op.getType()).isF32())
        ops.push_back(op);
    });
    for (math::Exp2Op op : ops) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value result;
      if (auto type = dyn_cast<VectorType>(op.getType())) {
        if (type.isScalable())
          continue;
        SmallVector<Value> elements;
        SmallVector<int64_t> strides = computeStrides(type.getShape());
        for (int64_t i = 0, n = type.getNumElements(); i < n; ++i)
          elements.push_back(
              ex2(b, loc,
                  vector::ExtractOp::create(b, loc, op.getOperand(),
                                            delinearize(i, strides))));
        result = vector::FromElementsOp::create(b, loc, type, elements);
      } else {
        result = ex2(b, loc, op.getOperand());
      }
      op.replaceAllUsesWith(result);
      op.erase();
    }
  }
};

} // namespace
