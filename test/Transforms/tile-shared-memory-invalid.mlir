// RUN: layout-opt %s -split-input-file -layout-tile-shared-memory -verify-diagnostics

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @unsupported_op(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %b = gpu.block_id x
    %t = layout.load %pi[%b, %b] : !p -> vector<32x32xf32>
    %f = vector.shape_cast %t : vector<32x32xf32> to vector<1024xf32>
    // expected-error @below {{'vector.shape_cast' op in a cooperative tile copy: only shape casts that add or drop unit dimensions are supported}}
    %s = vector.shape_cast %f : vector<1024xf32> to vector<32x32xf32>
    layout.store %s, %po[%b, %b] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @tile_value_used_per_thread(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{the tile value}}
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    // expected-error @below {{'vector.extract' op uses a cooperative tile value but computes no cooperative tile store's value: tile values may only reach layout.store through vector.transpose, elementwise ops, broadcasts, unit shape casts and reductions}}
    %e = vector.extract %t[0, 0] : f32 from vector<32x32xf32>
    memref.store %e, %out[%c1, %c1] : memref<64x64xf32>
    gpu.return
  }
}

// -----

!p = !layout.partition_view<4x4xf32, tile = [2, 2]>
gpu.module @m {
  gpu.func @dense_constant(%out: memref<4x4xf32>)
      kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %vo = layout.view %out : memref<4x4xf32> -> !layout.tensor_view<4x4xf32>
    %po = layout.partition %vo tile [2, 2] : !layout.tensor_view<4x4xf32> -> !p
    %c0 = arith.constant 0 : index
    // expected-error @below {{in a cooperative tile copy: only splat constants are supported}}
    %z = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
    layout.store %z, %po[%c0, %c0] : vector<2x2xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
!q = !layout.partition_view<64x64xf32, tile = [1, 4]>
gpu.module @m {
  gpu.func @per_thread_load_feeds_cooperative_store(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    // expected-error @below {{per-thread tile load (its indices depend on the thread) feeds a cooperative tile store}}
    %t = layout.load %pi[%tx, %c0] : !p -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
!q = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @cooperative_load_feeds_per_thread_store(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !q
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    // expected-error @below {{cooperative tile load (its indices are the same in every thread): its value must reach a cooperative layout.store through vector.transpose, elementwise ops, splat constants and broadcasts}}
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    layout.store %t, %po[%tx, %c0] : vector<32x32xf32>, !q
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
      // expected-error @below {{cooperative tile store must be in the block of the loads and ops that compute its value}}
      layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    }
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @untraceable_partition(%pi: !p, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    // expected-error @below {{cannot be distributed: the partition view's origin cannot be traced: it is a block argument, not a 'layout.partition'}}
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    layout.store %t, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A block size no chip runs (issue 14: a 0 entry or an overflowing product
/// divided by zero; -1 let -canonicalize delete the body).
!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  // expected-error @below {{'gpu.func' op known_block_size entries must be at least 1, got 0}}
  gpu.func @zero_block(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 0, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A block size no chip runs (issue 14: a 0 entry or an overflowing product
/// divided by zero; -1 let -canonicalize delete the body).
!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  // expected-error @below {{'gpu.func' op known_block_size entries must be at least 1, got -1}}
  gpu.func @negative_block(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: -1, 1, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A block size no chip runs (issue 14: a 0 entry or an overflowing product
/// divided by zero; -1 let -canonicalize delete the body).
!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  // expected-error @below {{'gpu.func' op known_block_size asks for more than 1024 threads per block (the most any supported chip allows)}}
  gpu.func @overflowing_block(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 1073741824, 1073741824, 16>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A block size no chip runs (issue 14: a 0 entry or an overflowing product
/// divided by zero; -1 let -canonicalize delete the body).
!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  // expected-error @below {{'gpu.func' op known_block_size asks for more than 1024 threads per block (the most any supported chip allows)}}
  gpu.func @too_many_threads(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 64, 32, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%c0, %c0] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A cooperative store through a view that is not injective (a replicate
/// stage: every row of the tile is the same 32 elements of memory).
!p = !layout.partition_view<32x32xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @store_replicated(%in: memref<32x32xf32>, %buf: memref<32xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<32x32xf32> -> !layout.tensor_view<32x32xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<32x32xf32> -> !p
    %d = layout.packed [32] : !layout.desc<32>
    %r = layout.transform %d [#layout.replicate<[32]> : [] -> [0], #layout.pass_through<32> : [0] -> [1]] : !layout.desc<32> -> !layout.desc<32x32>
    %vo = layout.view %buf by %r : memref<32xf32>, !layout.desc<32x32> -> !layout.tensor_view<32x32xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<32x32xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    // expected-error @below {{cannot be distributed: a store through a view whose descriptor is not injective: several tile elements could write one memory element (stage 1, #layout.replicate<[32]> : [] -> [0] is not injective}}
    layout.store %u, %po[%c0, %c0] masked : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

/// A tile program in a kernel without known_block_size: the pass cannot
/// distribute it (issue 17); it used to be skipped silently and the pipeline
/// failed later in LLVM translation.
!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  // expected-note @below {{the kernel}}
  gpu.func @no_block_size(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %vo = layout.view %out : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    // expected-error @below {{is a cooperative tile access (its indices are the same in every thread), but its kernel has no known_block_size: set known_block_size = array<i32: x, y, z> on @no_block_size to distribute the tile over its threads}}
    %t = layout.load %pi[%by, %bx] : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%bx, %by] : vector<32x32xf32>, !p
    gpu.return
  }
}

// -----

!p = !layout.partition_view<64x64xf32, tile = [32, 32]>
gpu.module @m {
  gpu.func @reduction_to_scalar(%in: memref<64x64xf32>, %out: memref<64x64xf32>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %vi = layout.view %in : memref<64x64xf32> -> !layout.tensor_view<64x64xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<64x64xf32> -> !p
    %c0 = arith.constant 0 : index
    %t = layout.load %pi[%c0, %c0] : !p -> vector<32x32xf32>
    %z = arith.constant 0.0 : f32
    // expected-error @below {{reduces every dimension of a cooperative tile to a scalar: keep a unit dimension (reduce to vector<1x...>) to store it as a tile}}
    %s = vector.multi_reduction <add>, %t, %z [0, 1] : vector<32x32xf32> to f32
    memref.store %s, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
