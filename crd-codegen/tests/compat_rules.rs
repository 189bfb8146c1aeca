//! `crdgen diff`'s rules, one by one: for each, a compatible and an incompatible
//! change of a small CRD, and the exact lines printed. The ratcheting verdicts are
//! then held to what the reference engine does with a stored object that breaks the
//! tightened constraint.

use crd_codegen::compat::{ComparedCrd, Config, Evidence, diff};
use crd_codegen::source::ManifestObject;
use serde_json::{Value, json};
use std::path::PathBuf;

/// One version, a property per feature the rules look at.
const BASE: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [name]
            x-kubernetes-validations:
            - rule: self.minReplicas <= self.replicas
              message: minReplicas above replicas
            properties:
              name: {type: string, maxLength: 20, minLength: 1, pattern: '^[a-z]+$', description: the name}
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
              minReplicas: {type: integer, minimum: 0}
              mode: {type: string, enum: [Fast, Slow]}
              tags: {type: array, maxItems: 5, minItems: 0, items: {type: string, maxLength: 64}, x-kubernetes-list-type: set}
              hosts: {type: array, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer}}}
              labels: {type: object, maxProperties: 10, additionalProperties: {type: string}}
              config: {type: object, x-kubernetes-preserve-unknown-fields: true}
              size: {x-kubernetes-int-or-string: true}
              start: {type: string, format: date-time}
              note: {type: string, nullable: true}
              selector: {type: object, x-kubernetes-map-type: atomic, properties: {app: {type: string}}}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
"#;

/// Two versions with the same schema, v1 the storage version.
const VERSIONS: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}
  - name: v1beta1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}
"#;

/// `text` with each `(from, to)` replaced; `from` must occur exactly once.
fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        assert_eq!(out.matches(from).count(), 1, "{from:?} must occur once");
        out = out.replacen(from, to, 1);
    }
    out
}

fn read(text: &str) -> ComparedCrd {
    ComparedCrd::from_text(text, "crd.yaml").unwrap_or_else(|e| panic!("{e:?}"))
}

fn lines_with(old: &str, new: &str, config: &Config) -> Vec<String> {
    diff(&read(old), &read(new), config)
        .iter()
        .map(|f| f.to_string())
        .collect()
}

fn lines(old: &str, new: &str) -> Vec<String> {
    lines_with(old, new, &Config::default())
}

/// The lines for BASE against BASE with `edits`.
fn base_lines(edits: &[(&str, &str)]) -> Vec<String> {
    lines(BASE, &edit(BASE, edits))
}

const NEW_FIELD: (&str, &str) = (
    "              hosts:",
    "              color: {type: string, enum: [red], pattern: '^r', default: red, format: password, description: new, nullable: true, x-kubernetes-embedded-resource: false}\n              hosts:",
);
const UNDECLARED: &str = "(ratcheted unless the stored value holds fields ^.spec.config does not declare)";

#[test]
fn an_unchanged_crd_is_compatible() {
    assert_eq!(base_lines(&[]), Vec::<String>::new());
    assert_eq!(lines(VERSIONS, VERSIONS), Vec::<String>::new());
}

#[test]
fn a_new_optional_field_is_compatible_whatever_its_keywords() {
    assert_eq!(base_lines(&[NEW_FIELD]), Vec::<String>::new());
}

#[test]
fn scope() {
    assert_eq!(
        base_lines(&[("scope: Namespaced", "scope: Cluster")]),
        ["* spec.scope: scope: changed: Namespaced -> Cluster"]
    );
    let short_names = ("kind: Widget}", "kind: Widget, shortNames: [wd]}");
    assert_eq!(base_lines(&[short_names]), Vec::<String>::new());
}

#[test]
fn existing_field_removal() {
    assert_eq!(
        base_lines(&[("              note: {type: string, nullable: true}\n", "")]),
        ["v1 ^.spec.note: existingFieldRemoval: removed"]
    );
    // Renaming is removing.
    assert_eq!(
        base_lines(&[("              start:", "              startTime:")]),
        ["v1 ^.spec.start: existingFieldRemoval: removed"]
    );
    assert_eq!(
        base_lines(&[(
            "additionalProperties: {type: string}",
            "properties: {a: {type: string}}"
        )]),
        ["v1 ^.spec.labels[*]: existingFieldRemoval: removed"]
    );
}

#[test]
fn type_() {
    assert_eq!(
        base_lines(&[("note: {type: string,", "note: {type: integer,")]),
        ["v1 ^.spec.note: type: changed: \"string\" -> \"integer\" (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("size: {x-kubernetes-int-or-string: true}", "size: {type: string}")]),
        [
            "v1 ^.spec.size: type: changed: \"\" -> \"string\" (ratcheted)",
            "v1 ^.spec.size: intOrString: removed",
        ]
    );
}

#[test]
fn enum_() {
    assert_eq!(
        base_lines(&[("enum: [Fast, Slow]", "enum: [Fast]")]),
        ["v1 ^.spec.mode: enum: removed: \"Slow\" (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("enum: [Fast, Slow]", "enum: [Fast, Slow, Medium]")]),
        ["v1 ^.spec.mode: enum: values added: \"Medium\""]
    );
    assert_eq!(
        base_lines(&[(
            "note: {type: string, nullable: true}",
            "note: {type: string, nullable: true, enum: [a, b]}"
        )]),
        ["v1 ^.spec.note: enum: added: \"a\", \"b\" (ratcheted)"]
    );
    // Dropping the constraint relaxes it.
    assert_eq!(base_lines(&[(", enum: [Fast, Slow]", "")]), Vec::<String>::new());
}

#[test]
fn default() {
    assert_eq!(
        base_lines(&[("default: 1", "default: 2")]),
        ["v1 ^.spec.replicas: default: changed: 1 -> 2"]
    );
    assert_eq!(
        base_lines(&[(", default: 1", "")]),
        ["v1 ^.spec.replicas: default: removed: 1"]
    );
    assert_eq!(
        base_lines(&[("{type: integer, minimum: 0}", "{type: integer, minimum: 0, default: 0}")]),
        ["v1 ^.spec.minReplicas: default: added: 0"]
    );
}

#[test]
fn upper_bounds() {
    assert_eq!(
        base_lines(&[("maximum: 10", "maximum: 5")]),
        ["v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("{type: integer, minimum: 0}", "{type: integer, minimum: 0, maximum: 3}")]),
        ["v1 ^.spec.minReplicas: maximum: added: 3 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("maxLength: 20", "maxLength: 10")]),
        ["v1 ^.spec.name: maxLength: decreased: 20 -> 10 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("maxItems: 5", "maxItems: 3")]),
        ["v1 ^.spec.tags: maxItems: decreased: 5 -> 3 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("maxProperties: 10", "maxProperties: 5")]),
        ["v1 ^.spec.labels: maxProperties: decreased: 10 -> 5 (ratcheted)"]
    );
    // Raised or removed bounds relax.
    let relaxed = [
        ("maximum: 10", "maximum: 20"),
        ("maxLength: 20", "maxLength: 30"),
        ("maxItems: 5", "maxItems: 6"),
        ("maxProperties: 10, ", ""),
    ];
    assert_eq!(base_lines(&relaxed), Vec::<String>::new());
}

#[test]
fn lower_bounds() {
    assert_eq!(
        base_lines(&[(
            "minimum: 1, maximum: 10, default: 1",
            "minimum: 2, maximum: 10, default: 2"
        )]),
        [
            "v1 ^.spec.replicas: default: changed: 1 -> 2",
            "v1 ^.spec.replicas: minimum: increased: 1 -> 2 (ratcheted)",
        ]
    );
    assert_eq!(
        base_lines(&[("minLength: 1", "minLength: 3")]),
        ["v1 ^.spec.name: minLength: increased: 1 -> 3 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("minItems: 0", "minItems: 1")]),
        ["v1 ^.spec.tags: minItems: increased: 0 -> 1 (ratcheted)"]
    );
    // An item of the atomic list `hosts`: the list as a whole is compared.
    assert_eq!(
        base_lines(&[("items: {type: string}}", "items: {type: string, minLength: 2}}")]),
        ["v1 ^.spec.hosts[*]: minLength: added: 2 (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("maxProperties: 10,", "maxProperties: 10, minProperties: 1,")]),
        ["v1 ^.spec.labels: minProperties: added: 1 (ratcheted)"]
    );
    let relaxed = [("minimum: 1,", "minimum: 0,"), ("minLength: 1", "minLength: 0")];
    assert_eq!(base_lines(&relaxed), Vec::<String>::new());
}

#[test]
fn required() {
    assert_eq!(
        base_lines(&[("            required: [name]\n", "            required: [name, mode]\n")]),
        [format!("v1 ^.spec: required: newly required: mode {UNDECLARED}")]
    );
    // A new required field, in a map list's items.
    assert_eq!(
        base_lines(&[("required: [name], properties", "required: [name, port], properties")]),
        ["v1 ^.spec.ports[*]: required: newly required: port (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("            required: [name]\n", "")]),
        Vec::<String>::new()
    );
}

#[test]
fn pattern() {
    assert_eq!(
        base_lines(&[("'^[a-z]+$'", "'^[a-z0-9]+$'")]),
        ["v1 ^.spec.name: pattern: changed: \"^[a-z]+$\" -> \"^[a-z0-9]+$\" (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[(", pattern: '^[a-z]+$'", "")]),
        ["v1 ^.spec.name: pattern: removed: \"^[a-z]+$\""]
    );
    assert_eq!(
        base_lines(&[("enum: [Fast, Slow]", "enum: [Fast, Slow], pattern: '^[A-Z]'")]),
        ["v1 ^.spec.mode: pattern: added: \"^[A-Z]\" (ratcheted)"]
    );
}

#[test]
fn nullable() {
    assert_eq!(
        base_lines(&[("note: {type: string, nullable: true}", "note: {type: string}")]),
        ["v1 ^.spec.note: nullable: removed"]
    );
    assert_eq!(
        base_lines(&[("description: the name}", "description: the name, nullable: true}")]),
        ["v1 ^.spec.name: nullable: added"]
    );
}

#[test]
fn format() {
    assert_eq!(
        base_lines(&[("format: date-time", "format: date")]),
        ["v1 ^.spec.start: format: changed: \"date-time\" -> \"date\" (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[(
            "note: {type: string, nullable: true}",
            "note: {type: string, nullable: true, format: uuid}"
        )]),
        ["v1 ^.spec.note: format: added: \"uuid\" (ratcheted)"]
    );
    assert_eq!(base_lines(&[(", format: date-time", "")]), Vec::<String>::new());
}

#[test]
fn description() {
    assert_eq!(
        base_lines(&[("description: the name", "description: the widget's name")]),
        ["v1 ^.spec.name: description: changed"]
    );
}

#[test]
fn structural_extensions() {
    assert_eq!(
        base_lines(&[(
            "config: {type: object, x-kubernetes-preserve-unknown-fields: true}",
            "config: {type: object}"
        )]),
        ["v1 ^.spec.config: preserveUnknownFields: removed: fields the schema does not declare are pruned"]
    );
    // Preserving more is compatible.
    assert_eq!(
        base_lines(&[(
            "x-kubernetes-map-type: atomic,",
            "x-kubernetes-map-type: atomic, x-kubernetes-preserve-unknown-fields: true,"
        )]),
        Vec::<String>::new()
    );
    assert_eq!(
        base_lines(&[(
            "hosts: {type: array,",
            "hosts: {type: array, x-kubernetes-list-type: set,"
        )]),
        ["v1 ^.spec.hosts: listType: changed: atomic -> set (ratcheted)"]
    );
    assert_eq!(
        base_lines(&[("x-kubernetes-list-type: set}", "x-kubernetes-list-type: atomic}")]),
        ["v1 ^.spec.tags: listType: changed: set -> atomic"]
    );
    // Unset is atomic.
    assert_eq!(
        base_lines(&[(
            "hosts: {type: array,",
            "hosts: {type: array, x-kubernetes-list-type: atomic,"
        )]),
        Vec::<String>::new()
    );
    assert_eq!(
        base_lines(&[
            (
                "x-kubernetes-list-map-keys: [name]",
                "x-kubernetes-list-map-keys: [name, port]"
            ),
            ("port: {type: integer}", "port: {type: integer, default: 80}"),
        ]),
        [
            "v1 ^.spec.ports: listMapKeys: changed: [name] -> [name, port] (ratcheted)",
            "v1 ^.spec.ports[*].port: default: added: 80",
        ]
    );
    assert_eq!(
        base_lines(&[("x-kubernetes-map-type: atomic", "x-kubernetes-map-type: granular")]),
        ["v1 ^.spec.selector: mapType: changed: atomic -> granular"]
    );
    // Unset is granular.
    assert_eq!(
        base_lines(&[(
            "maxProperties: 10,",
            "maxProperties: 10, x-kubernetes-map-type: granular,"
        )]),
        Vec::<String>::new()
    );
    assert_eq!(
        base_lines(&[("x-kubernetes-embedded-resource: true, ", "")]),
        ["v1 ^.spec.template: embeddedResource: removed"]
    );
    assert_eq!(
        base_lines(&[(
            "config: {type: object,",
            "config: {type: object, x-kubernetes-embedded-resource: true,"
        )]),
        ["v1 ^.spec.config: embeddedResource: added"]
    );
}

#[test]
fn cel_rules() {
    let added = "            x-kubernetes-validations:\n            - rule: self.replicas <= 8\n";
    assert_eq!(
        base_lines(&[("            x-kubernetes-validations:\n", added)]),
        [format!(
            "v1 ^.spec: celRule: added: \"self.replicas <= 8\" {UNDECLARED}"
        )]
    );
    assert_eq!(
        base_lines(&[(
            "rule: self.minReplicas <= self.replicas",
            "rule: self.minReplicas < self.replicas"
        )]),
        [format!(
            "v1 ^.spec: celRule: changed: \"self.minReplicas <= self.replicas\" -> \"self.minReplicas < self.replicas\" {UNDECLARED}"
        )]
    );
    // At the root, which never ratchets.
    assert_eq!(
        base_lines(&[(
            "        type: object\n        properties:\n          spec:",
            "        type: object\n        x-kubernetes-validations: [{rule: self.spec.replicas < 9}]\n        properties:\n          spec:"
        )]),
        [
            "v1 ^: celRule: added: \"self.spec.replicas < 9\" (not ratcheted: the object's root is never unchanged (its metadata is not declared))"
        ]
    );
    let transition = "            x-kubernetes-validations:\n            - {rule: self.replicas >= oldSelf.replicas, message: no scaling down}\n";
    assert_eq!(
        base_lines(&[("            x-kubernetes-validations:\n", transition)]),
        [
            "v1 ^.spec: celTransitionRule: added: \"self.replicas >= oldSelf.replicas\" (not ratcheted: transition rules are never ratcheted)"
        ]
    );
    // A message is not a compatibility matter: a warning.
    assert_eq!(
        base_lines(&[(
            "message: minReplicas above replicas",
            "message: minReplicas must not exceed replicas"
        )]),
        [
            "warning: v1 ^.spec: celMessage: message of \"self.minReplicas <= self.replicas\" changed: \"minReplicas above replicas\" -> \"minReplicas must not exceed replicas\""
        ]
    );
    assert_eq!(
        base_lines(&[(
            "message: minReplicas above replicas",
            "messageExpression: \"'minReplicas above replicas in ' + self.name\""
        )]),
        [
            "warning: v1 ^.spec: celMessage: message of \"self.minReplicas <= self.replicas\" changed: \"minReplicas above replicas\" -> \"\"",
            "warning: v1 ^.spec: celMessage: messageExpression of \"self.minReplicas <= self.replicas\" changed: \"\" -> \"'minReplicas above replicas in ' + self.name\"",
        ]
    );
    // Removing a rule relaxes.
    assert_eq!(
        base_lines(&[(
            "            x-kubernetes-validations:\n            - rule: self.minReplicas <= self.replicas\n              message: minReplicas above replicas\n",
            ""
        )]),
        Vec::<String>::new()
    );
}

#[test]
fn cel_cost() {
    // The rule is cheap while `tags` has at most 5 items; without the bound its
    // estimate exceeds the API server's limits (per rule and per schema).
    let old = edit(
        BASE,
        &[(
            "            x-kubernetes-validations:\n",
            "            x-kubernetes-validations:\n            - rule: self.tags.all(a, self.tags.all(b, a == b))\n",
        )],
    );
    let hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        lines(&old, &edit(&old, &[("maxItems: 5, ", "")])),
        [
            format!("v1 ^.spec: celCost: \"self.tags.all(a, self.tags.all(b, a == b))\": estimated rule cost exceeds budget by factor of more than 100x {hint}"),
            "v1 ^.spec: celCost: \"self.tags.all(a, self.tags.all(b, a == b))\": contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema".to_string(),
            format!("v1 ^: celCost: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x {hint}"),
        ]
    );
    assert_eq!(
        lines(&old, &edit(&old, &[("maxItems: 5", "maxItems: 10")])),
        Vec::<String>::new()
    );
}

#[test]
fn unhandled_keywords() {
    assert_eq!(
        base_lines(&[
            ("description: the name}", "description: the name, title: Name}"),
            ("maximum: 10,", "maximum: 10, multipleOf: 1,")
        ]),
        [
            "v1 ^.spec.name: unhandled: changed: title",
            "v1 ^.spec.replicas: unhandled: changed: multipleOf",
        ]
    );
}

#[test]
fn versions() {
    let v1beta1 = "  - name: v1beta1\n    served: true\n    storage: false\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}\n";
    assert_eq!(
        lines(VERSIONS, &edit(VERSIONS, &[(v1beta1, "")])),
        ["v1beta1 spec.versions: servedVersionRemoval: removed"]
    );
    let unserved = edit(
        VERSIONS,
        &[(
            "  - name: v1beta1\n    served: true",
            "  - name: v1beta1\n    served: false",
        )],
    );
    assert_eq!(
        lines(VERSIONS, &unserved),
        ["v1beta1 spec.versions[v1beta1].served: servedVersionRemoval: no longer served"]
    );
    // v1alpha1 is not served (and not stored): removing it is compatible.
    let v1alpha1 = "  - name: v1alpha1\n    served: false\n    storage: false\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}\n";
    assert_eq!(
        lines(VERSIONS, &edit(VERSIONS, &[(v1alpha1, "")])),
        Vec::<String>::new()
    );
    // Read from a cluster: objects may be stored in v1alpha1.
    let stored = format!("{VERSIONS}status: {{storedVersions: [v1alpha1, v1]}}\n");
    assert_eq!(
        lines(&stored, &edit(VERSIONS, &[(v1alpha1, "")])),
        [
            "v1alpha1 spec.versions: storedVersionRemoval: removed from spec.versions, but objects may be stored in it (status.storedVersions)"
        ]
    );
    let deprecated = edit(
        VERSIONS,
        &[(
            "  - name: v1beta1\n    served: true\n",
            "  - name: v1beta1\n    served: true\n    deprecated: true\n",
        )],
    );
    assert_eq!(
        lines(VERSIONS, &deprecated),
        ["warning: v1beta1 spec.versions[v1beta1].deprecated: deprecatedVersion: deprecated"]
    );
    assert_eq!(lines(&deprecated, &deprecated), Vec::<String>::new());
}

#[test]
fn storage_version() {
    let switch = |text: &str| {
        edit(
            text,
            &[
                (
                    "  - name: v1beta1\n    served: true\n    storage: false",
                    "  - name: v1beta1\n    served: true\n    storage: true",
                ),
                (
                    "  - name: v1\n    served: true\n    storage: true",
                    "  - name: v1\n    served: true\n    storage: false",
                ),
            ],
        )
    };
    let old = switch(VERSIONS);
    // v1 gains a field: objects stored as v1beta1 are pruned when read as v1 (no
    // loss here, but the None strategy cannot tell).
    let new = edit(
        VERSIONS,
        &[(
            "  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}",
            "  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}, c: {type: string}}}}}}",
        )],
    );
    assert_eq!(
        lines(&old, &new),
        [
            "v1 spec.versions[v1].storage: storageVersion: changed: v1beta1 -> v1, with conversion strategy None and schemas that differ: objects stored as v1beta1 are read as v1 and pruned"
        ]
    );
    // The same schemas: compatible.
    assert_eq!(lines(&old, VERSIONS), Vec::<String>::new());
}

#[test]
fn served_versions_are_compared_with_each_other() {
    let v1 = "  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: integer}}}}}}";
    let v1_without_b = "  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}}";
    let new = edit(VERSIONS, &[(v1, v1_without_b)]);
    assert_eq!(
        lines(VERSIONS, &new),
        [
            "v1 ^.spec.b: existingFieldRemoval: removed",
            "v1beta1 -> v1 ^.spec.b: existingFieldRemoval: removed",
        ]
    );
    // What the old CRD's served versions already differed in is not new.
    let v1beta1_with_c = edit(
        &new,
        &[(
            "b: {type: integer}}}}}}\n  - name: v1\n",
            "b: {type: integer}, c: {type: string}}}}}}\n  - name: v1\n",
        )],
    );
    assert_eq!(
        lines(&new, &v1beta1_with_c),
        ["v1beta1 -> v1 ^.spec.c: existingFieldRemoval: removed"]
    );
    assert_eq!(lines(&new, &new), Vec::<String>::new());
}

/// The edits of BASE, a spec breaking the new CRD, and how its line ends.
type Case = (Vec<(&'static str, &'static str)>, Value, &'static str);

/// A stored object that breaks the tightened constraint, and what the reference
/// engine does with an update leaving it unchanged: admitted exactly when the line
/// says `ratcheted` (and, for `ratcheted unless ...`, refused once the value holds an
/// undeclared field).
#[test]
fn ratcheting_verdicts_are_what_the_engine_does() {
    let object = |spec: Value| ManifestObject {
        file: PathBuf::from("objects.yaml"),
        doc: 1,
        value: json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default", "resourceVersion": "7"},
            "spec": spec,
        }),
    };
    let rule_added = |rule: &'static str| {
        vec![(
            "            x-kubernetes-validations:\n",
            match rule {
                "replicas" => "            x-kubernetes-validations:\n            - rule: self.replicas <= 8\n",
                _ => "            x-kubernetes-validations:\n            - rule: self.replicas > oldSelf.replicas\n",
            },
        )]
    };
    let root_rule = vec![(
        "        type: object\n        properties:\n          spec:",
        "        type: object\n        x-kubernetes-validations: [{rule: self.spec.replicas < 9}]\n        properties:\n          spec:",
    )];
    let cases: Vec<Case> = vec![
        (
            vec![("maximum: 10", "maximum: 5")],
            json!({"name": "a", "minReplicas": 0, "replicas": 8}),
            "(ratcheted)",
        ),
        (
            vec![("items: {type: string}}", "items: {type: string, minLength: 2}}")],
            json!({"name": "a", "minReplicas": 0, "hosts": ["x"]}),
            "(ratcheted)",
        ),
        (
            vec![("            required: [name]\n", "            required: [name, mode]\n")],
            json!({"name": "a", "minReplicas": 0}),
            UNDECLARED,
        ),
        (
            vec![(
                "hosts: {type: array,",
                "hosts: {type: array, x-kubernetes-list-type: set,",
            )],
            json!({"name": "a", "minReplicas": 0, "hosts": ["x", "x"]}),
            "(ratcheted)",
        ),
        (
            rule_added("replicas"),
            json!({"name": "a", "minReplicas": 0, "replicas": 9}),
            UNDECLARED,
        ),
        (
            root_rule,
            json!({"name": "a", "minReplicas": 0, "replicas": 9}),
            "(not ratcheted:",
        ),
        (
            rule_added("transition"),
            json!({"name": "a", "minReplicas": 0, "replicas": 2}),
            "(not ratcheted:",
        ),
    ];
    let old = read(BASE);
    for (edits, spec, verdict) in cases {
        let new_text = edit(BASE, &edits);
        let new = read(&new_text);
        let findings = lines(BASE, &new_text);
        assert!(
            findings.len() == 1 && findings[0].contains(verdict),
            "{edits:?}: {findings:?}"
        );
        let evidence = Evidence::new(&old, &new);
        let report = evidence.examine(object(spec.clone())).expect("a Widget");
        // A transition rule does not run on create.
        let transition = findings[0].contains("celTransitionRule");
        assert_eq!(report.create.is_some(), !transition, "{edits:?}: {report}");
        let ratcheted = verdict.starts_with("(ratcheted");
        assert_eq!(report.update.is_none(), ratcheted, "{edits:?}: {report}");
        if verdict == UNDECLARED {
            let mut with_undeclared = spec;
            with_undeclared["config"] = json!({"anything": 1});
            let report = evidence.examine(object(with_undeclared)).expect("a Widget");
            assert!(report.update.is_some(), "{edits:?}: {report}");
        }
    }
}
