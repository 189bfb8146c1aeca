//! OpenAPI validation of a value against a compiled schema, as kube-openapi's
//! `SchemaValidator` walks it, with the API server's ratcheting on update
//! (apiextensions-apiserver `pkg/apiserver/validation/ratcheting.go`).
//!
//! Each node runs the shared steps of `crd_runtime::openapi::node` in kube-openapi's
//! order; the walk supplies the child schemas: `allOf`/`anyOf`/`oneOf`/`not`
//! branches (full schemas, validated without ratcheting), `items`, then for objects
//! the `additionalProperties` (keys sorted) or the forbidden keys of
//! `additionalProperties: false`, the `properties` (sorted by name) and `required`.
//!
//! Ratcheting: a child that correlates with an old value (a property or map key present
//! in both objects, an element of a `x-kubernetes-list-type: map` list with the same
//! keys) is validated with ratcheting; when it has errors and equals its old value
//! (`CachedDeepEqual`) its errors are dropped, its match count kept. A child that does
//! not correlate, and everything below it, is validated plainly. At the root,
//! `apiVersion` and `kind` never ratchet.

use super::compile::{Additional, CNode};
use crd_runtime::errors::Path;
use crd_runtime::openapi::{self, Branch, Junctors, Res};
use crd_runtime::ratchet::{self, MapList};
use serde_json::Value;

/// Validates `v` at `path` against `s`; with `old`, as the root of a ratcheting
/// update.
pub fn validate(s: &CNode, v: &Value, old: Option<&Value>, path: &Path) -> Res<'static> {
    child(s, v, old, path)
}

/// A child validator: ratcheting when `old` correlates, plain otherwise.
fn child(s: &CNode, v: &Value, old: Option<&Value>, path: &Path) -> Res<'static> {
    let res = node(s, v, old, path);
    match old {
        Some(old) if !res.is_valid() && ratchet::deep_equal(v, old, s) => Res {
            errors: Vec::new(),
            match_count: res.match_count,
        },
        _ => res,
    }
}

/// `SchemaValidator.Validate` of one node. (Its errors own what they name of the
/// schema: the node's keywords are built for this call.)
fn node(s: &CNode, v: &Value, old: Option<&Value>, path: &Path) -> Res<'static> {
    let lits = s.lits();
    let n = s.node(&lits);
    let all_of: Vec<_> = s.all_of.iter().map(branch).collect();
    let any_of: Vec<_> = s.any_of.iter().map(branch).collect();
    let one_of: Vec<_> = s.one_of.iter().map(branch).collect();
    let not = s.not.as_deref().map(branch);
    let all_of: Vec<Branch> = all_of.iter().map(|b| b as Branch).collect();
    let any_of: Vec<Branch> = any_of.iter().map(|b| b as Branch).collect();
    let one_of: Vec<Branch> = one_of.iter().map(|b| b as Branch).collect();
    let junctors = Junctors {
        all_of: &all_of,
        any_of: &any_of,
        one_of: &one_of,
        not: not.as_ref().map(|b| b as Branch),
    };
    let junctors = s.has_junctors().then_some(&junctors);
    let mut res = Res::default();
    openapi::node(
        v,
        path,
        &n,
        junctors,
        &mut |elements, r| {
            let Some(item_schema) = s.items.as_deref() else {
                return;
            };
            let old_list = match old {
                Some(Value::Array(o)) if s.list_type == Some(crd_runtime::listtype::ListType::Map) => {
                    Some(MapList::new(s, o))
                }
                _ => None,
            };
            for (i, e) in elements.iter().enumerate() {
                let old_e = old_list.as_ref().and_then(|l| l.get(e));
                r.merge(child(item_schema, e, old_e, &path.index(i)));
            }
        },
        &mut |map, r| {
            match &s.additional {
                Some(Additional::Bool(false)) => {
                    for k in map.keys() {
                        if !s.properties.contains_key(k) {
                            openapi::forbidden_property(k, path, r);
                        }
                    }
                }
                additional => {
                    if let Some(Additional::Schema(a)) = additional {
                        for (k, x) in map {
                            if !s.properties.contains_key(k) {
                                let old_x = correlate(v, old, path, k);
                                r.merge(child(a, x, old_x, &path.key(k)));
                            }
                        }
                    }
                }
            }
            for (name, prop) in &s.properties {
                if let Some(x) = map.get(name) {
                    let old_x = correlate(v, old, path, name);
                    r.merge(child(prop, x, old_x, &path.field(name)));
                }
            }
            let required: Vec<&str> = s.required.iter().map(String::as_str).collect();
            openapi::required(map, &required, path, r);
        },
        &mut res,
    );
    res.into_owned()
}

/// A junctor branch: the sub-schema validated plainly (no ratcheting below).
fn branch<'n>(b: &CNode) -> impl Fn(&Value, &Path, &mut Res<'n>) + '_ {
    move |v: &Value, p: &Path, r: &mut Res<'n>| *r = node(b, v, None, p)
}

/// The old value of key `k` of `v` (Go's `CorrelatedObject.Key`), except for the
/// root's `apiVersion` and `kind`.
fn correlate<'a>(v: &Value, old: Option<&'a Value>, path: &Path, k: &str) -> Option<&'a Value> {
    if path.is_root() && (k == "apiVersion" || k == "kind") {
        return None;
    }
    ratchet::correlate_key(v, old?, k)
}
