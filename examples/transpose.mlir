// Transposes through workgroup memory, written with layout descriptors.
//
// Each kernel moves one 32x32 tile per block of 32x8 threads: it reads the
// tile along the input's rows (consecutive lanes, consecutive addresses),
// stores it in workgroup memory through the descriptor %tile, waits at the
// barrier, and writes the output along its rows, i.e. the input's columns.
// Any shape works: the extents are dynamic and the edge tiles are masked.
//
//   transpose_f32 / transpose_f16: out[j, i] = in[i, j]
//   transpose_batched_f32:         out[b, j, i] = in[b, i, j] (grid z = b)
//
// As written, the tile is plain row-major and the column reads of the
// second phase conflict in every bank (-layout-analyze-bank-conflicts says
// how much per target); -layout-xor-swizzle rewrites %tile so that no
// access conflicts. Compile (README):
//
//   layout-opt examples/transpose.mlir -layout-xor-swizzle=chip=gfx942 \
//     -layout-to-rocdl=chip=gfx942 -layout-dump-binaries=dir=out
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      // The tile in workgroup memory: 32x32 row-major, as a descriptor
      // (-layout-xor-swizzle rewrites it).
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      // Read the input tile along its rows (coalesced), masked at the edges.
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %syin = arith.cmpi ult, %sy, %rows : index
        %in_bounds = arith.andi %sxin, %syin : i1
        scf.if %in_bounds {
          %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<32x32>
          memref.store %v, %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Write the output tile along its rows: the input's columns.
      %dx = arith.addi %y0, %tx : index
      %dxin = arith.cmpi ult, %dx, %rows : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %dyin = arith.cmpi ult, %dy, %cols : index
        %in_bounds = arith.andi %dxin, %dyin : i1
        scf.if %in_bounds {
          %o = layout.offset %tile[%tx, %r] : !layout.desc<32x32>
          %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
          memref.store %v, %out[%dy, %dx] : memref<?x?xf32>
        }
      }
      gpu.return
    }

    gpu.func @transpose_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>)
        workgroup(%buf: memref<1024xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      // The tile in workgroup memory: 32x32 row-major, as a descriptor
      // (-layout-xor-swizzle rewrites it).
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf16>
      %cols = memref.dim %in, %c1 : memref<?x?xf16>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      // Read the input tile along its rows (coalesced), masked at the edges.
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %syin = arith.cmpi ult, %sy, %rows : index
        %in_bounds = arith.andi %sxin, %syin : i1
        scf.if %in_bounds {
          %v = memref.load %in[%sy, %sx] : memref<?x?xf16>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<32x32>
          memref.store %v, %buf[%o] : memref<1024xf16, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Write the output tile along its rows: the input's columns.
      %dx = arith.addi %y0, %tx : index
      %dxin = arith.cmpi ult, %dx, %rows : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %dyin = arith.cmpi ult, %dy, %cols : index
        %in_bounds = arith.andi %dxin, %dyin : i1
        scf.if %in_bounds {
          %o = layout.offset %tile[%tx, %r] : !layout.desc<32x32>
          %v = memref.load %buf[%o] : memref<1024xf16, #gpu.address_space<workgroup>>
          memref.store %v, %out[%dy, %dx] : memref<?x?xf16>
        }
      }
      gpu.return
    }

    gpu.func @transpose_batched_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      // The tile in workgroup memory: 32x32 row-major, as a descriptor
      // (-layout-xor-swizzle rewrites it).
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %rows = memref.dim %in, %c1 : memref<?x?x?xf32>
      %cols = memref.dim %in, %c2 : memref<?x?x?xf32>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      // Read the input tile along its rows (coalesced), masked at the edges.
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %syin = arith.cmpi ult, %sy, %rows : index
        %in_bounds = arith.andi %sxin, %syin : i1
        scf.if %in_bounds {
          %v = memref.load %in[%bz, %sy, %sx] : memref<?x?x?xf32>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<32x32>
          memref.store %v, %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Write the output tile along its rows: the input's columns.
      %dx = arith.addi %y0, %tx : index
      %dxin = arith.cmpi ult, %dx, %rows : index
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %r : index
        %dyin = arith.cmpi ult, %dy, %cols : index
        %in_bounds = arith.andi %dxin, %dyin : i1
        scf.if %in_bounds {
          %o = layout.offset %tile[%tx, %r] : !layout.desc<32x32>
          %v = memref.load %buf[%o] : memref<1024xf32, #gpu.address_space<workgroup>>
          memref.store %v, %out[%bz, %dy, %dx] : memref<?x?x?xf32>
        }
      }
      gpu.return
    }
  }
}
