//! The schema as the engine walks it: one [`CNode`] per schema node, with what the
//! API server derives from it once (the kube-openapi keywords after format stripping,
//! compiled patterns, enum literals, defaults as Go decodes them).

use crate::ir::{self, AdditionalProperties, Type};
use crd_runtime::admission::go_json_numbers;
use crd_runtime::listtype::ListType;
use crd_runtime::openapi::{self, Lit, Node, Types};
use crd_runtime::ratchet::CorrelationSchema;
use crd_runtime::regex::Pattern;
use serde_json::Value;
use std::collections::BTreeMap;

/// How the IR becomes the schema the validator sees.
#[derive(Clone, Copy, Debug)]
pub struct CompileOptions {
    /// Strip the formats the API server does not support for the node's type
    /// (`StripUnsupportedFormatsPostProcessorForVersion`, request validation). The
    /// validation of default values at CRD creation keeps them.
    pub strip_formats: bool,
    /// `x-kubernetes-int-or-string` sets the types `integer,string`
    /// (`ConvertJSONSchemaPropsWithPostProcess`, request validation). A structural
    /// schema's `ToKubeOpenAPI` (default values) does not.
    pub int_or_string_types: bool,
}

impl CompileOptions {
    /// The validator of custom resources.
    pub const REQUEST: CompileOptions = CompileOptions {
        strip_formats: true,
        int_or_string_types: true,
    };
    /// The validator of default values (`Structural.ToKubeOpenAPI`).
    pub const DEFAULTS: CompileOptions = CompileOptions {
        strip_formats: false,
        int_or_string_types: false,
    };
}

/// `additionalProperties`.
#[derive(Debug)]
pub enum Additional {
    Bool(bool),
    Schema(Box<CNode>),
}

/// An `enum` value, kept so that [`Lit`]s can borrow from it.
#[derive(Debug)]
enum EnumValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Json(String),
}

/// One compiled schema node.
#[derive(Debug)]
pub struct CNode {
    pub type_: Option<Type>,
    pub nullable: bool,
    /// The default as Go decodes it; `None` also for `default: null`.
    pub default: Option<Value>,
    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    pub int_or_string: bool,
    pub list_type: Option<ListType>,
    pub list_map_keys: Vec<String>,
    /// Properties, sorted by name (Go iterates a map; the order is fixed here).
    pub properties: BTreeMap<String, CNode>,
    pub items: Option<Box<CNode>>,
    pub additional: Option<Additional>,
    pub required: Vec<String>,
    pub all_of: Vec<CNode>,
    pub any_of: Vec<CNode>,
    pub one_of: Vec<CNode>,
    pub not: Option<Box<CNode>>,
    pub rules: Vec<ir::Rule>,
    // kube-openapi value keywords
    types: Types,
    format: String,
    max_length: Option<i64>,
    min_length: Option<i64>,
    pattern: Option<Pattern>,
    multiple_of: Option<f64>,
    maximum: Option<f64>,
    exclusive_maximum: bool,
    minimum: Option<f64>,
    exclusive_minimum: bool,
    max_items: Option<i64>,
    min_items: Option<i64>,
    unique_items: bool,
    max_properties: Option<i64>,
    min_properties: Option<i64>,
    enum_values: Vec<EnumValue>,
}

fn go_value(v: &Value) -> Value {
    let mut v = v.clone();
    go_json_numbers(&mut v);
    v
}

impl CNode {
    /// Compiles `s` and everything below it.
    pub fn compile(s: &ir::Schema, o: CompileOptions) -> CNode {
        let types = if s.int_or_string && o.int_or_string_types {
            Types::IntOrString
        } else {
            match s.type_.and_then(|t| openapi::JsonType::parse(t.as_str())) {
                Some(t) => Types::One(t),
                None => Types::None,
            }
        };
        let format = s.format.clone().unwrap_or_default();
        let format = if o.strip_formats && !openapi::supported_format(&format, types) {
            String::new()
        } else {
            format
        };
        let enum_values = s
            .enum_
            .iter()
            .map(|v| match go_value(v) {
                Value::Null => EnumValue::Null,
                Value::Bool(b) => EnumValue::Bool(b),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => EnumValue::Int(i),
                    None => EnumValue::Float(n.as_f64().unwrap_or(0.0)),
                },
                Value::String(s) => EnumValue::Str(s),
                other => EnumValue::Json(serde_json::to_string(&other).unwrap_or_default()),
            })
            .collect();
        CNode {
            type_: s.type_,
            nullable: s.nullable,
            default: s.default.as_ref().filter(|d| !d.is_null()).map(go_value),
            preserve_unknown_fields: s.preserve_unknown_fields,
            embedded_resource: s.embedded_resource,
            int_or_string: s.int_or_string,
            list_type: s.list_type.map(|t| match t {
                ir::ListType::Atomic => ListType::Atomic,
                ir::ListType::Set => ListType::Set,
                ir::ListType::Map => ListType::Map,
            }),
            list_map_keys: s.list_map_keys.clone(),
            properties: s
                .properties
                .iter()
                .map(|(k, v)| (k.clone(), CNode::compile(v, o)))
                .collect(),
            items: s.items.as_ref().map(|i| Box::new(CNode::compile(i, o))),
            additional: s.additional_properties.as_ref().map(|a| match a {
                AdditionalProperties::Bool(b) => Additional::Bool(*b),
                AdditionalProperties::Schema(s) => Additional::Schema(Box::new(CNode::compile(s, o))),
            }),
            required: s.required.clone(),
            all_of: s.all_of.iter().map(|b| CNode::compile(b, o)).collect(),
            any_of: s.any_of.iter().map(|b| CNode::compile(b, o)).collect(),
            one_of: s.one_of.iter().map(|b| CNode::compile(b, o)).collect(),
            not: s.not.as_ref().map(|n| Box::new(CNode::compile(n, o))),
            rules: s.validations.clone(),
            types,
            format,
            max_length: s.max_length,
            min_length: s.min_length,
            pattern: s.pattern.clone().map(Pattern::from_string),
            multiple_of: s.multiple_of,
            maximum: s.maximum,
            exclusive_maximum: s.exclusive_maximum,
            minimum: s.minimum,
            exclusive_minimum: s.exclusive_minimum,
            max_items: s.max_items,
            min_items: s.min_items,
            unique_items: s.unique_items,
            max_properties: s.max_properties,
            min_properties: s.min_properties,
            enum_values,
        }
    }

    /// The `additionalProperties` schema, when it is one (Go's
    /// `AdditionalProperties.Structural`).
    pub fn additional_schema(&self) -> Option<&CNode> {
        match &self.additional {
            Some(Additional::Schema(s)) => Some(s),
            _ => None,
        }
    }

    /// The schema of an object's key: its property, else the `additionalProperties`
    /// schema.
    pub fn field(&self, key: &str) -> Option<&CNode> {
        self.properties.get(key).or_else(|| self.additional_schema())
    }

    /// Whether this node or one below it on the structural spine has rules (Go's
    /// `hasXValidations`).
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
            || self.items.as_deref().is_some_and(CNode::has_rules)
            || self.additional_schema().is_some_and(CNode::has_rules)
            || self.properties.values().any(CNode::has_rules)
    }

    pub fn has_junctors(&self) -> bool {
        !self.all_of.is_empty() || !self.any_of.is_empty() || !self.one_of.is_empty() || self.not.is_some()
    }

    /// The enum values as [`Lit`]s borrowing from this node.
    pub fn lits(&self) -> Vec<Lit<'_>> {
        self.enum_values
            .iter()
            .map(|e| match e {
                EnumValue::Null => Lit::Null,
                EnumValue::Bool(b) => Lit::Bool(*b),
                EnumValue::Int(i) => Lit::Int(*i),
                EnumValue::Float(f) => Lit::Float(*f),
                EnumValue::Str(s) => Lit::Str(s),
                EnumValue::Json(j) => Lit::Json(j),
            })
            .collect()
    }

    /// The node's value keywords for the shared kube-openapi steps.
    pub fn node<'a>(&'a self, lits: &'a [Lit<'a>]) -> Node<'a> {
        Node {
            types: self.types,
            nullable: self.nullable,
            format: &self.format,
            max_length: self.max_length,
            min_length: self.min_length,
            pattern: self.pattern.as_ref(),
            multiple_of: self.multiple_of,
            maximum: self.maximum,
            exclusive_maximum: self.exclusive_maximum,
            minimum: self.minimum,
            exclusive_minimum: self.exclusive_minimum,
            max_items: self.max_items,
            min_items: self.min_items,
            unique_items: self.unique_items,
            max_properties: self.max_properties,
            min_properties: self.min_properties,
            enum_values: lits,
            enum_strings: None,
        }
    }
}

impl CorrelationSchema for CNode {
    type Key = String;

    fn field_schema(&self, name: &str) -> Option<&CNode> {
        self.field(name)
    }

    fn items_schema(&self) -> Option<&CNode> {
        self.items.as_deref()
    }

    fn list_type(&self) -> Option<ListType> {
        self.list_type
    }

    fn list_map_keys(&self) -> &[String] {
        &self.list_map_keys
    }

    fn is_array(&self) -> bool {
        self.type_ == Some(Type::Array)
    }
}
