//! CRD loading, the API server's CRD checks, lowering and code generation (`load` ->
//! `check` -> IR -> Rust tokens -> prettyplease, both the types and the derive source)
//! and the reference engine's compilation, on arbitrary bytes and mutated corpus CRDs.
#![no_main]

use crd_codegen::load::{Loaded, load_documents};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let docs = match crd_codegen::source::parse_bytes(Path::new("fuzz.yaml"), data.to_vec()) {
        Ok(docs) => docs,
        Err(diagnostic) => {
            let _ = diagnostic.to_string();
            return;
        }
    };
    let mut loaded = Loaded::default();
    load_documents(docs, &mut loaded);
    for diagnostic in &loaded.diagnostics {
        let _ = diagnostic.to_string();
    }
    if loaded.has_errors() {
        return;
    }
    let crds = loaded.irs();
    let _ = crd_codegen::rust::generate_source(&crds);
    let _ = crd_codegen::rust::derive_source::generate_source(&crds);
    for crd in &crds {
        let _ = crd_codegen::engine::Engine::new(crd);
    }
});
