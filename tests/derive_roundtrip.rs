//! The derive round trip over corpus CRDs (a sample by default, see `build.rs`):
//! each CRD file → `crdgen generate --derive` → compiled here → `Kind::crd()` (the
//! versions merged) must be the input CRD, compared as IR after loading both (the API
//! server's defaults applied), with the deliberate normalisations of docs/REFERENCE.md's "Round
//! trip" section and nothing else. The derived types' admission must agree with the
//! reference engine on random objects, as the generated code's does.
//!
//! The full run: `scripts/derive-roundtrip-all.sh`.

/// One corpus file's derived source, compiled.
pub struct Derived {
    pub file: &'static str,
    /// `crd()` of each CRD of the file, versions merged.
    pub crds: fn() -> Vec<
        crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    >,
    pub resources: &'static [crd_runtime::schema::Resource],
}

include!(concat!(env!("OUT_DIR"), "/derived_corpus.rs"));

use crd_codegen::engine::Engine;
use crd_codegen::ir;
use crd_tests::differential::Comparison;

/// The deliberate normalisation: the CRD object's own annotations and labels are not
/// compared (the corpus' are controller-gen's version stamps), except the API approval
/// that protected groups need.
fn normalized(mut crd: ir::Crd) -> ir::Crd {
    crd.annotations.retain(|k, _| k == crd_codegen::check::API_APPROVED);
    crd.labels.clear();
    crd
}

fn input(file: &str) -> Vec<ir::Crd> {
    let path = crd_tests::shared_dir().join("crds").join(file);
    let loaded = crd_codegen::load::load(&[&path]);
    assert!(!loaded.has_errors(), "{file} loads");
    loaded.irs()
}

#[test]
fn derived_crds_are_their_input() {
    if !crd_tests::shared_dir().join("crds").is_dir() {
        eprintln!("corpus not found; skipping");
        return;
    }
    assert!(!DERIVED.is_empty());
    let mut failures = Vec::new();
    let mut compared = 0;
    for d in DERIVED {
        let inputs = input(d.file);
        let derived = (d.crds)();
        assert_eq!(inputs.len(), derived.len(), "{}", d.file);
        for (want, got) in inputs.into_iter().zip(derived) {
            let json = serde_json::to_string(&got).unwrap();
            let loaded = crd_codegen::load::load_str(&json, "crd()");
            assert!(
                !loaded.has_errors(),
                "{}: crd() does not load: {:?}",
                d.file,
                loaded.diagnostics
            );
            let got = loaded.irs().remove(0);
            let (want, got) = (normalized(want), normalized(got));
            compared += 1;
            if want != got {
                failures.push(format!("{} {}: {}", d.file, want.name, first_difference(&want, &got)));
            }
        }
    }
    eprintln!("{compared} CRDs compared");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Where two CRDs first differ, as a JSON path and the two values.
fn first_difference(want: &ir::Crd, got: &ir::Crd) -> String {
    let (a, b) = (crd_codegen::write::crd(want), crd_codegen::write::crd(got));
    fn walk(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> Option<String> {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for k in x.keys().chain(y.keys()) {
                    let (va, vb) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                    if let Some(d) = walk(va, vb, &format!("{path}.{k}")) {
                        return Some(d);
                    }
                }
                None
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (va, vb))| walk(va, vb, &format!("{path}[{i}]"))),
            _ if a == b => None,
            _ => {
                let short = |v: &Value| v.to_string().chars().take(300).collect::<String>();
                Some(format!("{path}: input {} vs derived {}", short(a), short(b)))
            }
        }
    }
    walk(&a, &b, "").unwrap_or_else(|| "differs (same JSON)".into())
}

#[test]
fn derived_admission_agrees_with_the_engine() {
    if !crd_tests::shared_dir().join("crds").is_dir() {
        return;
    }
    let n = std::env::var("CRD_DIFF_OBJECTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let mut comparison = Comparison::default();
    for d in DERIVED {
        for crd in input(d.file) {
            let engine = Engine::new(&crd);
            for v in &crd.versions {
                let api_version = format!("{}/{}", crd.group, v.name);
                let compiled = d
                    .resources
                    .iter()
                    .find(|r| r.api_version == api_version && r.kind == crd.names.kind)
                    .unwrap_or_else(|| panic!("{}: no derived type for {api_version}", d.file));
                comparison.run(d.file, &crd, &engine, v, compiled, n);
            }
        }
    }
    eprintln!("{} admissions compared", comparison.runs);
    comparison.assert_agreed();
}

/// Every sampled file has a derive form; the reasons are printed where one does not.
#[test]
fn every_file_has_a_derive_form() {
    for (file, reasons) in UNSUPPORTED {
        eprintln!("{file}:");
        for r in *reasons {
            eprintln!("  {r}");
        }
    }
    assert!(UNSUPPORTED.is_empty(), "{} files cannot be derived", UNSUPPORTED.len());
}

macro_rules! derive_snapshot {
    ($module:ident, $file:literal) => {
        #[allow(dead_code)]
        mod $module {
            include!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../crd-codegen/tests/snapshots/derive/",
                $file
            ));
        }
    };
}

derive_snapshot!(snap_crontab, "crontab.rs");
derive_snapshot!(snap_cel, "cel.rs");
derive_snapshot!(snap_versions, "multi-version.rs");
derive_snapshot!(snap_junctors, "junctors.rs");
derive_snapshot!(snap_root_fields, "root-fields.rs");
derive_snapshot!(snap_ignored, "ignored-keywords.rs");

/// The reviewed `--derive` snapshots compile and derive back the CRDs they came from.
#[test]
fn derive_snapshots_are_their_input() {
    type Crd =
        crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let seed = crd_tests::seed_examples_dir();
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: [(std::path::PathBuf, Crd); 6] = [
        (
            seed.join("crontab-crd.yaml"),
            snap_crontab::stable_example_com::v1::CronTab::crd(),
        ),
        (
            seed.join("cel-crd.yaml"),
            snap_cel::stable_example_com::v1::CronTab::crd(),
        ),
        (
            here.join("../crd-codegen/tests/fixtures/multi-version.yaml"),
            snap_versions::versions_example_com::widget_crd().expect("the versions merge"),
        ),
        (
            here.join("fixtures/junctor-ratchet-crd.yaml"),
            snap_junctors::test_example_com::v1::Route::crd(),
        ),
        (
            here.join("fixtures/root-fields-crd.yaml"),
            snap_root_fields::test_example_com::v1::Task::crd(),
        ),
        (
            here.join("warning-fixtures/ignored-keywords-crd.yaml"),
            snap_ignored::test_example_com::v1::Gadget::crd(),
        ),
    ];
    for (input, crd) in cases {
        let loaded = crd_codegen::load::load(&[&input]);
        assert!(!loaded.has_errors(), "{}", input.display());
        let want = normalized(loaded.irs().remove(0));
        let got = crd_codegen::load::load_str(&serde_json::to_string(&crd).unwrap(), "crd()");
        let got = normalized(got.irs().remove(0));
        assert!(want == got, "{}: {}", input.display(), first_difference(&want, &got));
    }
}

/// A kind with root fields besides `spec` and `status` (`fields_at_root`): the root
/// type holds them flattened, serializes them after `metadata`, and admits as the
/// engine does.
#[test]
fn fields_at_root_admit_and_serialize() {
    use crd_runtime::schema::CustomResource as _;
    use snap_root_fields::test_example_com::v1::{Task, TaskFields, TaskOperation};
    let task = Task::new(
        "t",
        TaskFields {
            operation: TaskOperation { name: "run".into() },
            spec: None,
            status: None,
        },
    );
    assert_eq!(
        serde_json::to_value(&task).unwrap(),
        serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Task", "metadata": {"name": "t"},
            "operation": {"name": "run"},
        })
    );
    let admit = |name: &str| {
        let object = serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Task", "metadata": {"name": "t", "namespace": "default"},
            "operation": {"name": name}, "spec": {"retries": 9}, "extra": 1,
        });
        let admission = Task::admit_value(object, "default");
        assert_eq!(admission.pruned, ["extra"]);
        admission.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(admit("run"), ["<nil>: Invalid value: at most 5 retries"]);
    // On an object that fails the schema, the API server skips the rules and says so.
    assert_eq!(
        admit("a-very-long-name"),
        [
            "operation.name: Too long: may not be more than 10 bytes",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; \
             correct the existing errors to complete validation"
        ]
    );
    let crd = serde_json::to_string(&Task::crd()).unwrap();
    let ir = crd_codegen::load::load_str(&crd, "Task").irs().remove(0);
    let mut comparison = Comparison::default();
    comparison.run(
        "Task",
        &ir,
        &Engine::new(&ir),
        &ir.versions[0],
        &crd_runtime::schema::Resource::of::<Task>(),
        200,
    );
    comparison.assert_agreed();
}

/// Keywords of another type than their node's (`ignored(...)`) are in the derived CRD
/// and, as the API server does, never checked: an object whose values they would
/// refuse if they applied is admitted, as the engine admits it.
#[test]
fn ignored_keywords_are_not_checked() {
    use crd_runtime::schema::CustomResource as _;
    use snap_ignored::test_example_com::v1::Gadget;
    let object = serde_json::json!({
        "apiVersion": "test.example.com/v1", "kind": "Gadget", "metadata": {"name": "g", "namespace": "default"},
        "spec": {
            "tags": ["UPPER", "x"], "replicas": 3, "name": "odd", "labels": {"a": "b"},
            "ratio": 0.5, "enabled": false, "mode": "Fast",
        },
    });
    let admission = Gadget::admit_value(object, "default");
    assert!(admission.errors.is_empty(), "{:?}", admission.errors);
    // What does apply still does.
    let object = serde_json::json!({
        "apiVersion": "test.example.com/v1", "kind": "Gadget", "metadata": {"name": "g", "namespace": "default"},
        "spec": {"tags": ["a-very-long-tag"], "replicas": 11},
    });
    let errors: Vec<String> = Gadget::admit_value(object, "default")
        .errors
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        [
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
            "spec.tags[0]: Too long: may not be more than 10 bytes",
        ]
    );
    let crd = serde_json::to_string(&Gadget::crd()).unwrap();
    let ir = crd_codegen::load::load_str(&crd, "Gadget").irs().remove(0);
    let mut comparison = Comparison::default();
    comparison.run(
        "Gadget",
        &ir,
        &Engine::new(&ir),
        &ir.versions[0],
        &crd_runtime::schema::Resource::of::<Gadget>(),
        200,
    );
    comparison.assert_agreed();
}
