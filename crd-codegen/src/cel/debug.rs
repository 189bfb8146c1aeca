//! cel-go's debug rendering of an AST (`common/debug`): one node per line, calls as
//! `f(args)`, comprehensions spelled out, optionally adorned with node ids, kinds or
//! locations. Useful in tests, to compare trees (and node ids) with cel-go's own
//! parser tests.

use super::ast::{Expr, ExprId, ExprKind, Literal, MacroCall, ParsedExpr};
use super::unparse::{go_format_float, go_quote};

/// What to append after each node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adornment {
    /// Nothing.
    None,
    /// `^#id:kind#`, with cel-go's protobuf kind names (cel-go's parser-test adorner).
    KindAndId,
    /// Like `KindAndId`, but `^#id:macro#` for nodes produced by a macro.
    KindAndIdWithMacros,
    /// `^#id[line,column]#`.
    Location,
}

/// The debug string of a parsed expression.
pub fn debug_string(parsed: &ParsedExpr, adornment: Adornment) -> String {
    let mut w = Writer::new(parsed, adornment);
    w.expr(&parsed.expr, false);
    w.out
}

/// The debug string of the macro calls of a parsed expression, as cel-go's parser
/// tests print them: by descending id, each call adorned with its id; arguments that
/// are themselves macro calls appear only as their adornment.
pub fn macro_calls_debug_string(parsed: &ParsedExpr) -> String {
    let mut parts = Vec::new();
    for (id, call) in parsed.macro_calls.iter().rev() {
        let mut w = Writer::new(parsed, Adornment::KindAndIdWithMacros);
        w.macro_call(*id, call);
        parts.push(w.out);
    }
    parts.join(",\n")
}

struct Writer<'a> {
    parsed: &'a ParsedExpr,
    adornment: Adornment,
    out: String,
    indent: usize,
    line_start: bool,
}

impl<'a> Writer<'a> {
    fn new(parsed: &'a ParsedExpr, adornment: Adornment) -> Writer<'a> {
        Writer {
            parsed,
            adornment,
            out: String::new(),
            indent: 0,
            line_start: true,
        }
    }

    fn append(&mut self, s: &str) {
        if self.line_start {
            self.line_start = false;
            self.out.push_str(&"  ".repeat(self.indent));
        }
        self.out.push_str(s);
    }

    fn line(&mut self) {
        self.out.push('\n');
        self.line_start = true;
    }

    fn adorn(&mut self, id: ExprId, kind: &str, span_start: usize) {
        let text = match self.adornment {
            Adornment::None => return,
            Adornment::KindAndId => format!("^#{id}:{kind}#"),
            Adornment::KindAndIdWithMacros => match self.parsed.macro_calls.get(&id) {
                Some(call) => format!("^#{id}:{}#", call.function),
                None => format!("^#{id}:{kind}#"),
            },
            Adornment::Location => {
                let loc = self.parsed.source.location(span_start);
                format!("^#{id}[{},{}]#", loc.line, loc.column)
            }
        };
        self.append(&text);
    }

    /// Writes `e`; with `macro_refs`, nodes produced by macros inside call and list
    /// arguments are written as references (cel-go's `buildMacroCallArg`).
    fn expr(&mut self, e: &Expr, macro_refs: bool) {
        if macro_refs && self.parsed.macro_calls.contains_key(&e.id) {
            self.adorn(e.id, "", e.span.start);
            return;
        }
        let kind = match &e.kind {
            ExprKind::Literal(l) => {
                let (text, kind) = literal(l);
                self.append(&text);
                kind
            }
            ExprKind::Ident(name) => {
                self.append(name);
                "*expr.Expr_IdentExpr"
            }
            ExprKind::Select(s) => {
                self.expr(&s.operand, false);
                self.append(".");
                self.append(&s.field);
                if s.test_only {
                    self.append("~test-only~");
                }
                "*expr.Expr_SelectExpr"
            }
            ExprKind::Call(c) => {
                if let Some(t) = &c.target {
                    self.expr(t, macro_refs);
                    self.append(".");
                }
                self.append(&c.function);
                self.call_args(&c.args, macro_refs);
                "*expr.Expr_CallExpr"
            }
            ExprKind::List(l) => {
                self.append("[");
                if !l.elements.is_empty() {
                    self.line();
                    self.indent += 1;
                    for (i, el) in l.elements.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.line();
                        }
                        self.expr(el, macro_refs);
                    }
                    self.indent -= 1;
                    self.line();
                }
                self.append("]");
                "*expr.Expr_ListExpr"
            }
            ExprKind::Map(m) => {
                self.append("{");
                if !m.entries.is_empty() {
                    self.line();
                    self.indent += 1;
                    for (i, en) in m.entries.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.line();
                        }
                        if en.optional {
                            self.append("?");
                        }
                        self.expr(&en.key, false);
                        self.append(":");
                        self.expr(&en.value, false);
                        self.adorn(en.id, "*expr.Expr_CreateStruct_Entry", en.span.start);
                    }
                    self.indent -= 1;
                    self.line();
                }
                self.append("}");
                "*expr.Expr_StructExpr"
            }
            ExprKind::Struct(s) => {
                self.append(&s.type_name);
                self.append("{");
                if !s.fields.is_empty() {
                    self.line();
                    self.indent += 1;
                    for (i, f) in s.fields.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.line();
                        }
                        if f.optional {
                            self.append("?");
                        }
                        self.append(&f.name);
                        self.append(":");
                        self.expr(&f.value, false);
                        self.adorn(f.id, "*expr.Expr_CreateStruct_Entry", f.span.start);
                    }
                    self.indent -= 1;
                    self.line();
                }
                self.append("}");
                "*expr.Expr_StructExpr"
            }
            ExprKind::Comprehension(c) => {
                self.append("__comprehension__(");
                self.indent += 1;
                self.line();
                self.append("// Variable");
                self.line();
                self.append(&c.iter_var);
                self.append(",");
                self.line();
                if let Some(v2) = &c.iter_var2 {
                    self.append(v2);
                    self.append(",");
                    self.line();
                }
                let parts = [
                    ("// Target", &c.iter_range),
                    ("// Accumulator", &c.iter_range),
                    ("// Init", &c.accu_init),
                    ("// LoopCondition", &c.loop_condition),
                    ("// LoopStep", &c.loop_step),
                    ("// Result", &c.result),
                ];
                for (i, (title, part)) in parts.into_iter().enumerate() {
                    self.append(title);
                    self.line();
                    if i == 1 {
                        self.append(&c.accu_var);
                    } else {
                        self.expr(part, false);
                    }
                    if i < 5 {
                        self.append(",");
                        self.line();
                    }
                }
                self.append(")");
                self.indent -= 1;
                "*expr.Expr_ComprehensionExpr"
            }
        };
        self.adorn(e.id, kind, e.span.start);
    }

    fn call_args(&mut self, args: &[Expr], macro_refs: bool) {
        self.append("(");
        if !args.is_empty() {
            self.indent += 1;
            self.line();
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    self.append(",");
                    self.line();
                }
                self.expr(a, macro_refs);
            }
            self.indent -= 1;
            self.line();
        }
        self.append(")");
    }

    fn macro_call(&mut self, id: ExprId, call: &MacroCall) {
        if let Some(t) = &call.target {
            self.expr(t, true);
            self.append(".");
        }
        self.append(&call.function);
        self.call_args(&call.args, true);
        self.adorn(id, "*expr.Expr_CallExpr", 0);
    }
}

fn literal(l: &Literal) -> (String, &'static str) {
    match l {
        Literal::Null => ("null".into(), "*expr.Constant_NullValue"),
        Literal::Bool(b) => (b.to_string(), "*expr.Constant_BoolValue"),
        Literal::Int(i) => (i.to_string(), "*expr.Constant_Int64Value"),
        Literal::Uint(u) => (format!("{u}u"), "*expr.Constant_Uint64Value"),
        Literal::Double(d) => (go_format_float(*d), "*expr.Constant_DoubleValue"),
        Literal::String(s) => (go_quote(s.as_bytes()), "*expr.Constant_StringValue"),
        Literal::Bytes(b) => (format!("b{}", go_quote(b)), "*expr.Constant_BytesValue"),
    }
}
