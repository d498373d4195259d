// RUN: layout-opt %s -layout-tile-shared-memory -layout-xor-swizzle=chip=gfx942 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: layout-opt %s -layout-tile-shared-memory -layout-xor-swizzle=chip=sm_90 -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// Tile programs over views of descriptors with run-time lengths, strides
/// and pads (issue 18), distributed by -layout-tile-shared-memory and run
/// on the CPU by -layout-test-gpu-to-loops for several shapes. The kernels
/// are those of test/Transforms/tile-divisibility.mlir, whose IR checks
/// show the vector widths the facts allow (16-byte vectors with the facts,
/// element by element without):
///
///   strided_facts: out[j * ldo + i] = in[i * lda + j] (a transpose through
///     `naive` bases with run-time leading dimensions, lda a multiple of 4
///     and ldo of 8 by `layout.multiple_of`); the gap columns of `out` keep
///     their -1.
///   padded_facts / padded_no_facts: out = packed m x (n + pad), in right-
///     padded by a run-time pad: in[i * lda + j] for j < n, 0 in the pad.
///
/// Expected values index the buffers directly. The shapes keep the facts
/// (a fact is a promise, as an alignment attribute is).

// CHECK: strided_facts 37x70 lda 72 ldo 40: 0 mismatches of 2800
// CHECK: strided_facts 64x64 lda 64 ldo 64: 0 mismatches of 4096
// CHECK: strided_facts 33x5 lda 8 ldo 40: 0 mismatches of 200
// CHECK: padded_facts 37x68 pad 4 lda 72: 0 mismatches of 2664
// CHECK: padded_facts 64x32 pad 32 lda 32: 0 mismatches of 4096
// CHECK: padded_facts 5x4 pad 8 lda 4: 0 mismatches of 60
// CHECK: padded_no_facts 37x70 pad 3 lda 71: 0 mismatches of 2701
// CHECK: padded_no_facts 5x1 pad 6 lda 1: 0 mismatches of 35

!p = !layout.partition_view<?x?xf32, tile = [32, 32]>
module attributes {gpu.container_module} {
gpu.module @dyn {
  gpu.func @strided_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index, %n: index,
      %lda: index {layout.multiple_of = 4 : i64}, %ldo: index {layout.multiple_of = 8 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %da = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %do = layout.naive [%n, %m] strides [%ldo, 1] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    %u = vector.transpose %t, [1, 0] : vector<32x32xf32> to vector<32x32xf32>
    layout.store %u, %po[%bx, %by] masked : vector<32x32xf32>, !p
    gpu.return
  }
  gpu.func @padded_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index,
      %n: index {layout.multiple_of = 4 : i64}, %pad: index {layout.multiple_of = 4 : i64},
      %lda: index {layout.multiple_of = 4 : i64})
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %d0 = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %da = layout.transform %d0 [#layout.pass_through<?> : [0] -> [0],
                                #layout.right_pad<?, ?> : [1] -> [1]]
          args(%m, %n, %pad) : !layout.desc<?x?> -> !layout.desc<?x?>
    %np = arith.addi %n, %pad : index
    %do = layout.packed [%m, %np] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !p
    gpu.return
  }
  gpu.func @padded_no_facts(%in: memref<?xf32>, %out: memref<?xf32>, %m: index,
      %n: index, %pad: index, %lda: index)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %d0 = layout.naive [%m, %n] strides [%lda, 1] : !layout.desc<?x?>
    %da = layout.transform %d0 [#layout.pass_through<?> : [0] -> [0],
                                #layout.right_pad<?, ?> : [1] -> [1]]
          args(%m, %n, %pad) : !layout.desc<?x?> -> !layout.desc<?x?>
    %np = arith.addi %n, %pad : index
    %do = layout.packed [%m, %np] : !layout.desc<?x?>
    %vi = layout.view %in by %da : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %vo = layout.view %out by %do : memref<?xf32>, !layout.desc<?x?> -> !layout.tensor_view<?x?xf32>
    %pi = layout.partition %vi tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %po = layout.partition %vo tile [32, 32] : !layout.tensor_view<?x?xf32> -> !p
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %t = layout.load %pi[%by, %bx] masked : !p -> vector<32x32xf32>
    layout.store %t, %po[%by, %bx] masked : vector<32x32xf32>, !p
    gpu.return
  }
}

}

func.func private @strided_facts_host(memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index)
func.func private @padded_facts_host(memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index)
func.func private @padded_no_facts_host(memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index)

/// Fills `buf` with x + 1 at flat index x.
func.func @iota(%buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = memref.dim %buf, %c0 : memref<?xf32>
  scf.for %x = %c0 to %size step %c1 {
    %x1 = arith.addi %x, %c1 : index
    %xi = arith.index_cast %x1 : index to i64
    %xf = arith.sitofp %xi : i64 to f32
    memref.store %xf, %buf[%x] : memref<?xf32>
  }
  return
}

/// Fills `buf` with `v`.
func.func @fill(%buf: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = memref.dim %buf, %c0 : memref<?xf32>
  scf.for %x = %c0 to %size step %c1 {
    memref.store %v, %buf[%x] : memref<?xf32>
  }
  return
}

func.func @ceil32(%n: index) -> index {
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %a = arith.addi %n, %c31 : index
  %q = arith.divui %a, %c32 : index
  return %q : index
}

/// 1 when a != b, else 0, added to `acc`.
func.func @count(%acc: i64, %a: f32, %b: f32) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %ne = arith.cmpf une, %a, %b : f32
  %inc = arith.select %ne, %one, %zero : i64
  %s = arith.addi %acc, %inc : i64
  return %s : i64
}

/// "<m>x<n> <what> <x> lda <lda>: <bad> mismatches of <total>"
func.func @report(%m: index, %n: index, %x: index, %lda: index, %bad: i64, %total: index, %strided: i1) {
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %xi = arith.index_cast %x : index to i64
  %li = arith.index_cast %lda : index to i64
  %ti = arith.index_cast %total : index to i64
  vector.print %mi : i64 punctuation <no_punctuation>
  vector.print str "x"
  vector.print %ni : i64 punctuation <no_punctuation>
  scf.if %strided {
    vector.print str " lda "
    vector.print %li : i64 punctuation <no_punctuation>
    vector.print str " ldo "
    vector.print %xi : i64 punctuation <no_punctuation>
  } else {
    vector.print str " pad "
    vector.print %xi : i64 punctuation <no_punctuation>
    vector.print str " lda "
    vector.print %li : i64 punctuation <no_punctuation>
  }
  vector.print str ": "
  vector.print %bad : i64 punctuation <no_punctuation>
  vector.print str " mismatches of "
  vector.print %ti : i64
  return
}

func.func @strided(%m: index, %n: index, %lda: index, %ldo: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m1 = arith.constant -1.0 : f32
  %true = arith.constant true
  %sa = arith.muli %m, %lda : index
  %so = arith.muli %n, %ldo : index
  %in = memref.alloc(%sa) : memref<?xf32>
  %out = memref.alloc(%so) : memref<?xf32>
  call @iota(%in) : (memref<?xf32>) -> ()
  call @fill(%out, %m1) : (memref<?xf32>, f32) -> ()
  %gx = call @ceil32(%n) : (index) -> index
  %gy = call @ceil32(%m) : (index) -> index
  call @strided_facts_host(%in, %out, %m, %n, %lda, %ldo, %gx, %gy, %c1) : (memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index) -> ()
  // out[j * ldo + i] = in[i * lda + j] for i < m, -1 for m <= i < ldo.
  %bad = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> (i64) {
    %r = scf.for %i = %c0 to %ldo step %c1 iter_args(%b = %a) -> (i64) {
      %inside = arith.cmpi ult, %i, %m : index
      %expect = scf.if %inside -> (f32) {
        %ia0 = arith.muli %i, %lda : index
        %ia = arith.addi %ia0, %j : index
        %v = memref.load %in[%ia] : memref<?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %m1 : f32
      }
      %io0 = arith.muli %j, %ldo : index
      %io = arith.addi %io0, %i : index
      %got = memref.load %out[%io] : memref<?xf32>
      %s = func.call @count(%b, %expect, %got) : (i64, f32, f32) -> i64
      scf.yield %s : i64
    }
    scf.yield %r : i64
  }
  vector.print str "strided_facts "
  call @report(%m, %n, %ldo, %lda, %bad, %so, %true) : (index, index, index, index, i64, index, i1) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func @padded(%m: index, %n: index, %pad: index, %lda: index, %facts: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %f0 = arith.constant 0.0 : f32
  %m1 = arith.constant -1.0 : f32
  %false = arith.constant false
  %np = arith.addi %n, %pad : index
  %sa = arith.muli %m, %lda : index
  %so = arith.muli %m, %np : index
  %in = memref.alloc(%sa) : memref<?xf32>
  %out = memref.alloc(%so) : memref<?xf32>
  call @iota(%in) : (memref<?xf32>) -> ()
  call @fill(%out, %m1) : (memref<?xf32>, f32) -> ()
  %gx = call @ceil32(%np) : (index) -> index
  %gy = call @ceil32(%m) : (index) -> index
  scf.if %facts {
    func.call @padded_facts_host(%in, %out, %m, %n, %pad, %lda, %gx, %gy, %c1) : (memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index) -> ()
  } else {
    func.call @padded_no_facts_host(%in, %out, %m, %n, %pad, %lda, %gx, %gy, %c1) : (memref<?xf32>, memref<?xf32>, index, index, index, index, index, index, index) -> ()
  }
  // out[i * (n + pad) + j] = in[i * lda + j] for j < n, 0 in the pad.
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%a = %zero) -> (i64) {
    %r = scf.for %j = %c0 to %np step %c1 iter_args(%b = %a) -> (i64) {
      %inside = arith.cmpi ult, %j, %n : index
      %expect = scf.if %inside -> (f32) {
        %ia0 = arith.muli %i, %lda : index
        %ia = arith.addi %ia0, %j : index
        %v = memref.load %in[%ia] : memref<?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %f0 : f32
      }
      %io0 = arith.muli %i, %np : index
      %io = arith.addi %io0, %j : index
      %got = memref.load %out[%io] : memref<?xf32>
      %s = func.call @count(%b, %expect, %got) : (i64, f32, f32) -> i64
      scf.yield %s : i64
    }
    scf.yield %r : i64
  }
  scf.if %facts {
    vector.print str "padded_facts "
  } else {
    vector.print str "padded_no_facts "
  }
  call @report(%m, %n, %pad, %lda, %bad, %so, %false) : (index, index, index, index, i64, index, i1) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c68 = arith.constant 68 : index
  %c70 = arith.constant 70 : index
  %c71 = arith.constant 71 : index
  %c72 = arith.constant 72 : index
  call @strided(%c37, %c70, %c72, %c40) : (index, index, index, index) -> ()
  call @strided(%c64, %c64, %c64, %c64) : (index, index, index, index) -> ()
  call @strided(%c33, %c5, %c8, %c40) : (index, index, index, index) -> ()
  call @padded(%c37, %c68, %c4, %c72, %true) : (index, index, index, index, i1) -> ()
  call @padded(%c64, %c32, %c32, %c32, %true) : (index, index, index, index, i1) -> ()
  call @padded(%c5, %c4, %c8, %c4, %true) : (index, index, index, index, i1) -> ()
  call @padded(%c37, %c70, %c3, %c71, %false) : (index, index, index, index, i1) -> ()
  call @padded(%c5, %c1, %c6, %c1, %false) : (index, index, index, index, i1) -> ()
  return
}
