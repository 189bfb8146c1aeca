//! The Kubernetes compile step of `x-kubernetes-validations` rules: a port of
//! apiextensions' `pkg/apiserver/schema/cel/compilation.go` (`Compile`,
//! `compileRule`, `maxCardinality`, the schema `sizeEstimator`).
//!
//! For a schema node with rules, [`RuleEnvironment::new`] builds the CEL type of
//! the node ([`schema_decl_type`]) and the environments the rules are compiled in:
//! `self` (and `oldSelf`) of that type, or with `optionalOldSelf: true`, `oldSelf`
//! of type `optional_type(T)`. [`RuleEnvironment::compile`] compiles one rule like
//! the API server: parse, type-check and validate (`compilation failed: <cel-go's
//! errors>`), the result must be `bool` (`cel expression must evaluate to a bool`),
//! what Go does when it creates the program (regular expressions and type
//! conversions of constants are evaluated: `program instantiation failed: ...`),
//! the estimated cost, and the same for `messageExpression` (which must be a
//! `string`).
//!
//! [`CelRuleCompiler`] plugs this into the CRD admission checks
//! ([`crate::check::check_crd_with`]); [`AdmissionStages`] adds the validation of
//! default values ([`crate::engine::DefaultsValidator`]).
//!
//! The CRD checks compile rules as the API server compiles the rules of a CRD
//! create, in its `NewExpressions` environment (the libraries of its compatibility
//! version, [`super::decls::COMPATIBILITY_VERSION`]); the engine and the generated
//! code compile them in the `StoredExpressions` environment, a superset, as the API
//! server does for the rules of a stored CRD ([`super::decls::Expressions`]).
//!
//! The type of a node is derived from the node itself (as Go does when no ancestor
//! has rules). When an ancestor has rules, Go takes the node's type from the
//! ancestor's type instead; the two differ only below resource roots, for the
//! `metadata` of an embedded resource (Go: only `name` and `generateName`) and for
//! `metadata.name` / `generateName` (Go: at most 253 / 252 characters, whatever the
//! schema says). [`RuleSite`] does not tell whether an ancestor has rules.

use std::sync::Arc;

use super::cost::{CostOptions, Estimator, estimate};
use super::decls::Expressions;
use super::decltype::{DeclType, MAX_REQUEST_SIZE_BYTES, schema_decl_type};
use super::env::Env;
use super::{CheckedExpr, check, validators};
use crate::cel::ast::{Expr, ExprKind, Literal};
use crate::cel::types::Type;
use crate::check::structural::Structural;
use crate::check::{RuleCompilation, RuleCompileError, RuleCompiler, RuleSite};
use crate::fieldpath::FieldPath;
use crate::model::ValidationRule;
use crd_runtime::FieldError;

/// `ScopedVarName`.
pub const SCOPED_VAR_NAME: &str = "self";
/// `OldScopedVarName`.
pub const OLD_SCOPED_VAR_NAME: &str = "oldSelf";
/// The name given to the type of `self` (Go: `selfType<nanoseconds>`, a different
/// random number for every compilation; here always the same).
pub const SELF_TYPE_NAME: &str = "selfType0";

/// The environments for the rules of one schema node.
#[derive(Clone, Debug)]
pub struct RuleEnvironment {
    /// `self` and `oldSelf` of the node's type.
    pub env: Env,
    /// `self` of the node's type and `oldSelf` optional (for `optionalOldSelf: true`).
    pub optional_old_self_env: Env,
    /// The node's type (before naming; the cost estimator walks it).
    pub decl_type: Arc<DeclType>,
    /// The estimator with the node's size limits.
    pub estimator: Estimator,
    /// `maxCardinality(declType.MinSerializedSize)`: how often the node can occur in
    /// an object of the maximum request size.
    pub max_cardinality: u64,
}

/// A compiled rule with its checked expressions.
#[derive(Clone, Debug, Default)]
pub struct CompiledRule {
    /// What the CRD checks report.
    pub result: RuleCompilation,
    /// The checked rule, when it compiled.
    pub rule: Option<CheckedExpr>,
    /// The checked `messageExpression`, when there is one and it compiled.
    pub message_expression: Option<CheckedExpr>,
}

/// Go's `maxCardinality`.
pub fn max_cardinality(min_serialized_size: i64) -> u64 {
    (MAX_REQUEST_SIZE_BYTES / (min_serialized_size + 1)) as u64
}

impl RuleEnvironment {
    /// The environments for a node (Go's `Compile` before the rules; the error is
    /// the API server's internal error text when the node has no CEL type).
    pub fn new(
        structural: &Structural,
        is_resource_root: bool,
        expressions: Expressions,
    ) -> Result<RuleEnvironment, String> {
        let decl_type = schema_decl_type(structural, is_resource_root).ok_or_else(|| {
            "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations".to_string()
        })?;
        Ok(RuleEnvironment::from_decl_type(decl_type, expressions))
    }

    /// The environments for a node of the given type.
    pub fn from_decl_type(decl_type: Arc<DeclType>, expressions: Expressions) -> RuleEnvironment {
        let scoped = decl_type.assign_type_name(SELF_TYPE_NAME);
        let mut base = Env::kubernetes_for(expressions);
        for (name, st) in scoped.struct_types() {
            base.add_struct_type(&name, st);
        }
        base.add_variable(SCOPED_VAR_NAME, scoped.cel_type.clone());
        let mut env = base.clone();
        env.add_variable(OLD_SCOPED_VAR_NAME, scoped.cel_type.clone());
        let mut optional_old_self_env = base;
        optional_old_self_env.add_variable(OLD_SCOPED_VAR_NAME, Type::optional(scoped.cel_type.clone()));
        RuleEnvironment {
            env,
            optional_old_self_env,
            max_cardinality: max_cardinality(decl_type.min_serialized_size),
            estimator: Estimator {
                root: Some(decl_type.clone()),
            },
            decl_type,
        }
    }

    /// Compiles one rule (Go's `compileRule`).
    pub fn compile(&self, rule: &ValidationRule) -> CompiledRule {
        let mut out = CompiledRule::default();
        if rule.rule.trim().is_empty() {
            return out;
        }
        let env = if rule.optional_old_self == Some(true) {
            &self.optional_old_self_env
        } else {
            &self.env
        };
        let invalid = |detail: String| Some(RuleCompileError::Invalid(detail));
        let checked = match compile_expression(&rule.rule, env) {
            Ok(c) => c,
            Err(issues) => {
                out.result.error = invalid(format!("compilation failed: {issues}"));
                return out;
            }
        };
        if *checked.output_type() != Type::Bool {
            out.result.error = invalid("cel expression must evaluate to a bool".into());
            return out;
        }
        out.result.uses_old_self = checked.references_ident(OLD_SCOPED_VAR_NAME);
        if let Err(e) = program_instantiation(&checked.expr) {
            out.result.error = invalid(format!("program instantiation failed: {e}"));
            return out;
        }
        let cost = estimate(&checked, &self.estimator, &CostOptions::kubernetes());
        out.result.max_cost = cost.max;
        out.result.max_cardinality = self.max_cardinality;
        out.rule = Some(checked);
        if !rule.message_expression.is_empty() {
            let checked = match compile_expression(&rule.message_expression, env) {
                Ok(c) => c,
                Err(issues) => {
                    out.result.message_expression_error =
                        Some(format!("messageExpression compilation failed: {issues}"));
                    return out;
                }
            };
            if *checked.output_type() != Type::String {
                out.result.message_expression_error = Some("messageExpression must evaluate to a string".into());
                return out;
            }
            if let Err(e) = program_instantiation(&checked.expr) {
                out.result.message_expression_error = Some(format!("messageExpression instantiation failed: {e}"));
                return out;
            }
            let cost = estimate(&checked, &self.estimator, &CostOptions::kubernetes());
            out.result.has_message_expression = true;
            out.result.message_expression_max_cost = cost.max;
            out.message_expression = Some(checked);
        }
        out
    }
}

/// Parse, check and validate (cel-go's `Env.Compile`), errors as text.
fn compile_expression(source: &str, env: &Env) -> Result<CheckedExpr, String> {
    let parsed = crate::cel::parse(source).map_err(|e| e.to_string())?;
    let checked = check(&parsed, env).map_err(|e| e.to_string())?;
    validators::validate(&checked, env).map_err(|e| e.to_string())?;
    Ok(checked)
}

/// Go's `Compile`: the results for the rules of a node, in order.
pub fn compile_rules(structural: &Structural, is_resource_root: bool) -> Result<Vec<CompiledRule>, String> {
    let rules = &structural.validation_extensions.x_validations;
    if rules.is_empty() {
        return Ok(Vec::new());
    }
    let env = RuleEnvironment::new(structural, is_resource_root, Expressions::Stored)?;
    Ok(rules.iter().map(|r| env.compile(r)).collect())
}

/// The CEL stage of the CRD checks: compiles the rules of every node the API
/// server compiles.
pub struct CelRuleCompiler;

impl RuleCompiler for CelRuleCompiler {
    fn compile_rules(&self, site: &RuleSite<'_>) -> Result<Vec<RuleCompilation>, String> {
        let rules = &site.schema.x_validations;
        if rules.is_empty() {
            return Ok(Vec::new());
        }
        let env = RuleEnvironment::new(site.structural, site.is_resource_root, Expressions::New)?;
        Ok(rules.iter().map(|r| env.compile(r).result).collect())
    }
}

/// The later stages of the CRD checks: CEL rules ([`CelRuleCompiler`]) and default
/// values ([`crate::engine::DefaultsValidator`]).
pub struct AdmissionStages;

impl RuleCompiler for AdmissionStages {
    fn compile_rules(&self, site: &RuleSite<'_>) -> Result<Vec<RuleCompilation>, String> {
        CelRuleCompiler.compile_rules(site)
    }

    fn validate_defaults(&self, root: &Structural, path: &FieldPath) -> Vec<FieldError> {
        crate::engine::DefaultsValidator.validate_defaults(root, path)
    }
}

// ---------------------------------------------------------------------------
// Program creation (cel-go's planner with OptOptimize and Kubernetes' regex
// optimizations): constant regular expressions of `matches`, `find` and `findAll`
// are compiled, and type conversions of constants are evaluated.
// ---------------------------------------------------------------------------

/// A constant value of the planner (only what conversions need).
#[derive(Clone, Debug)]
enum Const {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
    /// A constant whose value does not matter here (lists, maps, durations, ...).
    Other,
}

/// Plans the expression bottom-up like cel-go's planner; the first error.
fn program_instantiation(e: &Expr) -> Result<(), String> {
    plan(e).map(|_| ())
}

fn plan(e: &Expr) -> Result<Option<Const>, String> {
    match &e.kind {
        ExprKind::Literal(l) => Ok(Some(match l {
            Literal::Null => Const::Null,
            Literal::Bool(b) => Const::Bool(*b),
            Literal::Int(i) => Const::Int(*i),
            Literal::Uint(u) => Const::Uint(*u),
            Literal::Double(d) => Const::Double(*d),
            Literal::String(s) => Const::String(s.clone()),
            Literal::Bytes(b) => Const::Bytes(b.clone()),
        })),
        ExprKind::Ident(_) => Ok(None),
        ExprKind::Select(s) => plan(&s.operand).map(|_| None),
        ExprKind::List(l) => {
            let mut all_const = true;
            for el in &l.elements {
                all_const &= plan(el)?.is_some();
            }
            Ok(all_const.then_some(Const::Other))
        }
        ExprKind::Map(m) => {
            let mut all_const = true;
            for en in &m.entries {
                all_const &= plan(&en.key)?.is_some();
                all_const &= plan(&en.value)?.is_some();
            }
            Ok(all_const.then_some(Const::Other))
        }
        ExprKind::Struct(s) => {
            for f in &s.fields {
                plan(&f.value)?;
            }
            Ok(None)
        }
        ExprKind::Comprehension(c) => {
            plan(&c.iter_range)?;
            plan(&c.accu_init)?;
            plan(&c.loop_condition)?;
            plan(&c.loop_step)?;
            plan(&c.result)?;
            Ok(None)
        }
        ExprKind::Call(call) => {
            let mut args: Vec<Option<Const>> = Vec::new();
            if let Some(t) = &call.target {
                args.push(plan(t)?);
            }
            for a in &call.args {
                args.push(plan(a)?);
            }
            if matches!(call.function.as_str(), "matches" | "find" | "findAll")
                && let Some(Some(Const::String(pattern))) = args.get(1)
            {
                crd_runtime::regex::translate(pattern).map_err(|e| e.to_string())?;
                return Ok(None);
            }
            if call.target.is_none()
                && args.len() == 1
                && is_type_conversion(&call.function)
                && let Some(Some(c)) = args.first()
            {
                return convert(&call.function, c).map(Some);
            }
            Ok(None)
        }
    }
}

fn is_type_conversion(f: &str) -> bool {
    matches!(
        f,
        "bool" | "bytes" | "double" | "duration" | "dyn" | "int" | "string" | "timestamp" | "type" | "uint"
    )
}

/// cel-go's `ConvertToType` of constants, as far as errors go.
fn convert(function: &str, c: &Const) -> Result<Const, String> {
    let err = |from: &str, to: &str| format!("type conversion error from '{from}' to '{to}'");
    Ok(match (function, c) {
        ("dyn" | "type", _) => Const::Other,
        ("int", Const::Int(i)) => Const::Int(*i),
        ("int", Const::Uint(u)) => Const::Int(i64::try_from(*u).map_err(|_| "integer overflow".to_string())?),
        ("int", Const::Double(d)) => Const::Int(double_to_int(*d).ok_or("integer overflow")?),
        ("int", Const::String(s)) => Const::Int(go_parse_int(s).ok_or_else(|| err("string", "int"))?),
        ("uint", Const::Uint(u)) => Const::Uint(*u),
        ("uint", Const::Int(i)) => Const::Uint(u64::try_from(*i).map_err(|_| "unsigned integer overflow".to_string())?),
        ("uint", Const::Double(d)) => Const::Uint(double_to_uint(*d).ok_or("unsigned integer overflow")?),
        ("uint", Const::String(s)) => Const::Uint(go_parse_uint(s).ok_or_else(|| err("string", "uint"))?),
        ("double", Const::Double(d)) => Const::Double(*d),
        ("double", Const::Int(i)) => Const::Double(*i as f64),
        ("double", Const::Uint(u)) => Const::Double(*u as f64),
        ("double", Const::String(s)) => match go_parse_float(s) {
            Some(d) => Const::Double(d),
            None => return Err(err("string", "double")),
        },
        ("bool", Const::Bool(b)) => Const::Bool(*b),
        ("bool", Const::String(s)) => Const::Bool(match s.as_str() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => true,
            "0" | "f" | "F" | "FALSE" | "false" | "False" => false,
            _ => return Err(err("string", "bool")),
        }),
        ("bytes", Const::Bytes(b)) => Const::Bytes(b.clone()),
        ("bytes", Const::String(s)) => Const::Bytes(s.as_bytes().to_vec()),
        ("string", Const::String(s)) => Const::String(s.clone()),
        ("string", Const::Int(i)) => Const::String(i.to_string()),
        ("string", Const::Uint(u)) => Const::String(u.to_string()),
        ("string", Const::Bool(b)) => Const::String(b.to_string()),
        ("string", Const::Bytes(b)) => match String::from_utf8(b.clone()) {
            Ok(s) => Const::String(s),
            Err(_) => return Err("invalid UTF-8 in bytes, cannot convert to string".into()),
        },
        ("duration", Const::String(s)) => {
            crd_runtime::time::duration(s)?;
            Const::Other
        }
        ("timestamp", Const::String(s)) => {
            crd_runtime::time::timestamp(s)?;
            Const::Other
        }
        ("timestamp", Const::Int(i)) => {
            crd_runtime::time::timestamp_from_unix(*i)?;
            Const::Other
        }
        // Other combinations do not type-check, or convert values (durations,
        // timestamps, doubles to strings) whose result is not needed here.
        (_, Const::Null) => Const::Other,
        _ => Const::Other,
    })
}

/// Go's `doubleToInt64Checked`.
fn double_to_int(d: f64) -> Option<i64> {
    if d.is_nan() || d.is_infinite() || d <= -9223372036854775808.0 || d >= 9223372036854775808.0 {
        return None;
    }
    Some(d as i64)
}

/// Go's `doubleToUint64Checked`.
fn double_to_uint(d: f64) -> Option<u64> {
    if d.is_nan() || !(0.0..18446744073709551616.0).contains(&d) {
        return None;
    }
    Some(d as u64)
}

/// Go's `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Go's `strconv.ParseUint(s, 10, 64)`.
fn go_parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal input and the special values
/// (hexadecimal floats and underscores are not accepted here).
fn go_parse_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return s.to_ascii_lowercase().parse().ok();
    }
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    match s.parse::<f64>() {
        // Go reports out-of-range values as errors.
        Ok(d) if d.is_infinite() => None,
        r => r.ok(),
    }
}

/// The rules of one IR schema node, compiled as the API server compiles them when it
/// builds its validator: in order, with the node's type as `self` (`is_resource_root`
/// adds `apiVersion`, `kind` and the metadata names). The error is the API server's
/// internal error when the node has no CEL type. Nodes without rules give no rules.
pub fn compile_ir_rules(schema: &crate::ir::Schema, is_resource_root: bool) -> Result<Vec<CompiledRule>, String> {
    if schema.validations.is_empty() {
        return Ok(Vec::new());
    }
    let structural = crate::check::structural::new_structural(&crate::lower::raise_schema(schema))?;
    compile_rules(&structural, is_resource_root)
}
