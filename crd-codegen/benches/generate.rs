//! Generation over the whole CRD corpus (`../shared/crds`): reading and parsing the
//! YAML, the admission checks, lowering, planning, emitting and formatting.
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
}

criterion_group!(benches, generate_corpus);
criterion_main!(benches);
