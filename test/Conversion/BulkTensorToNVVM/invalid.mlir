// RUN: layout-opt %s -split-input-file -verify-diagnostics -layout-bulk-tensor-to-nvvm
// TMA copies the lowering refuses: what the launcher cannot encode, what
// the unit cannot write where the descriptor says, and a kernel whose
// signature would change under a launch of the same module.

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
// The source is a cast of the argument, not the argument.
gpu.module @m {
  gpu.func @cast(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.cast %A : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
    %d = layout.packed [128, 64] : !layout.desc<128x64>
    // expected-error @+1 {{source must be a memref argument of the kernel (the launcher encodes its tensor map from the memref it passes)}}
    layout.bulk_tensor_load %s[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16, strided<[?, 1], offset: ?>>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<9216xf16, #gpu.address_space<workgroup>>
// Rows padded to 72 elements: no mode writes 144-byte rows.
gpu.module @m {
  gpu.func @padded(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.naive [128, 64] strides [72, 1] : !layout.desc<128x64>
    // expected-error @+1 {{its box cannot be written by TMA where the descriptor says: it matches no swizzle mode of TMA (128B: box element 72 at (1, 8) is at byte 160; the copy writes byte 128; 64B: the box's rows are 128 bytes, not 64; 32B: the box's rows are 128 bytes, not 32; none: box element 64 at (1, 0) is at byte 144; the copy writes byte 128)}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
// The 128B layout in a buffer aligned to 256 bytes only.
gpu.module @m {
  gpu.func @misaligned(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 256 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %p = layout.packed [128, 64] : !layout.desc<128x64>
    %m = layout.transform %p [#layout.merge<[128, 64]> : [0, 1] -> [0]] : !layout.desc<128x64> -> !layout.desc<8192>
    %s = layout.transform %m [#layout.swizzle<3, 3, 3, 8192> : [0] -> [0]] : !layout.desc<8192> -> !layout.desc<8192>
    %d = layout.transform %s [#layout.unmerge<[128, 64]> : [0] -> [0, 1]] : !layout.desc<8192> -> !layout.desc<128x64>
    // expected-error @+1 {{dest must start at a multiple of 1024 bytes (TMA's 128, and the 128B swizzle's pattern), but its base is known aligned only to 256 (give the workgroup attribution llvm.align = 1024)}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
// Launched from the same module: its signature would change.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @launched(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
      %c0 = arith.constant 0 : index
      %d = layout.packed [128, 64] : !layout.desc<128x64>
      // expected-error @+1 {{cannot add the kernel's tensor-map parameters: 'launched' is launched by a gpu.launch_func of this module; TMA kernels are launched through the tensor-map ABI (docs/tensor-maps.md)}}
      layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
      gpu.return
    }
  }
  func.func @host(%A: memref<?x?xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@launched blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<?x?xf16>)
    return
  }
}

// -----

// Malformed on their own (the verifiers).
!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%A: memref<?x?xf16>, %G: memref<4xi64>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [128, 64] : !layout.desc<128x64>
    // expected-error @+1 {{box extents must be in [1, 256] (TMA), got 512}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 512, 16>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [128, 64] : !layout.desc<128x64>
    // expected-error @+1 {{dest_dims must be different top dimensions of the descriptor (rank 2)}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 1, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<8192xf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%A: memref<?x?xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [128, 64] : !layout.desc<128x64>
    // expected-error @+1 {{the descriptor is 64 long along top dimension 1, shorter than the box's 128}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 128>, dest_dims = array<i64: 0, 1>} : memref<?x?xf16>, !buf, !layout.desc<128x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%G: memref<4xi64>) workgroup(%bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{arrivals must be in [1, 1048575] (PTX mbarrier counts), got 0}}
    layout.mbarrier_init %bars[%c0] arrivals 0 : !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%G: memref<4xi64>) workgroup(%bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{bytes must be in [1, 1048575] (PTX mbarrier counts), got 2097152}}
    layout.mbarrier_arrive_expect_tx %bars[%c0] bytes 2097152 : !bars
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @ops(%G: memref<4xi64>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{barriers must be a workgroup-memory buffer of 64-bit mbarriers, got 'memref<4xi64>'}}
    layout.mbarrier_wait %G[%c0] parity %c0 : memref<4xi64>
    gpu.return
  }
}

// -----

// A constant barrier index past the buffer (found by the fuzzer: the
// backend cannot select the out-of-bounds address).
!bars = memref<1xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @ops(%G: memref<4xi64>) workgroup(%bars: !bars) kernel {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{barrier index 1 is outside the 1 barriers of 'memref<1xi64, #gpu.address_space<workgroup>>'}}
    layout.mbarrier_arrive_expect_tx %bars[%c1] bytes 32 : !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<4096xf16, #gpu.address_space<workgroup>>
// im2col on a rank-2 source: no spatial dimensions.
gpu.module @m {
  gpu.func @im2col_rank2(%A: memref<64x64xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [64, 64] : !layout.desc<64x64>
    // expected-error @+1 {{im2col needs a source of rank 3 to 5 (N, spatial dimensions, C), got rank 2}}
    layout.bulk_tensor_load %A[%c0, %c0] im2col[%c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>, lower_corner = array<i64: 0>, upper_corner = array<i64: 0>, traversal_strides = array<i64: 1>} : memref<64x64xf16>, !buf, !layout.desc<64x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<4096xf16, #gpu.address_space<workgroup>>
// A rank-4 im2col map's corners are 8-bit.
gpu.module @m {
  gpu.func @im2col_corner(%x: memref<2x300x300x64xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [64, 64] : !layout.desc<64x64>
    // expected-error @+1 {{a rank-4 im2col corner must be in [-128, 127], got -200}}
    layout.bulk_tensor_load %x[%c0, %c0, %c0, %c0] im2col[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>, lower_corner = array<i64: -200, -1>, upper_corner = array<i64: -1, -1>, traversal_strides = array<i64: 1, 1>} : memref<2x300x300x64xf16>, !buf, !layout.desc<64x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<4096xf16, #gpu.address_space<workgroup>>
// im2col without its bounding box; and the corners on a tiled copy.
gpu.module @m {
  gpu.func @im2col_no_box(%x: memref<2x8x8x64xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [64, 64] : !layout.desc<64x64>
    // expected-error @+1 {{im2col needs lower_corner, upper_corner and traversal_strides of 2 entries each}}
    layout.bulk_tensor_load %x[%c0, %c0, %c0, %c0] im2col[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>} : memref<2x8x8x64xf16>, !buf, !layout.desc<64x64>, !bars
    gpu.return
  }
}

// -----

!bars = memref<1xi64, #gpu.address_space<workgroup>>
!buf = memref<4096xf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @tiled_corners(%A: memref<64x64xf16>) workgroup(%buf: !buf {llvm.align = 1024 : i64}, %bars: !bars) kernel {
    %c0 = arith.constant 0 : index
    %d = layout.packed [64, 64] : !layout.desc<64x64>
    // expected-error @+1 {{lower_corner, upper_corner and traversal_strides belong to the im2col form (im2col [offsets])}}
    layout.bulk_tensor_load %A[%c0, %c0], %buf[%d : %c0, %c0], %bars[%c0] {box = array<i64: 64, 64>, dest_dims = array<i64: 0, 1>, lower_corner = array<i64: 0>} : memref<64x64xf16>, !buf, !layout.desc<64x64>, !bars
    gpu.return
  }
}
