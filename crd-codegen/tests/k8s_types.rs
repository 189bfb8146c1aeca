//! `crd-runtime/src/k8s_types.rs` is what the derive makes of the k8s-openapi type
//! mirrors (a reviewed snapshot). After a deliberate change:
//! `UPDATE_SNAPSHOTS=1 cargo test -p crd-codegen --test k8s_types`, then review the diff.

#[test]
fn k8s_type_impls_are_the_derives_output() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crd-runtime/src/k8s_types.rs");
    let source = crd_codegen::derive::k8s_types_source();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &source).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap();
    assert!(
        checked_in == source,
        "{} differs from what the derive generates; review, then run with UPDATE_SNAPSHOTS=1",
        path.display()
    );
}
