//! Tests of the CEL front end: syntax and node ids, literals, macros, error texts,
//! limits, the printer, and the conformance and CRD corpora.

use super::ast::{Expr, ExprKind, Literal};
use super::unparse::{go_format_float, go_quote};
use super::{ParseErrors, ParsedExpr, parse};

mod corpus;
mod errors;
mod macros;
mod syntax;

/// A compact rendering of a tree: calls as `f(args)`, comprehensions as
/// `fold(var in range; accu = init; condition; step; result)`.
pub(super) fn sexpr(e: &Expr) -> String {
    let list = |items: &[Expr]| items.iter().map(sexpr).collect::<Vec<_>>().join(", ");
    match &e.kind {
        ExprKind::Literal(l) => match l {
            Literal::Null => "null".into(),
            Literal::Bool(b) => b.to_string(),
            Literal::Int(i) => i.to_string(),
            Literal::Uint(u) => format!("{u}u"),
            Literal::Double(d) => format!("{}d", go_format_float(*d)),
            Literal::String(s) => go_quote(s.as_bytes()),
            Literal::Bytes(b) => format!("b{}", go_quote(b)),
        },
        ExprKind::Ident(name) => name.clone(),
        ExprKind::Select(s) if s.test_only => format!("has({}.{})", sexpr(&s.operand), s.field),
        ExprKind::Select(s) => format!("{}.{}", sexpr(&s.operand), s.field),
        ExprKind::Call(c) => match &c.target {
            Some(t) => format!("{}.{}({})", sexpr(t), c.function, list(&c.args)),
            None => format!("{}({})", c.function, list(&c.args)),
        },
        ExprKind::List(l) => {
            let items: Vec<String> = l
                .elements
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let q = if l.optional_indices.contains(&(i as u32)) {
                        "?"
                    } else {
                        ""
                    };
                    format!("{q}{}", sexpr(x))
                })
                .collect();
            format!("[{}]", items.join(", "))
        }
        ExprKind::Map(m) => {
            let items: Vec<String> = m
                .entries
                .iter()
                .map(|en| {
                    format!(
                        "{}{}: {}",
                        if en.optional { "?" } else { "" },
                        sexpr(&en.key),
                        sexpr(&en.value)
                    )
                })
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        ExprKind::Struct(s) => {
            let items: Vec<String> = s
                .fields
                .iter()
                .map(|f| format!("{}{}: {}", if f.optional { "?" } else { "" }, f.name, sexpr(&f.value)))
                .collect();
            format!("{}{{{}}}", s.type_name, items.join(", "))
        }
        ExprKind::Comprehension(c) => {
            let vars = match &c.iter_var2 {
                Some(v2) => format!("{}, {v2}", c.iter_var),
                None => c.iter_var.clone(),
            };
            format!(
                "fold({vars} in {}; {} = {}; {}; {}; {})",
                sexpr(&c.iter_range),
                c.accu_var,
                sexpr(&c.accu_init),
                sexpr(&c.loop_condition),
                sexpr(&c.loop_step),
                sexpr(&c.result)
            )
        }
    }
}

/// Parses `src`, panicking with the error text on failure.
pub(super) fn ok(src: &str) -> ParsedExpr {
    parse(src).unwrap_or_else(|e| panic!("{src:?} failed to parse:\n{e}"))
}

/// The tree of `src` as an s-expression.
pub(super) fn tree(src: &str) -> String {
    sexpr(&ok(src).expr)
}

/// The error text for `src`, which must fail to parse.
pub(super) fn err(src: &str) -> String {
    match parse(src) {
        Ok(p) => panic!("{src:?} parsed as {}", sexpr(&p.expr)),
        Err(e) => {
            let e: ParseErrors = e;
            e.to_string()
        }
    }
}
