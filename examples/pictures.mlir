// The pictures of docs/pictures.md, drawn by -layout-show: a 32 x 32 f32
// tile in shared memory read down a column by a warp of an H100 (sm_90:
// 32 banks of 4 bytes), row-major (every lane in bank 0: 32-way) and with
// the column index xored with the row (each lane in its own bank).
//
//   layout-opt examples/pictures.mlir \
//       -layout-show="chip=sm_90 access=columns format=svg dir=docs/images" \
//       -o /dev/null

func.func @conflicted() -> !layout.desc<32x32> {
  %d = layout.packed [32, 32] : !layout.desc<32x32>
  return %d : !layout.desc<32x32>
}

func.func @swizzled() -> !layout.desc<32x32> {
  %p = layout.packed [32, 32] : !layout.desc<32x32>
  %d = layout.transform %p [#layout.xor<[32, 32]> : [0, 1] -> [0, 1]]
       : !layout.desc<32x32> -> !layout.desc<32x32>
  return %d : !layout.desc<32x32>
}
