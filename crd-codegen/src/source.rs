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

/// One object of a manifest: where it was read and its value.
#[derive(Clone, Debug)]
pub struct ManifestObject {
    pub file: PathBuf,
    /// The 1-based position of its document in the file.
    pub doc: usize,
    pub value: Value,
}

impl ManifestObject {
    /// `FILE: document N`, for messages.
    pub fn place(&self) -> String {
        format!("{}: document {}", self.file.display(), self.doc)
    }
}

/// apiVersion, kind, namespace and name: what an object is known by.
pub type ObjectKey = (String, String, String, String);

/// apiVersion, kind, namespace (`default` when unset) and name of an object (empty
/// when absent or not strings).
pub fn object_key(v: &Value) -> ObjectKey {
    let text = |pointer: &str| v.pointer(pointer).and_then(Value::as_str).unwrap_or("").to_string();
    let namespace = match text("/metadata/namespace") {
        ns if ns.is_empty() => "default".to_string(),
        ns => ns,
    };
    (text("/apiVersion"), text("/kind"), namespace, text("/metadata/name"))
}

/// The name standard input (`-` on the command line) goes by in messages, as kubectl
/// names it (`-f -`).
pub const STDIN: &str = "STDIN";

/// Whether a path on the command line is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads the objects of the manifest at `path` (`-`: standard input), as `kubectl
/// apply -f` takes them: the items of a `kind: List` document in their order, any
/// other document as one object. YAML is read one document at a time, and each
/// document's objects are handed to `each` before the next is read, so memory holds
/// one document whatever the file's size; the documents before an error have been
/// handed over when it is returned. A `.json` file is one document (at most 3 MiB), and
/// so is standard input when it starts with `{`, as kubectl's decoder tells the two
/// apart.
pub fn read_manifest(path: &Path, each: impl FnMut(ManifestObject)) -> Result<(), Diagnostic> {
    if is_stdin(path) {
        let mut stdin = std::io::stdin().lock();
        // The first buffer is looked at, not consumed: YAML's line numbers stay right.
        let json = std::io::BufRead::fill_buf(&mut stdin)
            .map(|bytes| bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
            .unwrap_or(false);
        return read_manifest_as(Path::new(STDIN), stdin, json, each);
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Diagnostic::fatal(Some(path.to_path_buf()), None, format!("cannot read: {e}")))?;
    read_manifest_from(path, std::io::BufReader::new(file), each)
}

/// [`read_manifest`] of the bytes of `reader`, named `path` in messages (YAML, or one
/// JSON document when the name ends in `.json`).
pub fn read_manifest_from(path: &Path, reader: impl Read, each: impl FnMut(ManifestObject)) -> Result<(), Diagnostic> {
    let json = path.extension().and_then(|e| e.to_str()) == Some("json");
    read_manifest_as(path, reader, json, each)
}

/// [`read_manifest_from`], JSON or YAML as `json` says.
fn read_manifest_as(
    path: &Path,
    reader: impl Read,
    json: bool,
    mut each: impl FnMut(ManifestObject),
) -> Result<(), Diagnostic> {
    let fail = |line: Option<usize>, message: String| Diagnostic::fatal(Some(path.to_path_buf()), line, message);
    let mut hand_over = |index: usize, value: Value| {
        for value in document_objects(value) {
            each(ManifestObject {
                file: path.to_path_buf(),
                doc: index + 1,
                value,
            });
        }
    };
    if json {
        let mut bytes = Vec::new();
        let limit = crate::yaml::MAX_DOCUMENT_SIZE as u64 + 1;
        let mut reader = reader;
        let read = (&mut reader).take(limit).read_to_end(&mut bytes);
        // Beyond the limit the rest is only counted, for the message.
        let rest = read.and_then(|_| std::io::copy(&mut reader, &mut std::io::sink()));
        let rest = rest.map_err(|e| fail(None, format!("cannot read: {e}")))?;
        if rest > 0 {
            let message = format!(
                "document too large: {} bytes, the API server accepts at most {} bytes",
                bytes.len() as u64 + rest,
                crate::yaml::MAX_DOCUMENT_SIZE
            );
            return Err(fail(Some(1), message));
        }
        for doc in parse_text_as(path, utf8(path, bytes)?, true)? {
            hand_over(doc.index, doc.value);
        }
        return Ok(());
    }
    crate::yaml::for_each_document(reader, |index, value, _| {
        if !value.is_null() {
            hand_over(index, value)
        }
    })
    .map_err(|e| match e {
        crate::yaml::StreamError::Yaml(e) => {
            fail(Some(e.line), format!("invalid YAML: {} (column {})", e.message, e.col))
        }
        crate::yaml::StreamError::NotUtf8(at) => fail(None, format!("not UTF-8: invalid byte at offset {at}")),
        crate::yaml::StreamError::Io(e) => fail(None, format!("cannot read: {e}")),
    })
}

/// [`read_manifest`] of each of `paths` in turn, as `kubectl apply -f` takes them;
/// returns the errors: a file that could not be read, `-` named twice (standard input
/// can be read once), and a file without any object (as kubectl's `no objects
/// passed`: nothing would be checked).
pub fn read_each_manifest(paths: &[PathBuf], mut each: impl FnMut(ManifestObject)) -> Vec<Diagnostic> {
    if paths.iter().filter(|p| is_stdin(p)).count() > 1 {
        let message = "standard input can be read only once";
        return vec![Diagnostic::fatal(Some("-".into()), None, message.to_string())];
    }
    let mut errors = Vec::new();
    for path in paths {
        let mut count = 0;
        match read_manifest(path, |o| {
            count += 1;
            each(o)
        }) {
            Err(e) => errors.push(e),
            Ok(()) if count == 0 => {
                let name = if is_stdin(path) { Path::new(STDIN) } else { path };
                errors.push(Diagnostic::fatal(
                    Some(name.into()),
                    None,
                    "no objects in it".to_string(),
                ));
            }
            Ok(()) => {}
        }
    }
    errors
}

/// The objects of one manifest document: a `kind: List`'s items, or the document.
fn document_objects(value: Value) -> Vec<Value> {
    let is_list = value.get("kind").and_then(Value::as_str) == Some("List");
    match value {
        Value::Object(mut map) if is_list && map.get("items").is_some_and(Value::is_array) => match map.remove("items")
        {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        value => vec![value],
    }
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
        // A byte order mark first: kubectl reads such a file as YAML, which skips it.
        let v: Value = serde_json::from_str(text.strip_prefix(crate::yaml::BOM).unwrap_or(&text))
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
