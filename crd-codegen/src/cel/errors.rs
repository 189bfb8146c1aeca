//! Source text, locations and CEL error lists printed exactly like cel-go.
//!
//! The Kubernetes API server shows CEL compile errors verbatim, in the format of
//! cel-go's `common.Errors.ToDisplayString()`:
//!
//! ```text
//! ERROR: <input>:1:5: invalid argument to has() macro
//!  | has(self)
//!  | ....^
//! ```
//!
//! Lines are 1-based, columns count code points (cel-go works on runes) and are
//! printed 1-based. Only `\n` starts a new line (`\r` is an ordinary character, as in
//! cel-go's line-offset table and ANTLR's lexer).
//!
//! The types here are shared by the parser and later stages (type checker), so that
//! every CEL diagnostic prints the same way.

use std::fmt;
use std::sync::Arc;

/// Name cel-go gives an expression source that is not a file.
pub const INPUT_DESCRIPTION: &str = "<input>";

/// cel-go stores at most this many errors (`Errors.maxErrorsToReport`).
pub const MAX_ERRORS_TO_REPORT: usize = 100;

/// cel-go prints no snippet for lines longer than this many bytes.
const MAX_SNIPPET_LENGTH: usize = 16384;

/// The text of one CEL expression, with a table of line starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    text: String,
    /// Byte offset of the start of every line; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

impl Source {
    /// Wraps an expression text.
    pub fn new(text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { text, line_starts }
    }

    /// The expression text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Number of code points, the unit of cel-go's expression size limit.
    pub fn code_points(&self) -> usize {
        self.text.chars().count()
    }

    /// Line (1-based) and column (0-based, in code points) of a byte offset.
    ///
    /// Offsets past the end are clamped to the end; offsets inside a multi-byte
    /// character count that character as preceding.
    pub fn location(&self, byte_offset: usize) -> Location {
        let offset = byte_offset.min(self.text.len());
        let line_index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line_index];
        let column = self.text.get(start..offset).map_or_else(
            || {
                self.text[start..]
                    .char_indices()
                    .take_while(|(i, _)| start + i < offset)
                    .count()
            },
            |s| s.chars().count(),
        );
        Location {
            line: line_index as i32 + 1,
            column: column as i32,
        }
    }

    /// The text of a 1-based line without its line break, like cel-go's `Snippet`.
    /// An empty source has no lines at all.
    pub fn snippet(&self, line: i32) -> Option<&str> {
        if self.text.is_empty() || line < 1 {
            return None;
        }
        let index = (line - 1) as usize;
        let start = *self.line_starts.get(index)?;
        let end = match self.line_starts.get(index + 1) {
            Some(next) => next - 1,
            None => self.text.len(),
        };
        Some(&self.text[start..end])
    }
}

/// A position as cel-go reports it: 1-based line, 0-based column in code points.
/// [`Location::NONE`] (`-1:-1`) is cel-go's `NoLocation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub line: i32,
    pub column: i32,
}

impl Location {
    /// cel-go's `common.NoLocation`, used for errors about the whole expression.
    pub const NONE: Location = Location { line: -1, column: -1 };

    /// Whether this is a real position.
    pub fn is_known(&self) -> bool {
        self.line >= 1
    }
}

/// One CEL error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelError {
    /// The message without position, e.g. `Syntax error: missing ')' at '<EOF>'`.
    pub message: String,
    /// Where cel-go reports the error.
    pub location: Location,
    /// Byte offset of [`CelError::location`] in the source, when known.
    pub offset: Option<usize>,
    /// Id of the expression node the error is about; 0 for syntax errors (as in cel-go).
    pub expr_id: u32,
}

impl CelError {
    /// An error at a byte offset of `source`.
    pub fn at(source: &Source, offset: usize, expr_id: u32, message: impl Into<String>) -> CelError {
        CelError {
            message: message.into(),
            location: source.location(offset),
            offset: Some(offset),
            expr_id,
        }
    }

    /// An error about the whole expression (`<input>:-1:0:` in cel-go's output).
    pub fn without_location(message: impl Into<String>) -> CelError {
        CelError {
            message: message.into(),
            location: Location::NONE,
            offset: None,
            expr_id: 0,
        }
    }

    /// cel-go's `Error.ToDisplayString`: the header line and, when the position is
    /// known, the source line and a caret line.
    pub fn display(&self, source: &Source) -> String {
        let mut out = format!(
            "ERROR: {}:{}:{}: {}",
            INPUT_DESCRIPTION,
            self.location.line,
            self.location.column + 1,
            self.message
        );
        if let Some(snippet) = source.snippet(self.location.line)
            && snippet.len() <= MAX_SNIPPET_LENGTH
        {
            let snippet = snippet.replace('\t', " ");
            out.push_str("\n | ");
            out.push_str(&snippet);
            out.push_str("\n | ");
            // One dot per preceding code point; cel-go uses full-width characters for
            // code points that take more than one UTF-8 byte so that the caret lines
            // up with wide characters.
            let mut chars = snippet.chars();
            for _ in 0..self.location.column.max(0) {
                match chars.next() {
                    Some(c) if c.len_utf8() > 1 => out.push('\u{ff0e}'),
                    Some(_) => out.push('.'),
                    None => break,
                }
            }
            match chars.next() {
                Some(c) if c.len_utf8() > 1 => out.push('\u{ff3e}'),
                _ => out.push('^'),
            }
        }
        out
    }
}

/// A list of CEL errors about one source, displayed like cel-go's
/// `Errors.ToDisplayString()`: sorted by position (stable), joined by newlines, at
/// most [`MAX_ERRORS_TO_REPORT`] of them followed by a truncation note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelErrors {
    source: Arc<Source>,
    errors: Vec<CelError>,
    /// Errors reported in total, including those not kept.
    reported: usize,
}

impl CelErrors {
    /// An empty list for `source`.
    pub fn new(source: Arc<Source>) -> CelErrors {
        CelErrors {
            source,
            errors: Vec::new(),
            reported: 0,
        }
    }

    /// Adds an error; like cel-go, only the first [`MAX_ERRORS_TO_REPORT`] are kept.
    pub fn push(&mut self, error: CelError) {
        self.reported += 1;
        if self.errors.len() < MAX_ERRORS_TO_REPORT {
            self.errors.push(error);
        }
    }

    /// The kept errors, sorted by position (call [`CelErrors::sort`] after pushing).
    pub fn errors(&self) -> &[CelError] {
        &self.errors
    }

    /// Number of errors reported, including truncated ones.
    pub fn len(&self) -> usize {
        self.reported
    }

    /// Whether no error was reported.
    pub fn is_empty(&self) -> bool {
        self.reported == 0
    }

    /// The source the errors are about.
    pub fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// Stable sort by line, then column, as cel-go does before printing.
    pub fn sort(&mut self) {
        self.errors.sort_by_key(|e| (e.location.line, e.location.column));
    }
}

impl fmt::Display for CelErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut errors: Vec<&CelError> = self.errors.iter().collect();
        errors.sort_by_key(|e| (e.location.line, e.location.column));
        let mut first = true;
        for e in errors {
            if !first {
                f.write_str("\n")?;
            }
            first = false;
            f.write_str(&e.display(&self.source))?;
        }
        if self.reported > MAX_ERRORS_TO_REPORT {
            if !first {
                f.write_str("\n")?;
            }
            write!(f, "{} more errors were truncated", self.reported - MAX_ERRORS_TO_REPORT)?;
        }
        Ok(())
    }
}

impl std::error::Error for CelErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_count_code_points_and_lines() {
        let s = Source::new("ab\n😁x\ty");
        assert_eq!(s.location(0), Location { line: 1, column: 0 });
        assert_eq!(s.location(2), Location { line: 1, column: 2 });
        assert_eq!(s.location(3), Location { line: 2, column: 0 });
        assert_eq!(s.location(7), Location { line: 2, column: 1 });
        assert_eq!(s.location(100), Location { line: 2, column: 4 });
        assert_eq!(s.snippet(1), Some("ab"));
        assert_eq!(s.snippet(2), Some("😁x\ty"));
        assert_eq!(s.snippet(3), None);
        assert_eq!(Source::new("a\n").snippet(2), Some(""));
        assert_eq!(Source::new("").snippet(1), None);
    }

    #[test]
    fn display_matches_cel_go() {
        let src = Arc::new(Source::new("has(self)"));
        let mut errs = CelErrors::new(src.clone());
        errs.push(CelError::at(&src, 4, 2, "invalid argument to has() macro"));
        assert_eq!(
            errs.to_string(),
            "ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^"
        );
        let src = Source::new("   && in.😁");
        let e = CelError::at(&src, "   && in.".len(), 0, "x");
        assert_eq!(
            e.display(&src),
            "ERROR: <input>:1:10: x\n |    && in.😁\n | .........＾"
        );
        let e = CelError::at(&src, src.text().len(), 0, "y");
        assert_eq!(
            e.display(&src),
            "ERROR: <input>:1:11: y\n |    && in.😁\n | .........．^"
        );
        assert_eq!(
            CelError::without_location("max recursion depth exceeded").display(&src),
            "ERROR: <input>:-1:0: max recursion depth exceeded"
        );
    }

    #[test]
    fn errors_are_sorted_and_truncated() {
        let src = Arc::new(Source::new("a b"));
        let mut errs = CelErrors::new(src.clone());
        errs.push(CelError::at(&src, 2, 0, "second"));
        errs.push(CelError::at(&src, 0, 0, "first"));
        errs.push(CelError::without_location("none"));
        let text = errs.to_string();
        let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("ERROR")).collect();
        assert_eq!(
            heads,
            [
                "ERROR: <input>:-1:0: none",
                "ERROR: <input>:1:1: first",
                "ERROR: <input>:1:3: second"
            ]
        );
        let mut many = CelErrors::new(src.clone());
        for _ in 0..103 {
            many.push(CelError::without_location("e"));
        }
        assert_eq!(many.len(), 103);
        assert_eq!(many.errors().len(), 100);
        assert!(many.to_string().ends_with("\n3 more errors were truncated"));
    }
}
