//! The reference engine's admission (create, update, status update) of arbitrary JSON
//! objects against corpus CRDs: never a panic, a hang or unbounded memory.
#![no_main]

use crd_fuzz::{ADMISSION_CRDS, Kinds, admit, load_crds, read_input};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static KINDS: LazyLock<Kinds> = LazyLock::new(|| Kinds::new(&load_crds(ADMISSION_CRDS)));

fuzz_target!(|data: &[u8]| {
    let Some(input) = read_input(data, KINDS.kinds.len()) else {
        return;
    };
    let kind = &KINDS.kinds[input.kind];
    let admission = admit(KINDS.schema(kind), &input);
    // Every message renders.
    for error in &admission.errors {
        let _ = error.to_string();
    }
});
