//! Generates the corpus' HTTPRoute v1 (rule-heavy: 57 compiled CEL rules) and the
//! hand-written test CRDs into OUT_DIR, which `lib.rs` includes, and a kind converted
//! by a webhook, which `main.rs` includes with the test CRDs. The same files serve the
//! crates of every edition.

fn main() -> Result<(), crd_codegen::Error> {
    let manifest = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let editions = manifest.join("..");
    crd_codegen::Builder::new()
        .crd(editions.join("../../../shared/crds/gateway-api/standard"))
        .kinds(["HTTPRoute"])
        .versions(["v1"])
        .generate_to_out_dir("gateway.rs")?;
    crd_codegen::Builder::new()
        .crd(editions.join("../fixtures"))
        .generate_to_out_dir("fixtures.rs")?;
    crd_codegen::Builder::new()
        .crd(editions.join("../../crd-codegen/tests/fixtures/webhook-conversion.yaml"))
        .generate_to_out_dir("webhook.rs")?;
    Ok(())
}
