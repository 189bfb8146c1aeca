//! Whether the crate being compiled can run the test `#[derive(CustomResource)]` emits,
//! which calls `crd_codegen`: without `crd-codegen` among its dev-dependencies, rustc's
//! own error (``cannot find `crd_codegen` in the crate root``) does not say what to add,
//! so the derive says it instead.

use proc_macro2::TokenStream;
use quote::quote;
use std::sync::OnceLock;

/// Whether the manifest of the crate being compiled (cargo gives its directory to rustc,
/// and so to the proc-macro, in `CARGO_MANIFEST_DIR`) names crd-codegen. Read once per
/// compilation. `true` when it cannot be read: only a manifest that surely lacks it
/// makes the derive complain.
pub fn manifest_names_crd_codegen() -> bool {
    static NAMES: OnceLock<bool> = OnceLock::new();
    *NAMES.get_or_init(|| {
        let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
            return true;
        };
        match std::fs::read_to_string(std::path::Path::new(&dir).join("Cargo.toml")) {
            Ok(text) => names_crd_codegen(&text),
            Err(_) => true,
        }
    })
}

/// Whether a manifest's text names crd-codegen outside comments (a dependency of any
/// kind, renamed, inherited from the workspace). A plain search: it errs only towards
/// `true`, which leaves the emitted test as it is.
fn names_crd_codegen(manifest: &str) -> bool {
    manifest
        .lines()
        .map(without_comment)
        .any(|line| line.contains("crd-codegen") || line.contains("crd_codegen"))
}

/// A TOML line without its comment: what precedes the first `#` outside a string.
fn without_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '#') => return &line[..i],
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    line
}

/// What stands in for the emitted test when the manifest lacks crd-codegen: under
/// `cfg(test)` only, a compile error at the derive that says what to add.
pub fn missing(test_name: &str) -> TokenStream {
    let message = format!(
        "the test #[derive(CustomResource)] emits, `{test_name}` (the API server's checks on the whole CRD), \
         needs crd-codegen among the dev-dependencies: add `crd-codegen` from where crd-derive comes \
         (the same path, git or version) under `[dev-dependencies]` in Cargo.toml"
    );
    quote! {
        #[cfg(test)]
        ::core::compile_error!(#message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_names_crd_codegen_in_every_form() {
        for manifest in [
            "[dev-dependencies]\ncrd-codegen = { path = \"../crd-rs/crd-codegen\" }\n",
            "[dev-dependencies]\ncrd-codegen.workspace = true\n",
            "[dev-dependencies.crd-codegen]\ngit = \"https://github.com/crd-rs/crd-rs\"\n",
            "[target.'cfg(unix)'.dev-dependencies]\ncodegen = { package = \"crd-codegen\", version = \"0.1\" }\n",
        ] {
            assert!(names_crd_codegen(manifest), "{manifest}");
        }
        let without = "[dependencies]\ncrd-runtime = { path = \"../crd-rs/crd-runtime\" }\n\
                       crd-derive = { path = \"../crd-rs/crd-derive\" }  # not crd-codegen\n\
                       # The derive's crd-codegen and the test's are one compile.\n\
                       [profile.dev.build-override]\ndebug = true\n";
        assert!(!names_crd_codegen(without));
        assert!(names_crd_codegen(
            "crd-codegen = { git = \"https://example.com/x#y\" } # z"
        ));
    }

    #[test]
    fn the_stand_in_is_a_compile_error_in_tests_only() {
        let tokens = missing("cron_tab_crd_passes_the_api_server_checks").to_string();
        assert!(
            tokens.starts_with("# [cfg (test)] :: core :: compile_error !"),
            "{tokens}"
        );
        assert!(
            tokens.contains("`cron_tab_crd_passes_the_api_server_checks`"),
            "{tokens}"
        );
        assert!(tokens.contains("under `[dev-dependencies]` in Cargo.toml"), "{tokens}");
    }
}
