// RUN: not layout-opt %s -split-input-file 2>&1 | FileCheck %s

/// The column of a transform attribute's parse error (issue 38): at the
/// token where the parameter is missing or malformed, also inside
/// layout.transform (which parses each attribute apart), not at the
/// attribute's start. -verify-diagnostics checks lines only, hence this test.

func.func @missing() {
  %p = layout.packed [4] : !layout.desc<4>
  // The caret is on the '>' where 'right' should be (column 45).
  // CHECK: parse-errors.mlir:[[@LINE+1]]:45: error: {{.*}}expected 3 parameters: #layout.pad<length, left, right>; 'right' is missing
  %t = layout.transform %p [#layout.pad<4, 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<6>
  return
}

// -----

func.func @malformed() {
  %p = layout.packed [4] : !layout.desc<4>
  // The caret is on the 'x' (column 44).
  // CHECK: parse-errors.mlir:[[@LINE+1]]:44: error: {{.*}}parameter 'left': expected integer value
  %t = layout.transform %p [#layout.pad<4, x, 1> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<6>
  return
}

// -----

// The caret is on the reserved value (column 28).
// CHECK: parse-errors.mlir:[[@LINE+1]]:28: error: expected 1 parameter: #layout.freeze<value>; parameter 'value': integer -9223372036854775808 is reserved for run-time values (write '?')
#reserved = #layout.freeze<-9223372036854775808>

// -----

// The caret is on the name (column 20).
// CHECK: parse-errors.mlir:[[@LINE+1]]:20: error: unknown attribute `unmerg` in dialect `layout`; did you mean `unmerge`?
#unknown = #layout.unmerg<[4]>
