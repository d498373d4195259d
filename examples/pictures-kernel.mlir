// The kernel pictures of docs/pictures.md, drawn by -layout-show's
// access=kernel: a block of 32 x 8 threads of an H100 (sm_90: 32 banks of
// 4 bytes) transposes a 32 x 32 f32 tile through shared memory. Thread
// (x, y) writes element (y, x) and reads element (x, y): the first warp
// (y = 0) writes row 0 and reads column 0. Row-major, the column read puts
// every lane in bank 0 (32-way); with the column index xored with the row
// (#layout.xor), lane l reads bank l.
//
//   layout-opt examples/pictures-kernel.mlir \
//       -layout-show="chip=sm_90 access=kernel" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose_packed(%in: memref<1024xf32>, %out: memref<1024xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c32 = arith.constant 32 : index
      %tile = layout.packed [32, 32] : !layout.desc<32x32>
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %gy = arith.muli %y, %c32 : index
      %g = arith.addi %gy, %x : index
      %e = memref.load %in[%g] : memref<1024xf32>
      %w = layout.offset %tile[%y, %x] : !layout.desc<32x32>
      memref.store %e, %buf[%w] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = layout.offset %tile[%x, %y] : !layout.desc<32x32>
      %v = memref.load %buf[%r] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%g] : memref<1024xf32>
      gpu.return
    }
    gpu.func @transpose_swizzled(%in: memref<1024xf32>, %out: memref<1024xf32>)
        workgroup(%buf: memref<1024xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c32 = arith.constant 32 : index
      %p = layout.packed [32, 32] : !layout.desc<32x32>
      %tile = layout.transform %p [#layout.xor<[32, 32]> : [0, 1] -> [0, 1]]
              : !layout.desc<32x32> -> !layout.desc<32x32>
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %gy = arith.muli %y, %c32 : index
      %g = arith.addi %gy, %x : index
      %e = memref.load %in[%g] : memref<1024xf32>
      %w = layout.offset %tile[%y, %x] : !layout.desc<32x32>
      memref.store %e, %buf[%w] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = layout.offset %tile[%x, %y] : !layout.desc<32x32>
      %v = memref.load %buf[%r] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%g] : memref<1024xf32>
      gpu.return
    }
  }
}
