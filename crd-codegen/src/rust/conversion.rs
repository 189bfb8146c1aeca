//! What generated code says about a kind's versions: the version constants of each
//! root type, and the conversions between the versions of a kind.
//!
//! With the `None` strategy the API server converts by rewriting `apiVersion` and
//! pruning with the target's schema; each ordered pair of generated versions of such
//! a kind gets `impl Convert<to::Kind> for from::Kind`, calling the runtime's one
//! implementation (`crd_runtime::conversion::none`).

use super::emit::ident;
use super::plan::{Module, TypeBody};
use crate::ir;
use crd_runtime::versions;
use proc_macro2::TokenStream;
use quote::quote;

/// `SERVED_VERSIONS`, `STORAGE_VERSION` and `DEPRECATION_WARNING` of the root type
/// `name` of `version`, from every version the CRD lists.
pub fn version_consts(name: &proc_macro2::Ident, crd: &ir::Crd, version: &ir::Version) -> TokenStream {
    let mut served: Vec<&str> = crd
        .all_versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.as_str())
        .collect();
    versions::sort_by_priority(&mut served);
    let storage = crd
        .all_versions
        .iter()
        .find(|v| v.storage)
        .map_or("", |v| v.name.as_str());
    let warning = crd.deprecation_warning(version);
    let warning = match &warning {
        Some(w) => quote!(Some(#w)),
        None => quote!(None),
    };
    quote! {
        impl #name {
            /// The versions of this kind the API server serves, highest priority first:
            /// the first is the one `kubectl` uses when none is named.
            pub const SERVED_VERSIONS: &'static [&'static str] = &[ #( #served ),* ];
            /// The version objects of this kind are stored at.
            pub const STORAGE_VERSION: &'static str = #storage;
            /// The warning the API server returns with every request for this version,
            /// when it is deprecated.
            pub const DEPRECATION_WARNING: Option<&'static str> = #warning;
        }
    }
}

/// The conversions between the versions of each kind of one API group (`modules` are
/// the group's version modules), for the group's module.
pub fn group_conversions(modules: &[Module]) -> TokenStream {
    // Every root type of the group: (CRD, version module, type name).
    let roots: Vec<(&ir::Crd, &str, &str)> = modules
        .iter()
        .flat_map(|m| {
            m.types.iter().filter_map(move |t| match &t.body {
                TypeBody::Root(root) => Some((root.crd, m.version_mod.as_str(), t.name.as_str())),
                _ => None,
            })
        })
        .collect();
    let mut out = TokenStream::new();
    for (crd, from_mod, from_name) in &roots {
        if crd.conversion != ir::Conversion::None {
            continue;
        }
        for (other, to_mod, to_name) in &roots {
            // The same CRD (a project may define a kind twice, in variants of one name).
            if !std::ptr::eq(*crd, *other) || to_mod == from_mod {
                continue;
            }
            let (from_mod, from_name, to_mod, to_name) =
                (ident(from_mod), ident(from_name), ident(to_mod), ident(to_name));
            out.extend(quote! {
                impl ::crd_runtime::Convert<#to_mod::#to_name> for #from_mod::#from_name {
                    fn convert(&self) -> ::crd_runtime::conversion::Result<#to_mod::#to_name> {
                        ::crd_runtime::conversion::none(self)
                    }
                }
            });
        }
    }
    out
}
