//! `crdgen get`: objects as `kubectl get` lists them, with their CRD's printer columns.

use super::{exit_code, load_crds, write_stdout};
use crd_codegen::engine::Engine;
use crd_codegen::source::{ManifestObject, object_key, read_each_manifest};
use crd_runtime::table;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

/// The rows of the objects of one kind and version, in input order (or why the API
/// server would serve no table for them).
struct Group<'a> {
    api_version: String,
    kind: String,
    engine: usize,
    table: Result<table::Table<'a>, table::ColumnError>,
}

/// Prints the objects of `object_paths` as tables, one per kind and version (in the
/// order they first appear), each object first admitted as a create (so defaults
/// show, and an object without `creationTimestamp` is created now).
pub fn run(crd_paths: &[PathBuf], wide: bool, object_paths: &[PathBuf]) -> ExitCode {
    let Some(loaded) = load_crds(crd_paths) else {
        return ExitCode::from(2);
    };
    let engines: Vec<Engine> = loaded.crds.iter().map(|c| Engine::new(&c.ir)).collect();
    let now = SystemTime::now();
    let (mut bad_input, mut invalid) = (false, false);
    let mut groups: Vec<Group> = Vec::new();
    // Admitted as they are read: what is kept is what the tables print.
    let mut admit = |obj: ManifestObject| {
        let where_ = obj.place();
        let (api_version, kind, namespace, _) = object_key(&obj.value);
        let found = (engines.iter().enumerate())
            .filter(|(_, e)| e.names.kind == kind)
            .find_map(|(i, e)| Some((i, e.for_api_version(&api_version)?)));
        let Some((index, schema)) = found else {
            eprintln!("error: {where_}: no CustomResourceDefinition for kind {kind:?} in version {api_version:?}");
            bad_input = true;
            return;
        };
        let admission = schema.create(obj.value, &namespace);
        if let Some(refusal) = admission.refusal(&kind, "creating", &obj.file.display().to_string()) {
            eprintln!("{refusal}");
            invalid = true;
            return;
        }
        let object = created_now(admission.object, now);
        let group = match groups
            .iter()
            .position(|g| g.api_version == api_version && g.kind == kind)
        {
            Some(g) => &mut groups[g],
            None => {
                let columns = schema.printer_columns();
                groups.push(Group {
                    api_version,
                    kind,
                    engine: index,
                    table: table::Table::new(table::served(&columns)),
                });
                groups.last_mut().expect("just pushed")
            }
        };
        if let Ok(table) = &mut group.table {
            table.push(&object, now);
        }
    };
    let unreadable = read_each_manifest(object_paths, &mut admit);
    unreadable.iter().for_each(|e| eprintln!("{e}"));
    bad_input |= !unreadable.is_empty();
    let several = groups.len() > 1;
    for (i, group) in groups.iter_mut().enumerate() {
        match &mut group.table {
            Ok(table) => {
                if several {
                    // kubectl names each object `<kind>.<group>/<name>` when it lists
                    // several kinds.
                    table.prefix_names(&format!(
                        "{}.{}/",
                        group.kind.to_lowercase(),
                        engines[group.engine].group
                    ));
                }
                let separator = if i > 0 { "\n" } else { "" };
                write_stdout(&format!("{separator}{}", table.print(wide)));
            }
            Err(e) => {
                eprintln!("error: {} {}: {e}", group.api_version, group.kind);
                invalid = true;
            }
        }
    }
    exit_code(bad_input, invalid)
}

/// The object with `metadata.creationTimestamp` set to `now` when it has none, as
/// the API server sets it on create.
fn created_now(mut object: Value, now: SystemTime) -> Value {
    let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return object;
    };
    if meta
        .get("creationTimestamp")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        let secs = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        if let Ok(t) = crd_runtime::time::timestamp_from_unix(secs) {
            meta.insert("creationTimestamp".into(), Value::from(t.to_string()));
        }
    }
    object
}
