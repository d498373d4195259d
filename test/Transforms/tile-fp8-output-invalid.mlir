// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory=chip=sm_90 -verify-diagnostics
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory=chip=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: not layout-opt %s -split-input-file -layout-tile-shared-memory=chip=gfx1100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX1100

/// Truncations to 8-bit floats in a kernel (an FP8 epilogue) that the chip
/// cannot convert as asked (layout/Transforms/Float8Truncation.h): each gets
/// a diagnostic at the op from -layout-tile-shared-memory, before the tiles
/// are distributed. On sm_90 (-verify-diagnostics) a truncation without the
/// clamp (PTX converts to 8-bit floats only with .satfinite), a clamp by
/// the NaN-dropping maxnumf / minnumf (not the saturating truncation: NaN
/// would become the largest finite value), an FNUZ result, an f16 input; on
/// gfx942 (the FNUZ encodings only) and gfx1100 (no 8-bit floats), the OCP
/// E4M3 of the first case.
// GFX942: error: 'arith.truncf' op to 'f8E4M3FN': gfx942 does not convert f32 to it; chips convert to the 8-bit floats their matrix instructions take: gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA), gfx950 (f8E4M3FN, f8E5M2 MFMA), sm_89 ... sm_90 (f8E4M3FN, f8E5M2 mma.sync), sm_90a (f8E4M3FN, f8E5M2 mma.sync, wgmma)
// GFX1100: error: 'arith.truncf' op to 'f8E4M3FN': gfx1100 does not convert f32 to it

gpu.module @kernels {
  gpu.func @unclamped(%X: memref<?x?xf32>, %Y: memref<?x?xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %vx = layout.view %X : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vy = layout.view %Y : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %px = layout.partition %vx tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %py = layout.partition %vy tile [32, 32] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [32, 32]>
    %t = layout.load %px[%c0, %c0] masked : !layout.partition_view<?x?xf32, tile = [32, 32]> -> vector<32x32xf32>
    // expected-error @+1 {{'arith.truncf' op to 'f8E4M3FN': sm_90 converts to 8-bit floats only saturating (cvt.rn.satfinite): clamp the input first, arith.maximumf with -448 then arith.minimumf with 448}}
    %o = arith.truncf %t : vector<32x32xf32> to vector<32x32xf8E4M3FN>
    layout.store %o, %py[%c0, %c0] masked : vector<32x32xf8E4M3FN>, !layout.partition_view<?x?xf8E4M3FN, tile = [32, 32]>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @clamped_by_maxnumf(%X: memref<?x?xf32>, %Y: memref<?x?xf8E5M2>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %lo = arith.constant dense<-57344.0> : vector<32x32xf32>
    %hi = arith.constant dense<57344.0> : vector<32x32xf32>
    %vx = layout.view %X : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vy = layout.view %Y : memref<?x?xf8E5M2> -> !layout.tensor_view<?x?xf8E5M2>
    %px = layout.partition %vx tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %py = layout.partition %vy tile [32, 32] : !layout.tensor_view<?x?xf8E5M2> -> !layout.partition_view<?x?xf8E5M2, tile = [32, 32]>
    %t = layout.load %px[%c0, %c0] masked : !layout.partition_view<?x?xf32, tile = [32, 32]> -> vector<32x32xf32>
    %a = arith.maxnumf %t, %lo : vector<32x32xf32>
    %b = arith.minnumf %a, %hi : vector<32x32xf32>
    // expected-error @+1 {{'arith.truncf' op to 'f8E5M2': sm_90 converts to 8-bit floats only saturating (cvt.rn.satfinite): clamp the input first, arith.maximumf with -57344 then arith.minimumf with 57344}}
    %o = arith.truncf %b : vector<32x32xf32> to vector<32x32xf8E5M2>
    layout.store %o, %py[%c0, %c0] masked : vector<32x32xf8E5M2>, !layout.partition_view<?x?xf8E5M2, tile = [32, 32]>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @fnuz(%X: memref<?x?xf32>, %Y: memref<?x?xf8E4M3FNUZ>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %lo = arith.constant dense<-240.0> : vector<32x32xf32>
    %hi = arith.constant dense<240.0> : vector<32x32xf32>
    %vx = layout.view %X : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
    %vy = layout.view %Y : memref<?x?xf8E4M3FNUZ> -> !layout.tensor_view<?x?xf8E4M3FNUZ>
    %px = layout.partition %vx tile [32, 32] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [32, 32]>
    %py = layout.partition %vy tile [32, 32] : !layout.tensor_view<?x?xf8E4M3FNUZ> -> !layout.partition_view<?x?xf8E4M3FNUZ, tile = [32, 32]>
    %t = layout.load %px[%c0, %c0] masked : !layout.partition_view<?x?xf32, tile = [32, 32]> -> vector<32x32xf32>
    %a = arith.maximumf %t, %lo : vector<32x32xf32>
    %b = arith.minimumf %a, %hi : vector<32x32xf32>
    // expected-error @+1 {{'arith.truncf' op to 'f8E4M3FNUZ': sm_90 does not convert f32 to it; chips convert to the 8-bit floats their matrix instructions take: gfx940, gfx941, gfx942 (f8E4M3FNUZ, f8E5M2FNUZ MFMA)}}
    %o = arith.truncf %b : vector<32x32xf32> to vector<32x32xf8E4M3FNUZ>
    layout.store %o, %py[%c0, %c0] masked : vector<32x32xf8E4M3FNUZ>, !layout.partition_view<?x?xf8E4M3FNUZ, tile = [32, 32]>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @from_f16(%X: memref<?x?xf16>, %Y: memref<?x?xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %vx = layout.view %X : memref<?x?xf16> -> !layout.tensor_view<?x?xf16>
    %vy = layout.view %Y : memref<?x?xf8E4M3FN> -> !layout.tensor_view<?x?xf8E4M3FN>
    %px = layout.partition %vx tile [32, 32] : !layout.tensor_view<?x?xf16> -> !layout.partition_view<?x?xf16, tile = [32, 32]>
    %py = layout.partition %vy tile [32, 32] : !layout.tensor_view<?x?xf8E4M3FN> -> !layout.partition_view<?x?xf8E4M3FN, tile = [32, 32]>
    %t = layout.load %px[%c0, %c0] masked : !layout.partition_view<?x?xf16, tile = [32, 32]> -> vector<32x32xf16>
    // expected-error @+1 {{'arith.truncf' op to 'f8E4M3FN': only f32 converts to 8-bit floats here (extend to f32 first)}}
    %o = arith.truncf %t : vector<32x32xf16> to vector<32x32xf8E4M3FN>
    layout.store %o, %py[%c0, %c0] masked : vector<32x32xf8E4M3FN>, !layout.partition_view<?x?xf8E4M3FN, tile = [32, 32]>
    gpu.return
  }
}
