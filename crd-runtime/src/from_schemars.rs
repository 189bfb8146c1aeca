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
    generate::<T>(None, Conflicts::Leave)
}

/// [`schema_for`], in a CRD kube-derive would write: a schema that cannot be made
/// structural panics with kube-derive's message, as its `crd()` does.
pub fn crd_schema_for<T: JsonSchema + ?Sized>() -> Value {
    generate::<T>(None, Conflicts::Panic)
}

/// What to do with branches that give one property two schemas.
#[derive(Clone, Copy, PartialEq)]
enum Conflicts {
    /// Leave the node as it is, for the CRD checks to report.
    Leave,
    /// Panic, as kube-derive's `crd()` does.
    Panic,
}

/// The schema of a property of type `T` (its `Option` included) with its doc comment,
/// as kube-derive writes it: the description is set before the schema is made
/// structural, as schemars sets it before kube-derive rewrites the whole schema (so an
/// `Option` of a documented enum has the enum's description, as kube-derive's has).
/// An optional int-or-string is nullable.
pub fn property_for<T: JsonSchema + ?Sized>(doc: Option<&str>, optional: bool) -> Value {
    let mut value = generate::<T>(doc, Conflicts::Panic);
    if let Value::Object(map) = &mut value
        && optional
        && map.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true))
    {
        map.entry("nullable").or_insert(Value::Bool(true));
    }
    value
}

fn generate<T: JsonSchema + ?Sized>(doc: Option<&str>, conflicts: Conflicts) -> Value {
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
    if let Err(conflict) = structural_checked(&mut value)
        && conflicts == Conflicts::Panic
    {
        #[allow(
            clippy::panic,
            reason = "kube-derive's `crd()` panics here; code written for it expects that"
        )]
        {
            panic!("{conflict}");
        }
    }
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
fn each_subschema(node: &mut Value, f: &mut dyn FnMut(&mut Value)) {
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
                    items.iter_mut().for_each(&mut *f);
                }
            }
            "items" => match value {
                Value::Array(items) => items.iter_mut().for_each(&mut *f),
                other => f(other),
            },
            "properties" | "patternProperties" | "$defs" | "definitions" => {
                if let Value::Object(props) = value {
                    props.values_mut().for_each(&mut *f);
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

/// schemars' array keywords (its `ArrayValidation`).
const ARRAY_KEYWORDS: [&str; 6] = [
    "items",
    "additionalItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
];

fn has_array_keywords(s: &Map<String, Value>) -> bool {
    ARRAY_KEYWORDS.iter().any(|k| s.get(*k).is_some_and(|v| !v.is_null()))
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

/// The structural rewriting of a schema, each node after its subschemas. A node whose
/// branches disagree is left as it was, for the CRD checks to report.
pub fn structural(node: &mut Value) {
    let _ = structural_checked(node);
}

/// [`structural`], and the first disagreement, in kube-derive's words.
fn structural_checked(node: &mut Value) -> Result<(), String> {
    let mut first = Ok(());
    structural_node(node, &mut first);
    first
}

fn structural_node(node: &mut Value, first: &mut Result<(), String>) {
    each_subschema(node, &mut |child| structural_node(child, first));
    let Value::Object(obj) = node else { return };
    let before = obj.clone();
    if let Err(conflict) = rewrite(obj) {
        *obj = before;
        if first.is_ok() {
            *first = Err(conflict);
        }
    }
}

/// [`structural`] at one node; `Err` when two branches disagree.
fn rewrite(obj: &mut Map<String, Value>) -> Result<(), String> {
    if let Some(Value::Array(mut one_of)) = obj.remove("oneOf") {
        hoist_properties(&mut one_of, obj, true)?;
        hoist_enum_values(&mut one_of, obj)?;
        if !one_of.is_empty() {
            obj.insert("oneOf".into(), Value::Array(one_of));
        }
    }
    if let Some(Value::Array(mut any_of)) = obj.remove("anyOf") {
        // Variant descriptions are not the property's: not moved.
        hoist_properties(&mut any_of, obj, false)?;
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
    Ok(())
}

/// Moves the properties of the object branches up to `common` (with a branch's
/// description onto its one property when `push_description`); strips the type and
/// description of branches that have no keywords of their own. `Err` when a property
/// gets two schemas, or a branch another type.
fn hoist_properties(
    branches: &mut [Value],
    common: &mut Map<String, Value>,
    push_description: bool,
) -> Result<(), String> {
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
            let Value::Object(target) = target else {
                return Err("`properties` is not an object".into());
            };
            for (k, p) in props {
                match target.get(&k) {
                    Some(existing) if *existing != p => {
                        return Err(format!(
                            "Property {k:?} has the schema {} but was already defined as {} in another subschema. \
                             The schemas for a property used in multiple subschemas must be identical",
                            kube_debug::schema(&p),
                            kube_debug::schema(existing)
                        ));
                    }
                    Some(_) => {}
                    None => {
                        target.insert(k, p);
                    }
                }
            }
            b.remove("additionalProperties");
            let variant_type = b.remove("type");
            if !merge_type(common, variant_type.clone()) {
                return Err(format!(
                    "variant defined type {}, conflicting with existing type {}",
                    kube_debug::instance_type(variant_type.as_ref().unwrap_or(&Value::Null)),
                    kube_debug::instance_type(common.get("type").unwrap_or(&Value::Null))
                ));
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
    Ok(())
}

/// Moves the branches holding `enum` values into `common`'s `enum`; `Err` when their
/// types disagree.
fn hoist_enum_values(branches: &mut Vec<Value>, common: &mut Map<String, Value>) -> Result<(), String> {
    let mut result = Ok(());
    branches.retain(|branch| {
        let Some(b) = branch.as_object() else { return true };
        let Some(values) = b.get("enum").and_then(Value::as_array) else {
            return true;
        };
        let before = common.get("type").cloned();
        if !merge_type(common, b.get("type").cloned()) && result.is_ok() {
            result = Err(format!(
                "Enum variant set {values:?} has type {} but was already defined as {}. \
                 The instance type must be equal for all subschema variants.",
                kube_debug::instance_type(b.get("type").unwrap_or(&Value::Null)),
                kube_debug::option_type(before.as_ref())
            ));
        }
        let target = common.entry("enum").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(target) = target {
            target.extend(values.iter().cloned());
        }
        false
    });
    result
}

/// Schemas printed as kube-derive prints them in its panics (its typed view of a schema,
/// with `Debug`), so that a message it gives is ours too.
mod kube_debug {
    use serde_json::{Map, Value};

    fn opt(v: Option<String>) -> String {
        v.map_or("None".into(), |s| format!("Some({s})"))
    }

    /// One of `type`'s names, as kube-derive's `InstanceType`.
    fn type_name(t: &Value) -> String {
        let name = t.as_str().unwrap_or_default();
        let mut c = name.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    }

    /// `type`, as kube-derive's `SingleOrVec<InstanceType>`.
    pub fn instance_type(t: &Value) -> String {
        match t {
            Value::Array(types) => format!("Vec([{}])", types.iter().map(type_name).collect::<Vec<_>>().join(", ")),
            other => format!("Single({})", type_name(other)),
        }
    }

    pub fn option_type(t: Option<&Value>) -> String {
        opt(t.map(instance_type))
    }

    fn string(s: &Map<String, Value>, key: &str) -> Option<String> {
        s.get(key).and_then(Value::as_str).map(|v| format!("{v:?}"))
    }

    fn number(s: &Map<String, Value>, key: &str) -> Option<String> {
        s.get(key).and_then(Value::as_u64).map(|v| v.to_string())
    }

    fn schemas(v: &Value) -> String {
        match v {
            Value::Array(items) => format!("[{}]", items.iter().map(schema).collect::<Vec<_>>().join(", ")),
            other => schema(other),
        }
    }

    fn map_of_schemas(v: Option<&Value>) -> String {
        let entries: Vec<String> = v
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, s)| format!("{k:?}: {}", schema(s))).collect())
            .unwrap_or_default();
        format!("{{{}}}", entries.join(", "))
    }

    /// A schema, as kube-derive's `Schema` prints with `Debug`.
    pub fn schema(v: &Value) -> String {
        let s = match v {
            Value::Bool(b) => return format!("Bool({b})"),
            Value::Object(s) => s,
            _ => return "Bool(true)".into(),
        };
        const TYPED: [&str; 3] = ["type", "format", "enum"];
        const METADATA: [&str; 2] = ["description", "default"];
        const SUBSCHEMAS: [&str; 2] = ["anyOf", "oneOf"];
        const OBJECT: [&str; 7] = [
            "maxProperties",
            "minProperties",
            "required",
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
        ];
        let has = |keys: &[&str]| keys.iter().any(|k| s.contains_key(*k));
        let metadata = has(&METADATA).then(|| {
            format!(
                "Metadata {{ description: {}, default: {} }}",
                opt(string(s, "description")),
                opt(s.get("default").map(|d| format!("{d:?}")))
            )
        });
        let subschemas = has(&SUBSCHEMAS).then(|| {
            format!(
                "SubschemaValidation {{ any_of: {}, one_of: {} }}",
                opt(s.get("anyOf").map(schemas)),
                opt(s.get("oneOf").map(schemas))
            )
        });
        let array = has(&super::ARRAY_KEYWORDS).then(|| {
            let items = s.get("items").map(|i| match i {
                Value::Array(_) => format!("Vec({})", schemas(i)),
                other => format!("Single({})", schema(other)),
            });
            format!(
                "ArrayValidation {{ items: {}, additional_items: {}, max_items: {}, min_items: {}, unique_items: {}, contains: {} }}",
                opt(items),
                opt(s.get("additionalItems").map(schema)),
                opt(number(s, "maxItems")),
                opt(number(s, "minItems")),
                opt(s.get("uniqueItems").and_then(Value::as_bool).map(|b| b.to_string())),
                opt(s.get("contains").map(schema))
            )
        });
        let object = has(&OBJECT).then(|| {
            let required: Vec<String> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(|n| format!("{n:?}")).collect())
                .unwrap_or_default();
            format!(
                "ObjectValidation {{ max_properties: {}, min_properties: {}, required: {{{}}}, properties: {}, pattern_properties: {}, additional_properties: {}, property_names: {} }}",
                opt(number(s, "maxProperties")),
                opt(number(s, "minProperties")),
                required.join(", "),
                map_of_schemas(s.get("properties")),
                map_of_schemas(s.get("patternProperties")),
                opt(s.get("additionalProperties").map(schema)),
                opt(s.get("propertyNames").map(schema))
            )
        });
        let rest: Map<String, Value> = s
            .iter()
            .filter(|(k, _)| {
                ![&TYPED[..], &METADATA, &SUBSCHEMAS, &super::ARRAY_KEYWORDS, &OBJECT]
                    .iter()
                    .any(|g| g.contains(&k.as_str()))
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let extensions: Vec<String> = rest.iter().map(|(k, v)| format!("{k:?}: {v:?}")).collect();
        format!(
            "Object(SchemaObject {{ metadata: {}, instance_type: {}, format: {}, enum_values: {}, subschemas: {}, array: {}, object: {}, extensions: {{{}}}, other: {:?} }})",
            opt(metadata),
            option_type(s.get("type")),
            opt(string(s, "format")),
            opt(s
                .get("enum")
                .map(|e| format!("{:?}", e.as_array().cloned().unwrap_or_default()))),
            opt(subschemas),
            opt(array),
            opt(object),
            extensions.join(", "),
            Value::Object(rest)
        )
    }
}

/// `anyOf: [T, {enum: [null], nullable: true}]` (an `Option` of an enum) → `T`,
/// nullable.
fn optional_enum(node: &mut Value) {
    each_subschema(node, &mut optional_enum);
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
    each_subschema(node, &mut optional_int_or_string);
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
