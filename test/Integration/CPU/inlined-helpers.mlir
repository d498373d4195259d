// RUN: layout-opt %s -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: layout-opt %s -inline | FileCheck %s --check-prefix=INLINED

/// Helper functions that take a partition view (docs/views.md's @tile_1_2,
/// @copy and @store_1_3) lower through -layout-to-llvm: the pipeline
/// inlines them into @main, where the view is traced to its memref. The
/// seed's 4x8 tensor holds 0..31; the values below are worked out by hand
/// from the seed (tile (1, 2) is rows 2-3, columns 4-5).

// INLINED-LABEL: func.func @main
// INLINED-NOT: call @
// INLINED: layout.load
// INLINED-NOT: call @

func.func private @tile_1_2(%pv: !layout.partition_view<4x8xi32, tile = [2, 2]>)
    -> vector<2x2xi32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = layout.load %pv[%c1, %c2]
       : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  return %r : vector<2x2xi32>
}

func.func private @copy(%from: !layout.partition_view<4x8xi32, tile = [2, 2]>,
                        %to: !layout.partition_view<4x8xi32, tile = [2, 2]>,
                        %i: index, %j: index) {
  %r = layout.load %from[%i, %j] : !layout.partition_view<4x8xi32, tile = [2, 2]> -> vector<2x2xi32>
  layout.store %r, %to[%i, %j] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

func.func private @store_1_3(%pv: !layout.partition_view<4x8xi32, tile = [2, 2]>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = arith.constant dense<[[0, 100], [200, 300]]> : vector<2x2xi32>
  layout.store %a, %pv[%c1, %c3] : vector<2x2xi32>, !layout.partition_view<4x8xi32, tile = [2, 2]>
  return
}

func.func @main() {
  %m = memref.alloc() : memref<4x8xi32>
  %n = memref.alloc() : memref<4x8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0_i32 = arith.constant 0 : i32
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %c = %c0 to %c8 step %c1 {
      %rc = arith.muli %r, %c8 : index
      %e = arith.addi %rc, %c : index
      %v = arith.index_cast %e : index to i32
      memref.store %v, %m[%r, %c] : memref<4x8xi32>
      memref.store %c0_i32, %n[%r, %c] : memref<4x8xi32>
    }
  }
  %vm = layout.view %m : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  %pm = layout.partition %vm tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>
  %vn = layout.view %n : memref<4x8xi32> -> !layout.tensor_view<4x8xi32>
  %pn = layout.partition %vn tile [2, 2] : !layout.tensor_view<4x8xi32> -> !layout.partition_view<4x8xi32, tile = [2, 2]>

  // CHECK: ( ( 20, 21 ), ( 28, 29 ) )
  %t = func.call @tile_1_2(%pm) : (!layout.partition_view<4x8xi32, tile = [2, 2]>) -> vector<2x2xi32>
  vector.print %t : vector<2x2xi32>

  // Tile (0, 3) of m copied into n: n's row 1 ends 14, 15.
  // CHECK: ( 0, 0, 0, 0, 0, 0, 14, 15 )
  %c3 = arith.constant 3 : index
  func.call @copy(%pm, %pn, %c0, %c3) : (!layout.partition_view<4x8xi32, tile = [2, 2]>, !layout.partition_view<4x8xi32, tile = [2, 2]>, index, index) -> ()
  %row1 = vector.transfer_read %n[%c1, %c0], %c0_i32 : memref<4x8xi32>, vector<8xi32>
  vector.print %row1 : vector<8xi32>

  // The seed's store: rows 2 and 3 end 0, 100 and 200, 300.
  // CHECK: ( 16, 17, 18, 19, 20, 21, 0, 100 )
  // CHECK: ( 24, 25, 26, 27, 28, 29, 200, 300 )
  func.call @store_1_3(%pm) : (!layout.partition_view<4x8xi32, tile = [2, 2]>) -> ()
  %c2 = arith.constant 2 : index
  %row2 = vector.transfer_read %m[%c2, %c0], %c0_i32 : memref<4x8xi32>, vector<8xi32>
  vector.print %row2 : vector<8xi32>
  %row3 = vector.transfer_read %m[%c3, %c0], %c0_i32 : memref<4x8xi32>, vector<8xi32>
  vector.print %row3 : vector<8xi32>
  memref.dealloc %m : memref<4x8xi32>
  memref.dealloc %n : memref<4x8xi32>
  return
}
