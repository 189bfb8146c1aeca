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
            }
        }
    }
    table.push_str("];\n");
    index.push_str(&table);
    std::fs::write(out.join("corpus.rs"), index).unwrap();
    build_cel::generate(&manifest.join("../../shared/cel-spec"), &out);
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
