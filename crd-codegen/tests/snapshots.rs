//! Generated code for small CRDs, one per feature, kept as reviewed snapshots in
//! `tests/snapshots/`. After an intended change to the output, regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p crd-codegen --test snapshots` and review the diff.
//! (The workspace test crate compiles every snapshot with warnings denied.)

use std::path::Path;

fn check_snapshot(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let input = dir.join("fixtures").join(format!("{name}.yaml"));
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
    let actual = crd_codegen::rust::generate_source(&loaded.irs());
    let snapshot = dir.join("snapshots").join(format!("{name}.rs"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&snapshot)
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
}
