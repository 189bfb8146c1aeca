//! CEL front end: parser (with source positions and macro expansion).

pub mod ast;
pub mod lexer;
pub mod parser;
