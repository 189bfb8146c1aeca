#!/usr/bin/env python3
"""Converts the test tables of apiextensions-apiserver's CEL validator tests into JSON.

Usage: convert_go_tables.py <apiextensions-apiserver checkout> <output dir>

Reads `pkg/apiserver/schema/cel/validation_test.go` and
`pkg/apiserver/schema/defaulting/validation_test.go`, evaluates the table literal of each
test function with a small evaluator of the Go expressions the tables use (composite
literals, the file's helper functions such as `objs`, `schemas`, `withRule`,
`mustSchema`, `fmt.Sprintf`, `strings.Repeat`), and writes one JSON file per test
function: a list of cases, each the table entry's fields. Schemas are written as
`JSONSchemaProps` JSON (the form CRDs are written in), objects as JSON. Nothing is
interpreted beyond evaluating the literals: how a table is run is the Rust test's job.

The conversion is mechanical; rerun it to check the JSON against the Go sources.
"""

import json
import re
import sys

import yaml

# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------

TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)+')
  | (?P<num>0[xX][0-9a-fA-F_]+|(?:\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\.\.\.|&&|\|\||==|!=|<=|>=|:=|<<|>>|&\^|[-+*/%&|^!<>=(){}\[\],;:.])
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(src):
    out = []
    pos = 0
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise SyntaxError("bad token at %r" % src[pos : pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        out.append((kind, m.group()))
    return out


def go_unquote(lit):
    """A Go interpreted string or rune literal's value."""
    body = lit[1:-1]
    out = []
    i = 0
    simple = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"'}
    raw_bytes = bytearray()

    def flush_bytes():
        if raw_bytes:
            out.append(raw_bytes.decode("utf-8"))
            raw_bytes.clear()

    while i < len(body):
        c = body[i]
        if c != "\\":
            flush_bytes()
            out.append(c)
            i += 1
            continue
        d = body[i + 1]
        if d in simple:
            flush_bytes()
            out.append(simple[d])
            i += 2
        elif d == "x":
            raw_bytes.append(int(body[i + 2 : i + 4], 16))
            i += 4
        elif d in "01234567":
            raw_bytes.append(int(body[i + 1 : i + 4], 8))
            i += 4
        elif d == "u":
            flush_bytes()
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        elif d == "U":
            flush_bytes()
            out.append(chr(int(body[i + 2 : i + 10], 16)))
            i += 10
        else:
            raise SyntaxError("bad escape " + d)
    flush_bytes()
    return "".join(out)


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


class GoStruct(dict):
    """A struct value: its type name and fields."""

    def __init__(self, type_name, fields):
        super().__init__(fields)
        self.type_name = type_name


class Float(float):
    """A float64 (kept apart from integers so JSON keeps `10.0`)."""


class Func:
    def __init__(self, name, fn):
        self.name = name
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


class TypeRef:
    """A type used as a value: a conversion, or the type of a composite literal."""

    def __init__(self, kind, name=None, elem=None, key=None, fields=None):
        self.kind = kind  # "named", "slice", "map", "ptr", "struct"
        self.name = name
        self.elem = elem
        self.key = key
        self.fields = fields

    def __call__(self, v):
        if self.kind == "named":
            if self.name in ("int", "int32", "int64", "uint64", "uint"):
                return int(v)
            if self.name in ("float64", "float32"):
                return Float(v)
            if self.name == "string":
                return v if isinstance(v, str) else chr(v)
        return v

    def __repr__(self):
        return "TypeRef(%s %s)" % (self.kind, self.name)


# ---------------------------------------------------------------------------
# Parser + evaluator (one pass: expressions are evaluated as they are parsed)
# ---------------------------------------------------------------------------


class Evaluator:
    def __init__(self, tokens, env):
        self.toks = tokens
        self.i = 0
        self.env = env

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("eof", "")

    def next(self):
        t = self.peek()
        self.i += 1
        return t

    def expect(self, text):
        t = self.next()
        if t[1] != text:
            raise SyntaxError("expected %r, got %r near %r" % (text, t, self.toks[self.i - 5 : self.i + 5]))

    # --- types ---------------------------------------------------------------

    def parse_type(self):
        t = self.peek()
        if t[1] == "*":
            self.next()
            return TypeRef("ptr", elem=self.parse_type())
        if t[1] == "[":
            self.next()
            self.expect("]")
            return TypeRef("slice", elem=self.parse_type())
        if t[1] == "map":
            self.next()
            self.expect("[")
            key = self.parse_type()
            self.expect("]")
            return TypeRef("map", key=key, elem=self.parse_type())
        if t[1] == "interface":
            self.next()
            self.expect("{")
            self.expect("}")
            return TypeRef("named", name="interface{}")
        if t[1] == "struct":
            self.next()
            return TypeRef("struct", fields=self.parse_struct_fields())
        name = self.next()[1]
        while self.peek()[1] == "." and self.peek(1)[0] == "ident":
            self.next()
            name += "." + self.next()[1]
        return TypeRef("named", name=name)

    def parse_struct_fields(self):
        """`{ a, b T; c U }` (newlines separate fields); returns the field names."""
        self.expect("{")
        names = []
        depth = 0
        expecting_name = True
        while True:
            t = self.next()
            if t[1] == "{":
                depth += 1
            elif t[1] == "}":
                if depth == 0:
                    break
                depth -= 1
            if depth == 0 and expecting_name and t[0] == "ident":
                names.append(t[1])
                # `a, b T`: more names follow a comma
                if self.peek()[1] == ",":
                    self.next()
                    continue
                expecting_name = False
                self.skip_field_type()
                expecting_name = True
        return names

    def skip_field_type(self):
        """Skips a field's type up to the end of its line (tokens carry no lines, so the
        type is parsed)."""
        self.parse_type()

    # --- expressions ---------------------------------------------------------

    BINARY = [
        ["||"],
        ["&&"],
        ["==", "!=", "<", "<=", ">", ">="],
        ["+", "-", "|", "^"],
        ["*", "/", "%", "<<", ">>", "&", "&^"],
    ]

    def expr(self, level=0):
        if level == len(self.BINARY):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self.BINARY[level]:
            op = self.next()[1]
            right = self.expr(level + 1)
            left = self.binop(op, left, right)
        return left

    def binop(self, op, a, b):
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        raise SyntaxError("operator " + op)

    def unary(self):
        t = self.peek()
        if t[1] == "-":
            self.next()
            v = self.unary()
            return Float(-v) if isinstance(v, Float) else -v
        if t[1] == "!":
            self.next()
            return not self.unary()
        if t[1] == "&":
            self.next()
            return self.unary()  # pointers are the values themselves
        if t[1] == "*":
            self.next()
            return self.unary()
        return self.primary()

    def primary(self):
        t = self.peek()
        if t[1] in ("[", "map", "struct") or (t[1] == "interface" and self.peek(1)[1] == "{"):
            typ = self.parse_type()
            if self.peek()[1] == "{":
                v = self.composite(typ)
            else:
                v = typ
        elif t[0] == "str":
            self.next()
            v = go_unquote(t[1])
        elif t[0] == "raw":
            self.next()
            v = t[1][1:-1].replace("\r", "")
        elif t[0] == "rune":
            self.next()
            v = ord(go_unquote(t[1]))
        elif t[0] == "num":
            self.next()
            s = t[1].replace("_", "")
            if s.lower().startswith("0x"):
                v = int(s, 16)
            elif "." in s or "e" in s.lower():
                v = Float(float(s))
            else:
                v = int(s)
        elif t[1] == "(":
            self.next()
            v = self.expr()
            self.expect(")")
        elif t[1] == "func":
            raise SyntaxError("function literals are not supported")
        elif t[0] == "ident":
            v = self.qualified()
        else:
            raise SyntaxError("unexpected %r near %r" % (t, self.toks[self.i - 5 : self.i + 5]))
        while True:
            t = self.peek()
            if t[1] == "(":
                self.next()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.expr())
                    if self.peek()[1] == ",":
                        self.next()
                if self.peek()[1] == "...":
                    self.next()
                self.expect(")")
                v = v(*args)
            elif t[1] == "[":
                self.next()
                if isinstance(v, Func):
                    # generic instantiation, e.g. ptr.To[int64]
                    self.parse_type()
                    self.expect("]")
                else:
                    idx = self.expr()
                    self.expect("]")
                    v = v[idx]
            elif t[1] == "{" and isinstance(v, TypeRef):
                v = self.composite(v)
            elif t[1] == "." and self.peek(1)[0] == "ident":
                self.next()
                field = self.next()[1]
                v = v[field]
            else:
                return v

    def qualified(self):
        name = self.next()[1]
        if name in self.env:
            v = self.env[name]
        else:
            # a package-qualified name (`schema.Structural`, `math.MaxInt64`)
            if self.peek()[1] == "." and self.peek(1)[0] == "ident":
                self.next()
                name += "." + self.next()[1]
            if name in self.env:
                v = self.env[name]
            elif self.peek()[1] == "{":
                v = TypeRef("named", name=name)
            else:
                raise NameError(name)
        return v

    def composite(self, typ):
        """`T{...}` with `T` known (or `None` for an elided type)."""
        while typ is not None and typ.kind == "ptr":
            typ = typ.elem
        self.expect("{")
        elems = []
        keyed = False
        while self.peek()[1] != "}":
            key = None
            if self.peek()[1] == "{":
                val = self.composite(self.elem_type(typ, None))
            else:
                is_field_key = (
                    self.peek()[0] == "ident"
                    and self.peek(1)[1] == ":"
                    and (typ is None or typ.kind in ("named", "struct"))
                )
                if is_field_key:
                    key = self.next()[1]
                    self.next()
                    keyed = True
                    val = self.value_of(self.elem_type(typ, key))
                else:
                    first = self.expr()
                    if self.peek()[1] == ":":
                        self.next()
                        key = first
                        keyed = True
                        val = self.value_of(self.elem_type(typ, key))
                    else:
                        val = first
            elems.append((key, val))
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        if typ is not None and typ.kind == "slice":
            return [v for _, v in elems]
        if typ is not None and typ.kind == "map":
            return {k: v for k, v in elems}
        if typ is None and not keyed:
            return [v for _, v in elems]
        name = typ.name if typ is not None else None
        return make_struct(name, dict(elems))

    def value_of(self, typ):
        if self.peek()[1] == "{":
            return self.composite(typ)
        return self.expr()

    def elem_type(self, typ, key):
        if typ is None:
            return None
        if typ.kind in ("slice", "map"):
            return typ.elem
        if typ.kind == "named":
            return STRUCT_FIELD_TYPES.get((typ.name, key))
        return None


# Field types of the structs whose composite literals elide element types.
def _named(n):
    return TypeRef("named", name=n)


STRUCT_FIELD_TYPES = {
    ("schema.Structural", "Properties"): TypeRef("map", key=_named("string"), elem=_named("schema.Structural")),
    ("schema.Structural", "AdditionalProperties"): _named("schema.StructuralOrBool"),
    ("schema.ValueValidation", "AllOf"): TypeRef("slice", elem=_named("schema.NestedValueValidation")),
    ("schema.ValueValidation", "Enum"): TypeRef("slice", elem=_named("schema.JSON")),
    ("schema.NestedValueValidation", "Properties"): TypeRef(
        "map", key=_named("string"), elem=_named("schema.NestedValueValidation")
    ),
    ("schema.NestedValueValidation", "ValueValidation"): _named("schema.ValueValidation"),
    ("schema.NestedValueValidation", "ValidationExtensions"): _named("schema.ValidationExtensions"),
    ("schema.NestedValueValidation", "AdditionalProperties"): _named("schema.NestedValueValidation"),
    ("schema.ValidationExtensions", "XValidations"): TypeRef("slice", elem=_named("apiextensions.ValidationRule")),
    ("apiextensions.JSONSchemaProps", "Properties"): TypeRef(
        "map", key=_named("string"), elem=_named("apiextensions.JSONSchemaProps")
    ),
    ("apiextensions.JSONSchemaProps", "XValidations"): TypeRef("slice", elem=_named("apiextensions.ValidationRule")),
    ("apiextensions.CustomResourceValidation", "OpenAPIV3Schema"): _named("apiextensions.JSONSchemaProps"),
    ("field.ErrorList", None): _named("field.Error"),
}


# ---------------------------------------------------------------------------
# Go structs → JSON (JSONSchemaProps for schemas)
# ---------------------------------------------------------------------------


def rule_json(r):
    out = {"rule": r.get("Rule", "")}
    for go, js in [("Message", "message"), ("MessageExpression", "messageExpression"), ("FieldPath", "fieldPath")]:
        if r.get(go):
            out[js] = r[go]
    if r.get("Reason") is not None:
        out["reason"] = r["Reason"]
    if r.get("OptionalOldSelf") is not None:
        out["optionalOldSelf"] = r["OptionalOldSelf"]
    return out


def value_validation_json(vv, out):
    if not vv:
        return
    simple = {
        "Format": "format",
        "Maximum": "maximum",
        "ExclusiveMaximum": "exclusiveMaximum",
        "Minimum": "minimum",
        "ExclusiveMinimum": "exclusiveMinimum",
        "MaxLength": "maxLength",
        "MinLength": "minLength",
        "Pattern": "pattern",
        "MaxItems": "maxItems",
        "MinItems": "minItems",
        "MultipleOf": "multipleOf",
        "MaxProperties": "maxProperties",
        "MinProperties": "minProperties",
        "Required": "required",
    }
    for go, js in simple.items():
        if vv.get(go) not in (None, "", False, []):
            out[js] = vv[go]
    if vv.get("Enum"):
        out["enum"] = [e["Object"] for e in vv["Enum"]]
    for go, js in [("AllOf", "allOf"), ("AnyOf", "anyOf"), ("OneOf", "oneOf")]:
        if vv.get(go):
            out[js] = [nested_json(n) for n in vv[go]]
    if vv.get("Not"):
        out["not"] = nested_json(vv["Not"])


def nested_json(n):
    out = {}
    value_validation_json(n.get("ValueValidation"), out)
    rules = (n.get("ValidationExtensions") or {}).get("XValidations")
    if rules:
        out["x-kubernetes-validations"] = [rule_json(r) for r in rules]
    if n.get("Items"):
        out["items"] = nested_json(n["Items"])
    if n.get("Properties"):
        out["properties"] = {k: nested_json(v) for k, v in n["Properties"].items()}
    if n.get("AdditionalProperties"):
        out["additionalProperties"] = nested_json(n["AdditionalProperties"])
    return out


def structural_json(s):
    """A `schema.Structural` struct as `JSONSchemaProps` JSON."""
    out = {}
    g = s.get("Generic") or {}
    if g.get("Type"):
        out["type"] = g["Type"]
    if g.get("Nullable"):
        out["nullable"] = True
    if g.get("Default") is not None and g["Default"].get("Object") is not None:
        out["default"] = g["Default"]["Object"]
    e = s.get("Extensions") or {}
    if e.get("XPreserveUnknownFields"):
        out["x-kubernetes-preserve-unknown-fields"] = True
    if e.get("XEmbeddedResource"):
        out["x-kubernetes-embedded-resource"] = True
    if e.get("XIntOrString"):
        out["x-kubernetes-int-or-string"] = True
    if e.get("XListType") is not None:
        out["x-kubernetes-list-type"] = e["XListType"]
    if e.get("XListMapKeys"):
        out["x-kubernetes-list-map-keys"] = e["XListMapKeys"]
    if e.get("XMapType") is not None:
        out["x-kubernetes-map-type"] = e["XMapType"]
    value_validation_json(s.get("ValueValidation"), out)
    rules = (s.get("ValidationExtensions") or {}).get("XValidations")
    if rules:
        out["x-kubernetes-validations"] = [rule_json(r) for r in rules]
    if s.get("Items") is not None:
        out["items"] = to_schema(s["Items"])
    if s.get("Properties") is not None:
        out["properties"] = {k: to_schema(v) for k, v in s["Properties"].items()}
    ap = s.get("AdditionalProperties")
    if ap is not None:
        if ap.get("Structural") is not None:
            out["additionalProperties"] = to_schema(ap["Structural"])
        else:
            out["additionalProperties"] = bool(ap.get("Bool"))
    return out


def props_json(p):
    """An `apiextensions.JSONSchemaProps` struct as JSON."""
    out = {}
    simple = {"Type": "type", "Format": "format", "Nullable": "nullable", "XEmbeddedResource": "x-kubernetes-embedded-resource"}
    for go, js in simple.items():
        if p.get(go):
            out[js] = p[go]
    if p.get("Default") is not None:
        out["default"] = p["Default"]
    if p.get("Properties"):
        out["properties"] = {k: to_schema(v) for k, v in p["Properties"].items()}
    if p.get("XValidations"):
        out["x-kubernetes-validations"] = [rule_json(r) for r in p["XValidations"]]
    return out


def to_schema(v):
    if isinstance(v, RawSchema):
        return v.json
    if isinstance(v, GoStruct) and v.type_name == "apiextensions.JSONSchemaProps":
        return props_json(v)
    return structural_json(v)


class RawSchema:
    """A schema decoded from YAML (`mustSchema`): already JSONSchemaProps."""

    def __init__(self, j):
        self.json = j

    def __getitem__(self, k):
        raise KeyError(k)


def make_struct(name, fields):
    return GoStruct(name, fields)


def to_json(v):
    """Objects (Go `interface{}` values) as JSON-ready Python values."""
    if isinstance(v, RawSchema):
        return v.json
    if isinstance(v, GoStruct):
        if v.type_name in ("schema.Structural", "apiextensions.JSONSchemaProps"):
            return to_schema(v)
        return {k: to_json(x) for k, x in v.items()}
    if isinstance(v, dict):
        return {k: to_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_json(x) for x in v]
    if isinstance(v, Float):
        return float(v)
    return v


# ---------------------------------------------------------------------------
# The test files' helpers (validation_test.go), as Python
# ---------------------------------------------------------------------------


def copy_struct(s):
    c = GoStruct(s.type_name, dict(s))
    for k in ("Generic", "Extensions", "ValidationExtensions"):
        if isinstance(c.get(k), dict):
            c[k] = GoStruct(getattr(c[k], "type_name", None), dict(c[k]))
    return c


def primitive_type(typ, fmt):
    s = GoStruct("schema.Structural", {"Generic": GoStruct("schema.Generic", {"Type": typ})})
    if fmt:
        s["ValueValidation"] = GoStruct("schema.ValueValidation", {"Format": fmt})
    return s


def array_type(list_type, keys, items):
    s = GoStruct(
        "schema.Structural",
        {
            "Generic": GoStruct("schema.Generic", {"Type": "array"}),
            "Extensions": GoStruct("schema.Extensions", {"XListType": list_type}),
            "Items": items,
        },
    )
    if keys and list_type == "map":
        s["Extensions"]["XListMapKeys"] = keys
    return s


def object_type(props):
    return GoStruct("schema.Structural", {"Generic": GoStruct("schema.Generic", {"Type": "object"}), "Properties": props})


def map_type(val):
    return GoStruct(
        "schema.Structural",
        {
            "Generic": GoStruct("schema.Generic", {"Type": "object"}),
            "AdditionalProperties": GoStruct("schema.StructuralOrBool", {"Bool": True, "Structural": val}),
        },
    )


def with_rules(s, rules):
    s = copy_struct(s)
    s["ValidationExtensions"] = GoStruct("schema.ValidationExtensions", {"XValidations": rules})
    return s


def with_rule_ptr(s, rule):
    # mutates its argument, like Go's
    s["ValidationExtensions"] = GoStruct("schema.ValidationExtensions", {"XValidations": [{"Rule": rule}]})
    return s


def with_value_validation(s, field, value):
    s = copy_struct(s)
    vv = GoStruct("schema.ValueValidation", dict(s.get("ValueValidation") or {}))
    vv[field] = value
    s["ValueValidation"] = vv
    return s


def with_generic(s, field, value):
    s = copy_struct(s)
    s["Generic"] = GoStruct("schema.Generic", dict(s.get("Generic") or {}))
    s["Generic"][field] = value
    return s


def deep_copy(v):
    if isinstance(v, GoStruct):
        return GoStruct(v.type_name, {k: deep_copy(x) for k, x in v.items()})
    if isinstance(v, dict):
        return {k: deep_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [deep_copy(x) for x in v]
    return v


def fix_tabs_or_die(src):
    lines = src.split("\n")
    if len(lines[0]) == 0 and len(lines) > 1:
        lines = lines[1:]
    prefix = ""
    for c in lines[0]:
        if c != "\t":
            break
        prefix += "\t"
    for i, line in enumerate(lines):
        if i == len(lines) - 1 and len(line) <= len(prefix) and line.strip() == "":
            lines[i] = ""
            break
        if not line.startswith(prefix):
            raise ValueError("line %d lacks the tab prefix" % i)
        lines[i] = line[len(prefix) :]
    return "\n".join(lines).replace("\t", "  ")


def must_yaml(src):
    return yaml.safe_load(fix_tabs_or_die(src))


def go_sprintf(fmt, *args):
    out = []
    args = list(args)
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        verb = fmt[i + 1]
        i += 2
        if verb == "%":
            out.append("%")
            continue
        a = args.pop(0)
        if verb == "d":
            out.append(str(int(a)))
        elif verb == "s" or verb == "v":
            out.append(str(a))
        elif verb == "f":
            out.append("%f" % a)
        elif verb == "q":
            out.append(json.dumps(a, ensure_ascii=False))
        else:
            raise ValueError("verb " + verb)
    return "".join(out)


def gen_string(n, c):
    return chr(c) * n


def base_env():
    env = {}
    funcs = {
        "objs": lambda *vals: {"val%d" % (i + 1): v for i, v in enumerate(vals)},
        "schemas": lambda *ss: object_type({"val%d" % (i + 1): s for i, s in enumerate(ss)}),
        "primitiveType": primitive_type,
        "listType": lambda items: array_type("atomic", None, items),
        "listTypePtr": lambda items: array_type("atomic", None, items),
        "listSetType": lambda items: array_type("set", None, items),
        "listMapType": lambda keys, items: array_type("map", keys, items),
        "listMapTypePtr": lambda keys, items: array_type("map", keys, items),
        "arrayType": array_type,
        "objectType": object_type,
        "objectTypePtr": object_type,
        "mapType": map_type,
        "mapTypePtr": map_type,
        "intOrStringType": lambda: GoStruct(
            "schema.Structural", {"Extensions": GoStruct("schema.Extensions", {"XIntOrString": True})}
        ),
        "withRule": lambda s, rule: with_rules(s, [{"Rule": rule}]),
        "withRuleMessageAndMessageExpression": lambda s, rule, msg, mexp: with_rules(
            s, [{"Rule": rule, "Message": msg, "MessageExpression": mexp}]
        ),
        "withReasonAndFldPath": lambda s, rule, path, reason: with_rules(
            s, [{"Rule": rule, "FieldPath": path, "Reason": reason}]
        ),
        "withRuleAndMessageExpression": lambda s, rule, mexp: with_rules(s, [{"Rule": rule, "MessageExpression": mexp}]),
        "withRulePtr": with_rule_ptr,
        "cloneWithRule": lambda s, rule: with_rule_ptr(deep_copy(s), rule),
        "withMaxLength": lambda s, n: with_value_validation(s, "MaxLength", n),
        "withMaxItems": lambda s, n: with_value_validation(s, "MaxItems", n),
        "withMaxProperties": lambda s, n: with_value_validation(s, "MaxProperties", n),
        "withDefault": lambda d, s: with_generic(s, "Default", {"Object": d}),
        "withNullable": lambda n, s: with_generic(s, "Nullable", n),
        "withNullablePtr": lambda n, s: with_generic(s, "Nullable", n),
        "nilInterfaceOfStringSlice": lambda: None,
        "ValsEqualThemselvesAndDataLiteral": lambda v1, v2, lit: "%s == %s && %s == %s && %s == %s"
        % (v1, lit, lit, v1, v1, v2),
        "genMatchSelectorSchema": lambda rule: with_rules(
            object_type(
                {
                    "matchExpressions": array_type(
                        "atomic",
                        None,
                        object_type(
                            {
                                "key": primitive_type("string", ""),
                                "operator": primitive_type("string", ""),
                                "values": array_type("atomic", None, primitive_type("string", "")),
                            }
                        ),
                    )
                }
            ),
            [{"Rule": rule}],
        ),
        "mustSchema": lambda src: RawSchema(must_yaml(src)),
        "mustUnstructured": must_yaml,
        "genString": gen_string,
        "fmt.Sprintf": go_sprintf,
        "strings.Repeat": lambda s, n: s * n,
        "ptr.To": lambda v: v,
        "jsonPtr": lambda v: v,
        "field.NewPath": lambda name: GoPath([("name", name)]),
    }
    for k, f in funcs.items():
        env[k] = Func(k, f)
    for t in ["int", "int32", "int64", "uint64", "float64", "float32", "string"]:
        env[t] = TypeRef("named", name=t)
    env["nil"] = None
    env["true"] = True
    env["false"] = False
    env.update(
        {
            "math.MaxInt64": 2**63 - 1,
            "math.MaxInt32": 2**31 - 1,
            "math.MaxInt": 2**63 - 1,
            "math.MaxFloat64": Float(sys.float_info.max),
            # float32(math.MaxFloat32) as float64
            "math.MaxFloat32": Float(3.4028234663852886e38),
            "celconfig.RuntimeCELCostBudget": 10000000,
            "celconfig.PerCallLimit": 1000000,
            "maxValidDepth": 250,
            "apiextensions.FieldValueForbidden": "FieldValueForbidden",
            "apiextensions.FieldValueRequired": "FieldValueRequired",
            "apiextensions.FieldValueDuplicate": "FieldValueDuplicate",
            "apiextensions.FieldValueInvalid": "FieldValueInvalid",
            "field.ErrorTypeForbidden": "Forbidden",
            "field.ErrorTypeInvalid": "Invalid",
            "field.ErrorTypeRequired": "Required",
            "field.ErrorTypeDuplicate": "Duplicate",
            "apiextensionsfeatures.CRDValidationRatcheting": "CRDValidationRatcheting",
            "apiextensions.ValidationRules": TypeRef("slice", elem=_named("apiextensions.ValidationRule")),
            "field.ErrorList": TypeRef("slice", elem=_named("field.Error")),
        }
    )
    names = {
        "integerType": ("integer", ""),
        "int32Type": ("integer", "int32"),
        "int64Type": ("integer", "int64"),
        "numberType": ("number", ""),
        "floatType": ("number", "float"),
        "doubleType": ("number", "double"),
        "stringType": ("string", ""),
        "byteType": ("string", "byte"),
        "booleanType": ("boolean", ""),
        "durationFormat": ("string", "duration"),
        "dateFormat": ("string", "date"),
        "dateTimeFormat": ("string", "date-time"),
        # values_test.go
        "stringSchema": ("string", ""),
    }
    for k, (t, f) in names.items():
        env[k] = primitive_type(t, f)
    return env


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def function_body(src, name):
    m = re.search(r"^func %s\(" % re.escape(name), src, re.M)
    if not m:
        raise KeyError(name)
    start = src.index("{", m.end())
    depth = 0
    for j in range(start, len(src)):
        if src[j] == "{":
            depth += 1
        elif src[j] == "}":
            depth -= 1
            if depth == 0:
                return src[start + 1 : j]
    raise SyntaxError("unterminated " + name)


def table(src, func, preamble=None):
    """The table literal `x := []struct{...}{...}` of a test function, evaluated."""
    body = function_body(src, func)
    env = base_env()
    for name, value in (preamble or {}).items():
        if value is LOCAL:
            # a local variable of the function, evaluated from its definition
            start = body.index("%s := " % name) + len(name) + 4
            env[name] = Evaluator(tokenize(body[start:]), env).expr()
        else:
            env[name] = value
    m = re.search(r"\w+ := \[\]struct ?\{", body)
    toks = tokenize(body[body.index("[]struct", m.start()) :])
    ev = Evaluator(toks, env)
    typ = ev.parse_type()
    fields = typ.elem.fields
    rows = ev.composite(TypeRef("slice", elem=TypeRef("struct", fields=fields)))
    out = []
    for row in rows:
        out.append({k: convert_field(k, v) for k, v in row.items()})
    return out


SCHEMA_FIELDS = {"schema", "oldSchema"}

# A preamble value: evaluate the function's local variable of that name.
LOCAL = object()


class GoPath:
    """`field.Path`, printed like Go's `String()`."""

    def __init__(self, parts):
        self.parts = parts  # ("name", s) or ("key", s)

    def child(self, *names):
        return GoPath(self.parts + [("name", n) for n in names])

    def key(self, k):
        return GoPath(self.parts + [("key", k)])

    def __getitem__(self, attr):
        return {"Child": Func("Child", self.child), "Key": Func("Key", self.key)}[attr]

    def __str__(self):
        out = ""
        for i, (kind, s) in enumerate(self.parts):
            if kind == "name" and s:
                if i > 0:
                    out += "."
                out += s
            else:
                out += "[%s]" % s
        return out


def convert_field(name, v):
    if name in SCHEMA_FIELDS and v is not None and not isinstance(v, (int, str)):
        return to_schema(v)
    if name == "input":
        return {"openAPIV3Schema": to_schema(v["OpenAPIV3Schema"])}
    if name == "errors" and isinstance(v, list) and v and isinstance(v[0], GoStruct) and v[0].type_name == "field.Error":
        return [{"type": e.get("Type"), "field": e.get("Field")} for e in v]
    if isinstance(v, GoPath):
        return str(v)
    return to_json(v)


def main():
    root, out_dir = sys.argv[1], sys.argv[2]
    cel = open(root + "/pkg/apiserver/schema/cel/validation_test.go").read()
    dflt = open(root + "/pkg/apiserver/schema/defaulting/validation_test.go").read()
    items = list(range(1000))
    jobs = {
        "validation_expressions": (cel, "TestValidationExpressions", None),
        "validation_expressions_at_schema_levels": (cel, "TestValidationExpressionsAtSchemaLevels", None),
        "cel_validation_limit": (cel, "TestCELValidationLimit", None),
        "cel_validation_context_cancellation": (cel, "TestCELValidationContextCancellation", {"items": items}),
        "cel_max_recursion_depth": (cel, "TestCELMaxRecursionDepth", None),
        "message_expression": (cel, "TestMessageExpression", None),
        "reason_and_fld_path": (cel, "TestReasonAndFldPath", {"forbiddenReason": "FieldValueForbidden"}),
        "validate_field_path": (cel, "TestValidateFieldPath", {"sts": LOCAL, "path": LOCAL}),
        "ratcheting": (cel, "TestRatcheting", None),
        "optional_old_self": (cel, "TestOptionalOldSelf", None),
        "optional_old_self_check_for_null": (cel, "TestOptionalOldSelfCheckForNull", None),
        "optional_old_self_is_optional_type": (cel, "TestOptionalOldSelfIsOptionalType", None),
        "default_validation_with_cost_budget": (dflt, "TestDefaultValidationWithCostBudget", None),
        "default_validation_with_optional_old_self": (dflt, "TestDefaultValidationWithOptionalOldSelf", None),
    }
    for out_name, (src, func, pre) in jobs.items():
        rows = table(src, func, pre)
        with open("%s/%s.json" % (out_dir, out_name), "w") as f:
            f.write("[\n")
            f.write(",\n".join(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows))
            f.write("\n]\n")
        print(out_name, len(rows))


if __name__ == "__main__":
    main()
