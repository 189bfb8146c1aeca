//! What a build script prints when generation fails. README's build.rs returns
//! `Result<(), crd_codegen::Error>` from `main`, and the standard library prints such
//! an error as `Error: {err:?}`: each message once, naming its file and line, with no
//! empty `Error:` line before it and no `error: ` label after it.

use crd_codegen::Builder;

/// A directory of its own holding `files` (name, text).
fn crds(test: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("crd-build-script-error-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn crd(kind: &str, property_type: &str) -> String {
    let plural = format!("{}s", kind.to_lowercase());
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {{plural: {plural}, kind: {kind}}}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            size: {{type: {property_type}}}
"
    )
}

/// What `fn main() -> Result<(), crd_codegen::Error>` prints for the error.
fn printed_by_main(err: crd_codegen::Error) -> String {
    format!("Error: {err:?}")
}

#[test]
fn one_error_is_printed_once_on_the_error_line() {
    let dir = crds(
        "one",
        &[
            ("good.yaml", &crd("Good", "string")),
            ("zz-bad.yaml", &crd("Bad", "strin")),
        ],
    );
    let err = Builder::new().crd(&dir).generate().expect_err("an invalid CRD");
    let bad = dir.join("zz-bad.yaml").display().to_string();
    assert_eq!(
        printed_by_main(err),
        format!(
            "Error: {bad}:17: CustomResourceDefinition \"bads.example.com\" is invalid: \
             spec.validation.openAPIV3Schema.properties[size].type: Unsupported value: \"strin\": \
             supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
        )
    );
}

#[test]
fn several_errors_are_one_line_each() {
    let dir = crds(
        "several",
        &[("a.yaml", &crd("Apple", "strin")), ("b.yaml", &crd("Berry", "nmber"))],
    );
    let err = Builder::new().crd(&dir).generate().expect_err("invalid CRDs");
    let printed = printed_by_main(err);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2, "{printed}");
    let a = dir.join("a.yaml").display().to_string();
    let b = dir.join("b.yaml").display().to_string();
    assert!(lines[0].starts_with(&format!("Error: {a}:17: ")), "{printed}");
    assert!(lines[1].starts_with(&format!("{b}:17: ")), "{printed}");
    // The Display form is the compiler's: each line labelled.
    let err = Builder::new().crd(&dir).generate().expect_err("invalid CRDs");
    assert!(err.to_string().starts_with(&format!("error: {a}:17: ")), "{err}");
}
