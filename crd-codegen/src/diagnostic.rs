//! Errors and notes about input files: what is wrong, in which file, on which line.

use crate::fieldpath::{FieldPath, Seg};
use crate::source::SourceFile;
use std::fmt;
use std::path::PathBuf;

/// How bad a diagnostic is; decides the CLI's exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something was skipped or assumed; not an error.
    Note,
    /// Probably a mistake, but the API server accepts it.
    Warning,
    /// The input is readable but invalid (exit code 1).
    Error,
    /// The input could not be read or parsed at all (exit code 2).
    Fatal,
}

/// One message about an input file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The file it is about, if any.
    pub file: Option<PathBuf>,
    /// The 1-based line in the file, when known.
    pub line: Option<usize>,
    /// What is wrong, with the schema or value path in it.
    pub message: String,
}

impl Diagnostic {
    /// An input that cannot be read at all.
    pub fn fatal(file: Option<PathBuf>, line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Fatal,
            file,
            line,
            message: message.into(),
        }
    }

    /// Something skipped or assumed; not an error.
    pub fn note(file: Option<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Note,
            file,
            line: None,
            message: message.into(),
        }
    }

    /// An error about the node at `field_path` (API-server notation) of document
    /// `doc` in `file`; the line is looked up in the file.
    pub fn at_path(file: &SourceFile, doc: usize, field_path: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: Some(file.path.clone()),
            line: locate(file, doc, field_path),
            message: message.into(),
        }
    }

    /// An error about a whole document.
    pub fn in_document(file: &SourceFile, doc: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: Some(file.path.clone()),
            line: file.document_line(doc),
            message: message.into(),
        }
    }

    /// An error or worse: the input is invalid.
    pub fn is_error(&self) -> bool {
        self.severity >= Severity::Error
    }
}

impl Diagnostic {
    /// Where and what, without the severity label (for a compiler diagnostic, which
    /// has its own).
    pub fn located_message(&self) -> String {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => format!("{}:{line}: {}", file.display(), self.message),
            (Some(file), None) => format!("{}: {}", file.display(), self.message),
            (None, _) => self.message.clone(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Note => "note: ",
            Severity::Warning => "warning: ",
            Severity::Error | Severity::Fatal => "error: ",
        };
        write!(f, "{label}{}", self.located_message())
    }
}

impl std::error::Error for Diagnostic {}

/// Finds the line of an API-server field path in the original document.
///
/// The API server reports a schema shared by all versions as `spec.validation...`,
/// and v1 documents write it under `spec.versions[0].schema`; the same goes for
/// `subresources`, `additionalPrinterColumns` and `selectableFields`.
fn locate(file: &SourceFile, doc: usize, field_path: &str) -> Option<usize> {
    let tree = crate::yaml::document_lines(&file.text, doc)?;
    let path = FieldPath::parse(field_path);
    let mut segs = path.document_segments();
    if let Some(Seg::Field(first)) = path.segments().first().copied()
        && first == "spec"
        && segs.len() >= 2
    {
        let hoisted = match segs[1].as_str() {
            "validation" => Some("schema"),
            "subresources" => Some("subresources"),
            "additionalPrinterColumns" => Some("additionalPrinterColumns"),
            "selectableFields" => Some("selectableFields"),
            _ => None,
        };
        if let Some(per_version) = hoisted
            && !tree.find(&segs[..2]).1
        {
            segs.splice(1..2, ["versions".to_string(), "0".to_string(), per_version.to_string()]);
        }
    }
    Some(tree.find(&segs).0)
}
