//! Writes the seed corpora of the fuzz targets in `fuzz/` (see docs/TESTING.md, "Fuzzing"), one
//! directory per target under the directory given, from `../shared` and the project's
//! fixtures: `cargo run -p crd-tests --example fuzz_seeds -- fuzz/corpus`.
//!
//! The admission inputs follow `crd-fuzz`'s format: `[kind, operation, JSON...]` (see
//! `fuzz/src/lib.rs`).

use crd_codegen::ir;
use crd_tests::objects::Gen;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[allow(dead_code)]
#[path = "../fuzz/src/crds.rs"]
mod crds;

/// Corpus CRD files larger than this are left out of the pipeline's seeds: each run
/// generates the whole file, and small inputs keep the fuzzer fast.
const MAX_CRD_SEED: u64 = 16 * 1024;

/// Objects per kind version for the admission targets.
const OBJECTS: u64 = 12;

fn main() {
    let out = PathBuf::from(std::env::args().nth(1).expect("usage: fuzz_seeds DIR"));
    let shared = crd_tests::shared_dir();
    let mut seeds = Seeds::new(&out);

    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut crd_files = files(&shared.join("crds"), "yaml");
    crd_files.extend(files(&shared.join("spec/examples"), "yaml"));
    crd_files.extend(files(&fixtures, "yaml"));
    for file in &crd_files {
        if std::fs::metadata(file).map(|m| m.len()).unwrap_or(u64::MAX) <= MAX_CRD_SEED {
            seeds.add("crd_pipeline", std::fs::read(file).unwrap());
        }
    }

    admission_seeds(&mut seeds, "admission", crds::ADMISSION_CRDS, &shared);
    admission_seeds(&mut seeds, "differential", crds::DIFFERENTIAL_CRDS, &shared);

    // CEL: every rule and message expression of the corpus, and cel-spec's expressions.
    let loaded = crd_codegen::load::load(&[shared.join("crds")]);
    for crd in &loaded.crds {
        for version in &crd.ir.versions {
            each_rule(&version.schema, &mut |rule| {
                seeds.add("cel", [&[0][..], rule.rule.as_bytes()].concat());
                if let Some(expression) = &rule.message_expression {
                    seeds.add("cel", [&[1][..], expression.as_bytes()].concat());
                }
            });
        }
    }
    for file in files(&shared.join("cel-spec"), "json") {
        let spec: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        for section in spec["sections"].as_array().into_iter().flatten() {
            for test in section["tests"].as_array().into_iter().flatten() {
                if let Some(expr) = test["expr"].as_str() {
                    seeds.add("cel", [&[0][..], expr.as_bytes()].concat());
                }
            }
        }
    }

    // Manifests: the seed pages' examples as YAML, each document as JSON, and a List.
    let mut objects = Vec::new();
    for file in files(&shared.join("spec/examples"), "yaml") {
        seeds.add("manifests", [&[0][..], &std::fs::read(&file).unwrap()].concat());
        objects.extend(crd_tests::read_documents(&file));
    }
    for object in &objects {
        seeds.add("manifests", [&[1][..], object.to_string().as_bytes()].concat());
    }
    let list = json!({"apiVersion": "v1", "kind": "List", "items": objects});
    seeds.add("manifests", [&[1][..], list.to_string().as_bytes()].concat());

    // Conversion reviews of the versioned CronTabs' objects (`None` strategy and the
    // webhook example's), to each version.
    let versioned = crd_codegen::load::load(&[
        fixtures.join("versioned-crontab-crd.yaml"),
        fixtures.join("../../examples/crds/crontab-conversion.yaml"),
    ]);
    for (crd, (i, version)) in versioned
        .crds
        .iter()
        .map(|c| &c.ir)
        .flat_map(|crd| crd.versions.iter().enumerate().map(move |v| (crd, v)))
    {
        let mut g = Gen::new(Gen::seed_for(&crd.name, i as u64));
        let from = format!("{}/{}", crd.group, version.name);
        let objects: Vec<Value> = (0..3)
            .map(|_| g.resource(&from, &crd.names.kind, &version.schema))
            .collect();
        for target in &crd.versions {
            for review_version in crd_runtime::review::REVIEW_VERSIONS {
                let review = json!({
                    "apiVersion": review_version,
                    "kind": "ConversionReview",
                    "request": {
                        "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                        "desiredAPIVersion": format!("{}/{}", crd.group, target.name),
                        "objects": objects,
                    },
                });
                seeds.add("conversion_review", review.to_string().into_bytes());
            }
        }
    }
    for (target, n) in &seeds.counts {
        println!("{target}: {n} seeds");
    }
}

/// Valid, mutated, updated and status-updated objects of every version of `files`.
fn admission_seeds(seeds: &mut Seeds, target: &str, files: &[&str], shared: &Path) {
    let paths: Vec<PathBuf> = files.iter().map(|f| shared.join("crds").join(f)).collect();
    let loaded = crd_codegen::load::load(&paths);
    assert!(!loaded.has_errors(), "{target}: the CRDs load");
    let mut kind = 0u8;
    for crd in loaded.irs() {
        for version in &crd.versions {
            let api_version = format!("{}/{}", crd.group, version.name);
            for i in 0..OBJECTS {
                let mut g = Gen::new(Gen::seed_for(&crd.name, i));
                let valid = g.resource(&api_version, &crd.names.kind, &version.schema);
                let mut mutated = valid.clone();
                g.mutate(&mut mutated, &version.schema);
                let pair = |new: &Value, old: &Value| {
                    let mut pair = json!([new, old]);
                    for o in pair.as_array_mut().unwrap() {
                        if let Some(m) = o.get_mut("metadata").and_then(Value::as_object_mut) {
                            m.insert("resourceVersion".into(), "1".into());
                        }
                    }
                    pair
                };
                for (operation, body) in [
                    (0u8, valid.clone()),
                    (0, mutated.clone()),
                    (1, pair(&mutated, &valid)),
                    (2, pair(&mutated, &valid)),
                ] {
                    seeds.add(target, [&[kind, operation][..], body.to_string().as_bytes()].concat());
                }
            }
            kind += 1;
        }
    }
}

/// Calls `f` on every rule of `schema` and the schemas below it.
fn each_rule(schema: &ir::Schema, f: &mut dyn FnMut(&ir::Rule)) {
    schema.validations.iter().for_each(&mut *f);
    let children = (schema.properties.values())
        .chain(schema.items.as_deref())
        .chain(schema.additional_properties_schema())
        .chain(schema.all_of.iter().chain(&schema.any_of).chain(&schema.one_of));
    for child in children {
        each_rule(child, f);
    }
}

/// The files of `dir` and below with the extension `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path, ext));
        } else if path.extension().and_then(|e| e.to_str()) == Some(ext) {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Seed files, named by their content's hash as libFuzzer names its own.
struct Seeds {
    dir: PathBuf,
    counts: std::collections::BTreeMap<String, usize>,
}

impl Seeds {
    fn new(dir: &Path) -> Seeds {
        Seeds {
            dir: dir.to_path_buf(),
            counts: Default::default(),
        }
    }

    fn add(&mut self, target: &str, bytes: Vec<u8>) {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let dir = self.dir.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        std::fs::write(dir.join(format!("seed-{:016x}", h.finish())), bytes).unwrap();
        *self.counts.entry(target.to_string()).or_default() += 1;
    }
}
