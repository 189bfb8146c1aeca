//! Generation over the whole CRD corpus (`../shared/crds`): reading and parsing the
//! YAML, the admission checks, lowering, planning, emitting and formatting.
//!
//! The `cli` group compares whole processes, like with like: one `crdgen generate`
//! of the corpus against kopium (when `kopium` is on `PATH`) run as its users must,
//! one `kopium -f FILE --api-version V` per CRD version, on the same CRDs (each
//! written to its own file beforehand, outside the measurement; kopium refuses
//! `apiextensions.k8s.io/v1beta1`, which crdgen also generates).
//!
//! `cargo bench -p crd-codegen --bench generate`

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::time::Duration;

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds");
    p.is_dir().then_some(p)
}

fn generate_corpus(c: &mut Criterion) {
    let Some(dir) = corpus() else {
        eprintln!("../shared/crds not found; nothing to benchmark");
        return;
    };
    // Report the size of what is generated once, outside the measurement.
    let loaded = crd_codegen::load::load(&[&dir]);
    assert!(!loaded.has_errors());
    let source = crd_codegen::rust::generate_source(&loaded.irs());
    eprintln!(
        "corpus: {} CRDs, generated {} lines ({} bytes) as one source",
        loaded.crds.len(),
        source.lines().count(),
        source.len()
    );

    let mut group = c.benchmark_group("corpus");
    group.sample_size(10).measurement_time(Duration::from_secs(40));
    group.bench_function("load_and_check", |b| b.iter(|| crd_codegen::load::load(&[&dir])));
    let irs = loaded.irs();
    group.bench_function("generate_source", |b| {
        b.iter(|| crd_codegen::rust::generate_source(&irs))
    });
    group.bench_function("end_to_end", |b| {
        b.iter(|| crd_codegen::rust::generate_source(&crd_codegen::load::load(&[&dir]).irs()))
    });
    group.finish();

    let mut group = c.benchmark_group("cli");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    group.bench_function("crdgen generate (one process)", |b| {
        b.iter(|| {
            run(std::process::Command::new(env!("CARGO_BIN_EXE_crdgen"))
                .arg("generate")
                .arg(&dir))
        })
    });
    match kopium_inputs(&dir) {
        Some(inputs) => {
            group.bench_function("kopium (one process per CRD version)", |b| {
                b.iter(|| {
                    for (file, version) in &inputs {
                        run(std::process::Command::new("kopium")
                            .arg("-f")
                            .arg(file)
                            .arg("--api-version")
                            .arg(version));
                    }
                })
            });
        }
        None => eprintln!("kopium not on PATH (cargo install kopium): its row is skipped"),
    }
    group.finish();
}

/// Runs a command with its output discarded; it must succeed.
fn run(command: &mut std::process::Command) {
    let status = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the command runs");
    assert!(status.success(), "{command:?} failed");
}

/// Every v1 CRD of the corpus in its own file (kopium reads one CRD per file), with
/// each of its versions; `None` without kopium.
fn kopium_inputs(corpus: &std::path::Path) -> Option<Vec<(PathBuf, String)>> {
    std::process::Command::new("kopium").arg("--version").output().ok()?;
    let dir = std::env::temp_dir().join(format!("crdgen-bench-kopium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut inputs = Vec::new();
    let files = crd_codegen::source::collect_files(&[corpus]).expect("the corpus");
    let docs = files
        .iter()
        .flat_map(|f| crd_codegen::source::read_file(f).expect("a corpus file"));
    for (i, doc) in docs.enumerate() {
        let crd = &doc.value;
        if crd["kind"] != "CustomResourceDefinition" || crd["apiVersion"] != "apiextensions.k8s.io/v1" {
            continue;
        }
        let file = dir.join(format!("{i}.json"));
        std::fs::write(&file, crd.to_string()).expect("written");
        for v in crd["spec"]["versions"].as_array().into_iter().flatten() {
            inputs.push((file.clone(), v["name"].as_str().expect("a version name").to_string()));
        }
    }
    eprintln!("kopium: {} runs", inputs.len());
    Some(inputs)
}

criterion_group!(benches, generate_corpus);
criterion_main!(benches);
