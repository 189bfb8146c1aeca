//! Every document of the corpus (`../shared/crds`) reads into the CRD model, and its
//! IR written back as a CRD reads back the same.

use crd_codegen::convert::{Read, read_crd};
use crd_codegen::lower::{lower_crd, lower_schema, raise_schema};
use crd_codegen::source::{collect_files, read_file};
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds");
    p.is_dir().then_some(p)
}

#[test]
fn every_corpus_document_reads() {
    let Some(dir) = corpus() else {
        eprintln!("../shared/crds not found; skipping");
        return;
    };
    let files = collect_files(&[dir]).unwrap();
    let (mut crds, mut beta, mut failures) = (0, 0, Vec::new());
    let start = std::time::Instant::now();
    for f in &files {
        for mut doc in read_file(f).unwrap() {
            match read_crd(&mut doc) {
                Ok(Read::Crd(c, warnings)) => {
                    for w in warnings {
                        eprintln!("{w}");
                    }
                    // Writing the IR as a CRD (what `Kind::crd()` returns) and reading it
                    // back gives the same IR.
                    let ir = lower_crd(&c);
                    let written = crd_codegen::write::crd(&ir).to_string();
                    let again = crd_codegen::source::parse_text(std::path::Path::new("written"), written)
                        .ok()
                        .and_then(|mut docs| match read_crd(&mut docs[0]) {
                            Ok(Read::Crd(w, _)) => Some(lower_crd(&w)),
                            _ => None,
                        });
                    if again.as_ref() != Some(&ir) {
                        failures.push(format!(
                            "{}: {}: written CRD reads back different",
                            f.display(),
                            ir.name
                        ));
                    }
                    // Raising a lowered schema gives back the same IR (the CEL compiler
                    // reads schemas raised from the IR).
                    for v in &ir.versions {
                        if lower_schema(&raise_schema(&v.schema)) != v.schema {
                            failures.push(format!("{}: {}: raise(lower) differs", f.display(), v.name));
                        }
                    }
                    crds += 1;
                    if c.api_version.ends_with("v1beta1") {
                        beta += 1;
                    }
                }
                Ok(Read::Other(a, k)) => failures.push(format!("{}: not a CRD: {a} {k}", f.display())),
                Err(errs) => failures.extend(errs.iter().map(|e| e.to_string())),
            }
        }
    }
    eprintln!("{} files, {crds} CRDs in {:?}", files.len(), start.elapsed());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(files.len(), 288);
    assert_eq!(crds, 302);
    assert_eq!(beta, 6);
}

/// Every printer column of the corpus has a JSONPath the table printer parses (a path
/// it could not parse would leave the version without a table), and a row computed on
/// an object with only a name has a cell per served column.
#[test]
fn every_printer_column_path_parses() {
    let Some(dir) = corpus() else {
        eprintln!("../shared/crds not found; skipping");
        return;
    };
    let (mut columns, mut failures) = (0, Vec::new());
    for f in &collect_files(&[dir]).unwrap() {
        for mut doc in read_file(f).unwrap() {
            let Ok(Read::Crd(c, _)) = read_crd(&mut doc) else {
                continue;
            };
            let ir = lower_crd(&c);
            for v in &ir.versions {
                let cols: Vec<_> = v.printer_columns.iter().map(|c| c.as_runtime()).collect();
                columns += cols.len();
                let served = crd_runtime::table::served(&cols);
                let object = serde_json::json!({"metadata": {"name": "x"}});
                match crd_runtime::table::row(served, &object, std::time::UNIX_EPOCH) {
                    Ok(row) => assert_eq!(row.len(), 1 + served.len()),
                    Err(e) => failures.push(format!("{}: {} {}: {e}", f.display(), ir.name, v.name)),
                }
            }
        }
    }
    assert!(columns > 800, "only {columns} printer columns in the corpus");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
