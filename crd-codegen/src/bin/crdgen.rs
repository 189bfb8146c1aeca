//! `crdgen`: generate Rust from CRDs, check CRDs, validate manifests offline.
//!
//! Exit codes: 0 success, 1 invalid input (a CRD or object the API server would
//! reject), 2 unreadable input (missing file, malformed YAML, unknown kind).

use clap::{Parser, Subcommand};
use crd_codegen::diagnostic::Severity;
use crd_codegen::load::{Loaded, load};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "crdgen", version, about = "Typed Rust from Kubernetes CustomResourceDefinitions")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate Rust types for every CRD under PATH (files or directories).
    Generate {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write to FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check CRDs the way the API server's CRD admission does.
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Generate { paths, output } => generate(&paths, output),
        Command::Check { paths } => check(&paths),
    }
}

/// Prints every diagnostic to stderr and returns the exit code they call for.
fn report(loaded: &Loaded) -> ExitCode {
    for d in &loaded.diagnostics {
        eprintln!("{d}");
    }
    match loaded.worst() {
        Some(Severity::Fatal) => ExitCode::from(2),
        Some(Severity::Error) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

fn generate(paths: &[PathBuf], output: Option<PathBuf>) -> ExitCode {
    let loaded = load(paths);
    let code = report(&loaded);
    if loaded.has_errors() {
        return code;
    }
    let source = crd_codegen::rust::generate_source(&loaded.irs());
    match output {
        None => print!("{source}"),
        Some(path) => {
            if let Err(e) = std::fs::write(&path, source) {
                eprintln!("error: {}: cannot write: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

fn check(paths: &[PathBuf]) -> ExitCode {
    let loaded = load(paths);
    let code = report(&loaded);
    if !loaded.has_errors() {
        println!(
            "{} CustomResourceDefinition(s) in {} file(s): valid",
            loaded.crds.len(),
            loaded.files.len()
        );
    }
    code
}
