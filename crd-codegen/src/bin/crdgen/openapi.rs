//! `crdgen openapi`: the schemas the API server publishes for the CRDs' kinds, as one
//! OpenAPI document's models (`crd_runtime::published` does the work).

use crd_codegen::load::load;
use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use crd_runtime::published::{self, OpenApi};
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints the v3 (or, with `v2`, the v2) models of every served version of every CRD
/// under `paths`, or only of `kind` and `version`: `{"components":{"schemas":{…}}}` or
/// `{"definitions":{…}}`, so that the models' `$ref`s to each other resolve.
pub fn run(paths: &[PathBuf], v2: bool, kind: Option<&str>, version: Option<&str>) -> ExitCode {
    let loaded = load(paths);
    let code = super::report(&loaded);
    if loaded.has_errors() {
        return code;
    }
    if loaded.crds.is_empty() {
        eprintln!("error: no CustomResourceDefinition found");
        return ExitCode::from(2);
    }
    let selected: Vec<_> = loaded
        .crds
        .iter()
        .filter(|c| kind.is_none_or(|k| c.ir.names.kind == k))
        .collect();
    if let (Some(kind), true) = (kind, selected.is_empty()) {
        let kinds: Vec<&str> = loaded.crds.iter().map(|c| c.ir.names.kind.as_str()).collect();
        eprintln!(
            "error: no CustomResourceDefinition of kind {kind:?} (kinds: {})",
            kinds.join(", ")
        );
        return ExitCode::from(2);
    }
    let openapi = if v2 { OpenApi::V2 } else { OpenApi::V3 };
    let mut definitions = serde_json::Map::new();
    for c in &selected {
        let file = c.doc.file.path.display();
        // The CRD as generated and derived types' `crd()` return it.
        let crd: CustomResourceDefinition = match serde_json::from_value(crd_codegen::write::crd(&c.ir)) {
            Ok(crd) => crd,
            Err(e) => {
                eprintln!(
                    "error: {file}: {}: cannot read as a CustomResourceDefinition: {e}",
                    c.ir.name
                );
                return ExitCode::from(2);
            }
        };
        let versions = match version {
            None => crd_runtime::versions::served_versions(&crd),
            // Other CRDs may have it; one without it is left out.
            Some(v) if c.ir.version(v).is_some() => vec![v.to_string()],
            Some(_) => continue,
        };
        for v in versions {
            match published::definitions(&crd, &v, openapi) {
                Ok(d) => definitions.extend(d),
                Err(e) => {
                    eprintln!("error: {file}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    if let (Some(version), true) = (version, definitions.is_empty()) {
        let known: Vec<String> = selected
            .iter()
            .map(|c| {
                let names: Vec<&str> = c.ir.versions.iter().map(|v| v.name.as_str()).collect();
                format!("{}: {}", c.ir.name, names.join(", "))
            })
            .collect();
        eprintln!("error: no version {version:?} (versions: {})", known.join("; "));
        return ExitCode::from(2);
    }
    let document = published::document(openapi, definitions);
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    super::write_stdout(&format!("{text}\n"));
    ExitCode::SUCCESS
}
