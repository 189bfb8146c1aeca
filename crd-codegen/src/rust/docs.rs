//! Doc comments from schema descriptions.
//!
//! Descriptions are Markdown written for Go and OpenAPI, not for rustdoc: an
//! unlabelled code fence or a line indented by four spaces would become a doctest
//! that `cargo test` compiles and fails. Fences get the `text` label and deep
//! indentation is reduced to three spaces; everything else is kept.

use proc_macro2::TokenStream;
use quote::quote;

/// `#[doc = "..."]` attributes, one per line.
pub fn doc_attrs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = doc_lines(text);
    quote! { #( #[doc = #lines] )* }
}

/// The lines of a description, made safe for rustdoc, each with a leading space
/// (so that `///line` prints as `/// line`).
pub fn doc_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for raw in text.trim().lines() {
        let line = raw.replace('\t', "    ");
        let line = line.trim_end();
        let trimmed = line.trim_start();
        if let Some(label) = trimmed.strip_prefix("```") {
            let indent = &line[..line.len() - trimmed.len()];
            let indent = &indent[..indent.len().min(3)];
            if in_fence {
                out.push(format!(" {indent}```"));
            } else if label.trim().is_empty() || label.trim() == "rust" {
                out.push(format!(" {indent}```text"));
            } else {
                out.push(format!(" {indent}```{}", label.trim()));
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push(format!(" {line}"));
            continue;
        }
        let indent = line.len() - trimmed.len();
        out.push(format!(" {}{trimmed}", " ".repeat(indent.min(3))));
    }
    if in_fence {
        out.push(" ```".to_string());
    }
    // Drop blank lines at the ends; rustdoc does not need them.
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_doctests_from_descriptions() {
        let lines = doc_lines("Example:\n\n    kubectl apply -f x\n```\nfoo\n```\n```yaml\na: 1\n```");
        assert_eq!(
            lines,
            vec![
                " Example:",
                " ",
                "    kubectl apply -f x",
                " ```text",
                " foo",
                " ```",
                " ```yaml",
                " a: 1",
                " ```",
            ]
        );
        // A fence left open is closed.
        assert_eq!(doc_lines("```\nx").last().unwrap(), " ```");
    }
}
