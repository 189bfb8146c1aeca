//! The `checkcrd` answers the real API server gave for the seed examples
//! (`shared/spec/examples/expected.jsonl`), and every CRD of the corpus
//! (`shared/crds`), which the API server accepts.
//!
//! The CEL compilation and cost cases (`bad-rule-*`, `budget-crd.yaml`) belong to the
//! CEL stage and are skipped here; without a compiler they must yield no error.

use crd_codegen::check::check_crd;
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::model::CustomResourceDefinition;
use crd_codegen::source::{collect_files, parse_text, read_file};
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared"));
    p.is_dir().then_some(p)
}

fn crds_of(path: &Path) -> Vec<CustomResourceDefinition> {
    read_file(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .iter_mut()
        .map(|doc| match read_crd(doc) {
            Ok(Read::Crd(crd, _)) => *crd,
            Ok(Read::Other(a, k)) => panic!("{}: not a CRD: {a} {k}", path.display()),
            Err(e) => panic!(
                "{}: {}",
                path.display(),
                e.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
            ),
        })
        .collect()
}

#[test]
fn seed_examples_match_the_api_server() {
    let Some(shared) = shared() else {
        eprintln!("shared/ not found; skipping");
        return;
    };
    let dir = shared.join("spec/examples");
    let lines = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let seed = v["seed"].as_str().unwrap();
        let Some(file) = seed.strip_prefix("checkcrd:") else {
            continue;
        };
        let crds = crds_of(&dir.join(file));
        assert_eq!(crds.len(), 1, "{file}");
        let got: Vec<String> = check_crd(&crds[0]).iter().map(|e| e.to_string()).collect();
        let cel_stage = file.starts_with("bad-rule-") || file == "budget-crd.yaml";
        let want: Vec<String> = if cel_stage {
            Vec::new()
        } else {
            v["expected"]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_string())
                .collect()
        };
        if got != want {
            failures.push(format!("{file}:\n  got:  {got:#?}\n  want: {want:#?}"));
        }
        checked += 1;
    }
    assert_eq!(checked, 10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_crd_passes() {
    let Some(shared) = shared() else {
        eprintln!("shared/ not found; skipping");
        return;
    };
    let files = collect_files(&[shared.join("crds")]).unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for f in &files {
        for crd in crds_of(f) {
            n += 1;
            for e in check_crd(&crd) {
                failures.push(format!("{} ({}): {e}", f.display(), crd.name));
            }
        }
    }
    assert_eq!(n, 302);
    assert!(
        failures.is_empty(),
        "{} errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn parse_text_is_usable_for_inline_crds() {
    // Guards the helper the table tests rely on.
    let docs = parse_text(Path::new("inline.yaml"), "apiVersion: v1\nkind: X\n".into()).unwrap();
    assert_eq!(docs.len(), 1);
}
