//! `crdgen validate`'s manifest reading: YAML (multi-document, anchors and aliases,
//! read as a stream) or JSON as the first byte says, then `kind: List` items unfolded.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let [format, text @ ..] = data else {
        return;
    };
    let name = if format % 2 == 0 { "fuzz.yaml" } else { "fuzz.json" };
    if let Err(diagnostic) = crd_codegen::source::read_manifest_from(Path::new(name), text, |_| {}) {
        let _ = diagnostic.to_string();
    }
});
