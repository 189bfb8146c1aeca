//! Bad input never makes the CRD checks panic: missing fields, unsupported keywords,
//! and thousands of randomly generated schemas, rules, paths and patterns.

use crd_codegen::check::check_crd;
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::model::CustomResourceDefinition;
use crd_codegen::source::parse_text;
use serde_json::{Map, Value, json};
use std::path::Path;

fn read(doc: &Value) -> Option<CustomResourceDefinition> {
    let mut docs = parse_text(Path::new("case.json"), serde_json::to_string(doc).unwrap()).ok()?;
    match read_crd(docs.first_mut()?) {
        Ok(Read::Crd(crd, _)) => Some(*crd),
        _ => None,
    }
}

fn crd_with(spec: Value) -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "foos.example.com"}, "spec": spec})
}

fn errors(doc: Value) -> Vec<String> {
    let crd = read(&doc).expect("reads");
    check_crd(&crd).iter().map(|e| e.to_string()).collect()
}

#[test]
fn empty_model() {
    let errs = check_crd(&CustomResourceDefinition::default());
    assert!(
        errs.iter()
            .any(|e| e.to_string() == "metadata.name: Required value: name or generateName is required")
    );
}

#[test]
fn missing_names() {
    let errs = errors(crd_with(json!({
        "group": "example.com", "scope": "Namespaced",
        "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]
    })));
    assert_eq!(
        errs,
        vec![
            r#"metadata.name: Invalid value: "foos.example.com": must be spec.names.plural+"."+spec.group"#,
            "spec.names.plural: Required value",
            "spec.names.singular: Required value",
            "spec.names.kind: Required value",
            "spec.names.listKind: Required value",
        ]
    );
}

#[test]
fn unsupported_schemas() {
    let schema = |s: Value| {
        crd_with(json!({
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "foos", "kind": "Foo"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": s}}]
        }))
    };
    let p = "spec.validation.openAPIV3Schema";
    assert_eq!(
        errors(schema(
            json!({"$ref": "#/definitions/foo", "definitions": {"foo": {"type": "object"}}})
        )),
        vec![
            format!("{p}.definitions: Forbidden: definitions is not supported"),
            format!("{p}.$ref: Forbidden: $ref is not supported"),
        ]
    );
    assert_eq!(
        errors(schema(
            json!({"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}, {"$ref": "x"}]}}})
        )),
        vec![
            format!("{p}.properties[a].items: Forbidden: items must be a schema object and not an array"),
            format!("{p}.properties[a].items[1].$ref: Forbidden: $ref is not supported"),
        ]
    );
    assert_eq!(
        errors(schema(json!({"type": "null"}))),
        vec![
            format!("{p}.type: Invalid value: \"null\": must be object at the root"),
            format!(
                "{p}.type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
            ),
            format!("{p}.type: Forbidden: type cannot be set to null, use nullable as an alternative"),
        ]
    );
    // A top-level schema that is not an object cannot be read at all.
    assert!(read(&schema(json!("string"))).is_none());
}

/// xorshift64*: deterministic pseudo-random numbers without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn junk(&mut self) -> String {
        const PIECES: &[&str] = &[
            "a", "spec", ".", "[", "]", "'", "\\", "(", ")", "*", "{", "}", "?", "+", "|", "^", "$", "-", ":", "0",
            "9", "metadata", "name", "kind", "\n", " ", "é", "\\p{", "[[:", "x", "''", "['a']",
        ];
        (0..self.below(8)).map(|_| self.pick(PIECES)).collect()
    }
}

const TYPES: &[&str] = &[
    "object", "array", "string", "integer", "number", "boolean", "null", "", "bogus",
];
const NAMES: &[&str] = &[
    "metadata",
    "kind",
    "apiVersion",
    "spec",
    "status",
    "name",
    "generateName",
    "a",
    "b",
];

fn random_schema(rng: &mut Rng, depth: usize) -> Value {
    let mut m = Map::new();
    // Sets the key in a quarter of the cases.
    macro_rules! set {
        ($k:expr, $v:expr $(,)?) => {
            if rng.chance(25) {
                let v = $v;
                m.insert($k.to_string(), v);
            }
        };
    }
    if rng.chance(80) {
        m.insert("type".into(), json!(rng.pick(TYPES)));
    }
    set!("nullable", json!(rng.chance(50)));
    set!("description", json!("d"));
    set!("default", json!({"a": 1}));
    set!("pattern", json!(rng.junk()));
    set!("maxItems", json!(rng.below(20) as i64 - 2));
    set!("maxProperties", json!(rng.below(20)));
    set!("uniqueItems", json!(rng.chance(50)));
    set!("required", json!([rng.pick(NAMES)]));
    set!("id", json!("x"));
    set!("$ref", json!(rng.junk()));
    set!("$schema", json!("s"));
    set!("x-kubernetes-preserve-unknown-fields", json!(rng.chance(50)));
    set!("x-kubernetes-embedded-resource", json!(rng.chance(50)));
    set!("x-kubernetes-int-or-string", json!(rng.chance(50)));
    set!(
        "x-kubernetes-list-type",
        json!(rng.pick(&["atomic", "set", "map", "bogus"]))
    );
    set!(
        "x-kubernetes-map-type",
        json!(rng.pick(&["atomic", "granular", "bogus"]))
    );
    set!("x-kubernetes-list-map-keys", json!([rng.pick(NAMES), rng.pick(NAMES)]));
    set!(
        "x-kubernetes-validations",
        json!([{"rule": rng.junk(), "message": rng.junk(), "messageExpression": rng.junk(),
                "reason": rng.pick(&["FieldValueInvalid", "bogus"]), "fieldPath": rng.junk(), "optionalOldSelf": rng.chance(50)}]),
    );
    set!("dependencies", json!({"a": ["b"], "c": {"type": rng.pick(TYPES)}}));
    set!("additionalItems", json!(rng.chance(50)));
    if depth < 4 {
        if rng.chance(40) {
            let props: Map<String, Value> = (0..rng.below(4))
                .map(|_| (rng.pick(NAMES).to_string(), random_schema(rng, depth + 1)))
                .collect();
            m.insert("properties".into(), props.into());
        }
        if rng.chance(25) {
            let items = if rng.chance(20) {
                json!([random_schema(rng, depth + 1)])
            } else {
                random_schema(rng, depth + 1)
            };
            m.insert("items".into(), items);
        }
        if rng.chance(15) {
            let ap = if rng.chance(40) {
                json!(rng.chance(50))
            } else {
                random_schema(rng, depth + 1)
            };
            m.insert("additionalProperties".into(), ap);
        }
        for junctor in ["allOf", "anyOf", "oneOf"] {
            if rng.chance(10) {
                let branches: Vec<Value> = (0..rng.below(3)).map(|_| random_schema(rng, depth + 1)).collect();
                m.insert(junctor.into(), branches.into());
            }
        }
        if rng.chance(8) {
            m.insert("not".into(), random_schema(rng, depth + 1));
        }
        for k in ["patternProperties", "definitions"] {
            if rng.chance(5) {
                m.insert(k.into(), json!({"x": random_schema(rng, depth + 1)}));
            }
        }
    }
    m.into()
}

fn random_crd(rng: &mut Rng) -> Value {
    let versions: Vec<Value> = (0..rng.below(3) + 1)
        .map(|i| {
            let mut v = json!({"name": if rng.chance(90) { format!("v{i}") } else { rng.junk() },
                "served": rng.chance(80), "storage": i == 0 || rng.chance(20)});
            if rng.chance(90) {
                v["schema"] = json!({"openAPIV3Schema": random_schema(rng, 0)});
            }
            if rng.chance(20) {
                v["subresources"] = json!({"status": {}, "scale": {"specReplicasPath": rng.junk(), "statusReplicasPath": rng.junk(), "labelSelectorPath": rng.junk()}});
            }
            if rng.chance(20) {
                v["selectableFields"] = json!([{"jsonPath": rng.junk()}, {"jsonPath": ".spec.a"}]);
            }
            if rng.chance(20) {
                v["additionalPrinterColumns"] = json!([{"name": rng.junk(), "type": rng.pick(TYPES), "jsonPath": rng.junk()}]);
            }
            if rng.chance(10) {
                v["deprecated"] = json!(rng.chance(50));
                v["deprecationWarning"] = json!(rng.junk());
            }
            v
        })
        .collect();
    let mut spec = json!({
        "group": if rng.chance(90) { "example.com".to_string() } else { rng.junk() },
        "scope": rng.pick(&["Namespaced", "Cluster", "", "x"]),
        "names": {"plural": "foos", "kind": if rng.chance(90) { "Foo".to_string() } else { rng.junk() }},
        "versions": versions
    });
    if rng.chance(15) {
        spec["conversion"] = json!({"strategy": rng.pick(&["Webhook", "None", "x"]), "webhook": {
            "clientConfig": {"url": rng.junk(), "service": {"name": rng.junk(), "namespace": "ns", "path": rng.junk(), "port": rng.below(70000)}},
            "conversionReviewVersions": [rng.junk()]
        }});
    }
    if rng.chance(10) {
        spec["preserveUnknownFields"] = json!(rng.chance(50));
    }
    crd_with(spec)
}

#[test]
fn random_crds_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    let mut reported = 0;
    for _ in 0..1500 {
        let doc = random_crd(&mut rng);
        if let Some(crd) = read(&doc) {
            checked += 1;
            let errs = check_crd(&crd);
            reported += errs.len();
            for e in &errs {
                // Every error prints.
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(checked > 1000, "only {checked} random CRDs could be read");
    assert!(reported > checked, "random CRDs should mostly be invalid");
}
