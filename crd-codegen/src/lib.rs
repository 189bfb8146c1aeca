//! CRD compiler.
pub mod cel;
pub mod model;
pub mod yaml;
pub mod diagnostic;
pub mod fieldpath;
pub mod source;
pub mod convert;
pub mod ir;
pub mod lower;
pub mod check;
pub mod rust;
pub mod load;
pub mod builder;

pub use builder::{Builder, Error};
