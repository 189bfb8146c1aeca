//! Admission over a schema known only at run time: the schema of a field type that a
//! derive cannot see (one whose schema comes from `schemars`, see [`crate::field`]),
//! turned once into the same static data ([`Shape`], [`StaticSchema`]) that generated
//! code writes out, so that the same walks of [`crate::shape`] prune, default and
//! validate it.
//!
//! A built schema lives as long as the program: it is built once per type and kept
//! (leaked), as generated code keeps its `static`s.

use crate::compiled::StaticSchema;
use crate::errors::{ErrorList, FieldError, Path};
use crate::listtype::ListType;
use crate::objectmeta::{self, Coercion};
use crate::openapi::{self, JsonType, Lit, Node, Types};
use crate::regex::Pattern;
use crate::shape::{Additional, Property, Shape};
use serde_json::{Map, Value};

/// A schema built for admission.
#[derive(Debug)]
pub struct Interpreted {
    /// The schema node, as the CRD holds it.
    pub schema: Value,
    pub shape: &'static Shape,
    pub static_schema: &'static StaticSchema,
    /// Where below the node `x-kubernetes-validations` rules are (schema paths such
    /// as `.spec.items`; `""` for the node itself): rules only a compiled type runs.
    pub rules_at: Vec<String>,
    /// Whether an embedded resource is at or below the node.
    pub has_embedded: bool,
}

impl Interpreted {
    /// Builds the admission data of `schema` (a structural schema node as JSON).
    pub fn build(schema: Value) -> Interpreted {
        let mut rules_at = Vec::new();
        find_rules(&schema, "", &mut rules_at);
        let shape = shape_of(&schema);
        Interpreted {
            static_schema: static_schema(&schema),
            has_embedded: has_embedded(shape),
            shape,
            rules_at,
            schema,
        }
    }
}

/// The static data of `schema` (a type's whole node, or with `resource_root` a
/// resource's root schema), built once by the caller and kept.
pub fn shape(schema: Value, resource_root: bool) -> &'static Shape {
    // No schema at all (kube-derive's `schema = "disabled"`): nothing is known, so
    // nothing is pruned.
    let schema = match schema {
        Value::Null => serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        s => s,
    };
    let built = shape_of(&schema);
    if !resource_root {
        return built;
    }
    leak(Shape {
        resource_root: true,
        ..*built
    })
}

fn leak<T>(t: T) -> &'static T {
    Box::leak(Box::new(t))
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn obj(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn int(s: &Value, key: &str) -> Option<i64> {
    s.get(key).and_then(Value::as_i64)
}

fn float(s: &Value, key: &str) -> Option<f64> {
    s.get(key).and_then(Value::as_f64)
}

fn string<'a>(s: &'a Value, key: &str) -> Option<&'a str> {
    s.get(key).and_then(Value::as_str)
}

fn types(s: &Value) -> Types {
    if flag(s, "x-kubernetes-int-or-string") {
        return Types::IntOrString;
    }
    match string(s, "type").and_then(JsonType::parse) {
        Some(t) => Types::One(t),
        None => Types::None,
    }
}

/// A value as Go's JSON decoder holds it (integers as integers), as a literal.
fn lit(v: &Value) -> Lit<'static> {
    let mut v = v.clone();
    crate::admission::go_json_numbers(&mut v);
    match v {
        Value::Null => Lit::Null,
        Value::Bool(b) => Lit::Bool(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Lit::Int(i),
            None => Lit::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Lit::Str(leak_str(&s)),
        other => Lit::Json(leak_str(&other.to_string())),
    }
}

/// The node's value keywords, as the API server validates requests (formats it does
/// not support for the type stripped).
fn node(s: &Value) -> Node<'static> {
    let types = types(s);
    let format = string(s, "format").filter(|f| openapi::supported_format(f, types));
    let enum_values: Vec<Lit<'static>> = s
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().map(lit).collect())
        .unwrap_or_default();
    Node {
        types,
        nullable: flag(s, "nullable"),
        format: format.map(leak_str).unwrap_or(""),
        max_length: int(s, "maxLength"),
        min_length: int(s, "minLength"),
        pattern: string(s, "pattern").map(|p| leak(Pattern::from_string(p.to_string()))),
        multiple_of: float(s, "multipleOf"),
        maximum: float(s, "maximum"),
        exclusive_maximum: flag(s, "exclusiveMaximum"),
        minimum: float(s, "minimum"),
        exclusive_minimum: flag(s, "exclusiveMinimum"),
        max_items: int(s, "maxItems"),
        min_items: int(s, "minItems"),
        unique_items: flag(s, "uniqueItems"),
        max_properties: int(s, "maxProperties"),
        min_properties: int(s, "minProperties"),
        enum_values: leak_slice(enum_values),
        enum_strings: None,
    }
}

fn branches(s: &Value, key: &str) -> &'static [&'static Shape] {
    let list: Vec<&'static Shape> = s
        .get(key)
        .and_then(Value::as_array)
        .map(|b| b.iter().map(shape_of).collect())
        .unwrap_or_default();
    leak_slice(list)
}

fn items_schema(s: &Value) -> Option<&Value> {
    s.get("items").filter(|i| i.is_object())
}

fn additional_schema(s: &Value) -> Option<&Value> {
    s.get("additionalProperties").filter(|a| a.is_object())
}

/// The shape of `s` and everything below it.
fn shape_of(s: &Value) -> &'static Shape {
    let mut props: Vec<(&String, &Value)> = s
        .get("properties")
        .and_then(obj)
        .map(|p| p.iter().collect())
        .unwrap_or_default();
    // The runtime's lookup order: by length, then by name.
    props.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.0.cmp(b.0)));
    let required: Vec<&'static str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(leak_str).collect())
        .unwrap_or_default();
    let properties: Vec<Property> = props
        .iter()
        .map(|(k, c)| Property::new(leak_str(k), shape_of(c), required.contains(&k.as_str())))
        .collect();
    let additional = match s.get("additionalProperties") {
        Some(Value::Bool(b)) => Additional::Bool(*b),
        Some(a @ Value::Object(_)) => Additional::Schema(shape_of(a)),
        _ => Additional::None,
    };
    let items = items_schema(s).map(shape_of);
    let default = s.get("default").filter(|d| !d.is_null()).map(lit);
    let list_type = string(s, "x-kubernetes-list-type").and_then(ListType::parse);
    let list_map_keys: Vec<&'static str> = s
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|k| k.iter().filter_map(Value::as_str).map(leak_str).collect())
        .unwrap_or_default();
    let children: Vec<&'static Shape> = properties
        .iter()
        .map(|p| p.shape)
        .chain(items)
        .chain(match additional {
            Additional::Schema(a) => Some(a),
            _ => None,
        })
        .collect();
    let has_defaults = children.iter().any(|c| c.default.is_some() || c.has_defaults);
    let has_lists = matches!(list_type, Some(ListType::Set | ListType::Map)) || children.iter().any(|c| c.has_lists);
    leak(Shape {
        node: leak(node(s)),
        nullable: flag(s, "nullable"),
        default,
        properties: leak_slice(properties),
        additional,
        items,
        required: leak_slice(required),
        all_of: branches(s, "allOf"),
        any_of: branches(s, "anyOf"),
        one_of: branches(s, "oneOf"),
        not: s.get("not").filter(|n| n.is_object()).map(shape_of),
        preserve_unknown_fields: flag(s, "x-kubernetes-preserve-unknown-fields"),
        embedded_resource: flag(s, "x-kubernetes-embedded-resource"),
        list_type,
        list_map_keys: leak_slice(list_map_keys),
        has_defaults,
        has_lists,
        ..Shape::EMPTY
    })
}

/// The node as compiled CEL rules read values through it.
fn static_schema(s: &Value) -> &'static StaticSchema {
    let mut props: Vec<(&'static str, &'static StaticSchema)> = s
        .get("properties")
        .and_then(obj)
        .map(|p| p.iter().map(|(k, c)| (leak_str(k), static_schema(c))).collect())
        .unwrap_or_default();
    props.sort_by(|a, b| a.0.cmp(b.0));
    let has_properties = s.get("properties").is_some_and(Value::is_object);
    leak(StaticSchema {
        of_type: None,
        type_: string(s, "type").map(leak_str).unwrap_or(""),
        format: string(s, "format").map(leak_str).unwrap_or(""),
        nullable: flag(s, "nullable"),
        int_or_string: flag(s, "x-kubernetes-int-or-string"),
        preserve_unknown_fields: flag(s, "x-kubernetes-preserve-unknown-fields"),
        embedded_resource: flag(s, "x-kubernetes-embedded-resource"),
        resource_root: false,
        properties: has_properties.then(|| leak_slice(props)),
        additional_properties: additional_schema(s).map(static_schema),
        items: items_schema(s).map(static_schema),
        list_type: string(s, "x-kubernetes-list-type").map(leak_str).unwrap_or(""),
        list_map_keys: leak_slice(
            s.get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).map(leak_str).collect())
                .unwrap_or_default(),
        ),
    })
}

/// The schema paths of the nodes with rules, on the structural spine (properties,
/// items, additionalProperties), as the API server runs them.
fn find_rules(s: &Value, at: &str, out: &mut Vec<String>) {
    if s.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty())
    {
        out.push(at.to_string());
    }
    if let Some(props) = s.get("properties").and_then(obj) {
        for (k, c) in props {
            find_rules(c, &format!("{at}.{k}"), out);
        }
    }
    if let Some(i) = items_schema(s) {
        find_rules(i, &format!("{at}[*]"), out);
    }
    if let Some(a) = additional_schema(s) {
        find_rules(a, &format!("{at}[*]"), out);
    }
}

fn has_embedded(s: &Shape) -> bool {
    s.embedded_resource
        || s.properties.iter().any(|p| has_embedded(p.shape))
        || s.items.is_some_and(has_embedded)
        || matches!(s.additional, Additional::Schema(a) if has_embedded(a))
}

/// `objectmeta.Coerce` of the embedded resources at or below a node of shape `s`
/// (what generated code writes per type, here over the data).
pub fn coerce_embedded(s: &'static Shape, value: &mut Value, path: &Path, cx: &mut Coercion) -> Result<(), FieldError> {
    if let Value::Object(map) = value {
        let keys: Vec<String> = map.keys().cloned().collect();
        for key in keys {
            if s.embedded_resource && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                objectmeta::coerce_embedded_field(path, map, &key, cx)?;
                continue;
            }
            let child = match s.property(&key) {
                Some(c) => Some((c, path.field(&key))),
                None => match s.additional {
                    Additional::Schema(a) => Some((a, path.key(&key))),
                    _ => None,
                },
            };
            if let (Some((c, child_path)), Some(v)) = (child, map.get_mut(&key))
                && has_embedded(c)
            {
                coerce_embedded(c, v, &child_path, cx)?;
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (value, s.items)
        && has_embedded(item)
    {
        for (i, v) in items.iter_mut().enumerate() {
            coerce_embedded(item, v, &path.index(i), cx)?;
        }
    }
    Ok(())
}

/// `objectmeta.Validate` of the embedded resources below a node of shape `s` (`top`:
/// the node is the one the caller asked about, whose own embedding its parent checks).
pub fn validate_embedded(s: &'static Shape, value: &Value, path: &Path, errs: &mut ErrorList) {
    if s.embedded_resource
        && let Value::Object(map) = value
    {
        errs.extend(objectmeta::validate_embedded_resource(path, map));
    }
    if let Value::Object(map) = value {
        for (key, v) in map {
            match s.property(key) {
                Some(c) if has_embedded(c) => validate_embedded(c, v, &path.field(key), errs),
                Some(_) => {}
                None => {
                    if let Additional::Schema(a) = s.additional
                        && has_embedded(a)
                    {
                        validate_embedded(a, v, &path.key(key), errs);
                    }
                }
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (value, s.items)
        && has_embedded(item)
    {
        for (i, v) in items.iter().enumerate() {
            validate_embedded(item, v, &path.index(i), errs);
        }
    }
}
