//! Reading the two CRDs: a file, `git:REF:PATH` (read with the `git` binary, so CI
//! can compare with a release tag without checking it out), a text or a value (a
//! derived `Kind::crd()`).
//!
//! Each is read and checked as the loader does ([`crate::load`]), with one
//! difference: a rule whose estimated cost exceeds the API server's limits does not
//! make the CRD unreadable. The new CRD's are `celCost` findings (the API server
//! would refuse the update); the old CRD's are ignored (a cluster accepted it).

use crate::cel::check::compile::AdmissionStages;
use crate::convert::{Read, read_crd};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ir;
use crate::source::{Document, SourceFile};
use crd_runtime::FieldError;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A CRD read for comparison.
pub struct ComparedCrd {
    /// The CRD, lowered as for code generation.
    pub ir: ir::Crd,
    /// `status.storedVersions`, when the CRD was read from a cluster.
    pub stored_versions: Vec<String>,
    /// The errors of its checks about rule costs.
    pub cost_errors: Vec<FieldError>,
    /// Warnings from reading it (unknown fields).
    pub warnings: Vec<Diagnostic>,
}

impl ComparedCrd {
    /// Reads the CRD at `location`: a file, or `git:REF:PATH` (`PATH` from the root of
    /// the repository the current directory is in).
    pub fn read(location: &str) -> Result<ComparedCrd, Vec<Diagnostic>> {
        match location.strip_prefix("git:") {
            Some(spec) => ComparedCrd::from_text(&git_show(location, spec)?, location),
            None => from_documents(
                crate::source::read_file(Path::new(location)).map_err(|d| vec![d])?,
                location,
            ),
        }
    }

    /// Reads the CRD in `text` (YAML or JSON, one CRD among its documents); `name`
    /// stands for the file in messages.
    pub fn from_text(text: &str, name: &str) -> Result<ComparedCrd, Vec<Diagnostic>> {
        let docs = crate::source::parse_text(Path::new(name), text.to_string()).map_err(|d| vec![d])?;
        from_documents(docs, name)
    }

    /// Reads a CRD given as a value, such as a derived kind's `Kind::crd()` serialized.
    pub fn from_value(value: Value, name: &str) -> Result<ComparedCrd, Vec<Diagnostic>> {
        let file = Arc::new(SourceFile {
            path: PathBuf::from(name),
            text: String::new(),
            doc_lines: vec![1],
        });
        from_documents(vec![Document { file, index: 0, value }], name)
    }
}

fn fatal(name: &str, message: String) -> Diagnostic {
    Diagnostic::fatal(Some(PathBuf::from(name)), None, message)
}

/// `git show REF:PATH`.
fn git_show(location: &str, spec: &str) -> Result<String, Vec<Diagnostic>> {
    let Some((reference, path)) = spec.split_once(':').filter(|(r, p)| !r.is_empty() && !p.is_empty()) else {
        return Err(vec![fatal(
            location,
            "expected git:REF:PATH, such as git:v1.2.0:crds/crd.yaml".into(),
        )]);
    };
    let output = std::process::Command::new("git")
        .args(["show", &format!("{reference}:{path}")])
        .output()
        .map_err(|e| vec![fatal(location, format!("cannot run git: {e}"))])?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(vec![fatal(location, format!("git show failed: {}", stderr.trim()))]);
    }
    String::from_utf8(output.stdout).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        vec![fatal(location, format!("not UTF-8: invalid byte at offset {at}"))]
    })
}

fn from_documents(docs: Vec<Document>, name: &str) -> Result<ComparedCrd, Vec<Diagnostic>> {
    let mut found = Vec::new();
    let mut warnings = Vec::new();
    for mut doc in docs {
        match read_crd(&mut doc) {
            Ok(Read::Crd(model, w)) => {
                warnings.extend(w);
                found.push((doc, model));
            }
            Ok(Read::Other(..)) => {}
            Err(errors) => return Err(errors),
        }
    }
    let (doc, model) = match found.len() {
        1 => found.remove(0),
        0 => return Err(vec![fatal(name, "no CustomResourceDefinition found".into())]),
        n => {
            let message = format!("holds {n} CustomResourceDefinitions; compare one at a time");
            return Err(vec![fatal(name, message)]);
        }
    };
    let errors = crate::check::check_crd_with(&model, &AdmissionStages);
    let (cost_errors, invalid): (Vec<FieldError>, Vec<FieldError>) =
        errors.into_iter().partition(crate::check::schema::is_cost_error);
    if !invalid.is_empty() {
        let mut diagnostics = crate::load::invalid_crd(&doc, &model, &invalid);
        for d in &mut diagnostics {
            d.severity = Severity::Fatal;
        }
        return Err(diagnostics);
    }
    Ok(ComparedCrd {
        ir: crate::lower::lower_crd(&model),
        stored_versions: model.stored_versions.clone().unwrap_or_default(),
        cost_errors,
        warnings,
    })
}
