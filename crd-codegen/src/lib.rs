//! The CRD compiler: CRD YAML → CRD model → the API server's CRD checks → IR → Rust,
//! the reference engine (prune, default, validate, CEL over JSON), the derive
//! direction (Rust types → IR) and the `crdgen` CLI (with the `cli` feature:
//! `cargo install --locked crd-codegen --features cli`).
//!
//! The API is what build scripts use ([`Builder`], [`Selection`], [`Error`] and the
//! [`diagnostic`]s it reports) and what the test `#[derive(CustomResource)]` emits
//! calls ([`derive::assert_valid_crd`]). The other modules are public for the CLI,
//! `crd-derive` and the workspace's tests; they are not an API.
//!
//! A build script writes the types to `OUT_DIR` with
//! [`Builder::generate_to_out_dir`]; [`Builder::generate`] returns the source:
//!
//! ```
//! let (source, _warnings) = crd_codegen::Builder::new()
//!     .crd(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/enum.yaml"))
//!     .generate()?;
//! assert!(source.contains("pub mod enums_example_com {"));
//! assert!(source.contains("pub struct Matcher {"));
//! # Ok::<(), crd_codegen::Error>(())
//! ```
#![warn(missing_docs)]
// No panics reachable from input (docs/REFERENCE.md, "Hostile input"): library code returns
// errors. Each justified exception carries `#[allow(..., reason = "...")]`.
#![cfg_attr(
    not(test),
    warn(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

pub mod builder;
pub mod compat;
pub mod derive;
pub mod diagnostic;
pub mod select;

#[doc(hidden)]
pub mod cel;
#[doc(hidden)]
pub mod check;
#[doc(hidden)]
pub mod conventions;
#[doc(hidden)]
pub mod convert;
#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod fieldpath;
#[doc(hidden)]
pub mod ir;
#[doc(hidden)]
pub mod load;
#[doc(hidden)]
pub mod lower;
#[doc(hidden)]
pub mod model;
mod parallel;
#[doc(hidden)]
pub mod rust;
#[doc(hidden)]
pub mod source;
#[doc(hidden)]
pub mod write;
#[doc(hidden)]
pub mod yaml;

pub use builder::{Builder, Error};
pub use select::Selection;
