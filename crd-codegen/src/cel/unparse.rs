//! Turns an AST back into CEL source, following cel-go's `parser/unparser.go`:
//! macro-expanded nodes print as the macro call that produced them, operators get
//! parentheses only where precedence needs them, strings are quoted like Go's
//! `strconv.Quote`, bytes as octal escapes.
//!
//! [`unparse`] prints one line; [`unparse_with`] with
//! [`UnparseOptions::cel_go_default`] also breaks long lines after `&&`/`||` exactly
//! like cel-go's `Unparse` does by default.

use std::collections::BTreeMap;

use super::ast::{Expr, ExprId, ExprKind, Literal, MacroCall, operators};

/// CEL source for `expr` on one line; `macro_calls` (from
/// [`super::ast::ParsedExpr`]) lets expanded macros print as written.
pub fn unparse(expr: &Expr, macro_calls: &BTreeMap<ExprId, MacroCall>) -> String {
    unparse_with(expr, macro_calls, &UnparseOptions::default())
}

/// Line wrapping of [`unparse_with`] (cel-go's `UnparserOption`s).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct UnparseOptions {
    /// Break the line at an operator of `wrap_operators` once the line reaches this
    /// many bytes; `None` never wraps.
    pub wrap_on_column: Option<usize>,
    /// Operator function names to break at (e.g. [`operators::LOGICAL_AND`]).
    pub wrap_operators: Vec<&'static str>,
    /// Put the operator at the end of the line (true) or the start of the next.
    pub wrap_after_column_limit: bool,
}

impl UnparseOptions {
    /// What cel-go's `Unparse` does without options: wrap after `&&` and `||` once a
    /// line reaches 80 columns.
    pub fn cel_go_default() -> UnparseOptions {
        UnparseOptions {
            wrap_on_column: Some(80),
            wrap_operators: vec![operators::LOGICAL_AND, operators::LOGICAL_OR],
            wrap_after_column_limit: true,
        }
    }
}

/// CEL source for `expr`, with line wrapping as configured.
pub fn unparse_with(expr: &Expr, macro_calls: &BTreeMap<ExprId, MacroCall>, options: &UnparseOptions) -> String {
    let mut u = Unparser {
        out: String::new(),
        macro_calls,
        options,
        last_wrapped: 0,
    };
    u.visit(expr);
    u.out
}

struct Unparser<'a> {
    out: String,
    macro_calls: &'a BTreeMap<ExprId, MacroCall>,
    options: &'a UnparseOptions,
    /// Length of `out` at the last line break.
    last_wrapped: usize,
}

fn call_of(e: &Expr) -> Option<(&str, usize)> {
    match &e.kind {
        ExprKind::Call(c) => Some((c.function.as_str(), c.args.len())),
        _ => None,
    }
}

/// A call with at least two arguments (cel-go's `isComplexOperator`).
fn is_complex(e: &Expr) -> bool {
    call_of(e).is_some_and(|(_, n)| n >= 2)
}

fn is_same_precedence(op: &str, e: &Expr) -> bool {
    call_of(e).is_some_and(|(f, _)| operators::precedence(op) == operators::precedence(f))
}

/// A complex operator binding looser than `op`.
fn is_complex_with_respect_to(op: &str, e: &Expr) -> bool {
    call_of(e).is_some_and(|(f, n)| n >= 2 && operators::precedence(op) < operators::precedence(f))
}

fn is_binary_or_ternary(e: &Expr) -> bool {
    call_of(e).is_some_and(|(f, n)| {
        n >= 2 && (is_binary_operator(f) || operators::precedence(f) == operators::precedence(operators::CONDITIONAL))
    })
}

fn is_binary_operator(function: &str) -> bool {
    operators::display(function).is_some() && !matches!(function, operators::LOGICAL_NOT | operators::NEGATE)
}

impl Unparser<'_> {
    fn visit(&mut self, e: &Expr) {
        if let Some(call) = self.macro_calls.get(&e.id) {
            if let Some(target) = &call.target {
                self.visit_nested(target, is_binary_or_ternary(target));
                self.out.push('.');
            }
            self.out.push_str(&call.function);
            self.args(&call.args);
            return;
        }
        match &e.kind {
            ExprKind::Literal(l) => self.literal(l),
            ExprKind::Ident(name) => self.out.push_str(name),
            ExprKind::Select(s) => {
                if s.test_only {
                    self.out.push_str("has(");
                    self.visit(&s.operand);
                } else {
                    self.visit_nested(&s.operand, is_binary_or_ternary(&s.operand));
                }
                self.out.push('.');
                self.field(&s.field);
                if s.test_only {
                    self.out.push(')');
                }
            }
            ExprKind::Call(c) => self.call(c),
            ExprKind::List(l) => {
                self.out.push('[');
                for (i, el) in l.elements.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    if l.optional_indices.contains(&(i as u32)) {
                        self.out.push('?');
                    }
                    self.visit(el);
                }
                self.out.push(']');
            }
            ExprKind::Map(m) => {
                self.out.push('{');
                for (i, en) in m.entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    if en.optional {
                        self.out.push('?');
                    }
                    self.visit(&en.key);
                    self.out.push_str(": ");
                    self.visit(&en.value);
                }
                self.out.push('}');
            }
            ExprKind::Struct(s) => {
                self.out.push_str(&s.type_name);
                self.out.push('{');
                for (i, f) in s.fields.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    if f.optional {
                        self.out.push('?');
                    }
                    self.field(&f.name);
                    self.out.push_str(": ");
                    self.visit(&f.value);
                }
                self.out.push('}');
            }
            ExprKind::Comprehension(c) => {
                // Not expressible in CEL; cel-go refuses to unparse it. Print the parts.
                self.out.push_str("__comprehension__(");
                self.out.push_str(&c.iter_var);
                if let Some(v2) = &c.iter_var2 {
                    self.out.push_str(", ");
                    self.out.push_str(v2);
                }
                for (i, part) in [&c.iter_range, &c.accu_init, &c.loop_condition, &c.loop_step, &c.result]
                    .into_iter()
                    .enumerate()
                {
                    self.out.push_str(", ");
                    if i == 1 {
                        self.out.push_str(&c.accu_var);
                        self.out.push_str(", ");
                    }
                    self.visit(part);
                }
                self.out.push(')');
            }
        }
    }

    fn visit_nested(&mut self, e: &Expr, nested: bool) {
        if nested {
            self.out.push('(');
        }
        self.visit(e);
        if nested {
            self.out.push(')');
        }
    }

    fn args(&mut self, args: &[Expr]) {
        self.out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.visit(a);
        }
        self.out.push(')');
    }

    /// A field name, backquoted when it is not a plain identifier (or is `in`).
    fn field(&mut self, name: &str) {
        let plain = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name != "in";
        if plain {
            self.out.push_str(name);
        } else {
            self.out.push('`');
            self.out.push_str(name);
            self.out.push('`');
        }
    }

    fn call(&mut self, c: &super::ast::Call) {
        let f = c.function.as_str();
        match (f, c.args.as_slice(), &c.target) {
            (operators::CONDITIONAL, [cond, t, f], None) => {
                for (i, part) in [cond, t, f].into_iter().enumerate() {
                    if i == 1 {
                        self.out.push_str(" ? ");
                    } else if i == 2 {
                        self.out.push_str(" : ");
                    }
                    let nested = is_same_precedence(operators::CONDITIONAL, part) || is_complex(part);
                    self.visit_nested(part, nested);
                }
            }
            (operators::OPT_SELECT, [operand, field], None) => {
                self.visit_nested(operand, is_binary_or_ternary(operand));
                self.out.push_str(".?");
                match &field.kind {
                    ExprKind::Literal(Literal::String(name)) => self.field(name),
                    _ => self.visit(field),
                }
            }
            (operators::INDEX | operators::OPT_INDEX, [target, index], None) => {
                self.visit_nested(target, is_binary_or_ternary(target));
                self.out.push_str(if f == operators::INDEX { "[" } else { "[?" });
                self.visit(index);
                self.out.push(']');
            }
            (operators::LOGICAL_NOT | operators::NEGATE, [operand], None) => {
                self.out.push_str(if f == operators::NEGATE { "-" } else { "!" });
                self.visit_nested(operand, is_complex(operand));
            }
            (_, [lhs, rhs], None) if is_binary_operator(f) => {
                let lhs_paren = is_complex_with_respect_to(f, lhs);
                let mut rhs_paren = is_complex_with_respect_to(f, rhs);
                if !rhs_paren && f != operators::LOGICAL_AND && f != operators::LOGICAL_OR {
                    rhs_paren = is_same_precedence(f, rhs);
                }
                self.visit_nested(lhs, lhs_paren);
                self.operator(f);
                self.visit_nested(rhs, rhs_paren);
            }
            _ => {
                if let Some(target) = &c.target {
                    self.visit_nested(target, is_binary_or_ternary(target));
                    self.out.push('.');
                }
                self.out.push_str(f);
                self.args(&c.args);
            }
        }
    }

    /// A binary operator with spaces, or a line break (cel-go's
    /// `writeOperatorWithWrapping`).
    fn operator(&mut self, function: &str) {
        let text = operators::display(function).unwrap_or(function);
        if let Some(column) = self.options.wrap_on_column
            && self.options.wrap_operators.contains(&function)
            && self.out.len() - self.last_wrapped + function.len() >= column
        {
            self.last_wrapped = self.out.len();
            if self.options.wrap_after_column_limit {
                self.out.push(' ');
                self.out.push_str(text);
                self.out.push('\n');
            } else {
                self.out.push('\n');
                self.out.push_str(text);
                self.out.push(' ');
            }
            return;
        }
        self.out.push(' ');
        self.out.push_str(text);
        self.out.push(' ');
    }

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Null => self.out.push_str("null"),
            Literal::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Literal::Int(i) => self.out.push_str(&i.to_string()),
            Literal::Uint(u) => {
                self.out.push_str(&u.to_string());
                self.out.push('u');
            }
            Literal::Double(d) => {
                let s = go_format_float(*d);
                self.out.push_str(&s);
                if !s.contains(['.', 'e', 'E']) && d.is_finite() {
                    self.out.push_str(".0");
                }
            }
            Literal::String(s) => self.out.push_str(&go_quote(s.as_bytes())),
            Literal::Bytes(b) => {
                self.out.push_str("b\"");
                for byte in b {
                    self.out.push_str(&format!("\\{byte:03o}"));
                }
                self.out.push('"');
            }
        }
    }
}

/// Go's `strconv.FormatFloat(v, 'g', -1, 64)`, the form cel-go's unparser writes.
pub(crate) use crd_runtime::gofmt::float_v as go_format_float;

/// Go's `strconv.Quote` for (possibly non-UTF-8) bytes.
pub(crate) use crd_runtime::gofmt::quote_bytes as go_quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_format_like_go() {
        assert_eq!(go_format_float(1.0), "1");
        assert_eq!(go_format_float(-4.1), "-4.1");
        assert_eq!(go_format_float(123456.0), "123456");
        assert_eq!(go_format_float(1e7), "1e+07");
        assert_eq!(go_format_float(123456789.0), "1.23456789e+08");
        assert_eq!(go_format_float(1e30), "1e+30");
        assert_eq!(go_format_float(1.5e-5), "1.5e-05");
        assert_eq!(go_format_float(0.0001), "0.0001");
        assert_eq!(go_format_float(2.5e100), "2.5e+100");
    }

    #[test]
    fn quoting_like_go() {
        assert_eq!(go_quote(b"a\"b\\c\n\x01\x7f"), r#""a\"b\\c\n\x01\x7f""#);
        assert_eq!(go_quote("é😀\u{a0}".as_bytes()), "\"é😀\\u00a0\"");
        assert_eq!(go_quote(&[0xff, b'a']), r#""\xffa""#);
    }
}
