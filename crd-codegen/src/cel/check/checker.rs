//! The type checker: a port of cel-go's `checker/checker.go` (node checking) and
//! `checker/types.go` (assignability, type-parameter unification, substitution).

use std::collections::HashMap;
use std::sync::Arc;

use super::decls::FunctionDecl;
use super::env::{Env, Variable};
use super::{CheckedExpr, Reference};
use crate::cel::ast::{Call, Expr, ExprId, ExprKind, Literal, ParsedExpr, Span, operators};
use crate::cel::errors::{CelError, CelErrors, Source};
use crate::cel::types::{Kind, Type, format_function};

/// Type-checks a parsed expression (cel-go's `checker.Check`): no validators, no
/// result-type requirement. See [`super::check`].
pub(crate) fn check(parsed: &ParsedExpr, env: &Env) -> Result<CheckedExpr, CelErrors> {
    let mut expr = parsed.expr.clone();
    let mut c = Checker {
        env,
        locals: Vec::new(),
        types: HashMap::new(),
        refs: HashMap::new(),
        mapping: Mapping::default(),
        free_type_vars: 0,
        errors: CelErrors::new(parsed.source.clone()),
        source: parsed.source.clone(),
    };
    c.check(&mut expr);
    if !c.errors.is_empty() {
        let mut errors = c.errors;
        errors.sort();
        return Err(errors);
    }
    let mapping = c.mapping;
    let types = c
        .types
        .into_iter()
        .map(|(id, t)| (id, mapping.substitute(&t, true)))
        .collect();
    Ok(CheckedExpr {
        expr,
        macro_calls: parsed.macro_calls.clone(),
        source: parsed.source.clone(),
        next_id: parsed.next_id,
        types,
        references: c.refs,
    })
}

struct Checker<'a> {
    env: &'a Env,
    /// Comprehension scopes, innermost last (cel-go's non-root `Scopes`).
    locals: Vec<HashMap<String, Type>>,
    types: HashMap<ExprId, Type>,
    refs: HashMap<ExprId, Reference>,
    mapping: Mapping,
    free_type_vars: usize,
    errors: CelErrors,
    source: Arc<Source>,
}

/// A resolved identifier (cel-go's `attributeResolution`).
struct Resolved {
    var: Variable,
    requires_disambiguation: bool,
}

impl Checker<'_> {
    fn error(&mut self, id: ExprId, span: Span, message: String) {
        self.errors.push(CelError::at(&self.source, span.start, id, message));
    }

    fn set_type(&mut self, id: ExprId, t: Type) {
        self.types.insert(id, t);
    }

    fn get_type(&self, id: ExprId) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    fn check(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        match &mut e.kind {
            ExprKind::Literal(l) => {
                let t = match l {
                    Literal::Null => Type::Null,
                    Literal::Bool(_) => Type::Bool,
                    Literal::Int(_) => Type::Int,
                    Literal::Uint(_) => Type::Uint,
                    Literal::Double(_) => Type::Double,
                    Literal::String(_) => Type::String,
                    Literal::Bytes(_) => Type::Bytes,
                };
                self.set_type(id, t);
            }
            ExprKind::Ident(_) => self.check_ident(e),
            ExprKind::Select(_) => self.check_select(e),
            ExprKind::Call(_) => self.check_call(e),
            ExprKind::List(_) => self.check_create_list(e),
            ExprKind::Map(_) => self.check_create_map(e),
            ExprKind::Struct(_) => self.check_create_struct(e),
            ExprKind::Comprehension(_) => self.check_comprehension(e),
        }
        let _ = span;
    }

    // ---- identifiers -------------------------------------------------------

    fn lookup_local(&self, name: &str) -> Option<Type> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.locals.iter().rev().find_map(|s| s.get(name).cloned())
    }

    /// cel-go's `lookupGlobalIdent`.
    fn lookup_global(&self, candidate: &str) -> Option<Variable> {
        if let Some(v) = self.env.variables.get(candidate) {
            return Some(v.clone());
        }
        if let Some(t) = self.env.find_type_ident(candidate) {
            return Some(Variable {
                name: candidate.to_string(),
                ty: Type::type_of(t),
                value: None,
            });
        }
        self.env.find_enum_value(candidate)
    }

    /// cel-go's `resolveSimpleIdent`.
    fn resolve_simple_ident(&self, name: &str) -> Option<Resolved> {
        let local = self.lookup_local(name);
        if let Some(t) = &local
            && !name.starts_with('.')
        {
            return Some(Resolved {
                var: Variable {
                    name: name.to_string(),
                    ty: t.clone(),
                    value: None,
                },
                requires_disambiguation: false,
            });
        }
        for candidate in self.env.candidate_names(name) {
            if let Some(var) = self.lookup_global(&candidate) {
                return Some(Resolved {
                    var,
                    requires_disambiguation: local.is_some(),
                });
            }
        }
        None
    }

    /// cel-go's `resolveQualifiedIdent`.
    fn resolve_qualified_ident(&self, qualifiers: &[String]) -> Option<Resolved> {
        if qualifiers.len() == 1 {
            return self.resolve_simple_ident(&qualifiers[0]);
        }
        let local = self.lookup_local(&qualifiers[0]);
        if local.is_some() && !qualifiers[0].starts_with('.') {
            return None;
        }
        let name = qualifiers.join(".");
        for candidate in self.env.candidate_names(&name) {
            if let Some(var) = self.lookup_global(&candidate) {
                return Some(Resolved {
                    var,
                    requires_disambiguation: local.is_some(),
                });
            }
        }
        None
    }

    fn check_ident(&mut self, e: &mut Expr) {
        let ExprKind::Ident(name) = &e.kind else { return };
        let name = name.clone();
        if let Some(r) = self.resolve_simple_ident(&name) {
            let mut resolved = r.var.name.trim_start_matches('.').to_string();
            if r.requires_disambiguation {
                resolved = format!(".{resolved}");
            }
            self.set_type(e.id, r.var.ty.clone());
            self.refs.insert(
                e.id,
                Reference::Ident {
                    name: resolved.clone(),
                    value: r.var.value.clone(),
                },
            );
            e.kind = ExprKind::Ident(resolved);
            return;
        }
        self.set_type(e.id, Type::Error);
        let msg = format!(
            "undeclared reference to '{name}' (in container '{}')",
            self.env.container
        );
        self.error(e.id, e.span, msg);
    }

    // ---- field selection ---------------------------------------------------

    /// cel-go's `computeQualifiers`.
    fn compute_qualifiers(e: &Expr) -> Option<Vec<String>> {
        let mut qualifiers = Vec::new();
        let mut cur = e;
        while let ExprKind::Select(sel) = &cur.kind {
            if sel.test_only {
                return None;
            }
            qualifiers.push(sel.field.clone());
            cur = &sel.operand;
            if let ExprKind::Ident(name) = &cur.kind {
                qualifiers.push(name.clone());
                qualifiers.reverse();
                return Some(qualifiers);
            }
        }
        None
    }

    fn check_select(&mut self, e: &mut Expr) {
        if let Some(qualifiers) = Self::compute_qualifiers(e)
            && let Some(r) = self.resolve_qualified_ident(&qualifiers)
        {
            let mut name = r.var.name.clone();
            if r.requires_disambiguation {
                name = format!(".{name}");
            }
            self.set_type(e.id, r.var.ty.clone());
            self.refs.insert(
                e.id,
                Reference::Ident {
                    name: name.clone(),
                    value: r.var.value.clone(),
                },
            );
            e.kind = ExprKind::Ident(name);
            return;
        }
        let (id, span) = (e.id, e.span);
        let ExprKind::Select(sel) = &mut e.kind else { return };
        let field = sel.field.clone();
        let test_only = sel.test_only;
        let mut result = self.check_select_field(id, span, &mut sel.operand, &field, false);
        if test_only {
            result = Type::Bool;
        }
        let t = self.mapping.substitute(&result, false);
        self.set_type(id, t);
    }

    fn check_opt_select(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        let ExprKind::Call(call) = &mut e.kind else { return };
        if call.args.len() != 2 || call.target.is_some() {
            let t = if call.target.is_some() { " member call with" } else { "" };
            let msg = format!(
                "unsupported optional field selection: incorrect signature.{t} argument count: {}",
                call.args.len()
            );
            self.error(id, span, msg);
            return;
        }
        let field_name = match &call.args[1].kind {
            ExprKind::Literal(Literal::String(s)) => s.clone(),
            _ => {
                let field = &call.args[1];
                let msg = format!("unsupported optional field selection: {field}");
                let (fid, fspan) = (field.id, field.span);
                self.error(fid, fspan, msg);
                return;
            }
        };
        let (operand, _) = call.args.split_at_mut(1);
        let result = self.check_select_field(id, span, &mut operand[0], &field_name, true);
        let t = self.mapping.substitute(&result, false);
        self.set_type(id, t);
        self.refs.insert(
            id,
            Reference::Function {
                overload_ids: vec!["select_optional_field".to_string()],
            },
        );
    }

    fn check_select_field(&mut self, id: ExprId, span: Span, operand: &mut Expr, field: &str, optional: bool) -> Type {
        self.check(operand);
        let operand_type = self.mapping.substitute(&self.get_type(operand.id), false);
        let (target, is_opt) = match operand_type {
            Type::Optional(t) => (*t, true),
            t => (t, false),
        };
        let result = match target.kind() {
            Kind::Map => target.params()[1].clone(),
            Kind::Struct => self
                .lookup_field_type(id, span, target.type_name(), field)
                .unwrap_or(Type::Error),
            Kind::TypeParam => {
                self.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            _ => {
                if !is_dyn_or_error(&target) {
                    self.error(id, span, format!("type '{target}' does not support field selection"));
                }
                Type::Dyn
            }
        };
        if is_opt || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    /// cel-go's `lookupFieldType`.
    fn lookup_field_type(&mut self, id: ExprId, span: Span, struct_name: &str, field: &str) -> Option<Type> {
        if !self.env.struct_known(struct_name) {
            self.error(id, span, format!("unexpected failed resolution of '{struct_name}'"));
            return None;
        }
        if let Some(t) = self.env.find_field_type(struct_name, field) {
            return Some(t);
        }
        self.error(id, span, format!("undefined field '{field}'"));
        None
    }

    // ---- calls -------------------------------------------------------------

    fn check_call(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        let ExprKind::Call(call) = &mut e.kind else { return };
        if call.function == operators::OPT_SELECT {
            self.check_opt_select(e);
            return;
        }
        for arg in call.args.iter_mut() {
            self.check(arg);
        }
        let fn_name = call.function.clone();
        if call.target.is_none() {
            let Some(f) = self.env.lookup_function(&fn_name) else {
                let msg = format!(
                    "undeclared reference to '{fn_name}' (in container '{}')",
                    self.env.container
                );
                self.error(id, span, msg);
                self.set_type(id, Type::Error);
                return;
            };
            call.function = f.name.clone();
            self.resolve_overload_or_error(id, span, f, call);
            return;
        }
        // A receiver may be a namespace: `a.b.f()` is `a.b.f()` if that function
        // exists.
        if let Some(prefix) = call.target.as_deref().and_then(to_qualified_name) {
            let qualified = format!("{prefix}.{fn_name}");
            if let Some(f) = self.env.lookup_function(&qualified) {
                call.function = f.name.clone();
                call.target = None;
                self.resolve_overload_or_error(id, span, f, call);
                return;
            }
        }
        if let Some(target) = call.target.as_deref_mut() {
            self.check(target);
        }
        if let Some(f) = self.env.lookup_function(&fn_name) {
            self.resolve_overload_or_error(id, span, f, call);
            return;
        }
        self.set_type(id, Type::Error);
        let msg = format!(
            "undeclared reference to '{fn_name}' (in container '{}')",
            self.env.container
        );
        self.error(id, span, msg);
    }

    fn resolve_overload_or_error(&mut self, id: ExprId, span: Span, f: &FunctionDecl, call: &Call) {
        match self.resolve_overload(id, span, f, call) {
            Some((t, r)) => {
                self.set_type(id, t);
                self.refs.insert(id, r);
            }
            None => self.set_type(id, Type::Error),
        }
    }

    fn resolve_overload(&mut self, id: ExprId, span: Span, f: &FunctionDecl, call: &Call) -> Option<(Type, Reference)> {
        let mut arg_types: Vec<Type> = Vec::new();
        if let Some(t) = &call.target {
            arg_types.push(self.get_type(t.id));
        }
        for a in &call.args {
            arg_types.push(self.get_type(a.id));
        }
        let has_target = call.target.is_some();
        let mut result: Option<Type> = None;
        let mut overload_ids: Vec<String> = Vec::new();
        for o in &f.overloads {
            if self.env.is_overload_disabled(&o.id) {
                continue;
            }
            if has_target != o.member {
                continue;
            }
            if f.name == operators::LOGICAL_AND || f.name == operators::LOGICAL_OR {
                let mut failed = false;
                for (i, at) in arg_types.iter().enumerate() {
                    if !self.is_assignable(at, &Type::Bool) {
                        let arg = &call.args[i];
                        let msg = format!("expected type '{}' but found '{at}'", Type::Bool);
                        self.error(arg.id, arg.span, msg);
                        failed = true;
                    }
                }
                if failed {
                    return None;
                }
                return Some((
                    Type::Bool,
                    Reference::Function {
                        overload_ids: vec![o.id.clone()],
                    },
                ));
            }
            let (mut params, mut res) = (o.args.clone(), o.result.clone());
            if !o.type_params.is_empty() {
                let mut subs = Mapping::default();
                for p in &o.type_params {
                    let v = self.new_type_var();
                    subs.substitutions.insert(p.clone(), v);
                }
                params = params.iter().map(|p| subs.substitute(p, false)).collect();
                res = subs.substitute(&res, false);
            }
            if self.is_assignable_list(&arg_types, &params) {
                overload_ids.push(o.id.clone());
                let fn_result = self.mapping.substitute(&res, false);
                match &result {
                    None => result = Some(fn_result),
                    Some(r) => {
                        if !is_dyn(r) && !fn_result.is_exact_type(r) {
                            result = Some(Type::Dyn);
                        }
                    }
                }
            }
        }
        let Some(result) = result else {
            let args: Vec<Type> = arg_types.iter().map(|t| self.mapping.substitute(t, true)).collect();
            let msg = format!(
                "found no matching overload for '{}' applied to '{}'",
                f.name,
                format_function(None, &args, has_target)
            );
            self.error(id, span, msg);
            return None;
        };
        Some((result, Reference::Function { overload_ids }))
    }

    // ---- literals ------------------------------------------------------------

    fn check_create_list(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::List(list) = &mut e.kind else { return };
        let mut elems_type: Option<Type> = None;
        let optional_indices = list.optional_indices.clone();
        for (i, el) in list.elements.iter_mut().enumerate() {
            self.check(el);
            let mut elem_type = self.get_type(el.id);
            if optional_indices.contains(&(i as u32)) {
                match elem_type {
                    Type::Optional(t) => elem_type = *t,
                    t => {
                        if !is_dyn(&t) {
                            let msg = format!("expected type '{}' but found '{t}'", Type::optional(t.clone()));
                            self.error(el.id, el.span, msg);
                        }
                        elem_type = t;
                    }
                }
            }
            elems_type = Some(self.join_types(elems_type, elem_type));
        }
        let elems_type = match elems_type {
            Some(t) => t,
            None => self.new_type_var(),
        };
        self.set_type(id, Type::list(elems_type));
    }

    fn check_create_map(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Map(m) = &mut e.kind else { return };
        let mut key_type: Option<Type> = None;
        let mut value_type: Option<Type> = None;
        for entry in m.entries.iter_mut() {
            self.check(&mut entry.key);
            let kt = self.get_type(entry.key.id);
            key_type = Some(self.join_types(key_type, kt));
            self.check(&mut entry.value);
            let mut vt = self.get_type(entry.value.id);
            if entry.optional {
                match vt {
                    Type::Optional(t) => vt = *t,
                    t => {
                        if !is_dyn(&t) {
                            let msg = format!("expected type '{}' but found '{t}'", Type::optional(t.clone()));
                            self.error(entry.value.id, entry.value.span, msg);
                        }
                        vt = t;
                    }
                }
            }
            value_type = Some(self.join_types(value_type, vt));
        }
        let (k, v) = match (key_type, value_type) {
            (Some(k), Some(v)) => (k, v),
            _ => (self.new_type_var(), self.new_type_var()),
        };
        self.set_type(id, Type::map(k, v));
    }

    fn check_create_struct(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        let ExprKind::Struct(s) = &mut e.kind else { return };
        // cel-go's resolveTypeIdent.
        let resolved = self
            .env
            .candidate_names(&s.type_name)
            .into_iter()
            .find_map(|c| self.env.find_type_ident(&c).map(|t| (c, t)));
        let Some((mut type_name, t)) = resolved else {
            let msg = format!(
                "undeclared reference to '{}' (in container '{}')",
                s.type_name, self.env.container
            );
            self.error(id, span, msg);
            self.set_type(id, Type::Error);
            return;
        };
        if s.type_name != type_name {
            s.type_name = type_name.clone();
        }
        self.refs.insert(
            id,
            Reference::Ident {
                name: type_name.clone(),
                value: None,
            },
        );
        let mut result = Type::Error;
        if is_well_known_type(&t) {
            type_name = well_known_type_name(&t).to_string();
            result = t;
        } else if t.kind() == Kind::Struct {
            type_name = t.declared_type_name();
            result = t;
        } else {
            let msg = format!("'{}' is not a message type", t.declared_type_name());
            self.error(id, span, msg);
        }
        self.set_type(id, result);
        for field in s.fields.iter_mut() {
            self.check(&mut field.value);
            let field_type = self
                .lookup_field_type(field.id, field.span, &type_name, &field.name)
                .unwrap_or(Type::Error);
            let mut val_type = self.get_type(field.value.id);
            if field.optional {
                match val_type {
                    Type::Optional(t) => val_type = *t,
                    t => {
                        if !is_dyn(&t) {
                            let msg = format!("expected type '{}' but found '{t}'", Type::optional(t.clone()));
                            self.error(field.value.id, field.value.span, msg);
                        }
                        val_type = t;
                    }
                }
            }
            if !self.is_assignable(&field_type, &val_type) {
                let msg = format!(
                    "expected type of field '{}' is '{field_type}' but provided type is '{val_type}'",
                    field.name
                );
                self.error(field.id, field.span, msg);
            }
        }
    }

    // ---- comprehensions ------------------------------------------------------

    fn check_comprehension(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Comprehension(comp) = &mut e.kind else {
            return;
        };
        self.check(&mut comp.iter_range);
        self.check(&mut comp.accu_init);
        let range_type = self.mapping.substitute(&self.get_type(comp.iter_range.id), false);
        let accu_type = self.get_type(comp.accu_init.id);
        let mut accu_scope = HashMap::new();
        accu_scope.insert(comp.accu_var.clone(), accu_type.clone());
        self.locals.push(accu_scope);
        let two = comp.iter_var2.is_some();
        let (var_type, var2_type) = match range_type.kind() {
            Kind::List => {
                let elem = range_type.params()[0].clone();
                if two { (Type::Int, elem) } else { (elem, Type::Error) }
            }
            Kind::Map => (range_type.params()[0].clone(), range_type.params()[1].clone()),
            Kind::Dyn | Kind::Error | Kind::TypeParam => {
                self.is_assignable(&Type::Dyn, &range_type);
                (Type::Dyn, Type::Dyn)
            }
            _ => {
                let msg = format!(
                    "expression of type '{range_type}' cannot be range of a comprehension (must be list, map, or dynamic)"
                );
                let (rid, rspan) = (comp.iter_range.id, comp.iter_range.span);
                self.error(rid, rspan, msg);
                (Type::Error, Type::Error)
            }
        };
        let mut loop_scope = HashMap::new();
        loop_scope.insert(comp.iter_var.clone(), var_type);
        if let Some(v2) = &comp.iter_var2 {
            loop_scope.insert(v2.clone(), var2_type);
        }
        self.locals.push(loop_scope);
        self.check(&mut comp.loop_condition);
        self.assert_type(&comp.loop_condition, &Type::Bool);
        self.check(&mut comp.loop_step);
        self.assert_type(&comp.loop_step, &accu_type);
        self.locals.pop();
        self.check(&mut comp.result);
        self.locals.pop();
        let t = self.mapping.substitute(&self.get_type(comp.result.id), false);
        self.set_type(id, t);
    }

    fn assert_type(&mut self, e: &Expr, t: &Type) {
        let actual = self.get_type(e.id);
        if !self.is_assignable(t, &actual) {
            self.error(e.id, e.span, format!("expected type '{t}' but found '{actual}'"));
        }
    }

    // ---- unification ---------------------------------------------------------

    /// cel-go's `joinTypes` with dynamic aggregate element types (homogeneity is a
    /// validator in cel-go 0.29).
    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        let Some(previous) = previous else { return current };
        if self.is_assignable(&previous, &current) {
            most_general(&previous, &current)
        } else {
            Type::Dyn
        }
    }

    fn new_type_var(&mut self) -> Type {
        let id = self.free_type_vars;
        self.free_type_vars += 1;
        Type::TypeParam(format!("_var{id}"))
    }

    /// Whether `t1` is assignable to `t2`; the substitutions it needs are kept only
    /// when it is (cel-go tries on a copy of the mapping).
    fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        self.mapping.trial(|m| m.is_assignable(t1, t2))
    }

    fn is_assignable_list(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        self.mapping.trial(|m| m.is_assignable_list(l1, l2))
    }
}

/// cel-go's `containers.ToQualifiedName`.
fn to_qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select(s) if !s.test_only => to_qualified_name(&s.operand).map(|p| format!("{p}.{}", s.field)),
        _ => None,
    }
}

fn is_dyn(t: &Type) -> bool {
    matches!(t.kind(), Kind::Dyn | Kind::Any)
}

fn is_dyn_or_error(t: &Type) -> bool {
    is_dyn(t) || t.kind() == Kind::Error
}

/// cel-go's `isWellKnownType` (message literals of well-known types).
fn is_well_known_type(t: &Type) -> bool {
    match t.kind() {
        Kind::Any | Kind::Timestamp | Kind::Duration | Kind::Dyn | Kind::Null => true,
        Kind::Bool | Kind::Bytes | Kind::Double | Kind::Int | Kind::String | Kind::Uint => {
            t.is_assignable_type(&Type::Null)
        }
        Kind::List => *t.params()[0] == Type::Dyn,
        Kind::Map => *t.params()[0] == Type::String && *t.params()[1] == Type::Dyn,
        _ => false,
    }
}

fn well_known_type_name(t: &Type) -> &'static str {
    match t.kind() {
        Kind::Any => "google.protobuf.Any",
        Kind::Bool => "google.protobuf.BoolValue",
        Kind::Bytes => "google.protobuf.BytesValue",
        Kind::Double => "google.protobuf.DoubleValue",
        Kind::Duration => "google.protobuf.Duration",
        Kind::Dyn => "google.protobuf.Value",
        Kind::Int => "google.protobuf.Int64Value",
        Kind::List => "google.protobuf.ListValue",
        Kind::Null => "google.protobuf.NullValue",
        Kind::Map => "google.protobuf.Struct",
        Kind::String => "google.protobuf.StringValue",
        Kind::Timestamp => "google.protobuf.Timestamp",
        Kind::Uint => "google.protobuf.UInt64Value",
        _ => "",
    }
}

/// cel-go's `isEqualOrLessSpecific`.
fn is_equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if is_dyn(t1) || k1 == Kind::TypeParam {
        return true;
    }
    if is_dyn(t2) || k2 == Kind::TypeParam {
        return false;
    }
    if k1 != k2 {
        return false;
    }
    match k1 {
        Kind::Opaque => {
            let (p1, p2) = (t1.params(), t2.params());
            t1.type_name() == t2.type_name()
                && p1.len() == p2.len()
                && p1.iter().zip(p2.iter()).all(|(a, b)| is_equal_or_less_specific(a, b))
        }
        Kind::List => is_equal_or_less_specific(t1.params()[0], t2.params()[0]),
        Kind::Map => {
            is_equal_or_less_specific(t1.params()[0], t2.params()[0])
                && is_equal_or_less_specific(t1.params()[1], t2.params()[1])
        }
        Kind::Type => true,
        _ => t1.is_exact_type(t2),
    }
}

/// cel-go's `mostGeneral`.
fn most_general(t1: &Type, t2: &Type) -> Type {
    if is_equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

/// cel-go's `isLegacyNullable` / `internalIsAssignableNull`.
fn is_assignable_null(t: &Type) -> bool {
    matches!(
        t.kind(),
        Kind::Opaque | Kind::Struct | Kind::Any | Kind::Duration | Kind::Timestamp
    ) || t.is_assignable_type(&Type::Null)
}

/// Type-parameter substitutions (cel-go's `mapping`, keyed by parameter name).
#[derive(Clone, Debug, Default)]
pub(crate) struct Mapping {
    substitutions: HashMap<String, Type>,
    /// During a [`Mapping::trial`], what each change replaced, to undo it if the trial
    /// fails. cel-go copies the whole mapping for each trial instead, which is
    /// quadratic in the expression's size (a 600-byte expression took seconds).
    undo: Option<Vec<(String, Option<Type>)>>,
}

impl Mapping {
    fn find(&self, t: &Type) -> Option<&Type> {
        match t {
            Type::TypeParam(n) => self.substitutions.get(n),
            _ => None,
        }
    }

    fn add(&mut self, from: &Type, to: Type) {
        if let Type::TypeParam(n) = from {
            let previous = self.substitutions.insert(n.clone(), to);
            if let Some(undo) = &mut self.undo {
                undo.push((n.clone(), previous));
            }
        }
    }

    /// Runs `f`, keeping the substitutions it adds only when it returns true.
    fn trial(&mut self, f: impl FnOnce(&mut Mapping) -> bool) -> bool {
        let outer = self.undo.replace(Vec::new());
        let ok = f(self);
        let changes = std::mem::replace(&mut self.undo, outer).unwrap_or_default();
        if ok {
            // Inside an enclosing trial, these changes are that trial's to undo too.
            if let Some(outer) = &mut self.undo {
                outer.extend(changes);
            }
        } else {
            for (name, previous) in changes.into_iter().rev() {
                match previous {
                    Some(t) => self.substitutions.insert(name, t),
                    None => self.substitutions.remove(&name),
                };
            }
        }
        ok
    }

    /// cel-go's `substitute`: replaces bound type parameters, and with
    /// `param_to_dyn` unbound ones by `dyn`.
    pub(crate) fn substitute(&self, t: &Type, param_to_dyn: bool) -> Type {
        if let Some(sub) = self.find(t) {
            return self.substitute(sub, param_to_dyn);
        }
        match t {
            Type::TypeParam(_) if param_to_dyn => Type::Dyn,
            Type::List(_) | Type::Map(..) | Type::Optional(_) | Type::Opaque(..) | Type::TypeOf(Some(_)) => {
                let ps = t
                    .params()
                    .into_iter()
                    .map(|p| self.substitute(p, param_to_dyn))
                    .collect();
                t.with_params(ps)
            }
            _ => t.clone(),
        }
    }

    /// cel-go's `internalIsAssignable`: whether `t1` is assignable to `t2`, binding
    /// type parameters as it goes.
    fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        let (k1, k2) = (t1.kind(), t2.kind());
        if k2 == Kind::TypeParam {
            let (valid, has_sub) = self.is_valid_type_substitution(t1, t2);
            if valid {
                return true;
            }
            if has_sub {
                return false;
            }
        }
        if k1 == Kind::TypeParam {
            return self.is_valid_type_substitution(t2, t1).0;
        }
        if is_dyn_or_error(t1) || is_dyn_or_error(t2) {
            return true;
        }
        if k1 == Kind::Null {
            return is_assignable_null(t2);
        }
        if k2 == Kind::Null {
            return is_assignable_null(t1);
        }
        match k1 {
            Kind::Bool
            | Kind::Bytes
            | Kind::Double
            | Kind::Int
            | Kind::String
            | Kind::Uint
            | Kind::Any
            | Kind::Duration
            | Kind::Timestamp
            | Kind::Struct => t2.is_assignable_type(t1),
            Kind::Type => k2 == Kind::Type,
            Kind::Opaque | Kind::List | Kind::Map => {
                k1 == k2 && t1.type_name() == t2.type_name() && {
                    let (p1, p2): (Vec<Type>, Vec<Type>) = (
                        t1.params().into_iter().cloned().collect(),
                        t2.params().into_iter().cloned().collect(),
                    );
                    self.is_assignable_list(&p1, &p2)
                }
            }
            _ => false,
        }
    }

    fn is_assignable_list(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        l1.len() == l2.len() && l1.iter().zip(l2.iter()).all(|(a, b)| self.is_assignable(a, b))
    }

    /// cel-go's `isValidTypeSubstitution`: whether `t2` (a type parameter) can stand
    /// for `t1`, and whether it already had a substitution.
    fn is_valid_type_substitution(&mut self, t1: &Type, t2: &Type) -> (bool, bool) {
        if t1.kind() == t2.kind() && t1.is_exact_type(t2) {
            return (true, true);
        }
        if let Some(t2_sub) = self.find(t2).cloned() {
            if t1.kind() == t2_sub.kind() && t1.is_exact_type(&t2_sub) {
                return (true, true);
            }
            if self.is_assignable(t1, &t2_sub) {
                let t2_new = most_general(t1, &t2_sub);
                if self.not_referenced_in(t2, &t2_new) {
                    self.add(t2, t2_new);
                }
                return (true, true);
            }
            return (false, true);
        }
        if self.not_referenced_in(t2, t1) {
            self.add(t2, t1.clone());
            return (true, false);
        }
        (false, false)
    }

    /// cel-go's `notReferencedIn` (the occurs check).
    fn not_referenced_in(&self, t: &Type, within: &Type) -> bool {
        if t.is_exact_type(within) {
            return false;
        }
        match within.kind() {
            Kind::TypeParam => match self.find(within) {
                None => true,
                Some(sub) => self.not_referenced_in(t, sub),
            },
            Kind::Opaque | Kind::List | Kind::Map | Kind::Type => {
                within.params().into_iter().all(|p| self.not_referenced_in(t, p))
            }
            _ => true,
        }
    }
}
