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
//   transpose_wide_f32 / _f16:     out[j, i] = in[i, j], 64x64 tiles, two
//                                  elements per thread and access
//   transpose_wide4_f16:           the same with 128x128 tiles and four
//                                  elements per thread and access
//   transpose_tall_f32 / tall256:  128x32 / 256x32 tiles: long output row
//                                  segments for shapes whose rows are
//                                  unaligned
//   transpose_skew_f32:            odd shapes: 128x32 tiles whose output
//                                  windows start on 32-byte sectors
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

    // transpose_wide_f32: a 64x64 tile per block of 32x8 threads, two elements per
    // thread and access: 8-byte vector loads along the input's rows
    // and 8-byte vector stores along the output's. Full tiles of even
    // extents (aligned rows) take the vector path; edge tiles fall back to
    // masked scalar accesses of the same tile.
    //
    // A lane's 8-byte vector holds an even and an odd column, so any
    // swizzle that keeps vectors whole leaves an element's bank parity to
    // its column: 32 lanes reading one column reach only 16 banks (2-way).
    // The upper half-warp (h = tx / 16 = 1) therefore takes the neighbour
    // column, q xor 1, on the way out and its elements in the other order
    // on the masked path, so a half-warp's parities differ from the other's
    // and a swizzle can reach every bank.
    gpu.func @transpose_wide_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%buf: memref<4096xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %tile = layout.packed [64, 64] : !layout.desc<64x64>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %x0 = arith.muli %bx, %c64 : index
      %y0 = arith.muli %by, %c64 : index
      %xe = arith.addi %x0, %c64 : index
      %ye = arith.addi %y0, %c64 : index
      %xfull = arith.cmpi ule, %xe, %cols : index
      %yfull = arith.cmpi ule, %ye, %rows : index
      %crem = arith.remui %cols, %c2 : index
      %rrem = arith.remui %rows, %c2 : index
      %ceven = arith.cmpi eq, %crem, %c0 : index
      %reven = arith.cmpi eq, %rrem, %c0 : index
      %f0 = arith.andi %xfull, %yfull : i1
      %f1 = arith.andi %ceven, %reven : i1
      %full = arith.andi %f0, %f1 : i1
      %c2tx = arith.muli %tx, %c2 : index
      %c16 = arith.constant 16 : index
      %h = arith.divui %tx, %c16 : index
      scf.if %full {
        scf.for %k = %c0 to %c64 step %c8 {
          %r = arith.addi %ty, %k : index
          %sy = arith.addi %y0, %r : index
          %sx = arith.addi %x0, %c2tx : index
          %v = vector.load %in[%sy, %sx] {alignment = 8} : memref<?x?xf32>, vector<2xf32>
          %o = layout.offset %tile[%r, %c2tx] : !layout.desc<64x64>
          vector.store %v, %buf[%o] {alignment = 8} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<2xf32>
        }
      } else {
        scf.for %k = %c0 to %c64 step %c8 {
          scf.for %i = %c0 to %c2 step %c1 {
            %r = arith.addi %ty, %k : index
            %ih = arith.xori %i, %h : index
            %c = arith.addi %c2tx, %ih : index
            %sy = arith.addi %y0, %r : index
            %sx = arith.addi %x0, %c : index
            %yin = arith.cmpi ult, %sy, %rows : index
            %xin = arith.cmpi ult, %sx, %cols : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
              %o = layout.offset %tile[%r, %c] : !layout.desc<64x64>
              memref.store %v, %buf[%o] : memref<4096xf32, #gpu.address_space<workgroup>>
            }
          }
        }
      }
      gpu.barrier
      %c2tx1 = arith.addi %c2tx, %c1 : index
      scf.if %full {
        scf.for %k = %c0 to %c64 step %c8 {
          %u = arith.addi %ty, %k : index
          %q = arith.xori %u, %h : index
          %o0 = layout.offset %tile[%c2tx, %q] : !layout.desc<64x64>
          %o1 = layout.offset %tile[%c2tx1, %q] : !layout.desc<64x64>
          %a = memref.load %buf[%o0] : memref<4096xf32, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%o1] : memref<4096xf32, #gpu.address_space<workgroup>>
          %v = vector.from_elements %a, %b : vector<2xf32>
          %dy = arith.addi %x0, %q : index
          %dx = arith.addi %y0, %c2tx : index
          vector.store %v, %out[%dy, %dx] {alignment = 8} : memref<?x?xf32>, vector<2xf32>
        }
      } else {
        scf.for %k = %c0 to %c64 step %c8 {
          scf.for %i = %c0 to %c2 step %c1 {
            %u = arith.addi %ty, %k : index
            %q = arith.xori %u, %h : index
            %ih = arith.xori %i, %h : index
            %c = arith.addi %c2tx, %ih : index
            %dy = arith.addi %x0, %q : index
            %dx = arith.addi %y0, %c : index
            %yin = arith.cmpi ult, %dy, %cols : index
            %xin = arith.cmpi ult, %dx, %rows : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %o = layout.offset %tile[%c, %q] : !layout.desc<64x64>
              %v = memref.load %buf[%o] : memref<4096xf32, #gpu.address_space<workgroup>>
              memref.store %v, %out[%dy, %dx] : memref<?x?xf32>
            }
          }
        }
      }
      gpu.return
    }

    // transpose_wide_f16: a 64x64 tile per block of 32x8 threads, two elements per
    // thread and access: 4-byte vector loads along the input's rows
    // and 4-byte vector stores along the output's. Full tiles of even
    // extents (aligned rows) take the vector path; edge tiles fall back to
    // masked scalar accesses of the same tile.
    gpu.func @transpose_wide_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>)
        workgroup(%buf: memref<4096xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %tile = layout.packed [64, 64] : !layout.desc<64x64>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf16>
      %cols = memref.dim %in, %c1 : memref<?x?xf16>
      %x0 = arith.muli %bx, %c64 : index
      %y0 = arith.muli %by, %c64 : index
      %xe = arith.addi %x0, %c64 : index
      %ye = arith.addi %y0, %c64 : index
      %xfull = arith.cmpi ule, %xe, %cols : index
      %yfull = arith.cmpi ule, %ye, %rows : index
      %crem = arith.remui %cols, %c2 : index
      %rrem = arith.remui %rows, %c2 : index
      %ceven = arith.cmpi eq, %crem, %c0 : index
      %reven = arith.cmpi eq, %rrem, %c0 : index
      %f0 = arith.andi %xfull, %yfull : i1
      %f1 = arith.andi %ceven, %reven : i1
      %full = arith.andi %f0, %f1 : i1
      %c2tx = arith.muli %tx, %c2 : index
      scf.if %full {
        scf.for %k = %c0 to %c64 step %c8 {
          %r = arith.addi %ty, %k : index
          %sy = arith.addi %y0, %r : index
          %sx = arith.addi %x0, %c2tx : index
          %v = vector.load %in[%sy, %sx] {alignment = 4} : memref<?x?xf16>, vector<2xf16>
          %o = layout.offset %tile[%r, %c2tx] : !layout.desc<64x64>
          vector.store %v, %buf[%o] {alignment = 4} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<2xf16>
        }
      } else {
        scf.for %k = %c0 to %c64 step %c8 {
          scf.for %i = %c0 to %c2 step %c1 {
            %r = arith.addi %ty, %k : index
            %c = arith.addi %c2tx, %i : index
            %sy = arith.addi %y0, %r : index
            %sx = arith.addi %x0, %c : index
            %yin = arith.cmpi ult, %sy, %rows : index
            %xin = arith.cmpi ult, %sx, %cols : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %v = memref.load %in[%sy, %sx] : memref<?x?xf16>
              %o = layout.offset %tile[%r, %c] : !layout.desc<64x64>
              memref.store %v, %buf[%o] : memref<4096xf16, #gpu.address_space<workgroup>>
            }
          }
        }
      }
      gpu.barrier
      %c2tx1 = arith.addi %c2tx, %c1 : index
      scf.if %full {
        scf.for %k = %c0 to %c64 step %c8 {
          %q = arith.addi %ty, %k : index
          %o0 = layout.offset %tile[%c2tx, %q] : !layout.desc<64x64>
          %o1 = layout.offset %tile[%c2tx1, %q] : !layout.desc<64x64>
          %a = memref.load %buf[%o0] : memref<4096xf16, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%o1] : memref<4096xf16, #gpu.address_space<workgroup>>
          %v = vector.from_elements %a, %b : vector<2xf16>
          %dy = arith.addi %x0, %q : index
          %dx = arith.addi %y0, %c2tx : index
          vector.store %v, %out[%dy, %dx] {alignment = 4} : memref<?x?xf16>, vector<2xf16>
        }
      } else {
        scf.for %k = %c0 to %c64 step %c8 {
          scf.for %i = %c0 to %c2 step %c1 {
            %q = arith.addi %ty, %k : index
            %c = arith.addi %c2tx, %i : index
            %dy = arith.addi %x0, %q : index
            %dx = arith.addi %y0, %c : index
            %yin = arith.cmpi ult, %dy, %cols : index
            %xin = arith.cmpi ult, %dx, %rows : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %o = layout.offset %tile[%c, %q] : !layout.desc<64x64>
              %v = memref.load %buf[%o] : memref<4096xf16, #gpu.address_space<workgroup>>
              memref.store %v, %out[%dy, %dx] : memref<?x?xf16>
            }
          }
        }
      }
      gpu.return
    }

    // transpose_wide4_f16: a 128x128 tile per block of 32x8 threads, four
    // elements per thread and access: 8-byte vector loads along the input's
    // rows and 8-byte vector stores along the output's. Full tiles of even
    // extents (aligned rows) take the vector path; edge tiles fall back to
    // masked scalar accesses of the same tile.
    //
    // As in transpose_wide_f32, a swizzle that keeps the 8-byte vectors
    // whole leaves bit 1 of an element's column to its bank: the upper
    // half-warp (h2 = 2 * (tx / 16)) takes column q xor 2 on the way out and
    // its elements in the other order on the masked path.
    gpu.func @transpose_wide4_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>)
        workgroup(%buf: memref<16384xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %tile = layout.packed [128, 128] : !layout.desc<128x128>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf16>
      %cols = memref.dim %in, %c1 : memref<?x?xf16>
      %x0 = arith.muli %bx, %c128 : index
      %y0 = arith.muli %by, %c128 : index
      %xe = arith.addi %x0, %c128 : index
      %ye = arith.addi %y0, %c128 : index
      %xfull = arith.cmpi ule, %xe, %cols : index
      %yfull = arith.cmpi ule, %ye, %rows : index
      %crem = arith.remui %cols, %c4 : index
      %rrem = arith.remui %rows, %c4 : index
      %ceven = arith.cmpi eq, %crem, %c0 : index
      %reven = arith.cmpi eq, %rrem, %c0 : index
      %f0 = arith.andi %xfull, %yfull : i1
      %f1 = arith.andi %ceven, %reven : i1
      %full = arith.andi %f0, %f1 : i1
      %vtx = arith.muli %tx, %c4 : index
      %c16 = arith.constant 16 : index
      %half = arith.divui %tx, %c16 : index
      %h2 = arith.muli %half, %c2 : index
      scf.if %full {
        scf.for %k = %c0 to %c128 step %c8 {
          %r = arith.addi %ty, %k : index
          %sy = arith.addi %y0, %r : index
          %sx = arith.addi %x0, %vtx : index
          %v = vector.load %in[%sy, %sx] {alignment = 8} : memref<?x?xf16>, vector<4xf16>
          %o = layout.offset %tile[%r, %vtx] : !layout.desc<128x128>
          vector.store %v, %buf[%o] {alignment = 8} : memref<16384xf16, #gpu.address_space<workgroup>>, vector<4xf16>
        }
      } else {
        scf.for %k = %c0 to %c128 step %c8 {
          scf.for %i = %c0 to %c4 step %c1 {
            %r = arith.addi %ty, %k : index
            %ih = arith.xori %i, %h2 : index
            %c = arith.addi %vtx, %ih : index
            %sy = arith.addi %y0, %r : index
            %sx = arith.addi %x0, %c : index
            %yin = arith.cmpi ult, %sy, %rows : index
            %xin = arith.cmpi ult, %sx, %cols : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %v = memref.load %in[%sy, %sx] : memref<?x?xf16>
              %o = layout.offset %tile[%r, %c] : !layout.desc<128x128>
              memref.store %v, %buf[%o] : memref<16384xf16, #gpu.address_space<workgroup>>
            }
          }
        }
      }
      gpu.barrier
      %vtx1 = arith.addi %vtx, %c1 : index
      scf.if %full {
        scf.for %k = %c0 to %c128 step %c8 {
          %u = arith.addi %ty, %k : index
          %q = arith.xori %u, %h2 : index
          %vtx2 = arith.addi %vtx1, %c1 : index
          %vtx3 = arith.addi %vtx2, %c1 : index
          %o0 = layout.offset %tile[%vtx, %q] : !layout.desc<128x128>
          %o1 = layout.offset %tile[%vtx1, %q] : !layout.desc<128x128>
          %o2 = layout.offset %tile[%vtx2, %q] : !layout.desc<128x128>
          %o3 = layout.offset %tile[%vtx3, %q] : !layout.desc<128x128>
          %a = memref.load %buf[%o0] : memref<16384xf16, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%o1] : memref<16384xf16, #gpu.address_space<workgroup>>
          %e = memref.load %buf[%o2] : memref<16384xf16, #gpu.address_space<workgroup>>
          %f = memref.load %buf[%o3] : memref<16384xf16, #gpu.address_space<workgroup>>
          %v = vector.from_elements %a, %b, %e, %f : vector<4xf16>
          %dy = arith.addi %x0, %q : index
          %dx = arith.addi %y0, %vtx : index
          vector.store %v, %out[%dy, %dx] {alignment = 8} : memref<?x?xf16>, vector<4xf16>
        }
      } else {
        scf.for %k = %c0 to %c128 step %c8 {
          scf.for %i = %c0 to %c4 step %c1 {
            %u = arith.addi %ty, %k : index
            %q = arith.xori %u, %h2 : index
            %ih = arith.xori %i, %h2 : index
            %c = arith.addi %vtx, %ih : index
            %dy = arith.addi %x0, %q : index
            %dx = arith.addi %y0, %c : index
            %yin = arith.cmpi ult, %dy, %cols : index
            %xin = arith.cmpi ult, %dx, %rows : index
            %in_bounds = arith.andi %yin, %xin : i1
            scf.if %in_bounds {
              %o = layout.offset %tile[%c, %q] : !layout.desc<128x128>
              %v = memref.load %buf[%o] : memref<16384xf16, #gpu.address_space<workgroup>>
              memref.store %v, %out[%dy, %dx] : memref<?x?xf16>
            }
          }
        }
      }
      gpu.return
    }

    // transpose_tall_f32: a 128x32 tile (128 input rows, 32 columns) per
    // block of 32x8 threads. Each output row segment is 128 elements long,
    // written by one warp in four consecutive stores, so that rows whose
    // start is not 32-byte aligned (odd extents) leave only two partial
    // sectors per 512 bytes instead of two per 128: on the H100, partial
    // sector writes are what makes unaligned output rows slow
    // (bench/RESULTS.md).
    gpu.func @transpose_tall_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%buf: memref<4096xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tile = layout.packed [128, 32] : !layout.desc<128x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c128 : index
      // Read 128 input rows of 32 columns (coalesced along the rows).
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      scf.for %j = %c0 to %c128 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %syin = arith.cmpi ult, %sy, %rows : index
        %in_bounds = arith.andi %sxin, %syin : i1
        scf.if %in_bounds {
          %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<128x32>
          memref.store %v, %buf[%o] : memref<4096xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Write 32 output rows of 128 elements: a warp writes one row, lane
      // tx elements tx, tx + 32, tx + 64, tx + 96.
      scf.for %j = %c0 to %c32 step %c8 {
        %q = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %q : index
        %dyin = arith.cmpi ult, %dy, %cols : index
        scf.for %k = %c0 to %c128 step %c32 {
          %c = arith.addi %tx, %k : index
          %dx = arith.addi %y0, %c : index
          %dxin = arith.cmpi ult, %dx, %rows : index
          %in_bounds = arith.andi %dyin, %dxin : i1
          scf.if %in_bounds {
            %o = layout.offset %tile[%c, %q] : !layout.desc<128x32>
            %v = memref.load %buf[%o] : memref<4096xf32, #gpu.address_space<workgroup>>
            memref.store %v, %out[%dy, %dx] : memref<?x?xf32>
          }
        }
      }
      gpu.return
    }

    // transpose_tall256_f32: the same with 256-row tiles (segments of 256
    // elements, eight stores per warp and output row).
    gpu.func @transpose_tall256_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%buf: memref<8192xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tile = layout.packed [256, 32] : !layout.desc<256x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c256 : index
      // Read 128 input rows of 32 columns (coalesced along the rows).
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      scf.for %j = %c0 to %c256 step %c8 {
        %r = arith.addi %ty, %j : index
        %sy = arith.addi %y0, %r : index
        %syin = arith.cmpi ult, %sy, %rows : index
        %in_bounds = arith.andi %sxin, %syin : i1
        scf.if %in_bounds {
          %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<256x32>
          memref.store %v, %buf[%o] : memref<8192xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Write 32 output rows of 128 elements: a warp writes one row, lane
      // tx elements tx, tx + 32, tx + 64, tx + 96.
      scf.for %j = %c0 to %c32 step %c8 {
        %q = arith.addi %ty, %j : index
        %dy = arith.addi %x0, %q : index
        %dyin = arith.cmpi ult, %dy, %cols : index
        scf.for %k = %c0 to %c256 step %c32 {
          %c = arith.addi %tx, %k : index
          %dx = arith.addi %y0, %c : index
          %dxin = arith.cmpi ult, %dx, %rows : index
          %in_bounds = arith.andi %dyin, %dxin : i1
          scf.if %in_bounds {
            %o = layout.offset %tile[%c, %q] : !layout.desc<256x32>
            %v = memref.load %buf[%o] : memref<8192xf32, #gpu.address_space<workgroup>>
            memref.store %v, %out[%dy, %dx] : memref<?x?xf32>
          }
        }
      }
      gpu.return
    }

    // Odd shapes: each output row's window starts on a 32-byte sector.
    // For output row r the block writes output columns [y0 - m, y0 + 128 - m),
    // m = (r * rows + y0) mod 8 (buffers 32-byte aligned), so every warp
    // store covers four whole sectors; the windows of consecutive blocks
    // tile each row. The block reads input rows [y0 - 8, y0 + 128), 136 of
    // them. Grid: ceil(cols / 32) x ceil((rows + 8) / 128).
    gpu.func @transpose_skew_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%buf: memref<4352xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c136 = arith.constant 136 : index
      %tile = layout.packed [136, 32] : !layout.desc<136x32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c128 : index
      %ys = arith.subi %y0, %c8 : index
      %xe = arith.addi %x0, %c32 : index
      %ye = arith.addi %y0, %c128 : index
      %f0 = arith.cmpi sge, %ys, %c0 : index
      %f1 = arith.cmpi sle, %ye, %rows : index
      %f2 = arith.cmpi ule, %xe, %cols : index
      %f01 = arith.andi %f0, %f1 : i1
      %full = arith.andi %f01, %f2 : i1
      %sx = arith.addi %x0, %tx : index
      %sxin = arith.cmpi ult, %sx, %cols : index
      // Read input rows y0 - 8 .. y0 + 127 (coalesced along the rows).
      scf.if %full {
        scf.for %j = %c0 to %c136 step %c8 {
          %r = arith.addi %ty, %j : index
          %sy = arith.addi %ys, %r : index
          %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
          %o = layout.offset %tile[%r, %tx] : !layout.desc<136x32>
          memref.store %v, %buf[%o] : memref<4352xf32, #gpu.address_space<workgroup>>
        }
      } else {
        scf.for %j = %c0 to %c136 step %c8 {
          %r = arith.addi %ty, %j : index
          %sy = arith.addi %ys, %r : index
          %lo = arith.cmpi sge, %sy, %c0 : index
          %hi = arith.cmpi slt, %sy, %rows : index
          %yin = arith.andi %lo, %hi : i1
          %in_bounds = arith.andi %yin, %sxin : i1
          scf.if %in_bounds {
            %v = memref.load %in[%sy, %sx] : memref<?x?xf32>
            %o = layout.offset %tile[%r, %tx] : !layout.desc<136x32>
            memref.store %v, %buf[%o] : memref<4352xf32, #gpu.address_space<workgroup>>
          }
        }
      }
      gpu.barrier
      // Write each of the 32 output rows' window: a warp per row, four
      // stores of 32 consecutive elements, each starting on a sector.
      scf.if %full {
        scf.for %j = %c0 to %c32 step %c8 {
          %q = arith.addi %ty, %j : index
          %orow = arith.addi %x0, %q : index
          %base = arith.muli %orow, %rows : index
          %flat = arith.addi %base, %y0 : index
          %m = arith.remui %flat, %c8 : index
          %w0 = arith.subi %y0, %m : index
          %t0 = arith.subi %c8, %m : index
          scf.for %i = %c0 to %c128 step %c32 {
            %c = arith.addi %i, %tx : index
            %ocol = arith.addi %w0, %c : index
            %tr = arith.addi %t0, %c : index
            %o = layout.offset %tile[%tr, %q] : !layout.desc<136x32>
            %v = memref.load %buf[%o] : memref<4352xf32, #gpu.address_space<workgroup>>
            memref.store %v, %out[%orow, %ocol] : memref<?x?xf32>
          }
        }
      } else {
        scf.for %j = %c0 to %c32 step %c8 {
          %q = arith.addi %ty, %j : index
          %orow = arith.addi %x0, %q : index
          %rowin = arith.cmpi ult, %orow, %cols : index
          %base = arith.muli %orow, %rows : index
          %flat = arith.addi %base, %y0 : index
          %m = arith.remui %flat, %c8 : index
          %w0 = arith.subi %y0, %m : index
          %t0 = arith.subi %c8, %m : index
          scf.for %i = %c0 to %c128 step %c32 {
            %c = arith.addi %i, %tx : index
            %ocol = arith.addi %w0, %c : index
            %tr = arith.addi %t0, %c : index
            %lo = arith.cmpi sge, %ocol, %c0 : index
            %hi = arith.cmpi slt, %ocol, %rows : index
            %cin = arith.andi %lo, %hi : i1
            %in_bounds = arith.andi %cin, %rowin : i1
            scf.if %in_bounds {
              %o = layout.offset %tile[%tr, %q] : !layout.desc<136x32>
              %v = memref.load %buf[%o] : memref<4352xf32, #gpu.address_space<workgroup>>
              memref.store %v, %out[%orow, %ocol] : memref<?x?xf32>
            }
          }
        }
      }
      gpu.return
    }
  }
}
