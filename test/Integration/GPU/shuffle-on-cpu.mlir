// RUN: layout-opt %s -layout-test-gpu-to-loops -layout-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

/// gpu.shuffle on the CPU: -layout-test-gpu-to-loops runs it once per group
/// of `width` lanes (ShuffleEmulation.cpp). 128 threads shuffle f32, i32
/// and vector<2xf32> values (lane t holds 3t + 1, 7t + 2, and (3t + 1,
/// 3t + 1.5)) in every mode, widths 32 and 64; the host computes each
/// lane's source from the gpu dialect's description (group base b = t - t
/// mod w, k = t mod w; xor k ^ o, down k + o, up k - o, idx o; valid when
/// the source is in [0, w)) and compares the valid flags, and the values
/// where valid. A source formula off by one lane fails every case.

// CHECK: xor 1 w32: 0 mismatches of 128
// CHECK: xor 16 w32: 0 mismatches of 128
// CHECK: down 3 w32: 0 mismatches of 128
// CHECK: up 5 w32: 0 mismatches of 128
// CHECK: idx 7 w32: 0 mismatches of 128
// CHECK: xor 32 w64: 0 mismatches of 128
// CHECK: down 3 w64 i32: 0 mismatches of 128
// CHECK: xor 2 w32 vector<2xf32>: 0 mismatches of 128

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @shuffles(%out: memref<8x128xf32>, %ok: memref<8x128xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    %t64 = arith.index_cast %tid : index to i64
    %c3 = arith.constant 3 : i64
    %c7 = arith.constant 7 : i64
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %t3 = arith.muli %t64, %c3 : i64
    %t31 = arith.addi %t3, %c1 : i64
    %f = arith.sitofp %t31 : i64 to f32
    %t7 = arith.muli %t64, %c7 : i64
    %t72 = arith.addi %t7, %c2 : i64
    %i = arith.trunci %t72 : i64 to i32
    %half = arith.constant 0.5 : f32
    %f5 = arith.addf %f, %half : f32
    %v0 = vector.broadcast %f : f32 to vector<2xf32>
    %v = vector.insert %f5, %v0[1] : f32 into vector<2xf32>
    %o1 = arith.constant 1 : i32
    %o2 = arith.constant 2 : i32
    %o3 = arith.constant 3 : i32
    %o5 = arith.constant 5 : i32
    %o7 = arith.constant 7 : i32
    %o16 = arith.constant 16 : i32
    %o32 = arith.constant 32 : i32
    %w32 = arith.constant 32 : i32
    %w64 = arith.constant 64 : i32
    %r0, %k0 = gpu.shuffle xor %f, %o1, %w32 : f32
    %r1, %k1 = gpu.shuffle xor %f, %o16, %w32 : f32
    %r2, %k2 = gpu.shuffle down %f, %o3, %w32 : f32
    %r3, %k3 = gpu.shuffle up %f, %o5, %w32 : f32
    %r4, %k4 = gpu.shuffle idx %f, %o7, %w32 : f32
    %r5, %k5 = gpu.shuffle xor %f, %o32, %w64 : f32
    %r6i, %k6 = gpu.shuffle down %i, %o3, %w64 : i32
    %r6 = arith.sitofp %r6i : i32 to f32
    %r7v, %k7 = gpu.shuffle xor %v, %o2, %w32 : vector<2xf32>
    %r7 = vector.extract %r7v[1] : f32 from vector<2xf32>
    %c0i = arith.constant 0 : index
    %c1i = arith.constant 1 : index
    %c2i = arith.constant 2 : index
    %c3i = arith.constant 3 : index
    %c4i = arith.constant 4 : index
    %c5i = arith.constant 5 : index
    %c6i = arith.constant 6 : index
    %c7i = arith.constant 7 : index
    memref.store %r0, %out[%c0i, %tid] : memref<8x128xf32>
    memref.store %r1, %out[%c1i, %tid] : memref<8x128xf32>
    memref.store %r2, %out[%c2i, %tid] : memref<8x128xf32>
    memref.store %r3, %out[%c3i, %tid] : memref<8x128xf32>
    memref.store %r4, %out[%c4i, %tid] : memref<8x128xf32>
    memref.store %r5, %out[%c5i, %tid] : memref<8x128xf32>
    memref.store %r6, %out[%c6i, %tid] : memref<8x128xf32>
    memref.store %r7, %out[%c7i, %tid] : memref<8x128xf32>
    %b0 = arith.extui %k0 : i1 to i32
    %b1 = arith.extui %k1 : i1 to i32
    %b2 = arith.extui %k2 : i1 to i32
    %b3 = arith.extui %k3 : i1 to i32
    %b4 = arith.extui %k4 : i1 to i32
    %b5 = arith.extui %k5 : i1 to i32
    %b6 = arith.extui %k6 : i1 to i32
    %b7 = arith.extui %k7 : i1 to i32
    memref.store %b0, %ok[%c0i, %tid] : memref<8x128xi32>
    memref.store %b1, %ok[%c1i, %tid] : memref<8x128xi32>
    memref.store %b2, %ok[%c2i, %tid] : memref<8x128xi32>
    memref.store %b3, %ok[%c3i, %tid] : memref<8x128xi32>
    memref.store %b4, %ok[%c4i, %tid] : memref<8x128xi32>
    memref.store %b5, %ok[%c5i, %tid] : memref<8x128xi32>
    memref.store %b6, %ok[%c6i, %tid] : memref<8x128xi32>
    memref.store %b7, %ok[%c7i, %tid] : memref<8x128xi32>
    gpu.return
  }
}

func.func private @shuffles_host(memref<8x128xf32>, memref<8x128xi32>, index,
                                 index, index)

// Case c's mode (0 xor, 1 down, 2 up, 3 idx), offset, width and value kind
// (0: 3t + 1, 1: 7t + 2, 2: 3t + 1.5).
func.func @case(%c: index) -> (index, index, index, index) {
  %r:4 = scf.index_switch %c -> index, index, index, index
  case 0 { %m = arith.constant 0 : index
           %o = arith.constant 1 : index
           %w = arith.constant 32 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 1 { %m = arith.constant 0 : index
           %o = arith.constant 16 : index
           %w = arith.constant 32 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 2 { %m = arith.constant 1 : index
           %o = arith.constant 3 : index
           %w = arith.constant 32 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 3 { %m = arith.constant 2 : index
           %o = arith.constant 5 : index
           %w = arith.constant 32 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 4 { %m = arith.constant 3 : index
           %o = arith.constant 7 : index
           %w = arith.constant 32 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 5 { %m = arith.constant 0 : index
           %o = arith.constant 32 : index
           %w = arith.constant 64 : index
           %k = arith.constant 0 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  case 6 { %m = arith.constant 1 : index
           %o = arith.constant 3 : index
           %w = arith.constant 64 : index
           %k = arith.constant 1 : index
           scf.yield %m, %o, %w, %k : index, index, index, index }
  default { %m = arith.constant 0 : index
            %o = arith.constant 2 : index
            %w = arith.constant 32 : index
            %k = arith.constant 2 : index
            scf.yield %m, %o, %w, %k : index, index, index, index }
  return %r#0, %r#1, %r#2, %r#3 : index, index, index, index
}

// The mismatches of case c: lanes whose valid flag differs from the
// description's, or whose value does where valid.
func.func @check(%c: index, %out: memref<8x128xf32>, %ok: memref<8x128xi32>)
    -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c128 = arith.constant 128 : index
  %mode, %off, %w, %kind = func.call @case(%c) : (index) -> (index, index, index, index)
  %bad = scf.for %t = %c0 to %c128 step %c1 iter_args(%n = %c0) -> (index) {
    %k = arith.remui %t, %w : index
    %base = arith.subi %t, %k : index
    %xor = arith.xori %k, %off : index
    %down = arith.addi %k, %off : index
    %up = arith.subi %k, %off : index
    %src = scf.index_switch %mode -> index
    case 0 { scf.yield %xor : index }
    case 1 { scf.yield %down : index }
    case 2 { scf.yield %up : index }
    default { scf.yield %off : index }
    %ge = arith.cmpi sge, %src, %c0 : index
    %lt = arith.cmpi slt, %src, %w : index
    %valid = arith.andi %ge, %lt : i1
    %from = arith.addi %base, %src : index
    %from64 = arith.index_cast %from : index to i64
    %i64 = arith.index_cast %c3 : index to i64
    %p = arith.muli %from64, %i64 : i64
    %one = arith.constant 1 : i64
    %p1 = arith.addi %p, %one : i64
    %seven = arith.index_cast %c7 : index to i64
    %q = arith.muli %from64, %seven : i64
    %two = arith.constant 2 : i64
    %q2 = arith.addi %q, %two : i64
    %fp = arith.sitofp %p1 : i64 to f32
    %fq = arith.sitofp %q2 : i64 to f32
    %halfc = arith.constant 0.5 : f32
    %fh = arith.addf %fp, %halfc : f32
    %want = scf.index_switch %kind -> f32
    case 0 { scf.yield %fp : f32 }
    case 1 { scf.yield %fq : f32 }
    default { scf.yield %fh : f32 }
    %got = memref.load %out[%c, %t] : memref<8x128xf32>
    %flag = memref.load %ok[%c, %t] : memref<8x128xi32>
    %want32 = arith.extui %valid : i1 to i32
    %flagBad = arith.cmpi ne, %flag, %want32 : i32
    %valueBad0 = arith.cmpf une, %got, %want : f32
    %valueBad = arith.andi %valid, %valueBad0 : i1
    %isBad = arith.ori %flagBad, %valueBad : i1
    %inc = arith.select %isBad, %c1, %c0 : index
    %n2 = arith.addi %n, %inc : index
    scf.yield %n2 : index
  }
  return %bad : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = memref.alloc() : memref<8x128xf32>
  %ok = memref.alloc() : memref<8x128xi32>
  call @shuffles_host(%out, %ok, %c1, %c1, %c1)
      : (memref<8x128xf32>, memref<8x128xi32>, index, index, index) -> ()
  %names = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %n0 = func.call @check(%c0, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "xor 1 w32: "
  vector.print %n0 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n1 = func.call @check(%c1, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "xor 16 w32: "
  vector.print %n1 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n2 = func.call @check(%c2, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "down 3 w32: "
  vector.print %n2 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n3 = func.call @check(%c3, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "up 5 w32: "
  vector.print %n3 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n4 = func.call @check(%c4, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "idx 7 w32: "
  vector.print %n4 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n5 = func.call @check(%c5, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "xor 32 w64: "
  vector.print %n5 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n6 = func.call @check(%c6, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "down 3 w64 i32: "
  vector.print %n6 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  %n7 = func.call @check(%c7, %out, %ok) : (index, memref<8x128xf32>, memref<8x128xi32>) -> index
  vector.print str "xor 2 w32 vector<2xf32>: "
  vector.print %n7 : index punctuation <no_punctuation>
  vector.print str " mismatches of 128\n"
  memref.dealloc %out : memref<8x128xf32>
  memref.dealloc %ok : memref<8x128xi32>
  return
}
}
