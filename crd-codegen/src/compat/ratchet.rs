//! Whether the API server ratchets a tightened constraint: whether a stored object
//! that breaks it, updated without a change, is still admitted.
//!
//! The rule, as the engine's validation and rule walks implement it
//! (`crate::engine::validate`, `crd_runtime::rules::Ratchet`, after
//! apiextensions-apiserver's `ratcheting.go` and `CorrelatedObject`): an error found at
//! a node is dropped when a node on the way to it that correlates with the old object
//! is unchanged (`CachedDeepEqual`). Properties and map values correlate by key, items
//! of `x-kubernetes-list-type: map` lists by their keys, and nothing below the items of
//! other lists does, so the deepest correlated node on the way (the *anchor*) decides.
//! For an unchanged object that node is unchanged unless its value holds fields its
//! schema does not declare (then deep equality fails: preserved unknown fields,
//! `additionalProperties` without a schema, embedded resources), and the object's
//! root never is (its `metadata` is not declared). Lists other than map lists are
//! compared whole, whatever their items hold. A failing CEL rule is ratcheted the same
//! way, except a transition rule, which never is.

use crate::ir::{AdditionalProperties, ListType, Schema, Type};
use std::fmt;

/// The API server's treatment, on an update that changes nothing, of a stored value
/// that breaks a tightened constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ratcheting {
    /// The update is admitted.
    Ratcheted,
    /// Admitted unless the value at this path holds fields its schema does not declare.
    UnlessUndeclaredFields(String),
    /// The update is refused, for this reason.
    NotRatcheted(&'static str),
}

impl fmt::Display for Ratcheting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ratcheting::Ratcheted => f.write_str("ratcheted"),
            Ratcheting::UnlessUndeclaredFields(at) => {
                write!(
                    f,
                    "ratcheted unless the stored value holds fields {at} does not declare"
                )
            }
            Ratcheting::NotRatcheted(why) => write!(f, "not ratcheted: {why}"),
        }
    }
}

/// Why errors at the root are not ratcheted.
pub const AT_THE_ROOT: &str = "the object's root is never unchanged (its metadata is not declared)";
/// Why a transition rule is not ratcheted.
pub const TRANSITION_RULE: &str = "transition rules are never ratcheted";

/// Where a node is, for ratcheting: the deepest node on the way from the root that
/// correlates with the old object (`None`: the root), and whether the node itself
/// does.
#[derive(Clone, Copy, Debug)]
pub struct Correlation<'s> {
    anchor: Option<(&'s Schema, &'s str)>,
    correlated: bool,
}

impl<'s> Correlation<'s> {
    /// The schema's root.
    pub const ROOT: Correlation<'static> = Correlation {
        anchor: None,
        correlated: true,
    };

    /// A property or map value `child` (of the new schema) at `path`.
    pub fn key(self, child: &'s Schema, path: &'s str) -> Correlation<'s> {
        if !self.correlated {
            return self;
        }
        Correlation {
            anchor: Some((child, path)),
            correlated: true,
        }
    }

    /// An item `child` of the list `list` at `path`.
    pub fn item(self, list: &Schema, child: &'s Schema, path: &'s str) -> Correlation<'s> {
        if self.correlated && list.list_type == Some(ListType::Map) {
            self.key(child, path)
        } else {
            Correlation {
                anchor: self.anchor,
                correlated: false,
            }
        }
    }

    /// The verdict for an error found at the node: what its anchor's value does.
    pub fn verdict(self) -> Ratcheting {
        match self.anchor {
            None => Ratcheting::NotRatcheted(AT_THE_ROOT),
            Some((schema, path)) => match undeclared(schema, path) {
                None => Ratcheting::Ratcheted,
                Some(at) => Ratcheting::UnlessUndeclaredFields(at),
            },
        }
    }
}

/// The first node at or below `s` (as deep equality walks it) whose value may hold
/// fields the schema does not declare, with its path.
fn undeclared(s: &Schema, path: &str) -> Option<String> {
    if s.type_ == Some(Type::Array) {
        // Only map lists are compared item by item.
        return match (&s.items, s.list_type) {
            (Some(items), Some(ListType::Map)) => undeclared(items, &format!("{path}[*]")),
            _ => None,
        };
    }
    if s.preserve_unknown_fields
        || s.embedded_resource
        || matches!(s.additional_properties, Some(AdditionalProperties::Bool(_)))
    {
        return Some(path.to_string());
    }
    if let Some(values) = s.additional_properties_schema()
        && let Some(at) = undeclared(values, &format!("{path}[*]"))
    {
        return Some(at);
    }
    s.properties
        .iter()
        .find_map(|(name, p)| undeclared(p, &format!("{path}.{name}")))
}
