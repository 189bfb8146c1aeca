//! Defaulting (apiextensions-apiserver `pkg/apiserver/schema/defaulting/algorithm.go`
//! and `prunenulls.go`).

use super::compile::CNode;
use serde_json::Value;

/// `PruneNonNullableNullsWithoutDefaults`: removes object keys whose value is `null`
/// where the schema is known, not nullable and has no default.
pub fn drop_nulls(x: &mut Value, s: Option<&CNode>) {
    match x {
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                let schema = s.and_then(|s| s.field(&k));
                let Some(v) = m.get_mut(&k) else {
                    continue;
                };
                if v.is_null() && schema.is_some_and(|c| !c.nullable && c.default.is_none()) {
                    m.remove(&k);
                } else {
                    drop_nulls(v, schema);
                }
            }
        }
        Value::Array(items) => {
            let schema = s.and_then(|s| s.items.as_deref());
            for v in items {
                drop_nulls(v, schema);
            }
        }
        _ => {}
    }
}

fn is_non_nullable_null(x: &Value, s: Option<&CNode>) -> bool {
    x.is_null() && s.is_some_and(|s| !s.nullable)
}

/// `Default`: sets absent properties (and non-nullable nulls) to their defaults, then
/// recurses, so defaults inside inserted defaults apply too.
pub fn default(x: &mut Value, s: Option<&CNode>) {
    let Some(s) = s else {
        return;
    };
    match x {
        Value::Object(m) => {
            for (k, prop) in &s.properties {
                let Some(d) = &prop.default else {
                    continue;
                };
                match m.get(k) {
                    Some(v) if !is_non_nullable_null(v, Some(prop)) => {}
                    _ => {
                        m.insert(k.clone(), d.clone());
                    }
                }
            }
            for (k, v) in m.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default(v, Some(prop));
                } else if s.additional.is_some() {
                    let a = s.additional_schema();
                    if is_non_nullable_null(v, a) {
                        *v = a.and_then(|a| a.default.clone()).unwrap_or(Value::Null);
                    }
                    default(v, a);
                }
            }
        }
        Value::Array(items) => {
            let item_schema = s.items.as_deref();
            for v in items {
                if is_non_nullable_null(v, item_schema) {
                    *v = item_schema.and_then(|i| i.default.clone()).unwrap_or(Value::Null);
                }
                default(v, item_schema);
            }
        }
        _ => {}
    }
}
