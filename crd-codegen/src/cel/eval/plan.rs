//! The plan of a checked expression: the expression as cel-go's planner
//! (`interpreter/planner.go`) turns it into evaluation steps, with Kubernetes'
//! program options (`OptOptimize`, cost tracking, the optional library's `or`
//! decorator, regular expressions compiled ahead).
//!
//! The plan is the common input of the interpreter ([`super::evaluate`]) and of
//! the code generator. Each [`NodeKind`] documents what evaluating it does and
//! what it costs; [`super`]'s module documentation gives the general rules
//! (evaluation order, errors, the cost limit).

use std::collections::HashMap;

use crd_runtime::cel::functions::{is_singleton, matches_signature};
use crd_runtime::cel::overloads::{overload, overloads_of};
use crd_runtime::cel::{List, Map, Val};

use crate::cel::ast::{Expr, ExprId, ExprKind, Literal, operators};
use crate::cel::check::{CheckedExpr, Reference};
use crate::cel::types::{Kind, Type};

/// A constant of the plan (a value that borrows nothing).
pub type Const = Val<'static>;

/// A planned expression.
#[derive(Clone, Debug)]
pub struct Plan {
    pub root: Node,
    /// The checked type of every node of the checked expression, by id.
    pub types: HashMap<ExprId, Type>,
}

/// One evaluation step: the id of the expression node it comes from and what it
/// does.
#[derive(Clone, Debug)]
pub struct Node {
    pub id: ExprId,
    pub kind: NodeKind,
}

/// The evaluation steps.
///
/// "Cost" is what the step itself adds to the running cost, after its operands
/// have added theirs; the cost limit is checked after every addition.
#[derive(Clone, Debug)]
pub enum NodeKind {
    /// A constant: a literal, a constant identifier, a type name (`int`), or what
    /// the planner folded: a list or map literal whose members are all constants,
    /// a type conversion (`int`, `uint`, `double`, `string`, `bytes`, `bool`,
    /// `duration`, `timestamp`, `type`, `dyn`) of a constant, `x in []`.
    /// Evaluates to the value. Cost 0.
    Const(Const),
    /// A variable or a computed value, with qualifiers (field selections and
    /// indexes): see [`Attr`] for how it resolves. Cost: what resolving the
    /// attribute costs, plus 1 (`SelectAndIdentCost`); nothing more when the root
    /// is a conditional ([`AttrRoot::Cond`]).
    Attr(Attr),
    /// `has(a.b)`: the attribute whose last qualifier is the tested field (a
    /// [`QualKind::Const`] with `test_only`). Evaluates to whether the field is
    /// present (an optional operand: whether it has a value). Cost: what resolving
    /// costs (the test counts as a qualifier); the step itself adds nothing
    /// (`PresenceTestHasCost(false)`).
    PresenceTest(Attr),
    /// `a && b` (cel-go `evalAnd`): `a` first; `false` ends it with `false`;
    /// otherwise `b`; `false` gives `false`; then, if either was an error (or not a
    /// boolean, which is `no such overload`), the first such error; else `true`.
    /// Cost 0.
    And(Box<Node>, Box<Node>),
    /// `a || b` (cel-go `evalOr`): as [`NodeKind::And`] with `true`. Cost 0.
    Or(Box<Node>, Box<Node>),
    /// `a == b` / `a != b` (cel-go `evalEq` / `evalNe`): both operands evaluated,
    /// the left error first, then `crd_runtime::cel::equals` (negated for `!=`;
    /// an equality error stays an error). Cost: `call_cost("_==_" or "_!=_",
    /// "equals" or "not_equals", [a, b], result)`.
    Equals {
        lhs: Box<Node>,
        rhs: Box<Node>,
        negate: bool,
    },
    /// `x.or(y)` / `x.orValue(y)` (the optional library's decorator): `x` must be
    /// an optional (else `no such overload`, errors pass); with a value, the
    /// result is `x` (`or`) or its value (`orValue`) and `y` is not evaluated;
    /// otherwise `y`. Cost 0.
    OptionalOr {
        lhs: Box<Node>,
        rhs: Box<Node>,
        or_value: bool,
    },
    /// `x in <constant list of scalars>` (cel-go `evalSetMembership`): `x`, then
    /// whether it is one of the values (an error operand stays the error). The set
    /// also holds the `int`/`uint`/`double` forms of numbers that convert exactly,
    /// so `1.0 in [1]` holds; other types compare by type and value. Cost 0.
    SetMembership { arg: Box<Node>, values: Vec<Const> },
    /// A function call; see [`Call`].
    Call(Call),
    /// A list literal with a non-constant element (cel-go `evalList`): elements in
    /// order, the first error ends it; an optional element `[?x]` must be an
    /// optional (else `cannot initialize optional list element from non-optional
    /// value <v>`) and is left out when empty. Cost 10 (`ListCreateBaseCost`),
    /// also when an element failed.
    CreateList { elements: Vec<Node>, optional: Vec<bool> },
    /// A map literal with a non-constant entry (cel-go `evalMap`): key then value
    /// of each entry in order, the first error ends it; an optional entry
    /// `?k: v` is left out when `v` is empty; a later key replaces an earlier
    /// equal one. Cost 30 (`MapCreateBaseCost`).
    CreateMap { entries: Vec<(Node, Node, bool)> },
    /// A comprehension (macros); see [`Fold`]. Cost 0.
    Fold(Box<Fold>),
}

/// An attribute (cel-go `Attribute`): a root value and qualifiers applied in
/// order.
///
/// Resolving it: the root gives a value (a variable's value, or a computed one);
/// if that value is an optional, an empty one is the result as it is, and a full
/// one is unwrapped and the attribute becomes optional. Each qualifier is then
/// applied; once the attribute is optional (because of the root or of a
/// qualifier marked `optional`, `a.?b` and `a[?i]`) qualifiers only test: a
/// missing field, key or index gives `optional.none()` as the result, and the
/// final value is wrapped in `optional.of`. Errors stop the resolution.
#[derive(Clone, Debug)]
pub struct Attr {
    pub root: AttrRoot,
    pub quals: Vec<Qual>,
}

/// Where an attribute starts.
#[derive(Clone, Debug)]
pub enum AttrRoot {
    /// A variable: `self`, `oldSelf`, a comprehension variable or accumulator
    /// (the innermost binding of the name), or, with `global`, a top-level
    /// variable that a comprehension variable of the same name hides. A missing
    /// variable is `no such attribute(s): <name>`. Resolving costs nothing.
    Var { name: String, global: bool },
    /// A computed value (cel-go's relative attribute): the node is evaluated (at its
    /// own cost); an error stops the resolution.
    Expr(Box<Node>),
    /// `c ? t : f` (cel-go's conditional attribute): `c` is evaluated; `true`
    /// resolves `t`, `false` resolves `f` (qualifiers that follow the conditional
    /// are part of both), anything else is the error (or `no such overload`). The
    /// branches are resolved as attributes: their own resolution costs, without the
    /// 1 of a standalone attribute.
    Cond {
        cond: Box<Node>,
        truthy: Box<Attr>,
        falsy: Box<Attr>,
    },
}

/// A qualifier: a field selection or an index.
#[derive(Clone, Debug)]
pub struct Qual {
    /// The id of the selection or index expression.
    pub id: ExprId,
    pub kind: QualKind,
    /// `a.?b` / `a[?i]`: only test, see [`Attr`].
    pub optional: bool,
}

/// The kinds of qualifiers. Applying any kind costs 1 (a qualifier applied as a
/// test — optional — costs only when the member is present).
///
/// Applying key `k` to a value:
/// - a map: the value under `k` (numeric keys match across `int`, `uint` and
///   `double` for maps the expression made); absent: `no such key: <k>`. Schema
///   objects take field names (escaped), and a `null` field is absent; a key of
///   the wrong type gives the map's error (`no such overload` for data).
/// - a list: `k` must be an int, or a double or uint with an exact int value
///   (`unsupported index type '<t>' in list`, `unsupported index value <v> in
///   list`); out of range: `index out of bounds: <k>`. Lists of data only take
///   `int` indexes (`unsupported index: <k>`).
/// - anything else: `no such key: <k>`.
///
/// Tests (`has()`, optional qualifiers) answer absent instead of these
/// `no such key` / `index out of bounds` errors (a test on a value that is
/// neither a map nor a list is absent too).
#[derive(Clone, Debug)]
pub enum QualKind {
    /// A field name or constant index. With `test_only` (the field of `has()`),
    /// the qualifier yields whether the field is present.
    Const { value: Const, test_only: bool },
    /// An index computed by an attribute (`a[x]`, `a[x.y]`): the attribute is
    /// resolved (its qualifiers cost, the attribute itself adds nothing), then
    /// its value is the key (`invalid qualifier type` for keys that are not
    /// `string`, `int`, `uint`, `bool` or `double`).
    Attr(Attr),
    /// An index computed by any other expression (`a[f(x)]`): the node is
    /// evaluated (at its own cost), then used as the key.
    Expr(Box<Node>),
}

/// A function call (cel-go `evalUnary`, `evalBinary`, `evalVarArgs`,
/// `evalZeroArity`).
///
/// The arguments (the receiver first) are evaluated in order. With
/// [`CallMode::Strict`] all are evaluated and the first error is the result
/// (the function is not called); with [`CallMode::VarArgs`] evaluation stops at
/// the first error, which is the result, and then the call costs nothing (cel-go
/// does not find the missing arguments to price the call); with
/// [`CallMode::NonStrict`] errors are passed to the function
/// (`@not_strictly_false`).
///
/// The function then runs as `crd_runtime::cel::functions::dispatch(function,
/// overload, args)` does: operators and the other singleton functions by the
/// operand's type, a resolved overload behind a check of the run-time argument
/// types (`no such overload: f(<types>)`), dynamic dispatch over all overloads of
/// the function otherwise.
///
/// Cost: `crd_runtime::cel::cost::call_cost(function, overload or "", args,
/// result)`.
#[derive(Clone, Debug)]
pub struct Call {
    /// The function name (`_+_`, `startsWith`, `sets.contains`, ...).
    pub function: String,
    /// The overload, when the checker resolved exactly one (cel-go then passes
    /// its id to the cost functions; otherwise none).
    pub overload: Option<String>,
    /// The overloads the checker found possible (one or more).
    pub candidates: Vec<String>,
    pub args: Vec<Node>,
    pub mode: CallMode,
}

/// How the arguments of a call are evaluated (see [`Call`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallMode {
    Strict,
    VarArgs,
    NonStrict,
}

/// A comprehension (cel-go `evalFold`; the macros `all`, `exists`, `exists_one`,
/// `map`, `filter`, the two-variable forms, `transformList`, `transformMap`,
/// `transformMapEntry`, `optMap`, `optFlatMap`, `sortBy`).
///
/// Evaluation: `iter_range` first (an error is the result; a value that is not a
/// list or map is `got '<Go type>', expected iterable type`, or with two
/// variables `unsupported comprehension range type: <Go type>`). Then for each
/// list element (`iter_var` = element, or with `iter_var2`: index and element) or
/// map entry (`iter_var` = key, or key and value), in order: `loop_condition`;
/// a `false` result ends the loop (any other value, errors included, goes on);
/// then `loop_step`, whose value (or error) becomes the accumulator. Finally
/// `result`, in which the iteration variables are no longer visible.
///
/// The accumulator `accu_var` is initialized from `accu_init` when it is first
/// read (in the outer scope); an empty list or map initial value is mutable:
/// `accu + list` appends to it and `cel.@mapInsert(accu, k, v)` inserts into it
/// (instead of building new values; the results are the same). Cost 0 (the
/// parts cost as they are evaluated).
#[derive(Clone, Debug)]
pub struct Fold {
    pub iter_var: String,
    pub iter_var2: Option<String>,
    pub iter_range: Node,
    pub accu_var: String,
    pub accu_init: Node,
    pub loop_condition: Node,
    pub loop_step: Node,
    pub result: Node,
}

impl Plan {
    /// Plans a checked expression like cel-go's planner with Kubernetes' options.
    /// The error is what cel-go reports when it cannot create the program (a
    /// constant regular expression that does not compile, a conversion of a
    /// constant that fails, a message literal).
    pub fn new(checked: &CheckedExpr) -> Result<Plan, String> {
        let planner = Planner { checked };
        let root = planner.plan(&checked.expr)?;
        Ok(Plan {
            root,
            types: checked.types.clone(),
        })
    }
}

struct Planner<'c> {
    checked: &'c CheckedExpr,
}

impl Planner<'_> {
    fn plan(&self, e: &Expr) -> Result<Node, String> {
        let kind = match &e.kind {
            ExprKind::Literal(l) => NodeKind::Const(literal(l)),
            ExprKind::Ident(name) => self.plan_ident(e.id, name)?,
            ExprKind::Select(s) => {
                let op = self.plan(&s.operand)?;
                let mut attr = into_attr(op);
                let qual = Qual {
                    id: e.id,
                    kind: QualKind::Const {
                        value: Val::string(s.field.as_str()),
                        test_only: s.test_only,
                    },
                    optional: false,
                };
                add_qualifier(&mut attr, qual);
                if s.test_only {
                    NodeKind::PresenceTest(attr)
                } else {
                    NodeKind::Attr(attr)
                }
            }
            ExprKind::Call(c) => {
                let mut args = Vec::with_capacity(c.args.len() + 1);
                if let Some(t) = &c.target {
                    args.push(self.plan(t)?);
                }
                for a in &c.args {
                    args.push(self.plan(a)?);
                }
                self.plan_call(e.id, &c.function, args)?
            }
            ExprKind::List(l) => {
                let elements = l.elements.iter().map(|x| self.plan(x)).collect::<Result<Vec<_>, _>>()?;
                let mut optional = vec![false; elements.len()];
                for &i in &l.optional_indices {
                    match optional.get_mut(i as usize) {
                        Some(o) => *o = true,
                        None => {
                            return Err(format!(
                                "optional index {i} out of element bounds [0, {}]",
                                elements.len()
                            ));
                        }
                    }
                }
                fold_list(elements, optional)?
            }
            ExprKind::Map(m) => {
                let mut entries = Vec::with_capacity(m.entries.len());
                for en in &m.entries {
                    entries.push((self.plan(&en.key)?, self.plan(&en.value)?, en.optional));
                }
                fold_map(entries)?
            }
            ExprKind::Struct(s) => return Err(format!("unknown type: {}", s.type_name)),
            ExprKind::Comprehension(c) => {
                let accu_init = self.plan(&c.accu_init)?;
                let iter_range = self.plan(&c.iter_range)?;
                let loop_condition = self.plan(&c.loop_condition)?;
                let loop_step = self.plan(&c.loop_step)?;
                let result = self.plan(&c.result)?;
                NodeKind::Fold(Box::new(Fold {
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
        Ok(Node { id: e.id, kind })
    }

    /// cel-go `planCheckedIdent`.
    fn plan_ident(&self, id: ExprId, name: &str) -> Result<NodeKind, String> {
        if let Some(Reference::Ident { value: Some(v), .. }) = self.checked.reference(id) {
            return Ok(NodeKind::Const(literal(v)));
        }
        let name = match self.checked.reference(id) {
            Some(Reference::Ident { name, .. }) => name.as_str(),
            _ => name,
        };
        if let Some(t) = self.checked.type_of(id)
            && t.kind() == Kind::Type
        {
            let type_name = name.trim_start_matches('.');
            return Ok(NodeKind::Const(Val::Type(crd_runtime::cel::TypeVal::new(
                type_name.to_string(),
            ))));
        }
        Ok(NodeKind::Attr(Attr {
            root: AttrRoot::Var {
                name: name.trim_start_matches('.').to_string(),
                global: name.starts_with('.'),
            },
            quals: Vec::new(),
        }))
    }

    /// cel-go `planCall` and the decorators that rewrite calls.
    fn plan_call(&self, id: ExprId, function: &str, mut args: Vec<Node>) -> Result<NodeKind, String> {
        let candidates: Vec<String> = self.checked.overload_ids(id).to_vec();
        let overload_id = if candidates.len() == 1 {
            Some(candidates[0].clone())
        } else {
            None
        };
        match function {
            operators::LOGICAL_AND | operators::LOGICAL_OR if args.len() == 2 => {
                let b = Box::new(args.pop().unwrap_or_else(null_node));
                let a = Box::new(args.pop().unwrap_or_else(null_node));
                return Ok(if function == operators::LOGICAL_AND {
                    NodeKind::And(a, b)
                } else {
                    NodeKind::Or(a, b)
                });
            }
            operators::CONDITIONAL if args.len() == 3 => {
                let f = args.pop().unwrap_or_else(null_node);
                let t = args.pop().unwrap_or_else(null_node);
                let c = args.pop().unwrap_or_else(null_node);
                return Ok(NodeKind::Attr(Attr {
                    root: AttrRoot::Cond {
                        cond: Box::new(c),
                        truthy: Box::new(branch_attr(t)),
                        falsy: Box::new(branch_attr(f)),
                    },
                    quals: Vec::new(),
                }));
            }
            operators::EQUALS | operators::NOT_EQUALS if args.len() == 2 => {
                let rhs = Box::new(args.pop().unwrap_or_else(null_node));
                let lhs = Box::new(args.pop().unwrap_or_else(null_node));
                return Ok(NodeKind::Equals {
                    lhs,
                    rhs,
                    negate: function == operators::NOT_EQUALS,
                });
            }
            operators::INDEX | operators::OPT_INDEX | operators::OPT_SELECT if args.len() == 2 => {
                let optional = function != operators::INDEX;
                let ind = args.pop().unwrap_or_else(null_node);
                let op = args.pop().unwrap_or_else(null_node);
                let mut attr = into_attr(op);
                let kind = match ind.kind {
                    NodeKind::Const(value) => {
                        // cel-go `newQualifier` takes only these constant keys.
                        if !matches!(
                            value,
                            Val::String(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_) | Val::Double(_)
                        ) {
                            return Err(format!("invalid qualifier type: {}", go_type_name(&value)));
                        }
                        QualKind::Const {
                            value,
                            test_only: false,
                        }
                    }
                    NodeKind::Attr(a) | NodeKind::PresenceTest(a) => QualKind::Attr(a),
                    other => QualKind::Expr(Box::new(Node {
                        id: ind.id,
                        kind: other,
                    })),
                };
                add_qualifier(&mut attr, Qual { id, kind, optional });
                return Ok(NodeKind::Attr(attr));
            }
            "or" | "orValue"
                if args.len() == 2
                    && overload_id
                        .as_deref()
                        .is_none_or(|o| o == "optional_or_optional" || o == "optional_orValue_value") =>
            {
                let rhs = Box::new(args.pop().unwrap_or_else(null_node));
                let lhs = Box::new(args.pop().unwrap_or_else(null_node));
                return Ok(NodeKind::OptionalOr {
                    lhs,
                    rhs,
                    or_value: function == "orValue",
                });
            }
            _ => {}
        }
        let mode = call_mode(function, overload_id.as_deref(), args.len());
        let call = Call {
            function: function.to_string(),
            overload: overload_id,
            candidates,
            args,
            mode,
        };
        optimize_call(id, call)
    }
}

/// Go's `%T` of a cel-go value, for the messages that print it.
pub fn go_type_name(v: &Val<'_>) -> &'static str {
    match v {
        Val::Null => "types.Null",
        Val::Bool(_) => "types.Bool",
        Val::Int(_) => "types.Int",
        Val::Uint(_) => "types.Uint",
        Val::Double(_) => "types.Double",
        Val::String(_) => "types.String",
        Val::Bytes(_) => "types.Bytes",
        Val::Duration(_) => "types.Duration",
        Val::Timestamp(_) => "types.Timestamp",
        Val::List(_) => "*types.baseList",
        Val::Map(_) => "*types.baseMap",
        Val::Optional(_) => "*types.Optional",
        Val::Type(_) => "*types.Type",
        Val::Quantity(..) => "cel.Quantity",
        Val::Url(_) => "cel.URL",
        Val::Ip(_) => "cel.IP",
        Val::Cidr(_) => "cel.CIDR",
        Val::Semver(_) => "cel.Semver",
        Val::Format(_) => "cel.Format",
        Val::Unknown(_) => "*common.unknownPreserved",
    }
}

fn null_node() -> Node {
    Node {
        id: 0,
        kind: NodeKind::Const(Val::Null),
    }
}

/// A literal as a value.
fn literal(l: &Literal) -> Const {
    match l {
        Literal::Null => Val::Null,
        Literal::Bool(b) => Val::Bool(*b),
        Literal::Int(i) => Val::Int(*i),
        Literal::Uint(u) => Val::Uint(*u),
        Literal::Double(d) => Val::Double(*d),
        Literal::String(s) => Val::string(s.as_str()),
        Literal::Bytes(b) => Val::bytes(b.as_slice()),
    }
}

/// The attribute a select or index extends: the operand's own attribute, or a
/// relative attribute over the operand.
fn into_attr(op: Node) -> Attr {
    match op.kind {
        NodeKind::Attr(a) => a,
        other => Attr {
            root: AttrRoot::Expr(Box::new(Node { id: op.id, kind: other })),
            quals: Vec::new(),
        },
    }
}

/// A branch of a conditional: its attribute if it is one, else a relative
/// attribute over it.
fn branch_attr(n: Node) -> Attr {
    match n.kind {
        NodeKind::Attr(a) | NodeKind::PresenceTest(a) => a,
        other => Attr {
            root: AttrRoot::Expr(Box::new(Node { id: n.id, kind: other })),
            quals: Vec::new(),
        },
    }
}

/// Adds a qualifier; a conditional passes it to both branches.
fn add_qualifier(attr: &mut Attr, q: Qual) {
    if attr.quals.is_empty()
        && let AttrRoot::Cond { truthy, falsy, .. } = &mut attr.root
    {
        add_qualifier(truthy, q.clone());
        add_qualifier(falsy, q);
        return;
    }
    attr.quals.push(q);
}

/// How cel-go binds the call: a singleton or a single overload taking one or two
/// arguments is a unary or binary call (all arguments evaluated); calls with
/// three or more arguments, `format` (bound as a function of any arity) and the
/// dynamic dispatch over several overloads evaluate arguments until the first
/// error.
fn call_mode(function: &str, overload_id: Option<&str>, argc: usize) -> CallMode {
    if function == operators::NOT_STRICTLY_FALSE {
        return CallMode::NonStrict;
    }
    if is_singleton(function) {
        return if argc <= 2 { CallMode::Strict } else { CallMode::VarArgs };
    }
    let single = match overload_id {
        Some(id) => overload(id),
        None => {
            let mut all = overloads_of(function);
            match (all.next(), all.next()) {
                (Some(o), None) => Some(o),
                _ => None,
            }
        }
    };
    match single {
        Some(o) if o.id != "string_format" && (1..=2).contains(&argc) => CallMode::Strict,
        _ if argc == 0 => CallMode::Strict,
        _ => CallMode::VarArgs,
    }
}

/// `OptOptimize`'s rewrites of calls (cel-go `decOptimize`) and the compilation
/// of constant regular expressions (`CompileRegexConstants`).
fn optimize_call(id: ExprId, call: Call) -> Result<NodeKind, String> {
    // `x in [constants]`: a set membership test.
    if call.overload.as_deref() == Some("in_list")
        && let [
            _,
            Node {
                kind: NodeKind::Const(Val::List(list)),
                ..
            },
        ] = call.args.as_slice()
    {
        if list.is_empty() {
            return Ok(NodeKind::Const(Val::Bool(false)));
        }
        if let Some(values) = set_members(list) {
            let arg = call.args.into_iter().next().unwrap_or_else(null_node);
            return Ok(NodeKind::SetMembership {
                arg: Box::new(arg),
                values,
            });
        }
    }
    // A type conversion of a constant is evaluated now.
    if is_type_conversion(&call.function)
        && let [
            Node {
                kind: NodeKind::Const(c),
                ..
            },
        ] = call.args.as_slice()
    {
        let v =
            crd_runtime::cel::functions::dispatch(&call.function, call.overload.as_deref(), std::slice::from_ref(c))
                .map_err(|e| e.to_string())?;
        return Ok(NodeKind::Const(v));
    }
    // Constant regular expressions are compiled now.
    if matches!(call.function.as_str(), "matches" | "find" | "findAll")
        && let Some(Node {
            kind: NodeKind::Const(Val::String(re)),
            ..
        }) = call.args.get(1)
    {
        crd_runtime::regex::compile(re).map_err(|e| e.to_string())?;
    }
    let _ = id;
    Ok(NodeKind::Call(call))
}

fn is_type_conversion(f: &str) -> bool {
    matches!(
        f,
        "bool" | "bytes" | "double" | "duration" | "dyn" | "int" | "string" | "timestamp" | "type" | "uint"
    )
}

/// The members of the set cel-go's `maybeOptimizeSetMembership` builds, or `None`
/// when an element is not a scalar (`bool`, `int`, `uint`, `double`, `string`).
fn set_members(list: &List<'static>) -> Option<Vec<Const>> {
    let mut out = Vec::new();
    for v in list.iter() {
        let v = v.ok()?;
        match &v {
            Val::Bool(_) | Val::String(_) => out.push(v),
            Val::Double(d) => {
                out.push(v.clone());
                if let Ok(i) = crd_runtime::cel::convert::double_to_int(*d)
                    && i as f64 == *d
                {
                    out.push(Val::Int(i));
                }
                if let Ok(u) = crd_runtime::cel::convert::double_to_uint(*d)
                    && u as f64 == *d
                {
                    out.push(Val::Uint(u));
                }
            }
            Val::Int(i) => {
                out.push(v.clone());
                out.push(Val::Double(*i as f64));
                if let Ok(u) = crd_runtime::cel::convert::int_to_uint(*i) {
                    out.push(Val::Uint(u));
                }
            }
            Val::Uint(u) => {
                out.push(v.clone());
                out.push(Val::Double(*u as f64));
                if let Ok(i) = crd_runtime::cel::convert::uint_to_int(*u) {
                    out.push(Val::Int(i));
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A list literal: a constant when every element is (cel-go
/// `maybeBuildListLiteral`).
fn fold_list(elements: Vec<Node>, optional: Vec<bool>) -> Result<NodeKind, String> {
    if elements.iter().all(|e| matches!(e.kind, NodeKind::Const(_))) {
        let mut items = Vec::with_capacity(elements.len());
        for (e, opt) in elements.into_iter().zip(&optional) {
            let NodeKind::Const(v) = e.kind else { continue };
            if *opt {
                match v {
                    Val::Optional(Some(v)) => items.push(*v),
                    Val::Optional(None) => {}
                    other => {
                        return Err(format!(
                            "cannot initialize optional list element from non-optional value {}",
                            crd_runtime::cel::format::go_value(&other)
                        ));
                    }
                }
            } else {
                items.push(v);
            }
        }
        return Ok(NodeKind::Const(Val::list(items)));
    }
    Ok(NodeKind::CreateList { elements, optional })
}

/// A map literal: a constant when every key and value is (cel-go
/// `maybeBuildMapLiteral`).
fn fold_map(entries: Vec<(Node, Node, bool)>) -> Result<NodeKind, String> {
    if entries
        .iter()
        .all(|(k, v, _)| matches!(k.kind, NodeKind::Const(_)) && matches!(v.kind, NodeKind::Const(_)))
    {
        let mut pairs = Vec::with_capacity(entries.len());
        for (k, v, opt) in entries {
            let (NodeKind::Const(k), NodeKind::Const(v)) = (k.kind, v.kind) else {
                continue;
            };
            if opt {
                match v {
                    Val::Optional(Some(v)) => pairs.push((k, *v)),
                    Val::Optional(None) => pairs.retain(|(pk, _)| !crd_runtime::cel::equals(pk, &k).unwrap_or(false)),
                    other => {
                        return Err(format!(
                            "cannot initialize optional entry '{}' from non-optional value {}",
                            crd_runtime::cel::format::go_value(&k),
                            crd_runtime::cel::format::go_value(&other)
                        ));
                    }
                }
            } else {
                pairs.push((k, v));
            }
        }
        return Map::from_entries(pairs)
            .map(|m| NodeKind::Const(Val::Map(m)))
            .map_err(|e| e.to_string());
    }
    Ok(NodeKind::CreateMap { entries })
}

/// Whether the arguments fit the only overload (used by the code generator to
/// decide whether a run-time check is needed).
pub fn fits_overload(overload_id: &str, args: &[Val<'_>]) -> bool {
    matches_signature(overload_id, args)
}
