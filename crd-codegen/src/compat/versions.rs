//! The rules about the CRD as a whole and its versions: `scope`,
//! `storedVersionRemoval`, `servedVersionRemoval`, `deprecatedVersion`,
//! `storageVersion`, and crdify's comparison of served versions with each other.

use super::Finding;
use super::config::Config;
use super::input::ComparedCrd;
use super::rules::Rule;
use super::schema::Walk;
use crate::ir::{self, Conversion, Schema};

/// The version column of findings about the whole CRD.
pub const ALL_VERSIONS: &str = "*";

/// The CRD-wide and per-version rules.
pub(super) fn crd_wide(old: &ComparedCrd, new: &ComparedCrd, config: &Config, out: &mut Vec<Finding>) {
    let mut emit = |rule, version: &str, path: &str, change: String| {
        out.extend(Finding::of(config, rule, version, path, change, None));
    };
    let scope = |c: &ir::Crd| match c.scope {
        ir::Scope::Namespaced => "Namespaced",
        ir::Scope::Cluster => "Cluster",
    };
    if old.ir.scope != new.ir.scope {
        let change = format!("changed: {} -> {}", scope(&old.ir), scope(&new.ir));
        emit(Rule::Scope, ALL_VERSIONS, "spec.scope", change);
    }
    for stored in &old.stored_versions {
        if new.ir.version(stored).is_none() {
            let change = "removed from spec.versions, but objects may be stored in it (status.storedVersions)".into();
            emit(Rule::StoredVersionRemoval, stored, "spec.versions", change);
        }
    }
    for o in old.ir.versions.iter().filter(|v| v.served) {
        match new.ir.version(&o.name) {
            None => emit(Rule::ServedVersionRemoval, &o.name, "spec.versions", "removed".into()),
            Some(n) if !n.served => {
                let path = format!("spec.versions[{}].served", o.name);
                emit(Rule::ServedVersionRemoval, &o.name, &path, "no longer served".into());
            }
            Some(_) => {}
        }
    }
    for n in new.ir.versions.iter().filter(|v| v.deprecated) {
        if old.ir.version(&n.name).is_some_and(|o| !o.deprecated) {
            let path = format!("spec.versions[{}].deprecated", n.name);
            emit(Rule::DeprecatedVersion, &n.name, &path, "deprecated".into());
        }
    }
    // Objects stored in the old storage version are read in the new one by rewriting
    // their apiVersion and pruning with its schema: what it has no place for is lost.
    if let (Some(o), Some(n)) = (old.ir.storage_version(), new.ir.storage_version())
        && o.name != n.name
        && new.ir.conversion == Conversion::None
        && !same_ignoring_descriptions(&o.schema, &n.schema)
    {
        let path = format!("spec.versions[{}].storage", n.name);
        let change = format!(
            "changed: {} -> {}, with conversion strategy None and schemas that differ: objects stored as {} are read as {} and pruned",
            o.name, n.name, o.name, n.name
        );
        emit(Rule::StorageVersion, &n.name, &path, change);
    }
}

/// crdify's served-version validation: every two served versions of `crd`, the lower
/// priority one against the higher, compared with the property rules (a client moving
/// to the newer version meets these changes). Labelled `v1alpha1 -> v1`.
pub(super) fn served_pairs(crd: &ir::Crd, config: &Config) -> Vec<Finding> {
    let mut served: Vec<&ir::Version> = crd.versions.iter().filter(|v| v.served).collect();
    served.sort_by(|a, b| crd_runtime::versions::compare(&a.name, &b.name));
    let mut out = Vec::new();
    for (i, lower) in served.iter().enumerate() {
        for higher in &served[i + 1..] {
            let mut walk = Walk {
                config,
                version: format!("{} -> {}", lower.name, higher.name),
                same_version: false,
                out: Vec::new(),
            };
            walk.compare(&lower.schema, &higher.schema);
            out.append(&mut walk.out);
        }
    }
    out
}

/// Whether two schemas are the same but for their descriptions.
fn same_ignoring_descriptions(a: &Schema, b: &Schema) -> bool {
    fn strip(s: &mut Schema) {
        s.description = None;
        s.properties.values_mut().for_each(strip);
        s.items.as_deref_mut().into_iter().for_each(strip);
        if let Some(ir::AdditionalProperties::Schema(values)) = &mut s.additional_properties {
            strip(values);
        }
        (s.all_of.iter_mut().chain(&mut s.any_of).chain(&mut s.one_of)).for_each(strip);
        s.not.as_deref_mut().into_iter().for_each(strip);
    }
    let (mut a, mut b) = (a.clone(), b.clone());
    strip(&mut a);
    strip(&mut b);
    a == b
}
