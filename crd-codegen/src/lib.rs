//! CRD compiler.
pub mod cel;
