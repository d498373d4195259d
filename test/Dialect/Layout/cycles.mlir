// RUN: layout-opt %s -canonicalize -split-input-file | FileCheck %s

/// A module body is a graph region: a descriptor op may use its own result,
/// directly or through other ops. The patterns do not follow such cycles
/// (no chain to simplify, no algebra result to build) and canonicalization
/// terminates, erasing the dead cycle; the lowering refuses a used one
/// (Conversion/LayoutToAffine/invalid.mlir). These inputs hung or crashed
/// before (found by layout-fuzz).

// CHECK: module {
// CHECK-NEXT: }
%i = arith.constant 0 : index
%t = layout.transform %t [#layout.pass_through<4> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
%o = layout.offset %t[%i] : !layout.desc<4>

// -----

// CHECK: module {
// CHECK-NEXT: }
%a = layout.transform %b [#layout.pass_through<4> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>
%b = layout.transform %a [#layout.pass_through<4> : [0] -> [0]] : !layout.desc<4> -> !layout.desc<4>

// -----

// CHECK: module {
// CHECK-NEXT: }
%i = arith.constant 1 : index
%o = layout.offset %c[%i] : !layout.desc<4>
%c = layout.coalesce %c : !layout.desc<4> -> !layout.desc<4>
