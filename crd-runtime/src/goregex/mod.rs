//! Go's regular expressions (`regexp`, RE2 syntax as parsed by `regexp/syntax`),
//! parsed with Go's rules and translated for the `regex` crate.
//!
//! The API server checks OpenAPI `pattern` and runs CEL `matches()`, `find()` and
//! `findAll()` with Go's `regexp.Compile`. The `regex` crate is of the same family
//! (RE2 syntax, leftmost-first, linear time) but accepts a different language and
//! gives some constructs another meaning. So:
//!
//! - `parse` is a port of Go's parser with the `syntax.Perl` flags that
//!   `regexp.Compile` uses (`ClassNL | OneLine | PerlX | UnicodeGroups`): it accepts
//!   exactly what Go accepts, fails with Go's error text
//!   (``error parsing regexp: missing closing ]: `[a` ``), and produces Go's tree
//!   ([`Regexp`]) with the inline flags `(?i)`, `(?m)`, `(?s)`, `(?U)` resolved.
//! - [`translate`] writes that tree as a `regex` crate pattern with the same
//!   matches (see [`to_rust_syntax`] for the rules).
//!
//! What differs between the two languages, and how the translation handles it:
//!
//! | Go | `regex` crate | translation |
//! |---|---|---|
//! | `\d \s \w \b \B` ASCII; `\s` is `[\t\n\f\r ]` | Unicode-aware; `\s` has `\v` | explicit ASCII ranges, `(?-u:\b)` |
//! | `[[:alpha:]]` etc. ASCII | ASCII | explicit ranges |
//! | `(?i)` folds `k`/`K` with U+212A, `s`/`S` with U+017F, also in `\w` and `[[:alpha:]]`; `(?i)\W` excludes them | the same folding when asked | `(?i:...)` exactly where Go folds; negated ASCII groups pre-computed |
//! | `$` is end of text (no final-`\n` rule) | the same | `\z` |
//! | `\Q...\E`, octal `\123`, `\0`, `\x{...}`, `(?)`, `(?P<1>x)`, duplicate group names | not all accepted | literal runes, unique valid names |
//! | `\pN`, `\p{Greek}`, `\p{Letter}`, `\p{greek}`, `\p{Assigned}` | other name rules | resolved to the table, emitted by its Unicode name |
//! | `x{n,m}` ≤ 1000, nesting ≤ 1000 | own limits | the caller raises them ([`crate::regex::compile`]) |
//!
//! Known differences that remain (they need characters outside what CRDs use):
//! Unicode tables are the `regex` crate's (Unicode 16.0.0) where Go 1.27 has
//! Unicode 17.0.0, so characters assigned in Unicode 17 are not in `\pL` etc. here,
//! and the four scripts new in 17.0 (`Beria_Erfe`, `Sidetic`, `Tai_Yo`,
//! `Tolong_Siki`) match nothing; case folding of Unicode classes and literals is the
//! `regex` crate's simple case folding, which is Go's `unicode.SimpleFold` orbit for
//! the same Unicode version.
//!
//! Matching: both are leftmost-first, so `is_match` and `find` agree. For Go's
//! `FindAll` (CEL `findAll`), which drops an empty match right after the previous
//! match, use [`crate::regex::find_all`].

mod ast;
mod emit;
mod parse;
mod unicode;

pub use ast::{CharClass, ClassPart, ClassSet, MAX_RUNE, Regexp, Set, UnicodeTable};
pub use emit::to_rust_syntax;
pub use parse::parse;

use std::fmt;

/// Go's `*syntax.Error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoRegexpError {
    /// The `ErrorCode` text, e.g. `missing closing ]`.
    pub code: &'static str,
    /// The offending part of the expression.
    pub expr: String,
}

impl fmt::Display for GoRegexpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

impl std::error::Error for GoRegexpError {}

/// Go's `ErrorCode` texts.
pub mod codes {
    pub const ERR_INVALID_CHAR_RANGE: &str = "invalid character class range";
    pub const ERR_INVALID_ESCAPE: &str = "invalid escape sequence";
    pub const ERR_INVALID_NAMED_CAPTURE: &str = "invalid named capture";
    pub const ERR_INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
    pub const ERR_INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
    pub const ERR_INVALID_REPEAT_SIZE: &str = "invalid repeat count";
    pub const ERR_MISSING_BRACKET: &str = "missing closing ]";
    pub const ERR_MISSING_PAREN: &str = "missing closing )";
    pub const ERR_MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
    pub const ERR_TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
    pub const ERR_UNEXPECTED_PAREN: &str = "unexpected )";
    pub const ERR_NESTING_DEPTH: &str = "expression nests too deeply";
    pub const ERR_LARGE: &str = "expression too large";
}

/// `regexp.Compile(expr)`'s syntax check: `Ok` exactly when Go accepts `expr`.
pub fn check(expr: &str) -> Result<(), GoRegexpError> {
    parse(expr).map(|_| ())
}

/// A `regex` crate pattern that matches what the Go pattern `expr` matches, or
/// Go's error for an invalid pattern.
pub fn translate(expr: &str) -> Result<String, GoRegexpError> {
    parse(expr).map(|re| to_rust_syntax(&re))
}
