//! Generates Rust for CRD corpus projects (`../shared/crds/<project>`) into OUT_DIR,
//! for the differential tests. A sample of projects by default, to keep CI time in
//! check; `CRD_DIFF_PROJECTS=all` (or a comma-separated list) picks others. Also
//! compiles the variable-free CEL conformance cases (see `build_cel.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Projects compiled by default: a spread of schema features, quick to build.
const DEFAULT_PROJECTS: &[&str] = &[
    "cert-manager",
    "cloudnative-pg",
    "crossplane",
    "fluxcd",
    "gateway-api",
    "keda",
    "knative-serving",
    "prometheus-operator-legacy-v1beta1",
    "velero",
];

/// Projects whose CRDs go through `crdgen generate --derive` and are compiled for the
/// derive round trip by default (`CRD_DERIVE_PROJECTS` picks others, or `all`):
/// CEL-, junctor- and version-heavy ones.
const DERIVE_PROJECTS: &[&str] = &["cert-manager", "fluxcd", "gateway-api"];

#[path = "build_cel.rs"]
mod build_cel;

fn main() {
    println!("cargo:rerun-if-env-changed=CRD_DIFF_PROJECTS");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let corpus = manifest.join("../../shared/crds");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let projects: Vec<String> = match std::env::var("CRD_DIFF_PROJECTS").ok().as_deref() {
        Some("all") => list_projects(&corpus),
        Some(list) if !list.is_empty() => list.split(',').map(|s| s.trim().to_string()).collect(),
        _ => DEFAULT_PROJECTS.iter().map(|s| s.to_string()).collect(),
    };
    let mut index = String::new();
    let mut table = String::from(
        "/// Each compiled project with its generated kinds.\npub const PROJECTS: &[(&str, &[::crd_runtime::schema::Resource])] = &[\n",
    );
    // Beside it, in the same order, each kind's typed round trip (`typed_round_trip`,
    // defined where this file is included): the generated root types, as listed in the
    // generated `RESOURCES`.
    let mut typed = String::from(
        "/// An object read into a generated type and written back.\npub type RoundTrip = fn(&::serde_json::Value) -> Result<::serde_json::Value, String>;\n/// Each compiled project's kinds, as `PROJECTS` lists them, as a [`RoundTrip`].\npub const TYPED: &[&[RoundTrip]] = &[\n",
    );
    if corpus.is_dir() {
        // One module per directory holding CRD files: some projects ship the same CRD
        // twice (gateway-api's standard and experimental channels).
        for p in &projects {
            for dir in crd_dirs(&corpus.join(p)) {
                let rel = dir.strip_prefix(&corpus).unwrap().to_string_lossy().replace('\\', "/");
                let module = rel.replace(['-', '/', '.'], "_");
                let file = format!("{module}.rs");
                crd_codegen::Builder::new()
                    .crd(&dir)
                    .generate_to(&out.join(&file))
                    .unwrap_or_else(|e| panic!("generating {rel}: {e}"));
                writeln!(
                    index,
                    "#[allow(dead_code)]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{file}\")); }}"
                )
                .unwrap();
                writeln!(table, "    ({rel:?}, {module}::RESOURCES),").unwrap();
                let generated = std::fs::read_to_string(out.join(&file)).unwrap();
                let roots = generated
                    .split("::crd_runtime::schema::Resource::of::<")
                    .skip(1)
                    .filter_map(|rest| rest.split_once(">()"))
                    .map(|(path, _)| format!("typed_round_trip::<{module}::{}>", path.trim()));
                writeln!(typed, "    &[{}],", roots.collect::<Vec<_>>().join(", ")).unwrap();
            }
        }
    }
    table.push_str("];\n");
    typed.push_str("];\n");
    index.push_str(&table);
    index.push_str(&typed);
    std::fs::write(out.join("corpus.rs"), index).unwrap();
    build_cel::generate(&manifest.join("../../shared/cel-spec"), &out);
    derived_corpus(&corpus, &out);
}

/// `derived_corpus.rs`: for each CRD file of the derive projects, the source that
/// `crdgen generate --derive` writes for it, compiled, with its kinds' `crd()` and
/// admission; and the files whose CRDs the derive cannot express, with the reasons.
fn derived_corpus(corpus: &Path, out: &Path) {
    use crd_codegen::rust::names::module_name;
    println!("cargo:rerun-if-env-changed=CRD_DERIVE_PROJECTS");
    let projects: Vec<String> = match std::env::var("CRD_DERIVE_PROJECTS").ok().as_deref() {
        Some("all") => list_projects(corpus),
        Some(list) if !list.is_empty() => list.split(',').map(|s| s.trim().to_string()).collect(),
        _ => DERIVE_PROJECTS.iter().map(|s| s.to_string()).collect(),
    };
    let mut index = String::new();
    let mut derived = String::from("pub const DERIVED: &[Derived] = &[\n");
    let mut unsupported = String::from("pub const UNSUPPORTED: &[(&str, &[&str])] = &[\n");
    let dir = out.join("derived");
    std::fs::create_dir_all(&dir).unwrap();
    for p in projects.iter().filter(|_| corpus.is_dir()) {
        for d in crd_dirs(&corpus.join(p)) {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
                .collect();
            files.sort();
            for file in files {
                let rel = file.strip_prefix(corpus).unwrap().to_string_lossy().replace('\\', "/");
                let loaded = crd_codegen::load::load(&[&file]);
                let irs = loaded.irs();
                if loaded.has_errors() || irs.is_empty() {
                    continue;
                }
                let source = match crd_codegen::rust::derive_source::generate_source(&irs) {
                    Ok(source) => source,
                    Err(reasons) => {
                        let reasons: Vec<String> = reasons.iter().map(|r| format!("{:?}", r.to_string())).collect();
                        writeln!(unsupported, "    ({rel:?}, &[{}]),", reasons.join(", ")).unwrap();
                        continue;
                    }
                };
                let module = format!("d_{}", rel.replace(['-', '/', '.'], "_").to_lowercase());
                std::fs::write(dir.join(format!("{module}.rs")), source).unwrap();
                writeln!(
                    index,
                    "#[allow(dead_code)]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/derived/{module}.rs\")); }}"
                )
                .unwrap();
                let mut crds = Vec::new();
                let mut resources = Vec::new();
                for crd in &irs {
                    let group = module_name(&crd.group);
                    let kind = &crd.names.kind;
                    for v in &crd.versions {
                        let version = module_name(&v.name);
                        resources.push(format!(
                            "::crd_runtime::schema::Resource::of::<{module}::{group}::{version}::{kind}>()"
                        ));
                    }
                    crds.push(if crd.versions.len() > 1 {
                        let f = crd_codegen::rust::names::snake_case(kind);
                        format!("{module}::{group}::{f}_crd().expect(\"the versions merge\")")
                    } else {
                        let version = module_name(&crd.versions[0].name);
                        format!("{module}::{group}::{version}::{kind}::crd()")
                    });
                }
                writeln!(
                    derived,
                    "    Derived {{ file: {rel:?}, crds: || vec![{}], resources: &[{}] }},",
                    crds.join(", "),
                    resources.join(", ")
                )
                .unwrap();
            }
        }
    }
    derived.push_str("];\n");
    unsupported.push_str("];\n");
    std::fs::write(out.join("derived_corpus.rs"), format!("{index}{derived}{unsupported}")).unwrap();
}

/// The directories under `dir` (itself included) that directly hold YAML files.
fn crd_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    if entries
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json"))
    {
        out.push(dir.to_path_buf());
    }
    for p in entries.iter().filter(|p| p.is_dir()) {
        out.extend(crd_dirs(p));
    }
    out
}

fn list_projects(corpus: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(corpus)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
