// Descriptors from the seeds: CK Tile's [2, 6] -> [2, 2, 3] view, a padded
// convolution input (NCHW, pad 1 on H and W) and a transposed view. The
// offsets of constant coordinates fold to constants under -canonicalize.
//
//   layout-opt examples/descriptors.mlir -canonicalize

func.func @view_2x2x3() -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = layout.packed [2, 6] : !layout.desc<2x6>
  %t = layout.transform %p [#layout.pass_through<2> : [0] -> [0],
                            #layout.unmerge<[2, 3]> : [1] -> [1, 2]]
       : !layout.desc<2x6> -> !layout.desc<2x2x3>
  // 1 * 6 + 1 * 3 + 2 = 11
  %off = layout.offset %t[%c1, %c1, %c2] : !layout.desc<2x2x3>
  %n = layout.element_space_size %t : !layout.desc<2x2x3>
  return %off, %n : index, index
}

func.func @conv_padding() -> (index, i1, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x = layout.packed [2, 3, 4, 4] : !layout.desc<2x3x4x4>
  %padded = layout.transform %x [#layout.pass_through<2> : [0] -> [0],
                                 #layout.pass_through<3> : [1] -> [1],
                                 #layout.pad<4, 1, 1> : [2] -> [2],
                                 #layout.pad<4, 1, 1> : [3] -> [3]]
            : !layout.desc<2x3x4x4> -> !layout.desc<2x3x6x6>
  // (n, c, h, w) = (1, 1, 3, 3) reads input (1, 1, 2, 2): offset 16*3 + 16 + 8 + 2 = 74.
  %off = layout.offset %padded[%c1, %c1, %c3, %c3] : !layout.desc<2x3x6x6>
  %in = layout.valid %padded[%c1, %c1, %c3, %c3] : !layout.desc<2x3x6x6>
  // (0, 0, 0, 0) is in the padding.
  %pad = layout.valid %padded[%c0, %c0, %c0, %c0] : !layout.desc<2x3x6x6>
  return %off, %in, %pad : index, i1, i1
}

func.func @transpose(%i: index, %j: index) -> (index, index, index) {
  %m = layout.packed [32, 64] : !layout.desc<32x64>
  %t = layout.transform %m [#layout.pass_through<64> : [1] -> [0],
                            #layout.pass_through<32> : [0] -> [1]]
       : !layout.desc<32x64> -> !layout.desc<64x32>
  %off = layout.offset %t[%i, %j] : !layout.desc<64x32>
  // The inverse: the (i, j) of the transposed view that lands on %off.
  %u:2 = layout.upper %t[%off] : !layout.desc<64x32>
  return %off, %u#0, %u#1 : index, index, index
}
