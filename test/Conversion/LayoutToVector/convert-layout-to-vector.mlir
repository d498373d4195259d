// RUN: layout-opt %s -convert-layout-to-vector -canonicalize -split-input-file | FileCheck %s

/// A memref view: one masked transfer_read whose mask is the extents left
/// in the tile (4 - 2 i rows, 11 - 4 j columns) and whose padding is NaN;
/// an unmasked store is one in-bounds transfer_write.

// CHECK-LABEL: func @strided
// CHECK-SAME: (%[[M:.*]]: memref<4x11xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C11:.*]] = arith.constant 11 : index
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[C2]] : index
// CHECK: %[[C:.*]] = arith.muli %[[J]], %[[C4]] : index
// CHECK: %[[LR:.*]] = arith.subi %[[C4]], %[[R]] : index
// CHECK: %[[LC:.*]] = arith.subi %[[C11]], %[[C]] : index
// CHECK: %[[MASK:.*]] = vector.create_mask %[[LR]], %[[LC]] : vector<2x4xi1>
// CHECK: %[[V:.*]] = vector.transfer_read %[[M]][%[[R]], %[[C]]], %[[NAN]], %[[MASK]] {in_bounds = [true, true]} : memref<4x11xf32>, vector<2x4xf32>
// CHECK: vector.transfer_write %[[V]], %[[M]][%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<2x4xf32>, memref<4x11xf32>
// CHECK-NOT: layout.
func.func @strided(%m: memref<4x11xf32>, %i: index, %j: index) -> vector<2x4xf32> {
  %v = layout.view %m : memref<4x11xf32> -> !layout.tensor_view<4x11xf32>
  %p = layout.partition %v tile [2, 4] : !layout.tensor_view<4x11xf32> -> !layout.partition_view<4x11xf32, tile = [2, 4]>
  %q = layout.load %p[%i, %j] masked padding(nan) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  // Unmasked: at a tile inside the view (11 is not a multiple of 4).
  %c1 = arith.constant 1 : index
  layout.store %q, %p[%c1, %c1] : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
  return %q : vector<2x4xf32>
}

// -----

/// A strided descriptor over a buffer: the buffer reinterpreted with the
/// descriptor's strides and offset, then one transfer_read.

// CHECK-LABEL: func @strided_descriptor
// CHECK: %[[RC:.*]] = memref.reinterpret_cast %{{.*}} to offset: [2], sizes: [3, 4], strides: [1, 3] : memref<24xf32> to memref<3x4xf32, strided<[1, 3], offset: 2>>
// CHECK: vector.transfer_read %[[RC]]
func.func @strided_descriptor(%buf: memref<24xf32>, %i: index) -> vector<2x2xf32> {
  %d = layout.naive [3, 4] strides [1, 3] offset 2 space 24 : !layout.desc<3x4>
  %v = layout.view %buf by %d : memref<24xf32>, !layout.desc<3x4> -> !layout.tensor_view<3x4xf32>
  %p = layout.partition %v tile [2, 2] : !layout.tensor_view<3x4xf32> -> !layout.partition_view<3x4xf32, tile = [2, 2]>
  %t = layout.load %p[%i, %i] masked : !layout.partition_view<3x4xf32, tile = [2, 2]> -> vector<2x2xf32>
  return %t : vector<2x2xf32>
}

// -----

/// A padded descriptor: a loop over the 3x3 tile; each element is read only
/// when it is inside the 6x6 view and valid for the descriptor, from
/// buffer[layout.offset], and zero otherwise.

// CHECK-LABEL: func @padded
// CHECK: %[[D:.*]] = layout.transform
// CHECK: %[[STAGE:.*]] = memref.alloca() : memref<3x3xf32>
// CHECK: scf.for %[[A:.*]] =
// CHECK: scf.for %[[B:.*]] =
// CHECK: %[[IN:.*]] = arith.andi
// CHECK: %[[VALID:.*]] = layout.valid %[[D]][%[[X:.*]], %[[Y:.*]]] : !layout.desc<6x6>
// CHECK: %[[OK:.*]] = arith.andi %[[IN]], %[[VALID]] : i1
// CHECK: %[[E:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK: %[[OFF:.*]] = layout.offset %[[D]][%[[X]], %[[Y]]] : !layout.desc<6x6>
// CHECK: memref.load %{{.*}}[%[[OFF]]] : memref<16xf32>
// CHECK: } else {
// CHECK: memref.store %[[E]], %[[STAGE]][%[[A]], %[[B]]] : memref<3x3xf32>
// CHECK: vector.transfer_read %[[STAGE]]
func.func @padded(%buf: memref<16xf32>, %i: index, %j: index) -> vector<3x3xf32> {
  %d = layout.packed [4, 4] : !layout.desc<4x4>
  %pd = layout.transform %d [#layout.pad<4, 1, 1> : [0] -> [0], #layout.pad<4, 1, 1> : [1] -> [1]] : !layout.desc<4x4> -> !layout.desc<6x6>
  %v = layout.view %buf by %pd : memref<16xf32>, !layout.desc<6x6> -> !layout.tensor_view<6x6xf32>
  %p = layout.partition %v tile [3, 3] : !layout.tensor_view<6x6xf32> -> !layout.partition_view<6x6xf32, tile = [3, 3]>
  %t = layout.load %p[%i, %j] masked : !layout.partition_view<6x6xf32, tile = [3, 3]> -> vector<3x3xf32>
  return %t : vector<3x3xf32>
}

// -----

/// Atomic loads: one llvm.load per element with the acquire ordering.

// CHECK-LABEL: func @atomic
// CHECK: scf.for
// CHECK: %[[P:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: llvm.load %[[P]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-LABEL: func @atomic_store
// CHECK: llvm.store %{{.*}}, %{{.*}} atomic release {alignment = 8 : i64} : f64, !llvm.ptr
func.func @atomic(%m: memref<8xi32>, %i: index) -> vector<4xi32> {
  %v = layout.view %m : memref<8xi32> -> !layout.tensor_view<8xi32>
  %p = layout.partition %v tile [4] : !layout.tensor_view<8xi32> -> !layout.partition_view<8xi32, tile = [4]>
  %t = layout.load %p[%i] atomic(acquire, device) : !layout.partition_view<8xi32, tile = [4]> -> vector<4xi32>
  return %t : vector<4xi32>
}
func.func @atomic_store(%m: memref<8xf64>, %x: vector<4xf64>, %i: index) {
  %v = layout.view %m : memref<8xf64> -> !layout.tensor_view<8xf64>
  %p = layout.partition %v tile [4] : !layout.tensor_view<8xf64> -> !layout.partition_view<8xf64, tile = [4]>
  layout.store %x, %p[%i] atomic(release, device) : vector<4xf64>, !layout.partition_view<8xf64, tile = [4]>
  return
}

// -----

/// The index space: ceildiv of dynamic extents, constants otherwise.

// CHECK-DAG: #[[CEIL:.*]] = affine_map<()[s0] -> (s0 ceildiv 5)>
// CHECK-LABEL: func @index_space
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[DIM:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<4x?xf32>
// CHECK: %[[N:.*]] = affine.apply #[[CEIL]]()[%[[DIM]]]
// CHECK: return %[[C2]], %[[N]]
func.func @index_space(%m: memref<4x?xf32>) -> (index, index) {
  %v = layout.view %m : memref<4x?xf32> -> !layout.tensor_view<4x?xf32>
  %p = layout.partition %v tile [3, 5] : !layout.tensor_view<4x?xf32> -> !layout.partition_view<4x?xf32, tile = [3, 5]>
  %n:2 = layout.index_space %p : !layout.partition_view<4x?xf32, tile = [3, 5]>
  return %n#0, %n#1 : index, index
}
