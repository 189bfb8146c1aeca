//! Definitions a derive needs but cannot see: the fields of a `#[serde(flatten)]`
//! struct (they become the holder's) and of a generic struct used with arguments
//! (`Range<i32>`: the instance's schema is derived where it is used). So every
//! `#[derive(CrdSchema)]` struct also defines a macro, named like the type (macros
//! and types live in different namespaces), that hands its definition over: a holder
//! that needs one expands to a call of its macro, which appends the definition and
//! calls `crd_derive::__flattened!`, and so on until every definition is at hand; then
//! the holder is derived with them (`lower::lower_flattened`, `lower::instantiate`).
//!
//! The type must be in scope where the holder is, as its fields' types are read there
//! too.

use super::attrs::TypeInput;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// Which derive the holder asked for.
#[derive(Clone, Copy)]
pub enum Mode {
    CrdSchema,
    KubeSchema,
    CustomResource,
}

impl Mode {
    fn ident(self) -> Ident {
        match self {
            Mode::CrdSchema => format_ident!("CrdSchema"),
            Mode::KubeSchema => format_ident!("KubeSchema"),
            Mode::CustomResource => format_ident!("CustomResource"),
        }
    }
}

/// The name of a flattened struct type: the last segment of a plain path (no
/// arguments: a flattened generic struct is not supported).
pub fn type_name(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    (p.qself.is_none() && last.arguments.is_none()).then(|| last.ident.to_string())
}

/// The macro a derived struct defines for structs that flatten it. Its own name
/// carries a hash of the definition: `macro_rules!` names reach into child modules,
/// where another type of the same name may define its own.
pub fn handover_macro(ident: &Ident, input: &TokenStream) -> TokenStream {
    let hash = input.to_string().bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let name = format_ident!("__crd_flatten_{}_{:016x}", ident, hash);
    quote! {
        #[doc(hidden)]
        macro_rules! #name {
            ($($rest:tt)*) => { ::crd_derive::__flattened! { $($rest)* [ #input ] } };
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        pub(crate) use #name as #ident;
    }
}

/// The first definition the holder (or a definition already at hand) needs and
/// does not have: of a flattened struct, or of a generic type used with arguments.
/// The path of its macro.
fn pending(holder: &TypeInput, at_hand: &[TypeInput]) -> Option<syn::Path> {
    let known = |name: &str| holder.ident == name || at_hand.iter().any(|i| i.ident == name);
    let mut wanted = Vec::new();
    for t in std::iter::once(holder).chain(at_hand) {
        let fields: Vec<&super::attrs::FieldInput> = match &t.data {
            darling::ast::Data::Struct(fields) => fields.iter().collect(),
            darling::ast::Data::Enum(variants) => variants.iter().flat_map(|v| v.fields.iter()).collect(),
        };
        for f in fields {
            // In kube-derive's conventions a flattened type's schema is merged in when
            // the schema is composed (`lower::Lowered::flattened`), not handed over.
            let flatten = t.convention != super::attrs::Convention::Kube
                && super::attrs::SerdeAttrs::parse(&f.attrs).is_ok_and(|s| s.flatten);
            let ty = super::lower::strip_options(&f.ty).1;
            if flatten
                && super::lower::map_value_type(ty).is_none()
                && let syn::Type::Path(p) = ty
            {
                wanted.push(p.path.clone());
            }
            // In kube-derive's conventions a generic field type is one whose schema
            // comes from its own impl (its `JsonSchema`), like any other.
            if t.convention != super::attrs::Convention::Kube {
                generic_instances(&f.ty, &mut wanted);
            }
        }
    }
    wanted
        .into_iter()
        .find(|p| p.segments.last().is_some_and(|s| !known(&s.ident.to_string())))
}

/// The generic types used with arguments in `ty`, other than the ones the derive
/// knows (`Vec<T>`, `Option<T>`, maps, ...), as paths without the arguments.
fn generic_instances(ty: &syn::Type, out: &mut Vec<syn::Path>) {
    let syn::Type::Path(p) = ty else { return };
    let Some(last) = p.path.segments.last() else { return };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return;
    };
    let known = matches!(
        last.ident.to_string().as_str(),
        "Option"
            | "Vec"
            | "VecDeque"
            | "HashSet"
            | "BTreeSet"
            | "IndexSet"
            | "Box"
            | "Arc"
            | "Rc"
            | "BTreeMap"
            | "HashMap"
            | "IndexMap"
            | "Map"
            | "JsonMap"
    );
    if !known && p.qself.is_none() {
        let mut path = p.path.clone();
        if let Some(seg) = path.segments.last_mut() {
            seg.arguments = syn::PathArguments::None;
        }
        out.push(path);
    }
    for arg in &args.args {
        if let syn::GenericArgument::Type(t) = arg {
            generic_instances(t, out);
        }
    }
}

/// The holder's expansion while a definition is missing: a call of the macro that
/// hands it over.
pub fn request(
    mode: Mode,
    holder: &TypeInput,
    input: &TokenStream,
    at_hand: &[TokenStream],
) -> darling::Result<Option<TokenStream>> {
    // Their attribute mistakes are their own derives' to report.
    let parsed = parse_items(at_hand)?
        .iter()
        .map(|di| super::partial::parse(di).map(|(parsed, _)| parsed))
        .collect::<darling::Result<Vec<_>>>()?;
    let Some(path) = pending(holder, &parsed) else {
        return Ok(None);
    };
    let mode = mode.ident();
    Ok(Some(quote_spanned! {path.span()=>
        #path! { #mode { #input } #( [ #at_hand ] )* }
    }))
}

/// The definitions handed over, parsed.
pub fn parse_items(items: &[TokenStream]) -> syn::Result<Vec<syn::DeriveInput>> {
    items.iter().map(|t| syn::parse2(t.clone())).collect()
}

/// `crd_derive::__flattened! { Mode { holder } [definition]... }`, split.
pub fn split(input: TokenStream) -> syn::Result<(Mode, TokenStream, Vec<TokenStream>)> {
    use proc_macro2::{Delimiter, TokenTree};
    let mut tokens = input.into_iter();
    let mode = match tokens.next() {
        Some(TokenTree::Ident(i)) if i == "CrdSchema" => Mode::CrdSchema,
        Some(TokenTree::Ident(i)) if i == "KubeSchema" => Mode::KubeSchema,
        Some(TokenTree::Ident(i)) if i == "CustomResource" => Mode::CustomResource,
        other => {
            let span = other.map_or_else(proc_macro2::Span::call_site, |t| t.span());
            return Err(syn::Error::new(span, "expected `CrdSchema` or `CustomResource`"));
        }
    };
    let holder = match tokens.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g.stream(),
        _ => return Err(syn::Error::new(proc_macro2::Span::call_site(), "expected `{ holder }`")),
    };
    let mut items = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => items.push(g.stream()),
            other => return Err(syn::Error::new(other.span(), "expected `[definition]`")),
        }
    }
    Ok((mode, holder, items))
}
