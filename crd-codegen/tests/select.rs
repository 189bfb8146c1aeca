//! Selecting kinds, groups and versions (`Builder::kinds`, `crdgen generate --kind`):
//! only the selected CRDs and versions are generated, and a name that selects nothing
//! is an error naming what exists.

use crd_codegen::Builder;
use std::process::Command;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn generate(builder: Builder) -> String {
    builder.crd(FIXTURES).generate().unwrap_or_else(|e| panic!("{e}")).0
}

/// The root types (`pub struct X {` directly in a version module) in the source.
fn modules(src: &str) -> Vec<&str> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(" {"))
        .collect()
}

#[test]
fn everything_by_default() {
    let src = generate(Builder::new());
    for kind in ["Widget", "ConfigSet", "Rollout", "Pipeline"] {
        assert!(src.contains(&format!("pub struct {kind} {{")), "{kind} missing");
    }
}

#[test]
fn kinds_keep_only_those_kinds() {
    let src = generate(Builder::new().kinds(["Widget", "Rollout"]));
    assert!(src.contains("pub struct Widget {"));
    assert!(src.contains("pub struct Rollout {"));
    assert!(!src.contains("pub struct ConfigSet {"), "ConfigSet was not selected");
    assert_eq!(
        modules(&src),
        ["intstr_example_com", "v1", "versions_example_com", "v1", "v1alpha1"]
    );
}

#[test]
fn groups_keep_only_those_groups() {
    let src = generate(Builder::new().groups(["maps.example.com"]));
    assert_eq!(modules(&src), ["maps_example_com", "v1"]);
    assert!(src.contains("pub struct ConfigSet {"));
}

#[test]
fn versions_keep_only_those_versions() {
    let src = generate(Builder::new().kinds(["Widget"]).versions(["v1alpha1"]));
    assert_eq!(modules(&src), ["versions_example_com", "v1alpha1"]);
}

#[test]
fn a_name_that_selects_nothing_is_an_error_naming_what_exists() {
    let err = Builder::new()
        .crd(FIXTURES)
        .kinds(["Widgit"])
        .generate()
        .expect_err("an unknown kind is an error");
    let message = err.to_string();
    assert!(
        message.starts_with("error: no CustomResourceDefinition read has the kind \"Widgit\" (known: "),
        "{message}"
    );
    assert!(message.contains("Widget"), "{message}");

    let err = Builder::new()
        .crd(FIXTURES)
        .groups(["maps.example.com"])
        .kinds(["Widget"])
        .generate()
        .expect_err("a group and a kind that never meet select nothing");
    assert_eq!(
        err.to_string(),
        "error: no CustomResourceDefinition read has the selected groups, kinds and versions together"
    );
}

#[test]
fn the_cli_selects_with_kind_group_and_api_version() {
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_crdgen"))
            .arg("generate")
            .arg(FIXTURES)
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, src, err) = run(&["--kind", "Widget", "--api-version", "v1"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(modules(&src), ["versions_example_com", "v1"]);
    let (code, src, _) = run(&["--group", "maps.example.com,intstr.example.com"]);
    assert_eq!(code, Some(0));
    assert_eq!(modules(&src), ["intstr_example_com", "v1", "maps_example_com", "v1"]);
    let (code, src, err) = run(&["--kind", "Nope"]);
    assert_eq!(code, Some(2), "unknown kind is bad input");
    assert!(src.is_empty());
    assert!(
        err.contains("error: no CustomResourceDefinition read has the kind \"Nope\""),
        "{err}"
    );
}

/// Two CRDs of one name are both generated, and warned of, only when the selection
/// keeps both: selecting another kind says nothing about them.
#[test]
fn a_crd_defined_twice_is_warned_of_only_when_both_are_selected() {
    let crd = |plural: &str, kind: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.example.com}}\n\
             spec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: {plural}, kind: {kind}}}\n\
             \x20 versions:\n  - name: v1\n    served: true\n    storage: true\n\
             \x20   schema: {{openAPIV3Schema: {{type: object}}}}\n"
        )
    };
    let text = [
        crd("widgets", "Widget"),
        crd("widgets", "Widget"),
        crd("gadgets", "Gadget"),
    ]
    .join("---\n");
    let diagnostics = |kinds: &[&str]| {
        let mut loaded = crd_codegen::load::load_str(&text, "crds.yaml");
        let selection = crd_codegen::Selection {
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
            ..Default::default()
        };
        selection.apply(&mut loaded);
        loaded.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>()
    };
    // The second document starts with its `---`, on line 13 after the first's 12 lines.
    let warning = "warning: crds.yaml:13: CustomResourceDefinition \"widgets.example.com\" is also defined in crds.yaml; both are generated, this one's kinds under numbered names (such as Widget2)";
    assert_eq!(diagnostics(&[]), [warning]);
    assert_eq!(diagnostics(&["Widget"]), [warning]);
    assert_eq!(diagnostics(&["Gadget"]), Vec::<String>::new());
}
