//! What the fuzz targets share: where the corpus is, the kinds they admit objects
//! against, and how an input names a kind, an operation and the objects.
//!
//! An admission input is `[kind, operation, JSON...]`: the first byte picks a kind
//! (modulo the number of kinds), the second the operation (modulo 3: create, update,
//! status update), the rest is the request body: an object for a create, a JSON array
//! `[object, old]` for the updates. (`crd-tests`' `fuzz_seeds` example writes seeds in
//! this format.)

use crd_codegen::engine::{Engine, VersionSchema};
use crd_codegen::ir;
use crd_runtime::admission::Admission;
use serde_json::Value;
use std::path::PathBuf;

mod crds;
pub use crds::{ADMISSION_CRDS, DIFFERENTIAL_CRDS};

/// `../shared` beside the project, or the directory `CRD_SHARED` names.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("CRD_SHARED") {
        Some(dir) => dir.into(),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared")),
    }
}

/// The CRDs of `files` (relative to `shared/crds`); panics (at start-up, not on an
/// input) when one is missing or invalid.
pub fn load_crds(files: &[&str]) -> Vec<ir::Crd> {
    let dir = shared_dir().join("crds");
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let loaded = crd_codegen::load::load(&paths);
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "the fuzz CRDs do not load:\n{}", errors.join("\n"));
    loaded.irs()
}

/// One served version of one CRD, with the reference engine.
pub struct Kind {
    pub api_version: String,
    pub kind: String,
    engine: usize,
    version: String,
}

/// The reference engines of some CRDs, and every version of each as a [`Kind`].
pub struct Kinds {
    pub engines: Vec<Engine>,
    pub kinds: Vec<Kind>,
}

impl Kinds {
    pub fn new(crds: &[ir::Crd]) -> Kinds {
        let mut kinds = Vec::new();
        for (engine, crd) in crds.iter().enumerate() {
            for version in &crd.versions {
                kinds.push(Kind {
                    api_version: format!("{}/{}", crd.group, version.name),
                    kind: crd.names.kind.clone(),
                    engine,
                    version: version.name.clone(),
                });
            }
        }
        Kinds {
            engines: crds.iter().map(Engine::new).collect(),
            kinds,
        }
    }

    /// The engine's schema for `kind`.
    pub fn schema(&self, kind: &Kind) -> &VersionSchema {
        self.engines[kind.engine]
            .version(&kind.version)
            .expect("the engine serves every version of its CRD")
    }
}

/// What an admission input asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Create,
    Update,
    UpdateStatus,
}

/// An admission input, read.
pub struct Input {
    pub kind: usize,
    pub operation: Operation,
    pub object: Value,
    pub old: Option<Value>,
}

/// Reads an admission input for one of `kinds` kinds; `None` when the bytes are not
/// one (too short, not JSON, an update that is not a pair).
pub fn read_input(data: &[u8], kinds: usize) -> Option<Input> {
    let [kind, operation, body @ ..] = data else {
        return None;
    };
    let operation = match operation % 3 {
        0 => Operation::Create,
        1 => Operation::Update,
        _ => Operation::UpdateStatus,
    };
    let value: Value = serde_json::from_slice(body).ok()?;
    let (object, old) = match (operation, value) {
        (Operation::Create, object) => (object, None),
        (_, Value::Array(pair)) if pair.len() == 2 => {
            let mut pair = pair.into_iter();
            (pair.next()?, pair.next())
        }
        _ => return None,
    };
    Some(Input {
        kind: usize::from(*kind) % kinds.max(1),
        operation,
        object,
        old,
    })
}

/// Runs `input` through `create`, `update` or `update_status`, as it asks, in the
/// namespace `default` (an update without an old object gets `null`).
pub fn dispatch(
    input: &Input,
    create: impl FnOnce(Value, &str) -> Admission,
    update: impl FnOnce(Value, Value, &str) -> Admission,
    update_status: impl FnOnce(Value, Value, &str) -> Admission,
) -> Admission {
    let object = input.object.clone();
    let old = || input.old.clone().unwrap_or(Value::Null);
    match input.operation {
        Operation::Create => create(object, "default"),
        Operation::Update => update(object, old(), "default"),
        Operation::UpdateStatus => update_status(object, old(), "default"),
    }
}

/// Admits `input` with the reference engine's `schema`.
pub fn admit(schema: &VersionSchema, input: &Input) -> Admission {
    dispatch(
        input,
        |o, ns| schema.create(o, ns),
        |o, old, ns| schema.update(o, old, ns),
        |o, old, ns| schema.update_status(o, old, ns),
    )
}
