//! `crdgen validate`'s manifest reading: YAML (multi-document, anchors and aliases) or
//! JSON as the first byte says, then `kind: List` items unfolded.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let [format, text @ ..] = data else {
        return;
    };
    let name = if format % 2 == 0 { "fuzz.yaml" } else { "fuzz.json" };
    match crd_codegen::source::parse_bytes(Path::new(name), text.to_vec()) {
        Ok(docs) => {
            let _ = crd_codegen::source::manifest_objects(docs);
        }
        Err(diagnostic) => {
            let _ = diagnostic.to_string();
        }
    }
});
