// RUN: layout-opt %s -split-input-file -layout-float8-truncf-to-nvvm -verify-diagnostics | FileCheck %s

/// A saturating truncation to E4M3 (the clamp to +-448 before arith.truncf)
/// of three elements: cvt.rn.satfinite of the unclamped input in pairs,
/// element 2i in cvt's low byte (its `b`), 2i + 1 in the high one (`a`);
/// the odd last element paired with 0.
// CHECK-LABEL: func.func @vector3
// CHECK-SAME: (%[[X:.*]]: vector<3xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[X0:.*]] = vector.extract %[[X]][0]
// CHECK-DAG: %[[X1:.*]] = vector.extract %[[X]][1]
// CHECK-DAG: %[[X2:.*]] = vector.extract %[[X]][2]
// CHECK: %[[P0:.*]] = nvvm.convert.f32x2.to.f8x2 %[[X1]], %[[X0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[B0:.*]] = vector.extract %[[P0]][0]
// CHECK: %[[B1:.*]] = vector.extract %[[P0]][1]
// CHECK: %[[P1:.*]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[X2]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[B2:.*]] = vector.extract %[[P1]][0]
// CHECK: %[[BYTES:.*]] = vector.from_elements %[[B0]], %[[B1]], %[[B2]] : vector<3xi8>
// CHECK: vector.bitcast %[[BYTES]] : vector<3xi8> to vector<3xf8E4M3FN>
// CHECK-NOT: arith.truncf
func.func @vector3(%x: vector<3xf32>) -> vector<3xf8E4M3FN> {
  %lo = arith.constant dense<-448.0> : vector<3xf32>
  %hi = arith.constant dense<448.0> : vector<3xf32>
  %a = arith.maximumf %x, %lo : vector<3xf32>
  %b = arith.minimumf %a, %hi : vector<3xf32>
  %y = arith.truncf %b : vector<3xf32> to vector<3xf8E4M3FN>
  return %y : vector<3xf8E4M3FN>
}

/// A scalar E5M2, clamped the other way round (min first, constants on the
/// left).
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %{{.*}}, %[[X]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E5M2)
// CHECK: %[[B:.*]] = vector.extract %[[P]][0]
// CHECK: arith.bitcast %[[B]] : i8 to f8E5M2
func.func @scalar(%x: f32) -> f8E5M2 {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %a = arith.minimumf %hi, %x : f32
  %b = arith.maximumf %lo, %a : f32
  %y = arith.truncf %b : f32 to f8E5M2
  return %y : f8E5M2
}

// -----

/// A clamp to the wrong bound (448 is E4M3's, not E5M2's): not the
/// saturating truncation, so the diagnostic of the chip (sm_90 without a
/// target).
func.func @wrong_bound(%x: f32) -> f8E5M2 {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %a = arith.maximumf %x, %lo : f32
  %b = arith.minimumf %a, %hi : f32
  // expected-error @+1 {{'arith.truncf' op to 'f8E5M2': sm_90 converts to 8-bit floats only saturating (cvt.rn.satfinite): clamp the input first, arith.maximumf with -57344 then arith.minimumf with 57344}}
  %y = arith.truncf %b : f32 to f8E5M2
  return %y : f8E5M2
}
