//! kube-derive's spelling: `#[kube(...)]` on a kind's spec, `#[x_kube(...)]` on a type
//! and its fields, parsed as kube-derive 5 parses them (the same attributes, values and
//! errors), then written into the internal AST `#[crd(...)]` fills
//! ([`super::attrs::ResourceAttrs`], [`super::attrs::Keywords`]), so that everything
//! after this module sees one spelling. What kube-derive has and `#[crd(...)]` has not
//! (the root's name, `no_spec`, attributes for the root, the schema mode, `cel`) is kept
//! in [`KubeResource`].
//!
//! A type written in this spelling gets kube-derive's conventions (see
//! [`super::attrs::Convention`]).

// darling's `FromMeta` expansions use `unreachable!` for their own invariants.
#![allow(clippy::unreachable)]

use super::attrs::{KeyValue, PrintColumnAttr, RuleAttr, ScaleAttr, TypeInput};
use darling::util::{Flag, Override, SpannedValue, parse_expr};
use darling::{Error, FromDeriveInput, FromMeta};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Lit};

/// `#[kube(...)]`, as kube-derive 5 reads it.
#[derive(FromDeriveInput)]
#[darling(attributes(kube))]
struct KubeAttrs {
    group: SpannedValue<String>,
    version: SpannedValue<String>,
    kind: SpannedValue<String>,
    doc: Option<SpannedValue<String>>,
    root: Option<SpannedValue<String>>,
    plural: Option<SpannedValue<String>>,
    singular: Option<SpannedValue<String>>,
    #[darling(default)]
    namespaced: SpannedValue<bool>,
    #[darling(default)]
    no_spec: SpannedValue<bool>,
    #[darling(multiple)]
    derive: Vec<SpannedValue<String>>,
    #[darling(multiple)]
    attr: Vec<RootMeta>,
    schema: Option<SchemaMode>,
    status: Option<syn::Path>,
    #[darling(multiple)]
    category: Vec<SpannedValue<String>>,
    #[darling(multiple)]
    shortname: Vec<SpannedValue<String>>,
    #[darling(multiple)]
    printcolumn: Vec<SpannedValue<KubePrintColumn>>,
    #[darling(multiple)]
    selectable: Vec<SpannedValue<String>>,
    scale: Option<SpannedValue<KubeScale>>,
    /// Where kube-derive finds its crates; our generated code names `crd_runtime`'s
    /// re-exports, so these are read (for the same errors) and not needed.
    #[darling(default)]
    #[allow(dead_code)]
    crates: Crates,
    #[darling(multiple)]
    annotation: Vec<KeyValue>,
    #[darling(multiple)]
    label: Vec<KeyValue>,
    #[darling(multiple, with = parse_expr::preserve_str_literal)]
    validation: Vec<Expr>,
    #[darling(default)]
    cel: SpannedValue<bool>,
    #[darling(default = default_true)]
    storage: bool,
    #[darling(default = default_true)]
    served: bool,
    deprecated: Option<Override<String>>,
}

fn default_true() -> bool {
    true
}

/// `#[resource(inherit = "Kind")]` of kube-derive's `#[derive(Resource)]`.
#[derive(FromDeriveInput)]
#[darling(attributes(resource))]
pub struct Inherit {
    pub ident: syn::Ident,
    pub generics: syn::Generics,
    #[allow(dead_code)]
    data: darling::ast::Data<darling::util::Ignored, darling::util::Ignored>,
    pub inherit: syn::Path,
    /// kube-derive's crate paths; ours names crd-runtime's re-exports.
    #[darling(default)]
    #[allow(dead_code)]
    crates: Option<darling::util::Ignored>,
}

/// kube-derive's `crates(...)`.
#[derive(Default, FromMeta)]
#[allow(dead_code)]
struct Crates {
    kube: Option<syn::Path>,
    kube_core: Option<syn::Path>,
    k8s_openapi: Option<syn::Path>,
    schemars: Option<syn::Path>,
    serde: Option<syn::Path>,
    serde_json: Option<syn::Path>,
    std: Option<syn::Path>,
}

/// `schema = "derived" | "manual" | "disabled"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, FromMeta)]
pub enum SchemaMode {
    /// The schema is derived from the types (the default).
    #[default]
    Derived,
    /// The root type's `JsonSchema` is the user's own.
    Manual,
    /// No schema: `crd()` has none.
    Disabled,
}

/// `attr = "..."`: an attribute for the root type; not `derive`, `serde` or
/// `schemars`, which would clash with what the derive writes.
struct RootMeta(syn::Meta);

impl FromMeta for RootMeta {
    fn from_string(value: &str) -> darling::Result<Self> {
        const NOT_ALLOWED: [&str; 3] = ["derive", "serde", "schemars"];
        let meta = syn::parse_str::<syn::Meta>(value)?;
        if let Some(ident) = meta.path().get_ident()
            && NOT_ALLOWED.iter().any(|n| ident == n)
        {
            if ident == "derive" {
                return Err(Error::custom(
                    r#"#[derive(CustomResource)] `kube(attr = "...")` does not support to set derives, you likely want to use `kube(derive = "...")`."#,
                ));
            }
            return Err(Error::custom(format!(
                r#"#[derive(CustomResource)] `kube(attr = "...")` does not support to set the attributes {NOT_ALLOWED:?} as they might lead to unexpected behaviour.`"#
            )));
        }
        Ok(RootMeta(meta))
    }
}

/// `printcolumn(name = "...", type_ = "...", json_path = "...", ...)` or the column as
/// a JSON string.
struct KubePrintColumn(PrintColumnAttr);

/// A column in either form: darling reads the list, serde the JSON string.
#[derive(FromMeta, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct KubeColumn {
    name: String,
    #[serde(rename = "type")]
    type_: String,
    json_path: String,
    description: Option<String>,
    format: Option<String>,
    priority: Option<i32>,
}

impl From<KubeColumn> for KubePrintColumn {
    fn from(c: KubeColumn) -> Self {
        KubePrintColumn(PrintColumnAttr {
            name: c.name,
            type_: c.type_,
            json_path: c.json_path,
            description: c.description.unwrap_or_default(),
            format: c.format.unwrap_or_default(),
            priority: c.priority.unwrap_or_default(),
        })
    }
}

impl FromMeta for KubePrintColumn {
    fn from_string(value: &str) -> darling::Result<Self> {
        serde_json::from_str::<KubeColumn>(value)
            .map(Into::into)
            .map_err(Error::custom)
    }

    fn from_list(items: &[darling::ast::NestedMeta]) -> darling::Result<Self> {
        KubeColumn::from_list(items).map(Into::into)
    }
}

/// `scale(spec_replicas_path = "...", ...)` or the scale subresource as a JSON string.
struct KubeScale(ScaleAttr);

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct KubeScaleJson {
    spec_replicas_path: String,
    status_replicas_path: String,
    label_selector_path: Option<String>,
}

impl FromMeta for KubeScale {
    fn from_string(value: &str) -> darling::Result<Self> {
        let s: KubeScaleJson = serde_json::from_str(value).map_err(Error::custom)?;
        Ok(KubeScale(ScaleAttr {
            spec_replicas_path: s.spec_replicas_path,
            status_replicas_path: s.status_replicas_path,
            label_selector_path: s.label_selector_path,
        }))
    }

    fn from_list(items: &[darling::ast::NestedMeta]) -> darling::Result<Self> {
        ScaleAttr::from_list(items).map(KubeScale)
    }
}

/// What kube-derive has and `#[crd(...)]` has not.
pub struct KubeResource {
    /// `root = "FooCrd"`: the root type's name, when not the kind's.
    pub root: Option<SpannedValue<String>>,
    /// `no_spec`: the struct's fields are the root's own; the root still holds the
    /// struct as `spec`, flattened.
    pub no_spec: bool,
    /// `attr = "..."`: more attributes of the root type.
    pub attrs: Vec<syn::Meta>,
    pub schema: SchemaMode,
    /// `cel`: `validate_cel` and `validate_cel_update` on the root.
    pub cel: Option<Span>,
    /// `derive = "Default"`: written by hand (the metadata and spec defaulted), as
    /// kube-derive does.
    pub default: bool,
}

/// Reads `#[kube(...)]` into `input` (when present), and `#[x_kube(...)]` on the type
/// and its fields; their mistakes go to `errors`. Returns what only kube-derive has;
/// `None` without `#[kube(...)]`, or when it does not parse (then `input.broken`
/// says so).
pub fn read(
    di: &syn::DeriveInput,
    input: &mut TypeInput,
    errors: &mut darling::error::Accumulator,
) -> Option<KubeResource> {
    read_x_kube(input, errors);
    if !di.attrs.iter().any(|a| a.path().is_ident("kube")) {
        return None;
    }
    match KubeAttrs::from_derive_input(di) {
        Ok(k) => Some(apply(k, input, errors)),
        Err(e) => {
            errors.push(e);
            input.convention = super::attrs::Convention::Kube;
            input.broken.push("kube".into());
            None
        }
    }
}

fn apply(k: KubeAttrs, input: &mut TypeInput, errors: &mut darling::error::Accumulator) -> KubeResource {
    let r = &mut input.resource;
    let mut set = |name: &str, slot: &mut Option<SpannedValue<String>>, v: Option<SpannedValue<String>>| {
        if let Some(v) = v {
            if slot.is_some() {
                errors.push(
                    Error::custom(format!("`{name}` is given in both `#[kube]` and `#[crd]`")).with_span(&v.span()),
                );
            }
            *slot = Some(v);
        }
    };
    set("group", &mut r.group, Some(k.group));
    set("version", &mut r.version, Some(k.version));
    set("kind", &mut r.kind, Some(k.kind));
    set("plural", &mut r.plural, k.plural);
    set("singular", &mut r.singular, k.singular);
    set("doc", &mut r.doc, k.doc);
    if *k.namespaced {
        r.namespaced = Flag::from(true);
    }
    r.shortname.extend(k.shortname);
    r.category.extend(k.category);
    r.selectable.extend(k.selectable);
    r.annotation.extend(k.annotation);
    r.label.extend(k.label);
    if let Some(status) = k.status {
        let text = quote::quote!(#status).to_string().replace(' ', "");
        r.status = Some(syn::LitStr::new(&text, status.span()));
    }
    if let Some(scale) = k.scale {
        let span = scale.span();
        r.scale = Some(SpannedValue::new(scale.into_inner().0, span));
    }
    for c in k.printcolumn {
        let span = c.span();
        r.printcolumn.push(SpannedValue::new(c.into_inner().0, span));
    }
    r.served = Some(k.served);
    r.storage = Some(k.storage);
    match k.deprecated {
        None => {}
        Some(Override::Inherit) => r.deprecated = Flag::from(true),
        Some(Override::Explicit(warning)) => {
            r.deprecated = Flag::from(true);
            r.deprecation_warning = Some(warning);
        }
    }
    let mut default = false;
    for d in k.derive {
        if d.as_str() == "Default" {
            default = true;
        } else {
            r.derive.push(d);
        }
    }
    for v in &k.validation {
        match rule_from_expr(v) {
            Ok(rule) => r.root_rule.push(rule),
            Err(e) => errors.push(e),
        }
    }
    if *k.no_spec {
        r.fields_at_root = Flag::from(true);
    }
    let schema = k.schema.unwrap_or_default();
    let cel = (*k.cel).then(|| k.cel.span());
    if let Some(span) = cel
        && schema != SchemaMode::Derived
    {
        // At the derive, as kube-derive reports it.
        let _ = span;
        errors.push(Error::custom(
            "#[kube(cel)] requires a derived schema; it cannot be combined with `schema = \"manual\"`",
        ));
    }
    input.convention = super::attrs::Convention::Kube;
    KubeResource {
        root: k.root,
        no_spec: *k.no_spec,
        attrs: k.attr.into_iter().map(|m| m.0).collect(),
        schema,
        cel,
        default,
    }
}

/// `#[x_kube(...)]` on a type.
#[derive(Default, FromMeta)]
struct XKubeType {
    #[darling(multiple, with = parse_expr::preserve_str_literal)]
    validation: Vec<Expr>,
    cel: Flag,
    #[allow(dead_code)]
    crates: Option<Crates>,
}

/// `#[x_kube(...)]` on a field.
#[derive(Default, FromMeta)]
struct XKubeField {
    #[darling(multiple, with = parse_expr::preserve_str_literal)]
    validation: Vec<Expr>,
    merge_strategy: Option<Expr>,
}

/// The `#[x_kube(...)]` attributes among `attrs`, merged.
fn x_kube<T: FromMeta + Default>(attrs: &[syn::Attribute], errors: &mut darling::error::Accumulator) -> Option<T> {
    let metas: Vec<darling::ast::NestedMeta> = attrs
        .iter()
        .filter(|a| a.path().is_ident("x_kube"))
        .filter_map(|a| match &a.meta {
            syn::Meta::List(list) => {
                errors.handle(darling::ast::NestedMeta::parse_meta_list(list.tokens.clone()).map_err(Error::from))
            }
            other => {
                errors.push(Error::unsupported_format("x_kube without a list").with_span(other));
                None
            }
        })
        .flatten()
        .collect();
    if metas.is_empty() {
        return None;
    }
    errors.handle(T::from_list(&metas))
}

/// Writes `#[x_kube(...)]` rules and merge strategies into the type's and fields'
/// keywords.
fn read_x_kube(input: &mut TypeInput, errors: &mut darling::error::Accumulator) {
    if let Some(x) = x_kube::<XKubeType>(&input.attrs, errors) {
        for v in &x.validation {
            match rule_from_expr(v) {
                Ok(rule) => input.resource.keywords.rule.push(rule),
                Err(e) => errors.push(e),
            }
        }
        if x.cel.is_present() {
            input.cel = Some(x.cel.span());
        }
    }
    let darling::ast::Data::Struct(fields) = &mut input.data else {
        return;
    };
    for field in fields.fields.iter_mut() {
        // A field whose `#[x_kube(...)]` has a mistake lacks what it says.
        let mut field_errors = Error::accumulator();
        read_x_kube_field(field, &mut field_errors);
        let field_errors = field_errors.into_inner();
        field.broken |= !field_errors.is_empty();
        errors.extend(field_errors);
    }
}

/// `#[x_kube(...)]` on a field: its rules and merge strategy.
fn read_x_kube_field(field: &mut super::attrs::FieldInput, errors: &mut darling::error::Accumulator) {
    {
        let Some(x) = x_kube::<XKubeField>(&field.attrs, errors) else {
            return;
        };
        for v in &x.validation {
            match rule_from_expr(v) {
                Ok(rule) => field.keywords.rule.push(rule),
                Err(e) => errors.push(e),
            }
        }
        if let Some(m) = &x.merge_strategy {
            match merge_strategy(m) {
                Ok(MergeStrategy::List(t, keys)) => {
                    field.keywords.list_type = Some(SpannedValue::new(t.to_string(), m.span()));
                    if let Some(keys) = keys {
                        let keys = serde_json::Value::from(keys);
                        field.keywords.list_map_keys = Some(SpannedValue::new(super::attrs::Json(keys), m.span()));
                    }
                }
                Ok(MergeStrategy::Map(t)) => field.keywords.map_type = Some(SpannedValue::new(t.to_string(), m.span())),
                // kube-derive writes `x-kubernetes-struct-type`, which its CRD type does
                // not hold: its `crd()` drops it, and so do we.
                Ok(MergeStrategy::Struct) => {}
                Err(e) => errors.push(e),
            }
        }
    }
}

enum MergeStrategy {
    List(&'static str, Option<Vec<String>>),
    Map(&'static str),
    Struct,
}

/// `ListMerge::Set`, `ListMerge::Map(vec!["name".into()])`, `MapMerge::Atomic`, ...
fn merge_strategy(e: &Expr) -> darling::Result<MergeStrategy> {
    let wrong = || {
        Error::custom(
            "a merge strategy: `ListMerge::Atomic`, `ListMerge::Set`, `ListMerge::Map(vec![\"key\".into()])`, \
             `MapMerge::Atomic`, `MapMerge::Granular`, `StructMerge::Atomic` or `StructMerge::Granular`",
        )
        .with_span(e)
    };
    let (path, args) = match e {
        Expr::Path(p) => (&p.path, None),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => (&p.path, Some(&c.args)),
            _ => return Err(wrong()),
        },
        _ => return Err(wrong()),
    };
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let [.., ty, variant] = names.as_slice() else {
        return Err(wrong());
    };
    Ok(match (ty.as_str(), variant.as_str(), args) {
        ("ListMerge", "Atomic", None) => MergeStrategy::List("atomic", None),
        ("ListMerge", "Set", None) => MergeStrategy::List("set", None),
        ("ListMerge", "Map", Some(args)) if args.len() == 1 => {
            let keys = string_list(&args[0]).ok_or_else(wrong)?;
            MergeStrategy::List("map", Some(keys))
        }
        ("MapMerge", "Atomic", None) => MergeStrategy::Map("atomic"),
        ("MapMerge", "Granular", None) => MergeStrategy::Map("granular"),
        ("StructMerge", "Atomic" | "Granular", None) => MergeStrategy::Struct,
        _ => return Err(wrong()),
    })
}

/// `vec!["a".into(), "b".to_string()]` or `["a", "b"]`.
fn string_list(e: &Expr) -> Option<Vec<String>> {
    match e {
        Expr::Macro(m) if m.mac.path.is_ident("vec") => {
            let list: syn::punctuated::Punctuated<Expr, syn::Token![,]> = m
                .mac
                .parse_body_with(syn::punctuated::Punctuated::parse_terminated)
                .ok()?;
            list.iter().map(string_value).collect()
        }
        Expr::Array(a) => a.elems.iter().map(string_value).collect(),
        Expr::Reference(r) => string_list(&r.expr),
        _ => None,
    }
}

/// A string written as a literal, with `.into()`, `.to_string()`, `.to_owned()` or
/// `String::from(...)` around it.
fn string_value(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
        Expr::Group(g) => string_value(&g.expr),
        Expr::Paren(p) => string_value(&p.expr),
        Expr::MethodCall(m)
            if m.args.is_empty() && matches!(m.method.to_string().as_str(), "into" | "to_string" | "to_owned") =>
        {
            string_value(&m.receiver)
        }
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from")) =>
        {
            string_value(&c.args[0])
        }
        _ => None,
    }
}

/// A kube-derive rule, as written in `validation = ...`: a string (the rule), a
/// `(rule, message)` tuple, or `Rule::new(rule)` with `.message(...)`, `.reason(...)`,
/// `.field_path(...)` and `.optional_old_self(...)`. kube-derive evaluates these when
/// `crd()` runs; they are read here so that the rule is compiled and checked.
pub fn rule_from_expr(e: &Expr) -> darling::Result<RuleAttr> {
    let wrong = |at: &dyn Spanned, what: &str| {
        Error::custom(format!(
            "{what}: write the rule as a string, a `(rule, message)` pair or `Rule::new(\"...\")` \
             with `.message(...)`, `.reason(...)`, `.field_path(...)`, `.optional_old_self(...)`"
        ))
        .with_span(&at.span())
    };
    // Rules are compiled at build time from the text written in the attribute: what
    // only run time gives (a call, a constant) cannot be one.
    let text = |e: &Expr| {
        string_value(e).ok_or_else(|| {
            wrong(
                e,
                "expected a string literal (rules are compiled from the text written here)",
            )
        })
    };
    let mut rule = RuleAttr {
        rule: SpannedValue::new(String::new(), e.span()),
        message: None,
        message_expression: None,
        reason: None,
        field_path: None,
        optional_old_self: Flag::default(),
    };
    match e {
        Expr::Tuple(t) if t.elems.len() == 2 => {
            rule.rule = SpannedValue::new(text(&t.elems[0])?, t.elems[0].span());
            rule.message = Some(text(&t.elems[1])?);
            return Ok(rule);
        }
        Expr::Paren(p) => return rule_from_expr(&p.expr),
        Expr::Group(g) => return rule_from_expr(&g.expr),
        _ => {}
    }
    if let Some(s) = string_value(e) {
        rule.rule = SpannedValue::new(s, e.span());
        return Ok(rule);
    }
    // `Rule::new(rule).a(..).b(..)`: the calls, outermost first.
    let mut calls = Vec::new();
    let mut at = e;
    while let Expr::MethodCall(m) = at {
        calls.push(m);
        at = &m.receiver;
    }
    let Expr::Call(new) = at else {
        return Err(wrong(e, "not a rule"));
    };
    let is_new = matches!(&*new.func, Expr::Path(p) if {
        let names: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        names.ends_with(&["Rule".to_string(), "new".to_string()])
    });
    if !is_new || new.args.len() != 1 {
        return Err(wrong(
            at,
            "not `Rule::new(\"...\")` (rules are compiled from the text written here, so a call cannot give one)",
        ));
    }
    rule.rule = SpannedValue::new(text(&new.args[0])?, new.args[0].span());
    for call in calls.into_iter().rev() {
        let arg = match call.args.iter().collect::<Vec<_>>().as_slice() {
            [arg] => *arg,
            _ => return Err(wrong(call, "expected one argument")),
        };
        match call.method.to_string().as_str() {
            "message" => match message(arg) {
                Some(Message::Text(m)) => rule.message = Some(m),
                Some(Message::Expression(m)) => rule.message_expression = Some(m),
                None => {
                    return Err(wrong(
                        arg,
                        "expected a string, `Message::Message(..)` or `Message::Expression(..)`",
                    ));
                }
            },
            "reason" => {
                let reason = reason(arg)
                    .ok_or_else(|| wrong(arg, "expected `Reason::FieldValueInvalid` or another `Reason`"))?;
                rule.reason = Some(SpannedValue::new(reason, arg.span()));
            }
            "field_path" => rule.field_path = Some(text(arg)?),
            "optional_old_self" => match arg {
                Expr::Lit(syn::ExprLit { lit: Lit::Bool(b), .. }) => rule.optional_old_self = Flag::from(b.value),
                _ => return Err(wrong(arg, "expected `true` or `false`")),
            },
            other => return Err(wrong(&call.method, &format!("`Rule` has no `{other}`"))),
        }
    }
    Ok(rule)
}

enum Message {
    Text(String),
    Expression(String),
}

fn message(e: &Expr) -> Option<Message> {
    if let Some(s) = string_value(e) {
        return Some(Message::Text(s));
    }
    let e = match e {
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "into" => &*m.receiver,
        other => other,
    };
    let Expr::Call(c) = e else { return None };
    let Expr::Path(p) = &*c.func else { return None };
    let variant = p.path.segments.last()?.ident.to_string();
    let value = string_value(c.args.first()?)?;
    match variant.as_str() {
        "Message" => Some(Message::Text(value)),
        "Expression" => Some(Message::Expression(value)),
        _ => None,
    }
}

fn reason(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => {
            let v = p.path.segments.last()?.ident.to_string();
            matches!(
                v.as_str(),
                "FieldValueInvalid" | "FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate"
            )
            .then_some(v)
        }
        // `Reason::default()`.
        Expr::Call(c) if c.args.is_empty() => match &*c.func {
            Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "default") => {
                Some("FieldValueInvalid".into())
            }
            _ => None,
        },
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "into" => reason(&m.receiver),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(src: &str) -> RuleAttr {
        rule_from_expr(&syn::parse_str(src).unwrap()).unwrap_or_else(|e| panic!("{src}: {e}"))
    }

    #[test]
    fn reads_each_form_of_a_kube_rule() {
        assert_eq!(*rule(r#""self > 0""#).rule, "self > 0");
        let r = rule(r#"("self != 'x'", "some reason")"#);
        assert_eq!(
            (r.rule.as_str(), r.message.as_deref()),
            ("self != 'x'", Some("some reason"))
        );
        let r = rule(
            r#"Rule::new("self != 'illegal'").message(Message::Expression("'string cannot be illegal'".into())).reason(Reason::FieldValueForbidden)"#,
        );
        assert_eq!(r.message_expression.as_deref(), Some("'string cannot be illegal'"));
        assert_eq!(r.reason.as_deref().map(String::as_str), Some("FieldValueForbidden"));
        let r = rule(
            r#"Rule::new("oldSelf.optMap(o, o == self).orValue(true)").optional_old_self(true).message("Immutable after creation")"#,
        );
        assert!(r.optional_old_self.is_present());
        assert_eq!(r.message.as_deref(), Some("Immutable after creation"));
        let r = rule(r#"kube::core::Rule::new("self == oldSelf").field_path(".a").reason(Reason::default())"#);
        assert_eq!(
            (r.field_path.as_deref(), r.reason.as_deref().map(String::as_str)),
            (Some(".a"), Some("FieldValueInvalid"))
        );
    }

    #[test]
    fn refuses_what_it_cannot_read_at_the_expression() {
        for src in [
            "rule_fn()",
            r#"Rule::new(name)"#,
            r#"Rule::new("a").colour("red")"#,
            r#"Rule::new("a").reason(r)"#,
        ] {
            assert!(rule_from_expr(&syn::parse_str(src).unwrap()).is_err(), "{src}");
        }
    }

    #[test]
    fn reads_merge_strategies() {
        let m = |src: &str| merge_strategy(&syn::parse_str(src).unwrap());
        assert!(matches!(m("ListMerge::Set"), Ok(MergeStrategy::List("set", None))));
        assert!(
            matches!(m(r#"ListMerge::Map(vec!["name".into(), "port".to_string()])"#),
            Ok(MergeStrategy::List("map", Some(k))) if k == ["name", "port"])
        );
        assert!(matches!(
            m("kube::core::MapMerge::Granular"),
            Ok(MergeStrategy::Map("granular"))
        ));
        assert!(m("Set").is_err());
    }
}
