//! `crdgen diff` over the corpus (`../shared/crds`): every CRD against itself reports
//! nothing; changes planted in the CRDs (a field renamed, a required field added, a
//! bound tightened, an enum value removed, a list type changed,
//! `x-kubernetes-preserve-unknown-fields` dropped) are each found, with no error of
//! another rule; and adding optional fields reports nothing, adding descriptions only
//! `description` (crdify's rule, an error by default) and nothing with it set to
//! `None`.
//!
//! Every CRD is diffed against itself; the planted changes use one CRD in three
//! (every CRD is loaded once per change, and a debug build checks the corpus's CEL
//! rules slowly), which keeps the test to a minute on two cores.

use crd_codegen::compat::{ComparedCrd, Config, Enforcement, Finding, Rule, diff};
use crd_codegen::ir::{ListType, Schema, Type};
use crd_codegen::source::{collect_files, read_file};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Mutex;

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds");
    p.is_dir().then_some(p)
}

/// Every CRD document of the corpus: a name for messages, and its value.
fn corpus_crds() -> Vec<(String, Value)> {
    let Some(dir) = corpus() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for file in collect_files(&[dir]).unwrap() {
        for doc in read_file(&file).unwrap() {
            if doc.value["kind"] == "CustomResourceDefinition" {
                let name = format!(
                    "{}: {}",
                    file.display(),
                    doc.value["metadata"]["name"].as_str().unwrap_or("")
                );
                out.push((name, doc.value));
            }
        }
    }
    out
}

/// A step from a schema node to a child.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Property(String),
    Items,
    Values,
}

fn child<'s>(s: &'s Schema, step: &Step) -> Option<&'s Schema> {
    match step {
        Step::Property(name) => s.properties.get(name),
        Step::Items => s.items.as_deref(),
        Step::Values => s.additional_properties_schema(),
    }
}

fn child_mut<'s>(s: &'s mut Schema, step: &Step) -> Option<&'s mut Schema> {
    match step {
        Step::Property(name) => s.properties.get_mut(name),
        Step::Items => s.items.as_deref_mut(),
        Step::Values => match &mut s.additional_properties {
            Some(crd_codegen::ir::AdditionalProperties::Schema(values)) => Some(values),
            _ => None,
        },
    }
}

fn node_mut<'s>(mut s: &'s mut Schema, path: &[Step]) -> Option<&'s mut Schema> {
    for step in path {
        s = child_mut(s, step)?;
    }
    Some(s)
}

/// The finding path of a node (`^.spec.ports[*].name`).
fn path_text(path: &[Step]) -> String {
    let mut out = String::from("^");
    for step in path {
        match step {
            Step::Property(name) => {
                out.push('.');
                out.push_str(name);
            }
            Step::Items | Step::Values => out.push_str("[*]"),
        }
    }
    out
}

/// Every node of `s` (the structural spine), with its path and its parent.
fn nodes<'s>(
    s: &'s Schema,
    path: Vec<Step>,
    parent: Option<&'s Schema>,
    out: &mut Vec<(Vec<Step>, &'s Schema, Option<&'s Schema>)>,
) {
    out.push((path.clone(), s, parent));
    let mut steps: Vec<Step> = s.properties.keys().map(|k| Step::Property(k.clone())).collect();
    steps.push(Step::Items);
    steps.push(Step::Values);
    for step in steps {
        if let Some(c) = child(s, &step) {
            let mut p = path.clone();
            p.push(step);
            nodes(c, p, Some(s), out);
        }
    }
}

/// A planted change: what it is, and how it edits a node (`None` when it does not
/// apply there). The finding it must cause is its rule at the node's path.
struct Plant {
    name: &'static str,
    rule: Rule,
    /// Whether the node (with its parent) can take the change.
    applies: fn(&Schema, Option<&Schema>, &[Step]) -> bool,
    change: fn(&mut Schema),
}

const PLANTS: &[Plant] = &[
    Plant {
        name: "rename a field",
        rule: Rule::ExistingFieldRemoval,
        applies: |_, parent, path| {
            let Some(Step::Property(name)) = path.last() else {
                return false;
            };
            path.len() >= 2 && parent.is_some_and(|p| !p.required.contains(name))
        },
        // Done by `planted`, on the parent.
        change: |_| {},
    },
    Plant {
        name: "add a required field",
        rule: Rule::Required,
        applies: |s, _, path| path.len() == 1 && s.type_ == Some(Type::Object) && !s.properties.is_empty(),
        change: |s| {
            s.properties.insert(
                "zzzPlanted".into(),
                Schema {
                    type_: Some(Type::String),
                    ..Default::default()
                },
            );
            s.required.push("zzzPlanted".into());
        },
    },
    Plant {
        name: "tighten a bound",
        rule: Rule::MaxLength,
        applies: |s, _, path| {
            !path.is_empty()
                && s.type_ == Some(Type::String)
                && s.max_length.is_none_or(|n| n > 1)
                && s.enum_.is_empty()
        },
        change: |s| s.max_length = Some(s.max_length.map_or(4096, |n| n - 1)),
    },
    Plant {
        name: "remove an enum value",
        rule: Rule::Enum,
        applies: |s, _, _| s.enum_.len() >= 2 && s.default.is_none(),
        change: |s| {
            s.enum_.pop();
        },
    },
    Plant {
        name: "change a list type",
        rule: Rule::ListType,
        applies: |s, _, _| {
            s.type_ == Some(Type::Array)
                && s.list_type.is_none_or(|t| t == ListType::Atomic)
                && s.items
                    .as_deref()
                    .is_some_and(|i| matches!(i.type_, Some(Type::String | Type::Integer)))
        },
        change: |s| s.list_type = Some(ListType::Set),
    },
    Plant {
        name: "drop x-kubernetes-preserve-unknown-fields",
        rule: Rule::PreserveUnknownFields,
        applies: |s, _, path| {
            !path.is_empty() && s.preserve_unknown_fields && s.type_ == Some(Type::Object) && !s.embedded_resource
        },
        change: |s| s.preserve_unknown_fields = false,
    },
];

/// `crd` with the node at `path` changed in every version that has it.
fn planted(crd: &ComparedCrd, path: &[Step], plant: &Plant) -> Value {
    let mut ir = crd.ir.clone();
    for version in &mut ir.versions {
        if let Some(node) = node_mut(&mut version.schema, path) {
            (plant.change)(node);
        }
    }
    if plant.rule == Rule::ExistingFieldRemoval
        && let Some((Step::Property(name), parent)) = path.split_last()
    {
        // The rename: the field under another name.
        for version in &mut ir.versions {
            if let Some(node) = node_mut(&mut version.schema, parent)
                && let Some(field) = node.properties.shift_remove(name)
            {
                node.properties.insert(format!("{name}Renamed"), field);
            }
        }
    }
    crd_codegen::write::crd(&ir)
}

#[derive(Default)]
struct Tally {
    crds: usize,
    found: Vec<usize>,
    /// Plants whose edited CRD the checks refused at every candidate node tried.
    unplantable: Vec<usize>,
    failures: Vec<String>,
}

/// Tries `plant` on the first candidate nodes of `crd` until the changed CRD loads,
/// and checks the findings.
fn plant_one(crd: &ComparedCrd, name: &str, i: usize, plant: &Plant, tally: &Mutex<Tally>) {
    let mut candidates = Vec::new();
    for version in &crd.ir.versions {
        let mut all = Vec::new();
        nodes(&version.schema, Vec::new(), None, &mut all);
        for (path, node, parent) in all {
            if (plant.applies)(node, parent, &path) && !candidates.contains(&path) {
                candidates.push(path);
            }
        }
    }
    if candidates.is_empty() {
        return;
    }
    for path in candidates.iter().take(5) {
        let Ok(changed) = ComparedCrd::from_value(planted(crd, path, plant), "planted") else {
            continue;
        };
        let findings = diff(crd, &changed, &Config::default());
        let at = path_text(path);
        let found = findings.iter().any(|f| f.rule == plant.rule && f.path == at);
        // Errors of other rules, within a version. (Served versions compared with each
        // other may show what they already differed in under a renamed field's new
        // name, as crdify would.)
        let others: Vec<&Finding> = (findings.iter())
            .filter(|f| f.is_error() && f.rule != plant.rule && !f.version.contains(" -> "))
            .collect();
        let mut tally = tally.lock().unwrap();
        if found && others.is_empty() {
            tally.found[i] += 1;
        } else {
            tally.failures.push(format!(
                "{name}: {} at {at}: {}",
                plant.name,
                findings.iter().map(|f| format!("\n  {f}")).collect::<String>()
            ));
        }
        return;
    }
    tally.lock().unwrap().unplantable[i] += 1;
}

/// Optional fields added to every object node with properties but `metadata`:
/// nothing reported. Descriptions added where there are none: only `description`.
fn additions(crd: &ComparedCrd, name: &str, tally: &Mutex<Tally>) {
    fn add_field(s: &mut Schema, depth: usize) {
        if depth > 0 && s.type_ == Some(Type::Object) && !s.properties.is_empty() && !s.embedded_resource {
            s.properties.insert(
                "zzzOptional".into(),
                Schema {
                    type_: Some(Type::String),
                    description: Some("planted".into()),
                    ..Default::default()
                },
            );
        }
        for (name, p) in s.properties.iter_mut() {
            if !(depth == 0 && name == "metadata") && name != "zzzOptional" {
                add_field(p, depth + 1);
            }
        }
        s.items.as_deref_mut().into_iter().for_each(|i| add_field(i, depth + 1));
    }
    fn describe(s: &mut Schema, depth: usize) {
        if s.description.is_none() {
            s.description = Some("planted".into());
        }
        for (name, p) in s.properties.iter_mut() {
            if !(depth == 0 && name == "metadata") {
                describe(p, depth + 1);
            }
        }
        s.items.as_deref_mut().into_iter().for_each(|i| describe(i, depth + 1));
    }
    let mut failures = Vec::new();
    for (what, edit) in [
        ("optional fields", add_field as fn(&mut Schema, usize)),
        ("descriptions", describe),
    ] {
        let mut ir = crd.ir.clone();
        ir.versions.iter_mut().for_each(|v| edit(&mut v.schema, 0));
        let changed = match ComparedCrd::from_value(crd_codegen::write::crd(&ir), "added") {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: with {what} added: {e:?}"));
                continue;
            }
        };
        let findings = diff(crd, &changed, &Config::default());
        let unexpected: Vec<String> = findings
            .iter()
            .filter(|f| what == "optional fields" || f.rule != Rule::Description)
            .map(|f| format!("\n  {f}"))
            .collect();
        if !unexpected.is_empty() {
            failures.push(format!("{name}: {what} added: {}", unexpected.concat()));
        }
        let mut quiet = Config::default();
        quiet.set(Rule::Description, Enforcement::None);
        if !diff(crd, &changed, &quiet).is_empty() {
            failures.push(format!("{name}: {what} added, description: None: findings"));
        }
    }
    tally.lock().unwrap().failures.extend(failures);
}

#[test]
fn corpus_crds_are_compatible_with_themselves_and_planted_changes_are_found() {
    let crds = corpus_crds();
    if crds.is_empty() {
        eprintln!("../shared/crds not found; skipping");
        return;
    }
    let tally = Mutex::new(Tally {
        found: vec![0; PLANTS.len()],
        unplantable: vec![0; PLANTS.len()],
        ..Default::default()
    });
    let next = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some((name, value)) = crds.get(index) else { break };
                    let crd = match ComparedCrd::from_value(value.clone(), name) {
                        Ok(c) => c,
                        Err(e) => {
                            tally.lock().unwrap().failures.push(format!("{name}: {e:?}"));
                            continue;
                        }
                    };
                    let itself = diff(&crd, &crd, &Config::default());
                    {
                        let mut tally = tally.lock().unwrap();
                        tally.crds += 1;
                        if !itself.is_empty() {
                            tally.failures.push(format!("{name}: against itself: {:?}", itself));
                        }
                    }
                    if index % 3 == 0 {
                        for (i, plant) in PLANTS.iter().enumerate() {
                            plant_one(&crd, name, i, plant, &tally);
                        }
                        additions(&crd, name, &tally);
                    }
                }
            });
        }
    });
    let tally = tally.into_inner().unwrap();
    for (i, plant) in PLANTS.iter().enumerate() {
        eprintln!(
            "{}: found in {} CRDs ({} where every candidate made the CRD invalid)",
            plant.name, tally.found[i], tally.unplantable[i]
        );
    }
    assert_eq!(tally.crds, crds.len());
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    // Each change was planted in many CRDs.
    for (i, plant) in PLANTS.iter().enumerate() {
        assert!(
            tally.found[i] >= 10,
            "{}: planted in {} CRDs only",
            plant.name,
            tally.found[i]
        );
    }
}
