//! Pruning (apiextensions-apiserver `pkg/apiserver/schema/pruning/algorithm.go`).

use super::compile::{Additional, CNode};
use serde_json::Value;

/// `apiVersion`, `kind` and `metadata`: kept in embedded resources.
const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// The path of the node being pruned, built as Go's `UnknownFieldPathOptions`
/// builds it: keys joined with `.`, indices as `[i]`.
struct Tracker<'o> {
    parent: String,
    /// Go's `len(ParentPath)` is zero only at the root.
    depth: usize,
    out: &'o mut Vec<String>,
}

impl Tracker<'_> {
    fn record(&mut self, key: &str) {
        let mut p = self.parent.clone();
        if self.depth > 0 {
            p.push('.');
        }
        p.push_str(key);
        self.out.push(p);
    }

    fn with_key<R>(&mut self, key: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        let (len, depth) = (self.parent.len(), self.depth);
        if self.depth > 0 {
            self.parent.push('.');
        }
        self.parent.push_str(key);
        self.depth += 1;
        let r = f(self);
        self.parent.truncate(len);
        self.depth = depth;
        r
    }

    fn with_index<R>(&mut self, i: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        let (len, depth) = (self.parent.len(), self.depth);
        self.parent.push_str(&format!("[{i}]"));
        self.depth += 1;
        let r = f(self);
        self.parent.truncate(len);
        self.depth = depth;
        r
    }
}

/// `PruneWithOptions(x, s, isResourceRoot)`: removes the fields `s` does not specify
/// and appends their paths to `pruned` (unsorted). With `is_resource_root` the root
/// is treated as an embedded resource (its `apiVersion`, `kind` and `metadata` are
/// kept, and not recorded).
pub fn prune(x: &mut Value, s: Option<&CNode>, is_resource_root: bool, pruned: &mut Vec<String>) {
    let mut t = Tracker {
        parent: String::new(),
        depth: 0,
        out: pruned,
    };
    // A nil schema at a resource root is an empty embedded schema.
    let empty;
    let s = match (s, is_resource_root) {
        (None, true) => {
            empty = CNode::compile(&crate::ir::Schema::default(), super::compile::CompileOptions::REQUEST);
            Some(&empty)
        }
        (s, _) => s,
    };
    prune_node(x, s, is_resource_root, &mut t);
}

fn prune_node(x: &mut Value, s: Option<&CNode>, force_embedded: bool, t: &mut Tracker) {
    if let Some(s) = s
        && s.preserve_unknown_fields
    {
        skip_prune(x, Some(s), force_embedded, t);
        return;
    }
    match x {
        Value::Object(m) => {
            let Some(s) = s else {
                for k in m.keys() {
                    t.record(k);
                }
                m.clear();
                return;
            };
            let embedded = s.embedded_resource || force_embedded;
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                let Some(v) = m.get_mut(&k) else {
                    continue;
                };
                if let Some(prop) = s.properties.get(&k) {
                    t.with_key(&k, |t| prune_node(v, Some(prop), false, t));
                } else if let Some(a) = &s.additional {
                    let child = match a {
                        Additional::Schema(c) => Some(&**c),
                        Additional::Bool(_) => None,
                    };
                    t.with_key(&k, |t| prune_node(v, child, false, t));
                } else {
                    if !META_FIELDS.contains(&k.as_str()) || t.depth > 0 {
                        t.record(&k);
                    }
                    m.remove(&k);
                }
            }
        }
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            for (i, v) in items.iter_mut().enumerate() {
                t.with_index(i, |t| prune_node(v, item_schema, false, t));
            }
        }
        _ => {}
    }
}

/// `skipPrune`: under `x-kubernetes-preserve-unknown-fields` nothing is removed at this
/// level, but known properties and `additionalProperties` are pruned normally.
fn skip_prune(x: &mut Value, s: Option<&CNode>, force_embedded: bool, t: &mut Tracker) {
    let Some(s) = s else {
        return;
    };
    match x {
        Value::Object(m) => {
            let embedded = s.embedded_resource || force_embedded;
            for (k, v) in m.iter_mut() {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(prop) = s.properties.get(k) {
                    t.with_key(k, |t| prune_node(v, Some(prop), false, t));
                } else if let Some(a) = &s.additional {
                    let child = match a {
                        Additional::Schema(c) => Some(&**c),
                        Additional::Bool(_) => None,
                    };
                    t.with_key(k, |t| prune_node(v, child, false, t));
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                t.with_index(i, |t| skip_prune(v, s.items.as_deref(), false, t));
            }
        }
        _ => {}
    }
}
