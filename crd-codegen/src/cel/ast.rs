//! The CEL abstract syntax tree, shaped like cel-go's `common/ast`.
//!
//! Every node has an id, unique within one parsed expression, assigned in the same
//! order as cel-go assigns them (starting at 1), so ids in diagnostics and tests can
//! be compared with cel-go's. Ids are not dense: like cel-go, the id of a call that a
//! macro replaced is dropped.
//!
//! Every node also has a [`Span`]: the byte range of the token cel-go reports as the
//! node's location (the operator for operators, the `(` for calls, the `.` for field
//! selections, the `[`/`{` for list, map and message literals, the `:` for map
//! entries and message fields, the whole literal for literals). Nodes created by macro
//! expansion have an empty span at the position of the macro call, as in cel-go.
//!
//! Operators are calls with cel-go's function names (see [`operators`]); `a.?b` is
//! the call `_?._(a, "b")` and `a[?b]` the call `_[?_](a, b)`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use super::errors::{Location, Source};

/// Identifier of an expression node within one [`ParsedExpr`].
pub type ExprId = u32;

/// A byte range of the expression source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty span at `offset`.
    pub fn at(offset: usize) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }
}

/// Function names cel-go gives to operators and internal helpers.
pub mod operators {
    pub const CONDITIONAL: &str = "_?_:_";
    pub const LOGICAL_AND: &str = "_&&_";
    pub const LOGICAL_OR: &str = "_||_";
    pub const LOGICAL_NOT: &str = "!_";
    pub const NEGATE: &str = "-_";
    pub const EQUALS: &str = "_==_";
    pub const NOT_EQUALS: &str = "_!=_";
    pub const LESS: &str = "_<_";
    pub const LESS_EQUALS: &str = "_<=_";
    pub const GREATER: &str = "_>_";
    pub const GREATER_EQUALS: &str = "_>=_";
    pub const IN: &str = "@in";
    pub const ADD: &str = "_+_";
    pub const SUBTRACT: &str = "_-_";
    pub const MULTIPLY: &str = "_*_";
    pub const DIVIDE: &str = "_/_";
    pub const MODULO: &str = "_%_";
    pub const INDEX: &str = "_[_]";
    pub const OPT_INDEX: &str = "_[?_]";
    pub const OPT_SELECT: &str = "_?._";
    /// Loop condition of `all`/`exists`: false only for a definite `false`.
    pub const NOT_STRICTLY_FALSE: &str = "@not_strictly_false";
    /// Map insertion used by `transformMap` and `transformMapEntry`.
    pub const MAP_INSERT: &str = "cel.@mapInsert";
    /// Used by the `sortBy` macro of cel-go's lists extension.
    pub const SORT_BY_ASSOCIATED_KEYS: &str = "@sortByAssociatedKeys";
    /// Functions of the optional library used by `optMap`/`optFlatMap`.
    pub const HAS_VALUE: &str = "hasValue";
    pub const VALUE: &str = "value";
    pub const OPTIONAL_OF: &str = "optional.of";
    pub const OPTIONAL_NONE: &str = "optional.none";

    /// The source text of a binary or unary operator function, if it is one.
    pub fn display(function: &str) -> Option<&'static str> {
        Some(match function {
            LOGICAL_AND => "&&",
            LOGICAL_OR => "||",
            LOGICAL_NOT => "!",
            NEGATE => "-",
            EQUALS => "==",
            NOT_EQUALS => "!=",
            LESS => "<",
            LESS_EQUALS => "<=",
            GREATER => ">",
            GREATER_EQUALS => ">=",
            IN => "in",
            ADD => "+",
            SUBTRACT => "-",
            MULTIPLY => "*",
            DIVIDE => "/",
            MODULO => "%",
            _ => return None,
        })
    }

    /// cel-go's operator precedence number (higher binds looser; 0 for functions).
    pub fn precedence(function: &str) -> u8 {
        match function {
            CONDITIONAL => 8,
            LOGICAL_OR => 7,
            LOGICAL_AND => 6,
            EQUALS | NOT_EQUALS | LESS | LESS_EQUALS | GREATER | GREATER_EQUALS | IN => 5,
            ADD | SUBTRACT => 4,
            MULTIPLY | DIVIDE | MODULO => 3,
            LOGICAL_NOT | NEGATE => 2,
            INDEX | OPT_INDEX | OPT_SELECT => 1,
            _ => 0,
        }
    }
}

/// Name of the accumulator variable of macro comprehensions (cel-go's hidden
/// accumulator, enabled by default): it cannot be written in CEL source.
pub const ACCUMULATOR_NAME: &str = "@result";

/// The accumulator name cel-go used before `@result`; still rejected as a macro
/// iteration variable.
pub const LEGACY_ACCUMULATOR_NAME: &str = "__result__";

/// Iteration variable of comprehensions that iterate over nothing (`optMap`,
/// `optFlatMap`, `sortBy`: used as local bindings).
pub const UNUSED_ITER_VAR: &str = "#unused";

/// An expression node.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub kind: ExprKind,
}

/// The kinds of expression nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Literal(Literal),
    /// A variable or (qualified) name; a leading dot is kept (`.a`).
    Ident(String),
    Select(Select),
    Call(Call),
    List(List),
    Map(Map),
    Struct(Struct),
    Comprehension(Box<Comprehension>),
}

/// Literal values.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
}

/// `operand.field`, or with `test_only` the presence test produced by `has()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Select {
    pub operand: Box<Expr>,
    pub field: String,
    pub test_only: bool,
}

/// A function call; operators are calls too (see [`operators`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The receiver of a receiver-style call `target.function(args)`.
    pub target: Option<Box<Expr>>,
    pub function: String,
    pub args: Vec<Expr>,
}

/// `[a, ?b]`: `optional_indices` lists the positions of `?` elements.
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    pub elements: Vec<Expr>,
    pub optional_indices: Vec<u32>,
}

/// `{k: v, ?k2: v2}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    pub entries: Vec<MapEntry>,
}

/// One map entry; its id and span are those of the `:`.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    pub id: ExprId,
    pub span: Span,
    pub key: Expr,
    pub value: Expr,
    pub optional: bool,
}

/// A message literal `pkg.Type{field: value, ?opt: value}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Struct {
    /// The type name as written, with a leading dot if there was one.
    pub type_name: String,
    pub fields: Vec<StructField>,
}

/// One message field initializer; its id and span are those of the `:`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructField {
    pub id: ExprId,
    pub span: Span,
    pub name: String,
    pub value: Expr,
    pub optional: bool,
}

/// A fold over `iter_range`, produced by macros:
///
/// ```text
/// accu_var = accu_init
/// for (iter_var[, iter_var2]) in iter_range {
///     if !loop_condition { break }
///     accu_var = loop_step
/// }
/// return result
/// ```
///
/// With two variables, lists bind (index, element) and maps bind (key, value); with
/// one, lists bind the element and maps the key.
#[derive(Clone, Debug, PartialEq)]
pub struct Comprehension {
    pub iter_var: String,
    pub iter_var2: Option<String>,
    pub iter_range: Expr,
    pub accu_var: String,
    pub accu_init: Expr,
    pub loop_condition: Expr,
    pub loop_step: Expr,
    pub result: Expr,
}

/// The macros the parser expands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MacroKind {
    /// `has(a.b)`: a [`Select`] with `test_only`.
    Has,
    /// `e.all(x, p)`.
    All,
    /// `e.exists(x, p)`.
    Exists,
    /// `e.exists_one(x, p)` (and `e.existsOne(x, p)` where enabled).
    ExistsOne,
    /// `e.map(x, t)`.
    Map,
    /// `e.map(x, p, t)`.
    MapFilter,
    /// `e.filter(x, p)`.
    Filter,
    /// `e.all(i, v, p)`.
    AllTwoVar,
    /// `e.exists(i, v, p)`.
    ExistsTwoVar,
    /// `e.existsOne(i, v, p)` / `e.exists_one(i, v, p)`.
    ExistsOneTwoVar,
    /// `e.transformList(i, v, t)`.
    TransformList,
    /// `e.transformList(i, v, p, t)`.
    TransformListFilter,
    /// `e.transformMap(k, v, t)`.
    TransformMap,
    /// `e.transformMap(k, v, p, t)`.
    TransformMapFilter,
    /// `e.transformMapEntry(k, v, t)`.
    TransformMapEntry,
    /// `e.transformMapEntry(k, v, p, t)`.
    TransformMapEntryFilter,
    /// `opt.optMap(x, t)` (optional library).
    OptMap,
    /// `opt.optFlatMap(x, t)` (optional library).
    OptFlatMap,
    /// `list.sortBy(x, key)` (cel-go lists extension, version 2 and later).
    SortBy,
}

/// The call a macro replaced, kept like cel-go's `SourceInfo.macro_calls`.
///
/// `target` and `args` are the parsed arguments as they appear in the expanded tree
/// (same ids); an argument that was itself a macro call appears in expanded form and
/// has its own entry in [`ParsedExpr::macro_calls`].
#[derive(Clone, Debug, PartialEq)]
pub struct MacroCall {
    pub kind: MacroKind,
    /// The function name as written (`exists_one` or `existsOne`, ...).
    pub function: String,
    pub target: Option<Expr>,
    pub args: Vec<Expr>,
}

/// A successfully parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedExpr {
    pub expr: Expr,
    /// Macro calls by the id of the expression that replaced them.
    pub macro_calls: BTreeMap<ExprId, MacroCall>,
    pub source: Arc<Source>,
    /// One more than the largest id in use, for stages that create nodes.
    pub next_id: ExprId,
}

impl ParsedExpr {
    /// Where cel-go reports a node: line (1-based) and column (0-based, code points).
    pub fn location(&self, span: Span) -> Location {
        self.source.location(span.start)
    }

    /// The macro call that produced the node `id`, if any.
    pub fn macro_call(&self, id: ExprId) -> Option<&MacroCall> {
        self.macro_calls.get(&id)
    }
}

impl fmt::Display for ParsedExpr {
    /// CEL source for the expression, with macros printed as written (cel-go's
    /// `Unparse`, without line wrapping).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::unparse::unparse(&self.expr, &self.macro_calls))
    }
}

impl fmt::Display for Expr {
    /// CEL source for the expression. Without macro information comprehensions print
    /// in a debug form; use [`ParsedExpr`]'s `Display` to see macros as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::unparse::unparse(self, &BTreeMap::new()))
    }
}

impl Expr {
    /// The selection, if this is one.
    pub fn as_select(&self) -> Option<&Select> {
        match &self.kind {
            ExprKind::Select(s) => Some(s),
            _ => None,
        }
    }

    /// The call, if this is one.
    pub fn as_call(&self) -> Option<&Call> {
        match &self.kind {
            ExprKind::Call(c) => Some(c),
            _ => None,
        }
    }

    /// The identifier name, if this is one.
    pub fn as_ident(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Ident(name) => Some(name),
            _ => None,
        }
    }

    /// Calls `f` on this node and every node below it, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select(s) => s.operand.walk(f),
            ExprKind::Call(c) => {
                if let Some(t) = &c.target {
                    t.walk(f);
                }
                for a in &c.args {
                    a.walk(f);
                }
            }
            ExprKind::List(l) => l.elements.iter().for_each(|e| e.walk(f)),
            ExprKind::Map(m) => m.entries.iter().for_each(|e| {
                e.key.walk(f);
                e.value.walk(f);
            }),
            ExprKind::Struct(s) => s.fields.iter().for_each(|fi| fi.value.walk(f)),
            ExprKind::Comprehension(c) => {
                c.iter_range.walk(f);
                c.accu_init.walk(f);
                c.loop_condition.walk(f);
                c.loop_step.walk(f);
                c.result.walk(f);
            }
        }
    }
}
