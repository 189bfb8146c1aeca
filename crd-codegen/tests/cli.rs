//! `crdgen` on bad and good input: clear messages naming file and line, the
//! documented exit codes (0 valid, 1 invalid, 2 unreadable), never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn crdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crdgen")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crdgen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "crdgen panicked:\n{err}");
}

const CRONTAB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/crds/crontab.yaml");

#[test]
fn valid_crd_checks_and_generates() {
    let o = crdgen(&["check", CRONTAB]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = crdgen(&["generate", CRONTAB]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let src = String::from_utf8(o.stdout).unwrap();
    assert!(src.contains("pub struct CronTab {"), "{src}");
    assert!(src.contains("pub mod stable_example_com"), "{src}");
}

#[test]
fn generate_writes_the_output_file() {
    let out = std::env::temp_dir().join(format!("crdgen-out-{}.rs", std::process::id()));
    let o = crdgen(&["generate", CRONTAB, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("pub struct CronTabSpec")
    );
}

#[test]
fn malformed_yaml_is_unreadable_input() {
    let path = write_temp(
        "malformed.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: [CustomResourceDefinition\nspec:\n",
    );
    for cmd in ["check", "generate"] {
        let o = crdgen(&[cmd, path.to_str().unwrap()]);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("malformed.yaml:"), "{err}");
        assert!(err.contains("invalid YAML"), "{err}");
    }
}

#[test]
fn missing_file_is_unreadable_input() {
    let o = crdgen(&["check", "/nonexistent/crd.yaml"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/crd.yaml"), "{}", stderr(&o));
}

const HEADER: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  scope: Namespaced
";

#[test]
fn crd_without_names_is_invalid() {
    let path = write_temp(
        "no-names.yaml",
        &format!(
            "{HEADER}  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n"
        ),
    );
    let o = crdgen(&["check", path.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("no-names.yaml:"), "{err}");
    assert!(err.contains("spec.names.plural: Required value"), "{err}");
    assert!(err.contains("spec.names.kind: Required value"), "{err}");
}

#[test]
fn schema_with_ref_is_invalid_and_names_the_line() {
    let path = write_temp(
        "ref.yaml",
        &format!(
            "{HEADER}  names: {{plural: things, kind: Thing}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            $ref: '#/definitions/Spec'\n"
        ),
    );
    let o = crdgen(&["generate", path.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("ref.yaml:18: ")
            && err.contains("spec.validation.openAPIV3Schema.properties[spec].$ref: Forbidden: $ref is not supported"),
        "{err}"
    );
}

#[test]
fn wrong_field_type_is_invalid() {
    let path = write_temp(
        "types.yaml",
        &format!(
            "{HEADER}  names: {{plural: things, kind: Thing}}\n  versions:\n  - name: v1\n    served: maybe\n    storage: true\n"
        ),
    );
    let o = crdgen(&["check", path.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("types.yaml:11: ") && err.contains("spec.versions[0].served"),
        "{err}"
    );
}

#[test]
fn other_documents_are_skipped_with_a_note() {
    let path = write_temp(
        "mixed.yaml",
        &format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\n---\n{}",
            std::fs::read_to_string(CRONTAB).unwrap()
        ),
    );
    let o = crdgen(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: ") && stderr(&o).contains("ConfigMap (v1)"),
        "{}",
        stderr(&o)
    );
}

/// Nothing checked is not "valid": a file or directory without any CRD is an error
/// naming it (exit 2), also beside others that have CRDs; a file that cannot be read
/// is reported for that alone.
#[test]
fn check_without_a_crd_is_an_error_naming_the_path() {
    let config = write_temp(
        "only-a-configmap.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
    );
    let config = config.to_str().unwrap();
    let o = crdgen(&["check", config]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "note: {config}: document 1 is ConfigMap (v1), not a CustomResourceDefinition; skipped\n\
             error: {config}: no CustomResourceDefinition in it\n"
        )
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");

    let o = crdgen(&["check", CRONTAB, config]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with(&format!("error: {config}: no CustomResourceDefinition in it\n")),
        "{}",
        stderr(&o)
    );

    let empty_dir = std::env::temp_dir().join(format!("crdgen-cli-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty_dir).unwrap();
    let empty_dir = empty_dir.to_str().unwrap();
    let o = crdgen(&["check", empty_dir]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("error: {empty_dir}: no CustomResourceDefinition in it\n")
    );

    let o = crdgen(&["check", "/nonexistent/crds.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("no CustomResourceDefinition"), "{}", stderr(&o));
}

/// `crdgen check` prints what the API server prints for a conversion webhook's
/// service without a namespace, its quirk included: the name and namespace are
/// passed swapped to the check (kubernetes/kubernetes#141353), so the message names
/// `service.name`. (`check_table.rs` has every message of the service check.)
#[test]
fn check_reports_a_webhook_service_without_namespace_as_the_api_server_does() {
    let path = write_temp(
        "webhook-service.yaml",
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: {name: crontab-conversion, path: /convert}
  versions:
    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
    - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
",
    );
    let path = path.to_str().unwrap();
    let o = crdgen(&["check", path]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {path}:9: CustomResourceDefinition \"crontabs.example.com\" is invalid: \
             spec.conversion.webhookClientConfig.service.name: Required value\n"
        )
    );
}

#[test]
fn directories_are_searched() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let o = crdgen(&["check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("9 CustomResourceDefinition(s) in 9 file(s)"));
}

#[test]
fn generate_derive_writes_a_file_or_a_directory() {
    let o = crdgen(&["generate", "--derive", CRONTAB]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let src = String::from_utf8(o.stdout).unwrap();
    assert!(src.contains("CustomResource"), "{src}");
    assert!(src.contains("pub struct CronTabSpec {"), "{src}");
    assert!(
        !src.contains("pub struct CronTab {"),
        "the derive makes the root: {src}"
    );

    let dir = std::env::temp_dir().join(format!("crdgen-derive-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = crdgen(&["generate", "--derive", CRONTAB, "-o", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let module = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
    assert!(module.contains("pub mod stable_example_com;"), "{module}");
    let group = std::fs::read_to_string(dir.join("stable_example_com.rs")).unwrap();
    assert!(
        group.starts_with("// Generated by `crdgen generate --derive`"),
        "{group}"
    );
    assert!(group.contains("//! API group `stable.example.com`."), "{group}");
    assert!(group.contains("pub mod v1 {"), "{group}");
}

/// What `#[derive(CustomResource)]` cannot express yet (here a nullable `spec`): an
/// error naming the CRD, version, path and construct, exit code 1.
#[test]
fn generate_derive_names_what_it_cannot_express() {
    let crd = write_temp(
        "nullable-spec.yaml",
        r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, nullable: true, properties: {a: {type: string}}}
"#,
    );
    let o = crdgen(&["generate", "--derive", crd.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "error: things.example.com: v1 Thing: a nullable `spec` (not expressible with #[derive(CustomResource)])\n"
    );
}

/// A keyword of another type than its node's (a `pattern` on an array): the API server
/// accepts the CRD and ignores the keyword, so `check` warns, naming file, line, path
/// and keyword, and the exit code is what the CRD's errors make it; `generate
/// --derive` writes the keyword in `ignored(...)`.
#[test]
fn check_warns_about_keywords_the_api_server_ignores() {
    let crd = |extra: &str| {
        format!(
            r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: {{kind: Thing, plural: things}}
  scope: Namespaced
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
            properties:
              tags:
                type: array
                pattern: "^a"
                items: {{type: string}}{extra}
"#
        )
    };
    let path = write_temp("ignored-pattern.yaml", &crd(""));
    let file = path.to_str().unwrap();
    let warning = format!(
        "warning: {file}:22: spec.validation.openAPIV3Schema.properties[spec].properties[tags].pattern: \
         the API server ignores pattern on a node of type array (it applies to strings)\n"
    );
    let o = crdgen(&["check", file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), warning);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "1 CustomResourceDefinition(s) in 1 file(s): valid\n"
    );
    let o = crdgen(&["generate", "--derive", file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(r#"#[crd(ignored(pattern = "^a"))]"#),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // An invalid CRD is still invalid (exit 1), with the warning beside its error.
    let path = write_temp(
        "ignored-pattern-invalid.yaml",
        &crd("\n                uniqueItems: true"),
    );
    let o = crdgen(&["check", path.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the API server ignores pattern on a node of type array"),
        "{err}"
    );
    assert!(err.contains("uniqueItems cannot be set to true"), "{err}");
}
