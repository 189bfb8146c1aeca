//! Compiles the `differential` target's kinds from the corpus, and the
//! `conversion_review` target's multi-version CronTabs (`None` strategy and webhook),
//! into OUT_DIR.

use std::path::PathBuf;

#[allow(dead_code)]
#[path = "src/crds.rs"]
mod crds;

fn main() {
    let shared = match std::env::var_os("CRD_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared")),
    };
    println!("cargo:rerun-if-env-changed=CRD_SHARED");
    let mut builder = crd_codegen::Builder::new();
    for file in crds::DIFFERENTIAL_CRDS {
        builder = builder.crd(shared.join("crds").join(file));
    }
    builder
        .generate_to_out_dir("differential.rs")
        .unwrap_or_else(|e| panic!("generating the differential kinds: {e}"));
    crd_codegen::Builder::new()
        .crd(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/versioned-crontab-crd.yaml"
        ))
        .generate_to_out_dir("conversion.rs")
        .unwrap_or_else(|e| panic!("generating the conversion kinds: {e}"));
    crd_codegen::Builder::new()
        .crd(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/crds/crontab-conversion.yaml"
        ))
        .generate_to_out_dir("webhook_conversion.rs")
        .unwrap_or_else(|e| panic!("generating the webhook conversion kinds: {e}"));
}
