//! `crdgen`: generate Rust from CRDs, check CRDs, validate manifests offline.
//!
//! Exit codes: 0 success, 1 invalid input (a CRD or object the API server would
//! reject), 2 unreadable input (missing file, malformed YAML, unknown kind).

use clap::{Parser, Subcommand};
use crd_codegen::Selection;
use crd_codegen::diagnostic::Severity;
use crd_codegen::load::{Loaded, load};
use crd_codegen::source::{ManifestObject, ObjectKey, is_stdin, object_key, read_each_manifest};
use crd_runtime::FieldValidation;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

// Generation builds and drops millions of small token and syntax-tree nodes (quote,
// syn, prettyplease): with the system allocator, allocating and freeing them was 30%
// of `crdgen generate`'s time on the corpus; mimalloc takes a fifth off the total.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// In a directory of its own: a file directly in src/bin would be another binary.
#[path = "crdgen/diff.rs"]
mod diff;
#[path = "crdgen/get.rs"]
mod get;
#[path = "crdgen/openapi.rs"]
mod openapi;

#[derive(Parser)]
#[command(
    name = "crdgen",
    version,
    about = "Typed Rust from Kubernetes CustomResourceDefinitions"
)]
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
        /// Write to FILE instead of standard output; with --derive, a directory gets a
        /// file per API group and a `mod.rs`.
        #[arg(short, long, value_name = "FILE|DIR")]
        output: Option<PathBuf>,
        /// Emit editable source that derives the CRDs back (`#[derive(CustomResource)]`
        /// with `#[crd(...)]` attributes), to check in and own, instead of generated
        /// code.
        #[arg(long)]
        derive: bool,
        /// Generate only this kind (repeat, or separate with commas, for more).
        #[arg(long = "kind", value_name = "KIND", value_delimiter = ',')]
        kinds: Vec<String>,
        /// Generate only the CRDs of this API group (repeatable).
        #[arg(long = "group", value_name = "GROUP", value_delimiter = ',')]
        groups: Vec<String>,
        /// Generate only this version of each CRD (repeatable).
        #[arg(long = "api-version", value_name = "VERSION", value_delimiter = ',')]
        versions: Vec<String>,
    },
    /// Check CRDs the way the API server's CRD admission does.
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the schemas the API server publishes for the CRDs' kinds (OpenAPI v3, or
    /// v2 with --v2) as JSON: every served version's kind and list models.
    ///
    /// Exit code: 0 printed, 1 invalid CRD, 2 bad input (unreadable file, unknown kind
    /// or version, a version that is not served).
    #[command(name = "openapi")]
    Openapi {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The OpenAPI v2 form (lossy: no junctors, nullable or defaults).
        #[arg(long)]
        v2: bool,
        /// Only this kind.
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
        /// Only this version.
        #[arg(long, value_name = "VERSION")]
        version: Option<String>,
    },
    /// Validate objects against CRDs offline, as the API server admits a create (or,
    /// with --old, an update): prune, default, validate.
    ///
    /// Every document of every OBJECT file (and every item of a `kind: List`) is
    /// matched with its CRD by apiVersion and kind, and admitted in its
    /// metadata.namespace (else `default`). Each valid object is named on stderr
    /// (unless --quiet), errors are printed there as the API server words them.
    /// Admitted objects are printed on stdout only with --output. Files are read one
    /// document at a time (`-` reads standard input), each checked before the next is
    /// read. Exit code: 0 all valid, 1 any invalid, 2 bad input (unreadable file, a
    /// file without objects, malformed YAML, invalid CRD, unknown kind, missing old
    /// object).
    Validate {
        /// A CRD file or directory; repeat the flag (or separate with commas) for more.
        #[arg(long = "crd", value_name = "PATH", required = true, value_delimiter = ',')]
        crds: Vec<PathBuf>,
        /// The stored objects: each OBJECT is an update of the object with the same
        /// apiVersion, kind, namespace and name in FILE (`-` for standard input).
        #[arg(long, value_name = "FILE")]
        old: Option<PathBuf>,
        /// Print the admitted objects (after pruning and defaulting) in this format.
        #[arg(short, long, value_name = "FORMAT")]
        output: Option<OutputFormat>,
        /// What to do with unknown fields, as kubectl's `--validate` (the request's
        /// `fieldValidation`): `warn` prints `Warning: unknown field "spec.foo"`,
        /// `strict` refuses the object, `ignore` drops them silently (`true` is
        /// `strict`, `false` is `ignore`).
        #[arg(long, value_name = "MODE", default_value = "warn", value_parser = parse_field_validation)]
        validate: FieldValidation,
        /// With --old, update through this subresource, as kubectl's `--subresource`:
        /// `status` keeps only each object's status (the rest is the old object's)
        /// and validates only it.
        #[arg(long, value_name = "NAME", requires = "old")]
        subresource: Option<Subresource>,
        /// Do not name the valid objects on stderr.
        #[arg(short, long)]
        quiet: bool,
        /// Object files (YAML or JSON, one or many documents; `-` for standard input).
        #[arg(required = true, value_name = "OBJECT")]
        objects: Vec<PathBuf>,
    },
    /// List objects as `kubectl get` does: a table with NAME and the CRD's printer
    /// columns (AGE when it has none), one table per kind and version.
    ///
    /// Each object is admitted as a create first, so defaults show and an object
    /// without a creation timestamp is created now; objects that are not admitted are
    /// reported as `validate` reports them. Exit code: 0 printed, 1 an object not
    /// admitted or a printer column the API server cannot parse, 2 bad input.
    Get {
        /// A CRD file or directory; repeat the flag (or separate with commas) for more.
        #[arg(long = "crd", value_name = "PATH", required = true, value_delimiter = ',')]
        crds: Vec<PathBuf>,
        /// `wide`: also the columns of priority above 0.
        #[arg(short, long, value_name = "FORMAT")]
        output: Option<TableFormat>,
        /// Object files (YAML or JSON, one or many documents; `-` for standard input).
        #[arg(required = true, value_name = "OBJECT")]
        objects: Vec<PathBuf>,
    },
    /// Report the changes from OLD to NEW that break the API's clients or its stored
    /// objects, one line each: `<version> <path>: <rule>: <what changed>`.
    ///
    /// The rules are crdify's (same names, defaults and configuration) and more: CEL
    /// rules, structural extensions, versions, and whether the API server ratchets a
    /// tightened constraint. With --objects, each object is also run through NEW as
    /// the API server would: the fields it loses to pruning, and whether updating it
    /// unchanged or creating it again is refused. Exit code: 0 compatible (warnings
    /// only), 1 an error finding or an affected object, 2 bad input.
    Diff {
        /// The old (released) CRD: a file, or git:REF:PATH (read with `git show`, PATH
        /// from the repository's root).
        old: String,
        /// The new CRD: a file, or git:REF:PATH.
        new: String,
        /// A configuration file in crdify's schema: each rule's enforcement (Error,
        /// Warn, None) and policies.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// `json` for machines.
        #[arg(short, long, value_name = "FORMAT", default_value = "text")]
        output: DiffFormat,
        /// Objects to run through NEW (manifests or a `kubectl get -o yaml` dump; `-`
        /// reads standard input).
        #[arg(long, value_name = "PATH", num_args = 1..)]
        objects: Vec<PathBuf>,
    },
    /// Convert objects to another version of their CRD, as the API server does with
    /// the `None` conversion strategy: `apiVersion` rewritten, then pruned with the
    /// target version's schema.
    ///
    /// Fields the target version does not have are dropped, each named in a warning on
    /// stderr. Exit code: 0 converted, 1 a CRD needs a conversion webhook (strategy
    /// `Webhook`), 2 bad input (unreadable file, invalid CRD, unknown kind or version).
    Convert {
        /// A CRD file or directory; repeat the flag (or separate with commas) for more.
        #[arg(long = "crd", value_name = "PATH", required = true, value_delimiter = ',')]
        crds: Vec<PathBuf>,
        /// The version to convert to: `v1`, or `group/v1`.
        #[arg(long, value_name = "VERSION")]
        to: String,
        /// The format of the converted objects.
        #[arg(short, long, value_name = "FORMAT", default_value = "yaml")]
        output: OutputFormat,
        /// Object files (YAML or JSON, one or many documents; `-` for standard input).
        #[arg(required = true, value_name = "OBJECT")]
        objects: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Subresource {
    Status,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DiffFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TableFormat {
    Wide,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OutputFormat {
    Yaml,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Generate {
            paths,
            output,
            kinds,
            groups,
            versions,
            derive,
        } => generate(
            &paths,
            output,
            derive,
            &Selection {
                groups,
                kinds,
                versions,
            },
        ),
        Command::Check { paths } => check(&paths),
        Command::Openapi {
            paths,
            v2,
            kind,
            version,
        } => openapi::run(&paths, v2, kind.as_deref(), version.as_deref()),
        Command::Validate {
            crds,
            old,
            output,
            validate: field_validation,
            subresource,
            quiet,
            objects,
        } => validate(
            &crds,
            old.as_deref(),
            subresource,
            output,
            field_validation,
            quiet,
            &objects,
        ),
        Command::Diff {
            old,
            new,
            config,
            output,
            objects,
        } => diff::run(&old, &new, config.as_deref(), output == DiffFormat::Json, &objects),
        Command::Get { crds, output, objects } => get::run(&crds, output == Some(TableFormat::Wide), &objects),
        Command::Convert {
            crds,
            to,
            output,
            objects,
        } => convert(&crds, &to, output, &objects),
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

fn generate(paths: &[PathBuf], output: Option<PathBuf>, derive: bool, selection: &Selection) -> ExitCode {
    let mut loaded = load(paths);
    selection.apply(&mut loaded);
    let code = report(&loaded);
    if loaded.has_errors() {
        return code;
    }
    // The models and documents are freed before generating, which reuses their memory
    // (the corpus peaks at about 500 MB instead of 745 MB; fresh pages cost the kernel time
    // to clear). The IR is not freed: the process ends once the files are written, and
    // freeing millions of small allocations would only add time.
    let (irs, read): (Vec<_>, Vec<_>) = loaded.crds.into_iter().map(|c| (c.ir, (c.model, c.doc))).unzip();
    drop(read);
    let irs = std::mem::ManuallyDrop::new(irs);
    let files = if !derive {
        let source = crd_codegen::rust::generate_source(&irs);
        vec![(output, source)]
    } else {
        use crd_codegen::rust::derive_source;
        let generated = match &output {
            Some(dir) if dir.is_dir() => derive_source::generate_files(&irs).map(|files| {
                files
                    .into_iter()
                    .map(|(name, text)| (Some(dir.join(name)), text))
                    .collect()
            }),
            _ => derive_source::generate_source(&irs).map(|text| vec![(output, text)]),
        };
        match generated {
            Ok(files) => files,
            Err(unsupported) => {
                for u in unsupported {
                    eprintln!("error: {u}");
                }
                return ExitCode::from(1);
            }
        }
    };
    for (path, text) in files {
        match path {
            None => write_stdout(&text),
            Some(path) => {
                if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("error: {}: cannot write: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn check(paths: &[PathBuf]) -> ExitCode {
    let loaded = load(paths);
    let mut code = report(&loaded);
    // Nothing checked is not "valid": a wrong file or directory was named.
    let empty = loaded.paths_without_crds(paths);
    for path in &empty {
        eprintln!("error: {}: no CustomResourceDefinition in it", path.display());
    }
    if !empty.is_empty() {
        code = ExitCode::from(2);
    } else if !loaded.has_errors() {
        write_stdout(&format!(
            "{} CustomResourceDefinition(s) in {} file(s): valid\n",
            loaded.crds.len(),
            loaded.files.len()
        ));
    }
    code
}

/// kubectl's `--validate` values.
fn parse_field_validation(value: &str) -> Result<FieldValidation, String> {
    match value {
        "strict" | "true" => Ok(FieldValidation::Strict),
        "warn" => Ok(FieldValidation::Warn),
        "ignore" | "false" => Ok(FieldValidation::Ignore),
        other => Err(format!(
            "invalid value {other:?}: must be one of strict (or true), warn, ignore (or false)"
        )),
    }
}

fn validate(
    crd_paths: &[PathBuf],
    old_path: Option<&std::path::Path>,
    subresource: Option<Subresource>,
    output: Option<OutputFormat>,
    field_validation: FieldValidation,
    quiet: bool,
    object_paths: &[PathBuf],
) -> ExitCode {
    use crd_codegen::engine::Engine;

    if old_path.is_some_and(is_stdin) && object_paths.iter().any(|p| is_stdin(p)) {
        eprintln!("error: -: standard input can be read only once (the old objects or the new ones)");
        return ExitCode::from(2);
    }
    let Some(loaded) = load_crds(crd_paths) else {
        return ExitCode::from(2);
    };
    let engines: Vec<Engine> = loaded.crds.iter().map(|c| Engine::new(&c.ir)).collect();
    let mut bad_input = false;
    let mut invalid = false;

    // The old objects by apiVersion, kind, namespace and name, the first of each key
    // kept: a new object finds its old one without a scan of them all.
    let mut old_objects: HashMap<ObjectKey, serde_json::Value> = HashMap::new();
    if let Some(p) = old_path {
        let unreadable = read_each_manifest(&[p.to_path_buf()], |o| {
            old_objects.entry(object_key(&o.value)).or_insert(o.value);
        });
        if !unreadable.is_empty() {
            unreadable.iter().for_each(|e| eprintln!("{e}"));
            return ExitCode::from(2);
        }
    }

    // Objects are checked as they are read, and the admitted ones printed at once, so
    // memory holds one document however many the files have.
    let mut printer = ObjectPrinter::new(output);
    let mut check = |obj: ManifestObject| {
        let where_ = obj.place();
        if !obj.value.is_object() {
            eprintln!("error: {where_}: not an object");
            bad_input = true;
            return;
        }
        let (api_version, kind, namespace, name) = object_key(&obj.value);
        let (group, _) = crd_runtime::objectmeta::parse_group_version(&api_version).unwrap_or(("", ""));
        let found = engines
            .iter()
            .zip(&loaded.crds)
            .filter(|(e, _)| e.group == group && e.names.kind == kind)
            .find_map(|(e, crd)| Some((e.for_api_version(&api_version)?, &crd.ir)));
        let Some((schema, crd)) = found else {
            eprintln!("error: {where_}: no CustomResourceDefinition for kind {kind:?} in version {api_version:?}");
            bad_input = true;
            return;
        };
        // The API server warns on every request for a deprecated version.
        if let Some(warning) = crd.version(schema.name()).and_then(|v| crd.deprecation_warning(v)) {
            eprintln!("Warning: {warning}");
        }
        let admission = if old_path.is_some() {
            let key = (api_version.clone(), kind.clone(), namespace.clone(), name.clone());
            let Some(old) = old_objects.get(&key) else {
                eprintln!(
                    "error: {where_}: no old {kind} {name:?} in namespace {namespace:?} in {}",
                    old_path.map(|p| p.display().to_string()).unwrap_or_default()
                );
                bad_input = true;
                return;
            };
            match subresource {
                Some(Subresource::Status) => schema.update_status(obj.value, old.clone(), &namespace),
                None => schema.update(obj.value, old.clone(), &namespace),
            }
        } else {
            schema.create(obj.value, &namespace)
        }
        .with_field_validation(field_validation);
        // kubectl prints the warnings of a response (rule failures that ratcheting
        // forgave) before its result.
        for w in &admission.warnings {
            eprintln!("Warning: {w}");
        }
        let verb = if old_path.is_some() { "updating" } else { "creating" };
        match admission.refusal(&kind, verb, &obj.file.display().to_string()) {
            None => {
                if !quiet {
                    let what = match (old_path, subresource) {
                        (None, _) => "valid",
                        (Some(_), None) => "valid update",
                        (Some(_), Some(Subresource::Status)) => "valid status update",
                    };
                    eprintln!("{where_}: {kind} {name:?}: {what}");
                }
                printer.print(&admission.object);
            }
            Some(refusal) => {
                eprintln!("{refusal}");
                invalid = true;
            }
        }
    };
    let unreadable = read_each_manifest(object_paths, &mut check);
    unreadable.iter().for_each(|e| eprintln!("{e}"));
    exit_code(bad_input || !unreadable.is_empty(), invalid)
}

/// The exit code of a command over objects: 2 for bad input, else 1 when an object
/// failed, else 0.
fn exit_code(bad_input: bool, failed: bool) -> ExitCode {
    if bad_input {
        ExitCode::from(2)
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads the CRDs of `--crd`, printing their diagnostics; `None` when one is invalid.
/// A path without any CRD is a warning: else the objects it was meant for would be
/// reported as of an unknown kind, and the path never named.
fn load_crds(paths: &[PathBuf]) -> Option<Loaded> {
    let loaded = load(paths);
    for d in loaded.diagnostics.iter().filter(|d| d.severity >= Severity::Warning) {
        eprintln!("{d}");
    }
    for path in loaded.paths_without_crds(paths) {
        eprintln!("warning: {}: no CustomResourceDefinition in it", path.display());
    }
    (loaded.worst() < Some(Severity::Error)).then_some(loaded)
}

/// Prints objects to standard output as they come, in `--output`'s format (nothing
/// without it).
struct ObjectPrinter {
    format: Option<OutputFormat>,
    printed: usize,
}

impl ObjectPrinter {
    fn new(format: Option<OutputFormat>) -> Self {
        ObjectPrinter { format, printed: 0 }
    }

    fn print(&mut self, object: &serde_json::Value) {
        let text = match self.format {
            None => return,
            Some(OutputFormat::Yaml) if self.printed > 0 => format!("---\n{}", crd_codegen::yaml::to_string(object)),
            Some(OutputFormat::Yaml) => crd_codegen::yaml::to_string(object),
            Some(OutputFormat::Json) => format!("{}\n", serde_json::to_string_pretty(object).unwrap_or_default()),
        };
        write_stdout(&text);
        self.printed += 1;
    }
}

/// Writes `text` to standard output. A reader that went away (`crdgen ... | head`)
/// is not an error worth a panic, as `print!` would make it.
fn write_stdout(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn convert(crd_paths: &[PathBuf], to: &str, output: OutputFormat, object_paths: &[PathBuf]) -> ExitCode {
    use crd_codegen::engine::Engine;

    let Some(loaded) = load_crds(crd_paths) else {
        return ExitCode::from(2);
    };
    let mut engines: Vec<Option<Engine>> = loaded.crds.iter().map(|_| None).collect();
    let (mut bad_input, mut needs_webhook) = (false, false);
    let mut printer = ObjectPrinter::new(Some(output));
    // Converted and printed as they are read, as `validate` does.
    let mut convert_one = |obj: ManifestObject| {
        let where_ = obj.place();
        let (api_version, kind, _, name) = object_key(&obj.value);
        let (group, _) = crd_runtime::objectmeta::parse_group_version(&api_version).unwrap_or(("", ""));
        let Some(index) = loaded
            .crds
            .iter()
            .position(|c| c.ir.group == group && c.ir.names.kind == kind)
        else {
            eprintln!("error: {where_}: no CustomResourceDefinition for kind {kind:?} in group {group:?}");
            bad_input = true;
            return;
        };
        let crd = &loaded.crds[index].ir;
        let version = to.strip_prefix(&format!("{group}/")).unwrap_or(to);
        if crd.version(version).is_none() {
            let known: Vec<&str> = crd.versions.iter().map(|v| v.name.as_str()).collect();
            eprintln!(
                "error: {where_}: {} has no version {to:?} (versions: {})",
                crd.name,
                known.join(", ")
            );
            bad_input = true;
            return;
        }
        if crd.conversion != crd_codegen::ir::Conversion::None {
            eprintln!(
                "error: {where_}: {} converts between versions with a webhook (conversion strategy Webhook); only the None strategy can be run offline",
                crd.name
            );
            needs_webhook = true;
            return;
        }
        // Compiled once per CRD, when an object needs it.
        let engine = engines[index].get_or_insert_with(|| Engine::new(crd));
        let target = engine.version(version).expect("checked above");
        match crd_runtime::conversion::convert_value(target, obj.value) {
            Ok(c) => {
                if !c.dropped.is_empty() {
                    eprintln!(
                        "Warning: {where_}: converting {kind} {name:?} from {api_version} to {group}/{version} dropped {}",
                        c.dropped.join(", ")
                    );
                }
                printer.print(&c.object);
            }
            Err(e) => {
                eprintln!("error: {where_}: {e}");
                bad_input = true;
            }
        }
    };
    let unreadable = read_each_manifest(object_paths, &mut convert_one);
    unreadable.iter().for_each(|e| eprintln!("{e}"));
    bad_input |= !unreadable.is_empty();
    exit_code(bad_input, needs_webhook)
}
