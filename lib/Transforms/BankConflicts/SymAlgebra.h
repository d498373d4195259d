//===- SymAlgebra.h - The index algebra over Sym ----------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_SYMALGEBRA_H
#define LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_SYMALGEBRA_H

#include "AddressInterpreter.h"

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace layout {
namespace bank {

/// IndexAlgebra.h's index algebra over Sym: the descriptors' own formulas on
/// symbolic coordinates. What needs a finer split or a concrete value asks
/// the ProofState and yields a placeholder (the evaluation is then redone).
struct SymAlgebra {
  using Value = Sym;
  struct Bool {
    std::optional<bool> value;
  };
  ProofState &state;
  StringRef opName;

  Value constant(int64_t c) { return Sym::of(c); }
  Value add(Value a, Value b) { return combine(a, b, 1); }
  Value sub(Value a, Value b) { return combine(a, b, -1); }
  Value mul(Value a, int64_t c) { return scale(a, c); }
  Value floorDiv(Value a, int64_t d) {
    if (!dividesAll(a, d)) {
      state.needMultiple(a, d);
      return Sym::of(0);
    }
    Sym r{layout::floorDiv(a.c, d), {}};
    for (int64_t x : a.k)
      r.k.push_back(x / d);
    return r;
  }
  Value floorMod(Value a, int64_t d) {
    if (!dividesAll(a, d)) {
      state.needMultiple(a, d);
      return Sym::of(0);
    }
    return Sym::of(layout::floorMod(a.c, d));
  }
  Value bitXor(Value a, Value b) {
    if (a.concrete() && b.concrete())
      return Sym::of(a.c ^ b.c);
    // (c + K t) xor x = (c xor x) + K t when every coefficient is a
    // multiple of 2^n > x >= 0: K t leaves the low n bits alone.
    if (!a.concrete() && !b.concrete()) {
      state.needConcrete(a, opName);
      return Sym::of(0);
    }
    const Sym &s = a.concrete() ? b : a;
    int64_t x = a.concrete() ? a.c : b.c;
    if (x < 0) {
      state.needConcrete(s, opName);
      return Sym::of(0);
    }
    int64_t span = int64_t(llvm::PowerOf2Ceil(uint64_t(x) + 1));
    if (!dividesAll(s, span)) {
      state.needMultiple(s, span);
      return Sym::of(0);
    }
    Sym r = s;
    r.c = s.c ^ x;
    return r;
  }
  Value select(Bool c, Value a, Value b) {
    if (c.value)
      return *c.value ? a : b;
    return a == b ? a : Sym::of(0);
  }
  Bool truth(bool b) { return {b}; }
  Bool compare(const Value &v, function_ref<bool(int64_t)> fn) {
    if (!v.concrete()) {
      state.needConcrete(v, opName);
      return {std::nullopt};
    }
    return {fn(v.c)};
  }
  Bool inRange(Value v, int64_t n) {
    return compare(v, [n](int64_t x) { return x >= 0 && x < n; });
  }
  Bool atLeast(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x >= c; });
  }
  Bool lessThan(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x < c; });
  }
  Bool equals(Value v, int64_t c) {
    return compare(v, [c](int64_t x) { return x == c; });
  }
  Bool both(Bool a, Bool b) {
    if (a.value == false || b.value == false)
      return {false};
    if (a.value && b.value)
      return {true};
    return {std::nullopt};
  }
  Bool either(Bool a, Bool b) {
    if (a.value == true || b.value == true)
      return {true};
    if (a.value && b.value)
      return {false};
    return {std::nullopt};
  }

  static bool dividesAll(const Sym &v, int64_t d) {
    return llvm::all_of(v.k, [d](int64_t x) { return x % d == 0; });
  }
};

} // namespace bank
} // namespace layout
} // namespace mlir

#endif // LAYOUT_LIB_TRANSFORMS_BANKCONFLICTS_SYMALGEBRA_H
