//! Compatibility of a new CRD with an old one: the changes that break the API's
//! users or the objects already stored. One engine behind `crdgen diff OLD NEW`, the
//! library call [`check`] and the test helper [`assert_compatible`]; it compares the
//! two CRDs' IR (read and checked by the project's loader), not their text.
//!
//! # Rules
//!
//! Each finding belongs to a rule. crdify's rules keep crdify's names, defaults
//! (`Error`) and options, so a crdify configuration means the same here; the others
//! are ours.
//!
//! | rule | from | default | reports |
//! |---|---|---|---|
//! | `scope` | crdify | Error | the scope changed |
//! | `existingFieldRemoval` | crdify | Error | a property (or a map's value schema) was removed |
//! | `storedVersionRemoval` | crdify | Error | a version in the old CRD's `status.storedVersions` is gone |
//! | `servedVersionRemoval` | ours | Error | a served version was removed or is no longer served |
//! | `storageVersion` | ours | Error | the storage version changed, the conversion strategy is `None` and the two schemas differ (descriptions aside) |
//! | `deprecatedVersion` | ours | Warn | a version became deprecated |
//! | `type` | crdify | Error | the type changed |
//! | `enum` | crdify | Error | an enum was added, values were removed, or (unless `additionPolicy: Allow`) added |
//! | `default` | crdify | Error | a default was added, removed or changed |
//! | `maximum`, `maxLength`, `maxItems`, `maxProperties` | crdify | Error | the bound was added or decreased |
//! | `minimum`, `minLength`, `minItems`, `minProperties` | crdify | Error | the bound was added or increased |
//! | `required` | crdify | Error | a property became required |
//! | `pattern` | crdify | Error | a pattern was added or changed, or (unless `removalPolicy: Allow`) removed |
//! | `nullable` | crdify | Error | nullable was added (unless `additionPolicy: Allow`) or removed (unless `removalPolicy: Allow`) |
//! | `format` | ours | Error | a format was added or changed |
//! | `description` | crdify | Error | the description changed |
//! | `preserveUnknownFields` | ours | Error | `x-kubernetes-preserve-unknown-fields` was removed: stored undeclared fields are pruned |
//! | `listType`, `listMapKeys`, `mapType` | ours | Error | `x-kubernetes-list-type` (unset is `atomic`), `-list-map-keys` or `-map-type` (unset is `granular`) changed |
//! | `embeddedResource`, `intOrString` | ours | Error | `x-kubernetes-embedded-resource` or `-int-or-string` was added or removed |
//! | `celRule` | ours | Error | a rule was added to, or changed on, an existing node |
//! | `celTransitionRule` | ours | Error | the same for a transition rule (one using `oldSelf`, as the CEL checker says), or `optionalOldSelf` changed |
//! | `celCost` | ours | Error | a rule's cost estimate (the project's estimator) exceeds the API server's limit: it would refuse the CRD |
//! | `celMessage` | ours | Warn | a rule's `message`, `messageExpression`, `reason` or `fieldPath` changed |
//! | `unhandled` | crdify | Error | any other keyword changed (`title`, `example`, `externalDocs`, `multipleOf`, the exclusive bounds, `uniqueItems`, a boolean `additionalProperties`, the number of `allOf`/`anyOf`/`oneOf` branches, `not`) |
//!
//! As in crdify, the property rules compare every version present in both CRDs, and
//! every two served versions of the new CRD (the lower priority one against the
//! higher, `v1alpha1 -> v1`), keeping only the findings the old CRD's served versions
//! did not already have. A property the new schema adds is not compared (no stored
//! object has it; a new *required* one is found by `required` on its parent), and a
//! removed one is reported once, not with a finding per keyword. Relaxations (a rule,
//! a format, a bound or `x-kubernetes-preserve-unknown-fields` removed or loosened)
//! are compatible and not reported, except where crdify reports them (`enum` values
//! added, `pattern` and `nullable` removed, `default`, `description`).
//!
//! # Ratcheting
//!
//! A tightened constraint (type, enum, bounds, required, pattern, format, list type,
//! a CEL rule) of a version compared with itself says whether the API server ratchets
//! it: whether a stored object that breaks it is still admitted by an update that
//! leaves it unchanged (`ratcheted`, `not ratcheted: <why>`, or `ratcheted unless the
//! stored value holds fields <path> does not declare`; see the [`ratchet`] module's
//! documentation). This is information: the enforcement stays the rule's, so a
//! tightening is an error, as in crdify, unless the configuration says otherwise.
//! Creating such an object again is refused either way; `crdgen diff --objects`
//! shows which objects.
//!
//! # Configuration
//!
//! A YAML file in crdify's schema ([`config`]): `validations` (a list of `name`,
//! `enforcement` and `configuration` with the policies above), `unhandledEnforcement`
//! and `conversion` (`Ignore`: a CRD converted by a webhook is not compared across its
//! served versions). Our rules are configured by their names like crdify's.
//!
//! # Output
//!
//! One line per finding, in the order found: CRD-wide, then each version's schema
//! from the root down (properties by name, as the API server orders them), then cost,
//! then served versions:
//!
//! ```text
//! v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)
//! v1 ^.spec.image: existingFieldRemoval: removed
//! warning: v1beta1 spec.versions[v1beta1].deprecated: deprecatedVersion: deprecated
//! ```
//!
//! `<version> <path>: <rule>: <what changed>`, a `warning: ` prefix for rules
//! enforced as `Warn`. The version is a version's name, `lower -> higher` for served
//! versions compared with each other, or `*` for the whole CRD. Paths of schema
//! nodes start at `^` (the root), with `.name` for a property, `[*]` for list items
//! and map values, `.allOf[0]` for a junctor's branch; CRD-wide findings name the
//! CRD's field.

pub mod config;
mod cost;
mod input;
mod objects;
pub mod ratchet;
mod rules;
mod schema;
mod versions;

pub use config::{Config, Messages};
pub use input::ComparedCrd;
pub use objects::{Evidence, ObjectReport};
pub use ratchet::Ratcheting;
pub use rules::{Enforcement, Policy, RULES, Rule, RuleInfo};

use crate::diagnostic::Diagnostic;
use crate::ir::Conversion;
use serde_json::{Value, json};
use std::fmt;
use std::path::Path;

/// One incompatible change.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `v1`, `v1alpha1 -> v1` (two served versions of the new CRD), or `*` (the whole
    /// CRD).
    pub version: String,
    /// `^.spec.replicas`, or a field of the CRD (`spec.scope`).
    pub path: String,
    /// The rule that found it.
    pub rule: Rule,
    /// What changed: `decreased: 10 -> 5`.
    pub change: String,
    /// `Error` or `Warn` (findings of rules set to `None` are not made).
    pub enforcement: Enforcement,
    /// For a tightened constraint of a version compared with itself.
    pub ratcheting: Option<Ratcheting>,
}

impl Finding {
    /// A finding of `rule`, unless the configuration turns the rule off.
    fn of(
        config: &Config,
        rule: Rule,
        version: &str,
        path: &str,
        change: String,
        ratcheting: Option<Ratcheting>,
    ) -> Option<Finding> {
        let enforcement = config.enforcement(rule);
        (enforcement != Enforcement::None).then(|| Finding {
            version: version.to_string(),
            path: path.to_string(),
            rule,
            change,
            enforcement,
            ratcheting,
        })
    }

    /// Whether its rule is enforced as an error.
    pub fn is_error(&self) -> bool {
        self.enforcement == Enforcement::Error
    }

    /// The finding for `-o json`.
    pub fn to_json(&self) -> Value {
        json!({
            "version": self.version,
            "path": self.path,
            "rule": self.rule.name(),
            "enforcement": self.enforcement.as_str(),
            "change": self.change,
            "ratcheting": self.ratcheting.as_ref().map(Ratcheting::to_string),
        })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.enforcement == Enforcement::Warn {
            f.write_str("warning: ")?;
        }
        write!(f, "{} {}: {}: {}", self.version, self.path, self.rule, self.change)?;
        if let Some(r) = &self.ratcheting {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

/// Every incompatible change from `old` to `new`, in the order of the module's
/// documentation.
pub fn diff(old: &ComparedCrd, new: &ComparedCrd, config: &Config) -> Vec<Finding> {
    let mut out = Vec::new();
    versions::crd_wide(old, new, config, &mut out);
    for n in &new.ir.versions {
        if let Some(o) = old.ir.version(&n.name) {
            let mut walk = schema::Walk {
                config,
                version: n.name.clone(),
                same_version: true,
                out: Vec::new(),
            };
            walk.compare(&o.schema, &n.schema);
            out.append(&mut walk.out);
        }
    }
    out.extend(cost::findings(new, config));
    let webhook = matches!(new.ir.conversion, Conversion::Webhook { .. });
    if !(webhook && config.ignore_served_versions_with_webhook) {
        let known = versions::served_pairs(&old.ir, config);
        out.extend(
            versions::served_pairs(&new.ir, config)
                .into_iter()
                .filter(|f| !known.contains(f)),
        );
    }
    out
}

/// Why [`check`] failed.
#[derive(Debug)]
pub enum Incompatible {
    /// The new CRD has incompatible changes: every finding (errors and warnings).
    Changes(Vec<Finding>),
    /// A CRD could not be read, or is invalid.
    Unreadable(Vec<Diagnostic>),
}

impl fmt::Display for Incompatible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = match self {
            Incompatible::Changes(findings) => findings.iter().map(Finding::to_string).collect(),
            Incompatible::Unreadable(diagnostics) => diagnostics.iter().map(Diagnostic::to_string).collect(),
        };
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for Incompatible {}

/// Checks that `new_crd` (a CRD as a serializable value, such as a derived kind's
/// `Kind::crd()`) is compatible with the CRD in `old_yaml`, with the default
/// configuration: `Err` lists the findings, as `crdgen diff` prints them, when one is
/// an error.
pub fn check<C: serde::Serialize + ?Sized>(old_yaml: &str, new_crd: &C) -> Result<(), Incompatible> {
    check_with(old_yaml, new_crd, &Config::default())
}

/// [`check`] with a configuration.
pub fn check_with<C: serde::Serialize + ?Sized>(
    old_yaml: &str,
    new_crd: &C,
    config: &Config,
) -> Result<(), Incompatible> {
    let old = ComparedCrd::from_text(old_yaml, "old CRD").map_err(Incompatible::Unreadable)?;
    let value = serde_json::to_value(new_crd).map_err(|e| {
        let message = format!("the new CRD does not serialize: {e}");
        Incompatible::Unreadable(vec![Diagnostic::fatal(None, None, message)])
    })?;
    let new = ComparedCrd::from_value(value, "new CRD").map_err(Incompatible::Unreadable)?;
    let findings = diff(&old, &new, config);
    if findings.iter().any(Finding::is_error) {
        Err(Incompatible::Changes(findings))
    } else {
        Ok(())
    }
}

/// For a unit test that locks a released CRD: fails with the findings when `new_crd`
/// is not compatible with the CRD in the file `released` (relative to the crate's
/// directory, where `cargo test` runs), with the default configuration (crdify's:
/// a changed doc comment is a `description` error; [`check_with`] takes another,
/// such as one read with [`Config::read`]):
///
/// ```ignore
/// #[test]
/// fn crd_is_compatible_with_the_release() {
///     crd_codegen::compat::assert_compatible("crds/v1.yaml", &CronTab::crd());
/// }
/// ```
pub fn assert_compatible<C: serde::Serialize + ?Sized>(released: impl AsRef<Path>, new_crd: &C) {
    let released = released.as_ref();
    let old = std::fs::read_to_string(released);
    assert!(
        old.is_ok(),
        "cannot read the released CRD {}: {:?}",
        released.display(),
        old.err()
    );
    let failure = check(&old.unwrap_or_default(), new_crd).err();
    assert!(
        failure.is_none(),
        "the CRD is not compatible with {}:\n{}",
        released.display(),
        failure.map(|f| f.to_string()).unwrap_or_default()
    );
}
