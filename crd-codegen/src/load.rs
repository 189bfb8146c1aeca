//! From paths to checked CRDs: read files, pick out the CRD documents, run the
//! admission checks, lower the valid ones to the IR. The build.rs builder, the
//! `crd_types!` macro and the CLI all go through [`load`].

use crate::convert::{Read, read_crd};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ir;
use crate::model::CustomResourceDefinition;
use crate::source::{Document, collect_files, read_file};
use std::path::{Path, PathBuf};

/// A CRD that passed the checks.
pub struct LoadedCrd {
    pub ir: ir::Crd,
    pub model: CustomResourceDefinition,
    /// Where the CRD was read from (its `value` is `null`: reading took it, and
    /// `model` holds the CRD).
    pub doc: Document,
}

#[derive(Default)]
pub struct Loaded {
    pub crds: Vec<LoadedCrd>,
    /// Errors, warnings and notes, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file read (for `cargo:rerun-if-changed`).
    pub files: Vec<PathBuf>,
    /// The files holding a CustomResourceDefinition document, valid or not.
    pub crd_files: Vec<PathBuf>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The worst severity seen, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.diagnostics.iter().map(|d| d.severity).max()
    }

    pub fn irs(&self) -> Vec<ir::Crd> {
        self.crds.iter().map(|c| c.ir.clone()).collect()
    }

    /// The `paths` (files or directories, as given to [`load`]) under which no
    /// CustomResourceDefinition document was found, leaving out those with a file that
    /// could not be read (its error says enough).
    pub fn paths_without_crds<'p, P: AsRef<Path>>(&self, paths: &'p [P]) -> Vec<&'p Path> {
        let under = |file: &Path, path: &Path| file == path || file.starts_with(path);
        paths
            .iter()
            .map(AsRef::as_ref)
            .filter(|path| !self.crd_files.iter().any(|f| under(f, path)))
            .filter(|path| {
                !self
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Fatal && d.file.as_deref().is_some_and(|f| under(f, path)))
            })
            .collect()
    }
}

/// Loads every CRD under `paths` (files, or directories searched recursively). Files
/// are read, checked and lowered in parallel; the result is in file order.
pub fn load<P: AsRef<Path>>(paths: &[P]) -> Loaded {
    let mut out = Loaded::default();
    let files = match collect_files(paths) {
        Ok(f) => f,
        Err(d) => {
            out.diagnostics.push(d);
            return out;
        }
    };
    let examined = crate::parallel::map(&files, |file| match read_file(file) {
        Ok(docs) => Ok(docs.into_iter().map(examine).collect::<Vec<_>>()),
        Err(d) => Err(d),
    });
    for (file, result) in files.into_iter().zip(examined) {
        out.files.push(file);
        match result {
            Ok(docs) => docs.into_iter().for_each(|e| add(e, &mut out)),
            Err(d) => out.diagnostics.push(d),
        }
    }
    out
}

/// Loads the CRDs in one text (YAML or JSON, one or more documents); `name` stands
/// for the file in messages.
pub fn load_str(text: &str, name: &str) -> Loaded {
    let mut out = Loaded::default();
    match crate::source::parse_text(Path::new(name), text.to_string()) {
        Ok(docs) => load_documents(docs, &mut out),
        Err(d) => out.diagnostics.push(d),
    }
    out
}

/// Loads the CRDs among already-parsed documents.
pub fn load_documents(docs: Vec<Document>, out: &mut Loaded) {
    for doc in docs {
        add(examine(doc), out);
    }
}

/// One document, read, checked and (when valid) lowered.
struct Examined {
    doc: Document,
    outcome: Outcome,
}

enum Outcome {
    Other(String, String),
    Valid(Box<CustomResourceDefinition>, Vec<Diagnostic>, Box<ir::Crd>),
    Invalid(
        Box<CustomResourceDefinition>,
        Vec<Diagnostic>,
        Vec<crd_runtime::FieldError>,
    ),
    Unreadable(Vec<Diagnostic>),
}

fn examine(mut doc: Document) -> Examined {
    let outcome = match read_crd(&mut doc) {
        Ok(Read::Other(api_version, kind)) => Outcome::Other(api_version, kind),
        Ok(Read::Crd(model, mut warnings)) => {
            warnings.extend(ignored_keyword_warnings(&model, &doc));
            let errors = crate::check::check_crd_with(&model, &crate::cel::check::compile::AdmissionStages);
            if errors.is_empty() {
                let ir = Box::new(crate::lower::lower_crd(&model));
                Outcome::Valid(model, warnings, ir)
            } else {
                Outcome::Invalid(model, warnings, errors)
            }
        }
        Err(errors) => Outcome::Unreadable(errors),
    };
    Examined { doc, outcome }
}

/// A warning for each keyword the API server ignores (see [`crate::check::ignored`]).
fn ignored_keyword_warnings(model: &CustomResourceDefinition, doc: &Document) -> Vec<Diagnostic> {
    crate::check::ignored::ignored_keywords(model)
        .into_iter()
        .map(|i| {
            let mut d = Diagnostic::at_path(&doc.file, doc.index, &i.path, i.to_string());
            d.severity = Severity::Warning;
            d
        })
        .collect()
}

/// The warning for `again`, a CRD of the same name as the earlier `first`: only one
/// can exist in a cluster (openshift-api ships variants per feature set); both are
/// generated, the later under numbered type names.
fn defined_twice(first: &LoadedCrd, again: &LoadedCrd) -> Diagnostic {
    let mut d = Diagnostic::in_document(
        &again.doc.file,
        again.doc.index,
        format!(
            "CustomResourceDefinition {:?} is also defined in {}; both are generated, this one's kinds under numbered names (such as {}2)",
            again.model.name,
            first.doc.file.path.display(),
            again.model.spec.names.kind
        ),
    );
    d.severity = Severity::Warning;
    d
}

/// The warnings of [`defined_twice`] for `crds`, in order.
pub(crate) fn defined_twice_warnings(crds: &[LoadedCrd]) -> Vec<Diagnostic> {
    crds.iter()
        .enumerate()
        .filter_map(|(i, crd)| {
            let first = crds.iter().take(i).find(|c| c.model.name == crd.model.name)?;
            Some(defined_twice(first, crd))
        })
        .collect()
}

/// The errors of the CRD `model` read from `doc`, as the API server reports them
/// (`CustomResourceDefinition "x" is invalid: <error>`), each at its line.
pub(crate) fn invalid_crd(
    doc: &Document,
    model: &CustomResourceDefinition,
    errors: &[crd_runtime::FieldError],
) -> Vec<Diagnostic> {
    let name = if model.name.is_empty() {
        "<unnamed>"
    } else {
        &model.name
    };
    errors
        .iter()
        .map(|e| {
            let message = format!("CustomResourceDefinition {name:?} is invalid: {e}");
            Diagnostic::at_path(&doc.file, doc.index, &e.field, message)
        })
        .collect()
}

/// Adds an examined document to `out`, in order (a CRD defined twice is told from the
/// CRDs before it).
fn add(examined: Examined, out: &mut Loaded) {
    let Examined { doc, outcome } = examined;
    if !matches!(outcome, Outcome::Other(..)) && out.crd_files.last() != Some(&doc.file.path) {
        out.crd_files.push(doc.file.path.clone());
    }
    match outcome {
        Outcome::Other(api_version, kind) => {
            let what = if kind.is_empty() {
                "a document without kind".to_string()
            } else {
                format!("{kind} ({api_version})")
            };
            out.diagnostics.push(Diagnostic::note(
                Some(doc.file.path.clone()),
                format!(
                    "document {} is {what}, not a CustomResourceDefinition; skipped",
                    doc.index + 1
                ),
            ));
        }
        Outcome::Valid(model, warnings, ir) => {
            out.diagnostics.extend(warnings);
            let crd = LoadedCrd {
                ir: *ir,
                model: *model,
                doc,
            };
            if let Some(first) = out.crds.iter().find(|c| c.model.name == crd.model.name) {
                out.diagnostics.push(defined_twice(first, &crd));
            }
            out.crds.push(crd);
        }
        Outcome::Invalid(model, warnings, errors) => {
            out.diagnostics.extend(warnings);
            out.diagnostics.extend(invalid_crd(&doc, &model, &errors));
        }
        Outcome::Unreadable(errors) => out.diagnostics.extend(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::parse_text;

    #[test]
    fn a_crd_defined_twice_is_a_warning_naming_both_files() {
        let crd = |plural: &str| {
            format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.example.com}}\n\
                 spec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: {plural}, kind: Widget}}\n\
                 \x20 versions:\n  - name: v1\n    served: true\n    storage: true\n\
                 \x20   schema: {{openAPIV3Schema: {{type: object}}}}\n"
            )
        };
        let mut out = Loaded::default();
        for (file, plural) in [("a.yaml", "widgets"), ("b.yaml", "widgets"), ("c.yaml", "gadgets")] {
            load_documents(parse_text(Path::new(file), crd(plural)).unwrap(), &mut out);
        }
        assert_eq!(out.crds.len(), 3);
        let warnings: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            warnings,
            [
                "warning: b.yaml:1: CustomResourceDefinition \"widgets.example.com\" is also defined in a.yaml; both are generated, this one's kinds under numbered names (such as Widget2)"
            ]
        );
    }
}
