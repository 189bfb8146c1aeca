//! The API server's CRD checks on a derived item, at compile time: the item's schema
//! with its field types' schemas replaced by stand-ins ([`Schema::dyn_stand_in`]), so
//! what fails here fails in every CRD the item is part of. Each error is reported at
//! the field, rule or printer column it is about; errors about a stand-in are left to
//! the whole-CRD test the derive emits.
//!
//! In kube-derive's conventions what the API server would refuse is a compiler
//! warning, not an error: kube-derive compiles such code, and code written for it
//! must compile unchanged. A rule that does not compile stays an error.

use super::attrs::Convention;
use super::lower::Lowered;
use crate::ir::{self, Schema};
use darling::Error;
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

/// Checks a kind's CRD with the spec's own schema in place; `column_spans` are the
/// printer columns' attributes
/// and `root_rule_spans` the rules on the whole object.
pub fn check_resource(
    crd: &ir::Crd,
    spec: &Lowered,
    column_spans: &[Span],
    root_rule_spans: &[Span],
    flat: bool,
) -> darling::Result<TokenStream> {
    let mut crd = crd.clone();
    // A version with `storage = false` is one of several, merged with `merge_crds`,
    // which checks that exactly one is the storage version.
    crd.versions[0].storage = true;
    let root = &mut crd.versions[0].schema;
    // With `fields_at_root` the struct's fields are already the root's properties.
    if flat {
        stand_in_unknown(root, &spec.unknown);
    } else {
        root.properties
            .insert("spec".into(), open_foreign(&checked_schema(spec)));
    }
    for node in root.properties.values_mut() {
        *node = open_foreign(node);
    }
    // The root's rules: with `fields_at_root`, the struct's own, then those on the root.
    let mut root_rules: Vec<Span> = if flat { spec.rule_spans.clone() } else { Vec::new() };
    root_rules.extend_from_slice(root_rule_spans);
    let spans = Spans {
        columns: column_spans,
        root_rules: &root_rules,
    };
    report(&crd, spec, &spans, &spec.ident.span(), flat)
}

/// Where errors about what is not a field of the type are reported.
#[derive(Default)]
struct Spans<'a> {
    /// The printer columns' attributes.
    columns: &'a [Span],
    /// The rules on the whole object, in the root schema's order.
    root_rules: &'a [Span],
}

/// Checks a nested type's schema, as the `spec` of a made-up CRD.
pub fn check_type(l: &Lowered) -> darling::Result<TokenStream> {
    let mut root = Schema {
        type_: Some(ir::Type::Object),
        ..Default::default()
    };
    root.properties.insert("spec".into(), open_foreign(&checked_schema(l)));
    let crd = ir::Crd {
        name: "checks.derive.crd".into(),
        group: "derive.crd".into(),
        names: ir::Names {
            plural: "checks".into(),
            singular: "check".into(),
            kind: "Check".into(),
            list_kind: "CheckList".into(),
            ..Default::default()
        },
        scope: ir::Scope::Namespaced,
        all_versions: Vec::new(),
        versions: vec![ir::Version {
            name: "v1".into(),
            served: true,
            storage: true,
            deprecated: false,
            deprecation_warning: None,
            schema: root,
            subresources: Default::default(),
            printer_columns: Vec::new(),
            selectable_fields: Vec::new(),
        }],
        conversion: ir::Conversion::None,
        annotations: Default::default(),
        labels: Default::default(),
    };
    report(&crd, l, &Spans::default(), &l.ident.span(), false)
}

/// The type's schema as the checks see it: a field with a mistake, reported already,
/// is a stand-in as a field type is ([`Lowered::unknown`]).
fn checked_schema(l: &Lowered) -> Schema {
    let mut s = l.schema.clone();
    stand_in_unknown(&mut s, &l.unknown);
    s
}

fn stand_in_unknown(s: &mut Schema, unknown: &[String]) {
    for name in unknown {
        let node = s.properties.entry(name.clone()).or_default();
        *node = node.dyn_stand_in();
    }
}

/// `s` with every foreign node replaced by its stand-in ([`Schema::dyn_stand_in`]).
/// A default on such a field is checked by the test the derive emits, against the
/// field type's schema; so is a default known only at run time.
fn open_foreign(s: &Schema) -> Schema {
    if s.rust_type.is_some() {
        return s.dyn_stand_in();
    }
    let mut out = s.clone();
    if out
        .default
        .as_ref()
        .is_some_and(|d| d.get(crate::write::RUST_DEFAULT_KEY).is_some())
    {
        out.default = None;
    }
    for p in out.properties.values_mut() {
        *p = open_foreign(p);
    }
    if let Some(i) = &mut out.items {
        **i = open_foreign(i);
    }
    if let Some(ir::AdditionalProperties::Schema(a)) = &mut out.additional_properties {
        **a = open_foreign(a);
    }
    out
}

/// The prefix of every path in the spec's schema.
const SPEC: &str = "openAPIV3Schema.properties[spec]";

/// The API server's errors at their spans: compile errors, or in kube-derive's
/// conventions warnings (see the module documentation).
fn report(crd: &ir::Crd, l: &Lowered, spans: &Spans<'_>, type_span: &Span, flat: bool) -> darling::Result<TokenStream> {
    let found = match api_server_errors(&crate::write::crd(crd)) {
        Ok(found) => found,
        Err(unreadable) => return Err(Error::custom(unreadable.join("\n")).with_span(type_span)),
    };
    let mut stand_ins = Vec::new();
    let at = if flat { "" } else { "properties[spec]." };
    if flat {
        for (k, p) in &l.schema.properties {
            stand_in_paths(p, format!("properties[{k}]"), &mut stand_ins);
        }
    } else {
        stand_in_paths(&l.schema, "properties[spec]".to_string(), &mut stand_ins);
    }
    stand_ins.extend(l.unknown.iter().map(|name| format!("{at}properties[{name}]")));
    // Field types, fields with mistakes (and a root's status) are stand-ins here.
    let any_stand_in =
        !l.foreign.is_empty() || !l.unknown.is_empty() || crd.versions[0].schema.properties.contains_key("status");
    let mut errors = Error::accumulator();
    for e in found {
        if about_stand_in(&e.field, &stand_ins) {
            continue;
        }
        // A rule's estimated cost depends on the bounds of the field types it reaches
        // into, which a stand-in does not have; the emitted test checks the cost on the
        // whole CRD.
        if any_stand_in && (e.detail.contains("exceeds budget by factor") || e.detail.contains("exceeding cost limit"))
        {
            continue;
        }
        // A selectable field may lie inside a field type (or the status), which the
        // emitted test resolves.
        if any_stand_in && e.field.contains("selectableFields") && e.detail.contains("does not refer to a valid field")
        {
            continue;
        }
        let span = item_span(&e.field, l, spans).unwrap_or(*type_span);
        let message = match in_rust_terms(&e, l) {
            Some(ours) => format!("{ours}\nthe API server's message: {e}"),
            None => e.to_string(),
        };
        errors.push(Error::custom(message).with_span(&span));
    }
    if l.convention == Convention::Kube {
        // A rule that does not compile stays an error: it is a mistake in the code, and
        // finding it at compile time is what the rules are compiled for.
        let (rules, refusals): (Vec<Error>, Vec<Error>) = errors
            .into_inner()
            .into_iter()
            .partition(|e| e.to_string().contains("compilation failed"));
        if !rules.is_empty() {
            return Err(Error::multiple(rules));
        }
        // Stable proc-macros cannot warn; a deprecated item used at the span can.
        let warnings = refusals.into_iter().map(|e| {
            let note = format!("the API server would refuse this CRD: {e}");
            let span = e.span();
            quote_spanned! {span=>
                const _: () = {
                    #[deprecated(note = #note)]
                    #[allow(non_camel_case_types)]
                    struct crd_refused_by_the_api_server;
                    let _ = crd_refused_by_the_api_server;
                };
            }
        });
        return Ok(warnings.collect());
    }
    errors.finish_with(TokenStream::new())
}

/// The API server's CRD checks on a CRD object; `Err` when it does not read as one.
fn api_server_errors(crd: &serde_json::Value) -> Result<Vec<crd_runtime::FieldError>, Vec<String>> {
    let docs =
        crate::source::parse_text(std::path::Path::new("crd()"), crd.to_string()).map_err(|d| vec![d.message])?;
    let mut out = Vec::new();
    for mut doc in docs {
        match crate::convert::read_crd(&mut doc) {
            Ok(crate::convert::Read::Crd(model, _)) => out.extend(crate::check::check_crd_with(
                &model,
                &crate::cel::check::compile::AdmissionStages,
            )),
            Ok(crate::convert::Read::Other(..)) => return Err(vec!["not a CustomResourceDefinition".into()]),
            Err(diags) => return Err(diags.into_iter().map(|d| d.message).collect()),
        }
    }
    Ok(out)
}

/// The paths (below `openAPIV3Schema.`) of the stand-ins for field types.
fn stand_in_paths(s: &Schema, path: String, out: &mut Vec<String>) -> bool {
    if s.rust_type.is_some() {
        out.push(path);
        return true;
    }
    let mut below = false;
    for (k, p) in &s.properties {
        below |= stand_in_paths(p, format!("{path}.properties[{k}]"), out);
    }
    if let Some(i) = &s.items {
        below |= stand_in_paths(i, format!("{path}.items"), out);
    }
    if let Some(a) = s.additional_properties_schema() {
        below |= stand_in_paths(a, format!("{path}.additionalProperties"), out);
    }
    // A default holding values of a field type is checked against its real schema
    // by the emitted test.
    if below && s.default.is_some() {
        out.push(format!("{path}.default"));
    }
    below
}

/// Whether an error is about a stand-in (what it says of the stand-in's type, not of
/// the field type's): the test the derive emits checks the whole CRD instead.
fn about_stand_in(field: &str, stand_ins: &[String]) -> bool {
    let Some(at) = field.find("openAPIV3Schema.") else {
        return false;
    };
    let rest = &field[at + "openAPIV3Schema.".len()..];
    stand_ins.iter().any(|p| {
        rest.strip_prefix(p.as_str())
            .is_some_and(|tail| tail.is_empty() || tail.starts_with('.') || tail.starts_with('['))
    })
}

/// What an error is about in the derive's terms, where it is about a default or a
/// rule: the field and the attribute, or the rule as written, then what is wrong with
/// it (the API server's message, printed after, names them by schema path and prints
/// a rule as Go prints its struct).
fn in_rust_terms(e: &crd_runtime::FieldError, l: &Lowered) -> Option<String> {
    // Below the spec, or (a rule on the whole object) at the root.
    const ROOT: &str = "openAPIV3Schema";
    let rest = match e.field.find(SPEC) {
        Some(at) => &e.field[at + SPEC.len()..],
        None => &e.field[e.field.find(ROOT)? + ROOT.len()..],
    };
    let field = |rest: &str| -> Option<String> {
        let start = rest.rfind(".properties[")? + ".properties[".len();
        let json = &rest[start..start + rest[start..].find(']')?];
        let rust = l
            .field_names
            .iter()
            .find(|(j, _)| j == json)
            .map_or(json, |(_, r)| r.as_str());
        Some(format!("field `{rust}`"))
    };
    if let Some(node) = rest.strip_suffix(".default") {
        let at = field(node).unwrap_or_else(|| "the type".into());
        let value = e.bad_value.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
        let why = e.detail.trim().trim_start_matches("in body ").trim();
        return Some(format!("{at}: its default{value} does not pass its own schema: {why}"));
    }
    let rule_at = rest.find(".x-kubernetes-validations[")?;
    let which = if rest.ends_with(".messageExpression") {
        "messageExpression"
    } else {
        "Rule"
    };
    // The detail starts with the rule as Go prints its struct (JSON).
    let mut values = serde_json::Deserializer::from_str(&e.detail).into_iter::<serde_json::Value>();
    let rule = values.next()?.ok()?;
    let after = e.detail[values.byte_offset()..].trim_start_matches(':').trim_start();
    let text = rule.get(which).and_then(serde_json::Value::as_str)?;
    let at = field(&rest[..rule_at]).map(|f| format!(" on {f}")).unwrap_or_default();
    let what = if which == "Rule" { "rule" } else { "messageExpression" };
    let why = after
        .trim_start_matches("messageExpression ")
        .strip_prefix("compilation failed: ")
        .unwrap_or(after)
        .replace("ERROR: <input>:", "at ");
    // The fields a flattened type brings in join the schema at run time, after the
    // type's own rules were compiled without them.
    let hint = if at.is_empty() && !l.flattened.is_empty() && why.contains("undefined field") {
        "\nthe fields of a `#[serde(flatten)]` field are not known when this type's rules are compiled: \
         put the rule on the flattened type"
    } else {
        ""
    };
    Some(format!("{what} `{text}`{at} does not compile: {why}{hint}"))
}

/// The span of the field, type rule or printer column an error's path is about, if
/// it names one.
fn item_span(path: &str, l: &Lowered, spans: &Spans<'_>) -> Option<Span> {
    let index = |prefix: &str| -> Option<usize> {
        let at = path.find(prefix)? + prefix.len();
        path[at..at + path[at..].find(']')?].parse().ok()
    };
    if path.contains("additionalPrinterColumns[") {
        return spans.columns.get(index("additionalPrinterColumns[")?).copied();
    }
    if path.contains("openAPIV3Schema.x-kubernetes-validations[") {
        return spans
            .root_rules
            .get(index("openAPIV3Schema.x-kubernetes-validations[")?)
            .copied();
    }
    let rest = &path[path.find(SPEC)? + SPEC.len()..];
    if let Some(index) = rest.strip_prefix(".x-kubernetes-validations[") {
        let i: usize = index[..index.find(']')?].parse().ok()?;
        return l.rule_spans.get(i).copied();
    }
    let name = rest.strip_prefix(".properties[")?;
    let name = &name[..name.find(']')?];
    l.field_spans.iter().find(|(n, _)| n == name).map(|(_, s)| *s)
}

/// The API server's CRD checks on a CRD object, every error as it prints them.
pub fn check_crd_value(crd: &serde_json::Value) -> Vec<String> {
    match api_server_errors(crd) {
        Ok(found) => found.iter().map(|e| e.to_string()).collect(),
        Err(unreadable) => unreadable,
    }
}

/// [`check_crd_value`] on one derived version: when it is not the storage version
/// (one of several, merged with `merge_crds`, which checks the storage version), it
/// is checked as if it were.
pub fn check_derived_version(crd: &serde_json::Value) -> Vec<String> {
    let mut crd = crd.clone();
    if let Some(versions) = crd
        .pointer_mut("/spec/versions")
        .and_then(serde_json::Value::as_array_mut)
        && versions.len() == 1
    {
        versions[0]["storage"] = serde_json::Value::Bool(true);
    }
    check_crd_value(&crd)
}
