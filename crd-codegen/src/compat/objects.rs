//! Evidence from objects (`crdgen diff --objects`): each stored object (a `kubectl
//! get -o yaml` dump, or the manifests a GitOps repository applies) run through the
//! new CRD as the API server would, with the same pipeline and messages as `crdgen
//! validate`:
//!
//! - the fields it loses to pruning: those the new schema prunes and the old one
//!   did not;
//! - whether an update that leaves it unchanged is refused (the update pipeline with
//!   the object as the stored one, so ratcheting applies), as `crdgen validate --old
//!   FILE FILE` says;
//! - whether creating it again (a re-apply after delete, a restore, a re-sync) is
//!   refused, as `crdgen validate FILE` says.
//!
//! An update needs `metadata.resourceVersion`; an object without one (a manifest
//! rather than a stored object) is given one, as its stored form would have.

use super::input::ComparedCrd;
use crate::engine::Engine;
use crate::source::{ManifestObject, object_key};
use crd_runtime::admission::ResourceSchema;
use serde_json::{Value, json};
use std::fmt;

/// The two CRDs, compiled, to run objects through.
pub struct Evidence {
    old: Engine,
    new: Engine,
    /// The new CRD's served versions.
    served: Vec<String>,
    namespaced: bool,
}

/// What the change does to one object.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectReport {
    /// `FILE: document N`.
    pub place: String,
    /// The object's kind.
    pub kind: String,
    /// The object's `metadata.name`.
    pub name: String,
    /// Empty for a cluster-scoped kind.
    pub namespace: String,
    /// The fields the new schema prunes and the old one did not, sorted.
    pub pruned: Vec<String>,
    /// Why an update leaving the object unchanged is refused (kubectl's text).
    pub update: Option<String>,
    /// Why creating it again is refused.
    pub create: Option<String>,
}

impl ObjectReport {
    /// Whether the change does anything to the object.
    pub fn is_affected(&self) -> bool {
        !self.pruned.is_empty() || self.update.is_some() || self.create.is_some()
    }

    /// The report for `-o json`.
    pub fn to_json(&self) -> Value {
        json!({
            "place": self.place,
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "pruned": self.pruned,
            "update": self.update,
            "create": self.create,
        })
    }
}

/// `FILE: document N: Kind "name" in namespace "ns"`, then a line per consequence
/// (a refusal's own lines indented below it).
impl fmt::Display for ObjectReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} {:?}", self.place, self.kind, self.name)?;
        if !self.namespace.is_empty() {
            write!(f, " in namespace {:?}", self.namespace)?;
        }
        if !self.pruned.is_empty() {
            write!(f, "\n  pruned: {}", self.pruned.join(", "))?;
        }
        for (what, refusal) in [("update refused", &self.update), ("create refused", &self.create)] {
            if let Some(refusal) = refusal {
                write!(f, "\n  {what}: {}", refusal.replace('\n', "\n    "))?;
            }
        }
        Ok(())
    }
}

impl Evidence {
    /// Compiles the two CRDs.
    pub fn new(old: &ComparedCrd, new: &ComparedCrd) -> Evidence {
        Evidence {
            old: Engine::new(&old.ir),
            new: Engine::new(&new.ir),
            served: new
                .ir
                .versions
                .iter()
                .filter(|v| v.served)
                .map(|v| v.name.clone())
                .collect(),
            namespaced: new.ir.scope == crate::ir::Scope::Namespaced,
        }
    }

    /// What the change does to `object`; `None` when it is not of the CRD's kind.
    pub fn examine(&self, object: ManifestObject) -> Option<ObjectReport> {
        let (api_version, kind, namespace, name) = object_key(&object.value);
        let (group, version) = crd_runtime::objectmeta::parse_group_version(&api_version).unwrap_or(("", ""));
        if group != self.new.group || kind != self.new.names.kind {
            return None;
        }
        let mut report = ObjectReport {
            place: object.place(),
            kind,
            name,
            namespace: if self.namespaced {
                namespace.clone()
            } else {
                String::new()
            },
            pruned: Vec::new(),
            update: None,
            create: None,
        };
        let schema = self
            .new
            .for_api_version(&api_version)
            .filter(|_| self.served.iter().any(|v| v == version));
        let Some(schema) = schema else {
            // What kubectl says when discovery has no such version.
            let refusal = format!("no matches for kind {:?} in version {api_version:?}", report.kind);
            report.update = Some(refusal.clone());
            report.create = Some(refusal);
            return Some(report);
        };
        let pruned_by = |schema: &dyn ResourceSchema| {
            let mut paths = Vec::new();
            schema.prune(&mut object.value.clone(), &mut paths);
            paths
        };
        let before = self
            .old
            .for_api_version(&api_version)
            .map(|s| pruned_by(s))
            .unwrap_or_default();
        report.pruned = pruned_by(schema).into_iter().filter(|p| !before.contains(p)).collect();
        report.pruned.sort();

        let file = object.file.display().to_string();
        let mut stored = object.value.clone();
        if stored["metadata"]["resourceVersion"].as_str().unwrap_or("").is_empty()
            && let Some(metadata) = stored.get_mut("metadata").and_then(Value::as_object_mut)
        {
            metadata.insert("resourceVersion".into(), Value::from("1"));
        }
        let update = schema.update(stored.clone(), stored, &namespace);
        report.update = update.refusal(&report.kind, "updating", &file);
        let create = schema.create(object.value, &namespace);
        report.create = create.refusal(&report.kind, "creating", &file);
        Some(report)
    }
}
