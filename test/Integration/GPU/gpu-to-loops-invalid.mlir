// RUN: layout-opt %s -split-input-file -layout-test-gpu-to-loops -verify-diagnostics

/// What -layout-test-gpu-to-loops cannot run gets a diagnostic at the op.

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @nested(%a: vector<4xf16>, %c: vector<16xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
      // expected-error @+1 {{is not at the top level of the kernel body: it cannot run as loops}}
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
  gpu.func @barrier_in_loop(%n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{is not at the top level of the kernel body: it cannot run as loops}}
      gpu.barrier
    }
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
