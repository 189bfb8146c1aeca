//! The property rules: one version's schema in the old CRD against the same version's
//! in the new one (or, across served versions, a lower version's against a higher
//! one's), node by node.
//!
//! Like crdify, each node of the old schema that still exists is compared with its
//! counterpart on its own keywords (its children are nodes of their own), and a
//! property the new schema lacks is an `existingFieldRemoval`. New properties are not
//! compared: no stored object has them (a new *required* property is found on its
//! parent, by `required`). Keywords no rule handles are reported together as
//! `unhandled`, as crdify does.

use super::Finding;
use super::config::Config;
use super::ratchet::{Correlation, Ratcheting, TRANSITION_RULE};
use super::rules::{Policy, Rule};
use crate::ir::{AdditionalProperties, ListType, MapType, Rule as CelRule, Schema};
use crd_runtime::gofmt;
use serde_json::Value;

/// Compares two versions' schemas, adding findings to `out`.
pub(super) struct Walk<'c> {
    pub config: &'c Config,
    /// The findings' version column: `v1`, or `v1alpha1 -> v1`.
    pub version: String,
    /// Whether the two schemas are one version before and after the change, so that
    /// tightened constraints say whether the API server ratchets them.
    pub same_version: bool,
    pub out: Vec<Finding>,
}

/// Where a node is: its path and what its place means.
#[derive(Clone, Copy)]
struct At<'a> {
    path: &'a str,
    correlation: Correlation<'a>,
    /// The root or an embedded resource (for compiling the node's rules).
    resource_root: bool,
}

impl Walk<'_> {
    /// Compares the root schemas.
    pub fn compare(&mut self, old: &Schema, new: &Schema) {
        let at = At {
            path: "^",
            correlation: Correlation::ROOT,
            resource_root: true,
        };
        self.node(old, new, at);
    }

    fn node(&mut self, old: &Schema, new: &Schema, at: At<'_>) {
        self.keywords(old, new, at);
        for (name, o) in &old.properties {
            let path = format!("{}.{name}", at.path);
            match new.properties.get(name) {
                Some(n) => {
                    let correlation = at.correlation.key(n, &path);
                    self.node(o, n, at.child(&path, correlation, n));
                }
                None => self.emit(Rule::ExistingFieldRemoval, &path, "removed".into(), None),
            }
        }
        let values = format!("{}[*]", at.path);
        match (old.additional_properties_schema(), new.additional_properties_schema()) {
            (Some(o), Some(n)) => {
                let correlation = at.correlation.key(n, &values);
                self.node(o, n, at.child(&values, correlation, n));
            }
            (Some(_), None) => self.emit(Rule::ExistingFieldRemoval, &values, "removed".into(), None),
            _ => {}
        }
        if let (Some(o), Some(n)) = (&old.items, &new.items) {
            let correlation = at.correlation.item(new, n, &values);
            self.node(o, n, at.child(&values, correlation, n));
        }
        for (name, olds, news) in [
            ("allOf", &old.all_of, &new.all_of),
            ("anyOf", &old.any_of, &new.any_of),
            ("oneOf", &old.one_of, &new.one_of),
        ] {
            for (i, (o, n)) in olds.iter().zip(news).enumerate() {
                // A branch's errors count as its node's (kube-openapi merges them).
                let path = format!("{}.{name}[{i}]", at.path);
                self.node(o, n, At { path: &path, ..at });
            }
        }
        if let (Some(o), Some(n)) = (&old.not, &new.not) {
            let path = format!("{}.not", at.path);
            self.node(o, n, At { path: &path, ..at });
        }
    }

    /// The node's own keywords, rule by rule.
    fn keywords(&mut self, old: &Schema, new: &Schema, at: At<'_>) {
        let tightened = |walk: &Walk| walk.same_version.then(|| at.correlation.verdict());
        if old.type_ != new.type_ {
            let name = |s: &Schema| s.type_.map(|t| t.as_str()).unwrap_or("");
            let change = format!("changed: {:?} -> {:?}", name(old), name(new));
            self.emit(Rule::Type, at.path, change, tightened(self));
        }
        self.enum_(old, new, at);
        match (&old.default, &new.default) {
            (None, Some(n)) => self.emit(Rule::Default, at.path, format!("added: {}", gofmt::json(n)), None),
            (Some(o), None) => self.emit(Rule::Default, at.path, format!("removed: {}", gofmt::json(o)), None),
            (Some(o), Some(n)) if o != n => {
                let change = format!("changed: {} -> {}", gofmt::json(o), gofmt::json(n));
                self.emit(Rule::Default, at.path, change, None);
            }
            _ => {}
        }
        for (rule, upper, bound) in BOUNDS {
            let (o, n) = (bound(old), bound(new));
            let change = match (o, n) {
                (None, Some(n)) => format!("added: {}", gofmt::float_v(n)),
                (Some(o), Some(n)) if (upper && n < o) || (!upper && n > o) => {
                    let verb = if upper { "decreased" } else { "increased" };
                    format!("{verb}: {} -> {}", gofmt::float_v(o), gofmt::float_v(n))
                }
                _ => continue,
            };
            self.emit(rule, at.path, change, tightened(self));
        }
        let added: Vec<&str> = (new.required.iter())
            .filter(|r| !old.required.contains(r))
            .map(String::as_str)
            .collect();
        if !added.is_empty() {
            let change = format!("newly required: {}", added.join(", "));
            self.emit(Rule::Required, at.path, change, tightened(self));
        }
        if let Some(change) = added_or_changed(&old.pattern, &new.pattern) {
            self.emit(Rule::Pattern, at.path, change, tightened(self));
        } else if let (Some(o), None) = (&old.pattern, &new.pattern)
            && !self.config.allows(Rule::Pattern, Policy::Removal)
        {
            self.emit(Rule::Pattern, at.path, format!("removed: {o:?}"), None);
        }
        match (old.nullable, new.nullable) {
            (false, true) if !self.config.allows(Rule::Nullable, Policy::Addition) => {
                self.emit(Rule::Nullable, at.path, "added".into(), None);
            }
            (true, false) if !self.config.allows(Rule::Nullable, Policy::Removal) => {
                self.emit(Rule::Nullable, at.path, "removed".into(), None);
            }
            _ => {}
        }
        if let Some(change) = added_or_changed(&old.format, &new.format) {
            self.emit(Rule::Format, at.path, change, tightened(self));
        }
        if old.description.as_deref().unwrap_or("") != new.description.as_deref().unwrap_or("") {
            self.emit(Rule::Description, at.path, "changed".into(), None);
        }
        self.extensions(old, new, at);
        self.cel_rules(old, new, at);
        let unhandled = unhandled_keywords(old, new);
        if !unhandled.is_empty() {
            self.emit(
                Rule::Unhandled,
                at.path,
                format!("changed: {}", unhandled.join(", ")),
                None,
            );
        }
    }

    fn enum_(&mut self, old: &Schema, new: &Schema, at: At<'_>) {
        let list = |values: Vec<&Value>| values.into_iter().map(gofmt::json).collect::<Vec<_>>().join(", ");
        if old.enum_.is_empty() && !new.enum_.is_empty() {
            let change = format!("added: {}", list(new.enum_.iter().collect()));
            let verdict = self.same_version.then(|| at.correlation.verdict());
            return self.emit(Rule::Enum, at.path, change, verdict);
        }
        if new.enum_.is_empty() {
            return;
        }
        let removed: Vec<&Value> = old.enum_.iter().filter(|v| !new.enum_.contains(v)).collect();
        if !removed.is_empty() {
            let verdict = self.same_version.then(|| at.correlation.verdict());
            return self.emit(Rule::Enum, at.path, format!("removed: {}", list(removed)), verdict);
        }
        let added: Vec<&Value> = new.enum_.iter().filter(|v| !old.enum_.contains(v)).collect();
        if !added.is_empty() && !self.config.allows(Rule::Enum, Policy::Addition) {
            self.emit(Rule::Enum, at.path, format!("values added: {}", list(added)), None);
        }
    }

    /// The `x-kubernetes-*` extensions.
    fn extensions(&mut self, old: &Schema, new: &Schema, at: At<'_>) {
        if old.preserve_unknown_fields && !new.preserve_unknown_fields {
            let change = "removed: fields the schema does not declare are pruned".into();
            self.emit(Rule::PreserveUnknownFields, at.path, change, None);
        }
        // Unset is atomic for lists and granular for maps.
        let list_type = |s: &Schema| s.list_type.unwrap_or(ListType::Atomic);
        if list_type(old) != list_type(new) {
            let change = format!("changed: {} -> {}", list_type(old).as_str(), list_type(new).as_str());
            // List-type errors are checked only when the old object has none.
            let verdict = (self.same_version && list_type(new) != ListType::Atomic).then_some(Ratcheting::Ratcheted);
            self.emit(Rule::ListType, at.path, change, verdict);
        } else if old.list_map_keys != new.list_map_keys {
            let change = format!(
                "changed: [{}] -> [{}]",
                old.list_map_keys.join(", "),
                new.list_map_keys.join(", ")
            );
            let verdict = self.same_version.then_some(Ratcheting::Ratcheted);
            self.emit(Rule::ListMapKeys, at.path, change, verdict);
        }
        let map_type = |s: &Schema| s.map_type.unwrap_or(MapType::Granular);
        if map_type(old) != map_type(new) {
            let change = format!("changed: {} -> {}", map_type(old).as_str(), map_type(new).as_str());
            self.emit(Rule::MapType, at.path, change, None);
        }
        for (rule, o, n) in [
            (Rule::EmbeddedResource, old.embedded_resource, new.embedded_resource),
            (Rule::IntOrString, old.int_or_string, new.int_or_string),
        ] {
            if o != n {
                self.emit(rule, at.path, if n { "added" } else { "removed" }.into(), None);
            }
        }
    }

    /// `x-kubernetes-validations`: rules added or changed (a changed rule is one
    /// removed and one added), and their messages.
    fn cel_rules(&mut self, old: &Schema, new: &Schema, at: At<'_>) {
        if old.validations == new.validations {
            return;
        }
        let mut removed = old
            .validations
            .iter()
            .filter(|o| !new.validations.iter().any(|n| n.rule == o.rule));
        let mut transition: Option<Vec<bool>> = None;
        for (i, n) in new.validations.iter().enumerate() {
            if let Some(o) = old.validations.iter().find(|o| o.rule == n.rule) {
                self.cel_message(o, n, at);
                if o.optional_old_self != n.optional_old_self {
                    let change = format!("optionalOldSelf changed on {:?}", n.rule);
                    self.emit(Rule::CelTransitionRule, at.path, change, None);
                }
                continue;
            }
            // Compiled only when a rule was added.
            let uses_old_self = transition.get_or_insert_with(|| uses_old_self(new, at.resource_root))[i];
            let change = match removed.next() {
                Some(o) => format!("changed: {:?} -> {:?}", o.rule, n.rule),
                None => format!("added: {:?}", n.rule),
            };
            if uses_old_self {
                let verdict = self.same_version.then_some(Ratcheting::NotRatcheted(TRANSITION_RULE));
                self.emit(Rule::CelTransitionRule, at.path, change, verdict);
            } else {
                let verdict = self.same_version.then(|| at.correlation.verdict());
                self.emit(Rule::CelRule, at.path, change, verdict);
            }
        }
    }

    fn cel_message(&mut self, old: &CelRule, new: &CelRule, at: At<'_>) {
        let fields = [
            ("message", &old.message, &new.message),
            ("messageExpression", &old.message_expression, &new.message_expression),
            ("reason", &old.reason, &new.reason),
            ("fieldPath", &old.field_path, &new.field_path),
        ];
        for (name, o, n) in fields {
            if o != n {
                let text = |s: &Option<String>| format!("{:?}", s.as_deref().unwrap_or(""));
                let change = format!("{name} of {:?} changed: {} -> {}", new.rule, text(o), text(n));
                self.emit(Rule::CelMessage, at.path, change, None);
            }
        }
    }

    fn emit(&mut self, rule: Rule, path: &str, change: String, ratcheting: Option<Ratcheting>) {
        let finding = Finding::of(self.config, rule, &self.version, path, change, ratcheting);
        self.out.extend(finding);
    }
}

impl<'a> At<'a> {
    fn child(self, path: &'a str, correlation: Correlation<'a>, schema: &Schema) -> At<'a> {
        At {
            path,
            correlation,
            resource_root: schema.embedded_resource,
        }
    }
}

/// `added: "x"` or `changed: "a" -> "b"` for a keyword that tightens when added or
/// changed; `None` when it is unchanged or removed.
fn added_or_changed(old: &Option<String>, new: &Option<String>) -> Option<String> {
    match (old, new) {
        (None, Some(n)) => Some(format!("added: {n:?}")),
        (Some(o), Some(n)) if o != n => Some(format!("changed: {o:?} -> {n:?}")),
        _ => None,
    }
}

/// The bound rules: each rule, whether its bound is an upper one, and the bound.
type Bound = (Rule, bool, fn(&Schema) -> Option<f64>);
const BOUNDS: [Bound; 8] = [
    (Rule::Maximum, true, |s| s.maximum),
    (Rule::MaxLength, true, |s| s.max_length.map(|n| n as f64)),
    (Rule::MaxItems, true, |s| s.max_items.map(|n| n as f64)),
    (Rule::MaxProperties, true, |s| s.max_properties.map(|n| n as f64)),
    (Rule::Minimum, false, |s| s.minimum),
    (Rule::MinLength, false, |s| s.min_length.map(|n| n as f64)),
    (Rule::MinItems, false, |s| s.min_items.map(|n| n as f64)),
    (Rule::MinProperties, false, |s| s.min_properties.map(|n| n as f64)),
];

/// Whether each of the node's rules refers to `oldSelf`, as the CEL checker says (a
/// rule that does not compile counts as not).
fn uses_old_self(node: &Schema, resource_root: bool) -> Vec<bool> {
    let compiled = crate::cel::check::compile::compile_ir_rules(node, resource_root).unwrap_or_default();
    (0..node.validations.len())
        .map(|i| compiled.get(i).is_some_and(|c| c.result.uses_old_self))
        .collect()
}

/// The keywords no rule compares that differ: crdify's unhandled changes.
fn unhandled_keywords(old: &Schema, new: &Schema) -> Vec<&'static str> {
    // A schema added or removed is a child compared (or removed) on its own.
    let bool_form = |a: &Option<AdditionalProperties>| match a {
        Some(AdditionalProperties::Bool(b)) => Some(*b),
        _ => None,
    };
    [
        ("title", old.title != new.title),
        ("example", old.example != new.example),
        ("externalDocs", old.external_docs != new.external_docs),
        ("multipleOf", old.multiple_of != new.multiple_of),
        ("exclusiveMaximum", old.exclusive_maximum != new.exclusive_maximum),
        ("exclusiveMinimum", old.exclusive_minimum != new.exclusive_minimum),
        ("uniqueItems", old.unique_items != new.unique_items),
        (
            "additionalProperties",
            bool_form(&old.additional_properties) != bool_form(&new.additional_properties),
        ),
        ("allOf", old.all_of.len() != new.all_of.len()),
        ("anyOf", old.any_of.len() != new.any_of.len()),
        ("oneOf", old.one_of.len() != new.one_of.len()),
        ("not", old.not.is_some() != new.not.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, differs)| differs.then_some(name))
    .collect()
}
