// RUN: not layout-opt %s 2>&1 | FileCheck %s

/// A failing module's "see current operation" note elides long string
/// literals (issue 38): the gpu.binary's object below holds 300 characters
/// (100 escaped bytes `\7F`, 3 characters each); the note keeps the first 21
/// escapes (63 characters: a 22nd would pass the 64 kept) and says how many
/// it dropped, 300 - 63 = 237.

// CHECK: error: 'builtin.module' op expected 'llvm.data_layout' to be a string
// CHECK: note: see current operation:
// CHECK: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target<chip = "sm_90">, "{{(\\7F){21,21}"}}... (237 more characters elided)>]
// CHECK-NOT: \7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F
// CHECK: "func.return"
module attributes {gpu.container_module, llvm.data_layout = 3} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, "\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F\7F">]
  func.func @f() {
    return
  }
}
