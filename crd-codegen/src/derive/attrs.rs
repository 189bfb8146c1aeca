//! The derive's input, parsed once: `#[crd(...)]` with darling, `#[serde(...)]` and doc
//! comments by hand. Nothing here knows about schemas; [`super::lower`] turns this
//! into the IR.

// darling's `FromMeta` expansions use `unreachable!` for their own invariants.
#![allow(clippy::unreachable)]

use darling::util::{Flag, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use proc_macro2::{Span, TokenStream, TokenTree};
use serde_json::Value;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Lit, LitStr, Token};

/// Whose conventions a type's schema follows where the two spellings differ (see
/// README "Coming from kube-derive"): controller-gen's for `#[crd(...)]`, kube-derive's
/// for `#[kube(...)]` and `#[derive(KubeSchema)]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Convention {
    #[default]
    ControllerGen,
    Kube,
}

/// An annotated struct or enum.
#[derive(FromDeriveInput)]
#[darling(
    attributes(crd),
    forward_attrs(doc, serde, kube, x_kube, schemars, validate, garde),
    supports(struct_named, enum_unit, enum_named, enum_newtype)
)]
pub struct TypeInput {
    pub ident: Ident,
    pub generics: syn::Generics,
    pub data: darling::ast::Data<VariantInput, FieldInput>,
    pub attrs: Vec<Attribute>,
    /// `convert_from = "super::v1::WidgetSpec"`: the types of other versions this one
    /// is built from, field by field (`crd_runtime::ConvertFrom`).
    #[darling(multiple)]
    pub convert_from: Vec<SpannedValue<String>>,
    /// The CRD-level attributes and, inside, the type's schema keywords.
    #[darling(flatten)]
    pub resource: ResourceAttrs,
    /// Set by the spelling read (see [`super::kube`]).
    #[darling(skip)]
    pub convention: Convention,
    /// `#[x_kube(cel)]`: a `validate_cel(value, old)` of the type's own.
    #[darling(skip)]
    pub cel: Option<Span>,
    /// The names of the type's own `#[crd(...)]` arguments that did not parse, and
    /// `kube` when `#[kube(...)]` did not (see [`super::partial`]).
    #[darling(skip)]
    pub broken: Vec<String>,
}

/// The CRD-level attributes, valid only with `#[derive(CustomResource)]`.
#[derive(Default, FromMeta)]
pub struct ResourceAttrs {
    pub group: Option<SpannedValue<String>>,
    pub version: Option<SpannedValue<String>>,
    pub kind: Option<SpannedValue<String>>,
    pub namespaced: Flag,
    pub plural: Option<SpannedValue<String>>,
    pub singular: Option<SpannedValue<String>>,
    #[darling(multiple)]
    pub shortname: Vec<SpannedValue<String>>,
    #[darling(multiple)]
    pub category: Vec<SpannedValue<String>>,
    /// `status = "FooStatus"`.
    pub status: Option<LitStr>,
    pub scale: Option<SpannedValue<ScaleAttr>>,
    #[darling(multiple)]
    pub printcolumn: Vec<SpannedValue<PrintColumnAttr>>,
    #[darling(multiple)]
    pub selectable: Vec<SpannedValue<String>>,
    pub served: Option<bool>,
    pub storage: Option<bool>,
    pub deprecated: Flag,
    pub deprecation_warning: Option<String>,
    #[darling(multiple)]
    pub annotation: Vec<KeyValue>,
    #[darling(multiple)]
    pub label: Vec<KeyValue>,
    /// The root's `spec` may be absent (`Option<Spec>`), as in the seed CronTab;
    /// without it `spec` is required, as kube-derive makes it.
    pub optional_spec: Flag,
    /// The struct's fields are the root's own (beside `metadata`), not a `spec`: for
    /// kinds without `spec`, or with more root fields than `spec` and `status`. The
    /// root type holds them as `fields`, flattened.
    pub fields_at_root: Flag,
    /// The root schema's description (and the root type's doc comment).
    pub doc: Option<SpannedValue<String>>,
    /// `x-kubernetes-validations` of the root schema, where `self` is the whole object.
    #[darling(multiple)]
    pub root_rule: Vec<RuleAttr>,
    /// The root lists `apiVersion` and `kind` with controller-gen's descriptions and
    /// `metadata` as an object, as controller-gen writes them.
    pub type_meta: Flag,
    /// The root's `apiVersion`, `kind` and `metadata` schemas written out as JSON,
    /// where they are not [`type_meta`](Self::type_meta)'s.
    pub root_properties: Option<SpannedValue<Json>>,
    /// `metadata` is among the root's `required`.
    pub metadata_required: Flag,
    /// `names.listKind`, when not `<Kind>List`.
    pub list_kind: Option<SpannedValue<String>>,
    /// The `status` property's default.
    pub status_default: Option<SpannedValue<Json>>,
    /// Whether the status subresource is on; by default exactly when `status` is given.
    pub status_subresource: Option<SpannedValue<bool>>,
    /// `spec.conversion.webhook` as JSON (`clientConfig`, `conversionReviewVersions`):
    /// the `Webhook` conversion strategy.
    pub conversion_webhook: Option<SpannedValue<Json>>,
    /// More derives for the root type (it always derives `Clone`, `Debug`, `Serialize`,
    /// `Deserialize`), e.g. `derive = "PartialEq"`.
    #[darling(multiple)]
    pub derive: Vec<SpannedValue<String>>,
    /// The schema keywords of the type itself.
    #[darling(flatten)]
    pub keywords: Keywords,
}

#[derive(FromMeta)]
pub struct ScaleAttr {
    pub spec_replicas_path: String,
    pub status_replicas_path: String,
    pub label_selector_path: Option<String>,
}

#[derive(FromMeta)]
pub struct PrintColumnAttr {
    pub name: String,
    #[darling(rename = "type")]
    pub type_: String,
    pub json_path: String,
    #[darling(default)]
    pub description: String,
    #[darling(default)]
    pub format: String,
    #[darling(default)]
    pub priority: i32,
}

/// `annotation("key", "value")`, as kube-derive spells it.
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

impl FromMeta for KeyValue {
    fn from_list(items: &[darling::ast::NestedMeta]) -> darling::Result<Self> {
        let strings: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                darling::ast::NestedMeta::Lit(Lit::Str(s)) => Some(s.value()),
                _ => None,
            })
            .collect();
        match <[String; 2]>::try_from(strings) {
            Ok([key, value]) if items.len() == 2 => Ok(KeyValue { key, value }),
            _ => Err(darling::Error::custom("expected two strings: (\"key\", \"value\")")),
        }
    }
}

/// `rule(rule = "...", message = "...", ...)`: one `x-kubernetes-validations` entry.
#[derive(Clone, FromMeta)]
pub struct RuleAttr {
    pub rule: SpannedValue<String>,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    pub reason: Option<SpannedValue<String>>,
    pub field_path: Option<String>,
    pub optional_old_self: Flag,
}

/// The schema keywords, on a type, a field or (`items(...)`) an array's items.
#[derive(Default, FromMeta)]
pub struct Keywords {
    #[darling(flatten)]
    pub value_keywords: ValueKeywords,
    /// `ignored(pattern = "...")`: value keywords of another type than the node's,
    /// which the API server accepts and ignores ([`crate::ir::ValueKeyword`]), written
    /// into the CRD as given. Outside this group such a keyword is an error, as it is
    /// almost always a mistake.
    pub ignored: Option<SpannedValue<ValueKeywords>>,
    pub format: Option<SpannedValue<String>>,
    #[darling(rename = "enum")]
    pub enum_: Option<SpannedValue<Json>>,
    pub default: Option<SpannedValue<Json>>,
    pub example: Option<Json>,
    pub title: Option<String>,
    pub nullable: Flag,
    pub preserve_unknown_fields: Flag,
    pub embedded_resource: Flag,
    pub int_or_string: Flag,
    pub schemaless: Flag,
    pub list_type: Option<SpannedValue<String>>,
    pub list_map_keys: Option<SpannedValue<Json>>,
    pub map_type: Option<SpannedValue<String>>,
    #[darling(multiple)]
    pub rule: Vec<RuleAttr>,
    pub items: Option<SpannedValue<Box<Keywords>>>,
    /// Keywords of a map's values (`additionalProperties`).
    pub values: Option<SpannedValue<Box<Keywords>>>,
    /// The description, where no doc comment gives it (array items, map values).
    pub description: Option<String>,
    /// `externalDocs`, as JSON.
    pub external_docs: Option<Json>,
    /// Junctors, their branches as JSON schemas (`json!([{"required": ["a"]}, ...])`).
    pub all_of: Option<SpannedValue<Json>>,
    pub any_of: Option<SpannedValue<Json>>,
    pub one_of: Option<SpannedValue<Json>>,
    pub not: Option<SpannedValue<Json>>,
    #[darling(multiple)]
    pub exactly_one_of: Vec<SpannedValue<Json>>,
    #[darling(multiple)]
    pub at_most_one_of: Vec<SpannedValue<Json>>,
    #[darling(multiple)]
    pub at_least_one_of: Vec<SpannedValue<Json>>,
    pub immutable: Flag,
    pub required: Flag,
    pub optional: Flag,
    /// A type's `required` in this order rather than the fields' order (the API
    /// server reports missing fields in `required` order).
    pub required_order: Option<SpannedValue<Names>>,
}

/// The keywords that check values of some types only ([`crate::ir::ValueKeyword`]).
#[derive(Default, FromMeta)]
pub struct ValueKeywords {
    pub minimum: Option<SpannedValue<Json>>,
    pub maximum: Option<SpannedValue<Json>>,
    pub exclusive_minimum: Flag,
    pub exclusive_maximum: Flag,
    pub multiple_of: Option<SpannedValue<Json>>,
    pub min_length: Option<SpannedValue<i64>>,
    pub max_length: Option<SpannedValue<i64>>,
    pub min_items: Option<SpannedValue<i64>>,
    pub max_items: Option<SpannedValue<i64>>,
    pub min_properties: Option<SpannedValue<i64>>,
    pub max_properties: Option<SpannedValue<i64>>,
    pub pattern: Option<SpannedValue<String>>,
}

#[derive(FromField)]
#[darling(attributes(crd), forward_attrs(doc, serde, x_kube, schemars, validate, garde))]
pub struct FieldInput {
    pub ident: Option<Ident>,
    pub ty: syn::Type,
    pub attrs: Vec<Attribute>,
    /// Some of its `#[crd(...)]` or `#[x_kube(...)]` arguments did not parse (see
    /// [`super::partial`]): its schema lacks what they say.
    #[darling(skip)]
    pub broken: bool,
    /// How the field is built from another version's type, where not from the field of
    /// the same name.
    #[darling(multiple)]
    pub convert: Vec<SpannedValue<ConvertAttr>>,
    #[darling(flatten)]
    pub keywords: Keywords,
}

/// `convert(from = "super::v1::WidgetSpec", field = "old_name")` or `convert(from =
/// "...", with = "path::to::function")`: the field's value built from a renamed field
/// of the source, or by a function of the whole source struct (a hook). `from` may be
/// left out when the type has one `convert_from`.
#[derive(FromMeta)]
pub struct ConvertAttr {
    pub from: Option<SpannedValue<String>>,
    pub field: Option<SpannedValue<String>>,
    pub with: Option<SpannedValue<String>>,
}

#[derive(FromVariant)]
#[darling(attributes(crd), forward_attrs(doc, serde, schemars))]
pub struct VariantInput {
    pub ident: Ident,
    pub attrs: Vec<Attribute>,
    pub fields: darling::ast::Fields<FieldInput>,
}

/// A JSON value written as a Rust expression: literals (`1`, `-2.5`, `"x"`, `true`),
/// arrays (`["a", "b"]`), `null`, or `json!(...)` for anything (objects).
#[derive(Clone, Debug)]
pub struct Json(pub Value);

/// A list of string literals: `required_order("b", "a")`.
#[derive(Debug, Clone)]
pub struct Names(pub Vec<String>);

impl FromMeta for Names {
    fn from_list(items: &[darling::ast::NestedMeta]) -> darling::Result<Self> {
        items
            .iter()
            .map(|item| match item {
                darling::ast::NestedMeta::Lit(syn::Lit::Str(s)) => Ok(s.value()),
                other => Err(darling::Error::custom("expected a string literal").with_span(other)),
            })
            .collect::<darling::Result<_>>()
            .map(Names)
    }
}

impl FromMeta for Json {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        expr_json(expr)
            .map(Json)
            .map_err(|m| darling::Error::custom(m).with_span(expr))
    }
}

fn expr_json(expr: &Expr) -> Result<Value, String> {
    match expr {
        Expr::Lit(l) => lit_json(&l.lit),
        Expr::Group(g) => expr_json(&g.expr),
        Expr::Paren(p) => expr_json(&p.expr),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match expr_json(&u.expr)? {
            Value::Number(n) => negate(&n.to_string()),
            _ => Err("`-` applies to numbers only".into()),
        },
        Expr::Array(a) => a
            .elems
            .iter()
            .map(expr_json)
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Expr::Path(p) if p.path.is_ident("null") => Ok(Value::Null),
        Expr::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "json") => {
            tokens_json(m.mac.tokens.clone())
        }
        _ => Err("expected a JSON value: a literal, an array, `null` or `json!(...)`".into()),
    }
}

fn negate(n: &str) -> Result<Value, String> {
    serde_json::from_str(&format!("-{n}")).map_err(|e| e.to_string())
}

fn lit_json(lit: &Lit) -> Result<Value, String> {
    match lit {
        Lit::Str(s) => Ok(Value::String(s.value())),
        Lit::Bool(b) => Ok(Value::Bool(b.value)),
        Lit::Int(i) => {
            let digits = i.base10_digits();
            serde_json::from_str(digits).map_err(|e| e.to_string())
        }
        Lit::Float(f) => {
            let n: f64 = f.base10_parse().map_err(|e| e.to_string())?;
            serde_json::Number::from_f64(n)
                .map(Value::Number)
                .ok_or_else(|| "not a finite number".into())
        }
        _ => Err("expected a string, number or boolean".into()),
    }
}

/// The tokens of `json!(...)` read as JSON: Rust tokenizes JSON text closely enough
/// (strings, numbers, `true`/`false`/`null`, `[]`, `{}`, `:`, `,`, `-`).
fn tokens_json(tokens: TokenStream) -> Result<Value, String> {
    let mut text = String::new();
    write_json_tokens(tokens, &mut text)?;
    serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))
}

fn write_json_tokens(tokens: TokenStream, out: &mut String) -> Result<(), String> {
    for t in tokens {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    proc_macro2::Delimiter::Brace => ('{', '}'),
                    proc_macro2::Delimiter::Bracket => ('[', ']'),
                    proc_macro2::Delimiter::Parenthesis | proc_macro2::Delimiter::None => (' ', ' '),
                };
                out.push(open);
                write_json_tokens(g.stream(), out)?;
                out.push(close);
            }
            TokenTree::Literal(l) => {
                let lit = Lit::new(l);
                let v = lit_json(&lit)?;
                out.push_str(&v.to_string());
            }
            other => out.push_str(&other.to_string()),
        }
    }
    Ok(())
}

/// What `#[serde(...)]` says about a container, field or variant.
#[derive(Default)]
pub struct SerdeAttrs {
    pub rename: Option<String>,
    pub rename_all: Option<(String, Span)>,
    pub default: bool,
    /// `default = "path"`: the function giving the default.
    pub default_path: Option<syn::ExprPath>,
    /// `skip_serializing_if = "path"`.
    pub skip_serializing_if: Option<syn::ExprPath>,
    pub skip: bool,
    pub flatten: bool,
    /// `rename_all_fields`: `rename_all` for the fields of every variant.
    pub rename_all_fields: Option<(String, Span)>,
    /// `tag = "..."`: internally tagged (adjacently with `content`).
    pub tag: Option<(String, Span)>,
    /// `content = "..."`: adjacently tagged, the variant's data under this name.
    pub content: Option<(String, Span)>,
    pub untagged: Option<Span>,
}

impl SerdeAttrs {
    pub fn parse(attrs: &[Attribute]) -> syn::Result<SerdeAttrs> {
        let mut out = SerdeAttrs::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
            attr.parse_nested_meta(|meta| {
                let name = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                match name.as_str() {
                    "rename" if meta.input.peek(Token![=]) => {
                        out.rename = Some(meta.value()?.parse::<LitStr>()?.value());
                    }
                    "rename_all" if meta.input.peek(Token![=]) => {
                        let lit = meta.value()?.parse::<LitStr>()?;
                        out.rename_all = Some((lit.value(), lit.span()));
                    }
                    "default" => {
                        out.default = true;
                        if meta.input.peek(Token![=]) {
                            let lit = meta.value()?.parse::<LitStr>()?;
                            out.default_path = Some(lit.parse()?);
                        }
                    }
                    "skip_serializing_if" if meta.input.peek(Token![=]) => {
                        let lit = meta.value()?.parse::<LitStr>()?;
                        out.skip_serializing_if = Some(lit.parse()?);
                    }
                    "skip" | "skip_deserializing" => out.skip = true,
                    "flatten" => out.flatten = true,
                    "tag" if meta.input.peek(Token![=]) => {
                        let lit = meta.value()?.parse::<LitStr>()?;
                        out.tag = Some((lit.value(), lit.span()));
                    }
                    "content" if meta.input.peek(Token![=]) => {
                        let lit = meta.value()?.parse::<LitStr>()?;
                        out.content = Some((lit.value(), lit.span()));
                    }
                    "untagged" => out.untagged = Some(meta.path.span()),
                    "rename_all_fields" if meta.input.peek(Token![=]) => {
                        let lit = meta.value()?.parse::<LitStr>()?;
                        out.rename_all_fields = Some((lit.value(), lit.span()));
                    }
                    _ => skip_value(&meta)?,
                }
                Ok(())
            })?;
        }
        Ok(out)
    }
}

/// What `#[schemars(...)]` says about a field's name and presence; whether it says
/// anything else (then the field's schema is schemars' own, see `lower`).
#[derive(Default)]
pub struct SchemarsAttrs {
    pub rename: Option<String>,
    pub skip: bool,
    /// Any other `#[schemars(...)]` key.
    pub other: Option<Span>,
    /// Whether schemars takes the field for an `Option` (not required): its own type
    /// decides, unless `with = "T"` names another (then `T` does) or `schema_with`
    /// gives the schema (then it is not one).
    pub option_by: OptionBy,
    /// `required` in `#[schemars(...)]`, validator's `#[validate(...)]` or garde's
    /// `#[garde(...)]`: schemars then requires the field even when it is an `Option`.
    pub required: bool,
}

/// Whose type schemars asks whether a field is an `Option` (see
/// [`SchemarsAttrs::option_by`]).
#[derive(Default)]
pub enum OptionBy {
    #[default]
    FieldType,
    /// `with = "T"`: whether `T` is an `Option`.
    With(bool),
    /// `schema_with = "f"`: never.
    SchemaWith,
}

impl SchemarsAttrs {
    pub fn parse(attrs: &[Attribute]) -> syn::Result<SchemarsAttrs> {
        let mut out = SchemarsAttrs::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
            attr.parse_nested_meta(|meta| {
                let name = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                match name.as_str() {
                    "rename" if meta.input.peek(Token![=]) => {
                        out.rename = Some(meta.value()?.parse::<LitStr>()?.value());
                    }
                    "skip" | "skip_deserializing" => out.skip = true,
                    "required" => {
                        out.other.get_or_insert(meta.path.span());
                        out.required = true;
                    }
                    "with" if meta.input.peek(Token![=]) => {
                        out.other.get_or_insert(meta.path.span());
                        let ty: syn::Type = meta.value()?.parse::<LitStr>()?.parse()?;
                        out.option_by = OptionBy::With(super::lower::strip_options(&ty).0 > 0);
                    }
                    "schema_with" => {
                        out.other.get_or_insert(meta.path.span());
                        out.option_by = OptionBy::SchemaWith;
                        skip_value(&meta)?;
                    }
                    _ => {
                        out.other.get_or_insert(meta.path.span());
                        skip_value(&meta)?;
                    }
                }
                Ok(())
            })?;
        }
        // validator's and garde's attributes are theirs to check: only `required` is
        // looked for, and what does not parse is left to them.
        for attr in attrs
            .iter()
            .filter(|a| a.path().is_ident("validate") || a.path().is_ident("garde"))
        {
            let _ = attr.parse_nested_meta(|meta| {
                out.required |= meta.path.is_ident("required");
                skip_value(&meta)
            });
        }
        Ok(out)
    }
}

/// Consumes `= value` or `(...)` after a serde attribute we do not read.
fn skip_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        // Any tokens: `extend("x-key" = 1)` is not a list of paths.
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

/// The doc comment's text: lines joined with newlines, the one leading space of
/// `/// text` removed, surrounding blank lines dropped.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|s| {
            // `#[doc = ""]` (a bare `///`) is a blank line too.
            let lines: Vec<&str> = if s.is_empty() { vec![""] } else { s.lines().collect() };
            lines
                .into_iter()
                .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let text = lines.join("\n");
    let text = text.trim_matches('\n');
    (!text.is_empty()).then(|| text.to_string())
}
