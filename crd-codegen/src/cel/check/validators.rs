//! cel-go's AST validators, run after a successful type check (`cel/validator.go`,
//! `ext/formatting.go`): literal arguments of `duration()`, `timestamp()` and
//! `matches()`, homogeneous list and map literals, and literal `format()` calls.

use super::CheckedExpr;
use super::env::Env;
use crate::cel::ast::{Expr, ExprId, ExprKind, Literal, Span};
use crate::cel::errors::{CelError, CelErrors};
use crate::cel::types::{Kind, Type};

/// Runs the environment's validators in cel-go's order; all their errors together.
pub fn validate(checked: &CheckedExpr, env: &Env) -> Result<(), CelErrors> {
    let mut v = Validation {
        checked,
        errors: CelErrors::new(checked.source.clone()),
    };
    let opts = &env.validators;
    if opts.homogeneous_aggregate_literals {
        v.homogeneous_literals(opts.string_format);
    }
    if opts.duration_literals {
        v.literal_arguments("duration", |l| match l {
            Literal::String(s) => crd_runtime::time::duration(s).is_ok(),
            _ => true,
        });
    }
    if opts.timestamp_literals {
        v.literal_arguments("timestamp", |l| match l {
            Literal::String(s) => crd_runtime::time::timestamp(s).is_ok(),
            Literal::Int(i) => crd_runtime::time::timestamp_from_unix(*i).is_ok(),
            _ => true,
        });
    }
    if opts.regex_literals {
        v.literal_arguments("matches", |l| match l {
            Literal::String(s) => crd_runtime::regex::translate(s).is_ok(),
            _ => true,
        });
    }
    if opts.string_format {
        v.string_format();
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        v.errors.sort();
        Err(v.errors)
    }
}

struct Validation<'a> {
    checked: &'a CheckedExpr,
    errors: CelErrors,
}

/// Visits every node, parents first, with whether the node is inside a call to
/// `format`.
fn visit<'e>(e: &'e Expr, in_format: bool, f: &mut dyn FnMut(&'e Expr, bool)) {
    f(e, in_format);
    match &e.kind {
        ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        ExprKind::Select(s) => visit(&s.operand, in_format, f),
        ExprKind::Call(c) => {
            let inner = in_format || c.function == "format";
            if let Some(t) = &c.target {
                visit(t, inner, f);
            }
            for a in &c.args {
                visit(a, inner, f);
            }
        }
        ExprKind::List(l) => l.elements.iter().for_each(|x| visit(x, in_format, f)),
        ExprKind::Map(m) => m.entries.iter().for_each(|en| {
            visit(&en.key, in_format, f);
            visit(&en.value, in_format, f);
        }),
        ExprKind::Struct(s) => s.fields.iter().for_each(|fi| visit(&fi.value, in_format, f)),
        ExprKind::Comprehension(c) => {
            visit(&c.iter_range, in_format, f);
            visit(&c.accu_init, in_format, f);
            visit(&c.loop_condition, in_format, f);
            visit(&c.loop_step, in_format, f);
            visit(&c.result, in_format, f);
        }
    }
}

impl Validation<'_> {
    fn error(&mut self, id: ExprId, span: Span, message: String) {
        let source = self.checked.source.clone();
        self.errors.push(CelError::at(&source, span.start, id, message));
    }

    fn type_of(&self, id: ExprId) -> Type {
        self.checked.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    /// cel-go's `formatValidator`: a literal first argument of every call to
    /// `function` must be accepted by `valid`.
    fn literal_arguments(&mut self, function: &str, valid: impl Fn(&Literal) -> bool) {
        let mut bad: Vec<(ExprId, Span)> = Vec::new();
        visit(&self.checked.expr, false, &mut |e, _| {
            if let ExprKind::Call(c) = &e.kind
                && c.function == function
                && let Some(arg) = c.args.first()
                && let ExprKind::Literal(l) = &arg.kind
                && !valid(l)
            {
                bad.push((arg.id, arg.span));
            }
        });
        for (id, span) in bad {
            self.error(id, span, format!("invalid {function} argument"));
        }
    }

    /// cel-go's `homogeneousAggregateLiteralValidator`.
    fn homogeneous_literals(&mut self, exempt_format: bool) {
        let mut found: Vec<(ExprId, Span, Type, Type)> = Vec::new();
        let checked = self.checked;
        let ty = |id: ExprId| checked.types.get(&id).cloned().unwrap_or(Type::Error);
        let unwrap_opt = |t: Type| match t {
            Type::Optional(inner) => *inner,
            other => other,
        };
        visit(&checked.expr, false, &mut |e, in_format| {
            if in_format && exempt_format {
                return;
            }
            match &e.kind {
                ExprKind::List(l) => {
                    let mut elem_type: Option<Type> = None;
                    for (i, el) in l.elements.iter().enumerate() {
                        let mut et = ty(el.id);
                        if l.optional_indices.contains(&(i as u32)) {
                            et = unwrap_opt(et);
                        }
                        match &elem_type {
                            None => elem_type = Some(et),
                            Some(first) => {
                                if !first.is_equivalent_type(&et) {
                                    found.push((el.id, el.span, first.clone(), et));
                                    break;
                                }
                            }
                        }
                    }
                }
                ExprKind::Map(m) => {
                    let mut first: Option<(Type, Type)> = None;
                    for en in &m.entries {
                        let kt = ty(en.key.id);
                        let mut vt = ty(en.value.id);
                        if en.optional {
                            vt = unwrap_opt(vt);
                        }
                        match &first {
                            None => first = Some((kt, vt)),
                            Some((k0, v0)) => {
                                if !k0.is_equivalent_type(&kt) {
                                    found.push((en.key.id, en.key.span, k0.clone(), kt));
                                }
                                if !v0.is_equivalent_type(&vt) {
                                    found.push((en.value.id, en.value.span, v0.clone(), vt));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        });
        for (id, span, expected, actual) in found {
            self.error(id, span, format!("expected type '{expected}' but found '{actual}'"));
        }
    }

    /// `ext.Strings`' `stringFormatValidator` (strings library versions 1 to 3).
    fn string_format(&mut self) {
        let mut calls: Vec<&Expr> = Vec::new();
        let checked = self.checked;
        visit(&checked.expr, false, &mut |e, _| {
            let ExprKind::Call(c) = &e.kind else { return };
            if c.function != "format" {
                return;
            }
            let Some(target) = &c.target else { return };
            let ids = checked.overload_ids(e.id);
            if !ids.is_empty() && !ids.iter().any(|i| i == "string_format") {
                return;
            }
            if !matches!(target.kind, ExprKind::Literal(Literal::String(_))) {
                return;
            }
            if c.args.len() != 1 || !matches!(c.args[0].kind, ExprKind::List(_)) {
                return;
            }
            calls.push(e);
        });
        for e in calls {
            let ExprKind::Call(c) = &e.kind else { continue };
            let Some(target) = c.target.as_deref() else { continue };
            let ExprKind::Literal(Literal::String(format)) = &target.kind else {
                continue;
            };
            let ExprKind::List(list) = &c.args[0].kind else {
                continue;
            };
            let args: Vec<&Expr> = list.elements.iter().collect();
            let mut fc = FormatChecker {
                validation: self,
                args: &args,
                requested: 0,
            };
            match fc.parse(format) {
                Err((id, msg)) => {
                    let (id, span) = match id.and_then(|id| find(&self.checked.expr, id)) {
                        Some(x) => (x.id, x.span),
                        None => (e.id, e.span),
                    };
                    self.error(id, span, msg);
                }
                Ok(()) => {
                    let requested = fc.requested;
                    if args.len() > requested {
                        let msg = format!(
                            "too many arguments supplied to string.format (expected {requested}, got {})",
                            args.len()
                        );
                        self.error(e.id, e.span, msg);
                    }
                }
            }
        }
    }
}

fn find(e: &Expr, id: ExprId) -> Option<&Expr> {
    let mut out = None;
    visit(e, false, &mut |x, _| {
        if out.is_none() && x.id == id {
            out = Some(x);
        }
    });
    out
}

/// cel-go's `stringFormatChecker` driven by `parseFormatString`.
struct FormatChecker<'v, 'a> {
    validation: &'v Validation<'a>,
    args: &'v [&'v Expr],
    requested: usize,
}

/// A format error: the node it is about (if any) and the message.
type FormatError = (Option<ExprId>, String);

impl FormatChecker<'_, '_> {
    fn parse(&mut self, format: &str) -> Result<(), FormatError> {
        let bytes = format.as_bytes();
        let mut i = 0;
        let mut arg_index = 0usize;
        while i < bytes.len() {
            if bytes[i] != b'%' {
                i += 1;
                continue;
            }
            if i + 1 < bytes.len() && bytes[i + 1] == b'%' {
                i += 2;
                continue;
            }
            // `Arg(index)` counts the request before anything is checked.
            self.requested += 1;
            if i + 1 >= bytes.len() {
                return Err((None, "unexpected end of string".into()));
            }
            if arg_index >= self.args.len() {
                return Err((None, format!("index {arg_index} out of range")));
            }
            let read = self.clause(&bytes[i + 1..], arg_index)?;
            i += 1 + read;
            arg_index += 1;
        }
        Ok(())
    }

    /// `parseAndFormatClause` for the checker: how many bytes the clause took.
    fn clause(&self, rest: &[u8], arg_index: usize) -> Result<usize, FormatError> {
        let wrap_parse = |msg: String| (None, format!("could not parse formatting clause: {msg}"));
        let mut i = 0;
        if rest[0] == b'.' {
            i = 1;
            let start = i;
            loop {
                if i >= rest.len() {
                    return Err(wrap_parse(
                        "error while parsing precision: could not find end of precision specifier".into(),
                    ));
                }
                if !rest[i].is_ascii_digit() {
                    break;
                }
                i += 1;
            }
            let digits = std::str::from_utf8(&rest[start..i]).unwrap_or("");
            if digits.parse::<i64>().is_err() {
                let reason = if digits.is_empty() {
                    format!("strconv.Atoi: parsing {digits:?}: invalid syntax")
                } else {
                    format!("strconv.Atoi: parsing {digits:?}: value out of range")
                };
                return Err(wrap_parse(format!(
                    "error while parsing precision: error while converting precision to integer: {reason}"
                )));
            }
        }
        let r = rest[i];
        i += 1;
        let arg = self.args[arg_index];
        let id = arg.id;
        let check = |valid: &[Kind], what: &str| -> Result<(), FormatError> {
            if self.verify_one_of(id, valid) {
                Ok(())
            } else {
                Err((
                    Some(id),
                    format!(
                        "error during formatting: {what}, was given {}",
                        self.validation.type_of(id).type_name()
                    ),
                ))
            }
        };
        match r {
            b's' => {
                if let Err(bad) = self.verify_string(arg) {
                    return Err((
                        Some(bad),
                        format!(
                            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                            self.validation.type_of(bad).type_name()
                        ),
                    ));
                }
            }
            b'd' => check(&[Kind::Int, Kind::Uint], "decimal clause can only be used on integers")?,
            b'f' => check(
                &[Kind::Double, Kind::String],
                "fixed-point clause can only be used on doubles",
            )?,
            b'e' => check(
                &[Kind::Double, Kind::String],
                "scientific clause can only be used on doubles",
            )?,
            b'b' => check(
                &[Kind::Int, Kind::Uint, Kind::Bool],
                "only integers and bools can be formatted as binary",
            )?,
            b'x' | b'X' => check(
                &[Kind::Int, Kind::Uint, Kind::String, Kind::Bytes],
                "only integers, byte buffers, and strings can be formatted as hex",
            )?,
            b'o' => check(&[Kind::Int, Kind::Uint], "octal clause can only be used on integers")?,
            other => {
                // Go prints the byte as a rune.
                let c = char::from(other);
                return Err(wrap_parse(format!("unrecognized formatting clause \"{c}\"")));
            }
        }
        Ok(i)
    }

    fn verify_one_of(&self, id: ExprId, valid: &[Kind]) -> bool {
        let t = self.validation.type_of(id);
        t == Type::Dyn || valid.contains(&t.kind())
    }

    /// `verifyString`: the id of the first node that cannot be formatted with `%s`.
    fn verify_string(&self, e: &Expr) -> Result<(), ExprId> {
        let valid = [
            Kind::List,
            Kind::Map,
            Kind::Int,
            Kind::Uint,
            Kind::Double,
            Kind::Bool,
            Kind::String,
            Kind::Timestamp,
            Kind::Bytes,
            Kind::Duration,
            Kind::Type,
            Kind::Null,
        ];
        if !self.verify_one_of(e.id, &valid) {
            return Err(e.id);
        }
        match &e.kind {
            ExprKind::List(l) => l.elements.iter().try_for_each(|x| self.verify_string(x)),
            ExprKind::Map(m) => m.entries.iter().try_for_each(|en| {
                self.verify_string(&en.key)?;
                self.verify_string(&en.value)
            }),
            _ => Ok(()),
        }
    }
}
