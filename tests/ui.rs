//! The derive's errors, as users see them: each `.stderr` under `ui/derive` is the
//! compiler's output for the file beside it, pointing at the attribute or field at
//! fault. `ui/derive-pass` holds programs that must build and run.
//!
//! After a deliberate change to a message: `TRYBUILD=overwrite cargo test -p crd-tests
//! --test ui`, then read every changed `.stderr`.

#[test]
fn derive_errors_point_at_the_mistake() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/derive/*.rs");
    t.pass("ui/derive-pass/*.rs");
}
