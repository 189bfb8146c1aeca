//! CEL type checking and static cost estimation, as the Kubernetes API server does
//! them for `x-kubernetes-validations` (cel-go v0.29.2 with Kubernetes' libraries).
//!
//! - [`check`] type-checks a [`ParsedExpr`] in an [`Env`] (cel-go's
//!   `checker.Check`): a [`CheckedExpr`] or cel-go's exact errors
//!   (`found no matching overload for '_==_' applied to '(int, bool)'`, ...).
//! - [`compile()`] parses, checks and runs the environment's AST validators (cel-go's
//!   `Env.Compile`): literal `duration()`/`timestamp()`/`matches()` arguments,
//!   homogeneous list and map literals, literal `format()` strings.
//! - [`cost::estimate`] is cel-go's `checker.Cost` with Kubernetes'
//!   `library.CostEstimator` and the schema size estimator.
//! - [`decltype`] turns a structural schema into CEL types (Kubernetes'
//!   `SchemaDeclType`, with size limits for the cost estimate).
//! - [`compile`](mod@compile) is the Kubernetes compile step of rules
//!   (`compilation.go`): `self`/`oldSelf`, result types, cost, and the
//!   [`RuleCompiler`](crate::check::RuleCompiler) plugged into the CRD checks
//!   ([`compile::CelRuleCompiler`]).
//!
//! # Reading a [`CheckedExpr`]
//!
//! The checked expression is the parsed one, rewritten like cel-go rewrites it:
//!
//! - identifiers and qualified names resolve to their declaration: `a.b.c` where
//!   `a.b` is a declared variable becomes the identifier `a.b` selected by `c`
//!   (the select node keeps its id; the nodes of the qualified name are gone);
//! - a call `ns.f(x)` whose receiver is a namespace (`sets.contains(a, b)`,
//!   `optional.of(1)`, `format.dns1123Label()`, `lists.range(3)`) becomes the global
//!   call `ns.f(x)` with no target;
//! - names are fully qualified (relative to the container), and an identifier that
//!   refers to a global shadowed by a comprehension variable starts with `.`.
//!
//! Every node of the rewritten tree has a type in [`CheckedExpr::types`] (no type
//! parameters are left: unbound ones are `dyn`), except the field-name literal of
//! an optional selection `a.?b` (the call `_?._(a, "b")`), as in cel-go.
//! [`CheckedExpr::references`] has, for identifiers (and message literals) the
//! resolved name, and for calls (operators, functions, macros' helper calls) the
//! ids of the overloads that may apply — one when the argument types decide it,
//! several when they do not (`dyn` arguments): the evaluator picks among those by
//! the run-time types. Overload ids are cel-go's (`add_int64`,
//! `string_index_of_string`, `list_a_index_of_int`, ...; see [`decls`]).
//!
//! Macros are already expanded by the parser into comprehensions (see
//! [`crate::cel::macros`]); their helper functions (`@not_strictly_false`,
//! `cel.@mapInsert`, `@sortByAssociatedKeys`) are ordinary calls with references.
//!
//! # Deliberate differences from cel-go and Kubernetes
//!
//! - The type of `self` is named `selfType0`; the API server names it
//!   `selfType<nanoseconds>`, a new random number for every compilation. The name
//!   shows in messages about schema object types
//!   (`found no matching overload for '_==_' applied to '(selfType0.spec, int)'`).
//!   Because the real names cannot be guessed, schema object types cannot be named
//!   in expressions here (as identifiers or in message literals).
//! - Every rule is compiled in Kubernetes' `StoredExpressions` environment (the
//!   newest libraries). On create and update the API server compiles new rules in
//!   the `NewExpressions` environment of its compatibility version, which may lack
//!   the newest functions (today `<list>.includes()`, Kubernetes 1.37).
//! - Go instantiates the type parameters of an overload in map order; here they are
//!   instantiated in order of appearance, so the numbers of free type variables in
//!   messages (`list(_var0)`) can differ for overloads with several type parameters.
//! - Creating the program (`program instantiation failed: ...`) is simulated: the
//!   constant regular expressions of `matches`, `find` and `findAll` are compiled,
//!   and type conversions of constant arguments are evaluated (with Go's errors for
//!   integer, unsigned, double, bool, bytes-to-string, duration and timestamp
//!   conversions; `double('…')` accepts decimal notation and the special values).
//! - Regular expressions are judged by the port of Go's `regexp/syntax` parser in
//!   `crd_runtime::regex`.
//! - The protobuf registry knows only the well-known types (wrappers, `Any`,
//!   `Duration`, `Timestamp`, `Struct`, `Value`, `ListValue`, `Empty`) and the enum
//!   constant `google.protobuf.NullValue.NULL_VALUE`.
//! - Where cel-go's homogeneous-literal validator would panic (an optional list
//!   element `[?x]` of a non-optional `dyn` type), the element's own type is used.
//! - cel-go's `incompatible type already exists` and `reference already exists`
//!   errors cannot happen: nodes are never shared.
//! - [`CheckedExpr::macro_calls`] keeps every macro call (cel-go drops the source
//!   information of nodes the checker removed).

pub mod checker;
pub mod compile;
pub mod cost;
pub mod decls;
pub mod decltype;
pub mod env;
pub mod validators;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::cel::ast::{Expr, ExprId, Literal, MacroCall, ParsedExpr};
use crate::cel::errors::{CelErrors, Source};
use crate::cel::types::Type;

pub use decls::{FunctionDecl, FunctionSet, KUBERNETES_CONFORMANCE_FILES, Libraries, OverloadDecl};
pub use env::{Env, StructType, Validators, Variable};

/// What an identifier or call refers to (cel-go's `ReferenceInfo`).
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// A variable, constant, or type name (also the type of a message literal):
    /// its fully qualified name (with a leading `.` when it is a global shadowed by a
    /// comprehension variable), and the value of a constant.
    Ident { name: String, value: Option<Literal> },
    /// A function call: the ids of the overloads that may apply, in declaration
    /// order.
    Function { overload_ids: Vec<String> },
}

impl Reference {
    /// The identifier name, for identifier references.
    pub fn name(&self) -> Option<&str> {
        match self {
            Reference::Ident { name, .. } => Some(name),
            Reference::Function { .. } => None,
        }
    }

    /// The overload ids, for call references (empty for identifiers).
    pub fn overload_ids(&self) -> &[String] {
        match self {
            Reference::Function { overload_ids } => overload_ids,
            Reference::Ident { .. } => &[],
        }
    }
}

/// A type-checked expression: the rewritten tree, node types and references.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedExpr {
    /// The expression as the checker rewrote it (see the module documentation).
    pub expr: Expr,
    /// The macro calls the parser expanded, by the id of the expanding node (for
    /// printing the expression as written; their arguments are as parsed).
    pub macro_calls: BTreeMap<ExprId, MacroCall>,
    pub source: Arc<Source>,
    /// One more than the largest node id.
    pub next_id: ExprId,
    /// The type of every node.
    pub types: HashMap<ExprId, Type>,
    /// Identifier and call references.
    pub references: HashMap<ExprId, Reference>,
}

impl CheckedExpr {
    /// The type of the whole expression.
    pub fn output_type(&self) -> &Type {
        self.types.get(&self.expr.id).unwrap_or(&Type::Error)
    }

    /// The type of a node.
    pub fn type_of(&self, id: ExprId) -> Option<&Type> {
        self.types.get(&id)
    }

    /// The reference of a node.
    pub fn reference(&self, id: ExprId) -> Option<&Reference> {
        self.references.get(&id)
    }

    /// The overload ids of a call node (empty if none).
    pub fn overload_ids(&self, id: ExprId) -> &[String] {
        self.references.get(&id).map(Reference::overload_ids).unwrap_or(&[])
    }

    /// Whether an identifier reference to `name` occurs (Kubernetes' `UsesOldSelf`
    /// test).
    pub fn references_ident(&self, name: &str) -> bool {
        self.references.values().any(|r| r.name() == Some(name))
    }
}

/// Type-checks a parsed expression (cel-go's `checker.Check`), without the
/// environment's validators.
pub fn check(parsed: &ParsedExpr, env: &Env) -> Result<CheckedExpr, CelErrors> {
    checker::check(parsed, env)
}

/// Parses, type-checks and validates an expression like cel-go's `Env.Compile`.
/// The error text is cel-go's `Issues.String()`.
pub fn compile(source: &str, env: &Env) -> Result<CheckedExpr, CelErrors> {
    let parsed = crate::cel::parse(source)?;
    let checked = check(&parsed, env)?;
    validators::validate(&checked, env)?;
    Ok(checked)
}
