//! `crdgen diff` on the largest corpus CRD (argo-workflows' CronWorkflow, 2.9 MB of
//! YAML) against a changed copy: a field renamed, a bound tightened and a required
//! field added in every version.
//!
//! - `diff/compare`: the comparison alone (`compat::diff`, both CRDs read);
//! - `diff/read_and_compare`: reading both texts (YAML, the CRD checks with the CEL
//!   rules' compilation and cost, lowering) and comparing, what `crdgen diff` does;
//! - `diff/crdgen_process`: the `crdgen diff OLD NEW` process.
//!
//! `cargo bench -p crd-codegen --bench diff`

use crd_codegen::compat::{ComparedCrd, Config, diff};
use crd_codegen::ir::{Schema, Type};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::time::Duration;

fn largest_corpus_crd() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/crds/argo-workflows/full/argoproj.io_cronworkflows.yaml");
    p.is_file().then_some(p)
}

/// The CRD with the changes planted in every version.
fn changed(crd: &ComparedCrd) -> String {
    let mut ir = crd.ir.clone();
    for version in &mut ir.versions {
        let Some(spec) = version.schema.properties.get_mut("spec") else {
            continue;
        };
        if let Some(timezone) = spec.properties.shift_remove("timezone") {
            spec.properties.insert("timeZone".into(), timezone);
        }
        if let Some(history) = spec.properties.get_mut("successfulJobsHistoryLimit") {
            history.maximum = Some(10.0);
        }
        spec.properties.insert(
            "owner".into(),
            Schema {
                type_: Some(Type::String),
                ..Default::default()
            },
        );
        spec.required.push("owner".into());
    }
    crd_codegen::yaml::to_string(&crd_codegen::write::crd(&ir))
}

fn bench(c: &mut Criterion) {
    let Some(path) = largest_corpus_crd() else {
        eprintln!("../shared/crds not found; nothing to benchmark");
        return;
    };
    let old_text = std::fs::read_to_string(&path).unwrap();
    let old = ComparedCrd::from_text(&old_text, "old.yaml").unwrap();
    let new_text = changed(&old);
    let new = ComparedCrd::from_text(&new_text, "new.yaml").unwrap();
    let config = Config::default();
    let findings = diff(&old, &new, &config);
    eprintln!("{} findings:", findings.len());
    findings.iter().for_each(|f| eprintln!("  {f}"));
    assert!(!findings.is_empty());

    let mut group = c.benchmark_group("diff");
    group.sample_size(20).measurement_time(Duration::from_secs(20));
    group.bench_function("compare", |b| b.iter(|| diff(&old, &new, &config)));
    group.bench_function("read_and_compare", |b| {
        b.iter(|| {
            let old = ComparedCrd::from_text(&old_text, "old.yaml").unwrap();
            let new = ComparedCrd::from_text(&new_text, "new.yaml").unwrap();
            diff(&old, &new, &config)
        })
    });
    let dir = std::env::temp_dir().join(format!("crdgen-diff-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let new_path = dir.join("new.yaml");
    std::fs::write(&new_path, &new_text).unwrap();
    group.bench_function("crdgen_process", |b| {
        b.iter(|| {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_crdgen"))
                .arg("diff")
                .arg(&path)
                .arg(&new_path)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(1));
        })
    });
    group.finish();
    std::fs::remove_dir_all(&dir).unwrap();
}

criterion_group!(benches, bench);
criterion_main!(benches);
