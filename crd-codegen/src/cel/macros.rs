//! Macro expansion, following cel-go's `parser/macro.go` (standard macros),
//! `ext/comprehensions.go` (two-variable comprehensions), `cel/library.go`
//! (`optMap`/`optFlatMap`) and `ext/lists.go` (`sortBy`).
//!
//! The expansions create their nodes in exactly the order cel-go does (Go evaluates
//! call arguments left to right, and a node gets its id when its constructor runs,
//! i.e. after its children), so that node ids match cel-go's. Every new node is
//! located at the macro call.

use super::ast::{
    ACCUMULATOR_NAME, Call, Comprehension, Expr, ExprId, ExprKind, LEGACY_ACCUMULATOR_NAME, List, Literal, MacroKind,
    MapEntry, Select, Span, Struct, StructField, UNUSED_ITER_VAR, operators,
};

/// Which macros the parser expands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroSet {
    /// `has`, `all`, `exists`, `exists_one`, `map` (2 and 3 arguments), `filter`:
    /// cel-go's `StandardMacros`.
    pub standard: bool,
    /// The two-argument `existsOne` spelling. cel-go's parser package has it
    /// (`parser.AllMacros`), but a `cel.Env` (and so Kubernetes) only registers
    /// `exists_one`, so by default `x.existsOne(v, p)` is an ordinary call.
    pub exists_one_camel_case: bool,
    /// Two-variable comprehensions (`ext.TwoVarComprehensions`, Kubernetes 1.32+).
    pub two_var_comprehensions: bool,
    /// `optMap` and `optFlatMap` (`cel.OptionalTypes`, Kubernetes 1.28+).
    pub optional: bool,
    /// `sortBy` (`ext.Lists` version 2+, Kubernetes 1.34+).
    pub sort_by: bool,
}

impl Default for MacroSet {
    /// The macros of the Kubernetes CEL environment.
    fn default() -> MacroSet {
        MacroSet {
            standard: true,
            exists_one_camel_case: false,
            two_var_comprehensions: true,
            optional: true,
            sort_by: true,
        }
    }
}

impl MacroSet {
    /// No macros at all.
    pub fn none() -> MacroSet {
        MacroSet {
            standard: false,
            exists_one_camel_case: false,
            two_var_comprehensions: false,
            optional: false,
            sort_by: false,
        }
    }

    /// The macro a call expands to, if any (cel-go keys macros by name, argument
    /// count and call style).
    pub fn lookup(&self, function: &str, argc: usize, receiver: bool) -> Option<MacroKind> {
        use MacroKind::*;
        let kind = match (function, argc, receiver) {
            ("has", 1, false) if self.standard => Has,
            ("all", 2, true) if self.standard => All,
            ("exists", 2, true) if self.standard => Exists,
            ("exists_one", 2, true) if self.standard => ExistsOne,
            ("existsOne", 2, true) if self.exists_one_camel_case => ExistsOne,
            ("map", 2, true) if self.standard => Map,
            ("map", 3, true) if self.standard => MapFilter,
            ("filter", 2, true) if self.standard => Filter,
            ("all", 3, true) if self.two_var_comprehensions => AllTwoVar,
            ("exists", 3, true) if self.two_var_comprehensions => ExistsTwoVar,
            ("existsOne" | "exists_one", 3, true) if self.two_var_comprehensions => ExistsOneTwoVar,
            ("transformList", 3, true) if self.two_var_comprehensions => TransformList,
            ("transformList", 4, true) if self.two_var_comprehensions => TransformListFilter,
            ("transformMap", 3, true) if self.two_var_comprehensions => TransformMap,
            ("transformMap", 4, true) if self.two_var_comprehensions => TransformMapFilter,
            ("transformMapEntry", 3, true) if self.two_var_comprehensions => TransformMapEntry,
            ("transformMapEntry", 4, true) if self.two_var_comprehensions => TransformMapEntryFilter,
            ("optMap", 2, true) if self.optional => OptMap,
            ("optFlatMap", 2, true) if self.optional => OptFlatMap,
            ("sortBy", 2, true) if self.sort_by => SortBy,
            _ => return None,
        };
        Some(kind)
    }
}

/// Hands out node ids in creation order, like cel-go's `parserHelper`.
#[derive(Debug)]
pub(crate) struct IdGen {
    next: ExprId,
}

impl IdGen {
    pub(crate) fn new() -> IdGen {
        IdGen { next: 1 }
    }

    pub(crate) fn next(&mut self) -> ExprId {
        let id = self.next;
        self.next += 1;
        id
    }

    /// Gives an id back if it was the last one handed out (cel-go's `deleteID`).
    pub(crate) fn delete(&mut self, id: ExprId) {
        if id + 1 == self.next {
            self.next -= 1;
        }
    }

    /// The next id that would be handed out.
    pub(crate) fn peek(&self) -> ExprId {
        self.next
    }
}

/// A macro whose arguments are not well formed: the message and the span of the
/// offending argument (where cel-go reports it).
#[derive(Clone, Debug)]
pub(crate) struct MacroError {
    pub message: String,
    pub span: Span,
}

fn error(at: &Expr, message: impl Into<String>) -> MacroError {
    MacroError {
        message: message.into(),
        span: at.span,
    }
}

/// The most nodes an expression may have after macro expansion. `optMap` and
/// `optFlatMap` copy their target, so a chain of them doubles the tree at each link:
/// some fifteen links of a short expression would take minutes and gigabytes. cel-go
/// has no such limit; no real rule comes near it (the largest rule of the corpus has
/// about 320 nodes).
pub const MAX_EXPANDED_NODES: ExprId = 100_000;

/// Expands the macro `kind` called at `call_span`. `target` is present for
/// receiver-style macros. On error the arguments are dropped, as in cel-go.
pub(crate) fn expand(
    kind: MacroKind,
    ids: &mut IdGen,
    call_span: Span,
    target: Option<Expr>,
    args: Vec<Expr>,
) -> Result<Expr, MacroError> {
    if ids.next > MAX_EXPANDED_NODES {
        return Err(MacroError {
            message: format!("expression too large: more than {MAX_EXPANDED_NODES} nodes after macro expansion"),
            span: call_span,
        });
    }
    let mut b = Builder {
        ids,
        loc: Span::at(call_span.start),
    };
    let mut args = args.into_iter();
    // The parser looked the macro up by its argument count and receiver; should that
    // ever disagree, the call is an error rather than a panic.
    let wrong = MacroError {
        message: "wrong number of arguments".into(),
        span: call_span,
    };
    let mut arg = {
        let wrong = wrong.clone();
        move || args.next().ok_or_else(|| wrong.clone())
    };
    let target_of = |target: Option<Expr>| target.ok_or_else(|| wrong.clone());
    use MacroKind::*;
    match kind {
        Has => {
            let a = arg()?;
            match a.kind {
                ExprKind::Select(s) => Ok(b.node(ExprKind::Select(Select { test_only: true, ..s }))),
                _ => Err(error(&a, "invalid argument to has() macro")),
            }
        }
        All | Exists | ExistsOne => {
            let (var, pred) = (arg()?, arg()?);
            let v = iter_var(&var, "argument must be a simple name")?;
            Ok(b.quantifier(kind, target_of(target)?, v, None, pred))
        }
        Map | MapFilter | Filter => {
            let var = arg()?;
            let (filter, transform) = match kind {
                Map => (None, arg()?),
                MapFilter => {
                    let f = arg()?;
                    (Some(f), arg()?)
                }
                _ => {
                    let f = arg()?;
                    (Some(f), var.clone())
                }
            };
            let v = iter_var(&var, "argument is not an identifier")?;
            Ok(b.map_comprehension(target_of(target)?, v, filter, transform))
        }
        AllTwoVar | ExistsTwoVar | ExistsOneTwoVar => {
            let (v1, v2, pred) = (arg()?, arg()?, arg()?);
            let (v1, v2) = iter_vars(&v1, &v2)?;
            let one_var_kind = match kind {
                AllTwoVar => All,
                ExistsTwoVar => Exists,
                _ => ExistsOne,
            };
            Ok(b.quantifier(one_var_kind, target_of(target)?, v1, Some(v2), pred))
        }
        TransformList
        | TransformListFilter
        | TransformMap
        | TransformMapFilter
        | TransformMapEntry
        | TransformMapEntryFilter => {
            let (v1, v2) = (arg()?, arg()?);
            let (v1, v2) = iter_vars(&v1, &v2)?;
            let filtered = matches!(kind, TransformListFilter | TransformMapFilter | TransformMapEntryFilter);
            let filter = filtered.then(&mut arg).transpose()?;
            let transform = arg()?;
            Ok(b.transform(kind, target_of(target)?, v1, v2, filter, transform))
        }
        OptMap | OptFlatMap => {
            let (var, mapped) = (arg()?, arg()?);
            let name = if kind == OptMap { "optMap" } else { "optFlatMap" };
            let Some(v) = var.as_ident() else {
                return Err(error(
                    &var,
                    format!("{name}() variable name must be a simple identifier"),
                ));
            };
            Ok(b.opt_map(target_of(target)?, v.to_string(), mapped, kind == OptMap))
        }
        SortBy => {
            let target = target_of(target)?;
            b.sort_by(target, arg()?, arg()?)
        }
    }
}

/// The name of an iteration variable argument, checked like cel-go does.
fn iter_var(e: &Expr, not_ident: &str) -> Result<String, MacroError> {
    let Some(v) = e.as_ident() else {
        return Err(error(e, not_ident));
    };
    if v == ACCUMULATOR_NAME || v == LEGACY_ACCUMULATOR_NAME {
        return Err(error(e, "iteration variable overwrites accumulator variable"));
    }
    Ok(v.to_string())
}

/// cel-go's `extractIterVars` for two-variable comprehensions.
fn iter_vars(a0: &Expr, a1: &Expr) -> Result<(String, String), MacroError> {
    const SIMPLE: &str = "argument must be a simple name";
    let v1 = a0.as_ident().ok_or_else(|| error(a0, SIMPLE))?;
    let v2 = a1.as_ident().ok_or_else(|| error(a1, SIMPLE))?;
    if v1 == v2 {
        return Err(error(a1, format!("duplicate variable name: {v1}")));
    }
    for (v, e) in [(v1, a0), (v2, a1)] {
        if v == ACCUMULATOR_NAME || v == LEGACY_ACCUMULATOR_NAME {
            return Err(error(e, "iteration variable overwrites accumulator variable"));
        }
    }
    Ok((v1.to_string(), v2.to_string()))
}

/// Creates macro nodes located at the macro call (cel-go's `exprHelper`).
struct Builder<'a> {
    ids: &'a mut IdGen,
    loc: Span,
}

impl Builder<'_> {
    fn node(&mut self, kind: ExprKind) -> Expr {
        Expr {
            id: self.ids.next(),
            span: self.loc,
            kind,
        }
    }

    fn literal(&mut self, l: Literal) -> Expr {
        self.node(ExprKind::Literal(l))
    }

    fn ident(&mut self, name: &str) -> Expr {
        self.node(ExprKind::Ident(name.to_string()))
    }

    fn accu(&mut self) -> Expr {
        self.ident(ACCUMULATOR_NAME)
    }

    fn call(&mut self, function: &str, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call(Call {
            target: None,
            function: function.to_string(),
            args,
        }))
    }

    fn member_call(&mut self, function: &str, target: Expr, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call(Call {
            target: Some(Box::new(target)),
            function: function.to_string(),
            args,
        }))
    }

    fn list(&mut self, elements: Vec<Expr>) -> Expr {
        self.node(ExprKind::List(List {
            elements,
            optional_indices: Vec::new(),
        }))
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension(
        &mut self,
        iter_range: Expr,
        iter_var: String,
        iter_var2: Option<String>,
        accu_var: String,
        accu_init: Expr,
        loop_condition: Expr,
        loop_step: Expr,
        result: Expr,
    ) -> Expr {
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_var,
            iter_var2,
            iter_range,
            accu_var,
            accu_init,
            loop_condition,
            loop_step,
            result,
        })))
    }

    /// `accu + 1` as used by `exists_one`: `_?_:_(pred, _+_(@result, 1), @result)`.
    fn count_step(&mut self, pred: Expr) -> Expr {
        let accu = self.accu();
        let one = self.literal(Literal::Int(1));
        let add = self.call(operators::ADD, vec![accu, one]);
        let accu = self.accu();
        self.call(operators::CONDITIONAL, vec![pred, add, accu])
    }

    /// `all`, `exists` and `exists_one`, with one or two iteration variables.
    fn quantifier(&mut self, kind: MacroKind, target: Expr, v1: String, v2: Option<String>, pred: Expr) -> Expr {
        let (init, cond, step, result) = match kind {
            MacroKind::All => {
                let init = self.literal(Literal::Bool(true));
                let accu = self.accu();
                let cond = self.call(operators::NOT_STRICTLY_FALSE, vec![accu]);
                let accu = self.accu();
                let step = self.call(operators::LOGICAL_AND, vec![accu, pred]);
                (init, cond, step, self.accu())
            }
            MacroKind::Exists => {
                let init = self.literal(Literal::Bool(false));
                let accu = self.accu();
                let not = self.call(operators::LOGICAL_NOT, vec![accu]);
                let cond = self.call(operators::NOT_STRICTLY_FALSE, vec![not]);
                let accu = self.accu();
                let step = self.call(operators::LOGICAL_OR, vec![accu, pred]);
                (init, cond, step, self.accu())
            }
            _ => {
                let init = self.literal(Literal::Int(0));
                let cond = self.literal(Literal::Bool(true));
                let step = self.count_step(pred);
                let accu = self.accu();
                let one = self.literal(Literal::Int(1));
                let result = self.call(operators::EQUALS, vec![accu, one]);
                (init, cond, step, result)
            }
        };
        self.comprehension(target, v1, v2, ACCUMULATOR_NAME.into(), init, cond, step, result)
    }

    /// `map` (with optional filter) and `filter` (whose transform is the variable).
    fn map_comprehension(&mut self, target: Expr, v: String, filter: Option<Expr>, transform: Expr) -> Expr {
        let init = self.list(Vec::new());
        let cond = self.literal(Literal::Bool(true));
        let accu = self.accu();
        let elem = self.list(vec![transform]);
        let mut step = self.call(operators::ADD, vec![accu, elem]);
        if let Some(filter) = filter {
            let accu = self.accu();
            step = self.call(operators::CONDITIONAL, vec![filter, step, accu]);
        }
        let result = self.accu();
        self.comprehension(target, v, None, ACCUMULATOR_NAME.into(), init, cond, step, result)
    }

    /// `transformList`, `transformMap` and `transformMapEntry`, with optional filter.
    fn transform(
        &mut self,
        kind: MacroKind,
        target: Expr,
        v1: String,
        v2: String,
        filter: Option<Expr>,
        transform: Expr,
    ) -> Expr {
        use MacroKind::*;
        let is_list = matches!(kind, TransformList | TransformListFilter);
        let mut step = if is_list {
            let accu = self.accu();
            let elem = self.list(vec![transform]);
            self.call(operators::ADD, vec![accu, elem])
        } else if matches!(kind, TransformMap | TransformMapFilter) {
            let accu = self.accu();
            let key = self.ident(&v1);
            self.call(operators::MAP_INSERT, vec![accu, key, transform])
        } else {
            let accu = self.accu();
            self.call(operators::MAP_INSERT, vec![accu, transform])
        };
        if let Some(filter) = filter {
            let accu = self.accu();
            step = self.call(operators::CONDITIONAL, vec![filter, step, accu]);
        }
        let init = if is_list {
            self.list(Vec::new())
        } else {
            self.node(ExprKind::Map(super::ast::Map { entries: Vec::new() }))
        };
        let cond = self.literal(Literal::Bool(true));
        let result = self.accu();
        self.comprehension(target, v1, Some(v2), ACCUMULATOR_NAME.into(), init, cond, step, result)
    }

    /// `optMap` / `optFlatMap`: `target.hasValue() ? [optional.of](<bind v = target.value() in
    /// mapped>) : optional.none()`, the binding being a comprehension over `[]`.
    fn opt_map(&mut self, target: Expr, v: String, mapped: Expr, wrap: bool) -> Expr {
        let original = target.clone();
        let has_value = self.member_call(operators::HAS_VALUE, target, Vec::new());
        let range = self.list(Vec::new());
        let copy = self.copy(&original);
        let value = self.member_call(operators::VALUE, copy, Vec::new());
        let cond = self.literal(Literal::Bool(false));
        let step = self.ident(&v);
        let mut bound = self.comprehension(range, UNUSED_ITER_VAR.into(), None, v, value, cond, step, mapped);
        if wrap {
            bound = self.call(operators::OPTIONAL_OF, vec![bound]);
        }
        let none = self.call(operators::OPTIONAL_NONE, Vec::new());
        self.call(operators::CONDITIONAL, vec![has_value, bound, none])
    }

    /// `sortBy(e, key)`: binds the target to `@__sortBy_input__` and calls
    /// `@sortByAssociatedKeys` with the keys computed by a `map`.
    fn sort_by(&mut self, target: Expr, var: Expr, key: Expr) -> Result<Expr, MacroError> {
        const INPUT: &str = "@__sortBy_input__";
        let input = self.ident(INPUT);
        if !matches!(
            target.kind,
            ExprKind::List(_)
                | ExprKind::Select(_)
                | ExprKind::Ident(_)
                | ExprKind::Comprehension(_)
                | ExprKind::Call(_)
        ) {
            return Err(error(
                &target,
                "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
            ));
        }
        let range = self.copy(&input);
        let v = iter_var(&var, "argument is not an identifier")?;
        let keys = self.map_comprehension(range, v, None, key);
        let receiver = self.copy(&input);
        let call = self.member_call(operators::SORT_BY_ASSOCIATED_KEYS, receiver, vec![keys]);
        let empty = self.list(Vec::new());
        let cond = self.literal(Literal::Bool(false));
        Ok(self.comprehension(
            empty,
            UNUSED_ITER_VAR.into(),
            None,
            INPUT.into(),
            target,
            cond,
            input,
            call,
        ))
    }

    /// A deep copy with fresh ids (cel-go's `exprHelper.Copy`): copied nodes keep their
    /// spans; map entries and struct fields get new ids located at the macro call.
    fn copy(&mut self, e: &Expr) -> Expr {
        let id = self.ids.next();
        let kind = match &e.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => e.kind.clone(),
            ExprKind::Select(s) => ExprKind::Select(Select {
                operand: Box::new(self.copy(&s.operand)),
                field: s.field.clone(),
                test_only: s.test_only,
            }),
            ExprKind::Call(c) => {
                let args = c.args.iter().map(|a| self.copy(a)).collect();
                let target = c.target.as_ref().map(|t| Box::new(self.copy(t)));
                ExprKind::Call(Call {
                    target,
                    function: c.function.clone(),
                    args,
                })
            }
            ExprKind::List(l) => ExprKind::List(List {
                elements: l.elements.iter().map(|x| self.copy(x)).collect(),
                optional_indices: l.optional_indices.clone(),
            }),
            ExprKind::Map(m) => ExprKind::Map(super::ast::Map {
                entries: m
                    .entries
                    .iter()
                    .map(|en| {
                        let id = self.ids.next();
                        let key = self.copy(&en.key);
                        let value = self.copy(&en.value);
                        MapEntry {
                            id,
                            span: self.loc,
                            key,
                            value,
                            optional: en.optional,
                        }
                    })
                    .collect(),
            }),
            ExprKind::Struct(s) => ExprKind::Struct(Struct {
                type_name: s.type_name.clone(),
                fields: s
                    .fields
                    .iter()
                    .map(|f| {
                        let id = self.ids.next();
                        let value = self.copy(&f.value);
                        StructField {
                            id,
                            span: self.loc,
                            name: f.name.clone(),
                            value,
                            optional: f.optional,
                        }
                    })
                    .collect(),
            }),
            ExprKind::Comprehension(c) => {
                let iter_range = self.copy(&c.iter_range);
                let accu_init = self.copy(&c.accu_init);
                let loop_condition = self.copy(&c.loop_condition);
                let loop_step = self.copy(&c.loop_step);
                let result = self.copy(&c.result);
                ExprKind::Comprehension(Box::new(Comprehension {
                    iter_var: c.iter_var.clone(),
                    iter_var2: c.iter_var2.clone(),
                    iter_range,
                    accu_var: c.accu_var.clone(),
                    accu_init,
                    loop_condition,
                    loop_step,
                    result,
                }))
            }
        };
        Expr { id, span: e.span, kind }
    }
}
