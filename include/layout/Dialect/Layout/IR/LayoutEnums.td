//===- LayoutEnums.td - Enums of the layout dialect -------*- tablegen -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_ENUMS_TD
#define LAYOUT_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Layout_Padding : I32EnumAttr<"Padding",
    "the value a masked load reads where an element is masked off", [
      I32EnumAttrCase<"Zero", 0, "zero">,
      I32EnumAttrCase<"NegZero", 1, "neg_zero">,
      I32EnumAttrCase<"NaN", 2, "nan">,
      I32EnumAttrCase<"PosInf", 3, "pos_inf">,
      I32EnumAttrCase<"NegInf", 4, "neg_inf">]> {
  let cppNamespace = "::mlir::layout";
}

def Layout_MemoryOrder : I32EnumAttr<"MemoryOrder",
    "the memory order of an atomic access (C++'s std::memory_order)", [
      I32EnumAttrCase<"Relaxed", 0, "relaxed">,
      I32EnumAttrCase<"Acquire", 1, "acquire">,
      I32EnumAttrCase<"Release", 2, "release">,
      I32EnumAttrCase<"AcqRel", 3, "acq_rel">,
      I32EnumAttrCase<"SeqCst", 4, "seq_cst">]> {
  let cppNamespace = "::mlir::layout";
}

def Layout_Scope : I32EnumAttr<"Scope",
    "the set of threads an atomic access synchronizes with "
    "(cuda::thread_scope)", [
      I32EnumAttrCase<"Thread", 0, "thread">,
      I32EnumAttrCase<"Block", 1, "block">,
      I32EnumAttrCase<"Device", 2, "device">,
      I32EnumAttrCase<"System", 3, "system">]> {
  let cppNamespace = "::mlir::layout";
}

#endif // LAYOUT_ENUMS_TD
