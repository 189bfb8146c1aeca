//! Expansion time of `#[derive(CustomResource)]` on a 100-field spec struct (the work
//! the proc-macro does per build: parsing the attributes, lowering, the compile-time
//! CRD checks, emitting the impls), and of `#[derive(CrdSchema)]` on a 100-field
//! nested struct; the same in kube-derive's spelling (`#[kube(...)]`, `#[x_kube(...)]`,
//! `#[schemars(...)]`, nested types deriving schemars' `JsonSchema`) for
//! `CustomResource` and `KubeSchema`. Target: under 50 ms per expansion.
//!
//! kube-derive is a proc-macro crate, whose expansion cannot be called from a
//! benchmark; no like-for-like row for it here.
//!
//! `cargo bench -p crd-codegen --bench derive`

use criterion::{Criterion, criterion_group, criterion_main};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// 100 fields, a mix of what specs hold: strings with patterns and lengths, bounded
/// integers with defaults, optional and nullable fields, lists with item bounds,
/// maps, nested types, and a few rules.
fn fields() -> Vec<TokenStream> {
    (0..100usize)
        .map(|i| {
            let name = format_ident!("field_{}", i);
            match i % 10 {
                0 => quote!(#[crd(max_length = 63, pattern = "^[a-z0-9-]+$")] pub #name: String,),
                1 => quote!(#[crd(minimum = 0, maximum = 100, default = 1)] pub #name: Option<i32>,),
                2 => quote!(pub #name: Option<Option<String>>,),
                3 => quote!(#[crd(max_items = 10, items(max_length = 20))] pub #name: Option<Vec<String>>,),
                4 => quote!(pub #name: Option<std::collections::BTreeMap<String, String>>,),
                5 => quote!(pub #name: Option<Nested>,),
                6 => quote!(#[crd(rule(rule = "self.size() <= 5", message = "at most five"))] pub #name: Option<Vec<i64>>,),
                7 => quote!(#[crd(format = "date-time")] pub #name: Option<String>,),
                8 => quote!(pub #name: Option<bool>,),
                _ => quote!(#[crd(enum = ["a", "b", "c"], default = "a")] pub #name: Option<String>,),
            }
        })
        .collect()
}

fn custom_resource_input() -> TokenStream {
    let fields = fields();
    quote! {
        #[crd(group = "bench.example.com", version = "v1", kind = "Big", namespaced,
              rule(rule = "self.field_1 <= self.field_11", message = "ordered"))]
        pub struct BigSpec { #( #fields )* }
    }
}

fn crd_schema_input() -> TokenStream {
    let fields = fields();
    quote! {
        pub struct BigNested { #( #fields )* }
    }
}

/// 100 fields as kube-derive users write them: `Option`s, `#[serde(default)]`, nested
/// types deriving `JsonSchema`, `#[schemars(...)]` constraints and `#[x_kube(...)]` rules.
fn kube_fields() -> Vec<TokenStream> {
    (0..100usize)
        .map(|i| {
            let name = format_ident!("field_{}", i);
            match i % 10 {
                0 => quote!(#[schemars(length(max = 63), regex(pattern = "^[a-z0-9-]+$"))] pub #name: String,),
                1 => quote!(#[serde(default = "default_replicas")] pub #name: i32,),
                2 => quote!(#[serde(skip_serializing_if = "Option::is_none")] pub #name: Option<String>,),
                3 => quote!(#[serde(default)] pub #name: Vec<String>,),
                4 => quote!(pub #name: Option<std::collections::BTreeMap<String, String>>,),
                5 => quote!(pub #name: Option<Nested>,),
                6 => quote!(#[x_kube(validation = Rule::new("self.size() <= 5").message("at most five"))] pub #name: Vec<i64>,),
                7 => quote!(pub #name: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>,),
                8 => quote!(#[x_kube(merge_strategy = ListMerge::Set)] pub #name: Vec<String>,),
                _ => quote!(pub #name: Option<Mode>,),
            }
        })
        .collect()
}

fn kube_custom_resource_input() -> TokenStream {
    let fields = kube_fields();
    quote! {
        #[kube(group = "bench.example.com", version = "v1", kind = "Big", namespaced, status = "BigStatus",
               validation = "self.spec.field1 <= self.spec.field11")]
        #[serde(rename_all = "camelCase")]
        pub struct BigSpec { #( #fields )* }
    }
}

fn kube_schema_input() -> TokenStream {
    let fields = kube_fields();
    quote! {
        #[x_kube(validation = "self.field_1 >= 0")]
        pub struct BigNested { #( #fields )* }
    }
}

fn derive(c: &mut Criterion) {
    let spec = custom_resource_input();
    let nested = crd_schema_input();
    let kube_spec = kube_custom_resource_input();
    let kube_nested = kube_schema_input();
    // The expansions must succeed (an error expands quickly, to `compile_error!`).
    let out = crd_codegen::derive::custom_resource(spec.clone()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    let out = crd_codegen::derive::crd_schema(nested.clone()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    let out = crd_codegen::derive::custom_resource(kube_spec.clone()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    let out = crd_codegen::derive::kube_schema(kube_nested.clone()).to_string();
    assert!(!out.contains("compile_error"), "{out}");

    let mut group = c.benchmark_group("derive_100_fields");
    group.bench_function("custom_resource", |b| {
        b.iter(|| crd_codegen::derive::custom_resource(spec.clone()))
    });
    group.bench_function("crd_schema", |b| {
        b.iter(|| crd_codegen::derive::crd_schema(nested.clone()))
    });
    group.bench_function("custom_resource_kube_spelling", |b| {
        b.iter(|| crd_codegen::derive::custom_resource(kube_spec.clone()))
    });
    group.bench_function("kube_schema", |b| {
        b.iter(|| crd_codegen::derive::kube_schema(kube_nested.clone()))
    });
    group.finish();
}

criterion_group!(benches, derive);
criterion_main!(benches);
