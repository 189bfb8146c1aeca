//! Static cost estimation: a port of cel-go's `checker/cost.go` with Kubernetes'
//! `library.CostEstimator` (`k8s.io/apiserver/pkg/cel/library/cost.go`), the cost
//! estimators of cel-go's `ext.Lists` (version 3) and `ext.Sets`, and the schema
//! size estimator of apiextensions' `compilation.go` (`sizeEstimator`).
//!
//! The estimate depends on details of the Go implementation that this port keeps:
//! field paths of expressions are Go slices that share their backing arrays, so
//! appending to the path of one expression can change the path of another (e.g.
//! the index and value variables of a two-variable comprehension over a list
//! three fields deep see the same path); [`GoPath`] reproduces Go's `append`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Add;
use std::rc::Rc;
use std::sync::Arc;

use super::CheckedExpr;
use super::decls::comparable_types;
use super::decltype::{DeclKind, DeclType};
use crate::cel::ast::{ACCUMULATOR_NAME, Expr, ExprId, ExprKind, LEGACY_ACCUMULATOR_NAME, Literal};
use crate::cel::types::{Kind, Type};

/// `common.SelectAndIdentCost`.
pub const SELECT_AND_IDENT_COST: u64 = 1;
/// `common.ConstCost`.
pub const CONST_COST: u64 = 0;
/// `common.ListCreateBaseCost`.
pub const LIST_CREATE_BASE_COST: u64 = 10;
/// `common.MapCreateBaseCost`.
pub const MAP_CREATE_BASE_COST: u64 = 30;
/// `common.StructCreateBaseCost`.
pub const STRUCT_CREATE_BASE_COST: u64 = 40;
/// `common.StringTraversalCostFactor`.
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// `common.RegexStringLengthCostFactor`.
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;
/// Kubernetes `MaxFormatSize`.
const MAX_FORMAT_SIZE: u64 = 64;
/// Kubernetes `MaxNameFormatRegexSize`.
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;

/// A range of sizes (cel-go's `SizeEstimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeEstimate {
    pub min: u64,
    pub max: u64,
}

/// A range of costs (cel-go's `CostEstimate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CostEstimate {
    pub min: u64,
    pub max: u64,
}

const UNKNOWN_SIZE: SizeEstimate = SizeEstimate { min: 0, max: u64::MAX };

fn add_no_overflow(x: u64, y: u64) -> u64 {
    x.saturating_add(y)
}

fn multiply_no_overflow(x: u64, y: u64) -> u64 {
    x.saturating_mul(y)
}

/// cel-go's `multiplyByCostFactor`: `ceil(x * y)`, saturating.
fn multiply_by_cost_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > (u64::MAX as f64) / y {
        return u64::MAX;
    }
    let ceil = (xf * y).ceil();
    if ceil >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    ceil as u64
}

impl SizeEstimate {
    pub fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate { min: n, max: n }
    }
    pub fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: multiply_no_overflow(self.min, o.min),
            max: multiply_no_overflow(self.max, o.max),
        }
    }
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, f),
            max: multiply_by_cost_factor(self.max, f),
        }
    }
    pub fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: multiply_no_overflow(self.min, c.min),
            max: multiply_no_overflow(self.max, c.max),
        }
    }
    pub fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

impl CostEstimate {
    pub fn fixed(n: u64) -> CostEstimate {
        CostEstimate { min: n, max: n }
    }
    pub fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: multiply_no_overflow(self.min, o.min),
            max: multiply_no_overflow(self.max, o.max),
        }
    }
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, f),
            max: multiply_by_cost_factor(self.max, f),
        }
    }
    pub fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

impl Add for SizeEstimate {
    type Output = SizeEstimate;

    /// Saturating sum.
    fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: add_no_overflow(self.min, o.min),
            max: add_no_overflow(self.max, o.max),
        }
    }
}

impl Add for CostEstimate {
    type Output = CostEstimate;

    /// Saturating sum.
    fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: add_no_overflow(self.min, o.min),
            max: add_no_overflow(self.max, o.max),
        }
    }
}

/// A Go `[]string` field path: shares its backing array with the slices it was
/// appended from, like Go's.
#[derive(Clone, Debug)]
pub struct GoPath {
    buf: Rc<RefCell<Vec<String>>>,
    len: usize,
    cap: usize,
}

impl GoPath {
    fn single(s: &str) -> GoPath {
        GoPath {
            buf: Rc::new(RefCell::new(vec![s.to_string()])),
            len: 1,
            cap: 1,
        }
    }

    /// Go's `append(path, s)` (for a nil path, `path` is `None`).
    fn append(path: &Option<GoPath>, s: &str) -> GoPath {
        match path {
            None => GoPath::single(s),
            Some(p) if p.len < p.cap => {
                {
                    let mut b = p.buf.borrow_mut();
                    if b.len() > p.len {
                        b[p.len] = s.to_string();
                    } else {
                        b.push(s.to_string());
                    }
                }
                GoPath {
                    buf: p.buf.clone(),
                    len: p.len + 1,
                    cap: p.cap,
                }
            }
            Some(p) => {
                let mut v: Vec<String> = p.buf.borrow()[..p.len].to_vec();
                v.push(s.to_string());
                GoPath {
                    buf: Rc::new(RefCell::new(v)),
                    len: p.len + 1,
                    cap: (p.cap * 2).max(1),
                }
            }
        }
    }

    /// The path as it reads now.
    fn read(&self) -> Vec<String> {
        self.buf.borrow()[..self.len].to_vec()
    }
}

/// An expression as the estimators see it (cel-go's `AstNode`).
#[derive(Clone, Debug)]
pub struct AstNode<'e> {
    path: NodePath,
    pub ty: Type,
    pub expr: Option<&'e Expr>,
    pub computed_size: Option<SizeEstimate>,
}

#[derive(Clone, Debug)]
enum NodePath {
    Shared(Option<GoPath>),
    Owned(Option<Vec<String>>),
}

impl AstNode<'_> {
    /// The field path (first element a variable, then field names, `@items`,
    /// `@keys`, `@values`), as it reads now.
    pub fn path(&self) -> Option<Vec<String>> {
        match &self.path {
            NodePath::Shared(p) => p.as_ref().map(GoPath::read),
            NodePath::Owned(p) => p.clone(),
        }
    }

    fn literal(&self) -> Option<&Literal> {
        match &self.expr?.kind {
            ExprKind::Literal(l) => Some(l),
            _ => None,
        }
    }
}

/// A call's cost and result size (cel-go's `CallEstimate`).
#[derive(Clone, Copy, Debug)]
pub struct CallEstimate {
    pub cost: CostEstimate,
    pub result_size: Option<SizeEstimate>,
}

/// Kubernetes' `library.CostEstimator` with apiextensions' schema `sizeEstimator`
/// (when `root` is the `DeclType` of `self`).
#[derive(Clone, Debug, Default)]
pub struct Estimator {
    pub root: Option<Arc<DeclType>>,
}

impl Estimator {
    /// apiextensions' `sizeEstimator.EstimateSize`: the maximum size of the schema
    /// node the path leads to.
    pub fn estimate_size(&self, node: &AstNode<'_>) -> Option<SizeEstimate> {
        let root = self.root.as_ref()?;
        let path = node.path()?;
        if path.is_empty() {
            return None;
        }
        let mut current: &DeclType = root;
        for name in &path[1..] {
            current = match name.as_str() {
                "@items" | "@values" => current.elem()?,
                "@keys" => current.key()?,
                _ => match &current.kind {
                    DeclKind::Object { fields } => &fields.get(name)?.ty,
                    _ => return None,
                },
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: current.max_elements as u64,
        })
    }

    fn size_estimate(&self, node: &AstNode<'_>) -> SizeEstimate {
        node.computed_size
            .or_else(|| self.estimate_size(node))
            .unwrap_or(UNKNOWN_SIZE)
    }

    fn list_element_node<'e>(&self, list: &AstNode<'e>) -> Option<AstNode<'e>> {
        let params = list.ty.params();
        let elem = params.first()?;
        let path = list.path().map(|mut p| {
            p.push("@items".into());
            p
        });
        Some(AstNode {
            path: NodePath::Owned(path),
            ty: (*elem).clone(),
            expr: None,
            computed_size: None,
        })
    }

    /// Kubernetes' `CostEstimator.EstimateCallCost`.
    pub fn estimate_call_cost(
        &self,
        function: &str,
        overload_id: &str,
        target: Option<&AstNode<'_>>,
        args: &[AstNode<'_>],
    ) -> Option<CallEstimate> {
        let fixed = |n: u64| {
            Some(CallEstimate {
                cost: CostEstimate::fixed(n),
                result_size: None,
            })
        };
        let cost = |c: CostEstimate| {
            Some(CallEstimate {
                cost: c,
                result_size: None,
            })
        };
        let f = STRING_TRAVERSAL_COST_FACTOR;
        match function {
            "check" => return fixed(350000),
            "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name" | "allowed"
            | "reason" | "error" | "errored" => return fixed(1),
            "fieldSelector" | "labelSelector" if args.len() == 1 => {
                return cost(selector_cost_estimate(self.size_estimate(&args[0])));
            }
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
                if let Some(t) = target {
                    let mut el_cost = CostEstimate::fixed(1);
                    if let Some(el) = self.list_element_node(t) {
                        let k = el.ty.kind();
                        if k == Kind::String || k == Kind::Bytes {
                            el_cost = el_cost.add(self.size_estimate(&el).multiply_by_cost_factor(f));
                        }
                        return cost(self.size_estimate(t).multiply_by_cost(el_cost));
                    } else if function == "includes" {
                        return cost(self.size_estimate(t).multiply_by_cost(el_cost));
                    } else {
                        return cost(self.size_estimate(t).multiply_by_cost_factor(f));
                    }
                }
            }
            "url" | "jsonpatch.escapeKey" if args.len() == 1 => {
                let sz = self.size_estimate(&args[0]);
                return Some(CallEstimate {
                    cost: sz.multiply_by_cost_factor(f),
                    result_size: Some(sz),
                });
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                if let Some(t) = target {
                    let sz = self.size_estimate(t);
                    return Some(CallEstimate {
                        cost: sz.multiply_by_cost_factor(f),
                        result_size: Some(sz),
                    });
                }
            }
            "replace" => {
                if let Some(t) = target
                    && args.len() >= 2
                {
                    return Some(replace_estimate(
                        self.size_estimate(t),
                        self.size_estimate(&args[0]),
                        self.size_estimate(&args[1]),
                    ));
                }
            }
            "split" => {
                if let Some(t) = target {
                    let sz = self.size_estimate(t);
                    let mut max = sz.max;
                    if args.len() > 1
                        && let Some(Literal::Int(i)) = args[1].literal()
                    {
                        max = *i as u64;
                    }
                    return Some(CallEstimate {
                        cost: sz.multiply_by_cost_factor(2.0 * f),
                        result_size: Some(SizeEstimate { min: 0, max }),
                    });
                }
            }
            "join" => {
                if let Some(t) = target {
                    let mut sz = SizeEstimate::fixed(0);
                    let list_size = self.size_estimate(t);
                    if let Some(el) = self.list_element_node(t) {
                        sz = list_size.multiply(self.size_estimate(&el));
                    }
                    if let Some(sep) = args.first() {
                        let sep_size = self.size_estimate(sep);
                        let separators = SizeEstimate {
                            min: list_size.min.saturating_sub(1),
                            max: list_size.max.saturating_sub(1),
                        };
                        sz = sz.add(sep_size.multiply(separators));
                    }
                    return Some(CallEstimate {
                        cost: sz.multiply_by_cost_factor(f),
                        result_size: Some(sz),
                    });
                }
            }
            "find" | "findAll" => {
                if let Some(t) = target
                    && !args.is_empty()
                {
                    let sz = self.size_estimate(t);
                    let str_cost = sz.add(SizeEstimate::fixed(1)).multiply_by_cost_factor(f);
                    let regex_cost = self
                        .size_estimate(&args[0])
                        .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return Some(CallEstimate {
                        cost: str_cost.multiply(regex_cost),
                        result_size: Some(SizeEstimate { min: 0, max: sz.max }),
                    });
                }
            }
            "cidr" | "isIP" | "isCIDR" if !args.is_empty() => {
                return cost(self.size_estimate(&args[0]).multiply_by_cost_factor(f));
            }
            "ip" => {
                if overload_id == "cidr_ip" {
                    return fixed(1);
                }
                if !args.is_empty() {
                    return cost(self.size_estimate(&args[0]).multiply_by_cost_factor(f));
                }
            }
            "ip.isCanonical" if !args.is_empty() => {
                return cost(self.size_estimate(&args[0]).multiply_by_cost_factor(2.0 * f));
            }
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast" => return fixed(1),
            "containsIP" if !args.is_empty() => {
                let sz = SizeEstimate { min: 4, max: 16 };
                let mut c = sz.add(sz).multiply_by_cost_factor(f);
                if overload_id == "cidr_contains_ip_string" {
                    c = c.add(as_cost(self.size_estimate(&args[0])).multiply_by_cost_factor(f));
                }
                return cost(c);
            }
            "containsCIDR" if !args.is_empty() => {
                let sz = SizeEstimate { min: 4, max: 16 };
                let mut c = sz.add(sz).multiply_by_cost_factor(f);
                c = c.add(sz.multiply_by_cost_factor(f));
                c = c.add(CostEstimate::fixed(1));
                if overload_id == "cidr_contains_cidr_string" {
                    c = c.add(as_cost(self.size_estimate(&args[0])).multiply_by_cost_factor(f));
                }
                return cost(c);
            }
            "quantity" | "isQuantity" | "semver" | "isSemver" if !args.is_empty() => {
                return cost(self.size_estimate(&args[0]).multiply_by_cost_factor(f));
            }
            "validate" if !args.is_empty() => {
                return cost(
                    self.size_estimate(&args[0])
                        .multiply_by_cost_factor(f)
                        .multiply_by_cost_factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR),
                );
            }
            "format.named" => return fixed(1),
            "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan" | "isLessThan"
            | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => return fixed(1),
            "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
                return fixed(1);
            }
            "_==_" if args.len() == 2 => {
                let (lhs, rhs) = (&args[0], &args[1]);
                if lhs.ty.type_name() == rhs.ty.type_name() {
                    let t = &lhs.ty;
                    if t.kind() == Kind::Opaque && matches!(t.type_name(), "net.IP" | "net.CIDR") {
                        return fixed(1);
                    }
                    if t.kind() == Kind::Struct {
                        match t.type_name() {
                            "kubernetes.Quantity"
                            | "kubernetes.authorization.Authorizer"
                            | "kubernetes.authorization.PathCheck"
                            | "kubernetes.authorization.GroupCheck"
                            | "kubernetes.authorization.ResourceCheck"
                            | "kubernetes.authorization.Decision"
                            | "kubernetes.Semver" => return fixed(1),
                            "kubernetes.NamedFormat" => {
                                return cost(
                                    CostEstimate {
                                        min: 1,
                                        max: MAX_FORMAT_SIZE,
                                    }
                                    .multiply_by_cost_factor(f),
                                );
                            }
                            "kubernetes.URL" => {
                                // Go compares the right-hand size with itself.
                                let mut size = SizeEstimate::fixed(1);
                                if let Some(r) = rhs.computed_size {
                                    size = r.union(r);
                                }
                                return cost(CostEstimate { min: 1, max: size.max }.multiply_by_cost_factor(f));
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
        None
    }
}

fn as_cost(s: SizeEstimate) -> CostEstimate {
    CostEstimate { min: s.min, max: s.max }
}

/// Kubernetes' `selectorCostEstimate`.
fn selector_cost_estimate(len: SizeEstimate) -> CostEstimate {
    let parse_cost = len.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
    let requirement_count = len.multiply_by_cost_factor(0.5);
    let requirement_cost =
        requirement_count.multiply_by_cost_factor((LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64);
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse_cost)
        .add(requirement_cost)
}

/// Kubernetes' estimate of `replace`.
fn replace_estimate(sz: SizeEstimate, to_replace: SizeEstimate, replace_with: SizeEstimate) -> CallEstimate {
    let mut replace_count = SizeEstimate::fixed(0);
    let mut retained = SizeEstimate::fixed(0);
    if to_replace.min == 0 {
        replace_count.max = if sz.max < u64::MAX { sz.max + 1 } else { sz.max };
        retained.max = sz.max;
    } else if replace_with.max <= to_replace.min {
        replace_count.max = 0;
        retained.max = sz.max;
    } else {
        replace_count.max = (sz.max as f64 / to_replace.min as f64).ceil() as u64;
    }
    if to_replace.max == 0 {
        replace_count.min = if sz.min < u64::MAX { sz.min + 1 } else { sz.min };
        retained.min = sz.min;
    } else if to_replace.max <= replace_with.min {
        replace_count.min = 0;
        retained.min = sz.min;
    } else {
        replace_count.min = (sz.min as f64 / to_replace.max as f64).ceil() as u64;
    }
    let size = replace_count.multiply(replace_with).add(retained);
    CallEstimate {
        cost: sz.multiply_by_cost_factor(2.0 * STRING_TRAVERSAL_COST_FACTOR),
        result_size: Some(size),
    }
}

/// Options of the estimate.
#[derive(Clone, Debug)]
pub struct CostOptions {
    /// `PresenceTestHasCost`: Kubernetes sets it to false (`has()` costs nothing).
    pub presence_test_has_cost: bool,
    /// The overload estimators of `ext.Lists` version 3 and later.
    pub ext_lists_estimators: bool,
    /// The overload estimators of `ext.Sets`.
    pub ext_sets_estimators: bool,
}

impl CostOptions {
    /// The options of the Kubernetes environment.
    pub fn kubernetes() -> CostOptions {
        CostOptions {
            presence_test_has_cost: false,
            ext_lists_estimators: true,
            ext_sets_estimators: true,
        }
    }
}

/// Estimates the cost of a checked expression (cel-go's `checker.Cost` with the
/// given estimator and options).
pub fn estimate(checked: &CheckedExpr, estimator: &Estimator, options: &CostOptions) -> CostEstimate {
    let mut c = Coster {
        checked,
        estimator,
        options,
        paths: HashMap::new(),
        locals: HashMap::new(),
        sizes: HashMap::new(),
        entry_sizes: HashMap::new(),
    };
    c.cost(&checked.expr)
}

#[derive(Clone, Copy, Debug)]
struct EntrySize {
    container: Kind,
    key: SizeEstimate,
    val: SizeEstimate,
}

fn union_entry(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        container: a.container,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

#[derive(Clone, Debug)]
struct LocalVar {
    path: Option<GoPath>,
    size: Option<SizeEstimate>,
    entry_size: Option<EntrySize>,
}

struct Coster<'a> {
    checked: &'a CheckedExpr,
    estimator: &'a Estimator,
    options: &'a CostOptions,
    paths: HashMap<ExprId, Option<GoPath>>,
    locals: HashMap<String, Vec<LocalVar>>,
    sizes: HashMap<ExprId, SizeEstimate>,
    entry_sizes: HashMap<ExprId, EntrySize>,
}

impl<'a> Coster<'a> {
    fn ty(&self, e: &Expr) -> Type {
        self.checked.types.get(&e.id).cloned().unwrap_or(Type::Error)
    }

    fn peek_local(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|s| s.last())
    }

    fn push_local(&mut self, name: &str, v: LocalVar) {
        self.locals.entry(name.to_string()).or_default().push(v);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(s) = self.locals.get_mut(name) {
            s.pop();
        }
    }

    fn get_path(&self, e: &Expr) -> Option<GoPath> {
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
        {
            return v.path.clone();
        }
        self.paths.get(&e.id).cloned().flatten()
    }

    fn add_path(&mut self, e: &Expr, path: Option<GoPath>) {
        self.paths.insert(e.id, path);
    }

    fn new_ast_node(&mut self, e: &'a Expr) -> AstNode<'a> {
        let mut path = self.get_path(e);
        if let Some(p) = &path
            && p.len > 0
        {
            let first = p.buf.borrow()[0].clone();
            if first == ACCUMULATOR_NAME || first == LEGACY_ACCUMULATOR_NAME {
                path = None;
            }
        }
        let computed_size = self.compute_size(e);
        AstNode {
            path: NodePath::Shared(path),
            ty: self.ty(e),
            expr: Some(e),
            computed_size,
        }
    }

    fn set_size(&mut self, e: &Expr, size: Option<SizeEstimate>) {
        if let Some(s) = size {
            self.sizes.insert(e.id, s);
        }
    }

    fn size_or_unknown(&mut self, e: &Expr) -> SizeEstimate {
        self.compute_size(e).unwrap_or(UNKNOWN_SIZE)
    }

    fn copy_size_estimates(&mut self, dst: &Expr, src: &Expr) {
        let s = self.compute_size(src);
        self.set_size(dst, s);
        let es = self.compute_entry_size(src);
        self.set_entry_size(dst, es);
    }

    fn compute_size(&mut self, e: &Expr) -> Option<SizeEstimate> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = compute_expr_size(e) {
            return Some(s);
        }
        let node = AstNode {
            path: NodePath::Shared(self.get_path(e)),
            ty: self.ty(e),
            expr: Some(e),
            computed_size: None,
        };
        if let Some(s) = self.estimator.estimate_size(&node) {
            self.sizes.insert(e.id, s);
            return Some(s);
        }
        if is_scalar(&self.ty(e)) {
            return Some(SizeEstimate::fixed(1));
        }
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
            && let Some(s) = v.size
        {
            return Some(s);
        }
        None
    }

    fn set_entry_size(&mut self, e: &Expr, size: Option<EntrySize>) {
        if let Some(s) = size {
            self.entry_sizes.insert(e.id, s);
        }
    }

    fn compute_entry_size(&self, e: &Expr) -> Option<EntrySize> {
        if let Some(s) = self.entry_sizes.get(&e.id) {
            return Some(*s);
        }
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
        {
            return v.entry_size;
        }
        None
    }

    fn range_container(&self, range: &Expr, entry: Option<EntrySize>) -> Kind {
        match entry {
            Some(e) => e.container,
            None => self.ty(range).kind(),
        }
    }

    fn push_iter_key(&mut self, var: &str, range: &Expr) {
        let entry = self.compute_entry_size(range);
        let size = entry.map(|e| e.key);
        let path = self.get_path(range);
        let sub = if self.range_container(range, entry) == Kind::List {
            "@indices"
        } else {
            "@keys"
        };
        let path = Some(GoPath::append(&path, sub));
        self.push_local(
            var,
            LocalVar {
                path,
                size,
                entry_size: None,
            },
        );
    }

    fn push_iter_value(&mut self, var: &str, range: &Expr) {
        let entry = self.compute_entry_size(range);
        let size = entry.map(|e| e.val);
        let path = self.get_path(range);
        let sub = if self.range_container(range, entry) == Kind::List {
            "@items"
        } else {
            "@values"
        };
        let path = Some(GoPath::append(&path, sub));
        self.push_local(
            var,
            LocalVar {
                path,
                size,
                entry_size: None,
            },
        );
    }

    fn push_iter_single(&mut self, var: &str, range: &Expr) {
        let entry = self.compute_entry_size(range);
        let (size, sub) = if self.range_container(range, entry) == Kind::List {
            (entry.map(|e| e.val), "@items")
        } else {
            (entry.map(|e| e.key), "@keys")
        };
        let path = self.get_path(range);
        let path = Some(GoPath::append(&path, sub));
        self.push_local(
            var,
            LocalVar {
                path,
                size,
                entry_size: None,
            },
        );
    }

    fn push_local_var(&mut self, var: &str, e: &Expr) {
        let path = self.get_path(e);
        let entry_size = self.compute_entry_size(e);
        let size = self.compute_size(e);
        self.push_local(var, LocalVar { path, size, entry_size });
    }

    fn cost(&mut self, e: &'a Expr) -> CostEstimate {
        match &e.kind {
            ExprKind::Literal(_) => CostEstimate::fixed(CONST_COST),
            ExprKind::Ident(name) => {
                let path = match self.peek_local(name) {
                    Some(v) => v.path.clone(),
                    None => Some(GoPath::single(name)),
                };
                self.add_path(e, path);
                CostEstimate::fixed(SELECT_AND_IDENT_COST)
            }
            ExprKind::Select(sel) => {
                if sel.test_only {
                    let presence = if self.options.presence_test_has_cost { 1 } else { 0 };
                    return CostEstimate::fixed(presence).add(self.cost(&sel.operand));
                }
                let mut sum = self.cost(&sel.operand);
                if matches!(self.ty(&sel.operand).kind(), Kind::Map | Kind::Struct | Kind::TypeParam) {
                    sum = sum.add(CostEstimate::fixed(SELECT_AND_IDENT_COST));
                }
                let p = self.get_path(&sel.operand);
                self.add_path(e, Some(GoPath::append(&p, &sel.field)));
                sum
            }
            ExprKind::Call(_) => self.cost_call(e),
            ExprKind::List(l) => {
                let mut sum = CostEstimate::default();
                let mut item_size = SizeEstimate { min: u64::MAX, max: 0 };
                if l.elements.is_empty() {
                    item_size.min = 0;
                }
                for el in &l.elements {
                    sum = sum.add(self.cost(el));
                    let is = self.size_or_unknown(el);
                    item_size = item_size.union(is);
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        container: Kind::List,
                        key: SizeEstimate::fixed(1),
                        val: item_size,
                    }),
                );
                sum.add(CostEstimate::fixed(LIST_CREATE_BASE_COST))
            }
            ExprKind::Map(m) => {
                let mut sum = CostEstimate::default();
                let mut key_size = SizeEstimate { min: u64::MAX, max: 0 };
                let mut val_size = SizeEstimate { min: u64::MAX, max: 0 };
                if m.entries.is_empty() {
                    key_size.min = 0;
                    val_size.min = 0;
                }
                for en in &m.entries {
                    sum = sum.add(self.cost(&en.key));
                    sum = sum.add(self.cost(&en.value));
                    let ks = self.size_or_unknown(&en.key);
                    key_size = key_size.union(ks);
                    let vs = self.size_or_unknown(&en.value);
                    val_size = val_size.union(vs);
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        container: Kind::Map,
                        key: key_size,
                        val: val_size,
                    }),
                );
                sum.add(CostEstimate::fixed(MAP_CREATE_BASE_COST))
            }
            ExprKind::Struct(s) => {
                let mut sum = CostEstimate::default();
                for f in &s.fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            ExprKind::Comprehension(_) => {
                if is_bind(e) {
                    self.cost_bind(e)
                } else {
                    self.cost_comprehension(e)
                }
            }
        }
    }

    fn cost_comprehension(&mut self, e: &'a Expr) -> CostEstimate {
        let ExprKind::Comprehension(comp) = &e.kind else {
            return CostEstimate::default();
        };
        let mut sum = self.cost(&comp.iter_range);
        sum = sum.add(self.cost(&comp.accu_init));
        self.push_local_var(&comp.accu_var, &comp.accu_init);
        if let Some(v2) = &comp.iter_var2 {
            self.push_iter_key(&comp.iter_var, &comp.iter_range);
            self.push_iter_value(v2, &comp.iter_range);
        } else {
            self.push_iter_single(&comp.iter_var, &comp.iter_range);
        }
        let loop_cost = self.cost(&comp.loop_condition);
        let step_cost = self.cost(&comp.loop_step);
        self.pop_local(&comp.iter_var);
        if let Some(v2) = &comp.iter_var2 {
            self.pop_local(v2);
        }
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);
        let range_cnt = self.size_or_unknown(&comp.iter_range);
        let range_cost = range_cnt.multiply_by_cost(step_cost.add(loop_cost));
        sum = sum.add(range_cost);
        match &comp.accu_init.kind {
            ExprKind::Literal(_) => {
                let s = self.compute_size(&comp.accu_init);
                self.set_size(e, s);
            }
            ExprKind::List(_) | ExprKind::Map(_) => {
                self.set_size(e, Some(range_cnt));
                if let Some(step_entry) = self.compute_entry_size(&comp.loop_step) {
                    self.set_entry_size(e, Some(step_entry));
                }
            }
            _ => {}
        }
        sum
    }

    fn cost_bind(&mut self, e: &'a Expr) -> CostEstimate {
        let ExprKind::Comprehension(comp) = &e.kind else {
            return CostEstimate::default();
        };
        let mut sum = self.cost(&comp.iter_range);
        sum = sum.add(self.cost(&comp.accu_init));
        self.push_local_var(&comp.accu_var, &comp.accu_init);
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);
        self.copy_size_estimates(e, &comp.result);
        sum
    }

    fn cost_call(&mut self, e: &'a Expr) -> CostEstimate {
        let ExprKind::Call(call) = &e.kind else {
            return CostEstimate::default();
        };
        if call.function == "dyn" && call.args.len() == 1 {
            let arg = &call.args[0];
            let arg_cost = self.cost(arg);
            self.copy_size_estimates(e, arg);
            return CostEstimate::fixed(1).add(arg_cost);
        }
        let mut arg_nodes = Vec::with_capacity(call.args.len());
        let mut arg_costs = Vec::with_capacity(call.args.len());
        for arg in &call.args {
            arg_costs.push(self.cost(arg));
            arg_nodes.push(self.new_ast_node(arg));
        }
        let overload_ids: Vec<String> = self.checked.overload_ids(e.id).to_vec();
        if overload_ids.is_empty() {
            return CostEstimate::default();
        }
        let mut sum = CostEstimate::default();
        let mut target = None;
        if let Some(t) = call.target.as_deref() {
            sum = sum.add(self.cost(t));
            target = Some(self.new_ast_node(t));
        }
        let mut fn_cost = CostEstimate { min: u64::MAX, max: 0 };
        let mut result_size: Option<SizeEstimate> = None;
        for overload in &overload_ids {
            let oc = self.function_cost(e, &call.function, overload, target.as_ref(), &arg_nodes, &arg_costs);
            fn_cost = fn_cost.union(oc.cost);
            if let Some(rs) = oc.result_size {
                result_size = Some(match result_size {
                    None => rs,
                    Some(r) => r.union(rs),
                });
            }
            match overload.as_str() {
                "index_list" | "index_map" if !call.args.is_empty() => {
                    result_size = self.compute_entry_size(&call.args[0]).map(|s| s.val);
                    let sub = if overload == "index_list" { "@items" } else { "@values" };
                    let p = self.get_path(&call.args[0]);
                    self.add_path(e, Some(GoPath::append(&p, sub)));
                }
                _ => {}
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        self.set_size(e, result_size);
        sum.add(fn_cost)
    }

    fn function_cost(
        &mut self,
        e: &Expr,
        function: &str,
        overload_id: &str,
        target: Option<&AstNode<'a>>,
        args: &[AstNode<'a>],
        arg_costs: &[CostEstimate],
    ) -> CallEstimate {
        let arg_sum = arg_costs.iter().fold(CostEstimate::default(), |s, c| s.add(*c));
        if let Some(est) = self.overload_estimate(overload_id, target, args) {
            return CallEstimate {
                cost: est.cost.add(arg_sum),
                result_size: est.result_size,
            };
        }
        if let Some(est) = self.estimator.estimate_call_cost(function, overload_id, target, args) {
            return CallEstimate {
                cost: est.cost.add(arg_sum),
                result_size: est.result_size,
            };
        }
        let size_of = |n: &AstNode<'_>| n.computed_size.unwrap_or(UNKNOWN_SIZE);
        let f = STRING_TRAVERSAL_COST_FACTOR;
        let plain = |c: CostEstimate| CallEstimate {
            cost: c,
            result_size: None,
        };
        match overload_id {
            "string_format" => {
                if let Some(t) = target {
                    return plain(size_of(t).multiply_by_cost_factor(f).add(arg_sum));
                }
            }
            "string_to_bytes" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return CallEstimate {
                    cost: sz.multiply_by_cost_factor(f).add(arg_sum),
                    result_size: Some(SizeEstimate {
                        min: sz.min,
                        max: sz.max.wrapping_mul(4),
                    }),
                };
            }
            "bytes_to_string" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return CallEstimate {
                    cost: sz.multiply_by_cost_factor(f).add(arg_sum),
                    result_size: Some(SizeEstimate {
                        min: sz.min / 4,
                        max: sz.max,
                    }),
                };
            }
            "strings_quote" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return CallEstimate {
                    cost: sz.multiply_by_cost_factor(f).add(arg_sum),
                    result_size: Some(SizeEstimate {
                        min: sz.min.wrapping_add(2),
                        max: sz.max.wrapping_mul(2).wrapping_add(2),
                    }),
                };
            }
            "starts_with_string" | "ends_with_string" if args.len() == 1 => {
                return plain(size_of(&args[0]).multiply_by_cost_factor(f).add(arg_sum));
            }
            "in_list" if args.len() == 2 => {
                return plain(size_of(&args[1]).multiply_by_cost_factor(1.0).add(arg_sum));
            }
            "matches_string" => {
                if let Some(t) = target
                    && args.len() == 1
                {
                    let str_cost = size_of(t).add(SizeEstimate::fixed(1)).multiply_by_cost_factor(f);
                    let regex_cost = size_of(&args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return plain(str_cost.multiply(regex_cost).add(arg_sum));
                }
            }
            "contains_string" => {
                if let Some(t) = target
                    && args.len() == 1
                {
                    let str_cost = size_of(t).multiply_by_cost_factor(f);
                    let sub_cost = size_of(&args[0]).multiply_by_cost_factor(f);
                    return plain(str_cost.multiply(sub_cost).add(arg_sum));
                }
            }
            "logical_or" | "logical_and" => {
                let (lhs, rhs) = (arg_costs[0], arg_costs[1]);
                return plain(CostEstimate {
                    min: lhs.min,
                    max: lhs.add(rhs).max,
                });
            }
            "conditional" => {
                let size = size_of(&args[1]).union(size_of(&args[2]));
                if let (Some(e1), Some(e2)) = (args[1].expr, args[2].expr) {
                    let entry = union_entry(self.compute_entry_size(e1), self.compute_entry_size(e2));
                    self.set_entry_size(e, entry);
                }
                let c = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                return CallEstimate {
                    cost: c,
                    result_size: Some(size),
                };
            }
            "add_string" | "add_bytes" | "add_list" if args.len() == 2 => {
                let result_size = size_of(&args[0]).add(size_of(&args[1]));
                if let (Some(e1), Some(e2)) = (args[0].expr, args[1].expr) {
                    let entry = union_entry(self.compute_entry_size(e1), self.compute_entry_size(e2));
                    self.set_entry_size(e, entry);
                }
                if overload_id == "add_list" {
                    return CallEstimate {
                        cost: CostEstimate::fixed(1).add(arg_sum),
                        result_size: Some(result_size),
                    };
                }
                return CallEstimate {
                    cost: result_size.multiply_by_cost_factor(f).add(arg_sum),
                    result_size: Some(result_size),
                };
            }
            "less_string"
            | "greater_string"
            | "less_equals_string"
            | "greater_equals_string"
            | "less_bytes"
            | "greater_bytes"
            | "less_equals_bytes"
            | "greater_equals_bytes"
            | "equals"
            | "not_equals" => {
                let (l, r) = (size_of(&args[0]), size_of(&args[1]));
                let smallest_max = l.max.min(r.max);
                let min = if smallest_max > 0 { 1 } else { 0 };
                return plain(
                    CostEstimate { min, max: smallest_max }
                        .multiply_by_cost_factor(f)
                        .add(arg_sum),
                );
            }
            _ => {}
        }
        plain(CostEstimate::fixed(1).add(arg_sum))
    }

    /// The `checker.OverloadCostEstimate`s of cel-go's extension libraries.
    fn overload_estimate(
        &self,
        overload_id: &str,
        target: Option<&AstNode<'_>>,
        args: &[AstNode<'_>],
    ) -> Option<CallEstimate> {
        let size = |n: &AstNode<'_>| self.estimator.size_estimate(n);
        if self.options.ext_sets_estimators {
            let factor = match overload_id {
                "list_sets_contains_list" | "list_sets_intersects_list" => Some(1.0),
                "list_sets_equivalent_list" => Some(2.0),
                _ => None,
            };
            if let Some(factor) = factor {
                if args.len() != 2 {
                    return None;
                }
                let c = size(&args[0])
                    .multiply(size(&args[1]))
                    .multiply_by_cost_factor(factor)
                    .add(CostEstimate::fixed(1));
                return Some(CallEstimate {
                    cost: c,
                    result_size: None,
                });
            }
        }
        if !self.options.ext_lists_estimators {
            return None;
        }
        let alloc = |factor: f64, list_size: SizeEstimate| {
            let c = list_size
                .multiply_by_cost_factor(factor)
                .add(CostEstimate::fixed(1))
                .add(CostEstimate::fixed(LIST_CREATE_BASE_COST));
            Some(CallEstimate {
                cost: c,
                result_size: Some(list_size),
            })
        };
        let uint_value = |n: &AstNode<'_>, default: u64| match n.literal() {
            Some(Literal::Int(i)) => {
                if *i < 0 {
                    0
                } else {
                    *i as u64
                }
            }
            _ => default,
        };
        let sort_cost = |node: &AstNode<'_>, elem: &Type| {
            let sz = size(node);
            let mut factor = 2.0;
            if matches!(elem, Type::String | Type::Bytes) {
                factor += STRING_TRAVERSAL_COST_FACTOR;
            }
            alloc(factor, sz.multiply(sz))
        };
        match overload_id {
            "list_slice" => {
                let t = target?;
                if args.len() != 2 {
                    return None;
                }
                let sz = size(t);
                let start = uint_value(&args[0], 0);
                let end = uint_value(&args[1], sz.max);
                alloc(1.0, SizeEstimate::fixed(end.wrapping_sub(start)))
            }
            "list_flatten" | "list_flatten_int" => {
                let t = target?;
                if args.len() > 1 {
                    return None;
                }
                let depth = match args.first() {
                    Some(a) => uint_value(a, u64::MAX),
                    None => 1,
                };
                alloc(depth as f64, size(t))
            }
            "lists_range" => {
                if target.is_some() || args.len() != 1 {
                    return None;
                }
                alloc(1.0, SizeEstimate::fixed(uint_value(&args[0], u64::MAX)))
            }
            "list_reverse" => {
                let t = target?;
                if !args.is_empty() {
                    return None;
                }
                alloc(1.0, size(t))
            }
            "list_distinct" => {
                let t = target?;
                if !args.is_empty() {
                    return None;
                }
                let sz = size(t);
                alloc(2.0, sz.multiply(sz))
            }
            _ => {
                for c in comparable_types() {
                    if overload_id == format!("list_{}_sort", c.type_name()) {
                        let t = target?;
                        if !args.is_empty() {
                            return None;
                        }
                        return sort_cost(t, &c);
                    }
                    if overload_id == format!("list_{}_sortByAssociatedKeys", c.type_name()) {
                        target?;
                        if args.len() != 1 {
                            return None;
                        }
                        return sort_cost(&args[0], &c);
                    }
                }
                None
            }
        }
    }
}

/// cel-go's `isBind`: a comprehension over an empty list that never loops, with a
/// variable other than cel-go's legacy accumulator (`cel.bind`, `optMap`,
/// `optFlatMap`, `sortBy`).
fn is_bind(e: &Expr) -> bool {
    let ExprKind::Comprehension(c) = &e.kind else {
        return false;
    };
    matches!(&c.iter_range.kind, ExprKind::List(l) if l.elements.is_empty())
        && matches!(c.loop_condition.kind, ExprKind::Literal(Literal::Bool(false)))
        && c.accu_var != LEGACY_ACCUMULATOR_NAME
}

/// cel-go's `computeExprSize`: sizes known from the expression itself.
fn compute_expr_size(e: &Expr) -> Option<SizeEstimate> {
    let n = match &e.kind {
        ExprKind::Literal(l) => match l {
            Literal::String(s) => s.chars().count() as u64,
            Literal::Bytes(b) => b.len() as u64,
            _ => 1,
        },
        ExprKind::List(l) => l.elements.len() as u64,
        ExprKind::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(n))
}

/// cel-go's `isScalar`.
fn is_scalar(t: &Type) -> bool {
    match t.kind() {
        Kind::Bool | Kind::Double | Kind::Duration | Kind::Int | Kind::Timestamp | Kind::Uint => true,
        Kind::Opaque => match t.as_optional() {
            Some(inner) => is_scalar(inner),
            None => false,
        },
        _ => false,
    }
}
