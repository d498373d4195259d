//===- Passes.td - Transformation passes of layout-opt ----*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_PASSES_TD
#define LAYOUT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LayoutDumpBinaries : Pass<"layout-dump-binaries", "ModuleOp"> {
  let summary = "Write the objects of every gpu.binary to files";
  let description = [{
    For each object of each `gpu.binary` (what `gpu-module-to-binary`
    produces at the end of `-layout-to-rocdl` / `-layout-to-nvvm`), writes
    its bytes to `<dir>/<binary name>.<chip><ext>`: `.hsaco` for an AMDGPU
    code object, `.cubin` for a CUDA binary, `.s` / `.ptx` for assembly,
    `.ll` for LLVM IR. The IR is left unchanged.

    ```sh
    layout-opt kernel.mlir -layout-to-rocdl=chip=gfx942 \
        -layout-dump-binaries=dir=out -o /dev/null   # writes out/kernels.gfx942.hsaco
    ```
  }];
  let options = [
    Option<"dir", "dir", "std::string", [{"."}],
           "Directory to write the objects to (created if missing)">
  ];
}

#endif // LAYOUT_TRANSFORMS_PASSES_TD
