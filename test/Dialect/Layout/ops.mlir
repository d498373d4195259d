// RUN: layout-opt %s | FileCheck %s
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --mlir-print-op-generic | layout-opt | FileCheck %s

/// Every op and every transform attribute of the contract, printed, re-parsed
/// and re-parsed from the generic form.

// CHECK-LABEL: func @bases
func.func @bases() {
  // CHECK: layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  %d = layout.naive [3, 4] strides [8, 1] : !layout.desc<3x4>
  // CHECK: layout.packed [2, 6] : !layout.desc<2x6>
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // CHECK: layout.aligned [4, 5] align 8 : !layout.desc<4x5>
  %a = layout.aligned [4, 5] align 8 : !layout.desc<4x5>
  return
}

// CHECK-LABEL: func @index_ops
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index)
func.func @index_ops(%i: index, %j: index, %k: index) -> (index, i1, index, index, index, index) {
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  // CHECK: %[[T:.*]] = layout.transform %{{.*}} [#layout.pass_through<2> : [0] -> [0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]] : !layout.desc<2x6> -> !layout.desc<2x2x3>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                            #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
       : !layout.desc<2x6> -> !layout.desc<2x2x3>
  // CHECK: %[[OFF:.*]] = layout.offset %[[T]][%[[I]], %[[J]], %[[K]]] : !layout.desc<2x2x3>
  %off = layout.offset %t[%i, %j, %k] : !layout.desc<2x2x3>
  // CHECK: layout.valid %[[T]][%[[I]], %[[J]], %[[K]]] : !layout.desc<2x2x3>
  %ok  = layout.valid %t[%i, %j, %k] : !layout.desc<2x2x3>
  // CHECK: layout.element_space_size %[[T]] : !layout.desc<2x2x3>
  %n   = layout.element_space_size %t : !layout.desc<2x2x3>
  // CHECK: %{{.*}}:3 = layout.upper %[[T]][%[[OFF]]] : !layout.desc<2x2x3>
  %u:3 = layout.upper %t[%off] : !layout.desc<2x2x3>
  return %off, %ok, %n, %u#0, %u#1, %u#2 : index, i1, index, index, index, index
}

// CHECK-LABEL: func @every_transform
func.func @every_transform() {
  %p = layout.packed [3, 4] : !layout.desc<3x4>
  // CHECK: [#layout.pad<3, 1, 1> : [0] -> [0], #layout.right_pad<4, 2> : [1] -> [1]] : !layout.desc<3x4> -> !layout.desc<5x6>
  %t0 = layout.transform %p [#layout.pad<3, 1, 1> : [0] -> [0],
                             #layout.right_pad<4, 2> : [1] -> [1]]
        : !layout.desc<3x4> -> !layout.desc<5x6>
  // CHECK: [#layout.left_pad<3, 2> : [0] -> [0], #layout.slice<4, 1, 3> : [1] -> [1]] : !layout.desc<3x4> -> !layout.desc<5x2>
  %t1 = layout.transform %p [#layout.left_pad<3, 2> : [0] -> [0],
                             #layout.slice<4, 1, 3> : [1] -> [1]]
        : !layout.desc<3x4> -> !layout.desc<5x2>
  // CHECK: [#layout.offset<2, 1> : [0] -> [0], #layout.modulo<4, 16> : [1] -> [1]] : !layout.desc<3x4> -> !layout.desc<2x16>
  %t2 = layout.transform %p [#layout.offset<2, 1> : [0] -> [0],
                             #layout.modulo<4, 16> : [1] -> [1]]
        : !layout.desc<3x4> -> !layout.desc<2x16>
  // CHECK: [#layout.merge<[3, 4]> : [0, 1] -> [0]] : !layout.desc<3x4> -> !layout.desc<12>
  %m = layout.transform %p [#layout.merge<[3, 4]> : [0, 1] -> [0]]
       : !layout.desc<3x4> -> !layout.desc<12>
  // CHECK: [#layout.embed<[2, 3], [4, 1]> : [0] -> [0, 1]] : !layout.desc<12> -> !layout.desc<2x3>
  %e = layout.transform %m [#layout.embed<[2, 3], [4, 1]> : [0] -> [0, 1]]
       : !layout.desc<12> -> !layout.desc<2x3>
  // CHECK: [#layout.replicate<[5]> : [] -> [0], #layout.freeze<2> : [0] -> [], #layout.pass_through<4> : [1] -> [1]] : !layout.desc<3x4> -> !layout.desc<5x4>
  %r = layout.transform %p [#layout.replicate<[5]> : [] -> [0],
                            #layout.freeze<2> : [0] -> [],
                            #layout.pass_through<4> : [1] -> [1]]
       : !layout.desc<3x4> -> !layout.desc<5x4>
  // CHECK: [#layout.xor<[3, 4]> : [0, 1] -> [0, 1]] : !layout.desc<3x4> -> !layout.desc<3x4>
  %x = layout.transform %p [#layout.xor<[3, 4]> : [0, 1] -> [0, 1]]
       : !layout.desc<3x4> -> !layout.desc<3x4>
  // CHECK: [#layout.rotate<[3, 4]> : [0, 1] -> [1, 0]] : !layout.desc<3x4> -> !layout.desc<4x3>
  %rot = layout.transform %p [#layout.rotate<[3, 4]> : [0, 1] -> [1, 0]]
         : !layout.desc<3x4> -> !layout.desc<4x3>
  %q = layout.packed [1024] : !layout.desc<1024>
  // CHECK: [#layout.swizzle<3, 4, 3, 1024> : [0] -> [0]] : !layout.desc<1024> -> !layout.desc<1024>
  %s = layout.transform %q [#layout.swizzle<3, 4, 3, 1024> : [0] -> [0]]
       : !layout.desc<1024> -> !layout.desc<1024>
  %k = layout.packed [16] : !layout.desc<16>
  // CHECK: [#layout.sunder<[6, 10]> : [0] -> [0, 1, 2]] : !layout.desc<16> -> !layout.desc<6x10x2>
  %su = layout.transform %k [#layout.sunder<[6, 10]> : [0] -> [0, 1, 2]]
        : !layout.desc<16> -> !layout.desc<6x10x2>
  return
}

// CHECK-LABEL: func @aliases
/// Attribute aliases stand for transforms inside layout.transform.
// CHECK: layout.transform %{{.*}} [#layout.pad<4, 1, 1> : [0] -> [0], #layout.pass_through<8> : [1] -> [1]] : !layout.desc<4x8> -> !layout.desc<6x8>
// CHECK: layout.transform %{{.*}} [#layout.xor<[6, 8]> : [0, 1] -> [0, 1]] : !layout.desc<6x8> -> !layout.desc<6x8>
#pad1 = #layout.pad<4, 1, 1>
#xor8 = #layout.xor<[6, 8]>
func.func @aliases() {
  %p = layout.packed [4, 8] : !layout.desc<4x8>
  %t = layout.transform %p [#pad1 : [0] -> [0], #layout.pass_through<8> : [1] -> [1]] : !layout.desc<4x8> -> !layout.desc<6x8>
  %x = layout.transform %t [#xor8 : [0, 1] -> [0, 1]] : !layout.desc<6x8> -> !layout.desc<6x8>
  return
}

// CHECK-LABEL: func @coordinates
func.func @coordinates(%i: index, %s: index) -> (index, i1) {
  %p = layout.packed [4, 6] : !layout.desc<4x6>
  %m = layout.transform %p [#layout.merge<[4, 6]> : [0, 1] -> [0]] : !layout.desc<4x6> -> !layout.desc<24>
  // CHECK: layout.make_coord %{{.*}}[%{{.*}}] : !layout.desc<24> -> !layout.coord<24, 3>
  %c = layout.make_coord %m[%i] : !layout.desc<24> -> !layout.coord<24, 3>
  // CHECK: layout.move_coord %{{.*}}, %{{.*}} by [5] : !layout.desc<24>, !layout.coord<24, 3>
  %c1 = layout.move_coord %m, %c by [5] : !layout.desc<24>, !layout.coord<24, 3>
  // CHECK: layout.move_coord %{{.*}}, %{{.*}}[%{{.*}}] : !layout.desc<24>, !layout.coord<24, 3>
  %c2 = layout.move_coord %m, %c1[%s] : !layout.desc<24>, !layout.coord<24, 3>
  // CHECK: layout.coord_offset %{{.*}}, %{{.*}} : !layout.desc<24>, !layout.coord<24, 3>
  %o = layout.coord_offset %m, %c2 : !layout.desc<24>, !layout.coord<24, 3>
  // CHECK: layout.coord_valid %{{.*}}, %{{.*}} : !layout.desc<24>, !layout.coord<24, 3>
  %v = layout.coord_valid %m, %c2 : !layout.desc<24>, !layout.coord<24, 3>
  return %o, %v : index, i1
}

// CHECK-LABEL: func @attributes_alone
/// The attributes also stand alone (e.g. in discardable attributes).
// CHECK-SAME: layout.t = #layout.swizzle<2, 4, -4, 64>
func.func @attributes_alone() attributes {layout.t = #layout.swizzle<2, 4, -4, 64>} {
  return
}

// CHECK-LABEL: func @views
/// The views and partitions of the contract, with every clause.
func.func @views(%m: memref<4x8xi32>, %f: memref<4x11xf32>, %buf: memref<12xf32>, %dyn: memref<?x?xf32>, %i: index, %j: index) {
  // CHECK: layout.view %{{.*}} : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  %v = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  // CHECK: layout.partition %{{.*}} tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  %pv = layout.partition %v tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  // CHECK: layout.index_space %{{.*}} : !layout.partition_view<4x8xi32, tile = [2, 2]>
  %nt:2 = layout.index_space %pv : !layout.partition_view<4x8xi32, tile = [2, 2]>
  // CHECK: layout.load %{{.*}}[%{{.*}}, %{{.*}}] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  %r = layout.load %pv[%i, %j] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  %vf = layout.view %f : memref<4x11xf32> -> !layout.tensor_view<4x11xf32>
  %pf = layout.partition %vf tile [2, 4] : !layout.tensor_view<4x11xf32> -> !layout.partition_view<4x11xf32, tile = [2, 4]>
  // CHECK: layout.load %{{.*}}[%{{.*}}, %{{.*}}] masked padding(nan) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  %q = layout.load %pf[%i, %j] masked padding(nan) : !layout.partition_view<4x11xf32, tile = [2, 4]> -> vector<2x4xf32>
  // CHECK: layout.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  layout.store %r, %pv[%j, %i] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  // CHECK: layout.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
  layout.store %q, %pf[%i, %j] masked : vector<2x4xf32>, !layout.partition_view<4x11xf32, tile = [2, 4]>
  // CHECK: layout.load %{{.*}}[%{{.*}}, %{{.*}}] atomic(acquire, device) : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  %s = layout.load %pv[%i, %i] atomic(acquire, device) : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  // CHECK: layout.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked atomic(seq_cst, system) : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  layout.store %s, %pv[%i, %i] masked atomic(seq_cst, system) : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]] : !layout.desc<2x6> -> !layout.desc<2x2x3>
  // CHECK: layout.view %{{.*}} by %{{.*}} : memref<12xf32>, !layout.desc<2x2x3> -> !layout.tensor_view<2x2x3xf32>
  %w = layout.view %buf by %t : memref<12xf32>, !layout.desc<2x2x3> -> !layout.tensor_view<2x2x3xf32>
  // CHECK: layout.view %{{.*}} : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
  %vd = layout.view %dyn : memref<?x?xf32> -> !layout.tensor_view<?x?xf32>
  // CHECK: layout.partition %{{.*}} tile [3, 5] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [3, 5]>
  %pd = layout.partition %vd tile [3, 5] : !layout.tensor_view<?x?xf32> -> !layout.partition_view<?x?xf32, tile = [3, 5]>
  // CHECK: layout.naive [3, 3] strides [8, 1] offset 2 space 24 : !layout.desc<3x3>
  %n = layout.naive [3, 3] strides [8, 1] offset 2 space 24 : !layout.desc<3x3>
  return
}
