//! The build.rs route: CRD YAML -> Rust in OUT_DIR, included by `lib.rs`.

fn main() -> Result<(), crd_codegen::Error> {
    crd_codegen::Builder::new()
        .crd("crds/crontab.yaml")
        .generate_to_out_dir("crontab.rs")?;
    Ok(())
}
