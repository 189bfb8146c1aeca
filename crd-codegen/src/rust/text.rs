//! Items written directly as formatted source instead of being built as tokens.
//!
//! Formatting is most of what `crdgen generate` spends: syn parses every token the
//! emitter built and prettyplease prints the tree. The `Serialize`, `Deserialize` and
//! `FromMap` impls of generated structs and each type's `fn shape()`, more than half
//! of the output, follow fixed layouts, so they are written as text in that layout
//! ([`Writer`]) and skip both steps. The emitter puts a placeholder where such text
//! goes (`__crd_codegen_text!(N);`, valid as a module's or an impl's item), the module
//! is formatted, and [`TextItems::splice`] replaces each placeholder line with its
//! text, indented as the placeholder was. `crd_types!` and the derive, which need
//! tokens and no formatting, get the text parsed into tokens instead
//! ([`TextItems::AsTokens`]).

use proc_macro2::TokenStream;
use quote::quote;

/// The placeholder macro's name; no generated item calls a macro of that name.
const PLACEHOLDER: &str = "__crd_codegen_text";

/// Where the text items of one emitted module go.
pub enum TextItems {
    /// Parsed into tokens in place (for the proc-macro, which does not format).
    AsTokens,
    /// Kept here; the module's tokens get a placeholder for each.
    Placeholders(Vec<String>),
}

impl TextItems {
    /// `text` (formatted items, as [`Writer`] writes them) as the tokens to emit.
    #[allow(
        clippy::expect_used,
        reason = "the text is written by the emitter, and the snapshot tests compile it"
    )]
    pub fn item(&mut self, text: String) -> TokenStream {
        match self {
            TextItems::AsTokens => text.parse().expect("the emitter writes valid Rust"),
            TextItems::Placeholders(texts) => {
                let n = proc_macro2::Literal::usize_unsuffixed(texts.len());
                let name = super::emit::ident(PLACEHOLDER);
                texts.push(text);
                quote!(#name!(#n);)
            }
        }
    }

    /// `formatted` (the module's tokens, formatted) with each placeholder line replaced
    /// by its text, indented as the placeholder was.
    pub fn splice(&self, formatted: &str) -> String {
        let TextItems::Placeholders(texts) = self else {
            return formatted.to_string();
        };
        if texts.is_empty() {
            return formatted.to_string();
        }
        let extra: usize = texts.iter().map(|t| t.len() * 5 / 4).sum();
        let mut out = String::with_capacity(formatted.len() + extra);
        for line in formatted.split_inclusive('\n') {
            let code = line.trim_start_matches(' ');
            let placeholder = code
                .strip_prefix(PLACEHOLDER)
                .and_then(|rest| rest.strip_prefix("!("))
                .and_then(|rest| rest.trim_end().strip_suffix(");"))
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| texts.get(n));
            let Some(text) = placeholder else {
                out.push_str(line);
                continue;
            };
            let indent = &line[..line.len() - code.len()];
            for text_line in text.lines() {
                if !text_line.is_empty() {
                    out.push_str(indent);
                    out.push_str(text_line);
                }
                out.push('\n');
            }
        }
        out
    }
}

/// How deep generated items sit: in a version module inside a group module.
const ITEM_INDENT: usize = 8;

/// The width a line may take, as rustfmt's default.
const WIDTH: usize = 100;

/// Formatted source, written line by line at a nesting depth, for items that sit at
/// `ITEM_INDENT`.
#[derive(Default)]
pub struct Writer {
    out: String,
    depth: usize,
    /// Levels the text will sit deeper than `ITEM_INDENT` once spliced (inside an
    /// impl, a function): counted for the width, not written.
    outer: usize,
}

impl Writer {
    /// A writer for text that sits `outer` levels deeper than module items.
    pub fn nested(outer: usize) -> Self {
        Writer {
            outer,
            ..Writer::default()
        }
    }

    /// Whether `code` fits on a line at the current depth.
    fn fits(&self, code: &str) -> bool {
        ITEM_INDENT + 4 * (self.outer + self.depth) + code.len() <= WIDTH
    }

    /// `text` (lines written by another writer) at the current depth.
    pub fn lines(&mut self, text: &str) {
        for line in text.lines() {
            self.line(line);
        }
    }

    /// `prefix`, `e` and `suffix`: on one line when they fit, else `e` broken at its
    /// outermost call, array or struct, as rustfmt lays it out.
    pub fn expr(&mut self, prefix: &str, e: &Expr, suffix: &str) {
        if !matches!(e, Expr::Struct(..)) {
            let mut one_line = String::from(prefix);
            e.flat(&mut one_line);
            one_line.push_str(suffix);
            if self.fits(&one_line) {
                self.line(&one_line);
                return;
            }
        }
        match e {
            Expr::Atom(a) => self.line(&format!("{prefix}{a}{suffix}")),
            Expr::Call(head, args) => {
                self.open(&format!("{prefix}{head}("));
                for a in args {
                    self.expr("", a, ",");
                }
                self.close(&format!("){suffix}"));
            }
            Expr::Array(head, items) => {
                self.open(&format!("{prefix}{head}["));
                for i in items {
                    self.expr("", i, ",");
                }
                self.close(&format!("]{suffix}"));
            }
            Expr::Struct(head, fields, base) => {
                self.open(&format!("{prefix}{head} {{"));
                for (name, value) in fields {
                    self.expr(&format!("{name}: "), value, ",");
                }
                if let Some(base) = base {
                    self.expr("..", base, "");
                }
                self.close(&format!("}}{suffix}"));
            }
            Expr::Alternatives(alts) => {
                // The first after `prefix`, each other on a line of its own after `|`,
                // one level deeper; `suffix` after the last.
                for (i, alt) in alts.iter().enumerate() {
                    let (start, end) = (
                        if i == 0 { prefix } else { "| " },
                        if i + 1 == alts.len() { suffix } else { "" },
                    );
                    self.depth += usize::from(i == 1);
                    self.line(&format!("{start}{alt}{end}"));
                }
                self.depth -= usize::from(alts.len() > 1);
            }
        }
    }

    /// A line at the current depth.
    pub fn line(&mut self, code: &str) {
        if !code.is_empty() {
            for _ in 0..self.depth {
                self.out.push_str("    ");
            }
            self.out.push_str(code);
        }
        self.out.push('\n');
    }

    /// A line that opens a block: what follows is one level deeper.
    pub fn open(&mut self, code: &str) {
        self.line(code);
        self.depth += 1;
    }

    /// A line that closes a block opened by [`Writer::open`].
    pub fn close(&mut self, code: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.line(code);
    }

    /// A line that closes a block and opens the next (`} else {`).
    pub fn reopen(&mut self, code: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.open(code);
    }

    /// `head(args...)tail` on one line when it fits in [`WIDTH`], else with one
    /// argument per line, as rustfmt breaks a call.
    pub fn call(&mut self, head: &str, args: &[&str], tail: &str) {
        let args = args.iter().map(|a| Expr::atom(*a)).collect();
        self.expr("", &Expr::call(head, args), tail);
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// An expression for [`Writer::expr`] to lay out.
pub enum Expr {
    /// Text never broken: a path, a literal, `&NAME`.
    Atom(String),
    /// `head(args)`.
    Call(String, Vec<Expr>),
    /// `head[items]` (`head` is `&` for a slice).
    Array(String, Vec<Expr>),
    /// `head { name: value, .., ..base }`, always one field per line.
    Struct(String, Vec<(&'static str, Expr)>, Option<Box<Expr>>),
    /// Patterns joined by `|`.
    Alternatives(Vec<String>),
}

impl Expr {
    pub fn atom(text: impl Into<String>) -> Expr {
        Expr::Atom(text.into())
    }

    pub fn call(head: impl Into<String>, args: Vec<Expr>) -> Expr {
        Expr::Call(head.into(), args)
    }

    /// The expression on one line, appended to `out`.
    pub fn flat(&self, out: &mut String) {
        let list = |out: &mut String, items: &[Expr]| {
            for (i, e) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                e.flat(out);
            }
        };
        match self {
            Expr::Atom(a) => out.push_str(a),
            Expr::Call(head, args) => {
                out.push_str(head);
                out.push('(');
                list(out, args);
                out.push(')');
            }
            Expr::Array(head, items) => {
                out.push_str(head);
                out.push('[');
                list(out, items);
                out.push(']');
            }
            Expr::Struct(head, fields, base) => {
                out.push_str(head);
                out.push_str(" { ");
                for (name, value) in fields {
                    out.push_str(name);
                    out.push_str(": ");
                    value.flat(out);
                    out.push_str(", ");
                }
                if let Some(base) = base {
                    out.push_str("..");
                    base.flat(out);
                    out.push(' ');
                }
                out.push('}');
            }
            Expr::Alternatives(alts) => out.push_str(&alts.join(" | ")),
        }
    }
}

/// A Rust string literal for `s`.
pub fn string_literal(s: &str) -> String {
    // `str`'s Debug output is a valid Rust string literal: quotes and backslashes
    // escaped, control characters as `\n`, `\t` or `\u{..}`.
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_break_their_arguments_only_past_the_width() {
        let mut w = Writer::default();
        w.open("fn f() {");
        w.call("map.entry", &["\"a\"", "&self.a"], ";");
        let long = format!("&self.{}", "x".repeat(80));
        w.call("map.entry", &["\"b\"", &long], ";");
        w.close("}");
        assert_eq!(
            w.finish(),
            format!(
                "fn f() {{\n    map.entry(\"a\", &self.a);\n    map.entry(\n        \"b\",\n        {long},\n    );\n}}\n"
            )
        );
    }

    #[test]
    fn alternatives_break_one_per_line_and_keep_the_suffix() {
        let long = |c: char| string_literal(&c.to_string().repeat(50));
        let mut w = Writer::default();
        let two = Expr::call(
            "matches!",
            vec![Expr::atom("s"), Expr::Alternatives(vec![long('a'), long('b')])],
        );
        w.expr("", &two, ";");
        let one = Expr::Alternatives(vec![long('c').repeat(2)]);
        w.expr("let x = ", &one, ";");
        let (a, b, c) = (long('a'), long('b'), long('c').repeat(2));
        assert_eq!(
            w.finish(),
            format!("matches!(\n    s,\n    {a}\n        | {b},\n);\nlet x = {c};\n")
        );
    }

    #[test]
    fn placeholders_are_replaced_by_their_text_at_their_indentation() {
        let mut texts = TextItems::Placeholders(Vec::new());
        let first = texts.item("impl A {\n    fn a() {}\n}\n\nimpl B {}\n".into());
        let second = texts.item("struct C;\n".into());
        let file: syn::File = syn::parse2(quote!(mod m { #first struct Between; #second })).expect("items");
        let formatted = prettyplease::unparse(&file);
        assert_eq!(
            texts.splice(&formatted),
            "mod m {\n    impl A {\n        fn a() {}\n    }\n\n    impl B {}\n    struct Between;\n    struct C;\n}\n"
        );
    }

    #[test]
    fn as_tokens_parses_the_text() {
        let tokens = TextItems::AsTokens.item("impl A { fn a() {} }".into());
        assert_eq!(tokens.to_string(), quote!(impl A { fn a() {} }).to_string());
    }

    #[test]
    fn string_literals_escape_what_rust_needs() {
        let lit = string_literal("a\"b\\c\nd\u{7}");
        let parsed: syn::LitStr = syn::parse_str(&lit).expect("a string literal");
        assert_eq!(parsed.value(), "a\"b\\c\nd\u{7}");
    }
}
