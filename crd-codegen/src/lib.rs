//! CRD compiler.
pub mod builder;
pub mod cel;
pub mod check;
pub mod convert;
pub mod derive;
pub mod diagnostic;
pub mod engine;
pub mod fieldpath;
pub mod ir;
pub mod load;
pub mod lower;
pub mod model;
mod parallel;
pub mod rust;
pub mod select;
pub mod source;
pub mod write;
pub mod yaml;

pub use builder::{Builder, Error};
pub use select::Selection;
