//===- IRCore.cpp - Building IR from Python -------------------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// The IR-building core of the extension: types and attributes (parsed from
// their text, so the dialects' own parsers and verifiers check them),
// values, operations, blocks and regions of a Python-owned Module, and one
// generic operation builder. The per-op builders of layout_opt.ir are
// generated from the ODS definitions (scripts/gen-python-builders.py) and
// call `_create_operation`; nothing here is written per op.
//
// Lifetime: every Value, Operation, Block and Region keeps its Module (the
// Python object) alive. Running passes on the module may erase operations:
// handles taken before Module.run must not be used after it (as with
// upstream MLIR's Python bindings).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <pybind11/stl.h>

namespace layout_python {

namespace {

template <typename T> std::string print(T thing) {
  std::string s;
  llvm::raw_string_ostream os(s);
  thing.print(os);
  return s;
}

/// Parses `text` with `parse` (a type's or an attribute's parser, so the
/// dialect checks it); ValueError with the parser's diagnostics.
template <typename T, typename Parse>
T parseOrRaise(const std::string &text, const char *what, Parse parse) {
  MLIRContext &ctx = context();
  Diagnostics diags(ctx);
  T parsed = parse(text, &ctx);
  if (!parsed)
    diags.raiseValue(std::string("cannot parse the ") + what + " '" + text +
                     "'");
  return parsed;
}

struct PyType {
  Type type;
  static PyType parse(const std::string &text) {
    return {parseOrRaise<Type>(text, "type", [](StringRef t, MLIRContext *c) {
      return mlir::parseType(t, c);
    })};
  }
};

struct PyAttribute {
  Attribute attr;
  static PyAttribute parse(const std::string &text) {
    return {parseOrRaise<Attribute>(text, "attribute",
                                    [](StringRef t, MLIRContext *c) {
                                      return mlir::parseAttribute(t, c);
                                    })};
  }
};

/// Something inside a Python-owned module: the module object stays alive
/// while a handle to its insides does.
struct Owned {
  py::object owner;
};

struct PyValue : Owned {
  Value value;
};

struct PyOperation : Owned {
  Operation *op;
};

struct PyBlock : Owned {
  Block *block;
};

struct PyRegion : Owned {
  Region *region;
};

PyValue wrap(Value v, const py::object &owner) { return {{owner}, v}; }

std::vector<PyValue> wrapAll(ValueRange values, const py::object &owner) {
  std::vector<PyValue> out;
  for (Value v : values)
    out.push_back(wrap(v, owner));
  return out;
}

/// A location for a builder call: file:line:col of the Python caller when
/// given, else unknown.
Location location(const py::object &loc) {
  MLIRContext &ctx = context();
  if (loc.is_none())
    return UnknownLoc::get(&ctx);
  auto t = loc.cast<py::tuple>();
  return FileLineColLoc::get(&ctx, t[0].cast<std::string>(),
                             t[1].cast<unsigned>(), t[2].cast<unsigned>());
}

/// The one generic builder: creates `name` at the end of `block` with the
/// operands, attributes and regions given. Result types are the ones given,
/// or inferred (InferTypeOpInterface) when `resultTypes` is None. The new
/// operation is verified unless it has regions (those are verified when
/// their bodies are complete: PyOperation.verify, or layout_opt.ir's
/// insertion point on exit); a failure erases it and raises ValueError
/// with the verifier's message.
PyOperation createOperation(const std::string &name,
                            const std::vector<PyValue> &operands,
                            const py::dict &attributes,
                            const py::object &resultTypes, unsigned numRegions,
                            PyBlock &block, const py::object &loc) {
  MLIRContext &ctx = context();
  Diagnostics diags(ctx);
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(name, &ctx);
  if (!opName)
    throw std::invalid_argument("unknown operation '" + name +
                                "' (no loaded dialect defines it)");
  OperationState state(location(loc), *opName);
  for (const PyValue &v : operands)
    state.operands.push_back(v.value);
  for (auto [key, value] : attributes)
    state.addAttribute(key.cast<std::string>(), value.cast<PyAttribute>().attr);
  for (unsigned i = 0; i < numRegions; ++i)
    state.addRegion();
  bool infer = resultTypes.is_none();
  if (!infer)
    for (py::handle t : resultTypes.cast<py::sequence>())
      state.types.push_back(t.cast<PyType>().type);
  OpBuilder b(&ctx);
  b.setInsertionPointToEnd(block.block);
  Operation *op = b.create(state);
  if (infer) {
    auto iface = opName->getInterface<InferTypeOpInterface>();
    if (!iface) {
      op->erase();
      throw std::invalid_argument("'" + name +
                                  "' does not infer its result types: pass "
                                  "them (result=...)");
    }
    SmallVector<Type> types;
    if (failed(iface->inferReturnTypes(
            &ctx, op->getLoc(), op->getOperands(), op->getRawDictionaryAttrs(),
            op->getPropertiesStorage(), op->getRegions(), types))) {
      op->erase();
      diags.raiseValue("'" + name + "': cannot infer the result types");
    }
    // Again, with the types (an operation's result count is fixed).
    state.types.assign(types.begin(), types.end());
    op->erase();
    OperationState again(location(loc), *opName);
    again.operands = state.operands;
    again.attributes = state.attributes;
    again.types = state.types;
    for (unsigned i = 0; i < numRegions; ++i)
      again.addRegion();
    op = b.create(again);
  }
  if (numRegions == 0 &&
      failed(mlir::verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    diags.raiseValue("'" + name + "' is invalid");
  }
  return {{block.owner}, op};
}

} // namespace

void bindIRCore(py::module_ &m) {
  py::class_<PyType>(m, "Type",
                     "An MLIR type (parsed and checked by its dialect).")
      .def_static("parse", &PyType::parse, py::arg("text"),
                  "Parses a type (\"index\", \"!layout.desc<4x8>\"); "
                  "ValueError with the parser's message if it is invalid.")
      .def("__str__", [](const PyType &t) { return print(t.type); })
      .def("__repr__",
           [](const PyType &t) { return "Type(" + print(t.type) + ")"; })
      .def("__eq__",
           [](const PyType &a, const PyType &b) { return a.type == b.type; })
      .def("__hash__", [](const PyType &t) {
        return std::hash<const void *>()(t.type.getAsOpaquePointer());
      });
  py::class_<PyAttribute>(m, "Attribute",
                          "An MLIR attribute (parsed and checked by its "
                          "dialect).")
      .def_static("parse", &PyAttribute::parse, py::arg("text"),
                  "Parses an attribute (\"4 : i64\", \"#layout.pad<8, 1, "
                  "2>\"); ValueError with the verifier's message if it is "
                  "invalid.")
      .def("__str__", [](const PyAttribute &a) { return print(a.attr); })
      .def("__repr__",
           [](const PyAttribute &a) {
             return "Attribute(" + print(a.attr) + ")";
           })
      .def("__eq__", [](const PyAttribute &a,
                        const PyAttribute &b) { return a.attr == b.attr; })
      .def("__hash__", [](const PyAttribute &a) {
        return std::hash<const void *>()(a.attr.getAsOpaquePointer());
      });
  py::class_<PyValue>(m, "Value", "An SSA value of a module being built.")
      .def_property_readonly(
          "type", [](const PyValue &v) { return PyType{v.value.getType()}; },
          "The value's type.")
      .def("__str__", [](const PyValue &v) {
        std::string s;
        llvm::raw_string_ostream os(s);
        v.value.printAsOperand(os, OpPrintingFlags());
        return s;
      });
  py::class_<PyOperation>(m, "Operation",
                          "An operation of a module being built.")
      .def_property_readonly(
          "name",
          [](const PyOperation &o) {
            return o.op->getName().getStringRef().str();
          },
          "The operation's name (\"layout.naive\").")
      .def_property_readonly(
          "results",
          [](const PyOperation &o) {
            return wrapAll(o.op->getResults(), o.owner);
          },
          "The results.")
      .def_property_readonly(
          "result",
          [](const PyOperation &o) {
            if (o.op->getNumResults() != 1)
              throw std::invalid_argument(
                  "'" + o.op->getName().getStringRef().str() + "' has " +
                  std::to_string(o.op->getNumResults()) +
                  " results, not one: use .results");
            return wrap(o.op->getResult(0), o.owner);
          },
          "The result of a one-result operation.")
      .def_property_readonly(
          "regions",
          [](const PyOperation &o) {
            std::vector<PyRegion> out;
            for (Region &r : o.op->getRegions())
              out.push_back({{o.owner}, &r});
            return out;
          },
          "The regions.")
      .def(
          "attribute",
          [](const PyOperation &o, const std::string &name) {
            Attribute a = o.op->getAttr(name);
            if (!a)
              throw std::invalid_argument("'" +
                                          o.op->getName().getStringRef().str() +
                                          "' has no attribute '" + name + "'");
            return PyAttribute{a};
          },
          py::arg("name"), "An attribute or property by name.")
      .def(
          "verify",
          [](const PyOperation &o) {
            Diagnostics diags(context());
            if (failed(mlir::verify(o.op)))
              diags.raiseValue("'" + o.op->getName().getStringRef().str() +
                               "' is invalid");
          },
          "Verifies the operation and everything inside it (ValueError "
          "with the verifier's message).")
      .def("__str__", [](const PyOperation &o) {
        std::string s;
        llvm::raw_string_ostream os(s);
        o.op->print(os);
        return s;
      });
  py::class_<PyBlock>(m, "Block", "A block of a module being built.")
      .def_property_readonly(
          "arguments",
          [](const PyBlock &b) {
            return wrapAll(b.block->getArguments(), b.owner);
          },
          "The block's arguments.")
      .def_property_readonly(
          "owner",
          [](const PyBlock &b) -> py::object {
            Operation *op = b.block->getParentOp();
            if (!op)
              return py::none();
            return py::cast(PyOperation{{b.owner}, op});
          },
          "The operation whose region holds the block.");
  py::class_<PyRegion>(m, "Region", "A region of an operation being built.")
      .def(
          "add_block",
          [](PyRegion &r, const std::vector<PyType> &types) {
            Block *block = new Block();
            r.region->push_back(block);
            for (const PyType &t : types)
              block->addArgument(t.type, UnknownLoc::get(&context()));
            return PyBlock{{r.owner}, block};
          },
          py::arg("argument_types") = std::vector<PyType>(),
          "Appends a block with arguments of these types.")
      .def_property_readonly(
          "blocks",
          [](const PyRegion &r) {
            std::vector<PyBlock> out;
            for (Block &b : *r.region)
              out.push_back({{r.owner}, &b});
            return out;
          },
          "The region's blocks.");
  m.def("_create_operation", &createOperation, py::arg("name"),
        py::arg("operands"), py::arg("attributes"), py::arg("result_types"),
        py::arg("num_regions"), py::arg("block"), py::arg("loc"),
        "The generic builder under layout_opt.ir's generated ones.");
  m.def(
      "_module_body",
      [](py::object module) {
        PyModule &pm = module.cast<PyModule &>();
        return PyBlock{{module}, pm.module->getBody()};
      },
      py::arg("module"), "The body block of a Module.");
}

} // namespace layout_python
