//! `crd-runtime/src/k8s_types.rs` and `crd-runtime/src/k8s_core_v1.rs` are what the
//! derive makes of the k8s-openapi type mirrors (reviewed snapshots). After a
//! deliberate change: `UPDATE_SNAPSHOTS=1 cargo test -p crd-codegen --test k8s_types`,
//! then review the diff.

use std::path::Path;

fn assert_snapshot(file: &str, source: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crd-runtime/src")
        .join(file);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, source).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap();
    assert!(
        checked_in == source,
        "{} differs from what the derive generates; review, then run with UPDATE_SNAPSHOTS=1",
        path.display()
    );
}

#[test]
fn k8s_type_impls_are_the_derives_output() {
    assert_snapshot("k8s_types.rs", &crd_codegen::derive::k8s_types_source());
}

/// The core/v1 types a CRD commonly embeds; the snapshot holds these and every type
/// they reach.
const CORE_V1_ROOTS: &[&str] = &[
    "io.k8s.api.core.v1.PodTemplateSpec",
    "io.k8s.api.core.v1.ObjectReference",
    "io.k8s.api.core.v1.SecretReference",
    "io.k8s.api.core.v1.ServicePort",
];

#[test]
fn core_v1_impls_are_the_derives_output_for_k8s_openapi_schemas() {
    use k8s_openapi::api::core::v1 as core;
    let mut generator = schemars::SchemaGenerator::default();
    generator.subschema_for::<core::PodTemplateSpec>();
    generator.subschema_for::<core::ObjectReference>();
    generator.subschema_for::<core::SecretReference>();
    generator.subschema_for::<core::ServicePort>();
    let definitions = generator.take_definitions(true);
    let source = crd_codegen::derive::k8s_core_v1_source(&definitions, CORE_V1_ROOTS).unwrap();
    assert_snapshot("k8s_core_v1.rs", &source);
}
