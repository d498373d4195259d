#!/usr/bin/env python3
"""Generates layout_opt.ir's op builders from ODS (issue 20).

    gen-python-builders.py RECORDS.json DIALECT [OPS] > _ops_DIALECT.py

RECORDS.json is `llvm-tblgen --dump-json` of the dialect's Ops.td (the
build runs it). One function per operation of DIALECT (or of the listed
ones), named after the op's mnemonic, whose parameters are the op's ODS
arguments in ODS order:

  - an operand is a Value, a Variadic one a list of Values, an Optional one
    a Value or None;
  - an attribute is converted from Python by its ODS kind (a list of ints
    for DenseI64ArrayAttr, an int for I64Attr, a bool for UnitAttr, an enum
    case's name for an enum, ...) or given as an ir.Attribute or its text;
    optional and default-valued attributes default to None;
  - the pair `dynamic_X` (Variadic<Index>) + `X` (DenseI64ArrayAttr) of
    MLIR's DynamicIndexList is one parameter X whose entries are ints or
    Values;
  - results whose type ODS can build (index, i1) need nothing; an op that
    infers its result types (InferTypeOpInterface) takes them optionally;
    otherwise `result` (`results` for several or variadic ones) is a Type
    or its text.

A function returns the result Value (one result), the list of results
(several or variadic), or the Operation (no results, or regions to fill).
Nothing is written per op: the signatures come from ODS alone.
"""

import json
import keyword
import re
import sys

HEADER = '''"""Builders of the %(dialect)s dialect's operations, generated from ODS by
scripts/gen-python-builders.py: do not edit."""

from . import _ir_runtime as _rt

'''

# Types ODS can build: its builderCall, as IR text.
BUILDABLE = {
    "$_builder.getIndexType()": "index",
    "$_builder.getIntegerType(1)": "i1",
    "$_builder.getI1Type()": "i1",
    "$_builder.getIntegerType(32)": "i32",
    "$_builder.getIntegerType(64)": "i64",
    "$_builder.getF32Type()": "f32",
}

# Attributes an op's C++ builder sets that ODS does not list, so the generic
# builder would leave them out: gpu.func's parser and builder set the count
# of workgroup buffers, which GPUFuncOp::addWorkgroupAttribution reads
# (without it, a pass that adds a workgroup buffer crashes).
BUILDER_ATTRS = {"gpu.func": {"workgroup_attributions": "0 : i64"}}

# Attribute kinds the runtime converts from Python values (by ODS def name,
# or the name of a base class of it).
ATTR_KINDS = {
    "DenseI64ArrayAttr": "dense_i64",
    "DenseI32ArrayAttr": "dense_i32",
    "I64Attr": "i64",
    "I32Attr": "i32",
    "IndexAttr": "index",
    "UnitAttr": "unit",
    "BoolAttr": "bool",
    "StrAttr": "str",
    "SymbolNameAttr": "str",
    "FlatSymbolRefAttr": "symbol",
    "SymbolRefAttr": "symbol",
    "TypeAttr": "type",
    "F32Attr": "f32",
    "F64Attr": "f64",
}


def superclasses(records, name):
    return records[name].get("!superclasses", [])


def classify(records, name):
    """('operand', 'single'|'variadic'|'optional', base) or
    ('attr', 'required'|'optional', base)."""
    sup = superclasses(records, name)
    r = records[name]
    if "TypeConstraint" in sup or "Type" in sup or "TypeDef" in sup:
        if "Variadic" in sup:
            return ("operand", "variadic", r["baseType"]["def"])
        if "Optional" in sup:
            return ("operand", "optional", r["baseType"]["def"])
        return ("operand", "single", name)
    if name == "UnitAttr" or "UnitAttr" in sup:
        return ("attr", "optional", "UnitAttr")
    base = r["baseAttr"]["def"] if isinstance(r.get("baseAttr"), dict) \
        else name
    if r.get("isOptional") or r.get("defaultValue"):
        return ("attr", "optional", base)
    return ("attr", "required", base)


def attr_kind(records, name):
    if name in ATTR_KINDS:
        return ATTR_KINDS[name], None
    sup = superclasses(records, name)
    for s in reversed(sup):
        if s in ATTR_KINDS:
            return ATTR_KINDS[s], None
    if "EnumAttrInfo" in sup and "IntEnumAttr" in sup:
        cases = {}
        for c in records[name]["enumerants"]:
            case = records[c["def"]]
            cases[case["str"]] = case["value"]
        width = 64 if "I64EnumAttr" in sup else 32
        return "enum", (cases, width)
    return "any", None


def infers(records, op):
    for t in records[op]["traits"]:
        r = records[t["def"]]
        if r.get("cppInterfaceName") == "InferTypeOpInterface" or \
                t["def"] == "InferTypeOpInterface":
            return True
    return False


def has_trait(records, op, trait):
    return any(t["def"] == trait for t in records[op]["traits"])


def pyname(name):
    return name + "_" if keyword.iskeyword(name) or name in (
        "result", "results", "loc", "block") else name


def generate(records, dialect, only=None):
    ops = []
    for name in sorted(records["!instanceof"]["Op"]):
        r = records[name]
        d = records[r["opDialect"]["def"]]["name"]
        if d != dialect:
            continue
        full = d + "." + r["opName"]
        if only and r["opName"] not in only and full not in only:
            continue
        ops.append((name, full, r))
    out = [HEADER % {"dialect": dialect}]
    names = []
    for name, full, r in ops:
        args = [(a[1], classify(records, a[0]["def"]))
                for a in r["arguments"]["args"]]
        results = [(a[1], classify(records, a[0]["def"]))
                   for a in r["results"]["args"]]
        nregions = len(r["regions"]["args"])
        segmented = has_trait(records, name, "AttrSizedOperandSegments")
        inferred = infers(records, name)
        names_in = {a for a, _ in args}
        params, body, doc_args = [], [], []
        # Required parameters first, then the ones with defaults (keywords).
        seen = set()
        for arg, (what, how, base) in args:
            if arg in seen:
                continue
            p = pyname(arg)
            if what == "operand":
                static = arg[len("dynamic_"):] if arg.startswith("dynamic_") \
                    else None
                if static and static in names_in:
                    # A DynamicIndexList pair: one parameter, ints or Values.
                    seen.add(static)
                    sp = pyname(static)
                    params.append(sp)
                    body.append("    _v, _s = _rt.dynamic_index_list(%s, %r)"
                                % (sp, static))
                    body.append("    _operands += _v")
                    body.append("    _segments.append(len(_v))")
                    body.append("    _attrs[%r] = _rt.attr('dense_i64', _s, "
                                "%r)" % (static, static))
                    doc_args.append("%s: ints and Values (%s and %s)"
                                    % (sp, static, arg))
                    continue
                if how == "single":
                    params.append(p)
                    body.append("    _operands.append(_rt.value(%s, %r))"
                                % (p, arg))
                    body.append("    _segments.append(1)")
                    doc_args.append("%s: Value" % p)
                elif how == "variadic":
                    params.append(p + "=()")
                    body.append("    _v = _rt.values(%s, %r)" % (p, arg))
                    body.append("    _operands += _v")
                    body.append("    _segments.append(len(_v))")
                    doc_args.append("%s: list of Values" % p)
                else:
                    params.append(p + "=None")
                    body.append("    _v = [] if %s is None else "
                                "[_rt.value(%s, %r)]" % (p, p, arg))
                    body.append("    _operands += _v")
                    body.append("    _segments.append(len(_v))")
                    doc_args.append("%s: Value or None" % p)
                continue
            kind, extra = attr_kind(records, base)
            if how == "optional":
                params.append(p + "=None")
                body.append("    if %s is not None and %s is not False:" % (p, p))
                body.append("        _attrs[%r] = _rt.attr(%r, %s, %r, %r)"
                            % (arg, kind, p, arg, extra))
            else:
                params.append(p)
                body.append("    _attrs[%r] = _rt.attr(%r, %s, %r, %r)"
                            % (arg, kind, p, arg, extra))
            doc_args.append("%s: %s%s" % (p, base, " (optional)"
                                          if how == "optional" else ""))
        # Results.
        fixed = []
        for res, (_, how, base) in results:
            call = records[base].get("builderCall", "") if how == "single" \
                else ""
            fixed.append(BUILDABLE.get(call))
        several = len(results) != 1 or results[0][1][1] != "single"
        if not results:
            types_expr = "[]"
        elif all(fixed) and not several:
            types_expr = "[_rt.type_of(%r, 'result')]" % fixed[0]
        else:
            rp = "results" if several else "result"
            params.append(rp + "=None")
            if several:
                types_expr = ("None if results is None else "
                              "[_rt.type_of(t, 'results') for t in results]")
            else:
                types_expr = ("None if result is None else "
                              "[_rt.type_of(result, 'result')]")
            # Omitted, the op infers them (InferTypeOpInterface, also the
            # one ODS adds for SameOperandsAndResultType), or the builder
            # says to pass them.
            doc_args.append("%s: Type or its text%s" % (
                rp, " (may be omitted: inferred)" if inferred else
                " (omitted: inferred where the op can)"))
        if not segmented:
            # Segment sizes matter only to AttrSizedOperandSegments ops.
            body = [l for l in body if "_segments.append" not in l]
        if segmented:
            body.append("    _attrs['operandSegmentSizes'] = "
                        "_rt.attr('dense_i32', _segments, "
                        "'operandSegmentSizes')")
        params = [p for p in params if "=" not in p] + \
            [p for p in params if "=" in p] + ["attributes=None", "loc=None"]
        for k, v in BUILDER_ATTRS.get(full, {}).items():
            body.append("    _attrs[%r] = _rt.attr('any', %r, %r)" % (k, v, k))
        # Attributes ODS does not list (a symbol's name, discardable ones).
        body.append("    for _k, _a in (attributes or {}).items():")
        body.append("        _attrs[_k] = _rt.attr('any', _a, _k)")
        summary = r.get("summary", "").strip() or full
        fn = pyname(r["opName"].replace(".", "_"))
        names.append(fn)
        out.append("def %s(%s):" % (fn, ", ".join(params)))
        doc = '    """%s: %s\n' % (full, summary)
        doc_args.append("attributes: more attributes by name (Attributes or "
                        "their text)")
        doc_args.append("loc: (file, line, column); the caller's line when "
                        "omitted")
        doc += "\n" + "".join("    %s\n" % d for d in doc_args)
        doc += "\n    Returns %s.\n    \"\"\"" % (
            "the Operation (fill its regions)" if nregions else
            "the Operation" if not results else
            "the list of results" if several else "the result Value")
        out.append(doc)
        out.append("    _operands, _attrs, _segments = [], {}, []")
        out += body
        ret = ("op" if nregions or not results else
               "op.results" if several else "op.result")
        out.append("    op = _rt.create(%r, _operands, _attrs, %s, %d, loc)"
                   % (full, types_expr, nregions))
        out.append("    return %s" % ret)
        out.append("")
        out.append("")
    return "\n".join(out) + "\n", names


# The kinds of attribute/type parameters the runtime formats, and the
# custom directives it knows (_ir_runtime.DIRECTIVES: the layout dialect's).
PARAM_KINDS = {"int64_t": "int", "Layout_Size": "size", "::mlir::Type": "type",
               "::llvm::ArrayRef<int64_t>": "list"}
DIRECTIVES = {"IntList", "DimList", "ShapeAndType"}


def param_kind(records, p):
    """The kind of a parameter (PARAM_KINDS), or None."""
    if not isinstance(p, dict):
        return PARAM_KINDS.get(p)
    if p["def"] in PARAM_KINDS:
        return PARAM_KINDS[p["def"]]
    return PARAM_KINDS.get(records[p["def"]].get("cppType"))


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def unsupported_syntax(fmt):
    """Whether an assembly format uses what format_pieces does not read
    (optional groups, anchors, struct/params/qualified directives)."""
    rest = re.sub(r"custom<\w+>\([^)]*\)|`[^`]*`", "", fmt)
    return any(t in rest for t in ("(", "^", "struct", "params", "qualified"))


def format_pieces(fmt, params):
    """The pieces of a declarative attribute/type assembly format: literals,
    parameters and custom directives, each as the runtime takes them."""
    pieces = []
    for m in re.finditer(r"`([^`]*)`|custom<(\w+)>\(([^)]*)\)|\$(\w+)", fmt):
        lit, custom, custom_args, param = m.groups()
        if lit is not None:
            pieces.append(("lit", lit))
        elif custom and not all(a.strip().lstrip("$") in params
                                for a in custom_args.split(",")):
            pieces.append(("custom", None, []))
        elif custom:
            names = [a.strip().lstrip("$") for a in custom_args.split(",")]
            pieces.append(("custom", custom, names))
        else:
            pieces.append(("param", params.get(param), param))
    return pieces


def generate_defs(records, dialect):
    """One builder per attribute and type of the dialect, from its ODS
    parameters and declarative assembly format: the text is formatted and
    parsed, so the dialect's parser and verifier check it."""
    out, names = [], []
    for cls, prefix, suffix in (("TypeDef", "!", "type"),
                                ("AttrDef", "#", "attr")):
        for name in sorted(records["!instanceof"].get(cls, [])):
            r = records[name]
            if records[r["dialect"]["def"]]["name"] != dialect or \
                    not r.get("mnemonic") or not r.get("assemblyFormat"):
                continue
            if unsupported_syntax(r["assemblyFormat"]):
                continue
            params = {pname: param_kind(records, p)
                      for p, pname in r["parameters"]["args"]}
            pieces = format_pieces(r["assemblyFormat"], params)
            # Only defs whose every parameter and directive the runtime
            # formats (upstream dialects' defs are left to Attribute.parse).
            if None in params.values() or any(
                    (p[0] == "custom" and p[1] not in DIRECTIVES) or
                    (p[0] == "param" and p[1] is None) for p in pieces):
                continue
            fn = "%s_%s" % (r["mnemonic"], suffix)
            names.append(fn)
            args = [pyname(snake(p)) for p in params]
            full = "%s%s.%s" % (prefix, dialect, r["mnemonic"])
            doc = ['    """%s: %s' % (full, (r.get("summary") or "").strip()),
                   ""]
            for p, kind in params.items():
                doc.append("    %s: %s" % (pyname(snake(p)), {
                    "int": "an int", "size": "an int, or None for '?'",
                    "type": "an ir.Type or its text",
                    "list": "a list of ints (None for '?')"}[kind]))
            doc += ["", "    Returns the %s (ValueError with the dialect's "
                    "message if invalid)." % ("ir.Type" if suffix == "type"
                                              else "ir.Attribute"),
                    '    """']
            out.append("def %s(%s):" % (fn, ", ".join(args)))
            out += doc
            names_map = ", ".join("%r: %s" % (p, pyname(snake(p)))
                                  for p in params)
            out.append("    return _rt.build_def(%r, %r, %r, {%s})"
                       % (suffix, full, pieces, names_map))
            out.append("")
            out.append("")
    return "\n".join(out) + "\n", names


def main():
    records = json.load(open(sys.argv[1]))
    dialect = sys.argv[2]
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] \
        else None
    text, names = generate(records, dialect, only)
    # Builders of the attributes and types, for the dialects whose defs the
    # records hold with declarative formats (the layout dialect's).
    defs, def_names = generate_defs(records, dialect)
    sys.stdout.write(text + defs + "__all__ = %r\n" % (names + def_names))


if __name__ == "__main__":
    main()
