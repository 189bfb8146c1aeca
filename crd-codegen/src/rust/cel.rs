//! CEL rules compiled to Rust: a rule's plan (`crate::cel::eval::plan`, the steps
//! the API server's evaluator takes, with what each costs) becomes an expression
//! over the generated structs.
//!
//! Every plan node becomes a Rust expression of type `rt::cel::Result<R>` (the value,
//! or the evaluation error CEL treats as a value), where `R` is the node's
//! representation ([`Repr`]), chosen from its checked type: `bool`, `i64`, `u64`,
//! `f64`, `rt::cel::Str` for the scalars, `&T` for a schema object whose generated
//! struct is `T`, and `rt::cel::Val` for everything else. Fields of structs are read
//! directly, the common operators on scalars are small `#[inline]` runtime functions
//! on the native values (`rt::compiled::scalars`, `strings`, `logical_rest`: one copy
//! per type in the user's crate rather than a `match` per use), and whatever else goes
//! through the same runtime functions the interpreter uses (`rt::compiled`,
//! `rt::cel`), so compiled rules and the interpreter agree on values, errors and
//! costs (the differential tests hold them to it).
//!
//! Costs are added to a local `cost` as the plan describes them; comprehension loops
//! check it against the limit on every iteration (they `return` the cost-limit
//! error), and the rule checks the total at the end (see `rt::compiled`).

use super::plan::TypeId;
use crate::cel::eval::plan::{Attr, AttrRoot, Call, CallMode, Fold, Node, NodeKind, Plan, QualKind};
use crate::cel::types::Type;
use crd_runtime::cel::Val;
use crd_runtime::cel::escaping::escape;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;

/// How a CEL value is held in compiled code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    Bool,
    Int,
    Uint,
    Double,
    /// `rt::cel::Str`.
    Str,
    /// `&T`, `T` a generated struct.
    Struct(TypeId),
    /// `rt::compiled::Items`: a JSON array of objects viewed as `T` (only attributes
    /// of list type are held so; a list's checked type always maps to `Val`).
    Items(TypeId),
    /// `rt::cel::Val`.
    Val,
}

impl Repr {
    fn is_scalar(self) -> bool {
        matches!(self, Repr::Bool | Repr::Int | Repr::Uint | Repr::Double | Repr::Str)
    }
}

/// The view of an object node a rule reads: a struct in the module's `rules` module
/// holding the JSON value of each property the node's schema declares, found in one
/// pass over the object's keys. A rule reads a property with the reader of its kind
/// ([`PropKind::reader`]: integers as `i64`, numbers as `f64`, strings and enums as
/// `&str`, objects viewed, lists of objects in place, the rest through the runtime's
/// JSON values); data without the schema's type reads as Kubernetes' `invalid data`
/// error, as the API server's `UnstructuredToVal` gives it.
pub struct View {
    pub name: Ident,
    /// The `static` with the node's schema.
    pub schema: Ident,
    pub fields: Vec<ViewField>,
}

/// One property of a [`View`].
pub struct ViewField {
    pub json: String,
    pub ident: Ident,
    pub kind: PropKind,
    /// The `static` with the property's schema.
    pub schema: TokenStream,
}

/// How a property is held and read.
#[derive(Clone, Debug, PartialEq)]
pub enum PropKind {
    Int,
    Double,
    Bool,
    Str,
    /// A string CEL reads as another type (`duration`, `date`, `date-time`, `byte`).
    Formatted(String),
    /// An object with a view.
    Object(TypeId),
    /// An array of objects with a view.
    Items(TypeId),
    /// Anything else, read through the runtime's JSON values.
    Json,
}

impl PropKind {
    /// The runtime function reading the property's JSON value (`rt::compiled::Reader`).
    pub fn reader(&self) -> TokenStream {
        match self {
            PropKind::Int => quote!(rt::compiled::int),
            PropKind::Double => quote!(rt::compiled::double),
            PropKind::Bool => quote!(rt::compiled::boolean),
            PropKind::Str | PropKind::Formatted(_) => quote!(rt::compiled::string),
            PropKind::Object(_) => quote!(rt::compiled::object),
            PropKind::Items(_) => quote!(rt::compiled::items),
            PropKind::Json => quote!(rt::compiled::raw),
        }
    }
}

/// The views a rule can see.
pub struct Types<'m> {
    pub views: &'m HashMap<TypeId, View>,
    /// CEL object type name (`selfType0.spec`) → the viewed type.
    pub structs: HashMap<String, TypeId>,
    /// The rule sees a derived type, as `dyn`: a call left to dynamic dispatch is
    /// priced by the overload its run-time arguments select (`call_cost_resolved`).
    pub sees_derived: bool,
}

impl Types<'_> {
    /// The representation of values of a checked type.
    pub fn repr(&self, t: &Type) -> Repr {
        match t {
            Type::Bool => Repr::Bool,
            Type::Int => Repr::Int,
            Type::Uint => Repr::Uint,
            Type::Double => Repr::Double,
            Type::String => Repr::Str,
            Type::Struct(name) => self.structs.get(name).map_or(Repr::Val, |id| Repr::Struct(*id)),
            _ => Repr::Val,
        }
    }
}

/// A variable in scope.
struct Var {
    name: String,
    ident: Ident,
    repr: Repr,
    /// The variable holds `Result<R>` (iteration variables, accumulators) rather
    /// than `R`.
    is_result: bool,
    /// The variable is a reference (`&Result<R>`).
    by_ref: bool,
}

impl Var {
    /// An expression borrowing the variable.
    fn reference(&self) -> TokenStream {
        let ident = &self.ident;
        if self.by_ref { quote!(#ident) } else { quote!(&#ident) }
    }
}

/// Compiles the nodes of one plan.
pub struct Compiler<'c> {
    types: &'c Types<'c>,
    plan: &'c Plan,
    vars: Vec<Var>,
    counter: usize,
}

/// A compiled value: an expression of type `rt::cel::Result<R>`.
struct Code {
    tokens: TokenStream,
    repr: Repr,
}

impl<'c> Compiler<'c> {
    pub fn new(types: &'c Types<'c>, plan: &'c Plan) -> Self {
        Compiler {
            types,
            plan,
            vars: Vec::new(),
            counter: 0,
        }
    }

    /// Binds a top-level variable (`self`) held as `R`.
    pub fn bind(&mut self, name: &str, ident: Ident, repr: Repr) {
        self.vars.push(Var {
            name: name.to_string(),
            ident,
            repr,
            is_result: false,
            by_ref: false,
        });
    }

    /// Binds a top-level variable held as `rt::cel::Result<R>` (`oldSelf`, which is
    /// an error where it is not bound), or as `&rt::cel::Result<R>` with `by_ref`.
    pub fn bind_result(&mut self, name: &str, ident: Ident, repr: Repr, by_ref: bool) {
        self.vars.push(Var {
            name: name.to_string(),
            ident,
            repr,
            is_result: true,
            by_ref,
        });
    }

    /// The whole expression as `rt::cel::Result<R>` in representation `repr`.
    pub fn expression(&mut self, repr: Repr) -> TokenStream {
        let root = &self.plan.root;
        let code = self.node(root);
        self.convert(code, repr)
    }

    fn fresh(&mut self, prefix: &str) -> Ident {
        self.counter += 1;
        format_ident!("{}{}", prefix, self.counter)
    }

    fn repr_of(&self, n: &Node) -> Repr {
        self.plan.types.get(&n.id).map_or(Repr::Val, |t| self.types.repr(t))
    }

    fn node(&mut self, n: &Node) -> Code {
        let repr = self.repr_of(n);
        match &n.kind {
            NodeKind::Const(v) => self.constant(v, repr),
            NodeKind::Attr(a) => {
                let code = self.resolve(a, false);
                // A list of viewed objects stays one: its consumers (size, index,
                // comprehensions) read it in place, the others convert it.
                let code = match code.repr {
                    Repr::Items(_) => code,
                    _ => self.convert_code(code, repr),
                };
                if matches!(a.root, AttrRoot::Cond { .. }) {
                    return code;
                }
                let t = code.tokens;
                Code {
                    tokens: quote!({
                        let v = #t;
                        cost += 1;
                        v
                    }),
                    repr: code.repr,
                }
            }
            NodeKind::PresenceTest(a) => {
                let code = self.resolve(a, true);
                self.convert_code(code, Repr::Bool)
            }
            NodeKind::And(a, b) => self.logical(a, b, false),
            NodeKind::Or(a, b) => self.logical(a, b, true),
            NodeKind::Equals { lhs, rhs, negate } => self.equals(lhs, rhs, *negate),
            NodeKind::OptionalOr { lhs, rhs, or_value } => {
                let l = self.node_as(lhs, Repr::Val);
                let r = self.node_as(rhs, Repr::Val);
                let tokens = quote! {
                    match rt::compiled::optional_or(#l, #or_value) {
                        Some(v) => v,
                        None => #r,
                    }
                };
                self.convert_code(
                    Code {
                        tokens,
                        repr: Repr::Val,
                    },
                    repr,
                )
            }
            NodeKind::SetMembership { arg, values } => self.set_membership(arg, values),
            NodeKind::Call(c) => {
                let code = self.call(c, n);
                self.convert_code(code, repr)
            }
            NodeKind::CreateList { elements, optional } => {
                let items = self.fresh("items");
                let label = syn::Lifetime::new(&format!("'{items}"), Span::call_site());
                let pushes: Vec<TokenStream> = elements
                    .iter()
                    .zip(optional)
                    .map(|(e, opt)| {
                        let v = self.node_as(e, Repr::Val);
                        quote! {
                            if let Err(e) = rt::compiled::push_item(&mut #items, #v, #opt) {
                                break #label Err(e);
                            }
                        }
                    })
                    .collect();
                let n = elements.len();
                let tokens = quote!({
                    let mut #items = Vec::with_capacity(#n);
                    let v = #label: {
                        #( #pushes )*
                        Ok(rt::cel::Val::list(#items))
                    };
                    cost += 10;
                    v
                });
                self.convert_code(
                    Code {
                        tokens,
                        repr: Repr::Val,
                    },
                    repr,
                )
            }
            NodeKind::CreateMap { entries } => {
                let pairs = self.fresh("entries");
                let label = syn::Lifetime::new(&format!("'{pairs}"), Span::call_site());
                let pushes: Vec<TokenStream> = entries
                    .iter()
                    .map(|(k, v, opt)| {
                        let k = self.node_as(k, Repr::Val);
                        let v = self.node_as(v, Repr::Val);
                        quote! {
                            if let Err(e) = rt::compiled::push_entry(&mut #pairs, #k, || #v, #opt) {
                                break #label Err(e);
                            }
                        }
                    })
                    .collect();
                let tokens = quote!({
                    let mut #pairs = Vec::new();
                    let v = #label: {
                        #( #pushes )*
                        rt::compiled::map_literal(#pairs)
                    };
                    cost += 30;
                    v
                });
                self.convert_code(
                    Code {
                        tokens,
                        repr: Repr::Val,
                    },
                    repr,
                )
            }
            NodeKind::Fold(f) => {
                let code = self.fold(f);
                self.convert_code(code, repr)
            }
        }
    }

    /// A node converted to `repr`.
    fn node_as(&mut self, n: &Node, repr: Repr) -> TokenStream {
        if let NodeKind::Const(v) = &n.kind {
            // A constant is written in the wanted representation directly.
            return self.constant(v, repr).tokens;
        }
        let code = self.node(n);
        self.convert(code, repr)
    }

    // -- representations ---------------------------------------------------------

    fn convert_code(&self, code: Code, repr: Repr) -> Code {
        Code {
            tokens: self.convert(code, repr),
            repr,
        }
    }

    /// `code` (a `Result<R>`) as `Result<repr>`.
    fn convert(&self, code: Code, repr: Repr) -> TokenStream {
        let t = code.tokens;
        if code.repr == repr {
            return t;
        }
        let as_val = to_val_result(t, code.repr, self.types.views);
        if repr == Repr::Val {
            return as_val;
        }
        // Through a value: the checked types agree, so only dynamic values (and
        // values of the wrong run-time type behind `dyn`) can fail here.
        match repr {
            Repr::Bool => quote!(rt::compiled::to_bool(#as_val)),
            Repr::Int => quote!(rt::compiled::to_int(#as_val)),
            Repr::Uint => quote!(rt::compiled::to_uint(#as_val)),
            Repr::Double => quote!(rt::compiled::to_double(#as_val)),
            Repr::Str => quote!(rt::compiled::to_str(#as_val)),
            Repr::Struct(id) => {
                let view = &self.types.views[&id].name;
                quote!(rt::compiled::json_object(#as_val).map(#view::parse))
            }
            // Only attributes are held as `Items`, never asked for.
            Repr::Items(_) | Repr::Val => quote!(compile_error!("crd-codegen: no conversion to this representation")),
        }
    }

    // -- constants ---------------------------------------------------------------

    fn constant(&self, v: &Val<'static>, repr: Repr) -> Code {
        let native = match (v, repr) {
            (Val::Bool(b), Repr::Bool) => Some(quote!(#b)),
            (Val::Int(i), Repr::Int) => Some(quote!(#i)),
            (Val::Uint(u), Repr::Uint) => Some(quote!(#u)),
            (Val::Double(d), Repr::Double) => Some(f64_tokens(*d)),
            (Val::String(s), Repr::Str) => {
                let s: &str = s;
                Some(quote!(rt::cel::Str::Borrowed(#s)))
            }
            _ => None,
        };
        match native {
            Some(t) => Code {
                tokens: quote!(rt::cel::Result::Ok(#t)),
                repr,
            },
            None => {
                let v = const_val(v);
                self.convert_code(
                    Code {
                        tokens: quote!(rt::cel::Result::Ok(#v)),
                        repr: Repr::Val,
                    },
                    repr,
                )
            }
        }
    }

    // -- attributes --------------------------------------------------------------

    /// Resolves an attribute (without the attribute's own cost of 1). With `test`,
    /// the last qualifier is a presence test and the value is a `bool`.
    fn resolve(&mut self, a: &Attr, test: bool) -> Code {
        let (mut code, rest) = match &a.root {
            AttrRoot::Var { name, global } => (self.var(name, *global), &a.quals[..]),
            AttrRoot::Expr(n) => (self.node(n), &a.quals[..]),
            AttrRoot::Cond { cond, truthy, falsy } => {
                let c = self.node_as(cond, Repr::Bool);
                let t = self.resolve(truthy, test);
                let f = self.resolve(falsy, test);
                // Both branches in one representation.
                let repr = if t.repr == f.repr { t.repr } else { Repr::Val };
                let t = self.convert(t, repr);
                let f = self.convert(f, repr);
                let code = Code {
                    tokens: quote!({
                        let c = #c;
                        match c {
                            Ok(true) => #t,
                            Ok(false) => #f,
                            Err(e) => Err(e),
                        }
                    }),
                    repr,
                };
                (code, &a.quals[..])
            }
        };
        // A struct held in a variable is read through a reference, not copied.
        let mut borrowed = match &a.root {
            AttrRoot::Var { name, global } => self
                .find_var(name, *global)
                .filter(|v| v.is_result && matches!(v.repr, Repr::Struct(_) | Repr::Items(_)))
                .map(Var::reference),
            _ => None,
        };
        let mut quals = rest.iter().peekable();
        // Fields of generated structs and constant indexes of their lists, read
        // directly.
        while let Some(q) = quals.peek() {
            if let (Repr::Items(id), false) = (code.repr, q.optional)
                && let QualKind::Const {
                    value: Val::Int(i),
                    test_only: false,
                } = &q.kind
            {
                let v = self.fresh("v");
                let view = &self.types.views[&id].name;
                // cel-go charges an index qualifier whatever the outcome.
                code = Code {
                    tokens: qualified(borrowed.take(), code.tokens, &v, quote!(#v.index(#i).map(#view::parse))),
                    repr: Repr::Struct(id),
                };
                quals.next();
                continue;
            }
            let Repr::Struct(id) = code.repr else { break };
            let QualKind::Const {
                value: Val::String(name),
                test_only,
            } = &q.kind
            else {
                break;
            };
            if q.optional {
                break;
            }
            let Some(step) = self.struct_field(id, name, *test_only) else {
                break;
            };
            let v = self.fresh("v");
            let member = if *test_only {
                step.present(&v, name)
            } else {
                step.read(&v, name)
            };
            code = Code {
                tokens: qualified(borrowed.take(), code.tokens, &v, member),
                repr: if *test_only { Repr::Bool } else { step.repr },
            };
            quals.next();
        }
        let rest: Vec<_> = quals.collect();
        if rest.is_empty() {
            return code;
        }
        // The rest through the interpreter's steps.
        let root = self.convert(code, Repr::Val);
        let r = self.fresh("r");
        let steps: Vec<TokenStream> = rest
            .iter()
            .map(|q| {
                let (key, test_only) = match &q.kind {
                    QualKind::Const { value, test_only } => {
                        let v = const_val(value);
                        (quote!(Ok(#v)), *test_only)
                    }
                    QualKind::Attr(a) => {
                        let c = self.resolve(a, false);
                        (self.convert(c, Repr::Val), false)
                    }
                    QualKind::Expr(n) => (self.node_as(n, Repr::Val), false),
                };
                let optional = q.optional;
                quote! {
                    if !#r.is_done() {
                        let key = #key;
                        #r.qualify(key, #optional, #test_only, &mut cost);
                    }
                }
            })
            .collect();
        let finish = if test {
            quote!(#r.finish_test())
        } else {
            quote!(#r.finish())
        };
        Code {
            tokens: quote!({
                let mut #r = rt::compiled::Resolver::new(#root);
                #( #steps )*
                #finish
            }),
            repr: Repr::Val,
        }
    }

    /// The variable `name` refers to (`global`: a top-level one, as `.self`).
    fn find_var(&self, name: &str, global: bool) -> Option<&Var> {
        if global {
            self.vars.iter().find(|v| v.name == name && !v.is_result)
        } else {
            self.vars.iter().rev().find(|v| v.name == name)
        }
    }

    /// A reference to the variable a node reads when it is nothing but a variable
    /// held as `Result<Val>`.
    fn bare_result_var(&self, n: &Node) -> Option<TokenStream> {
        let NodeKind::Attr(a) = &n.kind else { return None };
        let AttrRoot::Var { name, global } = &a.root else {
            return None;
        };
        let v = self.find_var(name, *global)?;
        (a.quals.is_empty() && v.is_result && v.repr == Repr::Val && self.repr_of(n) == Repr::Val)
            .then(|| v.reference())
    }

    /// A variable's value as `Result<R>`.
    fn var(&self, name: &str, global: bool) -> Code {
        match self.find_var(name, global) {
            Some(v) => {
                let ident = &v.ident;
                let tokens = if v.is_result {
                    quote!(#ident.clone())
                } else if matches!(v.repr, Repr::Str | Repr::Val) {
                    quote!(rt::cel::Result::Ok(#ident.clone()))
                } else {
                    quote!(rt::cel::Result::Ok(#ident))
                };
                Code { tokens, repr: v.repr }
            }
            None => {
                let msg = format!("no such attribute(s): {name}");
                Code {
                    tokens: quote!(Err(rt::cel::Error::new(#msg))),
                    repr: Repr::Val,
                }
            }
        }
    }

    /// Reading field `name` (a CEL name) of the view `id`.
    fn struct_field(&self, id: TypeId, name: &str, test_only: bool) -> Option<FieldStep> {
        let field = self.types.views[&id]
            .fields
            .iter()
            .find(|f| escape(&f.json).as_deref() == Some(name))?;
        let ident = field.ident.clone();
        let repr = match &field.kind {
            _ if test_only => Repr::Bool,
            PropKind::Int => Repr::Int,
            PropKind::Double => Repr::Double,
            PropKind::Bool => Repr::Bool,
            PropKind::Str => Repr::Str,
            PropKind::Object(id) => Repr::Struct(*id),
            PropKind::Items(id) => Repr::Items(*id),
            PropKind::Formatted(_) | PropKind::Json => Repr::Val,
        };
        let view = match &field.kind {
            PropKind::Object(id) => Some(self.types.views[id].name.clone()),
            _ => None,
        };
        Some(FieldStep {
            ident,
            kind: field.kind.clone(),
            schema: field.schema.clone(),
            view,
            repr,
        })
    }

    // -- operators ---------------------------------------------------------------

    fn logical(&mut self, a: &Node, b: &Node, stop: bool) -> Code {
        let a = self.node_as(a, Repr::Bool);
        let b = self.node_as(b, Repr::Bool);
        Code {
            tokens: quote!({
                let a = #a;
                if matches!(a, Ok(#stop)) {
                    Ok(#stop)
                } else {
                    rt::compiled::logical_rest(a, #b, #stop)
                }
            }),
            repr: Repr::Bool,
        }
    }

    fn equals(&mut self, lhs: &Node, rhs: &Node, negate: bool) -> Code {
        let (function, overload) = if negate {
            ("_!=_", "not_equals")
        } else {
            ("_==_", "equals")
        };
        let l = self.node(lhs);
        let r = self.node(rhs);
        if l.repr == r.repr && l.repr.is_scalar() {
            let (lt, rt_) = (l.tokens, r.tokens);
            let compare = match (l.repr, negate) {
                (Repr::Str, false) => quote!(rt::compiled::strings(&a, &b, rt::compiled::op::str_eq)),
                (Repr::Str, true) => quote!(rt::compiled::strings(&a, &b, rt::compiled::op::str_ne)),
                (_, false) => quote!(rt::compiled::scalars(&a, &b, rt::compiled::op::eq)),
                (_, true) => quote!(rt::compiled::scalars(&a, &b, rt::compiled::op::ne)),
            };
            let cost = match l.repr {
                Repr::Str => string_compare_cost(lhs, rhs),
                repr => {
                    let c = static_cost(function, overload, &[repr, repr], Repr::Bool);
                    quote!(#c)
                }
            };
            return Code {
                tokens: strict_binary(lt, rt_, compare, cost),
                repr: Repr::Bool,
            };
        }
        let l = self.convert(l, Repr::Val);
        let r = self.convert(r, Repr::Val);
        let map_negate = if negate {
            quote!(.map(|e| !e))
        } else {
            TokenStream::new()
        };
        Code {
            tokens: quote!({
                let a = #l;
                let b = #r;
                let r = match (&a, &b) {
                    (Ok(a), Ok(b)) => rt::cel::equals(a, b) #map_negate,
                    (Err(e), _) | (_, Err(e)) => Err(e.clone()),
                };
                cost += rt::compiled::call_cost(#function, #overload, &[a, b], &r.clone().map(rt::cel::Val::Bool));
                r
            }),
            repr: Repr::Bool,
        }
    }

    fn set_membership(&mut self, arg: &Node, values: &[Val<'static>]) -> Code {
        let a = self.node(arg);
        match a.repr {
            Repr::Str => {
                let strings: Vec<&str> = values
                    .iter()
                    .filter_map(|v| match v {
                        Val::String(s) => Some(&**s),
                        _ => None,
                    })
                    .collect();
                let t = a.tokens;
                let test = if strings.is_empty() {
                    quote!(false)
                } else {
                    quote!(matches!(&*s, #( #strings )|*))
                };
                Code {
                    tokens: quote!((#t).map(|s| #test)),
                    repr: Repr::Bool,
                }
            }
            Repr::Int => {
                let ints: Vec<i64> = values
                    .iter()
                    .filter_map(|v| match v {
                        Val::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect();
                let t = a.tokens;
                let test = if ints.is_empty() {
                    quote!(false)
                } else {
                    quote!([ #( #ints ),* ].contains(&i))
                };
                Code {
                    tokens: quote!((#t).map(|i| #test)),
                    repr: Repr::Bool,
                }
            }
            _ => {
                let v = self.convert(a, Repr::Val);
                let set = values.iter().map(const_val);
                Code {
                    tokens: quote!((#v).map(|v| rt::compiled::in_set(&v, &[ #( #set ),* ]))),
                    repr: Repr::Bool,
                }
            }
        }
    }

    // -- calls -------------------------------------------------------------------

    fn call(&mut self, c: &Call, n: &Node) -> Code {
        if let Some(code) = self.native_call(c, n) {
            return code;
        }
        let function = c.function.as_str();
        let overload = c.overload.as_deref().unwrap_or("");
        let overload_arg = match &c.overload {
            Some(o) => quote!(Some(#o)),
            None => quote!(None),
        };
        if c.mode == CallMode::NonStrict && self.repr_of(&c.args[0]) == Repr::Bool {
            // `@not_strictly_false` of a bool: true unless it is false.
            let a = self.node_as(&c.args[0], Repr::Bool);
            let cost = static_cost(function, overload, &[Repr::Bool], Repr::Bool);
            return Code {
                tokens: quote!({
                    let r = rt::cel::Result::Ok(!matches!(#a, Ok(false)));
                    cost += #cost;
                    r
                }),
                repr: Repr::Bool,
            };
        }
        let args: Vec<TokenStream> = c.args.iter().map(|a| self.node_as(a, Repr::Val)).collect();
        let names: Vec<Ident> = (0..args.len()).map(|i| format_ident!("a{}", i)).collect();
        let call_cost = if c.overload.is_none() && self.types.sees_derived {
            quote!(rt::compiled::call_cost_resolved(#function, &args, &r))
        } else {
            quote!(rt::compiled::call_cost(#function, #overload, &args, &r))
        };
        match c.mode {
            CallMode::NonStrict => {
                let a = &args[0];
                let cost = static_cost(function, overload, &[Repr::Val], Repr::Val);
                Code {
                    tokens: quote!({
                        let a = #a;
                        let r = Ok(rt::cel::ops::not_strictly_false(&a));
                        cost += #cost;
                        r
                    }),
                    repr: Repr::Val,
                }
            }
            CallMode::Strict => Code {
                tokens: quote!({
                    #( let #names = #args; )*
                    let args = [ #( #names ),* ];
                    let r = rt::compiled::call(#function, #overload_arg, &args);
                    cost += #call_cost;
                    r
                }),
                repr: Repr::Val,
            },
            CallMode::VarArgs => {
                // Evaluation stops at the first error, which is the result, and the
                // call is not priced.
                let mut body = quote! {
                    let args = [ #( #names ),* ];
                    let r = rt::compiled::call(#function, #overload_arg, &args);
                    cost += #call_cost;
                    r
                };
                for (name, arg) in names.iter().zip(&args).rev() {
                    body = quote! {
                        let #name = #arg;
                        if #name.is_err() {
                            #name
                        } else {
                            #body
                        }
                    };
                }
                Code {
                    tokens: quote!({ #body }),
                    repr: Repr::Val,
                }
            }
        }
    }

    /// Calls written as plain Rust: operators and functions on scalars.
    fn native_call(&mut self, c: &Call, _n: &Node) -> Option<Code> {
        if c.mode != CallMode::Strict {
            return None;
        }
        let overload = c.overload.as_deref()?;
        let function = c.function.as_str();
        let reprs: Vec<Repr> = c.args.iter().map(|a| self.repr_of(a)).collect();
        // Comparisons of two scalars of one type.
        let cmp = match function {
            "_<_" => Some(("lt", "str_lt")),
            "_<=_" => Some(("le", "str_le")),
            "_>_" => Some(("gt", "str_gt")),
            "_>=_" => Some(("ge", "str_ge")),
            _ => None,
        };
        if let (Some((op, str_op)), [l, r]) = (cmp, reprs.as_slice())
            && l == r
            && l.is_scalar()
        {
            let repr = *l;
            let a = self.node_as(&c.args[0], repr);
            let b = self.node_as(&c.args[1], repr);
            let compare = match repr {
                Repr::Str => {
                    let op = format_ident!("{}", str_op);
                    quote!(rt::compiled::strings(&a, &b, rt::compiled::op::#op))
                }
                _ => {
                    let op = format_ident!("{}", op);
                    quote!(rt::compiled::scalars(&a, &b, rt::compiled::op::#op))
                }
            };
            let cost = match repr {
                Repr::Str => string_compare_cost(&c.args[0], &c.args[1]),
                repr => {
                    let c = static_cost(function, overload, &[repr, repr], Repr::Bool);
                    quote!(#c)
                }
            };
            return Some(Code {
                tokens: strict_binary(a, b, compare, cost),
                repr: Repr::Bool,
            });
        }
        // Arithmetic on two numbers of one type, with CEL's overflow and division
        // errors (`rt::cel::ops::int`, which the interpreter uses too).
        let int = quote!(rt::cel::ops::int);
        let double = quote!(rt::compiled::op);
        let arithmetic = match overload {
            "add_int64" => Some((Repr::Int, quote!(#int::add))),
            "subtract_int64" => Some((Repr::Int, quote!(#int::sub))),
            "multiply_int64" => Some((Repr::Int, quote!(#int::mul))),
            "divide_int64" => Some((Repr::Int, quote!(#int::div))),
            "modulo_int64" => Some((Repr::Int, quote!(#int::rem))),
            "add_uint64" => Some((Repr::Uint, quote!(#int::uadd))),
            "subtract_uint64" => Some((Repr::Uint, quote!(#int::usub))),
            "multiply_uint64" => Some((Repr::Uint, quote!(#int::umul))),
            "divide_uint64" => Some((Repr::Uint, quote!(#int::udiv))),
            "modulo_uint64" => Some((Repr::Uint, quote!(#int::urem))),
            "add_double" => Some((Repr::Double, quote!(#double::add_double))),
            "subtract_double" => Some((Repr::Double, quote!(#double::sub_double))),
            "multiply_double" => Some((Repr::Double, quote!(#double::mul_double))),
            "divide_double" => Some((Repr::Double, quote!(#double::div_double))),
            _ => None,
        };
        if let Some((repr, op)) = arithmetic
            && reprs == [repr, repr]
        {
            let a = self.node_as(&c.args[0], repr);
            let b = self.node_as(&c.args[1], repr);
            let cost = static_cost(function, overload, &[repr, repr], repr);
            return Some(Code {
                tokens: strict_binary(a, b, quote!(rt::compiled::scalars(&a, &b, #op)), quote!(#cost)),
                repr,
            });
        }
        match (overload, reprs.as_slice()) {
            ("logical_not", [Repr::Bool]) => {
                let a = self.node_as(&c.args[0], Repr::Bool);
                let cost = static_cost(function, overload, &[Repr::Bool], Repr::Bool);
                Some(Code {
                    tokens: quote!({
                        let r = (#a).map(|a| !a);
                        cost += #cost;
                        r
                    }),
                    repr: Repr::Bool,
                })
            }
            ("negate_int64", [Repr::Int]) | ("negate_double", [Repr::Double]) => {
                let repr = reprs[0];
                let a = self.node_as(&c.args[0], repr);
                let negate = if repr == Repr::Int {
                    quote!(and_then(rt::cel::ops::int::neg))
                } else {
                    quote!(map(|a| -a))
                };
                let cost = static_cost(function, overload, &[repr], repr);
                Some(Code {
                    tokens: quote!({
                        let r = (#a).#negate;
                        cost += #cost;
                        r
                    }),
                    repr,
                })
            }
            ("size_string" | "string_size", [Repr::Str]) => {
                let a = self.node_as(&c.args[0], Repr::Str);
                let cost = static_cost(function, overload, &[Repr::Str], Repr::Int);
                Some(Code {
                    tokens: quote!({
                        let r = (#a).map(|s| s.chars().count() as i64);
                        cost += #cost;
                        r
                    }),
                    repr: Repr::Int,
                })
            }
            ("contains_string" | "starts_with_string" | "ends_with_string", [Repr::Str, Repr::Str]) => {
                let a = self.node_as(&c.args[0], Repr::Str);
                let b = self.node_as(&c.args[1], Repr::Str);
                let method = match overload {
                    "contains_string" => quote!(contains),
                    "starts_with_string" => quote!(starts_with),
                    _ => quote!(ends_with),
                };
                let call = quote!(rt::compiled::strings(&a, &b, rt::compiled::op::#method));
                // A constant substring, prefix or suffix has a known size.
                let cost = match (overload, const_str_size(&c.args[1])) {
                    ("contains_string", Some(n)) => quote!(rt::compiled::contains_cost_const(&a, #n)),
                    ("contains_string", None) => quote!(rt::compiled::contains_cost(&a, &b)),
                    (_, Some(n)) => {
                        let c = crd_runtime::cel::cost::string_traversal(n);
                        quote!(#c)
                    }
                    (_, None) => quote!(rt::compiled::affix_cost(&b)),
                };
                Some(Code {
                    tokens: strict_binary(a, b, call, cost),
                    repr: Repr::Bool,
                })
            }
            ("size_list" | "list_size", [Repr::Val]) => {
                let cost = static_cost(function, overload, &[Repr::Val], Repr::Int);
                // The size of a list in a variable is read in place (the variable
                // access costs 1, as the attribute node would).
                if let Some(var) = self.bare_result_var(&c.args[0]) {
                    return Some(Code {
                        tokens: quote!({
                            let r = rt::compiled::list_size_ref(#var, #function, #overload);
                            cost += 1 + #cost;
                            r
                        }),
                        repr: Repr::Int,
                    });
                }
                let a = self.node(&c.args[0]);
                if let Repr::Items(_) = a.repr {
                    let a = a.tokens;
                    return Some(Code {
                        tokens: quote!({
                            let r = (#a).map(|l| l.len() as i64);
                            cost += #cost;
                            r
                        }),
                        repr: Repr::Int,
                    });
                }
                let a = self.convert(a, Repr::Val);
                Some(Code {
                    tokens: quote!({
                        let r = rt::compiled::list_size(#a, #function, #overload);
                        cost += #cost;
                        r
                    }),
                    repr: Repr::Int,
                })
            }
            // A constant pattern: compiled once, into a static.
            ("matches_string" | "matches", [Repr::Str, Repr::Str]) => {
                let NodeKind::Const(Val::String(pattern)) = &c.args[1].kind else {
                    return None;
                };
                let pattern: &str = pattern;
                let pattern_size = pattern.chars().count() as u64;
                let a = self.node_as(&c.args[0], Repr::Str);
                Some(Code {
                    tokens: quote!({
                        static PATTERN: rt::regex::Pattern = rt::regex::Pattern::new(#pattern);
                        let a = #a;
                        let r = match &a {
                            Ok(s) => PATTERN.is_match(s).map_err(rt::cel::Error::new),
                            Err(e) => Err(e.clone()),
                        };
                        cost += rt::compiled::matches_cost(&a, #pattern_size);
                        r
                    }),
                    repr: Repr::Bool,
                })
            }
            _ => None,
        }
    }

    // -- comprehensions ----------------------------------------------------------

    fn fold(&mut self, f: &Fold) -> Code {
        if let Some(appending) = Appending::of(f) {
            return self.appending_fold(f, appending);
        }
        let range = self.node(&f.iter_range);
        let accu_repr = self.repr_of(&f.loop_step);
        // The accumulator starts in the scope around the comprehension.
        let init = self.node_as(&f.accu_init, accu_repr);
        let l = self.loop_names(f);
        self.vars.push(Var {
            name: f.accu_var.clone(),
            ident: l.accu.clone(),
            repr: accu_repr,
            is_result: true,
            by_ref: false,
        });
        self.push_iter_vars(f, &l);
        // The loop stops when the condition is false (an error goes on).
        let cond = self.node_as(&f.loop_condition, Repr::Bool);
        let step = self.node_as(&f.loop_step, accu_repr);
        self.pop_iter_vars(&l);
        let result_repr = self.repr_of(&f.result);
        let result = self.node_as(&f.result, result_repr);
        self.vars.pop();
        let accu = &l.accu;
        let tokens = self.loop_code(
            range,
            &l,
            quote!(let mut #accu = #init;),
            quote! {
                if matches!(#cond, Ok(false)) {
                    break;
                }
                let step = #step;
                #accu = step;
            },
            result,
        );
        Code {
            tokens,
            repr: result_repr,
        }
    }

    /// A `map` or `filter` ([`Appending`]): the list is built in a `Vec` and made a
    /// CEL list once, at the end, instead of `accu + [e]` making a new list at every
    /// step. Values, errors and costs are those of the steps it stands for: reading
    /// the accumulator (1), the element, the list literal (10) and `+` (its call
    /// cost); the first error stays the accumulator's, a predicate's error replaces
    /// it.
    fn appending_fold(&mut self, f: &Fold, appending: Appending<'_>) -> Code {
        let range = self.node(&f.iter_range);
        let l = self.loop_names(f);
        let accu = &l.accu;
        self.push_iter_vars(f, &l);
        let element = self.node_as(appending.element, Repr::Val);
        let plus = static_cost("_+_", "add_list", &[Repr::Val, Repr::Val], Repr::Val);
        let append = quote! {
            cost += 1;
            let e = #element;
            cost += 10 + #plus;
            match e {
                Ok(v) => {
                    if let Ok(items) = &mut #accu {
                        items.push(v);
                    }
                }
                Err(e) => {
                    if #accu.is_ok() {
                        #accu = Err(e);
                    }
                }
            }
        };
        let step = match appending.predicate {
            None => append,
            Some(p) => {
                let p = self.node_as(p, Repr::Bool);
                quote! {
                    let keep = #p;
                    match keep {
                        Ok(true) => { #append }
                        Ok(false) => {}
                        Err(e) => #accu = Err(e),
                    }
                }
            }
        };
        self.pop_iter_vars(&l);
        // The result reads the accumulator.
        let result = quote!({
            cost += 1;
            #accu.map(rt::cel::Val::list)
        });
        let tokens = self.loop_code(
            range,
            &l,
            quote!(let mut #accu: rt::cel::Result<Vec<rt::cel::Val<'_>>> = Ok(Vec::new());),
            step,
            result,
        );
        Code {
            tokens,
            repr: Repr::Val,
        }
    }

    /// The names and representations of a comprehension's variables.
    fn loop_names(&mut self, f: &Fold) -> LoopNames {
        let range_type = self.plan.types.get(&f.iter_range.id).cloned().unwrap_or(Type::Dyn);
        let two = f.iter_var2.is_some();
        LoopNames {
            reprs: self.iter_reprs(&range_type, two),
            two,
            accu: self.fresh("accu"),
            it1: self.fresh("it"),
            it2: self.fresh("it"),
            range: self.fresh("range"),
        }
    }

    /// A comprehension's loop: the range (an error is the result), the accumulator
    /// declared by `init`, `body` for each entry with the variables bound (the cost
    /// limit checked first), then `result`.
    fn loop_code(
        &self,
        range: Code,
        l: &LoopNames,
        init: TokenStream,
        body: TokenStream,
        result: TokenStream,
    ) -> TokenStream {
        let range_ident = &l.range;
        let (range, bind) = self.range_and_bind(range, l);
        quote!({
            let #range_ident = #range;
            match #range_ident {
                Err(e) => Err(e),
                Ok(#range_ident) => {
                    #init
                    for i in 0..#range_ident.len() {
                        if cost > rt::compiled::LIMIT {
                            return rt::compiled::cancelled(cost);
                        }
                        #bind
                        #body
                    }
                    #result
                }
            }
        })
    }

    /// How a comprehension's variables are held over a range of checked type
    /// `range_type`: the item (or key), and with `two` the index (or key) and item
    /// (or value).
    fn iter_reprs(&self, range_type: &Type, two: bool) -> (Repr, Repr) {
        match (range_type, two) {
            (Type::List(e), false) => (self.types.repr(e), Repr::Val),
            (Type::List(e), true) => (Repr::Int, self.types.repr(e)),
            (Type::Map(k, _), false) => (self.types.repr(k), Repr::Val),
            (Type::Map(k, v), true) => (self.types.repr(k), self.types.repr(v)),
            _ => (Repr::Val, Repr::Val),
        }
    }

    fn push_iter_vars(&mut self, f: &Fold, l: &LoopNames) {
        self.vars.push(Var {
            name: f.iter_var.clone(),
            ident: l.it1.clone(),
            repr: l.reprs.0,
            is_result: true,
            by_ref: false,
        });
        if let Some(v2) = &f.iter_var2 {
            self.vars.push(Var {
                name: v2.clone(),
                ident: l.it2.clone(),
                repr: l.reprs.1,
                is_result: true,
                by_ref: false,
            });
        }
    }

    fn pop_iter_vars(&mut self, l: &LoopNames) {
        if l.two {
            self.vars.pop();
        }
        self.vars.pop();
    }

    /// The range of a comprehension as an expression, and the binding of its
    /// variables for entry `i`: a list of viewed objects is iterated in place,
    /// anything else through `rt::compiled::Range`.
    fn range_and_bind(&self, range: Code, l: &LoopNames) -> (TokenStream, TokenStream) {
        let LoopNames {
            reprs: (repr1, repr2),
            two,
            it1,
            it2,
            range: range_ident,
            ..
        } = l;
        match self.in_place_items(&range, if *two { *repr2 } else { *repr1 }) {
            Some(view) => {
                let item = quote!(#range_ident.object(i).map(#view::parse));
                let bind = if *two {
                    quote! {
                        let #it1 = rt::cel::Result::Ok(i as i64);
                        let #it2 = #item;
                    }
                } else {
                    quote!(let #it1 = #item;)
                };
                (range.tokens, bind)
            }
            None => {
                let range = self.convert(range, Repr::Val);
                let range = quote!((#range).and_then(|v| rt::compiled::Range::new(v, #two)));
                (range, self.range_bind(*repr1, *repr2, *two, range_ident, it1, it2))
            }
        }
    }

    /// The view of the items of a comprehension's range held as `Items`, when the
    /// item variable is that view.
    fn in_place_items(&self, range: &Code, item: Repr) -> Option<Ident> {
        match (range.repr, item) {
            (Repr::Items(id), Repr::Struct(item)) if id == item => Some(self.types.views[&id].name.clone()),
            _ => None,
        }
    }

    /// Binding the variables of entry `i` of a `rt::compiled::Range`.
    fn range_bind(&self, repr1: Repr, repr2: Repr, two: bool, range: &Ident, it1: &Ident, it2: &Ident) -> TokenStream {
        if two {
            let a = self.convert(
                Code {
                    tokens: quote!(e1),
                    repr: Repr::Val,
                },
                repr1,
            );
            let b = self.convert(
                Code {
                    tokens: quote!(e2),
                    repr: Repr::Val,
                },
                repr2,
            );
            quote! {
                let (e1, e2) = #range.two(i);
                let #it1 = #a;
                let #it2 = #b;
            }
        } else if let Repr::Struct(id) = repr1 {
            // Objects are viewed straight from the JSON array.
            let view = &self.types.views[&id].name;
            quote!(let #it1 = rt::compiled::object_item(&#range, i).map(#view::parse);)
        } else {
            let a = self.convert(
                Code {
                    tokens: quote!(#range.one(i)),
                    repr: Repr::Val,
                },
                repr1,
            );
            quote!(let #it1 = #a;)
        }
    }
}

/// The names and representations of a comprehension's variables in compiled code.
struct LoopNames {
    /// How the item (or key), and with two variables the index (or key) and item
    /// (or value), are held.
    reprs: (Repr, Repr),
    two: bool,
    accu: Ident,
    it1: Ident,
    it2: Ident,
    range: Ident,
}

/// A comprehension that only appends to a list: the `map` (`accu + [e]`) and
/// `filter` / three-argument `map` (`p ? accu + [e] : accu`) macros, with an empty
/// list to start from, no loop condition and the list as the result.
struct Appending<'p> {
    predicate: Option<&'p Node>,
    element: &'p Node,
}

impl<'p> Appending<'p> {
    fn of(f: &'p Fold) -> Option<Appending<'p>> {
        let accu = f.accu_var.as_str();
        let starts_empty = matches!(&f.accu_init.kind, NodeKind::Const(Val::List(l)) if l.is_empty());
        let no_condition = matches!(&f.loop_condition.kind, NodeKind::Const(Val::Bool(true)));
        let returns_accu = matches!(&f.result.kind, NodeKind::Attr(a) if is_var(a, accu));
        if !(starts_empty && no_condition && returns_accu) {
            return None;
        }
        match &f.loop_step.kind {
            NodeKind::Call(c) => Some(Appending {
                predicate: None,
                element: appended(c, accu)?,
            }),
            NodeKind::Attr(Attr {
                root: AttrRoot::Cond { cond, truthy, falsy },
                quals,
            }) if quals.is_empty() && truthy.quals.is_empty() && is_var(falsy, accu) => match &truthy.root {
                AttrRoot::Expr(n) => match &n.kind {
                    NodeKind::Call(c) => Some(Appending {
                        predicate: Some(cond),
                        element: appended(c, accu)?,
                    }),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// Whether an attribute is the variable `name`, unqualified.
fn is_var(a: &Attr, name: &str) -> bool {
    a.quals.is_empty() && matches!(&a.root, AttrRoot::Var { name: n, global: false } if n == name)
}

/// `e` of a call `accu + [e]` (list concatenation, one non-optional element).
fn appended<'p>(c: &'p Call, accu: &str) -> Option<&'p Node> {
    if c.function != "_+_" || c.overload.as_deref() != Some("add_list") || c.mode != CallMode::Strict {
        return None;
    }
    match c.args.as_slice() {
        [
            Node {
                kind: NodeKind::Attr(a),
                ..
            },
            Node {
                kind: NodeKind::CreateList { elements, optional },
                ..
            },
        ] if is_var(a, accu) && elements.len() == 1 && optional == &[false] => Some(&elements[0]),
        _ => None,
    }
}

/// A qualifier on a held value (`Result<R>`): `member` of the value `v`, charged 1,
/// or the value's error. The value is `borrowed` (a reference to a variable) when
/// given, else the expression `tokens`.
fn qualified(borrowed: Option<TokenStream>, tokens: TokenStream, v: &Ident, member: TokenStream) -> TokenStream {
    let (t, err) = match borrowed {
        Some(var) => (var, quote!(Err(e.clone()))),
        None => (tokens, quote!(Err(e))),
    };
    quote! {
        match #t {
            Err(e) => #err,
            Ok(#v) => {
                cost += 1;
                #member
            }
        }
    }
}

/// A strict call of two arguments: `call` (a runtime function of the arguments'
/// results `a` and `b`: their value, else the first error), then `cost` (which may
/// read `a` and `b` too) is added.
fn strict_binary(a: TokenStream, b: TokenStream, call: TokenStream, cost: TokenStream) -> TokenStream {
    quote!({
        let a = #a;
        let b = #b;
        let r = #call;
        cost += #cost;
        r
    })
}

/// The number of code points of a constant string node.
fn const_str_size(n: &Node) -> Option<u64> {
    match &n.kind {
        NodeKind::Const(Val::String(s)) => Some(s.chars().count() as u64),
        _ => None,
    }
}

/// The cost of comparing strings `a` and `b` (the values of `lhs` and `rhs`): the
/// traversal of the shorter, known in part when one side is a constant.
fn string_compare_cost(lhs: &Node, rhs: &Node) -> TokenStream {
    match (const_str_size(lhs), const_str_size(rhs)) {
        (Some(x), Some(y)) => {
            let c = crd_runtime::cel::cost::string_traversal(x.min(y));
            quote!(#c)
        }
        (None, Some(n)) => quote!(rt::compiled::compare_cost_const(&a, #n)),
        (Some(n), None) => quote!(rt::compiled::compare_cost_const(&b, #n)),
        (None, None) => quote!(rt::compiled::string_compare_cost(&a, &b)),
    }
}

/// How to read one property of a view `v`.
struct FieldStep {
    ident: Ident,
    kind: PropKind,
    /// The property's schema static.
    schema: TokenStream,
    /// The view of an object property.
    view: Option<Ident>,
    repr: Repr,
}

impl FieldStep {
    /// Whether the property is present (and not `null`) in view `v`, as
    /// `Result<bool>`: a present value that cannot be read (bad data, a string that
    /// does not parse in its format) is that error, as Kubernetes' map `Find` gives
    /// it to the presence test.
    fn present(&self, v: &Ident, key: &str) -> TokenStream {
        let f = &self.ident;
        match self.kind {
            // Reading these cannot fail for data of the right type.
            PropKind::Int
            | PropKind::Double
            | PropKind::Bool
            | PropKind::Str
            | PropKind::Object(_)
            | PropKind::Items(_) => {
                let (reader, s) = (self.kind.reader(), &self.schema);
                quote!(rt::compiled::present(#v.#f, #reader, &#s))
            }
            PropKind::Formatted(_) | PropKind::Json => {
                let read = self.read(v, key);
                quote!(match #v.#f {
                    None => Ok(false),
                    Some(_) => (#read).map(|_| true),
                })
            }
        }
    }

    /// The property's CEL value in view `v`, as `Result<R>` (`key` names it in the
    /// `no such key` error).
    fn read(&self, v: &Ident, key: &str) -> TokenStream {
        let f = &self.ident;
        let (reader, s) = (self.kind.reader(), &self.schema);
        let read = quote!(rt::compiled::read(#v.#f, #key, #reader, &#s));
        match &self.kind {
            PropKind::Int | PropKind::Double | PropKind::Bool | PropKind::Items(_) => read,
            PropKind::Str => quote!(#read.map(rt::cel::Str::Borrowed)),
            PropKind::Formatted(format) => quote!(#read.and_then(|s| rt::compiled::formatted(s, #format))),
            PropKind::Object(_) => {
                let view = &self.view;
                quote!(#read.map(#view::parse))
            }
            PropKind::Json => quote!(#read.and_then(|x| rt::compiled::json(x, &#s))),
        }
    }
}

/// `x`, a `rt::cel::Result` of a value held in `repr`, as `rt::cel::Result<Val>`.
pub fn to_val_result(x: TokenStream, repr: Repr, views: &HashMap<TypeId, View>) -> TokenStream {
    let f = match repr {
        Repr::Val => return x,
        Repr::Items(_) => return quote!((#x).and_then(rt::compiled::Items::to_val)),
        Repr::Bool => quote!(rt::cel::Val::Bool),
        Repr::Int => quote!(rt::cel::Val::Int),
        Repr::Uint => quote!(rt::cel::Val::Uint),
        Repr::Double => quote!(rt::cel::Val::Double),
        Repr::Str => quote!(rt::cel::Val::String),
        Repr::Struct(id) => {
            let view = &views[&id].name;
            quote!(#view::to_val)
        }
    };
    quote!((#x).map(#f))
}

/// The `x-kubernetes-list-type` of a list node, for `rt::cel::List::view`.
pub fn list_type_tokens(s: &crate::ir::Schema) -> TokenStream {
    match s.list_type {
        Some(crate::ir::ListType::Set) => quote!(rt::cel::ListType::Set),
        Some(crate::ir::ListType::Map) => {
            let keys: Vec<String> = s
                .list_map_keys
                .iter()
                .map(|k| escape(k).unwrap_or_else(|| k.clone()))
                .collect();
            quote!(rt::cel::ListType::Map(rt::cel::KeyNames::Borrowed(&[ #( #keys ),* ])))
        }
        _ => quote!(rt::cel::ListType::Atomic),
    }
}

/// A constant value of the plan as tokens building it.
fn const_val(v: &Val<'static>) -> TokenStream {
    match v {
        Val::Null => quote!(rt::cel::Val::Null),
        Val::Bool(b) => quote!(rt::cel::Val::Bool(#b)),
        Val::Int(i) => quote!(rt::cel::Val::Int(#i)),
        Val::Uint(u) => quote!(rt::cel::Val::Uint(#u)),
        Val::Double(d) => {
            let d = f64_tokens(*d);
            quote!(rt::cel::Val::Double(#d))
        }
        Val::String(s) => {
            let s: &str = s;
            quote!(rt::cel::Val::str(#s))
        }
        Val::Bytes(b) => {
            let b = Literal::byte_string(b);
            quote!(rt::cel::Val::bytes(&#b[..]))
        }
        Val::Duration(d) => {
            let n = d.nanos();
            quote!(rt::cel::Val::Duration(rt::time::Duration::from_nanos(#n)))
        }
        Val::Timestamp(t) => {
            let (s, n, o) = (t.unix_seconds(), t.subsec_nanos(), t.offset_seconds());
            quote!(rt::compiled::timestamp(#s, #n, #o))
        }
        Val::List(l) => {
            let items: Vec<TokenStream> = l
                .iter()
                .map(|x| x.map_or(quote!(rt::cel::Val::Null), |x| const_val(&x)))
                .collect();
            quote!(rt::cel::Val::list(vec![ #( #items ),* ]))
        }
        Val::Map(m) => {
            let entries: Vec<TokenStream> = m
                .keys()
                .iter()
                .map(|k| {
                    let v = m.find(k).and_then(Result::ok).unwrap_or(Val::Null);
                    let (k, v) = (const_val(k), const_val(&v));
                    quote!((#k, #v))
                })
                .collect();
            quote!(rt::compiled::const_map(vec![ #( #entries ),* ]))
        }
        Val::Optional(None) => quote!(rt::cel::Val::Optional(None)),
        Val::Optional(Some(x)) => {
            let x = const_val(x);
            quote!(rt::cel::Val::optional_of(#x))
        }
        Val::Type(t) => {
            let name = t.name();
            quote!(rt::cel::Val::Type(rt::cel::TypeVal::new(#name)))
        }
        other => {
            // The planner folds only the standard types' conversions.
            let msg = format!(
                "crd-codegen: a constant of type {} cannot be compiled",
                other.type_name()
            );
            quote!(compile_error!(#msg))
        }
    }
}

fn f64_tokens(d: f64) -> TokenStream {
    if d.is_nan() {
        quote!(f64::NAN)
    } else if d == f64::INFINITY {
        quote!(f64::INFINITY)
    } else if d == f64::NEG_INFINITY {
        quote!(f64::NEG_INFINITY)
    } else {
        let l = Literal::f64_suffixed(d);
        quote!(#l)
    }
}

/// The cost of a call whose arguments and result are fixed-size scalars (or
/// `NonStrict` calls): sizes are 1 whatever the values, so the cost is known when
/// generating.
fn static_cost(function: &str, overload: &str, args: &[Repr], result: Repr) -> u64 {
    let sample = |r: Repr| match r {
        Repr::Bool => Val::Bool(true),
        Repr::Int => Val::Int(0),
        Repr::Uint => Val::Uint(0),
        Repr::Double => Val::Double(0.0),
        // Sizes of strings vary: callers use this only for fixed sizes or where
        // cel-go prices the call without looking at the string.
        Repr::Str => Val::str(""),
        _ => Val::Null,
    };
    let args: Vec<Val> = args.iter().map(|r| sample(*r)).collect();
    crd_runtime::cel::cost::call_cost(function, overload, &args, &Ok(sample(result)))
}
