//! YAML in and out. Everything YAML-specific lives here.
//!
//! Reading uses `yaml-rust2`'s event parser and builds `serde_json::Value`s directly.
//! Plain scalars are resolved the way `kubectl` and the API server read YAML
//! (`sigs.k8s.io/yaml`, i.e. go-yaml v2: YAML 1.1 booleans such as `yes`/`off`,
//! `0x`/octal integers, non-string map keys turned into strings), so that a manifest
//! means here what it means to the cluster.
//!
//! Line numbers are not kept on the happy path: [`document_lines`] re-reads a document and
//! walks to a path only when an error needs to name its line.

pub use crd_runtime::yaml::{resolve_plain, to_string};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A YAML syntax error (or a YAML construct that has no JSON equivalent).
#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    pub message: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for YamlError {}

/// Line numbers of a document's nodes, built only when asked for (see [`document_lines`]).
#[derive(Clone, Debug, Default)]
pub struct LineTree {
    pub line: usize,
    pub children: LineChildren,
}

#[derive(Clone, Debug, Default)]
pub enum LineChildren {
    #[default]
    Scalar,
    Map(Vec<(String, LineTree)>),
    Seq(Vec<LineTree>),
}

impl LineTree {
    /// The child at a map key or a sequence index (given as text).
    pub fn child(&self, segment: &str) -> Option<&LineTree> {
        match &self.children {
            LineChildren::Map(entries) => entries.iter().find(|(k, _)| k == segment).map(|(_, t)| t),
            LineChildren::Seq(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            LineChildren::Scalar => None,
        }
    }
}

/// Parses every document of a YAML stream. Empty documents become `Value::Null`.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, YamlError> {
    Ok(parse_documents_with_start_lines(text)?
        .into_iter()
        .map(|(v, _)| v)
        .collect())
}

/// Like [`parse_documents`], with the line each document starts on.
pub fn parse_documents_with_start_lines(text: &str) -> Result<Vec<(Value, usize)>, YamlError> {
    Ok(load(text, false)?.into_iter().map(|(v, t)| (v, t.line)).collect())
}

/// The line tree of document `doc` of `text` (re-reads the text; for error reporting).
pub fn document_lines(text: &str, doc: usize) -> Option<LineTree> {
    load(text, true).ok()?.into_iter().nth(doc).map(|(_, t)| t)
}

impl LineTree {
    /// The line of the node at `path` (map keys and sequence indices as text), and
    /// whether the whole path exists; when it runs out, the deepest ancestor's line.
    pub fn find(&self, path: &[String]) -> (usize, bool) {
        let mut tree = self;
        for seg in path {
            match tree.child(seg) {
                Some(t) => tree = t,
                None => return (tree.line, false),
            }
        }
        (tree.line, true)
    }
}

/// A UTF-8 byte order mark, which some editors write first: go-yaml (what kubectl and
/// the API server read YAML with) skips it, and so do we.
pub(crate) const BOM: char = '\u{feff}';

fn load(text: &str, with_lines: bool) -> Result<Vec<(Value, LineTree)>, YamlError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let offsets = ByteOffsets {
        text,
        ascii: text.is_ascii(),
        ..ByteOffsets::default()
    };
    let mut docs = Vec::new();
    run(Parser::new_from_str(text), offsets, with_lines, &mut |doc, tree| {
        docs.push((doc, tree))
    })?;
    Ok(docs)
}

/// Why a YAML stream could not be read to its end.
#[derive(Debug)]
pub enum StreamError {
    Yaml(YamlError),
    /// The byte at this offset does not continue valid UTF-8.
    NotUtf8(u64),
    Io(std::io::Error),
}

/// Reads the YAML stream of `reader` one document at a time, handing each to `each`
/// with its 0-based position and the line it starts on (empty documents are `null`
/// and counted). Memory holds one document, whatever the stream's length; the
/// documents before an error have been handed over when it is returned.
pub fn for_each_document(
    reader: impl std::io::Read,
    mut each: impl FnMut(usize, Value, usize),
) -> Result<(), StreamError> {
    let chars = Utf8Chars::new(reader);
    let offsets = chars.offsets.clone();
    let mut index = 0;
    let result = run(
        Parser::new(chars),
        StreamOffsets(offsets.clone()),
        false,
        &mut |doc, tree| {
            // A stream cut short by an unreadable byte ends its last document early: that
            // document is not handed over.
            if offsets.borrow().error.is_none() {
                each(index, doc, tree.line);
            }
            index += 1;
        },
    );
    // The reader's error explains a parse error it caused (the stream ended early).
    match offsets.borrow_mut().error.take() {
        Some(e) => Err(e),
        None => result.map_err(StreamError::Yaml),
    }
}

/// Pulls the parser's events into a [`Builder`], handing over each document as it
/// ends. Events are pulled one by one (the parser's own `load` recurses per nesting
/// level), and reading stops at the first error.
fn run<I: Iterator<Item = char>, O: Offsets>(
    mut parser: Parser<I>,
    offsets: O,
    with_lines: bool,
    each: &mut dyn FnMut(Value, LineTree),
) -> Result<(), YamlError> {
    let mut builder = Builder {
        with_lines,
        offsets,
        docs: Vec::new(),
        stack: Vec::new(),
        anchors: HashMap::new(),
        error: None,
        doc_line: 0,
        doc_start: 0,
        too_large: false,
        aliasing: AliasBudget::default(),
    };
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            let m = e.marker();
            YamlError {
                line: m.line(),
                col: m.col() + 1,
                message: e.info().to_string(),
            }
        })?;
        if event == Event::StreamEnd {
            break;
        }
        builder.on_event(event, mark);
        if let Some(err) = builder.error.take() {
            return Err(err);
        }
        for (doc, tree) in builder.docs.drain(..) {
            each(doc, tree);
        }
    }
    Ok(())
}

/// The largest document: the API server's limit on a request body (3 MiB,
/// "Request entity too large").
pub const MAX_DOCUMENT_SIZE: usize = 3 * 1024 * 1024;

/// How deep collections may nest. go-yaml stops at 10,000; values are walked
/// recursively here (and dropped so by `serde_json`), so the limit is lower, still
/// far beyond any real manifest (serde_json's own reader stops JSON at 128).
pub const MAX_DEPTH: usize = 1_000;

/// Collects parser events into values.
struct Builder<O> {
    with_lines: bool,
    offsets: O,
    /// Documents ended and not yet handed over.
    docs: Vec<(Value, LineTree)>,
    stack: Vec<Frame>,
    /// Anchored values of the document, with the number of nodes decoding them visits.
    anchors: HashMap<usize, (Value, LineTree, u64)>,
    error: Option<YamlError>,
    doc_line: usize,
    /// Where the document starts (bytes into the text).
    doc_start: usize,
    /// The document has grown past [`MAX_DOCUMENT_SIZE`]: its values are no longer
    /// built, and its end reports its size.
    too_large: bool,
    aliasing: AliasBudget,
}

/// The byte offset of a parser mark, which counts characters. The marks of the
/// starts and ends of documents, the only ones asked about, move forward.
trait Offsets {
    fn of(&mut self, char_index: usize) -> usize;

    /// For a stream: how many bytes have been read, at most [`READ_AHEAD`] beyond
    /// the parser's position.
    fn read_so_far(&self) -> Option<usize> {
        None
    }
}

/// How far a stream is read ahead of the parser: a block, and the parser's own
/// look-ahead (a simple key is at most 1,024 characters), with room to spare.
const READ_AHEAD: usize = 1024 * 1024;

/// The byte offsets of the marks in a text read whole: one walk through the text
/// serves them all (none for ASCII text).
#[derive(Default)]
struct ByteOffsets<'t> {
    text: &'t str,
    ascii: bool,
    /// How far the walk has come, in characters and in bytes.
    chars: usize,
    bytes: usize,
}

impl Offsets for ByteOffsets<'_> {
    fn of(&mut self, char_index: usize) -> usize {
        if self.ascii {
            return char_index.min(self.text.len());
        }
        if char_index < self.chars {
            (self.chars, self.bytes) = (0, 0);
        }
        let rest = self.text.get(self.bytes..).unwrap_or("");
        for c in rest.chars().take(char_index - self.chars) {
            self.chars += 1;
            self.bytes += c.len_utf8();
        }
        self.bytes
    }
}

/// What [`Utf8Chars`] shares with the [`Builder`] reading its characters: where the
/// characters of more than one byte are (to turn marks into byte offsets) and the
/// error that ended the stream.
#[derive(Default)]
struct StreamState {
    /// For each wide character not yet passed by a mark: its index and the extra
    /// bytes of the wide characters up to it.
    wide: std::collections::VecDeque<(usize, usize)>,
    /// The extra bytes of the wide characters marks have passed.
    passed_extra: usize,
    /// The bytes decoded so far.
    decoded: u64,
    error: Option<StreamError>,
}

/// [`Offsets`] of a streamed text.
struct StreamOffsets(std::rc::Rc<std::cell::RefCell<StreamState>>);

impl Offsets for StreamOffsets {
    fn of(&mut self, char_index: usize) -> usize {
        let mut state = self.0.borrow_mut();
        // Marks asked about move forward: what they have passed (with a margin) is
        // summed up and forgotten, so the queue holds about a document's wide
        // characters.
        let keep_from = char_index.saturating_sub(64 * 1024);
        while let Some(&(at, extra)) = state.wide.front() {
            if at >= keep_from {
                break;
            }
            state.passed_extra = extra;
            state.wide.pop_front();
        }
        let before = state.wide.partition_point(|&(at, _)| at < char_index);
        let extra = match before {
            0 => state.passed_extra,
            n => state.wide[n - 1].1,
        };
        char_index + extra
    }

    fn read_so_far(&self) -> Option<usize> {
        Some(self.0.borrow().decoded as usize)
    }
}

/// The characters of a UTF-8 byte stream, read in blocks. An invalid byte or a read
/// error ends the stream and is kept in [`StreamState::error`].
struct Utf8Chars<R> {
    reader: R,
    /// Bytes read and not yet decoded (an incomplete character at a block's end).
    pending: Vec<u8>,
    /// The decoded block and the position of the next character in it.
    block: String,
    at: usize,
    /// Bytes decoded before `pending`, characters handed out, extra bytes of the wide
    /// ones.
    bytes: u64,
    chars: usize,
    extra: usize,
    done: bool,
    offsets: std::rc::Rc<std::cell::RefCell<StreamState>>,
}

impl<R: std::io::Read> Utf8Chars<R> {
    fn new(reader: R) -> Self {
        Utf8Chars {
            reader,
            pending: Vec::new(),
            block: String::new(),
            at: 0,
            bytes: 0,
            chars: 0,
            extra: 0,
            done: false,
            offsets: Default::default(),
        }
    }

    /// Decodes the next block; false at the end of the stream or at an error.
    fn refill(&mut self) -> bool {
        const BLOCK: usize = 64 * 1024;
        let start = self.pending.len();
        self.pending.resize(start + BLOCK, 0);
        let read = loop {
            match self.reader.read(&mut self.pending[start..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.offsets.borrow_mut().error = Some(StreamError::Io(e));
                    return false;
                }
            }
        };
        self.pending.truncate(start + read);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            // An incomplete character at the end of a block is completed by the next
            // read; anything else (or the end of the stream) is invalid.
            Err(e) if e.error_len().is_none() && read > 0 => e.valid_up_to(),
            Err(e) => {
                self.offsets.borrow_mut().error = Some(StreamError::NotUtf8(self.bytes + e.valid_up_to() as u64));
                e.valid_up_to()
            }
        };
        let rest = self.pending.split_off(valid);
        let decoded = std::mem::replace(&mut self.pending, rest);
        self.bytes += decoded.len() as u64;
        self.offsets.borrow_mut().decoded = self.bytes;
        // Checked above.
        self.block = String::from_utf8(decoded).unwrap_or_default();
        self.at = 0;
        if read == 0 || self.offsets.borrow().error.is_some() {
            self.done = true;
        }
        !self.block.is_empty() || !self.done
    }
}

impl<R: std::io::Read> Iterator for Utf8Chars<R> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        loop {
            if let Some(c) = self.block[self.at..].chars().next() {
                self.at += c.len_utf8();
                if c == BOM && self.chars == 0 && self.extra == 0 {
                    // Skipped (see `BOM`); its bytes come before the first character.
                    self.extra = c.len_utf8();
                    self.offsets.borrow_mut().passed_extra = self.extra;
                    continue;
                }
                if c.len_utf8() > 1 {
                    self.extra += c.len_utf8() - 1;
                    self.offsets.borrow_mut().wide.push_back((self.chars, self.extra));
                }
                self.chars += 1;
                return Some(c);
            }
            if self.done || !self.refill() {
                return None;
            }
        }
    }
}

/// go-yaml's guard against alias bombs ("billion laughs"): the nodes a document's
/// decoding visits, and how many of them it visits again through aliases; a document
/// whose share of aliased nodes exceeds `allowedAliasRatio` is refused (kubectl:
/// "document contains excessive aliasing"). Decoding here copies an anchored value
/// per alias, as go-yaml does, so the same budget bounds time and memory.
#[derive(Default)]
struct AliasBudget {
    decoded: u64,
    aliased: u64,
}

impl AliasBudget {
    /// Counts `n` decoded nodes (aliased ones when `via_alias`); false when the
    /// document has become an alias bomb.
    fn count(&mut self, n: u64, via_alias: bool) -> bool {
        self.decoded += n;
        if via_alias {
            self.aliased += n;
        }
        // go-yaml checks at every node; the aliased share only grows during an
        // expansion and the allowed share only shrinks, so checking after the whole
        // expansion gives the same verdict.
        !(self.aliased > 100 && self.decoded > 1000 && self.aliased as f64 / self.decoded as f64 > self.allowed_ratio())
    }

    /// go-yaml's `allowedAliasRatio`: 99% for up to 400,000 decoded nodes, falling
    /// linearly to 10% at 4,000,000.
    fn allowed_ratio(&self) -> f64 {
        const LOW: u64 = 400_000;
        const HIGH: u64 = 4_000_000;
        match self.decoded {
            n if n <= LOW => 0.99,
            n if n >= HIGH => 0.10,
            n => 0.99 - 0.89 * ((n - LOW) as f64 / (HIGH - LOW) as f64),
        }
    }
}

enum Frame {
    Seq {
        anchor: usize,
        /// `aliasing.decoded` when the collection started.
        decoded_before: u64,
        line: usize,
        items: Vec<Value>,
        lines: Vec<LineTree>,
    },
    Map {
        anchor: usize,
        decoded_before: u64,
        line: usize,
        map: Map<String, Value>,
        lines: Vec<(String, LineTree)>,
        /// The key read, waiting for its value; `merge` marks a `<<` key.
        key: Option<(String, usize, bool)>,
        /// Keys set by `<<` merges, which explicit keys may override.
        merged: Vec<String>,
    },
}

impl<O: Offsets> MarkedEventReceiver for Builder<O> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let line = mark.line();
        // Every node but the stream's and the document's end is one go-yaml decodes.
        let decoded_before = self.aliasing.decoded;
        if matches!(
            ev,
            Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(_)
                | Event::DocumentStart
        ) && !self.aliasing.count(1, false)
        {
            return self.fail(mark, EXCESSIVE_ALIASING.into());
        }
        if matches!(ev, Event::SequenceStart(..) | Event::MappingStart(..)) && self.stack.len() >= MAX_DEPTH {
            return self.fail(mark, format!("exceeded max depth of {MAX_DEPTH}"));
        }
        if !matches!(ev, Event::DocumentStart | Event::DocumentEnd) {
            // A streamed document past the size limit is read to its end, to report
            // its size, without building it: a stream's document may be of any size.
            if self.too_large {
                return;
            }
            if let Some(read) = self.offsets.read_so_far()
                && read.saturating_sub(self.doc_start) > MAX_DOCUMENT_SIZE + READ_AHEAD
            {
                self.too_large = true;
                self.stack.clear();
                self.anchors.clear();
                return;
            }
        }
        match ev {
            Event::DocumentStart => {
                self.doc_line = line;
                self.doc_start = self.offsets.of(mark.index());
                self.aliasing = AliasBudget { decoded: 1, aliased: 0 };
                self.too_large = false;
                // Anchors belong to their document (the parser forgets their names).
                self.anchors.clear();
            }
            Event::DocumentEnd => {
                let size = self.offsets.of(mark.index()) - self.doc_start;
                if size > MAX_DOCUMENT_SIZE {
                    let message = format!(
                        "document too large: {size} bytes, the API server accepts at most {MAX_DOCUMENT_SIZE} bytes"
                    );
                    self.error = Some(YamlError {
                        line: self.doc_line.max(1),
                        col: 1,
                        message,
                    });
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            Event::Alias(id) => {
                let Some(&(_, _, n)) = self.anchors.get(&id) else {
                    return self.fail(mark, "unknown anchor".into());
                };
                // Counted before the value is copied.
                if !self.aliasing.count(n, true) {
                    return self.fail(mark, EXCESSIVE_ALIASING.into());
                }
                let (v, t, _) = self.anchors[&id].clone();
                self.push_value(v, t, mark);
            }
            Event::Scalar(text, style, anchor, tag) => {
                let in_key_position = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
                if in_key_position {
                    let (key, merge) = match resolve_key(&text, style, tag.as_ref()) {
                        Ok(k) => k,
                        Err(msg) => return self.fail(mark, msg),
                    };
                    if let Some(Frame::Map { key: slot, .. }) = self.stack.last_mut() {
                        *slot = Some((key, line, merge));
                    }
                    return;
                }
                let value = match resolve_scalar(&text, style, tag.as_ref()) {
                    Ok(v) => v,
                    Err(msg) => return self.fail(mark, msg),
                };
                let tree = LineTree {
                    line,
                    children: LineChildren::Scalar,
                };
                if anchor > 0 {
                    self.anchors.insert(anchor, (value.clone(), tree.clone(), 1));
                }
                self.push_value(value, tree, mark);
            }
            Event::SequenceStart(anchor, _) => {
                if matches!(self.stack.last(), Some(Frame::Map { key: None, .. })) {
                    return self.fail(mark, "a sequence cannot be a mapping key".into());
                }
                self.stack.push(Frame::Seq {
                    anchor,
                    decoded_before,
                    line,
                    items: Vec::new(),
                    lines: Vec::new(),
                });
            }
            Event::MappingStart(anchor, _) => {
                if matches!(self.stack.last(), Some(Frame::Map { key: None, .. })) {
                    return self.fail(mark, "a mapping cannot be a mapping key".into());
                }
                self.stack.push(Frame::Map {
                    anchor,
                    decoded_before,
                    line,
                    map: Map::new(),
                    lines: Vec::new(),
                    key: None,
                    merged: Vec::new(),
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return self.fail(mark, "unbalanced collection end".into());
                };
                let (anchor, decoded_before, value, tree) = match frame {
                    Frame::Seq {
                        anchor,
                        decoded_before,
                        line,
                        items,
                        lines,
                    } => (
                        anchor,
                        decoded_before,
                        Value::Array(items),
                        LineTree {
                            line,
                            children: LineChildren::Seq(lines),
                        },
                    ),
                    Frame::Map {
                        anchor,
                        decoded_before,
                        line,
                        map,
                        lines,
                        ..
                    } => (
                        anchor,
                        decoded_before,
                        Value::Object(map),
                        LineTree {
                            line,
                            children: LineChildren::Map(lines),
                        },
                    ),
                };
                if anchor > 0 {
                    let nodes = self.aliasing.decoded - decoded_before;
                    self.anchors.insert(anchor, (value.clone(), tree.clone(), nodes));
                }
                self.push_value(value, tree, mark);
            }
        }
    }
}

const EXCESSIVE_ALIASING: &str = "document contains excessive aliasing";

impl<O: Offsets> Builder<O> {
    fn fail(&mut self, mark: Marker, message: String) {
        if self.error.is_none() {
            self.error = Some(YamlError {
                line: mark.line(),
                col: mark.col() + 1,
                message,
            });
        }
    }

    /// Adds a finished node to its parent (or ends a document).
    fn push_value(&mut self, value: Value, tree: LineTree, mark: Marker) {
        let with_lines = self.with_lines;
        match self.stack.last_mut() {
            None => {
                // Without line tracking, the tree only records where the document starts.
                let tree = if with_lines {
                    tree
                } else {
                    LineTree {
                        line: self.doc_line.max(1),
                        children: LineChildren::Scalar,
                    }
                };
                self.docs.push((value, tree));
            }
            Some(Frame::Seq { items, lines, .. }) => {
                items.push(value);
                if with_lines {
                    lines.push(tree);
                }
            }
            Some(Frame::Map {
                map,
                lines,
                key,
                merged,
                ..
            }) => {
                let Some((k, key_line, merge)) = key.take() else {
                    return self.fail(mark, "a collection cannot be a mapping key".into());
                };
                if merge {
                    // `<<: *anchor` or `<<: [*a, *b]`: copy keys not already present.
                    let sources = match value {
                        Value::Object(m) => vec![m],
                        Value::Array(items) => items
                            .into_iter()
                            .filter_map(|v| match v {
                                Value::Object(m) => Some(m),
                                _ => None,
                            })
                            .collect(),
                        _ => return self.fail(mark, "map merge requires a mapping or a list of mappings".into()),
                    };
                    for source in sources {
                        for (mk, mv) in source {
                            if !map.contains_key(&mk) {
                                merged.push(mk.clone());
                                map.insert(mk, mv);
                            }
                        }
                    }
                    return;
                }
                if map.contains_key(&k) && !merged.contains(&k) {
                    let message = format!("mapping key {} already defined", crd_runtime::gofmt::quote(&k));
                    return self.fail(mark, message);
                }
                merged.retain(|m| m != &k);
                if with_lines {
                    lines.push((
                        k.clone(),
                        LineTree {
                            line: key_line,
                            children: tree.children,
                        },
                    ));
                }
                map.insert(k, value);
            }
        }
    }
}

fn tag_name(tag: Option<&Tag>) -> Option<&str> {
    let tag = tag?;
    match tag.handle.as_str() {
        "!!" | "tag:yaml.org,2002:" => Some(tag.suffix.as_str()),
        _ => None,
    }
}

/// Resolves a scalar value as go-yaml v2 does.
fn resolve_scalar(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    match tag_name(tag) {
        Some("str") | Some("binary") => return Ok(Value::String(text.to_string())),
        Some("null") => return Ok(Value::Null),
        Some(t @ ("int" | "float" | "bool")) => {
            return match resolve_plain(text) {
                Value::Number(n) if t != "bool" => Ok(Value::Number(n)),
                Value::Bool(b) if t == "bool" => Ok(Value::Bool(b)),
                _ => Err(format!("cannot decode {} as a !!{t}", crd_runtime::gofmt::quote(text))),
            };
        }
        _ => {}
    }
    if style != TScalarStyle::Plain {
        return Ok(Value::String(text.to_string()));
    }
    match resolve_plain_checked(text) {
        Some(v) => Ok(v),
        None => Err(format!(
            "{} is not representable in JSON (infinity or NaN)",
            crd_runtime::gofmt::quote(text)
        )),
    }
}

/// Resolves a mapping key; non-string keys become strings as `sigs.k8s.io/yaml` makes
/// them (`true`, `1`, ...). The second value tells a `<<` merge key.
#[allow(clippy::unreachable, reason = "the resolver turns scalars into scalars")]
fn resolve_key(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> Result<(String, bool), String> {
    if style == TScalarStyle::Plain && tag.is_none() && text == "<<" {
        return Ok((text.to_string(), true));
    }
    let key = match resolve_scalar(text, style, tag)? {
        Value::String(s) => s,
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if !n.is_i64() && !n.is_u64() => crd_runtime::gofmt::float_v(f),
            _ => n.to_string(),
        },
        _ => unreachable!("scalars resolve to scalars"),
    };
    Ok((key, false))
}

/// `None` for `.inf`/`.nan`, which JSON cannot hold.
fn resolve_plain_checked(text: &str) -> Option<Value> {
    match text {
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf"
        | "-.INF" => None,
        _ => Some(resolve_plain(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_plain_scalars_like_go_yaml_v2() {
        for (text, want) in [
            ("yes", json!(true)),
            ("Off", json!(false)),
            ("~", json!(null)),
            ("42", json!(42)),
            ("-7", json!(-7)),
            ("0x1F", json!(31)),
            ("010", json!(8)),
            ("08", json!(8.0)),
            ("1_000", json!(1000)),
            ("1.5", json!(1.5)),
            ("1e3", json!(1000.0)),
            (".5", json!(0.5)),
            ("=", json!("=")),
            ("1.2.3", json!("1.2.3")),
            ("18446744073709551615", json!(18446744073709551615u64)),
            ("abc", json!("abc")),
        ] {
            assert_eq!(resolve_plain(text), want, "{text}");
        }
    }

    #[test]
    fn reads_documents_quotes_and_keys() {
        let docs = parse_documents("a: 'yes'\nb: yes\n1: one\n---\n---\nx: [1, \"2\"]\n").unwrap();
        assert_eq!(docs.len(), 3);
        assert_eq!(docs[0], json!({"a": "yes", "b": true, "1": "one"}));
        assert_eq!(docs[1], Value::Null);
        assert_eq!(docs[2], json!({"x": [1, "2"]}));
    }

    /// A byte order mark first is skipped, read whole or streamed; lines count as
    /// without it, and one anywhere else is text.
    #[test]
    fn skips_a_leading_byte_order_mark() {
        let plain = "a: é\n---\nb: 2\n";
        let marked = format!("\u{feff}{plain}");
        let whole = parse_documents_with_start_lines(&marked).unwrap();
        assert_eq!(whole, parse_documents_with_start_lines(plain).unwrap());
        let mut streamed = Vec::new();
        for_each_document(marked.as_bytes(), |_, v, line| streamed.push((v, line))).unwrap();
        assert_eq!(streamed, whole);
        assert_eq!(whole[1], (json!({"b": 2}), 2));
        let err = parse_documents("\u{feff}a: 1\n b: [\n").unwrap_err();
        assert_eq!(err.line, parse_documents("a: 1\n b: [\n").unwrap_err().line);
        assert_eq!(parse_documents("a: \u{feff}x").unwrap()[0], json!({"a": "\u{feff}x"}));
    }

    #[test]
    fn anchors_and_merge_keys() {
        let docs = parse_documents("base: &b {p: 1, q: 2}\nd:\n  <<: *b\n  q: 3\n").unwrap();
        assert_eq!(docs[0]["d"], json!({"p": 1, "q": 3}));
    }

    /// Alias bombs are refused (`tests/hostile_input.rs`); each document has its own
    /// budget, and moderate reuse is fine.
    #[test]
    fn aliases_are_budgeted_per_document() {
        let reuse = "base: &b {p: 1}\n".to_string() + &(0..200).map(|i| format!("k{i}: *b\n")).collect::<String>();
        let docs = parse_documents(&format!("{reuse}---\n{reuse}")).unwrap();
        assert_eq!(docs[1]["k199"], json!({"p": 1}));
        // 200 aliases of a 1,000-item list: over 99% of the nodes come through aliases.
        let list = format!("l: &l [{}]\n", vec!["x"; 1000].join(","));
        let many = list + &(0..200).map(|i| format!("k{i}: *l\n")).collect::<String>();
        assert_eq!(
            parse_documents(&many).unwrap_err().message,
            "document contains excessive aliasing"
        );
    }

    #[test]
    fn nesting_is_limited_to_go_yaml_depth() {
        // Block nesting (`- - - x`).
        let block = |n: usize| "- ".repeat(n) + "x";
        parse_documents(&block(MAX_DEPTH)).unwrap();
        let e = parse_documents(&block(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(e.message, "exceeded max depth of 1000");
        assert_eq!((e.line, e.col), (1, 2 * MAX_DEPTH + 1));
        // Flow nesting (`[[[x]]]`): yaml-rust2's scanner stops at 255 levels.
        let flow = |n: usize| "[".repeat(n) + &"]".repeat(n);
        parse_documents(&flow(255)).unwrap();
        assert_eq!(
            parse_documents(&flow(256)).unwrap_err().message,
            "recursion limit exceeded"
        );
    }

    #[test]
    fn yaml_1_1_boolean_keys_become_true_and_false_as_in_kubectl() {
        // go-yaml v2 reads a plain `y` as a boolean and sigs.k8s.io/yaml then turns the
        // key into the string "true": a well-known kubectl surprise we reproduce.
        let docs = parse_documents("y: 1\n'n': 2\n").unwrap();
        assert_eq!(docs[0], json!({"true": 1, "n": 2}));
    }

    #[test]
    fn duplicate_keys_and_syntax_errors_name_the_line() {
        let e = parse_documents("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("already defined"), "{e}");
        let e = parse_documents("a:\n  - b\n c: [\n").unwrap_err();
        assert!(e.line >= 2, "{e}");
    }

    #[test]
    fn finds_lines_by_path() {
        let text = "a: 1\nspec:\n  versions:\n  - name: v1\n    served: true\n";
        let tree = document_lines(text, 0).unwrap();
        let path: Vec<String> = ["spec", "versions", "0", "served"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(tree.find(&path), (5, true));
        let missing: Vec<String> = ["spec", "nope"].iter().map(|s| s.to_string()).collect();
        assert_eq!(tree.find(&missing), (2, false));
        let docs = parse_documents_with_start_lines("a: 1\n---\nb: 2\n").unwrap();
        assert_eq!(docs.iter().map(|d| d.1).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn writes_yaml_that_reads_back() {
        let v = json!({
            "apiVersion": "v1",
            "spec": {"list": [{"a": 1, "b": "yes"}, "x", [1, 2]], "empty": {}, "s": "a: b", "n": "010", "t": ""},
        });
        let text = to_string(&v);
        assert_eq!(parse_documents(&text).unwrap()[0], v, "{text}");
        assert!(text.contains("  list:\n  - a: 1\n    b: \"yes\"\n"), "{text}");
    }
}
