//! The parsed derive input → the IR: the annotated type's own schema node, with each
//! field type this crate does not know (another annotated type) left as a
//! [`ir::Schema::rust_type`] reference, and for `#[derive(CustomResource)]` the CRD.
//!
//! The Go-type → schema mapping mirrors controller-gen's (`schema.go`,
//! `known_types.go`), with Rust's types in place of Go's.

use super::attrs::{
    Convention, FieldInput, Json, Keywords, OptionBy, RuleAttr, SchemarsAttrs, SerdeAttrs, TypeInput, ValueKeywords,
    doc_text,
};
use crate::conventions::{rename_field, rename_variant};
use crate::ir::{self, AdditionalProperties, ListType, MapType, Schema, Type, ValueKeyword};
use darling::util::{Flag, SpannedValue};
use darling::{Error, Result};
use proc_macro2::Span;
use serde_json::Value;

/// One annotated type, lowered.
pub struct Lowered {
    pub ident: syn::Ident,
    /// The type's own schema node.
    pub schema: Schema,
    /// The field types behind each [`Schema::rust_type`] index.
    pub foreign: Vec<syn::Type>,
    /// Property name → the span of the field that made it, for messages.
    pub field_spans: Vec<(String, Span)>,
    /// Property name → the Rust field that made it, for messages.
    pub field_names: Vec<(String, String)>,
    /// The span of what made each of the type's own rules, in order.
    pub rule_spans: Vec<Span>,
    /// Every field type is known to derive `CrdSchema` (crd-runtime's own impls of
    /// k8s-openapi types): named directly, not through an adapter choosing between
    /// compiled and interpreted schemas.
    pub known_field_types: bool,
    /// Whose conventions the schema follows.
    pub convention: Convention,
    /// Defaults known only at run time (kube-derive's: the serialized value of a
    /// `#[serde(default)]`), each an expression of type `serde_json::Value`, `null`
    /// for none; the schema holds `{"x-crd-rust-default": n}` in their place.
    pub runtime_defaults: Vec<proc_macro2::TokenStream>,
    /// Fields whose schema is schemars' (they carry `#[schemars]`, `#[validate]` or
    /// `#[garde]` attributes): foreign type index → the field as written, for a
    /// one-field struct deriving `JsonSchema` whose property is the field's schema.
    pub shadows: Vec<(usize, proc_macro2::TokenStream)>,
    /// Field types whose node, in kube-derive's conventions, is published as schemars
    /// writes the property (see `crd_runtime::__private::from_schemars::property_for`):
    /// foreign type index → the field's whole type (its `Option` included), its doc
    /// comment, and whether it is optional.
    pub published: Vec<(usize, syn::Type, Option<String>, bool)>,
    /// In kube-derive's conventions, an enum whose schema no structural schema holds:
    /// why not (each a warning at its span). Its schema is then its own
    /// `schemars::JsonSchema`'s (foreign type 0), on which `crd()` panics as
    /// kube-derive's does.
    pub own_json_schema: Vec<(String, Span)>,
    /// `#[serde(flatten)]` fields in kube-derive's conventions: their types' schemas
    /// (foreign type indexes) are merged into the type's node when it is composed,
    /// as schemars flattens them.
    pub flattened: Vec<usize>,
    /// The definitions of the structs `#[serde(flatten)]` fields and generic field
    /// types name, as written (handed over by their macros, see [`super::flatten`]).
    sources: Vec<syn::DeriveInput>,
    /// The types being lowered now (`Range<i32>`, or a flattened `Common`): one met
    /// again inside itself is a type that contains itself.
    expanding: Vec<String>,
    /// Properties whose fields have a mistake (reported): their schemas lack what the
    /// mistake left out, so the API server's checks take them as stand-ins, as they
    /// take field types, and report nothing that follows from the mistake.
    pub unknown: Vec<String>,
    /// A mistake (reported) left out part of the schema where no stand-in can go (the
    /// type's own arguments, a variant, a field without a name): the API server's
    /// checks are not run until it is fixed.
    pub unchecked: bool,
}

/// The pattern controller-gen gives `resource.Quantity`.
const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

/// Lowers a struct or enum; `sources` holds the definitions of the structs its
/// `#[serde(flatten)]` fields and generic field types name. Every mistake found goes
/// to `errors`, each at its span; what the mistakes leave out is marked in
/// [`Lowered::unknown`] and [`Lowered::unchecked`].
pub fn lower_type(
    input: &TypeInput,
    sources: Vec<syn::DeriveInput>,
    errors: &mut darling::error::Accumulator,
) -> Lowered {
    let serde = errors.handle(SerdeAttrs::parse(&input.attrs).map_err(Error::from));
    let serde = serde.unwrap_or_default();
    // (A generic struct with `CrdSchema` is not lowered: its uses are.)
    if let Some(p) = input.generics.params.first() {
        let why = match input.data {
            darling::ast::Data::Enum(_) => {
                "a generic enum has no schema: only generic structs are derived where they are used"
            }
            darling::ast::Data::Struct(_) => "a kind's spec is one concrete type: hold the generic struct as a field",
        };
        errors.push(Error::custom(why).with_span(p));
    }
    let mut out = Lowered {
        ident: input.ident.clone(),
        schema: Schema::default(),
        foreign: Vec::new(),
        field_spans: Vec::new(),
        field_names: Vec::new(),
        rule_spans: Vec::new(),
        known_field_types: false,
        convention: input.convention,
        runtime_defaults: Vec::new(),
        shadows: Vec::new(),
        flattened: Vec::new(),
        published: Vec::new(),
        own_json_schema: Vec::new(),
        unknown: Vec::new(),
        // The type's own arguments that did not parse may be any of its keywords.
        unchecked: !input.broken.is_empty(),
        sources,
        expanding: vec![input.ident.to_string()],
    };
    match &input.data {
        darling::ast::Data::Enum(variants) if out.convention == Convention::Kube => {
            // An enum no structural schema holds (kube-derive's `crd()` panics on it):
            // its schema is its `JsonSchema`'s, and the reasons are warnings.
            let mut enum_errors = Error::accumulator();
            lower_enum(variants, &serde, &mut out, &mut enum_errors);
            if let Err(e) = enum_errors.finish() {
                out.foreign.clear();
                out.published.clear();
                let ident = &input.ident;
                out.foreign.push(syn::parse_quote!(#ident));
                out.schema = Schema {
                    rust_type: Some(0),
                    ..Default::default()
                };
                out.own_json_schema = e.into_iter().map(|e| (e.to_string(), e.span())).collect();
            }
        }
        darling::ast::Data::Enum(variants) => {
            let mut enum_errors = Error::accumulator();
            lower_enum(variants, &serde, &mut out, &mut enum_errors);
            let enum_errors = enum_errors.into_inner();
            // A variant's mistake leaves a hole that no stand-in fills.
            let broken = variants.iter().flat_map(|v| v.fields.iter()).any(|f| f.broken);
            out.unchecked |= broken || !enum_errors.is_empty();
            errors.extend(enum_errors);
        }
        darling::ast::Data::Struct(fields) => {
            out.schema.type_ = Some(Type::Object);
            // kube-derive: a struct's `#[serde(default)]` is each field's default.
            let container_default = serde.default.then_some(&input.ident);
            for field in fields.iter() {
                let keeps_unknown = input.resource.keywords.preserve_unknown_fields.is_present();
                let rename_all = serde.rename_all.as_ref().map(|r| r.0.as_str());
                let mut field_errors = Error::accumulator();
                let placed = if out.convention == Convention::Kube {
                    lower_field_kube(field, rename_all, container_default, &mut out, &mut field_errors)
                } else {
                    lower_field(field, rename_all, keeps_unknown, &mut out, &mut field_errors)
                };
                field_errors.extend(placed.clashes);
                let field_errors = field_errors.into_inner();
                if field.broken || !field_errors.is_empty() {
                    match placed.json {
                        Some(json) => out.unknown.push(json),
                        None => out.unchecked |= !field_errors.is_empty(),
                    }
                }
                errors.extend(field_errors);
            }
        }
    }
    if let Some((rule, span)) = &serde.rename_all
        && rename_field("a_b", Some(rule)).is_none()
    {
        errors.push(Error::custom(format!("unknown serde rename rule {rule:?}")).with_span(span));
    }
    // (An enum whose schema is its own `JsonSchema`'s names itself, on purpose.)
    for ty in out.foreign.iter().filter(|_| out.own_json_schema.is_empty()) {
        if let syn::Type::Path(p) = ty
            && p.qself.is_none()
            && (p.path.is_ident(&input.ident) || p.path.is_ident("Self"))
        {
            errors.push(
                Error::custom(
                    "a type that contains itself has no CRD schema (a CRD's schema cannot refer back to itself); \
                     hold the recursive part as `serde_json::Value` with `#[crd(preserve_unknown_fields)]`",
                )
                .with_span(ty),
            );
        }
    }
    if out.convention == Convention::Kube {
        // schemars keeps `required` as a sorted set.
        out.schema.required.sort();
    }
    out.schema.description = doc_text(&input.attrs);
    let is_object = out.schema.type_ == Some(Type::Object);
    apply_keywords(&input.resource.keywords, &mut out.schema, Place::Type, errors);
    out.rule_spans
        .extend(input.resource.keywords.rule.iter().map(|r| r.rule.span()));
    for (rule, span) in one_of_rules(&input.resource.keywords, &out.schema, is_object, errors) {
        out.schema.validations.push(rule);
        out.rule_spans.push(span);
    }
    out
}

/// controller-gen's one-of markers on a type: rules over its own properties, each
/// with the span of its group.
fn one_of_rules(
    kw: &Keywords,
    schema: &Schema,
    is_object: bool,
    errors: &mut darling::error::Accumulator,
) -> Vec<(ir::Rule, Span)> {
    let mut out = Vec::new();
    for (groups, kind) in [
        (&kw.exactly_one_of, OneOf::Exactly),
        (&kw.at_most_one_of, OneOf::AtMost),
        (&kw.at_least_one_of, OneOf::AtLeast),
    ] {
        for group in groups {
            match one_of_rule(group, kind, schema, is_object) {
                Ok(rule) => out.push((rule, group.span())),
                Err(e) => errors.push(e.with_span(&group.span())),
            }
        }
    }
    out
}

/// The fields of a struct (or struct variant) as an object node, their spans and
/// foreign types recorded in `out`.
fn lower_fields(
    fields: &[FieldInput],
    rename_all: Option<&str>,
    keeps_unknown: bool,
    out: &mut Lowered,
    errors: &mut darling::error::Accumulator,
) -> Schema {
    let saved = std::mem::replace(
        &mut out.schema,
        Schema {
            type_: Some(Type::Object),
            ..Default::default()
        },
    );
    for field in fields {
        let placed = if out.convention == Convention::Kube {
            lower_field_kube(field, rename_all, None, out, errors)
        } else {
            lower_field(field, rename_all, keeps_unknown, out, errors)
        };
        errors.extend(placed.clashes);
    }
    if out.convention == Convention::Kube {
        out.schema.required.sort();
    }
    std::mem::replace(&mut out.schema, saved)
}

/// An enum, by serde's representation of it:
/// - unit variants only: a string enum;
/// - externally tagged (serde's default), newtype and struct variants: an object with a
///   property per variant and exactly one of them set (`oneOf` of `required`), as
///   kube-derive makes it structural;
/// - internally tagged (`tag = "kind"`), unit and struct variants: an object with the
///   tag (a string enum) and the variants' fields, each variant's required fields
///   required when the tag names it (`oneOf`);
/// - adjacently tagged (`tag = "t", content = "c"`), unit and struct variants: the tag,
///   and the content object holding the variants' fields, each variant's required
///   fields required when the tag names it (`oneOf`); a unit variant has no content;
/// - untagged, struct variants: one object holding every variant's fields, at least
///   one variant's required fields present (`anyOf`), as kube-derive rewrites
///   schemars' `anyOf` of objects; newtype variants of an integer and a string:
///   int-or-string.
///
/// What no structural schema can hold (a unit variant beside data variants without a
/// tag, one field with two schemas, other untagged mixes) is an error at the variant.
fn lower_enum(
    variants: &[super::attrs::VariantInput],
    serde: &SerdeAttrs,
    out: &mut Lowered,
    errors: &mut darling::error::Accumulator,
) {
    use darling::ast::Style;
    let rename_all = serde.rename_all.as_ref().map(|r| r.0.as_str());
    let mut live = Vec::new();
    for v in variants {
        let vs = match SerdeAttrs::parse(&v.attrs) {
            Ok(vs) => vs,
            Err(e) => {
                errors.push(e.into());
                continue;
            }
        };
        if vs.skip {
            continue;
        }
        let name = vs
            .rename
            .clone()
            .unwrap_or_else(|| rename_variant(&v.ident.to_string(), rename_all));
        live.push((v, vs, name));
    }
    let fields_rule = serde.rename_all_fields.as_ref().map(|r| r.0.as_str());
    if let Some(span) = serde.untagged {
        out.schema = lower_untagged(&live, fields_rule, span, out, errors);
        return;
    }
    let all_unit = live.iter().all(|(v, _, _)| v.fields.style == Style::Unit);
    if all_unit && serde.tag.is_none() {
        let mut values: Vec<(bool, Value)> = live
            .iter()
            .map(|(v, _, n)| (doc_text(&v.attrs).is_some(), Value::String(n.clone())))
            .collect();
        if out.convention == Convention::Kube {
            // schemars writes the values of undocumented variants as one branch and
            // each documented one as its own, which kube-derive joins in that order.
            values.sort_by_key(|(documented, _)| *documented);
        }
        out.schema = Schema {
            type_: Some(Type::String),
            enum_: values.into_iter().map(|(_, v)| v).collect(),
            ..Default::default()
        };
        return;
    }
    let mut schema = Schema {
        type_: Some(Type::Object),
        ..Default::default()
    };
    match &serde.tag {
        None => {
            if let Some((_, span)) = &serde.content {
                errors.push(Error::custom("`content` goes with `tag`").with_span(span));
            }
            for (v, vs, name) in &live {
                let node = match v.fields.style {
                    Style::Unit => {
                        errors.push(
                            Error::custom("a unit variant is a string, the data variants objects: no structural schema holds both; give it a field or tag the enum")
                                .with_span(&v.ident),
                        );
                        continue;
                    }
                    Style::Tuple if v.fields.len() == 1 => match field_type_schema(&v.fields.fields[0].ty, out) {
                        Ok(n) => n,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    },
                    Style::Tuple => {
                        errors.push(
                            Error::custom("a tuple variant has no schema; use a struct variant").with_span(&v.ident),
                        );
                        continue;
                    }
                    Style::Struct => {
                        let rule = vs.rename_all.as_ref().map(|r| r.0.as_str()).or(fields_rule);
                        lower_fields(&v.fields.fields, rule, false, out, errors)
                    }
                };
                let mut node = node;
                // kube-derive moves a variant's description onto its property, over
                // the type's; without one the type's stays.
                match doc_text(&v.attrs) {
                    Some(doc) => node.description = Some(doc),
                    None if out.convention == Convention::Kube => {}
                    None => node.description = None,
                }
                out.field_spans.push((name.clone(), v.ident.span()));
                schema.properties.insert(name.clone(), node);
                schema.one_of.push(Schema {
                    required: vec![name.clone()],
                    ..Default::default()
                });
            }
        }
        Some((tag, tag_span)) => {
            let content = serde.content.as_ref().map(|(c, _)| c.as_str());
            let what = if content.is_some() {
                "an adjacently"
            } else {
                "an internally"
            };
            if content == Some(tag.as_str()) {
                errors.push(Error::custom("`tag` and `content` name the same field").with_span(tag_span));
            }
            // The object holding the variants' fields: the enum's own, or its content.
            let mut holder = Schema {
                type_: Some(Type::Object),
                ..Default::default()
            };
            let mut branches = Vec::new();
            for (v, vs, name) in &live {
                let variant = match v.fields.style {
                    Style::Unit => None,
                    Style::Struct => {
                        let rule = vs.rename_all.as_ref().map(|r| r.0.as_str()).or(fields_rule);
                        Some(lower_fields(&v.fields.fields, rule, false, out, errors))
                    }
                    Style::Tuple => {
                        errors.push(
                            Error::custom(format!("{what} tagged enum's variants are unit or struct variants (the derive cannot see a newtype's fields)"))
                                .with_span(&v.ident),
                        );
                        continue;
                    }
                };
                let mut branch = Schema {
                    required: vec![tag.clone()],
                    ..Default::default()
                };
                branch.properties.insert(
                    tag.clone(),
                    Schema {
                        enum_: vec![Value::String(name.clone())],
                        ..Default::default()
                    },
                );
                if let Some(variant) = variant {
                    let reserved = if content.is_none() { Some(tag.as_str()) } else { None };
                    merge_variant_fields(&mut holder, &variant, reserved, v, errors);
                    match content {
                        // serde needs the content of a data variant.
                        Some(content) => {
                            branch.required.push(content.to_string());
                            if !variant.required.is_empty() {
                                branch.properties.insert(
                                    content.to_string(),
                                    Schema {
                                        required: variant.required,
                                        ..Default::default()
                                    },
                                );
                            }
                        }
                        None => branch.required.extend(variant.required),
                    }
                }
                branches.push(branch);
            }
            let tag_schema = Schema {
                type_: Some(Type::String),
                enum_: live.iter().map(|(_, _, n)| Value::String(n.clone())).collect(),
                ..Default::default()
            };
            match &serde.content {
                Some((content, content_span)) => {
                    schema.properties.insert(tag.clone(), tag_schema);
                    schema.properties.insert(content.clone(), holder);
                    out.field_spans.push((content.clone(), *content_span));
                }
                None => {
                    schema = holder;
                    schema.properties.insert(tag.clone(), tag_schema);
                }
            }
            out.field_spans.push((tag.clone(), *tag_span));
            schema.required = vec![tag.clone()];
            schema.one_of = branches;
        }
    }
    out.schema = schema;
}

/// Adds a variant's properties to the object holding every variant's fields; a field
/// named like the tag, or with another schema in another variant, is an error.
fn merge_variant_fields(
    holder: &mut Schema,
    variant: &Schema,
    reserved: Option<&str>,
    v: &super::attrs::VariantInput,
    errors: &mut darling::error::Accumulator,
) {
    for (k, p) in &variant.properties {
        if Some(k.as_str()) == reserved {
            errors.push(Error::custom(format!("a field named like the tag {k:?}")).with_span(&v.ident));
            continue;
        }
        match holder.properties.get(k) {
            Some(existing) if existing != p => errors.push(
                Error::custom(format!(
                    "the field {k:?} has another schema in another variant; one object schema holds every variant's fields"
                ))
                .with_span(&v.ident),
            ),
            _ => {
                holder.properties.insert(k.clone(), p.clone());
            }
        }
    }
}

/// An untagged enum: struct variants merged into one object (at least one variant's
/// required fields present), or an integer and a string newtype variant as
/// int-or-string.
fn lower_untagged(
    live: &[(&super::attrs::VariantInput, SerdeAttrs, String)],
    fields_rule: Option<&str>,
    span: proc_macro2::Span,
    out: &mut Lowered,
    errors: &mut darling::error::Accumulator,
) -> Schema {
    use darling::ast::Style;
    let unsupported = || {
        Error::custom(
            "an untagged enum has a structural schema only when its variants are all struct variants, \
             or an integer and a string newtype variant (int-or-string); use serde's default tagging or `tag = \"...\"`",
        )
        .with_span(&span)
    };
    if live
        .iter()
        .all(|(v, _, _)| v.fields.style == Style::Tuple && v.fields.len() == 1)
    {
        let mut types = Vec::new();
        for (v, _, _) in live {
            match type_schema(&v.fields.fields[0].ty, out) {
                Ok(mut s) => {
                    // Any integer: int-or-string's integer has no format.
                    s.format = None;
                    for t in [Type::Integer, Type::String] {
                        if s == leaf(t, None) {
                            types.push(t.as_str());
                        }
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        types.sort_unstable();
        if types == ["integer", "string"] && live.len() == 2 {
            return int_or_string(None);
        }
        errors.push(unsupported());
        return Schema::default();
    }
    let mut holder = Schema {
        type_: Some(Type::Object),
        ..Default::default()
    };
    let mut branches = Vec::new();
    for (v, vs, _) in live {
        if v.fields.style != Style::Struct {
            errors.push(unsupported());
            return Schema::default();
        }
        let rule = vs.rename_all.as_ref().map(|r| r.0.as_str()).or(fields_rule);
        let variant = lower_fields(&v.fields.fields, rule, false, out, errors);
        merge_variant_fields(&mut holder, &variant, None, v, errors);
        branches.push(Schema {
            required: variant.required,
            ..Default::default()
        });
    }
    // A variant with no required field matches anything: then so does the enum
    // (kube-derive keeps it, as an empty branch).
    if out.convention == Convention::Kube || branches.iter().all(|b| !b.required.is_empty()) {
        holder.any_of = branches;
    }
    holder
}

/// A node of type `t` with an optional format.
fn leaf(t: Type, format: Option<&str>) -> Schema {
    Schema {
        type_: Some(t),
        format: format.map(str::to_string),
        ..Default::default()
    }
}

/// controller-gen's int-or-string node (`anyOf` integer, string), with a pattern for
/// a quantity.
fn int_or_string(pattern: Option<&str>) -> Schema {
    Schema {
        int_or_string: true,
        any_of: vec![leaf(Type::Integer, None), leaf(Type::String, None)],
        pattern: pattern.map(str::to_string),
        ..Default::default()
    }
}

/// A field, lowered: its JSON name, if it has a property, and the errors about its
/// place among the holder's fields (another field has its name). Those are the
/// holder's mistakes also where the field is a flattened struct's, whose own mistakes
/// are its derive's to report.
struct Placed {
    json: Option<String>,
    clashes: Vec<Error>,
}

impl Placed {
    const NONE: Placed = Placed {
        json: None,
        clashes: Vec::new(),
    };

    fn at(json: String) -> Placed {
        Placed {
            json: Some(json),
            clashes: Vec::new(),
        }
    }
}

/// A field in controller-gen's conventions.
fn lower_field(
    field: &FieldInput,
    rename_all: Option<&str>,
    keeps_unknown: bool,
    out: &mut Lowered,
    errors: &mut darling::error::Accumulator,
) -> Placed {
    let Some(ident) = field.ident.as_ref() else {
        return Placed::NONE;
    };
    let serde = match SerdeAttrs::parse(&field.attrs) {
        Ok(s) => s,
        Err(e) => {
            errors.push(e.into());
            return Placed::NONE;
        }
    };
    if serde.skip {
        return Placed::NONE;
    }
    let span = ident.span();
    if serde.flatten {
        if map_value_type(&field.ty).is_some() {
            if !keeps_unknown {
                errors.push(
                    Error::custom(
                        "a flattened map holds the unknown fields: give the type `#[crd(preserve_unknown_fields)]`",
                    )
                    .with_span(&span),
                );
            }
            // The unknown fields the type keeps; not a property.
            return Placed::NONE;
        }
        return Placed {
            json: None,
            clashes: lower_flattened(field, out, errors),
        };
    }
    let rust_name = ident.to_string();
    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
    let json = match &serde.rename {
        Some(n) => n.clone(),
        None => rename_field(rust_name, rename_all).unwrap_or_else(|| rust_name.to_string()),
    };
    let (options, inner) = strip_options(&field.ty);
    let mut node = match type_schema(inner, out) {
        Ok(n) => n,
        Err(e) => {
            errors.push(e);
            return Placed::at(json);
        }
    };
    if options == 2 {
        node.nullable = true;
    }
    if options > 2 {
        errors.push(Error::custom("at most `Option<Option<T>>`: absent, null or a value").with_span(&field.ty));
    }
    // The field's doc comment, else its type's (an instance of a generic struct).
    if let Some(doc) = doc_text(&field.attrs) {
        node.description = Some(doc);
    }
    let kw = &field.keywords;
    apply_keywords(kw, &mut node, Place::Field, errors);
    let optional = options > 0 || serde.default || kw.optional.is_present();
    if kw.required.is_present() && kw.optional.is_present() {
        errors.push(Error::custom("a field is either `required` or `optional`").with_span(&kw.optional.span()));
    }
    if kw.required.is_present() || !optional {
        out.schema.required.push(json.clone());
    }
    if kw.immutable.is_present() {
        node.validations.push(ir::Rule {
            rule: "self == oldSelf".into(),
            message: Some("field is immutable".into()),
            ..Default::default()
        });
        if optional && !kw.required.is_present() {
            out.schema.validations.push(ir::Rule {
                rule: format!("!has(oldSelf.{json}) || has(self.{json})"),
                message: Some(format!("field {json} is immutable once set")),
                ..Default::default()
            });
            out.rule_spans.push(kw.immutable.span());
        }
    }
    add_property(out, json, node, rust_name, span)
}

/// Adds a field's node as a property of the type's, with what messages need.
fn add_property(out: &mut Lowered, json: String, node: Schema, rust_name: &str, span: Span) -> Placed {
    if out.schema.properties.contains_key(&json) {
        let clash = Error::custom(format!("two fields have the JSON name {json:?}")).with_span(&span);
        return Placed {
            json: Some(json),
            clashes: vec![clash],
        };
    }
    out.field_spans.push((json.clone(), span));
    out.field_names.push((json.clone(), rust_name.to_string()));
    out.schema.properties.insert(json.clone(), node);
    Placed::at(json)
}

/// A field in kube-derive's conventions (schemars' schema of the field, made
/// structural): an `Option` is nullable; `#[serde(default)]`'s value is the default;
/// `required` is what schemars requires; a field with `#[schemars]`, `#[validate]` or
/// `#[garde]` attributes has the schema schemars gives it (see [`Lowered::shadows`]).
fn lower_field_kube(
    field: &FieldInput,
    rename_all: Option<&str>,
    container_default: Option<&syn::Ident>,
    out: &mut Lowered,
    errors: &mut darling::error::Accumulator,
) -> Placed {
    let Some(ident) = field.ident.as_ref() else {
        return Placed::NONE;
    };
    let (serde, schemars) = match (SerdeAttrs::parse(&field.attrs), SchemarsAttrs::parse(&field.attrs)) {
        (Ok(s), Ok(sc)) => (s, sc),
        (Err(e), _) | (_, Err(e)) => {
            errors.push(e.into());
            return Placed::NONE;
        }
    };
    if serde.skip || schemars.skip {
        return Placed::NONE;
    }
    let span = ident.span();
    if serde.flatten {
        if map_value_type(&field.ty).is_some() {
            // schemars' `additionalProperties` beside the properties, which
            // kube-derive turns into keeping unknown fields.
            out.schema.preserve_unknown_fields = true;
            return Placed::NONE;
        }
        // Whether the type derives our schema or only `JsonSchema`, its properties
        // are known when the schema is composed.
        out.foreign.push(strip_options(&field.ty).1.clone());
        out.flattened.push(out.foreign.len() - 1);
        return Placed::NONE;
    }
    let rust_name = ident.to_string();
    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
    let json = schemars
        .rename
        .clone()
        .or_else(|| serde.rename.clone())
        .unwrap_or_else(|| rename_field(rust_name, rename_all).unwrap_or_else(|| rust_name.to_string()));
    let (options, inner) = strip_options(&field.ty);
    let shadowed = schemars.other.is_some()
        || field
            .attrs
            .iter()
            .any(|a| a.path().is_ident("validate") || a.path().is_ident("garde"));
    let mut node = if shadowed {
        let n = out.foreign.len();
        let shadow = quote::format_ident!("__CrdShadow{}", n, span = span);
        out.foreign.push(syn::parse_quote!(#shadow));
        let attrs = field.attrs.iter().filter(|a| {
            ["doc", "serde", "schemars", "validate", "garde"]
                .iter()
                .any(|k| a.path().is_ident(k))
        });
        let ty = &field.ty;
        let written = quote::quote!(#( #attrs )* #ident: #ty);
        out.shadows.push((n, written));
        Schema {
            rust_type: Some(n),
            ..Default::default()
        }
    } else {
        match kube_type_schema(inner, out) {
            Ok(mut node) => {
                if options > 0 {
                    node.nullable = true;
                }
                let doc = doc_text(&field.attrs);
                if let Some(doc) = &doc {
                    node.description = Some(doc.clone());
                }
                if let Some(n) = node.rust_type {
                    let optional = options > 0 || serde.default || container_default.is_some();
                    out.published.push((n, field.ty.clone(), doc, optional));
                }
                node
            }
            Err(e) => {
                errors.push(e);
                return Placed::at(json);
            }
        }
    };
    // The default schemars writes: the serialized `Default` (or the function's
    // value), unless `skip_serializing_if` would skip it; `null` is none.
    let default_of_field = serde.default && !shadowed;
    if default_of_field || container_default.is_some() {
        let ty = &field.ty;
        let value = match (&serde.default_path, serde.default, container_default) {
            (Some(path), _, _) => quote::quote!(#path()),
            (None, true, _) => quote::quote!(<#ty as ::core::default::Default>::default()),
            (None, false, Some(container)) => quote::quote!(<#container as ::core::default::Default>::default().#ident),
            (None, false, None) => quote::quote!(()),
        };
        let skip = match &serde.skip_serializing_if {
            Some(pred) => quote::quote!(#pred(&value)),
            None => quote::quote!(false),
        };
        let n = out.runtime_defaults.len();
        out.runtime_defaults.push(quote::quote! {{
            let value = #value;
            if #skip {
                ::crd_runtime::Value::Null
            } else {
                ::crd_runtime::serde_json::to_value(&value).unwrap_or(::crd_runtime::Value::Null)
            }
        }});
        node.default = Some(serde_json::json!({ crate::write::RUST_DEFAULT_KEY: n }));
    }
    let kw = &field.keywords;
    apply_keywords(kw, &mut node, Place::Field, errors);
    let is_option = !schemars.required
        && match schemars.option_by {
            OptionBy::FieldType => options > 0,
            OptionBy::With(is_option) => is_option,
            OptionBy::SchemaWith => false,
        };
    let optional = is_option || serde.default || container_default.is_some() || kw.optional.is_present();
    if kw.required.is_present() || !optional {
        out.schema.required.push(json.clone());
    }
    add_property(out, json, node, rust_name, span)
}

/// A field type's schema in the type's conventions.
fn field_type_schema(ty: &syn::Type, out: &mut Lowered) -> Result<Schema> {
    match out.convention {
        Convention::Kube => kube_type_schema(ty, out),
        Convention::ControllerGen => type_schema(ty, out),
    }
}

/// The schema of a Rust type as schemars gives it, for the types whose schema the
/// derive writes itself: booleans, strings, numbers (with schemars' formats and
/// bounds), lists, sets and maps of them. Every other type is a field type whose
/// schema comes from its own impl (a derived type's, else its `JsonSchema`).
fn kube_type_schema(ty: &syn::Type, out: &mut Lowered) -> Result<Schema> {
    let number = |t: Type, format: &str, min: Option<f64>, max: Option<f64>| Schema {
        type_: Some(t),
        format: Some(format.into()),
        minimum: min,
        maximum: max,
        ..Default::default()
    };
    let foreign = |out: &mut Lowered| {
        out.foreign.push(ty.clone());
        Schema {
            rust_type: Some(out.foreign.len() - 1),
            ..Default::default()
        }
    };
    let Some((name, args)) = segment(ty) else {
        return Ok(foreign(out));
    };
    Ok(match (name.as_str(), args.as_slice()) {
        ("bool", []) => leaf(Type::Boolean, None),
        ("String", []) => leaf(Type::String, None),
        ("i8", []) => number(Type::Integer, "int8", Some(-128.0), Some(127.0)),
        ("i16", []) => number(Type::Integer, "int16", Some(-32768.0), Some(32767.0)),
        ("i32", []) => number(Type::Integer, "int32", None, None),
        ("i64", []) => number(Type::Integer, "int64", None, None),
        ("i128", []) => number(Type::Integer, "int128", None, None),
        ("isize", []) => number(Type::Integer, "int", None, None),
        ("u8", []) => number(Type::Integer, "uint8", Some(0.0), Some(255.0)),
        ("u16", []) => number(Type::Integer, "uint16", Some(0.0), Some(65535.0)),
        ("u32", []) => number(Type::Integer, "uint32", Some(0.0), None),
        ("u64", []) => number(Type::Integer, "uint64", Some(0.0), None),
        ("u128", []) => number(Type::Integer, "uint128", Some(0.0), None),
        ("usize", []) => number(Type::Integer, "uint", Some(0.0), None),
        ("f32", []) => number(Type::Number, "float", None, None),
        ("f64", []) => number(Type::Number, "double", None, None),
        ("Box" | "Arc" | "Rc", [inner]) => kube_type_schema(inner, out)?,
        ("Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet", [item]) => Schema {
            type_: Some(Type::Array),
            items: Some(Box::new(kube_element_schema(item, out)?)),
            ..Default::default()
        },
        ("BTreeMap" | "HashMap" | "IndexMap", [key, value]) if matches!(segment(key), Some((k, _)) if k == "String") => {
            Schema {
                type_: Some(Type::Object),
                additional_properties: Some(AdditionalProperties::Schema(Box::new(kube_element_schema(value, out)?))),
                ..Default::default()
            }
        }
        ("Option", [_]) => return Err(Error::custom("`Option` only at the top of a field's type").with_span(ty)),
        _ => foreign(out),
    })
}

/// An array item or map value: `Option<T>` is a nullable `T` (published as schemars
/// writes `Option<T>`, see `Lowered::published`).
fn kube_element_schema(ty: &syn::Type, out: &mut Lowered) -> Result<Schema> {
    let (options, inner) = strip_options(ty);
    let mut s = kube_type_schema(inner, out)?;
    if options > 0 {
        s.nullable = true;
    }
    if let Some(n) = s.rust_type {
        out.published.push((n, ty.clone(), None, false));
    }
    Ok(s)
}

/// A `#[serde(flatten)]` struct field: the struct's fields and rules are the
/// holder's, as controller-gen flattens an embedded struct; under `Option`, none of
/// its fields is required. Returns the errors of its fields' names clashing with the
/// holder's.
fn lower_flattened(field: &FieldInput, out: &mut Lowered, errors: &mut darling::error::Accumulator) -> Vec<Error> {
    let (options, inner) = strip_options(&field.ty);
    let Some(name) = super::flatten::type_name(inner) else {
        errors.push(
            Error::custom("a flattened field holds a struct that derives `CrdSchema`, without type arguments")
                .with_span(&field.ty),
        );
        return Vec::new();
    };
    let item = match definition(inner, &name, &[], out) {
        Ok(item) => item,
        Err(e) => {
            errors.push(e);
            return Vec::new();
        }
    };
    let darling::ast::Data::Struct(fields) = &item.data else {
        errors.push(
            Error::custom("a flattened enum has no structural schema here; hold it as a field").with_span(&field.ty),
        );
        return Vec::new();
    };
    let serde = SerdeAttrs::parse(&item.attrs).unwrap_or_default();
    let required = out.schema.required.len();
    out.expanding.push(quote::quote!(#inner).to_string());
    // Its fields' own mistakes are reported by its derive; they leave a hole here.
    let mut own = Error::accumulator();
    let mut clashes = Vec::new();
    for f in fields.iter() {
        let placed = lower_field(
            f,
            serde.rename_all.as_ref().map(|r| r.0.as_str()),
            item.resource.keywords.preserve_unknown_fields.is_present(),
            out,
            &mut own,
        );
        clashes.extend(placed.clashes);
    }
    out.unchecked |= !own.into_inner().is_empty();
    out.expanding.pop();
    if options > 0 {
        out.schema.required.truncate(required);
    }
    // Its rules and one-of groups, now over the holder's node. (A bad one is reported
    // by the flattened type's own derive, so not again here.)
    let kw = &item.resource.keywords;
    let mut reported = Error::accumulator();
    let rules = kw.rule.iter().filter_map(|r| Some((rule(r).ok()?, r.rule.span())));
    let rules: Vec<(ir::Rule, Span)> = rules
        .chain(one_of_rules(kw, &out.schema, true, &mut reported))
        .collect();
    let _ = reported.finish();
    for (rule, span) in rules {
        out.schema.validations.push(rule);
        out.rule_spans.push(span);
    }
    clashes
}

/// The definition handed over for the type `ty` (named `name`), with `args` in place
/// of its type parameters; `ty` already being lowered is a type that contains itself.
fn definition(ty: &syn::Type, name: &str, args: &[&syn::Type], out: &Lowered) -> Result<TypeInput> {
    if out.expanding.contains(&quote::quote!(#ty).to_string()) {
        return Err(Error::custom(format!(
            "`{name}` contains itself: a CRD's schema cannot refer back to itself"
        ))
        .with_span(ty));
    }
    let Some(source) = out.sources.iter().find(|d| d.ident == name) else {
        // The first expansion hands the definitions over; the second finds them all.
        return Err(Error::custom(format!("`{name}` is not among the handed-over definitions")).with_span(ty));
    };
    let mut di = source.clone();
    let params: Vec<syn::Ident> = di.generics.type_params().map(|p| p.ident.clone()).collect();
    if params.len() != di.generics.params.len() || params.len() != args.len() {
        return Err(Error::custom(format!(
            "`{name}` is used with its type parameters only, one argument each ({} here)",
            args.len()
        ))
        .with_span(ty));
    }
    if let syn::Data::Struct(data) = &mut di.data {
        for field in data.fields.iter_mut() {
            substitute(&mut field.ty, &params, args);
        }
    }
    di.generics = syn::Generics::default();
    // Its attribute mistakes are its own derive's to report.
    super::partial::parse(&di).map(|(parsed, _)| parsed)
}

/// `Option<Option<T>>` → (2, T).
pub(super) fn strip_options(ty: &syn::Type) -> (usize, &syn::Type) {
    match generic_arg(ty, "Option") {
        Some(inner) => {
            let (n, t) = strip_options(inner);
            (n + 1, t)
        }
        None => (0, ty),
    }
}

/// The last path segment's name and its generic type arguments.
fn segment(ty: &syn::Type) -> Option<(String, Vec<&syn::Type>)> {
    let syn::Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    let args = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((last.ident.to_string(), args))
}

fn generic_arg<'t>(ty: &'t syn::Type, name: &str) -> Option<&'t syn::Type> {
    match segment(ty) {
        Some((n, args)) if n == name && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

/// The value type of a map with string keys.
pub(super) fn map_value_type(ty: &syn::Type) -> Option<&syn::Type> {
    match segment(ty) {
        Some((n, args)) if matches!(n.as_str(), "BTreeMap" | "HashMap" | "IndexMap") && args.len() == 2 => {
            Some(args[1])
        }
        _ => None,
    }
}

/// The schema of a Rust type, controller-gen's mapping for Go's.
fn type_schema(ty: &syn::Type, out: &mut Lowered) -> Result<Schema> {
    let unsupported = |what: &str| Error::custom(format!("{what} cannot be a field of a CRD schema")).with_span(ty);
    match ty {
        syn::Type::Path(_) => {}
        syn::Type::Reference(_) => return Err(unsupported("a reference")),
        syn::Type::Tuple(t) if t.elems.is_empty() => return Err(unsupported("`()`")),
        syn::Type::Tuple(_) => return Err(unsupported("a tuple")),
        syn::Type::Array(_) | syn::Type::Slice(_) => {
            return Err(Error::custom("use `Vec<T>` for an array").with_span(ty));
        }
        _ => return Err(unsupported("this type")),
    }
    let Some((name, args)) = segment(ty) else {
        return Err(unsupported("this type"));
    };
    Ok(match (name.as_str(), args.as_slice()) {
        ("bool", []) => leaf(Type::Boolean, None),
        ("String", []) => leaf(Type::String, None),
        // As controller-gen: `format: int32` for 32-bit integers. 64-bit ones get no
        // format, which Kubernetes reads as int64, so a CRD's plain `type: integer`
        // derives back unchanged.
        ("i8" | "i16" | "i32" | "u8" | "u16", []) => leaf(Type::Integer, Some("int32")),
        ("u32" | "i64" | "u64" | "isize" | "usize", []) => leaf(Type::Integer, None),
        ("f32" | "f64", []) => leaf(Type::Number, None),
        ("Box" | "Arc" | "Rc", [inner]) => type_schema(inner, out)?,
        ("Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet", [item]) => Schema {
            type_: Some(Type::Array),
            items: Some(Box::new(element_schema(item, out)?)),
            ..Default::default()
        },
        ("BTreeMap" | "HashMap" | "IndexMap", [key, value]) => {
            if !matches!(segment(key), Some((k, _)) if k == "String") {
                return Err(Error::custom("map keys must be `String`: JSON object keys are strings").with_span(*key));
            }
            Schema {
                type_: Some(Type::Object),
                additional_properties: Some(AdditionalProperties::Schema(Box::new(element_schema(value, out)?))),
                ..Default::default()
            }
        }
        ("Value", []) => Schema {
            preserve_unknown_fields: true,
            ..Default::default()
        },
        ("JsonMap" | "Map", _) => Schema {
            type_: Some(Type::Object),
            preserve_unknown_fields: true,
            ..Default::default()
        },
        ("IntOrString", []) => int_or_string(None),
        ("Quantity", []) => int_or_string(Some(QUANTITY_PATTERN)),
        ("Time" | "MicroTime", []) => leaf(Type::String, Some("date-time")),
        ("Duration", []) => leaf(Type::String, None),
        ("ObjectMeta" | "EmptyObject", []) => leaf(Type::Object, None),
        ("Option", [_]) => return Err(Error::custom("`Option` only at the top of a field's type").with_span(ty)),
        (name, [_, ..]) => return instantiate(ty, name, &args, out),
        _ => {
            out.foreign.push(ty.clone());
            Schema {
                rust_type: Some(out.foreign.len() - 1),
                ..Default::default()
            }
        }
    })
}

/// A derived generic struct used with arguments (`Range<i32>`): its fields with the
/// arguments in place of its parameters, lowered here as a nested node, as if the
/// instance were written out (a generic type has no schema of its own).
fn instantiate(ty: &syn::Type, name: &str, args: &[&syn::Type], out: &mut Lowered) -> Result<Schema> {
    let item = definition(ty, name, args, out)?;
    let darling::ast::Data::Struct(fields) = &item.data else {
        return Err(Error::custom("a generic enum has no schema: only generic structs are instantiated").with_span(ty));
    };
    let serde = SerdeAttrs::parse(&item.attrs).unwrap_or_default();
    let mut errors = Error::accumulator();
    out.expanding.push(quote::quote!(#ty).to_string());
    let mut node = lower_fields(
        &fields.fields,
        serde.rename_all.as_ref().map(|r| r.0.as_str()),
        item.resource.keywords.preserve_unknown_fields.is_present(),
        out,
        &mut errors,
    );
    out.expanding.pop();
    node.description = doc_text(&item.attrs);
    apply_keywords(&item.resource.keywords, &mut node, Place::Type, &mut errors);
    for (rule, _) in one_of_rules(&item.resource.keywords, &node, true, &mut errors) {
        node.validations.push(rule);
    }
    errors.finish_with(node)
}

/// `ty` with each type parameter in `params` replaced by its argument.
fn substitute(ty: &mut syn::Type, params: &[syn::Ident], args: &[&syn::Type]) {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(i) = p.path.get_ident().and_then(|id| params.iter().position(|x| x == id)) {
                *ty = args[i].clone();
                return;
            }
            for seg in p.path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(a) = &mut seg.arguments {
                    for arg in a.args.iter_mut() {
                        if let syn::GenericArgument::Type(t) = arg {
                            substitute(t, params, args);
                        }
                    }
                }
            }
        }
        syn::Type::Group(g) => substitute(&mut g.elem, params, args),
        syn::Type::Paren(p) => substitute(&mut p.elem, params, args),
        _ => {}
    }
}

/// The schema of an array item or map value: `Option<T>` is a nullable `T`.
fn element_schema(ty: &syn::Type, out: &mut Lowered) -> Result<Schema> {
    match generic_arg(ty, "Option") {
        Some(inner) => {
            let mut s = type_schema(inner, out)?;
            s.nullable = true;
            Ok(s)
        }
        None => type_schema(ty, out),
    }
}

/// A junctor's branches (or `not`'s one schema) from JSON in the CRD's own words.
fn junctor_branches(name: &str, v: &SpannedValue<Json>, array: bool) -> Result<Vec<Schema>> {
    let wrong = || {
        let shape = if array {
            "a list of schemas: `json!([{...}, ...])`"
        } else {
            "a schema: `json!({...})`"
        };
        Error::custom(format!("`{name}` is {shape}")).with_span(&v.span())
    };
    let values: Vec<&Value> = match (&v.0, array) {
        (Value::Array(items), true) => items.iter().collect(),
        (value @ Value::Object(_), false) => vec![value],
        _ => return Err(wrong()),
    };
    values
        .into_iter()
        .map(|b| {
            serde_json::from_value::<crate::model::JsonSchemaProps>(b.clone())
                .map(|props| crate::lower::lower_schema(&props))
                .map_err(|e| Error::custom(format!("`{name}`: not a schema: {e}")).with_span(&v.span()))
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Type,
    Field,
    Items,
}

fn json_type_name(s: &Schema) -> &'static str {
    if s.int_or_string {
        return "int-or-string";
    }
    match s.type_ {
        Some(t) => t.as_str(),
        None => "untyped",
    }
}

/// Applies `#[crd(...)]` keywords to a node, checking each applies to its type.
fn apply_keywords(kw: &Keywords, node: &mut Schema, place: Place, errors: &mut darling::error::Accumulator) {
    let foreign = node.rust_type.is_some();
    let wrong = |errors: &mut darling::error::Accumulator, name: &str, span: Span, expected: &str, node: &Schema| {
        let message = if foreign {
            foreign_message(name)
        } else {
            format!(
                "`{name}` applies to {expected}, not to a field of type {}",
                json_type_name(node)
            )
        };
        errors.push(Error::custom(message).with_span(&span));
    };
    if kw.schemaless.is_present() {
        if foreign {
            wrong(errors, "schemaless", kw.schemaless.span(), "", node);
        } else {
            // No introspection: an empty schema, then the keywords given with it.
            *node = Schema {
                description: node.description.take(),
                ..Default::default()
            };
        }
    }
    let array = node.type_ == Some(Type::Array) && !foreign;
    let object = (node.type_ == Some(Type::Object) || node.type_.is_none()) && !foreign;
    apply_values(&kw.value_keywords, node, foreign, errors);
    if let Some(ignored) = &kw.ignored {
        apply_ignored(ignored, node, foreign, errors);
    }
    if let Some(f) = &kw.format {
        if foreign {
            wrong(errors, "format", f.span(), "", node);
        } else {
            node.format = Some((**f).clone());
        }
    }
    if let Some(t) = &kw.list_type {
        let parsed = ListType::parse(t);
        match parsed {
            None => {
                errors.push(Error::custom("`list_type` is one of \"atomic\", \"set\", \"map\"").with_span(&t.span()))
            }
            Some(_) if !array => wrong(errors, "list_type", t.span(), "arrays", node),
            Some(p) => node.list_type = Some(p),
        }
    }
    if let Some(keys) = &kw.list_map_keys {
        match string_list(keys) {
            Some(k) if array => node.list_map_keys = k,
            Some(_) => wrong(errors, "list_map_keys", keys.span(), "arrays", node),
            None => {
                errors.push(Error::custom("`list_map_keys` is a list of strings: `[\"name\"]`").with_span(&keys.span()))
            }
        }
    }
    if let Some(t) = &kw.map_type {
        let parsed = MapType::parse(t);
        match parsed {
            None => errors.push(Error::custom("`map_type` is \"atomic\" or \"granular\"").with_span(&t.span())),
            Some(_) if !object => wrong(errors, "map_type", t.span(), "objects and maps", node),
            Some(p) => node.map_type = Some(p),
        }
    }
    if let Some(e) = &kw.enum_ {
        match &e.0 {
            Value::Array(values) if !foreign => node.enum_ = values.clone(),
            Value::Array(_) => wrong(errors, "enum", e.span(), "", node),
            _ => errors.push(Error::custom("`enum` is a list: `enum = [\"a\", \"b\"]`").with_span(&e.span())),
        }
    }
    if let Some(d) = &kw.default {
        if place == Place::Type {
            errors.push(Error::custom("`default` goes on a field, not on a type").with_span(&d.span()));
        } else {
            node.default = Some(d.0.clone());
        }
    }
    if let Some(e) = &kw.example {
        node.example = Some(e.0.clone());
    }
    if let Some(t) = &kw.title {
        node.title = Some(t.clone());
    }
    if kw.nullable.is_present() {
        node.nullable = true;
    }
    for (name, flag) in [
        ("preserve_unknown_fields", &kw.preserve_unknown_fields),
        ("embedded_resource", &kw.embedded_resource),
        ("int_or_string", &kw.int_or_string),
    ] {
        if !flag.is_present() {
            continue;
        }
        if foreign {
            wrong(errors, name, flag.span(), "", node);
            continue;
        }
        match name {
            "preserve_unknown_fields" => node.preserve_unknown_fields = true,
            "embedded_resource" => {
                if !object {
                    wrong(errors, name, flag.span(), "objects", node);
                }
                // An embedded resource is an object (`serde_json::Value` included).
                node.type_ = Some(Type::Object);
                node.embedded_resource = true;
            }
            "int_or_string" => {
                // The field's type gives way (`serde_json::Value`'s unknown fields
                // too, unless asked for); its other keywords stay.
                node.int_or_string = true;
                node.type_ = None;
                node.preserve_unknown_fields = kw.preserve_unknown_fields.is_present();
                node.any_of = [Type::Integer, Type::String]
                    .map(|t| Schema {
                        type_: Some(t),
                        ..Default::default()
                    })
                    .into();
            }
            _ => {}
        }
    }
    for r in &kw.rule {
        match rule(r) {
            Ok(rule) => node.validations.push(rule),
            Err(e) => errors.push(e),
        }
    }
    if let Some(items) = &kw.items {
        match &mut node.items {
            Some(item) if !foreign => apply_keywords(items, item, Place::Items, errors),
            _ => wrong(errors, "items", items.span(), "arrays (`Vec<T>`)", node),
        }
    }
    if let Some(values) = &kw.values {
        match &mut node.additional_properties {
            Some(AdditionalProperties::Schema(value)) if !foreign => {
                apply_keywords(values, value, Place::Items, errors)
            }
            _ => wrong(errors, "values", values.span(), "maps (`BTreeMap<String, T>`)", node),
        }
    }
    if let Some(d) = &kw.description {
        node.description = Some(d.clone());
    }
    if let Some(d) = &kw.external_docs {
        node.external_docs = Some(d.0.clone());
    }
    for (name, v, array) in [
        ("all_of", &kw.all_of, true),
        ("any_of", &kw.any_of, true),
        ("one_of", &kw.one_of, true),
        ("not", &kw.not, false),
    ] {
        let Some(v) = v else { continue };
        if foreign {
            wrong(errors, name, v.span(), "", node);
            continue;
        }
        match junctor_branches(name, v, array) {
            Ok(branches) => match name {
                "all_of" => node.all_of = branches,
                "any_of" => node.any_of = branches,
                "one_of" => node.one_of = branches,
                _ => node.not = branches.into_iter().next().map(Box::new),
            },
            Err(e) => errors.push(e),
        }
    }
    if let Some(order) = &kw.required_order {
        if place != Place::Type {
            errors.push(Error::custom("`required_order` goes on a type, over its fields").with_span(&order.span()));
        } else if is_permutation(&order.0, &node.required) {
            node.required = order.0.clone();
        } else {
            let message = format!(
                "`required_order` lists the required fields {:?} in another order",
                node.required
            );
            errors.push(Error::custom(message).with_span(&order.span()));
        }
    }
    if place != Place::Type {
        for (name, groups) in [
            ("exactly_one_of", &kw.exactly_one_of),
            ("at_most_one_of", &kw.at_most_one_of),
            ("at_least_one_of", &kw.at_least_one_of),
        ] {
            if let Some(g) = groups.first() {
                errors.push(Error::custom(format!("`{name}` goes on a type, over its fields")).with_span(&g.span()));
            }
        }
    }
    if place != Place::Field {
        for (name, flag) in [
            ("required", &kw.required),
            ("optional", &kw.optional),
            ("immutable", &kw.immutable),
        ] {
            if flag.is_present() {
                errors.push(Error::custom(format!("`{name}` goes on a field")).with_span(&flag.span()));
            }
        }
    }
}

/// Whether a value keyword applies to a node in the derive: where it checks the node's
/// type; on an int-or-string node the string keywords; on another node without a type
/// (any value) the object keywords, as controller-gen allows them there.
fn value_keyword_applies(k: ValueKeyword, node: &Schema) -> bool {
    match node.type_ {
        Some(t) => k.applies_to(t),
        None if node.int_or_string => k.applies_to(Type::String),
        None => k.applies_to(Type::Object),
    }
}

/// The value keywords given, with their spans.
fn given_values(v: &ValueKeywords) -> Vec<(ValueKeyword, Span)> {
    let flag = |f: &Flag| f.is_present().then(|| f.span());
    [
        (ValueKeyword::Minimum, v.minimum.as_ref().map(|v| v.span())),
        (ValueKeyword::Maximum, v.maximum.as_ref().map(|v| v.span())),
        (ValueKeyword::MultipleOf, v.multiple_of.as_ref().map(|v| v.span())),
        (ValueKeyword::ExclusiveMinimum, flag(&v.exclusive_minimum)),
        (ValueKeyword::ExclusiveMaximum, flag(&v.exclusive_maximum)),
        (ValueKeyword::MinLength, v.min_length.as_ref().map(|v| v.span())),
        (ValueKeyword::MaxLength, v.max_length.as_ref().map(|v| v.span())),
        (ValueKeyword::MinItems, v.min_items.as_ref().map(|v| v.span())),
        (ValueKeyword::MaxItems, v.max_items.as_ref().map(|v| v.span())),
        (ValueKeyword::MinProperties, v.min_properties.as_ref().map(|v| v.span())),
        (ValueKeyword::MaxProperties, v.max_properties.as_ref().map(|v| v.span())),
        (ValueKeyword::Pattern, v.pattern.as_ref().map(|v| v.span())),
    ]
    .into_iter()
    .filter_map(|(k, span)| Some((k, span?)))
    .collect()
}

/// The value keywords of a node, each checked to apply to its type.
fn apply_values(v: &ValueKeywords, node: &mut Schema, foreign: bool, errors: &mut darling::error::Accumulator) {
    for (k, span) in given_values(v) {
        if foreign || !value_keyword_applies(k, node) {
            let name = k.attr_name();
            let message = if foreign {
                foreign_message(name)
            } else if node.type_.is_some() {
                format!(
                    "`{name}` applies to {}, not to a field of type {} (the API server ignores it there; \
                     to write it into the CRD anyway, put it in `ignored(...)`)",
                    k.types(),
                    json_type_name(node)
                )
            } else {
                format!(
                    "`{name}` applies to {}, not to a field of type {}",
                    k.types(),
                    json_type_name(node)
                )
            };
            errors.push(Error::custom(message).with_span(&span));
        }
    }
    let keep: Vec<ValueKeyword> = ValueKeyword::ALL
        .into_iter()
        .filter(|k| !foreign && value_keyword_applies(*k, node))
        .collect();
    set_values(v, node, &keep, errors);
}

/// `ignored(...)`: value keywords that do not apply to the node's type, which the API
/// server accepts and ignores, written into the CRD as given. One that applies belongs
/// outside the group; on a node without a type the API server applies it to the values
/// of its types, so there it is not ignored.
fn apply_ignored(
    v: &SpannedValue<ValueKeywords>,
    node: &mut Schema,
    foreign: bool,
    errors: &mut darling::error::Accumulator,
) {
    for (k, span) in given_values(v) {
        let name = k.attr_name();
        let message = if foreign {
            foreign_message("ignored")
        } else if value_keyword_applies(k, node) {
            format!(
                "`{name}` applies to a field of type {}: write it outside `ignored(...)`",
                json_type_name(node)
            )
        } else if node.type_.is_none() {
            format!(
                "`{name}` in `ignored(...)`: on a field of type {} the API server does not ignore it, it checks the {} among its values",
                json_type_name(node),
                k.types()
            )
        } else {
            continue;
        };
        errors.push(Error::custom(message).with_span(&span));
    }
    let keep: Vec<ValueKeyword> = ValueKeyword::ALL
        .into_iter()
        .filter(|k| !foreign && node.type_.is_some_and(|t| !k.applies_to(t)))
        .collect();
    set_values(v, node, &keep, errors);
}

fn foreign_message(name: &str) -> String {
    format!(
        "`{name}` cannot be set on a field whose type derives its own schema: put it on the type, \
         in `#[crd(...)]` beside its `#[derive(CrdSchema)]`"
    )
}

/// Sets the value keywords of `v` that are in `keep` on the node; a bound that is not
/// a number is an error wherever it is.
fn set_values(v: &ValueKeywords, node: &mut Schema, keep: &[ValueKeyword], errors: &mut darling::error::Accumulator) {
    let is_integer = node.type_ == Some(Type::Integer);
    let mut number = |k: ValueKeyword, v: &Option<SpannedValue<Json>>| -> Option<f64> {
        let v = v.as_ref()?;
        let name = k.attr_name();
        let Some(n) = v.0.as_f64() else {
            errors.push(Error::custom(format!("`{name}` must be a number")).with_span(&v.span()));
            return None;
        };
        if !keep.contains(&k) {
            return None;
        }
        if is_integer && n.fract() != 0.0 {
            errors.push(Error::custom(format!("`{name}` must be an integer on an integer field")).with_span(&v.span()));
        }
        Some(n)
    };
    node.minimum = number(ValueKeyword::Minimum, &v.minimum).or(node.minimum);
    node.maximum = number(ValueKeyword::Maximum, &v.maximum).or(node.maximum);
    node.multiple_of = number(ValueKeyword::MultipleOf, &v.multiple_of).or(node.multiple_of);
    let kept = |k: ValueKeyword| keep.contains(&k);
    node.exclusive_minimum |= v.exclusive_minimum.is_present() && kept(ValueKeyword::ExclusiveMinimum);
    node.exclusive_maximum |= v.exclusive_maximum.is_present() && kept(ValueKeyword::ExclusiveMaximum);
    let int = |k: ValueKeyword, v: &Option<SpannedValue<i64>>| v.as_ref().filter(|_| kept(k)).map(|v| **v);
    node.min_length = int(ValueKeyword::MinLength, &v.min_length).or(node.min_length);
    node.max_length = int(ValueKeyword::MaxLength, &v.max_length).or(node.max_length);
    node.min_items = int(ValueKeyword::MinItems, &v.min_items).or(node.min_items);
    node.max_items = int(ValueKeyword::MaxItems, &v.max_items).or(node.max_items);
    node.min_properties = int(ValueKeyword::MinProperties, &v.min_properties).or(node.min_properties);
    node.max_properties = int(ValueKeyword::MaxProperties, &v.max_properties).or(node.max_properties);
    if let Some(p) = v.pattern.as_ref().filter(|_| kept(ValueKeyword::Pattern)) {
        node.pattern = Some((**p).clone());
    }
}

/// A JSON list of strings (`["a", "b"]`).
fn string_list(v: &Json) -> Option<Vec<String>> {
    v.0.as_array()?.iter().map(|k| k.as_str().map(str::to_string)).collect()
}

fn is_permutation(a: &[String], b: &[String]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}

pub(super) fn rule(r: &RuleAttr) -> Result<ir::Rule> {
    if let Some(reason) = &r.reason
        && !matches!(
            reason.as_str(),
            "FieldValueInvalid" | "FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate"
        )
    {
        return Err(Error::custom(
            "`reason` is one of FieldValueInvalid, FieldValueForbidden, FieldValueRequired, FieldValueDuplicate",
        )
        .with_span(&reason.span()));
    }
    Ok(ir::Rule {
        rule: (*r.rule).clone(),
        message: r.message.clone(),
        message_expression: r.message_expression.clone(),
        reason: r.reason.as_ref().map(|s| (**s).clone()),
        field_path: r.field_path.clone(),
        optional_old_self: r.optional_old_self.is_present(),
    })
}

#[derive(Clone, Copy)]
enum OneOf {
    Exactly,
    AtMost,
    AtLeast,
}

/// controller-gen's `ExactlyOneOf`/`AtMostOneOf`/`AtLeastOneOf` rules, word for word.
fn one_of_rule(group: &Json, kind: OneOf, schema: &Schema, is_object: bool) -> Result<ir::Rule> {
    let names: Option<Vec<String>> = group
        .0
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect());
    let Some(names) = names.filter(|n| !n.is_empty()) else {
        return Err(Error::custom("a list of field names: `[\"a\", \"b\"]`"));
    };
    if !is_object {
        return Err(Error::custom("one-of rules apply to structs"));
    }
    for n in &names {
        if !schema.properties.contains_key(n) {
            return Err(Error::custom(format!("no field has the JSON name {n:?}")));
        }
        if schema.required.contains(n) {
            return Err(Error::custom(format!(
                "{n:?} is required; the fields of a one-of group must be optional"
            )));
        }
    }
    let list = names.join(" ");
    Ok(match kind {
        OneOf::Exactly | OneOf::AtMost => {
            let sum = names
                .iter()
                .map(|n| format!("(has(self.{n})?1:0)"))
                .collect::<Vec<_>>()
                .join(" + ");
            let (op, message) = match kind {
                OneOf::Exactly => ("==", format!("exactly one of the fields in [{list}] must be set")),
                _ => ("<=", format!("at most one of the fields in [{list}] may be set")),
            };
            ir::Rule {
                rule: format!("{sum} {op} 1"),
                message: Some(message),
                ..Default::default()
            }
        }
        OneOf::AtLeast => ir::Rule {
            rule: names
                .iter()
                .map(|n| format!("has(self.{n})"))
                .collect::<Vec<_>>()
                .join(" || "),
            message: Some(format!("at least one of the fields in [{list}] must be set")),
            ..Default::default()
        },
    })
}
