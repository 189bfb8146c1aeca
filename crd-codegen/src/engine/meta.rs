//! Embedded resources: the schema walks of `objectmeta.Coerce` and
//! `objectmeta.Validate` (apiextensions-apiserver
//! `pkg/apiserver/schema/objectmeta/{coerce,validation}.go`). What happens at one
//! embedded object is in `crd_runtime::objectmeta`.

use super::compile::CNode;
use crd_runtime::errors::{ErrorList, FieldError, Path};
use crd_runtime::objectmeta;
use serde_json::Value;

/// `Coerce(path, x, s, isResourceRoot, dropInvalidFields)` at `path`: the first error
/// (only without `cx.drop_invalid`). Keys are visited in sorted order.
pub fn coerce(
    x: &mut Value,
    s: Option<&CNode>,
    is_resource_root: bool,
    cx: &mut objectmeta::Coercion,
    path: &Path,
) -> Result<(), FieldError> {
    let Some(s) = s else {
        return Ok(());
    };
    match x {
        Value::Object(m) => {
            let embedded = s.embedded_resource || is_resource_root;
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if embedded {
                    objectmeta::coerce_embedded_field(path, m, &k, cx)?;
                }
                let Some(v) = m.get_mut(&k) else {
                    continue;
                };
                if let Some(prop) = s.properties.get(&k) {
                    coerce(v, Some(prop), false, cx, &path.field(&k))?;
                } else if s.additional.is_some() {
                    coerce(v, s.additional_schema(), false, cx, &path.key(&k))?;
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                coerce(v, s.items.as_deref(), false, cx, &path.index(i))?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `objectmeta.Validate(path, x, s, isResourceRoot)`: every embedded resource's type
/// and object meta. Keys are visited in sorted order.
pub fn validate(x: &Value, s: Option<&CNode>, is_resource_root: bool, path: &Path, errs: &mut ErrorList) {
    let Some(s) = s else {
        return;
    };
    match x {
        Value::Object(m) => {
            if s.embedded_resource || is_resource_root {
                errs.extend(objectmeta::validate_embedded_resource(path, m));
            }
            for (k, v) in m {
                if let Some(prop) = s.properties.get(k) {
                    validate(v, Some(prop), false, &path.field(k), errs);
                } else if s.additional.is_some() {
                    validate(v, s.additional_schema(), false, &path.key(k), errs);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                validate(v, s.items.as_deref(), false, &path.index(i), errs);
            }
        }
        _ => {}
    }
}
