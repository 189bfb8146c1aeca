//! The interpreter of a [`Plan`](super::plan::Plan): cel-go's evaluation (`interpreter/interpretable.go`,
//! `attributes.go`) with Kubernetes' cost tracking (`runtimecost.go`).

use crd_runtime::cel::cost::{LIST_CREATE_COST, MAP_CREATE_COST, SELECT_AND_IDENT_COST, call_cost};
use crd_runtime::cel::functions::dispatch;
use crd_runtime::cel::ops::{append, format_key, index_value, not_strictly_false};
use crd_runtime::cel::{Error, List, Map, Val, equals};

use super::plan::{Attr, AttrRoot, Call, CallMode, Fold, Node, NodeKind, Qual, QualKind, go_type_name};

/// A value or the evaluation error it stands for (cel-go's error values).
pub type Value<'a> = Result<Val<'a>, Error>;

/// The evaluation stopped because its cost exceeded the limit.
pub struct Cancelled;

type Step<T> = Result<T, Cancelled>;

/// The variables of an evaluation.
pub struct Activation<'a> {
    /// Top-level variables (`self`, `oldSelf`, ...): a value or an error.
    pub vars: Vec<(String, Value<'a>)>,
}

/// The bindings of one running comprehension.
struct Frame<'p, 'a> {
    fold: &'p Fold,
    accu: Option<Value<'a>>,
    /// The accumulator started as an empty list or map (cel-go's mutable values).
    mutable: bool,
    iter: Option<Value<'a>>,
    iter2: Option<Value<'a>>,
    /// The result is being computed: the iteration variables are out of scope.
    computing_result: bool,
}

/// One evaluation in progress.
pub struct Interpreter<'p, 'a, 'v> {
    globals: &'v Activation<'a>,
    frames: Vec<Frame<'p, 'a>>,
    pub cost: u64,
    limit: u64,
}

impl<'p, 'a, 'v> Interpreter<'p, 'a, 'v> {
    pub fn new(globals: &'v Activation<'a>, limit: u64) -> Self {
        Interpreter {
            globals,
            frames: Vec::new(),
            cost: 0,
            limit,
        }
    }

    /// Adds a step's cost; cel-go checks the limit after every step.
    fn charge(&mut self, c: u64) -> Step<()> {
        self.cost = self.cost.wrapping_add(c);
        if self.cost > self.limit { Err(Cancelled) } else { Ok(()) }
    }

    /// Evaluates a node.
    pub fn eval(&mut self, n: &'p Node) -> Step<Value<'a>> {
        match &n.kind {
            NodeKind::Const(c) => Ok(Ok(c.clone())),
            NodeKind::Attr(a) => {
                let v = self.resolve(a)?;
                if !matches!(a.root, AttrRoot::Cond { .. }) {
                    self.charge(SELECT_AND_IDENT_COST)?;
                }
                Ok(v)
            }
            NodeKind::PresenceTest(a) => {
                let v = self.resolve(a)?;
                Ok(v.map(|v| match v {
                    Val::Optional(o) => Val::Bool(o.is_some()),
                    other => other,
                }))
            }
            NodeKind::And(a, b) => self.logical(a, b, false),
            NodeKind::Or(a, b) => self.logical(a, b, true),
            NodeKind::Equals { lhs, rhs, negate } => {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                let result = match (&l, &r) {
                    (Err(e), _) | (_, Err(e)) => Err(e.clone()),
                    (Ok(a), Ok(b)) => equals(a, b).map(|e| Val::Bool(e != *negate)),
                };
                let (function, overload) = if *negate {
                    ("_!=_", "not_equals")
                } else {
                    ("_==_", "equals")
                };
                // Errors have no size: like `null`, they cost as size 1.
                let args = [l.unwrap_or(Val::Null), r.unwrap_or(Val::Null)];
                self.charge(call_cost(function, overload, &args, &result))?;
                Ok(result)
            }
            NodeKind::OptionalOr { lhs, rhs, or_value } => {
                let l = self.eval(lhs)?;
                match l {
                    Err(e) => Ok(Err(e)),
                    Ok(Val::Optional(Some(v))) => Ok(Ok(if *or_value { *v } else { Val::Optional(Some(v)) })),
                    Ok(Val::Optional(None)) => self.eval(rhs),
                    Ok(_) => Ok(Err(Error::no_such_overload())),
                }
            }
            NodeKind::SetMembership { arg, values } => {
                let v = self.eval(arg)?;
                Ok(v.map(|v| Val::Bool(values.iter().any(|m| same_scalar(m, &v)))))
            }
            NodeKind::Call(c) => self.call(c),
            NodeKind::CreateList { elements, optional } => {
                let mut items = Vec::with_capacity(elements.len());
                let mut result = None;
                for (e, opt) in elements.iter().zip(optional) {
                    match self.eval(e)? {
                        Err(err) => {
                            result = Some(Err(err));
                            break;
                        }
                        Ok(v) if *opt => match v {
                            Val::Optional(Some(v)) => items.push(*v),
                            Val::Optional(None) => {}
                            other => {
                                result = Some(Err(Error::new(format!(
                                    "cannot initialize optional list element from non-optional value {}",
                                    crd_runtime::cel::format::go_value(&other)
                                ))));
                                break;
                            }
                        },
                        Ok(v) => items.push(v),
                    }
                }
                self.charge(LIST_CREATE_COST)?;
                Ok(result.unwrap_or_else(|| Ok(Val::List(List::new(items)))))
            }
            NodeKind::CreateMap { entries } => {
                let r = self.create_map(entries)?;
                self.charge(MAP_CREATE_COST)?;
                Ok(r)
            }
            NodeKind::Fold(f) => self.fold(f),
        }
    }

    /// `&&` / `||` (cel-go `evalAnd` / `evalOr`): `stop` is the value that ends it.
    fn logical(&mut self, a: &'p Node, b: &'p Node, stop: bool) -> Step<Value<'a>> {
        let mut err: Option<Error> = None;
        for term in [a, b] {
            match self.eval(term)? {
                Ok(Val::Bool(v)) if v == stop => return Ok(Ok(Val::Bool(stop))),
                Ok(Val::Bool(_)) => {}
                Ok(_) => {
                    err.get_or_insert_with(Error::no_such_overload);
                }
                Err(e) => {
                    err.get_or_insert(e);
                }
            }
        }
        Ok(match err {
            Some(e) => Err(e),
            None => Ok(Val::Bool(!stop)),
        })
    }

    fn create_map(&mut self, entries: &'p [(Node, Node, bool)]) -> Step<Value<'a>> {
        let mut pairs: Vec<(Val<'a>, Val<'a>)> = Vec::with_capacity(entries.len());
        for (k, v, opt) in entries {
            let k = match self.eval(k)? {
                Ok(k) => k,
                Err(e) => return Ok(Err(e)),
            };
            let v = match self.eval(v)? {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            };
            if *opt {
                match v {
                    Val::Optional(Some(v)) => pairs.push((k, *v)),
                    Val::Optional(None) => pairs.retain(|(pk, _)| !same_scalar(pk, &k)),
                    other => {
                        return Ok(Err(Error::new(format!(
                            "cannot initialize optional entry '{}' from non-optional value {}",
                            crd_runtime::cel::format::go_value(&k),
                            crd_runtime::cel::format::go_value(&other)
                        ))));
                    }
                }
            } else {
                pairs.push((k, v));
            }
        }
        Ok(Map::from_entries(pairs).map(Val::Map))
    }

    // -- calls -----------------------------------------------------------------

    fn call(&mut self, c: &'p Call) -> Step<Value<'a>> {
        if let Some(r) = self.mutable_accumulator_call(c)? {
            return Ok(r);
        }
        let mut args: Vec<Value<'a>> = Vec::with_capacity(c.args.len());
        for a in &c.args {
            let v = self.eval(a)?;
            let is_err = v.is_err();
            args.push(v);
            if is_err && c.mode == CallMode::VarArgs {
                // cel-go stops at the error; the missing arguments leave the call
                // unpriced.
                return Ok(args.pop().unwrap_or(Ok(Val::Null)));
            }
        }
        let result = match c.mode {
            CallMode::NonStrict => Ok(not_strictly_false(args.first().unwrap_or(&Ok(Val::Null)))),
            _ => match args.iter().find_map(|a| a.as_ref().err()) {
                Some(e) => Err(e.clone()),
                None => {
                    let vals: Vec<Val<'a>> = args.iter().filter_map(|a| a.as_ref().ok().cloned()).collect();
                    dispatch(&c.function, c.overload.as_deref(), &vals)
                }
            },
        };
        let vals: Vec<Val<'a>> = args.into_iter().map(|a| a.unwrap_or(Val::Null)).collect();
        self.charge(call_cost(
            &c.function,
            c.overload.as_deref().unwrap_or(""),
            &vals,
            &result,
        ))?;
        Ok(result)
    }

    /// `accu + list` and `cel.@mapInsert(accu, k, v)` on a mutable accumulator
    /// (cel-go's mutable list and map of comprehensions): in place.
    fn mutable_accumulator_call(&mut self, c: &'p Call) -> Step<Option<Value<'a>>> {
        let is_insert = c.function == "cel.@mapInsert" && matches!(c.args.len(), 2 | 3);
        if !(c.function == "_+_" && c.args.len() == 2 || is_insert) {
            return Ok(None);
        }
        let Some(NodeKind::Attr(Attr {
            root: AttrRoot::Var { name, global: false },
            quals,
        })) = c.args.first().map(|a| &a.kind)
        else {
            return Ok(None);
        };
        if !quals.is_empty() {
            return Ok(None);
        }
        let Some(fi) = self.frames.iter().rposition(|f| f.fold.accu_var == *name) else {
            return Ok(None);
        };
        let frame = &self.frames[fi];
        if !frame.mutable || frame.accu.is_none() || !matches!(frame.accu, Some(Ok(_))) {
            return Ok(None);
        }
        // The accumulator attribute: 1.
        self.charge(SELECT_AND_IDENT_COST)?;
        let mut rest: Vec<Value<'a>> = Vec::new();
        for a in &c.args[1..] {
            let v = self.eval(a)?;
            let is_err = v.is_err();
            rest.push(v);
            if is_err && c.mode == CallMode::VarArgs {
                return Ok(Some(rest.pop().unwrap_or(Ok(Val::Null))));
            }
        }
        let result: Value<'a> = match rest.iter().find_map(|a| a.as_ref().err()) {
            Some(e) => Err(e.clone()),
            None => {
                let Some(Ok(accu)) = self.frames[fi].accu.as_mut() else {
                    return Ok(None);
                };
                match (accu, rest.as_slice()) {
                    (Val::List(l), [Ok(Val::List(other))]) => append(l, other).map(|_| Val::List(l.clone())),
                    (Val::List(_), _) => Err(Error::no_such_overload()),
                    (Val::Map(m), [Ok(k), Ok(v)]) => insert_in_place(m, k, v).map(|_| Val::Map(m.clone())),
                    (Val::Map(m), [Ok(Val::Map(u))]) => insert_all(m, u).map(|_| Val::Map(m.clone())),
                    (other, _) => {
                        let mut all = vec![other.clone()];
                        all.extend(rest.iter().filter_map(|a| a.as_ref().ok().cloned()));
                        dispatch(&c.function, c.overload.as_deref(), &all)
                    }
                }
            }
        };
        let mut vals: Vec<Val<'a>> = vec![match &self.frames[fi].accu {
            Some(Ok(v)) => v.clone(),
            _ => Val::Null,
        }];
        vals.extend(rest.into_iter().map(|a| a.unwrap_or(Val::Null)));
        let cost = call_cost(&c.function, c.overload.as_deref().unwrap_or(""), &vals, &result);
        drop(vals);
        self.charge(cost)?;
        Ok(Some(result))
    }

    // -- attributes ------------------------------------------------------------

    /// Resolves an attribute (cel-go `Attribute.Resolve`), charging its
    /// qualifiers.
    fn resolve(&mut self, a: &'p Attr) -> Step<Value<'a>> {
        let root = match &a.root {
            AttrRoot::Var { name, global } => self.lookup(name, *global)?,
            AttrRoot::Expr(n) => self.eval(n)?,
            AttrRoot::Cond { cond, truthy, falsy } => {
                return match self.eval(cond)? {
                    Ok(Val::Bool(true)) => self.resolve(truthy),
                    Ok(Val::Bool(false)) => self.resolve(falsy),
                    Ok(_) => Ok(Err(Error::no_such_overload())),
                    Err(e) => Ok(Err(e)),
                };
            }
        };
        let obj = match root {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        self.apply_qualifiers(obj, &a.quals)
    }

    /// cel-go `applyQualifiers`.
    fn apply_qualifiers(&mut self, obj: Val<'a>, quals: &'p [Qual]) -> Step<Value<'a>> {
        let (mut obj, mut is_opt) = match obj {
            Val::Optional(None) => return Ok(Ok(Val::Optional(None))),
            Val::Optional(Some(v)) => (*v, true),
            v => (v, false),
        };
        for q in quals {
            is_opt = is_opt || q.optional;
            let key = self.qualifier_key(q)?;
            let test_only = matches!(q.kind, QualKind::Const { test_only: true, .. });
            if is_opt {
                // cel-go's `QualifyIfPresent`: observed only when present.
                match key.and_then(|k| qualify(&obj, &k)) {
                    Err(e) => return Ok(Err(e)),
                    Ok(None) => return Ok(Ok(Val::Optional(None))),
                    Ok(Some(v)) => {
                        self.charge(SELECT_AND_IDENT_COST)?;
                        obj = if test_only { Val::Bool(true) } else { v };
                    }
                }
                continue;
            }
            // cel-go's `Qualify`: observed whatever the outcome.
            self.charge(SELECT_AND_IDENT_COST)?;
            let key = match key {
                Ok(k) => k,
                Err(e) => return Ok(Err(e)),
            };
            match qualify(&obj, &key) {
                Err(e) => return Ok(Err(e)),
                Ok(Some(_)) if test_only => obj = Val::Bool(true),
                Ok(None) if test_only => obj = Val::Bool(false),
                Ok(Some(v)) => obj = v,
                Ok(None) => return Ok(Err(missing(&obj, &key))),
            }
        }
        Ok(Ok(if is_opt { Val::optional_of(obj) } else { obj }))
    }

    /// The key a qualifier applies.
    fn qualifier_key(&mut self, q: &'p Qual) -> Step<Value<'a>> {
        let v = match &q.kind {
            QualKind::Const { value, .. } => return Ok(Ok(value.clone())),
            QualKind::Attr(a) => self.resolve(a)?,
            QualKind::Expr(n) => self.eval(n)?,
        };
        Ok(v.and_then(|k| match k {
            Val::String(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_) | Val::Double(_) => Ok(k),
            other => Err(Error::new(format!("invalid qualifier type: {}", go_type_name(&other)))),
        }))
    }

    // -- variables -------------------------------------------------------------

    /// The value of a variable: the innermost comprehension binding, else a
    /// top-level variable.
    fn lookup(&mut self, name: &str, global: bool) -> Step<Value<'a>> {
        if !global {
            for i in (0..self.frames.len()).rev() {
                let f = &self.frames[i];
                if f.fold.accu_var == name {
                    if f.accu.is_none() {
                        self.init_accumulator(i)?;
                    }
                    return Ok(self.frames[i].accu.clone().unwrap_or(Ok(Val::Null)));
                }
                if !f.computing_result {
                    if f.fold.iter_var == name {
                        return Ok(f.iter.clone().unwrap_or(Ok(Val::Null)));
                    }
                    if f.fold.iter_var2.as_deref() == Some(name) {
                        return Ok(f.iter2.clone().unwrap_or(Ok(Val::Null)));
                    }
                }
            }
        }
        Ok(self
            .globals
            .vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| Err(Error::new(format!("no such attribute(s): {name}")))))
    }

    /// Evaluates a comprehension's initial accumulator in the scope around it.
    fn init_accumulator(&mut self, i: usize) -> Step<()> {
        let inner = self.frames.split_off(i);
        let init = &inner[0].fold.accu_init;
        let r = self.eval(init);
        self.frames.extend(inner);
        let v = r?;
        let mutable = match &v {
            Ok(Val::List(l)) => l.is_empty(),
            Ok(Val::Map(m)) => m.is_empty(),
            _ => false,
        };
        let v = match v {
            // A fresh value the comprehension owns, so it can grow in place.
            Ok(Val::List(_)) if mutable => Ok(Val::List(List::new(Vec::new()))),
            Ok(Val::Map(_)) if mutable => Ok(Val::Map(Map::empty())),
            v => v,
        };
        let f = &mut self.frames[i];
        f.accu = Some(v);
        f.mutable = mutable;
        Ok(())
    }

    // -- comprehensions --------------------------------------------------------

    fn fold(&mut self, f: &'p Fold) -> Step<Value<'a>> {
        let range = match self.eval(&f.iter_range)? {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let two = f.iter_var2.is_some();
        let entries = match range {
            Val::List(l) => Entries::List(l, two),
            Val::Map(m) => {
                let keys = m.keys();
                Entries::Map(m, keys, two)
            }
            other if two => {
                return Ok(Err(Error::new(format!(
                    "unsupported comprehension range type: {}",
                    go_type_name(&other)
                ))));
            }
            other => {
                return Ok(Err(Error::new(format!(
                    "got '{}', expected iterable type",
                    go_type_name(&other)
                ))));
            }
        };
        self.frames.push(Frame {
            fold: f,
            accu: None,
            mutable: false,
            iter: None,
            iter2: None,
            computing_result: false,
        });
        let r = self.fold_loop(f, &entries).and_then(|()| {
            if let Some(frame) = self.frames.last_mut() {
                frame.computing_result = true;
            }
            self.eval(&f.result)
        });
        self.frames.pop();
        r
    }

    fn fold_loop(&mut self, f: &'p Fold, entries: &Entries<'a>) -> Step<()> {
        for i in 0..entries.len() {
            let (v1, v2) = entries.get(i);
            if let Some(frame) = self.frames.last_mut() {
                frame.iter = Some(v1);
                frame.iter2 = v2;
            }
            let cond = self.eval(&f.loop_condition)?;
            if let Ok(Val::Bool(false)) = cond {
                break;
            }
            let step = self.eval(&f.loop_step)?;
            if let Some(frame) = self.frames.last_mut() {
                frame.accu = Some(step);
            }
        }
        Ok(())
    }
}

/// What a comprehension iterates over (with two variables or one).
enum Entries<'a> {
    List(List<'a>, bool),
    Map(Map<'a>, Vec<Val<'a>>, bool),
}

impl<'a> Entries<'a> {
    fn len(&self) -> usize {
        match self {
            Entries::List(l, _) => l.len(),
            Entries::Map(_, keys, _) => keys.len(),
        }
    }

    /// The iteration variables of entry `i`: a list's element (or index and
    /// element), a map's key (or key and value).
    fn get(&self, i: usize) -> (Value<'a>, Option<Value<'a>>) {
        match self {
            Entries::List(l, two) => {
                let elem = l.get(i);
                if *two {
                    (Ok(Val::Int(i as i64)), Some(elem))
                } else {
                    (elem, None)
                }
            }
            Entries::Map(m, keys, two) => {
                let k = keys[i].clone();
                if *two {
                    let v = m.find(&k).unwrap_or_else(|| Err(Error::no_such_key(&format_key(&k))));
                    (Ok(k), Some(v))
                } else {
                    (Ok(k), None)
                }
            }
        }
    }
}

/// Inserts into a comprehension's map accumulator (cel-go `mutableMap.Insert`).
fn insert_in_place<'a>(m: &mut Map<'a>, k: &Val<'a>, v: &Val<'a>) -> Result<(), Error> {
    m.insert(k, v.clone())
}

/// Inserts every entry of `u` (cel-go `@mapInsert_map_map` on a mutable map).
fn insert_all<'a>(m: &mut Map<'a>, u: &Map<'a>) -> Result<(), Error> {
    for k in u.keys() {
        if let Some(v) = u.find(&k) {
            m.insert(&k, v?)?;
        }
    }
    Ok(())
}

/// Qualifies a value by a key (cel-go `refQualify`): `Ok(None)` when the member
/// is absent (`presence_test`) or missing.
fn qualify<'a>(obj: &Val<'a>, key: &Val<'a>) -> Result<Option<Val<'a>>, Error> {
    match obj {
        Val::Map(m) => match m.find(key) {
            Some(v) => v.map(Some),
            None => Ok(None),
        },
        Val::List(l) => {
            let i = index_value(key)?;
            if i >= 0 && (i as usize) < l.len() {
                if l.is_data() && !matches!(key, Val::Int(_)) {
                    return Err(Error::new(format!("unsupported index: {}", format_key(key))));
                }
                l.get(i as usize).map(Some)
            } else {
                Ok(None)
            }
        }
        _ => Ok(None),
    }
}

/// The error for a missing member (cel-go `missingKey` / `missingIndex`).
fn missing(obj: &Val<'_>, key: &Val<'_>) -> Error {
    match obj {
        Val::List(_) => Error::index_out_of_bounds(&format_key(key)),
        _ => Error::no_such_key(&format_key(key)),
    }
}

/// Whether a value is one of a constant set (Go map keys: same type and value).
fn same_scalar(a: &Val<'_>, b: &Val<'_>) -> bool {
    match (a, b) {
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Uint(x), Val::Uint(y)) => x == y,
        (Val::Double(x), Val::Double(y)) => x == y,
        (Val::String(x), Val::String(y)) => **x == **y,
        _ => false,
    }
}
