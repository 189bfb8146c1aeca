//! OpenAPI value validation exactly as the API server runs it on custom resources
//! (kube-openapi's `validate.SchemaValidator`, and apiextensions-apiserver's
//! conversion of its result into field errors).
//!
//! Generated code and the reference engine both walk the schema themselves and call
//! these functions for what happens at one node, so the semantics live here once:
//!
//! - a node's validators run in kube-openapi's order: type, `allOf`/`anyOf`/`oneOf`/
//!   `not`, string, format, number, array, enum, object ([`Node`] steps);
//! - errors are collected in a [`Res`] that, like kube-openapi's `Result`, drops a
//!   message already present and counts matches (the count picks which failing
//!   `anyOf`/`oneOf` branch is reported);
//! - values are seen as Go sees unstructured JSON: `null`, bool, int64 (JSON integers
//!   that fit), float64 (everything else), string, array, object.

use crate::errors::{ErrorList, FieldError, Path, ShortText};
use crate::gofmt;
use crate::regex::Pattern;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// One kube-openapi error, before it becomes a field error: what failed, where and
/// with which value, and the schema's values the message names. The message is
/// written only when asked for ([`SchemaError::message`]): an invalid object's
/// errors are often counted, compared and dropped before any is printed. `'a` is
/// the schema's lifetime (`'static` for generated code).
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaError<'a> {
    /// The kube-openapi path of the value (`name`): dotted, `""` at the root.
    name: ShortText,
    /// The bad value, as the field error shows it.
    value: BadValue,
    kind: Kind<'a>,
}

/// A [`SchemaError`]'s value: a string inline when short (most bad strings), any
/// other value as it is.
#[derive(Clone, Debug)]
enum BadValue {
    None,
    Text(ShortText),
    Json(Value),
}

impl BadValue {
    fn of(v: &Value) -> Self {
        match v {
            Value::String(s) => BadValue::Text(ShortText::copy_of(s)),
            other => BadValue::Json(other.clone()),
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            BadValue::Text(s) => Some(s.as_str()),
            BadValue::Json(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    fn into_value(self) -> Option<Value> {
        match self {
            BadValue::None => None,
            BadValue::Text(s) => Some(Value::String(s.into_string())),
            BadValue::Json(v) => Some(v),
        }
    }
}

/// Equal as the values they stand for (a string inline or not).
impl PartialEq for BadValue {
    fn eq(&self, other: &Self) -> bool {
        match (self.as_str(), other.as_str()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => match (self, other) {
                (BadValue::Json(a), BadValue::Json(b)) => a == b,
                (BadValue::None, BadValue::None) => true,
                _ => false,
            },
            _ => false,
        }
    }
}

/// What a [`SchemaError`] says, with what its message needs.
#[derive(Clone, Debug, PartialEq)]
enum Kind<'a> {
    /// Not of the `expected` type or format: `found` is what the value is instead
    /// (its type, or for a format, the string).
    InvalidType {
        expected: Cow<'a, str>,
        found: Cow<'static, str>,
    },
    TooLong {
        max: i64,
    },
    TooShort {
        min: i64,
    },
    /// The pattern's source; `invalid` when it does not compile (then nothing
    /// matches).
    Pattern {
        source: Cow<'a, str>,
        invalid: Option<String>,
    },
    MultipleOf {
        factor: Number,
    },
    MultipleOfMustBePositive {
        factor: Number,
    },
    /// `maximum` (`is_max`) or `minimum`.
    Bound {
        is_max: bool,
        exclusive: bool,
        bound: Number,
    },
    MinItems {
        min: i64,
    },
    MaxItems {
        max: i64,
    },
    Unique,
    Enum {
        values: EnumValues<'a>,
    },
    MinProperties {
        min: i64,
    },
    MaxProperties {
        max: i64,
    },
    /// Not allowed by `additionalProperties: false` (the value is the key).
    Unallowed,
    /// The name is the missing property's path.
    Required,
    /// Any other error (composite `anyOf`/`oneOf`/`allOf`/`not` messages, range
    /// checks), written when it is made; the API server reports it at the root as an
    /// invalid empty string.
    Plain(String),
}

/// The allowed values an enum error names: the schema's, or a copy.
#[derive(Clone, Debug, PartialEq)]
enum EnumValues<'a> {
    Lits(&'a [Lit<'a>]),
    Values(Vec<Value>),
}

impl EnumValues<'_> {
    /// Each value as the message and the field error show it: strings as they
    /// are, other values through `show`.
    fn shown(&self, show: fn(&Value) -> String) -> Vec<String> {
        let one = |v: Value| match v {
            Value::String(s) => s,
            other => show(&other),
        };
        match self {
            EnumValues::Lits(lits) => lits.iter().map(|l| one(l.to_value())).collect(),
            EnumValues::Values(values) => values.iter().cloned().map(one).collect(),
        }
    }
}

/// A number as a message prints it: an int64 in decimal, a float64 as Go's `%v`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Number {
    Int(i64),
    Float(f64),
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => f.write_str(&gofmt::float_v(*x)),
        }
    }
}

impl<'a> SchemaError<'a> {
    fn new(kind: Kind<'a>, path: &Path, value: Option<Value>) -> Self {
        let value = match value {
            Some(v) => BadValue::Json(v),
            None => BadValue::None,
        };
        SchemaError {
            name: path.openapi_text(),
            value,
            kind,
        }
    }

    /// An error about the value `v` (kept as the field error shows it).
    fn about(kind: Kind<'a>, path: &Path, v: &Value) -> Self {
        SchemaError {
            name: path.openapi_text(),
            value: BadValue::of(v),
            kind,
        }
    }

    /// An error about the string `s`.
    fn about_str(kind: Kind<'a>, path: &Path, s: &str) -> Self {
        SchemaError {
            name: path.openapi_text(),
            value: BadValue::Text(ShortText::copy_of(s)),
            kind,
        }
    }

    fn plain(message: String) -> Self {
        SchemaError {
            name: ShortText::new(),
            value: BadValue::None,
            kind: Kind::Plain(message),
        }
    }

    /// The same error, owning what it borrowed from the schema.
    pub fn into_owned(self) -> SchemaError<'static> {
        let kind = match self.kind {
            Kind::InvalidType { expected, found } => Kind::InvalidType {
                expected: Cow::Owned(expected.into_owned()),
                found,
            },
            Kind::Pattern { source, invalid } => Kind::Pattern {
                source: Cow::Owned(source.into_owned()),
                invalid,
            },
            Kind::Enum { values } => Kind::Enum {
                values: EnumValues::Values(match values {
                    EnumValues::Lits(lits) => lits.iter().map(|l| l.to_value()).collect(),
                    EnumValues::Values(values) => values,
                }),
            },
            Kind::TooLong { max } => Kind::TooLong { max },
            Kind::TooShort { min } => Kind::TooShort { min },
            Kind::MultipleOf { factor } => Kind::MultipleOf { factor },
            Kind::MultipleOfMustBePositive { factor } => Kind::MultipleOfMustBePositive { factor },
            Kind::Bound {
                is_max,
                exclusive,
                bound,
            } => Kind::Bound {
                is_max,
                exclusive,
                bound,
            },
            Kind::MinItems { min } => Kind::MinItems { min },
            Kind::MaxItems { max } => Kind::MaxItems { max },
            Kind::Unique => Kind::Unique,
            Kind::MinProperties { min } => Kind::MinProperties { min },
            Kind::MaxProperties { max } => Kind::MaxProperties { max },
            Kind::Unallowed => Kind::Unallowed,
            Kind::Required => Kind::Required,
            Kind::Plain(message) => Kind::Plain(message),
        };
        SchemaError {
            name: self.name,
            value: self.value,
            kind,
        }
    }

    /// The message, as kube-openapi writes it.
    pub fn message(&self) -> String {
        let name = self.name.as_str();
        let value_str = || self.value.as_str().unwrap_or("");
        match &self.kind {
            Kind::InvalidType { expected, found } => {
                format!("{name} in body must be of type {expected}: {}", gofmt::quote(found))
            }
            Kind::TooLong { max } => format!("{name} in body should be at most {max} chars long"),
            Kind::TooShort { min } => format!("{name} in body should be at least {min} chars long"),
            Kind::Pattern { source, invalid } => match invalid {
                Some(e) => format!("{name} in body should match '{source}, but pattern is invalid: {e}'"),
                None => format!("{name} in body should match '{source}'"),
            },
            Kind::MultipleOf { factor } => format!("{name} in body should be a multiple of {factor}"),
            Kind::MultipleOfMustBePositive { factor } => {
                format!("factor MultipleOf declared for {name} must be positive: {factor}")
            }
            Kind::Bound {
                is_max,
                exclusive,
                bound,
            } => match (is_max, exclusive) {
                (true, false) => format!("{name} in body should be less than or equal to {bound}"),
                (true, true) => format!("{name} in body should be less than {bound}"),
                (false, false) => format!("{name} in body should be greater than or equal to {bound}"),
                (false, true) => format!("{name} in body should be greater than {bound}"),
            },
            Kind::MinItems { min } => format!("{name} in body should have at least {min} items"),
            Kind::MaxItems { max } => format!("{name} in body should have at most {max} items"),
            Kind::Unique => format!("{name} in body shouldn't contain duplicates"),
            Kind::Enum { values } => format!(
                "{name} in body should be one of [{}]",
                values.shown(go_print_v).join(" ")
            ),
            Kind::MinProperties { min } => format!("{name} in body should have at least {min} properties"),
            Kind::MaxProperties { max } => format!("{name} in body should have at most {max} properties"),
            Kind::Unallowed => format!("{name}.{} in body is a forbidden property", value_str()),
            Kind::Required => format!("{name} in body is required"),
            Kind::Plain(message) => message.clone(),
        }
    }
}

/// kube-openapi's `Result`: errors without repeated messages, and a match count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Res<'a> {
    pub errors: Vec<SchemaError<'a>>,
    pub match_count: u32,
}

impl<'a> Res<'a> {
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    #[inline]
    pub fn inc(&mut self) {
        self.match_count += 1;
    }

    /// `AddErrors`: an error whose message is already present is dropped. Two
    /// errors have the same message exactly when they say the same thing about the
    /// same path and value, so they are compared without writing either.
    pub fn add(&mut self, e: SchemaError<'a>) {
        if !self.errors.contains(&e) {
            self.errors.push(e);
        }
    }

    /// `Merge`.
    #[inline]
    pub fn merge(&mut self, other: Res<'a>) {
        if self.errors.is_empty() {
            self.errors = other.errors;
        } else {
            for e in other.errors {
                self.add(e);
            }
        }
        self.match_count += other.match_count;
    }

    /// The same result, owning what its errors borrowed from the schema.
    pub fn into_owned(self) -> Res<'static> {
        Res {
            errors: self.errors.into_iter().map(SchemaError::into_owned).collect(),
            match_count: self.match_count,
        }
    }

    /// The API server's conversion into field errors (`kubeOpenAPIResultToFieldErrors`
    /// with a nil root path), appended to `out`.
    pub fn into_field_errors(self, out: &mut ErrorList) {
        for e in self.errors {
            out.push(to_field_error(e));
        }
    }
}

fn to_field_error(e: SchemaError) -> FieldError {
    let message = e.message();
    let SchemaError { name, value, kind } = e;
    let (name, value) = (name.into_string(), value.into_value());
    if let Kind::Plain(_) = kind {
        return FieldError::invalid("<nil>", Value::String(String::new()), message);
    }
    let field = if name.is_empty() || name == "." {
        "<nil>".to_string()
    } else {
        name.strip_prefix('.').unwrap_or(&name).to_string()
    };
    let value_or_empty = || value.clone().unwrap_or(Value::String(String::new()));
    match kind {
        Kind::Required => FieldError::required(field, ""),
        Kind::Enum { values } => {
            FieldError::not_supported(field, value.unwrap_or(Value::Null), &values.shown(gofmt::json))
        }
        Kind::TooLong { max } => FieldError::too_long(field, max),
        Kind::MaxItems { max: limit } | Kind::MaxProperties { max: limit } => {
            let actual = value.as_ref().and_then(Value::as_i64).unwrap_or(-1);
            FieldError::too_many(field, actual, limit)
        }
        Kind::InvalidType { found, .. } => FieldError::type_invalid(field, Value::String(found.into_owned()), message),
        _ => FieldError::invalid(field, value_or_empty(), message),
    }
}

/// A JSON value as Go's reflection sees an unstructured object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoValue<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(&'a str),
    Array(&'a [Value]),
    Object(&'a Map<String, Value>),
}

impl<'a> GoValue<'a> {
    #[inline]
    pub fn of(v: &'a Value) -> Self {
        match v {
            Value::Null => GoValue::Null,
            Value::Bool(b) => GoValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => GoValue::Int(i),
                None => GoValue::Float(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => GoValue::String(s),
            Value::Array(a) => GoValue::Array(a),
            Value::Object(m) => GoValue::Object(m),
        }
    }

    /// The JSON type kube-openapi infers (`schemaInfoForType`).
    #[inline]
    fn schema_type(self) -> JsonType {
        match self {
            GoValue::Null => JsonType::Null,
            GoValue::Bool(_) => JsonType::Boolean,
            GoValue::Int(_) => JsonType::Integer,
            GoValue::Float(_) => JsonType::Number,
            GoValue::String(_) => JsonType::String,
            GoValue::Array(_) => JsonType::Array,
            GoValue::Object(_) => JsonType::Object,
        }
    }

    /// The format kube-openapi infers alongside (`schemaInfoForType`).
    fn inferred_format(self) -> &'static str {
        match self {
            GoValue::Int(_) => "int64",
            GoValue::Float(_) => "float64",
            _ => "",
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            GoValue::Int(i) => i as f64,
            GoValue::Float(f) => f,
            _ => 0.0,
        }
    }
}

/// The JSON type the API server takes `v` for (a number that fits an `int64` is an
/// integer).
#[inline]
pub(crate) fn json_type(v: &Value) -> JsonType {
    GoValue::of(v).schema_type()
}

/// A JSON type name (`null` only as the type of a value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// The type for a schema's `type` string.
    pub fn parse(s: &str) -> Option<JsonType> {
        Some(match s {
            "boolean" => JsonType::Boolean,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "array" => JsonType::Array,
            "object" => JsonType::Object,
            _ => return None,
        })
    }
}

/// A node's `type`: nothing, one type, or the pair an `x-kubernetes-int-or-string`
/// node gets (`["integer", "string"]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Types {
    None,
    One(JsonType),
    IntOrString,
}

impl Types {
    #[inline]
    fn contains(self, t: JsonType) -> bool {
        match self {
            Types::None => false,
            Types::One(x) => x == t,
            Types::IntOrString => t == JsonType::Integer || t == JsonType::String,
        }
    }

    fn joined(self) -> &'static str {
        match self {
            Types::None => "",
            Types::One(x) => x.as_str(),
            Types::IntOrString => "integer,string",
        }
    }

    fn is_empty(self) -> bool {
        self == Types::None
    }

    /// The single type, if exactly one.
    fn single(self) -> Option<JsonType> {
        match self {
            Types::One(x) => Some(x),
            _ => None,
        }
    }
}

/// An `enum` value, in a form generated code can hold in a `const`. Composite values
/// are JSON text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    Json(&'a str),
}

impl Lit<'_> {
    pub fn to_value(self) -> Value {
        match self {
            Lit::Null => Value::Null,
            Lit::Bool(b) => Value::Bool(b),
            Lit::Int(i) => Value::from(i),
            Lit::Float(f) => serde_json::Number::from_f64(f)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Lit::Str(s) => Value::String(s.to_string()),
            Lit::Json(j) => serde_json::from_str(j).unwrap_or(Value::Null),
        }
    }
}

/// The value keywords of one schema node. Child schemas (properties, items,
/// additionalProperties, junctors) are walked by the caller.
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    pub types: Types,
    pub nullable: bool,
    /// The format after the API server strips unsupported ones; `""` for none.
    pub format: &'a str,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: Option<&'a Pattern>,
    pub multiple_of: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub enum_values: &'a [Lit<'a>],
    /// For string values: whether the string is one of `enum_values` (generated code
    /// passes a `matches!`, much faster than comparing one by one).
    pub enum_strings: Option<fn(&str) -> bool>,
}

impl Node<'static> {
    /// A node with no keywords, to start `const` definitions from.
    pub const EMPTY: Node<'static> = Node {
        types: Types::None,
        nullable: false,
        format: "",
        max_length: None,
        min_length: None,
        pattern: None,
        multiple_of: None,
        maximum: None,
        exclusive_maximum: false,
        minimum: None,
        exclusive_minimum: false,
        max_items: None,
        min_items: None,
        unique_items: false,
        max_properties: None,
        min_properties: None,
        enum_values: &[],
        enum_strings: None,
    };
}

impl Node<'static> {
    const fn typed(types: Types) -> Self {
        Node { types, ..Node::EMPTY }
    }

    /// `type: string` and nothing else.
    pub const STRING: Node<'static> = Node::typed(Types::One(JsonType::String));
    /// `type: integer` and nothing else.
    pub const INTEGER: Node<'static> = Node::typed(Types::One(JsonType::Integer));
    /// `type: integer`, `format: int32`.
    pub const INT32: Node<'static> = Node {
        format: "int32",
        ..Node::INTEGER
    };
    /// `type: integer`, `format: int64`.
    pub const INT64: Node<'static> = Node {
        format: "int64",
        ..Node::INTEGER
    };
    /// `type: number` and nothing else.
    pub const NUMBER: Node<'static> = Node::typed(Types::One(JsonType::Number));
    /// `type: boolean` and nothing else.
    pub const BOOLEAN: Node<'static> = Node::typed(Types::One(JsonType::Boolean));
    /// `type: object` and nothing else.
    pub const OBJECT: Node<'static> = Node::typed(Types::One(JsonType::Object));
    /// `type: array` and nothing else.
    pub const ARRAY: Node<'static> = Node::typed(Types::One(JsonType::Array));
    /// `x-kubernetes-int-or-string: true` and nothing else.
    pub const INT_OR_STRING: Node<'static> = Node::typed(Types::IntOrString);
    /// No type and no keywords (preserved unknown fields).
    pub const ANY: Node<'static> = Node::EMPTY;
}

/// Whether the API server keeps `format` on a node of this type
/// (`StripUnsupportedFormatsPostProcessorForVersion`).
pub fn supported_format(format: &str, types: Types) -> bool {
    match types {
        Types::One(JsonType::Integer) => format == "int32" || format == "int64",
        Types::One(JsonType::Number) => format == "float" || format == "double",
        Types::One(JsonType::String) | Types::None | Types::IntOrString => {
            crate::formats::is_supported(format, "string")
        }
        _ => false,
    }
}

/// A whole node (`SchemaValidator.Validate`) whose child schemas the closures walk:
/// `items` validates the elements of an array value, `object` the entries of an
/// object value (additionalProperties, properties, required). The node's result is
/// added to `r` (a caller that ratchets drops what it added).
#[inline]
pub fn node<'n>(
    v: &Value,
    path: &Path,
    node: &Node<'n>,
    junctors: Option<&Junctors<'_, 'n>>,
    items: &mut dyn FnMut(&[Value], &mut Res<'n>),
    object: &mut dyn FnMut(&Map<String, Value>, &mut Res<'n>),
    r: &mut Res<'n>,
) {
    // kube-openapi builds a result per validator and merges them in this order; each
    // merge drops errors already present, so adding to one result in the same order
    // gives the same errors and count without building the intermediate ones.
    if null_step(v, node, path, r) {
        return;
    }
    type_step(v, node, path, r);
    match junctors {
        Some(j) => junctor_step(v, j, path, r),
        None => no_junctors_step(r),
    }
    value_steps(v, node, path, r);
    if let Value::Array(elements) = v {
        items(elements, r);
        slice_sizes(elements, node, path, r);
        r.match_count += 2;
    }
    enum_step(v, node, path, r);
    if let Value::Object(map) = v {
        object_sizes(map, node, path, r);
        object(map, r);
        r.inc();
    }
    r.inc();
}

/// Whether a node without child schemas has no error: exactly when [`leaf`] would
/// return an empty result, without building one. Generated code checks valid objects
/// with this first and runs the error-collecting walk only when something is wrong.
#[inline(always)]
pub fn leaf_ok(v: &Value, n: &Node) -> bool {
    let gv = GoValue::of(v);
    if let GoValue::Null = gv {
        return (n.types.is_empty() || n.nullable) && n.enum_values.is_empty();
    }
    if !(n.types.is_empty() && n.format.is_empty()) && type_mismatch(gv, n).is_some() {
        return false;
    }
    let values_ok = match gv {
        GoValue::String(s) => {
            string_keywords_ok(s, n)
                && (n.format.is_empty() || !crate::formats::is_known(n.format) || crate::formats::check(n.format, s))
        }
        GoValue::Int(_) | GoValue::Float(_) => number_ok(gv, n),
        GoValue::Array(items) => slice_ok(items, n),
        GoValue::Object(map) => object_ok(map, n),
        _ => true,
    };
    values_ok && enum_ok(v, n)
}

/// [`leaf_ok`] of a string `s` (the value `v`) at a node whose only type is
/// `string`, without a format: its length, pattern and enum. Most checked leaves are
/// these, and this is a fraction of the general check.
#[inline(always)]
pub(crate) fn string_ok(v: &Value, s: &str, n: &Node) -> bool {
    string_keywords_ok(s, n) && enum_ok(v, n)
}

/// [`string_error`] finds nothing.
#[inline(always)]
fn string_keywords_ok(s: &str, n: &Node) -> bool {
    string_fault(s, n).is_none()
}

/// [`leaf_ok`] of an int64 `i` (the value `v`) at a node whose only type is
/// `integer`, without a format or with `int32`/`int64` (which an int64 always has
/// the type of): its range, bounds and enum.
#[inline(always)]
pub(crate) fn integer_ok(v: &Value, i: i64, n: &Node) -> bool {
    number_ok(GoValue::Int(i), n) && enum_ok(v, n)
}

/// The enum check finds nothing.
#[inline(always)]
fn enum_ok(v: &Value, n: &Node) -> bool {
    if n.enum_values.is_empty() {
        return true;
    }
    match (v, n.enum_strings) {
        // A string matches only string enum values (Go cannot convert a string to a
        // number or bool).
        (Value::String(s), Some(matches)) => matches(s),
        _ => n.enum_values.iter().any(|e| enum_matches(v, *e)),
    }
}

/// [`number_step`] finds nothing.
#[inline(always)]
fn number_ok(gv: GoValue, n: &Node) -> bool {
    let range = number_type_and_format(n);
    let in_range = |f: f64| float_in_range(f, range.kind);
    range_ok(RangeInput::Value(gv), range.kind)
        && n.multiple_of
            .is_none_or(|f| in_range(f) && multiple_of_native(gv, f, &Path::Root).is_none())
        && n.minimum
            .is_none_or(|m| in_range(m) && bound_fails(gv, m, n.exclusive_minimum, false).is_none())
        && n.maximum
            .is_none_or(|m| in_range(m) && bound_fails(gv, m, n.exclusive_maximum, true).is_none())
}

/// [`slice_sizes`] finds nothing.
#[inline(always)]
fn slice_ok(items: &[Value], n: &Node) -> bool {
    let size = items.len() as i64;
    n.min_items.is_none_or(|m| size >= m)
        && n.max_items.is_none_or(|m| size <= m)
        && !(n.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| go_deep_equal(a, b))))
}

/// [`object_sizes`] finds nothing.
#[inline(always)]
fn object_ok(map: &Map<String, Value>, n: &Node) -> bool {
    let size = map.len() as i64;
    n.min_properties.is_none_or(|m| size >= m) && n.max_properties.is_none_or(|m| size <= m)
}

/// A node without child schemas (`SchemaValidator.Validate`), its result added to `r`.
pub fn leaf<'n>(v: &Value, path: &Path, n: &Node<'n>, r: &mut Res<'n>) {
    node(v, path, n, None, &mut |_, _| {}, &mut |_, _| {}, r);
}

/// For a `null` value only the type and enum validators run. Returns whether `v` was
/// null (and so the node is done).
#[inline]
pub fn null_step<'n>(v: &Value, node: &Node<'n>, path: &Path, r: &mut Res<'n>) -> bool {
    if !v.is_null() {
        return false;
    }
    // The type validator runs on null whatever the schema's type.
    if !node.types.is_empty() && !node.nullable {
        r.add(invalid_type(path, node.types.joined(), Cow::Borrowed("null")));
    } else {
        r.inc();
    }
    enum_check(v, node, path, r);
    true
}

/// The junctor validator applies to every node; without junctors its result is
/// empty but still counts (its own increment and the node's).
#[inline]
pub fn no_junctors_step(r: &mut Res) {
    r.match_count += 2;
}

/// Not of the `expected` type or format: `found` is what the value is instead.
fn invalid_type<'n>(path: &Path, expected: &'n str, found: Cow<'static, str>) -> SchemaError<'n> {
    let expected = Cow::Borrowed(expected);
    SchemaError::new(Kind::InvalidType { expected, found }, path, None)
}

/// The type validator, counted as kube-openapi counts it (a non-null value).
#[inline]
pub fn type_step<'n>(v: &Value, node: &Node<'n>, path: &Path, r: &mut Res<'n>) {
    if node.types.is_empty() && node.format.is_empty() {
        return;
    }
    match type_error(GoValue::of(v), node, path) {
        None => r.inc(),
        Some(e) => r.add(e),
    }
    r.inc();
}

/// The type validator's error, when there is one.
#[inline(always)]
fn type_error<'n>(gv: GoValue, node: &Node<'n>, path: &Path) -> Option<SchemaError<'n>> {
    type_mismatch(gv, node).map(|(expected, found)| invalid_type(path, expected, Cow::Borrowed(found)))
}

/// What the type validator finds wrong, as (the expected type or format, what the
/// value is), without building the error: `leaf_ok` on a failing `anyOf` branch only
/// needs to know.
#[inline(always)]
fn type_mismatch<'n>(gv: GoValue, node: &Node<'n>) -> Option<(&'n str, &'static str)> {
    let sch_type = gv.schema_type();
    // The common case: exactly the declared type, no format.
    if node.format.is_empty() && node.types == Types::One(sch_type) {
        return None;
    }
    let format = gv.inferred_format();
    let t = node.types;
    let is_lower_int = node.format == "int64" && format == "int32";
    let is_lower_float = node.format == "float64" && format == "float32";
    let is_float_int =
        sch_type == JsonType::Number && is_float64_a_json_integer(gv.as_f64()) && t.contains(JsonType::Integer);
    let is_int_float = sch_type == JsonType::Integer && t.contains(JsonType::Number);
    let is_string_or_slice = matches!(gv, GoValue::String(_) | GoValue::Array(_));
    if !is_string_or_slice
        && !node.format.is_empty()
        && !(t.contains(sch_type)
            || format == node.format
            || is_float_int
            || is_int_float
            || is_lower_int
            || is_lower_float)
    {
        return Some((node.format, format));
    }
    if !(t.contains(JsonType::Number) || t.contains(JsonType::Integer) || node.format.is_empty()) && is_string_or_slice
    {
        return None;
    }
    if !(t.contains(sch_type) || is_float_int || is_int_float) {
        return Some((t.joined(), sch_type.as_str()));
    }
    None
}

/// go-openapi `conv.IsFloat64AJSONInteger`: integral within a relative error of 1e-9,
/// in [-(2^53-1), 2^53-1].
pub fn is_float64_a_json_integer(f: f64) -> bool {
    const MAX: f64 = 9007199254740991.0;
    if f.is_nan() || f.is_infinite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    let rounded = go_round(f);
    if f == rounded {
        return true;
    }
    if rounded == 0.0 {
        return false;
    }
    let diff = (f - rounded).abs();
    diff == 0.0 || diff < 1e-9 * rounded.abs()
}

/// Go's `math.Round`: half away from zero (as Rust's `f64::round`).
fn go_round(f: f64) -> f64 {
    f.round()
}

/// The string, format and number validators, for the kinds they apply to.
#[inline]
pub fn value_steps<'n>(v: &Value, node: &Node<'n>, path: &Path, r: &mut Res<'n>) {
    match GoValue::of(v) {
        GoValue::String(s) => {
            if let Some(e) = string_error(s, node, path) {
                r.add(e);
            }
            r.inc();
            if !node.format.is_empty() && crate::formats::is_known(node.format) {
                if !crate::formats::check(node.format, s) {
                    r.add(invalid_type(path, node.format, Cow::Owned(s.to_string())));
                }
                r.inc();
            }
        }
        gv @ (GoValue::Int(_) | GoValue::Float(_)) => {
            number_step(gv, node, path, r);
            r.inc();
        }
        _ => {}
    }
}

/// `maxLength`, `minLength`, `pattern`: the first failure only.
#[inline(always)]
fn string_error<'n>(s: &str, node: &Node<'n>, path: &Path) -> Option<SchemaError<'n>> {
    string_fault(s, node).map(|kind| SchemaError::about_str(kind, path, s))
}

/// What [`string_error`] reports, without the path and value: the fast check asks
/// only whether there is one.
#[inline(always)]
fn string_fault<'n>(s: &str, node: &Node<'n>) -> Option<Kind<'n>> {
    let len = || s.chars().count() as i64;
    // A character is one to four bytes: the byte length mostly decides without
    // counting characters.
    let bytes = s.len() as i64;
    if let Some(max) = node.max_length
        && bytes > max
        && len() > max
    {
        return Some(Kind::TooLong { max });
    }
    if let Some(min) = node.min_length
        && bytes < min.saturating_mul(4)
        && len() < min
    {
        return Some(Kind::TooShort { min });
    }
    if let Some(pattern) = node.pattern {
        let invalid = match pattern.is_match(s) {
            Ok(true) => return None,
            Ok(false) => None,
            Err(e) => Some(e.to_string()),
        };
        let source = Cow::Borrowed(pattern.source());
        return Some(Kind::Pattern { source, invalid });
    }
    None
}

/// `numberValidator.Validate`: the format range check, then multipleOf, minimum,
/// maximum (merged in that order, kube-openapi's), each bound first range-checked
/// against the format.
fn number_step<'n>(gv: GoValue, node: &Node<'n>, path: &Path, r: &mut Res<'n>) {
    // kube-openapi merges four results in this order (the value's range, multipleOf,
    // minimum, maximum); adding to one in the same order is the same.
    let range = number_type_and_format(node);
    if let Some(e) = range_error(RangeInput::Value(gv), range, "Checked", path) {
        r.add(e);
    }
    if let Some(factor) = node.multiple_of {
        match range_error(RangeInput::Bound(factor), range, "MultipleOf", path) {
            None => {
                if let Some(e) = multiple_of_native(gv, factor, path) {
                    r.add(e);
                }
            }
            Some(range) => {
                r.add(range);
                // Go's MultipleOf(path, in, data float64, factor): the value is a float64.
                if let Some(e) = multiple_of_float(gv.as_f64(), factor, GoValue::Float(gv.as_f64()), path) {
                    r.add(e);
                }
            }
        }
    }
    if let Some(min) = node.minimum {
        match range_error(RangeInput::Bound(min), range, "Minimum boundary", path) {
            None => {
                if let Some(e) = minimum_native(gv, min, node.exclusive_minimum, path) {
                    r.add(e);
                }
            }
            Some(range) => {
                r.add(range);
                if let Some(e) = bound_error(GoValue::Float(gv.as_f64()), min, node.exclusive_minimum, false, path) {
                    r.add(e);
                }
            }
        }
    }
    if let Some(max) = node.maximum {
        match range_error(RangeInput::Bound(max), range, "Maximum boundary", path) {
            None => {
                if let Some(e) = maximum_native(gv, max, node.exclusive_maximum, path) {
                    r.add(e);
                }
            }
            Some(range) => {
                r.add(range);
                if let Some(e) = bound_error(GoValue::Float(gv.as_f64()), max, node.exclusive_maximum, true, path) {
                    r.add(e);
                }
            }
        }
    }
    r.inc();
}

/// The type and format the number validator is told about: only for exactly one type,
/// and only a format valid for it (`numberValidator()` in kube-openapi's schema.go).
#[inline]
fn number_type_and_format<'a>(node: &Node<'a>) -> Range<'a> {
    match node.types.single() {
        Some(JsonType::Integer) => Range {
            type_name: "integer",
            format: if matches!(node.format, "int32" | "int64") {
                node.format
            } else {
                ""
            },
            kind: if node.format == "int32" {
                RangeKind::Int32
            } else {
                RangeKind::Int64
            },
        },
        Some(JsonType::Number) => Range {
            type_name: "number",
            format: if matches!(node.format, "float" | "double") {
                node.format
            } else {
                ""
            },
            kind: if node.format == "float" {
                RangeKind::Float32
            } else {
                RangeKind::Any
            },
        },
        _ => Range {
            type_name: "",
            format: "",
            kind: RangeKind::Any,
        },
    }
}

enum RangeInput<'a> {
    Value(GoValue<'a>),
    Bound(f64),
}

/// What the range check of a number node accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RangeKind {
    Any,
    Int32,
    Int64,
    Float32,
}

/// The type and format the number validator knows, for the range check and its message.
#[derive(Clone, Copy)]
struct Range<'a> {
    type_name: &'static str,
    format: &'a str,
    kind: RangeKind,
}

/// `IsValueValidAgainstRange`: Go formats the number (`FormatInt`, or
/// `FormatFloat(f, 'f', -1, 64)`) and parses it back for the format. Computed
/// numerically here with the same outcome: the `'f'` text of a float parses as an
/// integer exactly when the float is integral and in range.
#[inline]
fn range_error<'n>(input: RangeInput, range: Range, prefix: &str, path: &Path) -> Option<SchemaError<'n>> {
    if range_ok(input, range.kind) {
        None
    } else {
        Some(out_of_range(range, prefix, path))
    }
}

/// [`range_error`] finds nothing.
#[inline]
fn range_ok(input: RangeInput, kind: RangeKind) -> bool {
    match input {
        RangeInput::Value(GoValue::Int(i)) => kind != RangeKind::Int32 || i32::try_from(i).is_ok(),
        RangeInput::Value(gv) => float_in_range(gv.as_f64(), kind),
        RangeInput::Bound(f) => float_in_range(f, kind),
    }
}

#[cold]
fn out_of_range<'n>(range: Range, prefix: &str, path: &Path) -> SchemaError<'n> {
    let (type_name, format, p) = (range.type_name, range.format, path.to_openapi_string());
    SchemaError::plain(if format.is_empty() {
        format!("{prefix} value must be of type {type_name} (default format) in {p}")
    } else {
        format!("{prefix} value must be of type {type_name} with format {format} in {p}")
    })
}

/// Whether a float64 passes the range check.
#[inline]
fn float_in_range(f: f64, kind: RangeKind) -> bool {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    match kind {
        RangeKind::Any => true,
        RangeKind::Int32 => is_integral(f) && (-2_147_483_648.0..=2_147_483_647.0).contains(&f),
        RangeKind::Int64 => is_integral(f) && (-TWO_63..TWO_63).contains(&f),
        // `strconv.ParseFloat(s, 32)` fails only when the value overflows a float32.
        RangeKind::Float32 => (f as f32).is_finite(),
    }
}

/// Whether `f` is a finite integer: `f.fract() == 0.0`, without the call to `trunc`
/// that `fract` is on x86-64's baseline (the check of every bounded integer node
/// tests its bounds with it). Below 2^52 in magnitude a float converts to an int64 and
/// back unchanged exactly when it is integral; above, every finite float is.
#[inline]
pub(crate) fn is_integral(f: f64) -> bool {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    if f.abs() < TWO_52 {
        (f as i64) as f64 == f
    } else {
        f.is_finite()
    }
}

fn bound_err<'n>(gv: GoValue, path: &Path, is_max: bool, exclusive: bool, bound: Number) -> SchemaError<'n> {
    let kind = Kind::Bound {
        is_max,
        exclusive,
        bound,
    };
    SchemaError::new(kind, path, Some(go_value_json(gv)))
}

fn go_value_json(gv: GoValue) -> Value {
    match gv {
        GoValue::Int(i) => Value::from(i),
        GoValue::Float(f) => serde_json::Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// `Maximum`/`Minimum` on float64 data.
fn bound_error<'n>(gv: GoValue, bound: f64, exclusive: bool, is_max: bool, path: &Path) -> Option<SchemaError<'n>> {
    float_bound_fails(gv.as_f64(), bound, exclusive, is_max)
        .then(|| bound_err(gv, path, is_max, exclusive, Number::Float(bound)))
}

fn float_bound_fails(d: f64, bound: f64, exclusive: bool, is_max: bool) -> bool {
    if is_max {
        (!exclusive && d > bound) || (exclusive && d >= bound)
    } else {
        (!exclusive && d < bound) || (exclusive && d <= bound)
    }
}

/// Whether `MaximumNativeType` (`is_max`) or `MinimumNativeType` fails: integers
/// compare as int64 against `int64(bound)`, other numbers as float64. Gives the
/// bound as the message names it.
#[inline]
fn bound_fails(gv: GoValue, bound: f64, exclusive: bool, is_max: bool) -> Option<Number> {
    match gv {
        GoValue::Int(d) => {
            let m = go_f64_to_i64(bound);
            let fails = if is_max {
                (!exclusive && d > m) || (exclusive && d >= m)
            } else {
                (!exclusive && d < m) || (exclusive && d <= m)
            };
            fails.then_some(Number::Int(m))
        }
        _ => float_bound_fails(gv.as_f64(), bound, exclusive, is_max).then_some(Number::Float(bound)),
    }
}

#[inline]
fn maximum_native<'n>(gv: GoValue, max: f64, exclusive: bool, path: &Path) -> Option<SchemaError<'n>> {
    bound_fails(gv, max, exclusive, true).map(|bound| bound_err(gv, path, true, exclusive, bound))
}

#[inline]
fn minimum_native<'n>(gv: GoValue, min: f64, exclusive: bool, path: &Path) -> Option<SchemaError<'n>> {
    bound_fails(gv, min, exclusive, false).map(|bound| bound_err(gv, path, false, exclusive, bound))
}

/// Go's `int64(f)` for values in range (the range check ran first).
fn go_f64_to_i64(f: f64) -> i64 {
    f as i64
}

fn not_multiple<'n>(gv: GoValue, factor: Number, path: &Path) -> SchemaError<'n> {
    SchemaError::new(Kind::MultipleOf { factor }, path, Some(go_value_json(gv)))
}

fn multiple_of_must_be_positive<'n>(path: &Path, factor: Number) -> SchemaError<'n> {
    // Go's error carries the factor as its value (int64 or float64).
    let value = match factor {
        Number::Int(f) => Value::from(f),
        Number::Float(f) => go_value_json(GoValue::Float(f)),
    };
    SchemaError::new(Kind::MultipleOfMustBePositive { factor }, path, Some(value))
}

/// `MultipleOfNativeType`.
fn multiple_of_native<'n>(gv: GoValue, factor: f64, path: &Path) -> Option<SchemaError<'n>> {
    match gv {
        GoValue::Int(d) => {
            let f = go_f64_to_i64(factor);
            if f <= 0 {
                return Some(multiple_of_must_be_positive(path, Number::Int(f)));
            }
            let m = d.wrapping_div(f);
            (m.wrapping_mul(f) != d).then(|| not_multiple(gv, Number::Int(f), path))
        }
        _ => multiple_of_float(gv.as_f64(), factor, gv, path),
    }
}

/// `MultipleOf` on float64 data.
fn multiple_of_float<'n>(d: f64, factor: f64, gv: GoValue, path: &Path) -> Option<SchemaError<'n>> {
    if factor <= 0.0 {
        return Some(multiple_of_must_be_positive(path, Number::Float(factor)));
    }
    let mult = if factor < 1.0 { 1.0 / factor * d } else { d / factor };
    (!is_float64_a_json_integer(mult)).then(|| not_multiple(gv, Number::Float(factor), path))
}

/// `minItems`, `maxItems`, `uniqueItems` of the array validator (after its items).
#[inline]
pub fn slice_sizes<'n>(items: &[Value], node: &Node<'n>, path: &Path, s: &mut Res<'n>) {
    let size = items.len() as i64;
    if let Some(min) = node.min_items
        && size < min
    {
        s.add(SchemaError::new(Kind::MinItems { min }, path, Some(Value::from(size))));
    }
    if let Some(max) = node.max_items
        && size > max
    {
        s.add(SchemaError::new(Kind::MaxItems { max }, path, Some(Value::from(size))));
    }
    if node.unique_items {
        let duplicate = items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].iter().any(|b| go_deep_equal(a, b)));
        if duplicate {
            s.add(SchemaError::new(Kind::Unique, path, None));
        }
    }
}

/// Go's `reflect.DeepEqual` on unstructured values: int64 and float64 differ.
pub fn go_deep_equal(a: &Value, b: &Value) -> bool {
    match (GoValue::of(a), GoValue::of(b)) {
        (GoValue::Int(x), GoValue::Int(y)) => x == y,
        (GoValue::Float(x), GoValue::Float(y)) => x == y,
        (GoValue::Int(_), GoValue::Float(_)) | (GoValue::Float(_), GoValue::Int(_)) => false,
        (GoValue::Array(x), GoValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| go_deep_equal(a, b))
        }
        (GoValue::Object(x), GoValue::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| go_deep_equal(a, b)))
        }
        _ => a == b,
    }
}

/// The enum validator (`basicCommonValidator`) as a step of a non-null node.
#[inline]
pub fn enum_step<'n>(v: &Value, node: &Node<'n>, path: &Path, r: &mut Res<'n>) {
    enum_check(v, node, path, r);
    r.inc();
}

/// The enum check: a value matches an enum value when Go can convert it to that
/// value's type and the results are deeply equal; `null` matches nothing.
#[inline]
fn enum_check<'n>(v: &Value, node: &Node<'n>, path: &Path, r: &mut Res<'n>) {
    if !enum_ok(v, node) {
        let kind = Kind::Enum {
            values: EnumValues::Lits(node.enum_values),
        };
        r.add(SchemaError::about(kind, path, v));
    }
}

/// Go's `%v` of an unstructured value (only used inside messages for dedup).
fn go_print_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Number(_) | Value::Bool(_) => gofmt::bad_value(v),
        other => gofmt::json(other),
    }
}

/// `reflect.ValueOf(data).Convert(TypeOf(enumValue))` then `DeepEqual`.
fn enum_matches(v: &Value, e: Lit) -> bool {
    match (GoValue::of(v), e) {
        (GoValue::Null, _) | (_, Lit::Null) => false,
        (GoValue::Bool(a), Lit::Bool(b)) => a == b,
        // Numbers convert between int64 and float64 (truncating toward zero).
        (GoValue::Int(a), Lit::Int(b)) => a == b,
        (GoValue::Float(a), Lit::Int(b)) => go_f64_to_i64(a) == b,
        (GoValue::Int(a), Lit::Float(b)) => a as f64 == b,
        (GoValue::Float(a), Lit::Float(b)) => a == b,
        (GoValue::String(a), Lit::Str(b)) => a == b,
        // An integer converts to a string as the code point it names.
        (GoValue::Int(a), Lit::Str(b)) => {
            let c = u32::try_from(a).ok().and_then(char::from_u32).unwrap_or('\u{FFFD}');
            b.chars().eq(std::iter::once(c))
        }
        (GoValue::Array(_) | GoValue::Object(_), Lit::Json(j)) => {
            serde_json::from_str::<Value>(j).is_ok_and(|e| go_deep_equal(v, &e))
        }
        _ => false,
    }
}

/// `minProperties`, `maxProperties` of the object validator.
#[inline]
pub fn object_sizes<'n>(map: &Map<String, Value>, node: &Node<'n>, path: &Path, o: &mut Res<'n>) {
    let n = map.len() as i64;
    if let Some(min) = node.min_properties
        && n < min
    {
        o.add(SchemaError::new(
            Kind::MinProperties { min },
            path,
            Some(Value::from(n)),
        ));
    }
    if let Some(max) = node.max_properties
        && n > max
    {
        o.add(SchemaError::new(
            Kind::MaxProperties { max },
            path,
            Some(Value::from(n)),
        ));
    }
}

/// `additionalProperties: false`: every key that is not a property is forbidden.
pub fn forbidden_property(key: &str, path: &Path, o: &mut Res) {
    o.add(SchemaError::about_str(Kind::Unallowed, path, key));
}

/// `required`: each name missing from the object.
#[inline]
pub fn required(map: &Map<String, Value>, names: &[&str], path: &Path, o: &mut Res) {
    for name in names {
        if !map.contains_key(*name) {
            // kube-openapi joins with a dot even at the root (".spec").
            let mut e = SchemaError::new(Kind::Required, path, None);
            e.name.push_str(".");
            e.name.push_str(name);
            o.add(e);
        }
    }
}

/// A branch of `anyOf`/`oneOf`/`allOf`/`not`: validates the value against one
/// sub-schema, returning that sub-schema's result.
pub type Branch<'b, 'n> = &'b dyn Fn(&Value, &Path, &mut Res<'n>);

/// The junctors of one node.
#[derive(Default)]
pub struct Junctors<'b, 'n> {
    pub all_of: &'b [Branch<'b, 'n>],
    pub any_of: &'b [Branch<'b, 'n>],
    pub one_of: &'b [Branch<'b, 'n>],
    pub not: Option<Branch<'b, 'n>>,
}

fn run_branch<'n>(b: Branch<'_, 'n>, v: &Value, path: &Path) -> Res<'n> {
    let mut r = Res::default();
    b(v, path, &mut r);
    r
}

/// `schemaPropsValidator.Validate`: the junctor step of a node with junctors.
pub fn junctor_step<'n>(v: &Value, j: &Junctors<'_, 'n>, path: &Path, r: &mut Res<'n>) {
    let p = || path.to_openapi_string();
    if !j.any_of.is_empty() {
        let mut best: Option<Res> = None;
        let mut first_success: Option<Res> = None;
        let mut succeeded = false;
        for b in j.any_of {
            let result = run_branch(*b, v, path);
            if result.is_valid() {
                best = None;
                succeeded = true;
                first_success = Some(result);
                break;
            }
            if best.as_ref().is_none_or(|b| result.match_count > b.match_count) {
                best = Some(result);
            }
        }
        if !succeeded {
            r.add(SchemaError::plain(format!(
                "{} must validate at least one schema (anyOf)",
                gofmt::quote(&p())
            )));
        }
        if let Some(b) = best {
            r.merge(b);
        } else if let Some(s) = first_success {
            r.merge(s);
        }
    }
    if !j.one_of.is_empty() {
        let mut best: Option<Res> = None;
        let mut first_success: Option<Res> = None;
        let mut validated = 0;
        for b in j.one_of {
            let result = run_branch(*b, v, path);
            if result.is_valid() {
                validated += 1;
                best = None;
                if first_success.is_none() {
                    first_success = Some(result);
                }
                continue;
            }
            if validated == 0 && best.as_ref().is_none_or(|b| result.match_count > b.match_count) {
                best = Some(result);
            }
        }
        if validated != 1 {
            let additional = if validated == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {validated} valid alternatives")
            };
            r.add(SchemaError::plain(format!(
                "{} must validate one and only one schema (oneOf). {additional}",
                gofmt::quote(&p())
            )));
            if let Some(b) = best {
                r.merge(b);
            }
        } else if let Some(s) = first_success {
            r.merge(s);
        }
    }
    if !j.all_of.is_empty() {
        let mut validated = 0;
        for b in j.all_of {
            let result = run_branch(*b, v, path);
            if result.is_valid() {
                validated += 1;
            }
            r.merge(result);
        }
        if validated != j.all_of.len() {
            let additional = if validated == 0 { ". None validated" } else { "" };
            r.add(SchemaError::plain(format!(
                "{} must validate all the schemas (allOf){additional}",
                gofmt::quote(&p())
            )));
        }
    }
    if let Some(not) = j.not
        && run_branch(not, v, path).is_valid()
    {
        r.add(SchemaError::plain(format!(
            "{} must not validate the schema (not)",
            gofmt::quote(&p())
        )));
    }
    r.match_count += 2;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn leaf(v: Value, node: &Node) -> Vec<String> {
        let root = Path::Root;
        let spec = root.field("spec");
        let path = spec.field("x");
        let mut r = Res::default();
        super::leaf(&v, &path, node, &mut r);
        let mut out = Vec::new();
        r.into_field_errors(&mut out);
        out.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn leaf_ok_agrees_with_leaf() {
        let pattern = Pattern::new("^a+$");
        let nodes = [
            Node::STRING,
            Node::INTEGER,
            Node::INT32,
            Node::NUMBER,
            Node::BOOLEAN,
            Node::OBJECT,
            Node::ARRAY,
            Node::INT_OR_STRING,
            Node::ANY,
            Node {
                nullable: true,
                ..Node::STRING
            },
            Node {
                max_length: Some(2),
                min_length: Some(1),
                pattern: Some(&pattern),
                ..Node::STRING
            },
            Node {
                format: "date-time",
                ..Node::STRING
            },
            Node {
                minimum: Some(1.0),
                maximum: Some(10.0),
                exclusive_maximum: true,
                multiple_of: Some(2.0),
                ..Node::INTEGER
            },
            Node {
                maximum: Some(1.5),
                ..Node::INTEGER
            },
            Node {
                multiple_of: Some(0.5),
                minimum: Some(-1.0),
                ..Node::NUMBER
            },
            Node {
                format: "float",
                ..Node::NUMBER
            },
            Node {
                min_items: Some(1),
                max_items: Some(2),
                unique_items: true,
                ..Node::ARRAY
            },
            Node {
                min_properties: Some(1),
                max_properties: Some(1),
                ..Node::OBJECT
            },
            Node {
                enum_values: &[Lit::Str("a"), Lit::Int(2), Lit::Null],
                ..Node::ANY
            },
        ];
        let values = [
            json!(null),
            json!(true),
            json!(0),
            json!(1),
            json!(2),
            json!(10),
            json!(-3),
            json!(2.5),
            json!(4.0),
            json!(3000000000i64),
            json!(1e40),
            json!("a"),
            json!("aa"),
            json!("aaa"),
            json!("b"),
            json!(""),
            json!("2024-01-01T00:00:00Z"),
            json!([]),
            json!([1]),
            json!([1, 1]),
            json!([1, 2, 3]),
            json!({}),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
        ];
        for n in &nodes {
            for v in &values {
                let mut full = Res::default();
                super::leaf(v, &Path::Root, n, &mut full);
                assert_eq!(leaf_ok(v, n), full.is_valid(), "{v} against {n:?}: {:?}", full.errors);
            }
        }
    }

    #[test]
    fn integer_bounds_and_types() {
        let node = Node {
            types: Types::One(JsonType::Integer),
            minimum: Some(1.0),
            maximum: Some(10.0),
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!(15), &node),
            ["spec.x: Invalid value: 15: spec.x in body should be less than or equal to 10"]
        );
        assert_eq!(
            leaf(json!(0), &node),
            ["spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1"]
        );
        assert!(leaf(json!(5.0), &node).is_empty(), "integral floats are integers");
        assert_eq!(
            leaf(json!("a"), &node),
            [r#"spec.x: Invalid value: "string": spec.x in body must be of type integer: "string""#]
        );
        assert_eq!(
            leaf(json!(null), &node),
            [r#"spec.x: Invalid value: "null": spec.x in body must be of type integer: "null""#]
        );
    }

    #[test]
    fn is_integral_is_fract_without_trunc() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1e-300,
            2.5e15,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            -4_503_599_627_370_497.0,
            9.3e18,
            -9.3e18,
            1e300,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::EPSILON,
        ];
        // Every exponent, with mantissas of a few shapes, both signs.
        for bits in (0..2048u64).flat_map(|e| [0, 1, 1 << 51, (1 << 52) - 1].map(|m| (e << 52) | m)) {
            values.push(f64::from_bits(bits));
            values.push(-f64::from_bits(bits));
        }
        for f in values {
            assert_eq!(is_integral(f), f.is_finite() && f.fract() == 0.0, "{f:e}");
        }
    }

    #[test]
    fn int32_range_check() {
        let node = Node {
            types: Types::One(JsonType::Integer),
            format: "int32",
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!(3000000000i64), &node),
            [r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.x"#]
        );
    }

    #[test]
    fn strings_report_the_first_failure() {
        let node = Node {
            types: Types::One(JsonType::String),
            max_length: Some(3),
            pattern: Some(&Pattern::new("^a")),
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!("bbbb"), &node),
            ["spec.x: Too long: may not be more than 3 bytes"]
        );
        assert_eq!(
            leaf(json!("bb"), &node),
            [r#"spec.x: Invalid value: "bb": spec.x in body should match '^a'"#]
        );
    }

    #[test]
    fn enums() {
        let node = Node {
            types: Types::One(JsonType::String),
            enum_values: &[Lit::Str("a"), Lit::Str("b")],
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!("c"), &node),
            [r#"spec.x: Unsupported value: "c": supported values: "a", "b""#]
        );
        let ints = Node {
            types: Types::One(JsonType::Integer),
            enum_values: &[Lit::Int(1), Lit::Int(2)],
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!(3), &ints),
            [r#"spec.x: Unsupported value: 3: supported values: "1", "2""#]
        );
        // Go converts 2.5 to int64 2 before comparing.
        assert!(
            leaf(
                json!(2.5),
                &Node {
                    types: Types::None,
                    ..ints
                }
            )
            .is_empty()
        );
    }

    #[test]
    fn int_or_string_type() {
        let node = Node {
            types: Types::IntOrString,
            ..Node::EMPTY
        };
        assert_eq!(
            leaf(json!(true), &node),
            [r#"spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean""#]
        );
    }

    #[test]
    fn any_of_reports_composite_and_best_branch() {
        let int_node = Node {
            types: Types::One(JsonType::Integer),
            ..Node::EMPTY
        };
        let str_node = Node {
            types: Types::One(JsonType::String),
            ..Node::EMPTY
        };
        let b1 = |v: &Value, p: &Path, r: &mut Res| super::leaf(v, p, &int_node, r);
        let b2 = |v: &Value, p: &Path, r: &mut Res| super::leaf(v, p, &str_node, r);
        let branches: [Branch; 2] = [&b1, &b2];
        let j = Junctors {
            any_of: &branches,
            ..Default::default()
        };
        let root = Path::Root;
        let spec = root.field("spec");
        let path = spec.field("x");
        let mut r = Res::default();
        junctor_step(&json!(true), &j, &path, &mut r);
        let mut out = Vec::new();
        r.into_field_errors(&mut out);
        let out: Vec<String> = out.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            out,
            [
                r#"<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)"#,
                r#"spec.x: Invalid value: "boolean": spec.x in body must be of type integer: "boolean""#,
            ]
        );
    }
}
