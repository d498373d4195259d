//===- LayoutOptModule.cpp - Python bindings of layout-opt ----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The `layout_opt._layout_opt` extension: the evaluator's transforms and
// descriptors, and MLIR modules (parse, build, run pipelines, compile to
// GPU binaries). Every error of the C++ side surfaces as a Python exception
// carrying the message; nothing aborts the interpreter.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "layout-c/Layout.h"
#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Evaluator/Algebra.h"
#include "layout/Evaluator/Descriptor.h"
#include "layout/Evaluator/IndexAlgebra.h"
#include "layout/Evaluator/MatrixInstructions.h"
#include "layout/Evaluator/Partition.h"
#include "layout/Evaluator/VectorLength.h"
#include "layout/Pipelines/Pipelines.h"
#include "layout/Transforms/LayoutPicture.h"
#include "layout/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>
#include <stdexcept>

/// Integer arguments from Python: an int or a NumPy integer (anything with
/// __index__) that fits int64. A bool, a float or a string does not match
/// (TypeError); an integer outside int64 raises OverflowError instead of
/// wrapping.
struct Int {
  int64_t value = 0;
  operator int64_t() const { return value; }
};
/// A sequence of such integers.
struct Ints : std::vector<int64_t> {};

namespace pybind11 {
namespace detail {
inline bool loadStrictInt(handle src, int64_t &out) {
  PyObject *o = src.ptr();
  if (!o || PyBool_Check(o) || !PyIndex_Check(o))
    return false;
  PyObject *index = PyNumber_Index(o);
  if (!index) {
    PyErr_Clear();
    return false;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow)
    throw std::overflow_error("integer " + str(src).cast<std::string>() +
                              " does not fit in int64");
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  out = v;
  return true;
}

template <> struct type_caster<Int> {
  PYBIND11_TYPE_CASTER(Int, const_name("int"));
  bool load(handle src, bool) { return loadStrictInt(src, value.value); }
  static handle cast(Int v, return_value_policy, handle) {
    return PyLong_FromLongLong(v.value);
  }
};

template <> struct type_caster<Ints> {
  PYBIND11_TYPE_CASTER(Ints, const_name("list[int]"));
  bool load(handle src, bool) {
    if (!isinstance<sequence>(src) || isinstance<str>(src) ||
        isinstance<bytes>(src))
      return false;
    value.clear();
    for (handle item : reinterpret_borrow<sequence>(src)) {
      int64_t v;
      if (!loadStrictInt(item, v))
        return false;
      value.push_back(v);
    }
    return true;
  }
  static handle cast(const Ints &v, return_value_policy, handle) {
    list out;
    for (int64_t x : v)
      out.append(x);
    return out.release();
  }
};
} // namespace detail
} // namespace pybind11

namespace py = pybind11;
using namespace mlir;
using namespace mlir::layout;
using layout_python::context;
using layout_python::Diagnostics;
using layout_python::MLIRError;
using layout_python::PyModule;

namespace {

/// The evaluator's llvm::Error / Expected as ValueError.
template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throw std::invalid_argument(llvm::toString(value.takeError()));
  return std::move(*value);
}

void check(llvm::Error error) {
  if (error)
    throw std::invalid_argument(llvm::toString(std::move(error)));
}

/// Refuses a value in the range reserved for run-time values (Transform.h's
/// `?` and slots, from -2^63): Python gives static values, and such a value
/// would silently become a run-time one. `name` is the parameter's.
void checkStatic(llvm::StringRef name, llvm::ArrayRef<int64_t> values,
                 bool isList = false) {
  for (auto [j, v] : llvm::enumerate(values))
    if (isDynamic(v))
      throw std::invalid_argument(
          "'" + name.str() + "'" +
          (isList ? " entry " + std::to_string(j) : "") + " is " +
          std::to_string(v) +
          ", in the range reserved for run-time values (-2^63 to -2^63 + "
          "2^16 - 1)");
}

/// `t` after the evaluator's checks. A value in the range reserved for
/// run-time values (Transform.h's `?` and slots, from -2^63) would make the
/// transform a run-time one; Python gives static values, so it is refused,
/// naming the parameter as the attribute's syntax does.
Transform verified(Transform t) {
  llvm::SmallVector<llvm::StringRef> names;
  getTransformParameterList(t.getKind()).split(names, ", ");
  for (unsigned i = 0; i < t.getNumArgs(); ++i) {
    TransformArg arg = t.getArg(i);
    if (arg.isListArg())
      checkStatic(names[i], arg.getList(), /*isList=*/true);
    else
      checkStatic(names[i], arg.getScalar());
  }
  check(t.verify());
  return t;
}

/// Checks that `coord` is a top coordinate of `d`: one index per dim, each
/// in [0, length) (the evaluator's results outside are unspecified, and
/// huge ones wrap).
void checkCoordinate(const Descriptor &d, llvm::ArrayRef<int64_t> coord) {
  if (coord.size() != d.getRank())
    throw std::invalid_argument("expected " + std::to_string(d.getRank()) +
                                " indices, got " +
                                std::to_string(coord.size()));
  for (auto [i, c] : llvm::enumerate(coord)) {
    int64_t length = d.getLengths()[i];
    if (c < 0 || c >= length)
      throw py::index_error("index " + std::to_string(i) +
                            " of the coordinate is " + std::to_string(c) +
                            ", outside the length " + std::to_string(length) +
                            " of dim " + std::to_string(i) + " (0 <= index < " +
                            std::to_string(length) + ")");
  }
}

std::vector<int64_t> toVector(llvm::ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

/// Builds `func.func @name(%i0, ..., %in-1: index) -> (index, i1)` that
/// returns layout.offset and layout.valid of `desc`, with ops built through
/// MLIR's builders (the base op, one layout.transform per stage).
void addDescriptorFunction(PyModule &m, const std::string &name,
                           const Descriptor &d) {
  if (name.empty())
    throw std::invalid_argument("a descriptor function needs a name");
  if (SymbolTable::lookupSymbolIn(*m.module, name))
    throw std::invalid_argument("the module already has a symbol named '" +
                                name + "'");
  MLIRContext &ctx = context();
  Diagnostics diags(ctx);
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  b.setInsertionPointToEnd(m.module->getBody());
  SmallVector<Type> args(d.getRank(), b.getIndexType());
  auto func = func::FuncOp::create(
      b, loc, name, b.getFunctionType(args, {b.getIndexType(), b.getI1Type()}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value desc = buildDescriptor(b, loc, d);
  Value off = OffsetOp::create(b, loc, desc, entry->getArguments());
  Value valid = ValidOp::create(b, loc, desc, entry->getArguments());
  func::ReturnOp::create(b, loc, ValueRange{off, valid});
  if (failed(verify(func)))
    diags.raise("the built function does not verify");
}

using IndexArray =
    py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

/// `coords` as int64: an array (or nested sequence) of integers. A bool or
/// float array raises TypeError instead of being cast; unsigned values past
/// 2^63 - 1 raise OverflowError instead of wrapping.
IndexArray indexArray(const py::handle &coords) {
  py::array a = py::array::ensure(coords);
  if (!a)
    throw py::type_error("expected an integer array of coordinates");
  char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error("expected an integer array of coordinates, got "
                         "dtype " +
                         py::str(a.dtype()).cast<std::string>());
  if (kind == 'u' && a.dtype().itemsize() >= 8 && a.size() > 0) {
    py::object max = a.attr("max")();
    if (max.cast<uint64_t>() > uint64_t(INT64_MAX))
      throw std::overflow_error("coordinate " +
                                py::str(max).cast<std::string>() +
                                " does not fit in int64");
  }
  return IndexArray::ensure(a);
}

/// `fn` of every coordinate of `coords` (an array whose last dimension is
/// the rank), as an array of the leading shape.
template <typename T, typename Fn>
py::array_t<T> mapCoordinates(const Descriptor &d, const py::handle &array,
                              Fn fn) {
  IndexArray coords = indexArray(array);
  py::buffer_info info = coords.request();
  if (info.ndim < 1 || info.shape.back() != (py::ssize_t)d.getRank())
    throw std::invalid_argument(
        "expected an integer array whose last dimension is the rank " +
        std::to_string(d.getRank()));
  std::vector<py::ssize_t> shape(info.shape.begin(), info.shape.end() - 1);
  py::array_t<T> out(shape);
  auto *in = static_cast<const int64_t *>(info.ptr);
  auto *o = static_cast<T *>(out.request().ptr);
  size_t n = out.size(), rank = d.getRank();
  for (size_t i = 0; i < n; ++i) {
    llvm::ArrayRef<int64_t> coord(in + i * rank, rank);
    checkCoordinate(d, coord);
    o[i] = fn(coord);
  }
  return out;
}

} // namespace

PYBIND11_MODULE(_layout_opt, m) {
  m.doc() = "layout-opt: coordinate transforms, descriptors, and MLIR "
            "modules of the layout dialect";
  py::register_exception<MLIRError>(m, "MLIRError", PyExc_RuntimeError)
      .attr("__doc__") = "IR that does not parse, verify or lower; the "
                         "message holds the diagnostics' text.";
  layout_python::bindIRCore(m);
  layout_python::bindCodeObjects(m);

  py::class_<Transform>(m, "Transform",
                        "One coordinate transform (a #layout attribute), "
                        "made by pass_through(), pad(), ...; str() is its IR.")
      .def("__str__", &Transform::str)
      .def("__repr__", &Transform::str)
      .def("__eq__",
           [](const Transform &a, const Transform &b) { return a == b; })
      .def_property_readonly(
          "upper_lengths",
          [](const Transform &t) { return toVector(t.getUpperLengths()); },
          "The lengths of the dims the transform produces.");

  m.def("chips_with_f32_inputs", &chipsWithF32Inputs,
        "The chips with an f32-input matrix instruction and its kinds, from "
        "the one table (MatrixInstructions.h): the text the tile pass's "
        "refusal of an f32 contraction gives.");

  using V = Ints;
  using I = Int;
  m.def(
      "pass_through", [](I l) { return verified(Transform::passThrough(l)); },
      py::arg("length"),
      "#layout.pass_through<L>: the lower coordinate is the upper one.");
  m.def(
      "pad",
      [](I l, I left, I right) {
        return verified(Transform::pad(l, left, right));
      },
      py::arg("length"), py::arg("left"), py::arg("right"),
      "#layout.pad<L, left, right>: upper length L + left + right; l = u - "
      "left, valid where left <= u < left + L.");
  m.def(
      "left_pad",
      [](I l, I left) { return verified(Transform::leftPad(l, left)); },
      py::arg("length"), py::arg("left"),
      "#layout.left_pad<L, left>: upper length L + left; l = u - left, valid "
      "where u >= left.");
  m.def(
      "right_pad",
      [](I l, I right) { return verified(Transform::rightPad(l, right)); },
      py::arg("length"), py::arg("right"),
      "#layout.right_pad<L, right>: upper length L + right; l = u, valid where "
      "u < L.");
  m.def(
      "embed",
      [](const V &u, const V &c) { return verified(Transform::embed(u, c)); },
      py::arg("upper_lengths"), py::arg("coefficients"),
      "#layout.embed<[U...], [c...]>: one lower dim l = sum_i u_i * c_i of the "
      "upper dims.");
  m.def(
      "merge", [](const V &l) { return verified(Transform::merge(l)); },
      py::arg("lengths"),
      "#layout.merge<[L...]>: one upper dim whose row-major digits over L are "
      "the lower dims.");
  m.def(
      "unmerge", [](const V &l) { return verified(Transform::unmerge(l)); },
      py::arg("lengths"),
      "#layout.unmerge<[U...]>: upper dims whose row-major index over U is the "
      "one lower dim.");
  m.def(
      "replicate", [](const V &l) { return verified(Transform::replicate(l)); },
      py::arg("lengths"),
      "#layout.replicate<[U...]>: upper dims that consume no lower dim (a "
      "broadcast).");
  m.def(
      "freeze", [](I v) { return verified(Transform::freeze(v)); },
      py::arg("value"),
      "#layout.freeze<v>: consumes one lower dim, fixed at v; no upper dim.");
  m.def(
      "offset", [](I u, I off) { return verified(Transform::offset(u, off)); },
      py::arg("upper_length"), py::arg("offset"),
      "#layout.offset<U, off>: upper length U; l = u + off.");
  m.def(
      "slice",
      [](I l, I b, I e) { return verified(Transform::slice(l, b, e)); },
      py::arg("length"), py::arg("begin"), py::arg("end"),
      "#layout.slice<L, begin, end>: upper length end - begin; l = u + begin.");
  m.def(
      "modulo", [](I mod, I u) { return verified(Transform::modulo(mod, u)); },
      py::arg("modulus"), py::arg("upper_length"),
      "#layout.modulo<m, U>: upper length U; l = u mod m.");
  m.def(
      "xor", [](const V &l) { return verified(Transform::xorTransform(l)); },
      py::arg("lengths"),
      "#layout.xor<[L0, L1]>: (u0, u1) -> (u0, u1 xor (u0 mod L1)), CK Tile's "
      "xor.");
  m.def(
      "rotate", [](const V &l) { return verified(Transform::rotate(l)); },
      py::arg("lengths"),
      "#layout.rotate<[L0, L1]>: (u0, u1) -> (u0, (u1 + u0) mod L1).");
  m.def(
      "swizzle",
      [](I bits, I base, I shift, I l) {
        return verified(Transform::swizzle(bits, base, shift, l));
      },
      py::arg("bits"), py::arg("base"), py::arg("shift"), py::arg("length"),
      "#layout.swizzle<B, M, S, L>: CuTe's Swizzle<B, M, S>, u xor ((u >> S) & "
      "(((1 << B) - 1) << M)).");
  m.def(
      "sunder", [](const V &l) { return verified(Transform::sunder(l)); },
      py::arg("pieces"),
      "#layout.sunder<[P...]>: rocRoller's Sunder; upper (p_0, .., p_k-1, s): "
      "l = p_s + sum of the pieces before s, valid where p_s < P[s].");

  py::class_<Descriptor>(m, "Descriptor",
                         "A tensor descriptor: a strided base and stages of "
                         "transforms; str() is its IR.")
      .def("__str__", &Descriptor::str)
      .def("__repr__", &Descriptor::str)
      .def_property_readonly(
          "lengths",
          [](const Descriptor &d) { return toVector(d.getLengths()); },
          "The top (logical) lengths.")
      .def_property_readonly("rank", &Descriptor::getRank,
                             "The number of top dims.")
      .def_property_readonly(
          "element_space_size", &Descriptor::getElementSpaceSize,
          "The number of elements the descriptor's buffer must hold.")
      .def(
          "transform",
          [](const Descriptor &d, const std::vector<py::tuple> &entries) {
            Stage stage;
            for (const py::tuple &t : entries) {
              if (t.size() != 3)
                throw std::invalid_argument(
                    "each entry is (transform, lower_dims, upper_dims)");
              StageEntry e{t[0].cast<Transform>(), {}, {}};
              for (int64_t x : t[1].cast<V>())
                e.lowerDims.push_back(x);
              for (int64_t x : t[2].cast<V>())
                e.upperDims.push_back(x);
              stage.push_back(std::move(e));
            }
            return unwrap(d.transform(stage));
          },
          py::arg("entries"),
          "The descriptor with one more stage: a list of (transform, "
          "lower_dims, upper_dims), as in layout.transform.")
      .def(
          "offset",
          [](const Descriptor &d, const V &coord) {
            checkCoordinate(d, coord);
            return d.offset(coord);
          },
          py::arg("coord"),
          "The element offset of a top coordinate (IndexError outside the "
          "lengths).")
      .def(
          "valid",
          [](const Descriptor &d, const V &coord) {
            checkCoordinate(d, coord);
            return d.valid(coord);
          },
          py::arg("coord"),
          "Whether a top coordinate is valid (not padding); IndexError "
          "outside the lengths.")
      .def(
          "vector_run",
          [](const Descriptor &d) {
            VectorRun r = lastDimRun(d);
            return py::make_tuple(r.length, r.stride);
          },
          "The guaranteed vector length and stride of the last dimension "
          "(CK Tile's GuaranteedLastDimensionVectorLength / Stride): "
          "(length, stride).")
      .def(
          "offset_divisor",
          [](const Descriptor &d, I width) {
            if (width < 1)
              throw std::invalid_argument("'width' must be positive, got " +
                                          std::to_string(width));
            return offsetDivisor(d, width);
          },
          py::arg("width"),
          "A number dividing the offset of every coordinate whose last index "
          "is a multiple of `width` (0: always 0).")
      .def(
          "upper",
          [](const Descriptor &d, I off) {
            return toVector(unwrap(d.upper(off)));
          },
          py::arg("offset"),
          "The inverse: the valid top coordinate whose offset is `offset` "
          "(ValueError where there is none or the chain is not injective).")
      .def(
          "offsets",
          [](const Descriptor &d, const py::object &coords) {
            return mapCoordinates<int64_t>(
                d, coords,
                [&](llvm::ArrayRef<int64_t> c) { return d.offset(c); });
          },
          py::arg("coords"),
          "Offsets of an array of coordinates (last dimension: the rank).")
      .def(
          "show",
          [](const Descriptor &d, std::optional<std::string> chip, I bytes,
             const std::string &access, const std::string &format) {
            PictureOptions o = unwrap(
                makePictureOptions(chip.value_or(""), bytes, access, format));
            return unwrap(drawPicture(d, o));
          },
          py::arg("chip") = py::none(), py::arg("element_bytes") = 4,
          py::arg("access") = "none", py::arg("format") = "text",
          "A picture of a rank-2 descriptor: each coordinate's offset, its "
          "bank on `chip`, and the lane of a wave reading `access` (none, "
          "rows, columns), as text, svg or latex (-layout-show's drawing).")
      .def(
          "valids",
          [](const Descriptor &d, const py::object &coords) {
            return mapCoordinates<bool>(
                d, coords,
                [&](llvm::ArrayRef<int64_t> c) { return d.valid(c); });
          },
          py::arg("coords"),
          "Validity of an array of coordinates (last dimension: the rank).");

  // CuTe's layout algebra (docs/algebra.md).
  py::class_<StridedLayout>(m, "Layout",
                            "A CuTe layout: a hierarchical shape with a "
                            "stride per leaf, e.g. ((2,2),3):((24,2),8).")
      .def(py::init([](const V &sizes, const V &strides) {
             return unwrap(StridedLayout::flat(sizes, strides));
           }),
           py::arg("sizes"), py::arg("strides"),
           "The flat layout (sizes):(strides).")
      .def(py::init([](I size, I stride) {
             int64_t s = size, d = stride;
             return unwrap(StridedLayout::flat(llvm::ArrayRef<int64_t>(s),
                                               llvm::ArrayRef<int64_t>(d)));
           }),
           py::arg("size"), py::arg("stride"),
           "The one-mode layout size:stride (Layout(4, 2) is "
           "Layout([4], [2])).")
      .def_static(
          "parse",
          [](const std::string &text) {
            return unwrap(StridedLayout::parse(text));
          },
          py::arg("text"), "Parses CuTe's notation, e.g. '(4,2):(2,1)'.")
      .def_static(
          "of",
          [](const Descriptor &d) {
            return unwrap(StridedLayout::fromDescriptor(d));
          },
          py::arg("descriptor"),
          "The layout of a descriptor whose chain is strided.")
      .def("__str__", &StridedLayout::str)
      .def("__repr__",
           [](const StridedLayout &l) { return "Layout('" + l.str() + "')"; })
      .def("__eq__", [](const StridedLayout &a,
                        const StridedLayout &b) { return a == b; })
      .def(
          "__call__", [](const StridedLayout &l, I i) { return l(i); },
          py::arg("index"),
          "The offset of a 1-D index (colexicographic, as in CuTe).")
      .def(
          "at",
          [](const StridedLayout &l, const V &c) {
            if (c.size() != l.rank())
              throw std::invalid_argument(
                  "expected " + std::to_string(l.rank()) + " indices, got " +
                  std::to_string(c.size()));
            return l.at(c);
          },
          py::arg("coord"), "The offset of one index per top-level mode.")
      .def(
          "mode",
          [](const StridedLayout &l, unsigned i) {
            if (i >= l.rank())
              throw std::invalid_argument("mode " + std::to_string(i) +
                                          " of a layout of rank " +
                                          std::to_string(l.rank()));
            return l.mode(i);
          },
          py::arg("i"), "Top-level mode i.")
      .def_property_readonly("size", &StridedLayout::size,
                             "The number of elements of the domain.")
      .def_property_readonly("cosize", &StridedLayout::cosize,
                             "One past the largest offset.")
      .def_property_readonly("rank", &StridedLayout::rank,
                             "The number of top-level modes.")
      .def(
          "descriptor",
          [](const StridedLayout &l) { return unwrap(l.toDescriptor()); },
          "The descriptor: a naive base over the leaves, merges for the "
          "modes of several leaves.");

  // A tiler argument: one Layout (CuTe's Layout tiler), or a sequence of
  // them (by mode); algebra::withTiler reads it.
  auto tiled = [](algebra::TilerFunction f) {
    return [f](const StridedLayout &a, const py::object &t) {
      std::vector<StridedLayout> tiler;
      algebra::TilerKind kind = algebra::TilerKind::ByMode;
      if (py::isinstance<StridedLayout>(t)) {
        tiler.push_back(t.cast<StridedLayout>());
        kind = algebra::TilerKind::Layout;
      } else {
        for (const py::handle &x : t)
          tiler.push_back(x.cast<StridedLayout>());
      }
      return unwrap(algebra::withTiler(f, a, tiler, kind));
    };
  };
  using F = algebra::TilerFunction;
  m.def("coalesce", &algebra::coalesce, py::arg("layout"),
        "CuTe's coalesce: the flat layout of the same 1-D function.");
  m.def("composition", tiled(F::Composition), py::arg("a"), py::arg("b"),
        "A o B; `b` a Layout, or a sequence of them (by mode).");
  m.def(
      "complement",
      [](const StridedLayout &a, I n) {
        return unwrap(algebra::complement(a, n));
      },
      py::arg("layout"), py::arg("size"), "CuTe's complement(A, size).");
  m.def("logical_divide", tiled(F::LogicalDivide), py::arg("a"),
        py::arg("tiler"), "A o (B, complement(B, size(A))).");
  m.def("zipped_divide", tiled(F::ZippedDivide), py::arg("a"), py::arg("tiler"),
        "((tiles), (rests, other modes)).");
  m.def("tiled_divide", tiled(F::TiledDivide), py::arg("a"), py::arg("tiler"),
        "((tiles), rest_0, rest_1, ...).");
  m.def("logical_product", tiled(F::LogicalProduct), py::arg("a"), py::arg("b"),
        "(A, complement(A, size(A) cosize(B)) o B).");
  m.def(
      "blocked_product",
      [](const StridedLayout &a, const StridedLayout &b) {
        return unwrap(algebra::blockedProduct(a, b));
      },
      py::arg("a"), py::arg("b"), "CuTe's blocked product.");
  m.def(
      "raked_product",
      [](const StridedLayout &a, const StridedLayout &b) {
        return unwrap(algebra::rakedProduct(a, b));
      },
      py::arg("a"), py::arg("b"), "CuTe's raked product.");
  m.def("right_inverse", &algebra::rightInverse, py::arg("layout"),
        "The largest R with A(R(i)) = i.");
  m.def(
      "left_inverse",
      [](const StridedLayout &a) { return unwrap(algebra::leftInverse(a)); },
      py::arg("layout"), "L with L(A(i)) = i.");

  m.def(
      "naive",
      [](const V &l, const V &s, I off, std::optional<I> space) {
        checkStatic("lengths", l, /*isList=*/true);
        checkStatic("strides", s, /*isList=*/true);
        return unwrap(Descriptor::naive(l, s, off,
                                        space ? std::optional<int64_t>(*space)
                                              : std::optional<int64_t>()));
      },
      py::arg("lengths"), py::arg("strides"), py::arg("offset") = 0,
      py::arg("space") = py::none(),
      "layout.naive: offset + sum idx_i * stride_i (CK Tile's "
      "make_naive_tensor_descriptor); `space` defaults to the least element "
      "space.");
  m.def(
      "packed",
      [](const V &l) {
        checkStatic("lengths", l, /*isList=*/true);
        return unwrap(Descriptor::packed(l));
      },
      py::arg("lengths"),
      "layout.packed: a row-major descriptor of these lengths.");
  m.def(
      "aligned",
      [](const V &l, I a) { return unwrap(Descriptor::aligned(l, a)); },
      py::arg("lengths"), py::arg("align"),
      "layout.aligned: row-major, the last dim rounded up to a multiple of "
      "`align` elements.");

  // Partitions (Partition.h): the checks, tile counts and tile origins the
  // verifiers and lowerings use.
  m.def(
      "check_partition_tile",
      [](I rank, const V &tile) {
        if (rank < 0)
          throw std::invalid_argument("view rank must not be negative");
        check(checkPartitionTile(size_t(int64_t(rank)), tile));
      },
      py::arg("view_rank"), py::arg("tile"));
  m.def(
      "partition_index_space",
      [](const V &extents, const V &tile) {
        check(checkPartitionTile(extents.size(), tile));
        return toVector(partitionIndexSpace(extents, tile));
      },
      py::arg("extents"), py::arg("tile"));
  m.def(
      "partition_tile_origin",
      [](const V &index, const V &tile) {
        check(checkPartitionTile(index.size(), tile));
        Int64Algebra a;
        V origin;
        for (auto [i, t] : llvm::zip_equal(index, tile))
          origin.push_back(formulas::tileOrigin(a, i, t));
        return origin;
      },
      py::arg("index"), py::arg("tile"));

  py::class_<PyModule>(m, "Module",
                       "An MLIR module with every dialect layout-opt "
                       "knows: parse, build, run pipelines, compile.")
      .def(py::init([]() {
             PyModule pm;
             pm.module = ModuleOp::create(UnknownLoc::get(&context()));
             return pm;
           }),
           "An empty module.")
      .def_static("parse", &PyModule::parse, py::arg("text"),
                  py::arg("filename") = "<python>",
                  "Parses a module; `filename` names the text in every "
                  "location and diagnostic.")
      .def("__str__", &PyModule::str)
      .def("run", &PyModule::run, py::arg("pipeline"),
           "Runs a textual pass pipeline (\"canonicalize,...\" or "
           "\"builtin.module(...)\"); MLIRError with the diagnostics on "
           "failure, remarks kept in `remarks`.")
      .def_readonly("remarks", &PyModule::remarks,
                    "The remarks of the last run (the passes' reports).")
      .def("add_descriptor_function", &addDescriptorFunction, py::arg("name"),
           py::arg("descriptor"),
           "Adds func @name(indices) -> (offset, valid) built with layout ops.")
      .def("compile", &PyModule::compile, py::arg("target") = "rocdl",
           py::arg("chip") = "gfx942", py::arg("format") = "bin",
           py::arg("ftz") = false,
           "Runs -layout-to-rocdl or -layout-to-nvvm on a copy and returns "
           "the code objects (layout_opt.compile wraps it).");
}
