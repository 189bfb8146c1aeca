//! Table tests of the CRD admission checks (`crd_codegen::check::check_crd`), ported
//! from the upstream tables:
//!
//! - `pkg/apis/apiextensions/validation/validation_test.go`:
//!   `TestValidateCustomResourceDefinition`, `TestValidateCustomResourceDefinitionValidation`,
//!   `TestSelectableFields`, `Test_validateDeprecationWarning`,
//!   `TestValidateCustomResourceDefinitionStoredVersions`;
//! - `pkg/apiserver/schema/validation_test.go`: `TestValidateStructuralMetadataInvariants`,
//!   `TestValidateStructuralCompleteness`, `TestValidateNestedValueValidationComplete`.
//!
//! Upstream, most of `TestValidateCustomResourceDefinitionValidation` runs with
//! options weaker than a create (no structural-schema requirement, no map-list key
//! rules) and matches errors by path and type only. Here every case is a whole CRD
//! as it is created, and the expectation is the exact list of messages the API
//! server prints, in its order; schemas were adapted where a create adds errors
//! unrelated to the rule under test (e.g. a list placed below an object root).
//!
//! Each CRD is written as JSON (which the YAML loader reads) and goes through the
//! same reader as files do.

use crd_codegen::check::check_crd;
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::model::CustomResourceDefinition;
use crd_codegen::source::parse_text;
use serde_json::{Value, json};
use std::path::Path;

/// The path of the (hoisted) schema.
const P: &str = "spec.validation.openAPIV3Schema";

const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const TYPES: &str = r#"supported values: "array", "boolean", "integer", "number", "object", "string""#;

/// Go's `json.Marshal` of an empty internal `JSONSchemaProps`.
const EMPTY_GO_SCHEMA: &str = r#"{"ID":"","Schema":"","Ref":null,"Description":"","Type":"","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}"#;

/// `EMPTY_GO_SCHEMA` with some fields set: `("Type", "\"object\"")`.
fn go_schema(fields: &[(&str, &str)]) -> String {
    let mut s = EMPTY_GO_SCHEMA.to_string();
    for (k, v) in fields {
        let key = format!("\"{k}\":");
        let start = s.find(&key).unwrap_or_else(|| panic!("no field {k}")) + key.len();
        let end = start + s[start..].find([',', '}']).unwrap();
        // Values of the template are scalars (no nested commas).
        s.replace_range(start..end, v);
    }
    s
}

/// A version as Go's `json.Marshal` prints the internal struct (schema hoisted).
fn go_version(name: &str, storage: bool) -> String {
    format!(
        r#"{{"Name":"{name}","Served":true,"Storage":{storage},"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}}"#
    )
}

fn base() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object"}}
            }]
        }
    })
}

fn read(doc: &Value) -> CustomResourceDefinition {
    let text = serde_json::to_string_pretty(doc).unwrap();
    let mut docs = parse_text(Path::new("case.json"), text).unwrap();
    match read_crd(&mut docs[0]) {
        Ok(Read::Crd(crd, _)) => *crd,
        Ok(Read::Other(a, k)) => panic!("not a CRD: {a} {k}"),
        Err(e) => panic!("{}", e.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

fn errors_of_crd(crd: &CustomResourceDefinition) -> Vec<String> {
    check_crd(crd).iter().map(|e| e.to_string()).collect()
}

fn errors(doc: Value) -> Vec<String> {
    errors_of_crd(&read(&doc))
}

/// The base CRD with `f` applied.
fn crd(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    f(&mut v);
    v
}

/// The base CRD with this root schema.
fn with_schema(schema: Value) -> Value {
    crd(|v| v["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = schema)
}

/// The base CRD with this schema at `properties[f]` of an object root.
fn with_field(schema: Value) -> Value {
    with_schema(json!({"type": "object", "properties": {"f": schema}}))
}

/// The path of `properties[f]`.
fn f() -> String {
    format!("{P}.properties[f]")
}

struct Case {
    name: &'static str,
    crd: Value,
    want: Vec<String>,
}

fn case(name: &'static str, crd: Value, want: Vec<String>) -> Case {
    Case { name, crd, want }
}

fn run(cases: Vec<Case>) {
    let mut failures = Vec::new();
    let n = cases.len();
    for c in cases {
        let got = errors(c.crd);
        if got != c.want {
            failures.push(format!("{}:\n  got:  {:#?}\n  want: {:#?}", c.name, got, c.want));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn webhook_crd(webhook: Value) -> Value {
    crd(|v| {
        v["spec"]["versions"].as_array_mut().unwrap().push(
            json!({"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}),
        );
        v["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": webhook});
    })
}

const URL_FORM: &str = "; desired format: https://host[/path]";

/// A conversion webhook's `service` reference, every message of
/// `ValidateWebhookService` as the API server gives it: it passes the name and the
/// namespace swapped (kubernetes/kubernetes#141353), so a missing namespace is
/// `service.name: Required value` and a missing name `service.namespace`.
#[test]
fn conversion_webhook_service() {
    let svc = "spec.conversion.webhookClientConfig.service";
    let service =
        |service: Value| webhook_crd(json!({"clientConfig": {"service": service}, "conversionReviewVersions": ["v1"]}));
    let path = |path: &str| service(json!({"name": "n", "namespace": "ns", "path": path}));
    let long = "a".repeat(254);
    run(vec![
        case("valid", service(json!({"name": "n", "namespace": "ns"})), vec![]),
        case(
            "no namespace: reported as the name",
            service(json!({"name": "n"})),
            vec![format!("{svc}.name: Required value")],
        ),
        case(
            "empty namespace: reported as the name",
            service(json!({"name": "n", "namespace": ""})),
            vec![format!("{svc}.name: Required value")],
        ),
        case(
            "no name: reported as the namespace",
            service(json!({"namespace": "ns"})),
            vec![format!("{svc}.namespace: Required value")],
        ),
        case(
            "neither",
            service(json!({"port": 8443})),
            vec![
                format!("{svc}.name: Required value"),
                format!("{svc}.namespace: Required value"),
            ],
        ),
        case(
            "port -1",
            service(json!({"name": "n", "namespace": "ns", "port": -1})),
            vec![format!(
                "{svc}.port: Invalid value: -1: port is not valid: must be between 1 and 65535, inclusive"
            )],
        ),
        case(
            "port 65535",
            service(json!({"name": "n", "namespace": "ns", "port": 65535})),
            vec![],
        ),
        case("path /", path("/"), vec![]),
        case("path empty", path(""), vec![]),
        case("path with a trailing slash", path("/convert/v1/"), vec![]),
        case(
            "path //",
            path("//"),
            vec![format!(
                "{svc}.path: Invalid value: \"//\": segment[0] may not be empty"
            )],
        ),
        case(
            "path without a leading slash: its first byte is cut off all the same",
            path("xconvert/v1"),
            vec![format!(
                "{svc}.path: Invalid value: \"xconvert/v1\": must start with a '/'"
            )],
        ),
        case(
            "path starting inside a character",
            path("é/v1"),
            vec![
                format!("{svc}.path: Invalid value: \"é/v1\": must start with a '/'"),
                format!("{svc}.path: Invalid value: \"é/v1\": segment[0]: {DNS1123_SUBDOMAIN}"),
            ],
        ),
        case(
            "path segments",
            path("/Convert//v1_/ok"),
            vec![
                format!("{svc}.path: Invalid value: \"/Convert//v1_/ok\": segment[0]: {DNS1123_SUBDOMAIN}"),
                format!("{svc}.path: Invalid value: \"/Convert//v1_/ok\": segment[1] may not be empty"),
                format!("{svc}.path: Invalid value: \"/Convert//v1_/ok\": segment[2]: {DNS1123_SUBDOMAIN}"),
            ],
        ),
        case(
            "path segment too long",
            path(&format!("/{long}")),
            vec![format!(
                "{svc}.path: Invalid value: \"/{long}\": segment[0]: must be no more than 253 characters"
            )],
        ),
        case(
            "everything wrong at once, in the API server's order",
            service(json!({"name": "", "namespace": "ns", "port": 0, "path": "x/"})),
            vec![
                format!("{svc}.namespace: Required value"),
                format!("{svc}.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"),
                format!("{svc}.path: Invalid value: \"x/\": must start with a '/'"),
                format!("{svc}.path: Invalid value: \"x/\": segment[0] may not be empty"),
            ],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinition`: conversion.
#[test]
fn conversion() {
    let cc = "spec.conversion.webhookClientConfig";
    let crv = "spec.conversion.conversionReviewVersions";
    run(vec![
        case(
            "webhookconfig: invalid port 0",
            webhook_crd(json!({"clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 0}}, "conversionReviewVersions": ["v1"]})),
            vec![format!("{cc}.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive")],
        ),
        case(
            "webhookconfig: invalid port 65536",
            webhook_crd(json!({"clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 65536}}, "conversionReviewVersions": ["v1"]})),
            vec![format!("{cc}.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive")],
        ),
        case(
            "webhookconfig: default port, service path segments",
            webhook_crd(json!({"clientConfig": {"service": {"name": "", "namespace": "", "path": "/a//B_/"}}, "conversionReviewVersions": ["v1"]})),
            vec![
                format!("{cc}.service.name: Required value"),
                format!("{cc}.service.namespace: Required value"),
                format!("{cc}.service.path: Invalid value: \"/a//B_/\": segment[1] may not be empty"),
                format!("{cc}.service.path: Invalid value: \"/a//B_/\": segment[2]: {DNS1123_SUBDOMAIN}"),
            ],
        ),
        case(
            "webhookconfig: valid service, CABundle not checked on create",
            webhook_crd(json!({"clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 443}, "caBundle": "Cg=="}, "conversionReviewVersions": ["v1"]})),
            vec![],
        ),
        case(
            "webhookconfig: both service and URL provided",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook", "service": {"name": "n", "namespace": "ns"}}, "conversionReviewVersions": ["v1"]})),
            vec![format!("{cc}: Required value: exactly one of url or service is required")],
        ),
        case(
            "webhookconfig: blank URL",
            webhook_crd(json!({"clientConfig": {"url": ""}, "conversionReviewVersions": ["v1"]})),
            vec![
                format!("{cc}.url: Invalid value: \"\": 'https' is the only allowed URL scheme{URL_FORM}"),
                format!("{cc}.url: Invalid value: \"\": host must be specified{URL_FORM}"),
            ],
        ),
        case(
            "webhookconfig: URL with user, query and fragment",
            webhook_crd(json!({"clientConfig": {"url": "http://user@example.com/x?a=b#frag"}, "conversionReviewVersions": ["v1"]})),
            vec![
                format!("{cc}.url: Invalid value: \"http\": 'https' is the only allowed URL scheme{URL_FORM}"),
                format!("{cc}.url: Invalid value: \"user\": user information is not permitted in the URL"),
                format!("{cc}.url: Invalid value: \"frag\": fragments are not permitted in the URL"),
                format!("{cc}.url: Invalid value: \"a=b\": query parameters are not permitted in the URL"),
            ],
        ),
        case(
            "webhookconfig_should_not_be_set",
            crd(|v| v["spec"]["conversion"] = json!({"strategy": "None", "webhook": {"clientConfig": {"url": "https://example.com/webhook"}}})),
            vec![format!("{cc}: Forbidden: should not be set when strategy is not set to Webhook")],
        ),
        case(
            "ConversionReviewVersions_should_not_be_set",
            crd(|v| v["spec"]["conversion"] = json!({"strategy": "None", "webhook": {"conversionReviewVersions": ["v1beta1"]}})),
            vec![format!("{crv}: Forbidden: should not be set when strategy is not set to Webhook")],
        ),
        case(
            "webhookconfig: invalid ConversionReviewVersion",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["invalid-version"]})),
            vec![format!("{crv}: Invalid value: [\"invalid-version\"]: must include at least one of v1, v1beta1")],
        ),
        case(
            "webhookconfig: invalid ConversionReviewVersion version string",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["0v"]})),
            vec![
                format!("{crv}[0]: Invalid value: \"0v\": {DNS1035}"),
                format!("{crv}: Invalid value: [\"0v\"]: must include at least one of v1, v1beta1"),
            ],
        ),
        case(
            "webhookconfig: at least one valid ConversionReviewVersion",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["invalid-version", "v1beta1"]})),
            vec![],
        ),
        case(
            "webhookconfig: duplicate ConversionReviewVersion",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["v1beta1", "v1beta1"]})),
            vec![format!("{crv}[1]: Invalid value: \"v1beta1\": duplicate version")],
        ),
        case(
            "webhookconfig: empty ConversionReviewVersions",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}})),
            vec![format!("{crv}: Required value")],
        ),
        case(
            "missing_webhookconfig",
            webhook_crd(json!({"conversionReviewVersions": ["v1"]})),
            vec![format!("{cc}: Required value: required when strategy is set to Webhook")],
        ),
        case(
            "invalid_conversion_strategy",
            crd(|v| v["spec"]["conversion"] = json!({"strategy": "non_existing_conversion"})),
            vec![r#"spec.conversion.strategy: Unsupported value: "non_existing_conversion": supported values: "None", "Webhook""#.to_string()],
        ),
        case(
            "webhook conversion with preserveUnknownFields=true",
            {
                let mut v = webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["v1beta1"]}));
                v["spec"]["preserveUnknownFields"] = json!(true);
                v
            },
            vec![
                r#"spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true"#.to_string(),
                "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead".to_string(),
            ],
        ),
        case(
            "webhook conversion with conversionReviewVersions=[v1]",
            webhook_crd(json!({"clientConfig": {"url": "https://example.com/webhook"}, "conversionReviewVersions": ["v1"]})),
            vec![],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinition` and `TestValidateCustomResourceDefinitionStoredVersions`:
/// names, versions, stored versions.
#[test]
fn names_and_versions() {
    let versions_json = |vs: &[(&str, bool)]| {
        format!(
            "[{}]",
            vs.iter().map(|(n, s)| go_version(n, *s)).collect::<Vec<_>>().join(",")
        )
    };
    run(vec![
        case("valid", base(), vec![]),
        case(
            "no_storage_version",
            crd(|v| v["spec"]["versions"][0]["storage"] = json!(false)),
            vec![
                format!(
                    "spec.versions: Invalid value: {}: must have exactly one version marked as storage version",
                    versions_json(&[("v1", false)])
                ),
                "status.storedVersions: Invalid value: null: must have at least one stored version".into(),
            ],
        ),
        case(
            "multiple_storage_version",
            crd(|v| {
                v["spec"]["versions"].as_array_mut().unwrap().push(
                    json!({"name": "v2", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}),
                )
            }),
            vec![
                format!(
                    "spec.versions: Invalid value: {}: must have exactly one version marked as storage version",
                    versions_json(&[("v1", true), ("v2", true)])
                ),
                r#"status.storedVersions: Invalid value: ["v1"]: must have the storage version v2"#.into(),
            ],
        ),
        case(
            "duplicate version names",
            crd(|v| {
                v["spec"]["versions"].as_array_mut().unwrap().push(
                    json!({"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}),
                )
            }),
            vec![format!(
                "spec.versions: Invalid value: {}: must contain unique version names",
                versions_json(&[("v1", true), ("v1", false)])
            )],
        ),
        case(
            "invalid version name",
            crd(|v| v["spec"]["versions"][0]["name"] = json!("V1")),
            vec![
                format!("spec.versions[0].name: Invalid value: \"V1\": {DNS1035}"),
                format!("spec.version: Invalid value: \"V1\": {DNS1035}"),
            ],
        ),
        case(
            "mismatched name",
            crd(|v| v["metadata"]["name"] = json!("foos.not.example.com")),
            vec![r#"metadata.name: Invalid value: "foos.not.example.com": must be spec.names.plural+"."+spec.group"#.into()],
        ),
        case(
            "missing name",
            crd(|v| v["metadata"] = json!({})),
            vec!["metadata.name: Required value: name or generateName is required".into()],
        ),
        case(
            "missing values",
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "plural.group.com"}, "spec": {}}),
            vec![
                r#"metadata.name: Invalid value: "plural.group.com": must be spec.names.plural+"."+spec.group"#.into(),
                "spec.group: Required value".into(),
                "spec.scope: Required value".into(),
                "spec.versions: Invalid value: null: must have exactly one version marked as storage version".into(),
                "spec.names.plural: Required value".into(),
                "spec.names.singular: Required value".into(),
                "spec.names.kind: Required value".into(),
                "spec.names.listKind: Required value".into(),
                "status.storedVersions: Invalid value: null: must have at least one stored version".into(),
            ],
        ),
        case(
            "bad names 01",
            crd(|v| {
                v["metadata"]["name"] = json!("plural.group");
                v["spec"]["group"] = json!("group");
                v["spec"]["scope"] = json!("foo");
                v["spec"]["names"] = json!({"plural": "pl()*ural", "singular": "value()*a", "kind": "value()*a", "listKind": "value()*a"});
                v["spec"]["versions"][0]["name"] = json!("ve()*rsion");
            }),
            vec![
                r#"metadata.name: Invalid value: "plural.group": must be spec.names.plural+"."+spec.group"#.into(),
                r#"spec.group: Invalid value: "group": should be a domain with at least one dot"#.into(),
                r#"spec.scope: Unsupported value: "foo": supported values: "Cluster", "Namespaced""#.into(),
                format!("spec.versions[0].name: Invalid value: \"ve()*rsion\": {DNS1035}"),
                format!("spec.version: Invalid value: \"ve()*rsion\": {DNS1035}"),
                format!("spec.names.plural: Invalid value: \"pl()*ural\": {DNS1035}"),
                format!("spec.names.singular: Invalid value: \"value()*a\": {DNS1035}"),
                format!("spec.names.kind: Invalid value: \"value()*a\": may have mixed case, but should otherwise match: {DNS1035}"),
                format!("spec.names.listKind: Invalid value: \"value()*a\": may have mixed case, but should otherwise match: {DNS1035}"),
                r#"spec.names.listKind: Invalid value: "value()*a": kind and listKind may not be the same"#.into(),
            ],
        ),
        case(
            "bad names 02",
            crd(|v| {
                v["metadata"]["name"] = json!("plural.group");
                v["spec"]["group"] = json!("group.c(*&om");
                v["spec"]["scope"] = json!("");
                v["spec"]["names"] = json!({"plural": "plural", "singular": "singular", "kind": "matching", "listKind": "matching"});
            }),
            vec![
                r#"metadata.name: Invalid value: "plural.group": must be spec.names.plural+"."+spec.group"#.into(),
                format!("spec.group: Invalid value: \"group.c(*&om\": {DNS1123_SUBDOMAIN}"),
                "spec.scope: Required value".into(),
                r#"spec.names.listKind: Invalid value: "matching": kind and listKind may not be the same"#.into(),
            ],
        ),
        case(
            "group not a DNS subdomain, name follows it",
            crd(|v| {
                v["metadata"]["name"] = json!("foos.Example.com");
                v["spec"]["group"] = json!("Example.com");
            }),
            vec![
                format!("metadata.name: Invalid value: \"foos.Example.com\": {DNS1123_SUBDOMAIN}"),
                format!("spec.group: Invalid value: \"Example.com\": {DNS1123_SUBDOMAIN}"),
            ],
        ),
        case(
            "defaulted singular and listKind follow an invalid kind",
            crd(|v| v["spec"]["names"] = json!({"plural": "foos", "kind": "Foo_Bar"})),
            vec![
                format!("spec.names.singular: Invalid value: \"foo_bar\": {DNS1035}"),
                format!("spec.names.kind: Invalid value: \"Foo_Bar\": may have mixed case, but should otherwise match: {DNS1035}"),
                format!("spec.names.listKind: Invalid value: \"Foo_BarList\": may have mixed case, but should otherwise match: {DNS1035}"),
            ],
        ),
        case(
            "short names and categories",
            crd(|v| {
                v["spec"]["names"]["shortNames"] = json!(["fo", "Foo"]);
                v["spec"]["names"]["categories"] = json!(["all", "B"]);
            }),
            vec![
                format!("spec.names.shortNames[1]: Invalid value: \"Foo\": {DNS1035}"),
                format!("spec.names.categories[1]: Invalid value: \"B\": {DNS1035}"),
            ],
        ),
        case(
            "schema is required",
            crd(|v| {
                v["spec"]["versions"][0].as_object_mut().unwrap().remove("schema");
            }),
            vec!["spec.versions[0].schema.openAPIV3Schema: Required value".into()],
        ),
        case(
            "preserveUnknownFields: true",
            crd(|v| v["spec"]["preserveUnknownFields"] = json!(true)),
            vec!["spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead".into()],
        ),
        case(
            "defaults with preserveUnknownFields: true",
            {
                let mut v = with_field(json!({"type": "string", "default": "x"}));
                v["spec"]["preserveUnknownFields"] = json!(true);
                v
            },
            vec![
                "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema".into(),
                "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead".into(),
            ],
        ),
    ]);
}

/// `Test_validateDeprecationWarning`.
#[test]
fn deprecation_warnings() {
    let dw = "spec.versions[0].deprecationWarning";
    let with = |deprecated: bool, warning: &str| {
        crd(|v| {
            v["spec"]["versions"][0]["deprecated"] = json!(deprecated);
            v["spec"]["versions"][0]["deprecationWarning"] = json!(warning);
        })
    };
    let long = "x".repeat(257);
    run(vec![
        case(
            "not deprecated",
            with(false, "x"),
            vec![format!(
                "{dw}: Invalid value: \"x\": can only be set for deprecated versions"
            )],
        ),
        case("deprecated", with(true, "use v2 instead ✓"), vec![]),
        case(
            "empty",
            with(true, ""),
            vec![format!("{dw}: Invalid value: \"\": must not be an empty string")],
        ),
        case(
            "too long",
            with(true, &long),
            vec![format!(
                "{dw}: Invalid value: \"{long}\": must be <= 256 characters long"
            )],
        ),
        case(
            "non-printable, bad value printed as JSON",
            with(true, "a<\u{7}"),
            vec![format!(
                "{dw}: Invalid value: \"a\\u003c\\u0007\": must only contain printable UTF-8 characters; non-printable character found at index 2"
            )],
        ),
        case(
            "byte index after a multi-byte character",
            with(true, "é\u{a0}"),
            vec![format!(
                "{dw}: Invalid value: \"é\u{a0}\": must only contain printable UTF-8 characters; non-printable character found at index 2"
            )],
        ),
    ]);
}

/// Printer columns, subresources, selectable fields (`TestValidateCustomResourceDefinition`,
/// `TestSelectableFields`).
#[test]
fn columns_subresources_selectable_fields() {
    let cols = "spec.additionalPrinterColumns";
    let scale = "spec.subresources.scale";
    let sf = "spec.selectableFields";
    let type_msg = "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.";
    let selectable_schema = json!({"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
        "spec": {"type": "object", "properties": {
            "s": {"type": "string"}, "n": {"type": "number"},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "e": {"type": "string", "enum": ["a"]}, "o": {"type": "object"}
        }}
    }});
    let nine: Value = (1..=9)
        .map(|i| (format!("a{i}"), json!({"type": "string"})))
        .collect::<serde_json::Map<_, _>>()
        .into();
    run(vec![
        case(
            "printer columns",
            crd(|v| {
                v["spec"]["versions"][0]["additionalPrinterColumns"] = json!([
                    {"name": "", "type": "", "jsonPath": ""},
                    {"name": "a", "type": "bogus", "format": "bogus", "jsonPath": "spec.x"},
                    {"name": "b", "type": "integer", "format": "int32", "jsonPath": ".spec.x"},
                    {"name": "c", "type": "date", "format": "date-time", "jsonPath": "."}
                ])
            }),
            vec![
                format!("{cols}[0].name: Required value"),
                format!("{cols}[0].type: Required value: must be one of boolean,date,integer,number,string"),
                format!("{cols}[0].JSONPath: Required value"),
                format!("{cols}[1].type: Invalid value: \"bogus\": must be one of boolean,date,integer,number,string"),
                format!("{cols}[1].format: Invalid value: \"bogus\": must be one of byte,date,date-time,double,float,int32,int64,password"),
                format!("{cols}[1].JSONPath: Invalid value: \"spec.x\": must be a simple json path starting with ."),
            ],
        ),
        case(
            "labelSelectorPath outside of .spec and .status, other scale paths",
            crd(|v| {
                v["spec"]["versions"][0]["subresources"] = json!({"scale": {
                    "specReplicasPath": "spec.replicas", "statusReplicasPath": ".spec.replicas", "labelSelectorPath": ".foo<bar"
                }})
            }),
            vec![
                format!("{scale}.specReplicasPath: Invalid value: \"spec.replicas\": must be a simple json path starting with ."),
                format!("{scale}.statusReplicasPath: Invalid value: \".spec.replicas\": should be a json path under .status"),
                format!("{scale}.labelSelectorPath: Invalid value: \".foo\\u003cbar\": should be a json path under either .spec or .status"),
            ],
        ),
        case(
            "scale: missing paths",
            crd(|v| v["spec"]["versions"][0]["subresources"] = json!({"scale": {"specReplicasPath": ".status.x", "labelSelectorPath": "x"}})),
            vec![
                format!("{scale}.specReplicasPath: Invalid value: \".status.x\": should be a json path under .spec"),
                format!("{scale}.statusReplicasPath: Required value"),
                format!("{scale}.labelSelectorPath: Invalid value: \"x\": must be a simple json path starting with ."),
            ],
        ),
        case(
            "selectable fields",
            {
                let mut v = with_schema(selectable_schema.clone());
                v["spec"]["versions"][0]["selectableFields"] = json!([
                    {"jsonPath": ".spec.s"}, {"jsonPath": ".spec.n"}, {"jsonPath": ".metadata.name"},
                    {"jsonPath": ".spec.s"}, {"jsonPath": ".spec['s']"}, {"jsonPath": ".spec.x"},
                    {"jsonPath": ""}, {"jsonPath": ".spec.m.k"}, {"jsonPath": ".spec.e"}, {"jsonPath": ".spec.o"},
                    {"jsonPath": "spec.s"}
                ]);
                v
            },
            vec![
                format!("{sf}[1].jsonPath: Invalid value: \".spec.n\": {type_msg}"),
                format!("{sf}[2].jsonPath: Invalid value: \".metadata.name\": must not point to fields in metadata"),
                format!("{sf}[3].jsonPath: Duplicate value: \".spec.s\""),
                format!("{sf}[4].jsonPath: Invalid value: \".spec['s']\": is an invalid path: array notation is not allowed"),
                format!("{sf}[5].jsonPath: Invalid value: \".spec.x\": is an invalid path: does not refer to a valid field"),
                format!("{sf}[6].jsonPath: Required value"),
                format!("{sf}[9].jsonPath: Invalid value: \".spec.o\": {type_msg}"),
                format!("{sf}[10].jsonPath: Invalid value: \"spec.s\": is an invalid path: expected [ or . but got: spec"),
            ],
        ),
        case(
            "too many selectableFields are not allowed",
            {
                let mut v = with_schema(json!({"type": "object", "properties": nine}));
                v["spec"]["versions"][0]["selectableFields"] =
                    (1..=9).map(|i| json!({"jsonPath": format!(".a{i}")})).collect::<Vec<_>>().into();
                v
            },
            vec![format!("{sf}: Too many: 9: must have at most 8 items")],
        ),
        case(
            "per-version selectable fields with per-version schemas",
            crd(|v| {
                v["spec"]["versions"] = json!([
                    {"name": "v1", "served": true, "storage": true,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"foo": {"type": "string"}}}},
                     "selectableFields": [{"jsonPath": ".foo"}, {"jsonPath": ".xyz"}]},
                    {"name": "v2", "served": true, "storage": false,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"foo": {"type": "integer"}, "obj": {"type": "object"}}}},
                     "selectableFields": [{"jsonPath": ".obj"}, {"jsonPath": ".foo"}, {"jsonPath": ".foo"}]}
                ])
            }),
            vec![
                "spec.versions[0].selectableFields[1].jsonPath: Invalid value: \".xyz\": is an invalid path: does not refer to a valid field".into(),
                format!("spec.versions[1].selectableFields[0].jsonPath: Invalid value: \".obj\": {type_msg}"),
                "spec.versions[1].selectableFields[2].jsonPath: Duplicate value: \".foo\"".into(),
            ],
        ),
        case(
            // The schemas are hoisted (identical), the selectable fields are not: the
            // version has no schema of its own, which Go rejects (with its odd message).
            "per-version selectable fields with a shared schema",
            crd(|v| {
                v["spec"]["versions"] = json!([
                    {"name": "v1", "served": true, "storage": true,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"foo": {"type": "string"}}}},
                     "selectableFields": [{"jsonPath": ".foo"}]},
                    {"name": "v2", "served": true, "storage": false,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"foo": {"type": "string"}}}}}
                ])
            }),
            vec!["spec.versions[0].selectableFields: Invalid value: \"\": may only be set when `version.schema.openAPIV3Schema` is not included".into()],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinitionValidation`: root restrictions, types.
#[test]
fn schema_roots_and_types() {
    let status = |schema: Value| {
        let mut v = with_schema(schema);
        v["spec"]["versions"][0]["subresources"] = json!({"status": {}});
        v
    };
    let allowed = "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled";
    run(vec![
        case(
            "root type without status",
            with_schema(json!({"type": "string"})),
            vec![format!(
                "{P}.type: Invalid value: \"string\": must be object at the root"
            )],
        ),
        case(
            "root type having invalid value, with status",
            status(json!({"type": "string"})),
            vec![
                format!(
                    "{P}.type: Invalid value: \"string\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"
                ),
                format!("{P}.type: Invalid value: \"string\": must be object at the root"),
            ],
        ),
        case(
            "non-allowed root field with status",
            status(json!({"type": "object", "minProperties": 1})),
            vec![format!(
                "{P}: Invalid value: {}: {allowed}",
                go_schema(&[("Type", "\"object\""), ("MinProperties", "1")])
            )],
        ),
        case(
            "only the first non-allowed root field is reported",
            status(json!({"type": "object", "x-kubernetes-list-type": "atomic", "nullable": true})),
            vec![
                format!(
                    "{P}: Invalid value: {}: {allowed}",
                    go_schema(&[
                        ("Type", "\"object\""),
                        ("Nullable", "true"),
                        ("XListType", "\"atomic\"")
                    ])
                ),
                format!("{P}.nullable: Forbidden: nullable cannot be true at the root"),
                format!("{P}.type: Invalid value: \"object\": must be array if x-kubernetes-list-type is specified"),
            ],
        ),
        case(
            "all allowed fields at the root of the schema with status",
            status(json!({
                "type": "object", "description": "d", "title": "t", "required": ["spec"],
                "properties": {"spec": {"type": "object"}}, "externalDocs": {"url": "https://example.com"},
                "example": {"spec": {}}, "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-validations": [{"rule": "true"}]
            })),
            vec![],
        ),
        case(
            "null type",
            with_schema(json!({"type": "object", "properties": {"null": {"type": "null"}}})),
            vec![
                format!("{P}.properties[null].type: Unsupported value: \"null\": {TYPES}"),
                format!(
                    "{P}.properties[null].type: Forbidden: type cannot be set to null, use nullable as an alternative"
                ),
            ],
        ),
        case(
            "null type at the root",
            with_schema(json!({"type": "null"})),
            vec![
                format!("{P}.type: Invalid value: \"null\": must be object at the root"),
                format!("{P}.type: Unsupported value: \"null\": {TYPES}"),
                format!("{P}.type: Forbidden: type cannot be set to null, use nullable as an alternative"),
            ],
        ),
        case(
            "bogus type at the root",
            with_schema(json!({"type": "bogus"})),
            vec![
                format!("{P}.type: Invalid value: \"bogus\": must be object at the root"),
                format!("{P}.type: Unsupported value: \"bogus\": {TYPES}"),
            ],
        ),
        case(
            "invalid types disallowed",
            with_field(json!({"type": "bogus"})),
            vec![format!("{}.type: Unsupported value: \"bogus\": {TYPES}", f())],
        ),
        case(
            "nullable at the root",
            with_schema(json!({"type": "object", "nullable": true})),
            vec![format!("{P}.nullable: Forbidden: nullable cannot be true at the root")],
        ),
        case(
            "nullable without type",
            with_field(json!({"nullable": true})),
            vec![format!(
                "{}.type: Required value: must not be empty for specified object fields",
                f()
            )],
        ),
        case(
            "nullable with types",
            with_schema(json!({"type": "object", "properties": {
                "object": {"type": "object", "nullable": true}, "array": {"type": "array", "items": {"type": "string"}, "nullable": true},
                "number": {"type": "number", "nullable": true}, "string": {"type": "string", "nullable": true}
            }})),
            vec![],
        ),
        case(
            "must be structural, but isn't",
            with_schema(json!({})),
            vec![format!("{P}.type: Required value: must not be empty at the root")],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinitionValidation`: list and map types.
#[test]
fn list_and_map_types() {
    let q = f();
    let scalar_at = "must be a scalar type if parent array's x-kubernetes-list-type is map";
    let set_items = "must be atomic as item of a list with x-kubernetes-list-type=set";
    let key_rule =
        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property";
    let map_list = |items: Value, keys: Value| {
        with_field(
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": keys, "items": items}),
        )
    };
    let set_list = |items: Value| with_field(json!({"type": "array", "x-kubernetes-list-type": "set", "items": items}));
    run(vec![
        case(
            "invalid type with list type extension set",
            with_field(json!({"type": "object", "x-kubernetes-list-type": "set"})),
            vec![format!(
                "{q}.type: Invalid value: \"object\": must be array if x-kubernetes-list-type is specified"
            )],
        ),
        case(
            "unset type with list type extension set",
            with_field(json!({"x-kubernetes-list-type": "set"})),
            vec![
                format!("{q}.type: Required value: must not be empty for specified object fields"),
                format!("{q}.type: Required value: must be array if x-kubernetes-list-type is specified"),
            ],
        ),
        case(
            "invalid list type extension",
            with_field(json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "invalid"})),
            vec![format!(
                "{q}.x-kubernetes-list-type: Unsupported value: \"invalid\": supported values: \"atomic\", \"set\", \"map\""
            )],
        ),
        case(
            "invalid list type extension with list map keys extension non-empty",
            with_field(
                json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["key"]}),
            ),
            vec![format!(
                "{q}.x-kubernetes-list-type: Invalid value: \"set\": must be map if x-kubernetes-list-map-keys is non-empty"
            )],
        ),
        case(
            "unset list type extension with list map keys extension non-empty",
            with_field(json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-map-keys": ["key"]})),
            vec![format!(
                "{q}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty"
            )],
        ),
        case(
            "empty list map keys extension with list type extension map",
            with_field(json!({"type": "array", "x-kubernetes-list-type": "map"})),
            vec![
                format!("{q}.items: Required value: must be specified"),
                format!(
                    "{q}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map"
                ),
                format!("{q}.items: Required value: must have a schema if x-kubernetes-list-type is map"),
            ],
        ),
        case(
            "multiple schema items with list type extension map",
            with_field(
                json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                "items": [{"type": "string"}, {"type": "integer"}]}),
            ),
            vec![
                format!("{q}.items: Forbidden: items must be a schema object and not an array"),
                format!(
                    "{q}.items: Invalid value: {{\"Schema\":null,\"JSONSchemas\":[{},{}]}}: must only have a single schema if x-kubernetes-list-type is map",
                    go_schema(&[("Type", "\"string\"")]),
                    go_schema(&[("Type", "\"integer\"")])
                ),
            ],
        ),
        case(
            "non object item with list type extension map",
            map_list(json!({"type": "string"}), json!(["key"])),
            vec![format!(
                "{q}.items.type: Invalid value: \"string\": must be object if parent array's x-kubernetes-list-type is map"
            )],
        ),
        case(
            "items with key missing from properties with list type extension map",
            map_list(json!({"type": "object"}), json!(["key"])),
            vec![format!(
                "{q}.x-kubernetes-list-map-keys: Invalid value: [\"key\"]: entries must all be names of item properties"
            )],
        ),
        case(
            // Go reports the items' type, not the key's, as the bad value.
            "items with non scalar key property type with list type extension map",
            map_list(
                json!({"type": "object", "required": ["key"], "properties": {"key": {"type": "object"}}}),
                json!(["key"]),
            ),
            vec![format!(
                "{q}.items.properties[key].type: Invalid value: \"object\": {scalar_at}"
            )],
        ),
        case(
            "duplicate map keys with list type extension map",
            map_list(
                json!({"type": "object", "required": ["key"], "properties": {"key": {"type": "string"}}}),
                json!(["key", "key"]),
            ),
            vec![format!(
                "{q}.x-kubernetes-list-map-keys: Invalid value: [\"key\",\"key\"]: must not contain duplicate entries"
            )],
        ),
        case(
            "allowed schema with list type extension map (required or defaulted keys)",
            map_list(
                json!({"type": "object", "required": ["keyA"], "properties": {"keyA": {"type": "string"}, "keyB": {"type": "integer", "default": 1}}}),
                json!(["keyA", "keyB"]),
            ),
            vec![],
        ),
        case(
            "invalid map with non-required key and no default",
            map_list(
                json!({"type": "object", "properties": {"key": {"type": "string"}}}),
                json!(["key"]),
            ),
            vec![format!("{q}.items.properties[key].default: Required value: {key_rule}")],
        ),
        case(
            "invalid map with nullable key",
            map_list(
                json!({"type": "object", "required": ["key"], "properties": {"key": {"type": "string", "nullable": true}}}),
                json!(["key"]),
            ),
            vec![format!(
                "{q}.items.properties[key].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable"
            )],
        ),
        case(
            "invalid map with nullable items",
            map_list(
                json!({"type": "object", "nullable": true, "required": ["key"], "properties": {"key": {"type": "string"}}}),
                json!(["key"]),
            ),
            vec![format!(
                "{q}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map"
            )],
        ),
        case(
            "allowed list-type atomic",
            with_field(json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}})),
            vec![],
        ),
        case(
            "allowed list-type atomic with non-atomic items",
            with_field(
                json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "object", "x-kubernetes-map-type": "granular"}}),
            ),
            vec![],
        ),
        case(
            "allowed list-type set with scalar items",
            set_list(json!({"type": "string"})),
            vec![],
        ),
        case(
            "allowed list-type set with atomic map items",
            set_list(
                json!({"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"a": {"type": "string"}}}),
            ),
            vec![],
        ),
        case(
            // Go reports the items' list type (unset: null) as the bad value.
            "invalid list-type set with non-atomic map items",
            set_list(json!({"type": "object", "x-kubernetes-map-type": "granular"})),
            vec![format!(
                "{q}.items.x-kubernetes-map-type: Invalid value: null: {set_items}"
            )],
        ),
        case(
            "invalid list-type set with unspecified map-type for map items",
            set_list(json!({"type": "object"})),
            vec![format!(
                "{q}.items.x-kubernetes-map-type: Invalid value: null: {set_items}"
            )],
        ),
        case(
            "allowed list-type set with atomic list items",
            set_list(json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}})),
            vec![],
        ),
        case(
            "allowed list-type set with unspecified list-type in list items",
            set_list(json!({"type": "array", "items": {"type": "string"}})),
            vec![],
        ),
        case(
            "invalid list-type set with with non-atomic list items",
            set_list(json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}})),
            vec![format!(
                "{q}.items.x-kubernetes-list-type: Invalid value: \"set\": {set_items}"
            )],
        ),
        case(
            "invalid set with nullable items",
            set_list(json!({"type": "string", "nullable": true})),
            vec![format!(
                "{q}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set"
            )],
        ),
        case(
            "invalid type with map type extension (granular)",
            with_field(json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-map-type": "granular"})),
            vec![format!(
                "{q}.type: Invalid value: \"array\": must be object if x-kubernetes-map-type is specified"
            )],
        ),
        case(
            "unset type with map type extension (atomic)",
            with_field(json!({"x-kubernetes-map-type": "atomic"})),
            vec![
                format!("{q}.type: Required value: must not be empty for specified object fields"),
                format!("{q}.type: Required value: must be object if x-kubernetes-map-type is specified"),
            ],
        ),
        case(
            "invalid map type",
            with_field(json!({"type": "object", "x-kubernetes-map-type": "invalid"})),
            vec![format!(
                "{q}.x-kubernetes-map-type: Unsupported value: \"invalid\": supported values: \"atomic\", \"granular\""
            )],
        ),
        case(
            "allowed type with map type extension (granular)",
            with_field(json!({"type": "object", "x-kubernetes-map-type": "granular"})),
            vec![],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinitionValidation` and `TestValidateCustomResourceDefinition`:
/// static checks of `x-kubernetes-validations`.
#[test]
fn validation_rules() {
    let q = f();
    let rules = |rules: Value| with_field(json!({"type": "string", "x-kubernetes-validations": rules}));
    let object_rules = |rules: Value| {
        with_field(json!({"type": "object", "properties": {
            "a": {"type": "string"},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "l": {"type": "array", "items": {"type": "string"}}
        }, "x-kubernetes-validations": rules}))
    };
    let xv = format!("{q}.x-kubernetes-validations");
    run(vec![
        case(
            "valid x-kubernetes-validations for scalar element",
            rules(json!([{"rule": "self.size() < 10", "message": "too long"}])),
            vec![],
        ),
        case(
            "rule is empty or not specified",
            rules(json!([{"rule": ""}, {"rule": " \t"}, {"message": "m"}])),
            vec![
                format!("{xv}[0].rule: Required value: rule is not specified"),
                format!("{xv}[1].rule: Required value: rule is not specified"),
                format!("{xv}[2].rule: Required value: rule is not specified"),
            ],
        ),
        case(
            "multiline rule with message",
            rules(json!([{"rule": "self.size() > 0 &&\nself.size() < 10", "message": "size"}])),
            vec![],
        ),
        case(
            "multiline rule without message",
            rules(json!([{"rule": "self.size() > 0 &&\r\nself.size() < 10"}])),
            vec![format!(
                "{xv}[0].message: Required value: message must be specified if rule contains line breaks"
            )],
        ),
        case(
            "invalid and required messages",
            rules(json!([
                {"rule": "true", "message": " "},
                {"rule": "true", "message": "a\nb"},
                {"rule": "true\n", "message": "\n"},
                {"rule": "true", "messageExpression": "  "},
                {"rule": "true", "messageExpression": "'ok'"}
            ])),
            vec![
                format!("{xv}[0].message: Invalid value: \" \": must be non-empty if specified"),
                format!("{xv}[1].message: Invalid value: \"a\\nb\": must not contain line breaks"),
                format!("{xv}[2].message: Invalid value: \"\\n\": must be non-empty if specified"),
                format!("{xv}[3].messageExpression: Required value: messageExpression must be non-empty if specified"),
            ],
        ),
        case(
            "x-kubernetes-validations should have valid reason",
            rules(json!([
                {"rule": "true", "reason": "FieldValueBogus"},
                {"rule": "true", "reason": "FieldValueForbidden"},
                {"rule": "true", "reason": ""}
            ])),
            vec![
                format!(
                    "{xv}[0].reason: Unsupported value: \"FieldValueBogus\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                ),
                format!(
                    "{xv}[2].reason: Unsupported value: \"\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                ),
            ],
        ),
        case(
            "x-kubernetes-validations have invalid fieldPath",
            object_rules(json!([
                {"rule": "true", "fieldPath": ".a"},
                {"rule": "true", "fieldPath": ".b"},
                {"rule": "true", "fieldPath": " "},
                {"rule": "true", "fieldPath": ".a\n"},
                {"rule": "true", "fieldPath": ".m['x.y']"},
                {"rule": "true", "fieldPath": "a"},
                {"rule": "true", "fieldPath": ".l[0]"},
                {"rule": "true", "fieldPath": ".l"},
                {"rule": "true", "fieldPath": ".m.k"},
                {"rule": "true", "fieldPath": ".m['x\\q']"}
            ])),
            vec![
                format!("{xv}[1].fieldPath: Invalid value: \".b\": must be a valid path"),
                format!("{xv}[2].fieldPath: Invalid value: \" \": must be non-empty if specified"),
                format!("{xv}[2].fieldPath: Invalid value: \" \": must be a valid path"),
                format!("{xv}[3].fieldPath: Invalid value: \".a\\n\": must not contain line breaks"),
                format!("{xv}[3].fieldPath: Invalid value: \".a\\n\": must be a valid path"),
                format!("{xv}[5].fieldPath: Invalid value: \"a\": must be a valid path"),
                format!("{xv}[6].fieldPath: Invalid value: \".l[0]\": must be a valid path"),
                format!("{xv}[9].fieldPath: Invalid value: \".m['x\\\\q']\": must be a valid path"),
            ],
        ),
        case(
            "x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not",
            with_field(json!({"type": "string",
                "oneOf": [{"x-kubernetes-validations": [{"rule": "true"}]}],
                "anyOf": [{"x-kubernetes-validations": [{"rule": "true"}]}],
                "allOf": [{"x-kubernetes-validations": [{"rule": "true"}]}],
                "not": {"x-kubernetes-validations": [{"rule": "true"}]}
            })),
            vec![
                format!("{q}.allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"),
                format!("{q}.anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"),
                format!("{q}.not.x-kubernetes-validations: Forbidden: must be empty to be structural"),
                format!("{q}.oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"),
            ],
        ),
    ]);
}

/// `TestValidateCustomResourceDefinition` and `TestValidateCustomResourceDefinitionValidation`:
/// keyword-level checks (§1.3).
#[test]
fn schema_keywords() {
    let q = f();
    run(vec![
        case(
            "additionalProperties and properties forbidden",
            with_field(
                json!({"type": "object", "properties": {"bar": {"type": "object"}}, "additionalProperties": false}),
            ),
            vec![format!(
                "{q}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
            )],
        ),
        case(
            "additionalProperties schema and properties forbidden",
            with_field(
                json!({"type": "object", "properties": {"bar": {"type": "object"}}, "additionalProperties": {"type": "string"}}),
            ),
            vec![format!(
                "{q}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
            )],
        ),
        case(
            "additionalProperties: true with properties passes",
            with_field(
                json!({"type": "object", "properties": {"bar": {"type": "object"}}, "additionalProperties": true}),
            ),
            vec![],
        ),
        case(
            "additionalProperties without properties allowed (map[string]string)",
            with_field(json!({"type": "object", "additionalProperties": {"type": "string"}})),
            vec![],
        ),
        case(
            "uniqueItems",
            with_field(json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})),
            vec![format!(
                "{q}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"
            )],
        ),
        case(
            "x-kubernetes-preserve-unknown-field: false",
            with_field(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": false})),
            vec![format!(
                "{q}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"
            )],
        ),
        case(
            "id",
            with_field(json!({"type": "object", "id": "x"})),
            vec![format!("{q}.id: Forbidden: id is not supported")],
        ),
        case(
            "$ref",
            with_field(json!({"type": "object", "$ref": "#/definitions/x"})),
            vec![format!("{q}.$ref: Forbidden: $ref is not supported")],
        ),
        case(
            "empty $ref",
            with_field(json!({"type": "object", "$ref": ""})),
            vec![format!("{q}.$ref: Forbidden: $ref is not supported")],
        ),
        case(
            "patternProperties",
            with_field(json!({"type": "object", "patternProperties": {"^a": {"type": "bogus"}}})),
            vec![format!(
                "{q}.patternProperties: Forbidden: patternProperties is not supported"
            )],
        ),
        case(
            "definitions are walked",
            with_field(json!({"type": "object", "definitions": {"d": {"type": "bogus"}}})),
            vec![
                format!("{q}.definitions: Forbidden: definitions is not supported"),
                format!("{q}.definitions[d].type: Unsupported value: \"bogus\": {TYPES}"),
            ],
        ),
        case(
            "dependencies",
            with_field(json!({"type": "object", "dependencies": {"a": ["b"], "c": {"type": "bogus"}}})),
            vec![
                format!("{q}.dependencies: Forbidden: dependencies is not supported"),
                format!("{q}.dependencies[c].type: Unsupported value: \"bogus\": {TYPES}"),
            ],
        ),
        case(
            "additionalItems",
            with_field(json!({"type": "array", "items": {"type": "string"}, "additionalItems": false})),
            vec![format!(
                "{q}.additionalItems: Forbidden: additionalItems is not supported"
            )],
        ),
        case(
            "items as an array",
            with_field(json!({"type": "array", "items": [{"type": "string"}]})),
            vec![format!(
                "{q}.items: Forbidden: items must be a schema object and not an array"
            )],
        ),
        case(
            // Go reads `items: []` as neither a schema nor a non-empty array.
            "items as an empty array",
            with_field(json!({"type": "array", "items": []})),
            vec![format!("{q}.items: Required value: must be specified")],
        ),
        case(
            "items as an empty array in a map list",
            with_field(
                json!({"type": "array", "items": [], "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]}),
            ),
            vec![
                format!("{q}.items: Required value: must be specified"),
                format!(
                    "{q}.items: Invalid value: {{\"Schema\":null,\"JSONSchemas\":[]}}: must only have a single schema if x-kubernetes-list-type is map"
                ),
            ],
        ),
        case(
            // Not checked by the schema walk: only the conversion error remains, and it is
            // shown because nothing else is reported.
            "$schema: conversion error shown alone",
            with_schema(json!({"type": "object", "$schema": "http://json-schema.org/draft-04/schema#"})),
            vec![format!(
                "{P}: Invalid value: \"\": OpenAPIV3Schema 'schema' is not supported"
            )],
        ),
        case(
            "conversion error hidden by schema errors",
            with_schema(json!({"type": "object", "$schema": "x", "properties": {"a": {"type": "object", "id": "y"}}})),
            vec![format!("{P}.properties[a].id: Forbidden: id is not supported")],
        ),
        case(
            "top-level metadata and kind defaults",
            with_schema(json!({"type": "object", "properties": {
                "metadata": {"type": "object", "default": {"name": "foo"}},
                "kind": {"type": "string", "default": "Foo"},
                "spec": {"type": "object", "default": {}}
            }})),
            // (`json!` objects are sorted, so the document lists `kind` first.)
            vec![
                format!("{P}.properties[kind].default: Forbidden: must not be set in top-level kind"),
                format!("{P}.properties[metadata].default: Forbidden: must not be set in top-level metadata"),
            ],
        ),
        case(
            "embedded metadata defaults allowed, not inside additionalProperties",
            with_field(
                json!({"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "metadata": {"type": "object", "default": {"name": "foo"}, "properties": {
                        "labels": {"type": "object", "additionalProperties": {"type": "string", "default": "x"}}
                    }}
                }}),
            ),
            vec![format!(
                "{q}.properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata"
            )],
        ),
        case(
            "x-kubernetes-embedded-resource inside resource meta",
            with_field(
                json!({"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "metadata": {"type": "object", "properties": {
                        "foo": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
                    }}
                }}),
            ),
            vec![format!(
                "{q}.properties[metadata].properties[foo].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta"
            )],
        ),
    ]);
}

/// `pkg/apiserver/schema/validation_test.go` and the structural cases of
/// `TestValidateCustomResourceDefinition`: the structural invariants (§1.2).
#[test]
fn structural_invariants() {
    let q = f();
    let structural = |detail: &str, path: &str| format!("{path}: Forbidden: {detail}");
    let meta = format!(
        "{P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
    );
    run(vec![
        case(
            "array without items",
            with_field(json!({"type": "array"})),
            vec![format!("{q}.items: Required value: must be specified")],
        ),
        case(
            "additionalProperties at resource root",
            with_schema(json!({"type": "object", "additionalProperties": {"type": "string"}})),
            vec![format!(
                "{P}.additionalProperties: Forbidden: must not be used at the root"
            )],
        ),
        case(
            "empty type of array items",
            with_field(json!({"type": "array", "items": {}})),
            vec![format!(
                "{q}.items.type: Required value: must not be empty for specified array items"
            )],
        ),
        case(
            "embedded resource without type",
            with_field(json!({"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true})),
            vec![format!(
                "{q}.type: Required value: must be object if x-kubernetes-embedded-resource is true"
            )],
        ),
        case(
            "embedded resource of type string",
            with_field(
                json!({"type": "string", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}),
            ),
            vec![format!(
                "{q}.type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true"
            )],
        ),
        case(
            "x-kubernetes-embedded-resource with pruning and empty properties",
            with_field(json!({"type": "object", "x-kubernetes-embedded-resource": true})),
            vec![format!(
                "{q}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"
            )],
        ),
        case(
            "embedded resource with additionalProperties",
            with_field(
                json!({"type": "object", "x-kubernetes-embedded-resource": true, "additionalProperties": {"type": "string"}}),
            ),
            vec![
                format!(
                    "{q}.additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"
                ),
                format!(
                    "{q}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"
                ),
            ],
        ),
        case(
            "contradicting meta field types at the root",
            with_schema(json!({"type": "object", "properties": {
                "kind": {"type": "integer"}, "apiVersion": {"type": "integer"}, "metadata": {"type": "string"}
            }})),
            vec![
                format!("{P}.properties[apiVersion].type: Invalid value: \"integer\": must be string"),
                format!("{P}.properties[kind].type: Invalid value: \"integer\": must be string"),
                format!("{P}.properties[metadata].type: Invalid value: \"string\": must be object"),
            ],
        ),
        case(
            "contradicting meta field types in an embedded resource",
            with_field(
                json!({"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "kind": {"type": "integer"}, "apiVersion": {"type": "string"}, "metadata": {"type": "string", "x-kubernetes-preserve-unknown-fields": true}
                }}),
            ),
            vec![
                format!("{q}.properties[kind].type: Invalid value: \"integer\": must be string"),
                format!("{q}.properties[metadata].type: Invalid value: \"string\": must be object"),
            ],
        ),
        case(
            "meta field types are free outside resources",
            with_field(
                json!({"type": "object", "properties": {"kind": {"type": "integer"}, "metadata": {"type": "string"}}}),
            ),
            vec![],
        ),
        case(
            "metadata with name and generateName of any schema",
            with_schema(
                json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
                    "name": {"type": "string", "maxLength": 10, "pattern": "^a"}, "generateName": {"type": "string"}
                }}}}),
            ),
            vec![],
        ),
        case(
            "metadata with labels",
            with_schema(
                json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
                    "name": {"type": "string"}, "labels": {"type": "object"}
                }}}}),
            ),
            vec![meta.clone()],
        ),
        case(
            "metadata with a description",
            with_schema(json!({"type": "object", "properties": {"metadata": {"type": "object", "description": "d"}}})),
            vec![meta.clone()],
        ),
        case(
            "metadata with a rule",
            with_schema(
                json!({"type": "object", "properties": {"metadata": {"type": "object", "x-kubernetes-validations": [{"rule": "true"}]}}}),
            ),
            vec![meta.clone()],
        ),
        case(
            "int-or-string with preserve-unknown-fields and embedded-resource",
            with_field(
                json!({"x-kubernetes-int-or-string": true, "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}),
            ),
            vec![
                format!("{q}.type: Required value: must be object if x-kubernetes-embedded-resource is true"),
                format!(
                    "{q}.x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true"
                ),
                format!(
                    "{q}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"
                ),
            ],
        ),
        case(
            "int-or-string without type",
            with_field(json!({"x-kubernetes-int-or-string": true})),
            vec![],
        ),
        case(
            "int-or-string with the anyOf pattern",
            with_field(
                json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}], "pattern": "^[0-9]+$"}),
            ),
            vec![],
        ),
        case(
            // validation.go applies the exemption to any node, not only int-or-string ones.
            "anyOf pattern exempt without int-or-string",
            with_field(json!({"type": "string", "anyOf": [{"type": "integer"}, {"type": "string"}]})),
            vec![],
        ),
        case(
            "int-or-string with the allOf[0].anyOf pattern",
            with_field(
                json!({"x-kubernetes-int-or-string": true, "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"maxLength": 3}]}),
            ),
            vec![],
        ),
        case(
            "int-or-string pattern in allOf[1] is not exempt",
            with_field(
                json!({"x-kubernetes-int-or-string": true, "allOf": [{"maxLength": 3}, {"anyOf": [{"type": "integer"}, {"type": "string"}]}]}),
            ),
            vec![
                structural("must be empty to be structural", &format!("{q}.allOf[1].anyOf[0].type")),
                structural("must be empty to be structural", &format!("{q}.allOf[1].anyOf[1].type")),
            ],
        ),
        case(
            "anyOf with a third type",
            with_field(
                json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "boolean"}]}),
            ),
            vec![
                structural("must be empty to be structural", &format!("{q}.anyOf[0].type")),
                structural("must be empty to be structural", &format!("{q}.anyOf[1].type")),
                structural("must be empty to be structural", &format!("{q}.anyOf[2].type")),
            ],
        ),
        case(
            "anyOf pattern in the other order",
            with_field(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "string"}, {"type": "integer"}]})),
            vec![
                structural("must be empty to be structural", &format!("{q}.anyOf[0].type")),
                structural("must be empty to be structural", &format!("{q}.anyOf[1].type")),
            ],
        ),
        case(
            "forbidden generics in junctors",
            with_field(json!({"type": "object", "allOf": [{
                "title": "t", "description": "d", "nullable": true, "default": "x",
                "additionalProperties": {"type": "string"}, "externalDocs": {"url": "u"}, "example": 1
            }]})),
            vec![
                structural(
                    "must be undefined to be structural",
                    &format!("{q}.allOf[0].additionalProperties"),
                ),
                structural("must be undefined to be structural", &format!("{q}.allOf[0].default")),
                structural("must be empty to be structural", &format!("{q}.allOf[0].description")),
                structural("must be false to be structural", &format!("{q}.allOf[0].nullable")),
                structural("must be empty to be structural", &format!("{q}.allOf[0].title")),
            ],
        ),
        case(
            "forbidden extensions in junctors",
            with_field(json!({"type": "object", "anyOf": [{
                "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true, "x-kubernetes-int-or-string": true
            }]})),
            vec![
                structural(
                    "must be false to be structural",
                    &format!("{q}.anyOf[0].x-kubernetes-embedded-resource"),
                ),
                structural(
                    "must be false to be structural",
                    &format!("{q}.anyOf[0].x-kubernetes-int-or-string"),
                ),
                structural(
                    "must be false to be structural",
                    &format!("{q}.anyOf[0].x-kubernetes-preserve-unknown-fields"),
                ),
            ],
        ),
        case(
            "forbidden list and map extensions in junctors",
            with_field(json!({"type": "object", "oneOf": [{
                "x-kubernetes-list-type": "atomic", "x-kubernetes-map-type": "atomic", "x-kubernetes-list-map-keys": ["a"]
            }]})),
            vec![
                structural(
                    "must be empty to be structural",
                    &format!("{q}.oneOf[0].x-kubernetes-list-map-keys"),
                ),
                structural(
                    "must be undefined to be structural",
                    &format!("{q}.oneOf[0].x-kubernetes-list-type"),
                ),
                structural(
                    "must be undefined to be structural",
                    &format!("{q}.oneOf[0].x-kubernetes-map-type"),
                ),
                format!("{q}.oneOf[0].type: Required value: must be object if x-kubernetes-map-type is specified"),
                format!("{q}.oneOf[0].type: Required value: must be array if x-kubernetes-list-type is specified"),
                format!(
                    "{q}.oneOf[0].x-kubernetes-list-type: Invalid value: \"atomic\": must be map if x-kubernetes-list-map-keys is non-empty"
                ),
            ],
        ),
        case(
            "types in not and oneOf",
            with_field(json!({"type": "string", "oneOf": [{"type": "string"}], "not": {"type": "integer"}})),
            vec![
                structural("must be empty to be structural", &format!("{q}.not.type")),
                structural("must be empty to be structural", &format!("{q}.oneOf[0].type")),
            ],
        ),
        case(
            "nested junctor branches are checked too",
            with_field(
                json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}},
                "allOf": [{"properties": {"a": {"items": {"type": "string", "anyOf": [{"title": "t"}]}}}}]}),
            ),
            vec![
                structural(
                    "must be empty to be structural",
                    &format!("{q}.allOf[0].properties[a].items.anyOf[0].title"),
                ),
                structural(
                    "must be empty to be structural",
                    &format!("{q}.allOf[0].properties[a].items.type"),
                ),
            ],
        ),
        case(
            "metadata in a nested context",
            with_field(
                json!({"type": "object", "properties": {"metadata": {"type": "object"}}, "anyOf": [{"properties": {"metadata": {"required": ["name"]}}}]}),
            ),
            vec![format!(
                "{q}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context"
            )],
        ),
        case(
            "invalid patterns (Go RE2 syntax)",
            with_field(json!({"type": "object", "properties": {
                "a": {"type": "string", "pattern": "a**"},
                "b": {"type": "string", "pattern": "\\u0041"},
                "c": {"type": "string", "pattern": "\\Q+\\E\\z[[:word:]]\\pL\\p{Greek}(?i)x"}
            }, "allOf": [{"pattern": "("}]})),
            vec![
                format!(
                    "{q}.allOf[0].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`"
                ),
                format!(
                    "{q}.properties[a].pattern: Invalid value: \"a**\": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: `**`"
                ),
                format!(
                    "{q}.properties[b].pattern: Invalid value: \"\\\\u0041\": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: `\\u`"
                ),
            ],
        ),
    ]);
}

/// `TestValidateStructuralCompleteness` (with the options CRDs use) and the seed's
/// non-structural examples.
#[test]
fn completeness() {
    let missing =
        |spine: &str, junctor: &str| format!("{P}{spine}: Required value: because it is defined in {P}{junctor}");
    run(vec![
        case(
            "allowed property in valuevalidation, and in structure",
            with_schema(
                json!({"type": "object", "properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"foo": {"minLength": 2}}}]}),
            ),
            vec![],
        ),
        case(
            "disallowed property in valuevalidation, and in structure",
            with_schema(
                json!({"type": "object", "properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"notfoo": {"minLength": 2}}}]}),
            ),
            vec![missing(".properties[notfoo]", ".allOf[0].properties[notfoo]")],
        ),
        case(
            "disallowed properties valuevalidation, additional properties structure",
            with_schema(
                json!({"type": "object", "additionalProperties": {"type": "object", "properties": {"bar": {"type": "string"}}},
                "allOf": [{"properties": {"foo": {"minLength": 2}}}]}),
            ),
            vec![
                format!("{P}.additionalProperties: Forbidden: must not be used at the root"),
                missing(".properties[foo]", ".allOf[0].properties[foo]"),
            ],
        ),
        case(
            "nested properties and items",
            with_schema(json!({"type": "object", "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string"}}},
                "l": {"type": "array", "items": {"type": "string"}},
                "s": {"type": "string"}
            }, "anyOf": [{"properties": {"a": {"properties": {"c": {}}}}}, {"required": ["a"]}],
               "oneOf": [{"properties": {"l": {"items": {"minLength": 1}}}}],
               "not": {"properties": {"s": {"items": {}}}}})),
            vec![
                missing(".properties[a].properties[c]", ".anyOf[0].properties[a].properties[c]"),
                missing(".properties[s].items", ".not.properties[s].items"),
            ],
        ),
        case(
            "junctors inside junctors",
            with_schema(json!({"type": "object", "properties": {"a": {"type": "string"}},
                "allOf": [{"anyOf": [{"properties": {"b": {}}}], "not": {"properties": {"a": {}}}}]})),
            vec![missing(".properties[b]", ".allOf[0].anyOf[0].properties[b]")],
        ),
        case(
            // complete.go only compares the root's junctors with the spine.
            "junctors of nested nodes are not compared",
            with_field(json!({"type": "object", "anyOf": [{"properties": {"x": {}}}]})),
            vec![],
        ),
    ]);
}

/// Cases that need a model the v1 reader never produces (the top-level and
/// per-version forms together, or all per-version values identical): built from a
/// read CRD, as `TestValidateCustomResourceDefinition` builds internal objects.
#[test]
fn internal_forms() {
    let base_crd = read(&base());
    let object = go_schema(&[("Type", "\"object\"")]);
    // Top-level schema and per-version schema. With a single version, its schema is
    // also "identical in all versions".
    let mut both = base_crd.clone();
    both.spec.versions[0].schema = both.spec.validation.clone();
    let versions = format!(
        r#"[{{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":{{"OpenAPIV3Schema":{object}}},"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}}]"#
    );
    assert_eq!(
        errors_of_crd(&both),
        vec![
            "spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive".to_string(),
            format!(
                "spec.versions: Invalid value: {versions}: per-version schemas may not all be set to identical values (top-level validation should be used instead)"
            ),
        ]
    );

    // Per-version fields identical in all versions.
    let two = read(&crd(|v| {
        let version = json!({
            "name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object"}},
            "subresources": {},
            "additionalPrinterColumns": [{"name": "Alpha", "type": "string", "jsonPath": ".spec.alpha"}]
        });
        let mut v2 = version.clone();
        v2["name"] = json!("v2");
        v2["storage"] = json!(false);
        v["spec"]["versions"] = json!([version, v2]);
    }));
    let mut identical = two.clone();
    for v in &mut identical.spec.versions {
        v.schema = two.spec.validation.clone();
        v.subresources = two.spec.subresources.clone();
        v.additional_printer_columns = two.spec.additional_printer_columns.clone();
    }
    identical.spec.validation = None;
    identical.spec.subresources = None;
    identical.spec.additional_printer_columns.clear();
    let version = |name: &str, storage: bool| {
        format!(
            r#"{{"Name":"{name}","Served":true,"Storage":{storage},"Deprecated":false,"DeprecationWarning":null,"Schema":{{"OpenAPIV3Schema":{object}}},"Subresources":{{"Status":null,"Scale":null}},"AdditionalPrinterColumns":[{{"Name":"Alpha","Type":"string","Format":"","Description":"","Priority":0,"JSONPath":".spec.alpha"}}],"SelectableFields":null}}"#
        )
    };
    let versions = format!("[{},{}]", version("v1", true), version("v2", false));
    assert_eq!(
        errors_of_crd(&identical),
        vec![
            format!(
                "spec.versions: Invalid value: {versions}: per-version schemas may not all be set to identical values (top-level validation should be used instead)"
            ),
            format!(
                "spec.versions: Invalid value: {versions}: per-version subresources may not all be set to identical values (top-level subresources should be used instead)"
            ),
            format!(
                "spec.versions: Invalid value: {versions}: per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"
            ),
        ]
    );

    // spec.version not matching the first version.
    let mut mismatched = base_crd.clone();
    mismatched.spec.version = "v2".into();
    assert_eq!(
        errors_of_crd(&mismatched),
        vec![r#"spec.version: Invalid value: "v2": must match the first version in spec.versions"#.to_string()]
    );
}

/// API approval (`validateAPIApproval`, `GetAPIApprovalState`): a CRD of a protected
/// community group needs the `api-approved.kubernetes.io` annotation, a URL with
/// scheme and host or a reason starting with "unapproved".
#[test]
fn api_approval_of_protected_groups() {
    let in_group = |group: &str, annotation: Option<&str>| {
        let group = group.to_string();
        let annotation = annotation.map(str::to_string);
        crd(move |v| {
            v["metadata"]["name"] = format!("foos.{group}").into();
            v["spec"]["group"] = group.into();
            if let Some(a) = annotation {
                v["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": a});
            }
        })
    };
    const MISSING: &str = "metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111";
    let invalid = |v: &str| {
        format!(
            "metadata.annotations[api-approved.kubernetes.io]: Invalid value: {v:?}: protected groups must have approval annotation \"api-approved.kubernetes.io\" with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
        )
    };
    run(vec![
        case("k8s.io, missing", in_group("k8s.io", None), vec![MISSING.into()]),
        case(
            "subdomain of k8s.io, missing",
            in_group("gateway.networking.k8s.io", None),
            vec![MISSING.into()],
        ),
        case(
            "kubernetes.io, empty",
            in_group("kubernetes.io", Some("")),
            vec![MISSING.into()],
        ),
        case(
            "subdomain of kubernetes.io, missing",
            in_group("a.kubernetes.io", None),
            vec![MISSING.into()],
        ),
        case("not protected: x-k8s.io", in_group("cluster.x-k8s.io", None), vec![]),
        case(
            "not protected: k8s.io.example.com",
            in_group("k8s.io.example.com", None),
            vec![],
        ),
        case("not protected: ak8s.io", in_group("ak8s.io", None), vec![]),
        case(
            "approved with a URL",
            in_group("k8s.io", Some("https://github.com/kubernetes/kubernetes/pull/78458")),
            vec![],
        ),
        case("bypassed", in_group("k8s.io", Some("unapproved, experimental")), vec![]),
        case(
            "a path is not a URL",
            in_group("k8s.io", Some("/pull/1")),
            vec![invalid("/pull/1")],
        ),
        case(
            "a reason",
            in_group("k8s.io", Some("approved")),
            vec![invalid("approved")],
        ),
        case(
            "no host",
            in_group("k8s.io", Some("https:///x")),
            vec![invalid("https:///x")],
        ),
    ]);
}

/// A CRD without versions: Go's `field.Error` prints the internal slice as JSON, `[]`
/// for an empty list and `null` when `versions` is absent; `status.storedVersions`
/// starts empty (nil) on create.
#[test]
fn no_versions() {
    const STORED: &str = "status.storedVersions: Invalid value: null: must have at least one stored version";
    let storage = |value: &str| {
        format!("spec.versions: Invalid value: {value}: must have exactly one version marked as storage version")
    };
    run(vec![
        case(
            "empty list",
            crd(|v| v["spec"]["versions"] = json!([])),
            vec![storage("[]"), STORED.into()],
        ),
        case(
            "absent",
            crd(|v| {
                v["spec"].as_object_mut().unwrap().remove("versions");
            }),
            vec![storage("null"), STORED.into()],
        ),
    ]);
}

/// Rules of a new CRD compile in the API server's `NewExpressions` environment, the
/// libraries of its compatibility version (1.36 for 1.37): Kubernetes Lists v1's
/// `includes`, introduced in 1.37, is not there yet; the rest of the Lists library is.
#[test]
fn new_rules_use_the_compatibility_versions_libraries() {
    let errors = |rule: &str| -> Vec<String> {
        let crd = read(&with_schema(json!({
            "type": "object",
            "properties": {"l": {"type": "array", "maxItems": 10, "items": {"type": "integer"}}},
            "x-kubernetes-validations": [{"rule": rule}],
        })));
        crd_codegen::check::check_crd_with(&crd, &crd_codegen::cel::check::compile::AdmissionStages)
            .iter()
            .map(|e| e.to_string())
            .collect()
    };
    assert_eq!(errors("self.l.sum() < 100"), Vec::<String>::new());
    assert_eq!(errors("self.l.sort() == self.l"), Vec::<String>::new());
    assert_eq!(
        errors("self.l.includes(1)"),
        [format!(
            r#"{P}.x-kubernetes-validations[0].rule: Invalid value: {{"Rule":"self.l.includes(1)","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}}: compilation failed: ERROR: <input>:1:16: undeclared reference to 'includes' (in container '')
 | self.l.includes(1)
 | ...............^"#
        )]
    );
}

/// v1beta1 documents get the API server's verdict after conversion to v1: an unset
/// `preserveUnknownFields` is `true` there and refused; per-version schemas that are
/// all identical, or set beside the top-level one, have their own errors.
#[test]
fn v1beta1_documents() {
    let beta = |spec: Value| {
        let mut v = json!({
            "apiVersion": "apiextensions.k8s.io/v1beta1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"}},
        });
        for (k, x) in spec.as_object().unwrap() {
            v["spec"][k] = x.clone();
        }
        let crd = read(&v);
        check_crd(&crd).iter().map(|e| e.to_string()).collect::<Vec<_>>()
    };
    let schema = json!({"openAPIV3Schema": {"type": "object"}});
    assert_eq!(
        beta(json!({"version": "v1", "validation": schema})),
        [
            "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"
        ]
    );
    assert_eq!(
        beta(json!({"version": "v1", "validation": schema, "preserveUnknownFields": false})),
        Vec::<String>::new()
    );
    let two = |s1: &Value, s2: &Value| {
        json!([
            {"name": "v1", "served": true, "storage": true, "schema": s1},
            {"name": "v2", "served": true, "storage": false, "schema": s2},
        ])
    };
    let identical = beta(json!({"versions": two(&schema, &schema), "preserveUnknownFields": false}));
    assert_eq!(identical.len(), 1, "{identical:?}");
    assert!(
        identical[0].starts_with("spec.versions: Invalid value: [{\"Name\":\"v1\""),
        "{identical:?}"
    );
    assert!(
        identical[0].ends_with(
            ": per-version schemas may not all be set to identical values (top-level validation should be used instead)"
        ),
        "{identical:?}"
    );
    // Both forms at once is refused when the document is read.
    let mut both = json!({
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
                 "preserveUnknownFields": false, "validation": schema},
    });
    both["spec"]["versions"] = two(&schema, &schema);
    let mut docs = parse_text(Path::new("both.json"), both.to_string()).unwrap();
    let Err(errors) = read_crd(&mut docs[0]) else {
        panic!("refused")
    };
    assert_eq!(
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["error: both.json:1: spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive"]
    );
}

/// §3.3: a CRD read back with `status.storedVersions` is checked as an update of the
/// stored CRD (`PrepareForUpdate` appends the storage version, then
/// `ValidateCustomResourceDefinitionStoredVersions`), with the API server's messages;
/// the seed's upgrade procedure step by step.
#[test]
fn stored_versions_of_a_crd_with_a_status() {
    let two_versions = |storage: &str, stored: Value| {
        crd(|v| {
            let version = |name: &str| json!({"name": name, "served": true, "storage": name == storage, "schema": {"openAPIV3Schema": {"type": "object"}}});
            v["spec"]["versions"] = json!([version("v1beta1"), version("v1")]);
            v["status"] = json!({"storedVersions": stored, "acceptedNames": {"kind": "Foo", "plural": "foos"}});
        })
    };
    let only_v1 = |stored: Value| crd(|v| v["status"] = json!({"storedVersions": stored}));
    const REMOVED: &str = "missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions";
    run(vec![
        // Step 1: v1 made the storage version; the stored v1beta1 stays listed.
        case("storage moved to v1", two_versions("v1", json!(["v1beta1"])), vec![]),
        // Step 3 before the migration: v1beta1 still a stored version.
        case(
            "v1beta1 dropped from spec.versions too early",
            only_v1(json!(["v1beta1", "v1"])),
            vec![format!(r#"status.storedVersions[0]: Invalid value: "v1beta1": {REMOVED}"#)],
        ),
        // Step 3 after the migration.
        case("v1beta1 removed after the migration", only_v1(json!(["v1"])), vec![]),
        // The storage version is added when the status lacks it.
        case("storage version appended", only_v1(json!([])), vec![]),
        case(
            "a version never defined",
            only_v1(json!(["v0"])),
            vec![
                r#"status.storedVersions[0]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions"#.into(),
            ],
        ),
    ]);
}

/// `caBundle` is a `[]byte`: the API server's JSON decoder refuses a request whose
/// bundle is not base64 (Go's `CorruptInputError`), before any check runs.
#[test]
fn a_ca_bundle_must_be_base64() {
    let with_bundle = |bundle: &str| {
        webhook_crd(json!({
            "clientConfig": {"url": "https://example.com/convert", "caBundle": bundle},
            "conversionReviewVersions": ["v1"]
        }))
    };
    // Valid: padded, with PEM-style line breaks, empty.
    for bundle in ["Cg==", "LS0t\nLS0t\n", ""] {
        assert_eq!(errors(with_bundle(bundle)), Vec::<String>::new(), "{bundle:?}");
    }
    for (bundle, at) in [("not base64!", 3), ("Cg", 0), ("Cg=", 3), ("Cg==Cg==", 4)] {
        let text = serde_json::to_string_pretty(&with_bundle(bundle)).unwrap();
        let mut docs = parse_text(Path::new("case.json"), text).unwrap();
        let Err(diagnostics) = read_crd(&mut docs[0]) else {
            panic!("{bundle:?} was accepted");
        };
        let messages: Vec<String> = diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            messages,
            [format!(
                "spec.conversion.webhook.clientConfig.caBundle: Invalid value: illegal base64 data at input byte {at}"
            )],
            "{bundle:?}"
        );
    }
}
