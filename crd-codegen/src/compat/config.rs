//! The configuration file, in crdify's schema (its `pkg/config` and the rules'
//! configuration types), so that a crdify user's file works unchanged:
//!
//! ```yaml
//! validations:                  # optional; rules not listed keep their default
//!   - name: enum                # required: a rule's name
//!     enforcement: Warn         # required: Error, Warn or None
//!     configuration:            # optional; enum: additionPolicy,
//!       additionPolicy: Allow   # pattern: removalPolicy, nullable: both
//! unhandledEnforcement: Error   # optional: Error (default), Warn or None
//! conversion: None              # optional: None (default) or Ignore
//! ```
//!
//! As crdify reads it (`sigs.k8s.io/yaml` into Go structs): keys match their field
//! case-insensitively (`Enforcement` is `enforcement`), unknown keys are ignored (here
//! with a warning), a later entry for a rule replaces an earlier one, and an entry's
//! policies not given are `Disallow`. The values are case-sensitive. Our own rules are
//! configured the same way, by their names.

use super::rules::{Enforcement, Policy, RULES, Rule};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How each rule is enforced and which changes its policies allow.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Enforcement set by the file; other rules have their default.
    enforcement: BTreeMap<Rule, Enforcement>,
    /// The policies set to `Allow`.
    allowed: BTreeSet<(Rule, Policy)>,
    /// `conversion: Ignore`: served versions of a CRD converted by a webhook are not
    /// compared with each other.
    pub ignore_served_versions_with_webhook: bool,
}

/// What reading a configuration found wrong: errors, or warnings beside a usable
/// configuration. Each names the value's path (`validations[1].enforcement`).
pub type Messages = Vec<String>;

impl Config {
    /// How `rule`'s findings count.
    pub fn enforcement(&self, rule: Rule) -> Enforcement {
        self.enforcement.get(&rule).copied().unwrap_or(rule.info().default)
    }

    /// Whether `rule`'s `policy` is `Allow`.
    pub fn allows(&self, rule: Rule, policy: Policy) -> bool {
        self.allowed.contains(&(rule, policy))
    }

    /// Sets `rule`'s enforcement (what an entry of `validations` does).
    pub fn set(&mut self, rule: Rule, enforcement: Enforcement) {
        self.enforcement.insert(rule, enforcement);
    }

    /// Reads the configuration file at `path`; messages start with the path.
    pub fn read(path: &Path) -> Result<(Config, Messages), Messages> {
        let prefix = |m: String| format!("{}: {m}", path.display());
        let text = std::fs::read_to_string(path).map_err(|e| vec![prefix(format!("cannot read: {e}"))])?;
        match Config::parse(&text) {
            Ok((config, warnings)) => Ok((config, warnings.into_iter().map(prefix).collect())),
            Err(errors) => Err(errors.into_iter().map(prefix).collect()),
        }
    }

    /// Reads a configuration from its YAML (or JSON) text: the configuration and
    /// warnings, or every error found.
    pub fn parse(text: &str) -> Result<(Config, Messages), Messages> {
        let doc = crate::yaml::parse_documents(text)
            .map_err(|e| vec![format!("invalid YAML: {e}")])?
            .into_iter()
            .next()
            .unwrap_or(Value::Null);
        let mut cx = Reader::default();
        let config = cx.config(&doc);
        if cx.errors.is_empty() {
            Ok((config, cx.warnings))
        } else {
            Err(cx.errors)
        }
    }
}

#[derive(Default)]
struct Reader {
    errors: Messages,
    warnings: Messages,
}

impl Reader {
    fn config(&mut self, doc: &Value) -> Config {
        let mut config = Config::default();
        let top = match doc {
            // An empty file is the default configuration.
            Value::Null => return config,
            Value::Object(map) => map,
            _ => {
                self.errors.push("the configuration must be a mapping".into());
                return config;
            }
        };
        self.unknown_keys(top, "", &["validations", "unhandledEnforcement", "conversion"]);
        if let Some(v) = field(top, "unhandledEnforcement")
            && let Some(e) = self.enforcement(v, "unhandledEnforcement", false)
        {
            config.set(Rule::Unhandled, e);
        }
        if let Some(v) = field(top, "conversion") {
            match self.string(v, "conversion") {
                Some("" | "None") => {}
                Some("Ignore") => config.ignore_served_versions_with_webhook = true,
                Some(other) => self.errors.push(format!(
                    "conversion: unknown conversion policy {other:?}; must be None or Ignore"
                )),
                None => {}
            }
        }
        match field(top, "validations") {
            None | Some(Value::Null) => {}
            Some(Value::Array(entries)) => {
                for (i, entry) in entries.iter().enumerate() {
                    self.validation(entry, &format!("validations[{i}]"), &mut config);
                }
            }
            Some(_) => self.errors.push("validations: must be a list".into()),
        }
        config
    }

    /// One entry of `validations`.
    fn validation(&mut self, entry: &Value, at: &str, config: &mut Config) {
        let Value::Object(map) = entry else {
            self.errors
                .push(format!("{at}: must be a mapping with name and enforcement"));
            return;
        };
        self.unknown_keys(map, at, &["name", "enforcement", "configuration"]);
        let name = match field(map, "name").map(|v| self.string(v, &format!("{at}.name"))) {
            None | Some(Some("")) => {
                self.errors.push(format!("{at}.name: is required"));
                None
            }
            Some(name) => name,
        };
        let rule = name.and_then(|name| {
            let rule = Rule::by_name(name);
            if rule.is_none() {
                let known: Vec<&str> = RULES
                    .iter()
                    .filter(|r| r.rule != Rule::Unhandled)
                    .map(|r| r.name)
                    .collect();
                self.errors.push(format!(
                    "{at}.name: unknown rule {name:?}; the rules are {}",
                    known.join(", ")
                ));
            }
            rule
        });
        let enforcement = match field(map, "enforcement") {
            Some(v) => self.enforcement(v, &format!("{at}.enforcement"), true),
            None => {
                self.errors
                    .push(format!("{at}.enforcement: is required (Error, Warn or None)"));
                None
            }
        };
        let Some(rule) = rule else {
            return;
        };
        if let Some(e) = enforcement {
            config.set(rule, e);
        }
        // The entry's configuration replaces any earlier one: policies not given are
        // Disallow.
        config.allowed.retain(|(r, _)| *r != rule);
        let options = match field(map, "configuration") {
            None | Some(Value::Null) => return,
            Some(Value::Object(options)) => options,
            Some(_) => {
                self.errors.push(format!("{at}.configuration: must be a mapping"));
                return;
            }
        };
        let policies = rule.info().policies;
        let keys: Vec<&str> = policies.iter().map(|p| p.key()).collect();
        for key in options.keys() {
            if !keys.iter().any(|k| k.eq_ignore_ascii_case(key)) {
                let takes = if keys.is_empty() {
                    "no options".to_string()
                } else {
                    keys.join(", ")
                };
                self.warnings.push(format!(
                    "{at}.configuration.{key}: ignored: {} takes {takes}",
                    rule.name()
                ));
            }
        }
        for policy in policies {
            let path = format!("{at}.configuration.{}", policy.key());
            match field(options, policy.key()).map(|v| self.string(v, &path)) {
                None | Some(None) | Some(Some("" | "Disallow")) => {}
                Some(Some("Allow")) => {
                    config.allowed.insert((rule, *policy));
                }
                Some(Some(other)) => self
                    .errors
                    .push(format!("{path}: unknown policy {other:?}; must be Allow or Disallow")),
            }
        }
    }

    /// An enforcement value; `required`: the empty string is an error rather than
    /// the default (as crdify has it for `validations[i].enforcement`).
    fn enforcement(&mut self, v: &Value, at: &str, required: bool) -> Option<Enforcement> {
        match self.string(v, at)? {
            "" if required => {
                self.errors.push(format!("{at}: is required (Error, Warn or None)"));
                None
            }
            "" => None,
            s => {
                let e = Enforcement::parse(s);
                if e.is_none() {
                    self.errors
                        .push(format!("{at}: unknown enforcement {s:?}; must be Error, Warn or None"));
                }
                e
            }
        }
    }

    /// A string value (`null` reads as the empty string, as in Go).
    fn string<'v>(&mut self, v: &'v Value, at: &str) -> Option<&'v str> {
        match v {
            Value::String(s) => Some(s),
            Value::Null => Some(""),
            other => {
                self.errors.push(format!(
                    "{at}: must be a string, not {}",
                    crd_runtime::gofmt::json(other)
                ));
                None
            }
        }
    }

    fn unknown_keys(&mut self, map: &serde_json::Map<String, Value>, at: &str, known: &[&str]) {
        for key in map.keys() {
            if !known.iter().any(|k| k.eq_ignore_ascii_case(key)) {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                self.warnings.push(format!("{path}: unknown field, ignored"));
            }
        }
    }
}

/// The value of the field named `name` as Go's JSON decoder finds it: the key
/// spelled exactly so, else one spelled so in another case.
fn field<'v>(map: &'v serde_json::Map<String, Value>, name: &str) -> Option<&'v Value> {
    map.get(name)
        .or_else(|| map.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crdifys_example_configuration() {
        // The shape crdify's documentation gives (docs/configuration.md, examples/).
        let text = "validations:\n  - name: default\n    enforcement: Error\n  # new enum values are compatible\n  - name: enum\n    enforcement: Error\n    configuration:\n      additionPolicy: Allow\n  - name: pattern\n    enforcement: Error\n    configuration:\n      removalPolicy: Allow\n  - name: nullable\n    enforcement: Error\n    configuration:\n      additionPolicy: Allow\n      removalPolicy: Allow\n";
        let (config, warnings) = Config::parse(text).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(config.allows(Rule::Enum, Policy::Addition));
        assert!(config.allows(Rule::Pattern, Policy::Removal));
        assert!(!config.allows(Rule::Pattern, Policy::Addition));
        assert!(config.allows(Rule::Nullable, Policy::Addition));
        assert!(config.allows(Rule::Nullable, Policy::Removal));
        assert_eq!(config.enforcement(Rule::Default), Enforcement::Error);
        assert_eq!(config.enforcement(Rule::CelMessage), Enforcement::Warn);
    }

    #[test]
    fn keys_match_in_any_case_and_later_entries_replace_earlier_ones() {
        let text = "Validations:\n- Name: enum\n  ENFORCEMENT: Warn\n  configuration: {additionpolicy: Allow}\n- name: enum\n  enforcement: None\nunhandledEnforcement: Warn\nconversion: Ignore\n";
        let (config, _) = Config::parse(text).unwrap();
        assert_eq!(config.enforcement(Rule::Enum), Enforcement::None);
        assert!(!config.allows(Rule::Enum, Policy::Addition));
        assert_eq!(config.enforcement(Rule::Unhandled), Enforcement::Warn);
        assert!(config.ignore_served_versions_with_webhook);
        assert_eq!(Config::parse("").unwrap().0, Config::default());
    }

    #[test]
    fn every_error_is_named_by_its_path() {
        let text = "validations:\n- name: enums\n  enforcement: Error\n- name: maximum\n- name: pattern\n  enforcement: error\n  configuration: {removalPolicy: yes}\n- enforcement: Warn\nunhandledEnforcement: 3\nconversion: Webhook\n";
        assert_eq!(
            Config::parse(text).unwrap_err(),
            [
                "unhandledEnforcement: must be a string, not 3",
                "conversion: unknown conversion policy \"Webhook\"; must be None or Ignore",
                "validations[0].name: unknown rule \"enums\"; the rules are scope, existingFieldRemoval, storedVersionRemoval, servedVersionRemoval, storageVersion, deprecatedVersion, type, enum, default, maximum, maxLength, maxItems, maxProperties, minimum, minLength, minItems, minProperties, required, pattern, nullable, format, description, preserveUnknownFields, listType, listMapKeys, mapType, embeddedResource, intOrString, celRule, celTransitionRule, celMessage, celCost",
                "validations[1].enforcement: is required (Error, Warn or None)",
                "validations[2].enforcement: unknown enforcement \"error\"; must be Error, Warn or None",
                "validations[2].configuration.removalPolicy: must be a string, not true",
                "validations[3].name: is required",
            ]
        );
        let (_, warnings) =
            Config::parse("validation: []\nvalidations:\n- name: scope\n  enforcement: Warn\n  configuration: {additionPolicy: Allow}\n")
                .unwrap();
        assert_eq!(
            warnings,
            [
                "validation: unknown field, ignored",
                "validations[0].configuration.additionPolicy: ignored: scope takes no options"
            ]
        );
    }
}
