// RUN: layout-opt %s -layout-tile-shared-memory -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Regression (issue 14): a 32x32 f16 tile whose rows allow only 4-byte
/// vectors, moved by a block of 32x8x4 = 1024 threads (one element each:
/// vector<1xf16> pieces). This once left a vector.from_elements with a null
/// operand. Every element of the 66x64 output is compared with its input
/// element (values distinct modulo 2048); the output starts at -1 so that a
/// missing write counts.

// CHECK: narrow_rows 32x8x4: 0 mismatches of 4224

!n = !layout.partition_view<64x66xf16, tile = [32, 32]>
!o = !layout.partition_view<66x64xf16, tile = [32, 32]>
gpu.module @m {
  gpu.func @narrow_rows(%in: memref<64x66xf16>, %out: memref<66x64xf16>)
      kernel attributes {known_block_size = array<i32: 32, 8, 4>} {
    %vi = layout.view %in : memref<64x66xf16> -> !layout.tensor_view<64x66xf16>
    %vo = layout.view %out : memref<66x64xf16> -> !layout.tensor_view<66x64xf16>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x66xf16> -> !n
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<66x64xf16> -> !o
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !n -> vector<32x32xf16>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf16> to vector<32x32xf16>
    layout.store %u, %po[%bx, %by] masked : vector<32x32xf16>, !o
    gpu.return
  }
}

func.func private @narrow_rows_host(memref<64x66xf16>, memref<66x64xf16>, index, index, index)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c66 = arith.constant 66 : index
  %c2048 = arith.constant 2048 : index
  %m1 = arith.constant -1.0 : f16
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %in = memref.alloc() : memref<64x66xf16>
  %out = memref.alloc() : memref<66x64xf16>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c66 step %c1 {
      %r = arith.muli %i, %c66 : index
      %x = arith.addi %r, %j : index
      %xm = arith.remui %x, %c2048 : index
      %xi = arith.index_cast %xm : index to i64
      %xf = arith.sitofp %xi : i64 to f16
      memref.store %xf, %in[%i, %j] : memref<64x66xf16>
      memref.store %m1, %out[%j, %i] : memref<66x64xf16>
    }
  }
  call @narrow_rows_host(%in, %out, %c3, %c2, %c1) : (memref<64x66xf16>, memref<66x64xf16>, index, index, index) -> ()
  %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%a = %zero) -> (i64) {
    %m = scf.for %j = %c0 to %c66 step %c1 iter_args(%b = %a) -> (i64) {
      %x = memref.load %in[%i, %j] : memref<64x66xf16>
      %y = memref.load %out[%j, %i] : memref<66x64xf16>
      %ne = arith.cmpf une, %x, %y : f16
      %inc = arith.select %ne, %one, %zero : i64
      %s = arith.addi %b, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  vector.print str "narrow_rows 32x8x4: "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of 4224\n"
  memref.dealloc %in : memref<64x66xf16>
  memref.dealloc %out : memref<66x64xf16>
  return
}
