// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -verify-diagnostics

!p = !layout.partition_view<30x30xf32, tile = [30, 30]>
gpu.module @m {
  gpu.func @block_does_not_divide(%in: memref<30x30xf32>, %out: memref<30x30xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<30x30xf32> -> !layout.tensor_view<30x30xf32>
    %pi = layout.partition %vi tile [30, 30] : !layout.tensor_view<30x30xf32> -> !p
    %vo = layout.view %out : memref<30x30xf32> -> !layout.tensor_view<30x30xf32>
    %po = layout.partition %vo tile [30, 30] : !layout.tensor_view<30x30xf32> -> !p
    %c0 = arith.constant 0 : index
    // expected-error @below {{cooperative tile of 30x30 elements: a block of 256 threads does not divide it into equal parts}}
    %t = layout.load %pi[%c0, %c0] : !p -> vector<30x30xf32>
    %u = vector.transpose %t, [1, 0] : vector<30x30xf32> to vector<30x30xf32>
    layout.store %u, %po[%c0, %c0] : vector<30x30xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @other_use(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %b = gpu.block_id x
    // expected-error @below {{cooperative tile load: its value reaches 'arith.negf'; only vector.transpose and layout.store are supported}}
    %t = layout.load %pi[%b, %b] : !p -> vector<32x32xf32>
    %s = arith.negf %t : vector<32x32xf32>
    layout.store %s, %po[%b, %b] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @two_uses(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @below {{cooperative tile load (its indices are the same in every thread): its value must have one use, a layout.store or a vector.transpose}}
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    layout.store %t, %po[%c1, %c1] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @store_of_a_constant(%out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<0.0> : vector<32x32xf32>
    // expected-error @below {{cooperative tile store (its indices are the same in every thread): its value must come from a cooperative layout.load through vector.transpose ops only}}
    layout.store %z, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @atomic(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    // expected-error @below {{atomic cooperative tile loads are not supported}}
    %t = layout.load %pi[%c0, %c0] atomic(acquire, device) : !p -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @atomic_store(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    // expected-error @below {{atomic cooperative tile stores are not supported}}
    layout.store %t, %po[%c0, %c0] atomic(release, device) : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @store_in_another_block(%in: memref<64x64xf32>, %out: memref<64x64xf32>, %c: i1)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    scf.if %c {
      // expected-error @below {{cooperative tile store must be in the block of its load}}
      layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    }
    gpu.return
  }
}
