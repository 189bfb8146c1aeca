//! CEL front end: parser (with source positions and macro expansion).
//!
//! [`parse`] turns an expression into a [`ParsedExpr`] (AST with cel-go's node ids,
//! source spans and macro-call records) or [`ParseErrors`] whose `Display` is the
//! exact text cel-go (and so the Kubernetes API server) prints.
//!
//! Modules: [`lexer`] (tokens, literal decoding), [`parser`] (grammar, error
//! recovery, limits), [`macros`] (macro expansion), [`ast`] (the tree), [`errors`]
//! (source locations and cel-go's error format), [`unparse`] (AST back to CEL) and
//! [`debug`] (cel-go's debug rendering, for tests).

pub mod ast;
pub mod check;
pub mod debug;
pub mod errors;
pub mod eval;
pub mod lexer;
pub mod macros;
pub mod parser;
pub mod types;
pub mod unparse;

#[cfg(test)]
mod tests;

pub use ast::{Expr, ExprId, ExprKind, Literal, MacroCall, MacroKind, ParsedExpr, Span};
pub use errors::{CelError, CelErrors, Location, Source};
pub use macros::MacroSet;
pub use parser::{ParseError, ParseErrors, ParserOptions, parse, parse_with};
