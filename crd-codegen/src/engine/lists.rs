//! `listtype.ValidateListSetsAndMaps` (apiextensions-apiserver
//! `pkg/apiserver/schema/listtype/validation.go`): the walk; one array's check is
//! `crd_runtime::listtype::validate_list`.

use super::compile::CNode;
use crd_runtime::errors::{ErrorList, Path};
use crd_runtime::listtype;
use serde_json::{Map, Value};

/// The list-type errors of object `obj` with schema `s` at `path`.
pub fn validate_object(path: &Path, s: &CNode, obj: &Map<String, Value>, errs: &mut ErrorList) {
    // Go walks additionalProperties and properties in two separate loops.
    if let Some(a) = s.additional_schema() {
        for (k, v) in obj {
            validate_value(&path.key(k), a, v, errs);
        }
    }
    for (k, v) in obj {
        if let Some(sub) = s.properties.get(k) {
            validate_value(&path.field(k), sub, v, errs);
        }
    }
}

fn validate_value(path: &Path, s: &CNode, v: &Value, errs: &mut ErrorList) {
    match v {
        Value::Array(items) => {
            listtype::validate_list(path, s.list_type, &s.list_map_keys, items, errs);
            if let Some(item_schema) = s.items.as_deref() {
                for (i, x) in items.iter().enumerate() {
                    validate_value(&path.index(i), item_schema, x, errs);
                }
            }
        }
        Value::Object(m) => validate_object(path, s, m, errs),
        _ => {}
    }
}
