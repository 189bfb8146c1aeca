//! Generated code for small CRDs, one per feature, kept as reviewed snapshots in
//! `tests/snapshots/`. After an intended change to the output, regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p crd-codegen --test snapshots` and review the diff.
//! (The workspace test crate compiles every snapshot with warnings denied.)

use std::path::Path;

fn check_snapshot(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let input = dir.join("fixtures").join(format!("{name}.yaml"));
    let loaded = load(&input);
    compare(
        name,
        &crd_codegen::rust::generate_source(&loaded),
        &dir.join("snapshots").join(format!("{name}.rs")),
    );
}

/// `crdgen generate --derive` output, kept as reviewed snapshots in
/// `tests/snapshots/derive/` (the workspace test crate compiles them and checks that
/// each derives its input back).
fn check_derive_snapshot(name: &str, input: &Path) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let source =
        crd_codegen::rust::derive_source::generate_source(&load(input)).unwrap_or_else(|u| panic!("{name}: {u:?}"));
    compare(name, &source, &dir.join("snapshots/derive").join(format!("{name}.rs")));
}

fn load(input: &Path) -> Vec<crd_codegen::ir::Crd> {
    let name = input.display();
    let loaded = crd_codegen::load::load(&[&input]);
    assert!(
        !loaded.has_errors(),
        "{name}: {}",
        loaded
            .diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    loaded.irs()
}

fn compare(name: &str, actual: &str, snapshot: &Path) {
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(snapshot, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(snapshot)
        .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_SNAPSHOTS=1 to create it", snapshot.display()));
    if actual != expected {
        let first_diff = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or(actual.lines().count().min(expected.lines().count()));
        panic!(
            "{name}: generated code differs from {} at line {}:\n  got:      {:?}\n  expected: {:?}\n\
             Review the change, then run with UPDATE_SNAPSHOTS=1 to accept it.",
            snapshot.display(),
            first_diff + 1,
            actual.lines().nth(first_diff),
            expected.lines().nth(first_diff)
        );
    }
}

macro_rules! snapshots {
    ($($test:ident => $name:literal,)*) => {
        $( #[test] fn $test() { check_snapshot($name); } )*
    };
}

snapshots! {
    maps => "maps",
    int_or_string => "int-or-string",
    preserve_unknown => "preserve-unknown",
    enums => "enum",
    nullable => "nullable",
    embedded_resource => "embedded",
    v1beta1 => "v1beta1",
    multi_version => "multi-version",
    webhook_conversion => "webhook-conversion",
}

fn seed(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/spec/examples")
        .join(file)
}

#[test]
fn derive_seed_crontab() {
    check_derive_snapshot("crontab", &seed("crontab-crd.yaml"));
}

#[test]
fn derive_seed_cel_rules() {
    check_derive_snapshot("cel", &seed("cel-crd.yaml"));
}

#[test]
fn derive_multi_version() {
    check_derive_snapshot(
        "multi-version",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/multi-version.yaml"),
    );
}

#[test]
fn derive_junctors() {
    check_derive_snapshot(
        "junctors",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/junctor-ratchet-crd.yaml"),
    );
}

/// Keywords of another type than their node's, which the API server ignores: written
/// in `ignored(...)`.
#[test]
fn derive_ignored_keywords() {
    check_derive_snapshot(
        "ignored-keywords",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/warning-fixtures/ignored-keywords-crd.yaml"),
    );
}

#[test]
fn derive_root_fields() {
    check_derive_snapshot(
        "root-fields",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/root-fields-crd.yaml"),
    );
}

/// A rule written the same way at nodes of the same kind in two structs is one
/// function and one `RuleInfo`, called at both nodes; a rule with another message is
/// its own `RuleInfo` but shares the function. (What it admits:
/// `tests/differential.rs`, `shared_rules_report_at_every_node`.)
#[test]
fn identical_rules_are_emitted_once() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/shared-rules-crd.yaml");
    let source = crd_codegen::rust::generate_source(&load(&input));
    let count = |needle: &str| source.matches(needle).count();
    // The name's rule and message expression, the port's rule.
    assert_eq!(count("pub fn rule_"), 2, "{source}");
    assert_eq!(count("pub fn message_"), 1, "{source}");
    // The name's rule and both of the port's (their messages differ).
    assert_eq!(count("pub static RULE_"), 3, "{source}");
    // Each is run at both nodes.
    assert_eq!(count("&|| rule_1(&this, prev.as_ref())"), 2, "{source}");
    assert_eq!(count("&|| rule_2(&this, prev.as_ref())"), 2, "{source}");
    assert_eq!(count("Some(&|| message_1(&this, prev.as_ref()))"), 2, "{source}");
}
