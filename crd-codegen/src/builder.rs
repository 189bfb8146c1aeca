//! The `build.rs` entry point, in the style of `prost-build`: see [`Builder`].

use crate::diagnostic::Diagnostic;
use crate::load::{Loaded, load};
use crate::select::Selection;
use std::fmt;
use std::path::{Path, PathBuf};

/// Generates Rust types from CRD files: what a build script calls (the build.rs route).
///
/// # Usage
///
/// `Cargo.toml`:
///
/// ```toml
/// [dependencies]
/// crd-runtime = "0.1"     # what the generated code calls
///
/// [build-dependencies]
/// crd-codegen = "0.1"
/// ```
///
/// `build.rs`, with the CRD files in `crds/`:
///
/// ```no_run
/// fn main() -> Result<(), crd_codegen::Error> {
///     crd_codegen::Builder::new().crd("crds/").generate_to_out_dir("crds.rs")?;
///     Ok(())
/// }
/// ```
///
/// and in the crate, in `src/lib.rs` or as a module of `src/main.rs`:
///
/// ```ignore
/// mod generated {
///     include!(concat!(env!("OUT_DIR"), "/crds.rs"));
/// }
/// use crd_runtime::prelude::*;
/// use generated::stable_example_com::v1::CronTab;
///
/// let admitted = CronTab::admit_value(object, "default"); // prune, default, validate
/// ```
///
/// # What it reads
///
/// [`crd`](Self::crd) takes files, or directories searched recursively for `*.yaml`,
/// `*.yml` and `*.json` (relative paths are relative to the crate, where build scripts
/// run). A file may hold several documents; documents that are not CRDs are skipped.
/// `apiextensions.k8s.io/v1beta1` CRDs are converted to v1 as the API server converts
/// them. Every CRD is checked as the API server's CRD admission checks it (structural
/// schema, defaults, CEL rules type-checked and costed) before anything is generated.
///
/// # What it writes
///
/// One module per API group and version (`stable.example.com`/`v1` is
/// `stable_example_com::v1`), the root type of each kind named after it with its nested
/// types, and `RESOURCES`, every kind generated. Root types implement
/// `crd_runtime::CustomResource` (`admit_value`, `admit_update_value`, `validate`,
/// `validate_update`, `apply_defaults`) and k8s-openapi's `Resource`, so they are
/// `kube::Resource`s; `Kind::crd()` gives the CRD back. The code names only
/// `::crd_runtime`, compiles without warnings in editions 2018 to 2024 (also in a
/// binary crate, where it uses part of what it generates) and contains no `unsafe`.
///
/// # Errors and reruns
///
/// [`generate_to`](Self::generate_to) prints `cargo:rerun-if-changed` for every input
/// file and directory, so adding a file to a directory reruns the script, and prints
/// warnings (an unknown field in a CRD) as `cargo:warning`. An invalid CRD is an
/// [`Error`] listing every problem with its file and line; returned from the build
/// script's `main`, it prints as `Error: crds/bad.yaml:32: ...`.
///
/// # Only what you use
///
/// Generated code is compiled on every clean build of your crate. [`kinds`](Self::kinds),
/// [`groups`](Self::groups) and [`versions`](Self::versions) keep only those kinds,
/// groups and versions, and what they use; a name that selects nothing is an error
/// listing the names there are:
///
/// ```
/// let (source, _warnings) = crd_codegen::Builder::new()
///     .crd(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
///     .kinds(["Widget"])
///     .versions(["v1"])
///     .generate()?;
/// assert!(source.contains("pub mod versions_example_com {"));
/// assert!(source.contains("pub struct Widget {"));
/// assert!(!source.contains("pub mod v1alpha1 {"));
///
/// let typo = crd_codegen::Builder::new()
///     .crd(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
///     .kinds(["Widgit"])
///     .generate()
///     .unwrap_err();
/// assert!(typo.to_string().contains("no CustomResourceDefinition read has the kind \"Widgit\""));
/// # Ok::<(), crd_codegen::Error>(())
/// ```
///
/// Cargo compiles build dependencies without optimisation: generation then takes
/// about a second for a large project's CRDs (all of gateway-api), which the script
/// spends only when a CRD changes. `[profile.dev.build-override] opt-level = 3`
/// makes generation faster and the clean build much slower (`docs/BENCHMARKS.md`).
///
/// [`derive(true)`](Self::derive) writes editable source instead, with
/// `#[derive(CustomResource)]`, to check in (`crdgen generate --derive`).
#[derive(Clone, Debug, Default)]
pub struct Builder {
    inputs: Vec<PathBuf>,
    selection: Selection,
    derive: bool,
}

impl Builder {
    /// A builder with no inputs and every kind selected.
    pub fn new() -> Self {
        Builder::default()
    }

    /// Adds a CRD file, or a directory searched recursively for `*.yaml`, `*.yml` and
    /// `*.json`. Relative paths are relative to the crate (build scripts run there).
    pub fn crd(mut self, path: impl AsRef<Path>) -> Self {
        self.inputs.push(path.as_ref().to_path_buf());
        self
    }

    /// Generates only these kinds (`.kinds(["HTTPRoute", "GRPCRoute"])`) and the types
    /// they use; by default every kind read. A kind that no CRD has is an error.
    pub fn kinds<S: Into<String>>(mut self, kinds: impl IntoIterator<Item = S>) -> Self {
        self.selection.kinds.extend(kinds.into_iter().map(Into::into));
        self
    }

    /// Generates only the CRDs of these API groups (`.groups(["cert-manager.io"])`).
    pub fn groups<S: Into<String>>(mut self, groups: impl IntoIterator<Item = S>) -> Self {
        self.selection.groups.extend(groups.into_iter().map(Into::into));
        self
    }

    /// Generates only these versions of each CRD (`.versions(["v1"])`).
    pub fn versions<S: Into<String>>(mut self, versions: impl IntoIterator<Item = S>) -> Self {
        self.selection.versions.extend(versions.into_iter().map(Into::into));
        self
    }

    /// Emit editable source that derives the CRDs back (`#[derive(CustomResource)]`
    /// with `#[crd(...)]` attributes, as `crdgen generate --derive` writes it) instead
    /// of generated code: for a one-shot conversion whose output is checked in.
    pub fn derive(mut self, derive: bool) -> Self {
        self.derive = derive;
        self
    }

    /// Generates the Rust source. Notes and warnings are returned with it.
    pub fn generate(&self) -> Result<(String, Vec<Diagnostic>), Error> {
        let loaded = self.load()?;
        let source = self.source(&loaded)?;
        Ok((source, loaded.diagnostics))
    }

    fn source(&self, loaded: &Loaded) -> Result<String, Error> {
        if !self.derive {
            return Ok(crate::rust::generate_source(&loaded.irs()));
        }
        crate::rust::derive_source::generate_source(&loaded.irs()).map_err(|unsupported| Error {
            diagnostics: unsupported
                .iter()
                .map(|u| Diagnostic::fatal(None, None, u.to_string()))
                .collect(),
        })
    }

    /// Writes the source to `$OUT_DIR/<file_name>` and tells Cargo to rerun the build
    /// script when any input changes. Returns the path written.
    pub fn generate_to_out_dir(&self, file_name: &str) -> Result<PathBuf, Error> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| Error {
            diagnostics: vec![Diagnostic::fatal(
                None,
                None,
                "OUT_DIR is not set; call this from a build script",
            )],
        })?;
        let path = Path::new(&out_dir).join(file_name);
        self.generate_to(&path)?;
        Ok(path)
    }

    /// Writes the source to `path`, printing `cargo:rerun-if-changed` for every input.
    pub fn generate_to(&self, path: &Path) -> Result<(), Error> {
        for input in &self.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        let loaded = self.load()?;
        for file in &loaded.files {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        for d in &loaded.diagnostics {
            println!("cargo:warning={d}");
        }
        let source = self.source(&loaded)?;
        std::fs::write(path, source).map_err(|e| Error {
            diagnostics: vec![Diagnostic::fatal(
                Some(path.to_path_buf()),
                None,
                format!("cannot write: {e}"),
            )],
        })
    }

    fn load(&self) -> Result<Loaded, Error> {
        let mut loaded = load(&self.inputs);
        self.selection.apply(&mut loaded);
        if loaded.has_errors() {
            return Err(Error {
                diagnostics: loaded.diagnostics.into_iter().filter(Diagnostic::is_error).collect(),
            });
        }
        Ok(loaded)
    }
}

/// Why generation failed: every error found, each naming its file and line.
pub struct Error {
    /// The errors, with the warnings and notes around them, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// What a build script whose `main` returns the error prints after `Error: `: the
/// messages, one a line, each naming its file and line (not a struct dump, and no
/// `error: ` label after the `Error: ` the standard library writes).
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            if d.is_error() {
                f.write_str(&d.located_message())?;
            } else {
                write!(f, "{d}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
