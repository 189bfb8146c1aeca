//! Reading input files: YAML or JSON, one or many documents, files or directories.

use crate::diagnostic::Diagnostic;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file's text, kept so that errors can be traced back to lines.
#[derive(Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    /// The line each document starts on.
    pub doc_lines: Vec<usize>,
}

impl SourceFile {
    pub fn document_line(&self, doc: usize) -> Option<usize> {
        self.doc_lines.get(doc).copied()
    }
}

/// One document of a file.
#[derive(Clone, Debug)]
pub struct Document {
    pub file: Arc<SourceFile>,
    /// 0-based position of the document in its file.
    pub index: usize,
    pub value: Value,
}

/// The files named by `paths`: files as given, directories searched recursively for
/// `*.yaml`, `*.yml` and `*.json` (sorted, so output is stable).
pub fn collect_files<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut files = Vec::new();
    for p in paths {
        let p = p.as_ref();
        let meta = std::fs::metadata(p)
            .map_err(|e| Diagnostic::fatal(Some(p.to_path_buf()), None, format!("cannot read: {e}")))?;
        if meta.is_dir() {
            walk(p, &mut files)?;
        } else {
            files.push(p.to_path_buf());
        }
    }
    Ok(files)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Diagnostic> {
    let read_err =
        |e: std::io::Error| Diagnostic::fatal(Some(dir.to_path_buf()), None, format!("cannot read directory: {e}"));
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_err)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read_err)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json")) {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads and parses one file.
pub fn read_file(path: &Path) -> Result<Vec<Document>, Diagnostic> {
    let fail = |message: String| Diagnostic::fatal(Some(path.to_path_buf()), None, message);
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_FILE_SIZE {
        return Err(fail(format!("file too large: more than {MAX_FILE_SIZE} bytes")));
    }
    parse_bytes(path, read_limited(file, path, size)?)
}

/// The name standard input goes by in messages, as kubectl names it (`-f -`).
pub const STDIN: &str = "STDIN";

/// Reads and parses standard input (`-` for a file on the command line): JSON when it
/// starts with `{`, as kubectl's decoder tells the two apart, else YAML.
pub fn read_stdin() -> Result<Vec<Document>, Diagnostic> {
    let path = Path::new(STDIN);
    let bytes = read_limited(std::io::stdin().lock(), path, 0)?;
    let json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    parse_text_as(path, utf8(path, bytes)?, json)
}

/// Everything `reader` holds, up to [`MAX_FILE_SIZE`] bytes (`size` is the expected
/// size, a hint). What the size did not tell (a pipe, a growing file) is read to one
/// byte past the limit at most.
fn read_limited(reader: impl Read, path: &Path, size: u64) -> Result<Vec<u8>, Diagnostic> {
    let fail = |message: String| Diagnostic::fatal(Some(path.to_path_buf()), None, message);
    let mut bytes = Vec::with_capacity(size as usize + 1);
    reader
        .take(MAX_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(fail(format!("file too large: more than {MAX_FILE_SIZE} bytes")));
    }
    Ok(bytes)
}

/// Parses the bytes of a file named `path` (YAML, or JSON when the name ends in
/// `.json`); they must be UTF-8.
pub fn parse_bytes(path: &Path, bytes: Vec<u8>) -> Result<Vec<Document>, Diagnostic> {
    parse_text(path, utf8(path, bytes)?)
}

/// The text of a file's bytes, which must be UTF-8.
fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Diagnostic::fatal(
            Some(path.to_path_buf()),
            None,
            format!("not UTF-8: invalid byte at offset {at}"),
        )
    })
}

/// The objects of a manifest's documents, as `kubectl apply -f` takes them: the items
/// of a `kind: List` document in their order, any other document as one object. Each
/// comes with the 0-based index of its document.
pub fn manifest_objects(docs: Vec<Document>) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    for doc in docs {
        let is_list = doc.value.get("kind").and_then(Value::as_str) == Some("List");
        match doc.value {
            Value::Object(mut map) if is_list && map.get("items").is_some_and(Value::is_array) => {
                if let Some(Value::Array(items)) = map.remove("items") {
                    out.extend(items.into_iter().map(|item| (doc.index, item)));
                }
            }
            value => out.push((doc.index, value)),
        }
    }
    out
}

/// The largest file read: documents are at most 3 MiB each (the API server's
/// request limit), and a file of many is bounded too, so memory stays bounded.
pub const MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;

/// Parses the text of a file (YAML, or JSON when the name ends in `.json`).
pub fn parse_text(path: &Path, text: String) -> Result<Vec<Document>, Diagnostic> {
    let is_json = path.extension().and_then(|e| e.to_str()) == Some("json");
    parse_text_as(path, text, is_json)
}

/// [`parse_text`], JSON or YAML as `is_json` says.
fn parse_text_as(path: &Path, text: String, is_json: bool) -> Result<Vec<Document>, Diagnostic> {
    let parsed: Vec<(Value, usize)> = if is_json {
        if text.len() > crate::yaml::MAX_DOCUMENT_SIZE {
            let message = format!(
                "document too large: {} bytes, the API server accepts at most {} bytes",
                text.len(),
                crate::yaml::MAX_DOCUMENT_SIZE
            );
            return Err(Diagnostic::fatal(Some(path.to_path_buf()), Some(1), message));
        }
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| Diagnostic::fatal(Some(path.to_path_buf()), Some(e.line()), format!("invalid JSON: {e}")))?;
        vec![(v, 1)]
    } else {
        crate::yaml::parse_documents_with_start_lines(&text).map_err(|e| {
            Diagnostic::fatal(
                Some(path.to_path_buf()),
                Some(e.line),
                format!("invalid YAML: {} (column {})", e.message, e.col),
            )
        })?
    };
    let file = Arc::new(SourceFile {
        path: path.to_path_buf(),
        text,
        doc_lines: parsed.iter().map(|(_, l)| *l).collect(),
    });
    Ok(parsed
        .into_iter()
        .enumerate()
        .filter(|(_, (v, _))| !v.is_null())
        .map(|(index, (value, _))| Document {
            file: file.clone(),
            index,
            value,
        })
        .collect())
}
