//! The rules of the compatibility check, as data: each rule's name (crdify's where
//! crdify has the rule, so its users' configuration carries over), its default
//! enforcement and the policies its configuration may set.

use std::fmt;

/// How a rule's findings count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Enforcement {
    /// Reported, and `crdgen diff` exits 1.
    Error,
    /// Reported as a warning.
    Warn,
    /// Not reported.
    None,
}

impl Enforcement {
    /// crdify's spelling: `Error`, `Warn`, `None`.
    pub fn parse(s: &str) -> Option<Enforcement> {
        Some(match s {
            "Error" => Enforcement::Error,
            "Warn" => Enforcement::Warn,
            "None" => Enforcement::None,
            _ => return None,
        })
    }

    /// crdify's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Enforcement::Error => "Error",
            Enforcement::Warn => "Warn",
            Enforcement::None => "None",
        }
    }
}

/// A policy a rule's `configuration` may set (`Allow` or `Disallow`, default
/// `Disallow`): whether adding (or removing) the constraint is compatible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Policy {
    /// `additionPolicy`.
    Addition,
    /// `removalPolicy`.
    Removal,
}

impl Policy {
    /// The key in a rule's `configuration`.
    pub fn key(self) -> &'static str {
        match self {
            Policy::Addition => "additionPolicy",
            Policy::Removal => "removalPolicy",
        }
    }
}

/// What there is to know about a rule.
pub struct RuleInfo {
    /// The rule described.
    pub rule: Rule,
    /// Its name in findings and in the configuration.
    pub name: &'static str,
    /// Whether crdify has the rule (under the same name).
    pub crdify: bool,
    /// Its enforcement unless the configuration sets one.
    pub default: Enforcement,
    /// The policies its configuration may set (crdify's: `enum`'s additionPolicy,
    /// `pattern`'s removalPolicy, `nullable`'s both).
    pub policies: &'static [Policy],
    /// What it reports, for the documentation and `--help`.
    pub what: &'static str,
}

/// Declares [`Rule`] and [`RULES`] from one table, so that every rule has its entry
/// (and `RULES[rule as usize]` is the rule's).
macro_rules! rules {
    ($($(#[$doc:meta])* $rule:ident $name:literal crdify=$crdify:literal $default:ident [$($policy:ident),*] $what:literal;)*) => {
        /// One kind of incompatible change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[$doc])* #[doc = $what] $rule,)*
        }

        /// Every rule, in the order findings of one property are reported.
        pub const RULES: &[RuleInfo] = &[
            $(RuleInfo {
                rule: Rule::$rule,
                name: $name,
                crdify: $crdify,
                default: Enforcement::$default,
                policies: &[$(Policy::$policy),*],
                what: $what,
            },)*
        ];
    };
}

rules! {
    Scope "scope" crdify=true Error [] "the scope changed";
    ExistingFieldRemoval "existingFieldRemoval" crdify=true Error [] "a field was removed";
    StoredVersionRemoval "storedVersionRemoval" crdify=true Error [] "a version listed in status.storedVersions was removed";
    ServedVersionRemoval "servedVersionRemoval" crdify=false Error [] "a served version was removed or is no longer served";
    StorageVersion "storageVersion" crdify=false Error [] "the storage version changed with no conversion (strategy None) between schemas that differ";
    DeprecatedVersion "deprecatedVersion" crdify=false Warn [] "a version was deprecated";
    Type "type" crdify=true Error [] "the type changed";
    Enum "enum" crdify=true Error [Addition] "an enum was added, or values removed or added";
    Default "default" crdify=true Error [] "a default was added, removed or changed";
    Maximum "maximum" crdify=true Error [] "maximum added or decreased";
    MaxLength "maxLength" crdify=true Error [] "maxLength added or decreased";
    MaxItems "maxItems" crdify=true Error [] "maxItems added or decreased";
    MaxProperties "maxProperties" crdify=true Error [] "maxProperties added or decreased";
    Minimum "minimum" crdify=true Error [] "minimum added or increased";
    MinLength "minLength" crdify=true Error [] "minLength added or increased";
    MinItems "minItems" crdify=true Error [] "minItems added or increased";
    MinProperties "minProperties" crdify=true Error [] "minProperties added or increased";
    Required "required" crdify=true Error [] "a field became required";
    Pattern "pattern" crdify=true Error [Removal] "a pattern was added, changed or removed";
    Nullable "nullable" crdify=true Error [Addition, Removal] "nullable was added or removed";
    Format "format" crdify=false Error [] "a format was added or changed";
    Description "description" crdify=true Error [] "the description changed";
    PreserveUnknownFields "preserveUnknownFields" crdify=false Error [] "x-kubernetes-preserve-unknown-fields was removed: undeclared fields are pruned";
    ListType "listType" crdify=false Error [] "x-kubernetes-list-type changed";
    ListMapKeys "listMapKeys" crdify=false Error [] "x-kubernetes-list-map-keys changed";
    MapType "mapType" crdify=false Error [] "x-kubernetes-map-type changed";
    EmbeddedResource "embeddedResource" crdify=false Error [] "x-kubernetes-embedded-resource was added or removed";
    IntOrString "intOrString" crdify=false Error [] "x-kubernetes-int-or-string was added or removed";
    CelRule "celRule" crdify=false Error [] "a CEL rule was added or changed on an existing field";
    CelTransitionRule "celTransitionRule" crdify=false Error [] "a transition rule (one using oldSelf) was added or changed";
    CelMessage "celMessage" crdify=false Warn [] "a rule's message, messageExpression, reason or fieldPath changed";
    CelCost "celCost" crdify=false Error [] "a rule's estimated cost exceeds the API server's limit";
    /// crdify's catch-all for a property change no rule handles (set by
    /// `unhandledEnforcement`, not by name).
    Unhandled "unhandled" crdify=true Error [] "another keyword changed (title, example, multipleOf, uniqueItems, ...)";
}

impl Rule {
    /// The rule's entry in [`RULES`].
    pub fn info(self) -> &'static RuleInfo {
        &RULES[self as usize]
    }

    /// The rule's name (crdify's for crdify's rules).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The rule named `name` in a configuration (`unhandled` is not one: crdify sets
    /// it with `unhandledEnforcement`).
    pub fn by_name(name: &str) -> Option<Rule> {
        RULES
            .iter()
            .find(|r| r.name == name && r.rule != Rule::Unhandled)
            .map(|r| r.rule)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in RULES.iter().enumerate() {
            assert_eq!(a.rule as usize, i);
            for b in &RULES[i + 1..] {
                assert_ne!(a.rule, b.rule);
                assert_ne!(a.name, b.name);
            }
        }
        assert_eq!(Rule::by_name("maxLength"), Some(Rule::MaxLength));
        assert_eq!(Rule::by_name("unhandled"), None);
    }
}
