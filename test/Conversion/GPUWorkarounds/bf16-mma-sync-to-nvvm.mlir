// RUN: layout-opt %s -layout-bf16-mma-sync-to-nvvm | FileCheck %s

/// bf16 m16n8k16 nvgpu.mma.sync (which MLIR 22's nvgpu-to-nvvm cannot
/// lower) becomes nvvm.mma.sync with each row of A and B packed into one
/// i32 register (two bf16, low half first) and C as four f32.
// CHECK-LABEL: func.func @bf16
// CHECK-SAME: (%[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>)
// CHECK-DAG: %[[C0:.*]] = vector.extract %[[C]][0, 0]
// CHECK-DAG: %[[C1:.*]] = vector.extract %[[C]][0, 1]
// CHECK-DAG: %[[C2:.*]] = vector.extract %[[C]][1, 0]
// CHECK-DAG: %[[C3:.*]] = vector.extract %[[C]][1, 1]
// CHECK-DAG: %[[B0R:.*]] = vector.extract %[[B]][0] : vector<2xbf16>
// CHECK-DAG: %[[B0V:.*]] = vector.bitcast %[[B0R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[B0:.*]] = vector.extract %[[B0V]][0] : i32
// CHECK-DAG: %[[B1R:.*]] = vector.extract %[[B]][1] : vector<2xbf16>
// CHECK-DAG: %[[B1V:.*]] = vector.bitcast %[[B1R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[B1:.*]] = vector.extract %[[B1V]][0] : i32
// CHECK-DAG: %[[A0R:.*]] = vector.extract %[[A]][0] : vector<2xbf16>
// CHECK-DAG: %[[A0V:.*]] = vector.bitcast %[[A0R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A0:.*]] = vector.extract %[[A0V]][0] : i32
// CHECK-DAG: %[[A1R:.*]] = vector.extract %[[A]][1] : vector<2xbf16>
// CHECK-DAG: %[[A1V:.*]] = vector.bitcast %[[A1R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A1:.*]] = vector.extract %[[A1V]][0] : i32
// CHECK-DAG: %[[A2R:.*]] = vector.extract %[[A]][2] : vector<2xbf16>
// CHECK-DAG: %[[A2V:.*]] = vector.bitcast %[[A2R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A2:.*]] = vector.extract %[[A2V]][0] : i32
// CHECK-DAG: %[[A3R:.*]] = vector.extract %[[A]][3] : vector<2xbf16>
// CHECK-DAG: %[[A3V:.*]] = vector.bitcast %[[A3R]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A3:.*]] = vector.extract %[[A3V]][0] : i32
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-DAG: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-DAG: %[[D1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-DAG: %[[D2:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-DAG: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[R:.*]] = vector.from_elements %[[D0]], %[[D1]], %[[D2]], %[[D3]] : vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return %[[R]]
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

/// f16 is left to the nvgpu conversion.
// CHECK-LABEL: func.func @f16
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
