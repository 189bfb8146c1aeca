//! The reference engine over the real-world corpus (`shared/crds`): the default
//! values of every CRD pass `ValidateDefaults`, rules included (the API servers that
//! accepted these CRDs ran it), every version's rules compile into the engine's rule
//! validator, and every version admits a minimal object without panicking.

use crd_codegen::check::{check_crd, check_crd_with};
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::engine::{DefaultsValidator, Engine};
use crd_codegen::source::{collect_files, read_file};
use serde_json::json;
use std::path::PathBuf;

#[test]
fn corpus_defaults_are_valid_and_objects_admit() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds");
    if !dir.is_dir() {
        eprintln!("../shared/crds not found; skipping");
        return;
    }
    let mut default_errors = Vec::new();
    let mut rule_errors = Vec::new();
    let mut admitted = 0;
    let mut with_rules = 0;
    for f in collect_files(&[dir]).unwrap() {
        for mut doc in read_file(&f).unwrap() {
            let Ok(Read::Crd(model, _)) = read_crd(&mut doc) else {
                continue;
            };
            let without = check_crd(&model);
            let with = check_crd_with(&model, &DefaultsValidator);
            for e in with.iter().filter(|e| !without.contains(e)) {
                default_errors.push(format!("{}: {e}", f.display()));
            }
            if !with.is_empty() {
                continue;
            }
            let crd = crd_codegen::lower::lower_crd(&model);
            let engine = Engine::new(&crd);
            for v in engine.versions() {
                let errs = v.rules().compile_errors();
                if !errs.is_empty() {
                    rule_errors.push(format!("{} {}: {errs:?}", f.display(), v.name()));
                }
                with_rules += usize::from(!v.rules().is_empty());
                let object = json!({
                    "apiVersion": format!("{}/{}", crd.group, v.name()),
                    "kind": crd.names.kind,
                    "metadata": {"name": "a", "labels": {"x": "y"}},
                    "spec": {},
                    "unknown": 1,
                });
                let a = v.create(object.clone(), "default");
                assert!(a.bad_request.is_none(), "{}: {:?}", f.display(), a.bad_request);
                assert!(a.object.get("unknown").is_none() || a.pruned.is_empty());
                let u = v.update(object.clone(), object, "default");
                assert!(u.bad_request.is_none());
                admitted += 1;
            }
        }
    }
    assert!(default_errors.is_empty(), "{}", default_errors.join("\n"));
    assert!(rule_errors.is_empty(), "{}", rule_errors.join("\n"));
    println!("{admitted} versions admitted, {with_rules} with rules");
    assert!(admitted > 0);
    assert!(with_rules > 0);
}
