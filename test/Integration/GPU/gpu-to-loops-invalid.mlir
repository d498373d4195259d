// RUN: layout-opt %s -split-input-file -layout-test-gpu-to-loops -verify-diagnostics

/// What -layout-test-gpu-to-loops cannot run gets a diagnostic at the op.
/// (Barriers and wave-collective ops in scf.for loops with block-uniform
/// bounds run: loops-on-cpu.mlir, ldmatrix-on-cpu.mlir.)

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @no_entry(%a: vector<4xf16>, %c: vector<4xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{has no emulation: no 4x4x4 'f16' instruction with these operand sizes and an f32 accumulator in the matrix-instruction table}}
    %d = amdgpu.mfma 4x4x4 %a * %a + %c {blocks = 16 : i32} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @partial_wave(%a: vector<4xf16>, %c: vector<16xf32>) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    // expected-error @+1 {{runs in waves of 64 lanes, but the block has 96 threads}}
    %d = amdgpu.mfma 32x32x8 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @ldmatrix_partial_warp()
      workgroup(%b: memref<256xf16, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{runs in waves of 32 lanes, but the block has 48 threads}}
    %r = nvgpu.ldmatrix %b[%c0] {numTiles = 4 : i32, transpose = false}
        : memref<256xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @ldmatrix_f32()
      workgroup(%b: memref<256xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has no emulation: ldmatrix loads 16-bit elements, not 'f32'}}
    %r = nvgpu.ldmatrix %b[%c0] {numTiles = 4 : i32, transpose = false}
        : memref<256xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  // expected-error @+1 {{needs known_block_size to run as loops}}
  gpu.func @unknown_block() kernel {
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @thread_bound(%n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %ub = arith.addi %n, %t : index
    // expected-error @+1 {{has a gpu.barrier or a wave-collective op in its body but bounds that are not the same in every thread of a block: it cannot run as loops}}
    scf.for %i = %c0 to %ub step %c1 {
      gpu.barrier
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @memory_bound(%n: memref<1xindex>, %a: vector<4xf16>,
                         %c: vector<16xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ub = memref.load %n[%c0] : memref<1xindex>
    // expected-error @+1 {{has a gpu.barrier or a wave-collective op in its body but bounds that are not the same in every thread of a block: it cannot run as loops}}
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
      %d = amdgpu.mfma 32x32x8 %a * %a + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
      scf.yield %d : vector<16xf32>
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @inner_of_thread_loop(%n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    // The inner loop is uniform, the outer one is not.
    // expected-error @+1 {{has a gpu.barrier or a wave-collective op in its body but bounds that are not the same in every thread of a block: it cannot run as loops}}
    scf.for %i = %c0 to %t step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        gpu.barrier
      }
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @barrier_in_divergent_if(%n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %p = arith.cmpi ult, %t, %n : index
    // expected-error @+1 {{has a gpu.barrier or a wave-collective op in a branch but a condition that is not the same in every thread of a block: it cannot run as loops}}
    scf.if %p {
      gpu.barrier
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @barrier_in_while(%n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %r = scf.while (%i = %c0) : (index) -> index {
      %p = arith.cmpi ult, %i, %n : index
      scf.condition(%p) %i : index
    } do {
    ^bb0(%i: index):
      // expected-error @+1 {{is nested in an op other than a block-uniform scf.for or scf.if: it cannot run as loops}}
      gpu.barrier
      scf.yield %i : index
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @memref_iter_arg(%m: memref<64xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{carries a value from one iteration to the next that cannot be kept in host memory; it cannot run as loops}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %m) -> (memref<64xf32>) {
      gpu.barrier
      scf.yield %x : memref<64xf32>
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @shuffle_width(%m: memref<64xf32>, %w: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %x = memref.load %m[%tid] : memref<64xf32>
    %o = arith.constant 1 : i32
    // expected-error @+1 {{has no emulation: gpu.shuffle needs a constant width from 1 to 64}}
    %r, %v = gpu.shuffle xor %x, %o, %w : f32
    memref.store %r, %m[%tid] : memref<64xf32>
    gpu.return
  }
}
}
