//! Schemas from `schemars` (crd-runtime's `schemars` feature): a type's
//! [`JsonSchema`](schemars::JsonSchema) as kube-derive publishes it in a CRD.
//!
//! kube-derive generates an OpenAPI v3 schema with every subschema inline, then
//! rewrites it to be structural, as the API server requires. The rewriting is ours
//! ([`structural`]), made to give what kube-derive 5 gives, so that a type deriving
//! `JsonSchema` has the schema in our CRDs that it has in kube-derive's:
//!
//! - an enum's `oneOf` branches: their properties move up to the enum's node (each
//!   variant's description onto its one property), their `enum` values up to its
//!   `enum`, leaving the branches' `required`;
//! - an untagged enum's `anyOf` branches: their properties move up likewise;
//! - `additionalProperties: true` beside properties (a flattened map) becomes
//!   `x-kubernetes-preserve-unknown-fields: true`; `false` is dropped;
//! - `uniqueItems` is dropped (the API server refuses it);
//! - an `Option` of an enum or of an int-or-string is the type's node, `nullable`.
//!
//! A schema that cannot be made structural (two variants giving one property two
//! schemas) is left as it is, for the CRD checks to report with the API server's
//! message (kube-derive panics in `crd()`).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The schema of `T` as kube-derive puts it in a CRD (no `title`: that is given only
/// to a resource's root).
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    generate::<T>(None)
}

/// The schema of a property of type `T` (its `Option` included) with its doc comment,
/// as kube-derive writes it: the description is set before the schema is made
/// structural, as schemars sets it before kube-derive rewrites the whole schema (so an
/// `Option` of a documented enum has the enum's description, as kube-derive's has).
/// An optional int-or-string is nullable.
pub fn property_for<T: JsonSchema + ?Sized>(doc: Option<&str>, optional: bool) -> Value {
    let mut value = generate::<T>(doc);
    if let Value::Object(map) = &mut value
        && optional
        && map.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true))
    {
        map.entry("nullable").or_insert(Value::Bool(true));
    }
    value
}

fn generate<T: JsonSchema + ?Sized>(doc: Option<&str>) -> Value {
    let mut settings = SchemaSettings::openapi3().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let mut transforms = std::mem::take(&mut settings.transforms);
    transforms.push(Box::new(schemars::transform::AddNullable::default()));
    let mut generator = settings.into_generator();
    let mut schema = generator.subschema_for::<T>();
    if let Some(doc) = doc {
        schema.insert("description".into(), Value::String(doc.into()));
    }
    for t in &mut transforms {
        t.transform(&mut schema);
    }
    let mut value = schema.to_value();
    structural(&mut value);
    optional_enum(&mut value);
    optional_int_or_string(&mut value);
    value
}

/// The schema of a resource's root type `T` (`schema = "manual"`: the user's own
/// `JsonSchema` for the root), with the `title` schemars gives a root.
pub fn root_schema_for<T: JsonSchema + ?Sized>() -> Value {
    let mut value = schema_for::<T>();
    if let Value::Object(map) = &mut value {
        map.entry("title")
            .or_insert_with(|| Value::String(T::schema_name().into_owned()));
    }
    value
}

/// A schema of ours as schemars holds it (a JSON object; anything else reads as
/// the empty schema, which a derived schema never is).
pub fn to_schema(value: Value) -> schemars::Schema {
    schemars::Schema::try_from(value).unwrap_or_default()
}

/// Applies `f` to each subschema of `node` (the keys schemars' own transforms
/// descend into).
fn each_subschema(node: &mut Value, f: fn(&mut Value)) {
    let Value::Object(map) = node else { return };
    for (key, value) in map.iter_mut() {
        match key.as_str() {
            "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "additionalItems" => f(value),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(items) = value {
                    items.iter_mut().for_each(f);
                }
            }
            "items" => match value {
                Value::Array(items) => items.iter_mut().for_each(f),
                other => f(other),
            },
            "properties" | "patternProperties" | "$defs" | "definitions" => {
                if let Value::Object(props) = value {
                    props.values_mut().for_each(f);
                }
            }
            _ => {}
        }
    }
}

/// Whether a schema object has any of the object keywords (with a value that is not
/// the default: an empty `required` or `properties` is none).
fn has_object_keywords(s: &Map<String, Value>) -> bool {
    [
        "maxProperties",
        "minProperties",
        "additionalProperties",
        "propertyNames",
    ]
    .iter()
    .any(|k| s.get(*k).is_some_and(|v| !v.is_null()))
        || ["required"]
            .iter()
            .any(|k| s.get(*k).and_then(Value::as_array).is_some_and(|a| !a.is_empty()))
        || ["properties", "patternProperties"]
            .iter()
            .any(|k| s.get(*k).and_then(Value::as_object).is_some_and(|o| !o.is_empty()))
}

fn has_array_keywords(s: &Map<String, Value>) -> bool {
    [
        "items",
        "additionalItems",
        "maxItems",
        "minItems",
        "uniqueItems",
        "contains",
    ]
    .iter()
    .any(|k| s.get(*k).is_some_and(|v| !v.is_null()))
}

/// Sets `common`'s `type` to `t`; `false` when it already has another.
fn merge_type(common: &mut Map<String, Value>, t: Option<Value>) -> bool {
    match (common.get("type"), t) {
        (_, None) => true,
        (None, Some(t)) => {
            common.insert("type".into(), t);
            true
        }
        (Some(existing), Some(t)) => *existing == t,
    }
}

/// The structural rewriting of one node, after its subschemas'.
pub fn structural(node: &mut Value) {
    each_subschema(node, structural);
    let Value::Object(obj) = node else { return };
    let before = obj.clone();
    if !rewrite(obj) {
        // Not structural either way: left for the CRD checks to report.
        *obj = before;
    }
}

/// [`structural`] at one node; `false` when two branches disagree.
fn rewrite(obj: &mut Map<String, Value>) -> bool {
    if let Some(Value::Array(mut one_of)) = obj.remove("oneOf") {
        if !hoist_properties(&mut one_of, obj, true) || !hoist_enum_values(&mut one_of, obj) {
            return false;
        }
        if !one_of.is_empty() {
            obj.insert("oneOf".into(), Value::Array(one_of));
        }
    }
    if let Some(Value::Array(mut any_of)) = obj.remove("anyOf") {
        // Variant descriptions are not the property's: not moved.
        if !hoist_properties(&mut any_of, obj, false) {
            return false;
        }
        obj.insert("anyOf".into(), Value::Array(any_of));
    }
    if obj
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
    {
        match obj.get("additionalProperties") {
            Some(Value::Bool(true)) => {
                obj.remove("additionalProperties");
                obj.insert("x-kubernetes-preserve-unknown-fields".into(), Value::Bool(true));
            }
            Some(Value::Bool(false)) => {
                obj.remove("additionalProperties");
            }
            _ => {}
        }
    }
    obj.remove("uniqueItems");
    // kube-derive reads each node into typed structs and writes it back: `required`
    // comes back sorted, without duplicates, and dropped when empty, as are empty
    // `properties`.
    if let Some(Value::Array(required)) = obj.get_mut("required") {
        required.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        required.dedup();
        if required.is_empty() {
            obj.remove("required");
        }
    }
    for key in ["properties", "patternProperties"] {
        if obj.get(key).and_then(Value::as_object).is_some_and(Map::is_empty) {
            obj.remove(key);
        }
    }
    true
}

/// Moves the properties of the object branches up to `common` (with a branch's
/// description onto its one property when `push_description`); strips the type and
/// description of branches that have no keywords of their own. `false` when a
/// property gets two schemas.
fn hoist_properties(branches: &mut [Value], common: &mut Map<String, Value>, push_description: bool) -> bool {
    for branch in branches {
        let Value::Object(b) = branch else { continue };
        if has_object_keywords(b) {
            let description = b.remove("description");
            let mut props = match b.remove("properties") {
                Some(Value::Object(p)) => p,
                _ => Map::new(),
            };
            if let Some(d) = description
                && push_description
                && props.len() == 1
                && let Some(Value::Object(only)) = props.values_mut().next()
            {
                only.insert("description".into(), d);
            }
            let target = common.entry("properties").or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(target) = target else { return false };
            for (k, p) in props {
                match target.get(&k) {
                    Some(existing) if *existing != p => return false,
                    Some(_) => {}
                    None => {
                        target.insert(k, p);
                    }
                }
            }
            b.remove("additionalProperties");
            if !merge_type(common, b.remove("type")) {
                return false;
            }
        } else if !b.contains_key("enum")
            && !b.contains_key("anyOf")
            && !b.contains_key("oneOf")
            && !has_array_keywords(b)
        {
            b.remove("type");
            b.remove("description");
            b.remove("default");
        }
    }
    true
}

/// Moves the branches holding `enum` values into `common`'s `enum`; `false` when
/// their types disagree.
fn hoist_enum_values(branches: &mut Vec<Value>, common: &mut Map<String, Value>) -> bool {
    let mut ok = true;
    branches.retain(|branch| {
        let Some(b) = branch.as_object() else { return true };
        let Some(values) = b.get("enum").and_then(Value::as_array) else {
            return true;
        };
        ok &= merge_type(common, b.get("type").cloned());
        let target = common.entry("enum").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(target) = target {
            target.extend(values.iter().cloned());
        }
        false
    });
    ok
}

/// `anyOf: [T, {enum: [null], nullable: true}]` (an `Option` of an enum) → `T`,
/// nullable.
fn optional_enum(node: &mut Value) {
    each_subschema(node, optional_enum);
    let Value::Object(obj) = node else { return };
    let Some(Value::Array(any_of)) = obj.get("anyOf") else {
        return;
    };
    let [Value::Object(first), Value::Object(second)] = any_of.as_slice() else {
        return;
    };
    if !first.contains_key("nullable")
        && second.get("enum") == Some(&Value::Array(vec![Value::Null]))
        && second.get("nullable") == Some(&Value::Bool(true))
    {
        let first = first.clone();
        obj.remove("anyOf");
        obj.extend(first);
        obj.insert("nullable".into(), Value::Bool(true));
    }
}

/// An optional property of an int-or-string type is nullable.
fn optional_int_or_string(node: &mut Value) {
    each_subschema(node, optional_int_or_string);
    let Value::Object(obj) = node else { return };
    let required: Vec<String> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let Some(Value::Object(props)) = obj.get_mut("properties") else {
        return;
    };
    for (name, p) in props.iter_mut() {
        if required.contains(name) {
            continue;
        }
        if let Value::Object(p) = p
            && p.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true))
            && !p.contains_key("nullable")
        {
            p.insert("nullable".into(), Value::Bool(true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_externally_tagged_enum_is_one_object_with_one_of_its_properties() {
        let mut s = json!({
            "oneOf": [
                {"type": "object", "description": "First", "properties": {"one": {"type": "integer"}},
                 "required": ["one"], "additionalProperties": false},
                {"type": "object", "properties": {"two": {"type": "string"}}, "required": ["two"]},
            ]
        });
        structural(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {"one": {"type": "integer", "description": "First"}, "two": {"type": "string"}},
                "oneOf": [{"required": ["one"]}, {"required": ["two"]}],
            })
        );
    }

    #[test]
    fn documented_unit_variants_join_the_enum_after_the_others() {
        let mut s = json!({
            "oneOf": [
                {"type": "string", "enum": ["A", "D"]},
                {"type": "string", "enum": ["B"], "description": "doc b"},
                {"type": "string", "enum": ["C"], "description": "doc c"},
            ]
        });
        structural(&mut s);
        assert_eq!(s, json!({"type": "string", "enum": ["A", "D", "B", "C"]}));
    }

    #[test]
    fn an_untagged_enum_keeps_its_branches_required_and_an_empty_branch() {
        let mut s = json!({
            "anyOf": [
                {"type": "object", "description": "A", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"type": "object", "description": "C"},
            ]
        });
        structural(&mut s);
        assert_eq!(
            s,
            json!({"type": "object", "properties": {"a": {"type": "integer"}}, "anyOf": [{"required": ["a"]}, {}]})
        );
    }

    #[test]
    fn conflicting_branches_are_left_for_the_checks() {
        let before = json!({
            "oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}},
                {"type": "object", "properties": {"a": {"type": "string"}}},
            ]
        });
        let mut s = before.clone();
        structural(&mut s);
        assert_eq!(s, before);
    }

    #[test]
    fn a_flattened_map_keeps_unknown_fields_and_sets_lose_unique_items() {
        let mut s = json!({
            "type": "object",
            "properties": {"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}},
            "additionalProperties": true,
        });
        structural(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {"a": {"type": "array", "items": {"type": "string"}}},
                "x-kubernetes-preserve-unknown-fields": true,
            })
        );
    }

    #[test]
    fn optional_enums_and_int_or_strings_are_nullable() {
        let mut s = json!({
            "type": "object",
            "properties": {
                "e": {"anyOf": [{"type": "string", "enum": ["a"]}, {"enum": [null], "nullable": true}]},
                "q": {"x-kubernetes-int-or-string": true},
                "r": {"x-kubernetes-int-or-string": true},
            },
            "required": ["r"],
        });
        optional_enum(&mut s);
        optional_int_or_string(&mut s);
        assert_eq!(
            s["properties"]["e"],
            json!({"type": "string", "enum": ["a"], "nullable": true})
        );
        assert_eq!(
            s["properties"]["q"],
            json!({"x-kubernetes-int-or-string": true, "nullable": true})
        );
        assert_eq!(s["properties"]["r"], json!({"x-kubernetes-int-or-string": true}));
    }
}
