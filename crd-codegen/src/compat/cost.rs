//! `celCost`: the new CRD's rules whose estimated cost exceeds the API server's
//! limits, from the errors of its checks (the project's CEL checker and cost
//! estimator), placed at their versions and schema paths.

use super::Finding;
use super::config::Config;
use super::input::ComparedCrd;
use super::rules::Rule;
use crate::fieldpath::{FieldPath, Seg};
use crate::ir::Schema;

/// The findings for `crd`'s cost errors.
pub(super) fn findings(crd: &ComparedCrd, config: &Config) -> Vec<Finding> {
    let mut out = Vec::new();
    for error in &crd.cost_errors {
        let path = FieldPath::parse(&error.field);
        let segs: Vec<&Seg> = path.segments();
        let field = |i: usize| match segs.get(i) {
            Some(Seg::Field(f)) => Some(f.as_str()),
            _ => None,
        };
        // `spec.versions[i].schema.openAPIV3Schema...` is one version's schema;
        // `spec.validation.openAPIV3Schema...` every version's.
        let (versions, rest) = match (field(1), segs.get(2)) {
            (Some("versions"), Some(Seg::Index(i))) => (
                crd.ir.versions.get(*i).into_iter().collect(),
                &segs[5.min(segs.len())..],
            ),
            _ => (crd.ir.versions.iter().collect::<Vec<_>>(), &segs[3.min(segs.len())..]),
        };
        for version in versions {
            let (at, rule) = locate(&version.schema, rest);
            let change = match rule {
                Some(rule) => format!("{rule:?}: {}", error.detail),
                None => error.detail.clone(),
            };
            out.extend(Finding::of(config, Rule::CelCost, &version.name, &at, change, None));
        }
    }
    out
}

/// The path (`^.spec.items[*]`) of the node the schema path `segs` leads to, and the
/// rule it ends at, if any.
fn locate<'s>(root: &'s Schema, segs: &[&Seg]) -> (String, Option<&'s str>) {
    let mut path = String::from("^");
    let mut node = Some(root);
    let mut segs = segs.iter();
    while let Some(seg) = segs.next() {
        let Seg::Field(name) = seg else { break };
        match name.as_str() {
            "properties" => {
                // A property named like a number reads as an index.
                let key = match segs.next() {
                    Some(Seg::Key(key)) => key.clone(),
                    Some(Seg::Index(i)) => i.to_string(),
                    _ => break,
                };
                path.push('.');
                path.push_str(&key);
                node = node.and_then(|n| n.properties.get(&key));
            }
            "items" | "additionalProperties" => {
                path.push_str("[*]");
                node = node.and_then(|n| match name.as_str() {
                    "items" => n.items.as_deref(),
                    _ => n.additional_properties_schema(),
                });
            }
            "x-kubernetes-validations" => {
                let Some(Seg::Index(i)) = segs.next() else { break };
                let rule = node.and_then(|n| n.validations.get(*i)).map(|r| r.rule.as_str());
                return (path, rule);
            }
            _ => break,
        }
    }
    (path, None)
}
